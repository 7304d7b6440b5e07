/* change: the running connector against the connector JSON of the repository (see change.h),
 * what diff prints and update plans from. */
#include "change.h"

#include <stdlib.h>
#include <string.h>

#include "clients.h"
#include "mm2_cfgview.h"
#include "mm2_json.h"

static void add_str_or_null(cJSON *o, const char *k, const char *v)
{
    if (v != NULL)
        cJSON_AddStringToObject(o, k, v);
    else
        cJSON_AddNullToObject(o, k);
}

/* The "changes" array of the report. */
static cJSON *changes_json(const struct mm2_changes *c)
{
    cJSON *arr = cJSON_CreateArray();

    for (size_t i = 0; arr != NULL && i < c->n; i++) {
        cJSON *e = cJSON_CreateObject();
        if (e == NULL)
            break;
        cJSON_AddStringToObject(e, "key", c->v[i].key);
        cJSON_AddStringToObject(e, "change", mm2_change_kind_name(c->v[i].kind));
        add_str_or_null(e, "old", c->v[i].old_val);
        add_str_or_null(e, "new", c->v[i].new_val);
        cJSON_AddStringToObject(e, "class", mm2_change_class_name(c->v[i].cls));
        cJSON_AddStringToObject(e, "meaning", c->v[i].meaning);
        cJSON_AddItemToArray(arr, e);
    }
    return arr;
}

const char *job_change_reset(const cJSON *live)
{
    static const char *const keys[] = {"source.consumer.auto.offset.reset",
                                       "consumer.auto.offset.reset",
                                       "source.cluster.auto.offset.reset"};
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(live, keys[i]);
        if (cJSON_IsString(v))
            return v->valuestring;
    }
    return "";
}

/* Of the n partitions of topic: how many Connect stores an offset for under alias, and how many
 * of those have their next record (offset + 1) below the source's log start. */
static enum mm2_status stored(struct job *j, const struct mm2_tp *tps, int32_t n, const char *alias,
                              const struct mm2_source_offsets *o, struct mm2_new_topic *t,
                              struct mm2_error *err)
{
    int64_t *start = calloc((size_t)n + 1, sizeof(*start)),
            *end = calloc((size_t)n + 1, sizeof(*end));
    struct mm2_deadline dl;
    enum mm2_status st = MM2_OK;

    for (int32_t p = 0; p < n; p++)
        t->stored_parts += mm2_source_offsets_find(o, alias, tps[p].topic, p) != NULL;
    if (start == NULL || end == NULL)
        st = mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    else if (t->stored_parts > 0) {
        job_kafka_deadline(j, &dl);
        st = mm2_kafka_log_offsets(j->source, tps, (size_t)n, start, end, NULL, &dl, err);
    }
    for (int32_t p = 0; st == MM2_OK && t->stored_parts > 0 && p < n; p++) {
        const struct mm2_source_offset *s = mm2_source_offsets_find(o, alias, tps[p].topic, p);
        t->stored_below_start += s != NULL && s->offset + 1 < start[p];
    }
    free(start);
    free(end);
    return st;
}

/* A topic the file newly replicates: Flink's committed offsets on its partitions, the offsets
 * Connect still stores for it, and what it needs. */
static enum mm2_status new_topic(struct job *j, const struct mm2_topic_meta *m, const cJSON *live,
                                 const struct mm2_source_offsets *o, cJSON *arr,
                                 struct mm2_error *err)
{
    int32_t n = m->partitions > 0 ? m->partitions : 0;
    struct mm2_tp *tps = calloc((size_t)n + 1, sizeof(*tps));
    int64_t *c = calloc((size_t)n + 1, sizeof(*c));
    struct mm2_new_topic t = {m->name, n, 0, 0, 0, j->cfg.group, job_change_reset(live)};
    struct mm2_deadline dl;
    enum mm2_status st;
    char why[900];
    cJSON *e = cJSON_CreateObject();

    if (tps == NULL || c == NULL || e == NULL) {
        st = mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
        goto out;
    }
    for (int32_t p = 0; p < n; p++)
        tps[p] = (struct mm2_tp){m->name, p};
    job_kafka_deadline(j, &dl);
    st = mm2_kafka_committed(j->source, j->cfg.group, tps, (size_t)n, c, &dl, err);
    for (int32_t p = 0; st == MM2_OK && p < n; p++)
        t.flink_parts += c[p] >= 0;
    if (st == MM2_OK)
        st = stored(j, tps, n, j->conn.alias, o, &t, err);
    if (st != MM2_OK)
        goto out;
    mm2_change_new_topic_why(&t, why, sizeof(why));
    cJSON_AddStringToObject(e, "topic", m->name);
    cJSON_AddItemToObject(e, "partitions", mm2_json_int(n));
    cJSON_AddItemToObject(e, "flink_committed_partitions", mm2_json_int(t.flink_parts));
    cJSON_AddItemToObject(e, "stored_partitions", mm2_json_int(t.stored_parts));
    cJSON_AddItemToObject(e, "stored_below_log_start", mm2_json_int(t.stored_below_start));
    cJSON_AddStringToObject(e, "why", why);
    cJSON_AddItemToArray(arr, e);
    e = NULL;
out:
    cJSON_Delete(e);
    free(tps);
    free(c);
    return st;
}

/* A topic the file leaves out: the offsets Connect stores for it under the live alias. */
static void gone_topic(const char *topic, const char *alias, const struct mm2_source_offsets *o,
                       cJSON *arr)
{
    cJSON *e = cJSON_CreateObject(), *offs = cJSON_CreateArray();

    if (e == NULL || offs == NULL) {
        cJSON_Delete(e);
        cJSON_Delete(offs);
        return;
    }
    for (size_t i = 0; i < o->n; i++) {
        cJSON *x;
        if (strcmp(o->v[i].topic, topic) != 0 || strcmp(o->v[i].cluster, alias) != 0)
            continue;
        x = cJSON_CreateObject();
        if (x == NULL)
            break;
        cJSON_AddItemToObject(x, "partition", mm2_json_int(o->v[i].partition));
        cJSON_AddItemToObject(x, "offset", mm2_json_int(o->v[i].offset));
        cJSON_AddItemToArray(offs, x);
    }
    cJSON_AddStringToObject(e, "topic", topic);
    cJSON_AddItemToObject(e, "stored_offsets", offs);
    cJSON_AddItemToArray(arr, e);
}

struct filters {
    struct mm2_mirror *before, *after;
    const char *alias; /* the live source.cluster.alias */
};

/* The two filters, for Connect's Kafka version; MM2_CONFIG when one cannot be evaluated. */
static enum mm2_status make_filters(struct job *j, const cJSON *live, struct filters *f,
                                    struct mm2_error *err)
{
    struct mm2_connect_info info;
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(live, "source.cluster.alias");

    f->alias = cJSON_IsString(a) ? a->valuestring : "";
    if (mm2_connect_info(j->connect, &info, err) != MM2_OK)
        return err->code;
    if (mm2_mirror_new(live, info.version, &f->before, err) != MM2_OK)
        return mm2_error_prefix(err, "the running connector's topic filter");
    if (mm2_mirror_new(j->conn.config, info.version, &f->after, err) != MM2_OK)
        return mm2_error_prefix(err, "%s's topic filter", j->cfg.connector_file);
    return MM2_OK;
}

/* The topics the filter change adds and removes, on the source's topic list, into rep. */
static enum mm2_status topics(struct job *j, const struct filters *f, const cJSON *live, cJSON *rep,
                              struct mm2_error *err)
{
    struct mm2_topic_list l = {0};
    struct mm2_source_offsets o = {0};
    struct mm2_deadline dl;
    cJSON *added = cJSON_AddArrayToObject(rep, "topics_new");
    cJSON *gone = cJSON_AddArrayToObject(rep, "topics_removed");
    enum mm2_status st;
    bool read = false;

    job_kafka_deadline(j, &dl);
    st = job_kafka(j, true, false, err);
    if (st == MM2_OK)
        st = mm2_kafka_topics(j->source, &dl, &l, err);
    for (size_t i = 0; st == MM2_OK && i < l.n; i++) {
        enum mm2_topic_change ch = mm2_change_topic(mm2_mirror_replicates(f->before, l.v[i].name),
                                                    mm2_mirror_replicates(f->after, l.v[i].name));
        /* The stored offsets, once: of the topics left out, and of a topic added back. */
        if (ch != MM2_TOPIC_SAME && !read) {
            read = true;
            st = mm2_connect_offsets(j->connect, j->conn.name, &o, err);
        }
        if (st != MM2_OK)
            break;
        if (ch == MM2_TOPIC_NEW)
            st = new_topic(j, &l.v[i], live, &o, added, err);
        else if (ch == MM2_TOPIC_GONE)
            gone_topic(l.v[i].name, f->alias, &o, gone);
    }
    mm2_topic_list_free(&l);
    mm2_source_offsets_free(&o);
    return st;
}

/* Judges the filter change, if any: the class it counts as, and its topics into rep. */
static enum mm2_status judge_topics(struct job *j, const struct mm2_changes *c, const cJSON *live,
                                    cJSON *rep, enum mm2_change_class *worst, struct mm2_error *err)
{
    struct filters f = {0};
    enum mm2_status st;
    bool filter = false;

    *worst = MM2_CHANGE_HARMLESS;
    for (size_t i = 0; i < c->n; i++)
        filter = filter || c->v[i].cls == MM2_CHANGE_TOPICS;
    if (!filter)
        return MM2_OK;
    st = make_filters(j, live, &f, err);
    if (st == MM2_CONFIG) { /* a filter mm2kit cannot evaluate: say so, never assume */
        *worst = MM2_CHANGE_REVIEW;
        cJSON_AddStringToObject(rep, "topics_unknown", err->msg);
        st = MM2_OK;
    } else if (st == MM2_OK) {
        st = topics(j, &f, live, rep, err);
        if (cJSON_GetArraySize(cJSON_GetObjectItem(rep, "topics_new")) > 0 ||
            cJSON_GetArraySize(cJSON_GetObjectItem(rep, "topics_removed")) > 0)
            *worst = MM2_CHANGE_REVIEW;
    }
    mm2_mirror_free(f.before);
    mm2_mirror_free(f.after);
    return st;
}

static const char *verdict_text(bool exists, size_t n, enum mm2_change_class w)
{
    if (!exists)
        return "the connector does not exist: creating it is the cutover (preflight, export, "
               "plan, apply), not a day-two change";
    if (n == 0)
        return "the connector equals its file";
    switch (w) {
    case MM2_CHANGE_HARMLESS:
    case MM2_CHANGE_TOPICS:
        return "harmless: a PUT of the file restarts the tasks only, the stored offsets stay";
    case MM2_CHANGE_REVIEW:
        return "review: not harmless, see each change; new topics are refused without a start";
    case MM2_CHANGE_MOVES_OFFSETS:
        return "moves offsets: a PUT of the file would copy records again or skip them; it needs "
               "a plan that carries the offsets over";
    }
    return "review";
}

/* The report: what was compared, each change, the topics, the verdict. */
static void fill_report(const struct job *j, cJSON *rep, bool exists, const struct mm2_changes *c,
                        enum mm2_change_class w)
{
    cJSON_AddStringToObject(rep, "kind", "mm2kit.diff/v1");
    cJSON_AddStringToObject(rep, "connector", j->conn.name);
    cJSON_AddStringToObject(rep, "file", j->cfg.connector_file);
    cJSON_AddStringToObject(rep, "connect", j->cfg.connect_url);
    cJSON_AddBoolToObject(rep, "exists", exists);
    cJSON_AddBoolToObject(rep, "differs", !exists || c->n > 0);
    cJSON_AddStringToObject(rep, "class", !exists ? "create" : mm2_change_class_name(w));
    cJSON_AddStringToObject(rep, "verdict", verdict_text(exists, c->n, w));
    cJSON_AddItemToObject(rep, "changes", changes_json(c));
}

enum mm2_status job_change_read(struct job *j, struct job_change *ch, struct mm2_error *err)
{
    cJSON *empty = cJSON_CreateObject();
    enum mm2_status st = MM2_OK;

    memset(ch, 0, sizeof(*ch));
    ch->rep = cJSON_CreateObject();
    if (empty == NULL || ch->rep == NULL)
        st = mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    else if (job_connect(j, err) != MM2_OK ||
             mm2_connect_config(j->connect, j->conn.name, &ch->live, err) != MM2_OK)
        st = err->code;
    else if (ch->live != NULL &&
             mm2_cfgview_make(ch->live, j->conn.name, &ch->live_view, err) != MM2_OK)
        st = mm2_error_prefix(err, "GET /connectors/%s/config", j->conn.name);
    else if (mm2_change_list(ch->live_view != NULL ? ch->live_view : empty, j->conn.view, &ch->c,
                             err) != MM2_OK)
        st = err->code;
    else if (ch->live != NULL &&
             judge_topics(j, &ch->c, ch->live, ch->rep, &ch->topics_worst, err) != MM2_OK)
        st = err->code;
    if (st == MM2_OK) {
        ch->exists = ch->live != NULL;
        ch->worst = mm2_change_worst(&ch->c, ch->topics_worst);
        fill_report(j, ch->rep, ch->exists, &ch->c, ch->worst);
    }
    cJSON_Delete(empty);
    return st;
}

void job_change_free(struct job_change *ch)
{
    mm2_changes_free(&ch->c);
    cJSON_Delete(ch->rep);
    cJSON_Delete(ch->live_view);
    cJSON_Delete(ch->live);
    memset(ch, 0, sizeof(*ch));
}
