/* Unit tests for mm2_change: each change of the connector's config classified by what it does to
 * the stored offsets. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "mm2_cfgview.h"
#include "mm2_change.h"

static enum mm2_change_class cls(const char *key)
{
    const char *meaning = NULL;
    enum mm2_change_class c = mm2_change_classify(key, &meaning);

    assert_non_null(meaning);
    assert_true(strlen(meaning) > 20);
    return c;
}

static void test_harmless_keys_restart_tasks_only(void **state)
{
    (void)state;
    assert_int_equal(cls("tasks.max"), MM2_CHANGE_HARMLESS);
    assert_int_equal(cls("refresh.topics.interval.seconds"), MM2_CHANGE_HARMLESS);
    assert_int_equal(cls("producer.override.linger.ms"), MM2_CHANGE_HARMLESS);
    assert_int_equal(cls("source.consumer.fetch.max.bytes"), MM2_CHANGE_HARMLESS);
    assert_int_equal(cls("target.producer.batch.size"), MM2_CHANGE_HARMLESS);
    assert_int_equal(cls("source.cluster.sasl.jaas.config"), MM2_CHANGE_HARMLESS);
    assert_int_equal(cls("consumer.max.poll.records"), MM2_CHANGE_HARMLESS);
}

static void test_alias_policy_and_source_cluster_move_offsets(void **state)
{
    const char *m = NULL;

    (void)state;
    assert_int_equal(cls("source.cluster.alias"), MM2_CHANGE_MOVES_OFFSETS);
    assert_int_equal(cls("replication.policy.class"), MM2_CHANGE_MOVES_OFFSETS);
    assert_int_equal(cls("replication.policy.separator"), MM2_CHANGE_MOVES_OFFSETS);
    assert_int_equal(mm2_change_classify("source.cluster.bootstrap.servers", &m),
                     MM2_CHANGE_MOVES_OFFSETS);
    /* It may be the same cluster's new broker list: the meaning says what to verify. */
    assert_non_null(strstr(m, "same cluster"));
    assert_non_null(strstr(m, "cluster.id"));
    assert_int_equal(cls("source.consumer.bootstrap.servers"), MM2_CHANGE_MOVES_OFFSETS);
}

static void test_filter_keys_are_topics_and_unknown_keys_are_not_harmless(void **state)
{
    (void)state;
    assert_int_equal(cls("topics"), MM2_CHANGE_TOPICS);
    assert_int_equal(cls("topics.exclude"), MM2_CHANGE_TOPICS);
    assert_int_equal(cls("topics.blacklist"), MM2_CHANGE_TOPICS);
    assert_int_equal(cls("topic.filter.class"), MM2_CHANGE_REVIEW);
    assert_int_equal(cls("frobnicate.level"), MM2_CHANGE_REVIEW);
    assert_int_equal(cls("consumer."), MM2_CHANGE_REVIEW);
    assert_int_equal(cls("source.consumer.auto.offset.reset"), MM2_CHANGE_REVIEW);
    assert_int_equal(cls("transforms.mask.type"), MM2_CHANGE_REVIEW);
    assert_int_equal(cls("errors.tolerance"), MM2_CHANGE_REVIEW);
    assert_int_equal(cls("target.cluster.bootstrap.servers"), MM2_CHANGE_REVIEW);
    assert_int_equal(cls("connector.class"), MM2_CHANGE_REVIEW);
    assert_string_equal(mm2_change_class_name(MM2_CHANGE_MOVES_OFFSETS), "moves-offsets");
    assert_string_equal(mm2_change_class_name(MM2_CHANGE_HARMLESS), "harmless");
}

static cJSON *view_of(const char *text)
{
    cJSON *c = cJSON_Parse(text), *v = NULL;
    struct mm2_error err = {0};

    assert_non_null(c);
    assert_int_equal(mm2_cfgview_make(c, "mm", &v, &err), MM2_OK);
    cJSON_Delete(c);
    return v;
}

static void test_list_names_changed_added_removed_masked(void **state)
{
    cJSON *live = view_of("{\"name\": \"mm\", \"tasks.max\": \"2\", \"source.cluster.alias\": "
                          "\"src\", \"gone\": \"x\", \"source.cluster.sasl.jaas.config\": "
                          "\"plain-SECRET\", \"same\": \"1\"}");
    cJSON *file = view_of("{\"tasks.max\": \"4\", \"source.cluster.alias\": \"src\", "
                          "\"topics\": \"a\", \"source.cluster.sasl.jaas.config\": "
                          "\"${env:JAAS}\", \"same\": \"1\"}");
    struct mm2_changes c = {0};
    struct mm2_error err = {0};

    (void)state;
    assert_int_equal(mm2_change_list(live, file, &c, &err), MM2_OK);
    assert_int_equal(c.n, 4);
    assert_string_equal(c.v[0].key, "gone");
    assert_int_equal(c.v[0].kind, MM2_CHANGE_REMOVED);
    assert_null(c.v[0].new_val);
    assert_int_equal(c.v[0].cls, MM2_CHANGE_REVIEW);
    assert_string_equal(c.v[1].key, "source.cluster.sasl.jaas.config");
    assert_int_equal(c.v[1].kind, MM2_CHANGE_CHANGED);
    assert_null(strstr(c.v[1].old_val, "SECRET"));
    assert_true(strncmp(c.v[1].old_val, MM2_CFGVIEW_SECRET, strlen(MM2_CFGVIEW_SECRET)) == 0);
    assert_string_equal(c.v[1].new_val, "${env:JAAS}");
    assert_string_equal(c.v[2].key, "tasks.max");
    assert_string_equal(c.v[2].old_val, "2");
    assert_string_equal(c.v[2].new_val, "4");
    assert_string_equal(c.v[3].key, "topics");
    assert_int_equal(c.v[3].kind, MM2_CHANGE_ADDED);
    assert_int_equal(mm2_change_worst(&c, MM2_CHANGE_HARMLESS), MM2_CHANGE_REVIEW);
    mm2_changes_free(&c);
    cJSON_Delete(live);
    cJSON_Delete(file);
}

static void test_equal_views_have_no_change_and_references_are_not_resolved(void **state)
{
    cJSON *a = view_of("{\"x.password\": \"${env:P}\", \"tasks.max\": \"4\"}");
    cJSON *b = view_of("{\"x.password\": \"${env:P}\", \"tasks.max\": \"4\"}");
    cJSON *d = view_of("{\"x.password\": \"${env:Q}\", \"tasks.max\": \"4\"}");
    struct mm2_changes c = {0};
    struct mm2_error err = {0};

    (void)state;
    assert_int_equal(mm2_change_list(a, b, &c, &err), MM2_OK);
    assert_int_equal(c.n, 0);
    assert_int_equal(mm2_change_worst(&c, MM2_CHANGE_REVIEW), MM2_CHANGE_HARMLESS);
    mm2_changes_free(&c);
    /* Two references are compared as written, never resolved. */
    assert_int_equal(mm2_change_list(a, d, &c, &err), MM2_OK);
    assert_int_equal(c.n, 1);
    assert_string_equal(c.v[0].old_val, "${env:P}");
    assert_string_equal(c.v[0].new_val, "${env:Q}");
    mm2_changes_free(&c);
    cJSON_Delete(a);
    cJSON_Delete(b);
    cJSON_Delete(d);
}

static void test_worst_counts_a_topics_change_by_its_outcome(void **state)
{
    cJSON *a = view_of("{\"topics\": \"a\", \"tasks.max\": \"4\"}");
    cJSON *b = view_of("{\"topics\": \"a|b\", \"tasks.max\": \"2\"}");
    cJSON *m = view_of("{\"topics\": \"a|b\", \"source.cluster.alias\": \"x\"}");
    struct mm2_changes c = {0};
    struct mm2_error err = {0};

    (void)state;
    assert_int_equal(mm2_change_list(a, b, &c, &err), MM2_OK);
    assert_int_equal(mm2_change_worst(&c, MM2_CHANGE_HARMLESS), MM2_CHANGE_HARMLESS);
    assert_int_equal(mm2_change_worst(&c, MM2_CHANGE_REVIEW), MM2_CHANGE_REVIEW);
    mm2_changes_free(&c);
    assert_int_equal(mm2_change_list(a, m, &c, &err), MM2_OK);
    assert_int_equal(mm2_change_worst(&c, MM2_CHANGE_HARMLESS), MM2_CHANGE_MOVES_OFFSETS);
    mm2_changes_free(&c);
    cJSON_Delete(a);
    cJSON_Delete(b);
    cJSON_Delete(m);
}

static void test_topic_outcomes_and_the_start_a_new_one_needs(void **state)
{
    char buf[600];

    (void)state;
    assert_int_equal(mm2_change_topic(false, true), MM2_TOPIC_NEW);
    assert_int_equal(mm2_change_topic(true, false), MM2_TOPIC_GONE);
    assert_int_equal(mm2_change_topic(true, true), MM2_TOPIC_SAME);
    assert_int_equal(mm2_change_topic(false, false), MM2_TOPIC_SAME);
    struct mm2_new_topic t = {"audit", 2, 2, 0, 0, "flink-copy", ""};
    mm2_change_new_topic_why(&t, buf, sizeof(buf));
    assert_non_null(strstr(buf, "refused without a start: audit: Flink's group flink-copy "
                                "committed offsets on 2 of its 2 partitions"));
    assert_non_null(strstr(buf, "copy again every record Flink already copied"));
    t = (struct mm2_new_topic){"audit", 2, 1, 0, 0, "g", "latest"};
    mm2_change_new_topic_why(&t, buf, sizeof(buf));
    assert_non_null(strstr(buf, "never copy what was written between C and now"));
    t = (struct mm2_new_topic){"fresh", 3, 0, 0, 0, "g", "earliest"};
    mm2_change_new_topic_why(&t, buf, sizeof(buf));
    assert_non_null(strstr(buf, "3 partitions Flink's group g never committed"));
    assert_non_null(strstr(buf, "every record they hold is copied"));
}

static void test_a_topic_added_back_resumes_from_its_stored_offsets(void **state)
{
    char buf[600];
    struct mm2_new_topic t = {"payments", 2, 2, 2, 0, "g", ""};

    (void)state;
    mm2_change_new_topic_why(&t, buf, sizeof(buf));
    assert_non_null(strstr(buf, "refused without a start: payments: replicated before, MM2 "
                                "would resume it from the offsets Connect still stores on 2 of "
                                "its 2 partitions"));
    assert_null(strstr(buf, "expired"));
    t.stored_below_start = 1;
    mm2_change_new_topic_why(&t, buf, sizeof(buf));
    assert_non_null(strstr(buf, "on 1 of them the next record has expired from the source log"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_harmless_keys_restart_tasks_only),
        cmocka_unit_test(test_alias_policy_and_source_cluster_move_offsets),
        cmocka_unit_test(test_filter_keys_are_topics_and_unknown_keys_are_not_harmless),
        cmocka_unit_test(test_list_names_changed_added_removed_masked),
        cmocka_unit_test(test_equal_views_have_no_change_and_references_are_not_resolved),
        cmocka_unit_test(test_worst_counts_a_topics_change_by_its_outcome),
        cmocka_unit_test(test_topic_outcomes_and_the_start_a_new_one_needs),
        cmocka_unit_test(test_a_topic_added_back_resumes_from_its_stored_offsets),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
