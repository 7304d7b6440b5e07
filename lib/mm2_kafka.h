/*
 * mm2_kafka: what mm2-offsets asks of a Kafka cluster (docs/ARCHITECTURE.md §3.4 and §4.4): the
 * cluster id, topic metadata, a consumer group's committed offsets and state, log start / end /
 * last stable offsets, a group offset commit (rollback), the topics' cleanup.policy and bounded
 * reads of records (the boundary check). On librdkafka 2.8.0, the pinned release
 * scripts/librdkafka.sh builds and make links statically, not Debian 12's 2.0.2 (its SCRAM logins
 * fail on Kafka 4.x, librdkafka#4895); where a comment names 2.0.2, that is the version the
 * behaviour was first measured on (docs/ARCHITECTURE.md §4.4).
 *
 * The declarations are grouped by the file that defines them, each group with what it adds to
 * this contract; the files call each other one way, in the order mm2_kafka_handle.h lists.
 *
 * Contract:
 *   - Never prints, never exits. librdkafka's own log lines are swallowed; the last error it
 *     reported (error_cb) is kept and added to an error's context where it explains a failure.
 *   - Never puts a property VALUE in an error: values may be secrets (sasl.password, ...).
 *     Errors name the role ("source"/"target") and the property key only. librdkafka's own
 *     text, where added for context, has every property value replaced by "<redacted>" except
 *     those of bootstrap.servers, security.protocol and sasl.mechanism(s), which are not
 *     secrets and say what failed; it is withheld entirely when a secret is shorter than 4
 *     characters.
 *   - struct mm2_kafka is opaque; mm2_kafka_new copies everything it keeps; mm2_kafka_free
 *     accepts NULL. A client holds up to 16 librdkafka consumer handles, each made on first use
 *     and reused: one per isolation level (read_uncommitted, read_committed) that every call
 *     uses, and up to 7 more per isolation level for mm2_kafka_read_many's lanes (kept for the
 *     next read until mm2_kafka_readers_release). All share one private group.id that is never
 *     joined (assign() only). No call forks; mm2_kafka_read_many reads its lanes on threads of
 *     its own, all joined before it returns. Calls on one struct mm2_kafka must not run
 *     concurrently.
 *   - Invalid arguments (NULL where a value is needed, no partitions, a partition listed twice,
 *     a negative partition or offset) are MM2_USAGE, checked before anything is sent.
 *   - Every call that talks to the cluster takes a deadline and returns by it (retrying
 *     retriable per-partition errors such as LEADER_NOT_AVAILABLE until then). A deadline
 *     already passed sends nothing.
 *   - Status codes (docs/ARCHITECTURE.md §5): MM2_CONFIG for a property librdkafka refuses, a
 *     reserved property, a SASL mechanism or security protocol this librdkafka was not built
 *     with (builtin.features), or an authentication failure (reported as soon as a broker refuses
 *     the credentials, not at the deadline); MM2_UNREACHABLE when no broker answered by the
 *     deadline, or only with retriable errors; MM2_UNEXPECTED for any other broker error (the
 *     message names the topic, partition and librdkafka's error name).
 *   - Every broker answer, metadata included, is capped at MM2_KAFKA_RESPONSE_MAX bytes
 *     (receive.message.max.bytes, mm2_limits.h; the caller may lower it, not raise it:
 *     MM2_CONFIG), and a fetch at MM2_KAFKA_FETCH_MAX (fetch.max.bytes; a lowered cap takes
 *     fetch.max.bytes and message.max.bytes below it, unless the caller sets them). librdkafka
 *     drops a connection whose answer is larger and asks again for ever: the call ends at once
 *     instead, MM2_UNEXPECTED naming the answer's size and the cap.
 *   - Offsets are int64_t. MM2_OFFSET_NONE (-1001, librdkafka's RD_KAFKA_OFFSET_INVALID) means
 *     "no committed offset".
 */
#ifndef MM2_KAFKA_H
#define MM2_KAFKA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mm2_deadline.h"
#include "mm2_err.h"

#define MM2_OFFSET_NONE (-1001)
/* The group.id of every handle, never joined (assign() only). librdkafka still looks up its
 * coordinator when a consumer starts (FindCoordinator), and a broker with an authorizer refuses
 * that without Describe on this group: every read then fails with GROUP_AUTHORIZATION_FAILED
 * (measured on Kafka 4.3.1 with StandardAuthorizer). */
#define MM2_KAFKA_PRIVATE_GROUP "mm2kit-offsets-never-joined"
#define MM2_KAFKA_CLUSTER_ID_MAX 64

/* One librdkafka property as the INI file gave it (after ${env:VAR} expansion). Borrowed. */
struct mm2_kv {
    const char *key;
    const char *value;
};

/* One topic partition. The topic string is borrowed from the caller. */
struct mm2_tp {
    const char *topic;
    int32_t partition;
};

struct mm2_kafka;

/* ---- the client (mm2_kafka.c) ------------------------------------------------------------ */
/* A client is made from the caller's properties without a byte sent (MM2_USAGE for a bad
 * argument, MM2_CONFIG for a property refused); its handles come with the first call that needs
 * each, and go with mm2_kafka_free. */

/* Creates a client for one cluster. role ("source" or "target", 1 to 31 characters) prefixes
 * every error, as in "[source] unknown librdkafka property 'foo'". props are applied in order
 * with rd_kafka_conf_set; these keys are refused because mm2-offsets sets them itself: group.id,
 * group.instance.id, isolation.level, enable.auto.commit (and its legacy alias
 * auto.commit.enable), enable.auto.offset.store, auto.offset.reset, enable.partition.eof,
 * offset.store.method, enable.metrics.push (off: no KIP-714 metrics). client.id defaults to
 * "mm2-offsets-<role>" and fetch.wait.max.ms to 100 (a bounded read learns it reached the end from
 * an empty fetch). When security.protocol is SASL_* the mechanism in sasl.mechanisms (or
 * sasl.mechanism; librdkafka's default is GSSAPI) must be in builtin.features (see
 * mm2_kafka_features_ok); SSL and SASL_SSL need ssl. Nothing is sent to the network here: what
 * rd_kafka_new itself checks (TLS files, SASL settings) is checked on a client with no brokers,
 * made and destroyed at once. That check is skipped for GSSAPI (librdkafka runs
 * sasl.kerberos.kinit.cmd at start) and for OAUTHBEARER with sasl.oauthbearer.method=oidc (it
 * fetches a token at start): there, such errors come back as MM2_CONFIG from the first call. *out
 * is NULL on failure. */
enum mm2_status mm2_kafka_new(const char *role, const struct mm2_kv *props, size_t nprops,
                              struct mm2_kafka **out, struct mm2_error *err);
void mm2_kafka_free(struct mm2_kafka *k);

/* The version of the librdkafka linked in ("2.8.0"; scripts/librdkafka.sh pins it). */
const char *mm2_kafka_version(void);

/* True when a librdkafka with these builtin.features (comma-separated, as the property reads)
 * can speak security_protocol (NULL: plaintext; case-insensitive) with sasl_mechanism (NULL:
 * GSSAPI, librdkafka's default; only looked at for SASL_*): PLAIN needs sasl_plain,
 * SCRAM-SHA-256/512 sasl_scram, GSSAPI sasl_gssapi, OAUTHBEARER sasl_oauthbearer; SSL and
 * SASL_SSL need ssl. On false, a reason naming the property key and the missing feature (never
 * the value) goes into why (whylen bytes; why may be NULL). mm2_kafka_new applies it to the
 * linked librdkafka's builtin.features. */
bool mm2_kafka_features_ok(const char *features, const char *security_protocol,
                           const char *sasl_mechanism, char *why, size_t whylen);

/* ---- handles (mm2_kafka_handle.c) -------------------------------------------------------- */
/* What the client's handles report and hold, shared by every call below: the TLS failures that
 * end a call at once, the read's further handles released, the requests counted. */

/* True when librdkafka's error err with text reason (error_cb's) is a TLS handshake failure that
 * waiting does not mend: this client did not verify the broker's certificate ("certificate verify
 * failed": a CA other than the one in ssl.ca.location, a name or address the certificate does not
 * carry, an expired certificate), or the broker sent a TLS alert (it refused this client's
 * certificate: expired, unknown CA, none given), in the handshake or, with TLS 1.3, at the first
 * read after it. mm2-offsets then stops at once, exit 4, instead of retrying until its deadline. */
bool mm2_kafka_tls_hopeless(int err, const char *reason);

/* Destroys the further handles mm2_kafka_read_many made (its lanes beyond the first): a handle
 * keeps librdkafka's state for every partition it was ever assigned, so a caller reading many
 * partitions in turns releases them between turns to hold one turn's worth; the next read
 * makes them again (their connections and metadata, a few requests each). Their requests stay
 * counted. Never fails; a NULL k is ignored. */
void mm2_kafka_readers_release(struct mm2_kafka *k);

/* Every handle of k destroyed, the two that every call uses and the producer included, each made
 * again on its next use (its connections, login and metadata anew, a few requests). A handle
 * keeps the state of every partition of every topic it has read (about 4 KiB each in
 * librdkafka, its toppars and their queues) until it is destroyed: export's boundary read in
 * turns releases them all between turns, so that a turn's partitions are given back before the
 * next turn reads its own (bench/README.md, issue 37 §5). Requests stay counted. Never fails; a
 * NULL k is ignored. */
void mm2_kafka_release(struct mm2_kafka *k);

/* Limits glibc's malloc to MM2_KAFKA_ARENAS arenas for the whole process; call once, first,
 * before any thread starts. Each thread that allocates gets an arena of its own up to 8 per core
 * by default, and an arena keeps what its thread freed: librdkafka's threads (a few per handle,
 * up to 16 reader handles a client) left export at 50,000 partitions 48 MiB above what it
 * held (bench/README.md, issue 37 §5). Does nothing with another C library. */
#define MM2_KAFKA_ARENAS 2
void mm2_kafka_arenas(void);

/* Requests this client has sent to brokers so far (for the benchmark's round-trip counts),
 * summed over its handles: each request is counted once, when fully written to its socket, by an
 * on_request_sent interceptor. That is the event librdkafka's per-broker "tx" statistic counts
 * (checked equal on 2.0.2), read at once instead of at the next statistics interval. It includes
 * librdkafka's own requests (ApiVersion, SASL handshake and authentication, Metadata,
 * FindCoordinator, Fetch). 0 for NULL and before the first call. A warm mm2_kafka_log_offsets
 * costs one request per leader for each offset asked and each 1,000 partitions, not one per
 * partition (bench/README.md, "The Kafka client's figures"). */
long mm2_kafka_requests(const struct mm2_kafka *k);

/* ---- what the cluster says of itself (mm2_kafka_cluster.c) ------------------------------- */
/* Metadata and ListOffsets, asked through the client's own handles (one per isolation level),
 * each request retried until the deadline while its errors are retriable. */

/* The cluster id (rd_kafka_clusterid) into out (at least MM2_KAFKA_CLUSTER_ID_MAX bytes). */
enum mm2_status mm2_kafka_cluster_id(struct mm2_kafka *k, const struct mm2_deadline *dl, char *out,
                                     size_t outlen, struct mm2_error *err);

struct mm2_topic_meta {
    char *name;
    int32_t partitions;
};

struct mm2_topic_list {
    struct mm2_topic_meta *v; /* sorted by name (strcmp) */
    size_t n;
};

/* Every topic of the cluster (internal ones included: the caller filters) with its partition
 * count, from one metadata request (asked again while a topic answers with a retriable error,
 * as one being created does). *out is reset first. Free with mm2_topic_list_free (accepts NULL
 * and a zeroed list). */
enum mm2_status mm2_kafka_topics(struct mm2_kafka *k, const struct mm2_deadline *dl,
                                 struct mm2_topic_list *out, struct mm2_error *err);
void mm2_topic_list_free(struct mm2_topic_list *l);

/* For each of the n partitions: the log start offset into start[i] (when start is not NULL),
 * the high watermark into end[i], and, when stable is not NULL, the last stable offset into
 * stable[i]. One rd_kafka_offsets_for_times request per leader (and per 1,000 partitions) for
 * each of: -2 (start) and -1 (end) on a read_uncommitted handle, -1 on a read_committed handle
 * (the last stable offset: ListOffsets carries the handle's isolation.level). Never
 * query_watermark_offsets (two requests per partition, an unenforced timeout in 2.0.2). The three
 * answers are three moments: on a partition being written, end may have moved past stable. A
 * partition that does not exist is MM2_UNEXPECTED naming it (librdkafka's _UNKNOWN_PARTITION). The
 * outputs are only meaningful on MM2_OK. */
enum mm2_status mm2_kafka_log_offsets(struct mm2_kafka *k, const struct mm2_tp *tps, size_t n,
                                      int64_t *start, int64_t *end, int64_t *stable,
                                      const struct mm2_deadline *dl, struct mm2_error *err);

/* ---- the Admin API calls (mm2_kafka_admin.c) --------------------------------------------- */
/* A group's offsets and state, the offset commit, the topics' cleanup.policy: librdkafka's
 * Admin API on the read_uncommitted handle, each call retried until the deadline while its
 * errors are retriable, never past it. */

/* The committed offset of group for each of the n partitions, asked with the explicit partition
 * list (rd_kafka_ListConsumerGroupOffsets, require_stable), so a partition the group never
 * committed comes back as MM2_OFFSET_NONE instead of vanishing. out has n entries, in the order
 * of tps. A group that does not exist gives MM2_OFFSET_NONE everywhere, and so does a topic that
 * does not exist (the broker does not check: measured on 4.3.1). While a transactional offset
 * commit to the group is pending, the broker answers UNSTABLE_OFFSET_COMMIT and librdkafka asks
 * again by itself: the call returns once the transaction ends, or at the deadline with
 * MM2_UNREACHABLE ("no complete answer by the deadline (_TIMED_OUT)", measured). out is only
 * meaningful on MM2_OK. */
enum mm2_status mm2_kafka_committed(struct mm2_kafka *k, const char *group,
                                    const struct mm2_tp *tps, size_t n, int64_t *out,
                                    const struct mm2_deadline *dl, struct mm2_error *err);

struct mm2_group_info {
    char state[32]; /* "Empty", "Stable", "Dead", ... (rd_kafka_consumer_group_state_name) */
    int members;    /* number of members */
    char protocol_type[32]; /* "consumer", or "" for a group with no protocol */
};

/* The group's state from rd_kafka_DescribeConsumerGroups (not ListConsumerGroups: buggy in
 * 2.0.x). Flink's source uses assign(), so "Empty" with no members proves nothing by itself.
 * A group that does not exist is "Dead" with no members. So is, on Kafka 4.x, any group the
 * classic DescribeGroups (the only request librdkafka 2.8.0's call sends) cannot describe:
 * measured on 4.3.1, a KIP-848 group (group.protocol=consumer) with one active member reads
 * "Dead", 0 members. "Dead" therefore never proves a group stopped. librdkafka 2.8.0 has no
 * protocol-type accessor: protocol_type is "" for a "simple" group (offsets committed without
 * membership, as Flink does) and "consumer" otherwise. */
enum mm2_status mm2_kafka_group(struct mm2_kafka *k, const char *group,
                                const struct mm2_deadline *dl, struct mm2_group_info *out,
                                struct mm2_error *err);

/* For each of the n topics (distinct), whether its cleanup.policy holds "compact" (a list:
 * "compact", "delete", "compact,delete"), into compacted[i]: one DescribeConfigs request asking
 * for that key only. A compacted partition's offsets have holes where records were removed, so
 * the boundary proof must know it rather than guess. A topic that does not exist, or that the
 * user may not DescribeConfigs, is MM2_UNEXPECTED naming it and the broker's error; an answer
 * without the key is _BAD_MSG, never "not compacted". Retriable errors are retried. */
enum mm2_status mm2_kafka_compacted(struct mm2_kafka *k, const char *const *topics, size_t n,
                                    bool *compacted, const struct mm2_deadline *dl,
                                    struct mm2_error *err);

/* Commits offsets[i] (>= 0) for tps[i] to group (rd_kafka_AlterConsumerGroupOffsets). The broker
 * refuses it while the group has active members (UNKNOWN_MEMBER_ID, measured for classic and
 * KIP-848 groups): that comes back as MM2_UNEXPECTED naming the error. Not atomic across
 * partitions: after an error, some may have been committed; re-read with mm2_kafka_committed.
 * Retriable errors are retried (the same offsets written again). */
enum mm2_status mm2_kafka_commit(struct mm2_kafka *k, const char *group, const struct mm2_tp *tps,
                                 const int64_t *offsets, size_t n, const struct mm2_deadline *dl,
                                 struct mm2_error *err);

/* ---- what a principal may do (mm2_kafka_describe.c) -------------------------------------- */
/* What a principal may do, as Kafka answers it to that principal's own credentials (KIP-430:
 * the describe calls with include_authorized_operations; preflight, lib/mm2_preflight.h), and
 * one config's values. Kafka answers only for what exists and what the principal may Describe:
 * each answer says which it was. Errors other than those (a retriable one is retried) end the
 * call as the others do; a broker without the request (librdkafka's _UNSUPPORTED_FEATURE) is
 * "not answered" everywhere, never an error and never a grant. */
enum mm2_kafka_seen {
    MM2_KAFKA_SEEN_OPS,        /* described: ops holds what it may do */
    MM2_KAFKA_SEEN_ABSENT,     /* UNKNOWN_TOPIC_OR_PART: does not exist */
    MM2_KAFKA_SEEN_DENIED,     /* TOPIC_ or GROUP_AUTHORIZATION_FAILED: not even Describe */
    MM2_KAFKA_SEEN_UNANSWERED, /* described without operations, or the request unsupported */
};

struct mm2_kafka_described {
    int seen;            /* enum mm2_kafka_seen */
    uint32_t ops;        /* 1 << rd_kafka_AclOperation_t (Kafka's AclOperation code) of each */
    int32_t partitions;  /* a topic described: its partition count; else -1 */
    int32_t replication; /* a topic described: the fewest replicas of any partition; else -1 */
};

/* For each of the n topics (distinct, at least one): rd_kafka_DescribeTopics (a Metadata
 * request naming them, which creates nothing) with their authorized operations, into out[i]. */
enum mm2_status mm2_kafka_describe_topics(struct mm2_kafka *k, const char *const *topics, size_t n,
                                          struct mm2_kafka_described *out,
                                          const struct mm2_deadline *dl, struct mm2_error *err);
/* The group's authorized operations (rd_kafka_DescribeConsumerGroups). Kafka describes a group
 * that does not exist as "Dead": its ACLs are by name, so the answer stands; a principal without
 * Describe on it is MM2_KAFKA_SEEN_DENIED. librdkafka 2.8 describes consumer groups only: any
 * other (a Connect group) is MM2_KAFKA_SEEN_UNANSWERED. */
enum mm2_status mm2_kafka_describe_group(struct mm2_kafka *k, const char *group,
                                         struct mm2_kafka_described *out,
                                         const struct mm2_deadline *dl, struct mm2_error *err);
/* The cluster's authorized operations (rd_kafka_DescribeCluster, Kafka 2.8 and later). Kafka
 * returns them only to a principal with Describe on the cluster, and an empty set otherwise
 * (AuthHelper.computeDescribeClusterResponse): empty says nothing of any other operation. */
enum mm2_status mm2_kafka_describe_cluster(struct mm2_kafka *k, struct mm2_kafka_described *out,
                                           const struct mm2_deadline *dl, struct mm2_error *err);

#define MM2_KAFKA_CONFIG_VALUE_MAX 128
struct mm2_kafka_config_value {
    int seen; /* MM2_KAFKA_SEEN_OPS: value holds it; UNANSWERED: the answer had no such key */
    char value[MM2_KAFKA_CONFIG_VALUE_MAX];
};
/* For each of the n topics (distinct, at least one), its config key (one DescribeConfigs
 * request asking for that key only) into out[i]: absent, denied (no DescribeConfigs), or the
 * value (cut to MM2_KAFKA_CONFIG_VALUE_MAX - 1 bytes). */
enum mm2_status mm2_kafka_describe_config(struct mm2_kafka *k, const char *const *topics, size_t n,
                                          const char *key, struct mm2_kafka_config_value *out,
                                          const struct mm2_deadline *dl, struct mm2_error *err);

/* A topic to create: partitions and replication_factor as CreateTopics takes them (-1: the
 * broker's default), configs applied at creation. */
struct mm2_kafka_new_topic {
    const char *topic;
    int partitions;
    int replication_factor;
    const struct mm2_kv *configs;
    size_t nconfigs;
};
/* Creates t (one CreateTopics request, retried like every admin call); *created is false when it
 * existed already (TOPIC_ALREADY_EXISTS is no error). Needs Create on the topic or the cluster. */
enum mm2_status mm2_kafka_create_topic(struct mm2_kafka *k, const struct mm2_kafka_new_topic *t,
                                       bool *created, const struct mm2_deadline *dl,
                                       struct mm2_error *err);

/* ---- the trail's writes (mm2_kafka_produce.c) -------------------------------------------- */

/* One record to write; everything borrowed (copied when sent). */
struct mm2_kafka_out {
    const void *key;
    size_t key_len;
    const void *value;
    size_t value_len;
    const struct mm2_kv *headers; /* string values */
    size_t nheaders;
};

/* Writes the n records to one partition of topic, in order, and waits until every one is
 * acknowledged by all in-sync replicas (acks=all) or the deadline passes. The producer (made on
 * first use from the client's properties) keeps one request in flight and is not idempotent (no
 * IdempotentWrite needed): a retried request may write a record twice, never two out of order.
 * Records are lz4-compressed. A record not acknowledged fails the call: MM2_UNREACHABLE at the
 * deadline (those still queued are purged), otherwise the status of librdkafka's error (a
 * refused login is MM2_CONFIG, a refused Write MM2_UNEXPECTED), naming the topic and how many of
 * the n were written. */
enum mm2_status mm2_kafka_produce(struct mm2_kafka *k, const char *topic, int32_t partition,
                                  const struct mm2_kafka_out *recs, size_t n,
                                  const struct mm2_deadline *dl, struct mm2_error *err);

/* ---- the bounded read and its records (mm2_kafka_read.c) --------------------------------- */
/* A record list owns copies of everything its records hold, whatever the call returned: free it
 * with mm2_record_list_free. */

struct mm2_header {
    char *name;
    unsigned char *value; /* NULL for a null header value */
    size_t len;
};

struct mm2_record {
    int64_t offset;
    int64_t timestamp;
    int tstype;         /* 0 none, 1 CreateTime, 2 LogAppendTime (rd_kafka_timestamp_type_t) */
    unsigned char *key; /* NULL for a null key */
    size_t key_len;
    unsigned char *value; /* NULL for a null value (tombstone) */
    size_t value_len;
    struct mm2_header *headers;
    size_t nheaders;
};

struct mm2_record_list {
    struct mm2_record *v; /* in offset order */
    size_t n;
};

/* Reads the data records of one partition with offsets in [from, until), at most max records
 * (max >= 1). until = -1 means "the partition's end when the read starts" (the last stable
 * offset when committed is true, else the high watermark); an until beyond that end is cut to
 * it, so a range at or past the end reads nothing (MM2_OK, empty list). The end is asked for in
 * every case (one ListOffsets request): a partition that does not exist is MM2_UNEXPECTED at
 * once. A from below the log start is MM2_UNEXPECTED ("outside the partition's log"), never a
 * silent jump. committed selects isolation.level read_committed (aborted records are skipped);
 * transaction markers are never returned, so offsets may have gaps. Returns when max records
 * were read, the end was reached, or the deadline passed (MM2_UNREACHABLE, the list keeping what
 * was read). *out is reset first and holds what was read whatever the status: free it with
 * mm2_record_list_free (accepts NULL and a zeroed list). A read that follows another on the same
 * client may wait up to fetch.wait.max.ms (mm2-offsets' default: 100 ms) for the previous
 * fetch to return. */
enum mm2_status mm2_kafka_read(struct mm2_kafka *k, const char *topic, int32_t partition,
                               int64_t from, int64_t until, size_t max, bool committed,
                               const struct mm2_deadline *dl, struct mm2_record_list *out,
                               struct mm2_error *err);
void mm2_record_list_free(struct mm2_record_list *l);

/* The memory one record held in a list takes, as the boundary read counts it: its key, value
 * and headers, its slot in the list (twice: a list grows by doubling) and each allocation's
 * bookkeeping (MM2_RECORD_ALLOC_COST, glibc's 16 bytes rounded up). Records of a few bytes cost
 * about 200 bytes each, not their size. */
#define MM2_RECORD_ALLOC_COST 32
size_t mm2_record_cost(const struct mm2_record *r);
size_t mm2_record_list_cost(const struct mm2_record_list *l);

/* ---- the read of many partition ranges (mm2_kafka_many.c) -------------------------------- */
/* One pass over many ranges, on up to 8 handles of the isolation level asked read side by side;
 * the records all ranges hold together never pass the memory cap the caller gives. */

/* One partition range for mm2_kafka_read_many: the data records with from <= offset < until. */
struct mm2_read_range {
    const char *topic; /* borrowed */
    int32_t partition;
    int64_t from;
    int64_t until; /* at most the partition's end (the caller knows it: mm2_kafka_log_offsets) */
};

/* How much one mm2_kafka_read_many may read: budget is the key and value bytes of one range
 * (a range it would pass is cut), memory what all the ranges' records may take together
 * (mm2_record_cost; SIZE_MAX: no cap). */
struct mm2_read_caps {
    size_t budget;
    size_t memory;
};

/* Reads n ranges (each partition at most once) in one pass: all are assigned together, spread
 * over up to 8 consumers of at most 2,500 partitions each (mm2_kafka_many.c says why), read side
 * by side, so each Fetch a consumer sends a leader carries every partition of its share that
 * leader holds, and the requests grow with the bytes read and the consumers, not with n. A range
 * ends at its last offset, at the partition's end (an until past the end is not waited for), or
 * once the key and value bytes read from it would pass caps->budget: then cut[i] is set and out[i]
 * holds the records before that point. A range whose next record would take the records held by all
 * ranges past caps->memory is deferred (deferred[i] set, out[i] empty, its records freed), to be
 * read again later, and the other ranges go on; deferred may be NULL only without a memory cap. A
 * from below the log start is MM2_UNEXPECTED naming the partition. committed selects read_committed
 * (aborted records skipped; markers are never returned). out[i], cut[i] and deferred[i] for range i
 * (out reset first; free each with mm2_record_list_free, whatever the status; each list's array is
 * no larger than its records). Returns when every range ended or was deferred, or at the
 * deadline (MM2_UNREACHABLE, naming how many were left). */
enum mm2_status mm2_kafka_read_many(struct mm2_kafka *k, const struct mm2_read_range *r, size_t n,
                                    bool committed, const struct mm2_read_caps *caps,
                                    const struct mm2_deadline *dl, struct mm2_record_list *out,
                                    bool *cut, bool *deferred, struct mm2_error *err);

#endif
