/* mm2_config: mm2-offsets' INI file on inih (see mm2_config.h). */
#include "mm2_config.h"

#include <ini.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mm2_file.h"
#include "mm2_http.h"
#include "mm2_json.h"
#include "mm2_parse.h"
#include "mm2_secret.h"

#define VALUE_MAX 4096

/* [flink]'s boundary proof keys (mm2_tail.h), each seen at most once (seen_tail has one flag a
 * key: the table sizes it). */
static const struct {
    const char *key;
    long min, max; /* a number; min > max: true or false */
    size_t offset;
} tail_keys[] = {
    {"tail.records", 0, 256, offsetof(struct mm2_config, tail_records)},
    {"tail.window", 0, 100000, offsetof(struct mm2_config, tail_window)},
    {"tail.bytes", 1024, 64L * 1024 * 1024, offsetof(struct mm2_config, tail_bytes)},
    {"tail.partitions", 1, 100000, offsetof(struct mm2_config, tail_partitions)},
    {"headers.preserved", 1, 0, offsetof(struct mm2_config, headers_preserved)},
    {"timestamps.preserved", 1, 0, offsetof(struct mm2_config, timestamps_preserved)},
};
#define NTAIL_KEYS (sizeof(tail_keys) / sizeof(tail_keys[0]))

struct parse_state {
    struct mm2_config *c;
    struct mm2_problems *p;
    mm2_getenv_fn getenv_fn;
    const char *file; /* for messages */
    bool seen_connect_url, seen_connect_ca, seen_workers, seen_timeout, seen_budget, seen_wait,
        seen_group, seen_rest, seen_job, seen_ckpt, seen_mapping, seen_file, seen_cluster_id[2],
        seen_tail[NTAIL_KEYS], seen_principal[2], seen_itopic[3], seen_rf, seen_isr, seen_isolation,
        seen_margin, seen_user, seen_password;
    struct mm2_config_trail_seen trail;
    char unknown[64][64]; /* the unknown sections reported */
    size_t nunknown;
    bool bootstrap_failed[2]; /* [source], [target] bootstrap.servers given but not expandable */
    struct mm2_policy_seen seen_policy;
};

static bool valid_env_name(const char *s, size_t n)
{
    if (n == 0 || !((s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z') || s[0] == '_'))
        return false;
    for (size_t i = 1; i < n; i++) {
        char ch = s[i];
        if (!((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
              ch == '_'))
            return false;
    }
    return true;
}

static void add_secret(struct parse_state *st, const char *value)
{
    struct mm2_config *c = st->c;

    if (value[0] == '\0')
        return;
    for (size_t i = 0; i < c->nsecrets; i++)
        if (strcmp(c->secrets[i], value) == 0)
            return;
    if (c->nsecrets >= MM2_CONFIG_SECRETS_MAX) {
        /* A value that could not be registered could not be redacted either. */
        mm2_problems_add(st->p,
                         "%s: more than %d different secret values (passwords, JAAS lines, "
                         "tokens); at most %d can be kept out of the logs",
                         st->file, MM2_CONFIG_SECRETS_MAX, MM2_CONFIG_SECRETS_MAX);
        return;
    }
    c->secrets[c->nsecrets] = strdup(value);
    if (c->secrets[c->nsecrets] != NULL)
        c->nsecrets++;
}

/* value with every ${env:NAME} replaced; NULL after adding a problem. */
static char *expand(struct parse_state *st, const char *section, const char *key, const char *v)
{
    char out[VALUE_MAX];
    char name[256]; /* of the variable being expanded */
    size_t o = 0;

    while (*v != '\0') {
        const char *add = v;
        size_t n = 1;
        if (v[0] == '$' && v[1] == '{') {
            const char *end = strchr(v, '}');
            const char *val;
            if (strncmp(v, "${env:", 6) != 0 || end == NULL) {
                mm2_problems_add(st->p,
                                 "%s: [%s] %s: \"${\" must start ${env:NAME} and end with \"}\"",
                                 st->file, section, key);
                return NULL;
            }
            if (!valid_env_name(v + 6, (size_t)(end - v - 6))) {
                mm2_problems_add(st->p,
                                 "%s: [%s] %s: ${env:...} must name a variable as "
                                 "[A-Za-z_][A-Za-z0-9_]*",
                                 st->file, section, key);
                return NULL;
            }
            {
                size_t nl = (size_t)(end - v - 6);
                if (nl >= sizeof(name)) {
                    mm2_problems_add(st->p, "%s: [%s] %s: variable name too long", st->file,
                                     section, key);
                    return NULL;
                }
                memcpy(name, v + 6, nl);
                name[nl] = '\0';
                val = st->getenv_fn(name);
                if (val == NULL) {
                    mm2_problems_add(st->p,
                                     "%s: [%s] %s: environment variable %s is not set; set it in "
                                     "the Job's environment (from its Secret)",
                                     st->file, section, key, name);
                    return NULL;
                }
            }
            add = val;
            n = strlen(val);
            v = end + 1;
        } else {
            v++;
        }
        if (o + n >= sizeof(out)) {
            mm2_problems_add(st->p, "%s: [%s] %s: value longer than %d bytes", st->file, section,
                             key, VALUE_MAX - 1);
            return NULL;
        }
        memcpy(out + o, add, n);
        o += n;
    }
    out[o] = '\0';
    return strdup(out);
}

static bool once(struct parse_state *st, bool *seen, const char *section, const char *key)
{
    if (*seen) {
        mm2_problems_add(st->p,
                         "%s: [%s] %s is given twice (or continued on an indented line); give "
                         "it once",
                         st->file, section, key);
        return false;
    }
    *seen = true;
    return true;
}

static void add_prop(struct parse_state *st, const char *section, struct mm2_kv *props, size_t *n,
                     const char *key, const char *value)
{
    char *k, *v;

    for (size_t i = 0; i < *n; i++) {
        if (strcmp(props[i].key, key) == 0) {
            mm2_problems_add(st->p,
                             "%s: [%s] %s is given twice (or continued on an indented line); "
                             "give it once",
                             st->file, section, key);
            return;
        }
    }
    if (*n >= MM2_CONFIG_PROPS_MAX) {
        mm2_problems_add(st->p, "%s: [%s] has more than %d properties", st->file, section,
                         MM2_CONFIG_PROPS_MAX);
        return;
    }
    v = strdup(value);
    k = strdup(key);
    if (k == NULL || v == NULL) {
        free(k);
        free(v);
        mm2_problems_add(st->p, "out of memory");
        return;
    }
    props[*n].key = k;
    props[*n].value = v;
    (*n)++;
}

/* Seconds (up to 3 decimals) into ms, within [min_s, max_s]. */
static void seconds(struct parse_state *st, const char *section, const char *key, const char *v,
                    long min_ms, long max_ms, long *out)
{
    long ms;

    /* min_ms 0: "0" (exactly) turns the thing off; mm2_parse_seconds takes positive ones only. */
    if (min_ms == 0 && strcmp(v, "0") == 0) {
        *out = 0;
        return;
    }
    if (mm2_parse_seconds(v, &ms) != 0 || ms < min_ms || ms > max_ms) {
        mm2_problems_add(st->p,
                         "%s: [%s] %s must be %sseconds from %ld.%03ld to %ld (up to 3 decimals), "
                         "got \"%.40s\"",
                         st->file, section, key, min_ms == 0 ? "0 (off) or " : "",
                         min_ms == 0 ? 0 : min_ms / 1000, min_ms == 0 ? 1 : min_ms % 1000,
                         max_ms / 1000, v);
        return;
    }
    *out = ms;
}

static void parse_mapping(struct parse_state *st, const char *v)
{
    struct mm2_config *c = st->c;
    char buf[VALUE_MAX], why[160], *items[MM2_CONFIG_MAPPING_MAX];
    long n;

    if (strcmp(v, "identity") == 0)
        return;
    n = mm2_parse_list(v, buf, sizeof(buf), items, MM2_CONFIG_MAPPING_MAX, why, sizeof(why));
    if (n < 0)
        mm2_problems_add(st->p,
                         "%s: [flink] topic.mapping %s; write \"identity\" or SOURCE=TARGET "
                         "pairs separated by commas (at most %d)",
                         st->file, why, MM2_CONFIG_MAPPING_MAX);
    for (long k = 0; k < n; k++) {
        char *s = items[k], *eq = strchr(s, '=');
        if (eq == NULL) {
            mm2_problems_add(st->p,
                             "%s: [flink] topic.mapping must be \"identity\" or SOURCE=TARGET "
                             "pairs separated by commas, got \"%.60s\"",
                             st->file, s);
            return;
        }
        *eq = '\0';
        if (!mm2_parse_topic_valid(s, why, sizeof(why)) ||
            !mm2_parse_topic_valid(eq + 1, why, sizeof(why))) {
            mm2_problems_add(st->p, "%s: [flink] topic.mapping: \"%.60s=%.60s\": %s", st->file, s,
                             eq + 1, why);
            return;
        }
        for (size_t i = 0; i < c->nmapping; i++) {
            if (strcmp(c->mapping[i].source, s) == 0) {
                mm2_problems_add(st->p, "%s: [flink] topic.mapping maps %.100s twice", st->file, s);
                return;
            }
        }
        if (c->mapping == NULL) {
            c->mapping = calloc(MM2_CONFIG_MAPPING_MAX, sizeof(*c->mapping));
            if (c->mapping == NULL) {
                mm2_problems_add(st->p, "out of memory");
                return;
            }
        }
        c->mapping[c->nmapping].source = strdup(s);
        c->mapping[c->nmapping].target = strdup(eq + 1);
        c->nmapping++;
    }
}

/* Stores a copy of value in *dst; false (after a problem) when given twice or empty. */
static bool set_string(struct parse_state *st, bool *seen, const char *section, const char *key,
                       const char *value, char **dst)
{
    if (!once(st, seen, section, key))
        return false;
    if (value[0] == '\0') {
        mm2_problems_add(st->p, "%s: [%s] %s is empty", st->file, section, key);
        return false;
    }
    *dst = strdup(value);
    if (*dst == NULL) {
        mm2_problems_add(st->p, "out of memory");
        return false;
    }
    return true;
}

/* [source] or [target] cluster.id: a Kafka cluster id (base64url of a UUID, 22 characters, in
 * KRaft and ZooKeeper clusters alike), pinned so that artifacts are checked against it. */
static void cluster_id_key(struct parse_state *st, const char *section, const char *value)
{
    bool target = strcmp(section, "target") == 0;
    char **dst = target ? &st->c->target_cluster_id : &st->c->source_cluster_id;
    size_t n = strlen(value);
    bool ok = n > 0 && n < MM2_KAFKA_CLUSTER_ID_MAX;

    for (size_t i = 0; ok && i < n; i++)
        ok = (value[i] >= 'a' && value[i] <= 'z') || (value[i] >= 'A' && value[i] <= 'Z') ||
             (value[i] >= '0' && value[i] <= '9') || value[i] == '-' || value[i] == '_' ||
             value[i] == '.';
    if (!set_string(st, &st->seen_cluster_id[target], section, "cluster.id", value, dst))
        return;
    if (!ok)
        mm2_problems_add(st->p,
                         "%s: [%s] cluster.id must be a Kafka cluster id (1 to %d characters of "
                         "[A-Za-z0-9._-], as kafka-cluster.sh cluster-id prints it), got \"%.70s\"",
                         st->file, section, MM2_KAFKA_CLUSTER_ID_MAX - 1, value);
}

/* [source] or [target] principal: the principal Kafka knows the section's credentials as
 * ("User:NAME"), for preflight's kafka-acls.sh lines; not passed to librdkafka. */
static void principal_key(struct parse_state *st, const char *section, const char *value)
{
    bool target = strcmp(section, "target") == 0;
    char **dst = target ? &st->c->target_principal : &st->c->source_principal;
    const char *colon = strchr(value, ':');

    if (!set_string(st, &st->seen_principal[target], section, "principal", value, dst))
        return;
    if (colon == NULL || colon == value || colon[1] == '\0' || strlen(value) > 255)
        mm2_problems_add(
            st->p,
            "%s: [%s] principal must be TYPE:NAME as Kafka's ACLs name it (User:alice), "
            "at most 255 characters, got \"%.70s\"",
            st->file, section, value);
}

/* [connect]'s keys for Connect's internal topics: their names, and the replication factor and
 * min.insync.replicas preflight requires of them. */
static bool connect_topic_key(struct parse_state *st, const char *key, const char *value)
{
    static const char *const names[] = {"config.topic", "offset.topic", "status.topic"};
    struct mm2_config *c = st->c;
    char **slot[] = {&c->config_topic, &c->offset_topic, &c->status_topic};
    char why[160];

    for (size_t i = 0; i < 3; i++) {
        if (strcmp(key, names[i]) != 0)
            continue;
        if (set_string(st, &st->seen_itopic[i], "connect", key, value, slot[i]) &&
            !mm2_parse_topic_valid(value, why, sizeof(why)))
            mm2_problems_add(st->p, "%s: [connect] %s must be a topic name: %s", st->file, key,
                             why);
        return true;
    }
    if (strcmp(key, "internal.replication.factor") == 0 ||
        strcmp(key, "internal.min.insync.replicas") == 0) {
        bool rf = key[9] == 'r';
        if (once(st, rf ? &st->seen_rf : &st->seen_isr, "connect", key) &&
            mm2_parse_long(value, 1, 32767, rf ? &c->internal_rf : &c->internal_isr) != 0)
            mm2_problems_add(st->p,
                             "%s: [connect] %s must be a whole number from 1 to 32767, got "
                             "\"%.40s\"",
                             st->file, key, value);
        return true;
    }
    return false;
}

/* [connect] workers: the base URLs preflight asks every worker's version at, separated by
 * commas; a name may resolve to several workers (a headless Service). */
static void workers_key(struct parse_state *st, const char *value)
{
    struct mm2_config *c = st->c;
    char buf[VALUE_MAX], why[256], *items[MM2_CONFIG_WORKERS_MAX];
    long n =
        mm2_parse_list(value, buf, sizeof(buf), items, MM2_CONFIG_WORKERS_MAX, why, sizeof(why));

    if (n < 0)
        mm2_problems_add(st->p,
                         "%s: [connect] workers %s; list the workers' base URLs separated by "
                         "commas (at most %d), or name their headless Service",
                         st->file, why, MM2_CONFIG_WORKERS_MAX);
    for (long i = 0; i < n; i++) {
        if (!mm2_http_base_url_valid(items[i], why, sizeof(why)))
            mm2_problems_add(st->p, "%s: [connect] workers: each must be http[s]://HOST[:PORT]: %s",
                             st->file, why);
        else if ((c->workers[c->nworkers] = strdup(items[i])) == NULL)
            mm2_problems_add(st->p, "out of memory");
        else
            c->nworkers++;
    }
}

static void connect_key(struct parse_state *st, const char *key, const char *value)
{
    struct mm2_config *c = st->c;

    if (strcmp(key, "url") == 0) {
        char why[256];
        if (set_string(st, &st->seen_connect_url, "connect", key, value, &c->connect_url) &&
            !mm2_http_base_url_valid(c->connect_url, why, sizeof(why)))
            mm2_problems_add(st->p, "%s: [connect] url must be http[s]://HOST[:PORT]: %s", st->file,
                             why);
    } else if (strcmp(key, "ca.location") == 0) {
        /* An https url's CA (a PEM file): the REST listener's own CA is rarely in the system's. */
        char *f = NULL;
        if (set_string(st, &st->seen_connect_ca, "connect", key, value, &f)) {
            c->connect_ca = mm2_file_beside(st->file, f);
            free(f);
        }
    } else if (strcmp(key, "username") == 0) {
        if (set_string(st, &st->seen_user, "connect", key, value, &c->connect_user) &&
            !mm2_http_basic_user_valid(value))
            mm2_problems_add(st->p,
                             "%s: [connect] username must be 1 to %d bytes, no ':' or "
                             "control character",
                             st->file, MM2_HTTP_USER_MAX - 1);
    } else if (strcmp(key, "password") == 0) {
        (void)set_string(st, &st->seen_password, "connect", key, value, &c->connect_password);
    } else if (strcmp(key, "workers") == 0) {
        if (once(st, &st->seen_workers, "connect", key))
            workers_key(st, value);
    } else if (strcmp(key, "request.timeout.seconds") == 0) {
        if (once(st, &st->seen_timeout, "connect", key))
            seconds(st, "connect", key, value, 1000, 3600 * 1000L, &c->request_timeout_ms);
    } else if (strcmp(key, "retry.budget.seconds") == 0) {
        if (once(st, &st->seen_budget, "connect", key))
            seconds(st, "connect", key, value, 1000, 86400 * 1000L, &c->retry_budget_ms);
    } else if (strcmp(key, "connect.wait.seconds") == 0) {
        if (once(st, &st->seen_wait, "connect", key))
            seconds(st, "connect", key, value, 0, 600 * 1000L, &c->connect_wait_ms);
    } else if (!connect_topic_key(st, key, value)) {
        mm2_problems_add(
            st->p,
            "%s: [connect] has no key \"%.60s\"; the keys are url, workers, ca.location, "
            "username, password, request.timeout.seconds, retry.budget.seconds, "
            "connect.wait.seconds, config.topic, offset.topic, status.topic, "
            "internal.replication.factor, internal.min.insync.replicas",
            st->file, key);
    }
}

/* Sets one of tail_keys from value; false when key is none of them. */
static bool tail_key(struct parse_state *st, const char *key, const char *value)
{
    for (size_t i = 0; i < NTAIL_KEYS; i++) {
        char *dst = (char *)st->c + tail_keys[i].offset;
        if (strcmp(key, tail_keys[i].key) != 0)
            continue;
        if (!once(st, &st->seen_tail[i], "flink", key))
            return true;
        if (tail_keys[i].min > tail_keys[i].max) {
            if (strcmp(value, "true") == 0 || strcmp(value, "false") == 0)
                *(bool *)dst = strcmp(value, "true") == 0;
            else
                mm2_problems_add(st->p, "%s: [flink] %s must be true or false, got \"%.40s\"",
                                 st->file, key, value);
        } else if (mm2_parse_long(value, tail_keys[i].min, tail_keys[i].max, (long *)dst) != 0) {
            mm2_problems_add(st->p,
                             "%s: [flink] %s must be a whole number from %ld to %ld, got "
                             "\"%.40s\"",
                             st->file, key, tail_keys[i].min, tail_keys[i].max, value);
        }
        return true;
    }
    return false;
}

static void flink_key(struct parse_state *st, const char *key, const char *value)
{
    struct mm2_config *c = st->c;

    if (strcmp(key, "group.id") == 0) {
        set_string(st, &st->seen_group, "flink", key, value, &c->group);
    } else if (strcmp(key, "rest.url") == 0) {
        char why[256];
        if (set_string(st, &st->seen_rest, "flink", key, value, &c->flink_rest_url) &&
            !mm2_http_base_url_valid(c->flink_rest_url, why, sizeof(why)))
            mm2_problems_add(st->p, "%s: [flink] rest.url must be http[s]://HOST[:PORT]: %s",
                             st->file, why);
    } else if (strcmp(key, "job.id") == 0) {
        if (set_string(st, &st->seen_job, "flink", key, value, &c->flink_job_id)) {
            size_t n = strlen(c->flink_job_id);
            bool hex = n == 32;
            for (size_t i = 0; hex && i < n; i++)
                hex = (c->flink_job_id[i] >= '0' && c->flink_job_id[i] <= '9') ||
                      (c->flink_job_id[i] >= 'a' && c->flink_job_id[i] <= 'f');
            if (!hex)
                mm2_problems_add(st->p,
                                 "%s: [flink] job.id must be a Flink job id (32 lowercase hex "
                                 "digits), got \"%.40s\"",
                                 st->file, c->flink_job_id);
        }
    } else if (strcmp(key, "checkpoint.interval.seconds") == 0) {
        if (once(st, &st->seen_ckpt, "flink", key))
            seconds(st, "flink", key, value, 1, 86400 * 1000L, &c->checkpoint_interval_ms);
    } else if (strcmp(key, "topic.mapping") == 0) {
        if (once(st, &st->seen_mapping, "flink", key))
            parse_mapping(st, value);
    } else if (strcmp(key, "retention.margin.seconds") == 0) {
        if (once(st, &st->seen_margin, "flink", key))
            seconds(st, "flink", key, value, 1000, 366 * 86400 * 1000L, &c->retention_margin_ms);
    } else if (strcmp(key, "isolation.level") == 0) {
        if (set_string(st, &st->seen_isolation, "flink", key, value, &c->flink_isolation) &&
            strcmp(value, "read_committed") != 0 && strcmp(value, "read_uncommitted") != 0)
            mm2_problems_add(st->p,
                             "%s: [flink] isolation.level must be read_committed or "
                             "read_uncommitted (what the Flink job's Kafka source read with), "
                             "got \"%.40s\"",
                             st->file, value);
    } else if (!tail_key(st, key, value)) {
        char tails[256] = "";
        size_t at = 0;

        for (size_t i = 0; i < NTAIL_KEYS && at < sizeof(tails); i++)
            at += (size_t)snprintf(tails + at, sizeof(tails) - at, ", %s", tail_keys[i].key);
        mm2_problems_add(st->p,
                         "%s: [flink] has no key \"%.60s\"; the keys are group.id, rest.url, "
                         "job.id, checkpoint.interval.seconds, topic.mapping, isolation.level, "
                         "retention.margin.seconds%s",
                         st->file, key, tails);
    }
}

/* A required key whose value could not be expanded was still given. */
static void given_anyway(struct parse_state *st, const char *section, const char *name)
{
    const struct {
        const char *section, *key;
        size_t offset;
    } keys[] = {
        {"connect", "url", offsetof(struct parse_state, seen_connect_url)},
        {"flink", "group.id", offsetof(struct parse_state, seen_group)},
        {"flink", "rest.url", offsetof(struct parse_state, seen_rest)},
        {"flink", "job.id", offsetof(struct parse_state, seen_job)},
        {"connector", "file", offsetof(struct parse_state, seen_file)},
        {"connect", "username", offsetof(struct parse_state, seen_user)},
        {"connect", "password", offsetof(struct parse_state, seen_password)},
    };

    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
        if (strcmp(section, keys[i].section) == 0 && strcmp(name, keys[i].key) == 0)
            *(bool *)((char *)st + keys[i].offset) = true;
    if (strcmp(name, "bootstrap.servers") == 0 &&
        (strcmp(section, "source") == 0 || strcmp(section, "target") == 0))
        st->bootstrap_failed[strcmp(section, "target") == 0] = true;
}

static int on_entry(void *user, const char *section, const char *name, const char *raw)
{
    struct parse_state *st = user;
    struct mm2_config *c = st->c;
    char *value;
    bool known = strcmp(section, "source") == 0 || strcmp(section, "target") == 0 ||
                 strcmp(section, "connect") == 0 || strcmp(section, "flink") == 0 ||
                 strcmp(section, "connector") == 0 || strcmp(section, "trail") == 0;

    known = known || strcmp(section, "policy") == 0;
    if (!known) {
        /* One line per unknown section, not one per key in it. */
        for (size_t i = 0; i < st->nunknown; i++)
            if (strncmp(st->unknown[i], section, sizeof(st->unknown[i]) - 1) == 0)
                return 1;
        if (st->nunknown < sizeof(st->unknown) / sizeof(st->unknown[0]))
            (void)snprintf(st->unknown[st->nunknown++], sizeof(st->unknown[0]), "%s", section);
        if (section[0] == '\0')
            mm2_problems_add(st->p,
                             "%s: key \"%.60s\" is outside any section; put it under [source], "
                             "[target], [connect], [flink], [connector], [trail] or [policy]",
                             st->file, name);
        else
            mm2_problems_add(st->p,
                             "%s: unknown section [%.60s]; the sections are source, target, "
                             "connect, flink, connector, trail, policy",
                             st->file, section);
        return 1;
    }
    value = expand(st, section, name, raw);
    if (value == NULL) {
        given_anyway(st, section, name); /* its problem is said; "is required" would be false */
        return 1;
    }
    if (mm2_secret_name(name, strlen(name)))
        add_secret(st, value);

    if ((strcmp(section, "source") == 0 || strcmp(section, "target") == 0) &&
        strcmp(name, "cluster.id") == 0) {
        cluster_id_key(st, section, value);
    } else if ((strcmp(section, "source") == 0 || strcmp(section, "target") == 0) &&
               strcmp(name, "principal") == 0) {
        principal_key(st, section, value);
    } else if (strcmp(section, "source") == 0) {
        add_prop(st, section, c->source, &c->nsource, name, value);
    } else if (strcmp(section, "target") == 0) {
        add_prop(st, section, c->target, &c->ntarget, name, value);
    } else if (strcmp(section, "connect") == 0) {
        connect_key(st, name, value);
    } else if (strcmp(section, "flink") == 0) {
        flink_key(st, name, value);
    } else if (strcmp(section, "trail") == 0) {
        mm2_config_trail_key(c, &st->trail, st->file, name, value, st->p);
    } else if (strcmp(section, "policy") == 0) {
        mm2_policy_key(&c->policy, &st->seen_policy, st->file, name, value, st->p);
    } else if (strcmp(section, "connector") == 0) {
        if (strcmp(name, "file") == 0) {
            char *f = NULL;
            if (set_string(st, &st->seen_file, section, name, value, &f)) {
                c->connector_file = mm2_file_beside(st->file, f);
                free(f);
            }
        } else {
            mm2_problems_add(st->p, "%s: [connector] has no key \"%.60s\"; the key is file",
                             st->file, name);
        }
    }
    free(value);
    return 1; /* our problems are collected; inih's error return stays for syntax */
}

/* Every secret value becomes <redacted> in the problem lines, and so does a cut-off start of one
 * at the edge of a quoted value (a message that quotes a value with %.40s can cut a secret given
 * by mistake to a non-secret key). */
static void redact(const struct mm2_config *c, struct mm2_problems *p)
{
    for (size_t i = 0; c->nsecrets > 0 && i < p->n; i++) {
        char line[MM2_PROBLEM_LEN];

        (void)mm2_secret_redact(p->line[i], (const char *const *)c->secrets, c->nsecrets,
                                MM2_SECRET_CUT_STARTS, line, sizeof(line));
        memcpy(p->line[i], line, sizeof(line));
    }
}

static const char *prop_value(const struct mm2_kv *props, size_t n, const char *key)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(props[i].key, key) == 0)
            return props[i].value;
    return NULL;
}

/* Defaults: the internal topics' names (k8s/base/configmap.yaml's), User:<sasl.username>. */
static void defaults(struct parse_state *st)
{
    static const char *const names[] = {"flink-mm2-connect-configs", "flink-mm2-connect-offsets",
                                        "flink-mm2-connect-status"};
    struct mm2_config *c = st->c;
    char **slot[] = {&c->config_topic, &c->offset_topic, &c->status_topic};
    char **who[] = {&c->source_principal, &c->target_principal};
    const struct mm2_kv *props[] = {c->source, c->target};
    const size_t n[] = {c->nsource, c->ntarget};

    for (size_t i = 0; i < 3; i++)
        if (*slot[i] == NULL && (*slot[i] = strdup(names[i])) == NULL)
            mm2_problems_add(st->p, "out of memory");
    for (size_t i = 0; i < 3; i++)
        for (size_t k = i + 1; k < 3; k++)
            if (*slot[i] != NULL && *slot[k] != NULL && strcmp(*slot[i], *slot[k]) == 0)
                mm2_problems_add(st->p,
                                 "%s: [connect] config.topic, offset.topic and status.topic "
                                 "name \"%.100s\" twice; Connect's three internal topics are "
                                 "three different topics",
                                 st->file, *slot[i]);
    for (size_t s = 0; s < 2; s++) {
        const char *user = prop_value(props[s], n[s], "sasl.username");
        char buf[300];
        if (*who[s] != NULL || user == NULL || user[0] == '\0' || strlen(user) > 250)
            continue;
        (void)snprintf(buf, sizeof(buf), "User:%s", user);
        if ((*who[s] = strdup(buf)) == NULL)
            mm2_problems_add(st->p, "out of memory");
    }
}

static void check_cluster(struct parse_state *st, const char *section, const struct mm2_kv *props,
                          size_t n)
{
    const char *v = prop_value(props, n, "bootstrap.servers");
    char why[256];

    if (v == NULL)
        mm2_problems_add(st->p, "%s: [%s] bootstrap.servers is required (host:port[,host:port...])",
                         st->file, section);
    else if (!mm2_parse_hostport_list_valid(v, why, sizeof(why)))
        mm2_problems_add(st->p, "%s: [%s] bootstrap.servers must be host:port[,...]: %s", st->file,
                         section, why);
}

enum mm2_status mm2_config_parse(const char *text, const char *path, mm2_getenv_fn getenv_fn,
                                 struct mm2_config *out, struct mm2_problems *p)
{
    struct parse_state st = {.c = out, .p = p, .getenv_fn = getenv_fn, .file = path};
    int rc;

    memset(out, 0, sizeof(*out));
    out->request_timeout_ms = 100000;
    out->retry_budget_ms = 300000;
    out->connect_wait_ms = 30000;
    out->tail_records = 8;
    out->tail_window = 64;
    out->tail_bytes = 65536;
    out->tail_partitions = 10000;
    out->internal_rf = 3;
    out->internal_isr = 2;
    out->retention_margin_ms = 86400 * 1000L;
    mm2_config_trail_defaults(out);
    mm2_policy_defaults(&out->policy);
    out->path = strdup(path);
    mm2_problems_check_lines(p, text, path, MM2_CONFIG_LINE_MAX);
    if (p->n > 0)
        return MM2_CONFIG; /* inih would read cut lines as something else */
    rc = ini_parse_string(text, on_entry, &st);
    if (rc > 0)
        mm2_problems_add(p, "%s:%d: not a \"key = value\" line, a [section] or a comment", path,
                         rc);
    else if (rc != 0)
        mm2_problems_add(p, "%s: cannot be parsed (inih error %d)", path, rc);
    if (st.bootstrap_failed[0])
        ; /* its ${env:} problem is said already */
    else if (out->nsource == 0 && !st.seen_cluster_id[0])
        mm2_problems_add(p, "%s: [source] is missing; it needs at least bootstrap.servers", path);
    else
        check_cluster(&st, "source", out->source, out->nsource);
    if (st.bootstrap_failed[1])
        ;
    else if (out->ntarget == 0 && !st.seen_cluster_id[1])
        mm2_problems_add(p, "%s: [target] is missing; it needs at least bootstrap.servers", path);
    else
        check_cluster(&st, "target", out->target, out->ntarget);
    if (!st.seen_connect_url)
        mm2_problems_add(p,
                         "%s: [connect] url is required (the Connect REST API, "
                         "http://HOST:8088)",
                         path);
    if (!st.seen_group)
        mm2_problems_add(p, "%s: [flink] group.id is required (the Flink job's consumer group)",
                         path);
    if (st.seen_rest != st.seen_job)
        mm2_problems_add(p, "%s: [flink] rest.url and job.id go together; give both or neither",
                         path);
    if (!st.seen_file)
        mm2_problems_add(p, "%s: [connector] file is required (the connector JSON)", path);
    if (st.seen_user != st.seen_password)
        mm2_problems_add(p, "%s: [connect] username and password go together; give both or neither",
                         path);
    defaults(&st);
    mm2_config_trail_finish(out, p);
    redact(out, p);
    return p->n > 0 || p->dropped > 0 ? MM2_CONFIG : MM2_OK;
}

static const char *env_lookup(const char *name)
{
    return getenv(name);
}

enum mm2_status mm2_config_load(const char *path, struct mm2_config *out, struct mm2_problems *p)
{
    struct mm2_error err = {0};
    char *text;
    size_t len;
    enum mm2_status st;

    memset(out, 0, sizeof(*out));
    st = mm2_file_read("config", path, MM2_CONFIG_FILE_MAX, &text, &len, &err);
    if (st != MM2_OK) {
        mm2_problems_add(p, "%s", err.msg);
        return MM2_CONFIG;
    }
    st = mm2_config_parse(text, path, env_lookup, out, p);
    free(text);
    return st;
}

void mm2_config_free(struct mm2_config *c)
{
    if (c == NULL)
        return;
    for (size_t i = 0; i < c->nsource; i++) {
        free((char *)(uintptr_t)c->source[i].key);
        free((char *)(uintptr_t)c->source[i].value);
    }
    for (size_t i = 0; i < c->ntarget; i++) {
        free((char *)(uintptr_t)c->target[i].key);
        free((char *)(uintptr_t)c->target[i].value);
    }
    for (size_t i = 0; i < c->nmapping; i++) {
        free(c->mapping[i].source);
        free(c->mapping[i].target);
    }
    for (size_t i = 0; i < c->nsecrets; i++)
        free(c->secrets[i]);
    for (size_t i = 0; i < c->nworkers; i++)
        free(c->workers[i]);
    void *own[] = {
        c->mapping,          c->source_cluster_id, c->target_cluster_id, c->path,
        c->connect_url,      c->connect_ca,        c->connect_user,      c->group,
        c->connect_password, c->flink_rest_url,    c->flink_job_id,      c->connector_file,
        c->source_principal, c->target_principal,  c->config_topic,      c->offset_topic,
        c->status_topic,     c->flink_isolation,   c->trail_topic};
    for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++)
        free(own[i]);
    memset(c, 0, sizeof(*c));
}

const char *mm2_config_flink_target(const struct mm2_config *c, const char *topic)
{
    for (size_t i = 0; i < c->nmapping; i++)
        if (strcmp(c->mapping[i].source, topic) == 0)
            return c->mapping[i].target;
    return topic;
}
