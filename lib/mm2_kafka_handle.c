/*
 * mm2_kafka_handle: the bottom of the Kafka client (see mm2_kafka_handle.h): the librdkafka
 * handles of a client, made on first use and reused, the messages every call ends with (what
 * librdkafka reported, redacted), and the waiting between requests.
 *
 * Two consumer handles per client, made on first use and reused: h[0] read_uncommitted (cluster
 * id, metadata, group offsets and state, commits, log start and high watermark, uncommitted
 * reads) and h[1] read_committed (last stable offset, committed reads). ListOffsets carries the
 * handle's isolation.level (rd_kafka_make_ListOffsetsRequest writes rk_conf.isolation_level from
 * v2 on), so timestamp -1 gives the high watermark on h[0] and the last stable offset on h[1].
 * Both use one fixed group.id that is never joined: only assign() is used, and the admin calls
 * run on the handle with a temporary queue. A read of many partitions (mm2_kafka_read_many) also
 * uses up to 7 further handles of its isolation level, extra[], made and kept the same way (16
 * handles at most), until mm2_kafka_readers_release destroys them.
 *
 * Waiting: every wait is cut into slices of at most SLICE_MS, and between slices the handle's
 * main queue is served (rd_kafka_poll), which is where librdkafka calls error_cb. A SASL
 * authentication failure reported there ends the call at once with MM2_CONFIG instead of waiting
 * for the deadline; any other silence ends at the deadline with MM2_UNREACHABLE.
 */
#include "mm2_kafka_handle.h"
#include "mm2_limits.h"
#include "mm2_secret.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BACKOFF_MS 100 /* pause before retrying a retriable error */

/* ---- messages ---------------------------------------------------------------------------- */

/* Copies in into out (outlen > 0 bytes) with every hidden value replaced by <redacted>.
 * Returns false (out = "") when a secret is too short to be replaced without mangling the text,
 * which is then withheld entirely. */
static bool redact(const struct mm2_kafka *k, const char *in, char *out, size_t outlen)
{
    out[0] = '\0';
    for (size_t i = 0; i < k->nhidden; i++)
        if (k->secret[i] && strlen(k->hidden[i]) < REDACT_MIN && strstr(in, k->hidden[i]) != NULL)
            return false;
    (void)mm2_secret_redact(in, (const char *const *)k->hidden, k->nhidden, 0, out, outlen);
    return true;
}

enum mm2_status mm2_kafka_handle_report(const struct mm2_kafka *k, const struct handle *h,
                                        struct mm2_error *err, enum mm2_status code,
                                        const char *fmt, ...)
{
    char msg[MM2_ERROR_MSG_MAX];
    const char *reason = NULL;
    int name = 0;
    va_list ap;

    va_start(ap, fmt);
    if (vsnprintf(msg, sizeof(msg), fmt, ap) < 0)
        msg[0] = '\0';
    va_end(ap);
    if (h != NULL && h->auth_failed) { /* it explains everything after it */
        reason = h->auth_reason;
        name = h->auth_err;
    } else if (h != NULL && h->tls_failed) {
        reason = h->tls_reason;
        name = h->tls_err;
    } else if (h != NULL && h->last_err != 0) {
        reason = h->last_reason;
        name = h->last_err;
    }
    if (reason == NULL)
        return mm2_error_set(err, code, "[%s] %s", k->role, msg);
    if (reason[0] == '\0')
        return mm2_error_set(err, code, "[%s] %s (last librdkafka error: %s, text withheld)",
                             k->role, msg, rd_kafka_err2name((rd_kafka_resp_err_t)name));
    return mm2_error_set(err, code, "[%s] %s (last librdkafka error: %s: %s)", k->role, msg,
                         rd_kafka_err2name((rd_kafka_resp_err_t)name), reason);
}

/* rd_kafka_new refused a configuration: its text, values redacted, as MM2_CONFIG. */
enum mm2_status mm2_kafka_handle_refused(const struct mm2_kafka *k, const char *errstr,
                                         struct mm2_error *err)
{
    char why[REASON_MAX];

    if (!redact(k, errstr, why, sizeof(why)))
        snprintf(why, sizeof(why), "details withheld");
    return mm2_kafka_handle_fail(k, err, MM2_CONFIG, "librdkafka refused the configuration: %s",
                                 why);
}

/* ---- errors ------------------------------------------------------------------------------ */

bool mm2_kafka_handle_auth_error(rd_kafka_resp_err_t e)
{
    return e == RD_KAFKA_RESP_ERR__AUTHENTICATION ||
           e == RD_KAFKA_RESP_ERR_SASL_AUTHENTICATION_FAILED;
}

bool mm2_kafka_handle_group_noise(const rd_kafka_message_t *m)
{
    return m->rkt == NULL && m->err == RD_KAFKA_RESP_ERR_GROUP_AUTHORIZATION_FAILED;
}

/* Errors that may go away by themselves: retried until the deadline. UNKNOWN_TOPIC_OR_PART is
 * not among them: the callers ask about partitions they have just seen. */
bool mm2_kafka_handle_retriable(rd_kafka_resp_err_t e)
{
    switch (e) {
    case RD_KAFKA_RESP_ERR__TRANSPORT:
    case RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN:
    case RD_KAFKA_RESP_ERR__TIMED_OUT:
    case RD_KAFKA_RESP_ERR__TIMED_OUT_QUEUE:
    case RD_KAFKA_RESP_ERR__WAIT_COORD:
    case RD_KAFKA_RESP_ERR__WAIT_CACHE:
    case RD_KAFKA_RESP_ERR__RESOLVE:
    case RD_KAFKA_RESP_ERR__NODE_UPDATE:
    case RD_KAFKA_RESP_ERR_REQUEST_TIMED_OUT:
    case RD_KAFKA_RESP_ERR_LEADER_NOT_AVAILABLE:
    case RD_KAFKA_RESP_ERR_NOT_LEADER_FOR_PARTITION:
    case RD_KAFKA_RESP_ERR_REPLICA_NOT_AVAILABLE:
    case RD_KAFKA_RESP_ERR_OFFSET_NOT_AVAILABLE:
    case RD_KAFKA_RESP_ERR_FENCED_LEADER_EPOCH:
    case RD_KAFKA_RESP_ERR_UNKNOWN_LEADER_EPOCH:
    case RD_KAFKA_RESP_ERR_KAFKA_STORAGE_ERROR:
    case RD_KAFKA_RESP_ERR_NETWORK_EXCEPTION:
    case RD_KAFKA_RESP_ERR_COORDINATOR_LOAD_IN_PROGRESS:
    case RD_KAFKA_RESP_ERR_COORDINATOR_NOT_AVAILABLE:
    case RD_KAFKA_RESP_ERR_NOT_COORDINATOR:
    case RD_KAFKA_RESP_ERR_UNSTABLE_OFFSET_COMMIT:
        return true;
    default:
        return false;
    }
}

/* The status a librdkafka error ends a call with (docs/ARCHITECTURE.md §5). */
enum mm2_status mm2_kafka_handle_status_of(rd_kafka_resp_err_t e)
{
    if (mm2_kafka_handle_auth_error(e))
        return MM2_CONFIG;
    if (mm2_kafka_handle_retriable(e))
        return MM2_UNREACHABLE;
    return MM2_UNEXPECTED;
}

/* librdkafka drops a connection whose answer is larger than receive.message.max.bytes with
 * "... Invalid response size N (0..CAP): increase receive.message.max.bytes"
 * (rd_kafka_transport_framed_recv) and asks again, for ever: the sizes, or 0 when reason is not
 * that. */
static long long answer_too_big(const char *reason, long long *cap)
{
    const char *p = reason != NULL ? strstr(reason, "Invalid response size ") : NULL;
    char *end = NULL;
    long long n;

    if (p == NULL)
        return 0;
    n = strtoll(p + strlen("Invalid response size "), &end, 10);
    if (end == NULL || strncmp(end, " (0..", 5) != 0 || n <= 0)
        return 0;
    *cap = strtoll(end + 5, NULL, 10);
    return n;
}

/* Keeps the last error librdkafka reported, redacted before it is cut to fit, so that no cut
 * can leave the start of a secret behind. */
static void on_error(rd_kafka_t *rk, int e, const char *reason, void *opaque)
{
    struct handle *h = opaque;

    (void)rk;
    h->last_err = e;
    if (!redact(h->k, reason != NULL ? reason : "", h->last_reason, sizeof(h->last_reason)))
        h->last_reason[0] = '\0';
    if (mm2_kafka_handle_auth_error((rd_kafka_resp_err_t)e)) {
        h->auth_failed = true;
        h->auth_err = e;
        memcpy(h->auth_reason, h->last_reason, sizeof(h->auth_reason));
    }
    if (!h->tls_failed && mm2_kafka_tls_hopeless(e, reason)) {
        h->tls_failed = true;
        h->tls_err = e;
        memcpy(h->tls_reason, h->last_reason, sizeof(h->tls_reason));
    }
    if (h->too_big == 0)
        h->too_big = answer_too_big(reason, &h->too_big_cap);
}

bool mm2_kafka_tls_hopeless(int err, const char *reason)
{
    if (reason == NULL)
        return false;
    /* A handshake this client ended: it did not verify the broker, or got an alert in it. */
    if (err == RD_KAFKA_RESP_ERR__SSL)
        return strstr(reason, "SSL handshake failed") != NULL &&
               (strstr(reason, "certificate verify failed") != NULL ||
                strstr(reason, " alert ") != NULL);
    /* TLS 1.3: the client's handshake is done before the broker checks the client's certificate,
     * so the broker's alert comes with the first read ("Receive failed: ... alert certificate
     * unknown", Java's answer to an expired one). */
    return err == RD_KAFKA_RESP_ERR__TRANSPORT && strstr(reason, "SSL routines") != NULL &&
           strstr(reason, " alert ") != NULL;
}

/* True when waiting longer changes nothing: a broker refused the credentials, a TLS handshake
 * failed for good, or a broker sent an answer above receive.message.max.bytes (librdkafka would
 * ask again for ever). */
bool mm2_kafka_handle_hopeless(const struct handle *h)
{
    return h->auth_failed || h->tls_failed || h->too_big > 0;
}

/* The status and message of a hopeless handle. */
enum mm2_status mm2_kafka_handle_hopeless_fail(const struct mm2_kafka *k, const struct handle *h,
                                               const char *what, struct mm2_error *err)
{
    if (h->auth_failed)
        return mm2_kafka_handle_fail_last_error(k, h, err, MM2_CONFIG, "%s: authentication failed",
                                                what);
    if (h->tls_failed)
        return mm2_kafka_handle_fail_last_error(
            k, h, err, MM2_UNREACHABLE, "%s: TLS handshake failed: %s", what,
            strstr(h->tls_reason, "certificate verify failed") != NULL
                ? "the broker's certificate was not verified (is ssl.ca.location the CA that "
                  "signed it, and does it name the host in bootstrap.servers?)"
                : "the broker refused this client's certificate (ssl.certificate.location: is it "
                  "signed by the broker's CA, and still valid?)");
    return mm2_kafka_handle_fail(
        k, err, MM2_UNEXPECTED,
        "%s: a broker answered %lld bytes, above receive.message.max.bytes (%lld; "
        "mm2-offsets caps it at %ld, " MM2_LIMITS_WHY ")",
        what, h->too_big, h->too_big_cap, MM2_KAFKA_RESPONSE_MAX);
}

/* ---- waiting and retries ----------------------------------------------------------------- */

int mm2_kafka_handle_slice_ms(const struct mm2_deadline *dl, long cap)
{
    long r = mm2_deadline_remaining_ms(dl);

    if (cap > 0 && r > cap)
        r = cap;
    return r > INT_MAX ? INT_MAX : (int)r;
}

/* Serves the main queue: error_cb runs here. */
void mm2_kafka_handle_serve(struct handle *h, int timeout_ms)
{
    rd_kafka_poll(h->rk, timeout_ms);
}

/* Sleeps up to BACKOFF_MS (never past the deadline), serving callbacks meanwhile. */
void mm2_kafka_handle_backoff(struct handle *h, const struct mm2_deadline *dl)
{
    mm2_kafka_handle_serve(h, mm2_kafka_handle_slice_ms(dl, BACKOFF_MS));
}

/* Ends a retried call when its attempt failed: returns MM2_OK to try again (after a pause), or
 * the status to return. what names the call in the message, and where the error is about. */
enum mm2_status mm2_kafka_handle_settle(struct mm2_kafka *k, struct handle *h,
                                        const struct attempt *a, const struct mm2_deadline *dl,
                                        const char *what, struct mm2_error *err)
{
    char where[300] = "";

    if (a->topic != NULL && a->partition < 0) /* a topic's own error */
        snprintf(where, sizeof(where), "topic %.*s: ", 255, a->topic);
    else if (a->topic != NULL)
        snprintf(where, sizeof(where), "%.*s[%d]: ", 255, a->topic, (int)a->partition);
    if (mm2_kafka_handle_hopeless(h))
        return mm2_kafka_handle_hopeless_fail(k, h, what, err);
    if (mm2_kafka_handle_auth_error(a->e))
        return mm2_kafka_handle_fail_last_error(k, h, err, MM2_CONFIG, "%s: authentication failed",
                                                what);
    if (!mm2_kafka_handle_retriable(a->e))
        return mm2_kafka_handle_fail(k, err, MM2_UNEXPECTED, "%s: %s%s", what, where,
                                     rd_kafka_err2name(a->e));
    if (mm2_deadline_expired(dl))
        return mm2_kafka_handle_fail_last_error(k, h, err, MM2_UNREACHABLE,
                                                "%s: no complete answer by the deadline (%s%s)",
                                                what, where, rd_kafka_err2name(a->e));
    mm2_kafka_handle_backoff(h, dl);
    return MM2_OK;
}

/* ---- argument checks and partition lists ------------------------------------------------- */

static int tpidx_cmp(const void *a, const void *b)
{
    const struct tpidx *x = a;
    const struct tpidx *y = b;
    int c = strcmp(x->topic, y->topic);

    if (c != 0)
        return c;
    return (x->partition > y->partition) - (x->partition < y->partition);
}

/* Checks tps (n >= 1, topics named, partitions >= 0, none twice) and returns them sorted with
 * their index, so that answers in any order map back to the caller's order. */
enum mm2_status mm2_kafka_handle_tp_index(const struct mm2_kafka *k, const struct mm2_tp *tps,
                                          size_t n, struct tpidx **out, struct mm2_error *err)
{
    struct tpidx *v;

    if (tps == NULL || n == 0)
        return mm2_kafka_handle_fail(k, err, MM2_USAGE, "no partitions given");
    if (n > (size_t)INT_MAX)
        return mm2_kafka_handle_fail(k, err, MM2_USAGE, "too many partitions (%zu)", n);
    for (size_t i = 0; i < n; i++) {
        if (tps[i].topic == NULL || tps[i].topic[0] == '\0')
            return mm2_kafka_handle_fail(k, err, MM2_USAGE, "partition #%zu has no topic", i);
        if (tps[i].partition < 0)
            return mm2_kafka_handle_fail(k, err, MM2_USAGE, "%.*s[%d]: negative partition", 255,
                                         tps[i].topic, (int)tps[i].partition);
    }
    v = calloc(n, sizeof(*v));
    if (v == NULL)
        return mm2_kafka_handle_fail(k, err, MM2_UNEXPECTED, "out of memory");
    for (size_t i = 0; i < n; i++)
        v[i] = (struct tpidx){tps[i].topic, tps[i].partition, i};
    qsort(v, n, sizeof(*v), tpidx_cmp);
    for (size_t i = 1; i < n; i++) {
        if (tpidx_cmp(&v[i - 1], &v[i]) == 0) {
            enum mm2_status st =
                mm2_kafka_handle_fail(k, err, MM2_USAGE, "%.*s[%d] is listed twice", 255,
                                      v[i].topic, (int)v[i].partition);
            free(v);
            return st;
        }
    }
    *out = v;
    return MM2_OK;
}

long mm2_kafka_handle_tp_find(const struct tpidx *v, size_t n, const char *topic, int32_t partition)
{
    struct tpidx key = {topic, partition, 0};
    const struct tpidx *hit;

    if (topic == NULL)
        return -1;
    hit = bsearch(&key, v, n, sizeof(*v), tpidx_cmp);
    return hit != NULL ? (long)hit->i : -1;
}

/* Common entry checks: a client, a deadline not yet passed. */
enum mm2_status mm2_kafka_handle_enter(struct mm2_kafka *k, const struct mm2_deadline *dl,
                                       struct mm2_error *err)
{
    if (k == NULL)
        return mm2_error_set(err, MM2_USAGE, "no Kafka client");
    if (dl == NULL)
        return mm2_kafka_handle_fail(k, err, MM2_USAGE, "no deadline");
    if (mm2_deadline_expired(dl))
        return mm2_kafka_handle_fail(k, err, MM2_UNREACHABLE, "deadline passed before the request");
    return MM2_OK;
}

rd_kafka_topic_partition_list_t *mm2_kafka_handle_tp_list(const struct mm2_tp *tps, size_t n)
{
    rd_kafka_topic_partition_list_t *l = rd_kafka_topic_partition_list_new((int)n);

    for (size_t i = 0; l != NULL && i < n; i++)
        rd_kafka_topic_partition_list_add(l, tps[i].topic, tps[i].partition);
    return l;
}

/* ---- the pauses reads leave behind ------------------------------------------------------- */

bool mm2_kafka_handle_paused_add(struct handle *h, const char *topic, int32_t partition)
{
    char *t;

    if (h->npaused == h->cappaused) {
        size_t c = h->cappaused > 0 ? h->cappaused * 2 : 64;
        struct paused_tp *v = realloc(h->paused, c * sizeof(*v));
        if (v == NULL)
            return false;
        h->paused = v;
        h->cappaused = c;
    }
    t = strdup(topic);
    if (t == NULL)
        return false;
    h->paused[h->npaused++] = (struct paused_tp){t, partition};
    return true;
}

void mm2_kafka_handle_paused_lift(struct handle *h, const struct tpidx *idx, size_t n)
{
    rd_kafka_topic_partition_list_t *l;
    size_t kept = 0;

    if (h->npaused == 0 || n == 0)
        return;
    l = rd_kafka_topic_partition_list_new(16);
    for (size_t i = 0; i < h->npaused; i++) {
        if (l != NULL &&
            mm2_kafka_handle_tp_find(idx, n, h->paused[i].topic, h->paused[i].partition) >= 0) {
            rd_kafka_topic_partition_list_add(l, h->paused[i].topic, h->paused[i].partition);
            free(h->paused[i].topic);
        } else {
            h->paused[kept++] = h->paused[i];
        }
    }
    h->npaused = kept;
    if (l != NULL && l->cnt > 0)
        rd_kafka_resume_partitions(h->rk, l);
    if (l != NULL)
        rd_kafka_topic_partition_list_destroy(l);
}

static void paused_free(struct handle *h)
{
    for (size_t i = 0; i < h->npaused; i++)
        free(h->paused[i].topic);
    free(h->paused);
    h->paused = NULL;
    h->npaused = h->cappaused = 0;
}

/* ---- handles ----------------------------------------------------------------------------- */

/* librdkafka's own log lines are swallowed (lib/ never prints); errors come through on_error. */
static void on_log(const rd_kafka_t *rk, int level, const char *fac, const char *buf)
{
    (void)rk;
    (void)level;
    (void)fac;
    (void)buf;
}

/* Called on broker threads once a request is fully written to a socket: the same event
 * librdkafka's per-broker "tx" statistic counts, without waiting for a statistics interval. */
static rd_kafka_resp_err_t on_sent(rd_kafka_t *rk, int sockfd, const char *brokername,
                                   int32_t brokerid, int16_t api_key, int16_t api_version,
                                   int32_t corr_id, size_t size, void *ic_opaque)
{
    struct handle *h = ic_opaque;

    (void)rk;
    (void)sockfd;
    (void)brokername;
    (void)brokerid;
    (void)api_key;
    (void)api_version;
    (void)corr_id;
    (void)size;
    atomic_fetch_add(&h->sent, 1);
    return RD_KAFKA_RESP_ERR_NO_ERROR;
}

static rd_kafka_resp_err_t on_new(rd_kafka_t *rk, const rd_kafka_conf_t *conf, void *ic_opaque,
                                  char *errstr, size_t errstr_size)
{
    (void)conf;
    (void)errstr;
    (void)errstr_size;
    return rd_kafka_interceptor_add_on_request_sent(rk, "mm2_kafka", on_sent, ic_opaque);
}

void mm2_kafka_handle_callbacks(rd_kafka_conf_t *conf)
{
    rd_kafka_conf_set_log_cb(conf, on_log);
    rd_kafka_conf_set_error_cb(conf, on_error);
}

/* The producer's delivery reports, counted in each record's struct mm2_kafka_tally. */
void mm2_kafka_handle_delivered(rd_kafka_t *rk, const rd_kafka_message_t *m, void *opaque)
{
    struct mm2_kafka_tally *t = m->_private;

    (void)rk;
    (void)opaque;
    if (t == NULL)
        return;
    if (m->err == RD_KAFKA_RESP_ERR_NO_ERROR) {
        t->acked++;
    } else {
        if (t->failed == 0)
            t->first = m->err;
        t->failed++;
    }
}

/* Makes h, a client of type made from k's template with the props (NULL-terminated pairs) set on
 * top, unless it is made already. */
static enum mm2_status handle_make(struct mm2_kafka *k, struct handle *h, rd_kafka_type_t type,
                                   const char *const props[][2], struct mm2_error *err)
{
    char errstr[ERRSTR_MAX];
    rd_kafka_conf_t *c;
    bool ok = true;

    if (h->rk != NULL)
        return MM2_OK;
    c = rd_kafka_conf_dup(k->conf);
    if (c == NULL)
        return mm2_kafka_handle_fail(k, err, MM2_UNEXPECTED, "out of memory");
    rd_kafka_conf_set_opaque(c, h);
    for (size_t i = 0; ok && props[i][0] != NULL; i++)
        ok = rd_kafka_conf_set(c, props[i][0], props[i][1], errstr, sizeof(errstr)) ==
             RD_KAFKA_CONF_OK;
    if (!ok || rd_kafka_conf_interceptor_add_on_new(c, "mm2_kafka", on_new, h) !=
                   RD_KAFKA_RESP_ERR_NO_ERROR) {
        rd_kafka_conf_destroy(c);
        return mm2_kafka_handle_fail(k, err, MM2_UNEXPECTED,
                                     "cannot set up a librdkafka configuration");
    }
    if (type == RD_KAFKA_PRODUCER)
        rd_kafka_conf_set_dr_msg_cb(c, mm2_kafka_handle_delivered);
    errstr[0] = '\0';
    h->rk = rd_kafka_new(type, c, errstr, sizeof(errstr));
    if (h->rk == NULL) {
        rd_kafka_conf_destroy(c); /* rd_kafka_new takes it only on success */
        return mm2_kafka_handle_refused(k, errstr, err);
    }
    return MM2_OK;
}

static enum mm2_status consumer_make(struct mm2_kafka *k, struct handle *h, bool committed,
                                     struct mm2_error *err)
{
    const char *const props[][2] = {
        {"isolation.level", committed ? "read_committed" : "read_uncommitted"}, {NULL, NULL}};

    return handle_make(k, h, RD_KAFKA_CONSUMER, props, err);
}

/* The trail's producer (mm2_kafka.h, mm2_kafka_produce): every record on all in-sync replicas,
 * one request in flight so that a retry cannot reorder, no idempotence (it would need the
 * IdempotentWrite ACL on older brokers), lz4 (built into every librdkafka). */
enum mm2_status mm2_kafka_handle_producer(struct mm2_kafka *k, struct handle **out,
                                          struct mm2_error *err)
{
    static const char *const props[][2] = {{"acks", "all"},
                                           {"enable.idempotence", "false"},
                                           {"max.in.flight.requests.per.connection", "1"},
                                           {"compression.type", "lz4"},
                                           {"linger.ms", "5"},
                                           {NULL, NULL}};

    *out = &k->prod;
    return handle_make(k, *out, RD_KAFKA_PRODUCER, props, err);
}

/* The handle for the isolation level asked, made on first use. */
enum mm2_status mm2_kafka_handle_get(struct mm2_kafka *k, bool committed, struct handle **out,
                                     struct mm2_error *err)
{
    *out = &k->h[committed ? 1 : 0];
    return consumer_make(k, *out, committed, err);
}

enum mm2_status mm2_kafka_handle_reader(struct mm2_kafka *k, bool committed, size_t j,
                                        struct handle **out, bool *made, struct mm2_error *err)
{
    *made = false;
    if (j >= MM2_KAFKA_HANDLE_READERS)
        return mm2_kafka_handle_fail(k, err, MM2_UNEXPECTED, "read: no reader %zu", j);
    *out = j == 0 ? &k->h[committed ? 1 : 0] : &k->extra[committed ? 1 : 0][j - 1];
    *made = (*out)->rk == NULL;
    return consumer_make(k, *out, committed, err);
}

/* Waits until the handle has cluster metadata (some broker answered, authenticated), ending
 * early with MM2_CONFIG when a broker refused the credentials. The cluster id is cached, so this
 * costs nothing once the handle is up. librdkafka sends its first metadata request either when a
 * connection comes up or from its 1 s timer, and may miss the first, rd_kafka_clusterid then
 * waiting for the timer (measured on 2.0.2: bench/README.md, "The Kafka client's figures");
 * asking for the broker list at once saves that wait for one request. Each ask waits twice as
 * long as the one before (SLICE_MS, up to 16 times it), so that a slow link gets its answer and a
 * refused password is still seen early. */
enum mm2_status mm2_kafka_handle_wait_up(struct mm2_kafka *k, struct handle *h,
                                         const struct mm2_deadline *dl, const char *what,
                                         struct mm2_error *err)
{
    long start = mm2_deadline_now_ms();
    long wait = SLICE_MS;

    for (;;) {
        const struct rd_kafka_metadata *md = NULL;
        char *id = rd_kafka_clusterid(h->rk, 0);
        rd_kafka_resp_err_t e;

        if (id != NULL) {
            rd_kafka_mem_free(h->rk, id);
            return MM2_OK;
        }
        mm2_kafka_handle_serve(h, 0);
        if (mm2_kafka_handle_hopeless(h))
            return mm2_kafka_handle_hopeless_fail(k, h, what, err);
        if (mm2_deadline_expired(dl))
            return mm2_kafka_handle_fail_last_error(k, h, err, MM2_UNREACHABLE,
                                                    "%s: no broker answered within %ld ms", what,
                                                    mm2_deadline_now_ms() - start);
        /* all_topics 0 and no topic: a request for the brokers (and the cluster id) only. */
        e = rd_kafka_metadata(h->rk, 0, NULL, &md, mm2_kafka_handle_slice_ms(dl, wait));
        if (wait < 16 * SLICE_MS)
            wait *= 2;
        if (e == RD_KAFKA_RESP_ERR_NO_ERROR) {
            rd_kafka_metadata_destroy(md);
            id = rd_kafka_clusterid(h->rk, 0);
            if (id == NULL)
                return mm2_kafka_handle_fail(
                    k, err, MM2_UNEXPECTED,
                    "%s: the brokers report no cluster id (Kafka before 0.10.1?)", what);
            rd_kafka_mem_free(h->rk, id);
            return MM2_OK;
        }
        /* A refusal that came back at once: no busy loop. */
        mm2_kafka_handle_serve(h, mm2_kafka_handle_slice_ms(dl, 10));
    }
}

/* Every handle unmade, its requests counted from 0. */
void mm2_kafka_handle_init_all(struct mm2_kafka *k)
{
    for (size_t i = 0; i < 2; i++) {
        k->h[i].k = k;
        atomic_init(&k->h[i].sent, 0);
        for (size_t j = 0; j < MM2_KAFKA_HANDLE_READERS - 1; j++) {
            k->extra[i][j].k = k;
            atomic_init(&k->extra[i][j].sent, 0);
        }
    }
    k->prod.k = k;
    atomic_init(&k->prod.sent, 0);
    k->per_reader = MM2_KAFKA_HANDLE_PER_READER;
}

void mm2_kafka_handle_destroy_all(struct mm2_kafka *k)
{
    for (size_t i = 0; i < 2; i++) {
        if (k->h[i].rk != NULL) /* never joined a group: nothing to leave, nothing to commit */
            rd_kafka_destroy_flags(k->h[i].rk, RD_KAFKA_DESTROY_F_NO_CONSUMER_CLOSE);
        k->h[i].rk = NULL;
        paused_free(&k->h[i]);
    }
    if (k->prod.rk != NULL) /* mm2_kafka_produce waited for or purged every record */
        rd_kafka_destroy(k->prod.rk);
    k->prod.rk = NULL;
    mm2_kafka_readers_release(k);
}

void mm2_kafka_readers_release(struct mm2_kafka *k)
{
    if (k == NULL)
        return;
    for (size_t i = 0; i < 2; i++)
        for (size_t j = 0; j < MM2_KAFKA_HANDLE_READERS - 1; j++) {
            if (k->extra[i][j].rk != NULL)
                rd_kafka_destroy_flags(k->extra[i][j].rk, RD_KAFKA_DESTROY_F_NO_CONSUMER_CLOSE);
            k->extra[i][j].rk = NULL;
            paused_free(&k->extra[i][j]);
        }
}

long mm2_kafka_requests(const struct mm2_kafka *k)
{
    if (k == NULL)
        return 0;
    long sum = atomic_load(&k->h[0].sent) + atomic_load(&k->h[1].sent) + atomic_load(&k->prod.sent);
    for (size_t i = 0; i < 2; i++)
        for (size_t j = 0; j < MM2_KAFKA_HANDLE_READERS - 1; j++)
            sum += atomic_load(&k->extra[i][j].sent);
    return sum;
}
