/*
 * mm2_kafka: cluster facts for mm2-offsets on librdkafka 2.0.2 (see mm2_kafka.h).
 *
 * Two consumer handles per cluster, made on first use and reused: h[0] read_uncommitted (cluster
 * id, metadata, group offsets and state, commits, log start and high watermark, uncommitted
 * reads) and h[1] read_committed (last stable offset, committed reads). ListOffsets carries the
 * handle's isolation.level (rd_kafka_make_ListOffsetsRequest writes rk_conf.isolation_level from
 * v2 on), so timestamp -1 gives the high watermark on h[0] and the last stable offset on h[1].
 * Both use one fixed group.id that is never joined: only assign() is used, and the admin calls
 * run on the handle with a temporary queue.
 *
 * Waiting: every wait is cut into slices of at most SLICE_MS, and between slices the handle's
 * main queue is served (rd_kafka_poll), which is where librdkafka calls error_cb. A SASL
 * authentication failure reported there ends the call at once with MM2_CONFIG instead of waiting
 * for the deadline; any other silence ends at the deadline with MM2_UNREACHABLE.
 */
#include "mm2_kafka.h"
#include "mm2_limits.h"
#include "mm2_secret.h"

#include <librdkafka/rdkafka.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define ROLE_MAX 32
#define KEY_SHOW 128    /* characters of a property key repeated in a message */
#define REASON_MAX 512  /* librdkafka's error text kept from error_cb */
#define ERRSTR_MAX 2048 /* rd_kafka_new's refusal: large, so that it is redacted before any cut */
#define SLICE_MS 100    /* longest single wait before error_cb is served again */
#define BACKOFF_MS 100  /* pause before retrying a retriable error */
#define REDACT_MIN 4    /* shorter non-secret values are not searched for in librdkafka's text */
#define PRIVATE_GROUP "mm2kit-offsets-never-joined"
#define ERR_OOM RD_KAFKA_RESP_ERR__BEGIN /* a marker librdkafka never returns: out of memory */

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
    long long too_big; /* the size of an answer above receive.message.max.bytes, 0 = none */
    long long too_big_cap;
};

struct mm2_kafka {
    char role[ROLE_MAX];
    rd_kafka_conf_t *conf; /* the template each handle is made from */
    char **hidden;         /* property values kept out of messages (mm2_secret_redact) */
    bool *secret;          /* hidden[i] is a secret's: hidden at any length */
    size_t nhidden;
    struct handle h[2];
};

/* ---- messages ---------------------------------------------------------------------------- */

/* Keys whose values are not secrets and name what failed in librdkafka's text ("PLAIN",
 * "127.0.0.1:9092"), so they are left readable. */
static bool value_shown(const char *key)
{
    static const char *const shown[] = {"bootstrap.servers", "metadata.broker.list",
                                        "security.protocol", "sasl.mechanisms", "sasl.mechanism"};

    for (size_t i = 0; i < sizeof(shown) / sizeof(shown[0]); i++)
        if (strcasecmp(key, shown[i]) == 0)
            return true;
    return false;
}

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

/* Sets err to "[role] <fmt>", adding librdkafka's last reported error when context is true and
 * there is one (the authentication failure first: it explains everything after it). */
static enum mm2_status fail(const struct mm2_kafka *k, const struct handle *h, bool context,
                            struct mm2_error *err, enum mm2_status code, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

static enum mm2_status fail(const struct mm2_kafka *k, const struct handle *h, bool context,
                            struct mm2_error *err, enum mm2_status code, const char *fmt, ...)
{
    char msg[MM2_ERROR_MSG_MAX];
    const char *reason = NULL;
    int name = 0;
    va_list ap;

    va_start(ap, fmt);
    if (vsnprintf(msg, sizeof(msg), fmt, ap) < 0)
        msg[0] = '\0';
    va_end(ap);
    if (context && h != NULL && h->auth_failed) {
        reason = h->auth_reason;
        name = h->auth_err;
    } else if (context && h != NULL && h->last_err != 0) {
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

/* ---- errors and waiting ------------------------------------------------------------------ */

static bool auth_error(rd_kafka_resp_err_t e)
{
    return e == RD_KAFKA_RESP_ERR__AUTHENTICATION ||
           e == RD_KAFKA_RESP_ERR_SASL_AUTHENTICATION_FAILED;
}

/* Errors that may go away by themselves: retried until the deadline. UNKNOWN_TOPIC_OR_PART is
 * not among them: the callers ask about partitions they have just seen. */
static bool retriable(rd_kafka_resp_err_t e)
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
static enum mm2_status status_of(rd_kafka_resp_err_t e)
{
    if (auth_error(e))
        return MM2_CONFIG;
    if (retriable(e))
        return MM2_UNREACHABLE;
    return MM2_UNEXPECTED;
}

static int slice_ms(const struct mm2_deadline *dl, long cap)
{
    long r = mm2_deadline_remaining_ms(dl);

    if (cap > 0 && r > cap)
        r = cap;
    return r > INT_MAX ? INT_MAX : (int)r;
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
    if (auth_error((rd_kafka_resp_err_t)e)) {
        h->auth_failed = true;
        h->auth_err = e;
        memcpy(h->auth_reason, h->last_reason, sizeof(h->auth_reason));
    }
    if (h->too_big == 0)
        h->too_big = answer_too_big(reason, &h->too_big_cap);
}

/* True when waiting longer changes nothing: a broker refused the credentials, or sent an answer
 * above receive.message.max.bytes (librdkafka would ask again for ever). */
static bool hopeless(const struct handle *h)
{
    return h->auth_failed || h->too_big > 0;
}

/* The status and message of a hopeless handle. */
static enum mm2_status hopeless_fail(const struct mm2_kafka *k, const struct handle *h,
                                     const char *what, struct mm2_error *err)
{
    if (h->auth_failed)
        return fail(k, h, true, err, MM2_CONFIG, "%s: authentication failed", what);
    return fail(k, NULL, false, err, MM2_UNEXPECTED,
                "%s: a broker answered %lld bytes, above receive.message.max.bytes (%lld; "
                "mm2-offsets caps it at %ld, " MM2_LIMITS_WHY ")",
                what, h->too_big, h->too_big_cap, MM2_KAFKA_RESPONSE_MAX);
}

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

/* Serves the main queue: error_cb runs here. */
static void serve(struct handle *h, int timeout_ms)
{
    rd_kafka_poll(h->rk, timeout_ms);
}

/* rd_kafka_new refused a configuration: its text, values redacted, as MM2_CONFIG. */
static enum mm2_status refused(const struct mm2_kafka *k, const char *errstr, struct mm2_error *err)
{
    char why[REASON_MAX];

    if (!redact(k, errstr, why, sizeof(why)))
        snprintf(why, sizeof(why), "details withheld");
    return fail(k, NULL, false, err, MM2_CONFIG, "librdkafka refused the configuration: %s", why);
}

/* The handle for the isolation level asked, made on first use. */
static enum mm2_status handle_get(struct mm2_kafka *k, bool committed, struct handle **out,
                                  struct mm2_error *err)
{
    struct handle *h = &k->h[committed ? 1 : 0];
    char errstr[ERRSTR_MAX];
    rd_kafka_conf_t *c;

    *out = h;
    if (h->rk != NULL)
        return MM2_OK;
    c = rd_kafka_conf_dup(k->conf);
    if (c == NULL)
        return fail(k, NULL, false, err, MM2_UNEXPECTED, "out of memory");
    rd_kafka_conf_set_opaque(c, h);
    if (rd_kafka_conf_set(c, "isolation.level", committed ? "read_committed" : "read_uncommitted",
                          errstr, sizeof(errstr)) != RD_KAFKA_CONF_OK ||
        rd_kafka_conf_interceptor_add_on_new(c, "mm2_kafka", on_new, h) !=
            RD_KAFKA_RESP_ERR_NO_ERROR) {
        rd_kafka_conf_destroy(c);
        return fail(k, NULL, false, err, MM2_UNEXPECTED,
                    "cannot set up a librdkafka configuration");
    }
    errstr[0] = '\0';
    h->rk = rd_kafka_new(RD_KAFKA_CONSUMER, c, errstr, sizeof(errstr));
    if (h->rk == NULL) {
        rd_kafka_conf_destroy(c); /* rd_kafka_new takes it only on success */
        return refused(k, errstr, err);
    }
    return MM2_OK;
}

/* Waits until the handle has cluster metadata (some broker answered, authenticated), ending
 * early with MM2_CONFIG when a broker refused the credentials. The cluster id is cached, so this
 * costs nothing once the handle is up. librdkafka 2.0.2 sends its first metadata request either
 * when a connection comes up or from its 1 s timer, and misses the first about half the time
 * (measured: rd_kafka_clusterid then waits 1 s); asking for the broker list at once saves that
 * second for one request. Each ask waits twice as long as the one before (100 ms up to 1.6 s),
 * so that a slow link gets its answer and a refused password is still seen early. */
static enum mm2_status wait_up(struct mm2_kafka *k, struct handle *h, const struct mm2_deadline *dl,
                               const char *what, struct mm2_error *err)
{
    long start = mm2_now_ms();
    long wait = SLICE_MS;

    for (;;) {
        const struct rd_kafka_metadata *md = NULL;
        char *id = rd_kafka_clusterid(h->rk, 0);
        rd_kafka_resp_err_t e;

        if (id != NULL) {
            rd_kafka_mem_free(h->rk, id);
            return MM2_OK;
        }
        serve(h, 0);
        if (hopeless(h))
            return hopeless_fail(k, h, what, err);
        if (mm2_deadline_expired(dl))
            return fail(k, h, true, err, MM2_UNREACHABLE, "%s: no broker answered within %ld ms",
                        what, mm2_now_ms() - start);
        /* all_topics 0 and no topic: a request for the brokers (and the cluster id) only. */
        e = rd_kafka_metadata(h->rk, 0, NULL, &md, slice_ms(dl, wait));
        if (wait < 16 * SLICE_MS)
            wait *= 2;
        if (e == RD_KAFKA_RESP_ERR_NO_ERROR) {
            rd_kafka_metadata_destroy(md);
            id = rd_kafka_clusterid(h->rk, 0);
            if (id == NULL)
                return fail(k, h, false, err, MM2_UNEXPECTED,
                            "%s: the brokers report no cluster id (Kafka before 0.10.1?)", what);
            rd_kafka_mem_free(h->rk, id);
            return MM2_OK;
        }
        serve(h, slice_ms(dl, 10)); /* a refusal that came back at once: no busy loop */
    }
}

/* Sleeps up to BACKOFF_MS (never past the deadline), serving callbacks meanwhile. */
static void backoff(struct handle *h, const struct mm2_deadline *dl)
{
    serve(h, slice_ms(dl, BACKOFF_MS));
}

/* An admin request's result event from q, or NULL at the deadline or on an authentication
 * failure (h->auth_failed). */
static rd_kafka_event_t *admin_wait(struct handle *h, rd_kafka_queue_t *q,
                                    const struct mm2_deadline *dl)
{
    for (;;) {
        rd_kafka_event_t *ev = rd_kafka_queue_poll(q, slice_ms(dl, SLICE_MS));

        serve(h, 0);
        if (ev != NULL)
            return ev;
        if (hopeless(h) || mm2_deadline_expired(dl))
            return NULL;
    }
}

/* Admin options with the time left as the request timeout (librdkafka accepts up to 1 hour). */
static rd_kafka_AdminOptions_t *admin_options(struct handle *h, rd_kafka_admin_op_t op,
                                              const struct mm2_deadline *dl)
{
    char errstr[256];
    rd_kafka_AdminOptions_t *o = rd_kafka_AdminOptions_new(h->rk, op);
    int ms = slice_ms(dl, 3600L * 1000L);

    if (o == NULL)
        return NULL;
    if (rd_kafka_AdminOptions_set_request_timeout(o, ms > 0 ? ms : 1, errstr, sizeof(errstr)) !=
        RD_KAFKA_RESP_ERR_NO_ERROR) {
        rd_kafka_AdminOptions_destroy(o);
        return NULL;
    }
    return o;
}

/* ---- argument checks and partition lookup ------------------------------------------------ */

struct tpidx {
    const char *topic;
    int32_t partition;
    size_t i;
};

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
static enum mm2_status tp_index(const struct mm2_kafka *k, const struct mm2_tp *tps, size_t n,
                                struct tpidx **out, struct mm2_error *err)
{
    struct tpidx *v;

    if (tps == NULL || n == 0)
        return fail(k, NULL, false, err, MM2_USAGE, "no partitions given");
    if (n > (size_t)INT_MAX)
        return fail(k, NULL, false, err, MM2_USAGE, "too many partitions (%zu)", n);
    for (size_t i = 0; i < n; i++) {
        if (tps[i].topic == NULL || tps[i].topic[0] == '\0')
            return fail(k, NULL, false, err, MM2_USAGE, "partition #%zu has no topic", i);
        if (tps[i].partition < 0)
            return fail(k, NULL, false, err, MM2_USAGE, "%.*s[%d]: negative partition", 255,
                        tps[i].topic, (int)tps[i].partition);
    }
    v = calloc(n, sizeof(*v));
    if (v == NULL)
        return fail(k, NULL, false, err, MM2_UNEXPECTED, "out of memory");
    for (size_t i = 0; i < n; i++)
        v[i] = (struct tpidx){tps[i].topic, tps[i].partition, i};
    qsort(v, n, sizeof(*v), tpidx_cmp);
    for (size_t i = 1; i < n; i++) {
        if (tpidx_cmp(&v[i - 1], &v[i]) == 0) {
            enum mm2_status st = fail(k, NULL, false, err, MM2_USAGE, "%.*s[%d] is listed twice",
                                      255, v[i].topic, (int)v[i].partition);
            free(v);
            return st;
        }
    }
    *out = v;
    return MM2_OK;
}

/* The caller's index of topic[partition], or -1 when it was not asked for. */
static long tp_find(const struct tpidx *v, size_t n, const char *topic, int32_t partition)
{
    struct tpidx key = {topic, partition, 0};
    const struct tpidx *hit;

    if (topic == NULL)
        return -1;
    hit = bsearch(&key, v, n, sizeof(*v), tpidx_cmp);
    return hit != NULL ? (long)hit->i : -1;
}

static rd_kafka_topic_partition_list_t *tp_list(const struct mm2_tp *tps, size_t n)
{
    rd_kafka_topic_partition_list_t *l = rd_kafka_topic_partition_list_new((int)n);

    for (size_t i = 0; l != NULL && i < n; i++)
        rd_kafka_topic_partition_list_add(l, tps[i].topic, tps[i].partition);
    return l;
}

/* Common entry checks: a client, a deadline not yet passed. */
static enum mm2_status enter(struct mm2_kafka *k, const struct mm2_deadline *dl,
                             struct mm2_error *err)
{
    if (k == NULL)
        return mm2_error_set(err, MM2_USAGE, "no Kafka client");
    if (dl == NULL)
        return fail(k, NULL, false, err, MM2_USAGE, "no deadline");
    if (mm2_deadline_expired(dl))
        return fail(k, NULL, false, err, MM2_UNREACHABLE, "deadline passed before the request");
    return MM2_OK;
}

static bool group_valid(const char *group)
{
    return group != NULL && group[0] != '\0';
}

/* ---- mm2_kafka_new ----------------------------------------------------------------------- */

static bool has_feature(const char *features, const char *name)
{
    size_t n = strlen(name);
    const char *p = features;

    while (p != NULL && *p != '\0') {
        const char *end = strchr(p, ',');
        size_t len = end != NULL ? (size_t)(end - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0)
            return true;
        p = end != NULL ? end + 1 : NULL;
    }
    return false;
}

bool mm2_kafka_features_ok(const char *features, const char *security_protocol,
                           const char *sasl_mechanism, char *why, size_t whylen)
{
    static const struct {
        const char *mechanism;
        const char *feature;
    } mechs[] = {{"PLAIN", "sasl_plain"},
                 {"SCRAM-SHA-256", "sasl_scram"},
                 {"SCRAM-SHA-512", "sasl_scram"},
                 {"GSSAPI", "sasl_gssapi"},
                 {"OAUTHBEARER", "sasl_oauthbearer"}};
    const char *proto = security_protocol != NULL ? security_protocol : "plaintext";
    const char *mech = sasl_mechanism != NULL ? sasl_mechanism : "GSSAPI"; /* librdkafka's */
    bool ssl = strcasecmp(proto, "ssl") == 0 || strcasecmp(proto, "sasl_ssl") == 0;
    bool sasl = strcasecmp(proto, "sasl_plaintext") == 0 || strcasecmp(proto, "sasl_ssl") == 0;

    if (features == NULL)
        features = "";
    if (!ssl && !sasl && strcasecmp(proto, "plaintext") != 0) {
        mm2_whyf(why, whylen,
                 "security.protocol is not one of plaintext, ssl, sasl_plaintext, sasl_ssl");
        return false;
    }
    if (ssl && !has_feature(features, "ssl")) {
        mm2_whyf(why, whylen,
                 "security.protocol needs TLS, and this librdkafka was built without ssl "
                 "(builtin.features: %.200s)",
                 features);
        return false;
    }
    if (!sasl)
        return true;
    for (size_t i = 0; i < sizeof(mechs) / sizeof(mechs[0]); i++) {
        if (strcmp(mech, mechs[i].mechanism) != 0)
            continue;
        if (has_feature(features, mechs[i].feature))
            return true;
        mm2_whyf(why, whylen,
                 "the SASL mechanism in sasl.mechanisms needs %s, which this librdkafka was "
                 "built without (builtin.features: %.200s)",
                 mechs[i].feature, features);
        return false;
    }
    mm2_whyf(why, whylen,
             "sasl.mechanisms names a mechanism librdkafka does not know (PLAIN, SCRAM-SHA-256, "
             "SCRAM-SHA-512, GSSAPI or OAUTHBEARER)");
    return false;
}

/* Properties mm2-offsets sets itself: a private group that is never joined, no commits of its
 * own, no silent offset reset, end-of-partition events for bounded reads. auto.commit.enable is
 * the legacy alias of enable.auto.commit; offset.store.method=file would move commits to a local
 * file. */
static bool key_reserved(const char *key)
{
    static const char *const reserved[] = {
        "group.id",           "group.instance.id",    "isolation.level",
        "enable.auto.commit", "auto.commit.enable",   "enable.auto.offset.store",
        "auto.offset.reset",  "enable.partition.eof", "offset.store.method"};

    for (size_t i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++)
        if (strcasecmp(key, reserved[i]) == 0)
            return true;
    return false;
}

static enum mm2_status hide(struct mm2_kafka *k, const char *key, const char *value,
                            struct mm2_error *err)
{
    char **v;
    bool *secret;
    bool is_secret = mm2_secret_name(key, strlen(key));

    if (value[0] == '\0' || value_shown(key) || (!is_secret && strlen(value) < REDACT_MIN))
        return MM2_OK;
    v = realloc(k->hidden, (k->nhidden + 1) * sizeof(*v));
    if (v != NULL)
        k->hidden = v;
    secret = v != NULL ? realloc(k->secret, (k->nhidden + 1) * sizeof(*secret)) : NULL;
    if (secret != NULL)
        k->secret = secret;
    if (secret == NULL)
        return fail(k, NULL, false, err, MM2_UNEXPECTED, "out of memory");
    v[k->nhidden] = strdup(value);
    if (v[k->nhidden] == NULL)
        return fail(k, NULL, false, err, MM2_UNEXPECTED, "out of memory");
    secret[k->nhidden++] = is_secret;
    return MM2_OK;
}

static enum mm2_status set_own(struct mm2_kafka *k, const char *key, const char *value,
                               struct mm2_error *err)
{
    char errstr[256];

    if (rd_kafka_conf_set(k->conf, key, value, errstr, sizeof(errstr)) != RD_KAFKA_CONF_OK)
        return fail(k, NULL, false, err, MM2_UNEXPECTED,
                    "librdkafka refused mm2-offsets' own property '%s'", key);
    return MM2_OK;
}

static enum mm2_status set_own_number(struct mm2_kafka *k, const char *key, long value,
                                      struct mm2_error *err)
{
    char v[32];

    (void)snprintf(v, sizeof(v), "%ld", value);
    return set_own(k, key, v, err);
}

/* Makes (and at once destroys) a client with no brokers, so that what rd_kafka_new checks (TLS
 * files, SASL settings) is refused here rather than at the first call, without any traffic.
 * Skipped for GSSAPI (librdkafka runs kinit at start) and OIDC (it fetches a token at start). */
static enum mm2_status check_new(struct mm2_kafka *k, struct mm2_error *err)
{
    char errstr[ERRSTR_MAX];
    rd_kafka_conf_t *c = rd_kafka_conf_dup(k->conf);
    rd_kafka_t *rk;

    if (c == NULL)
        return fail(k, NULL, false, err, MM2_UNEXPECTED, "out of memory");
    if (rd_kafka_conf_set(c, "bootstrap.servers", "", errstr, sizeof(errstr)) != RD_KAFKA_CONF_OK) {
        rd_kafka_conf_destroy(c);
        return fail(k, NULL, false, err, MM2_UNEXPECTED, "cannot clear bootstrap.servers");
    }
    errstr[0] = '\0';
    rk = rd_kafka_new(RD_KAFKA_CONSUMER, c, errstr, sizeof(errstr));
    if (rk == NULL) {
        rd_kafka_conf_destroy(c);
        return refused(k, errstr, err);
    }
    rd_kafka_destroy_flags(rk, RD_KAFKA_DESTROY_F_NO_CONSUMER_CLOSE);
    return MM2_OK;
}

/* True when a librdkafka client with these settings does something at start beyond making
 * threads: GSSAPI runs sasl.kerberos.kinit.cmd, OIDC fetches a token over HTTP. */
static bool starts_with_side_effects(const char *proto, const char *mech, const char *oauth)
{
    if (proto == NULL || strncasecmp(proto, "sasl_", 5) != 0)
        return false;
    if (mech == NULL || strcmp(mech, "GSSAPI") == 0) /* GSSAPI is librdkafka's default */
        return true;
    return strcmp(mech, "OAUTHBEARER") == 0 && oauth != NULL && strcasecmp(oauth, "oidc") == 0;
}

/* A receive.message.max.bytes the caller may give: lower than mm2-offsets' cap, not higher. */
static bool response_cap_ok(const char *value)
{
    char *end = NULL;
    long long v;

    errno = 0;
    v = strtoll(value, &end, 10);
    return errno == 0 && end != value && *end == '\0' && v > 0 && v <= MM2_KAFKA_RESPONSE_MAX;
}

/* The last value props give key, or NULL. */
static const char *prop_value(const struct mm2_kv *props, size_t nprops, const char *key)
{
    const char *v = NULL;

    for (size_t i = 0; i < nprops; i++)
        if (props[i].key != NULL && strcasecmp(props[i].key, key) == 0)
            v = props[i].value;
    return v;
}

/* A receive.message.max.bytes the caller lowered takes the fetch limits down with it (librdkafka
 * wants fetch.max.bytes + 512 <= receive.message.max.bytes and message.max.bytes <=
 * fetch.max.bytes), unless the caller set those too. */
static enum mm2_status fit_fetch_to_cap(struct mm2_kafka *k, const struct mm2_kv *props,
                                        size_t nprops, struct mm2_error *err)
{
    const char *cap = prop_value(props, nprops, "receive.message.max.bytes");
    long fetch;
    enum mm2_status st = MM2_OK;

    if (cap == NULL || prop_value(props, nprops, "fetch.max.bytes") != NULL)
        return MM2_OK;
    fetch = strtol(cap, NULL, 10) - 512; /* checked by response_cap_ok */
    if (fetch > MM2_KAFKA_FETCH_MAX)
        fetch = MM2_KAFKA_FETCH_MAX;
    if (fetch < 1000)
        fetch = 1000; /* librdkafka's least; it then refuses the cap itself, naming both */
    st = set_own_number(k, "fetch.max.bytes", fetch, err);
    if (st == MM2_OK && fetch < 1000000 && prop_value(props, nprops, "message.max.bytes") == NULL)
        st = set_own_number(k, "message.max.bytes", fetch, err);
    return st;
}

/* Applies the caller's properties in order and remembers the three that decide the features
 * needed (borrowed from props). */
static enum mm2_status apply_props(struct mm2_kafka *k, const struct mm2_kv *props, size_t nprops,
                                   const char **proto, const char **mech, const char **oauth,
                                   struct mm2_error *err)
{
    char errstr[512];

    for (size_t i = 0; i < nprops; i++) {
        const char *key = props[i].key;
        const char *value = props[i].value;
        rd_kafka_conf_res_t rc;
        enum mm2_status st;

        if (key == NULL || key[0] == '\0' || value == NULL)
            return fail(k, NULL, false, err, MM2_USAGE, "property #%zu has no key or no value", i);
        if (key_reserved(key))
            return fail(k, NULL, false, err, MM2_CONFIG,
                        "librdkafka property '%.*s' is set by mm2-offsets itself; remove it",
                        KEY_SHOW, key);
        if (strcasecmp(key, "receive.message.max.bytes") == 0 && !response_cap_ok(value))
            return fail(k, NULL, false, err, MM2_CONFIG,
                        "librdkafka property 'receive.message.max.bytes' must be a number of "
                        "bytes up to %ld (" MM2_LIMITS_WHY ")",
                        MM2_KAFKA_RESPONSE_MAX);
        st = hide(k, key, value, err);
        if (st != MM2_OK)
            return st;
        /* errstr is never shown: librdkafka repeats the value in it. */
        rc = rd_kafka_conf_set(k->conf, key, value, errstr, sizeof(errstr));
        if (rc == RD_KAFKA_CONF_UNKNOWN)
            return fail(k, NULL, false, err, MM2_CONFIG, "unknown librdkafka property '%.*s'",
                        KEY_SHOW, key);
        if (rc != RD_KAFKA_CONF_OK && strstr(errstr, "not supported in this build") != NULL)
            return fail(k, NULL, false, err, MM2_CONFIG,
                        "librdkafka property '%.*s' (or this value of it) is not supported by "
                        "this build of librdkafka",
                        KEY_SHOW, key);
        if (rc != RD_KAFKA_CONF_OK)
            return fail(k, NULL, false, err, MM2_CONFIG,
                        "invalid value for librdkafka property '%.*s' (value not shown)", KEY_SHOW,
                        key);
        if (strcasecmp(key, "security.protocol") == 0)
            *proto = value;
        else if (strcasecmp(key, "sasl.mechanisms") == 0 || strcasecmp(key, "sasl.mechanism") == 0)
            *mech = value;
        else if (strcasecmp(key, "sasl.oauthbearer.method") == 0)
            *oauth = value;
    }
    return MM2_OK;
}

enum mm2_status mm2_kafka_new(const char *role, const struct mm2_kv *props, size_t nprops,
                              struct mm2_kafka **out, struct mm2_error *err)
{
    const char *proto = NULL;
    const char *mech = NULL;
    const char *oauth = NULL;
    char features[512];
    size_t flen = sizeof(features);
    char why[512];
    char client_id[ROLE_MAX + 16];
    struct mm2_kafka *k;
    enum mm2_status st;

    if (out == NULL)
        return mm2_error_set(err, MM2_USAGE, "mm2_kafka_new: no place for the client");
    *out = NULL;
    if (role == NULL || role[0] == '\0' || strlen(role) >= ROLE_MAX)
        return mm2_error_set(err, MM2_USAGE, "mm2_kafka_new: role must be 1 to %d characters",
                             ROLE_MAX - 1);
    if (props == NULL && nprops > 0)
        return mm2_error_set(err, MM2_USAGE, "[%s] no properties given", role);
    k = calloc(1, sizeof(*k));
    if (k == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "[%s] out of memory", role);
    memcpy(k->role, role, strlen(role) + 1);
    for (size_t i = 0; i < 2; i++) {
        k->h[i].k = k;
        atomic_init(&k->h[i].sent, 0);
    }
    k->conf = rd_kafka_conf_new();
    if (k->conf == NULL) {
        mm2_kafka_free(k);
        return mm2_error_set(err, MM2_UNEXPECTED, "[%s] out of memory", role);
    }
    rd_kafka_conf_set_log_cb(k->conf, on_log);
    rd_kafka_conf_set_error_cb(k->conf, on_error);
    snprintf(client_id, sizeof(client_id), "mm2-offsets-%s", role);
    /* Defaults the caller may override: a name in the brokers' logs, and a short fetch wait,
     * since a bounded read learns that it reached the end from an empty fetch. */
    st = set_own(k, "client.id", client_id, err);
    if (st == MM2_OK)
        st = set_own(k, "fetch.wait.max.ms", "100", err);
    /* Every answer, metadata included, within the cap (librdkafka's default is 100 MB), and a
     * fetch within it (librdkafka wants fetch.max.bytes + 512 <= receive.message.max.bytes). */
    if (st == MM2_OK)
        st = set_own_number(k, "receive.message.max.bytes", MM2_KAFKA_RESPONSE_MAX, err);
    if (st == MM2_OK)
        st = set_own_number(k, "fetch.max.bytes", MM2_KAFKA_FETCH_MAX, err);
    if (st == MM2_OK)
        st = apply_props(k, props, nprops, &proto, &mech, &oauth, err);
    if (st == MM2_OK)
        st = fit_fetch_to_cap(k, props, nprops, err);
    if (st == MM2_OK &&
        rd_kafka_conf_get(k->conf, "builtin.features", features, &flen) != RD_KAFKA_CONF_OK)
        st = fail(k, NULL, false, err, MM2_UNEXPECTED, "cannot read builtin.features");
    if (st == MM2_OK && !mm2_kafka_features_ok(features, proto, mech, why, sizeof(why)))
        st = fail(k, NULL, false, err, MM2_CONFIG, "%s", why);
    if (st == MM2_OK)
        st = set_own(k, "group.id", PRIVATE_GROUP, err);
    if (st == MM2_OK)
        st = set_own(k, "enable.auto.commit", "false", err);
    if (st == MM2_OK)
        st = set_own(k, "enable.auto.offset.store", "false", err);
    if (st == MM2_OK)
        st = set_own(k, "auto.offset.reset", "error", err);
    if (st == MM2_OK)
        st = set_own(k, "enable.partition.eof", "true", err);
    if (st == MM2_OK && !starts_with_side_effects(proto, mech, oauth))
        st = check_new(k, err);
    if (st != MM2_OK) {
        mm2_kafka_free(k);
        return st;
    }
    *out = k;
    return MM2_OK;
}

void mm2_kafka_free(struct mm2_kafka *k)
{
    if (k == NULL)
        return;
    for (size_t i = 0; i < 2; i++)
        if (k->h[i].rk != NULL) /* never joined a group: nothing to leave, nothing to commit */
            rd_kafka_destroy_flags(k->h[i].rk, RD_KAFKA_DESTROY_F_NO_CONSUMER_CLOSE);
    if (k->conf != NULL)
        rd_kafka_conf_destroy(k->conf);
    for (size_t i = 0; i < k->nhidden; i++) {
        explicit_bzero(k->hidden[i], strlen(k->hidden[i]));
        free(k->hidden[i]);
    }
    free(k->hidden);
    free(k->secret);
    free(k);
}

long mm2_kafka_requests(const struct mm2_kafka *k)
{
    if (k == NULL)
        return 0;
    return atomic_load(&k->h[0].sent) + atomic_load(&k->h[1].sent);
}

/* ---- cluster id and topics --------------------------------------------------------------- */

enum mm2_status mm2_kafka_cluster_id(struct mm2_kafka *k, const struct mm2_deadline *dl, char *out,
                                     size_t outlen, struct mm2_error *err)
{
    struct handle *h;
    enum mm2_status st = enter(k, dl, err);
    char *id;
    size_t n;

    if (st != MM2_OK)
        return st;
    if (out == NULL || outlen == 0)
        return fail(k, NULL, false, err, MM2_USAGE, "cluster id: no output buffer");
    out[0] = '\0';
    st = handle_get(k, false, &h, err);
    if (st == MM2_OK)
        st = wait_up(k, h, dl, "cluster id", err);
    if (st != MM2_OK)
        return st;
    id = rd_kafka_clusterid(h->rk, 0); /* cached by wait_up */
    if (id == NULL)
        return fail(k, h, true, err, MM2_UNEXPECTED, "cluster id: the brokers reported none");
    n = strlen(id);
    if (n >= outlen) {
        rd_kafka_mem_free(h->rk, id);
        return fail(k, NULL, false, err, MM2_UNEXPECTED,
                    "cluster id: %zu characters, more than the %zu expected", n, outlen - 1);
    }
    memcpy(out, id, n + 1);
    rd_kafka_mem_free(h->rk, id);
    return MM2_OK;
}

static int topic_cmp(const void *a, const void *b)
{
    const struct mm2_topic_meta *x = a;
    const struct mm2_topic_meta *y = b;

    return strcmp(x->name, y->name);
}

/* Copies md's topics into out; returns false when out of memory (out then partly filled). */
static bool topics_copy(const struct rd_kafka_metadata *md, struct mm2_topic_list *out)
{
    out->v = calloc(md->topic_cnt > 0 ? (size_t)md->topic_cnt : 1, sizeof(*out->v));
    if (out->v == NULL)
        return false;
    for (int i = 0; i < md->topic_cnt; i++) {
        out->v[i].name = strdup(md->topics[i].topic);
        if (out->v[i].name == NULL)
            return false;
        out->v[i].partitions = md->topics[i].partition_cnt;
        out->n++;
    }
    qsort(out->v, out->n, sizeof(*out->v), topic_cmp);
    return true;
}

enum mm2_status mm2_kafka_topics(struct mm2_kafka *k, const struct mm2_deadline *dl,
                                 struct mm2_topic_list *out, struct mm2_error *err)
{
    struct handle *h;
    enum mm2_status st;

    if (out != NULL)
        *out = (struct mm2_topic_list){NULL, 0};
    st = enter(k, dl, err);
    if (st != MM2_OK)
        return st;
    if (out == NULL)
        return fail(k, NULL, false, err, MM2_USAGE, "topics: no output list");
    st = handle_get(k, false, &h, err);
    if (st == MM2_OK)
        st = wait_up(k, h, dl, "topics", err);
    while (st == MM2_OK) {
        const struct rd_kafka_metadata *md = NULL;
        rd_kafka_resp_err_t e = rd_kafka_metadata(h->rk, 1, NULL, &md, slice_ms(dl, 0));
        const char *bad = NULL;

        serve(h, 0);
        /* An answer above receive.message.max.bytes fails the request itself (_BAD_MSG); the
         * broker's failure, served just now, says why. */
        if (e != RD_KAFKA_RESP_ERR_NO_ERROR && h->too_big > 0)
            return hopeless_fail(k, h, "topics", err);
        if (e == RD_KAFKA_RESP_ERR_NO_ERROR) {
            /* A topic being created or deleted can answer with an error: ask again. */
            for (int i = 0; i < md->topic_cnt && bad == NULL; i++) {
                e = md->topics[i].err;
                if (e != RD_KAFKA_RESP_ERR_NO_ERROR)
                    bad = md->topics[i].topic;
            }
            if (bad == NULL) {
                bool ok = topics_copy(md, out);
                rd_kafka_metadata_destroy(md);
                if (ok)
                    return MM2_OK;
                mm2_topic_list_free(out);
                return fail(k, NULL, false, err, MM2_UNEXPECTED, "topics: out of memory");
            }
            if (!retriable(e)) {
                st = fail(k, NULL, false, err, MM2_UNEXPECTED, "topics: %.*s: %s", 255, bad,
                          rd_kafka_err2name(e));
                rd_kafka_metadata_destroy(md);
                return st;
            }
            rd_kafka_metadata_destroy(md);
        } else if (!retriable(e)) {
            return fail(k, h, false, err, status_of(e), "topics: %s", rd_kafka_err2name(e));
        }
        if (hopeless(h))
            return hopeless_fail(k, h, "topics", err);
        if (mm2_deadline_expired(dl))
            return fail(k, h, true, err, MM2_UNREACHABLE,
                        "topics: no complete answer by the deadline (%s)", rd_kafka_err2name(e));
        backoff(h, dl);
    }
    return st;
}

void mm2_topic_list_free(struct mm2_topic_list *l)
{
    if (l == NULL)
        return;
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i].name);
    free(l->v);
    l->v = NULL;
    l->n = 0;
}

/* ---- group offsets and state ------------------------------------------------------------- */

/* What one attempt of a retried call ended with. */
struct attempt {
    rd_kafka_resp_err_t e; /* NO_ERROR when done */
    const char *topic;     /* the partition an error is about, if any */
    int32_t partition;
};

/* Ends a retried call when its attempt failed: returns MM2_OK to try again (after a pause), or
 * the status to return. what names the call in the message. */
static enum mm2_status settle(struct mm2_kafka *k, struct handle *h, const struct attempt *a,
                              const struct mm2_deadline *dl, const char *what,
                              struct mm2_error *err)
{
    if (hopeless(h) || auth_error(a->e))
        return h->too_big > 0
                   ? hopeless_fail(k, h, what, err)
                   : fail(k, h, true, err, MM2_CONFIG, "%s: authentication failed", what);
    if (!retriable(a->e)) {
        if (a->topic != NULL)
            return fail(k, NULL, false, err, MM2_UNEXPECTED, "%s: %.*s[%d]: %s", what, 255,
                        a->topic, (int)a->partition, rd_kafka_err2name(a->e));
        return fail(k, NULL, false, err, MM2_UNEXPECTED, "%s: %s", what, rd_kafka_err2name(a->e));
    }
    if (mm2_deadline_expired(dl)) {
        if (a->topic != NULL)
            return fail(k, h, true, err, MM2_UNREACHABLE,
                        "%s: no complete answer by the deadline (%.*s[%d]: %s)", what, 255,
                        a->topic, (int)a->partition, rd_kafka_err2name(a->e));
        return fail(k, h, true, err, MM2_UNREACHABLE, "%s: no complete answer by the deadline (%s)",
                    what, rd_kafka_err2name(a->e));
    }
    backoff(h, dl);
    return MM2_OK;
}

/* The first error of a group result's event: the event's own, then the group's. */
static rd_kafka_resp_err_t group_result_err(rd_kafka_event_t *ev, const rd_kafka_group_result_t **g,
                                            size_t cnt)
{
    rd_kafka_resp_err_t e = rd_kafka_event_error(ev);

    if (e != RD_KAFKA_RESP_ERR_NO_ERROR)
        return e;
    if (cnt != 1)
        return RD_KAFKA_RESP_ERR__BAD_MSG;
    if (rd_kafka_group_result_error(g[0]) != NULL)
        return rd_kafka_error_code(rd_kafka_group_result_error(g[0]));
    return RD_KAFKA_RESP_ERR_NO_ERROR;
}

/* Reads per-partition answers into out (when not NULL), in the caller's order, and the first
 * per-partition error into a. A partition missing from the answer is an error, never a silent
 * "none". Offsets below 0 become MM2_OFFSET_NONE (librdkafka maps the broker's -1 to -1001). */
static void partitions_read(const rd_kafka_topic_partition_list_t *l, const struct mm2_tp *tps,
                            const struct tpidx *idx, size_t n, int64_t *out, struct attempt *a)
{
    bool *seen = calloc(n, sizeof(*seen));

    *a = (struct attempt){RD_KAFKA_RESP_ERR_NO_ERROR, NULL, 0};
    if (seen == NULL || l == NULL) {
        a->e = seen == NULL ? ERR_OOM : RD_KAFKA_RESP_ERR__BAD_MSG;
        free(seen);
        return;
    }
    for (int j = 0; j < l->cnt; j++) {
        const rd_kafka_topic_partition_t *p = &l->elems[j];
        long i = tp_find(idx, n, p->topic, p->partition);

        if (i < 0 || seen[i])
            continue;
        seen[i] = true;
        if (p->err != RD_KAFKA_RESP_ERR_NO_ERROR && a->e == RD_KAFKA_RESP_ERR_NO_ERROR)
            *a = (struct attempt){p->err, tps[i].topic, tps[i].partition};
        if (out != NULL)
            out[i] = p->offset < 0 ? MM2_OFFSET_NONE : p->offset;
    }
    for (size_t i = 0; i < n && a->e == RD_KAFKA_RESP_ERR_NO_ERROR; i++)
        if (!seen[i])
            *a = (struct attempt){RD_KAFKA_RESP_ERR__BAD_MSG, tps[i].topic, tps[i].partition};
    free(seen);
}

/* Frees what one admin attempt made; every argument may be NULL. */
static void admin_done(rd_kafka_queue_t *q, rd_kafka_AdminOptions_t *o,
                       rd_kafka_topic_partition_list_t *l, rd_kafka_error_t *oe)
{
    if (oe != NULL)
        rd_kafka_error_destroy(oe);
    if (q != NULL)
        rd_kafka_queue_destroy(q);
    if (o != NULL)
        rd_kafka_AdminOptions_destroy(o);
    if (l != NULL)
        rd_kafka_topic_partition_list_destroy(l);
}

enum mm2_status mm2_kafka_committed(struct mm2_kafka *k, const char *group,
                                    const struct mm2_tp *tps, size_t n, int64_t *out,
                                    const struct mm2_deadline *dl, struct mm2_error *err)
{
    char what[320];
    struct tpidx *idx = NULL;
    struct handle *h;
    enum mm2_status st = enter(k, dl, err);

    if (st != MM2_OK)
        return st;
    if (!group_valid(group) || out == NULL)
        return fail(k, NULL, false, err, MM2_USAGE, "committed offsets: no group or no output");
    snprintf(what, sizeof(what), "committed offsets of group '%.255s'", group);
    st = tp_index(k, tps, n, &idx, err);
    if (st == MM2_OK)
        st = handle_get(k, false, &h, err);
    if (st == MM2_OK)
        st = wait_up(k, h, dl, what, err);
    while (st == MM2_OK) {
        struct attempt a = {RD_KAFKA_RESP_ERR__TIMED_OUT, NULL, 0};
        rd_kafka_topic_partition_list_t *l = tp_list(tps, n);
        rd_kafka_ListConsumerGroupOffsets_t *req =
            l != NULL ? rd_kafka_ListConsumerGroupOffsets_new(group, l) : NULL;
        rd_kafka_AdminOptions_t *o =
            admin_options(h, RD_KAFKA_ADMIN_OP_LISTCONSUMERGROUPOFFSETS, dl);
        rd_kafka_queue_t *q = rd_kafka_queue_new(h->rk);
        /* require_stable: a transactional offset commit still pending answers
         * UNSTABLE_OFFSET_COMMIT (retried) instead of the offset before it. */
        rd_kafka_error_t *oe =
            o != NULL ? rd_kafka_AdminOptions_set_require_stable_offsets(o, 1) : NULL;

        if (req == NULL || o == NULL || q == NULL || oe != NULL) {
            a.e = ERR_OOM;
        } else {
            rd_kafka_event_t *ev;
            rd_kafka_ListConsumerGroupOffsets(h->rk, &req, 1, o, q);
            ev = admin_wait(h, q, dl);
            if (ev != NULL) {
                size_t cnt = 0;
                const rd_kafka_group_result_t **g = rd_kafka_ListConsumerGroupOffsets_result_groups(
                    rd_kafka_event_ListConsumerGroupOffsets_result(ev), &cnt);
                a.e = group_result_err(ev, g, cnt);
                if (a.e == RD_KAFKA_RESP_ERR_NO_ERROR)
                    partitions_read(rd_kafka_group_result_partitions(g[0]), tps, idx, n, out, &a);
                rd_kafka_event_destroy(ev);
            }
        }
        if (req != NULL)
            rd_kafka_ListConsumerGroupOffsets_destroy(req);
        admin_done(q, o, l, oe);
        if (a.e == ERR_OOM)
            st = fail(k, NULL, false, err, MM2_UNEXPECTED, "%s: out of memory", what);
        else if (a.e == RD_KAFKA_RESP_ERR_NO_ERROR)
            break;
        else
            st = settle(k, h, &a, dl, what, err);
    }
    free(idx);
    return st;
}

static void copy_name(char *dst, size_t cap, const char *src)
{
    snprintf(dst, cap, "%s", src != NULL ? src : "");
}

enum mm2_status mm2_kafka_group(struct mm2_kafka *k, const char *group,
                                const struct mm2_deadline *dl, struct mm2_group_info *out,
                                struct mm2_error *err)
{
    char what[320];
    struct handle *h;
    enum mm2_status st = enter(k, dl, err);

    if (st != MM2_OK)
        return st;
    if (!group_valid(group) || out == NULL)
        return fail(k, NULL, false, err, MM2_USAGE, "group state: no group or no output");
    *out = (struct mm2_group_info){{0}, 0, {0}};
    snprintf(what, sizeof(what), "state of group '%.255s'", group);
    st = handle_get(k, false, &h, err);
    if (st == MM2_OK)
        st = wait_up(k, h, dl, what, err);
    while (st == MM2_OK) {
        struct attempt a = {RD_KAFKA_RESP_ERR__TIMED_OUT, NULL, 0};
        rd_kafka_AdminOptions_t *o = admin_options(h, RD_KAFKA_ADMIN_OP_DESCRIBECONSUMERGROUPS, dl);
        rd_kafka_queue_t *q = rd_kafka_queue_new(h->rk);

        if (o == NULL || q == NULL) {
            a.e = ERR_OOM;
        } else {
            rd_kafka_event_t *ev;
            rd_kafka_DescribeConsumerGroups(h->rk, &group, 1, o, q);
            ev = admin_wait(h, q, dl);
            if (ev != NULL) {
                size_t cnt = 0;
                const rd_kafka_ConsumerGroupDescription_t **g =
                    rd_kafka_DescribeConsumerGroups_result_groups(
                        rd_kafka_event_DescribeConsumerGroups_result(ev), &cnt);
                a.e = rd_kafka_event_error(ev);
                if (a.e == RD_KAFKA_RESP_ERR_NO_ERROR && cnt != 1)
                    a.e = RD_KAFKA_RESP_ERR__BAD_MSG;
                if (a.e == RD_KAFKA_RESP_ERR_NO_ERROR &&
                    rd_kafka_ConsumerGroupDescription_error(g[0]) != NULL)
                    a.e = rd_kafka_error_code(rd_kafka_ConsumerGroupDescription_error(g[0]));
                if (a.e == RD_KAFKA_RESP_ERR_NO_ERROR) {
                    size_t members = rd_kafka_ConsumerGroupDescription_member_count(g[0]);
                    copy_name(out->state, sizeof(out->state),
                              rd_kafka_consumer_group_state_name(
                                  rd_kafka_ConsumerGroupDescription_state(g[0])));
                    out->members = members > INT_MAX ? INT_MAX : (int)members;
                    /* 2.0.2 has no accessor for the protocol type: a "simple" group is one
                     * without (commits only, as Flink's assign()-based source makes). */
                    copy_name(out->protocol_type, sizeof(out->protocol_type),
                              rd_kafka_ConsumerGroupDescription_is_simple_consumer_group(g[0])
                                  ? ""
                                  : "consumer");
                }
                rd_kafka_event_destroy(ev);
            }
        }
        admin_done(q, o, NULL, NULL);
        if (a.e == ERR_OOM)
            st = fail(k, NULL, false, err, MM2_UNEXPECTED, "%s: out of memory", what);
        else if (a.e == RD_KAFKA_RESP_ERR_NO_ERROR)
            break;
        else
            st = settle(k, h, &a, dl, what, err);
    }
    return st;
}

/* ---- log offsets ------------------------------------------------------------------------- */

/* rd_kafka_offsets_for_times for timestamp ts (-2 log start, -1 end: high watermark or last
 * stable offset, by the handle's isolation.level) on every partition, one ListOffsets request
 * per leader. librdkafka 2.0.2 leaves an offset as the timestamp asked when no answer came for
 * it (a leader that did not answer in time is not an error there), and folds the first
 * per-partition error into its return code without telling which partition; a negative offset
 * after NO_ERROR is therefore "not answered" and retried. */
static enum mm2_status list_offsets(struct mm2_kafka *k, struct handle *h, const struct mm2_tp *tps,
                                    const struct tpidx *idx, size_t n, int64_t ts, int64_t *out,
                                    const char *what, const struct mm2_deadline *dl,
                                    struct mm2_error *err)
{
    enum mm2_status st = wait_up(k, h, dl, what, err);

    while (st == MM2_OK) {
        struct attempt a = {RD_KAFKA_RESP_ERR_NO_ERROR, NULL, 0};
        rd_kafka_topic_partition_list_t *l = tp_list(tps, n);

        if (l == NULL)
            return fail(k, NULL, false, err, MM2_UNEXPECTED, "%s: out of memory", what);
        for (int j = 0; j < l->cnt; j++)
            l->elems[j].offset = ts;
        a.e = rd_kafka_offsets_for_times(h->rk, l, slice_ms(dl, 0));
        serve(h, 0);
        if (a.e == RD_KAFKA_RESP_ERR_NO_ERROR) {
            partitions_read(l, tps, idx, n, NULL, &a);
            for (int j = 0; j < l->cnt && a.e == RD_KAFKA_RESP_ERR_NO_ERROR; j++) {
                long i = tp_find(idx, n, l->elems[j].topic, l->elems[j].partition);
                if (i < 0)
                    continue; /* not asked for: cannot happen, the list is ours */
                if (l->elems[j].offset < 0)
                    a = (struct attempt){RD_KAFKA_RESP_ERR__TIMED_OUT, tps[i].topic,
                                         tps[i].partition};
                else
                    out[i] = l->elems[j].offset;
            }
        } else if (n == 1) {
            a.topic = tps[0].topic;
            a.partition = tps[0].partition;
        }
        rd_kafka_topic_partition_list_destroy(l);
        if (a.e == ERR_OOM)
            return fail(k, NULL, false, err, MM2_UNEXPECTED, "%s: out of memory", what);
        if (a.e == RD_KAFKA_RESP_ERR_NO_ERROR)
            return MM2_OK;
        st = settle(k, h, &a, dl, what, err);
    }
    return st;
}

enum mm2_status mm2_kafka_log_offsets(struct mm2_kafka *k, const struct mm2_tp *tps, size_t n,
                                      int64_t *start, int64_t *end, int64_t *stable,
                                      const struct mm2_deadline *dl, struct mm2_error *err)
{
    struct tpidx *idx = NULL;
    struct handle *h;
    enum mm2_status st = enter(k, dl, err);

    if (st != MM2_OK)
        return st;
    if (end == NULL)
        return fail(k, NULL, false, err, MM2_USAGE, "log offsets: no output for the end");
    st = tp_index(k, tps, n, &idx, err);
    if (st == MM2_OK)
        st = handle_get(k, false, &h, err);
    if (st == MM2_OK && start != NULL)
        st = list_offsets(k, h, tps, idx, n, RD_KAFKA_OFFSET_BEGINNING, start, "log start offsets",
                          dl, err);
    if (st == MM2_OK)
        st = list_offsets(k, h, tps, idx, n, RD_KAFKA_OFFSET_END, end, "log end offsets", dl, err);
    if (st == MM2_OK && stable != NULL)
        st = handle_get(k, true, &h, err);
    if (st == MM2_OK && stable != NULL)
        st = list_offsets(k, h, tps, idx, n, RD_KAFKA_OFFSET_END, stable, "last stable offsets", dl,
                          err);
    free(idx);
    return st;
}

/* ---- commit ------------------------------------------------------------------------------ */

enum mm2_status mm2_kafka_commit(struct mm2_kafka *k, const char *group, const struct mm2_tp *tps,
                                 const int64_t *offsets, size_t n, const struct mm2_deadline *dl,
                                 struct mm2_error *err)
{
    char what[320];
    struct tpidx *idx = NULL;
    struct handle *h;
    enum mm2_status st = enter(k, dl, err);

    if (st != MM2_OK)
        return st;
    if (!group_valid(group) || offsets == NULL)
        return fail(k, NULL, false, err, MM2_USAGE, "commit: no group or no offsets");
    snprintf(what, sizeof(what), "commit to group '%.255s'", group);
    st = tp_index(k, tps, n, &idx, err);
    for (size_t i = 0; st == MM2_OK && i < n; i++)
        if (offsets[i] < 0)
            st = fail(k, NULL, false, err, MM2_USAGE, "%s: %.*s[%d]: negative offset %" PRId64,
                      what, 255, tps[i].topic, (int)tps[i].partition, offsets[i]);
    if (st == MM2_OK)
        st = handle_get(k, false, &h, err);
    if (st == MM2_OK)
        st = wait_up(k, h, dl, what, err);
    /* Retrying is safe: the same offsets are written again. */
    while (st == MM2_OK) {
        struct attempt a = {RD_KAFKA_RESP_ERR__TIMED_OUT, NULL, 0};
        rd_kafka_topic_partition_list_t *l = tp_list(tps, n);
        rd_kafka_AlterConsumerGroupOffsets_t *req = NULL;
        rd_kafka_AdminOptions_t *o =
            admin_options(h, RD_KAFKA_ADMIN_OP_ALTERCONSUMERGROUPOFFSETS, dl);
        rd_kafka_queue_t *q = rd_kafka_queue_new(h->rk);

        for (int j = 0; l != NULL && j < l->cnt; j++)
            l->elems[j].offset = offsets[j]; /* tp_list keeps the caller's order */
        if (l != NULL)
            req = rd_kafka_AlterConsumerGroupOffsets_new(group, l);
        if (req == NULL || o == NULL || q == NULL) {
            a.e = ERR_OOM;
        } else {
            rd_kafka_event_t *ev;
            rd_kafka_AlterConsumerGroupOffsets(h->rk, &req, 1, o, q);
            ev = admin_wait(h, q, dl);
            if (ev != NULL) {
                size_t cnt = 0;
                const rd_kafka_group_result_t **g =
                    rd_kafka_AlterConsumerGroupOffsets_result_groups(
                        rd_kafka_event_AlterConsumerGroupOffsets_result(ev), &cnt);
                a.e = group_result_err(ev, g, cnt);
                if (a.e == RD_KAFKA_RESP_ERR_NO_ERROR)
                    partitions_read(rd_kafka_group_result_partitions(g[0]), tps, idx, n, NULL, &a);
                rd_kafka_event_destroy(ev);
            }
        }
        if (req != NULL)
            rd_kafka_AlterConsumerGroupOffsets_destroy(req);
        admin_done(q, o, l, NULL);
        if (a.e == ERR_OOM) {
            st = fail(k, NULL, false, err, MM2_UNEXPECTED, "%s: out of memory", what);
        } else if (a.e == RD_KAFKA_RESP_ERR_NO_ERROR) {
            break;
        } else if (a.e == RD_KAFKA_RESP_ERR_UNKNOWN_MEMBER_ID ||
                   a.e == RD_KAFKA_RESP_ERR_ILLEGAL_GENERATION ||
                   a.e == RD_KAFKA_RESP_ERR_REBALANCE_IN_PROGRESS) {
            /* What a classic group answers a non-member commit while it has members. */
            st = fail(k, NULL, false, err, MM2_UNEXPECTED,
                      "%s: %.*s[%d]: %s (the group has active members; other partitions may "
                      "have been committed)",
                      what, 255, a.topic != NULL ? a.topic : "?", (int)a.partition,
                      rd_kafka_err2name(a.e));
        } else {
            st = settle(k, h, &a, dl, what, err);
        }
    }
    free(idx);
    return st;
}

/* ---- bounded read ------------------------------------------------------------------------ */

static unsigned char *dup_bytes(const void *p, size_t len)
{
    unsigned char *d = malloc(len > 0 ? len : 1);

    if (d != NULL && len > 0)
        memcpy(d, p, len);
    return d;
}

static void record_free(struct mm2_record *r)
{
    free(r->key);
    free(r->value);
    for (size_t i = 0; i < r->nheaders; i++) {
        free(r->headers[i].name);
        free(r->headers[i].value);
    }
    free(r->headers);
}

/* Copies m into r (zeroed); false when out of memory (r then holds what was copied). */
static bool record_copy(const rd_kafka_message_t *m, struct mm2_record *r)
{
    rd_kafka_timestamp_type_t tstype = RD_KAFKA_TIMESTAMP_NOT_AVAILABLE;
    rd_kafka_headers_t *hdrs = NULL;
    size_t nh;

    r->offset = m->offset;
    r->timestamp = rd_kafka_message_timestamp(m, &tstype);
    r->tstype = (int)tstype;
    if (m->key != NULL) {
        r->key = dup_bytes(m->key, m->key_len);
        if (r->key == NULL)
            return false;
        r->key_len = m->key_len;
    }
    if (m->payload != NULL) {
        r->value = dup_bytes(m->payload, m->len);
        if (r->value == NULL)
            return false;
        r->value_len = m->len;
    }
    if (rd_kafka_message_headers(m, &hdrs) != RD_KAFKA_RESP_ERR_NO_ERROR || hdrs == NULL)
        return true;
    nh = rd_kafka_header_cnt(hdrs);
    if (nh == 0)
        return true;
    r->headers = calloc(nh, sizeof(*r->headers));
    if (r->headers == NULL)
        return false;
    for (size_t i = 0; i < nh; i++) {
        const char *name = NULL;
        const void *val = NULL;
        size_t len = 0;
        struct mm2_header *hd = &r->headers[i];

        if (rd_kafka_header_get_all(hdrs, i, &name, &val, &len) != RD_KAFKA_RESP_ERR_NO_ERROR)
            break;
        r->nheaders++;
        hd->name = strdup(name != NULL ? name : "");
        if (hd->name == NULL)
            return false;
        if (val != NULL) {
            hd->value = dup_bytes(val, len);
            if (hd->value == NULL)
                return false;
            hd->len = len;
        }
    }
    return true;
}

/* Appends a copy of m to out, growing it up to max entries. */
static bool record_append(struct mm2_record_list *out, size_t *cap, size_t max,
                          const rd_kafka_message_t *m)
{
    if (out->n == *cap) {
        size_t c = *cap > 0 ? *cap * 2 : 64;
        struct mm2_record *v;
        if (c > max)
            c = max;
        v = realloc(out->v, c * sizeof(*v));
        if (v == NULL)
            return false;
        out->v = v;
        *cap = c;
    }
    memset(&out->v[out->n], 0, sizeof(out->v[out->n]));
    out->n++; /* counted at once, so that a partial copy is freed with the list */
    return record_copy(m, &out->v[out->n - 1]);
}

/* Consumer errors that end a read: everything but the transient ones librdkafka recovers from
 * by itself. __AUTO_OFFSET_RESET is what auto.offset.reset=error gives for an offset outside
 * the log: never a silent jump. */
static bool read_fatal(rd_kafka_resp_err_t e)
{
    return !retriable(e) || auth_error(e);
}

/* Consumes the assigned partition until until, max records, the end or the deadline. */
static enum mm2_status read_loop(struct mm2_kafka *k, struct handle *h, const char *what,
                                 int64_t from, int64_t until, size_t max,
                                 const struct mm2_deadline *dl, struct mm2_record_list *out,
                                 struct mm2_error *err)
{
    size_t cap = 0;

    for (;;) {
        rd_kafka_message_t *m = rd_kafka_consumer_poll(h->rk, slice_ms(dl, SLICE_MS));
        enum mm2_status st = MM2_OK;
        bool done = false;

        serve(h, 0);
        if (m != NULL && m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
            done = true; /* the fetch position reached the end: nothing more to read */
        } else if (m != NULL && m->err != RD_KAFKA_RESP_ERR_NO_ERROR) {
            if (m->err == RD_KAFKA_RESP_ERR__AUTO_OFFSET_RESET ||
                m->err == RD_KAFKA_RESP_ERR_OFFSET_OUT_OF_RANGE)
                st = fail(k, NULL, false, err, MM2_UNEXPECTED,
                          "%s: offset %" PRId64 " is outside the partition's log (%s)", what, from,
                          rd_kafka_err2name(m->err));
            else if (read_fatal(m->err))
                st = fail(k, h, auth_error(m->err), err, status_of(m->err), "%s: %s: %s", what,
                          rd_kafka_err2name(m->err), rd_kafka_err2str(m->err));
        } else if (m != NULL) {
            if (m->offset >= until) {
                done = true;
            } else if (!record_append(out, &cap, max, m)) {
                st = fail(k, NULL, false, err, MM2_UNEXPECTED, "%s: out of memory", what);
            } else if (out->n >= max || m->offset + 1 >= until) {
                done = true; /* the last offset of the range: no need to wait for the end */
            }
        }
        if (m != NULL)
            rd_kafka_message_destroy(m);
        if (st != MM2_OK || done)
            return st;
        if (hopeless(h))
            return hopeless_fail(k, h, what, err);
        if (mm2_deadline_expired(dl))
            return fail(k, h, true, err, MM2_UNREACHABLE, "%s: deadline passed after %zu record(s)",
                        what, out->n);
    }
}

enum mm2_status mm2_kafka_read(struct mm2_kafka *k, const char *topic, int32_t partition,
                               int64_t from, int64_t until, size_t max, bool committed,
                               const struct mm2_deadline *dl, struct mm2_record_list *out,
                               struct mm2_error *err)
{
    char what[320];
    char endwhat[360];
    struct mm2_tp tp = {topic, partition};
    struct tpidx *idx = NULL;
    int64_t end = 0;
    rd_kafka_topic_partition_list_t *l;
    rd_kafka_resp_err_t e;
    struct handle *h;
    enum mm2_status st;

    if (out != NULL)
        *out = (struct mm2_record_list){NULL, 0};
    st = enter(k, dl, err);
    if (st != MM2_OK)
        return st;
    if (out == NULL || max == 0 || from < 0 || until < -1)
        return fail(k, NULL, false, err, MM2_USAGE,
                    "read: needs an output list, max >= 1, from >= 0 and until >= -1");
    st = tp_index(k, &tp, 1, &idx, err);
    if (st != MM2_OK)
        return st;
    if (until != -1 && from >= until) {
        free(idx);
        return MM2_OK; /* an empty range: nothing to ask */
    }
    snprintf(what, sizeof(what), "read %.255s[%d]", topic, (int)partition);
    /* The end is asked for even with an explicit until: assign() on a partition that does not
     * exist reports nothing in 2.0.2 (the read would just wait for the deadline), while
     * ListOffsets answers UNKNOWN_PARTITION at once. */
    snprintf(endwhat, sizeof(endwhat), "%s: %s", what,
             committed ? "last stable offset" : "log end offset");
    st = handle_get(k, committed, &h, err);
    if (st == MM2_OK)
        st = list_offsets(k, h, &tp, idx, 1, RD_KAFKA_OFFSET_END, &end, endwhat, dl, err);
    free(idx);
    if (st != MM2_OK)
        return st;
    if (until == -1 || until > end)
        until = end;
    if (from >= until)
        return MM2_OK;
    l = rd_kafka_topic_partition_list_new(1);
    if (l == NULL)
        return fail(k, NULL, false, err, MM2_UNEXPECTED, "%s: out of memory", what);
    rd_kafka_topic_partition_list_add(l, topic, partition)->offset = from;
    e = rd_kafka_assign(h->rk, l);
    rd_kafka_topic_partition_list_destroy(l);
    if (e != RD_KAFKA_RESP_ERR_NO_ERROR)
        return fail(k, NULL, false, err, MM2_UNEXPECTED, "%s: assign: %s", what,
                    rd_kafka_err2name(e));
    st = read_loop(k, h, what, from, until, max, dl, out, err);
    /* Unassigning drops whatever was fetched beyond the range: the next read starts afresh. */
    e = rd_kafka_assign(h->rk, NULL);
    if (st == MM2_OK && e != RD_KAFKA_RESP_ERR_NO_ERROR)
        st = fail(k, NULL, false, err, MM2_UNEXPECTED, "%s: unassign: %s", what,
                  rd_kafka_err2name(e));
    return st;
}

void mm2_record_list_free(struct mm2_record_list *l)
{
    if (l == NULL)
        return;
    for (size_t i = 0; i < l->n; i++)
        record_free(&l->v[i]);
    free(l->v);
    l->v = NULL;
    l->n = 0;
}
