/*
 * Unit tests for lib/mm2_binding: an artifact's migration against the INI's, field by field
 * ([flink] group.id, both cluster ids pinned or read, connector name, alias and config digest,
 * the topic set both ways), one exact line per differing field and none when all agree; and the
 * "migration" object of backups and reports.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm2_binding.h"
#include "mm2_cfgview.h"
#include "mm2_json.h"

#define INI "migration.ini"
#define JSON "connector.json"
#define OTHER "sha256:0000000000000000000000000000000000000000000000000000000000000000"
#define FIX_PLAN "; use the plan made with this INI, or export and plan again [rule binding]"
#define FIX_EXPORT "; use the export made with this INI, or export again [rule binding]"

/* The connector of the INI, its filter, and a plan of the same migration. */
struct fixture {
    struct mm2_connector conn;
    struct mm2_mirror *mirror;
    struct mm2_xtopic topics[3];
    struct mm2_binding a;
    struct mm2_migration m;
    struct mm2_refusals r;
};

static int setup(void **state)
{
    struct fixture *f = calloc(1, sizeof(*f));
    struct mm2_error err = {0};
    cJSON *c = cJSON_Parse(
        "{\"name\": \"mirror-source\", \"config\": {\"connector.class\": "
        "\"org.apache.kafka.connect.mirror.MirrorSourceConnector\", \"source.cluster.alias\": "
        "\"src\", \"target.cluster.alias\": \"tgt\", \"topics\": \"orders,payments\"}}");

    if (f == NULL || c == NULL || mm2_connector_from_json(c, &f->conn, &err) != MM2_OK ||
        mm2_mirror_new(f->conn.config, "4.1.0", &f->mirror, &err) != MM2_OK) {
        cJSON_Delete(c);
        return -1;
    }
    cJSON_Delete(c);
    f->topics[0] = (struct mm2_xtopic){.name = "audit", .replicated = false};
    f->topics[1] = (struct mm2_xtopic){.name = "orders", .replicated = true};
    f->topics[2] = (struct mm2_xtopic){.name = "payments", .replicated = true};
    f->a = (struct mm2_binding){.group = "flink-copy",
                                .source_cluster = "src-id",
                                .target_cluster = "tgt-id",
                                .connector = "mirror-source",
                                .alias = "src",
                                .config_digest = f->conn.digest,
                                .topics = f->topics,
                                .ntopics = 3};
    f->m = (struct mm2_migration){.ini = INI,
                                  .group = "flink-copy",
                                  .source_cluster = "src-id",
                                  .source_pinned = true,
                                  .target_cluster = "tgt-id",
                                  .target_pinned = false,
                                  .conn = &f->conn,
                                  .connector_file = JSON,
                                  .mirror = f->mirror};
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;

    mm2_refusals_free(&f->r);
    mm2_mirror_free(f->mirror);
    mm2_connector_free(&f->conn);
    free(f);
    return 0;
}

/* Checks a as what against m and expects exactly the n lines of want. */
static void expect_lines(struct fixture *f, const char *what, const char *const *want, size_t n)
{
    size_t added;

    mm2_refusals_free(&f->r);
    memset(&f->r, 0, sizeof(f->r));
    added = mm2_binding_check(what, &f->a, &f->m, &f->r);
    assert_int_equal(added, f->r.n);
    for (size_t i = 0; i < n && i < f->r.n; i++)
        assert_string_equal(f->r.line[i], want[i]);
    if (n != f->r.n)
        fail_msg("%zu lines, expected %zu", f->r.n, n);
}

#define expect(f, what, ...)                                                                       \
    expect_lines(f, what, (const char *const[]){__VA_ARGS__},                                      \
                 sizeof((const char *const[]){__VA_ARGS__}) / sizeof(const char *))
#define expect_none(f, what) expect_lines(f, what, NULL, 0)

static void test_binding_same_migration_has_no_line(void **state)
{
    struct fixture *f = *state;

    expect_none(f, "plan");
    expect_none(f, "export");
}

static void test_binding_group_names_both_values(void **state)
{
    struct fixture *f = *state;

    f->a.group = "other-flink";
    expect(f, "plan",
           "the plan belongs to another migration: its [flink] group.id is \"other-flink\", but "
           "migration.ini's is \"flink-copy\"" FIX_PLAN);
    expect(f, "export",
           "the export belongs to another migration: its [flink] group.id is \"other-flink\", but "
           "migration.ini's is \"flink-copy\"" FIX_EXPORT);
}

static void test_binding_cluster_ids_say_pinned_or_read(void **state)
{
    struct fixture *f = *state;

    f->a.source_cluster = "src-other";
    f->a.target_cluster = "tgt-other";
    expect(f, "plan",
           "the plan belongs to another migration: its source cluster id is \"src-other\", but "
           "migration.ini pins [source] cluster.id \"src-id\"" FIX_PLAN,
           "the plan belongs to another migration: its target cluster id is \"tgt-other\", but "
           "the [target] cluster of migration.ini has id \"tgt-id\"" FIX_PLAN);
}

static void test_binding_connector_name_alias_and_config(void **state)
{
    struct fixture *f = *state;
    char want[MM2_REFUSAL_LEN];

    f->a.connector = "other-source";
    f->a.config_digest = OTHER;
    (void)snprintf(want, sizeof(want),
                   "the plan belongs to another migration: its connector config differs from the "
                   "one in connector.json (" OTHER " in the plan, %s in connector.json, the plan "
                   "recorded only its digest)" FIX_PLAN,
                   f->conn.digest);
    expect(f, "plan",
           "the plan belongs to another migration: its connector is \"other-source\", but "
           "connector.json names \"mirror-source\"" FIX_PLAN,
           want);
    /* Another alias changes the digest too: the alias is the line, it says what MM2 would do. */
    f->a.connector = "mirror-source";
    f->a.alias = "source";
    expect(f, "plan",
           "the plan belongs to another migration: its offsets are keyed by source.cluster.alias "
           "\"source\", but connector.json sets \"src\" (MM2 ignores offsets under another "
           "alias)" FIX_PLAN);
}

/* A plan that recorded its config's view names the keys that differ, secrets masked and
 * references shown as written. */
static void test_binding_config_names_the_keys_that_differ(void **state)
{
    struct fixture *f = *state;
    struct mm2_error err = {0};
    cJSON *then = cJSON_Duplicate(f->conn.config, true), *view = NULL;

    assert_non_null(then);
    cJSON_ReplaceItemInObjectCaseSensitive(then, "topics", cJSON_CreateString("orders"));
    cJSON_AddStringToObject(then, "source.cluster.sasl.jaas.config", "${env:SOURCE_JAAS}");
    assert_int_equal(mm2_cfgview_make(then, f->conn.name, &view, &err), MM2_OK);
    f->a.config_view = view;
    f->a.config_digest = OTHER;
    expect(f, "plan",
           "the plan belongs to another migration: its connector config differs from the one in "
           "connector.json (in 2 keys: source.cluster.sasl.jaas.config (\"${env:SOURCE_JAAS}\" "
           "in the plan, not in connector.json), topics (\"orders\" in the plan, "
           "\"orders,payments\" in connector.json))" FIX_PLAN);
    cJSON_Delete(view);
    cJSON_Delete(then);
}

static void test_binding_topic_set_both_ways(void **state)
{
    struct fixture *f = *state;
    struct mm2_xtopic t[4] = {{.name = "audit", .replicated = true},
                              {.name = "orders", .replicated = true},
                              {.name = "payments", .replicated = false},
                              {.name = "refunds", .replicated = true}};

    f->a.topics = t;
    f->a.ntopics = 4;
    expect(f, "export",
           "the export belongs to another migration: its topic set (3 topics) holds \"audit\" and "
           "others, which the connector in connector.json does not replicate" FIX_EXPORT,
           "the export belongs to another migration: its topic set (3 topics) leaves out "
           "\"payments\", which the connector in connector.json replicates" FIX_EXPORT);
    f->a.topics = &t[1];
    f->a.ntopics = 1;
    expect_none(f, "plan");
}

static void test_binding_disabled_connector_is_not_compared_by_topic(void **state)
{
    struct fixture *f = *state;
    struct mm2_mirror *off = NULL;
    struct mm2_error err = {0};
    cJSON *c = cJSON_Duplicate(f->conn.config, true);

    assert_non_null(c);
    cJSON_AddStringToObject(c, "enabled", "false");
    assert_int_equal(mm2_mirror_new(c, "4.1.0", &off, &err), MM2_OK);
    cJSON_Delete(c);
    f->m.mirror = off;
    expect_none(f, "plan");
    mm2_mirror_free(off);
}

static void test_binding_every_field_at_once_one_line_each(void **state)
{
    struct fixture *f = *state;

    f->a = (struct mm2_binding){.group = "g",
                                .source_cluster = "s",
                                .target_cluster = "t",
                                .connector = "c",
                                .alias = "a",
                                .config_digest = OTHER,
                                .topics = f->topics,
                                .ntopics = 1};
    f->topics[0].replicated = true;
    mm2_refusals_free(&f->r);
    memset(&f->r, 0, sizeof(f->r));
    assert_int_equal(mm2_binding_check("plan", &f->a, &f->m, &f->r), 6);
    for (size_t i = 0; i < f->r.n; i++)
        assert_non_null(strstr(f->r.line[i], "[rule binding]"));
}

static void test_binding_json_is_the_migration_with_its_topic_set(void **state)
{
    struct fixture *f = *state;
    struct mm2_error err = {0};
    cJSON *o = cJSON_CreateObject();
    char *text, want[600];

    assert_int_equal(mm2_binding_add_json(o, &f->a, &err), MM2_OK);
    text = mm2_json_print(o, false);
    (void)snprintf(want, sizeof(want),
                   "{\"migration\":{\"flink_group_id\":\"flink-copy\",\"source_cluster_id\":"
                   "\"src-id\",\"target_cluster_id\":\"tgt-id\",\"connector\":\"mirror-source\","
                   "\"source_alias\":\"src\",\"config_digest\":\"%s\",\"topics\":[\"orders\","
                   "\"payments\"]}}",
                   f->conn.digest);
    assert_string_equal(text, want);
    free(text);
    cJSON_Delete(o);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_binding_same_migration_has_no_line),
        T(test_binding_group_names_both_values),
        T(test_binding_cluster_ids_say_pinned_or_read),
        T(test_binding_connector_name_alias_and_config),
        T(test_binding_config_names_the_keys_that_differ),
        T(test_binding_topic_set_both_ways),
        T(test_binding_disabled_connector_is_not_compared_by_topic),
        T(test_binding_every_field_at_once_one_line_each),
        T(test_binding_json_is_the_migration_with_its_topic_set),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
