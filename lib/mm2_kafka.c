/*
 * mm2_kafka: a client for one cluster, made from the caller's librdkafka properties and freed
 * (see mm2_kafka.h): the properties applied in order onto the template every handle is made
 * from, mm2-offsets' own settings above them, the values kept to be redacted, and the features
 * the security settings need. The handles themselves are mm2_kafka_handle.c's.
 */
#include "mm2_kafka_handle.h"
#include "mm2_limits.h"
#include "mm2_secret.h"

#include <errno.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define KEY_SHOW 128 /* characters of a property key repeated in a message */

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

const char *mm2_kafka_version(void)
{
    return rd_kafka_version_str();
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
 * own, no silent offset reset, end-of-partition events for bounded reads, no client metrics
 * pushed to the brokers. auto.commit.enable is the legacy alias of enable.auto.commit;
 * offset.store.method=file would move commits to a local file. */
static bool key_reserved(const char *key)
{
    static const char *const reserved[] = {
        "group.id",           "group.instance.id",    "isolation.level",
        "enable.auto.commit", "auto.commit.enable",   "enable.auto.offset.store",
        "auto.offset.reset",  "enable.partition.eof", "offset.store.method",
        "enable.metrics.push"};

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
        return mm2_kafka_handle_fail(k, err, MM2_UNEXPECTED, "out of memory");
    v[k->nhidden] = strdup(value);
    if (v[k->nhidden] == NULL)
        return mm2_kafka_handle_fail(k, err, MM2_UNEXPECTED, "out of memory");
    secret[k->nhidden++] = is_secret;
    return MM2_OK;
}

static enum mm2_status set_own(struct mm2_kafka *k, const char *key, const char *value,
                               struct mm2_error *err)
{
    char errstr[256];

    if (rd_kafka_conf_set(k->conf, key, value, errstr, sizeof(errstr)) != RD_KAFKA_CONF_OK)
        return mm2_kafka_handle_fail(k, err, MM2_UNEXPECTED,
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
        return mm2_kafka_handle_fail(k, err, MM2_UNEXPECTED, "out of memory");
    if (rd_kafka_conf_set(c, "bootstrap.servers", "", errstr, sizeof(errstr)) != RD_KAFKA_CONF_OK) {
        rd_kafka_conf_destroy(c);
        return mm2_kafka_handle_fail(k, err, MM2_UNEXPECTED, "cannot clear bootstrap.servers");
    }
    errstr[0] = '\0';
    rk = rd_kafka_new(RD_KAFKA_CONSUMER, c, errstr, sizeof(errstr));
    if (rk == NULL) {
        rd_kafka_conf_destroy(c);
        return mm2_kafka_handle_refused(k, errstr, err);
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
            return mm2_kafka_handle_fail(k, err, MM2_USAGE, "property #%zu has no key or no value",
                                         i);
        if (key_reserved(key))
            return mm2_kafka_handle_fail(
                k, err, MM2_CONFIG,
                "librdkafka property '%.*s' is set by mm2-offsets itself; remove it", KEY_SHOW,
                key);
        if (strcasecmp(key, "receive.message.max.bytes") == 0 && !response_cap_ok(value))
            return mm2_kafka_handle_fail(
                k, err, MM2_CONFIG,
                "librdkafka property 'receive.message.max.bytes' must be a number of "
                "bytes up to %ld (" MM2_LIMITS_WHY ")",
                MM2_KAFKA_RESPONSE_MAX);
        st = hide(k, key, value, err);
        if (st != MM2_OK)
            return st;
        /* errstr is never shown: librdkafka repeats the value in it. */
        rc = rd_kafka_conf_set(k->conf, key, value, errstr, sizeof(errstr));
        if (rc == RD_KAFKA_CONF_UNKNOWN)
            return mm2_kafka_handle_fail(k, err, MM2_CONFIG, "unknown librdkafka property '%.*s'",
                                         KEY_SHOW, key);
        if (rc != RD_KAFKA_CONF_OK && strstr(errstr, "not supported in this build") != NULL)
            return mm2_kafka_handle_fail(
                k, err, MM2_CONFIG,
                "librdkafka property '%.*s' (or this value of it) is not supported by "
                "this build of librdkafka",
                KEY_SHOW, key);
        if (rc != RD_KAFKA_CONF_OK)
            return mm2_kafka_handle_fail(
                k, err, MM2_CONFIG,
                "invalid value for librdkafka property '%.*s' (value not shown)", KEY_SHOW, key);
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
    mm2_kafka_handle_init_all(k);
    k->conf = rd_kafka_conf_new();
    if (k->conf == NULL) {
        mm2_kafka_free(k);
        return mm2_error_set(err, MM2_UNEXPECTED, "[%s] out of memory", role);
    }
    mm2_kafka_handle_callbacks(k->conf);
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
        st = mm2_kafka_handle_fail(k, err, MM2_UNEXPECTED, "cannot read builtin.features");
    if (st == MM2_OK && !mm2_kafka_features_ok(features, proto, mech, why, sizeof(why)))
        st = mm2_kafka_handle_fail(k, err, MM2_CONFIG, "%s", why);
    if (st == MM2_OK)
        st = set_own(k, "group.id", MM2_KAFKA_PRIVATE_GROUP, err);
    if (st == MM2_OK)
        st = set_own(k, "enable.auto.commit", "false", err);
    if (st == MM2_OK)
        st = set_own(k, "enable.auto.offset.store", "false", err);
    if (st == MM2_OK)
        st = set_own(k, "auto.offset.reset", "error", err);
    if (st == MM2_OK)
        st = set_own(k, "enable.partition.eof", "true", err);
    /* KIP-714 client metrics: a one-shot job has none worth pushing, and with it on
     * rd_kafka_destroy waits up to 1 s for the telemetry to end (librdkafka 2.8.0's
     * rd_kafka_telemetry_await_termination), on every client, the check_new one included. */
    if (st == MM2_OK)
        st = set_own(k, "enable.metrics.push", "false", err);
    if (st == MM2_OK && !starts_with_side_effects(proto, mech, oauth))
        st = check_new(k, err);
    if (st != MM2_OK) {
        mm2_kafka_free(k);
        return st;
    }
    *out = k;
    return MM2_OK;
}

void mm2_kafka_release(struct mm2_kafka *k)
{
    if (k != NULL)
        mm2_kafka_handle_destroy_all(k);
}

void mm2_kafka_arenas(void)
{
#ifdef __GLIBC__
    (void)mallopt(M_ARENA_MAX, MM2_KAFKA_ARENAS);
#endif
}

void mm2_kafka_free(struct mm2_kafka *k)
{
    if (k == NULL)
        return;
    mm2_kafka_handle_destroy_all(k);
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
