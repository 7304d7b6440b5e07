/*
 * Unit tests for lib/mm2_rollback: the positions Flink resumes from after MM2 ran. C = M + 1 from
 * each offset under the connector's alias (none from another alias), the plan's C for a planned
 * partition MM2 holds no offset for, sorted by topic and partition (numerically), and the exact
 * CSV text kafka-consumer-groups.sh reads.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "mm2_rollback.h"

#define OFFS(...)                                                                                  \
    (struct mm2_source_offsets)                                                                    \
    {                                                                                              \
        (struct mm2_source_offset[]){__VA_ARGS__},                                                 \
            sizeof((struct mm2_source_offset[]){__VA_ARGS__}) / sizeof(struct mm2_source_offset)   \
    }

static struct mm2_pentry entries[] = {
    {.topic = "orders", .partition = 1, .c = 40, .m = 39},
    {.topic = "orders", .partition = 2, .c = 50, .m = 49},
    {.topic = "orders", .partition = 10, .c = 7, .m = 6},
    {.topic = "payments", .partition = 0, .c = 0, .m = -1, .action = MM2_ACT_RESET},
};
static const struct mm2_plan plan = {.alias = "src", .entries = entries, .n = 4};

static void test_rollback_rows_are_m_plus_one_under_the_alias_only(void **state)
{
    struct mm2_source_offsets o =
        OFFS({"other", "orders", 0, 500}, {"src", "orders", 0, 99}, {"src", "orders", 1, 0});
    struct mm2_rollback_row rows[3];
    size_t from_plan = 9;

    (void)state;
    assert_int_equal(mm2_rollback_rows(&o, "src", NULL, rows, &from_plan), 2);
    assert_int_equal(from_plan, 0);
    assert_string_equal(rows[0].topic, "orders");
    assert_int_equal(rows[0].partition, 0);
    assert_int_equal(rows[0].c, 100);
    assert_int_equal(rows[1].partition, 1);
    assert_int_equal(rows[1].c, 1);
}

static void test_rollback_rows_take_the_plans_c_where_mm2_has_none_sorted(void **state)
{
    /* orders-2 has an MM2 offset (it moved on from the plan); orders-1, orders-10 and
     * payments-0 have none (orders-10's under another alias does not count); orders-3 is MM2's
     * alone. Partitions sort by number, not as text. */
    struct mm2_source_offsets o =
        OFFS({"other", "orders", 10, 500}, {"src", "orders", 2, 60}, {"src", "orders", 3, 8});
    struct mm2_rollback_row rows[7];
    size_t from_plan = 0;
    static const struct {
        const char *topic;
        int32_t partition;
        int64_t c;
    } want[] = {{"orders", 1, 40},
                {"orders", 2, 61},
                {"orders", 3, 9},
                {"orders", 10, 7},
                {"payments", 0, 0}};

    (void)state;
    assert_int_equal(mm2_rollback_rows(&o, "src", &plan, rows, &from_plan), 5);
    assert_int_equal(from_plan, 3);
    for (size_t i = 0; i < 5; i++) {
        assert_string_equal(rows[i].topic, want[i].topic);
        assert_int_equal(rows[i].partition, want[i].partition);
        assert_int_equal(rows[i].c, want[i].c);
    }
}

static void test_rollback_csv_is_one_line_per_row(void **state)
{
    struct mm2_rollback_row rows[] = {{"orders", 2, 61}, {"orders", 10, 7}, {"payments", 0, 0}};
    size_t len = 0;
    char *csv = mm2_rollback_csv(rows, 3, &len);

    (void)state;
    assert_non_null(csv);
    assert_string_equal(csv, "orders,2,61\norders,10,7\npayments,0,0\n");
    assert_int_equal(len, strlen(csv));
    free(csv);
}

static void test_rollback_csv_of_nothing_is_empty_text(void **state)
{
    size_t len = 9;
    char *csv = mm2_rollback_csv(NULL, 0, &len);

    (void)state;
    assert_non_null(csv);
    assert_string_equal(csv, "");
    assert_int_equal(len, 0);
    free(csv);
}

static void test_rollback_csv_grows_past_its_first_block(void **state)
{
    struct mm2_rollback_row *rows = calloc(1000, sizeof(*rows));
    size_t len = 0;
    char *csv;

    (void)state;
    assert_non_null(rows);
    for (int i = 0; i < 1000; i++)
        rows[i] = (struct mm2_rollback_row){"a-topic-name", i, 1000000000000LL + i};
    csv = mm2_rollback_csv(rows, 1000, &len);
    assert_non_null(csv);
    assert_int_equal(len, strlen(csv));
    assert_true(len > 4096);
    assert_int_equal(strncmp(csv, "a-topic-name,0,1000000000000\na-topic-name,1,", 44), 0);
    assert_string_equal(csv + len - strlen("a-topic-name,999,1000000000999\n"),
                        "a-topic-name,999,1000000000999\n");
    free(csv);
    free(rows);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rollback_rows_are_m_plus_one_under_the_alias_only),
        cmocka_unit_test(test_rollback_rows_take_the_plans_c_where_mm2_has_none_sorted),
        cmocka_unit_test(test_rollback_csv_is_one_line_per_row),
        cmocka_unit_test(test_rollback_csv_of_nothing_is_empty_text),
        cmocka_unit_test(test_rollback_csv_grows_past_its_first_block),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
