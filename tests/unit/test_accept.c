/*
 * Unit tests for lib/mm2_accept: each line of the acceptance list judged from what accept read,
 * holding and failing for each of its reasons, with the evidence and fix it prints; the connector
 * classes of GET /connectors?expand=info read strictly; the lines as JSON and Markdown.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "mm2_accept.h"

#define has(hay, needle)                                                                           \
    do {                                                                                           \
        if (strstr((hay), (needle)) == NULL)                                                       \
            fail_msg("\"%s\" lacks \"%s\"", (hay), (needle));                                      \
    } while (0)

/* A plan of two partitions of orders: p0 C=40 (M=39), p1 planned null (C = 0). */
static struct mm2_pentry entries[2];
static struct mm2_xtopic topic;
static struct mm2_plan plan;

static int setup(void **state)
{
    (void)state;
    memset(entries, 0, sizeof(entries));
    entries[0] = (struct mm2_pentry){.topic = "orders",
                                     .partition = 0,
                                     .c = 40,
                                     .m = 39,
                                     .action = MM2_ACT_OFFSET,
                                     .target_topic = "orders",
                                     .target_start = 40};
    entries[1] = (struct mm2_pentry){.topic = "orders",
                                     .partition = 1,
                                     .c = 0,
                                     .m = -1,
                                     .action = MM2_ACT_RESET,
                                     .target_topic = "orders",
                                     .target_start = 0};
    topic = (struct mm2_xtopic){.name = "orders",
                                .partitions = 2,
                                .replicated = true,
                                .target = "orders",
                                .target_partitions = 2};
    memset(&plan, 0, sizeof(plan));
    strcpy(plan.alias, "source");
    strcpy(plan.connector, "mirror");
    plan.entries = entries;
    plan.n = 2;
    plan.topics = &topic;
    plan.ntopics = 1;
    return 0;
}

static void test_imported_holds_at_or_past_m_and_fails_below_or_missing(void **state)
{
    struct mm2_source_offset v[] = {{"source", "orders", 0, 39}};
    struct mm2_source_offsets offs = {v, 1};
    struct mm2_accept_line l;

    (void)state;
    mm2_accept_imported(&plan, &offs, &l);
    assert_true(l.holds);
    has(l.evidence, "2 planned partitions: 1 at the plan's M, 0 past it");
    offs.v[0].offset = 120; /* MM2 has copied since */
    mm2_accept_imported(&plan, &offs, &l);
    assert_true(l.holds);
    has(l.evidence, "0 at the plan's M, 1 past it");
    offs.v[0].offset = 38;
    mm2_accept_imported(&plan, &offs, &l);
    assert_false(l.holds);
    has(l.evidence, "orders-0 holds 38, below the plan's M 39");
    has(l.fix, "mm2-offsets stop");
    offs.n = 0;
    mm2_accept_imported(&plan, &offs, &l);
    assert_false(l.holds);
    has(l.evidence, "orders-0 holds no offset (the plan's M is 39)");
}

static void test_started_and_complete(void **state)
{
    struct mm2_accept_part v[2] = {
        {.w = 100,
         .source_count = 60,
         .target_count = 60,
         .first_source = 40,
         .first_target = 40,
         .first_differs = "",
         .compared = 60,
         .bad_source = -1,
         .bad_target = -1},
        {.w = 0, .first_source = -1, .first_target = -1, .first_differs = "", .bad_source = -1},
    };
    struct mm2_accept_line l;

    (void)state;
    mm2_accept_started(&plan, v, &l);
    assert_true(l.holds);
    has(l.evidence, "on 1; 1 had no source record after C before the watermark");
    mm2_accept_complete(&plan, v, &l);
    assert_true(l.holds);
    has(l.evidence, "60 source records");
    has(l.evidence, "60 records compared one by one");
    v[0].first_differs = "headers";
    mm2_accept_started(&plan, v, &l);
    assert_false(l.holds);
    has(l.evidence, "orders-0: MM2's first record (target offset 40) differs from the source "
                    "record at 40 in its headers");
    v[0].first_target = -1;
    mm2_accept_started(&plan, v, &l);
    has(l.evidence, "no record on the target at or after 40, the source has one at 40");
    v[0].target_count = 57;
    mm2_accept_complete(&plan, v, &l);
    assert_false(l.holds);
    has(l.evidence, "the source holds 60 records in [40, 100), the target 57 from 40: 3 missing");
    v[0].target_count = 60;
    v[0].bad_source = 77;
    v[0].bad_target = 77;
    v[0].bad_field = "value";
    mm2_accept_complete(&plan, v, &l);
    assert_false(l.holds);
    has(l.evidence, "the target record at 77 differs from the source record at 77 in its value");
}

static void test_running(void **state)
{
    struct mm2_accept_sample s[3] = {
        {.at_ms = 0,
         .exists = true,
         .state = MM2_CSTATE_RUNNING,
         .tasks = 2,
         .tasks_running = 2,
         .position = 100,
         .log_end = 150,
         .lag = 50},
        {.at_ms = 5000,
         .exists = true,
         .state = MM2_CSTATE_RUNNING,
         .tasks = 2,
         .tasks_running = 2,
         .position = 140,
         .log_end = 160,
         .lag = 20},
        {.at_ms = 10000,
         .exists = true,
         .state = MM2_CSTATE_RUNNING,
         .tasks = 2,
         .tasks_running = 2,
         .position = 170,
         .log_end = 170,
         .lag = 0},
    };
    struct mm2_accept_line l;

    (void)state;
    mm2_accept_running(s, 3, 10000, &l);
    assert_true(l.holds);
    has(l.evidence, "3 polls over 10 s, all RUNNING with 2 tasks");
    has(l.evidence, "lag 50 -> 0");
    s[2].lag = 60;
    mm2_accept_running(s, 3, 10000, &l);
    assert_false(l.holds);
    has(l.evidence, "the lag grew from 50 to 60 records");
    s[2].position = 100;
    mm2_accept_running(s, 3, 10000, &l);
    assert_false(l.holds);
    has(l.evidence, "the source grew by 20 records over 10 s but MM2's offsets stayed at 100");
    s[1].tasks_running = 1;
    strcpy(s[1].first_bad_task, "task 1 FAILED on 10.0.0.7:8088");
    mm2_accept_running(s, 3, 10000, &l);
    assert_false(l.holds);
    has(l.evidence, "1 of 3 polls over 10 s not all RUNNING; first at 5 s: connector RUNNING, "
                    "1/2 tasks RUNNING, task 1 FAILED");
    mm2_accept_running(s, 0, 10000, &l);
    assert_false(l.holds);
}

static void test_classes_parse_strictly(void **state)
{
    const char *ok =
        "{\"a\": {\"info\": {\"name\": \"a\", \"config\": {\"connector.class\": "
        "\"org.apache.kafka.connect.mirror.MirrorSourceConnector\"}}}, \"hb\": "
        "{\"info\": {\"config\": {\"connector.class\": \"MirrorHeartbeatConnector\"}}}}";
    const char *bad = "{\"a\": {\"info\": {\"config\": {}}}}";
    struct mm2_accept_classes c;
    struct mm2_error err = {0};

    (void)state;
    assert_int_equal(mm2_accept_classes_parse(ok, strlen(ok), &c, &err), MM2_OK);
    assert_int_equal(c.n, 2);
    assert_string_equal(c.v[1].name, "hb");
    mm2_accept_classes_free(&c);
    assert_int_equal(mm2_accept_classes_parse(bad, strlen(bad), &c, &err), MM2_UNEXPECTED);
    has(err.msg, "connector \"a\" has no info.config[\"connector.class\"] string");
    assert_int_equal(mm2_accept_classes_parse("[]", 2, &c, &err), MM2_UNEXPECTED);
}

static void test_alone(void **state)
{
    struct mm2_accept_class v[] = {
        {"mirror", "org.apache.kafka.connect.mirror.MirrorSourceConnector"},
        {"hb", "org.apache.kafka.connect.mirror.MirrorHeartbeatConnector"},
    };
    struct mm2_accept_classes c = {v, 1}, *cp = &c;
    struct mm2_accept_alone_in in = {
        .classes = cp, .connect_version = "4.3.1", .topic = "mm2-offset-syncs.target.internal"};
    struct mm2_accept_line l;

    (void)state;
    mm2_accept_alone(&in, &l);
    assert_true(l.holds);
    has(l.evidence, "mm2-offset-syncs.target.internal on the source: absent");
    cp->n = 2;
    mm2_accept_alone(&in, &l);
    assert_false(l.holds);
    has(l.evidence, "connector hb is a MirrorHeartbeatConnector on the Connect cluster");
    has(l.fix, "DELETE /connectors/hb");
    cp->n = 1;
    in.syncs[0] = MM2_ACCEPT_SYNCS_WRITTEN;
    in.syncs_end[0] = 12;
    mm2_accept_alone(&in, &l);
    assert_false(l.holds);
    has(l.evidence, "on the source: written (12 records)");
    has(l.fix, "Connect 4.3.1 writes offset syncs");
    in.connect_version = "3.8.1"; /* writes them whatever the config says: named, not failed */
    mm2_accept_alone(&in, &l);
    assert_true(l.holds);
    has(l.evidence, "Connect 3.6 to 3.8 write offset syncs");
    in.syncs[1] = MM2_ACCEPT_SYNCS_DENIED;
    mm2_accept_alone(&in, &l);
    assert_false(l.holds);
    has(l.fix, "the [target] login may not Describe mm2-offset-syncs.target.internal");
}

static void test_topics(void **state)
{
    cJSON *then = cJSON_Parse("{\"cleanup.policy\": \"delete\", \"retention.ms\": \"604800000\"}");
    cJSON *now = cJSON_Duplicate(then, true);
    const cJSON *cfg[1] = {now};
    int32_t parts[1] = {2};
    struct mm2_accept_line l;

    (void)state;
    mm2_accept_topics(&plan, parts, cfg, &l);
    assert_false(l.holds); /* an export without configs: cannot compare */
    has(l.evidence, "the export recorded no configs for 1 of them");
    has(l.fix, "kafka-configs.sh --describe");
    topic.target_configs = then;
    mm2_accept_topics(&plan, parts, cfg, &l);
    assert_true(l.holds);
    has(l.evidence, "1 target topics with the partition counts and the 2 config values of export");
    cJSON_ReplaceItemInObject(now, "retention.ms", cJSON_CreateString("3600000"));
    mm2_accept_topics(&plan, parts, cfg, &l);
    assert_false(l.holds);
    has(l.evidence, "target topic orders retention.ms was 604800000 at export, is 3600000 now");
    parts[0] = 3;
    mm2_accept_topics(&plan, parts, cfg, &l);
    has(l.evidence, "target topic orders has 3 partitions, 2 at export");
    parts[0] = -1;
    mm2_accept_topics(&plan, parts, cfg, &l);
    has(l.evidence, "target topic orders no longer exists");
    topic.target_configs = NULL;
    cJSON_Delete(then);
    cJSON_Delete(now);
}

static void test_report_json_and_markdown(void **state)
{
    struct mm2_accept a;
    cJSON *arr;
    char *md;

    (void)state;
    memset(&a, 0, sizeof(a));
    for (int i = 0; i < MM2_ACCEPT_LINES; i++) {
        a.line[i].holds = true;
        strcpy(a.line[i].evidence, "fine | good");
    }
    assert_true(mm2_accept_ok(&a));
    md = mm2_accept_markdown(&a, "mirror", "sha256:ab", "2026-12-06T14:00:00Z", 60000);
    has(md, "verdict: **accepted: every line holds**");
    has(md, "| 6 | the target topics' partition counts and configs as they were at export | yes "
            "| fine \\| good |");
    free(md);
    a.line[4].holds = false;
    strcpy(a.line[4].fix, "delete it");
    assert_false(mm2_accept_ok(&a));
    md = mm2_accept_markdown(&a, "mirror", "sha256:ab", "2026-12-06T14:00:00Z", 60000);
    has(md, "**NOT accepted**");
    has(md, "- line 5 (alone): delete it");
    free(md);
    arr = mm2_accept_lines_json(&a);
    assert_int_equal(cJSON_GetArraySize(arr), 6);
    assert_false(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetArrayItem(arr, 4), "holds")));
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(arr, 4), "fix")->valuestring,
                        "delete it");
    assert_null(cJSON_GetObjectItem(cJSON_GetArrayItem(arr, 0), "fix"));
    cJSON_Delete(arr);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_imported_holds_at_or_past_m_and_fails_below_or_missing, setup),
        cmocka_unit_test_setup(test_started_and_complete, setup),
        cmocka_unit_test_setup(test_running, setup),
        cmocka_unit_test_setup(test_classes_parse_strictly, setup),
        cmocka_unit_test_setup(test_alone, setup),
        cmocka_unit_test_setup(test_topics, setup),
        cmocka_unit_test_setup(test_report_json_and_markdown, setup),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
