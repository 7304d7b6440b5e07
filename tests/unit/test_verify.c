/*
 * Unit tests for lib/mm2_verify: the plan's connector as Connect holds it, judged against the
 * plan. "Stopped" in each state Connect can report, with the exact line each command prints; an
 * existing connector's config against the plan's (alias first, then the keys that differ); two
 * reads of the offsets agreeing and a read equal to the plan; and verify's whole comparison: the
 * lines in the order they are printed, what each one is (mismatch, warning, note), the counts,
 * and where a line is cut.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm2_cfgview.h"
#include "mm2_verify.h"

#define NAME "mirror-source"
#define CONFIG                                                                                     \
    "{\"connector.class\": \"org.apache.kafka.connect.mirror.MirrorSourceConnector\", "            \
    "\"source.cluster.alias\": \"src\", \"target.cluster.alias\": \"tgt\", \"topics\": "           \
    "\"orders,payments\", \"tasks.max\": \"2\"}"
#define STALE "task 3 UNASSIGNED on 10.0.0.7:8088"

static struct mm2_xtopic topics[] = {
    {.name = "orders", .partitions = 3, .replicated = true, .target = "orders"},
    {.name = "payments", .partitions = 1, .replicated = true, .target = "payments"},
};
static struct mm2_pentry entries[] = {
    {.topic = "orders", .partition = 0, .c = 100, .m = 99, .action = MM2_ACT_OFFSET},
    {.topic = "orders", .partition = 1, .c = 0, .m = -1, .action = MM2_ACT_RESET},
    {.topic = "orders", .partition = 2, .c = 1, .m = 0, .action = MM2_ACT_OFFSET},
    {.topic = "payments", .partition = 0, .c = 3, .m = -1, .action = MM2_ACT_LOSS},
};

/* The lines of one comparison, as a caller would print them. */
#define MAX_LINES 16
struct heard {
    size_t n;
    enum mm2_verify_say say[MAX_LINES];
    char line[MAX_LINES][MM2_VERIFY_NOTE_LEN];
};

struct fixture {
    struct mm2_plan plan;
    cJSON *config; /* the plan's config, as Connect would hold it */
    char digest[MM2_DIGEST_TEXT_LEN + 1];
    struct mm2_refusals r;
    struct heard h;
};

static void hear(void *ctx, enum mm2_verify_say say, const char *line)
{
    struct heard *h = ctx;

    assert_true(h->n < MAX_LINES);
    h->say[h->n] = say;
    (void)snprintf(h->line[h->n++], MM2_VERIFY_NOTE_LEN, "%s", line);
}

static int setup(void **state)
{
    struct fixture *f = calloc(1, sizeof(*f));
    struct mm2_error err = {0};

    if (f == NULL)
        return -1;
    f->config = cJSON_Parse(CONFIG);
    if (f->config == NULL ||
        mm2_connector_config_digest(f->config, NAME, f->digest, &err) != MM2_OK ||
        mm2_cfgview_make(f->config, NAME, &f->plan.config_view, &err) != MM2_OK)
        return -1;
    (void)snprintf(f->plan.connector, sizeof(f->plan.connector), NAME);
    (void)snprintf(f->plan.alias, sizeof(f->plan.alias), "src");
    memcpy(f->plan.config_digest, f->digest, sizeof(f->digest));
    f->plan.topics = topics;
    f->plan.ntopics = 2;
    f->plan.entries = entries;
    f->plan.n = 4;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;

    cJSON_Delete(f->config);
    cJSON_Delete(f->plan.config_view);
    mm2_refusals_free(&f->r);
    free(f);
    return 0;
}

/* A connector Connect lists in state st with ntasks tasks (those with a config), configs task
 * configs and stale task statuses beyond them, judged as mm2_connlive_read judges it. */
static struct mm2_connlive live_of(enum mm2_cstate st, size_t ntasks, size_t configs, size_t stale)
{
    struct mm2_connlive v = {.s = {.exists = true, .state = st, .ntasks = ntasks, .stale = stale},
                             .task_configs = configs};

    if (stale > 0)
        (void)snprintf(v.s.first_stale, sizeof(v.s.first_stale), STALE);
    v.stop = mm2_connlive_judge(&v.s, configs);
    return v;
}

static void test_verify_stopped_with_nothing_behind_it_says_nothing(void **state)
{
    struct mm2_connlive v = live_of(MM2_CSTATE_STOPPED, 0, 0, 0), absent = {0};
    char buf[512] = "x";

    (void)state;
    assert_int_equal(
        mm2_verify_stopped(NAME, &v, MM2_VERIFY_WHY_HOLD, "then verify again", buf, sizeof(buf)),
        MM2_VERIFY_NONE);
    assert_string_equal(buf, "");
    assert_int_equal(
        mm2_verify_stopped(NAME, &absent, MM2_VERIFY_WHY_HOLD, "then", buf, sizeof(buf)),
        MM2_VERIFY_NONE);
}

static void test_verify_stopped_stale_task_statuses_are_a_note(void **state)
{
    struct mm2_connlive v = live_of(MM2_CSTATE_STOPPED, 0, 0, 2);
    char buf[512];

    (void)state;
    assert_int_equal(mm2_verify_stopped(NAME, &v, MM2_VERIFY_WHY_HOLD, "then", buf, sizeof(buf)),
                     MM2_VERIFY_INFO);
    assert_string_equal(buf, "connector " NAME " is STOPPED with no task config (2 stale task "
                             "statuses: " STALE "): stale, Connect keeps no task config behind "
                             "them");
}

static void test_verify_stopped_with_task_configs_left_is_a_problem(void **state)
{
    struct mm2_connlive v = live_of(MM2_CSTATE_STOPPED, 0, 2, 0);
    char buf[512];

    (void)state;
    assert_int_equal(
        mm2_verify_stopped(NAME, &v, MM2_VERIFY_WHY_WRITE, "then run again", buf, sizeof(buf)),
        MM2_VERIFY_PROBLEM);
    assert_string_equal(buf, "connector " NAME " is STOPPED with 2 task configs: Connect counts a "
                             "connector as stopped only once it has none; wait for the stop's "
                             "rebalance to end (PUT /connectors/" NAME "/stop if it was not "
                             "stopped), then run again [rule connector-state]");
}

static void test_verify_stopped_unassigned_names_the_restart(void **state)
{
    struct mm2_connlive v = live_of(MM2_CSTATE_UNASSIGNED, 0, 0, 0);
    char buf[1024], remedy[512];

    (void)state;
    (void)snprintf(remedy, sizeof(remedy), MM2_VERIFY_STALE_STATUS, NAME);
    assert_int_equal(
        mm2_verify_stopped(NAME, &v, MM2_VERIFY_WHY_HOLD, "then verify again", buf, sizeof(buf)),
        MM2_VERIFY_PROBLEM);
    assert_non_null(strstr(buf, "POST /connectors/" NAME "/restart (the connector alone)"));
    assert_int_equal(strncmp(buf,
                             "connector " NAME " is UNASSIGNED with no task config, not "
                             "STOPPED: likely a stale status record",
                             strlen("connector " NAME " is UNASSIGNED with no task config, not "
                                    "STOPPED: likely a stale status record")),
                     0);
    assert_non_null(strstr(buf, remedy));
    assert_non_null(strstr(buf, "status afresh, then verify again [rule connector-state]"));
}

static void test_verify_stopped_paused_and_running_are_problems(void **state)
{
    struct mm2_connlive paused = live_of(MM2_CSTATE_PAUSED, 2, 2, 0);
    struct mm2_connlive running = live_of(MM2_CSTATE_RUNNING, 1, 1, 0);
    char buf[512];

    (void)state;
    assert_int_equal(
        mm2_verify_stopped(NAME, &paused, MM2_VERIFY_WHY_WRITE, "then run again", buf, sizeof(buf)),
        MM2_VERIFY_PROBLEM);
    assert_string_equal(buf, "connector " NAME " is PAUSED with 2 tasks, not STOPPED (PAUSED is "
                             "not STOPPED: its tasks still exist); offsets can only be written to "
                             "a STOPPED connector: PUT /connectors/" NAME "/stop, then run again "
                             "[rule connector-state]");
    assert_int_equal(mm2_verify_stopped(NAME, &running, MM2_VERIFY_WHY_HOLD, "then verify again",
                                        buf, sizeof(buf)),
                     MM2_VERIFY_PROBLEM);
    assert_string_equal(buf, "connector " NAME " is RUNNING with 1 task, not STOPPED; the offsets "
                             "move until the connector is stopped: PUT /connectors/" NAME "/stop, "
                             "then verify again [rule connector-state]");
}

static void test_verify_stopped_line_is_cut_to_the_buffer(void **state)
{
    struct mm2_connlive v = live_of(MM2_CSTATE_RUNNING, 1, 1, 0);
    char buf[29];

    (void)state;
    assert_int_equal(mm2_verify_stopped(NAME, &v, MM2_VERIFY_WHY_HOLD, "then", buf, sizeof(buf)),
                     MM2_VERIFY_PROBLEM);
    assert_string_equal(buf, "connector " NAME " is R");
}

/* The plan's config with one key changed (or none when key is NULL). */
static cJSON *changed(const struct fixture *f, const char *key, const char *value, char *digest)
{
    cJSON *c = cJSON_Duplicate(f->config, true);
    struct mm2_error err = {0};

    assert_non_null(c);
    if (key != NULL)
        assert_true(cJSON_ReplaceItemInObjectCaseSensitive(c, key, cJSON_CreateString(value)));
    assert_int_equal(mm2_connector_config_digest(c, NAME, digest, &err), MM2_OK);
    return c;
}

static void test_verify_config_differs_names_the_keys(void **state)
{
    struct fixture *f = *state;
    char digest[MM2_DIGEST_TEXT_LEN + 1], buf[320], want[320];
    cJSON *c = changed(f, "tasks.max", "4", digest);

    mm2_verify_config_differs(&f->plan, c, digest, buf, sizeof(buf));
    assert_string_equal(buf, "in 1 key: tasks.max (\"2\" in the plan, \"4\" in Connect)");
    /* A plan that recorded no view: the two digests. */
    cJSON_Delete(f->plan.config_view);
    f->plan.config_view = NULL;
    mm2_verify_config_differs(&f->plan, c, digest, buf, sizeof(buf));
    (void)snprintf(want, sizeof(want),
                   "%s in the plan, %s in Connect, the plan recorded only its digest", f->digest,
                   digest);
    assert_string_equal(buf, want);
    cJSON_Delete(c);
}

static void test_verify_connector_config_same_digest_adds_nothing(void **state)
{
    struct fixture *f = *state;

    assert_int_equal(mm2_verify_connector_config(&f->plan, f->config, f->digest, &f->r), 0);
    assert_int_equal(f->r.n, 0);
}

static void test_verify_connector_config_alias_before_keys(void **state)
{
    struct fixture *f = *state;
    char digest[MM2_DIGEST_TEXT_LEN + 1];
    cJSON *alias = changed(f, "source.cluster.alias", "west", digest);
    cJSON *tasks;

    assert_int_equal(mm2_verify_connector_config(&f->plan, alias, digest, &f->r), 1);
    assert_string_equal(f->r.line[0], "connector " NAME " exists with source.cluster.alias "
                                      "\"west\", but the plan's offsets are keyed by \"src\"; "
                                      "MM2 would ignore them [rule alias]");
    cJSON_DeleteItemFromObjectCaseSensitive(alias, "source.cluster.alias");
    assert_int_equal(mm2_verify_connector_config(&f->plan, alias, digest, &f->r), 1);
    assert_string_equal(f->r.line[1], "connector " NAME " exists with source.cluster.alias "
                                      "\"(unset)\", but the plan's offsets are keyed by \"src\"; "
                                      "MM2 would ignore them [rule alias]");
    tasks = changed(f, "tasks.max", "4", digest);
    assert_int_equal(mm2_verify_connector_config(&f->plan, tasks, digest, &f->r), 1);
    assert_string_equal(f->r.line[2],
                        "connector " NAME " exists with another config than the plan's (in 1 key: "
                        "tasks.max (\"2\" in the plan, \"4\" in Connect)); delete it or apply the "
                        "JSON the plan was made with [rule connector-config]");
    cJSON_Delete(alias);
    cJSON_Delete(tasks);
}

/* Connect's offsets, sorted by cluster, topic, partition as mm2_connect_offsets returns them. */
#define OFFS(...)                                                                                  \
    (struct mm2_source_offsets)                                                                    \
    {                                                                                              \
        (struct mm2_source_offset[]){__VA_ARGS__},                                                 \
            sizeof((struct mm2_source_offset[]){__VA_ARGS__}) / sizeof(struct mm2_source_offset)   \
    }
#define NO_OFFS ((struct mm2_source_offsets){0})

static void test_verify_offsets_equal_field_by_field(void **state)
{
    struct mm2_source_offsets a = OFFS({"src", "orders", 0, 99}, {"src", "orders", 2, 0});
    struct mm2_source_offsets same = OFFS({"src", "orders", 0, 99}, {"src", "orders", 2, 0});
    struct mm2_source_offsets fewer = OFFS({"src", "orders", 0, 99});
    struct mm2_source_offsets offset = OFFS({"src", "orders", 0, 98}, {"src", "orders", 2, 0});
    struct mm2_source_offsets part = OFFS({"src", "orders", 0, 99}, {"src", "orders", 1, 0});
    struct mm2_source_offsets topic = OFFS({"src", "orders", 0, 99}, {"src", "orderz", 2, 0});
    struct mm2_source_offsets alias = OFFS({"src", "orders", 0, 99}, {"srd", "orders", 2, 0});

    (void)state;
    assert_true(mm2_verify_offsets_equal(&a, &same));
    assert_true(mm2_verify_offsets_equal(&NO_OFFS, &NO_OFFS));
    assert_false(mm2_verify_offsets_equal(&a, &fewer));
    assert_false(mm2_verify_offsets_equal(&a, &offset));
    assert_false(mm2_verify_offsets_equal(&a, &part));
    assert_false(mm2_verify_offsets_equal(&a, &topic));
    assert_false(mm2_verify_offsets_equal(&a, &alias));
}

static void test_verify_offsets_are_plan_exactly(void **state)
{
    struct fixture *f = *state;
    struct mm2_source_offsets plan = OFFS({"src", "orders", 0, 99}, {"src", "orders", 2, 0});
    struct mm2_source_offsets missing = OFFS({"src", "orders", 0, 99});
    struct mm2_source_offsets other = OFFS({"src", "orders", 0, 99}, {"src", "orders", 2, 1});
    struct mm2_source_offsets null_listed =
        OFFS({"src", "orders", 0, 99}, {"src", "orders", 1, 0}, {"src", "orders", 2, 0});
    struct mm2_source_offsets extra =
        OFFS({"other", "orders", 0, 99}, {"src", "orders", 0, 99}, {"src", "orders", 2, 0});

    assert_true(mm2_verify_offsets_are_plan(&f->plan, &plan));
    assert_false(mm2_verify_offsets_are_plan(&f->plan, &missing));
    assert_false(mm2_verify_offsets_are_plan(&f->plan, &other));
    assert_false(mm2_verify_offsets_are_plan(&f->plan, &null_listed));
    assert_false(mm2_verify_offsets_are_plan(&f->plan, &extra));
    assert_false(mm2_verify_offsets_are_plan(&f->plan, &NO_OFFS));
}

static void test_verify_compare_as_planned_says_nothing(void **state)
{
    struct fixture *f = *state;
    struct mm2_connlive v = live_of(MM2_CSTATE_STOPPED, 0, 0, 0);
    struct mm2_source_offsets o = OFFS({"src", "orders", 0, 99}, {"src", "orders", 2, 0});
    struct mm2_verify_counts c = {9, 9, 9};

    mm2_verify_compare(&f->plan, &(struct mm2_verify_live){&v, f->config, f->digest, &o}, hear,
                       &f->h, &c);
    assert_int_equal(f->h.n, 0);
    assert_int_equal(c.checked, 4);
    assert_int_equal(c.mismatches, 0);
    assert_int_equal(c.partition_mismatches, 0);
}

static void test_verify_compare_absent_connector_is_one_mismatch(void **state)
{
    struct fixture *f = *state;
    struct mm2_connlive v = {0};
    struct mm2_verify_counts c;

    mm2_verify_compare(&f->plan, &(struct mm2_verify_live){&v, NULL, "", &NO_OFFS}, hear, &f->h,
                       &c);
    assert_int_equal(f->h.n, 1);
    assert_int_equal(f->h.say[0], MM2_VERIFY_PROBLEM);
    assert_string_equal(f->h.line[0], "connector " NAME " does not exist; run apply");
    assert_int_equal(c.checked, 0);
    assert_int_equal(c.mismatches, 1);
    assert_int_equal(c.partition_mismatches, 0);
}

static void test_verify_compare_every_line_in_order(void **state)
{
    struct fixture *f = *state;
    struct mm2_connlive v = live_of(MM2_CSTATE_RUNNING, 2, 2, 1);
    char digest[MM2_DIGEST_TEXT_LEN + 1];
    cJSON *live = changed(f, "tasks.max", "4", digest);
    struct mm2_source_offsets o =
        OFFS({"other", "orders", 0, 7}, {"other", "refunds", 0, 7}, {"src", "orders", 1, 5},
             {"src", "orders", 2, 8}, {"src", "orders", 9, 1}, {"src", "payments", 0, 2},
             {"src", "refunds", 0, 3});
    struct mm2_verify_counts c;

    mm2_verify_compare(&f->plan, &(struct mm2_verify_live){&v, live, digest, &o}, hear, &f->h, &c);
    assert_int_equal(f->h.n, 8);
    /* The connector first: its state, then its config. */
    assert_string_equal(f->h.line[0], "connector " NAME " is RUNNING with 2 tasks (1 stale task "
                                      "status: " STALE "), not STOPPED; the offsets move until "
                                      "the connector is stopped: PUT /connectors/" NAME "/stop, "
                                      "then verify again [rule connector-state]");
    assert_string_equal(f->h.line[1], "connector " NAME "'s config is not the plan's (in 1 key: "
                                      "tasks.max (\"2\" in the plan, \"4\" in Connect))");
    /* Then each planned partition, in the plan's order. */
    assert_string_equal(f->h.line[2], "orders-0: expected offset 99, found none");
    assert_string_equal(f->h.line[3],
                        "orders-1: expected no offset (null: start at earliest), found 5");
    assert_string_equal(f->h.line[4], "orders-2: expected offset 0, found 8");
    assert_string_equal(f->h.line[5],
                        "payments-0: expected no offset (null: start at earliest), found 2");
    /* Then what Connect lists beyond the plan, in its order: refunds is no planned topic. */
    assert_int_equal(f->h.say[6], MM2_VERIFY_WARN);
    assert_string_equal(f->h.line[6], "orders-0 has an offset under cluster alias \"other\", not "
                                      "\"src\"; MM2 ignores it");
    assert_string_equal(f->h.line[7], "orders-9: an offset 1 that the plan does not have");
    for (size_t i = 0; i < 8; i++)
        assert_int_equal(f->h.say[i], i == 6 ? MM2_VERIFY_WARN : MM2_VERIFY_PROBLEM);
    assert_int_equal(c.checked, 4);
    assert_int_equal(c.mismatches, 7);
    assert_int_equal(c.partition_mismatches, 4);
    cJSON_Delete(live);
}

static void test_verify_compare_stale_note_comes_first(void **state)
{
    struct fixture *f = *state;
    struct mm2_connlive v = live_of(MM2_CSTATE_STOPPED, 0, 0, 1);
    struct mm2_source_offsets o = OFFS({"src", "orders", 0, 99});
    struct mm2_verify_counts c;

    mm2_verify_compare(&f->plan, &(struct mm2_verify_live){&v, f->config, f->digest, &o}, hear,
                       &f->h, &c);
    assert_int_equal(f->h.n, 2);
    assert_int_equal(f->h.say[0], MM2_VERIFY_INFO);
    assert_string_equal(f->h.line[0], "connector " NAME " is STOPPED with no task config (1 stale "
                                      "task status: " STALE "): stale, Connect keeps no task "
                                      "config behind them");
    assert_string_equal(f->h.line[1], "orders-2: expected offset 0, found none");
    assert_int_equal(c.mismatches, 1);
    assert_int_equal(c.partition_mismatches, 1);
}

static void test_verify_compare_cuts_mismatches_not_warnings(void **state)
{
    struct fixture *f = *state;
    struct mm2_connlive v = live_of(MM2_CSTATE_STOPPED, 0, 0, 0);
    char longname[700];
    struct mm2_xtopic t = {.name = longname, .partitions = 1, .replicated = true};
    struct mm2_source_offsets o = OFFS({"other", longname, 0, 1}, {"src", longname, 3, 1},
                                       {"src", "orders", 0, 99}, {"src", "orders", 2, 0});
    struct mm2_verify_counts c;

    memset(longname, 'a', sizeof(longname) - 1);
    longname[sizeof(longname) - 1] = '\0';
    f->plan.topics = &t; /* the only planned topic now: orders' entries still compared */
    f->plan.ntopics = 1;
    mm2_verify_compare(&f->plan, &(struct mm2_verify_live){&v, f->config, f->digest, &o}, hear,
                       &f->h, &c);
    assert_int_equal(f->h.n, 2);
    assert_int_equal(f->h.say[0], MM2_VERIFY_WARN);
    assert_int_equal(strlen(f->h.line[0]), 699 + strlen("-0 has an offset under cluster alias "
                                                        "\"other\", not \"src\"; MM2 ignores it"));
    assert_int_equal(f->h.say[1], MM2_VERIFY_PROBLEM);
    assert_int_equal(strlen(f->h.line[1]), MM2_REFUSAL_LEN - 1);
    assert_int_equal(strncmp(f->h.line[1], longname, MM2_REFUSAL_LEN - 1), 0);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_verify_stopped_with_nothing_behind_it_says_nothing),
        cmocka_unit_test(test_verify_stopped_stale_task_statuses_are_a_note),
        cmocka_unit_test(test_verify_stopped_with_task_configs_left_is_a_problem),
        cmocka_unit_test(test_verify_stopped_unassigned_names_the_restart),
        cmocka_unit_test(test_verify_stopped_paused_and_running_are_problems),
        cmocka_unit_test(test_verify_stopped_line_is_cut_to_the_buffer),
        T(test_verify_config_differs_names_the_keys),
        T(test_verify_connector_config_same_digest_adds_nothing),
        T(test_verify_connector_config_alias_before_keys),
        cmocka_unit_test(test_verify_offsets_equal_field_by_field),
        T(test_verify_offsets_are_plan_exactly),
        T(test_verify_compare_as_planned_says_nothing),
        T(test_verify_compare_absent_connector_is_one_mismatch),
        T(test_verify_compare_every_line_in_order),
        T(test_verify_compare_stale_note_comes_first),
        T(test_verify_compare_cuts_mismatches_not_warnings),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
