/* Unit tests for lib/mm2_env: reading variables and collecting every problem at once. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "mm2_env.h"

#define VAR "MM2KIT_TEST_VAR"
#define VAR2 "MM2KIT_TEST_VAR2"

static int env_scrub(void **state)
{
    (void)state;
    unsetenv(VAR);
    unsetenv(VAR2);
    return 0;
}

static void test_env_get_unset_is_null(void **state)
{
    (void)state;
    assert_null(mm2_env_get(VAR));
}

static void test_env_get_returns_value_and_empty(void **state)
{
    (void)state;
    setenv(VAR, "kafka:9092", 1);
    assert_string_equal(mm2_env_get(VAR), "kafka:9092");
    setenv(VAR, "", 1);
    assert_string_equal(mm2_env_get(VAR), "");
}

static void test_env_required_unset_adds_not_set(void **state)
{
    struct mm2_problems p = {0};

    (void)state;
    assert_null(mm2_env_required(VAR, "host:port", &p));
    assert_int_equal(p.n, 1);
    assert_string_equal(p.line[0], "MM2KIT_TEST_VAR is not set; set it to host:port");
}

static void test_env_required_empty_adds_empty(void **state)
{
    struct mm2_problems p = {0};

    (void)state;
    setenv(VAR, "", 1);
    assert_null(mm2_env_required(VAR, "a Kafka topic name", &p));
    assert_int_equal(p.n, 1);
    assert_string_equal(p.line[0], "MM2KIT_TEST_VAR is empty; set it to a Kafka topic name");
}

static void test_env_required_set_returns_value_without_problem(void **state)
{
    struct mm2_problems p = {0};

    (void)state;
    setenv(VAR, "mm2-offsets", 1);
    assert_string_equal(mm2_env_required(VAR, "x", &p), "mm2-offsets");
    assert_int_equal(p.n, 0);
    assert_int_equal(p.dropped, 0);
}

static void test_env_required_collects_every_problem(void **state)
{
    struct mm2_problems p = {0};

    (void)state;
    setenv(VAR2, "", 1);
    assert_null(mm2_env_required(VAR, "one", &p));
    assert_null(mm2_env_required(VAR2, "two", &p));
    assert_int_equal(p.n, 2);
    assert_string_equal(p.line[0], "MM2KIT_TEST_VAR is not set; set it to one");
    assert_string_equal(p.line[1], "MM2KIT_TEST_VAR2 is empty; set it to two");
}

static void test_env_optional_default_only_when_unset(void **state)
{
    (void)state;
    assert_string_equal(mm2_env_optional(VAR, "8083"), "8083");
    assert_null(mm2_env_optional(VAR, NULL));
    setenv(VAR, "", 1);
    assert_string_equal(mm2_env_optional(VAR, "8083"), "");
    setenv(VAR, "9000", 1);
    assert_string_equal(mm2_env_optional(VAR, "8083"), "9000");
}

static void test_problems_add_counts_dropped_past_capacity(void **state)
{
    struct mm2_problems p = {0};

    (void)state;
    for (int i = 0; i < MM2_PROBLEMS_MAX + 3; i++)
        mm2_problems_add(&p, "problem %d", i);
    assert_int_equal(p.n, MM2_PROBLEMS_MAX);
    assert_int_equal(p.dropped, 3);
    assert_string_equal(p.line[0], "problem 0");
    assert_string_equal(p.line[MM2_PROBLEMS_MAX - 1], "problem 31");
}

static void test_problems_add_truncates_long_line(void **state)
{
    struct mm2_problems p = {0};
    char big[1000];

    (void)state;
    memset(big, 'x', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    mm2_problems_add(&p, "%s", big);
    assert_int_equal(strlen(p.line[0]), MM2_PROBLEM_LEN - 1);
    assert_string_equal(p.line[0] + MM2_PROBLEM_LEN - 4, "...");
    assert_int_equal(p.line[0][MM2_PROBLEM_LEN - 5], 'x');
}

#define ENV_TEST(fn) cmocka_unit_test_setup_teardown(fn, env_scrub, env_scrub)

int main(void)
{
    const struct CMUnitTest tests[] = {
        ENV_TEST(test_env_get_unset_is_null),
        ENV_TEST(test_env_get_returns_value_and_empty),
        ENV_TEST(test_env_required_unset_adds_not_set),
        ENV_TEST(test_env_required_empty_adds_empty),
        ENV_TEST(test_env_required_set_returns_value_without_problem),
        ENV_TEST(test_env_required_collects_every_problem),
        ENV_TEST(test_env_optional_default_only_when_unset),
        ENV_TEST(test_problems_add_counts_dropped_past_capacity),
        ENV_TEST(test_problems_add_truncates_long_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
