/*
 * Unit tests for lib/mm2_policy: the INI's [policy] keys through mm2_config_parse (defaults,
 * every key, its bounds, a key given twice, an unknown key, each a one-line problem naming key,
 * value and fix), the plan's boundary duplicates against max.duplicates.* (one refusal per
 * partition and one for the total, [rule duplicates]), and the pause against max.pause.seconds.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "mm2_config.h"
#include "mm2_plan.h"
#include "mm2_policy.h"
#include "mm2_problems.h"
#include "mm2_refusal.h"

#define INI "/etc/mm2/migration.ini"
#define VALID                                                                                      \
    "[source]\nbootstrap.servers = src:9092\n[target]\nbootstrap.servers = tgt:9092\n"             \
    "[connect]\nurl = http://connect:8088\n[flink]\ngroup.id = g\n[connector]\nfile = c.json\n"

static const char *no_env(const char *name)
{
    (void)name;
    return NULL;
}

static enum mm2_status parse(const char *text, struct mm2_config *c, struct mm2_problems *p)
{
    memset(p, 0, sizeof(*p));
    return mm2_config_parse(text, INI, no_env, c, p);
}

static void assert_one_problem(const char *text, const char *want)
{
    struct mm2_config c;
    struct mm2_problems p;

    if (parse(text, &c, &p) != MM2_CONFIG || p.n != 1) {
        for (size_t i = 0; i < p.n; i++)
            print_message("problem %zu: %s\n", i, p.line[i]);
        fail_msg("expected one problem: %s", want);
    }
    assert_string_equal(p.line[0], want);
    mm2_config_free(&c);
}

static void test_policy_defaults(void **state)
{
    struct mm2_config c;
    struct mm2_problems p;

    (void)state;
    assert_int_equal(parse(VALID, &c, &p), MM2_OK);
    assert_int_equal(c.policy.max_pause_s, 0);
    assert_int_equal(c.policy.max_dup_partition, MM2_POLICY_NO_LIMIT);
    assert_int_equal(c.policy.max_dup_total, MM2_POLICY_NO_LIMIT);
    assert_int_equal(c.policy.rollback_window_days, 30);
    mm2_config_free(&c);
}

static void test_policy_every_key(void **state)
{
    struct mm2_config c;
    struct mm2_problems p;

    (void)state;
    assert_int_equal(parse(VALID "[policy]\nmax.pause.seconds = 1800\n"
                                 "max.duplicates.per.partition = 0\nmax.duplicates.total = 10\n"
                                 "rollback.window.days = 14\n",
                           &c, &p),
                     MM2_OK);
    assert_int_equal(c.policy.max_pause_s, 1800);
    assert_int_equal(c.policy.max_dup_partition, 0);
    assert_int_equal(c.policy.max_dup_total, 10);
    assert_int_equal(c.policy.rollback_window_days, 14);
    mm2_config_free(&c);
    /* The bounds themselves. */
    assert_int_equal(parse(VALID "[policy]\nmax.pause.seconds = 604800\nrollback.window.days = 1\n"
                                 "max.duplicates.total = 1000000000\n",
                           &c, &p),
                     MM2_OK);
    mm2_config_free(&c);
}

static void test_policy_problems(void **state)
{
    (void)state;
    assert_one_problem(VALID "[policy]\nmax.pause.seconds = 604801\n",
                       INI ": [policy] max.pause.seconds must be a whole number from 0 to 604800 "
                           "(seconds: the longest pause from the plan to resume, 0 for none), got "
                           "\"604801\"");
    assert_one_problem(VALID "[policy]\nmax.pause.seconds = 30m\n",
                       INI ": [policy] max.pause.seconds must be a whole number from 0 to 604800 "
                           "(seconds: the longest pause from the plan to resume, 0 for none), got "
                           "\"30m\"");
    assert_one_problem(VALID "[policy]\nmax.duplicates.per.partition = -1\n",
                       INI ": [policy] max.duplicates.per.partition must be a whole number from 0 "
                           "to 1000000000 (records MM2 may copy again on one partition), got "
                           "\"-1\"");
    assert_one_problem(VALID "[policy]\nmax.duplicates.total = many\n",
                       INI ": [policy] max.duplicates.total must be a whole number from 0 to "
                           "1000000000 (records MM2 may copy again over all partitions), got "
                           "\"many\"");
    assert_one_problem(VALID "[policy]\nrollback.window.days = 0\n",
                       INI ": [policy] rollback.window.days must be a whole number from 1 to 366 "
                           "(days a rollback must stay possible), got \"0\"");
    assert_one_problem(VALID "[policy]\nrollback.window.days = 7\nrollback.window.days = 8\n",
                       INI ": [policy] rollback.window.days is given twice; give it once");
    assert_one_problem(VALID "[policy]\nmax.pause = 60\n",
                       INI ": [policy] has no key \"max.pause\"; the keys are max.pause.seconds, "
                           "max.duplicates.per.partition, max.duplicates.total, "
                           "rollback.window.days");
}

static void test_policy_duplicates(void **state)
{
    struct mm2_pentry e[3] = {
        {.topic = "orders", .partition = 0, .c = 100, .duplicates = 5},
        {.topic = "orders", .partition = 1, .c = 200, .duplicates = 0},
        {.topic = "payments", .partition = 0, .c = 300, .duplicates = 2},
    };
    struct mm2_plan plan = {.entries = e, .n = 3};
    struct mm2_policy pol;
    struct mm2_refusals r = {0};

    (void)state;
    mm2_policy_defaults(&pol);
    assert_int_equal(mm2_policy_duplicates(&pol, &plan, &r), 0); /* no limit */
    pol.max_dup_partition = 5;
    pol.max_dup_total = 7;
    assert_int_equal(mm2_policy_duplicates(&pol, &plan, &r), 0); /* at the limits */
    pol.max_dup_partition = 2;
    pol.max_dup_total = 6;
    assert_int_equal(mm2_policy_duplicates(&pol, &plan, &r), 2);
    assert_int_equal(r.n, 2);
    assert_string_equal(r.line[0],
                        "orders-0: the target already holds 5 records past C=100 (Flink wrote "
                        "past its committed offset), which MM2 would copy again: more than "
                        "[policy] max.duplicates.per.partition = 2; have the duplicates accepted "
                        "(raise it) or remove them from the target first [rule duplicates]");
    assert_string_equal(r.line[1], "7 boundary duplicates over 3 partitions: more than [policy] "
                                   "max.duplicates.total = 6; have the duplicates accepted (raise "
                                   "it) or remove them from the target first [rule duplicates]");
    mm2_refusals_free(&r);
    memset(&r, 0, sizeof(r));
    pol.max_dup_partition = 0; /* none at all: every partition with one */
    pol.max_dup_total = MM2_POLICY_NO_LIMIT;
    assert_int_equal(mm2_policy_duplicates(&pol, &plan, &r), 2);
    mm2_refusals_free(&r);
}

static void test_policy_pause(void **state)
{
    struct mm2_policy pol;
    char line[512];
    long long t = 1796428800LL; /* 2026-12-05T00:00:00Z */

    (void)state;
    assert_int_equal(mm2_policy_pause_s("2026-12-05T00:00:00Z", t + 90), 90);
    assert_int_equal(mm2_policy_pause_s("2026-12-05T00:00:00.123Z", t + 90), 90);
    assert_int_equal(mm2_policy_pause_s("2026-12-05T00:00:00", t), -1); /* no Z: not UTC */
    assert_int_equal(mm2_policy_pause_s("unknown", t), -1);
    assert_int_equal(mm2_policy_pause_s(NULL, t), -1);
    mm2_policy_defaults(&pol);
    assert_false(mm2_policy_pause_text(&pol, 99999, line, sizeof(line))); /* not checked */
    assert_string_equal(line, "");
    pol.max_pause_s = 600;
    assert_false(mm2_policy_pause_text(&pol, -1, line, sizeof(line))); /* unknown: not judged */
    assert_string_equal(line, "");
    assert_false(mm2_policy_pause_text(&pol, 600, line, sizeof(line)));
    assert_string_equal(line, "the pause is 600 s since the plan was made, within [policy] "
                              "max.pause.seconds = 600");
    assert_true(mm2_policy_pause_text(&pol, 601, line, sizeof(line)));
    assert_string_equal(line, "the pause is 601 s since the plan was made (longer since Flink "
                              "stopped), more than [policy] max.pause.seconds = 600: the agreed "
                              "pause is exceeded; resuming now ends it, so tell whoever agreed "
                              "to it");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_policy_defaults), cmocka_unit_test(test_policy_every_key),
        cmocka_unit_test(test_policy_problems), cmocka_unit_test(test_policy_duplicates),
        cmocka_unit_test(test_policy_pause),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
