/* mm2_preflight: the preflight's findings, judged from facts (see mm2_preflight.h). */
#include "mm2_preflight.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm2_connector.h"
#include "mm2_parse.h"

/* ---- the list ------------------------------------------------------------------------------- */

/* Copies s into dst (cap bytes), ending a cut copy in "...". */
static void put(char *dst, size_t cap, const char *s)
{
    size_t n = s != NULL ? strlen(s) : 0;

    if (n >= cap) {
        memcpy(dst, s, cap - 4);
        memcpy(dst + cap - 4, "...", 4);
        return;
    }
    if (n > 0)
        memcpy(dst, s, n);
    dst[n] = '\0';
}

void mm2_pf_add(struct mm2_pf_findings *f, const char *name, enum mm2_pf_sev sev,
                const char *principal, const char *resource, const char *fix, const char *fmt, ...)
{
    struct mm2_pf_finding *x;
    va_list ap;
    int n;

    if (f->n == f->cap) {
        size_t cap = f->cap == 0 ? 16 : f->cap * 2;
        struct mm2_pf_finding *p = realloc(f->v, cap * sizeof(*p));
        if (p == NULL) {
            f->oom = true; /* a lost finding must never read as "nothing found" */
            return;
        }
        f->v = p;
        f->cap = cap;
    }
    x = &f->v[f->n++];
    put(x->name, sizeof(x->name), name);
    x->sev = sev;
    put(x->principal, sizeof(x->principal), principal);
    put(x->resource, sizeof(x->resource), resource);
    put(x->fix, sizeof(x->fix), fix);
    va_start(ap, fmt);
    n = vsnprintf(x->message, sizeof(x->message), fmt, ap);
    va_end(ap);
    if (n < 0)
        x->message[0] = '\0';
    else if ((size_t)n >= sizeof(x->message))
        memcpy(x->message + sizeof(x->message) - 4, "...", 4);
}

void mm2_pf_free(struct mm2_pf_findings *f)
{
    if (f == NULL)
        return;
    free(f->v);
    memset(f, 0, sizeof(*f));
}

size_t mm2_pf_count(const struct mm2_pf_findings *f, enum mm2_pf_sev sev)
{
    size_t c = 0;

    for (size_t i = 0; i < f->n; i++)
        c += f->v[i].sev == sev;
    return c;
}

bool mm2_pf_refused(const struct mm2_pf_findings *f)
{
    return f->oom || mm2_pf_count(f, MM2_PF_REFUSE) > 0;
}

const char *mm2_pf_sev_name(enum mm2_pf_sev sev)
{
    switch (sev) {
    case MM2_PF_PASS:
        return "pass";
    case MM2_PF_WARN:
        return "warn";
    case MM2_PF_REFUSE:
        return "refuse";
    }
    return "refuse";
}

/* ---- permissions ---------------------------------------------------------------------------- */

const char *mm2_pf_op_name(enum mm2_pf_op op)
{
    switch (op) {
    case MM2_PF_OP_READ:
        return "Read";
    case MM2_PF_OP_WRITE:
        return "Write";
    case MM2_PF_OP_CREATE:
        return "Create";
    case MM2_PF_OP_DELETE:
        return "Delete";
    case MM2_PF_OP_ALTER:
        return "Alter";
    case MM2_PF_OP_DESCRIBE:
        return "Describe";
    case MM2_PF_OP_CLUSTER_ACTION:
        return "ClusterAction";
    case MM2_PF_OP_DESCRIBE_CONFIGS:
        return "DescribeConfigs";
    case MM2_PF_OP_ALTER_CONFIGS:
        return "AlterConfigs";
    case MM2_PF_OP_IDEMPOTENT_WRITE:
        return "IdempotentWrite";
    }
    return "?";
}

bool mm2_pf_allows(uint32_t ops, enum mm2_pf_op op)
{
    if (ops & MM2_PF_OPBIT(op))
        return true;
    if (op == MM2_PF_OP_DESCRIBE)
        return (ops & (MM2_PF_OPBIT(MM2_PF_OP_READ) | MM2_PF_OPBIT(MM2_PF_OP_WRITE) |
                       MM2_PF_OPBIT(MM2_PF_OP_DELETE) | MM2_PF_OPBIT(MM2_PF_OP_ALTER))) != 0;
    if (op == MM2_PF_OP_DESCRIBE_CONFIGS)
        return (ops & MM2_PF_OPBIT(MM2_PF_OP_ALTER_CONFIGS)) != 0;
    return false;
}

void mm2_pf_shell_word(char *buf, size_t len, const char *s)
{
    bool plain = s[0] != '\0';
    size_t o = 0;

    for (const char *p = s; plain && *p != '\0'; p++)
        plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-:@=,/+",
                       *p) != NULL;
    if (plain) {
        put(buf, len, s);
        return;
    }
    if (len < 3) {
        buf[0] = '\0';
        return;
    }
    buf[o++] = '\'';
    for (const char *p = s; *p != '\0' && o + 6 < len; p++) {
        if (*p == '\'') {
            memcpy(buf + o, "'\\''", 4);
            o += 4;
        } else {
            buf[o++] = *p;
        }
    }
    buf[o++] = '\'';
    buf[o] = '\0';
}

static const char *res_kind(enum mm2_pf_res type)
{
    return type == MM2_PF_TOPIC ? "Topic" : type == MM2_PF_GROUP ? "Group" : "Cluster";
}

int mm2_pf_acl_line(char *buf, size_t len, const struct mm2_pf_who *who, enum mm2_pf_op op,
                    enum mm2_pf_res type, const char *name, bool prefixed)
{
    char b[MM2_PF_RES_LEN], p[MM2_PF_WHO_LEN], r[MM2_PF_RES_LEN + 16] = "--cluster";
    int n;

    mm2_pf_shell_word(b, sizeof(b), who->bootstrap);
    mm2_pf_shell_word(p, sizeof(p), who->principal);
    if (type != MM2_PF_CLUSTER) {
        char w[MM2_PF_RES_LEN];
        mm2_pf_shell_word(w, sizeof(w), name != NULL ? name : "");
        (void)snprintf(r, sizeof(r), "--%s %s", type == MM2_PF_TOPIC ? "topic" : "group", w);
    }
    n = snprintf(buf, len,
                 "kafka-acls.sh --bootstrap-server %s --add --allow-principal %s --operation %s "
                 "%s%s",
                 b, p, mm2_pf_op_name(op), r, prefixed ? " --resource-pattern-type prefixed" : "");
    if (n < 0 || (size_t)n >= len) {
        if (len >= 4)
            memcpy(buf + len - 4, "...", 4);
        return -1;
    }
    return 0;
}

void mm2_pf_need(struct mm2_pf_findings *f, const struct mm2_pf_who *who, enum mm2_pf_res type,
                 const char *name, const struct mm2_pf_auth *a, enum mm2_pf_op op,
                 enum mm2_pf_sev missing, const char *why)
{
    char res[MM2_PF_RES_LEN], whom[MM2_PF_WHO_LEN], fix[MM2_PF_TEXT_LEN];
    const char *opn = mm2_pf_op_name(op);
    bool implies_describe = op == MM2_PF_OP_DESCRIBE || op == MM2_PF_OP_READ ||
                            op == MM2_PF_OP_WRITE || op == MM2_PF_OP_DELETE ||
                            op == MM2_PF_OP_ALTER;

    if (type == MM2_PF_CLUSTER)
        (void)snprintf(res, sizeof(res), "Cluster");
    else
        (void)snprintf(res, sizeof(res), "%s:%s", res_kind(type), name != NULL ? name : "");
    (void)snprintf(whom, sizeof(whom), "%s ([%s])", who->principal, who->role);
    (void)mm2_pf_acl_line(fix, sizeof(fix), who, op, type, name, false);
    switch (a->seen) {
    case MM2_PF_SEEN_OPS:
        if (type == MM2_PF_CLUSTER && a->ops == 0) {
            mm2_pf_add(f, "acl", MM2_PF_WARN, whom, res, NULL,
                       "not checked: %s on the cluster (%s): Kafka returns the cluster's "
                       "authorized operations only to a principal with Describe on it",
                       opn, why);
        } else if (mm2_pf_allows(a->ops, op)) {
            mm2_pf_add(f, "acl", MM2_PF_PASS, whom, res, NULL, "%s may %s %s (%s)", who->principal,
                       opn, res, why);
        } else {
            mm2_pf_add(f, "acl", missing, whom, res, fix,
                       "%s ([%s]) may not %s %s: %s needs it; grant it with the fix",
                       who->principal, who->role, opn, res, why);
        }
        break;
    case MM2_PF_SEEN_DENIED:
        if (op == MM2_PF_OP_DESCRIBE)
            mm2_pf_add(f, "acl", missing, whom, res, fix,
                       "%s ([%s]) may not Describe %s: the broker would not describe it (an "
                       "authorization error, whether it exists or not); %s needs it; grant it "
                       "with the fix",
                       who->principal, who->role, res, why);
        else if (implies_describe)
            mm2_pf_add(f, "acl", missing, whom, res, fix,
                       "%s ([%s]) may not %s %s: the broker would not even describe it, and %s "
                       "implies Describe; %s needs it; grant it with the fix",
                       who->principal, who->role, opn, res, opn, why);
        else
            mm2_pf_add(f, "acl", MM2_PF_WARN, whom, res, fix,
                       "not checked: %s on %s (%s): the broker would not describe %s to %s, so it "
                       "did not say; grant Describe, or this, with the fix",
                       opn, res, why, res, who->principal);
        break;
    case MM2_PF_SEEN_ABSENT:
        mm2_pf_add(f, "acl", MM2_PF_WARN, whom, res, NULL,
                   "not checked: %s on %s (%s): it does not exist, and Kafka reports authorized "
                   "operations only for what exists (KIP-430)",
                   opn, res, why);
        break;
    case MM2_PF_SEEN_UNANSWERED:
        mm2_pf_add(f, "acl", MM2_PF_WARN, whom, res, NULL,
                   "not checked: %s on %s (%s): the broker returned no authorized operations "
                   "(KIP-430 needs Kafka 2.3 or later)",
                   opn, res, why);
        break;
    }
}

/* ---- Connect's internal topics -------------------------------------------------------------- */

/* An internal topic that does not exist: refused, with the line that creates it. */
static void itopic_absent(struct mm2_pf_findings *f, const struct mm2_pf_itopic *t, long want_rf,
                          long want_isr, const char *b, const char *res)
{
    char fix[MM2_PF_TEXT_LEN];
    bool config = strcmp(t->which, "config") == 0;

    (void)snprintf(fix, sizeof(fix),
                   "kafka-topics.sh --bootstrap-server %s --create --topic %s --partitions %s "
                   "--replication-factor %ld --config cleanup.policy=compact --config "
                   "min.insync.replicas=%ld",
                   b, t->name,
                   config                            ? "1"
                   : strcmp(t->which, "offset") == 0 ? "25"
                                                     : "5",
                   want_rf, want_isr); /* Connect's own defaults (DistributedConfig) */
    mm2_pf_add(f, "internal-topic", MM2_PF_REFUSE, NULL, res, fix,
               "Connect's %s topic %s (%s) does not exist on the target: create it "
               "ahead of time, compacted, as the fix says (a worker that creates it itself "
               "needs Create, and takes its own settings)",
               t->which, t->name, t->ini_key);
}

/* An internal topic's min.insync.replicas: not read, below the INI's, or above its replication
 * factor. */
static void itopic_isr(struct mm2_pf_findings *f, const struct mm2_pf_who *who,
                       const struct mm2_pf_itopic *t, long want_isr, const char *b, const char *res)
{
    char fix[MM2_PF_TEXT_LEN];

    if (t->min_isr < 0) {
        mm2_pf_add(f, "internal-topic", MM2_PF_WARN, NULL, res, NULL,
                   "not checked: min.insync.replicas of Connect's %s topic %s: %s ([%s]) may not "
                   "DescribeConfigs it",
                   t->which, t->name, who->principal, who->role);
    } else if (t->min_isr < want_isr || t->min_isr > t->replication) {
        long want = want_isr <= t->replication ? want_isr : t->replication;
        (void)snprintf(fix, sizeof(fix),
                       "kafka-configs.sh --bootstrap-server %s --alter --entity-type topics "
                       "--entity-name %s --add-config min.insync.replicas=%ld",
                       b, t->name, want);
        if (t->min_isr > t->replication)
            mm2_pf_add(f, "internal-topic", MM2_PF_REFUSE, NULL, res, fix,
                       "Connect's %s topic %s has min.insync.replicas=%ld above its replication "
                       "factor %d: every acks=all write to it fails",
                       t->which, t->name, t->min_isr, (int)t->replication);
        else
            mm2_pf_add(f, "internal-topic", MM2_PF_REFUSE, NULL, res, fix,
                       "Connect's %s topic %s has min.insync.replicas=%ld, below the %ld of "
                       "[connect] internal.min.insync.replicas: a write acknowledged by fewer "
                       "replicas can be lost",
                       t->which, t->name, t->min_isr, want_isr);
    }
}

void mm2_pf_internal_topic(struct mm2_pf_findings *f, const struct mm2_pf_who *who,
                           const struct mm2_pf_itopic *t, long want_rf, long want_isr)
{
    char res[MM2_PF_RES_LEN], fix[MM2_PF_TEXT_LEN], b[MM2_PF_RES_LEN];
    bool config = strcmp(t->which, "config") == 0;
    size_t before = f->n;

    (void)snprintf(res, sizeof(res), "Topic:%s", t->name);
    mm2_pf_shell_word(b, sizeof(b), who->bootstrap);
    if (t->seen == MM2_PF_SEEN_ABSENT) {
        itopic_absent(f, t, want_rf, want_isr, b, res);
        return;
    }
    if (t->seen != MM2_PF_SEEN_OPS) {
        mm2_pf_add(f, "internal-topic", MM2_PF_WARN, NULL, res, NULL,
                   "not checked: Connect's %s topic %s: the broker would not describe it to %s "
                   "([%s]); grant that principal Describe and DescribeConfigs on it, or check it "
                   "with the workers' own credentials",
                   t->which, t->name, who->principal, who->role);
        return;
    }
    if (t->cleanup_policy == NULL || t->cleanup_policy[0] == '\0') {
        mm2_pf_add(f, "internal-topic", MM2_PF_WARN, NULL, res, NULL,
                   "not checked: cleanup.policy of Connect's %s topic %s: %s ([%s]) may not "
                   "DescribeConfigs it",
                   t->which, t->name, who->principal, who->role);
    } else if (strcmp(t->cleanup_policy, "compact") != 0) {
        (void)snprintf(fix, sizeof(fix),
                       "kafka-configs.sh --bootstrap-server %s --alter --entity-type topics "
                       "--entity-name %s --add-config cleanup.policy=compact",
                       b, t->name);
        mm2_pf_add(f, "internal-topic", MM2_PF_REFUSE, NULL, res, fix,
                   "Connect's %s topic %s has cleanup.policy=%s, not compact: deleted segments "
                   "lose %s for good (Connect refuses anything but compact alone)",
                   t->which, t->name, t->cleanup_policy,
                   config                            ? "connector configs"
                   : strcmp(t->which, "offset") == 0 ? "offsets"
                                                     : "statuses");
    }
    if (t->replication < want_rf) {
        mm2_pf_add(f, "internal-topic", MM2_PF_REFUSE, NULL, res,
                   "kafka-reassign-partitions.sh --execute with a plan that lists more replicas "
                   "for every partition",
                   "Connect's %s topic %s has replication factor %d, below the %ld of [connect] "
                   "internal.replication.factor: a broker lost can lose what it holds",
                   t->which, t->name, (int)t->replication, want_rf);
    }
    itopic_isr(f, who, t, want_isr, b, res);
    if (config && t->partitions != 1)
        mm2_pf_add(f, "internal-topic", MM2_PF_REFUSE, NULL, res,
                   "kafka-topics.sh --create a new topic with --partitions 1 (compacted), point "
                   "the workers' config.storage.topic at it and post the connector again",
                   "Connect's config topic %s has %d partitions, not 1: the workers read configs "
                   "out of order (split brain); Kafka cannot shrink a topic",
                   t->name, (int)t->partitions);
    if (f->n == before)
        mm2_pf_add(f, "internal-topic", MM2_PF_PASS, NULL, res, NULL,
                   "Connect's %s topic %s: %d partition%s, replication factor %d, "
                   "cleanup.policy=compact, min.insync.replicas=%ld",
                   t->which, t->name, (int)t->partitions, t->partitions == 1 ? "" : "s",
                   (int)t->replication, t->min_isr);
}

/* ---- the connector against Flink ------------------------------------------------------------ */

/* The string value of key in config, or NULL. */
static const char *cfg_str(const cJSON *config, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(config, key);

    return cJSON_IsString(v) ? v->valuestring : NULL;
}

void mm2_pf_names_free(char **names, size_t n)
{
    for (size_t i = 0; names != NULL && i < n; i++)
        free(names[i]);
    free(names);
}

/* [s, e) into item with each "\\." made "." (a regex's literal dot); any other backslash is
 * kept, so that the name check refuses it. item has room for e - s + 1 bytes. */
static void unescape(char *item, const char *s, const char *e)
{
    size_t o = 0;

    for (const char *p = s; p < e; p++) {
        if (p[0] == '\\' && p + 1 < e && p[1] == '.')
            p++;
        item[o++] = *p;
    }
    item[o] = '\0';
}

enum mm2_status mm2_pf_topic_names(const cJSON *config, char ***out, size_t *n,
                                   struct mm2_error *err)
{
    const char *topics = cfg_str(config, "topics");
    char **names = NULL;
    size_t cap = 0, count = 0;
    const char *p;

    *out = NULL;
    *n = 0;
    if (cfg_str(config, "topics.regex") != NULL)
        return mm2_error_set(err, MM2_CONFIG,
                             "topics.regex is set: MirrorSourceConnector does not read it (it is "
                             "a sink connector's key); list the topics in \"topics\" instead");
    if (topics == NULL)
        return mm2_error_set(err, MM2_CONFIG,
                             "topics is not set: MirrorSourceConnector's default is \".*\", "
                             "every topic of the source; list the topics by name");
    for (p = topics;; p++) {
        size_t len = strcspn(p, ",");
        const char *s = p, *e = p + len;
        char why[128], item[256];

        while (s < e && (*s == ' ' || *s == '\t'))
            s++;
        while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
            e--;
        if (s == e || (size_t)(e - s) >= sizeof(item)) {
            mm2_pf_names_free(names, count);
            return mm2_error_set(err, MM2_CONFIG,
                                 "topics has an entry that is %s; list topic names separated by "
                                 "commas",
                                 s == e ? "empty" : "longer than a topic name");
        }
        unescape(item, s, e);
        if (!mm2_parse_topic_valid(item, why, sizeof(why))) {
            mm2_pf_names_free(names, count);
            return mm2_error_set(err, MM2_CONFIG,
                                 "topics entry \"%.80s\" is a pattern, not a topic name (%s): the "
                                 "set it matches changes as topics come and go; list the topics "
                                 "by name",
                                 item, why);
        }
        if (count == cap) {
            char **q = realloc(names, (cap = cap == 0 ? 8 : cap * 2) * sizeof(*q));
            if (q == NULL) {
                mm2_pf_names_free(names, count);
                return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
            }
            names = q;
        }
        names[count] = strdup(item);
        if (names[count] == NULL) {
            mm2_pf_names_free(names, count);
            return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
        }
        count++;
        p += len;
        if (*p == '\0')
            break;
    }
    *out = names;
    *n = count;
    return MM2_OK;
}

static void isolation(struct mm2_pf_findings *f, const cJSON *config, const char *flink)
{
    const char *key = "source.consumer.isolation.level";
    const char *mm2 = cfg_str(config, key);

    if (mm2 == NULL && (mm2 = cfg_str(config, "consumer.isolation.level")) != NULL)
        key = "consumer.isolation.level";
    if (flink == NULL) {
        mm2_pf_add(f, "isolation", MM2_PF_WARN, NULL, NULL, NULL,
                   "not compared: [flink] isolation.level is not stated; the connector reads %s "
                   "(%s); state what the Flink job's source read with",
                   mm2 != NULL ? mm2 : "read_uncommitted", mm2 != NULL ? key : "Kafka's default");
        return;
    }
    if (strcmp(flink, mm2 != NULL ? mm2 : "read_uncommitted") == 0) {
        mm2_pf_add(f, "isolation", MM2_PF_PASS, NULL, NULL, NULL,
                   "the connector reads %s, as the Flink job did", flink);
        return;
    }
    {
        char fix[MM2_PF_TEXT_LEN];
        (void)snprintf(fix, sizeof(fix),
                       "set \"source.consumer.isolation.level\": \"%s\" in the connector JSON",
                       flink);
        mm2_pf_add(f, "isolation", MM2_PF_REFUSE, NULL, NULL, fix,
                   "the Flink job read %s but the connector reads %s (%s): %s", flink,
                   mm2 != NULL ? mm2 : "read_uncommitted", mm2 != NULL ? key : "Kafka's default",
                   strcmp(flink, "read_committed") == 0
                       ? "MM2 would copy records of aborted and open transactions that Flink "
                         "never copied"
                       : "MM2 would skip records of aborted transactions that Flink copied, and "
                         "wait at every open one");
    }
}

static void topic_list(struct mm2_pf_findings *f, const cJSON *config)
{
    struct mm2_error err = {0};
    char **names = NULL;
    size_t n = 0;

    if (mm2_pf_topic_names(config, &names, &n, &err) != MM2_OK) {
        mm2_pf_add(f, "topics", MM2_PF_REFUSE, NULL, NULL,
                   "set \"topics\" in the connector JSON to the topic names, separated by commas",
                   "%s", err.msg);
        return;
    }
    mm2_pf_add(f, "topics", MM2_PF_PASS, NULL, NULL, NULL,
               "topics is an explicit list of %zu topic name%s", n, n == 1 ? "" : "s");
    mm2_pf_names_free(names, n);
}

static void refresh(struct mm2_pf_findings *f, const cJSON *config)
{
    const char *on = cfg_str(config, "refresh.topics.enabled");
    const char *every = cfg_str(config, "refresh.topics.interval.seconds");

    if (on != NULL && strcmp(on, "false") == 0)
        mm2_pf_add(f, "refresh-topics", MM2_PF_PASS, NULL, NULL, NULL,
                   "refresh.topics.enabled=false: the topic set is the one the connector finds "
                   "when it starts; a listed topic created later is not copied until a restart");
    else
        mm2_pf_add(f, "refresh-topics", MM2_PF_PASS, NULL, NULL, NULL,
                   "refresh.topics.enabled=true%s: the source's topics are listed again every "
                   "%s s; a listed topic created later is copied from its start",
                   on == NULL ? " (default)" : "", every != NULL ? every : "600");
}

static void offset_syncs(struct mm2_pf_findings *f, const cJSON *config, const char *version)
{
    const char *emit = cfg_str(config, "emit.offset-syncs.enabled");
    const char *alias = cfg_str(config, "target.cluster.alias");
    const char *where = cfg_str(config, "offset-syncs.topic.location");
    char topic[300], res[320];

    if (version == NULL || emit == NULL || strcmp(emit, "false") != 0 ||
        !mm2_connector_version_below(version, 3, 9) || mm2_connector_version_below(version, 3, 6))
        return;
    (void)snprintf(topic, sizeof(topic), "mm2-offset-syncs.%s.internal",
                   alias != NULL ? alias : "target");
    (void)snprintf(res, sizeof(res), "Topic:%s", topic);
    mm2_pf_add(f, "offset-syncs", MM2_PF_WARN, NULL, res, NULL,
               "Connect %s ignores emit.offset-syncs.enabled=false (read from 3.9.0, KIP-1031): "
               "the connector creates and writes %s on the %s, which needs Create and Write on it "
               "for the connector's %s clients",
               version, topic, where != NULL && strcmp(where, "target") == 0 ? "target" : "source",
               where != NULL && strcmp(where, "target") == 0 ? "target" : "source");
}

void mm2_pf_connector(struct mm2_pf_findings *f, const cJSON *config, const char *flink_isolation,
                      const char *connect_version)
{
    isolation(f, config, flink_isolation);
    topic_list(f, config);
    refresh(f, config);
    offset_syncs(f, config, connect_version);
}

/* ---- the report ----------------------------------------------------------------------------- */

enum mm2_status mm2_pf_add_json(cJSON *parent, const struct mm2_pf_findings *f,
                                struct mm2_error *err)
{
    cJSON *arr = cJSON_AddArrayToObject(parent, "findings");
    cJSON *sum = cJSON_AddObjectToObject(parent, "summary");
    bool ok = arr != NULL && sum != NULL && !f->oom;

    for (size_t i = 0; ok && i < f->n; i++) {
        const struct mm2_pf_finding *x = &f->v[i];
        cJSON *o = cJSON_CreateObject();

        if (o == NULL || !cJSON_AddItemToArray(arr, o)) {
            cJSON_Delete(o);
            ok = false;
            break;
        }
        ok = cJSON_AddStringToObject(o, "name", x->name) != NULL &&
             cJSON_AddStringToObject(o, "severity", mm2_pf_sev_name(x->sev)) != NULL &&
             cJSON_AddStringToObject(o, "principal", x->principal) != NULL &&
             cJSON_AddStringToObject(o, "resource", x->resource) != NULL &&
             cJSON_AddStringToObject(o, "message", x->message) != NULL &&
             cJSON_AddStringToObject(o, "fix", x->fix) != NULL;
    }
    ok = ok && cJSON_AddNumberToObject(sum, "pass", (double)mm2_pf_count(f, MM2_PF_PASS)) != NULL &&
         cJSON_AddNumberToObject(sum, "warn", (double)mm2_pf_count(f, MM2_PF_WARN)) != NULL &&
         cJSON_AddNumberToObject(sum, "refuse", (double)mm2_pf_count(f, MM2_PF_REFUSE)) != NULL;
    if (!ok)
        return mm2_error_set(err, MM2_UNEXPECTED,
                             f->oom ? "a finding was lost (out of memory)" : "out of memory");
    return MM2_OK;
}

/* ---- the workers ---------------------------------------------------------------------------- */

/* Appends to buf (cap bytes) what fmt says, as far as it fits (the finding cuts it anyway). */
static void append(char *buf, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void append(char *buf, size_t cap, const char *fmt, ...)
{
    size_t n = strlen(buf);
    va_list ap;

    if (n + 1 >= cap)
        return;
    va_start(ap, fmt);
    (void)vsnprintf(buf + n, cap - n, fmt, ap);
    va_end(ap);
}

static bool same_build(const struct mm2_pf_worker *a, const struct mm2_pf_worker *b)
{
    return strcmp(a->version, b->version) == 0 && strcmp(a->commit, b->commit) == 0;
}

void mm2_pf_workers(struct mm2_pf_findings *f, const struct mm2_pf_worker *w, size_t n)
{
    static const char rollout[] = "kubectl rollout status deployment/mm2-connect";
    char text[MM2_PF_TEXT_LEN], fix[MM2_PF_TEXT_LEN];
    size_t builds = 0, answered = 0;

    if (n == 0) {
        mm2_pf_add(f, "workers", MM2_PF_WARN, NULL, NULL,
                   "set [connect] workers to the workers' headless Service "
                   "(http://mm2-connect-workers:8088, k8s/base/service.yaml): every worker, Ready "
                   "or not",
                   "not checked: [connect] workers is not set, so only the worker behind [connect] "
                   "url was asked its version (Connect's REST API lists no workers)");
        return;
    }
    for (size_t i = 0; i < n; i++) {
        char res[MM2_PF_RES_LEN];
        bool first = true;
        (void)snprintf(res, sizeof(res), "Worker:%s (%s)", w[i].addr, w[i].url);
        if (!w[i].answered) {
            (void)snprintf(fix, sizeof(fix),
                           "wait until every worker is Ready (%s), or take the gone one out of "
                           "[connect] workers, and run preflight again",
                           rollout);
            mm2_pf_add(f, "workers", MM2_PF_REFUSE, NULL, res, fix,
                       "worker %s (%s) does not answer GET /: %s", w[i].addr, w[i].url,
                       w[i].error != NULL ? w[i].error : "no answer");
            continue;
        }
        answered++;
        for (size_t k = 0; k < i && first; k++)
            first = !(w[k].answered && same_build(&w[k], &w[i]));
        builds += first;
    }
    if (builds > 1) {
        text[0] = '\0';
        append(text, sizeof(text),
               "the workers run %zu different Kafka builds (a rolling update half done?):", builds);
        for (size_t i = 0; i < n; i++) {
            bool first = w[i].answered;
            for (size_t k = 0; k < i && first; k++)
                first = !(w[k].answered && same_build(&w[k], &w[i]));
            if (!first)
                continue;
            append(text, sizeof(text), " %s (commit %s) on", w[i].version, w[i].commit);
            for (size_t k = i; k < n; k++)
                if (w[k].answered && same_build(&w[k], &w[i]))
                    append(text, sizeof(text), " %s", w[k].addr);
            append(text, sizeof(text), ";");
        }
        text[strlen(text) - 1] = '\0';
        (void)snprintf(fix, sizeof(fix),
                       "finish the rolling update (%s) or roll it back, so that every worker "
                       "runs one image, and run preflight again",
                       rollout);
        mm2_pf_add(f, "workers", MM2_PF_REFUSE, NULL, NULL, fix, "%s", text);
    } else if (answered == n) {
        text[0] = '\0';
        for (size_t i = 0; i < n; i++)
            append(text, sizeof(text), "%s%s", i > 0 ? ", " : "", w[i].addr);
        mm2_pf_add(f, "workers", MM2_PF_PASS, NULL, NULL, NULL,
                   "%zu worker%s answer, all Kafka %s (commit %s): %s", n, n == 1 ? "" : "s",
                   w[0].version, w[0].commit, text);
    }
}
