/*
 * mm2_preflight: what `mm2-offsets preflight` decides from the facts its caller read (issue 32
 * §2; mm2-offsets(1) PREFLIGHT): each finding a name, a severity, the principal and resource it is
 * about, one line saying what was found and the exact command an administrator runs to fix it.
 *
 *   - Permissions: the operations Kafka says a principal may perform on a resource, asked with
 *     that principal's own credentials (KIP-430's authorized operations, the describe calls'
 *     include_authorized_operations), against the operations the migration needs. Kafka answers
 *     only for resources that exist and that the principal may Describe: a resource that does not
 *     exist is "not checked" (a warning, never a pass), one the broker would not describe means
 *     no Describe (and so none of Read, Write, Delete, Alter, which imply it: Kafka's
 *     StandardAuthorizerData), and a cluster whose operations came back empty was not described
 *     to this principal (Kafka returns them only with Describe on the cluster: AuthHelper). The
 *     fix is the kafka-acls.sh line that grants exactly the missing operation.
 *   - Connect's internal topics: present, cleanup.policy exactly compact (Connect refuses
 *     "compact,delete": TopicAdmin.verifyTopicCleanupPolicyOnlyCompact), a replication factor and
 *     min.insync.replicas at least what the INI states, the config topic with one partition.
 *   - Retention headroom on the source: how long each partition's C stays above the log start,
 *     by retention.ms from the timestamp of the record at C, and by retention.bytes as an
 *     estimate (the records' sizes read and the produce rate measured; the partition's size
 *     cannot be asked), against the margin the INI states.
 *   - The connector against Flink: the isolation level each reads with, topics an explicit list
 *     (not a pattern), refresh.topics.enabled, and the offset-syncs topic that Connect 3.6 to 3.8
 *     write whatever emit.offset-syncs.enabled says (it exists from 3.9.0, KIP-1031).
 *
 * Contract:
 *   - Never prints, never exits, never talks to the network: pure functions of their inputs.
 *   - The findings list owns its entries; mm2_pf_free releases them and accepts a zeroed list.
 *     A field that does not fit is cut and ends in "...". A finding that cannot be stored (out
 *     of memory) sets oom: the list must then never be read as complete, and mm2_pf_refused
 *     counts it as a refusal.
 *   - Strings are borrowed for the call only; nothing here keeps a pointer to its inputs.
 */
#ifndef MM2_PREFLIGHT_H
#define MM2_PREFLIGHT_H

#include <cjson/cJSON.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mm2_err.h"

enum mm2_pf_sev { MM2_PF_PASS, MM2_PF_WARN, MM2_PF_REFUSE };

#define MM2_PF_NAME_LEN 48
#define MM2_PF_WHO_LEN 320
#define MM2_PF_RES_LEN 320
#define MM2_PF_TEXT_LEN 640

struct mm2_pf_finding {
    char name[MM2_PF_NAME_LEN]; /* the check: "acl", "internal-topic", "isolation", ... */
    enum mm2_pf_sev sev;
    char principal[MM2_PF_WHO_LEN]; /* "User:mm2-src ([source])", or "" */
    char resource[MM2_PF_RES_LEN];  /* "Topic:orders", "Group:flink-orders", "Cluster", or "" */
    char message[MM2_PF_TEXT_LEN];  /* what was found, one line */
    char fix[MM2_PF_TEXT_LEN];      /* the command to run, or "" */
};

struct mm2_pf_findings {
    struct mm2_pf_finding *v;
    size_t n, cap;
    bool oom;
};

/* Adds one finding; principal, resource and fix may be NULL ("" then). */
void mm2_pf_add(struct mm2_pf_findings *f, const char *name, enum mm2_pf_sev sev,
                const char *principal, const char *resource, const char *fix, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));
void mm2_pf_free(struct mm2_pf_findings *f);
/* How many findings have severity sev. */
size_t mm2_pf_count(const struct mm2_pf_findings *f, enum mm2_pf_sev sev);
/* True when the cutover must not go on: a refusal, or a list that lost a finding (oom). */
bool mm2_pf_refused(const struct mm2_pf_findings *f);
/* "pass", "warn" or "refuse". */
const char *mm2_pf_sev_name(enum mm2_pf_sev sev);

/* ---- permissions (KIP-430) ------------------------------------------------------------------ */

/* Kafka's ACL operation codes (AclOperation, the bit positions of KIP-430's authorized
 * operations): the same numbers librdkafka's rd_kafka_AclOperation_t uses. */
enum mm2_pf_op {
    MM2_PF_OP_READ = 3,
    MM2_PF_OP_WRITE = 4,
    MM2_PF_OP_CREATE = 5,
    MM2_PF_OP_DELETE = 6,
    MM2_PF_OP_ALTER = 7,
    MM2_PF_OP_DESCRIBE = 8,
    MM2_PF_OP_CLUSTER_ACTION = 9,
    MM2_PF_OP_DESCRIBE_CONFIGS = 10,
    MM2_PF_OP_ALTER_CONFIGS = 11,
    MM2_PF_OP_IDEMPOTENT_WRITE = 12,
};
#define MM2_PF_OPBIT(op) (1u << (unsigned)(op))

/* The operation as kafka-acls.sh --operation takes it ("Read", "DescribeConfigs", ...). */
const char *mm2_pf_op_name(enum mm2_pf_op op);

enum mm2_pf_res { MM2_PF_TOPIC, MM2_PF_GROUP, MM2_PF_CLUSTER };

/* What Kafka answered about one resource, asked with one principal's credentials. */
enum mm2_pf_seen {
    MM2_PF_SEEN_OPS,        /* described, with its authorized operations in ops */
    MM2_PF_SEEN_ABSENT,     /* does not exist (UNKNOWN_TOPIC_OR_PART): nothing to ask */
    MM2_PF_SEEN_DENIED,     /* the broker would not describe it (*_AUTHORIZATION_FAILED) */
    MM2_PF_SEEN_UNANSWERED, /* described without operations (a broker before KIP-430) */
};

struct mm2_pf_auth {
    enum mm2_pf_seen seen;
    uint32_t ops; /* MM2_PF_OPBIT(op) for each operation authorized */
};

/* Who asked: the INI section ("source", "target"), the principal Kafka knows it as ("User:x")
 * and the bootstrap servers an administrator's kafka-acls.sh would connect to. */
struct mm2_pf_who {
    const char *role;
    const char *principal;
    const char *bootstrap;
};

/* Whether a's operations include op, as Kafka's authorizer grants it: Describe is implied by
 * Read, Write, Delete and Alter, DescribeConfigs by AlterConfigs (StandardAuthorizerData). */
bool mm2_pf_allows(uint32_t ops, enum mm2_pf_op op);

/* s as one shell word into buf (len bytes): as is when every character is one no shell reads,
 * else single-quoted (cut to fit). */
void mm2_pf_shell_word(char *buf, size_t len, const char *s);

/* The line an administrator runs to grant who op on the resource (name: the topic or group; not
 * used for the cluster), into buf: "kafka-acls.sh --bootstrap-server B --add --allow-principal P
 * --operation OP --topic NAME" (--group NAME, --cluster), "--resource-pattern-type prefixed"
 * appended when prefixed. A value with characters a shell would read is single-quoted. Returns
 * 0, or -1 when it does not fit (buf then ends in "..."). */
int mm2_pf_acl_line(char *buf, size_t len, const struct mm2_pf_who *who, enum mm2_pf_op op,
                    enum mm2_pf_res type, const char *name, bool prefixed);

/* One finding "acl" about who doing op on the resource, from what Kafka answered (a):
 *   authorized                    pass
 *   not authorized                missing (MM2_PF_REFUSE, or MM2_PF_WARN for what only an
 *                                 optional step needs), with the kafka-acls.sh line
 *   denied (no Describe)          missing for Describe, Read, Write, Delete and Alter (each
 *                                 implies Describe), with the line; a warning "not checked" for
 *                                 the other operations
 *   absent                        a warning "not checked: does not exist"
 *   unanswered, or a cluster      a warning "not checked", naming why
 *   described with no operation
 * why says which request needs it ("Fetch of the boundary read"), in the message. */
void mm2_pf_need(struct mm2_pf_findings *f, const struct mm2_pf_who *who, enum mm2_pf_res type,
                 const char *name, const struct mm2_pf_auth *a, enum mm2_pf_op op,
                 enum mm2_pf_sev missing, const char *why);

/* ---- Connect's internal topics -------------------------------------------------------------- */

/* One internal topic as the cluster answered: seen as for permissions (a topic the asking
 * principal may not describe is not checked); when described, its partitions, its replication
 * factor (the fewest replicas of any partition), cleanup.policy ("" when not read) and
 * min.insync.replicas (-1 when not read). */
struct mm2_pf_itopic {
    const char *which;   /* "config", "offset", "status" */
    const char *name;    /* the topic */
    const char *ini_key; /* where its name comes from ("[connect] config.topic"), for messages */
    enum mm2_pf_seen seen;
    int32_t partitions;
    int32_t replication;
    const char *cleanup_policy;
    long min_isr;
};

/* Findings "internal-topic" for t against what the INI states (want_rf, want_isr): present,
 * cleanup.policy exactly "compact", replication factor and min.insync.replicas at least the INI's
 * (and min.insync.replicas not above the replication factor: every write would fail), the config
 * topic with exactly one partition. who is the principal that asked (for "not checked"); its
 * bootstrap names the cluster in the kafka-topics.sh and kafka-configs.sh lines. */
void mm2_pf_internal_topic(struct mm2_pf_findings *f, const struct mm2_pf_who *who,
                           const struct mm2_pf_itopic *t, long want_rf, long want_isr);

/* ---- retention headroom on the source ------------------------------------------------------- */

/* One source partition as read for its headroom: the Flink group's committed offset C (< 0:
 * none), the log's start and end, the timestamp of the first record at or after C (has_ts false
 * when none was found), and the topic's retention.ms (-1: unlimited; a topic whose
 * cleanup.policy has no "delete" is unlimited too, the caller says so). */
struct mm2_pf_headroom {
    const char *topic;
    int32_t partition;
    int64_t c, log_start, log_end;
    bool has_ts;
    int64_t ts_ms;
    long long retention_ms;
};

/* Whether C stays above the log start for margin_ms from now_ms ([flink]
 * retention.margin.seconds): Kafka deletes a segment once its newest record is older than
 * retention.ms, so the record at C goes at ts + retention.ms at the earliest. Adds a finding
 * "retention" only when it is not a pass: refused when C is below the log start already or the
 * headroom is below the margin (with the kafka-configs.sh line raising retention.ms to the age
 * of the record at C plus the margin and an hour, on who's bootstrap servers), a warning "not
 * checked" when there is no C or no record at or after it was found. Returns the headroom in
 * ms: LLONG_MAX when unlimited (or nothing at C yet: the next record is new), -1 when not a
 * pass. */
long long mm2_pf_headroom(struct mm2_pf_findings *f, const struct mm2_pf_who *who,
                          const struct mm2_pf_headroom *h, int64_t now_ms, long margin_ms);

/* The bytes a record takes in the log beyond its key, value and headers, as the retention.bytes
 * estimate counts it: a v2 record batch's 61-byte header (DefaultRecordBatch
 * RECORD_BATCH_OVERHEAD) as if every record were a batch of its own, and up to 19 bytes of the
 * record's own framing (DefaultRecord: its length, attributes, timestamp and offset deltas, key
 * and value lengths and header count, as varints). With the records' sizes read uncompressed,
 * an upper bound: batching and compression only make a record smaller on disk, so the estimate
 * errs towards refusing. */
#define MM2_PF_RECORD_OVERHEAD 80

/* One source partition as read for its retention.bytes headroom, which is an estimate: the
 * partition's size cannot be asked (librdkafka 2.8 has no DescribeLogDirs). C (< 0: none), the
 * log's start and end at the second of two reads interval_ms apart, its end at the first
 * (end_before: the produce rate is the end's move between them), the records read at or after
 * C (records) and their key, value and header bytes (record_bytes: the size a record takes),
 * and the topic's retention.bytes (-1: unlimited; a topic whose cleanup.policy has no "delete"
 * is unlimited too, the caller says so). */
struct mm2_pf_bytes {
    const char *topic;
    int32_t partition;
    int64_t c, log_start, log_end;
    int64_t end_before;
    long interval_ms;
    size_t records;
    unsigned long long record_bytes;
    long long retention_bytes;
};

/* Whether C stays in the log for margin_ms from now under retention.bytes, estimated. Kafka
 * deletes the oldest segment only while the log stays at least retention.bytes without it
 * (UnifiedLog.deleteRetentionSizeBreachedSegments), so C is kept as long as the bytes from C to
 * the log end stay below retention.bytes: about retention.bytes / B records, B the mean size of
 * the records read plus MM2_PF_RECORD_OVERHEAD; the log end moves at R records a second (its
 * move between the two reads), so C can go in about (retention.bytes / B - (end - C)) / R.
 * Adds a finding "retention-bytes" only when it is not a pass, each saying "estimate": refused
 * when C is below the log start already or the estimate is below the margin (with the
 * kafka-configs.sh line raising retention.bytes to B times the records behind C and those R
 * writes over the margin and an hour, in whole MiB, on who's bootstrap servers); a warning "not
 * checked" when there is no C, nothing was written between the reads (R is 0, or the end went
 * back), or no record was read to size. Returns the estimated headroom in ms: LLONG_MAX when
 * unlimited, -1 when not a pass. */
long long mm2_pf_bytes_headroom(struct mm2_pf_findings *f, const struct mm2_pf_who *who,
                                const struct mm2_pf_bytes *h, long margin_ms);

/* ---- the connector against Flink ------------------------------------------------------------ */

/* Findings about the connector's config (the "config" object of the connector JSON) against
 * Flink and Connect:
 *   "isolation"       flink_isolation ([flink] isolation.level; NULL: not stated, a warning)
 *                     against the source consumer's isolation.level (source.consumer.*, else
 *                     consumer.*, else Kafka's read_uncommitted): a difference is refused
 *   "topics"          topics.regex given (MirrorSourceConnector does not read it), topics absent
 *                     (its default, ".*", is every topic) or an entry that is a pattern rather
 *                     than a topic name: refused
 *   "refresh-topics"  refresh.topics.enabled (default true) and its interval, reported
 *   "offset-syncs"    on Connect 3.6 to 3.8 (connect_version, GET /'s) with
 *                     emit.offset-syncs.enabled=false: a warning naming the topic that will be
 *                     written, mm2-offset-syncs.<target.cluster.alias>.internal, and the cluster
 *                     it is on (offset-syncs.topic.location)
 * A value that is not a string is read as absent (mm2_connector_load refuses those anyway). */
void mm2_pf_connector(struct mm2_pf_findings *f, const cJSON *config, const char *flink_isolation,
                      const char *connect_version);

/* The entries of the connector's topics, when every one is a topic name (a "\\." in it, a
 * regex's literal dot, read as "."; a plain '.' is a regex's any character, which the caller
 * checks against the source's topics): the names, split at commas and trimmed, into a malloc'd
 * array of malloc'd strings (*out, *n; free with mm2_pf_names_free). MM2_CONFIG when topics is
 * absent, empty or holds a pattern (the reason in err), MM2_UNEXPECTED when out of memory. */
enum mm2_status mm2_pf_topic_names(const cJSON *config, char ***out, size_t *n,
                                   struct mm2_error *err);
void mm2_pf_names_free(char **names, size_t n);

/* ---- the workers ---------------------------------------------------------------------------- */

/* One worker asked GET /: the [connect] workers URL it was found under, its address, whether it
 * answered, and its version and commit (answered) or why not (error). */
struct mm2_pf_worker {
    const char *url;
    const char *addr;
    bool answered;
    const char *version; /* "" unless answered */
    const char *commit;
    const char *error; /* NULL when answered */
};

/* Findings "workers": none asked (n == 0: [connect] workers not set) is a warning, never a pass;
 * each worker that did not answer is refused, naming it; workers that report more than one
 * version and commit (a rolling update half done) are refused, each build with its addresses;
 * all answering with one build passes. */
void mm2_pf_workers(struct mm2_pf_findings *f, const struct mm2_pf_worker *w, size_t n);

/* The report's "findings" array (name, severity, principal, resource, message, fix), in the
 * list's order, added to parent with the counts ("pass", "warn", "refuse") as "summary".
 * MM2_UNEXPECTED when out of memory. */
enum mm2_status mm2_pf_add_json(cJSON *parent, const struct mm2_pf_findings *f,
                                struct mm2_error *err);

#endif
