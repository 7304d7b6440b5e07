/*
 * Unit tests for lib/mm2_preflight: every judgement preflight makes from the facts it read.
 * Permissions from KIP-430's authorized operations (granted, missing, implied, a resource the
 * broker would not describe, one that does not exist, a broker that did not answer, a cluster
 * described without operations) with the exact kafka-acls.sh line; Connect's internal topics
 * (absent, cleanup.policy, replication factor, min.insync.replicas, the config topic's one
 * partition) with the kafka-topics.sh / kafka-configs.sh line; the retention headroom of C by
 * retention.ms and, estimated, by retention.bytes (never a pass without a produce rate or a
 * record to size), with the kafka-configs.sh line; the connector against Flink
 * (isolation level, topics an explicit list, refresh.topics.enabled, the offset-syncs topic of
 * Connect 3.6 to 3.8); and the report's JSON.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "mm2_preflight.h"

static const struct mm2_pf_who SRC = {"source", "User:mm2-src", "src-1:9092,src-2:9092"};

static void dump(const struct mm2_pf_findings *f)
{
    for (size_t i = 0; i < f->n; i++)
        print_message("finding %zu: %s %s [%s] [%s] %s | %s\n", i, f->v[i].name,
                      mm2_pf_sev_name(f->v[i].sev), f->v[i].principal, f->v[i].resource,
                      f->v[i].message, f->v[i].fix);
}

/* The one finding f holds, with severity sev. */
static const struct mm2_pf_finding *one(const struct mm2_pf_findings *f, enum mm2_pf_sev sev)
{
    if (f->n != 1 || f->v[0].sev != sev) {
        dump(f);
        fail_msg("expected one finding of severity %s", mm2_pf_sev_name(sev));
    }
    return &f->v[0];
}

static struct mm2_pf_auth ops(uint32_t bits)
{
    return (struct mm2_pf_auth){MM2_PF_SEEN_OPS, bits};
}

/* ---- permissions ---------------------------------------------------------------------------- */

static void test_pf_allows_as_kafka_implies(void **state)
{
    (void)state;
    assert_true(mm2_pf_allows(MM2_PF_OPBIT(MM2_PF_OP_READ), MM2_PF_OP_READ));
    /* Describe is implied by Read, Write, Delete and Alter; DescribeConfigs by AlterConfigs. */
    assert_true(mm2_pf_allows(MM2_PF_OPBIT(MM2_PF_OP_READ), MM2_PF_OP_DESCRIBE));
    assert_true(mm2_pf_allows(MM2_PF_OPBIT(MM2_PF_OP_WRITE), MM2_PF_OP_DESCRIBE));
    assert_true(mm2_pf_allows(MM2_PF_OPBIT(MM2_PF_OP_DELETE), MM2_PF_OP_DESCRIBE));
    assert_true(mm2_pf_allows(MM2_PF_OPBIT(MM2_PF_OP_ALTER), MM2_PF_OP_DESCRIBE));
    assert_true(mm2_pf_allows(MM2_PF_OPBIT(MM2_PF_OP_ALTER_CONFIGS), MM2_PF_OP_DESCRIBE_CONFIGS));
    /* Not the other way round, and Create implies nothing. */
    assert_false(mm2_pf_allows(MM2_PF_OPBIT(MM2_PF_OP_DESCRIBE), MM2_PF_OP_READ));
    assert_false(mm2_pf_allows(MM2_PF_OPBIT(MM2_PF_OP_CREATE), MM2_PF_OP_DESCRIBE));
    assert_false(mm2_pf_allows(MM2_PF_OPBIT(MM2_PF_OP_DESCRIBE), MM2_PF_OP_DESCRIBE_CONFIGS));
    assert_false(mm2_pf_allows(0, MM2_PF_OP_DESCRIBE));
}

static void test_pf_acl_line_topic_group_cluster(void **state)
{
    char b[640];

    (void)state;
    assert_int_equal(
        mm2_pf_acl_line(b, sizeof(b), &SRC, MM2_PF_OP_READ, MM2_PF_TOPIC, "orders", false), 0);
    assert_string_equal(b, "kafka-acls.sh --bootstrap-server src-1:9092,src-2:9092 --add "
                           "--allow-principal User:mm2-src --operation Read --topic orders");
    assert_int_equal(mm2_pf_acl_line(b, sizeof(b), &SRC, MM2_PF_OP_DESCRIBE, MM2_PF_GROUP,
                                     "flink-orders", false),
                     0);
    assert_string_equal(b, "kafka-acls.sh --bootstrap-server src-1:9092,src-2:9092 --add "
                           "--allow-principal User:mm2-src --operation Describe --group "
                           "flink-orders");
    assert_int_equal(
        mm2_pf_acl_line(b, sizeof(b), &SRC, MM2_PF_OP_CREATE, MM2_PF_CLUSTER, NULL, false), 0);
    assert_string_equal(b, "kafka-acls.sh --bootstrap-server src-1:9092,src-2:9092 --add "
                           "--allow-principal User:mm2-src --operation Create --cluster");
    assert_int_equal(
        mm2_pf_acl_line(b, sizeof(b), &SRC, MM2_PF_OP_WRITE, MM2_PF_TOPIC, "orders.", true), 0);
    assert_string_equal(b, "kafka-acls.sh --bootstrap-server src-1:9092,src-2:9092 --add "
                           "--allow-principal User:mm2-src --operation Write --topic orders. "
                           "--resource-pattern-type prefixed");
}

static void test_pf_acl_line_quotes_what_a_shell_reads(void **state)
{
    const struct mm2_pf_who w = {"target", "User:CN=mm2 worker,O=it's", "tgt:9092"};
    char b[640], small[40];

    (void)state;
    assert_int_equal(
        mm2_pf_acl_line(b, sizeof(b), &w, MM2_PF_OP_DESCRIBE, MM2_PF_TOPIC, "t", false), 0);
    assert_string_equal(b, "kafka-acls.sh --bootstrap-server tgt:9092 --add --allow-principal "
                           "'User:CN=mm2 worker,O=it'\\''s' --operation Describe --topic t");
    assert_int_equal(
        mm2_pf_acl_line(small, sizeof(small), &w, MM2_PF_OP_DESCRIBE, MM2_PF_TOPIC, "t", false),
        -1);
    assert_string_equal(small + strlen(small) - 3, "...");
}

static void test_pf_need_granted_is_a_pass(void **state)
{
    struct mm2_pf_findings f = {0};
    struct mm2_pf_auth a = ops(MM2_PF_OPBIT(MM2_PF_OP_READ));
    const struct mm2_pf_finding *x;

    (void)state;
    mm2_pf_need(&f, &SRC, MM2_PF_TOPIC, "orders", &a, MM2_PF_OP_DESCRIBE, MM2_PF_REFUSE,
                "Metadata and ListOffsets");
    x = one(&f, MM2_PF_PASS);
    assert_string_equal(x->name, "acl");
    assert_string_equal(x->principal, "User:mm2-src ([source])");
    assert_string_equal(x->resource, "Topic:orders");
    assert_string_equal(x->fix, "");
    assert_string_equal(x->message,
                        "User:mm2-src may Describe Topic:orders (Metadata and ListOffsets)");
    assert_false(mm2_pf_refused(&f));
    mm2_pf_free(&f);
}

static void test_pf_need_missing_is_refused_with_the_line(void **state)
{
    struct mm2_pf_findings f = {0};
    struct mm2_pf_auth a = ops(MM2_PF_OPBIT(MM2_PF_OP_DESCRIBE));
    const struct mm2_pf_finding *x;

    (void)state;
    mm2_pf_need(&f, &SRC, MM2_PF_TOPIC, "orders", &a, MM2_PF_OP_READ, MM2_PF_REFUSE,
                "Fetch of the boundary read");
    x = one(&f, MM2_PF_REFUSE);
    assert_string_equal(x->message, "User:mm2-src ([source]) may not Read Topic:orders: Fetch of "
                                    "the boundary read needs it; grant it with the fix");
    assert_string_equal(x->fix, "kafka-acls.sh --bootstrap-server src-1:9092,src-2:9092 --add "
                                "--allow-principal User:mm2-src --operation Read --topic orders");
    assert_true(mm2_pf_refused(&f));
    mm2_pf_free(&f);
}

static void test_pf_need_optional_step_is_a_warning(void **state)
{
    struct mm2_pf_findings f = {0};
    struct mm2_pf_auth a = ops(MM2_PF_OPBIT(MM2_PF_OP_DESCRIBE));
    const struct mm2_pf_finding *x;

    (void)state;
    mm2_pf_need(&f, &SRC, MM2_PF_GROUP, "flink-orders", &a, MM2_PF_OP_READ, MM2_PF_WARN,
                "OffsetCommit of rollback-plan --commit only");
    x = one(&f, MM2_PF_WARN);
    assert_string_equal(x->resource, "Group:flink-orders");
    assert_non_null(strstr(x->fix, "--operation Read --group flink-orders"));
    assert_false(mm2_pf_refused(&f));
    mm2_pf_free(&f);
}

static void test_pf_need_denied_refuses_what_implies_describe(void **state)
{
    struct mm2_pf_findings f = {0};
    struct mm2_pf_auth a = {MM2_PF_SEEN_DENIED, 0};
    const struct mm2_pf_finding *x;

    (void)state;
    mm2_pf_need(&f, &SRC, MM2_PF_TOPIC, "orders", &a, MM2_PF_OP_READ, MM2_PF_REFUSE, "Fetch");
    x = one(&f, MM2_PF_REFUSE);
    assert_non_null(strstr(x->message, "may not Read Topic:orders: the broker would not even "
                                       "describe it, and Read implies Describe"));
    assert_non_null(strstr(x->fix, "--operation Read --topic orders"));
    mm2_pf_free(&f);
    mm2_pf_need(&f, &SRC, MM2_PF_TOPIC, "orders", &a, MM2_PF_OP_DESCRIBE, MM2_PF_REFUSE, "Fetch");
    x = one(&f, MM2_PF_REFUSE);
    assert_non_null(strstr(x->message, "may not Describe Topic:orders: the broker would not "
                                       "describe it (an authorization error, whether it exists "
                                       "or not)"));
    assert_non_null(strstr(x->fix, "--operation Describe --topic orders"));
    mm2_pf_free(&f);
    /* DescribeConfigs does not need Describe: not known, so not checked, never a pass. */
    mm2_pf_need(&f, &SRC, MM2_PF_TOPIC, "orders", &a, MM2_PF_OP_DESCRIBE_CONFIGS, MM2_PF_REFUSE,
                "DescribeConfigs");
    x = one(&f, MM2_PF_WARN);
    assert_non_null(strstr(x->message, "not checked: DescribeConfigs on Topic:orders"));
    mm2_pf_free(&f);
}

static void test_pf_need_absent_or_unanswered_is_never_a_pass(void **state)
{
    struct mm2_pf_findings f = {0};
    struct mm2_pf_auth absent = {MM2_PF_SEEN_ABSENT, 0};
    struct mm2_pf_auth silent = {MM2_PF_SEEN_UNANSWERED, 0};
    struct mm2_pf_auth cluster = ops(0);
    const struct mm2_pf_finding *x;

    (void)state;
    mm2_pf_need(&f, &SRC, MM2_PF_TOPIC, "gone", &absent, MM2_PF_OP_READ, MM2_PF_REFUSE, "Fetch");
    x = one(&f, MM2_PF_WARN);
    assert_string_equal(x->message, "not checked: Read on Topic:gone (Fetch): it does not exist, "
                                    "and Kafka reports authorized operations only for what "
                                    "exists (KIP-430)");
    assert_string_equal(x->fix, "");
    mm2_pf_free(&f);
    mm2_pf_need(&f, &SRC, MM2_PF_TOPIC, "t", &silent, MM2_PF_OP_READ, MM2_PF_REFUSE, "Fetch");
    assert_non_null(strstr(one(&f, MM2_PF_WARN)->message, "returned no authorized operations"));
    mm2_pf_free(&f);
    /* Kafka describes the cluster's operations only to a principal with Describe on it
     * (AuthHelper): an empty set says nothing of Create. */
    mm2_pf_need(&f, &SRC, MM2_PF_CLUSTER, NULL, &cluster, MM2_PF_OP_CREATE, MM2_PF_REFUSE,
                "CreateTopics");
    x = one(&f, MM2_PF_WARN);
    assert_string_equal(x->resource, "Cluster");
    assert_non_null(strstr(x->message, "only to a principal with Describe on it"));
    mm2_pf_free(&f);
    /* A topic described with no operation at all is a refusal: it was described. */
    cluster.ops = MM2_PF_OPBIT(MM2_PF_OP_DESCRIBE);
    mm2_pf_need(&f, &SRC, MM2_PF_CLUSTER, NULL, &cluster, MM2_PF_OP_CREATE, MM2_PF_REFUSE,
                "CreateTopics");
    assert_non_null(strstr(one(&f, MM2_PF_REFUSE)->fix, "--operation Create --cluster"));
    mm2_pf_free(&f);
}

static void test_pf_lost_finding_refuses(void **state)
{
    struct mm2_pf_findings f = {0};
    cJSON *root = cJSON_CreateObject();
    struct mm2_error err = {0};

    (void)state;
    f.oom = true;
    assert_true(mm2_pf_refused(&f));
    assert_int_equal(mm2_pf_add_json(root, &f, &err), MM2_UNEXPECTED);
    cJSON_Delete(root);
}

/* ---- Connect's internal topics -------------------------------------------------------------- */

static const struct mm2_pf_who TGT = {"target", "User:mm2-tgt", "tgt:9092"};

static struct mm2_pf_itopic itopic(const char *which, int32_t partitions)
{
    return (struct mm2_pf_itopic){which,
                                  "connect-configs",
                                  "[connect] config.topic",
                                  MM2_PF_SEEN_OPS,
                                  partitions,
                                  3,
                                  "compact",
                                  2};
}

static void test_pf_internal_topic_good_is_one_pass(void **state)
{
    struct mm2_pf_findings f = {0};
    struct mm2_pf_itopic t = itopic("config", 1);

    (void)state;
    mm2_pf_internal_topic(&f, &TGT, &t, 3, 2);
    assert_string_equal(one(&f, MM2_PF_PASS)->message,
                        "Connect's config topic connect-configs: 1 partition, replication factor "
                        "3, cleanup.policy=compact, min.insync.replicas=2");
    mm2_pf_free(&f);
    t = itopic("offset", 25); /* any number of partitions but for the config topic */
    mm2_pf_internal_topic(&f, &TGT, &t, 3, 2);
    (void)one(&f, MM2_PF_PASS);
    mm2_pf_free(&f);
}

static void test_pf_internal_topic_absent_is_refused_with_the_create_line(void **state)
{
    struct mm2_pf_findings f = {0};
    struct mm2_pf_itopic t = itopic("config", 0);
    const struct mm2_pf_finding *x;

    (void)state;
    t.seen = MM2_PF_SEEN_ABSENT;
    mm2_pf_internal_topic(&f, &TGT, &t, 3, 2);
    x = one(&f, MM2_PF_REFUSE);
    assert_string_equal(x->fix, "kafka-topics.sh --bootstrap-server tgt:9092 --create --topic "
                                "connect-configs --partitions 1 --replication-factor 3 --config "
                                "cleanup.policy=compact --config min.insync.replicas=2");
    assert_non_null(strstr(x->message, "([connect] config.topic) does not exist"));
    mm2_pf_free(&f);
}

static void test_pf_internal_topic_policy_must_be_compact_alone(void **state)
{
    struct mm2_pf_findings f = {0};
    struct mm2_pf_itopic t = itopic("offset", 25);
    const struct mm2_pf_finding *x;

    (void)state;
    t.cleanup_policy = "compact,delete";
    mm2_pf_internal_topic(&f, &TGT, &t, 3, 2);
    x = one(&f, MM2_PF_REFUSE);
    assert_string_equal(x->fix, "kafka-configs.sh --bootstrap-server tgt:9092 --alter "
                                "--entity-type topics --entity-name connect-configs --add-config "
                                "cleanup.policy=compact");
    assert_non_null(strstr(x->message, "cleanup.policy=compact,delete, not compact: deleted "
                                       "segments lose offsets"));
    mm2_pf_free(&f);
}

static void test_pf_internal_topic_durability(void **state)
{
    struct mm2_pf_findings f = {0};
    struct mm2_pf_itopic t = itopic("status", 5);

    (void)state;
    t.replication = 1;
    t.min_isr = 1;
    mm2_pf_internal_topic(&f, &TGT, &t, 3, 2);
    assert_int_equal(f.n, 2);
    assert_non_null(strstr(f.v[0].message, "replication factor 1, below the 3 of [connect] "
                                           "internal.replication.factor"));
    assert_non_null(strstr(f.v[1].message, "min.insync.replicas=1, below the 2 of [connect] "
                                           "internal.min.insync.replicas"));
    /* The fix cannot ask for more than the replicas there are. */
    assert_non_null(strstr(f.v[1].fix, "--add-config min.insync.replicas=1"));
    mm2_pf_free(&f);
    /* The single-broker beds state 1 and 1. */
    mm2_pf_internal_topic(&f, &TGT, &t, 1, 1);
    (void)one(&f, MM2_PF_PASS);
    mm2_pf_free(&f);
    /* min.insync.replicas above the replication factor: every acks=all write fails. */
    t.min_isr = 2;
    mm2_pf_internal_topic(&f, &TGT, &t, 1, 1);
    assert_non_null(strstr(one(&f, MM2_PF_REFUSE)->message, "above its replication factor 1"));
    mm2_pf_free(&f);
}

static void test_pf_internal_topic_config_has_one_partition(void **state)
{
    struct mm2_pf_findings f = {0};
    struct mm2_pf_itopic t = itopic("config", 3);

    (void)state;
    mm2_pf_internal_topic(&f, &TGT, &t, 3, 2);
    assert_non_null(strstr(one(&f, MM2_PF_REFUSE)->message, "has 3 partitions, not 1"));
    mm2_pf_free(&f);
}

static void test_pf_internal_topic_not_described_is_not_checked(void **state)
{
    struct mm2_pf_findings f = {0};
    struct mm2_pf_itopic t = itopic("config", 1);

    (void)state;
    t.seen = MM2_PF_SEEN_DENIED;
    mm2_pf_internal_topic(&f, &TGT, &t, 3, 2);
    assert_non_null(strstr(one(&f, MM2_PF_WARN)->message, "not checked: Connect's config topic"));
    mm2_pf_free(&f);
    /* Described, but its configs not: those two are not checked, the rest is. */
    t = itopic("config", 1);
    t.cleanup_policy = "";
    t.min_isr = -1;
    mm2_pf_internal_topic(&f, &TGT, &t, 3, 2);
    assert_int_equal(f.n, 2);
    assert_int_equal(mm2_pf_count(&f, MM2_PF_WARN), 2);
    mm2_pf_free(&f);
}

/* ---- retention headroom --------------------------------------------------------------------- */

#define NOW 1800000000000LL
#define H (3600LL * 1000)

static struct mm2_pf_headroom part(int64_t c, int64_t ts, long long retention)
{
    return (struct mm2_pf_headroom){"orders", 3, c, 100, 500, true, ts, retention};
}

static void test_pf_headroom_above_the_margin_is_a_quiet_pass(void **state)
{
    struct mm2_pf_findings f = {0};
    struct mm2_pf_headroom h = part(120, NOW - 10 * H, 7 * 24 * H);

    (void)state;
    assert_int_equal(mm2_pf_headroom(&f, &SRC, &h, NOW, 24 * H), 7 * 24 * H - 10 * H);
    assert_int_equal(f.n, 0);
    /* Unlimited retention, and nothing at C yet: all the time in the world. */
    h.retention_ms = -1;
    assert_true(mm2_pf_headroom(&f, &SRC, &h, NOW, 24 * H) == LLONG_MAX);
    h = part(500, 0, 7 * 24 * H);
    h.has_ts = false;
    assert_true(mm2_pf_headroom(&f, &SRC, &h, NOW, 24 * H) == LLONG_MAX);
    assert_int_equal(f.n, 0);
}

static void test_pf_headroom_below_the_margin_is_refused_with_the_line(void **state)
{
    struct mm2_pf_findings f = {0};
    /* A week's retention, the record at C six and a half days old: 12 h left, 24 h wanted. */
    struct mm2_pf_headroom h = part(120, NOW - 156 * H, 7 * 24 * H);
    const struct mm2_pf_finding *x;

    (void)state;
    assert_int_equal(mm2_pf_headroom(&f, &SRC, &h, NOW, 24 * H), -1);
    x = one(&f, MM2_PF_REFUSE);
    assert_string_equal(x->name, "retention");
    assert_string_equal(x->resource, "Topic:orders");
    assert_non_null(strstr(x->message, "orders-3: the record at C=120 (timestamp 1799438400000) "
                                       "can leave the log in 43200 s (retention.ms=604800000), "
                                       "less than the margin of 86400 s"));
    /* 156 h old + 24 h + 1 h = 181 h. */
    assert_string_equal(x->fix, "kafka-configs.sh --bootstrap-server src-1:9092,src-2:9092 "
                                "--alter --entity-type topics --entity-name orders --add-config "
                                "retention.ms=651600000");
    mm2_pf_free(&f);
    /* Past its retention already. */
    h = part(120, NOW - 200 * H, 7 * 24 * H);
    assert_int_equal(mm2_pf_headroom(&f, &SRC, &h, NOW, 24 * H), -1);
    x = one(&f, MM2_PF_REFUSE);
    assert_non_null(strstr(x->message, "is older than retention.ms=604800000 already: its "
                                       "segment can be deleted at any moment"));
    assert_non_null(strstr(x->fix, "--add-config retention.ms=810000000")); /* 200+24+1 h */
    mm2_pf_free(&f);
}

static void test_pf_headroom_expired_or_unknown(void **state)
{
    struct mm2_pf_findings f = {0};
    struct mm2_pf_headroom h = part(40, NOW, 7 * 24 * H);

    (void)state;
    assert_int_equal(mm2_pf_headroom(&f, &SRC, &h, NOW, 24 * H), -1);
    assert_non_null(strstr(one(&f, MM2_PF_REFUSE)->message,
                           "orders-3: committed offset C=40 is below the log start 100 already"));
    mm2_pf_free(&f);
    h = part(-1001, NOW, 7 * 24 * H);
    assert_int_equal(mm2_pf_headroom(&f, &SRC, &h, NOW, 24 * H), -1);
    assert_non_null(
        strstr(one(&f, MM2_PF_WARN)->message, "not checked: orders-3 has no committed"));
    mm2_pf_free(&f);
    h = part(120, NOW, 7 * 24 * H);
    h.has_ts = false;
    assert_int_equal(mm2_pf_headroom(&f, &SRC, &h, NOW, 24 * H), -1);
    assert_non_null(strstr(one(&f, MM2_PF_WARN)->message, "no record found at or after C=120"));
    mm2_pf_free(&f);
}

/* ---- retention.bytes headroom, estimated ---------------------------------------------------- */

#define MIB (1024LL * 1024)

/* orders-3: log 100..500, 420 at the first read 10 s before (8 records/s), C=116 (384 records
 * behind the end), 8 records read at C of 944 bytes each (1024 with MM2_PF_RECORD_OVERHEAD). */
static struct mm2_pf_bytes bpart(long long retention_bytes)
{
    return (struct mm2_pf_bytes){.topic = "orders",
                                 .partition = 3,
                                 .c = 116,
                                 .log_start = 100,
                                 .log_end = 500,
                                 .end_before = 420,
                                 .interval_ms = 10000,
                                 .records = 8,
                                 .record_bytes = 8 * 944,
                                 .retention_bytes = retention_bytes};
}

static void test_pf_bytes_headroom_above_the_margin_is_a_quiet_pass(void **state)
{
    struct mm2_pf_findings f = {0};
    struct mm2_pf_bytes h = bpart(1024 * MIB);

    (void)state;
    /* 1 GiB keeps 1048576 records of 1024 bytes; (1048576 - 384) / 8 = 131024 s. */
    assert_int_equal(mm2_pf_bytes_headroom(&f, &SRC, &h, 24 * H), 131024000LL);
    h.retention_bytes = -1;
    assert_true(mm2_pf_bytes_headroom(&f, &SRC, &h, 24 * H) == LLONG_MAX);
    /* An estimate beyond any sense says about 31,000 years, not an overflow. */
    h = bpart(LLONG_MAX);
    h.log_end = h.end_before + 1;
    h.interval_ms = 86400000;
    assert_int_equal(mm2_pf_bytes_headroom(&f, &SRC, &h, 24 * H), 1000000000000000LL);
    assert_int_equal(f.n, 0);
}

static void test_pf_bytes_headroom_below_the_margin_is_refused_as_an_estimate(void **state)
{
    struct mm2_pf_findings f = {0};
    struct mm2_pf_bytes h = bpart(MIB);
    const struct mm2_pf_finding *x;

    (void)state;
    /* 1 MiB keeps 1024 records: (1024 - 384) / 8 = 80 s, 24 h wanted. */
    assert_int_equal(mm2_pf_bytes_headroom(&f, &SRC, &h, 24 * H), -1);
    x = one(&f, MM2_PF_REFUSE);
    assert_string_equal(x->name, "retention-bytes");
    assert_string_equal(x->resource, "Topic:orders");
    assert_string_equal(x->message,
                        "orders-3: retention.bytes=1048576 (per partition), estimate: it keeps "
                        "about 1024 records of about 1024 bytes (the 8 read at C, uncompressed, "
                        "and 80 of framing each); C=116 is 384 records behind the log end, which "
                        "moved 8.0 records/s over 10.000 s: C can leave the log in about 80 s, "
                        "less than the margin of 86400 s ([flink] retention.margin.seconds) "
                        "[rule expired]");
    /* 1024 bytes x (384 + 8/s x (24 h + 1 h)) = 737673216, 703.5 MiB: 704 MiB. */
    assert_string_equal(x->fix, "kafka-configs.sh --bootstrap-server src-1:9092,src-2:9092 "
                                "--alter --entity-type topics --entity-name orders --add-config "
                                "retention.bytes=738197504");
    mm2_pf_free(&f);
    /* 256 KiB keeps 256 records, fewer than the 384 behind C already. */
    h = bpart(256 * 1024);
    assert_int_equal(mm2_pf_bytes_headroom(&f, &SRC, &h, 24 * H), -1);
    x = one(&f, MM2_PF_REFUSE);
    assert_non_null(strstr(x->message, "estimate: C=116 is 384 records behind the log end, more "
                                       "than the about 256 records of about 1024 bytes"));
    assert_non_null(strstr(x->message, "C can leave the log at the next retention check"));
    assert_non_null(strstr(x->fix, "--add-config retention.bytes=738197504"));
    mm2_pf_free(&f);
    /* Offsets no broker would answer: the line stays within what retention.bytes takes. */
    h = bpart(LLONG_MAX);
    h.end_before = 0;
    h.log_end = 4000000000000000000LL;
    h.interval_ms = 1;
    assert_int_equal(mm2_pf_bytes_headroom(&f, &SRC, &h, 24 * H), -1);
    assert_non_null(strstr(one(&f, MM2_PF_REFUSE)->fix, "retention.bytes=9223372036853727232"));
    mm2_pf_free(&f);
}

static void test_pf_bytes_headroom_not_checked_is_never_a_pass(void **state)
{
    struct mm2_pf_findings f = {0};
    struct mm2_pf_bytes h = bpart(MIB);

    (void)state;
    h.end_before = h.log_end; /* nothing written between the reads: no rate */
    assert_int_equal(mm2_pf_bytes_headroom(&f, &SRC, &h, 24 * H), -1);
    assert_string_equal(one(&f, MM2_PF_WARN)->message,
                        "not checked: orders-3: retention.bytes=1048576 (per partition), "
                        "estimate: none: the log end stayed at 500 in the 10.000 s between two "
                        "reads, so there is no produce rate to tell how soon C leaves the log; "
                        "run preflight again while the producers write, or with a longer "
                        "--rate-wait");
    mm2_pf_free(&f);
    h.end_before = 600; /* the end went back (a truncated log) */
    assert_int_equal(mm2_pf_bytes_headroom(&f, &SRC, &h, 24 * H), -1);
    assert_non_null(strstr(one(&f, MM2_PF_WARN)->message, "the log end went back to 500"));
    mm2_pf_free(&f);
    h.end_before = -1; /* no answer a broker gives: no rate either */
    assert_int_equal(mm2_pf_bytes_headroom(&f, &SRC, &h, 24 * H), -1);
    assert_int_equal(one(&f, MM2_PF_WARN)->sev, MM2_PF_WARN);
    mm2_pf_free(&f);
    h = bpart(MIB);
    h.interval_ms = 0;
    assert_int_equal(mm2_pf_bytes_headroom(&f, &SRC, &h, 24 * H), -1);
    assert_int_equal(one(&f, MM2_PF_WARN)->sev, MM2_PF_WARN);
    mm2_pf_free(&f);
    h = bpart(MIB);
    h.records = 0;
    h.record_bytes = 0;
    assert_int_equal(mm2_pf_bytes_headroom(&f, &SRC, &h, 24 * H), -1);
    assert_non_null(strstr(one(&f, MM2_PF_WARN)->message,
                           "not checked: orders-3: retention.bytes=1048576 (per partition), "
                           "estimate: none: no record was read at or after C=116"));
    mm2_pf_free(&f);
    h = bpart(MIB);
    h.c = -1001;
    assert_int_equal(mm2_pf_bytes_headroom(&f, &SRC, &h, 24 * H), -1);
    assert_non_null(
        strstr(one(&f, MM2_PF_WARN)->message, "not checked: orders-3 has no committed offset"));
    mm2_pf_free(&f);
    h = bpart(MIB);
    h.c = 40;
    assert_int_equal(mm2_pf_bytes_headroom(&f, &SRC, &h, 24 * H), -1);
    assert_non_null(strstr(one(&f, MM2_PF_REFUSE)->message,
                           "orders-3: committed offset C=40 is below the log start 100 already"));
    mm2_pf_free(&f);
}

/* ---- the connector against Flink ------------------------------------------------------------ */

/* The findings named name among f's. */
static const struct mm2_pf_finding *named(const struct mm2_pf_findings *f, const char *name)
{
    for (size_t i = 0; i < f->n; i++)
        if (strcmp(f->v[i].name, name) == 0)
            return &f->v[i];
    return NULL;
}

static void connector(struct mm2_pf_findings *f, const char *json, const char *flink,
                      const char *version)
{
    cJSON *c = cJSON_Parse(json);

    assert_non_null(c);
    memset(f, 0, sizeof(*f));
    mm2_pf_connector(f, c, flink, version);
    cJSON_Delete(c);
}

static void test_pf_isolation(void **state)
{
    struct mm2_pf_findings f;
    const struct mm2_pf_finding *x;

    (void)state;
    connector(&f, "{\"topics\": \"orders\"}", "read_committed", "4.1.1");
    x = named(&f, "isolation");
    assert_int_equal(x->sev, MM2_PF_REFUSE);
    assert_non_null(strstr(x->message, "the Flink job read read_committed but the connector reads "
                                       "read_uncommitted (Kafka's default)"));
    assert_string_equal(x->fix, "set \"source.consumer.isolation.level\": \"read_committed\" in "
                                "the connector JSON");
    mm2_pf_free(&f);
    connector(&f,
              "{\"topics\": \"orders\", \"source.consumer.isolation.level\": \"read_committed\"}",
              "read_committed", "4.1.1");
    assert_int_equal(named(&f, "isolation")->sev, MM2_PF_PASS);
    mm2_pf_free(&f);
    /* consumer.* applies too; source.consumer.* wins over it (MirrorConnectorConfig). */
    connector(&f, "{\"topics\": \"orders\", \"consumer.isolation.level\": \"read_committed\"}",
              "read_uncommitted", "4.1.1");
    x = named(&f, "isolation");
    assert_int_equal(x->sev, MM2_PF_REFUSE);
    assert_non_null(strstr(x->message, "(consumer.isolation.level)"));
    mm2_pf_free(&f);
    connector(&f,
              "{\"topics\": \"orders\", \"consumer.isolation.level\": \"read_committed\", "
              "\"source.consumer.isolation.level\": \"read_uncommitted\"}",
              "read_uncommitted", "4.1.1");
    assert_int_equal(named(&f, "isolation")->sev, MM2_PF_PASS);
    mm2_pf_free(&f);
    connector(&f, "{\"topics\": \"orders\"}", NULL, "4.1.1");
    x = named(&f, "isolation");
    assert_int_equal(x->sev, MM2_PF_WARN);
    assert_non_null(strstr(x->message, "not compared: [flink] isolation.level is not stated"));
    mm2_pf_free(&f);
}

static void test_pf_topics_explicit_list(void **state)
{
    struct mm2_pf_findings f;
    cJSON *c = cJSON_Parse("{\"topics\": \" orders , payments.v1,x\"}");
    struct mm2_error err = {0};
    char **names = NULL;
    size_t n = 0;

    (void)state;
    assert_int_equal(mm2_pf_topic_names(c, &names, &n, &err), MM2_OK);
    assert_int_equal(n, 3);
    assert_string_equal(names[0], "orders");
    assert_string_equal(names[1], "payments.v1");
    assert_string_equal(names[2], "x");
    mm2_pf_names_free(names, n);
    cJSON_Delete(c);
    /* A regex's literal dot is a name's dot. */
    c = cJSON_Parse("{\"topics\": \"payments\\\\.v1\"}");
    assert_int_equal(mm2_pf_topic_names(c, &names, &n, &err), MM2_OK);
    assert_int_equal(n, 1);
    assert_string_equal(names[0], "payments.v1");
    mm2_pf_names_free(names, n);
    cJSON_Delete(c);
    connector(&f, "{\"topics\": \"orders,payments\"}", NULL, "4.1.1");
    assert_string_equal(named(&f, "topics")->message,
                        "topics is an explicit list of 2 topic names");
    assert_int_equal(named(&f, "topics")->sev, MM2_PF_PASS);
    mm2_pf_free(&f);
}

static void test_pf_topics_patterns_are_refused(void **state)
{
    static const struct {
        const char *json, *says;
    } cases[] = {
        {"{\"topics\": \"orders.*\"}", "topics entry \"orders.*\" is a pattern"},
        {"{\"topics\": \"orders,[a-z]+\"}", "topics entry \"[a-z]+\" is a pattern"},
        {"{\"topics\": \"a|b\"}", "topics entry \"a|b\" is a pattern"},
        {"{\"topics\": \"a\\\\d\"}", "topics entry \"a\\d\" is a pattern"},
        {"{}", "topics is not set: MirrorSourceConnector's default is \".*\""},
        {"{\"topics\": \"orders\", \"topics.regex\": \"orders.*\"}",
         "topics.regex is set: MirrorSourceConnector does not read it"},
        {"{\"topics\": \"orders,,payments\"}", "topics has an entry that is empty"},
    };

    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct mm2_pf_findings f;
        const struct mm2_pf_finding *x;
        connector(&f, cases[i].json, NULL, "4.1.1");
        x = named(&f, "topics");
        if (x->sev != MM2_PF_REFUSE || strstr(x->message, cases[i].says) == NULL) {
            dump(&f);
            fail_msg("case %zu: expected a refusal saying %s", i, cases[i].says);
        }
        assert_non_null(strstr(x->fix, "set \"topics\" in the connector JSON"));
        mm2_pf_free(&f);
    }
}

static void test_pf_refresh_topics_reported(void **state)
{
    struct mm2_pf_findings f;

    (void)state;
    connector(&f, "{\"topics\": \"a\"}", NULL, "4.1.1");
    assert_non_null(strstr(named(&f, "refresh-topics")->message,
                           "refresh.topics.enabled=true (default): the source's topics are listed "
                           "again every 600 s"));
    mm2_pf_free(&f);
    connector(&f, "{\"topics\": \"a\", \"refresh.topics.enabled\": \"false\"}", NULL, "4.1.1");
    assert_non_null(strstr(named(&f, "refresh-topics")->message, "refresh.topics.enabled=false"));
    mm2_pf_free(&f);
}

static void test_pf_offset_syncs_on_connect_3_6_to_3_8(void **state)
{
    static const char *const json = "{\"topics\": \"a\", \"emit.offset-syncs.enabled\": \"false\", "
                                    "\"target.cluster.alias\": \"dc2\"}";
    struct mm2_pf_findings f;
    const struct mm2_pf_finding *x;

    (void)state;
    connector(&f, json, NULL, "3.8.1");
    x = named(&f, "offset-syncs");
    assert_non_null(x);
    assert_int_equal(x->sev, MM2_PF_WARN);
    assert_string_equal(x->resource, "Topic:mm2-offset-syncs.dc2.internal");
    assert_non_null(strstr(x->message, "Connect 3.8.1 ignores emit.offset-syncs.enabled=false"));
    assert_non_null(strstr(x->message, "on the source"));
    mm2_pf_free(&f);
    connector(&f, json, NULL, "3.6.2");
    assert_non_null(named(&f, "offset-syncs"));
    mm2_pf_free(&f);
    /* 3.9 reads the key; true writes the syncs on purpose. */
    connector(&f, json, NULL, "3.9.1");
    assert_null(named(&f, "offset-syncs"));
    mm2_pf_free(&f);
    connector(&f, "{\"topics\": \"a\", \"emit.offset-syncs.enabled\": \"true\"}", NULL, "3.7.2");
    assert_null(named(&f, "offset-syncs"));
    mm2_pf_free(&f);
    /* The default target alias, and the topic on the target when it is put there. */
    connector(&f,
              "{\"topics\": \"a\", \"emit.offset-syncs.enabled\": \"false\", "
              "\"offset-syncs.topic.location\": \"target\"}",
              NULL, "3.7.2");
    x = named(&f, "offset-syncs");
    assert_string_equal(x->resource, "Topic:mm2-offset-syncs.target.internal");
    assert_non_null(strstr(x->message, "on the target"));
    mm2_pf_free(&f);
}

/* ---- the report ----------------------------------------------------------------------------- */

/* ---- the workers ---------------------------------------------------------------------------- */

static void test_pf_workers_not_set_is_a_warning(void **state)
{
    struct mm2_pf_findings f = {0};

    (void)state;
    mm2_pf_workers(&f, NULL, 0);
    const struct mm2_pf_finding *x = one(&f, MM2_PF_WARN);
    assert_string_equal(x->name, "workers");
    assert_non_null(strstr(x->message, "not checked: [connect] workers is not set"));
    assert_non_null(strstr(x->fix, "http://mm2-connect-workers:8088"));
    mm2_pf_free(&f);
}

static void test_pf_workers_one_build_passes(void **state)
{
    struct mm2_pf_findings f = {0};
    const struct mm2_pf_worker w[] = {
        {"http://w:8088", "10.0.0.1", true, "4.3.1", "abc", NULL},
        {"http://w:8088", "10.0.0.2", true, "4.3.1", "abc", NULL},
    };

    (void)state;
    mm2_pf_workers(&f, w, 2);
    assert_string_equal(one(&f, MM2_PF_PASS)->message,
                        "2 workers answer, all Kafka 4.3.1 (commit abc): 10.0.0.1, 10.0.0.2");
    mm2_pf_free(&f);
}

static void test_pf_workers_two_builds_refused_with_their_addresses(void **state)
{
    struct mm2_pf_findings f = {0};
    const struct mm2_pf_worker w[] = {
        {"http://w:8088", "10.0.0.1", true, "4.3.1", "abc", NULL},
        {"http://w:8088", "10.0.0.2", true, "3.9.1", "def", NULL},
        {"http://w:8088", "10.0.0.3", true, "4.3.1", "abc", NULL},
        {"http://w:8088", "10.0.0.4", true, "4.3.1", "xyz", NULL},
    };

    (void)state;
    mm2_pf_workers(&f, w, 4);
    const struct mm2_pf_finding *x = one(&f, MM2_PF_REFUSE);
    assert_string_equal(x->message, "the workers run 3 different Kafka builds (a rolling update "
                                    "half done?): 4.3.1 (commit abc) on 10.0.0.1 10.0.0.3; 3.9.1 "
                                    "(commit def) on 10.0.0.2; 4.3.1 (commit xyz) on 10.0.0.4");
    assert_non_null(strstr(x->fix, "kubectl rollout status deployment/mm2-connect"));
    mm2_pf_free(&f);
}

static void test_pf_workers_silent_one_refused_by_name(void **state)
{
    struct mm2_pf_findings f = {0};
    const struct mm2_pf_worker w[] = {
        {"http://w:8088", "10.0.0.1", true, "4.3.1", "abc", NULL},
        {"http://w:8088", "10.0.0.2", false, "", "", "GET /: Couldn't connect to server"},
    };

    (void)state;
    mm2_pf_workers(&f, w, 2);
    const struct mm2_pf_finding *x = one(&f, MM2_PF_REFUSE);
    assert_string_equal(x->resource, "Worker:10.0.0.2 (http://w:8088)");
    assert_string_equal(x->message, "worker 10.0.0.2 (http://w:8088) does not answer GET /: GET "
                                    "/: Couldn't connect to server");
    assert_true(mm2_pf_refused(&f));
    mm2_pf_free(&f);
}

static void test_pf_json_lists_every_finding_and_the_counts(void **state)
{
    struct mm2_pf_findings f = {0};
    cJSON *root = cJSON_CreateObject();
    struct mm2_error err = {0};
    const cJSON *arr, *x, *sum;

    (void)state;
    mm2_pf_add(&f, "acl", MM2_PF_REFUSE, "User:a ([source])", "Topic:t", "kafka-acls.sh ...",
               "may not %s", "Read");
    mm2_pf_add(&f, "topics", MM2_PF_PASS, NULL, NULL, NULL, "fine");
    assert_int_equal(mm2_pf_add_json(root, &f, &err), MM2_OK);
    arr = cJSON_GetObjectItem(root, "findings");
    assert_int_equal(cJSON_GetArraySize(arr), 2);
    x = cJSON_GetArrayItem(arr, 0);
    assert_string_equal(cJSON_GetObjectItem(x, "name")->valuestring, "acl");
    assert_string_equal(cJSON_GetObjectItem(x, "severity")->valuestring, "refuse");
    assert_string_equal(cJSON_GetObjectItem(x, "principal")->valuestring, "User:a ([source])");
    assert_string_equal(cJSON_GetObjectItem(x, "resource")->valuestring, "Topic:t");
    assert_string_equal(cJSON_GetObjectItem(x, "message")->valuestring, "may not Read");
    assert_string_equal(cJSON_GetObjectItem(x, "fix")->valuestring, "kafka-acls.sh ...");
    x = cJSON_GetArrayItem(arr, 1);
    assert_string_equal(cJSON_GetObjectItem(x, "principal")->valuestring, "");
    sum = cJSON_GetObjectItem(root, "summary");
    assert_int_equal(cJSON_GetObjectItem(sum, "pass")->valueint, 1);
    assert_int_equal(cJSON_GetObjectItem(sum, "warn")->valueint, 0);
    assert_int_equal(cJSON_GetObjectItem(sum, "refuse")->valueint, 1);
    cJSON_Delete(root);
    mm2_pf_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pf_allows_as_kafka_implies),
        cmocka_unit_test(test_pf_acl_line_topic_group_cluster),
        cmocka_unit_test(test_pf_acl_line_quotes_what_a_shell_reads),
        cmocka_unit_test(test_pf_need_granted_is_a_pass),
        cmocka_unit_test(test_pf_need_missing_is_refused_with_the_line),
        cmocka_unit_test(test_pf_need_optional_step_is_a_warning),
        cmocka_unit_test(test_pf_need_denied_refuses_what_implies_describe),
        cmocka_unit_test(test_pf_need_absent_or_unanswered_is_never_a_pass),
        cmocka_unit_test(test_pf_lost_finding_refuses),
        cmocka_unit_test(test_pf_internal_topic_good_is_one_pass),
        cmocka_unit_test(test_pf_internal_topic_absent_is_refused_with_the_create_line),
        cmocka_unit_test(test_pf_internal_topic_policy_must_be_compact_alone),
        cmocka_unit_test(test_pf_internal_topic_durability),
        cmocka_unit_test(test_pf_internal_topic_config_has_one_partition),
        cmocka_unit_test(test_pf_internal_topic_not_described_is_not_checked),
        cmocka_unit_test(test_pf_headroom_above_the_margin_is_a_quiet_pass),
        cmocka_unit_test(test_pf_headroom_below_the_margin_is_refused_with_the_line),
        cmocka_unit_test(test_pf_headroom_expired_or_unknown),
        cmocka_unit_test(test_pf_bytes_headroom_above_the_margin_is_a_quiet_pass),
        cmocka_unit_test(test_pf_bytes_headroom_below_the_margin_is_refused_as_an_estimate),
        cmocka_unit_test(test_pf_bytes_headroom_not_checked_is_never_a_pass),
        cmocka_unit_test(test_pf_isolation),
        cmocka_unit_test(test_pf_topics_explicit_list),
        cmocka_unit_test(test_pf_topics_patterns_are_refused),
        cmocka_unit_test(test_pf_refresh_topics_reported),
        cmocka_unit_test(test_pf_offset_syncs_on_connect_3_6_to_3_8),
        cmocka_unit_test(test_pf_workers_not_set_is_a_warning),
        cmocka_unit_test(test_pf_workers_one_build_passes),
        cmocka_unit_test(test_pf_workers_two_builds_refused_with_their_addresses),
        cmocka_unit_test(test_pf_workers_silent_one_refused_by_name),
        cmocka_unit_test(test_pf_json_lists_every_finding_and_the_counts),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
