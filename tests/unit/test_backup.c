/* Unit tests for lib/mm2_backup: the backup's members in order, and every allocation failure
 * while it is built ending in "out of memory" with no tree, never in a tree with a member
 * missing. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "mm2_backup.h"
#include "mm2_json.h"

#define DIGEST_A "sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
#define DIGEST_B "sha256:bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"

/* cJSON's allocations, counted from 1: the one numbered `failing` fails, and only that one, so
 * a failure the builder ignores is not hidden by the next one failing too (0: none fails). */
static long failing;
static long allocations;

static void *counted_malloc(size_t n)
{
    if (++allocations == failing)
        return NULL;
    return malloc(n);
}

static void count_allocations(long fail_at)
{
    cJSON_Hooks h = {counted_malloc, free};

    failing = fail_at;
    allocations = 0;
    cJSON_InitHooks(&h);
}

static void plain_allocations(void)
{
    cJSON_InitHooks(NULL);
}

static struct mm2_xtopic topics[] = {
    {.name = "audit", .partitions = 1, .replicated = false, .target_partitions = -1},
    {.name = "orders",
     .partitions = 2,
     .replicated = true,
     .target = "orders",
     .target_partitions = 2},
};

static struct mm2_source_offset offsets[] = {
    {.cluster = "src", .topic = "orders", .partition = 0, .offset = 41},
    {.cluster = "src", .topic = "orders", .partition = 1, .offset = 9007199254740991},
    {.cluster = "old", .topic = "orders", .partition = 0, .offset = 0},
};

static void fill(struct mm2_plan *p)
{
    memset(p, 0, sizeof(*p));
    strcpy(p->source_cluster, "SRC-id");
    strcpy(p->target_cluster, "TGT-id");
    strcpy(p->connector, "flink-to-mm2-source");
    strcpy(p->alias, "src");
    strcpy(p->config_digest, DIGEST_A);
    strcpy(p->group, "flink-copy");
    strcpy(p->digest, DIGEST_B);
    p->topics = topics;
    p->ntopics = 2;
}

static const char WHOLE[] =
    "{\"kind\":\"mm2kit.backup/v2\",\"tool\":\"mm2-offsets 9.9\",\"created\":"
    "\"2026-12-02T15:30:04Z\",\"plan_digest\":\"" DIGEST_B "\",\"migration\":{\"flink_group_id\":"
    "\"flink-copy\",\"source_cluster_id\":\"SRC-id\",\"target_cluster_id\":\"TGT-id\","
    "\"connector\":\"flink-to-mm2-source\",\"source_alias\":\"src\",\"config_digest\":\"" DIGEST_A
    "\",\"topics\":[\"orders\"]},\"offsets\":[{\"cluster\":\"src\",\"topic\":\"orders\","
    "\"partition\":0,\"offset\":41},{\"cluster\":\"src\",\"topic\":\"orders\",\"partition\":1,"
    "\"offset\":9007199254740991},{\"cluster\":\"old\",\"topic\":\"orders\",\"partition\":0,"
    "\"offset\":0}]}";

static enum mm2_status build(cJSON **out, struct mm2_error *err)
{
    struct mm2_plan p;
    struct mm2_source_offsets o = {offsets, 3};

    fill(&p);
    memset(err, 0, sizeof(*err));
    return mm2_backup_build(&p, &o, "mm2-offsets 9.9", "2026-12-02T15:30:04Z", out, err);
}

static void assert_whole(cJSON *t)
{
    char *text = mm2_json_print(t, false);

    assert_non_null(text);
    assert_string_equal(text, WHOLE);
    free(text);
}

static void test_backup_holds_every_member_in_order(void **state)
{
    struct mm2_error err;
    cJSON *t = NULL;

    (void)state;
    assert_int_equal(build(&t, &err), MM2_OK);
    assert_whole(t);
    cJSON_Delete(t);
}

static void test_every_allocation_failure_is_out_of_memory_and_no_tree(void **state)
{
    struct mm2_error err;
    cJSON *t = NULL;
    long total;

    (void)state;
    count_allocations(0);
    assert_int_equal(build(&t, &err), MM2_OK);
    total = allocations;
    cJSON_Delete(t);
    assert_true(total > 20);
    for (long k = 1; k <= total; k++) {
        count_allocations(k);
        t = (cJSON *)&err; /* must be reset to NULL */
        if (build(&t, &err) != MM2_UNEXPECTED || t != NULL) {
            plain_allocations();
            fail_msg("allocation %ld of %ld failed, yet the backup was built", k, total);
        }
        assert_int_equal(err.code, MM2_UNEXPECTED);
        assert_string_equal(err.msg, "out of memory building the backup");
    }
    count_allocations(total + 1);
    assert_int_equal(build(&t, &err), MM2_OK);
    plain_allocations();
    assert_whole(t);
    cJSON_Delete(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_backup_holds_every_member_in_order),
        cmocka_unit_test(test_every_allocation_failure_is_out_of_memory_and_no_tree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
