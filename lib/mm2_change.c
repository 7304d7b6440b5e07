/* mm2_change: a connector config change, classified by what it does to the offsets (see
 * mm2_change.h). */
#include "mm2_change.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An exact key and its class. */
struct rule {
    const char *key;
    enum mm2_change_class cls;
    const char *meaning;
};

static const char M_ALIAS[] =
    "every stored source offset is keyed by this alias: under a new one MM2 finds none and "
    "starts each partition from auto.offset.reset, copying everything again or skipping it";
static const char M_POLICY[] =
    "the target topic of each source topic changes name: MM2 goes on from its stored offsets "
    "into topics that hold none of the records copied before, and the consumers' topics move";
static const char M_SOURCE[] =
    "the source cluster's address: if it names another cluster, the stored offsets (keyed by "
    "alias, not by cluster) point into another log and records are skipped or copied again; if it "
    "is the same cluster's new broker list, it is harmless: verify that its cluster id is the "
    "[source] cluster.id before you apply it";
static const char M_TARGET[] =
    "the target cluster's address: another cluster gets only what MM2 copies from the stored "
    "offsets on, none of the records copied before; the same cluster's new broker list is "
    "harmless: verify its cluster id";
static const char M_TARGET_ALIAS[] =
    "names the target in internal topics (offset-syncs, checkpoints, heartbeats) and the "
    "cycle check; the source offsets stay, but those topics start over";
static const char M_FILTER[] =
    "the topic filter: a topic newly replicated starts from auto.offset.reset, a topic left out "
    "keeps its stored offsets (see the topics below)";
static const char M_FILTER_CLASS[] =
    "another topic filter, which mm2kit cannot evaluate: which topics are new or gone is unknown";
static const char M_RESET[] =
    "where a partition without a stored offset starts (a new topic or partition): earliest copies "
    "it whole, latest skips what it holds; partitions with stored offsets are not affected";
static const char M_CLASS[] = "another connector class: not the MirrorSourceConnector mm2kit "
                              "migrated, its offsets are another connector's";
static const char M_RECORDS[] = "changes the records MM2 writes (their bytes, or which ones are "
                                "dropped on an error): the target no longer copies the source";
static const char M_ENABLED[] =
    "enabled=false stops replication (no task) without stopping the connector; offsets stay";
static const char M_RULE[] = "a key mm2kit's [rule connector-config] requires false; the offsets "
                             "stay, but the cutover's assumptions no longer hold";
static const char M_HARMLESS[] = "restarts the tasks only; the stored offsets stay";
static const char M_CLIENT[] =
    "a client setting (security, timeouts, batching): restarts the tasks only, the stored offsets "
    "stay; a wrong credential fails the tasks";
static const char M_UNKNOWN[] =
    "a key mm2kit does not know: not assumed harmless, review what it does to the offsets";

static const struct rule rules[] = {
    {"source.cluster.alias", MM2_CHANGE_MOVES_OFFSETS, M_ALIAS},
    {"replication.policy.class", MM2_CHANGE_MOVES_OFFSETS, M_POLICY},
    {"replication.policy.separator", MM2_CHANGE_MOVES_OFFSETS, M_POLICY},
    {"replication.policy.internal.topic.separator.enabled", MM2_CHANGE_REVIEW, M_TARGET_ALIAS},
    {"source.cluster.bootstrap.servers", MM2_CHANGE_MOVES_OFFSETS, M_SOURCE},
    {"target.cluster.bootstrap.servers", MM2_CHANGE_REVIEW, M_TARGET},
    {"target.cluster.alias", MM2_CHANGE_REVIEW, M_TARGET_ALIAS},
    {"topics", MM2_CHANGE_TOPICS, M_FILTER},
    {"topics.exclude", MM2_CHANGE_TOPICS, M_FILTER},
    {"topics.blacklist", MM2_CHANGE_TOPICS, M_FILTER},
    {"topic.filter.class", MM2_CHANGE_REVIEW, M_FILTER_CLASS},
    {"connector.class", MM2_CHANGE_REVIEW, M_CLASS},
    {"key.converter", MM2_CHANGE_REVIEW, M_RECORDS},
    {"value.converter", MM2_CHANGE_REVIEW, M_RECORDS},
    {"header.converter", MM2_CHANGE_REVIEW, M_RECORDS},
    {"transforms", MM2_CHANGE_REVIEW, M_RECORDS},
    {"predicates", MM2_CHANGE_REVIEW, M_RECORDS},
    {"errors.tolerance", MM2_CHANGE_REVIEW, M_RECORDS},
    {"exactly.once.support", MM2_CHANGE_REVIEW, M_RECORDS},
    {"enabled", MM2_CHANGE_REVIEW, M_ENABLED},
    {"emit.offset-syncs.enabled", MM2_CHANGE_REVIEW, M_RULE},
    {"sync.topic.configs.enabled", MM2_CHANGE_REVIEW, M_RULE},
    {"sync.topic.acls.enabled", MM2_CHANGE_REVIEW, M_RULE},
    {"tasks.max", MM2_CHANGE_HARMLESS, M_HARMLESS},
    {"refresh.topics.enabled", MM2_CHANGE_HARMLESS, M_HARMLESS},
    {"refresh.topics.interval.seconds", MM2_CHANGE_HARMLESS, M_HARMLESS},
    {"refresh.groups.enabled", MM2_CHANGE_HARMLESS, M_HARMLESS},
    {"refresh.groups.interval.seconds", MM2_CHANGE_HARMLESS, M_HARMLESS},
    {"sync.topic.configs.interval.seconds", MM2_CHANGE_HARMLESS, M_HARMLESS},
    {"sync.topic.acls.interval.seconds", MM2_CHANGE_HARMLESS, M_HARMLESS},
    {"config.properties.exclude", MM2_CHANGE_HARMLESS, M_HARMLESS},
    {"config.properties.blacklist", MM2_CHANGE_HARMLESS, M_HARMLESS},
    {"replication.factor", MM2_CHANGE_HARMLESS, M_HARMLESS},
    {"offset-syncs.topic.replication.factor", MM2_CHANGE_HARMLESS, M_HARMLESS},
    {"offset-syncs.topic.location", MM2_CHANGE_HARMLESS, M_HARMLESS},
    {"heartbeats.topic.replication.factor", MM2_CHANGE_HARMLESS, M_HARMLESS},
    {"checkpoints.topic.replication.factor", MM2_CHANGE_HARMLESS, M_HARMLESS},
    {"offset.lag.max", MM2_CHANGE_HARMLESS, M_HARMLESS},
    {"consumer.poll.timeout.ms", MM2_CHANGE_HARMLESS, M_HARMLESS},
    {"admin.timeout.ms", MM2_CHANGE_HARMLESS, M_HARMLESS},
    {"heartbeats.replication.enabled", MM2_CHANGE_HARMLESS, M_HARMLESS},
    {"errors.log.enable", MM2_CHANGE_HARMLESS, M_HARMLESS},
    {"errors.log.include.messages", MM2_CHANGE_HARMLESS, M_HARMLESS},
};

/* Prefixes of client settings: the source and target clusters' clients and the overrides. */
static const char *const client_prefixes[] = {
    "source.cluster.",    "target.cluster.",  "source.consumer.", "source.admin.",
    "source.producer.",   "target.producer.", "target.admin.",    "target.consumer.",
    "consumer.",          "producer.",        "admin.",           "consumer.override.",
    "producer.override.", "admin.override.",
};

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), t = strlen(tail);

    return n >= t && strcmp(s + n - t, tail) == 0;
}

static bool starts_with(const char *s, const char *head)
{
    return strncmp(s, head, strlen(head)) == 0;
}

/* A client setting's class: bootstrap.servers and auto.offset.reset are not harmless. */
static enum mm2_change_class client_class(const char *key, const char **meaning)
{
    bool source_side = !starts_with(key, "target.") && !starts_with(key, "producer.");

    if (ends_with(key, ".bootstrap.servers")) {
        *meaning = source_side ? M_SOURCE : M_TARGET;
        return source_side ? MM2_CHANGE_MOVES_OFFSETS : MM2_CHANGE_REVIEW;
    }
    if (ends_with(key, ".auto.offset.reset")) {
        *meaning = M_RESET;
        return MM2_CHANGE_REVIEW;
    }
    if (ends_with(key, ".isolation.level")) {
        *meaning = M_RECORDS;
        return MM2_CHANGE_REVIEW;
    }
    *meaning = M_CLIENT;
    return MM2_CHANGE_HARMLESS;
}

enum mm2_change_class mm2_change_classify(const char *key, const char **meaning)
{
    const char *dummy;

    if (meaning == NULL)
        meaning = &dummy;
    for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
        if (strcmp(key, rules[i].key) == 0) {
            *meaning = rules[i].meaning;
            return rules[i].cls;
        }
    if (starts_with(key, "transforms.") || starts_with(key, "predicates.") ||
        starts_with(key, "errors."))
        return *meaning = M_RECORDS, MM2_CHANGE_REVIEW;
    for (size_t i = 0; i < sizeof(client_prefixes) / sizeof(client_prefixes[0]); i++)
        if (starts_with(key, client_prefixes[i]) && key[strlen(client_prefixes[i])] != '\0')
            return client_class(key, meaning);
    *meaning = M_UNKNOWN;
    return MM2_CHANGE_REVIEW;
}

const char *mm2_change_class_name(enum mm2_change_class c)
{
    switch (c) {
    case MM2_CHANGE_HARMLESS:
        return "harmless";
    case MM2_CHANGE_TOPICS:
        return "topics";
    case MM2_CHANGE_REVIEW:
        return "review";
    case MM2_CHANGE_MOVES_OFFSETS:
        return "moves-offsets";
    }
    return "review";
}

const char *mm2_change_kind_name(enum mm2_change_kind k)
{
    switch (k) {
    case MM2_CHANGE_ADDED:
        return "added";
    case MM2_CHANGE_REMOVED:
        return "removed";
    case MM2_CHANGE_CHANGED:
        return "changed";
    }
    return "changed";
}

static int key_cmp(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static const char *string_of(const cJSON *view, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(view, key);

    return cJSON_IsString(v) ? v->valuestring : NULL;
}

enum mm2_status mm2_change_list(const cJSON *live_view, const cJSON *file_view,
                                struct mm2_changes *out, struct mm2_error *err)
{
    size_t na = (size_t)cJSON_GetArraySize(live_view), nb = (size_t)cJSON_GetArraySize(file_view);
    const char **keys = calloc(na + nb + 1, sizeof(*keys));
    const cJSON *v;
    size_t n = 0;

    out->v = calloc(na + nb + 1, sizeof(*out->v));
    out->n = 0;
    if (keys == NULL || out->v == NULL) {
        free(keys);
        mm2_changes_free(out);
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    }
    cJSON_ArrayForEach(v, live_view) keys[n++] = v->string;
    cJSON_ArrayForEach(v, file_view) keys[n++] = v->string;
    qsort(keys, n, sizeof(*keys), key_cmp);
    for (size_t i = 0; i < n; i++) {
        struct mm2_change *c = &out->v[out->n];
        if ((i > 0 && strcmp(keys[i], keys[i - 1]) == 0) || strcmp(keys[i], "name") == 0)
            continue;
        c->old_val = string_of(live_view, keys[i]);
        c->new_val = string_of(file_view, keys[i]);
        if (c->old_val != NULL && c->new_val != NULL && strcmp(c->old_val, c->new_val) == 0)
            continue;
        c->key = keys[i];
        c->kind = c->old_val == NULL   ? MM2_CHANGE_ADDED
                  : c->new_val == NULL ? MM2_CHANGE_REMOVED
                                       : MM2_CHANGE_CHANGED;
        c->cls = mm2_change_classify(keys[i], &c->meaning);
        out->n++;
    }
    free(keys);
    return MM2_OK;
}

void mm2_changes_free(struct mm2_changes *c)
{
    if (c == NULL)
        return;
    free(c->v);
    c->v = NULL;
    c->n = 0;
}

enum mm2_change_class mm2_change_worst(const struct mm2_changes *c,
                                       enum mm2_change_class topics_worst)
{
    enum mm2_change_class w = MM2_CHANGE_HARMLESS;

    for (size_t i = 0; i < c->n; i++) {
        enum mm2_change_class k = c->v[i].cls == MM2_CHANGE_TOPICS ? topics_worst : c->v[i].cls;
        if (k > w)
            w = k;
    }
    return w;
}

enum mm2_topic_change mm2_change_topic(bool replicated_before, bool replicated_after)
{
    if (replicated_before == replicated_after)
        return MM2_TOPIC_SAME;
    return replicated_after ? MM2_TOPIC_NEW : MM2_TOPIC_GONE;
}

/* A topic replicated before: resumed from its stored offsets. */
static void readded_why(const struct mm2_new_topic *t, char *buf, size_t len)
{
    char lost[200] = "";

    if (t->stored_below_start > 0)
        (void)snprintf(lost, sizeof(lost),
                       "; on %d of them the next record has expired from the source log: the "
                       "records between are gone without a word",
                       t->stored_below_start);
    (void)snprintf(buf, len,
                   "refused without a start: %.249s: replicated before, MM2 would resume it from "
                   "the offsets Connect still stores on %d of its %d partitions, not from Flink's "
                   "C or auto.offset.reset%s; whether the target has moved since is not checked "
                   "here",
                   t->topic, t->stored_parts, t->parts, lost);
}

void mm2_change_new_topic_why(const struct mm2_new_topic *t, char *buf, size_t len)
{
    bool latest = t->reset != NULL && strcmp(t->reset, "latest") == 0;

    if (t->stored_parts > 0)
        readded_why(t, buf, len);
    else if (t->flink_parts > 0)
        (void)snprintf(buf, len,
                       "refused without a start: %.249s: Flink's group %.200s committed offsets on "
                       "%d of its %d partitions, and the target already holds their records up "
                       "to there; MM2 would start it from auto.offset.reset (%s) instead of "
                       "Flink's C and %s",
                       t->topic, t->group, t->flink_parts, t->parts, latest ? "latest" : "earliest",
                       latest ? "never copy what was written between C and now"
                              : "copy again every record Flink already copied");
    else
        (void)snprintf(buf, len,
                       "refused without a start: %.249s: %d partitions Flink's group %.200s "
                       "never committed; MM2 would start them from auto.offset.reset (%s): %s",
                       t->topic, t->parts, t->group, latest ? "latest" : "earliest",
                       latest ? "every record they hold now is never copied"
                              : "every record they hold is copied");
}
