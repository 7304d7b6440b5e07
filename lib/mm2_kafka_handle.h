/*
 * mm2_kafka_handle: the bottom of the Kafka client, internal to lib/mm2_kafka*.c (callers use
 * mm2_kafka.h, where struct mm2_kafka is opaque). It holds the client's state (struct mm2_kafka)
 * and each librdkafka handle's (struct handle), makes the handles on first use, and gives every
 * file above it the same messages, error rules, waiting, retry rule and argument checks.
 *
 * The Kafka client's files call one way, each only the files listed before it:
 *   mm2_kafka_handle.c   handles, messages, errors, waiting, retries, argument checks, pauses
 *   mm2_kafka.c          the client made from the caller's properties, and freed
 *   mm2_kafka_cluster.c  what the cluster says of itself: id, topics, log offsets (ListOffsets)
 *   mm2_kafka_admin.c    the Admin API calls: group offsets and state, commit, cleanup.policy,
 *                        and their one retry loop (mm2_kafka_admin.h)
 *   mm2_kafka_describe.c what a principal may do (KIP-430), one config's values per topic
 *   mm2_kafka_read.c     the bounded read of one partition, and the records it returns
 *   mm2_kafka_many.c     the read of many partition ranges in one pass
 *   mm2_kafka_produce.c  the trail's writes (a producer handle of its own)
 * This file calls none of the others.
 *
 * Contract:
 *   - Never prints, never exits. Errors come back as an enum mm2_status with err filled: one
 *     line, "[role] <what>: ..." (mm2_kafka_handle_fail); when only librdkafka saw the cause (no
 *     broker answered, the credentials were refused), the last error it reported on the handle is
 *     added, property values redacted (mm2_kafka_handle_fail_last_error).
 *   - Who frees what: mm2_kafka.c allocates struct mm2_kafka and frees it; the handles in it are
 *     made here on first use and destroyed here (mm2_kafka_handle_destroy_all; the read's further
 *     handles also by mm2_kafka_readers_release), each with its pause list. A struct handle
 *     pointer given out is k's: valid until k is freed (one of extra[] until its release). The
 *     index of mm2_kafka_handle_tp_index is the caller's to free, the list of
 *     mm2_kafka_handle_tp_list the caller's to destroy.
 *   - Waiting: every wait is cut into slices of at most SLICE_MS, and the handle's main queue is
 *     served between them (rd_kafka_poll: error_cb runs there), so that a refused login, a TLS
 *     handshake failed for good or an answer above receive.message.max.bytes ends a call at once
 *     (mm2_kafka_handle_hopeless) instead of at its deadline.
 *   - Threads: one call at a time on one struct mm2_kafka, but for mm2_kafka_read_many's lanes,
 *     each on a handle of its own and reading k's other fields only; librdkafka's broker threads
 *     touch a handle's sent counter alone (on_request_sent), hence the atomic.
 */
#ifndef MM2_KAFKA_HANDLE_H
#define MM2_KAFKA_HANDLE_H

#include <librdkafka/rdkafka.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mm2_kafka.h"

/* Before 2.6.1 librdkafka repeated its own nonce in the SCRAM client-final message
 * (librdkafka#4895), and Kafka 4.x brokers refuse every such login: make links the pinned
 * release scripts/librdkafka.sh builds, never an older system copy. */
#if RD_KAFKA_VERSION < 0x020601ff
#error "librdkafka 2.6.1 or later is required (SCRAM, librdkafka#4895): build with make"
#endif

#define ROLE_MAX 32
#define REASON_MAX 512  /* librdkafka's error text kept from error_cb */
#define SLICE_MS 100    /* longest single wait before error_cb is served again */
#define ERRSTR_MAX 2048 /* rd_kafka_new's refusal: large, so that it is redacted before any cut */
#define REDACT_MIN 4    /* shorter non-secret values are not searched for in librdkafka's text */

/* ---- the client's state ------------------------------------------------------------------ */

/* A partition a read paused: resumed only when a later read assigns it
 * (mm2_kafka_handle_paused_lift). */
struct paused_tp {
    char *topic;
    int32_t partition;
};

/* One librdkafka client and what its callbacks report. error_cb runs only inside rd_kafka_poll,
 * on the caller's thread; on_request_sent runs on broker threads, hence the atomic. */
struct handle {
    const struct mm2_kafka *k; /* for redacting what error_cb reports */
    rd_kafka_t *rk;
    atomic_long sent;
    int last_err;                 /* rd_kafka_resp_err_t from error_cb, 0 = none yet */
    char last_reason[REASON_MAX]; /* its text, values redacted ("" when withheld) */
    bool auth_failed;
    int auth_err;
    char auth_reason[REASON_MAX];
    bool tls_failed; /* a TLS handshake failed in a way waiting does not mend */
    int tls_err;
    char tls_reason[REASON_MAX];
    long long too_big; /* the size of an answer above receive.message.max.bytes, 0 = none */
    long long too_big_cap;
    struct paused_tp *paused; /* paused by a read and not resumed yet */
    size_t npaused, cappaused;
};

/* mm2_kafka_read_many spreads its ranges over up to MM2_KAFKA_HANDLE_READERS handles of the
 * isolation level asked, per_reader partitions at most on each (mm2_kafka_many.c says why):
 * h[committed] and as many of extra[committed] as it needs, each made on first use and kept for
 * later reads. A client therefore has up to 2 x 8 = 16 handles. */
#define MM2_KAFKA_HANDLE_READERS 8
#define MM2_KAFKA_HANDLE_PER_READER ((size_t)2500)

struct mm2_kafka {
    char role[ROLE_MAX];
    rd_kafka_conf_t *conf; /* the template each handle is made from */
    char **hidden;         /* property values kept out of messages (mm2_secret_redact) */
    bool *secret;          /* hidden[i] is a secret's: hidden at any length */
    size_t nhidden;
    struct handle h[2]; /* [0] read_uncommitted, [1] read_committed */
    struct handle extra[2][MM2_KAFKA_HANDLE_READERS - 1];
    struct handle prod; /* the trail's producer (mm2_kafka_produce.c), made on first use */
    size_t per_reader;  /* MM2_KAFKA_HANDLE_PER_READER; unit tests lower it to spread a few */
};

/* A partition asked for, and its place in the caller's array. */
struct tpidx {
    const char *topic;
    int32_t partition;
    size_t i;
};

/* Partitions per request that librdkafka matches to its list by linear search (ListOffsets in
 * rd_kafka_offsets_for_times, OffsetFetch, OffsetCommit): one call costs CPU as the square of its
 * partitions, so mm2_kafka_cluster.c and mm2_kafka_admin.c send them in calls of this many. */
#define MM2_KAFKA_HANDLE_PARTITIONS_PER_CALL ((size_t)1000)

/* ---- messages ---------------------------------------------------------------------------- */

/* Sets err to "[role] <fmt>" and returns code; with h not NULL, adds the last error librdkafka
 * reported on h, "(last librdkafka error: NAME: text)", the authentication failure first,
 * values redacted. Called through the two names below, which say which it is. */
enum mm2_status mm2_kafka_handle_report(const struct mm2_kafka *k, const struct handle *h,
                                        struct mm2_error *err, enum mm2_status code,
                                        const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* The message says everything: a bad argument, out of memory, an error librdkafka returned
 * (with its name). */
#define mm2_kafka_handle_fail(k, err, code, ...)                                                   \
    mm2_kafka_handle_report((k), NULL, (err), (code), __VA_ARGS__)

/* A failure whose cause only librdkafka saw (no broker answered, the credentials were
 * refused): its last reported error on h is added. */
#define mm2_kafka_handle_fail_last_error(k, h, err, code, ...)                                     \
    mm2_kafka_handle_report((k), (h), (err), (code), __VA_ARGS__)

/* rd_kafka_new refused a configuration: its text (errstr), values redacted, as MM2_CONFIG. */
enum mm2_status mm2_kafka_handle_refused(const struct mm2_kafka *k, const char *errstr,
                                         struct mm2_error *err);

/* ---- errors, waiting and retries --------------------------------------------------------- */

bool mm2_kafka_handle_auth_error(rd_kafka_resp_err_t e);
/* True for a consumer event that is no answer about a partition read and says nothing about one:
 * the private group's coordinator lookup refused (GROUP_AUTHORIZATION_FAILED without a topic).
 * The group is never joined and needs no ACL (docs/acls.md); librdkafka asks for its
 * coordinator because assign() needs a group.id. */
bool mm2_kafka_handle_group_noise(const rd_kafka_message_t *m);
/* Errors that may go away by themselves: retried until the deadline. */
bool mm2_kafka_handle_retriable(rd_kafka_resp_err_t e);
/* The status a librdkafka error ends a call with (docs/ARCHITECTURE.md §5). */
enum mm2_status mm2_kafka_handle_status_of(rd_kafka_resp_err_t e);
/* The time left on dl in ms, at most cap when cap > 0. */
int mm2_kafka_handle_slice_ms(const struct mm2_deadline *dl, long cap);
/* True when waiting longer changes nothing: the credentials were refused, a TLS handshake failed
 * for good, or an answer was above receive.message.max.bytes. */
bool mm2_kafka_handle_hopeless(const struct handle *h);
/* The status and message of a hopeless handle, the call named by what. */
enum mm2_status mm2_kafka_handle_hopeless_fail(const struct mm2_kafka *k, const struct handle *h,
                                               const char *what, struct mm2_error *err);
/* Serves h's main queue (error_cb runs here) for up to timeout_ms. */
void mm2_kafka_handle_serve(struct handle *h, int timeout_ms);
/* Sleeps up to the retry pause (never past the deadline), serving callbacks meanwhile. */
void mm2_kafka_handle_backoff(struct handle *h, const struct mm2_deadline *dl);

/* What one attempt of a retried call ended with. */
struct attempt {
    rd_kafka_resp_err_t e; /* NO_ERROR when done */
    const char *topic;     /* what an error is about, if any: a partition, or the topic's own */
    int32_t partition;     /* -1 for the topic's own error */
};

/* The one retry rule of the requests: ends a call whose attempt at failed, MM2_OK to try again
 * (after the retry pause), or the status to return, its message naming the call (what) and what
 * at says the error is about. A hopeless handle ends it at once, an authentication error is
 * MM2_CONFIG, another error that is not retriable MM2_UNEXPECTED, a retriable one
 * MM2_UNREACHABLE at the deadline. */
enum mm2_status mm2_kafka_handle_settle(struct mm2_kafka *k, struct handle *h,
                                        const struct attempt *at, const struct mm2_deadline *dl,
                                        const char *what, struct mm2_error *err);

/* ---- handles ----------------------------------------------------------------------------- */

/* Sets on conf, the template every handle is made from, the callbacks each handle needs:
 * librdkafka's log lines swallowed, its errors kept on the handle (error_cb). */
void mm2_kafka_handle_callbacks(rd_kafka_conf_t *conf);
/* Every handle of k unmade, its requests counted from 0. */
void mm2_kafka_handle_init_all(struct mm2_kafka *k);
/* Destroys every handle of k that was made and frees its pause list. */
void mm2_kafka_handle_destroy_all(struct mm2_kafka *k);
/* The handle of the isolation level asked (read_committed or not), made on first use. */
enum mm2_status mm2_kafka_handle_get(struct mm2_kafka *k, bool committed, struct handle **out,
                                     struct mm2_error *err);
/* The producer, made on first use: acks=all, one request in flight, not idempotent, lz4. */
enum mm2_status mm2_kafka_handle_producer(struct mm2_kafka *k, struct handle **out,
                                          struct mm2_error *err);
/* Its delivery report callback: each record's opaque is a struct mm2_kafka_tally. */
void mm2_kafka_handle_delivered(rd_kafka_t *rk, const rd_kafka_message_t *m, void *opaque);
struct mm2_kafka_tally {
    size_t acked, failed;
    rd_kafka_resp_err_t first; /* the first failure's error */
};
/* Reader j (0 to MM2_KAFKA_HANDLE_READERS - 1) of the isolation level asked: h[committed] for 0,
 * else extra[committed][j - 1], made on first use (*made says whether this call made it). */
enum mm2_status mm2_kafka_handle_reader(struct mm2_kafka *k, bool committed, size_t j,
                                        struct handle **out, bool *made, struct mm2_error *err);
/* Waits until h has cluster metadata: MM2_CONFIG at once when the credentials are refused,
 * MM2_UNREACHABLE at the deadline. */
enum mm2_status mm2_kafka_handle_wait_up(struct mm2_kafka *k, struct handle *h,
                                         const struct mm2_deadline *dl, const char *what,
                                         struct mm2_error *err);

/* ---- argument checks and partition lists ------------------------------------------------- */

/* Common entry checks: a client, a deadline not yet passed. */
enum mm2_status mm2_kafka_handle_enter(struct mm2_kafka *k, const struct mm2_deadline *dl,
                                       struct mm2_error *err);
/* Checks tps (n >= 1, topics named, partitions >= 0, none twice) and returns them sorted with
 * their index in *out (malloc'd), so that answers in any order map back to the caller's. */
enum mm2_status mm2_kafka_handle_tp_index(const struct mm2_kafka *k, const struct mm2_tp *tps,
                                          size_t n, struct tpidx **out, struct mm2_error *err);
/* The caller's index of topic[partition] in an index from mm2_kafka_handle_tp_index, or -1 when
 * it was not asked for. */
long mm2_kafka_handle_tp_find(const struct tpidx *v, size_t n, const char *topic,
                              int32_t partition);
/* tps as a librdkafka list, in the same order (NULL when out of memory). */
rd_kafka_topic_partition_list_t *mm2_kafka_handle_tp_list(const struct mm2_tp *tps, size_t n);

/* ---- the pauses reads leave behind ------------------------------------------------------- */

/* A pause belongs to the partition in librdkafka, not to the assignment, so a partition a read
 * paused stays paused after the unassign. Resuming every paused partition at the end of each read
 * took about as long as the read's fetching (bench/README.md, "The Kafka client's figures"); the
 * handle keeps the list instead, and a read resumes, of the partitions it is about to assign,
 * those on it, which few are. paused_add notes one (false when out of memory: the caller resumes
 * it at once). */
bool mm2_kafka_handle_paused_add(struct handle *h, const char *topic, int32_t partition);
/* Resumes those of the n partitions of idx (sorted: mm2_kafka_handle_tp_index) that h paused. */
void mm2_kafka_handle_paused_lift(struct handle *h, const struct tpidx *idx, size_t n);

#endif
