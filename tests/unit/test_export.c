/*
 * Unit tests for lib/mm2_export's topic lookup (mm2_export_topic), the one search of a topic by
 * name that exports, plans and the commands share: every name of a sorted list found at its own
 * element, and NULL for each name it does not hold, whether it sorts before, between or after
 * them, is a prefix or an extension of one, or the list is empty. The artifact's JSON is tested
 * in test_plan.c; here, that the export written in pieces (mm2_export_write) is the file the
 * whole tree makes (mm2_export_to_json + mm2_artifact_write), byte for byte, and reads back.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mm2_artifact.h"
#include "mm2_export.h"
#include "mm2_file.h"

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

/* ---- the export written in pieces ---------------------------------------------------------- */

/* An export of two topics (one replicated, with target configs and a config view holding a
 * string to escape) and np of its three partitions, one with boundary evidence. */
static void sample(struct mm2_export *ex, size_t np)
{
    memset(ex, 0, sizeof(*ex));
    (void)snprintf(ex->created, sizeof(ex->created), "2026-12-06T20:00:00Z");
    (void)snprintf(ex->source_cluster, sizeof(ex->source_cluster), "Zk3XcJ1pT9qkq2mYf0w8Bg");
    (void)snprintf(ex->target_cluster, sizeof(ex->target_cluster), "Qm7YdK2qU0rlr3nZg1x9Ch");
    (void)snprintf(ex->connect_version, sizeof(ex->connect_version), "3.9.0");
    (void)snprintf(ex->connector, sizeof(ex->connector), "mirror-source");
    (void)snprintf(ex->alias, sizeof(ex->alias), "src");
    (void)snprintf(ex->config_digest, sizeof(ex->config_digest), "sha256:%064d", 7);
    ex->config_view = cJSON_Parse("{\"topics\": \"a\\\\.b\\\"\\n\", \"tasks.max\": \"4\"}");
    assert_non_null(ex->config_view);
    (void)snprintf(ex->group, sizeof(ex->group), "flink-copy");
    (void)snprintf(ex->group_state, sizeof(ex->group_state), "Empty");
    (void)snprintf(ex->flink_method, sizeof(ex->flink_method), "stable-offsets");
    ex->checkpoint_interval_ms = 60000;
    ex->stable_wait_ms = 90000;
    ex->ntopics = 2;
    ex->topics = calloc(2, sizeof(*ex->topics));
    assert_non_null(ex->topics);
    ex->topics[0] = (struct mm2_xtopic){strdup("audit"), 1, false, NULL, -1, NULL, false, NULL};
    ex->topics[1] = (struct mm2_xtopic){strdup("orders"),
                                        3,
                                        true,
                                        strdup("orders"),
                                        3,
                                        strdup("orders"),
                                        true,
                                        cJSON_Parse("{\"retention.ms\": \"-1\"}")};
    ex->nparts = np;
    ex->parts = calloc(3, sizeof(*ex->parts));
    assert_non_null(ex->parts);
    for (size_t i = 0; i < np; i++) {
        struct mm2_xpart *p = &ex->parts[i];
        *p = (struct mm2_xpart){strdup("orders"), (int32_t)i, {5, 5}, {0, 0}, {9, 9},
                                {3, 3},           {3, 3},     false,  {0}};
        if (i == 1)
            p->committed[0] = p->committed[1] = MM2_OFFSET_NONE;
    }
    if (np > 2) {
        struct mm2_bnd_result *b = &ex->parts[2].boundary;
        ex->parts[2].boundary_read = true;
        b->cls = MM2_BND_UNPLACED;
        b->tail_len = 2;
        b->tail_first = 1;
        b->tail_last = 2;
        b->src_first = b->src_last = b->resume_at = -1;
        b->mismatch_target = 2;
        b->mismatch_source = 2;
        (void)snprintf(b->mismatch_target_digest, sizeof(b->mismatch_target_digest),
                       "0a0b0c0d0e0f");
        (void)snprintf(b->mismatch_source_digest, sizeof(b->mismatch_source_digest),
                       "0f0e0d0c0b0a");
        b->window_first = 0;
        b->window_last = 8;
        (void)snprintf(b->why, sizeof(b->why), "value \"differs\"\tat 2");
    }
}

/* dir/name of a fresh directory. */
static void path_in(char *out, size_t len, const char *dir, const char *name)
{
    int n = snprintf(out, len, "%s/%s", dir, name);
    assert_true(n > 0 && (size_t)n < len);
}

static void stream_equals_tree(size_t np)
{
    char dir[64] = "/tmp/mm2-test-export-XXXXXX", a[128], b[128];
    char da[MM2_DIGEST_TEXT_LEN + 1], db[MM2_DIGEST_TEXT_LEN + 1], dr[MM2_DIGEST_TEXT_LEN + 1];
    struct mm2_export ex;
    struct mm2_error err = {0};
    cJSON *tree = NULL, *back = NULL;
    char *ta, *tb;
    size_t la, lb;

    assert_non_null(mkdtemp(dir));
    path_in(a, sizeof(a), dir, "tree.json");
    path_in(b, sizeof(b), dir, "stream.json");
    sample(&ex, np);
    assert_int_equal(mm2_export_to_json(&ex, &tree, &err), MM2_OK);
    assert_int_equal(mm2_artifact_write("export", a, tree, da, &err), MM2_OK);
    assert_int_equal(mm2_export_write(&ex, b, db, &err), MM2_OK);
    assert_string_equal(da, db);
    assert_int_equal(mm2_file_read("a", a, 1 << 20, &ta, &la, &err), MM2_OK);
    assert_int_equal(mm2_file_read("b", b, 1 << 20, &tb, &lb, &err), MM2_OK);
    assert_int_equal(la, lb);
    assert_memory_equal(ta, tb, la);
    assert_int_equal(mm2_artifact_read("export", b, MM2_KIND_EXPORT, &back, dr, &err), MM2_OK);
    assert_string_equal(dr, db);
    free(ta);
    free(tb);
    cJSON_Delete(tree);
    cJSON_Delete(back);
    mm2_export_free(&ex);
    assert_int_equal(unlink(a), 0);
    assert_int_equal(unlink(b), 0);
    assert_int_equal(rmdir(dir), 0);
}

static void test_export_write_is_the_tree_byte_for_byte(void **state)
{
    (void)state;
    stream_equals_tree(3);
}

static void test_export_write_without_partitions_is_the_tree_byte_for_byte(void **state)
{
    (void)state;
    stream_equals_tree(0);
}

static void test_export_write_into_a_missing_directory_leaves_nothing(void **state)
{
    struct mm2_export ex;
    struct mm2_error err = {0};
    char digest[MM2_DIGEST_TEXT_LEN + 1];

    (void)state;
    sample(&ex, 3);
    assert_int_equal(mm2_export_write(&ex, "/nonexistent-mm2/export.json", digest, &err),
                     MM2_CONFIG);
    assert_non_null(strstr(err.msg, "cannot write export file /nonexistent-mm2/export.json"));
    assert_string_equal(digest, "");
    mm2_export_free(&ex);
}

static void test_export_write_refuses_an_offset_json_cannot_hold_and_leaves_nothing(void **state)
{
    char dir[64] = "/tmp/mm2-test-export-XXXXXX", a[128];
    struct mm2_export ex;
    struct mm2_error err = {0};
    char digest[MM2_DIGEST_TEXT_LEN + 1];

    (void)state;
    assert_non_null(mkdtemp(dir));
    path_in(a, sizeof(a), dir, "export.json");
    sample(&ex, 3);
    ex.parts[2].log_end[1] = INT64_MAX; /* above 2^53: no exact JSON number */
    assert_int_not_equal(mm2_export_write(&ex, a, digest, &err), MM2_OK);
    assert_int_not_equal(access(a, F_OK), 0);
    assert_int_equal(rmdir(dir), 0); /* no temporary file left either */
    mm2_export_free(&ex);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_export_topic_finds_each_name_at_its_element),
        cmocka_unit_test(test_export_topic_names_not_held_are_null),
        cmocka_unit_test(test_export_topic_counts_only_the_first_n),
        cmocka_unit_test(test_export_topic_empty_list_is_null),
        cmocka_unit_test(test_export_write_is_the_tree_byte_for_byte),
        cmocka_unit_test(test_export_write_without_partitions_is_the_tree_byte_for_byte),
        cmocka_unit_test(test_export_write_into_a_missing_directory_leaves_nothing),
        cmocka_unit_test(test_export_write_refuses_an_offset_json_cannot_hold_and_leaves_nothing),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
