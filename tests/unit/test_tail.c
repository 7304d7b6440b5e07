/* Unit tests for mm2_tail on librdkafka's in-process mock cluster (rdkafka_mock.h): a source
 * topic and the target a copier left in each state, read back and classified. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "mock_kafka.h"

#include "mm2_tail.h"

#define SRC_RECORDS 30
#define PARTS 5

struct fixture {
    struct mock_kafka m;
    struct mm2_kafka *src, *tgt;
};

/* Source partition sp's records [from, to) into topic t, partition p: key and value as the
 * source has them. */
static void put(struct fixture *f, const char *t, int p, int sp, int from, int to)
{
    for (int o = from; o < to; o++) {
        char k[16], v[32];
        (void)snprintf(k, sizeof(k), "k%d", o % 4);
        (void)snprintf(v, sizeof(v), "s%d-%d", sp, o);
        assert_int_equal(
            rd_kafka_producev(f->m.writer, RD_KAFKA_V_TOPIC(t), RD_KAFKA_V_PARTITION(p),
                              RD_KAFKA_V_KEY(k, strlen(k)), RD_KAFKA_V_VALUE(v, strlen(v)),
                              RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_END),
            0);
    }
}

static int setup(void **state)
{
    static struct fixture f;
    struct mm2_error err = {0};
    struct mm2_kv props[1];

    memset(&f, 0, sizeof(f));
    mock_kafka_up(&f.m);
    mock_kafka_topic(&f.m, "s", PARTS);
    mock_kafka_topic(&f.m, "t", PARTS);
    for (int p = 0; p < PARTS; p++)
        put(&f, "s", p, p, 0, SRC_RECORDS);
    put(&f, "t", 0, 0, 0, 20); /* C 20: aligned */
    put(&f, "t", 1, 1, 0, 17); /* C 20: behind by 3 */
    put(&f, "t", 2, 2, 0, 24); /* C 20: ahead by 4 */
    /* partition 3 of t stays empty: C 10 is unplaced */
    put(&f, "t", 4, 0, 0, 12); /* source partition 0's records: unplaced */
    assert_int_equal(rd_kafka_flush(f.m.writer, 30000), 0);
    props[0] = (struct mm2_kv){"bootstrap.servers", rd_kafka_mock_cluster_bootstraps(f.m.mc)};
    assert_int_equal(mm2_kafka_new("source", props, 1, &f.src, &err), MM2_OK);
    assert_int_equal(mm2_kafka_new("target", props, 1, &f.tgt, &err), MM2_OK);
    *state = &f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;

    mm2_kafka_free(f->src);
    mm2_kafka_free(f->tgt);
    mock_kafka_down(&f->m);
    return 0;
}

static const int64_t tgt_end[PARTS] = {20, 17, 24, 0, 12};
static const int64_t cs[PARTS] = {20, 20, 20, 10, 12};

static void parts(struct mm2_tail_part *p)
{
    for (int i = 0; i < PARTS; i++)
        p[i] = (struct mm2_tail_part){"s", "t", i, cs[i], 0, SRC_RECORDS, 0, tgt_end[i], false};
}

static void test_tail_classifies_each_copy(void **state)
{
    struct fixture *f = *state;
    struct mm2_tail_part p[PARTS];
    struct mm2_tail_params prm = {8, 8, 1 << 20, 64 << 20, {false, false}};
    struct mm2_bnd_result r[PARTS];
    struct mm2_tail_stats stats;
    struct mm2_deadline dl;
    struct mm2_error err = {0};

    parts(p);
    mm2_deadline_start(&dl, 30000);
    assert_int_equal(mm2_tail_classify(f->src, f->tgt, p, PARTS, &prm, &dl, r, &stats, &err),
                     MM2_OK);
    assert_int_equal(r[0].cls, MM2_BND_ALIGNED);
    assert_int_equal(r[0].src_first, 12);
    assert_int_equal(r[0].src_last, 19);
    assert_int_equal(r[1].cls, MM2_BND_BEHIND);
    assert_int_equal(r[1].k, 3);
    assert_int_equal(r[1].resume_at, 17);
    assert_int_equal(r[2].cls, MM2_BND_AHEAD);
    assert_int_equal(r[2].k, 4);
    assert_int_equal(r[2].src_last, 23);
    assert_int_equal(r[3].cls, MM2_BND_UNPLACED);
    assert_int_equal(r[3].tail_len, 0);
    assert_int_equal(r[4].cls, MM2_BND_UNPLACED);
    assert_int_equal(r[4].mismatch_target, 4);
    assert_int_equal(r[4].mismatch_source, 4);
    assert_int_equal(stats.cut, 0);
    /* Tails: the last 2K = 16 offsets (12 of the shortest; the empty one is not read);
     * windows: [C - 16, C + 8) cut to the log (C 10: 0..18, C 12: 0..20). */
    assert_int_equal(stats.records, (16 + 16 + 16 + 12) + (24 + 24 + 24 + 18 + 20));
    assert_true(stats.requests > 0);
}

static void test_tail_budget_ends_a_read_and_says_so(void **state)
{
    struct fixture *f = *state;
    struct mm2_tail_part p[PARTS];
    /* "k0" + "s0-12" is 7 bytes: 20 bytes hold 2 records of a tail. */
    struct mm2_tail_params prm = {8, 8, 20, 1 << 20, {false, false}};
    struct mm2_bnd_result r[PARTS];
    struct mm2_tail_stats stats;
    struct mm2_deadline dl;
    struct mm2_error err = {0};

    parts(p);
    mm2_deadline_start(&dl, 30000);
    assert_int_equal(mm2_tail_classify(f->src, f->tgt, p, PARTS, &prm, &dl, r, &stats, &err),
                     MM2_OK);
    assert_true(stats.cut >= 4);
    /* What a cut read holds is the oldest records of its range, not the tail: unread, never
     * classified (it would read as behind). */
    for (int i = 0; i < PARTS; i++) {
        if (i == 3)
            continue; /* an empty target: nothing to read, its window of 18 records is cut too */
        assert_int_equal(r[i].cls, MM2_BND_UNREAD);
        assert_int_equal(r[i].resume_at, -1);
        assert_non_null(strstr(r[i].why, "tail.bytes"));
    }
    assert_int_equal(r[3].cls, MM2_BND_UNREAD);
}

static void classify(struct fixture *f, const struct mm2_tail_params *prm, struct mm2_bnd_result *r,
                     struct mm2_tail_stats *stats)
{
    struct mm2_tail_part p[PARTS];
    struct mm2_deadline dl;
    struct mm2_error err = {0};

    parts(p);
    mm2_deadline_start(&dl, 30000);
    assert_int_equal(mm2_tail_classify(f->src, f->tgt, p, PARTS, prm, &dl, r, stats, &err), MM2_OK);
}

/* A typical run: one round, the tails, then the windows: a read per client, whatever the number
 * of partitions (this fixture's tails are all read in one pass: none is short with log below). */
static void test_tail_reads_everything_in_one_round(void **state)
{
    struct mm2_tail_params prm = {8, 8, 1 << 20, 64 << 20, {false, false}};
    struct mm2_bnd_result r[PARTS];
    struct mm2_tail_stats stats;

    classify(*state, &prm, r, &stats);
    assert_int_equal(stats.rounds, 1);
    assert_int_equal(stats.reads, 2);
    assert_int_equal(stats.deferred, 0);
}

/* A memory cap that holds about two partitions' records: the read takes several rounds, each
 * deferring what did not fit, and classifies exactly as one round does. */
static void test_tail_memory_cap_takes_rounds_not_memory(void **state)
{
    struct mm2_tail_params one = {8, 8, 1 << 20, 64 << 20, {false, false}};
    struct mm2_tail_params tight = {8, 8, 2048, 16 * 1024, {false, false}};
    struct mm2_bnd_result want[PARTS], r[PARTS];
    struct mm2_tail_stats stats;

    classify(*state, &one, want, &stats);
    classify(*state, &tight, r, &stats);
    assert_true(stats.rounds > 2);
    assert_true(stats.deferred > 0);
    assert_int_equal(stats.cut, 0);
    for (int i = 0; i < PARTS; i++) {
        assert_int_equal(r[i].cls, want[i].cls);
        assert_int_equal(r[i].k, want[i].k);
        assert_int_equal(r[i].src_first, want[i].src_first);
        assert_int_equal(r[i].src_last, want[i].src_last);
        assert_int_equal(r[i].resume_at, want[i].resume_at);
    }
    /* The records read once each: a deferred range's records are dropped and read again. */
    assert_true(stats.records >= (16 + 16 + 16 + 12) + (24 + 24 + 24 + 18 + 20));
}

/* A partition whose tail or window alone passes the cap is unread, never guessed; the read goes
 * on with the others and ends. */
static void test_tail_partition_larger_than_the_cap_is_unread(void **state)
{
    /* About 215 bytes a record: 2 KiB hold 9 records, less than any tail or window here. */
    struct mm2_tail_params prm = {8, 8, 1024, 2048, {false, false}};
    struct mm2_bnd_result r[PARTS];
    struct mm2_tail_stats stats;

    classify(*state, &prm, r, &stats);
    for (int i = 0; i < PARTS; i++) {
        assert_int_equal(r[i].cls, MM2_BND_UNREAD);
        assert_int_equal(r[i].resume_at, -1);
        assert_non_null(strstr(r[i].why, "memory cap"));
    }
    assert_true(stats.deferred >= PARTS);
}

static void test_tail_refuses_a_cap_below_two_budgets(void **state)
{
    struct fixture *f = *state;
    struct mm2_tail_part p[PARTS];
    struct mm2_tail_params prm = {8, 8, 1024, 2047, {false, false}};
    struct mm2_bnd_result r[PARTS];
    struct mm2_tail_stats stats;
    struct mm2_deadline dl;
    struct mm2_error err = {0};

    parts(p);
    mm2_deadline_start(&dl, 30000);
    assert_int_equal(mm2_tail_classify(f->src, f->tgt, p, PARTS, &prm, &dl, r, &stats, &err),
                     MM2_USAGE);
    assert_non_null(strstr(err.msg, "memory cap"));
    prm.memory = 2048;
    prm.k = 0;
    assert_int_equal(mm2_tail_classify(f->src, f->tgt, p, PARTS, &prm, &dl, r, &stats, &err),
                     MM2_USAGE);
}

/* Read again after export's second read only what would read differently: a source that grew
 * while its window was already whole reads the same; anything else that moved does not. */
static void test_tail_same_read_only_when_nothing_that_matters_moved(void **state)
{
    struct mm2_tail_params prm = {8, 8, 1 << 20, 64 << 20, {false, false}};
    const struct mm2_tail_part a = {"s", "t", 3, 100, 5, 500, 7, 90, false};
    struct mm2_tail_part b = a;
    char other[] = "s";

    (void)state;
    b.source_topic = other; /* the same name in another buffer */
    assert_true(mm2_tail_same_read(&a, &b, &prm));
    b.source_end = 900; /* the source grew past C + slack: the same window */
    assert_true(mm2_tail_same_read(&a, &b, &prm));
    struct mm2_tail_part cut = a, grown = a;
    cut.source_end = 104; /* the window ended at the log end: it grows with the log */
    grown.source_end = 106;
    assert_false(mm2_tail_same_read(&cut, &grown, &prm));
    grown.source_end = 200; /* both past C + slack (108) once cut is too */
    cut.source_end = 108;
    assert_true(mm2_tail_same_read(&cut, &grown, &prm));
    const struct mm2_tail_part moved[] = {
        {"s", "t", 3, 101, 5, 500, 7, 90, false},  /* C */
        {"s", "t", 3, 100, 6, 500, 7, 90, false},  /* source log start */
        {"s", "t", 3, 100, 5, 500, 8, 90, false},  /* target log start */
        {"s", "t", 3, 100, 5, 500, 7, 91, false},  /* target end: a write or an abort */
        {"s", "t", 3, 100, 5, 500, 7, 90, true},   /* policy */
        {"s", "t", 4, 100, 5, 500, 7, 90, false},  /* partition */
        {"s", NULL, 3, 100, 5, 500, 7, 90, false}, /* the target partition gone */
        {"u", "t", 3, 100, 5, 500, 7, 90, false},  /* topic */
    };
    for (size_t i = 0; i < sizeof(moved) / sizeof(moved[0]); i++) {
        assert_false(mm2_tail_same_read(&a, &moved[i], &prm));
        assert_false(mm2_tail_same_read(&moved[i], &a, &prm));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tail_classifies_each_copy),
        cmocka_unit_test(test_tail_budget_ends_a_read_and_says_so),
        cmocka_unit_test(test_tail_reads_everything_in_one_round),
        cmocka_unit_test(test_tail_memory_cap_takes_rounds_not_memory),
        cmocka_unit_test(test_tail_partition_larger_than_the_cap_is_unread),
        cmocka_unit_test(test_tail_refuses_a_cap_below_two_budgets),
        cmocka_unit_test(test_tail_same_read_only_when_nothing_that_matters_moved),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
