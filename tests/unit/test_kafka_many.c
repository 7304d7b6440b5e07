/* Unit tests for mm2_kafka_read_many on librdkafka's in-process mock cluster (rdkafka_mock.h):
 * many partition ranges read in one pass, each ending at its last offset, at the partition's
 * end, or at its byte budget. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "mock_kafka.h"

#include "mm2_kafka.h"
#include "mm2_kafka_handle.h" /* per_reader: a few partitions spread over several handles */

#define PARTS 40

struct fixture {
    struct mock_kafka m;
    struct mm2_kafka *k;
};

/* Topic "t" of PARTS partitions; partition p holds 2 * p records, value "v<p>-<offset>". */
static int setup(void **state)
{
    static struct fixture f;
    struct mm2_error err = {0};

    memset(&f, 0, sizeof(f));
    mock_kafka_up(&f.m);
    mock_kafka_topic(&f.m, "t", PARTS);
    for (int p = 0; p < PARTS; p++)
        for (int o = 0; o < 2 * p; o++) {
            char v[32];
            (void)snprintf(v, sizeof(v), "v%d-%d", p, o);
            assert_int_equal(
                rd_kafka_producev(f.m.writer, RD_KAFKA_V_TOPIC("t"), RD_KAFKA_V_PARTITION(p),
                                  RD_KAFKA_V_VALUE(v, strlen(v)),
                                  RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_END),
                0);
        }
    assert_int_equal(rd_kafka_flush(f.m.writer, 30000), 0);
    {
        struct mm2_kv props[] = {{"bootstrap.servers", rd_kafka_mock_cluster_bootstraps(f.m.mc)}};
        assert_int_equal(mm2_kafka_new("source", props, 1, &f.k, &err), MM2_OK);
    }
    *state = &f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;

    mm2_kafka_free(f->k);
    mock_kafka_down(&f->m);
    return 0;
}

static void assert_values(const struct mm2_record_list *l, int p, int64_t from, int64_t to)
{
    assert_int_equal(l->n, (size_t)(to - from));
    for (size_t i = 0; i < l->n; i++) {
        char v[32];
        (void)snprintf(v, sizeof(v), "v%d-%lld", p, (long long)(from + (int64_t)i));
        assert_int_equal(l->v[i].offset, from + (int64_t)i);
        assert_int_equal(l->v[i].value_len, strlen(v));
        assert_memory_equal(l->v[i].value, v, strlen(v));
        assert_null(l->v[i].key);
    }
}

static void read_every_range(struct fixture *f)
{
    struct mm2_read_range r[PARTS];
    struct mm2_record_list out[PARTS];
    bool cut[PARTS];
    struct mm2_deadline dl;
    struct mm2_error err = {0};

    /* Each partition's last 3 records, or all of a shorter one; partition 0 is empty. */
    for (int p = 0; p < PARTS; p++)
        r[p] = (struct mm2_read_range){"t", p, 2 * p > 3 ? 2 * p - 3 : 0, 2 * p};
    struct mm2_read_caps caps = {1 << 20, SIZE_MAX};

    mm2_deadline_start(&dl, 20000);
    assert_int_equal(mm2_kafka_read_many(f->k, r, PARTS, false, &caps, &dl, out, cut, NULL, &err),
                     MM2_OK);
    for (int p = 0; p < PARTS; p++) {
        assert_values(&out[p], p, r[p].from, r[p].until);
        assert_false(cut[p]);
        mm2_record_list_free(&out[p]);
    }
}

static void test_read_many_reads_every_range_in_one_pass(void **state)
{
    read_every_range(*state);
}

static void test_read_many_stops_at_the_partition_end_and_at_the_budget(void **state)
{
    struct fixture *f = *state;
    struct mm2_read_range r[] = {{"t", 2, 1, 1000}, {"t", 30, 0, 60}, {"t", 3, 2, 2}};
    struct mm2_record_list out[3];
    bool cut[3];
    struct mm2_deadline dl;
    struct mm2_error err = {0};

    struct mm2_read_caps caps = {40, SIZE_MAX};

    mm2_deadline_start(&dl, 20000);
    /* "v30-0" to "v30-9" are 5 bytes each: a budget of 40 bytes holds exactly the first 8. */
    assert_int_equal(mm2_kafka_read_many(f->k, r, 3, true, &caps, &dl, out, cut, NULL, &err),
                     MM2_OK);
    assert_values(&out[0], 2, 1, 4); /* until beyond the end: read up to the end, not waited */
    assert_false(cut[0]);
    assert_values(&out[1], 30, 0, 8);
    assert_true(cut[1]);
    assert_values(&out[2], 3, 2, 2);
    for (int i = 0; i < 3; i++)
        mm2_record_list_free(&out[i]);
}

static void read_within_a_memory_cap(struct fixture *f)
{
    struct mm2_read_range r[PARTS];
    struct mm2_record_list out[PARTS];
    bool cut[PARTS], deferred[PARTS];
    struct mm2_deadline dl;
    struct mm2_error err = {0};
    /* Room for about 40 records of the 1,560 asked: most ranges are deferred. */
    struct mm2_read_caps caps = {1 << 20, 40 * 200};
    size_t held = 0, read = 0, later = 0;

    for (int p = 0; p < PARTS; p++)
        r[p] = (struct mm2_read_range){"t", p, 0, 2 * p};
    mm2_deadline_start(&dl, 20000);
    assert_int_equal(
        mm2_kafka_read_many(f->k, r, PARTS, false, &caps, &dl, out, cut, deferred, &err), MM2_OK);
    for (int p = 0; p < PARTS; p++) {
        assert_false(cut[p]);
        if (deferred[p]) {
            /* Nothing kept of a deferred range: it is read again from its start. */
            assert_int_equal(out[p].n, 0);
            assert_null(out[p].v);
            later++;
        } else {
            assert_values(&out[p], p, 0, 2 * p);
            held += mm2_record_list_cost(&out[p]);
            read += p > 0;
        }
        mm2_record_list_free(&out[p]);
    }
    assert_true(held <= caps.memory);
    assert_true(read >= 1);
    assert_true(later >= PARTS / 2);
    /* The deferred ranges read again, without a cap, in a later read of the same client. */
    {
        struct mm2_read_range again[PARTS];
        size_t m = 0;
        struct mm2_read_caps all = {1 << 20, SIZE_MAX};
        for (int p = 0; p < PARTS; p++)
            if (deferred[p])
                again[m++] = r[p];
        assert_int_equal(
            mm2_kafka_read_many(f->k, again, m, false, &all, &dl, out, cut, NULL, &err), MM2_OK);
        for (size_t j = 0; j < m; j++) {
            assert_values(&out[j], again[j].partition, 0, again[j].until);
            mm2_record_list_free(&out[j]);
        }
    }
}

static void test_read_many_defers_what_passes_the_memory_cap(void **state)
{
    read_within_a_memory_cap(*state);
}

/* The same reads with the ranges spread over several handles, each on its thread: 7 partitions
 * a handle (6 handles for the 39 ranges to read), then 1 (the 8 handles' cap: 5 each). The
 * memory cap holds over all of them together, and a pause one handle left is lifted when a later
 * read puts the partition on another. */
static void test_read_many_spreads_the_ranges_over_handles(void **state)
{
    struct fixture *f = *state;
    size_t per[] = {7, 1};

    size_t last[] = {4, MM2_KAFKA_HANDLE_READERS - 2}; /* the last extra handle each spread makes */

    for (size_t i = 0; i < sizeof(per) / sizeof(per[0]); i++) {
        f->k->per_reader = per[i];
        read_every_range(f);
        read_within_a_memory_cap(f);
        assert_non_null(f->k->extra[0][last[i]].rk); /* the read was spread, not on one */
    }
    assert_null(f->k->extra[1][0].rk); /* read_uncommitted only: no read_committed reader */
    f->k->per_reader = MM2_KAFKA_HANDLE_PER_READER;
    read_every_range(f);
}

/* Released between reads, the extra handles are gone, made again by the next read, and what
 * they sent stays counted. */
static void test_read_many_readers_released_and_made_again(void **state)
{
    struct fixture *f = *state;
    long before;

    f->k->per_reader = 7;
    read_every_range(f);
    assert_non_null(f->k->extra[0][4].rk);
    before = mm2_kafka_requests(f->k);
    mm2_kafka_readers_release(f->k);
    for (size_t j = 0; j < MM2_KAFKA_HANDLE_READERS - 1; j++)
        assert_null(f->k->extra[0][j].rk);
    assert_non_null(f->k->h[0].rk); /* the first lane's is the client's own handle: kept */
    /* Not fewer: a handle may still have sent one more (a fetch) before it was destroyed. */
    assert_true(mm2_kafka_requests(f->k) >= before);
    before = mm2_kafka_requests(f->k);
    read_every_range(f);
    assert_non_null(f->k->extra[0][4].rk);
    assert_true(mm2_kafka_requests(f->k) > before);
    mm2_kafka_readers_release(NULL);
    f->k->per_reader = MM2_KAFKA_HANDLE_PER_READER;
}

/* Released whole between reads (export's turns), every handle is gone, the client's own two
 * included, and the next read makes what it needs again, its requests counted on top. */
static void test_read_many_every_handle_released_and_made_again(void **state)
{
    struct fixture *f = *state;
    long before;

    f->k->per_reader = 7;
    read_every_range(f);
    assert_non_null(f->k->h[0].rk);
    assert_non_null(f->k->extra[0][4].rk);
    before = mm2_kafka_requests(f->k);
    mm2_kafka_release(f->k);
    assert_null(f->k->h[0].rk);
    assert_null(f->k->h[1].rk);
    for (size_t j = 0; j < MM2_KAFKA_HANDLE_READERS - 1; j++)
        assert_null(f->k->extra[0][j].rk);
    assert_true(mm2_kafka_requests(f->k) >= before);
    before = mm2_kafka_requests(f->k);
    read_every_range(f);
    assert_non_null(f->k->h[0].rk);
    assert_non_null(f->k->extra[0][4].rk);
    assert_true(mm2_kafka_requests(f->k) > before);
    mm2_kafka_release(NULL);
    f->k->per_reader = MM2_KAFKA_HANDLE_PER_READER;
}

/* One handle's failure is the read's: a range past its partition's end (t[39] holds 78
 * records) on the last of 6 handles ends the read with its message, the others' ranges read or
 * not. */
static void test_read_many_spread_fails_with_the_failing_handle(void **state)
{
    struct fixture *f = *state;
    struct mm2_read_range r[PARTS];
    struct mm2_record_list out[PARTS];
    bool cut[PARTS];
    struct mm2_deadline dl;
    struct mm2_error err = {0};
    struct mm2_read_caps caps = {1 << 20, SIZE_MAX};

    for (int p = 0; p < PARTS; p++)
        r[p] = (struct mm2_read_range){"t", p, 0, 2 * p};
    r[39] = (struct mm2_read_range){"t", 39, 500, 600};
    f->k->per_reader = 7;
    mm2_deadline_start(&dl, 20000);
    assert_int_equal(mm2_kafka_read_many(f->k, r, PARTS, false, &caps, &dl, out, cut, NULL, &err),
                     MM2_UNEXPECTED);
    assert_non_null(strstr(err.msg, "read t[39]: offset 500 is outside the partition's log"));
    for (int p = 0; p < PARTS; p++)
        mm2_record_list_free(&out[p]);
    f->k->per_reader = MM2_KAFKA_HANDLE_PER_READER;
}

/* The Kafka protocol's ApiKeys (librdkafka's RD_KAFKAP_ names are internal). */
#define API_FETCH 1
#define API_FIND_COORDINATOR 10

/* A broker that refuses the never-joined private group's coordinator lookup
 * (FindCoordinator: GROUP_AUTHORIZATION_FAILED, what every principal of docs/acls.md gets: none
 * holds an ACL on that group, none needs one) sends an event of no partition: the read goes on
 * and returns its records, and never reads a topic out of the event (it has none: a crash on
 * the least-privilege bed, 2026-12-06). A cluster of its own, whose Fetch answers are held back
 * 3 s, so that the event comes before any record. */
static void test_read_many_goes_on_when_the_private_group_is_refused(void **state)
{
    struct mock_kafka m;
    struct mm2_read_range r[1] = {{"g", 0, 0, 3}};
    struct mm2_record_list out[1];
    bool cut[1];
    struct mm2_deadline dl;
    struct mm2_error err = {0};
    struct mm2_read_caps caps = {1 << 20, SIZE_MAX};
    struct mm2_kafka *k = NULL;
    rd_kafka_resp_err_t e[64];

    (void)state;
    memset(&m, 0, sizeof(m));
    mock_kafka_up(&m);
    mock_kafka_topic(&m, "g", 1);
    for (int o = 0; o < 3; o++)
        assert_int_equal(rd_kafka_producev(m.writer, RD_KAFKA_V_TOPIC("g"), RD_KAFKA_V_PARTITION(0),
                                           RD_KAFKA_V_VALUE("v", 1),
                                           RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
                                           RD_KAFKA_V_END),
                         0);
    assert_int_equal(rd_kafka_flush(m.writer, 30000), 0);
    for (size_t i = 0; i < sizeof(e) / sizeof(e[0]); i++)
        e[i] = RD_KAFKA_RESP_ERR_GROUP_AUTHORIZATION_FAILED;
    rd_kafka_mock_push_request_errors_array(m.mc, API_FIND_COORDINATOR, sizeof(e) / sizeof(e[0]),
                                            e);
    rd_kafka_mock_broker_push_request_error_rtts(
        m.mc, 1, API_FETCH, 4, RD_KAFKA_RESP_ERR_NO_ERROR, 3000, RD_KAFKA_RESP_ERR_NO_ERROR, 3000,
        RD_KAFKA_RESP_ERR_NO_ERROR, 3000, RD_KAFKA_RESP_ERR_NO_ERROR, 3000);
    {
        struct mm2_kv props[] = {{"bootstrap.servers", rd_kafka_mock_cluster_bootstraps(m.mc)}};
        assert_int_equal(mm2_kafka_new("source", props, 1, &k, &err), MM2_OK);
    }
    mm2_deadline_start(&dl, 20000);
    assert_int_equal(mm2_kafka_read_many(k, r, 1, false, &caps, &dl, out, cut, NULL, &err), MM2_OK);
    assert_int_equal(out[0].n, 3);
    assert_false(cut[0]);
    mm2_record_list_free(&out[0]);
    mm2_kafka_free(k);
    mock_kafka_down(&m);
}

/* A read leaves the partitions it paused paused (resuming 10,000 cost librdkafka about 0.35 s):
 * the next read of the same client that assigns one lifts its pause, a single read included. */
static void test_a_later_read_lifts_the_pause(void **state)
{
    struct fixture *f = *state;
    /* 20 ends before its partition's end (40 records): paused once the queue is idle, which it
     * is while 1 waits for its end (an until past the end ends at the partition's end). */
    struct mm2_read_range r[] = {{"t", 20, 0, 5}, {"t", 1, 0, 1000}};
    struct mm2_record_list out[2], one;
    bool cut[2];
    struct mm2_deadline dl;
    struct mm2_error err = {0};
    struct mm2_read_caps caps = {1 << 20, SIZE_MAX};
    long t0;

    mm2_deadline_start(&dl, 20000);
    for (int pass = 0; pass < 2; pass++) {
        assert_int_equal(mm2_kafka_read_many(f->k, r, 2, false, &caps, &dl, out, cut, NULL, &err),
                         MM2_OK);
        assert_values(&out[0], 20, 0, 5);
        assert_values(&out[1], 1, 0, 2);
        mm2_record_list_free(&out[0]);
        mm2_record_list_free(&out[1]);
    }
    t0 = mm2_deadline_now_ms();
    assert_int_equal(mm2_kafka_read(f->k, "t", 20, 5, 9, 100, false, &dl, &one, &err), MM2_OK);
    assert_values(&one, 20, 5, 9);
    mm2_record_list_free(&one);
    assert_true(mm2_deadline_now_ms() - t0 < 5000); /* not the deadline of a paused partition */
}

static void test_record_cost_counts_slots_and_allocations(void **state)
{
    unsigned char k[2] = "k", v[5] = "valu";
    char name[] = "h";
    struct mm2_header h = {name, v, 3};
    struct mm2_record r = {0, 0, 0, k, 1, v, 4, NULL, 0};
    struct mm2_record_list l = {&r, 1};
    size_t bare;

    (void)state;
    bare = mm2_record_cost(&r);
    assert_int_equal(bare, 2 * sizeof(r) + 2 * MM2_RECORD_ALLOC_COST + 5);
    r.headers = &h;
    r.nheaders = 1;
    assert_int_equal(mm2_record_cost(&r),
                     bare + MM2_RECORD_ALLOC_COST + sizeof(h) + 2 * MM2_RECORD_ALLOC_COST + 2 + 3);
    assert_int_equal(mm2_record_list_cost(&l), mm2_record_cost(&r));
    assert_int_equal(mm2_record_list_cost(NULL), 0);
}

/* librdkafka's mock cluster has no DescribeConfigs: the request is built and queued, and no
 * broker answers it before the deadline. Not a failure to build the request (librdkafka refuses
 * a config entry without a value, which this call once passed and reported as out of memory). */
static void test_compacted_request_is_sent_and_waited_for(void **state)
{
    struct fixture *f = *state;
    const char *topics[] = {"t"};
    bool c[1] = {true};
    struct mm2_deadline dl;
    struct mm2_error err = {0};

    mm2_deadline_start(&dl, 1000);
    assert_int_equal(mm2_kafka_compacted(f->k, topics, 1, c, &dl, &err), MM2_UNREACHABLE);
    assert_string_equal(err.msg, "[source] cleanup.policy of the topics: no complete answer by the "
                                 "deadline (_TIMED_OUT)");
}

static void test_read_many_refuses_bad_arguments(void **state)
{
    struct fixture *f = *state;
    struct mm2_read_range r[] = {{"t", 1, 0, 2}, {"t", 1, 0, 2}};
    struct mm2_read_range neg[] = {{"t", 1, -1, 2}};
    struct mm2_record_list out[2];
    bool cut[2];
    struct mm2_deadline dl;
    struct mm2_error err = {0};

    struct mm2_read_caps caps = {100, SIZE_MAX}, no_budget = {0, SIZE_MAX}, no_memory = {100, 0};
    struct mm2_read_caps capped = {100, 1000};
    bool deferred[2];

    mm2_deadline_start(&dl, 5000);
    assert_int_equal(mm2_kafka_read_many(f->k, r, 2, false, &caps, &dl, out, cut, NULL, &err),
                     MM2_USAGE);
    assert_string_equal(err.msg, "[source] t[1] is listed twice");
    assert_int_equal(mm2_kafka_read_many(f->k, neg, 1, false, &caps, &dl, out, cut, NULL, &err),
                     MM2_USAGE);
    assert_int_equal(mm2_kafka_read_many(f->k, r, 1, false, &no_budget, &dl, out, cut, NULL, &err),
                     MM2_USAGE);
    assert_int_equal(
        mm2_kafka_read_many(f->k, r, 1, false, &no_memory, &dl, out, cut, deferred, &err),
        MM2_USAGE);
    /* A memory cap needs the flags that say which ranges it deferred. */
    assert_int_equal(mm2_kafka_read_many(f->k, r, 1, false, &capped, &dl, out, cut, NULL, &err),
                     MM2_USAGE);
    assert_int_equal(mm2_kafka_read_many(f->k, r, 1, false, NULL, &dl, out, cut, NULL, &err),
                     MM2_USAGE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_many_reads_every_range_in_one_pass),
        cmocka_unit_test(test_read_many_stops_at_the_partition_end_and_at_the_budget),
        cmocka_unit_test(test_read_many_defers_what_passes_the_memory_cap),
        cmocka_unit_test(test_a_later_read_lifts_the_pause),
        cmocka_unit_test(test_read_many_spreads_the_ranges_over_handles),
        cmocka_unit_test(test_read_many_readers_released_and_made_again),
        cmocka_unit_test(test_read_many_every_handle_released_and_made_again),
        cmocka_unit_test(test_read_many_spread_fails_with_the_failing_handle),
        cmocka_unit_test(test_read_many_goes_on_when_the_private_group_is_refused),
        cmocka_unit_test(test_record_cost_counts_slots_and_allocations),
        cmocka_unit_test(test_read_many_refuses_bad_arguments),
        cmocka_unit_test(test_compacted_request_is_sent_and_waited_for),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
