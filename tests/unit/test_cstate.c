/*
 * Unit tests for lib/mm2_cstate: Connect's connector and task states, and the one reader of a
 * ConnectorStateInfo. Without a name it is what mm2-offsets reads (GET .../status: pinned in
 * test_connect.c through mm2_connect_status_parse); with a name it is an entry of GET
 * /connectors?expand=status as mm2-probe reads it, pinned here.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "mm2_cstate.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* mm2_cstate_read on the JSON text body, with name; the tree is kept in *tree for the strings. */
static enum mm2_status read_named(const char *body, const char *name, cJSON **tree,
                                  struct mm2_cstate_info *out, struct mm2_error *err)
{
    *tree = cJSON_Parse(body);
    mm2_error_clear(err);
    if (*tree == NULL)
        fail_msg("test JSON does not parse: %s", body);
    return mm2_cstate_read(*tree, "\"c\".status", name, out, err);
}

static void test_cstate_names_are_connects_and_parse_back(void **state)
{
    static const char *const names[] = {"UNASSIGNED", "RUNNING",    "PAUSED", "FAILED",
                                        "DESTROYED",  "RESTARTING", "STOPPED"};
    enum mm2_cstate s;

    (void)state;
    for (size_t i = 0; i < N(names); i++) {
        assert_true(mm2_cstate_parse(names[i], &s));
        assert_int_equal(s, (enum mm2_cstate)i); /* AbstractStatus.State's order */
        assert_string_equal(mm2_cstate_name(s), names[i]);
    }
    assert_false(mm2_cstate_parse("running", &s));
    assert_false(mm2_cstate_parse("", &s));
    assert_false(mm2_cstate_parse(NULL, &s));
}

static void test_cstate_named_reads_the_whole_listing_entry(void **state)
{
    struct mm2_cstate_info info;
    struct mm2_error err;
    cJSON *tree;

    (void)state;
    assert_int_equal(
        read_named(
            "{\"name\": \"c\", \"type\": \"source\", \"connector\": {\"state\": \"RUNNING\", "
            "\"worker_id\": \"10.0.0.1:8088\"}, \"tasks\": [{\"id\": 0, \"state\": "
            "\"RUNNING\", \"worker_id\": \"10.0.0.1:8088\"}, {\"id\": 1, \"state\": "
            "\"FAILED\", \"worker_id\": null, \"trace\": \"java.lang.Boom\"}]}",
            "c", &tree, &info, &err),
        MM2_OK);
    assert_string_equal(info.name, "c");
    assert_string_equal(info.type, "source");
    assert_int_equal(info.state, MM2_CSTATE_RUNNING);
    assert_string_equal(info.worker_id, "10.0.0.1:8088");
    assert_null(info.trace);
    assert_int_equal(info.ntasks, 2);
    assert_int_equal(info.running, 1);
    assert_int_equal(info.failed, 1);
    assert_int_equal(info.tasks[1].id, 1);
    assert_int_equal(info.tasks[1].state, MM2_CSTATE_FAILED);
    assert_null(info.tasks[1].worker_id);
    assert_string_equal(info.tasks[1].trace, "java.lang.Boom");
    mm2_cstate_info_free(&info);
    cJSON_Delete(tree);
}

struct refusal {
    const char *body;
    const char *message;
};

#define CONN "\"connector\": {\"state\": \"RUNNING\", \"worker_id\": \"w\"}"

static void test_cstate_named_refusals_name_the_path(void **state)
{
    static const struct refusal cases[] = {
        {"{\"type\": \"source\", " CONN ", \"tasks\": []}", "\"c\".status.name is missing"},
        {"{\"name\": \"d\", \"type\": \"source\", " CONN ", \"tasks\": []}",
         "\"c\".status.name is \"d\", not the connector's name"},
        {"{\"name\": \"c\", " CONN ", \"tasks\": []}", "\"c\".status.type is missing"},
        {"{\"name\": \"c\", \"type\": \"source\", \"connector\": {\"state\": \"RUNNING\"}, "
         "\"tasks\": []}",
         "\"c\".status.connector.worker_id is missing"},
        {"{\"name\": \"c\", \"type\": \"source\", \"connector\": {\"state\": \"RUNNING\", "
         "\"worker_id\": 7}, \"tasks\": []}",
         "\"c\".status.connector.worker_id is not a string or null"},
        {"{\"name\": \"c\", \"type\": \"source\", \"connector\": {\"state\": \"RUNNING\", "
         "\"worker_id\": \"w\", \"trace\": 1}, \"tasks\": []}",
         "\"c\".status.connector.trace is not a string"},
        {"{\"name\": \"c\", \"type\": \"source\", " CONN
         ", \"tasks\": [{\"id\": -1, \"state\": \"RUNNING\", \"worker_id\": \"w\"}]}",
         "\"c\".status.tasks[0].id is not an integer from 0 to 2147483647"},
        {"{\"name\": \"c\", \"type\": \"source\", " CONN
         ", \"tasks\": [{\"id\": 2147483648, \"state\": \"RUNNING\", \"worker_id\": \"w\"}]}",
         "\"c\".status.tasks[0].id is not an integer from 0 to 2147483647"},
        {"{\"name\": \"c\", \"type\": \"source\", " CONN
         ", \"tasks\": [{\"id\": 0, \"state\": \"GONE\", \"worker_id\": \"w\"}]}",
         "\"c\".status.tasks[0].state \"GONE\" is not a state"},
    };

    (void)state;
    for (size_t i = 0; i < N(cases); i++) {
        struct mm2_cstate_info info;
        struct mm2_error err;
        cJSON *tree;
        enum mm2_status st = read_named(cases[i].body, "c", &tree, &info, &err);

        if (st != MM2_UNEXPECTED || strcmp(err.msg, cases[i].message) != 0)
            fail_msg("case %zu: got %d \"%s\", want \"%s\"", i, (int)st, err.msg, cases[i].message);
        mm2_cstate_info_free(&info);
        cJSON_Delete(tree);
    }
}

static void test_cstate_more_tasks_than_the_cap_refused(void **state)
{
    cJSON *status = cJSON_Parse("{\"connector\": {\"state\": \"RUNNING\"}, \"tasks\": []}");
    cJSON *tasks = cJSON_GetObjectItemCaseSensitive(status, "tasks");
    struct mm2_cstate_info info;
    struct mm2_error err;

    (void)state;
    for (int i = 0; i <= MM2_CSTATE_TASKS_MAX; i++) {
        cJSON *t = cJSON_CreateObject();
        cJSON_AddNumberToObject(t, "id", i);
        cJSON_AddStringToObject(t, "state", "RUNNING");
        cJSON_AddItemToArray(tasks, t);
    }
    assert_int_equal(mm2_cstate_read(status, "status", NULL, &info, &err), MM2_UNEXPECTED);
    assert_string_equal(err.msg, "status.tasks has more than 10000 entries");
    mm2_cstate_info_free(&info);
    cJSON_Delete(status);
}

static void test_cstate_info_free_accepts_null(void **state)
{
    (void)state;
    mm2_cstate_info_free(NULL);
}

#define AUTHZ_TRACE                                                                                \
    "org.apache.kafka.connect.errors.ConnectException: Unrecoverable exception from producer "     \
    "send callback\n\tat org.apache.kafka.connect.runtime.AbstractWorkerSourceTask.x(A.java:1)\n"  \
    "Caused by: org.apache.kafka.common.errors.TopicAuthorizationException: Not authorized to "    \
    "access topics: [orders]\n\t... 11 more\n"

static void test_cstate_cause_names_the_root_and_authorization(void **state)
{
    char buf[MM2_CSTATE_CAUSE_MAX];
    (void)state;
    mm2_cstate_trace_cause(AUTHZ_TRACE, buf, sizeof(buf));
    assert_string_equal(buf, "authorization: TopicAuthorizationException: Not authorized to access "
                             "topics: [orders] (under ConnectException: Unrecoverable exception "
                             "from producer send callback)");
    assert_true(mm2_cstate_trace_authz(AUTHZ_TRACE));
}

static void test_cstate_cause_of_a_trace_without_a_cause_is_its_first_line(void **state)
{
    char buf[MM2_CSTATE_CAUSE_MAX];
    (void)state;
    mm2_cstate_trace_cause("org.apache.kafka.connect.errors.ConnectException: boom\r\n\tat x\n",
                           buf, sizeof(buf));
    assert_string_equal(buf, "ConnectException: boom");
    assert_false(mm2_cstate_trace_authz("org.apache.kafka.connect.errors.ConnectException: boom"));
    /* A message that merely mentions the word is no authorization refusal. */
    assert_false(mm2_cstate_trace_authz("java.lang.IllegalStateException: AuthorizationException"));
    /* Nested causes: the last is the root; the middle one is not shown. */
    mm2_cstate_trace_cause(
        "a.B: one\nCaused by: c.D: two\nCaused by: e.GroupAuthorizationException: "
        "Not authorized to access group: g\n",
        buf, sizeof(buf));
    assert_string_equal(buf, "authorization: GroupAuthorizationException: Not authorized to access "
                             "group: g (under B: one)");
}

static void test_cstate_cause_is_bounded_and_one_line(void **state)
{
    char small[16];
    char buf[MM2_CSTATE_CAUSE_MAX];
    char huge[2000];
    (void)state;
    mm2_cstate_trace_cause(AUTHZ_TRACE, small, sizeof(small));
    assert_string_equal(small, "authorization: ");
    memset(huge, 'x', sizeof(huge) - 1);
    huge[sizeof(huge) - 1] = '\0';
    huge[3] = '\x1b';
    mm2_cstate_trace_cause(huge, buf, sizeof(buf));
    assert_int_equal(strlen(buf), MM2_CSTATE_CAUSE_MAX - 1);
    assert_int_equal(buf[3], '?');
    mm2_cstate_trace_cause(NULL, buf, sizeof(buf));
    assert_string_equal(buf, "");
    mm2_cstate_trace_cause("", buf, sizeof(buf));
    assert_string_equal(buf, "");
    assert_false(mm2_cstate_trace_authz(NULL));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cstate_names_are_connects_and_parse_back),
        cmocka_unit_test(test_cstate_named_reads_the_whole_listing_entry),
        cmocka_unit_test(test_cstate_named_refusals_name_the_path),
        cmocka_unit_test(test_cstate_more_tasks_than_the_cap_refused),
        cmocka_unit_test(test_cstate_info_free_accepts_null),
        cmocka_unit_test(test_cstate_cause_names_the_root_and_authorization),
        cmocka_unit_test(test_cstate_cause_of_a_trace_without_a_cause_is_its_first_line),
        cmocka_unit_test(test_cstate_cause_is_bounded_and_one_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
