/*
 * Unit tests for lib/mm2_connect's pure parts: the parser of GET /connectors/{name}/offsets (a
 * MirrorSourceConnector's {"partition": {"cluster", "topic", "partition"}, "offset": {"offset"}}
 * entries, sorted, one with a null offset skipped, duplicates and anything else refused), the
 * parser of GET .../status, the connector names put in URLs, and the lookup of one source
 * offset. The HTTP calls themselves are proven against real workers.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm2_connect.h"
#include "mm2_connlive.h"
#include "mm2_http.h"

static enum mm2_status offsets(const char *body, struct mm2_source_offsets *out,
                               struct mm2_error *err)
{
    mm2_error_clear(err);
    return mm2_connect_offsets_parse(body, strlen(body), out, err);
}

/* An offsets answer with one entry whose JSON is entry. */
static void assert_offsets_refused(const char *entry, const char *message)
{
    char body[1024];
    struct mm2_source_offsets o;
    struct mm2_error err;

    (void)snprintf(body, sizeof(body), "{\"offsets\": [%s]}", entry);
    if (offsets(body, &o, &err) != MM2_UNEXPECTED || err.code != MM2_UNEXPECTED ||
        strcmp(err.msg, message) != 0)
        fail_msg("%s: got code %d \"%s\"", entry, err.code, err.msg);
    assert_int_equal(o.n, 0);
    assert_null(o.v);
}

#define ENTRY(cluster, topic, partition, offset)                                                   \
    "{\"partition\": {\"cluster\": \"" cluster "\", \"partition\": " #partition                    \
    ", \"topic\": \"" topic "\"}, \"offset\": {\"offset\": " #offset "}}"

/* ---- GET /connectors/{name}/offsets ---------------------------------------------------------- */

static void test_offsets_parse_sorts_by_cluster_topic_partition(void **state)
{
    struct mm2_source_offsets o;
    struct mm2_error err;
    /* clang-format off */
    const char *body = "{\"offsets\": ["
                       ENTRY("source", "payments", 0, 9) ", "
                       ENTRY("source", "orders", 10, 5) ", "
                       ENTRY("source", "orders", 9, 1999) ", "
                       ENTRY("other", "orders", 0, 5) ", "
                       ENTRY("source", "orders", 0, 0) "]}";
    /* clang-format on */

    (void)state;
    assert_int_equal(offsets(body, &o, &err), MM2_OK);
    assert_int_equal(o.n, 5);
    assert_string_equal(o.v[0].cluster, "other");
    assert_string_equal(o.v[1].cluster, "source");
    assert_string_equal(o.v[1].topic, "orders");
    assert_int_equal(o.v[1].partition, 0);
    assert_int_equal(o.v[1].offset, 0);
    assert_int_equal(o.v[2].partition, 9); /* numerically: 9 before 10 */
    assert_int_equal(o.v[2].offset, 1999);
    assert_int_equal(o.v[3].partition, 10);
    assert_string_equal(o.v[4].topic, "payments");
    assert_int_equal(o.v[4].offset, 9);
    mm2_source_offsets_free(&o);
    assert_int_equal(o.n, 0);
    assert_null(o.v);
}

static void test_offsets_parse_connects_own_answer(void **state)
{
    /* As Connect 3.7+ answers for a MirrorSourceConnector (MirrorUtils.wrapPartition). */
    const char *body = "{\"offsets\":[{\"partition\":{\"cluster\":\"source\",\"partition\":0,"
                       "\"topic\":\"orders\"},\"offset\":{\"offset\":999}},{\"partition\":{"
                       "\"cluster\":\"source\",\"partition\":1,\"topic\":\"orders\"},\"offset\":{"
                       "\"offset\":9007199254740991}}]}";
    struct mm2_source_offsets o;
    struct mm2_error err;

    (void)state;
    assert_int_equal(offsets(body, &o, &err), MM2_OK);
    assert_int_equal(o.n, 2);
    assert_int_equal(o.v[0].offset, 999);
    assert_true(o.v[1].offset == 9007199254740991LL);
    mm2_source_offsets_free(&o);
}

static void test_offsets_parse_empty_list(void **state)
{
    struct mm2_source_offsets o;
    struct mm2_error err;

    (void)state;
    /* A connector that never ran (or whose partitions were all reset with null). */
    assert_int_equal(offsets("{\"offsets\": []}", &o, &err), MM2_OK);
    assert_int_equal(o.n, 0);
    assert_null(o.v);
    assert_null(mm2_source_offsets_find(&o, "source", "orders", 0));
    mm2_source_offsets_free(&o);
}

static void test_offsets_parse_skips_an_entry_whose_offset_is_null(void **state)
{
    struct mm2_source_offsets o;
    struct mm2_error err;
    /* clang-format off */
    const char *body = "{\"offsets\": ["
                       ENTRY("source", "orders", 1, 7) ", "
                       "{\"partition\": {\"cluster\": \"source\", \"topic\": \"orders\", "
                       "\"partition\": 0}, \"offset\": null}, "
                       ENTRY("source", "orders", 0, 3) "]}";
    /* clang-format on */

    (void)state;
    /* A reset partition (PATCH with a null offset) counts as absent, not as a bad answer, and
     * does not make its partition a duplicate. */
    assert_int_equal(offsets(body, &o, &err), MM2_OK);
    assert_int_equal(o.n, 2);
    assert_string_equal(o.v[0].topic, "orders");
    assert_int_equal(o.v[0].partition, 0);
    assert_int_equal(o.v[0].offset, 3);
    assert_int_equal(o.v[1].partition, 1);
    assert_int_equal(o.v[1].offset, 7);
    mm2_source_offsets_free(&o);
    /* Only null ones: none. */
    assert_int_equal(offsets("{\"offsets\": [{\"partition\": {\"cluster\": \"s\", \"topic\": "
                             "\"t\", \"partition\": 0}, \"offset\": null}]}",
                             &o, &err),
                     MM2_OK);
    assert_int_equal(o.n, 0);
    assert_null(mm2_source_offsets_find(&o, "s", "t", 0));
    mm2_source_offsets_free(&o);
    assert_null(o.v);
    /* The partition of a null entry is still checked for its type. */
    assert_offsets_refused("{\"partition\": [\"s\", \"t\", 0], \"offset\": null}",
                           "offsets[0].partition is not an object");
}

static void test_offsets_parse_reads_only_len_bytes(void **state)
{
    const char *body = "{\"offsets\": []}garbage";
    struct mm2_source_offsets o;
    struct mm2_error err = {0};

    (void)state;
    assert_int_equal(mm2_connect_offsets_parse(body, 15, &o, &err), MM2_OK);
    assert_int_equal(o.n, 0);
}

static void test_offsets_parse_refuses_trailing_garbage(void **state)
{
    static const char *const bodies[] = {"{\"offsets\": []}garbage", "{\"offsets\": []}{}",
                                         "{\"offsets\": []} x", "{\"offsets\": []}\n]"};
    struct mm2_source_offsets o;
    struct mm2_error err;

    (void)state;
    /* Not the documented JSON: two documents run together, or one and something else. */
    for (size_t i = 0; i < sizeof(bodies) / sizeof(bodies[0]); i++) {
        if (offsets(bodies[i], &o, &err) != MM2_UNEXPECTED || err.code != MM2_UNEXPECTED ||
            strcmp(err.msg, "the offsets answer is not JSON") != 0)
            fail_msg("%s: got code %d \"%s\"", bodies[i], err.code, err.msg);
        assert_int_equal(o.n, 0);
        assert_null(o.v);
    }
}

static void test_offsets_parse_accepts_trailing_whitespace(void **state)
{
    struct mm2_source_offsets o;
    struct mm2_error err;

    (void)state;
    assert_int_equal(offsets("{\"offsets\": []}\r\n \t\n", &o, &err), MM2_OK);
    assert_int_equal(o.n, 0);
    /* A NUL at the end of a length-delimited body (Connect sends none, but it is no value). */
    assert_int_equal(mm2_connect_offsets_parse("{\"offsets\": []}\0", 16, &o, &err), MM2_OK);
    mm2_source_offsets_free(&o);
}

static void test_offsets_parse_ignores_members_it_does_not_read(void **state)
{
    struct mm2_source_offsets o;
    struct mm2_error err;

    (void)state;
    assert_int_equal(
        offsets("{\"offsets\": [{\"partition\": {\"cluster\": \"s\", \"topic\": \"t\", "
                "\"partition\": 3, \"x\": 1}, \"offset\": {\"offset\": 7, \"y\": "
                "true}, \"z\": null}], \"extra\": 1}",
                &o, &err),
        MM2_OK);
    assert_int_equal(o.n, 1);
    assert_int_equal(o.v[0].partition, 3);
    assert_int_equal(o.v[0].offset, 7);
    mm2_source_offsets_free(&o);
}

static void test_offsets_parse_refuses_duplicates(void **state)
{
    struct mm2_source_offsets o;
    struct mm2_error err;

    /* clang-format off */
    const char *body = "{\"offsets\": ["
                       ENTRY("source", "orders", 0, 5) ", "
                       ENTRY("source", "payments", 0, 1) ", "
                       ENTRY("source", "orders", 0, 6) "]}";
    /* clang-format on */

    (void)state;
    assert_int_equal(offsets(body, &o, &err), MM2_UNEXPECTED);
    assert_string_equal(err.msg, "the offsets answer lists source/orders-0 twice");
    assert_int_equal(o.n, 0);
    assert_null(o.v);
}

static void test_offsets_parse_same_topic_partition_under_two_aliases_is_two_entries(void **state)
{
    struct mm2_source_offsets o;
    struct mm2_error err;

    /* clang-format off */
    const char *body = "{\"offsets\": ["
                       ENTRY("source", "orders", 0, 5) ", "
                       ENTRY("src", "orders", 0, 6) "]}";
    /* clang-format on */

    (void)state;
    assert_int_equal(offsets(body, &o, &err), MM2_OK);
    assert_int_equal(o.n, 2);
    assert_int_equal(mm2_source_offsets_find(&o, "source", "orders", 0)->offset, 5);
    assert_int_equal(mm2_source_offsets_find(&o, "src", "orders", 0)->offset, 6);
    mm2_source_offsets_free(&o);
}

static void test_offsets_parse_refuses_out_of_range_numbers(void **state)
{
    (void)state;
    assert_offsets_refused(ENTRY("s", "t", 0, -1),
                           "offsets[0]: partition 0 or offset -1 is out of range");
    assert_offsets_refused(ENTRY("s", "t", -1, 5),
                           "offsets[0]: partition -1 or offset 5 is out of range");
    assert_offsets_refused(ENTRY("s", "t", 2147483648, 5),
                           "offsets[0]: partition 2147483648 or offset 5 is out of range");
    assert_offsets_refused(ENTRY("s", "t", 0, 9007199254740992),
                           "offsets[0].offset.offset is not an integer");
    assert_offsets_refused(ENTRY("s", "t", 0, 1.5), "offsets[0].offset.offset is not an integer");
    assert_offsets_refused(ENTRY("s", "t", 0.5, 1),
                           "offsets[0].partition.partition is not an integer");
}

static void test_offsets_parse_accepts_the_largest_partition(void **state)
{
    struct mm2_source_offsets o;
    struct mm2_error err;

    (void)state;
    assert_int_equal(offsets("{\"offsets\": [" ENTRY("s", "t", 2147483647, 0) "]}", &o, &err),
                     MM2_OK);
    assert_int_equal(o.v[0].partition, INT32_MAX);
    mm2_source_offsets_free(&o);
}

static void test_offsets_parse_refuses_wrong_types(void **state)
{
    (void)state;
    assert_offsets_refused("{\"partition\": {\"cluster\": \"s\", \"topic\": \"t\", \"partition\": "
                           "0}, \"offset\": {\"offset\": \"999\"}}",
                           "offsets[0].offset.offset is not an integer");
    assert_offsets_refused("{\"partition\": {\"cluster\": \"s\", \"topic\": \"t\", \"partition\": "
                           "\"0\"}, \"offset\": {\"offset\": 1}}",
                           "offsets[0].partition.partition is not an integer");
    assert_offsets_refused("{\"partition\": {\"cluster\": 5, \"topic\": \"t\", \"partition\": 0}, "
                           "\"offset\": {\"offset\": 1}}",
                           "offsets[0].partition.cluster is not a string");
    assert_offsets_refused("{\"partition\": {\"cluster\": \"s\", \"topic\": null, \"partition\": "
                           "0}, \"offset\": {\"offset\": 1}}",
                           "offsets[0].partition.topic is not a string");
    assert_offsets_refused("{\"partition\": [\"s\", \"t\", 0], \"offset\": {\"offset\": 1}}",
                           "offsets[0].partition is not an object");
    assert_offsets_refused("{\"partition\": {\"cluster\": \"s\", \"topic\": \"t\", \"partition\": "
                           "0}, \"offset\": 5}",
                           "offsets[0].offset is not an object or null");
    assert_offsets_refused("7", "offsets[0] is not an object");
}

static void test_offsets_parse_refuses_missing_members(void **state)
{
    (void)state;
    assert_offsets_refused("{\"offset\": {\"offset\": 1}}", "offsets[0].partition is missing");
    assert_offsets_refused("{\"partition\": {\"cluster\": \"s\", \"topic\": \"t\", \"partition\": "
                           "0}}",
                           "offsets[0].offset is missing");
    assert_offsets_refused("{\"partition\": {\"topic\": \"t\", \"partition\": 0}, \"offset\": "
                           "{\"offset\": 1}}",
                           "offsets[0].partition.cluster is missing");
    assert_offsets_refused("{\"partition\": {\"cluster\": \"s\", \"partition\": 0}, \"offset\": "
                           "{\"offset\": 1}}",
                           "offsets[0].partition.topic is missing");
    assert_offsets_refused("{\"partition\": {\"cluster\": \"s\", \"topic\": \"t\"}, \"offset\": "
                           "{\"offset\": 1}}",
                           "offsets[0].partition.partition is missing");
    assert_offsets_refused("{\"partition\": {\"cluster\": \"s\", \"topic\": \"t\", \"partition\": "
                           "0}, \"offset\": {}}",
                           "offsets[0].offset.offset is missing");
}

static void test_offsets_parse_names_the_bad_entry_after_good_ones(void **state)
{
    struct mm2_source_offsets o;
    struct mm2_error err;

    /* clang-format off */
    const char *body = "{\"offsets\": ["
                       ENTRY("s", "a", 0, 1) ", "
                       ENTRY("s", "b", 0, 2) ", "
                       "{\"partition\": {}, \"offset\": {}}]}";
    /* clang-format on */

    (void)state;
    assert_int_equal(offsets(body, &o, &err), MM2_UNEXPECTED);
    assert_string_equal(err.msg, "offsets[2].partition.cluster is missing");
    assert_int_equal(o.n, 0);
    assert_null(o.v);
}

static void test_offsets_parse_refuses_a_body_that_is_not_the_answer(void **state)
{
    struct mm2_source_offsets o;
    struct mm2_error err;

    (void)state;
    assert_int_equal(offsets("", &o, &err), MM2_UNEXPECTED);
    assert_string_equal(err.msg, "the offsets answer is not JSON");
    assert_int_equal(offsets("<html>502</html>", &o, &err), MM2_UNEXPECTED);
    assert_string_equal(err.msg, "the offsets answer is not JSON");
    assert_int_equal(offsets("[]", &o, &err), MM2_UNEXPECTED);
    assert_string_equal(err.msg, "answer is not an object");
    assert_int_equal(offsets("{}", &o, &err), MM2_UNEXPECTED);
    assert_string_equal(err.msg, "answer.offsets is missing");
    assert_int_equal(offsets("{\"offsets\": {}}", &o, &err), MM2_UNEXPECTED);
    assert_string_equal(err.msg, "answer.offsets is not an array");
    assert_int_equal(offsets("{\"offsets\": null}", &o, &err), MM2_UNEXPECTED);
    assert_string_equal(err.msg, "answer.offsets is not an array");
    assert_int_equal(o.n, 0);
    assert_null(o.v);
}

/* ---- mm2_source_offsets_find ----------------------------------------------------------------- */

static void test_offsets_find_matches_cluster_topic_and_partition(void **state)
{
    struct mm2_source_offsets o;
    struct mm2_error err;
    const struct mm2_source_offset *e;

    /* clang-format off */
    const char *body = "{\"offsets\": ["
                       ENTRY("source", "orders", 1, 11) ", "
                       ENTRY("source", "orders", 0, 10) ", "
                       ENTRY("source", "payments", 0, 20) "]}";
    /* clang-format on */

    (void)state;
    assert_int_equal(offsets(body, &o, &err), MM2_OK);
    e = mm2_source_offsets_find(&o, "source", "orders", 1);
    assert_non_null(e);
    assert_int_equal(e->offset, 11);
    assert_int_equal(mm2_source_offsets_find(&o, "source", "orders", 0)->offset, 10);
    assert_int_equal(mm2_source_offsets_find(&o, "source", "payments", 0)->offset, 20);
    assert_null(mm2_source_offsets_find(&o, "source", "orders", 2));
    assert_null(mm2_source_offsets_find(&o, "src", "orders", 0));
    assert_null(mm2_source_offsets_find(&o, "source", "Orders", 0));
    assert_null(mm2_source_offsets_find(&o, "source", "payments", 1));
    mm2_source_offsets_free(&o);
}

static void test_offsets_free_accepts_null_and_empty(void **state)
{
    struct mm2_source_offsets o = {0};

    (void)state;
    mm2_source_offsets_free(NULL);
    mm2_source_offsets_free(&o);
    mm2_source_offsets_free(&o);
    assert_int_equal(o.n, 0);
}

/* ---- GET /connectors/{name}/status ----------------------------------------------------------- */

static enum mm2_status status(const char *body, struct mm2_connector_status *out,
                              struct mm2_error *err)
{
    mm2_error_clear(err);
    return mm2_connect_status_parse(body, strlen(body), SIZE_MAX, out, err);
}

/* The same, split by a task config count. */
static enum mm2_status status_split(const char *body, size_t configs,
                                    struct mm2_connector_status *out, struct mm2_error *err)
{
    mm2_error_clear(err);
    return mm2_connect_status_parse(body, strlen(body), configs, out, err);
}

/* A new STOPPED connector whose status still lists the UNASSIGNED record its deleted
 * predecessor's task 0 left in the status topic: with no task config that entry is stale. */
static const char stale_stopped[] =
    "{\"name\": \"ho6\", \"connector\": {\"state\": \"STOPPED\", \"worker_id\": "
    "\"198.18.10.21:8088\"}, \"tasks\": [{\"id\": 0, \"state\": \"UNASSIGNED\", "
    "\"worker_id\": \"198.18.10.22:8088\"}], \"type\": \"source\"}";

static void test_status_split_counts_entries_without_a_config_as_stale(void **state)
{
    struct mm2_connector_status s;
    struct mm2_error err;

    (void)state;
    assert_int_equal(status_split(stale_stopped, 0, &s, &err), MM2_OK);
    assert_int_equal(s.ntasks, 0);
    assert_int_equal(s.stale, 1);
    assert_string_equal(s.first_stale, "task 0 UNASSIGNED on 198.18.10.22:8088");
    assert_string_equal(s.first_task, "");
    assert_string_equal(s.first_bad_task, "");
    /* The same answer unsplit counts the entry as a task. */
    assert_int_equal(status(stale_stopped, &s, &err), MM2_OK);
    assert_int_equal(s.ntasks, 1);
    assert_int_equal(s.stale, 0);
    assert_string_equal(s.first_bad_task, "task 0 UNASSIGNED on 198.18.10.22:8088");
    /* Two configs: tasks 0 and 1 count, 2 and 5 (an earlier connector's) are stale. */
    assert_int_equal(status_split("{\"connector\": {\"state\": \"RUNNING\"}, \"tasks\": ["
                                  "{\"id\": 0, \"state\": \"RUNNING\", \"worker_id\": \"a:1\"}, "
                                  "{\"id\": 1, \"state\": \"RUNNING\", \"worker_id\": \"b:1\"}, "
                                  "{\"id\": 2, \"state\": \"UNASSIGNED\", \"worker_id\": \"c:1\"}, "
                                  "{\"id\": 5, \"state\": \"FAILED\", \"worker_id\": \"d:1\"}]}",
                                  2, &s, &err),
                     MM2_OK);
    assert_int_equal(s.ntasks, 2);
    assert_int_equal(s.tasks_running, 2);
    assert_int_equal(s.tasks_failed, 0);
    assert_int_equal(s.stale, 2);
    assert_string_equal(s.first_task, "task 0 RUNNING on a:1");
    assert_string_equal(s.first_stale, "task 2 UNASSIGNED on c:1");
    assert_string_equal(s.first_bad_task, "");
}

static enum mm2_status task_configs(const char *body, size_t *n, struct mm2_error *err)
{
    mm2_error_clear(err);
    return mm2_connect_task_configs_parse(body, strlen(body), n, err);
}

static void test_task_configs_parse_counts_tasks_and_refuses_other_shapes(void **state)
{
    struct mm2_error err;
    size_t n = 99;

    (void)state;
    assert_int_equal(task_configs("[]", &n, &err), MM2_OK);
    assert_int_equal(n, 0);
    assert_int_equal(task_configs("[{\"id\": {\"connector\": \"c\", \"task\": 0}, \"config\": "
                                  "{\"task.class\": \"x\"}}, {\"id\": {\"connector\": \"c\", "
                                  "\"task\": 1}, \"config\": {}}]",
                                  &n, &err),
                     MM2_OK);
    assert_int_equal(n, 2);
    assert_int_equal(task_configs("{}", &n, &err), MM2_UNEXPECTED);
    assert_string_equal(err.msg, "the answer is not a JSON array of tasks");
    assert_int_equal(task_configs("[1]", &n, &err), MM2_UNEXPECTED);
    assert_string_equal(err.msg, "tasks[0] is not a task ({\"id\": {...}})");
    assert_int_equal(task_configs("[{\"id\": {}}, {\"config\": {}}]", &n, &err), MM2_UNEXPECTED);
    assert_string_equal(err.msg, "tasks[1] is not a task ({\"id\": {...}})");
    assert_int_equal(task_configs("[] x", &n, &err), MM2_UNEXPECTED);
    assert_int_equal(n, 0);
}

static void test_task_configs_parse_refuses_more_than_the_cap(void **state)
{
    const char one[] = "{\"id\": {}},";
    size_t len = (MM2_CSTATE_TASKS_MAX + 1) * (sizeof(one) - 1) + 2;
    char *body = malloc(len + 1);
    struct mm2_error err;
    size_t n, at = 0;

    (void)state;
    assert_non_null(body);
    body[at++] = '[';
    for (int i = 0; i <= MM2_CSTATE_TASKS_MAX; i++) {
        memcpy(body + at, one, sizeof(one) - 1);
        at += sizeof(one) - 1;
    }
    body[at - 1] = ']';
    body[at] = '\0';
    assert_int_equal(task_configs(body, &n, &err), MM2_UNEXPECTED);
    assert_string_equal(err.msg, "more than 10000 tasks");
    body[at - 1 - (sizeof(one) - 1)] = ']';
    body[at - (sizeof(one) - 1)] = '\0';
    assert_int_equal(task_configs(body, &n, &err), MM2_OK);
    assert_int_equal(n, MM2_CSTATE_TASKS_MAX);
    free(body);
}

/* Connect's own rule (DistributedHerder.modifyConnectorOffsetsChecks), as REST shows it. */
static void test_stop_judge_follows_connects_rule(void **state)
{
    struct mm2_connector_status s = {.exists = true, .state = MM2_CSTATE_STOPPED};

    (void)state;
    assert_int_equal(mm2_connlive_judge(&s, 0), MM2_CONNLIVE_DONE);
    s.stale = 3; /* stale statuses never block */
    assert_int_equal(mm2_connlive_judge(&s, 0), MM2_CONNLIVE_DONE);
    assert_int_equal(mm2_connlive_judge(&s, 1), MM2_CONNLIVE_TASKS); /* a task configured */
    s.state = MM2_CSTATE_UNASSIGNED;
    assert_int_equal(mm2_connlive_judge(&s, 0), MM2_CONNLIVE_UNASSIGNED);
    assert_int_equal(mm2_connlive_judge(&s, 2), MM2_CONNLIVE_TASKS);
    s.state = MM2_CSTATE_PAUSED;
    assert_int_equal(mm2_connlive_judge(&s, 0), MM2_CONNLIVE_OTHER);
    s.state = MM2_CSTATE_RUNNING;
    assert_int_equal(mm2_connlive_judge(&s, 0), MM2_CONNLIVE_OTHER);
    s.state = MM2_CSTATE_FAILED;
    assert_int_equal(mm2_connlive_judge(&s, 0), MM2_CONNLIVE_OTHER);
    s.exists = false;
    assert_int_equal(mm2_connlive_judge(&s, 0), MM2_CONNLIVE_ABSENT);
}

static void test_live_describe_names_configs_and_stale_statuses(void **state)
{
    struct mm2_connlive v = {0};
    struct mm2_error err;
    char buf[256];

    (void)state;
    assert_int_equal(status_split(stale_stopped, 0, &v.s, &err), MM2_OK);
    v.stop = mm2_connlive_judge(&v.s, 0);
    mm2_connlive_describe(&v, buf, sizeof(buf));
    assert_string_equal(buf, "STOPPED with no task config (1 stale task status: task 0 "
                             "UNASSIGNED on 198.18.10.22:8088)");
    v.s.stale = 0;
    mm2_connlive_describe(&v, buf, sizeof(buf));
    assert_string_equal(buf, "STOPPED with no task config");
    v.task_configs = 2;
    v.stop = mm2_connlive_judge(&v.s, 2);
    mm2_connlive_describe(&v, buf, sizeof(buf));
    assert_string_equal(buf, "STOPPED with 2 task configs");
    v.s.state = MM2_CSTATE_RUNNING;
    v.s.ntasks = 1;
    v.stop = mm2_connlive_judge(&v.s, 1);
    mm2_connlive_describe(&v, buf, sizeof(buf));
    assert_string_equal(buf, "RUNNING with 1 task");
    v.s.exists = false;
    v.stop = mm2_connlive_judge(&v.s, 0);
    mm2_connlive_describe(&v, buf, sizeof(buf));
    assert_string_equal(buf, "absent");
}

static void test_status_parse_stopped_connector_without_tasks(void **state)
{
    struct mm2_connector_status s;
    struct mm2_error err;

    (void)state;
    assert_int_equal(status("{\"name\": \"c\", \"connector\": {\"state\": \"STOPPED\", "
                            "\"worker_id\": \"10.0.0.7:8088\"}, \"tasks\": [], \"type\": "
                            "\"source\"}",
                            &s, &err),
                     MM2_OK);
    assert_true(s.exists);
    assert_string_equal(mm2_cstate_name(s.state), "STOPPED");
    assert_int_equal(s.ntasks, 0);
    assert_int_equal(s.tasks_running, 0);
    assert_int_equal(s.tasks_failed, 0);
    assert_string_equal(s.first_bad_task, "");
}

static void test_status_parse_counts_tasks_and_names_the_first_bad_one(void **state)
{
    struct mm2_connector_status s;
    struct mm2_error err;

    (void)state;
    assert_int_equal(
        status("{\"name\": \"c\", \"connector\": {\"state\": \"RUNNING\"}, \"tasks\": "
               "[{\"id\": 0, \"state\": \"RUNNING\", \"worker_id\": \"10.0.0.6:8088\"}, "
               "{\"id\": 1, \"state\": \"FAILED\", \"worker_id\": \"10.0.0.7:8088\", "
               "\"trace\": \"org.apache.kafka...\"}, {\"id\": 2, \"state\": "
               "\"FAILED\", \"worker_id\": \"10.0.0.8:8088\"}, {\"id\": 3, \"state\": "
               "\"RUNNING\", \"worker_id\": \"10.0.0.6:8088\"}]}",
               &s, &err),
        MM2_OK);
    assert_string_equal(mm2_cstate_name(s.state), "RUNNING");
    assert_int_equal(s.ntasks, 4);
    assert_int_equal(s.tasks_running, 2);
    assert_int_equal(s.tasks_failed, 2);
    assert_string_equal(s.first_bad_task, "task 1 FAILED on 10.0.0.7:8088");
}

static void test_status_parse_paused_or_unassigned_task_is_bad_but_not_failed(void **state)
{
    struct mm2_connector_status s;
    struct mm2_error err;
    char worker[80];

    (void)state;
    assert_int_equal(status("{\"connector\": {\"state\": \"PAUSED\"}, \"tasks\": [{\"id\": 7, "
                            "\"state\": \"PAUSED\", \"worker_id\": \"w:8088\"}]}",
                            &s, &err),
                     MM2_OK);
    assert_int_equal(s.tasks_failed, 0);
    assert_int_equal(s.tasks_running, 0);
    assert_string_equal(s.first_bad_task, "task 7 PAUSED on w:8088");
    assert_int_equal(status("{\"connector\": {\"state\": \"RUNNING\"}, \"tasks\": [{\"id\": 2, "
                            "\"state\": \"UNASSIGNED\"}]}",
                            &s, &err),
                     MM2_OK);
    assert_string_equal(s.first_bad_task, "task 2 UNASSIGNED on no worker");
    /* The worker id is cut at 40 characters. */
    assert_int_equal(status("{\"connector\": {\"state\": \"RUNNING\"}, \"tasks\": [{\"id\": 3, "
                            "\"state\": \"RESTARTING\", \"worker_id\": "
                            "\"a-very-long-worker-host-name.example.internal:8088\"}]}",
                            &s, &err),
                     MM2_OK);
    (void)snprintf(worker, sizeof(worker), "task 3 RESTARTING on %.40s",
                   "a-very-long-worker-host-name.example.internal:8088");
    assert_string_equal(s.first_bad_task, worker);
}

static void test_status_parse_knows_every_connect_state(void **state)
{
    static const char *const states[] = {"RUNNING",    "PAUSED",     "STOPPED",  "FAILED",
                                         "UNASSIGNED", "RESTARTING", "DESTROYED"};

    (void)state;
    for (size_t i = 0; i < sizeof(states) / sizeof(states[0]); i++) {
        char body[256];
        struct mm2_connector_status s;
        struct mm2_error err;
        (void)snprintf(body, sizeof(body),
                       "{\"connector\": {\"state\": \"%s\"}, \"tasks\": [{\"id\": 0, \"state\": "
                       "\"%s\"}]}",
                       states[i], states[i]);
        assert_int_equal(status(body, &s, &err), MM2_OK);
        assert_string_equal(mm2_cstate_name(s.state), states[i]);
    }
}

struct status_case {
    const char *body;
    const char *message;
};

static void test_status_parse_refusals(void **state)
{
    static const struct status_case cases[] = {
        {"", "status is not an object"},
        {"[]", "status is not an object"},
        {"{\"tasks\": []}", "status.connector is missing"},
        {"{\"connector\": \"RUNNING\", \"tasks\": []}", "status.connector is not an object"},
        {"{\"connector\": {}, \"tasks\": []}", "status.connector.state is missing"},
        {"{\"connector\": {\"state\": 1}, \"tasks\": []}",
         "status.connector.state is not a string"},
        {"{\"connector\": {\"state\": \"RUNNING\"}}", "status.tasks is missing"},
        {"{\"connector\": {\"state\": \"RUNNING\"}, \"tasks\": {}}",
         "status.tasks is not an array"},
        {"{\"connector\": {\"state\": \"running\"}, \"tasks\": []}",
         "status.connector.state \"running\" is not a state"},
        {"{\"connector\": {\"state\": \"RUNNING\"}, \"tasks\": [{\"id\": 0, \"state\": "
         "\"RUNNING\"}, {\"id\": 1, \"state\": \"NOPE\"}]}",
         "status.tasks[1].state \"NOPE\" is not a state"},
        {"{\"connector\": {\"state\": \"RUNNING\"}, \"tasks\": [{\"state\": \"RUNNING\"}]}",
         "status.tasks[0].id is missing"},
        {"{\"connector\": {\"state\": \"RUNNING\"}, \"tasks\": [{\"id\": \"0\", \"state\": "
         "\"RUNNING\"}]}",
         "status.tasks[0].id is not an integer"},
        {"{\"connector\": {\"state\": \"RUNNING\"}, \"tasks\": [{\"id\": 0}]}",
         "status.tasks[0].state is missing"},
        {"{\"connector\": {\"state\": \"RUNNING\"}, \"tasks\": [5]}",
         "status.tasks[0] is not an object"},
        /* Trailing garbage: not the documented JSON. */
        {"{\"connector\": {\"state\": \"RUNNING\"}, \"tasks\": []}x", "status is not an object"},
        {"{\"connector\": {\"state\": \"RUNNING\"}, \"tasks\": []}{}", "status is not an object"},
    };

    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct mm2_connector_status s;
        struct mm2_error err;
        if (status(cases[i].body, &s, &err) != MM2_UNEXPECTED || err.code != MM2_UNEXPECTED ||
            strcmp(err.msg, cases[i].message) != 0)
            fail_msg("case %zu: got code %d \"%s\"", i, err.code, err.msg);
    }
}

/* ---- connector names ------------------------------------------------------------------------- */

static void test_name_valid_accepts_url_safe_names(void **state)
{
    char name[MM2_CONNECT_NAME_MAX + 1];

    (void)state;
    assert_true(mm2_connect_name_valid("flink-to-mm2-source", NULL, 0));
    assert_true(mm2_connect_name_valid("A.b_c-9", NULL, 0));
    memset(name, 'n', MM2_CONNECT_NAME_MAX);
    name[MM2_CONNECT_NAME_MAX] = '\0';
    assert_true(mm2_connect_name_valid(name, NULL, 0));
}

static void test_name_valid_refusals_say_why(void **state)
{
    char name[MM2_CONNECT_NAME_MAX + 2], why[128];

    (void)state;
    assert_false(mm2_connect_name_valid("", why, sizeof(why)));
    assert_string_equal(why, "it is empty");
    assert_false(mm2_connect_name_valid(NULL, why, sizeof(why)));
    assert_string_equal(why, "it is empty");
    memset(name, 'n', MM2_CONNECT_NAME_MAX + 1);
    name[MM2_CONNECT_NAME_MAX + 1] = '\0';
    assert_false(mm2_connect_name_valid(name, why, sizeof(why)));
    assert_string_equal(why, "it is longer than 200 bytes");
    assert_false(mm2_connect_name_valid("a/b", why, sizeof(why)));
    assert_string_equal(why, "character 2 is not one of [A-Za-z0-9._-]");
    assert_false(mm2_connect_name_valid("mm2 source", why, sizeof(why)));
    assert_string_equal(why, "character 4 is not one of [A-Za-z0-9._-]");
    assert_false(mm2_connect_name_valid("x?y", why, sizeof(why)));
    assert_string_equal(why, "character 2 is not one of [A-Za-z0-9._-]");
    assert_false(mm2_connect_name_valid("%2e", why, sizeof(why)));
    assert_string_equal(why, "character 1 is not one of [A-Za-z0-9._-]");
    assert_false(mm2_connect_name_valid("caf\xc3\xa9", why, sizeof(why)));
    assert_string_equal(why, "character 4 is not one of [A-Za-z0-9._-]");
    /* why may be NULL */
    assert_false(mm2_connect_name_valid("a/b", NULL, 0));
}

static void test_name_valid_refuses_dot_segments(void **state)
{
    char why[128] = "";

    (void)state;
    /* libcurl removes dot segments from the path: GET /connectors/../config would be GET
     * /config, PUT /connectors/./stop would be PUT /connectors/stop. */
    assert_false(mm2_connect_name_valid("..", why, sizeof(why)));
    assert_string_equal(why, "\".\" and \"..\" are path segments, not names");
    why[0] = '\0';
    assert_false(mm2_connect_name_valid(".", why, sizeof(why)));
    assert_string_equal(why, "\".\" and \"..\" are path segments, not names");
    assert_false(mm2_connect_name_valid(".", NULL, 0));
    /* Dots are fine in a longer name. */
    assert_true(mm2_connect_name_valid("...", NULL, 0));
    assert_true(mm2_connect_name_valid(".mm2", NULL, 0));
    assert_true(mm2_connect_name_valid("mm2..source", NULL, 0));
}

/* mm2_http_addresses: a literal is its own address; a name that does not resolve is
 * MM2_UNREACHABLE naming it; a bad URL MM2_USAGE. */
static void test_http_addresses(void **state)
{
    char addr[4][MM2_HTTP_ADDR_LEN];
    struct mm2_error err = {0};
    size_t n = 9;

    (void)state;
    assert_int_equal(mm2_http_addresses("http://127.0.0.1:8088", addr, 4, &n, &err), MM2_OK);
    assert_int_equal(n, 1);
    assert_string_equal(addr[0], "127.0.0.1");
    assert_int_equal(mm2_http_addresses("https://[::1]:8443/", addr, 4, &n, &err), MM2_OK);
    assert_int_equal(n, 1);
    assert_string_equal(addr[0], "::1");
    assert_int_equal(mm2_http_addresses("http://no-such-host.invalid:8088", addr, 4, &n, &err),
                     MM2_UNREACHABLE);
    assert_int_equal(n, 0);
    assert_non_null(strstr(err.msg, "cannot resolve no-such-host.invalid: "));
    assert_int_equal(mm2_http_addresses("ftp://h:1", addr, 4, &n, &err), MM2_USAGE);
    assert_int_equal(mm2_http_addresses("http://127.0.0.1:8088", addr, 0, &n, &err),
                     MM2_UNEXPECTED);
    assert_string_equal(err.msg, "127.0.0.1 resolves to more than 0 addresses");
}

/* mm2_http_set_basic_auth: what Kafka's JaasBasicAuthFilter can read is taken; a user name with
 * ':' or a control character, an empty one, an empty or oversized password are MM2_CONFIG, and
 * the message never holds the values. (That the header goes out is tests/cli's, against a fake
 * that checks it.) */
static void test_http_basic_auth(void **state)
{
    struct mm2_http *c = NULL;
    struct mm2_error err = {0};
    char big[MM2_HTTP_PASSWORD_MAX + 1];

    (void)state;
    assert_int_equal(mm2_http_global_init(&err), MM2_OK);
    assert_int_equal(mm2_http_new("http://127.0.0.1:8088", "t", 1024, &c, &err), MM2_OK);
    assert_true(mm2_http_basic_user_valid("mm2-offsets"));
    assert_false(mm2_http_basic_user_valid(""));
    assert_false(mm2_http_basic_user_valid(NULL));
    assert_false(mm2_http_basic_user_valid("a:b"));
    assert_false(mm2_http_basic_user_valid("a\nb"));
    assert_int_equal(mm2_http_set_basic_auth(c, "mm2-offsets", "s3cr3t-pw", &err), MM2_OK);
    assert_int_equal(mm2_http_set_basic_auth(c, "op:er", "s3cr3t-pw", &err), MM2_CONFIG);
    assert_null(strstr(err.msg, "op:er"));
    assert_null(strstr(err.msg, "s3cr3t-pw"));
    assert_int_equal(mm2_http_set_basic_auth(c, "mm2-offsets", "", &err), MM2_CONFIG);
    assert_string_equal(err.msg, "the REST password must be 1 to 1023 bytes");
    memset(big, 'x', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    assert_int_equal(mm2_http_set_basic_auth(c, "mm2-offsets", big, &err), MM2_CONFIG);
    mm2_http_free(c);
    mm2_http_global_cleanup();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_http_addresses),
        cmocka_unit_test(test_http_basic_auth),
        cmocka_unit_test(test_offsets_parse_sorts_by_cluster_topic_partition),
        cmocka_unit_test(test_offsets_parse_connects_own_answer),
        cmocka_unit_test(test_offsets_parse_empty_list),
        cmocka_unit_test(test_offsets_parse_skips_an_entry_whose_offset_is_null),
        cmocka_unit_test(test_offsets_parse_reads_only_len_bytes),
        cmocka_unit_test(test_offsets_parse_refuses_trailing_garbage),
        cmocka_unit_test(test_offsets_parse_accepts_trailing_whitespace),
        cmocka_unit_test(test_offsets_parse_ignores_members_it_does_not_read),
        cmocka_unit_test(test_offsets_parse_refuses_duplicates),
        cmocka_unit_test(test_offsets_parse_same_topic_partition_under_two_aliases_is_two_entries),
        cmocka_unit_test(test_offsets_parse_refuses_out_of_range_numbers),
        cmocka_unit_test(test_offsets_parse_accepts_the_largest_partition),
        cmocka_unit_test(test_offsets_parse_refuses_wrong_types),
        cmocka_unit_test(test_offsets_parse_refuses_missing_members),
        cmocka_unit_test(test_offsets_parse_names_the_bad_entry_after_good_ones),
        cmocka_unit_test(test_offsets_parse_refuses_a_body_that_is_not_the_answer),
        cmocka_unit_test(test_offsets_find_matches_cluster_topic_and_partition),
        cmocka_unit_test(test_offsets_free_accepts_null_and_empty),
        cmocka_unit_test(test_status_parse_stopped_connector_without_tasks),
        cmocka_unit_test(test_status_split_counts_entries_without_a_config_as_stale),
        cmocka_unit_test(test_task_configs_parse_counts_tasks_and_refuses_other_shapes),
        cmocka_unit_test(test_task_configs_parse_refuses_more_than_the_cap),
        cmocka_unit_test(test_stop_judge_follows_connects_rule),
        cmocka_unit_test(test_live_describe_names_configs_and_stale_statuses),
        cmocka_unit_test(test_status_parse_counts_tasks_and_names_the_first_bad_one),
        cmocka_unit_test(test_status_parse_paused_or_unassigned_task_is_bad_but_not_failed),
        cmocka_unit_test(test_status_parse_knows_every_connect_state),
        cmocka_unit_test(test_status_parse_refusals),
        cmocka_unit_test(test_name_valid_accepts_url_safe_names),
        cmocka_unit_test(test_name_valid_refusals_say_why),
        cmocka_unit_test(test_name_valid_refuses_dot_segments),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
