/*
 * Unit tests for lib/mm2_plan, lib/mm2_export and lib/mm2_pj: the plan rules of
 * docs/ARCHITECTURE.md §6
 * (every row of the C table, every blocking rule, the connector rules of docs/ARCHITECTURE.md
 * §6.3), the export and plan artifacts (to_json / from_json round trips and every validation), the
 * PATCH body, and --accept-loss parsing.
 *
 * Each rule test starts from a fixture that plans cleanly (the connector JSON of k8s/base/offsets
 * with an IdentityReplicationPolicy, a Flink job FINISHED, three topics of which two are
 * replicated) and changes one fact, then asserts the exact refusal lines.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mm2_artifact.h"
#include "mm2_config.h"
#include "mm2_json.h"
#include "mm2_plan.h"
#include "mm2_topics.h"

#define NAME "flink-to-mm2-source"
#define SRC_ID "SRC-cluster-id"
#define TGT_ID "TGT-cluster-id"
#define EXPORT_DIGEST "sha256:1111111111111111111111111111111111111111111111111111111111111111"
#define HW 7000 /* the target's high watermark in the fixture */
#define MAX_TOPICS 8
#define MAX_PARTS 32

/* ---- the fixture ----------------------------------------------------------------------------- */

struct fx {
    struct mm2_export ex;
    cJSON *json; /* the connector JSON; tests edit it, then call use_connector() */
    struct mm2_connector conn;
    struct mm2_mirror *mirror;
    struct mm2_config cfg;
    struct mm2_tpref accept[8];
    size_t naccept;
    struct mm2_tpref gap[4], unplaced[4];
    size_t ngap, nunplaced;
    struct mm2_plan plan;
    struct mm2_refusals r;
    struct mm2_error err;
    enum mm2_status st;
};

static const char *const CONNECTOR_JSON =
    "{\"name\": \"" NAME "\", \"config\": {"
    "\"connector.class\": \"org.apache.kafka.connect.mirror.MirrorSourceConnector\", "
    "\"tasks.max\": \"4\", "
    "\"source.cluster.alias\": \"source\", "
    "\"target.cluster.alias\": \"target\", "
    "\"source.cluster.bootstrap.servers\": \"src:9092\", "
    "\"target.cluster.bootstrap.servers\": \"tgt:9092\", "
    "\"topics\": \"orders, payments\", "
    "\"replication.policy.class\": "
    "\"org.apache.kafka.connect.mirror.IdentityReplicationPolicy\", "
    "\"emit.offset-syncs.enabled\": \"false\", "
    "\"refresh.topics.enabled\": \"true\", "
    "\"refresh.topics.interval.seconds\": \"60\", "
    "\"sync.topic.configs.enabled\": \"false\", "
    "\"sync.topic.acls.enabled\": \"false\", "
    "\"source.consumer.auto.offset.reset\": \"earliest\", "
    "\"source.consumer.isolation.level\": \"read_committed\", "
    "\"key.converter\": \"org.apache.kafka.connect.converters.ByteArrayConverter\", "
    "\"value.converter\": \"org.apache.kafka.connect.converters.ByteArrayConverter\", "
    "\"header.converter\": \"org.apache.kafka.connect.converters.ByteArrayConverter\"}}";

/* Sets (or, with value NULL, removes) a key of the connector JSON's config. */
static void set_cfg(struct fx *f, const char *key, const char *value)
{
    cJSON *config = cJSON_GetObjectItemCaseSensitive(f->json, "config");

    cJSON_DeleteItemFromObjectCaseSensitive(config, key);
    if (value != NULL)
        assert_non_null(cJSON_AddStringToObject(config, key, value));
}

/* Loads f->json as the connector (and its mirror) the plan runs with now. */
static void connector_now(struct fx *f)
{
    struct mm2_error err = {0};

    mm2_connector_free(&f->conn);
    mm2_mirror_free(f->mirror);
    f->mirror = NULL;
    if (mm2_connector_from_json(f->json, &f->conn, &err) != MM2_OK)
        fail_msg("connector: %s", err.msg);
    if (mm2_mirror_new(f->conn.config, f->ex.connect_version, &f->mirror, &err) != MM2_OK)
        fail_msg("mirror: %s", err.msg);
}

/* connector_now, and the export as if made with that JSON. */
static void use_connector(struct fx *f)
{
    connector_now(f);
    (void)snprintf(f->ex.connector, sizeof(f->ex.connector), "%s", f->conn.name);
    (void)snprintf(f->ex.alias, sizeof(f->ex.alias), "%s", f->conn.alias);
    memcpy(f->ex.config_digest, f->conn.digest, sizeof(f->ex.config_digest));
    cJSON_Delete(f->ex.config_view);
    f->ex.config_view = cJSON_Duplicate(f->conn.view, true);
}

/* A source topic of the export (add them in name order). target NULL: not replicated. */
static void add_topic(struct mm2_export *ex, const char *name, int32_t partitions,
                      const char *target, int32_t target_partitions, const char *flink_target)
{
    struct mm2_xtopic *t = &ex->topics[ex->ntopics++];

    assert_true(ex->ntopics <= MAX_TOPICS);
    t->name = strdup(name);
    t->partitions = partitions;
    t->replicated = target != NULL;
    t->target = target != NULL ? strdup(target) : NULL;
    t->target_partitions = target != NULL ? target_partitions : -1;
    t->flink_target = flink_target != NULL ? strdup(flink_target) : NULL;
}

/* One partition with the given numbers, the same in both reads, its target partition at HW with
 * nothing open (add them in (topic, partition) order). */
static struct mm2_xpart *add_part(struct mm2_export *ex, const char *topic, int32_t partition,
                                  int64_t c, int64_t log_start, int64_t log_end)
{
    struct mm2_xpart *p = &ex->parts[ex->nparts++];

    assert_true(ex->nparts <= MAX_PARTS);
    p->topic = strdup(topic);
    p->partition = partition;
    for (int r = 0; r < 2; r++) {
        p->committed[r] = c;
        p->log_start[r] = log_start;
        p->log_end[r] = log_end;
        p->target_hw[r] = HW;
        p->target_lso[r] = HW;
    }
    return p;
}

static struct mm2_xpart *part(struct fx *f, const char *topic, int32_t partition)
{
    for (size_t i = 0; i < f->ex.nparts; i++)
        if (strcmp(f->ex.parts[i].topic, topic) == 0 && f->ex.parts[i].partition == partition)
            return &f->ex.parts[i];
    fail_msg("no part %s-%d", topic, (int)partition);
    return NULL;
}

static struct mm2_xtopic *xtopic(struct fx *f, const char *name)
{
    for (size_t i = 0; i < f->ex.ntopics; i++)
        if (strcmp(f->ex.topics[i].name, name) == 0)
            return &f->ex.topics[i];
    fail_msg("no topic %s", name);
    return NULL;
}

static const char *no_env(const char *name)
{
    (void)name;
    return NULL;
}

static void config_ini(struct fx *f, const char *flink_extra)
{
    char text[1024];
    struct mm2_problems p = {0};

    mm2_config_free(&f->cfg);
    (void)snprintf(text, sizeof(text),
                   "[source]\nbootstrap.servers = src:9092\n[target]\nbootstrap.servers = "
                   "tgt:9092\n[connect]\nurl = http://connect:8088\n[flink]\ngroup.id = "
                   "flink-orders\n%s\n[connector]\nfile = connector.json\n",
                   flink_extra);
    if (mm2_config_parse(text, "/etc/mm2/migration.ini", no_env, &f->cfg, &p) != MM2_OK)
        fail_msg("config: %s", p.line[0]);
}

static int fx_setup(void **state)
{
    struct fx *f = calloc(1, sizeof(*f));
    struct mm2_export *ex;

    if (f == NULL)
        return -1;
    ex = &f->ex;
    (void)snprintf(ex->created, sizeof(ex->created), "2026-12-02T15:00:00Z");
    (void)snprintf(ex->source_cluster, sizeof(ex->source_cluster), SRC_ID);
    (void)snprintf(ex->target_cluster, sizeof(ex->target_cluster), TGT_ID);
    (void)snprintf(ex->connect_version, sizeof(ex->connect_version), "4.3.1");
    (void)snprintf(ex->connect_cluster, sizeof(ex->connect_cluster), TGT_ID);
    (void)snprintf(ex->group, sizeof(ex->group), "flink-orders");
    (void)snprintf(ex->group_state, sizeof(ex->group_state), "Empty");
    (void)snprintf(ex->flink_method, sizeof(ex->flink_method), "flink-rest");
    (void)snprintf(ex->flink_job_state, sizeof(ex->flink_job_state), "FINISHED");
    ex->checkpoint_interval_ms = 60000;
    ex->stable_wait_ms = 5000;
    (void)snprintf(ex->digest, sizeof(ex->digest), EXPORT_DIGEST);
    ex->topics = calloc(MAX_TOPICS, sizeof(*ex->topics));
    ex->parts = calloc(MAX_PARTS, sizeof(*ex->parts));
    if (ex->topics == NULL || ex->parts == NULL)
        return -1;
    add_topic(ex, "audit", 1, NULL, -1, NULL);
    add_topic(ex, "orders", 2, "orders", 2, "orders");
    add_topic(ex, "payments", 1, "payments", 1, "payments");
    add_part(ex, "orders", 0, 1000, 0, 1500);
    add_part(ex, "orders", 1, 2000, 100, 2000);
    add_part(ex, "payments", 0, 10, 5, 50);
    f->json = cJSON_Parse(CONNECTOR_JSON);
    if (f->json == NULL)
        return -1;
    use_connector(f);
    config_ini(f, "");
    *state = f;
    return 0;
}

static int fx_teardown(void **state)
{
    struct fx *f = *state;

    mm2_export_free(&f->ex);
    cJSON_Delete(f->json);
    mm2_connector_free(&f->conn);
    mm2_mirror_free(f->mirror);
    mm2_config_free(&f->cfg);
    mm2_plan_free(&f->plan);
    mm2_refusals_free(&f->r);
    free(f);
    return 0;
}

static void accept_loss(struct fx *f, const char *topic, int32_t partition)
{
    f->accept[f->naccept].topic = topic;
    f->accept[f->naccept].partition = partition;
    f->naccept++;
}

static enum mm2_status build(struct fx *f)
{
    const struct mm2_plan_input in = {.ex = &f->ex,
                                      .connector = &f->conn,
                                      .mirror = f->mirror,
                                      .cfg = &f->cfg,
                                      .accept_loss = f->accept,
                                      .naccept = f->naccept,
                                      .start_at_gap = f->gap,
                                      .ngap = f->ngap,
                                      .accept_unplaced = f->unplaced,
                                      .nunplaced = f->nunplaced};

    mm2_plan_free(&f->plan);
    mm2_refusals_free(&f->r);
    mm2_error_clear(&f->err);
    f->st = mm2_plan_build(&in, &f->plan, &f->r, &f->err);
    return f->st;
}

static void dump(const struct fx *f)
{
    for (size_t i = 0; i < f->r.n; i++)
        print_message("refusal %zu: %s\n", i, f->r.line[i]);
}

static void assert_planned(struct fx *f)
{
    if (build(f) != MM2_OK) {
        dump(f);
        fail_msg("expected a plan, got status %d (%s)", f->st, f->err.msg);
    }
    assert_int_equal(f->r.n, 0);
}

/* Builds and expects exactly the n refusal lines given, in order, and no plan. */
static void assert_refused(struct fx *f, size_t n, ...)
{
    va_list ap;
    const char *bad = NULL;
    size_t at = 0;

    if (build(f) != MM2_CHECK_FAILED || f->r.n != n) {
        dump(f);
        fail_msg("expected %zu refusals, got status %d and %zu", n, f->st, f->r.n);
    }
    va_start(ap, n);
    for (size_t i = 0; i < n && bad == NULL; i++) {
        const char *want = va_arg(ap, const char *);
        if (strcmp(f->r.line[i], want) != 0) {
            bad = want;
            at = i;
        }
    }
    va_end(ap);
    if (bad != NULL)
        fail_msg("refusal %zu:\n  got  %s\n  want %s", at, f->r.line[at], bad);
    assert_int_equal(f->plan.n, 0);
    assert_null(f->plan.entries);
    assert_null(f->plan.topics);
}

static const struct mm2_pentry *entry(const struct fx *f, const char *topic, int32_t partition)
{
    const struct mm2_pentry *e = mm2_plan_find(&f->plan, topic, partition);

    if (e == NULL)
        fail_msg("no plan entry %s-%d", topic, (int)partition);
    return e;
}

static void assert_entry(const struct mm2_pentry *e, enum mm2_action action, int64_t c, int64_t m,
                         int64_t log_start, int64_t log_end, int64_t lost)
{
    assert_int_equal(e->action, action);
    assert_int_equal(e->c, c);
    assert_int_equal(e->m, m);
    assert_int_equal(e->log_start, log_start);
    assert_int_equal(e->log_end, log_end);
    assert_int_equal(e->lost, lost);
}

/* ---- the fixture plans, and what the plan holds ---------------------------------------------- */

static void test_plan_fixture_plans_every_replicated_partition(void **state)
{
    struct fx *f = *state;
    const struct mm2_pentry *e;

    assert_planned(f);
    assert_int_equal(f->plan.n, 3);
    assert_string_equal(f->plan.created, "2026-12-02T15:00:00Z");
    assert_string_equal(f->plan.export_digest, EXPORT_DIGEST);
    assert_string_equal(f->plan.source_cluster, SRC_ID);
    assert_string_equal(f->plan.target_cluster, TGT_ID);
    assert_string_equal(f->plan.connect_version, "4.3.1");
    assert_string_equal(f->plan.connector, NAME);
    assert_string_equal(f->plan.alias, "source");
    assert_string_equal(f->plan.config_digest, f->conn.digest);
    assert_string_equal(f->plan.group, "flink-orders");
    assert_string_equal(f->plan.digest, "");
    /* Only the replicated topics. */
    assert_int_equal(f->plan.ntopics, 2);
    assert_string_equal(f->plan.topics[0].name, "orders");
    assert_int_equal(f->plan.topics[0].partitions, 2);
    assert_string_equal(f->plan.topics[0].target, "orders");
    assert_int_equal(f->plan.topics[0].target_partitions, 2);
    assert_string_equal(f->plan.topics[0].flink_target, "orders");
    assert_string_equal(f->plan.topics[1].name, "payments");
    e = entry(f, "orders", 0);
    assert_entry(e, MM2_ACT_OFFSET, 1000, 999, 0, 1500, 0);
    assert_string_equal(e->topic, "orders");
    assert_int_equal(e->partition, 0);
    assert_string_equal(e->target_topic, "orders");
    assert_int_equal(e->target_start, HW);
    assert_entry(entry(f, "orders", 1), MM2_ACT_OFFSET, 2000, 1999, 100, 2000, 0);
    assert_entry(entry(f, "payments", 0), MM2_ACT_OFFSET, 10, 9, 5, 50, 0);
    assert_null(mm2_plan_find(&f->plan, "audit", 0));
    assert_null(mm2_plan_find(&f->plan, "orders", 2));
}

/* ---- the C table ----------------------------------------------------------------------------- */

static void test_plan_c_in_range_writes_c_minus_one(void **state)
{
    struct fx *f = *state;

    part(f, "orders", 0)->committed[0] = part(f, "orders", 0)->committed[1] = 1;
    assert_planned(f);
    assert_entry(entry(f, "orders", 0), MM2_ACT_OFFSET, 1, 0, 0, 1500, 0);
}

static void test_plan_c_equal_to_log_start_writes_c_minus_one(void **state)
{
    struct fx *f = *state;
    struct mm2_xpart *p = part(f, "orders", 1);

    /* M = C - 1 lies below the log start, but MM2 seeks M + 1 = C, which exists. */
    p->committed[0] = p->committed[1] = 100;
    assert_planned(f);
    assert_entry(entry(f, "orders", 1), MM2_ACT_OFFSET, 100, 99, 100, 2000, 0);
}

static void test_plan_c_equal_to_log_end_writes_c_minus_one(void **state)
{
    struct fx *f = *state;

    /* orders-1 has C = 2000 = log end: nothing left to copy yet, MM2 starts at the end. */
    assert_planned(f);
    assert_entry(entry(f, "orders", 1), MM2_ACT_OFFSET, 2000, 1999, 100, 2000, 0);
}

static void test_plan_c_zero_at_log_start_zero_resets(void **state)
{
    struct fx *f = *state;
    struct mm2_xpart *p = part(f, "orders", 0);

    p->committed[0] = p->committed[1] = 0;
    assert_planned(f);
    assert_entry(entry(f, "orders", 0), MM2_ACT_RESET, 0, -1, 0, 1500, 0);
}

static void test_plan_c_zero_on_an_empty_partition_resets(void **state)
{
    struct fx *f = *state;
    struct mm2_xpart *p = part(f, "orders", 0);

    p->committed[0] = p->committed[1] = 0;
    p->log_end[0] = p->log_end[1] = 0;
    assert_planned(f);
    assert_entry(entry(f, "orders", 0), MM2_ACT_RESET, 0, -1, 0, 0, 0);
}

static void test_plan_no_committed_offset_blocks(void **state)
{
    struct fx *f = *state;
    struct mm2_xpart *p = part(f, "orders", 1);

    p->committed[0] = p->committed[1] = MM2_OFFSET_NONE;
    assert_refused(f, 1,
                   "orders-1: group flink-orders has no committed offset; MM2 would start at "
                   "auto.offset.reset and copy the whole partition again (or skip it with "
                   "latest): find where Flink stopped [rule no-offset]");
}

static void test_plan_c_below_log_start_blocks(void **state)
{
    struct fx *f = *state;
    struct mm2_xpart *p = part(f, "orders", 1);

    p->committed[0] = p->committed[1] = 40;
    assert_refused(f, 1,
                   "orders-1: committed offset C=40 is below the log start 100: 60 records "
                   "expired before MM2 could copy them; restore them from elsewhere, or record "
                   "the loss with --accept-loss orders:1 [rule expired]");
}

static void test_plan_c_zero_below_log_start_blocks(void **state)
{
    struct fx *f = *state;
    struct mm2_xpart *p = part(f, "orders", 1);

    /* C = 0 is only a reset when the log still starts at 0. */
    p->committed[0] = p->committed[1] = 0;
    assert_refused(f, 1,
                   "orders-1: committed offset C=0 is below the log start 100: 100 records "
                   "expired before MM2 could copy them; restore them from elsewhere, or record "
                   "the loss with --accept-loss orders:1 [rule expired]");
}

static void test_plan_accept_loss_records_the_expired_records(void **state)
{
    struct fx *f = *state;
    struct mm2_xpart *p = part(f, "orders", 1);

    p->committed[0] = p->committed[1] = 40;
    accept_loss(f, "orders", 1);
    assert_planned(f);
    assert_entry(entry(f, "orders", 1), MM2_ACT_LOSS, 40, -1, 100, 2000, 60);
    assert_entry(entry(f, "orders", 0), MM2_ACT_OFFSET, 1000, 999, 0, 1500, 0);
}

static void test_plan_accept_loss_for_a_partition_not_expired_blocks(void **state)
{
    struct fx *f = *state;

    accept_loss(f, "orders", 0);
    accept_loss(f, "audit", 0);
    accept_loss(f, "nope", 3);
    assert_refused(f, 3,
                   "--accept-loss orders:0: that partition's committed offset is not below its "
                   "log start (or it is not replicated); --accept-loss is only for expired data "
                   "[rule accept-loss]",
                   "--accept-loss audit:0: that partition's committed offset is not below its "
                   "log start (or it is not replicated); --accept-loss is only for expired data "
                   "[rule accept-loss]",
                   "--accept-loss nope:3: that partition's committed offset is not below its log "
                   "start (or it is not replicated); --accept-loss is only for expired data "
                   "[rule accept-loss]");
}

static void test_plan_accept_loss_given_twice_for_the_same_partition(void **state)
{
    struct fx *f = *state;
    struct mm2_xpart *p = part(f, "orders", 1);

    p->committed[0] = p->committed[1] = 40;
    accept_loss(f, "orders", 1);
    accept_loss(f, "orders", 1);
    assert_planned(f);
    assert_entry(entry(f, "orders", 1), MM2_ACT_LOSS, 40, -1, 100, 2000, 60);
    assert_int_equal(f->plan.n, 3);
}

static void test_plan_c_beyond_log_end_blocks(void **state)
{
    struct fx *f = *state;
    struct mm2_xpart *p = part(f, "orders", 0);

    p->committed[0] = p->committed[1] = 1501;
    assert_refused(f, 1,
                   "orders-0: committed offset C=1501 is beyond the log end 1500: not a position "
                   "in this partition (topic recreated? wrong cluster?); check the group and "
                   "cluster [rule beyond-end]");
}

static void test_plan_beyond_log_end_is_not_excused_by_accept_loss(void **state)
{
    struct fx *f = *state;
    struct mm2_xpart *p = part(f, "orders", 0);

    p->committed[0] = p->committed[1] = 1501;
    accept_loss(f, "orders", 0);
    assert_refused(f, 2,
                   "orders-0: committed offset C=1501 is beyond the log end 1500: not a position "
                   "in this partition (topic recreated? wrong cluster?); check the group and "
                   "cluster [rule beyond-end]",
                   "--accept-loss orders:0: that partition's committed offset is not below its "
                   "log start (or it is not replicated); --accept-loss is only for expired data "
                   "[rule accept-loss]");
}

/* ---- what moved between the two reads -------------------------------------------------------- */

static void test_plan_committed_offset_moved_between_reads_blocks(void **state)
{
    struct fx *f = *state;

    part(f, "orders", 0)->committed[1] = 1200;
    assert_refused(f, 1,
                   "orders-0: the committed offset of group flink-orders moved from 1000 to 1200 "
                   "between the two reads 5000 ms apart: Flink (or another client of the group) "
                   "is still committing; stop it, then export again [rule offset-moved]");
}

static void test_plan_first_commit_between_reads_blocks(void **state)
{
    struct fx *f = *state;

    part(f, "orders", 0)->committed[0] = MM2_OFFSET_NONE;
    assert_refused(f, 1,
                   "orders-0: the committed offset of group flink-orders moved from none to 1000 "
                   "between the two reads 5000 ms apart: Flink (or another client of the group) "
                   "is still committing; stop it, then export again [rule offset-moved]");
    /* And the other way: a commit deleted between the reads. */
    part(f, "orders", 0)->committed[0] = 1000;
    part(f, "orders", 0)->committed[1] = MM2_OFFSET_NONE;
    assert_refused(f, 1,
                   "orders-0: the committed offset of group flink-orders moved from 1000 to none "
                   "between the two reads 5000 ms apart: Flink (or another client of the group) "
                   "is still committing; stop it, then export again [rule offset-moved]");
}

static void test_plan_log_end_went_backwards_blocks(void **state)
{
    struct fx *f = *state;

    part(f, "orders", 0)->log_end[1] = 1400;
    assert_refused(f, 1,
                   "orders-0: the source log went backwards between the two reads (start 0 -> 0, "
                   "end 1500 -> 1400): was the topic recreated? [rule log-moved]");
}

static void test_plan_log_start_went_backwards_blocks(void **state)
{
    struct fx *f = *state;

    part(f, "orders", 1)->log_start[1] = 50;
    assert_refused(f, 1,
                   "orders-1: the source log went backwards between the two reads (start 100 -> "
                   "50, end 2000 -> 2000): was the topic recreated? [rule log-moved]");
}

static void test_plan_log_end_growing_between_reads_is_fine(void **state)
{
    struct fx *f = *state;

    /* Producers keep writing to the source: the later end is the one planned against. */
    part(f, "orders", 0)->log_end[1] = 1700;
    assert_planned(f);
    assert_entry(entry(f, "orders", 0), MM2_ACT_OFFSET, 1000, 999, 0, 1700, 0);
}

static void test_plan_log_start_passing_c_between_reads_blocks(void **state)
{
    struct fx *f = *state;
    struct mm2_xpart *p = part(f, "orders", 0);

    /* Retention deleted records up to 1100 during the wait: C = 1000 is gone now. */
    p->log_start[1] = 1100;
    assert_refused(f, 1,
                   "orders-0: committed offset C=1000 is below the log start 1100: 100 records "
                   "expired before MM2 could copy them; restore them from elsewhere, or record "
                   "the loss with --accept-loss orders:0 [rule expired]");
}

/* ---- the target ------------------------------------------------------------------------------ */

static void test_plan_open_transaction_in_first_read_blocks(void **state)
{
    struct fx *f = *state;

    part(f, "orders", 0)->target_lso[0] = 6990;
    assert_refused(f, 1,
                   "orders-0: on the target, the last stable offset 6990 is below the high "
                   "watermark 7000: a transaction is open (a Flink EXACTLY_ONCE sink?); wait for "
                   "it to commit or abort (transaction.timeout.ms), then export again "
                   "[rule open-transaction]");
}

static void test_plan_open_transaction_in_second_read_blocks(void **state)
{
    struct fx *f = *state;

    part(f, "payments", 0)->target_lso[1] = 6995;
    assert_refused(f, 1,
                   "payments-0: on the target, the last stable offset 6995 is below the high "
                   "watermark 7000: a transaction is open (a Flink EXACTLY_ONCE sink?); wait for "
                   "it to commit or abort (transaction.timeout.ms), then export again "
                   "[rule open-transaction]");
}

static void test_plan_target_high_watermark_moved_blocks(void **state)
{
    struct fx *f = *state;
    struct mm2_xpart *p = part(f, "orders", 1);

    p->target_hw[1] = 7042;
    p->target_lso[1] = 7042;
    assert_refused(f, 1,
                   "orders-1: the target's high watermark moved from 7000 to 7042 between the "
                   "two reads 5000 ms apart: another writer is active; only one replicating "
                   "writer may exist, stop it [rule target-moving]");
}

static void test_plan_every_rule_of_one_partition_is_reported(void **state)
{
    struct fx *f = *state;
    struct mm2_xpart *p = part(f, "orders", 0);

    p->target_hw[1] = 7010;
    p->target_lso[1] = 7005;
    p->committed[1] = 1001;
    assert_refused(f, 3,
                   "orders-0: on the target, the last stable offset 7005 is below the high "
                   "watermark 7010: a transaction is open (a Flink EXACTLY_ONCE sink?); wait for "
                   "it to commit or abort (transaction.timeout.ms), then export again "
                   "[rule open-transaction]",
                   "orders-0: the target's high watermark moved from 7000 to 7010 between the "
                   "two reads 5000 ms apart: another writer is active; only one replicating "
                   "writer may exist, stop it [rule target-moving]",
                   "orders-0: the committed offset of group flink-orders moved from 1000 to 1001 "
                   "between the two reads 5000 ms apart: Flink (or another client of the group) "
                   "is still committing; stop it, then export again [rule offset-moved]");
}

static void test_plan_target_topic_missing_blocks(void **state)
{
    struct fx *f = *state;

    xtopic(f, "orders")->target_partitions = -1;
    for (int32_t i = 0; i < 2; i++) {
        struct mm2_xpart *p = part(f, "orders", i);
        p->target_hw[0] = p->target_hw[1] = -1;
        p->target_lso[0] = p->target_lso[1] = -1;
    }
    assert_refused(f, 1,
                   "topic orders: target topic \"orders\" does not exist; create it with 2 "
                   "partitions before the cutover [rule target-missing]");
}

static void test_plan_target_with_more_partitions_blocks(void **state)
{
    struct fx *f = *state;

    xtopic(f, "orders")->target_partitions = 3;
    assert_refused(f, 1,
                   "topic orders: the source has 2 partitions but target topic \"orders\" has 3; "
                   "MM2 keeps partition numbers, so they must match [rule partition-count]");
}

static void test_plan_target_with_fewer_partitions_blocks(void **state)
{
    struct fx *f = *state;
    struct mm2_xpart *p = part(f, "orders", 1);

    xtopic(f, "orders")->target_partitions = 1;
    p->target_hw[0] = p->target_hw[1] = -1;
    p->target_lso[0] = p->target_lso[1] = -1;
    assert_refused(f, 1,
                   "topic orders: the source has 2 partitions but target topic \"orders\" has 1; "
                   "MM2 keeps partition numbers, so they must match [rule partition-count]");
}

static void test_plan_target_start_is_the_first_high_watermark(void **state)
{
    struct fx *f = *state;

    part(f, "payments", 0)->target_hw[0] = part(f, "payments", 0)->target_hw[1] = 0;
    part(f, "payments", 0)->target_lso[0] = part(f, "payments", 0)->target_lso[1] = 0;
    assert_planned(f);
    assert_int_equal(entry(f, "payments", 0)->target_start, 0);
    assert_int_equal(entry(f, "orders", 0)->target_start, HW);
}

/* ---- topics and mapping ---------------------------------------------------------------------- */

static void test_plan_topic_mapping_differs_from_flinks_blocks(void **state)
{
    struct fx *f = *state;

    /* At export and now, [flink] topic.mapping says Flink wrote orders to orders-copy. */
    config_ini(f, "topic.mapping = orders=orders-copy");
    free(xtopic(f, "orders")->flink_target);
    xtopic(f, "orders")->flink_target = strdup("orders-copy");
    assert_refused(f, 1,
                   "topic orders: MM2's replication policy writes it to \"orders\" but Flink wrote "
                   "it to \"orders-copy\"; use a replication.policy.class that maps it to the "
                   "topic Flink wrote (IdentityReplicationPolicy for the same name) or fix "
                   "[flink] topic.mapping [rule topic-mapping]");
}

static void test_plan_default_policy_needs_a_mapping_to_prefixed_names(void **state)
{
    struct fx *f = *state;

    /* DefaultReplicationPolicy writes source.orders; at export the targets were those. */
    set_cfg(f, "replication.policy.class", NULL);
    use_connector(f);
    free(xtopic(f, "orders")->target);
    xtopic(f, "orders")->target = strdup("source.orders");
    free(xtopic(f, "payments")->target);
    xtopic(f, "payments")->target = strdup("source.payments");
    assert_refused(f, 2,
                   "topic orders: MM2's replication policy writes it to \"source.orders\" but "
                   "Flink wrote it to \"orders\"; use a replication.policy.class that maps it to "
                   "the topic Flink wrote (IdentityReplicationPolicy for the same name) or fix "
                   "[flink] topic.mapping [rule topic-mapping]",
                   "topic payments: MM2's replication policy writes it to \"source.payments\" but "
                   "Flink wrote it to \"payments\"; use a replication.policy.class that maps it "
                   "to the topic Flink wrote (IdentityReplicationPolicy for the same name) or fix "
                   "[flink] topic.mapping [rule topic-mapping]");
    /* Exported again with the mapping to the prefixed names. */
    config_ini(f, "topic.mapping = orders=source.orders,payments=source.payments");
    free(xtopic(f, "orders")->flink_target);
    xtopic(f, "orders")->flink_target = strdup("source.orders");
    free(xtopic(f, "payments")->flink_target);
    xtopic(f, "payments")->flink_target = strdup("source.payments");
    assert_planned(f);
    assert_string_equal(f->plan.topics[0].flink_target, "source.orders");
    assert_string_equal(entry(f, "orders", 0)->target_topic, "source.orders");
    assert_string_equal(entry(f, "payments", 0)->target_topic, "source.payments");
}

static void test_plan_flink_target_recorded_is_the_one_checked(void **state)
{
    struct fx *f = *state;

    /* At export [flink] topic.mapping said orders=orders-copy; the INI now says identity. The
     * plan records the export's flink_target, so the two must agree. */
    free(xtopic(f, "orders")->flink_target);
    xtopic(f, "orders")->flink_target = strdup("orders-copy");
    assert_refused(f, 1,
                   "topic orders: [flink] topic.mapping says Flink wrote it to \"orders\" now but "
                   "\"orders-copy\" at export; export again [rule topics-changed]");
    /* The other way, and before the topic-mapping rule: no second refusal for the same topic. */
    free(xtopic(f, "orders")->flink_target);
    xtopic(f, "orders")->flink_target = strdup("orders");
    config_ini(f, "topic.mapping = orders=orders-copy");
    assert_refused(f, 1,
                   "topic orders: [flink] topic.mapping says Flink wrote it to \"orders-copy\" now "
                   "but \"orders\" at export; export again [rule topics-changed]");
}

static void test_plan_filter_no_longer_replicating_a_topic_blocks(void **state)
{
    struct fx *f = *state;

    /* The same connector JSON, but the filter evaluates differently now (the mirror is built
     * from another config): only the topic rule speaks. */
    set_cfg(f, "topics", "payments");
    connector_now(f);
    memcpy(f->conn.digest, f->ex.config_digest, sizeof(f->conn.digest));
    assert_refused(f, 1,
                   "topic orders: the connector JSON does not replicate it now but did at export; "
                   "export again [rule topics-changed]");
}

static void test_plan_filter_now_replicating_another_topic_blocks(void **state)
{
    struct fx *f = *state;

    set_cfg(f, "topics", "orders, payments, audit");
    connector_now(f);
    memcpy(f->conn.digest, f->ex.config_digest, sizeof(f->conn.digest));
    assert_refused(f, 1,
                   "topic audit: the connector JSON replicates it now but did not at export; "
                   "export again [rule topics-changed]");
}

static void test_plan_replication_policy_target_changed_blocks(void **state)
{
    struct fx *f = *state;

    free(xtopic(f, "payments")->target);
    xtopic(f, "payments")->target = strdup("source.payments");
    assert_refused(f, 1,
                   "topic payments: the replication policy maps it to \"payments\" now but to "
                   "\"source.payments\" at export; export again [rule topics-changed]");
}

static void test_plan_connector_json_with_another_filter_blocks_twice(void **state)
{
    struct fx *f = *state;
    char want[600], old[MM2_DIGEST_TEXT_LEN + 1];

    memcpy(old, f->ex.config_digest, sizeof(old));
    set_cfg(f, "topics", "payments");
    connector_now(f);
    (void)old;
    (void)snprintf(want, sizeof(want),
                   "the connector JSON changed since the export (in 1 key: topics (\"orders, "
                   "payments\" in the export, \"payments\" in the JSON now)); export again with "
                   "the JSON you will apply [rule connector-config]");
    assert_refused(f, 2, want,
                   "topic orders: the connector JSON does not replicate it now but did at export; "
                   "export again [rule topics-changed]");
}

static void test_plan_disabled_connector_blocks(void **state)
{
    struct fx *f = *state;

    set_cfg(f, "enabled", "false");
    connector_now(f);
    memcpy(f->conn.digest, f->ex.config_digest, sizeof(f->conn.digest));
    build(f);
    assert_int_equal(f->st, MM2_CHECK_FAILED);
    assert_string_equal(f->r.line[0], "connector " NAME ": \"enabled\" is \"false\", so "
                                      "MirrorSourceConnector creates no task and copies nothing; "
                                      "remove it [rule connector-config]");
}

static void test_plan_unplanned_replicated_partition_blocks(void **state)
{
    struct fx *f = *state;

    /* orders has 2 partitions but the export lists only orders-0 and payments-0: MM2 would copy
     * orders-1 again from the earliest offset (docs/ARCHITECTURE.md §6.2). */
    free(f->ex.parts[1].topic);
    f->ex.parts[1] = f->ex.parts[2];
    f->ex.nparts = 2;
    assert_refused(f, 1,
                   "topic orders: 2 partitions are replicated but the export read 1; MM2 would "
                   "copy the others from the earliest offset: export again [rule unplanned]");
}

/* ---- the migration as a whole ---------------------------------------------------------------- */

static void test_plan_alias_changed_since_export_blocks(void **state)
{
    struct fx *f = *state;

    set_cfg(f, "source.cluster.alias", "src2");
    connector_now(f);
    assert_refused(f, 1,
                   "the connector's source.cluster.alias is \"src2\" now but was \"source\" at "
                   "export; every offset's \"cluster\" key must equal it (Connect does not check, "
                   "and MM2 ignores offsets under another alias): export again [rule alias]");
}

static void test_plan_alias_with_spaces_is_refused_not_guessed(void **state)
{
    static const char *const aliases[] = {"source ", " source", "\tsource", "source\n"};
    struct fx *f = *state;

    /* Connect trims it (ConfigDef) and keys MM2's offsets with "source": a plan under the text
     * as written would be ignored, a full duplicate. */
    for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++) {
        struct mm2_connector c;
        struct mm2_error err = {0};
        char want[200];
        set_cfg(f, "source.cluster.alias", aliases[i]);
        assert_int_equal(mm2_connector_from_json(f->json, &c, &err), MM2_CONFIG);
        assert_int_equal(err.code, MM2_CONFIG);
        (void)snprintf(want, sizeof(want),
                       "connector.config.\"source.cluster.alias\" \"%s\" has spaces around it; "
                       "remove them",
                       aliases[i]);
        assert_string_equal(err.msg, want);
        assert_null(c.config);
        mm2_connector_free(&c);
    }
    /* Spaces inside are the alias's own. */
    set_cfg(f, "source.cluster.alias", "my source");
    use_connector(f);
    assert_string_equal(f->conn.alias, "my source");
}

static void test_plan_connector_json_changed_blocks(void **state)
{
    struct fx *f = *state;
    char want[600], old[MM2_DIGEST_TEXT_LEN + 1];

    memcpy(old, f->ex.config_digest, sizeof(old));
    set_cfg(f, "tasks.max", "8");
    connector_now(f);
    assert_string_not_equal(old, f->conn.digest);
    (void)snprintf(want, sizeof(want),
                   "the connector JSON changed since the export (in 1 key: tasks.max (\"4\" in "
                   "the export, \"8\" in the JSON now)); export again with the JSON you will "
                   "apply [rule connector-config]");
    assert_refused(f, 1, want);
    /* An export written before views were recorded: the two digests, and why only those. */
    cJSON_Delete(f->ex.config_view);
    f->ex.config_view = NULL;
    (void)snprintf(want, sizeof(want),
                   "the connector JSON changed since the export (%s in the export, %s in the JSON "
                   "now, the export recorded only its digest); export again with the JSON you "
                   "will apply [rule connector-config]",
                   old, f->conn.digest);
    assert_refused(f, 1, want);
}

static void test_plan_connector_renamed_blocks(void **state)
{
    struct fx *f = *state;
    char want[600], old[MM2_DIGEST_TEXT_LEN + 1];

    memcpy(old, f->ex.config_digest, sizeof(old));
    cJSON_ReplaceItemInObjectCaseSensitive(f->json, "name", cJSON_CreateString("mm2-orders"));
    connector_now(f);
    (void)old;
    (void)snprintf(want, sizeof(want),
                   "the connector JSON names connector \"mm2-orders\" now, \"" NAME "\" at "
                   "export; export again with the JSON you will apply [rule connector-config]");
    assert_refused(f, 1, want);
}

static void test_plan_connect_on_another_cluster_blocks(void **state)
{
    struct fx *f = *state;

    (void)snprintf(f->ex.connect_cluster, sizeof(f->ex.connect_cluster), "OTHER-id");
    assert_refused(f, 1,
                   "Connect's workers store their offsets in Kafka cluster OTHER-id, but the "
                   "[target] cluster is " TGT_ID "; point [connect] url or [target] at the same "
                   "cluster [rule wrong-target]");
}

static void test_plan_flink_job_not_finished_or_canceled_blocks(void **state)
{
    static const char *const states[] = {"RUNNING",    "FAILING",    "FAILED",      "SUSPENDED",
                                         "RESTARTING", "CANCELLING", "INITIALIZING"};
    struct fx *f = *state;

    for (size_t i = 0; i < sizeof(states) / sizeof(states[0]); i++) {
        char want[400];
        (void)snprintf(f->ex.flink_job_state, sizeof(f->ex.flink_job_state), "%s", states[i]);
        (void)snprintf(want, sizeof(want),
                       "the Flink job was %s at export, not FINISHED or CANCELED; stop it with a "
                       "savepoint, disable its restarts, then export again [rule flink-running]",
                       states[i]);
        assert_refused(f, 1, want);
    }
}

static void test_plan_flink_job_canceled_or_finished_plans(void **state)
{
    struct fx *f = *state;

    (void)snprintf(f->ex.flink_job_state, sizeof(f->ex.flink_job_state), "CANCELED");
    assert_planned(f);
    (void)snprintf(f->ex.flink_job_state, sizeof(f->ex.flink_job_state), "FINISHED");
    assert_planned(f);
}

static void test_plan_stable_wait_must_exceed_the_checkpoint_interval(void **state)
{
    struct fx *f = *state;

    (void)snprintf(f->ex.flink_method, sizeof(f->ex.flink_method), "stable-offsets");
    f->ex.flink_job_state[0] = '\0';
    f->ex.stable_wait_ms = 60000;
    assert_refused(f, 1,
                   "the two reads were 60000 ms apart, not more than one Flink checkpoint "
                   "interval (60000 ms): that does not prove Flink stopped committing; export "
                   "with a longer --stable-wait or give [flink] rest.url and job.id "
                   "[rule flink-unproven]");
    f->ex.stable_wait_ms = 60001;
    assert_planned(f);
    f->ex.checkpoint_interval_ms = 0;
    assert_refused(f, 1,
                   "the two reads were 60001 ms apart, not more than one Flink checkpoint "
                   "interval (0 ms): that does not prove Flink stopped committing; export with a "
                   "longer --stable-wait or give [flink] rest.url and job.id "
                   "[rule flink-unproven]");
}

static void test_plan_active_group_members_block(void **state)
{
    struct fx *f = *state;

    f->ex.group_members = 2;
    (void)snprintf(f->ex.group_state, sizeof(f->ex.group_state), "Stable");
    assert_refused(f, 1,
                   "group flink-orders has 2 active members (state Stable); Flink's source uses "
                   "assign() and has none: something else is consuming with this group; stop it "
                   "[rule group-active]");
}

static void test_plan_reports_every_refusal_at_once(void **state)
{
    struct fx *f = *state;

    f->ex.group_members = 1;
    (void)snprintf(f->ex.flink_job_state, sizeof(f->ex.flink_job_state), "RUNNING");
    xtopic(f, "payments")->target_partitions = 4;
    part(f, "orders", 0)->committed[0] = part(f, "orders", 0)->committed[1] = MM2_OFFSET_NONE;
    part(f, "orders", 1)->committed[0] = part(f, "orders", 1)->committed[1] = 3000;
    assert_refused(f, 5,
                   "the Flink job was RUNNING at export, not FINISHED or CANCELED; stop it with a "
                   "savepoint, disable its restarts, then export again [rule flink-running]",
                   "group flink-orders has 1 active members (state Empty); Flink's source uses "
                   "assign() and has none: something else is consuming with this group; stop it "
                   "[rule group-active]",
                   "topic payments: the source has 1 partitions but target topic \"payments\" has "
                   "4; MM2 keeps partition numbers, so they must match [rule partition-count]",
                   "orders-0: group flink-orders has no committed offset; MM2 would start at "
                   "auto.offset.reset and copy the whole partition again (or skip it with "
                   "latest): find where Flink stopped [rule no-offset]",
                   "orders-1: committed offset C=3000 is beyond the log end 2000: not a position "
                   "in this partition (topic recreated? wrong cluster?); check the group and "
                   "cluster [rule beyond-end]");
}

/* ---- the connector rules (docs/ARCHITECTURE.md §6.3)
 * ------------------------------------------------- */

static void test_plan_connector_class_aliases_accepted(void **state)
{
    static const char *const ok[] = {"org.apache.kafka.connect.mirror.MirrorSourceConnector",
                                     "MirrorSourceConnector", "MirrorSource"};
    struct fx *f = *state;

    for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
        set_cfg(f, "connector.class", ok[i]);
        use_connector(f);
        assert_planned(f);
    }
}

static void test_plan_other_connector_classes_refused(void **state)
{
    struct fx *f = *state;

    set_cfg(f, "connector.class", "org.apache.kafka.connect.mirror.MirrorCheckpointConnector");
    use_connector(f);
    assert_refused(f, 1,
                   "connector " NAME ": connector.class is "
                   "\"org.apache.kafka.connect.mirror.MirrorCheckpointConnector\", not "
                   "org.apache.kafka.connect.mirror.MirrorSourceConnector; only "
                   "MirrorSourceConnector is migrated [rule connector-config]");
    set_cfg(f, "connector.class", "mirrorsource");
    use_connector(f);
    assert_refused(f, 1,
                   "connector " NAME ": connector.class is \"mirrorsource\", not "
                   "org.apache.kafka.connect.mirror.MirrorSourceConnector; only "
                   "MirrorSourceConnector is migrated [rule connector-config]");
    set_cfg(f, "connector.class", NULL);
    use_connector(f);
    assert_refused(f, 1,
                   "connector " NAME ": connector.class is \"(missing)\", not "
                   "org.apache.kafka.connect.mirror.MirrorSourceConnector; only "
                   "MirrorSourceConnector is migrated [rule connector-config]");
}

static void test_plan_enabled_keys_must_be_false(void **state)
{
    static const char *const keys[] = {"emit.offset-syncs.enabled", "sync.topic.configs.enabled",
                                       "sync.topic.acls.enabled"};
    static const char *const why[] = {"no offset-syncs topic on either cluster",
                                      "the target's topic configs stay the platform's",
                                      "the target's ACLs stay the platform's"};
    struct fx *f = *state;

    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
        char want[400];
        set_cfg(f, keys[i], "true");
        use_connector(f);
        (void)snprintf(want, sizeof(want),
                       "connector " NAME ": %s is \"true\"; set it to \"false\": %s "
                       "[rule connector-config]",
                       keys[i], why[i]);
        assert_refused(f, 1, want);
        set_cfg(f, keys[i], "false");
    }
}

static void test_plan_enabled_keys_false_in_any_case_and_trimmed(void **state)
{
    static const char *const keys[] = {"emit.offset-syncs.enabled", "sync.topic.configs.enabled",
                                       "sync.topic.acls.enabled"};
    static const char *const falses[] = {"FALSE", "False", " false", "false\t", " \tfAlSe  "};
    static const char *const others[] = {"no", "0", "f", "false.", "fa lse", ""};
    struct fx *f = *state;

    /* As Connect reads a BOOLEAN config: trimmed, case-insensitive. */
    for (size_t v = 0; v < sizeof(falses) / sizeof(falses[0]); v++) {
        for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
            set_cfg(f, keys[i], falses[v]);
        use_connector(f);
        assert_planned(f);
    }
    for (size_t v = 0; v < sizeof(others) / sizeof(others[0]); v++) {
        char want[400];
        set_cfg(f, "sync.topic.acls.enabled", others[v]);
        use_connector(f);
        (void)snprintf(want, sizeof(want),
                       "connector " NAME
                       ": sync.topic.acls.enabled is \"%s\"; set it to \"false\": "
                       "the target's ACLs stay the platform's [rule connector-config]",
                       others[v]);
        assert_refused(f, 1, want);
    }
}

static void test_plan_enabled_keys_unset_are_refused_naming_the_default(void **state)
{
    struct fx *f = *state;

    set_cfg(f, "sync.topic.acls.enabled", NULL);
    use_connector(f);
    assert_refused(f, 1,
                   "connector " NAME ": sync.topic.acls.enabled is unset (its default is true); "
                   "set it to \"false\": the target's ACLs stay the platform's [rule "
                   "connector-config]");
}

static void test_plan_earliest_needed_only_when_some_entry_is_null(void **state)
{
    struct fx *f = *state;
    struct mm2_xpart *p = part(f, "orders", 0);

    /* No null entry: auto.offset.reset does not matter. */
    set_cfg(f, "source.consumer.auto.offset.reset", "latest");
    use_connector(f);
    assert_planned(f);
    set_cfg(f, "source.consumer.auto.offset.reset", NULL);
    use_connector(f);
    assert_planned(f);
    /* A reset entry (C = 0) writes null: MM2 then starts at auto.offset.reset. */
    p->committed[0] = p->committed[1] = 0;
    assert_refused(f, 1,
                   "connector " NAME ": source.consumer.auto.offset.reset is unset but the plan "
                   "clears some partitions (null) so MM2 starts them at auto.offset.reset; set it "
                   "to \"earliest\" [rule connector-config]");
    set_cfg(f, "source.consumer.auto.offset.reset", "latest");
    use_connector(f);
    assert_refused(f, 1,
                   "connector " NAME ": source.consumer.auto.offset.reset is \"latest\" but the "
                   "plan clears some partitions (null) so MM2 starts them at auto.offset.reset; "
                   "set it to \"earliest\" [rule connector-config]");
    set_cfg(f, "source.consumer.auto.offset.reset", "earliest");
    use_connector(f);
    assert_planned(f);
}

static void test_plan_accepted_loss_also_needs_earliest(void **state)
{
    struct fx *f = *state;
    struct mm2_xpart *p = part(f, "orders", 1);

    p->committed[0] = p->committed[1] = 40;
    accept_loss(f, "orders", 1);
    set_cfg(f, "source.consumer.auto.offset.reset", "none");
    use_connector(f);
    assert_refused(f, 1,
                   "connector " NAME ": source.consumer.auto.offset.reset is \"none\" but the "
                   "plan clears some partitions (null) so MM2 starts them at auto.offset.reset; "
                   "set it to \"earliest\" [rule connector-config]");
}

static void test_plan_exactly_once_support_required_is_refused(void **state)
{
    static const char *const required[] = {"required", "REQUIRED", "Required"};
    static const char *const fine[] = {"requested", "REQUESTED"};
    struct fx *f = *state;

    for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++) {
        set_cfg(f, "exactly.once.support", required[i]);
        use_connector(f);
        assert_refused(f, 1,
                       "connector " NAME ": exactly.once.support is \"required\", but the "
                       "workers run plain source mode (exactly.once.source.support=disabled); "
                       "remove it [rule connector-config]");
    }
    for (size_t i = 0; i < sizeof(fine) / sizeof(fine[0]); i++) {
        set_cfg(f, "exactly.once.support", fine[i]);
        use_connector(f);
        assert_planned(f);
    }
}

static void test_plan_exactly_once_support_required_with_spaces_is_refused(void **state)
{
    static const char *const required[] = {" required ", "\tREQUIRED\n", "required  "};
    struct fx *f = *state;

    /* Connect trims the value (ExactlyOnceSupportLevel.fromProperty), so the rule does too. */
    for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++) {
        set_cfg(f, "exactly.once.support", required[i]);
        use_connector(f);
        assert_refused(f, 1,
                       "connector " NAME ": exactly.once.support is \"required\", but the "
                       "workers run plain source mode (exactly.once.source.support=disabled); "
                       "remove it [rule connector-config]");
    }
    set_cfg(f, "exactly.once.support", " requested ");
    use_connector(f);
    assert_planned(f);
}

static void test_connector_rules_all_broken_at_once(void **state)
{
    struct fx *f = *state;
    struct mm2_refusals r = {0};

    set_cfg(f, "connector.class", "MirrorHeartbeat");
    set_cfg(f, "emit.offset-syncs.enabled", "TRUE");
    set_cfg(f, "sync.topic.configs.enabled", "true");
    set_cfg(f, "sync.topic.acls.enabled", "1");
    set_cfg(f, "source.consumer.auto.offset.reset", "latest");
    connector_now(f);
    mm2_connector_rules(&f->conn, true, &r);
    assert_int_equal(r.n, 5);
    assert_string_equal(r.line[0],
                        "connector " NAME ": connector.class is \"MirrorHeartbeat\", "
                        "not org.apache.kafka.connect.mirror.MirrorSourceConnector; "
                        "only MirrorSourceConnector is migrated [rule connector-config]");
    assert_string_equal(r.line[1], "connector " NAME ": emit.offset-syncs.enabled is \"TRUE\"; "
                                   "set it to \"false\": no offset-syncs topic on either "
                                   "cluster [rule connector-config]");
    assert_string_equal(r.line[2], "connector " NAME ": sync.topic.configs.enabled is \"true\"; "
                                   "set it to \"false\": the target's topic configs stay the "
                                   "platform's [rule connector-config]");
    assert_string_equal(r.line[3], "connector " NAME ": sync.topic.acls.enabled is \"1\"; set it "
                                   "to \"false\": the target's ACLs stay the platform's "
                                   "[rule connector-config]");
    assert_string_equal(r.line[4], "connector " NAME ": source.consumer.auto.offset.reset is "
                                   "\"latest\" but the plan clears some partitions (null) so MM2 "
                                   "starts them at auto.offset.reset; set it to \"earliest\" "
                                   "[rule connector-config]");
    mm2_refusals_free(&r);
    mm2_connector_rules(&f->conn, false, &r);
    assert_int_equal(r.n, 4);
    mm2_refusals_free(&r);
}

/* ---- the PATCH body -------------------------------------------------------------------------- */

static void test_patch_body_exact_text(void **state)
{
    struct fx *f = *state;
    char *body;

    part(f, "orders", 1)->committed[0] = part(f, "orders", 1)->committed[1] = 40;
    part(f, "payments", 0)->log_start[0] = part(f, "payments", 0)->log_start[1] = 0;
    part(f, "payments", 0)->committed[0] = part(f, "payments", 0)->committed[1] = 0;
    accept_loss(f, "orders", 1);
    assert_planned(f);
    body = mm2_plan_patch_body(&f->plan);
    assert_non_null(body);
    assert_string_equal(body, "{\"offsets\":["
                              "{\"partition\":{\"cluster\":\"source\",\"topic\":\"orders\","
                              "\"partition\":0},\"offset\":{\"offset\":999}},"
                              "{\"partition\":{\"cluster\":\"source\",\"topic\":\"orders\","
                              "\"partition\":1},\"offset\":null},"
                              "{\"partition\":{\"cluster\":\"source\",\"topic\":\"payments\","
                              "\"partition\":0},\"offset\":null}]}");
    free(body);
}

static void test_patch_body_of_an_empty_plan(void **state)
{
    struct mm2_plan p;
    char *body;

    (void)state;
    memset(&p, 0, sizeof(p));
    body = mm2_plan_patch_body(&p);
    assert_string_equal(body, "{\"offsets\":[]}");
    free(body);
}

static void test_patch_body_keeps_large_offsets_exact(void **state)
{
    struct fx *f = *state;
    struct mm2_xpart *p = part(f, "orders", 0);
    char *body;

    p->log_end[0] = p->log_end[1] = MM2_JSON_INT_MAX;
    p->committed[0] = p->committed[1] = 1000000000000000LL;
    assert_planned(f);
    body = mm2_plan_patch_body(&f->plan);
    assert_non_null(strstr(body, "\"offset\":{\"offset\":999999999999999}"));
    free(body);
}

/* ---- the plan artifact ----------------------------------------------------------------------- */

static const char *const PLAN_TEXT_TAIL =
    "  \"flink\": {\"group_id\": \"flink-orders\"},\n"
    "  \"topics\": [\n"
    "    {\"name\": \"orders\", \"partitions\": 2, \"target\": \"orders\", \"target_partitions\": "
    "2, \"flink_target\": \"orders\"},\n"
    "    {\"name\": \"payments\", \"partitions\": 1, \"target\": \"payments\", "
    "\"target_partitions\": 1, \"flink_target\": \"payments\"}\n"
    "  ],\n"
    "  \"partitions\": [\n"
    "    {\"topic\": \"orders\", \"partition\": 0, \"c\": 1000, \"m\": 999, \"action\": "
    "\"offset\", \"log_start\": 0, \"log_end\": 1500, \"lost\": 0, \"target_topic\": \"orders\", "
    "\"target_start\": 7000, \"boundary\": \"\", \"group_c\": 1000, \"duplicates\": 0, \"gap\": "
    "0},\n"
    "    {\"topic\": \"orders\", \"partition\": 1, \"c\": 40, \"m\": null, \"action\": "
    "\"accept-loss\", \"log_start\": 100, \"log_end\": 2000, \"lost\": 60, \"target_topic\": "
    "\"orders\", \"target_start\": 7000, \"boundary\": \"\", \"group_c\": 40, \"duplicates\": 0, "
    "\"gap\": 0},\n"
    "    {\"topic\": \"payments\", \"partition\": 0, \"c\": 0, \"m\": null, \"action\": "
    "\"reset\", \"log_start\": 0, \"log_end\": 50, \"lost\": 0, \"target_topic\": \"payments\", "
    "\"target_start\": 7000, \"boundary\": \"\", \"group_c\": 0, \"duplicates\": 0, \"gap\": 0}\n"
    "  ],\n"
    "  \"summary\": {\"partitions\": 3, \"offsets\": 1, \"resets\": 1, \"accepted_losses\": 1, "
    "\"records_lost\": 60, \"boundary_duplicates\": 0, \"gap_records\": 0}\n"
    "}\n";

/* The fixture planned with one entry of each action. */
static void plan_each_action(struct fx *f)
{
    part(f, "orders", 1)->committed[0] = part(f, "orders", 1)->committed[1] = 40;
    part(f, "payments", 0)->log_start[0] = part(f, "payments", 0)->log_start[1] = 0;
    part(f, "payments", 0)->committed[0] = part(f, "payments", 0)->committed[1] = 0;
    accept_loss(f, "orders", 1);
    assert_planned(f);
}

static cJSON *plan_json(struct fx *f)
{
    cJSON *j = NULL;
    struct mm2_error err = {0};

    assert_int_equal(mm2_plan_to_json(&f->plan, &j, &err), MM2_OK);
    return j;
}

static void test_plan_to_json_exact_text(void **state)
{
    struct fx *f = *state;
    cJSON *j;
    char *text, *view, want[8192];

    plan_each_action(f);
    j = plan_json(f);
    text = mm2_json_print(j, true);
    view = mm2_json_print(f->conn.view, true);
    assert_non_null(view);
    view[strlen(view) - 1] = '\0'; /* its newline */
    (void)snprintf(want, sizeof(want),
                   "{\n"
                   "  \"kind\": \"mm2kit.plan/v1\",\n"
                   "  \"tool\": \"mm2-offsets %s\",\n"
                   "  \"created\": \"2026-12-02T15:00:00Z\",\n"
                   "  \"export_digest\": \"" EXPORT_DIGEST "\",\n"
                   "  \"source_cluster_id\": \"" SRC_ID "\",\n"
                   "  \"target_cluster_id\": \"" TGT_ID "\",\n"
                   "  \"connect\": {\"version\": \"4.3.1\"},\n"
                   "  \"connector\": {\n"
                   "    \"name\": \"" NAME "\",\n"
                   "    \"source_alias\": \"source\",\n"
                   "    \"config_digest\": \"%s\",\n"
                   "    \"config\": %s\n"
                   "  },\n"
                   "%s",
                   MM2KIT_VERSION, f->conn.digest, view, PLAN_TEXT_TAIL);
    assert_string_equal(text, want);
    free(text);
    free(view);
    cJSON_Delete(j);
}

static void test_plan_round_trips_through_json(void **state)
{
    struct fx *f = *state;
    struct mm2_plan back;
    struct mm2_error err = {0};
    cJSON *j, *again;
    char digest[MM2_DIGEST_TEXT_LEN + 1];

    plan_each_action(f);
    j = plan_json(f);
    assert_int_equal(mm2_artifact_seal(j, digest, &err), MM2_OK);
    assert_int_equal(mm2_plan_from_json(j, &back, &err), MM2_OK);
    assert_string_equal(back.digest, digest);
    assert_string_equal(back.created, f->plan.created);
    assert_string_equal(back.export_digest, f->plan.export_digest);
    assert_string_equal(back.source_cluster, SRC_ID);
    assert_string_equal(back.target_cluster, TGT_ID);
    assert_string_equal(back.connect_version, "4.3.1");
    assert_string_equal(back.connector, NAME);
    assert_string_equal(back.alias, "source");
    assert_string_equal(back.config_digest, f->conn.digest);
    assert_string_equal(back.group, "flink-orders");
    assert_int_equal(back.ntopics, 2);
    assert_int_equal(back.n, 3);
    for (size_t i = 0; i < back.n; i++) {
        const struct mm2_pentry *a = &f->plan.entries[i], *b = &back.entries[i];
        assert_string_equal(a->topic, b->topic);
        assert_int_equal(a->partition, b->partition);
        assert_entry(b, a->action, a->c, a->m, a->log_start, a->log_end, a->lost);
        assert_string_equal(a->target_topic, b->target_topic);
        assert_int_equal(a->target_start, b->target_start);
    }
    /* And the same JSON again (the digest aside). */
    memcpy(back.created, f->plan.created, sizeof(back.created));
    assert_int_equal(mm2_plan_to_json(&back, &again, &err), MM2_OK);
    cJSON_DeleteItemFromObjectCaseSensitive(j, "digest");
    assert_true(cJSON_Compare(j, again, true));
    cJSON_Delete(again);
    cJSON_Delete(j);
    mm2_plan_free(&back);
}

static void test_plan_to_json_refuses_offsets_above_two_to_the_fifty_three(void **state)
{
    struct fx *f = *state;
    struct mm2_error err = {0};
    cJSON *j = (cJSON *)1;

    assert_planned(f);
    f->plan.entries[0].log_end = MM2_JSON_INT_MAX + 1;
    assert_int_equal(mm2_plan_to_json(&f->plan, &j, &err), MM2_UNEXPECTED);
    assert_null(j);
    assert_string_equal(err.msg, "out of memory, or an offset above 2^53");
}

/* Edits member key of the object at path ("" root, "connector", "topics[1]", "partitions[0]"). */
static void edit(cJSON *root, const char *path, const char *key, const char *json)
{
    cJSON *o = root;

    if (path[0] != '\0') {
        const char *b = strchr(path, '[');
        size_t n = b != NULL ? (size_t)(b - path) : strlen(path);
        char name[32];
        assert_true(n < sizeof(name));
        memcpy(name, path, n);
        name[n] = '\0';
        o = cJSON_GetObjectItemCaseSensitive(root, name);
        if (b != NULL)
            o = cJSON_GetArrayItem(o, (int)strtol(b + 1, NULL, 10));
    }
    assert_non_null(o);
    if (json == NULL) {
        cJSON_DeleteItemFromObjectCaseSensitive(o, key);
    } else {
        cJSON *v = cJSON_Parse(json);
        assert_non_null(v);
        if (cJSON_GetObjectItemCaseSensitive(o, key) != NULL)
            cJSON_ReplaceItemInObjectCaseSensitive(o, key, v);
        else
            cJSON_AddItemToObject(o, key, v);
    }
}

/* Rebuilds array arr with the items at the given indexes of the old one, in that order (an index
 * may repeat). cJSON_InsertItemInArray is not used: Debian's 1.7.15-1+deb12u4 refuses any index
 * above 0. */
static void arrange(cJSON *arr, const int *idx, size_t n)
{
    cJSON *old = cJSON_CreateArray(), *item;

    while ((item = cJSON_DetachItemFromArray(arr, 0)) != NULL)
        cJSON_AddItemToArray(old, item);
    for (size_t i = 0; i < n; i++) {
        item = cJSON_Duplicate(cJSON_GetArrayItem(old, idx[i]), true);
        assert_non_null(item);
        cJSON_AddItemToArray(arr, item);
    }
    cJSON_Delete(old);
}

struct plan_edit {
    const char *path;
    const char *key;
    const char *json;
    const char *message;
};

static void test_plan_from_json_refuses_each_bad_member(void **state)
{
    static const struct plan_edit cases[] = {
        {"", "created", NULL, "plan.created is missing"},
        {"", "created", "1", "plan.created is not a string"},
        {"", "export_digest", "\"sha256:x\"", "plan.export_digest is not a sha256:<64 hex> digest"},
        {"", "source_cluster_id",
         "\"0123456789012345678901234567890123456789012345678901234567890123\"",
         "plan.source_cluster_id is longer than 63 bytes"},
        {"", "connect", "[]", "plan.connect is not an object"},
        {"connect", "version", NULL, "plan.connect.version is missing"},
        {"connector", "source_alias", "null", "plan.connector.source_alias is not a string"},
        {"connector", "config_digest", "\"\"",
         "plan.connector.config_digest is not a sha256:<64 hex> digest"},
        {"flink", "group_id", NULL, "plan.flink.group_id is missing"},
        {"", "topics", "{}", "plan.topics is not an array"},
        {"topics[0]", "name", "\"a b\"",
         "topics[0].name is not a topic name: topic name \"a b\" has an illegal character at "
         "position 2 (allowed: [a-zA-Z0-9._-])"},
        {"topics[0]", "partitions", "0", "topics[0].partitions is 0, outside 1..2147483647"},
        {"topics[1]", "target_partitions", "null", "topics[1].target_partitions is not an integer"},
        {"topics[1]", "name", "\"orders\"", "topics[1].name is out of order or repeated"},
        {"", "partitions", NULL, "plan.partitions is missing"},
        {"partitions[0]", "c", "\"1000\"", "partitions[0].c is not an integer"},
        {"partitions[0]", "c", "-1", "partitions[0].c is -1, outside 0..9007199254740991"},
        {"partitions[0]", "c", "1000.5", "partitions[0].c is not an integer"},
        {"partitions[0]", "partition", "2147483647",
         "partitions[0].partition is 2147483647, outside 0..2147483646"},
        {"partitions[0]", "m", "998",
         "partitions[0]: an \"offset\" entry needs m = c - 1 with log_start <= c <= log_end and "
         "lost 0"},
        {"partitions[0]", "m", "null",
         "partitions[0]: an \"offset\" entry needs m = c - 1 with log_start <= c <= log_end and "
         "lost 0"},
        {"partitions[0]", "log_end", "999",
         "partitions[0]: an \"offset\" entry needs m = c - 1 with log_start <= c <= log_end and "
         "lost 0"},
        {"partitions[0]", "log_start", "1001",
         "partitions[0]: an \"offset\" entry needs m = c - 1 with log_start <= c <= log_end and "
         "lost 0"},
        {"partitions[0]", "lost", "1",
         "partitions[0]: an \"offset\" entry needs m = c - 1 with log_start <= c <= log_end and "
         "lost 0"},
        {"partitions[1]", "lost", "59",
         "partitions[1]: an \"accept-loss\" entry needs c < log_start, m null and lost = "
         "log_start - c"},
        {"partitions[1]", "m", "39",
         "partitions[1]: an \"accept-loss\" entry needs c < log_start, m null and lost = "
         "log_start - c"},
        {"partitions[1]", "action", "\"offset\"",
         "partitions[1]: an \"offset\" entry needs m = c - 1 with log_start <= c <= log_end and "
         "lost 0"},
        {"partitions[2]", "c", "1",
         "partitions[2]: a \"reset\" entry needs c = 0 = log_start, m null, lost 0"},
        {"partitions[2]", "log_start", "1",
         "partitions[2]: a \"reset\" entry needs c = 0 = log_start, m null, lost 0"},
        {"partitions[2]", "m", "0",
         "partitions[2]: a \"reset\" entry needs c = 0 = log_start, m null, lost 0"},
        {"partitions[0]", "action", "\"skip\"",
         "partitions[0].action must be offset, reset or accept-loss, got \"skip\""},
        {"partitions[0]", "action", "\"offset-or-something\"",
         "partitions[0].action is longer than 15 bytes"},
        {"partitions[0]", "topic", "\"audit\"",
         "partitions[0]: audit-0 is not a partition of the plan's topics"},
        {"partitions[2]", "partition", "1",
         "partitions[2]: payments-1 is not a partition of the plan's topics"},
        {"partitions[0]", "target_topic", "\"orders-copy\"",
         "partitions[0]: orders-0 is not a partition of the plan's topics"},
        {"partitions[1]", "partition", "0", "partitions[1] is out of order or repeated"},
        {"partitions[0]", "target_start", "-5",
         "partitions[0].target_start is -5, outside 0..9007199254740991"},
    };
    struct fx *f = *state;

    plan_each_action(f);
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        cJSON *j = plan_json(f);
        struct mm2_plan back;
        struct mm2_error err = {0};
        edit(j, cases[i].path, cases[i].key, cases[i].json);
        if (mm2_plan_from_json(j, &back, &err) != MM2_CONFIG || err.code != MM2_CONFIG ||
            strcmp(err.msg, cases[i].message) != 0)
            fail_msg("case %zu (%s.%s): got code %d \"%s\"", i, cases[i].path, cases[i].key,
                     err.code, err.msg);
        mm2_plan_free(&back);
        cJSON_Delete(j);
    }
}

static void test_plan_from_json_refuses_reordered_or_missing_partitions(void **state)
{
    struct fx *f = *state;
    struct mm2_plan back;
    struct mm2_error err = {0};
    cJSON *j;

    plan_each_action(f);
    /* orders-1 before orders-0 */
    j = plan_json(f);
    arrange(cJSON_GetObjectItemCaseSensitive(j, "partitions"), (const int[]){1, 0, 2}, 3);
    assert_int_equal(mm2_plan_from_json(j, &back, &err), MM2_CONFIG);
    assert_string_equal(err.msg, "partitions[1] is out of order or repeated");
    mm2_plan_free(&back);
    cJSON_Delete(j);
    /* orders-0 twice */
    j = plan_json(f);
    arrange(cJSON_GetObjectItemCaseSensitive(j, "partitions"), (const int[]){0, 0, 1, 2}, 4);
    assert_int_equal(mm2_plan_from_json(j, &back, &err), MM2_CONFIG);
    assert_string_equal(err.msg, "partitions[1] is out of order or repeated");
    mm2_plan_free(&back);
    cJSON_Delete(j);
    /* orders-1 missing */
    j = plan_json(f);
    cJSON_DeleteItemFromArray(cJSON_GetObjectItemCaseSensitive(j, "partitions"), 1);
    assert_int_equal(mm2_plan_from_json(j, &back, &err), MM2_CONFIG);
    assert_string_equal(err.msg, "plan lists 2 partitions but its topics have 3");
    mm2_plan_free(&back);
    cJSON_Delete(j);
    /* a topic dropped with its partitions is consistent again, but payments-0 is now foreign */
    j = plan_json(f);
    cJSON_DeleteItemFromArray(cJSON_GetObjectItemCaseSensitive(j, "topics"), 1);
    assert_int_equal(mm2_plan_from_json(j, &back, &err), MM2_CONFIG);
    assert_string_equal(err.msg, "partitions[2]: payments-0 is not a partition of the plan's "
                                 "topics");
    mm2_plan_free(&back);
    cJSON_Delete(j);
}

static void test_plan_from_json_refuses_non_object_and_ignores_invalid_digest(void **state)
{
    struct fx *f = *state;
    struct mm2_plan back;
    struct mm2_error err = {0};
    cJSON *j = cJSON_Parse("[]");

    assert_int_equal(mm2_plan_from_json(j, &back, &err), MM2_CONFIG);
    assert_string_equal(err.msg, "plan is not an object");
    mm2_plan_free(&back);
    cJSON_Delete(j);
    plan_each_action(f);
    j = plan_json(f);
    cJSON_AddStringToObject(j, "digest", "not a digest");
    assert_int_equal(mm2_plan_from_json(j, &back, &err), MM2_OK);
    assert_string_equal(back.digest, "");
    mm2_plan_free(&back);
    cJSON_Delete(j);
}

static void test_plan_find_and_free(void **state)
{
    struct fx *f = *state;
    struct mm2_plan empty;

    assert_planned(f);
    assert_int_equal(entry(f, "payments", 0)->c, 10);
    assert_null(mm2_plan_find(&f->plan, "payments", 1));
    assert_null(mm2_plan_find(&f->plan, "zzz", 0));
    assert_null(mm2_plan_find(&f->plan, "a", 0));
    memset(&empty, 0, sizeof(empty));
    assert_null(mm2_plan_find(&empty, "orders", 0));
    mm2_plan_free(&empty);
    mm2_plan_free(NULL);
    mm2_plan_free(&f->plan);
    mm2_plan_free(&f->plan);
    assert_int_equal(f->plan.n, 0);
}

/* ---- the export artifact --------------------------------------------------------------------- */

static cJSON *export_json(const struct mm2_export *ex)
{
    cJSON *j = NULL;
    struct mm2_error err = {0};

    if (mm2_export_to_json(ex, &j, &err) != MM2_OK)
        fail_msg("export_to_json: %s", err.msg);
    return j;
}

static void test_export_to_json_exact_text(void **state)
{
    struct fx *f = *state;
    cJSON *j;
    char *text, *view, want[8192];

    xtopic(f, "payments")->target_partitions = -1;
    part(f, "payments", 0)->target_hw[0] = part(f, "payments", 0)->target_hw[1] = -1;
    part(f, "payments", 0)->target_lso[0] = part(f, "payments", 0)->target_lso[1] = -1;
    part(f, "orders", 1)->committed[0] = MM2_OFFSET_NONE;
    xtopic(f, "orders")->compacted = true;
    j = export_json(&f->ex);
    text = mm2_json_print(j, true);
    view = mm2_json_print(f->ex.config_view, true);
    assert_non_null(view);
    view[strlen(view) - 1] = '\0'; /* its newline */
    (void)snprintf(
        want, sizeof(want),
        "{\n"
        "  \"kind\": \"mm2kit.export/v1\",\n"
        "  \"tool\": \"mm2-offsets %s\",\n"
        "  \"created\": \"2026-12-02T15:00:00Z\",\n"
        "  \"source_cluster_id\": \"" SRC_ID "\",\n"
        "  \"target_cluster_id\": \"" TGT_ID "\",\n"
        "  \"connect\": {\"version\": \"4.3.1\", \"kafka_cluster_id\": \"" TGT_ID "\"},\n"
        "  \"connector\": {\n"
        "    \"name\": \"" NAME "\",\n"
        "    \"source_alias\": \"source\",\n"
        "    \"config_digest\": \"%s\",\n"
        "    \"config\": %s\n"
        "  },\n"
        "  \"flink\": {\"group_id\": \"flink-orders\", \"group_state\": \"Empty\", "
        "\"group_members\": 0, \"stopped_by\": \"flink-rest\", \"job_state\": \"FINISHED\", "
        "\"checkpoint_interval_ms\": 60000},\n"
        "  \"stable_wait_ms\": 5000,\n"
        "  \"topics\": [\n"
        "    {\"name\": \"audit\", \"partitions\": 1, \"replicated\": false},\n"
        "    {\"name\": \"orders\", \"partitions\": 2, \"replicated\": true, \"target\": "
        "\"orders\", \"target_partitions\": 2, \"flink_target\": \"orders\", \"compacted\": "
        "true},\n"
        "    {\"name\": \"payments\", \"partitions\": 1, \"replicated\": true, \"target\": "
        "\"payments\", \"target_partitions\": null, \"flink_target\": \"payments\", "
        "\"compacted\": false}\n"
        "  ],\n"
        "  \"partitions\": [\n"
        "    {\"topic\": \"orders\", \"partition\": 0, \"committed\": [1000, 1000], \"log_start\": "
        "[0, 0], \"log_end\": [1500, 1500], \"target_hw\": [7000, 7000], \"target_lso\": [7000, "
        "7000]},\n"
        "    {\"topic\": \"orders\", \"partition\": 1, \"committed\": [null, 2000], "
        "\"log_start\": [100, 100], \"log_end\": [2000, 2000], \"target_hw\": [7000, 7000], "
        "\"target_lso\": [7000, 7000]},\n"
        "    {\"topic\": \"payments\", \"partition\": 0, \"committed\": [10, 10], \"log_start\": "
        "[5, 5], \"log_end\": [50, 50], \"target_hw\": [null, null], \"target_lso\": [null, "
        "null]}\n"
        "  ]\n"
        "}\n",
        MM2KIT_VERSION, f->conn.digest, view);
    assert_string_equal(text, want);
    free(text);
    free(view);
    cJSON_Delete(j);
}

/* The target topics' configs export recorded (for accept) go into the plan and both artifacts
 * read them back; an export or plan from before they were recorded reads with none, and a
 * value that is not a string is refused. */
static void test_target_configs_go_from_export_to_plan_and_back(void **state)
{
    struct fx *f = *state;
    struct mm2_export back;
    struct mm2_plan pback;
    struct mm2_error err = {0};
    cJSON *j, *cfg = cJSON_Parse("{\"cleanup.policy\": \"delete\", \"retention.ms\": \"3600000\"}");

    xtopic(f, "orders")->target_configs = cfg;
    j = export_json(&f->ex);
    assert_int_equal(mm2_export_from_json(j, &back, &err), MM2_OK);
    assert_true(cJSON_Compare(back.topics[1].target_configs, cfg, true));
    assert_null(back.topics[2].target_configs);
    mm2_export_free(&back);
    cJSON_AddItemToObject(
        cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "topics"), 1),
                            "target_configs"),
        "segment.bytes", cJSON_CreateNumber(1));
    assert_int_equal(mm2_export_from_json(j, &back, &err), MM2_CONFIG);
    mm2_export_free(&back);
    cJSON_Delete(j);
    assert_planned(f);
    assert_true(cJSON_Compare(f->plan.topics[0].target_configs, cfg, true));
    assert_null(f->plan.topics[1].target_configs);
    j = plan_json(f);
    assert_int_equal(mm2_plan_from_json(j, &pback, &err), MM2_OK);
    assert_true(cJSON_Compare(pback.topics[0].target_configs, cfg, true));
    assert_null(pback.topics[1].target_configs);
    mm2_plan_free(&pback);
    cJSON_Delete(j);
}

static void test_export_round_trips_through_json(void **state)
{
    struct fx *f = *state;
    struct mm2_export back;
    struct mm2_error err = {0};
    char digest[MM2_DIGEST_TEXT_LEN + 1];
    cJSON *j, *again;

    xtopic(f, "payments")->target_partitions = -1;
    part(f, "payments", 0)->target_hw[0] = part(f, "payments", 0)->target_hw[1] = -1;
    part(f, "payments", 0)->target_lso[0] = part(f, "payments", 0)->target_lso[1] = -1;
    part(f, "orders", 1)->committed[0] = part(f, "orders", 1)->committed[1] = MM2_OFFSET_NONE;
    (void)snprintf(f->ex.flink_method, sizeof(f->ex.flink_method), "stable-offsets");
    xtopic(f, "payments")->compacted = true;
    j = export_json(&f->ex);
    assert_int_equal(mm2_artifact_seal(j, digest, &err), MM2_OK);
    assert_int_equal(mm2_export_from_json(j, &back, &err), MM2_OK);
    assert_string_equal(back.digest, digest);
    assert_string_equal(back.created, f->ex.created);
    assert_string_equal(back.source_cluster, SRC_ID);
    assert_string_equal(back.target_cluster, TGT_ID);
    assert_string_equal(back.connect_version, "4.3.1");
    assert_string_equal(back.connect_cluster, TGT_ID);
    assert_string_equal(back.connector, NAME);
    assert_string_equal(back.alias, "source");
    assert_string_equal(back.config_digest, f->conn.digest);
    assert_string_equal(back.group, "flink-orders");
    assert_string_equal(back.group_state, "Empty");
    assert_int_equal(back.group_members, 0);
    assert_string_equal(back.flink_method, "stable-offsets");
    assert_string_equal(back.flink_job_state, "FINISHED");
    assert_int_equal(back.checkpoint_interval_ms, 60000);
    assert_int_equal(back.stable_wait_ms, 5000);
    assert_int_equal(back.ntopics, 3);
    assert_false(back.topics[0].replicated);
    assert_null(back.topics[0].target);
    assert_null(back.topics[0].flink_target);
    assert_int_equal(back.topics[0].target_partitions, -1);
    assert_true(back.topics[2].replicated);
    assert_int_equal(back.topics[2].target_partitions, -1);
    assert_true(back.topics[2].compacted);
    assert_false(back.topics[1].compacted);
    assert_int_equal(back.nparts, 3);
    for (size_t i = 0; i < 3; i++) {
        const struct mm2_xpart *a = &f->ex.parts[i], *b = &back.parts[i];
        assert_string_equal(a->topic, b->topic);
        assert_int_equal(a->partition, b->partition);
        assert_memory_equal(a->committed, b->committed, sizeof(a->committed));
        assert_memory_equal(a->log_start, b->log_start, sizeof(a->log_start));
        assert_memory_equal(a->log_end, b->log_end, sizeof(a->log_end));
        assert_memory_equal(a->target_hw, b->target_hw, sizeof(a->target_hw));
        assert_memory_equal(a->target_lso, b->target_lso, sizeof(a->target_lso));
    }
    assert_int_equal(back.parts[1].committed[0], MM2_OFFSET_NONE);
    assert_int_equal(back.parts[2].target_hw[1], -1);
    again = export_json(&back);
    cJSON_DeleteItemFromObjectCaseSensitive(j, "digest");
    assert_true(cJSON_Compare(j, again, true));
    cJSON_Delete(again);
    cJSON_Delete(j);
    mm2_export_free(&back);
}

static void test_export_to_json_refuses_offsets_above_two_to_the_fifty_three(void **state)
{
    struct fx *f = *state;
    struct mm2_error err = {0};
    cJSON *j = (cJSON *)1;

    part(f, "orders", 0)->log_end[1] = MM2_JSON_INT_MAX + 1;
    assert_int_equal(mm2_export_to_json(&f->ex, &j, &err), MM2_UNEXPECTED);
    assert_null(j);
    assert_string_equal(err.msg, "out of memory, or an offset above 2^53");
}

static void test_export_from_json_refuses_each_bad_member(void **state)
{
    static const struct plan_edit cases[] = {
        {"", "created", NULL, "export.created is missing"},
        {"", "target_cluster_id", "7", "export.target_cluster_id is not a string"},
        {"connect", "kafka_cluster_id", NULL, "export.connect.kafka_cluster_id is missing"},
        {"connector", "config_digest", "\"sha256:abc\"",
         "export.connector.config_digest is not a sha256:<64 hex> digest"},
        {"flink", "group_members", "1000001",
         "export.flink.group_members is 1000001, outside 0..1000000"},
        {"flink", "group_members", "-1", "export.flink.group_members is -1, outside 0..1000000"},
        {"flink", "stopped_by", "\"guess\"",
         "export.flink.stopped_by must be flink-rest or stable-offsets"},
        {"flink", "job_state", NULL, "export.flink.job_state is missing"},
        {"flink", "checkpoint_interval_ms", "604800001",
         "export.flink.checkpoint_interval_ms is 604800001, outside 0..604800000"},
        {"", "stable_wait_ms", "-1", "export.stable_wait_ms is -1, outside 0..86400000"},
        {"", "stable_wait_ms", "86400001",
         "export.stable_wait_ms is 86400001, outside 0..86400000"},
        {"topics[1]", "name", "\"audit\"", "topics[1].name \"audit\" is out of order or repeated"},
        {"topics[1]", "replicated", "\"yes\"", "topics[1].replicated is not a boolean"},
        {"topics[1]", "target", NULL, "topics[1].target is missing"},
        {"topics[1]", "target_partitions", "0",
         "topics[1].target_partitions is 0, outside 1..2147483647"},
        {"topics[1]", "flink_target", "\"\"",
         "topics[1].flink_target is not a topic name: topic name is empty"},
        {"topics[1]", "partitions", "1",
         "partitions[1]: orders-1 is not a partition of a replicated topic"},
        {"topics[1]", "partitions", "3",
         "export lists 3 partitions but its replicated topics have 4"},
        {"topics[1]", "replicated", "false",
         "partitions[0]: orders-0 is not a partition of a replicated topic"},
        {"topics[0]", "replicated", "true", "topics[0].target is missing"},
        {"partitions[0]", "committed", "[1000]",
         "partitions[0].committed must hold the two reads, [first, second]"},
        {"partitions[0]", "committed", "[1000, 1000, 1000]",
         "partitions[0].committed must hold the two reads, [first, second]"},
        {"partitions[0]", "committed", "[1000, -1]",
         "partitions[0].committed[1] is not an offset (an integer >= 0) or null"},
        {"partitions[0]", "committed", "[1000.5, 1000]",
         "partitions[0].committed[0] is not an offset (an integer >= 0) or null"},
        {"partitions[0]", "committed", "[\"1000\", 1000]",
         "partitions[0].committed[0] is not an offset (an integer >= 0) or null"},
        {"partitions[0]", "committed", "{}", "partitions[0].committed is not an array"},
        {"partitions[0]", "target_hw", "[9007199254740992, 1]",
         "partitions[0].target_hw[0] is not an offset (an integer >= 0) or null"},
        {"partitions[0]", "log_start", "[null, 0]",
         "partitions[0]: log_start and log_end must be offsets with start <= end"},
        {"partitions[0]", "log_end", "[1500, null]",
         "partitions[0]: log_start and log_end must be offsets with start <= end"},
        {"partitions[0]", "log_start", "[0, 1501]",
         "partitions[0]: log_start and log_end must be offsets with start <= end"},
        {"partitions[0]", "topic", "\"audit\"",
         "partitions[0]: audit-0 is not a partition of a replicated topic"},
        {"partitions[0]", "topic", "\"nope\"",
         "partitions[0]: nope-0 is not a partition of a replicated topic"},
        {"partitions[1]", "partition", "2",
         "partitions[1]: orders-2 is not a partition of a replicated topic"},
        {"partitions[1]", "partition", "0", "partitions[1] is out of order or repeated"},
        {"partitions[0]", "partition", "-1",
         "partitions[0].partition is -1, outside 0..2147483646"},
    };
    struct fx *f = *state;

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        cJSON *j = export_json(&f->ex);
        struct mm2_export back;
        struct mm2_error err = {0};
        edit(j, cases[i].path, cases[i].key, cases[i].json);
        if (mm2_export_from_json(j, &back, &err) != MM2_CONFIG || err.code != MM2_CONFIG ||
            strcmp(err.msg, cases[i].message) != 0)
            fail_msg("case %zu (%s.%s): got code %d \"%s\"", i, cases[i].path, cases[i].key,
                     err.code, err.msg);
        mm2_export_free(&back);
        cJSON_Delete(j);
    }
}

static void test_export_from_json_refuses_reordered_or_missing_partitions(void **state)
{
    struct fx *f = *state;
    struct mm2_export back;
    struct mm2_error err = {0};
    cJSON *j;

    j = export_json(&f->ex);
    arrange(cJSON_GetObjectItemCaseSensitive(j, "partitions"), (const int[]){2, 0, 1}, 3);
    assert_int_equal(mm2_export_from_json(j, &back, &err), MM2_CONFIG);
    assert_string_equal(err.msg, "partitions[1] is out of order or repeated");
    mm2_export_free(&back);
    cJSON_Delete(j);
    j = export_json(&f->ex);
    cJSON_DeleteItemFromArray(cJSON_GetObjectItemCaseSensitive(j, "partitions"), 1);
    assert_int_equal(mm2_export_from_json(j, &back, &err), MM2_CONFIG);
    assert_string_equal(err.msg, "export lists 2 partitions but its replicated topics have 3");
    mm2_export_free(&back);
    cJSON_Delete(j);
    j = export_json(&f->ex);
    arrange(cJSON_GetObjectItemCaseSensitive(j, "topics"), (const int[]){2, 0, 1}, 3);
    assert_int_equal(mm2_export_from_json(j, &back, &err), MM2_CONFIG);
    assert_string_equal(err.msg, "topics[1].name \"audit\" is out of order or repeated");
    mm2_export_free(&back);
    cJSON_Delete(j);
}

static void test_export_from_json_with_no_topics(void **state)
{
    struct fx *f = *state;
    struct mm2_export back;
    struct mm2_error err = {0};
    cJSON *j = export_json(&f->ex);

    cJSON_ReplaceItemInObjectCaseSensitive(j, "topics", cJSON_CreateArray());
    cJSON_ReplaceItemInObjectCaseSensitive(j, "partitions", cJSON_CreateArray());
    assert_int_equal(mm2_export_from_json(j, &back, &err), MM2_OK);
    assert_int_equal(back.ntopics, 0);
    assert_int_equal(back.nparts, 0);
    assert_string_equal(back.digest, "");
    mm2_export_free(&back);
    mm2_export_free(NULL);
    cJSON_Delete(j);
}

/* ---- the connector JSON ---------------------------------------------------------------------- */

static void test_connector_from_json_reads_name_alias_and_digest(void **state)
{
    cJSON *j = cJSON_Parse("{\"name\": \"c\", \"config\": {\"source.cluster.alias\": \"source\", "
                           "\"connector.class\": \"MirrorSource\"}}");
    cJSON *k = cJSON_Parse("{\"config\": {\"connector.class\": \"MirrorSource\", \"name\": \"c\", "
                           "\"source.cluster.alias\": \"source\"}, \"name\": \"c\"}");
    struct mm2_connector c, d;
    struct mm2_error err = {0};
    char digest[MM2_DIGEST_TEXT_LEN + 1];

    (void)state;
    assert_int_equal(mm2_connector_from_json(j, &c, &err), MM2_OK);
    assert_string_equal(c.name, "c");
    assert_string_equal(c.alias, "source");
    /* sha256 of {"connector.class":"MirrorSource","name":"c","source.cluster.alias":"source"}:
     * the config as Connect stores it (with "name"), members sorted. */
    assert_string_equal(c.digest, "sha256:f759e301aa56af0b39405d44971033f28f08873a0f8c5376441b79e"
                                  "4572e2ca9");
    assert_int_equal(mm2_connector_config_digest(c.config, "c", digest, &err), MM2_OK);
    assert_string_equal(digest, c.digest);
    /* Member order and an explicit config.name equal to name do not change it. */
    assert_int_equal(mm2_connector_from_json(k, &d, &err), MM2_OK);
    assert_string_equal(d.digest, c.digest);
    /* The name does. */
    assert_int_equal(mm2_connector_config_digest(c.config, "c2", digest, &err), MM2_OK);
    assert_string_not_equal(digest, c.digest);
    mm2_connector_free(&c);
    mm2_connector_free(&d);
    mm2_connector_free(NULL);
    cJSON_Delete(j);
    cJSON_Delete(k);
}

struct connector_case {
    const char *json;
    const char *message;
};

static void check_connector_refusals(const struct connector_case *cases, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        cJSON *j = cJSON_Parse(cases[i].json);
        struct mm2_connector c;
        struct mm2_error err = {0};
        enum mm2_status st;
        if (j == NULL)
            fail_msg("case %zu does not parse", i);
        st = mm2_connector_from_json(j, &c, &err);
        mm2_connector_free(&c);
        cJSON_Delete(j);
        if (st != MM2_CONFIG || err.code != MM2_CONFIG || strcmp(err.msg, cases[i].message) != 0)
            fail_msg("case %zu: got code %d \"%s\"", i, err.code, err.msg);
    }
}

static void test_connector_from_json_missing_name_or_config_named(void **state)
{
    static const struct connector_case cases[] = {
        {"[]", "connector is not an object"},
        {"{\"config\": {}}", "connector.name is missing"},
        {"{\"name\": 5, \"config\": {}}", "connector.name is not a string"},
        {"{\"name\": \"c\"}", "connector.config is missing"},
        {"{\"name\": \"c\", \"config\": []}", "connector.config is not an object"},
    };

    (void)state;
    check_connector_refusals(cases, sizeof(cases) / sizeof(cases[0]));
}

static void test_connector_from_json_refusals(void **state)
{
    static const struct connector_case cases[] = {
        {"{\"name\": \"a b\", \"config\": {\"source.cluster.alias\": \"s\"}}",
         "connector.name \"a b\": character 2 is not one of [A-Za-z0-9._-]"},
        {"{\"name\": \"\", \"config\": {\"source.cluster.alias\": \"s\"}}",
         "connector.name \"\": it is empty"},
        {"{\"name\": \"c\", \"config\": {\"source.cluster.alias\": \"s\"}, \"initial_state\": "
         "\"RUNNING\"}",
         "connector.initial_state must not be given: mm2-offsets creates the connector STOPPED "
         "itself"},
        {"{\"name\": \"c\", \"config\": {\"source.cluster.alias\": \"s\"}, \"tasks\": []}",
         "connector has an unknown member \"tasks\"; only name and config"},
        {"{\"name\": \"c\", \"config\": {\"source.cluster.alias\": \"s\", \"tasks.max\": 4}}",
         "connector.config.\"tasks.max\" is not a string (Connect configs are strings: write \"the "
         "value\" in quotes)"},
        {"{\"name\": \"c\", \"config\": {\"source.cluster.alias\": \"s\", \"sync.topic.acls."
         "enabled\": false}}",
         "connector.config.\"sync.topic.acls.enabled\" is not a string (Connect configs are "
         "strings: write \"true/false\" in quotes)"},
        {"{\"name\": \"a\", \"config\": {\"source.cluster.alias\": \"s\", \"name\": \"b\"}}",
         "connector.config.name \"b\" differs from connector.name \"a\""},
        {"{\"name\": \"c\", \"config\": {\"topics\": \"orders\"}}",
         "connector.config.\"source.cluster.alias\" is required (the \"cluster\" key of every "
         "offset)"},
        {"{\"name\": \"c\", \"config\": {\"source.cluster.alias\": \"\"}}",
         "connector.config.\"source.cluster.alias\" is required (the \"cluster\" key of every "
         "offset)"},
        {"{\"name\": \"c\", \"config\": {\"source.cluster.alias\": \" \"}}",
         "connector.config.\"source.cluster.alias\" \" \" has spaces around it; remove them"},
        /* "." and ".." are path segments: /connectors/../config is GET /config. */
        {"{\"name\": \"..\", \"config\": {\"source.cluster.alias\": \"s\"}}",
         "connector.name \"..\": \".\" and \"..\" are path segments, not names"},
    };

    (void)state;
    check_connector_refusals(cases, sizeof(cases) / sizeof(cases[0]));
}

static void test_connector_from_json_refuses_a_key_given_twice(void **state)
{
    /* cJSON keeps both members: Connect (Jackson) would keep the last, the rules read the first. */
    static const struct connector_case cases[] = {
        {"{\"name\": \"c\", \"name\": \"c\", \"config\": {\"source.cluster.alias\": \"s\"}}",
         "connector JSON gives \"name\" twice; Connect would keep the last, the rules would read "
         "the first: give it once"},
        {"{\"name\": \"c\", \"config\": {\"source.cluster.alias\": \"s\"}, \"config\": "
         "{\"source.cluster.alias\": \"t\"}}",
         "connector JSON gives \"config\" twice; Connect would keep the last, the rules would "
         "read the first: give it once"},
        {"{\"name\": \"c\", \"config\": {\"sync.topic.acls.enabled\": \"false\", "
         "\"source.cluster.alias\": \"s\", \"sync.topic.acls.enabled\": \"true\"}}",
         "connector JSON gives \"sync.topic.acls.enabled\" twice; Connect would keep the last, "
         "the rules would read the first: give it once"},
        {"{\"name\": \"c\", \"config\": {\"source.cluster.alias\": \"s\", "
         "\"source.cluster.alias\": \"s\"}}",
         "connector JSON gives \"source.cluster.alias\" twice; Connect would keep the last, the "
         "rules would read the first: give it once"},
    };

    (void)state;
    check_connector_refusals(cases, sizeof(cases) / sizeof(cases[0]));
}

static void test_connector_load_names_the_file(void **state)
{
    char dir[] = "/tmp/mm2-test-plan-XXXXXX", path[PATH_MAX], want[PATH_MAX + 200];
    struct mm2_connector c;
    struct mm2_error err = {0};
    FILE *fh;

    (void)state;
    assert_non_null(mkdtemp(dir));
    (void)snprintf(path, sizeof(path), "%s/connector.json", dir);
    fh = fopen(path, "w");
    assert_non_null(fh);
    fputs(CONNECTOR_JSON, fh);
    assert_int_equal(fclose(fh), 0);
    assert_int_equal(mm2_connector_load(path, &c, &err), MM2_OK);
    assert_string_equal(c.name, NAME);
    assert_string_equal(c.alias, "source");
    mm2_connector_free(&c);
    fh = fopen(path, "w");
    assert_non_null(fh);
    fputs("{\"name\": \"x\", \"config\": {\"source.cluster.alias\": \"s\"}, \"initial_state\": "
          "\"STOPPED\"}\n",
          fh);
    assert_int_equal(fclose(fh), 0);
    assert_int_equal(mm2_connector_load(path, &c, &err), MM2_CONFIG);
    (void)snprintf(want, sizeof(want),
                   "%s: connector.initial_state must not be given: mm2-offsets creates the "
                   "connector STOPPED itself",
                   path);
    assert_string_equal(err.msg, want);
    assert_null(c.config);
    assert_int_equal(unlink(path), 0);
    assert_int_equal(mm2_connector_load(path, &c, &err), MM2_CONFIG);
    (void)snprintf(want, sizeof(want), "cannot open connector file %s: No such file or directory",
                   path);
    assert_string_equal(err.msg, want);
    assert_int_equal(rmdir(dir), 0);
}

/* ---- --accept-loss TOPIC:PARTITION ----------------------------------------------------------- */

static void test_tpref_parse_accepts_topic_colon_partition(void **state)
{
    char s[] = "orders:0", t[] = "my.topic-v2_x:2147483646";
    struct mm2_tpref ref;
    char why[200];

    (void)state;
    assert_int_equal(mm2_plan_tpref_parse(s, &ref, why, sizeof(why)), 0);
    assert_string_equal(ref.topic, "orders");
    assert_int_equal(ref.partition, 0);
    assert_int_equal(mm2_plan_tpref_parse(t, &ref, why, sizeof(why)), 0);
    assert_string_equal(ref.topic, "my.topic-v2_x");
    assert_int_equal(ref.partition, 2147483646);
}

struct tpref_case {
    const char *arg;
    const char *why;
};

static void test_tpref_parse_refusals_leave_the_argument_intact(void **state)
{
    static const struct tpref_case cases[] = {
        {"orders", "\"orders\" is not TOPIC:PARTITION"},
        {"orders:", "\"\" is not a partition number"},
        {"orders:-1", "\"-1\" is not a partition number"},
        {"orders:+1", "\"+1\" is not a partition number"},
        {"orders:1x", "\"1x\" is not a partition number"},
        {"orders: 1", "\" 1\" is not a partition number"},
        {"orders:2147483647", "\"2147483647\" is not a partition number"},
        {":0", "\"\" is not a topic name: topic name is empty"},
        {"a:b:3", "\"a:b\" is not a topic name: topic name \"a:b\" has an illegal character at "
                  "position 2 (allowed: [a-zA-Z0-9._-])"},
        {"..:1", "\"..\" is not a topic name: topic name cannot be \"..\""},
    };

    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char arg[64], why[200] = "";
        struct mm2_tpref ref = {0};
        (void)snprintf(arg, sizeof(arg), "%s", cases[i].arg);
        if (mm2_plan_tpref_parse(arg, &ref, why, sizeof(why)) != -1 ||
            strcmp(why, cases[i].why) != 0)
            fail_msg("%s: got \"%s\"", cases[i].arg, why);
        assert_string_equal(arg, cases[i].arg);
    }
}

/* ---- refusals -------------------------------------------------------------------------------- */

static void test_refuse_grows_and_cuts_long_lines(void **state)
{
    struct mm2_refusals r = {0};
    char big[MM2_REFUSAL_LEN * 2];

    (void)state;
    for (int i = 0; i < 100; i++)
        mm2_refuse(&r, "line %d [rule x]", i);
    assert_int_equal(r.n, 100);
    assert_string_equal(r.line[0], "line 0 [rule x]");
    assert_string_equal(r.line[99], "line 99 [rule x]");
    memset(big, 'y', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    mm2_refuse(&r, "%s", big);
    assert_int_equal(strlen(r.line[100]), MM2_REFUSAL_LEN - 1);
    assert_string_equal(r.line[100] + MM2_REFUSAL_LEN - 4, "...");
    mm2_refusals_free(&r);
    assert_int_equal(r.n, 0);
    assert_null(r.line);
    mm2_refusals_free(NULL);
}

/* Out of memory, for real: a list whose doubling realloc cannot give (2^62 bytes). ASan aborts
 * on such a request unless told to return NULL as the C library does. */
#define HUGE_LIST ((SIZE_MAX / 4) / MM2_REFUSAL_LEN)

const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "allocator_may_return_null=1";
}

static void test_refuse_out_of_memory_is_flagged_not_lost(void **state)
{
    struct mm2_refusals r = {0};

    (void)state;
    r.n = r.cap = HUGE_LIST;
    mm2_refuse(&r, "line [rule x]");
    assert_true(r.oom);
    assert_int_equal(r.n, HUGE_LIST);
    assert_int_equal(r.cap, HUGE_LIST);
    assert_null(r.line);
    r.n = r.cap = 0;
    mm2_refusals_free(&r);
    assert_false(r.oom);
}

static void test_plan_refusal_lost_to_memory_is_unexpected(void **state)
{
    struct fx *f = *state;
    const struct mm2_plan_input in = {
        .ex = &f->ex, .connector = &f->conn, .mirror = f->mirror, .cfg = &f->cfg};

    /* One refusal to store, in a list that cannot grow: never "refused" with it missing. */
    part(f, "orders", 0)->committed[1] = 1200;
    f->r.n = f->r.cap = HUGE_LIST;
    f->st = mm2_plan_build(&in, &f->plan, &f->r, &f->err);
    assert_true(f->r.oom);
    f->r.n = f->r.cap = 0;
    assert_int_equal(f->st, MM2_UNEXPECTED);
    assert_int_equal(f->err.code, MM2_UNEXPECTED);
    assert_string_equal(f->err.msg, "out of memory while checking the rules");
    assert_int_equal(f->plan.n, 0);
    assert_null(f->plan.entries);
    assert_null(f->plan.topics);
}

#define FX_TEST(fn) cmocka_unit_test_setup_teardown(fn, fx_setup, fx_teardown)

/* ---- Flink's side of the boundary (mm2_plan_bnd.c) ------------------------------------------ */

/* orders-0 (C 1000) as the export classified it. */
static struct mm2_bnd_result *boundary(struct fx *f, enum mm2_bnd_class cls)
{
    struct mm2_xpart *p = part(f, "orders", 0);

    p->boundary_read = true;
    memset(&p->boundary, 0, sizeof(p->boundary));
    p->boundary.cls = cls;
    p->boundary.tail_len = 8;
    p->boundary.tail_first = 5000;
    p->boundary.tail_last = 5007;
    p->boundary.src_first = p->boundary.src_last = p->boundary.resume_at = -1;
    p->boundary.mismatch_target = p->boundary.mismatch_source = -1;
    p->boundary.window_first = 920;
    p->boundary.window_last = 1063;
    return &p->boundary;
}

static void placed(struct mm2_bnd_result *b, int64_t last, uint64_t k, int64_t resume)
{
    b->matches = 1;
    b->src_first = last - 7;
    b->src_last = last;
    b->k = k;
    b->resume_at = resume;
}

/* orders-0's boundary object in the export's JSON. */
static cJSON *boundary_json(cJSON *j)
{
    const cJSON *p;

    cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(j, "partitions"))
    {
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(p, "topic");
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(p, "partition");
        if (cJSON_IsString(t) && strcmp(t->valuestring, "orders") == 0 && cJSON_IsNumber(n) &&
            n->valueint == 0)
            return cJSON_GetObjectItemCaseSensitive(p, "boundary");
    }
    fail_msg("no orders-0 in the export's JSON");
    return NULL;
}

/* orders-0's boundary as read back from j equals b. */
static void assert_boundary_reads_back(cJSON *j, const struct mm2_bnd_result *b)
{
    struct mm2_export back;
    struct mm2_error err = {0};
    const struct mm2_bnd_result *r = NULL;

    assert_int_equal(mm2_export_from_json(j, &back, &err), MM2_OK);
    for (size_t i = 0; i < back.nparts; i++)
        if (strcmp(back.parts[i].topic, "orders") == 0 && back.parts[i].partition == 0)
            r = &back.parts[i].boundary;
    assert_non_null(r);
    assert_int_equal(r->cls, b->cls);
    assert_int_equal(r->k, b->k);
    assert_int_equal(r->tail_len, b->tail_len);
    assert_int_equal(r->matches, b->matches);
    assert_int_equal(r->tail_first, b->tail_first);
    assert_int_equal(r->tail_last, b->tail_last);
    assert_int_equal(r->src_first, b->src_first);
    assert_int_equal(r->src_last, b->src_last);
    assert_int_equal(r->resume_at, b->resume_at);
    assert_int_equal(r->mismatch_target, b->mismatch_target);
    assert_int_equal(r->mismatch_source, b->mismatch_source);
    assert_int_equal(r->window_first, b->window_first);
    assert_int_equal(r->window_last, b->window_last);
    assert_string_equal(r->mismatch_target_digest, b->mismatch_target_digest);
    assert_string_equal(r->mismatch_source_digest, b->mismatch_source_digest);
    assert_string_equal(r->why, b->why);
    mm2_export_free(&back);
}

/* The evidence leaves out what is empty (50,000 partitions must stay within the artifact caps),
 * reads back the same, and an export that wrote every key (null, 0, "") is read as before. */
static void test_export_boundary_leaves_out_what_is_empty(void **state)
{
    struct fx *f = *state;
    struct mm2_bnd_result *b = boundary(f, MM2_BND_ALIGNED);
    cJSON *j, *o;

    placed(b, 999, 0, 1000);
    j = export_json(&f->ex);
    o = boundary_json(j);
    assert_int_equal(cJSON_GetArraySize(o), 10); /* class, tail_records, matches, 7 offsets */
    assert_null(cJSON_GetObjectItemCaseSensitive(o, "k"));
    assert_null(cJSON_GetObjectItemCaseSensitive(o, "mismatch_target"));
    assert_null(cJSON_GetObjectItemCaseSensitive(o, "mismatch_source_digest"));
    assert_null(cJSON_GetObjectItemCaseSensitive(o, "why"));
    assert_boundary_reads_back(j, b);
    /* Every key, as exports before wrote them. */
    cJSON_AddNumberToObject(o, "k", 0);
    cJSON_AddNullToObject(o, "mismatch_target");
    cJSON_AddNullToObject(o, "mismatch_source");
    cJSON_AddStringToObject(o, "mismatch_target_digest", "");
    cJSON_AddStringToObject(o, "mismatch_source_digest", "");
    cJSON_AddStringToObject(o, "why", "");
    assert_boundary_reads_back(j, b);
    cJSON_Delete(j);
    /* Unplaced: what it has is written. */
    b = boundary(f, MM2_BND_UNPLACED);
    b->mismatch_target = 5000;
    b->mismatch_source = 992;
    (void)snprintf(b->mismatch_target_digest, sizeof(b->mismatch_target_digest), "00aa11bb22cc");
    (void)snprintf(b->mismatch_source_digest, sizeof(b->mismatch_source_digest), "33dd44ee55ff");
    (void)snprintf(b->why, sizeof(b->why), "the tail matches no place of the source window");
    j = export_json(&f->ex);
    o = boundary_json(j);
    assert_int_equal(cJSON_GetArraySize(o), 12);
    assert_null(cJSON_GetObjectItemCaseSensitive(o, "resume_at"));
    assert_boundary_reads_back(j, b);
    cJSON_Delete(j);
}

static void test_plan_boundary_aligned_and_ahead_plan_as_today(void **state)
{
    struct fx *f = *state;

    placed(boundary(f, MM2_BND_ALIGNED), 999, 0, 1000);
    assert_planned(f);
    assert_int_equal(f->plan.entries[0].m, 999);
    assert_string_equal(f->plan.entries[0].boundary, "aligned");
    mm2_plan_free(&f->plan);
    placed(boundary(f, MM2_BND_AHEAD), 1004, 5, 1000);
    assert_planned(f);
    assert_int_equal(f->plan.entries[0].c, 1000);
    assert_int_equal(f->plan.entries[0].m, 999);
    assert_int_equal(f->plan.entries[0].duplicates, 5);
    assert_string_equal(f->plan.entries[0].boundary, "ahead");
}

static void test_plan_boundary_behind_is_refused_naming_the_gap(void **state)
{
    struct fx *f = *state;

    placed(boundary(f, MM2_BND_BEHIND), 996, 3, 997);
    assert_refused(f, 1,
                   "orders-0: the target ends 3 records before C=1000: its last 8 records "
                   "(target offsets 5000..5007) are source 989..996, so source 997..999 never "
                   "reached it (the sink's last transaction aborted?); MM2 would skip them: plan "
                   "with --start-at-gap orders:0 to copy them [rule flink-gap]");
}

static void test_plan_boundary_start_at_gap_starts_mm2_at_the_first_missing_record(void **state)
{
    struct fx *f = *state;
    cJSON *j;
    struct mm2_plan back;
    struct mm2_error err = {0};
    char digest[MM2_DIGEST_TEXT_LEN + 1];

    placed(boundary(f, MM2_BND_BEHIND), 996, 3, 997);
    f->gap[f->ngap++] = (struct mm2_tpref){"orders", 0};
    assert_planned(f);
    assert_int_equal(f->plan.entries[0].c, 997);
    assert_int_equal(f->plan.entries[0].m, 996);
    assert_int_equal(f->plan.entries[0].group_c, 1000);
    assert_int_equal(f->plan.entries[0].gap, 3);
    /* ...and the plan reads back as written. */
    j = plan_json(f);
    assert_int_equal(mm2_artifact_seal(j, digest, &err), MM2_OK);
    assert_int_equal(mm2_plan_from_json(j, &back, &err), MM2_OK);
    assert_int_equal(back.entries[0].c, 997);
    assert_int_equal(back.entries[0].group_c, 1000);
    assert_int_equal(back.entries[0].gap, 3);
    assert_string_equal(back.entries[0].boundary, "behind");
    mm2_plan_free(&back);
    cJSON_Delete(j);
}

static void test_plan_boundary_options_for_other_partitions_are_refused(void **state)
{
    struct fx *f = *state;

    placed(boundary(f, MM2_BND_ALIGNED), 999, 0, 1000);
    f->gap[f->ngap++] = (struct mm2_tpref){"orders", 0};
    f->unplaced[f->nunplaced++] = (struct mm2_tpref){"orders", 0};
    assert_refused(f, 2,
                   "--start-at-gap orders:0: the export did not find that partition behind C (or "
                   "it is not replicated); it is only for a target that lacks records below C "
                   "[rule start-at-gap]",
                   "--accept-unplaced orders:0: that partition's tail was placed (or it is not "
                   "replicated); it is only for a tail the export could not place [rule "
                   "accept-unplaced]");
}

static void test_plan_boundary_unplaced_shows_offsets_and_digests_only(void **state)
{
    struct fx *f = *state;
    struct mm2_bnd_result *b = boundary(f, MM2_BND_UNPLACED);

    b->mismatch_target = 5000;
    b->mismatch_source = 992;
    memcpy(b->mismatch_target_digest, "0123456789ab", 13);
    memcpy(b->mismatch_source_digest, "ba9876543210", 13);
    assert_refused(f, 1,
                   "orders-0: its last 8 records (target offsets 5000..5007) match no place of "
                   "source 920..1063 around C=1000: target offset 5000 (digest 0123456789ab) "
                   "differs from source offset 992 (digest ba9876543210); Flink repartitioned, "
                   "transformed, or another writer wrote there, and MM2 keeps partitions; if you "
                   "know why, record it with --accept-unplaced orders:0 [rule "
                   "flink-partitioning]");
    f->unplaced[f->nunplaced++] = (struct mm2_tpref){"orders", 0};
    assert_planned(f);
    assert_string_equal(f->plan.entries[0].boundary, "unplaced");
    assert_int_equal(f->plan.entries[0].m, 999);
}

static void test_plan_boundary_gone_with_an_accepted_loss_is_not_refused_again(void **state)
{
    struct fx *f = *state;
    struct mm2_xpart *p = part(f, "orders", 0);

    /* C 1000 below a log start of 1200: the records around C expired. */
    for (int r = 0; r < 2; r++)
        p->log_start[r] = 1200;
    boundary(f, MM2_BND_GONE);
    accept_loss(f, "orders", 0);
    assert_planned(f);
    assert_int_equal(f->plan.entries[0].action, MM2_ACT_LOSS);
    assert_string_equal(f->plan.entries[0].boundary, "gone");
}

static void test_plan_boundary_empty_target_ambiguous_gone_unread_are_refused(void **state)
{
    struct fx *f = *state;
    struct mm2_bnd_result *b = boundary(f, MM2_BND_UNPLACED);

    b->tail_len = 0;
    b->tail_first = b->tail_last = -1;
    assert_refused(f, 1,
                   "orders-0: the target partition is empty while C=1000: Flink's copy of this "
                   "partition is not there (Flink wrote other partitions or topics?); MM2 keeps "
                   "partitions, so it cannot take over as is; if you know why, record it with "
                   "--accept-unplaced orders:0 [rule flink-partitioning]");
    mm2_refusals_free(&f->r);
    b = boundary(f, MM2_BND_AMBIGUOUS);
    b->matches = 3;
    assert_refused(f, 1,
                   "orders-0: its last 8 records (target offsets 5000..5007) match 3 places of "
                   "source 920..1063 around C=1000: they do not say where Flink stopped; raise "
                   "[flink] tail.records and export again, or --accept-unplaced orders:0 [rule "
                   "flink-ambiguous]");
    mm2_refusals_free(&f->r);
    b = boundary(f, MM2_BND_GONE);
    (void)snprintf(b->why, sizeof(b->why), "the tail matches nowhere and x");
    assert_refused(f, 1,
                   "orders-0: the tail matches nowhere and x (C=1000); what Flink copied cannot "
                   "be compared, not guessed either; --accept-unplaced orders:0 records that you "
                   "checked it otherwise [rule flink-window-gone]");
    mm2_refusals_free(&f->r);
    b = boundary(f, MM2_BND_UNREAD);
    (void)snprintf(b->why, sizeof(b->why), "the byte budget (tail.bytes) ended y");
    assert_refused(f, 1,
                   "orders-0: the byte budget (tail.bytes) ended y (C=1000); raise [flink] "
                   "tail.bytes and export again, or --accept-unplaced orders:0 [rule "
                   "flink-unread]");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        FX_TEST(test_plan_fixture_plans_every_replicated_partition),
        FX_TEST(test_plan_c_in_range_writes_c_minus_one),
        FX_TEST(test_plan_c_equal_to_log_start_writes_c_minus_one),
        FX_TEST(test_plan_c_equal_to_log_end_writes_c_minus_one),
        FX_TEST(test_plan_c_zero_at_log_start_zero_resets),
        FX_TEST(test_plan_c_zero_on_an_empty_partition_resets),
        FX_TEST(test_plan_no_committed_offset_blocks),
        FX_TEST(test_plan_c_below_log_start_blocks),
        FX_TEST(test_plan_c_zero_below_log_start_blocks),
        FX_TEST(test_plan_accept_loss_records_the_expired_records),
        FX_TEST(test_plan_accept_loss_for_a_partition_not_expired_blocks),
        FX_TEST(test_plan_accept_loss_given_twice_for_the_same_partition),
        FX_TEST(test_plan_c_beyond_log_end_blocks),
        FX_TEST(test_plan_beyond_log_end_is_not_excused_by_accept_loss),
        FX_TEST(test_plan_committed_offset_moved_between_reads_blocks),
        FX_TEST(test_plan_first_commit_between_reads_blocks),
        FX_TEST(test_plan_log_end_went_backwards_blocks),
        FX_TEST(test_plan_log_start_went_backwards_blocks),
        FX_TEST(test_plan_log_end_growing_between_reads_is_fine),
        FX_TEST(test_plan_log_start_passing_c_between_reads_blocks),
        FX_TEST(test_plan_open_transaction_in_first_read_blocks),
        FX_TEST(test_plan_open_transaction_in_second_read_blocks),
        FX_TEST(test_plan_target_high_watermark_moved_blocks),
        FX_TEST(test_plan_every_rule_of_one_partition_is_reported),
        FX_TEST(test_plan_target_topic_missing_blocks),
        FX_TEST(test_plan_target_with_more_partitions_blocks),
        FX_TEST(test_plan_target_with_fewer_partitions_blocks),
        FX_TEST(test_plan_target_start_is_the_first_high_watermark),
        FX_TEST(test_plan_topic_mapping_differs_from_flinks_blocks),
        FX_TEST(test_plan_default_policy_needs_a_mapping_to_prefixed_names),
        FX_TEST(test_plan_flink_target_recorded_is_the_one_checked),
        FX_TEST(test_plan_filter_no_longer_replicating_a_topic_blocks),
        FX_TEST(test_plan_filter_now_replicating_another_topic_blocks),
        FX_TEST(test_plan_replication_policy_target_changed_blocks),
        FX_TEST(test_plan_connector_json_with_another_filter_blocks_twice),
        FX_TEST(test_plan_disabled_connector_blocks),
        FX_TEST(test_plan_unplanned_replicated_partition_blocks),
        FX_TEST(test_plan_alias_changed_since_export_blocks),
        FX_TEST(test_plan_alias_with_spaces_is_refused_not_guessed),
        FX_TEST(test_plan_connector_json_changed_blocks),
        FX_TEST(test_plan_connector_renamed_blocks),
        FX_TEST(test_plan_connect_on_another_cluster_blocks),
        FX_TEST(test_plan_flink_job_not_finished_or_canceled_blocks),
        FX_TEST(test_plan_flink_job_canceled_or_finished_plans),
        FX_TEST(test_plan_stable_wait_must_exceed_the_checkpoint_interval),
        FX_TEST(test_plan_active_group_members_block),
        FX_TEST(test_plan_reports_every_refusal_at_once),
        FX_TEST(test_plan_connector_class_aliases_accepted),
        FX_TEST(test_plan_other_connector_classes_refused),
        FX_TEST(test_plan_enabled_keys_must_be_false),
        FX_TEST(test_plan_enabled_keys_false_in_any_case_and_trimmed),
        FX_TEST(test_plan_enabled_keys_unset_are_refused_naming_the_default),
        FX_TEST(test_plan_earliest_needed_only_when_some_entry_is_null),
        FX_TEST(test_plan_accepted_loss_also_needs_earliest),
        FX_TEST(test_plan_exactly_once_support_required_is_refused),
        FX_TEST(test_plan_exactly_once_support_required_with_spaces_is_refused),
        FX_TEST(test_connector_rules_all_broken_at_once),
        FX_TEST(test_patch_body_exact_text),
        cmocka_unit_test(test_patch_body_of_an_empty_plan),
        FX_TEST(test_patch_body_keeps_large_offsets_exact),
        FX_TEST(test_plan_to_json_exact_text),
        FX_TEST(test_export_boundary_leaves_out_what_is_empty),
        FX_TEST(test_plan_boundary_aligned_and_ahead_plan_as_today),
        FX_TEST(test_plan_boundary_behind_is_refused_naming_the_gap),
        FX_TEST(test_plan_boundary_start_at_gap_starts_mm2_at_the_first_missing_record),
        FX_TEST(test_plan_boundary_options_for_other_partitions_are_refused),
        FX_TEST(test_plan_boundary_unplaced_shows_offsets_and_digests_only),
        FX_TEST(test_plan_boundary_empty_target_ambiguous_gone_unread_are_refused),
        FX_TEST(test_plan_boundary_gone_with_an_accepted_loss_is_not_refused_again),
        FX_TEST(test_plan_round_trips_through_json),
        FX_TEST(test_plan_to_json_refuses_offsets_above_two_to_the_fifty_three),
        FX_TEST(test_plan_from_json_refuses_each_bad_member),
        FX_TEST(test_plan_from_json_refuses_reordered_or_missing_partitions),
        FX_TEST(test_plan_from_json_refuses_non_object_and_ignores_invalid_digest),
        FX_TEST(test_plan_find_and_free),
        FX_TEST(test_export_to_json_exact_text),
        FX_TEST(test_export_round_trips_through_json),
        FX_TEST(test_target_configs_go_from_export_to_plan_and_back),
        FX_TEST(test_export_to_json_refuses_offsets_above_two_to_the_fifty_three),
        FX_TEST(test_export_from_json_refuses_each_bad_member),
        FX_TEST(test_export_from_json_refuses_reordered_or_missing_partitions),
        FX_TEST(test_export_from_json_with_no_topics),
        cmocka_unit_test(test_connector_from_json_reads_name_alias_and_digest),
        cmocka_unit_test(test_connector_from_json_missing_name_or_config_named),
        cmocka_unit_test(test_connector_from_json_refusals),
        cmocka_unit_test(test_connector_from_json_refuses_a_key_given_twice),
        cmocka_unit_test(test_connector_load_names_the_file),
        cmocka_unit_test(test_tpref_parse_accepts_topic_colon_partition),
        cmocka_unit_test(test_tpref_parse_refusals_leave_the_argument_intact),
        cmocka_unit_test(test_refuse_grows_and_cuts_long_lines),
        cmocka_unit_test(test_refuse_out_of_memory_is_flagged_not_lost),
        FX_TEST(test_plan_refusal_lost_to_memory_is_unexpected),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
