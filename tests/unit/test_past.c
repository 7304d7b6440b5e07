/*
 * Unit tests for lib/mm2_past: the offsets a connector holds past the plan, as apply finds them
 * in its backup read. A plan of four partitions (an offset M, a reset to the log start, an
 * accepted loss and a second offset) against the offsets Connect lists: which are past, from
 * where records are copied again and how many, whether the offsets already equal the plan, and
 * the exact refusal lines of a connector that ran since the export and of one just created.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "mm2_past.h"

static struct mm2_pentry entries[] = {
    {.topic = "orders", .partition = 0, .c = 100, .m = 99, .action = MM2_ACT_OFFSET},
    {.topic = "orders", .partition = 1, .c = 0, .m = -1, .action = MM2_ACT_RESET},
    {.topic = "orders", .partition = 2, .c = 5, .m = -1, .action = MM2_ACT_LOSS, .log_start = 20},
    {.topic = "payments", .partition = 0, .c = 42, .m = 41, .action = MM2_ACT_OFFSET},
};
static const struct mm2_plan plan = {
    .connector = "mirror-source", .alias = "src", .entries = entries, .n = 4};

/* Connect's offsets, sorted by cluster, topic, partition as mm2_connect_offsets returns them. */
#define OFFS(...)                                                                                  \
    (struct mm2_source_offsets)                                                                    \
    {                                                                                              \
        (struct mm2_source_offset[]){__VA_ARGS__},                                                 \
            sizeof((struct mm2_source_offset[]){__VA_ARGS__}) / sizeof(struct mm2_source_offset)   \
    }

static void test_past_find_offsets_equal_to_the_plan_are_same(void **state)
{
    struct mm2_source_offsets o = OFFS({"src", "orders", 0, 99}, {"src", "payments", 0, 41});
    struct mm2_past p[4];
    bool same = false;

    (void)state;
    assert_int_equal(mm2_past_find(&plan, &o, p, &same), 0);
    assert_true(same);
}

static void test_past_find_offsets_behind_or_missing_are_not_past_nor_same(void **state)
{
    struct mm2_source_offsets o = OFFS({"src", "orders", 0, 98});
    struct mm2_past p[4];
    bool same = true;

    (void)state;
    assert_int_equal(mm2_past_find(&plan, &o, p, &same), 0);
    assert_false(same);
    o = (struct mm2_source_offsets){0};
    same = true;
    assert_int_equal(mm2_past_find(&plan, &o, p, &same), 0);
    assert_false(same);
}

static void test_past_find_above_m_and_any_offset_where_the_plan_writes_null(void **state)
{
    struct mm2_source_offsets o = OFFS({"src", "orders", 0, 150}, {"src", "orders", 1, 0},
                                       {"src", "orders", 2, 10}, {"src", "payments", 0, 41});
    struct mm2_past p[4];
    bool same = true;

    (void)state;
    assert_int_equal(mm2_past_find(&plan, &o, p, &same), 3);
    assert_false(same);
    /* orders-0: M = 99, copied again from 100 to 150. */
    assert_ptr_equal(p[0].e, &entries[0]);
    assert_int_equal(p[0].offset, 150);
    assert_int_equal(p[0].from, 100);
    assert_int_equal(p[0].again, 51);
    /* orders-1: null from log start 0; offset 0 is one record again. */
    assert_ptr_equal(p[1].e, &entries[1]);
    assert_int_equal(p[1].from, 0);
    assert_int_equal(p[1].again, 1);
    /* orders-2: null from log start 20; offset 10 is below it: none again, but still past. */
    assert_ptr_equal(p[2].e, &entries[2]);
    assert_int_equal(p[2].offset, 10);
    assert_int_equal(p[2].from, 20);
    assert_int_equal(p[2].again, 0);
}

static void test_past_find_an_offset_where_the_plan_writes_null_is_not_same(void **state)
{
    struct mm2_source_offsets o =
        OFFS({"src", "orders", 0, 99}, {"src", "orders", 2, 25}, {"src", "payments", 0, 41});
    struct mm2_past p[4];
    bool same = true;

    (void)state;
    /* With --replace-stale-offsets apply goes on: the PATCH must then still write the null. */
    assert_int_equal(mm2_past_find(&plan, &o, p, &same), 1);
    assert_false(same);
    assert_ptr_equal(p[0].e, &entries[2]);
    assert_int_equal(p[0].again, 6);
}

static void test_past_find_reads_only_the_plans_alias(void **state)
{
    struct mm2_source_offsets o =
        OFFS({"other", "orders", 0, 500}, {"src", "orders", 0, 99}, {"src", "payments", 0, 41});
    struct mm2_past p[4];
    bool same = false;

    (void)state;
    assert_int_equal(mm2_past_find(&plan, &o, p, &same), 0);
    assert_true(same);
}

static void test_past_refuse_progressed_names_offset_m_and_records(void **state)
{
    struct mm2_past p[] = {{&entries[0], 150, 100, 51}, {&entries[1], 7, 0, 8}};
    struct mm2_refusals r = {0};

    (void)state;
    mm2_past_refuse_progressed(&plan, p, 2, &r);
    assert_int_equal(r.n, 2);
    assert_string_equal(r.line[0],
                        "orders-0: connector mirror-source has offset 150, past the plan's 99: it "
                        "has run since the export, and this plan would rewind it and copy 51 "
                        "records again; export and plan again [rule progressed]");
    assert_string_equal(r.line[1],
                        "orders-1: connector mirror-source has offset 7 where the plan starts at "
                        "the log start (C=0): it has run since the export; export and plan again "
                        "[rule progressed]");
    mm2_refusals_free(&r);
}

static void test_past_refuse_stale_names_the_records_copied_again(void **state)
{
    struct mm2_past p[] = {{&entries[0], 150, 100, 51}, {&entries[2], 30, 20, 11}};
    struct mm2_refusals r = {0};

    (void)state;
    mm2_past_refuse_stale(&plan, p, 2, &r);
    assert_int_equal(r.n, 2);
    assert_string_equal(
        r.line[0],
        "orders-0: connector mirror-source, just created, holds offset 150 from an earlier "
        "connector of that name (Connect keeps a deleted connector's offsets), past the plan's "
        "99: writing the plan copies offsets 100..150 again, 51 records, duplicates if that "
        "connector wrote them to this target; to back them up and write the plan, run again with "
        "--replace-stale-offsets [rule stale-offsets]");
    assert_non_null(strstr(r.line[1], "orders-2: connector mirror-source, just created, holds "
                                      "offset 30 from an earlier connector"));
    assert_non_null(strstr(r.line[1], "past the plan's null (the log start, C=5): writing the "
                                      "plan copies offsets 20..30 again, 11 records,"));
    mm2_refusals_free(&r);
}

static void test_past_plan_offset_is_m_or_null_with_c(void **state)
{
    char buf[64];

    (void)state;
    mm2_past_plan_offset(&entries[0], buf, sizeof(buf));
    assert_string_equal(buf, "99");
    mm2_past_plan_offset(&entries[1], buf, sizeof(buf));
    assert_string_equal(buf, "null (the log start, C=0)");
    mm2_past_plan_offset(&entries[2], buf, sizeof(buf));
    assert_string_equal(buf, "null (the log start, C=5)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_past_find_offsets_equal_to_the_plan_are_same),
        cmocka_unit_test(test_past_find_offsets_behind_or_missing_are_not_past_nor_same),
        cmocka_unit_test(test_past_find_above_m_and_any_offset_where_the_plan_writes_null),
        cmocka_unit_test(test_past_find_an_offset_where_the_plan_writes_null_is_not_same),
        cmocka_unit_test(test_past_find_reads_only_the_plans_alias),
        cmocka_unit_test(test_past_refuse_progressed_names_offset_m_and_records),
        cmocka_unit_test(test_past_refuse_stale_names_the_records_copied_again),
        cmocka_unit_test(test_past_plan_offset_is_m_or_null_with_c),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
