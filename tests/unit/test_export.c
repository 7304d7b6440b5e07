/*
 * Unit tests for lib/mm2_export's topic lookup (mm2_export_topic), the one search of a topic by
 * name that exports, plans and the commands share: every name of a sorted list found at its own
 * element, and NULL for each name it does not hold, whether it sorts before, between or after
 * them, is a prefix or an extension of one, or the list is empty. The artifact's JSON is tested
 * in test_plan.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "mm2_export.h"

/* Sorted as strcmp sorts: upper case before lower, and '-' < '.' < digits < '_'. */
static struct mm2_xtopic topics[] = {
    {.name = "Orders"}, {.name = "a-b"}, {.name = "a.b"},    {.name = "a1"},
    {.name = "a_b"},    {.name = "ord"}, {.name = "orders"}, {.name = "payments"},
};
#define NTOPICS (sizeof(topics) / sizeof(topics[0]))

static void test_export_topic_finds_each_name_at_its_element(void **state)
{
    (void)state;
    for (size_t n = 1; n <= NTOPICS; n++)
        for (size_t i = 0; i < n; i++)
            assert_ptr_equal(mm2_export_topic(topics, n, topics[i].name), &topics[i]);
}

static void test_export_topic_names_not_held_are_null(void **state)
{
    static const char *const absent[] = {"",        "-",       "A",         "a",       "a-",
                                         "a.c",     "or",      "orders2",   "ordersx", "orderz",
                                         "Orders.", "payment", "paymentsx", "zzz"};

    (void)state;
    for (size_t i = 0; i < sizeof(absent) / sizeof(absent[0]); i++)
        assert_null(mm2_export_topic(topics, NTOPICS, absent[i]));
}

static void test_export_topic_counts_only_the_first_n(void **state)
{
    (void)state;
    assert_null(mm2_export_topic(topics, 6, "orders"));
    assert_null(mm2_export_topic(topics, 6, "payments"));
    assert_ptr_equal(mm2_export_topic(topics, 6, "ord"), &topics[5]);
}

static void test_export_topic_empty_list_is_null(void **state)
{
    (void)state;
    assert_null(mm2_export_topic(NULL, 0, "orders"));
    assert_null(mm2_export_topic(topics, 0, "a-b"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_export_topic_finds_each_name_at_its_element),
        cmocka_unit_test(test_export_topic_names_not_held_are_null),
        cmocka_unit_test(test_export_topic_counts_only_the_first_n),
        cmocka_unit_test(test_export_topic_empty_list_is_null),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
