/*
 * mm2_topics: MirrorSourceConnector.shouldReplicateTopic and formatRemoteTopic in C (see
 * mm2_topics.h). Each function below names the Kafka method it mirrors; the Kafka sources read
 * are 3.6.2, 3.7.2, 3.8.1, 3.9.1, 4.0.0, 4.1.1, 4.2.0 and 4.3.1 (connect-mirror,
 * connect-mirror-client, clients' ConfigDef and ConfigUtils).
 *
 * Regexes. DefaultTopicFilter joins the entries of topics (and of topics.exclude) with "|" and
 * compiles the result as ONE java.util.regex.Pattern, matched with Matcher.matches() (the whole
 * name). mm2_jregex translates the joined text to an anchored POSIX extended regex, exact on
 * topic names for the subset of Java syntax it accepts (mm2_jregex.c lists it), compiled here
 * with regcomp(REG_EXTENDED | REG_NOSUB). Everything outside the subset is refused.
 */
#include "mm2_topics.h"

#include "mm2_jregex.h"
#include "mm2_kafka.h"
#include "mm2_parse.h"

#include <cjson/cJSON.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PKG "org.apache.kafka.connect.mirror."
#define SHOW_MAX 80             /* characters of an entry quoted in a message */
#define HEARTBEATS "heartbeats" /* ReplicationPolicy.heartbeatsTopic() */

enum rules {
    RULES_3,  /* 3.6.x-3.9.x */
    RULES_40, /* 4.0.x-4.1.x */
    RULES_42, /* 4.2.x-4.3.x: ValidList.anyNonDuplicateValues on topics, topics.exclude */
};

struct pattern {
    bool present; /* false: a null Pattern (empty list), or one only "" matches: no topic */
    regex_t re;
};

struct mm2_mirror {
    enum rules rules;
    bool enabled;
    bool heartbeats; /* heartbeats.replication.enabled; always on before 4.0 */
    bool identity;   /* IdentityReplicationPolicy, else DefaultReplicationPolicy */
    char source[MM2_MIRROR_ALIAS_MAX + 1];
    char target[MM2_MIRROR_ALIAS_MAX + 1];
    char identity_source[MM2_MIRROR_ALIAS_MAX + 1]; /* untrimmed, as the policy keeps it */
    char sep[MM2_MIRROR_SEPARATOR_MAX + 1];
    char internal_suffix[MM2_MIRROR_SEPARATOR_MAX + 16];
    char checkpoints_suffix[2 * MM2_MIRROR_SEPARATOR_MAX + 32];
    struct pattern include;
    struct pattern exclude;
};

/* ---- small string helpers --------------------------------------------------------------- */

static bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static bool ends_with(const char *s, size_t n, const char *suffix)
{
    size_t k = strlen(suffix);

    return n >= k && memcmp(s + n - k, suffix, k) == 0;
}

/* String.trim(): drops every character <= ' ' at both ends. */
static void java_trim(const char *s, const char **start, size_t *len)
{
    size_t n = strlen(s);

    while (n > 0 && (unsigned char)s[n - 1] <= ' ')
        n--;
    while (n > 0 && (unsigned char)*s <= ' ') {
        s++;
        n--;
    }
    *start = s;
    *len = n;
}

/* ASCII equalsIgnoreCase of s[0..n) and lower-case word. */
static bool equals_ignore_case(const char *s, size_t n, const char *word)
{
    if (n != strlen(word))
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];

        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != word[i])
            return false;
    }
    return true;
}

/* ---- reading the connector config ------------------------------------------------------- */

/* The string value of key, or *val = NULL when absent. Refuses what cannot be read as Connect
 * reads it: a non-string, a key given twice (Connect's JSON reader keeps the last one, cJSON
 * the first), a config provider reference (the worker resolves it, we cannot), an oversize
 * value. */
static enum mm2_status get_value(const cJSON *config, const char *key, const char **val,
                                 struct mm2_error *err)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(config, key);
    const cJSON *it;
    int count = 0;

    *val = NULL;
    if (item == NULL)
        return MM2_OK;
    cJSON_ArrayForEach(it, config)
    {
        if (it->string != NULL && strcmp(it->string, key) == 0)
            count++;
    }
    if (count > 1)
        return mm2_error_set(err, MM2_CONFIG,
                             "%s is given %d times in the connector config; give it once", key,
                             count);
    if (!cJSON_IsString(item) || item->valuestring == NULL)
        return mm2_error_set(err, MM2_CONFIG,
                             "%s must be a JSON string, as Connect stores every connector "
                             "config value",
                             key);
    if (strlen(item->valuestring) > MM2_MIRROR_VALUE_MAX)
        return mm2_error_set(err, MM2_CONFIG, "%s is longer than %d bytes", key,
                             MM2_MIRROR_VALUE_MAX);
    if (strstr(item->valuestring, "${") != NULL)
        return mm2_error_set(err, MM2_CONFIG,
                             "%s holds a config provider reference (\"${...}\") that the "
                             "Connect worker resolves and mm2-offsets cannot; write the value "
                             "itself",
                             key);
    *val = item->valuestring;
    return MM2_OK;
}

/* get_value's string, or def when the key is absent, trimmed as ConfigDef trims it; *t is NULL
 * when both are absent. */
static enum mm2_status get_trimmed_view(const cJSON *config, const char *key, const char *def,
                                        const char **t, size_t *n, struct mm2_error *err)
{
    const char *v;
    enum mm2_status st = get_value(config, key, &v, err);

    *t = NULL;
    *n = 0;
    if (st != MM2_OK)
        return st;
    if (v == NULL)
        v = def;
    if (v != NULL)
        java_trim(v, t, n);
    return MM2_OK;
}

/* ConfigDef Type.BOOLEAN: trimmed, "true" or "false" in any case, else a ConfigException. */
static enum mm2_status get_bool(const cJSON *config, const char *key, bool def, bool *out,
                                struct mm2_error *err)
{
    const char *t;
    size_t n;
    enum mm2_status st = get_trimmed_view(config, key, NULL, &t, &n, err);

    *out = def;
    if (st != MM2_OK || t == NULL)
        return st;
    if (equals_ignore_case(t, n, "true"))
        *out = true;
    else if (equals_ignore_case(t, n, "false"))
        *out = false;
    else
        return mm2_error_set(err, MM2_CONFIG,
                             "%s must be true or false, got \"%.*s\" (Connect refuses it)", key,
                             (int)(n < SHOW_MAX ? n : SHOW_MAX), t);
    return MM2_OK;
}

/* ConfigDef Type.STRING (trimmed) or Type.CLASS (trimmed, then loaded by name) into out. */
static enum mm2_status get_trimmed(const cJSON *config, const char *key, const char *def, char *out,
                                   size_t outlen, struct mm2_error *err)
{
    const char *t;
    size_t n;
    enum mm2_status st = get_trimmed_view(config, key, def, &t, &n, err);

    if (st != MM2_OK)
        return st;
    if (t == NULL)
        return mm2_error_set(err, MM2_CONFIG,
                             "%s is missing; MirrorSourceConnector requires it (it has no "
                             "default)",
                             key);
    if (n >= outlen)
        return mm2_error_set(err, MM2_CONFIG, "%s is longer than %zu bytes", key, outlen - 1);
    memcpy(out, t, n);
    out[n] = '\0';
    return MM2_OK;
}

static enum mm2_status parse_version(const char *v, enum rules *out, struct mm2_error *err)
{
    long part[3];
    const char *p = v;

    if (v == NULL)
        return mm2_error_set(err, MM2_CONFIG,
                             "the Kafka version of the Connect workers is missing");
    for (int i = 0; i < 3; i++) {
        char digits[8];
        size_t n = 0;

        while (p[n] >= '0' && p[n] <= '9')
            n++;
        if (n == 0 || n >= sizeof(digits) || p[n] != (i < 2 ? '.' : '\0'))
            goto unknown;
        memcpy(digits, p, n);
        digits[n] = '\0';
        if (mm2_parse_long(digits, 0, 9999, &part[i]) != 0)
            goto unknown;
        p += n + (i < 2 ? 1 : 0);
    }
    /* Checked: the defaults and rules below are the same across each line's sources. */
    if (part[0] == 3 && part[1] >= 6 && part[1] <= 9)
        *out = RULES_3;
    else if (part[0] == 4 && part[1] <= 1)
        *out = RULES_40;
    else if (part[0] == 4 && part[1] <= 3)
        *out = RULES_42;
    else
        goto unknown;
    return MM2_OK;
unknown:
    return mm2_error_set(err, MM2_CONFIG,
                         "Kafka version \"%.*s\" is not one whose MirrorMaker 2 topic rules "
                         "mm2-offsets knows (3.6.x-3.9.x, 4.0.x-4.3.x)",
                         SHOW_MAX, v);
}

/* ---- ConfigDef Type.LIST ---------------------------------------------------------------- */

struct list {
    char *joined; /* entries joined with "|", as MirrorUtils.compilePatternList does */
    size_t len;
    struct mm2_jregex_entry *entries; /* where each starts in joined */
    size_t n;
};

static void list_free(struct list *l)
{
    free(l->joined);
    free(l->entries);
    memset(l, 0, sizeof(*l));
}

/* ConfigDef.parseType(LIST): trimmed; "" is the empty list; else split on \s*,\s* keeping
 * trailing empty entries (split(trimmed, -1)). From 4.2 ConfigDef.parseValue drops duplicate
 * entries (which changes nothing in an alternation) and ValidList.anyNonDuplicateValues(true,
 * false) refuses empty ones. */
static enum mm2_status parse_list(const char *key, const char *value, enum rules rules,
                                  struct list *l, struct mm2_error *err)
{
    const char *t;
    size_t n;
    size_t commas = 0;
    size_t o = 0;
    const char *piece;

    memset(l, 0, sizeof(*l));
    java_trim(value, &t, &n);
    if (n == 0)
        return MM2_OK;
    for (size_t i = 0; i < n; i++)
        commas += t[i] == ',';
    l->joined = malloc(n + 1);
    l->entries = calloc(commas + 1, sizeof(*l->entries));
    if (l->joined == NULL || l->entries == NULL) {
        list_free(l);
        return mm2_error_set(err, MM2_UNEXPECTED, "%s: out of memory", key);
    }
    piece = t;
    for (size_t i = 0; i <= n; i++) {
        const char *a;
        const char *b;

        if (i < n && t[i] != ',')
            continue;
        a = piece;
        b = t + i;
        while (a < b && mm2_jregex_space(*a))
            a++;
        while (b > a && mm2_jregex_space(b[-1]))
            b--;
        if (l->n > 0)
            l->joined[o++] = '|';
        l->entries[l->n].off = o;
        l->entries[l->n].n = (size_t)(b - a);
        l->n++;
        memcpy(l->joined + o, a, (size_t)(b - a));
        o += (size_t)(b - a);
        piece = t + i + 1;
    }
    l->joined[o] = '\0';
    l->len = o;
    if (rules != RULES_42)
        return MM2_OK;
    for (size_t i = 0; i < l->n; i++) {
        if (l->entries[i].n == 0) {
            list_free(l);
            return mm2_error_set(err, MM2_CONFIG,
                                 "%s has an empty entry (\"%.*s\"); Connect 4.2 and later refuse "
                                 "empty values",
                                 key, SHOW_MAX, value);
        }
    }
    return MM2_OK;
}

/* MirrorUtils.compilePatternList(getList(key)) for value, as a POSIX regex in *p. */
static enum mm2_status compile_list(const char *key, const char *value, enum rules rules,
                                    struct pattern *p, struct mm2_error *err)
{
    struct list l;
    char *ere = NULL;
    enum mm2_status st;

    memset(p, 0, sizeof(*p));
    st = parse_list(key, value, rules, &l, err);
    if (st != MM2_OK)
        return st;
    if (l.n == 0) /* the empty list: a null Pattern, which matches nothing */
        return MM2_OK;
    st = mm2_jregex_to_ere(key, l.joined, l.len, l.entries, l.n, &ere, err);
    if (st == MM2_OK && ere != NULL) {
        int rc = regcomp(&p->re, ere, REG_EXTENDED | REG_NOSUB);

        if (rc != 0) {
            char why[128];

            regerror(rc, &p->re, why, sizeof(why));
            st = mm2_error_set(err, rc == REG_ESPACE ? MM2_UNEXPECTED : MM2_CONFIG,
                               "%s: regcomp refused the translated regex: %s", key, why);
        } else {
            p->present = true;
        }
    }
    free(ere);
    list_free(&l);
    return st;
}

static bool pattern_matches(const struct pattern *p, const char *topic)
{
    return p->present && regexec(&p->re, topic, 0, NULL, 0) == 0;
}

/* ---- ReplicationPolicy ------------------------------------------------------------------ */

/* A topic name, or a part of one, or the policy's alias; NULL p is Java's null. */
struct sv {
    const char *p;
    size_t n;
};

static bool sv_eq(struct sv a, struct sv b)
{
    return a.p != NULL && b.p != NULL && a.n == b.n && memcmp(a.p, b.p, a.n) == 0;
}

static const char *find(const char *s, size_t n, const char *needle, size_t k)
{
    for (size_t i = 0; k <= n && i <= n - k; i++)
        if (memcmp(s + i, needle, k) == 0)
            return s + i;
    return NULL;
}

/* DefaultReplicationPolicy.topicSource: parts = separatorPattern.split(topic) (trailing empty
 * strings removed); null when fewer than 2 parts, else parts[0]. */
static struct sv default_source(const struct mm2_mirror *m, struct sv t)
{
    size_t k = strlen(m->sep);
    const char *first = find(t.p, t.n, m->sep, k);
    const char *pos;
    const char *end = t.p + t.n;
    struct sv none = {NULL, 0};

    if (first == NULL)
        return none;
    pos = first + k;
    for (;;) {
        const char *next = find(pos, (size_t)(end - pos), m->sep, k);
        const char *piece_end = next != NULL ? next : end;

        if (piece_end > pos)
            return (struct sv){t.p, (size_t)(first - t.p)};
        if (next == NULL)
            return none;
        pos = next + k;
    }
}

/* DefaultReplicationPolicy.upstreamTopic: topic.substring(source.length() + separator.length()). */
static struct sv default_upstream(const struct mm2_mirror *m, struct sv t)
{
    struct sv src = default_source(m, t);
    size_t skip = src.n + strlen(m->sep);

    if (src.p == NULL)
        return src;
    return (struct sv){t.p + skip, t.n - skip};
}

/* IdentityReplicationPolicy.looksLikeHeartbeat. */
static bool looks_like_heartbeat(struct sv t)
{
    return ends_with(t.p, t.n, HEARTBEATS);
}

static struct sv topic_source(const struct mm2_mirror *m, struct sv t)
{
    if (m->identity && !looks_like_heartbeat(t))
        return (struct sv){m->identity_source, strlen(m->identity_source)};
    return default_source(m, t);
}

static struct sv upstream_topic(const struct mm2_mirror *m, struct sv t)
{
    if (m->identity && !looks_like_heartbeat(t))
        return t;
    return default_upstream(m, t);
}

/* ReplicationPolicy.originalTopic, iterated (each step is shorter or stops). */
static struct sv original_topic(const struct mm2_mirror *m, struct sv t)
{
    for (;;) {
        struct sv up = upstream_topic(m, t);

        if (up.p == NULL || sv_eq(up, t))
            return t;
        t = up;
    }
}

/* ReplicationPolicy.isHeartbeatsTopic. */
static bool is_heartbeats(const struct mm2_mirror *m, struct sv t)
{
    struct sv o = original_topic(m, t);

    return o.n == strlen(HEARTBEATS) && memcmp(o.p, HEARTBEATS, o.n) == 0;
}

/* ReplicationPolicy.isInternalTopic with DefaultReplicationPolicy's isMM2InternalTopic. */
static bool is_internal(const struct mm2_mirror *m, struct sv t)
{
    bool kafka = starts_with(t.p, "__") || starts_with(t.p, ".");

    if (m->rules == RULES_3)
        return ends_with(t.p, t.n, m->internal_suffix) || kafka ||
               ends_with(t.p, t.n, "-internal") || ends_with(t.p, t.n, ".internal");
    return (starts_with(t.p, "mm2") && ends_with(t.p, t.n, m->internal_suffix)) ||
           ends_with(t.p, t.n, m->checkpoints_suffix) || kafka;
}

/* MirrorSourceConnector.isCycle, iterated. */
static bool is_cycle(const struct mm2_mirror *m, struct sv t)
{
    struct sv target = {m->target, strlen(m->target)};

    for (;;) {
        struct sv src = topic_source(m, t);
        struct sv up;

        if (src.p == NULL)
            return false;
        if (sv_eq(src, target))
            return true;
        up = upstream_topic(m, t);
        if (up.p == NULL || sv_eq(up, t))
            return false;
        t = up;
    }
}

/* ---- building a mirror from the config, and the public calls ------------------------------ */

static enum mm2_status read_policy(const cJSON *config, struct mm2_mirror *m, struct mm2_error *err)
{
    char cls[256];
    const char *sep;
    const char *raw;
    const char *flag;
    const char *isep;
    bool valid_flag;
    enum mm2_status st;

    st = get_trimmed(config, "topic.filter.class", PKG "DefaultTopicFilter", cls, sizeof(cls), err);
    if (st == MM2_OK && strcmp(cls, PKG "DefaultTopicFilter") != 0)
        st = mm2_error_set(err, MM2_CONFIG,
                           "topic.filter.class \"%.*s\" is not one mm2-offsets can evaluate; "
                           "use " PKG "DefaultTopicFilter with topics / topics.exclude",
                           SHOW_MAX, cls);
    if (st != MM2_OK)
        return st;
    st = get_trimmed(config, "replication.policy.class", PKG "DefaultReplicationPolicy", cls,
                     sizeof(cls), err);
    if (st != MM2_OK)
        return st;
    if (strcmp(cls, PKG "IdentityReplicationPolicy") == 0)
        m->identity = true;
    else if (strcmp(cls, PKG "DefaultReplicationPolicy") != 0)
        return mm2_error_set(err, MM2_CONFIG,
                             "replication.policy.class \"%.*s\" is not one mm2-offsets can "
                             "evaluate; use " PKG "DefaultReplicationPolicy or " PKG
                             "IdentityReplicationPolicy",
                             SHOW_MAX, cls);

    st = get_trimmed(config, "source.cluster.alias", NULL, m->source, sizeof(m->source), err);
    if (st == MM2_OK)
        st = get_trimmed(config, "target.cluster.alias", "target", m->target, sizeof(m->target),
                         err);
    if (st == MM2_OK) /* IdentityReplicationPolicy.configure keeps the original, untrimmed */
        st = get_value(config, "source.cluster.alias", &raw, err);
    if (st != MM2_OK)
        return st;
    if (raw == NULL || strlen(raw) > MM2_MIRROR_ALIAS_MAX)
        return mm2_error_set(err, MM2_CONFIG, "source.cluster.alias is longer than %d bytes",
                             MM2_MIRROR_ALIAS_MAX);
    memcpy(m->identity_source, raw, strlen(raw) + 1);

    /* DefaultReplicationPolicy.configure reads the original strings: the separator untrimmed,
     * and, only when a separator is given, the internal separator flag with
     * Boolean.parseBoolean (untrimmed: " true" is false there). MirrorConnectorConfig still
     * validates the flag as a ConfigDef boolean, so a value that is not true/false is refused. */
    st = get_bool(config, "replication.policy.internal.topic.separator.enabled", true, &valid_flag,
                  err);
    if (st == MM2_OK)
        st = get_value(config, "replication.policy.internal.topic.separator.enabled", &flag, err);
    if (st == MM2_OK)
        st = get_value(config, "replication.policy.separator", &sep, err);
    if (st != MM2_OK)
        return st;
    if (sep == NULL) {
        sep = ".";
        flag = NULL;
    }
    if (sep[0] == '\0')
        return mm2_error_set(err, MM2_CONFIG,
                             "replication.policy.separator is empty, which mm2-offsets cannot "
                             "evaluate exactly as Connect does; use a non-empty separator");
    if (strlen(sep) > MM2_MIRROR_SEPARATOR_MAX)
        return mm2_error_set(err, MM2_CONFIG,
                             "replication.policy.separator is longer than %d bytes",
                             MM2_MIRROR_SEPARATOR_MAX);
    memcpy(m->sep, sep, strlen(sep) + 1);
    isep = (flag == NULL || equals_ignore_case(flag, strlen(flag), "true")) ? m->sep : ".";
    snprintf(m->internal_suffix, sizeof(m->internal_suffix), "%sinternal", isep);
    snprintf(m->checkpoints_suffix, sizeof(m->checkpoints_suffix), "%scheckpoints%sinternal", isep,
             isep);
    return MM2_OK;
}

static enum mm2_status read_filter(const cJSON *config, struct mm2_mirror *m, struct mm2_error *err)
{
    const char *include;
    const char *exclude;
    const char *exclude_key = "topics.exclude";
    enum mm2_status st;

    st = get_value(config, "topics", &include, err);
    if (st == MM2_OK)
        st = get_value(config, "topics.exclude", &exclude, err);
    if (st != MM2_OK)
        return st;
    if (m->rules == RULES_3) {
        const char *blacklist;

        /* ConfigUtils.translateDeprecatedConfigs: topics.blacklist when topics.exclude is
         * absent (removed in 4.0, when it became an unknown key). */
        st = get_value(config, "topics.blacklist", &blacklist, err);
        if (st != MM2_OK)
            return st;
        if (exclude == NULL && blacklist != NULL) {
            exclude = blacklist;
            exclude_key = "topics.blacklist";
        }
        if (exclude == NULL)
            exclude = ".*[\\-\\.]internal, .*\\.replica, __.*";
    } else if (exclude == NULL) {
        exclude = "mm2.*\\.internal, .*\\.replica, __.*";
    }
    st = compile_list("topics", include != NULL ? include : ".*", m->rules, &m->include, err);
    if (st == MM2_OK)
        st = compile_list(exclude_key, exclude, m->rules, &m->exclude, err);
    return st;
}

enum mm2_status mm2_mirror_new(const void *config, const char *kafka_version,
                               struct mm2_mirror **out, struct mm2_error *err)
{
    const cJSON *cfg = config;
    struct mm2_mirror *m;
    enum mm2_status st;

    *out = NULL;
    if (cfg == NULL || !cJSON_IsObject(cfg))
        return mm2_error_set(err, MM2_CONFIG, "the connector config must be a JSON object");
    m = calloc(1, sizeof(*m));
    if (m == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    st = parse_version(kafka_version, &m->rules, err);
    if (st == MM2_OK)
        st = get_bool(cfg, "enabled", true, &m->enabled, err);
    m->heartbeats = true;
    if (st == MM2_OK && m->rules != RULES_3)
        st = get_bool(cfg, "heartbeats.replication.enabled", true, &m->heartbeats, err);
    if (st == MM2_OK)
        st = read_policy(cfg, m, err);
    if (st == MM2_OK)
        st = read_filter(cfg, m, err);
    if (st != MM2_OK) {
        mm2_mirror_free(m);
        return st;
    }
    *out = m;
    return MM2_OK;
}

void mm2_mirror_free(struct mm2_mirror *m)
{
    if (m == NULL)
        return;
    if (m->include.present)
        regfree(&m->include.re);
    if (m->exclude.present)
        regfree(&m->exclude.re);
    free(m);
}

bool mm2_mirror_replicates(const struct mm2_mirror *m, const char *topic)
{
    struct sv t;
    bool filter;

    if (m == NULL || !m->enabled || !mm2_parse_topic_valid(topic, NULL, 0))
        return false;
    t = (struct sv){topic, strlen(topic)};
    /* DefaultTopicFilter: included(topic) && !excluded(topic) */
    filter = pattern_matches(&m->include, topic) && !pattern_matches(&m->exclude, topic);
    return (filter || (m->heartbeats && is_heartbeats(m, t))) && !is_internal(m, t) &&
           !is_cycle(m, t);
}

bool mm2_mirror_enabled(const struct mm2_mirror *m)
{
    return m != NULL && m->enabled;
}

int mm2_mirror_target_topic(const struct mm2_mirror *m, const char *topic, char *out, size_t outlen)
{
    int n;

    if (m == NULL || topic == NULL || out == NULL || outlen == 0)
        return -1;
    /* IdentityReplicationPolicy keeps the name, except for heartbeats (Default's format). */
    if (m->identity && !looks_like_heartbeat((struct sv){topic, strlen(topic)}))
        n = snprintf(out, outlen, "%s", topic);
    else
        n = snprintf(out, outlen, "%s%s%s", m->source, m->sep, topic);
    if (n < 0 || (size_t)n >= outlen) {
        out[0] = '\0';
        return -1;
    }
    return 0;
}

const struct mm2_topic_meta *mm2_topics_find(const struct mm2_topic_list *l, const char *name)
{
    for (size_t lo = 0, hi = l->n; lo < hi;) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(name, l->v[mid].name);
        if (c == 0)
            return &l->v[mid];
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return NULL;
}
