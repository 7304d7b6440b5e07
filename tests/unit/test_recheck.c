/*
 * Unit tests for lib/mm2_recheck: the re-check apply and resume run before they change anything.
 * A plan of two replicated topics on clusters "src-id" and "tgt-id" is held against what the
 * clusters answer now, one fact changed at a time; each problem is one exact refusal line, in
 * the plan's order, and what still holds adds none.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>

#include <cjson/cJSON.h>

#include "mm2_recheck.h"

#define URL "http://connect:8083"

struct fixture {
    struct mm2_xtopic topics[2];
    struct mm2_pentry entries[4];
    struct mm2_plan plan;
    struct mm2_mirror *mirror;
    struct mm2_refusals r;
};

static int setup(void **state)
{
    struct fixture *f = calloc(1, sizeof(*f));
    struct mm2_error err = {0};
    cJSON *config = cJSON_Parse(
        "{\"source.cluster.alias\": \"src\", \"target.cluster.alias\": \"tgt\", \"topics\": "
        "\"orders,payments,refunds\", \"replication.policy.class\": "
        "\"org.apache.kafka.connect.mirror.IdentityReplicationPolicy\"}");

    if (f == NULL || config == NULL ||
        mm2_mirror_new(config, "4.1.0", &f->mirror, &err) != MM2_OK) {
        cJSON_Delete(config);
        free(f);
        return -1;
    }
    cJSON_Delete(config);
    f->topics[0] = (struct mm2_xtopic){.name = "orders",
                                       .partitions = 3,
                                       .replicated = true,
                                       .target = "orders",
                                       .target_partitions = 3};
    f->topics[1] = (struct mm2_xtopic){.name = "payments",
                                       .partitions = 2,
                                       .replicated = true,
                                       .target = "payments-copy",
                                       .target_partitions = 4};
    f->entries[0] = (struct mm2_pentry){.topic = "orders", .partition = 0, .c = 100};
    f->entries[1] =
        (struct mm2_pentry){.topic = "orders", .partition = 1, .c = 0, .action = MM2_ACT_RESET};
    f->entries[2] =
        (struct mm2_pentry){.topic = "orders", .partition = 2, .c = 5, .action = MM2_ACT_LOSS};
    f->entries[3] = (struct mm2_pentry){.topic = "payments", .partition = 0, .c = 42};
    f->plan = (struct mm2_plan){.source_cluster = "src-id",
                                .target_cluster = "tgt-id",
                                .topics = f->topics,
                                .ntopics = 2,
                                .entries = f->entries,
                                .n = 4};
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;

    mm2_refusals_free(&f->r);
    mm2_mirror_free(f->mirror);
    free(f);
    return 0;
}

static void test_recheck_clusters_as_planned_add_no_line(void **state)
{
    struct fixture *f = *state;

    assert_int_equal(mm2_recheck_clusters(&f->plan, "src-id", "tgt-id", "tgt-id", URL, &f->r), 0);
    assert_int_equal(f->r.n, 0);
}

static void test_recheck_clusters_each_id_that_differs_is_one_line(void **state)
{
    struct fixture *f = *state;

    assert_int_equal(mm2_recheck_clusters(&f->plan, "other-src", "other-tgt", "src-id", URL, &f->r),
                     3);
    assert_int_equal(f->r.n, 3);
    assert_string_equal(f->r.line[0],
                        "the [source] cluster is other-src but the plan was made on src-id; use "
                        "the plan's clusters [rule wrong-source]");
    assert_string_equal(f->r.line[1], "the [target] cluster is other-tgt but the plan was made "
                                      "for tgt-id [rule wrong-target]");
    assert_string_equal(f->r.line[2],
                        "Connect at " URL " runs on Kafka cluster src-id (GET /), not the plan's "
                        "target tgt-id: wrong Connect cluster [rule wrong-target]");
}

static void test_recheck_clusters_connect_alone_on_another_cluster(void **state)
{
    struct fixture *f = *state;

    assert_int_equal(mm2_recheck_clusters(&f->plan, "src-id", "tgt-id", "third", URL, &f->r), 1);
    assert_string_equal(f->r.line[0],
                        "Connect at " URL " runs on Kafka cluster third (GET /), not the plan's "
                        "target tgt-id: wrong Connect cluster [rule wrong-target]");
}

/* The source as planned, with topics the connector does not replicate beside them. */
static struct mm2_topic_meta src_ok[] = {
    {"__consumer_offsets", 50}, {"audit", 1}, {"orders", 3}, {"payments", 2}};
static struct mm2_topic_meta tgt_ok[] = {{"orders", 3}, {"payments-copy", 4}};
#define LIST(a) ((struct mm2_topic_list){(a), sizeof(a) / sizeof((a)[0])})

static void test_recheck_topics_as_planned_add_no_line(void **state)
{
    struct fixture *f = *state;
    struct mm2_topic_list src = LIST(src_ok), tgt = LIST(tgt_ok);

    assert_int_equal(mm2_recheck_topics(&f->plan, &src, &tgt, f->mirror, &f->r), 0);
    assert_int_equal(f->r.n, 0);
}

static void test_recheck_topics_source_gone_or_resized(void **state)
{
    struct fixture *f = *state;
    struct mm2_topic_meta src_v[] = {{"audit", 1}, {"payments", 5}};
    struct mm2_topic_list src = LIST(src_v), tgt = LIST(tgt_ok);

    assert_int_equal(mm2_recheck_topics(&f->plan, &src, &tgt, f->mirror, &f->r), 2);
    assert_string_equal(f->r.line[0],
                        "topic orders: it no longer exists on the source [rule topics-changed]");
    assert_string_equal(f->r.line[1],
                        "topic payments: it has 5 partitions now, 2 in the plan; partitions 2.. "
                        "have no plan entry and MM2 would copy them from the earliest offset: "
                        "export and plan again [rule unplanned]");
}

static void test_recheck_topics_target_missing_or_resized(void **state)
{
    struct fixture *f = *state;
    struct mm2_topic_meta tgt_v[] = {{"orders", 6}, {"payments", 4}};
    struct mm2_topic_list src = LIST(src_ok), tgt = LIST(tgt_v);

    assert_int_equal(mm2_recheck_topics(&f->plan, &src, &tgt, f->mirror, &f->r), 2);
    assert_string_equal(f->r.line[0], "topic orders: target topic orders has 6 partitions, 3 in "
                                      "the plan [rule partition-count]");
    assert_string_equal(f->r.line[1], "topic payments: target topic payments-copy does not exist "
                                      "[rule target-missing]");
}

static void test_recheck_topics_replicated_but_unplanned_after_the_planned(void **state)
{
    struct fixture *f = *state;
    struct mm2_topic_meta src_v[] = {
        {"__consumer_offsets", 50}, {"audit", 1}, {"orders", 3}, {"payments", 1}, {"refunds", 7}};
    struct mm2_topic_list src = LIST(src_v), tgt = LIST(tgt_ok);

    assert_int_equal(mm2_recheck_topics(&f->plan, &src, &tgt, f->mirror, &f->r), 2);
    assert_string_equal(f->r.line[0],
                        "topic payments: it has 1 partitions now, 2 in the plan; partitions 2.. "
                        "have no plan entry and MM2 would copy them from the earliest offset: "
                        "export and plan again [rule unplanned]");
    assert_string_equal(f->r.line[1],
                        "topic refunds (7 partitions): the connector replicates it but the plan "
                        "has no entry for it; MM2 would copy it from the earliest offset, a full "
                        "duplicate: export and plan again, or narrow \"topics\" [rule unplanned]");
}

static void test_recheck_logs_c_at_either_bound_adds_no_line(void **state)
{
    struct fixture *f = *state;
    const int64_t start[] = {100, 0, 9, 0}, end[] = {250, 0, 9, 42};

    assert_int_equal(mm2_recheck_logs(&f->plan, start, end, &f->r), 0);
    assert_int_equal(f->r.n, 0);
}

static void test_recheck_logs_expired_and_beyond_end(void **state)
{
    struct fixture *f = *state;
    const int64_t start[] = {101, 3, 9, 0}, end[] = {250, 3, 9, 41};

    assert_int_equal(mm2_recheck_logs(&f->plan, start, end, &f->r), 3);
    assert_string_equal(f->r.line[0],
                        "orders-0: the log start is 101 now, above the plan's C=100: records "
                        "expired since the export; export and plan again [rule expired]");
    assert_string_equal(f->r.line[1],
                        "orders-1: the log start is 3 now, above the plan's C=0: records expired "
                        "since the export; export and plan again [rule expired]");
    assert_string_equal(f->r.line[2], "payments-0: the log end is 41 now, below the plan's C=42: "
                                      "was the topic recreated? [rule beyond-end]");
}

static void test_recheck_logs_accepted_loss_is_not_checked(void **state)
{
    struct fixture *f = *state;
    const int64_t start[] = {0, 0, 900, 0}, end[] = {250, 0, 1000, 42};

    /* orders-2's C=5 is below its log start: the plan accepted that loss. */
    assert_int_equal(mm2_recheck_logs(&f->plan, start, end, &f->r), 0);
}

/* The plan's group C and target ends for the Flink re-check: group_c = c, target_start set. */
static void flink_fixture(struct fixture *f)
{
    const int64_t ts[] = {500, 7, 0, 42};

    (void)snprintf(f->plan.group, sizeof(f->plan.group), "flink-copy");
    for (size_t i = 0; i < 4; i++) {
        f->entries[i].group_c = f->entries[i].c;
        f->entries[i].target_start = ts[i];
        f->entries[i].target_topic = i < 3 ? "orders" : "payments-copy";
    }
}

static void test_recheck_flink_still_stopped_adds_no_line(void **state)
{
    struct fixture *f = *state;
    const struct mm2_group_info g = {.state = "Empty", .members = 0};
    const int64_t committed[] = {100, 0, 5, 42}, hw[] = {500, 7, 0, 42}, lso[] = {500, 7, 0, 42};

    flink_fixture(f);
    assert_int_equal(mm2_recheck_flink(&f->plan, &g, committed, hw, lso, &f->r), 0);
}

static void test_recheck_flink_restarted(void **state)
{
    struct fixture *f = *state;
    const struct mm2_group_info g = {.state = "Stable", .members = 2};
    /* orders-0 committed further, orders-1's offset deleted; payments-copy-0 written and a
     * transaction open on orders-0's target; orders-2's target not read (-1): skipped. */
    const int64_t committed[] = {130, MM2_OFFSET_NONE, 5, 42}, hw[] = {530, 7, -1, 42},
                  lso[] = {530, 7, -1, 40};

    flink_fixture(f);
    assert_int_equal(mm2_recheck_flink(&f->plan, &g, committed, hw, lso, &f->r), 5);
    assert_string_equal(f->r.line[0],
                        "group flink-copy has 2 active members now (state Stable), none at export: "
                        "Flink or another consumer of its group runs again; stop it, then export "
                        "and plan again [rule group-active]");
    assert_string_equal(f->r.line[1],
                        "orders-0: group flink-copy committed 130 now, 100 at export: Flink (or "
                        "something with its group) committed since, so it ran again; stop it, then "
                        "export and plan again [rule flink-moved]");
    assert_string_equal(
        f->r.line[2],
        "orders-0 on the target: the high watermark is 530 and the last stable offset 530 now, "
        "both 500 at export: something wrote to it since (Flink's sink running again?); MM2 "
        "would write beside it: stop the writer, then export and plan again [rule target-moved]");
    assert_string_equal(f->r.line[3],
                        "orders-1: group flink-copy has no committed offset now, 0 at export: its "
                        "offsets were deleted or reset since; find out who, then export and plan "
                        "again [rule flink-moved]");
    assert_string_equal(f->r.line[4],
                        "payments-copy-0 on the target: the high watermark is 42 and the last "
                        "stable offset 40 now, both 42 at export: something wrote to it since "
                        "(Flink's sink running again?); MM2 would write beside it: stop the "
                        "writer, then export and plan again [rule target-moved]");
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_recheck_clusters_as_planned_add_no_line),
        T(test_recheck_clusters_each_id_that_differs_is_one_line),
        T(test_recheck_clusters_connect_alone_on_another_cluster),
        T(test_recheck_topics_as_planned_add_no_line),
        T(test_recheck_topics_source_gone_or_resized),
        T(test_recheck_topics_target_missing_or_resized),
        T(test_recheck_topics_replicated_but_unplanned_after_the_planned),
        T(test_recheck_logs_c_at_either_bound_adds_no_line),
        T(test_recheck_logs_expired_and_beyond_end),
        T(test_recheck_logs_accepted_loss_is_not_checked),
        T(test_recheck_flink_still_stopped_adds_no_line),
        T(test_recheck_flink_restarted),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
