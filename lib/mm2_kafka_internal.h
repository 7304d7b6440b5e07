/*
 * mm2_kafka_internal: what mm2_kafka.c (the client, its handles, errors and waiting),
 * mm2_kafka_admin.c (the admin calls) and mm2_kafka_read.c (the bounded read) share. Not for
 * callers: they use mm2_kafka.h, where struct mm2_kafka is opaque.
 *
 * Every message is "[role] <what>: ..." (mm2k_fail); the functions that wait serve the handle's
 * main queue between slices of at most SLICE_MS, so that error_cb runs and an authentication
 * failure or an oversized answer ends the call at once (mm2k_hopeless).
 */
#ifndef MM2_KAFKA_INTERNAL_H
#define MM2_KAFKA_INTERNAL_H

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
#define REASON_MAX 512                   /* librdkafka's error text kept from error_cb */
#define SLICE_MS 100                     /* longest single wait before error_cb is served again */
#define ERR_OOM RD_KAFKA_RESP_ERR__BEGIN /* a marker librdkafka never returns: out of memory */
#define ERRSTR_MAX 2048 /* rd_kafka_new's refusal: large, so that it is redacted before any cut */
#define REDACT_MIN 4    /* shorter non-secret values are not searched for in librdkafka's text */

/* One librdkafka client and what its callbacks report. error_cb runs only inside rd_kafka_poll,
 * on the caller's thread; on_request_sent runs on broker threads, hence the atomic. */
/* A partition a read paused (mm2_kafka_many.c): resumed only when a later read assigns it. */
struct paused_tp {
    char *topic;
    int32_t partition;
};

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

/* mm2_kafka_read_many spreads its ranges over up to MM2K_READERS handles of the isolation level
 * asked, per_reader partitions at most on each (mm2_kafka_many.c says why): h[committed] and
 * as many of extra[committed] as it needs, each made on first use and kept for later reads. */
#define MM2K_READERS 8
#define MM2K_PER_READER ((size_t)2500)

struct mm2_kafka {
    char role[ROLE_MAX];
    rd_kafka_conf_t *conf; /* the template each handle is made from */
    char **hidden;         /* property values kept out of messages (mm2_secret_redact) */
    bool *secret;          /* hidden[i] is a secret's: hidden at any length */
    size_t nhidden;
    struct handle h[2];
    struct handle extra[2][MM2K_READERS - 1];
    size_t per_reader; /* MM2K_PER_READER; the unit tests lower it to spread a few partitions */
};

/* A partition asked for, and its place in the caller's array. */
struct tpidx {
    const char *topic;
    int32_t partition;
    size_t i;
};

/* ---- messages (mm2_kafka.c) -------------------------------------------------------------- */

/* Sets err to "[role] <fmt>" and returns code; with h not NULL, adds the last error librdkafka
 * reported on h, "(last librdkafka error: NAME: text)", the authentication failure first,
 * values redacted. Called through the two names below, which say which it is. */
enum mm2_status mm2k_report(const struct mm2_kafka *k, const struct handle *h,
                            struct mm2_error *err, enum mm2_status code, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* The message says everything: a bad argument, out of memory, an error librdkafka returned
 * (with its name). */
#define mm2k_fail(k, err, code, ...) mm2k_report((k), NULL, (err), (code), __VA_ARGS__)

/* A failure whose cause only librdkafka saw (no broker answered, the credentials were
 * refused): its last reported error on h is added. */
#define mm2k_fail_with_last_error(k, h, err, code, ...)                                            \
    mm2k_report((k), (h), (err), (code), __VA_ARGS__)

/* ---- errors and waiting (mm2_kafka.c) ---------------------------------------------------- */

bool mm2k_auth_error(rd_kafka_resp_err_t e);
/* Errors that may go away by themselves: retried until the deadline. */
bool mm2k_retriable(rd_kafka_resp_err_t e);
/* The status a librdkafka error ends a call with. */
enum mm2_status mm2k_status_of(rd_kafka_resp_err_t e);
/* The time left on dl in ms, at most cap when cap > 0. */
int mm2k_slice_ms(const struct mm2_deadline *dl, long cap);
/* True when waiting longer changes nothing: the credentials were refused, or an answer was
 * above receive.message.max.bytes. */
bool mm2k_hopeless(const struct handle *h);
enum mm2_status mm2k_hopeless_fail(const struct mm2_kafka *k, const struct handle *h,
                                   const char *what, struct mm2_error *err);
/* Serves h's main queue (error_cb runs here) for up to timeout_ms. */
void mm2k_serve(struct handle *h, int timeout_ms);
/* Sleeps up to the retry pause (never past the deadline), serving callbacks meanwhile. */
void mm2k_backoff(struct handle *h, const struct mm2_deadline *dl);
/* The handle of the isolation level asked (read_committed or not), made on first use. */
enum mm2_status mm2k_handle_get(struct mm2_kafka *k, bool committed, struct handle **out,
                                struct mm2_error *err);
/* Reader j (0 to MM2K_READERS - 1) of the isolation level asked: h[committed] for 0, else
 * extra[committed][j - 1], made on first use (*made says whether this call made it). */
enum mm2_status mm2k_reader_get(struct mm2_kafka *k, bool committed, size_t j, struct handle **out,
                                bool *made, struct mm2_error *err);
/* rd_kafka_new refused a configuration: its text (errstr), values redacted, as MM2_CONFIG. */
enum mm2_status mm2k_refused(const struct mm2_kafka *k, const char *errstr, struct mm2_error *err);
/* Sets on conf, the template every handle is made from, the callbacks each handle needs:
 * librdkafka's log lines swallowed, its errors kept on the handle (error_cb). */
void mm2k_callbacks(rd_kafka_conf_t *conf);
/* Every handle of k unmade, its requests counted from 0. */
void mm2k_handles_init(struct mm2_kafka *k);
/* Destroys every handle of k that was made and frees what each keeps. */
void mm2k_handles_destroy(struct mm2_kafka *k);
/* Waits until h has cluster metadata: MM2_CONFIG at once when the credentials are refused,
 * MM2_UNREACHABLE at the deadline. */
enum mm2_status mm2k_wait_up(struct mm2_kafka *k, struct handle *h, const struct mm2_deadline *dl,
                             const char *what, struct mm2_error *err);

/* ---- retries (mm2_kafka_handle.c) ------------------------------------------------------- */

/* What one attempt of a retried call ended with. */
struct attempt {
    rd_kafka_resp_err_t e; /* NO_ERROR when done */
    const char *topic;     /* the partition an error is about, if any */
    int32_t partition;
};

/* Ends a retried call whose attempt failed: MM2_OK to try again (after the retry pause), or the
 * status to return, its message naming the call (what) and, when at says, the topic (partition
 * -1: the topic's own error) or partition. A handle that waiting cannot mend ends it at once, an
 * authentication error is MM2_CONFIG, another error that is not retriable MM2_UNEXPECTED, a
 * retriable one MM2_UNREACHABLE at the deadline. */
enum mm2_status mm2k_settle(struct mm2_kafka *k, struct handle *h, const struct attempt *at,
                            const struct mm2_deadline *dl, const char *what, struct mm2_error *err);

/* ---- argument checks (mm2_kafka_handle.c) ------------------------------------------------ */

/* Common entry checks: a client, a deadline not yet passed. */
enum mm2_status mm2k_enter(struct mm2_kafka *k, const struct mm2_deadline *dl,
                           struct mm2_error *err);
/* Checks tps (n >= 1, topics named, partitions >= 0, none twice) and returns them sorted with
 * their index in *out (malloc'd), so that answers in any order map back to the caller's. */
enum mm2_status mm2k_tp_index(const struct mm2_kafka *k, const struct mm2_tp *tps, size_t n,
                              struct tpidx **out, struct mm2_error *err);
/* The caller's index of topic[partition] in an index from mm2k_tp_index, or -1 when it was
 * not asked for. */
long mm2k_tp_find(const struct tpidx *v, size_t n, const char *topic, int32_t partition);
/* tps as a librdkafka list, in the same order (NULL when out of memory); the caller destroys it. */
rd_kafka_topic_partition_list_t *mm2k_tp_list(const struct mm2_tp *tps, size_t n);

/* The pauses reads leave behind (mm2_kafka_handle.c). A pause belongs to the partition in
 * librdkafka, not to the assignment, so a partition a read paused stays paused after the
 * unassign. Resuming every paused partition at the end of a read cost librdkafka about 35 ms per
 * 1,000 partitions; they are resumed instead when a read assigns them again, which few are. */
bool mm2k_paused_add(struct handle *h, const char *topic, int32_t partition);
/* Resumes those of the n partitions of idx (sorted: mm2k_tp_index) that h has paused. */
void mm2k_paused_lift(struct handle *h, const struct tpidx *idx, size_t n);

/* ---- log offsets (mm2_kafka_cluster.c) --------------------------------------------------- */

/* Partitions per rd_kafka_offsets_for_times or ListConsumerGroupOffsets call: librdkafka 2.0.2
 * matches answers to lists by linear search, so one call's CPU grows as the square of its
 * partitions (mm2k_list_offsets says where). */
#define MM2K_PARTITIONS_PER_CALL ((size_t)1000)
/* ListOffsets for timestamp ts (-2 log start, -1 end by h's isolation.level) on every
 * partition into out, in the caller's order, retried until the deadline; the caller has
 * checked tps (mm2k_tp_index). */
enum mm2_status mm2k_list_offsets(struct mm2_kafka *k, struct handle *h, const struct mm2_tp *tps,
                                  size_t n, int64_t ts, int64_t *out, const char *what,
                                  const struct mm2_deadline *dl, struct mm2_error *err);

/* ---- records (mm2_kafka_read.c) ---------------------------------------------------------- */

/* Appends a copy of m (key, value, headers, timestamp) to out, growing it (*cap entries) up to
 * max entries; false when out of memory (what was copied stays in out, to be freed with it). */
/* Drops the last record of l (the one mm2k_record_append just added). */
void mm2k_record_pop(struct mm2_record_list *l);
bool mm2k_record_append(struct mm2_record_list *out, size_t *cap, size_t max,
                        const rd_kafka_message_t *m);

#endif
