/* upplan: the plan of an update (see upplan.h). */
#include "upplan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clients.h"
#include "mm2_check.h"
#include "mm2_connlive.h"
#include "mm2_json.h"
#include "stopped.h"

/* One topic the update starts. */
struct todo {
    const char *topic;
    int32_t n;
    enum mm2_start_mode mode;
};

struct ctx {
    struct job *j;
    const struct job_upplan_in *in;
    struct mm2_topic_list src, tgt;
    struct mm2_source_offsets o;
    const char *stored_alias; /* the key the stored offsets are read under: the live alias */
    bool reset_latest;
    struct mm2_plan *p;
    cJSON *starts;
    struct mm2_refusals *r;
};

static int by_topic(const void *a, const void *b)
{
    return strcmp(((const struct todo *)a)->topic, ((const struct todo *)b)->topic);
}

static const char *str(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

    return cJSON_IsString(v) ? v->valuestring : "";
}

/* Whether the target's last record below te is the copy of the source record at prev. */
static enum mm2_status last_copy(struct ctx *x, const char *topic, const char *tt, int32_t p,
                                 int64_t prev, int64_t te, bool *eq, struct mm2_error *err)
{
    struct mm2_record_list s = {0}, t = {0};
    struct mm2_deadline dl;
    enum mm2_status st;

    *eq = false;
    job_kafka_deadline(x->j, &dl);
    st = mm2_kafka_read(x->j->source, topic, p, prev, prev + 1, 1, false, &dl, &s, err);
    if (st == MM2_OK)
        st = mm2_kafka_read(x->j->target, tt, p, te > 8 ? te - 8 : 0, te, 8, true, &dl, &t, err);
    if (st == MM2_OK && s.n == 1 && t.n > 0 && s.v[0].offset == prev)
        *eq = mm2_check_differs(&s.v[0], &t.v[t.n - 1])[0] == '\0';
    mm2_record_list_free(&s);
    mm2_record_list_free(&t);
    return st;
}

/* The facts of partition p of a topic, for mode. */
static enum mm2_status facts(struct ctx *x, const struct todo *d, const char *tt, int32_t p,
                             const int64_t *ends[4], struct mm2_start_facts *f,
                             struct mm2_error *err)
{
    const char *alias = d->mode == MM2_START_STORED ? x->j->conn.alias : x->stored_alias;
    const struct mm2_source_offset *s = mm2_source_offsets_find(&x->o, alias, d->topic, p);
    int64_t prev;

    *f = (struct mm2_start_facts){ends[0][p],
                                  ends[1][p],
                                  ends[2][p],
                                  s != NULL ? s->offset : -1,
                                  ends[3] != NULL ? ends[3][p] : -1,
                                  false,
                                  x->reset_latest};
    prev = d->mode == MM2_START_FLINK ? f->committed - 1 : f->stored;
    if ((d->mode == MM2_START_FLINK || d->mode == MM2_START_STORED || d->mode == MM2_START_CARRY) &&
        f->target_end > 0 && prev >= f->log_start && prev < f->log_end)
        return last_copy(x, d->topic, tt, p, prev, f->target_end, &f->target_last_copy, err);
    return MM2_OK;
}

/* Appends the topic to the plan's topics (sorted: the todos are). */
static enum mm2_status add_topic(struct ctx *x, const struct todo *d, const char *tt, int32_t tn,
                                 struct mm2_error *err)
{
    struct mm2_xtopic *v = realloc(x->p->topics, (x->p->ntopics + 1) * sizeof(*v));

    if (v == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    x->p->topics = v;
    v = &v[x->p->ntopics];
    memset(v, 0, sizeof(*v));
    v->name = strdup(d->topic);
    v->target = strdup(tt);
    v->flink_target = strdup(tt);
    v->partitions = d->n;
    v->target_partitions = tn > 0 ? tn : d->n;
    v->replicated = true;
    x->p->ntopics++;
    return v->name != NULL && v->target != NULL && v->flink_target != NULL
               ? MM2_OK
               : mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
}

/* The start of one partition: an entry, or a refusal; the counts of what it copies again or
 * never copies into *again and *never. */
static enum mm2_status plan_part(struct ctx *x, const struct todo *d, const char *tt, int32_t p,
                                 const struct mm2_start_facts *f, int64_t *again, int64_t *never,
                                 struct mm2_error *err)
{
    struct mm2_pentry e = {0}, *v;
    char why[400], what[300];

    if (!mm2_start_entry(d->mode, f, &e, why, sizeof(why))) {
        mm2_refuse(x->r, "%s-%d: a start at %s is refused: %s", d->topic, (int)p,
                   mm2_start_mode_name(d->mode), why);
        return MM2_OK;
    }
    mm2_start_consequence(d->mode, f, what, sizeof(what));
    if (what[0] != '\0')
        job_warn(x->j, "%s-%d: a start at %s %s", d->topic, (int)p, mm2_start_mode_name(d->mode),
                 what);
    if (d->mode == MM2_START_EARLIEST)
        *again += f->committed >= f->log_start && f->committed <= f->log_end
                      ? f->committed - f->log_start
                      : 0;
    if (d->mode == MM2_START_LATEST)
        *never += f->committed >= f->log_start && f->committed <= f->log_end
                      ? f->log_end - f->committed
                      : f->log_end - f->log_start;
    v = realloc(x->p->entries, (x->p->n + 1) * sizeof(*v));
    if (v == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    x->p->entries = v;
    e.topic = strdup(d->topic);
    e.target_topic = strdup(tt);
    e.partition = p;
    v[x->p->n++] = e;
    return e.topic != NULL && e.target_topic != NULL
               ? MM2_OK
               : mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
}

/* The offsets of the topic's n partitions: source start, end, Flink's committed, target end. */
static enum mm2_status read_ends(struct ctx *x, const struct todo *d, const char *tt, bool target,
                                 int64_t *v[5], struct mm2_error *err)
{
    struct mm2_tp *tps = calloc((size_t)d->n, sizeof(*tps));
    struct mm2_deadline dl;
    enum mm2_status st;

    if (tps == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    for (int32_t p = 0; p < d->n; p++)
        tps[p] = (struct mm2_tp){d->topic, p};
    job_kafka_deadline(x->j, &dl);
    st = mm2_kafka_log_offsets(x->j->source, tps, (size_t)d->n, v[0], v[1], NULL, &dl, err);
    /* Flink's offsets only where the start is from them or costs records against them. */
    for (int32_t p = 0; p < d->n; p++)
        v[2][p] = -1;
    if (st == MM2_OK && d->mode != MM2_START_STORED && d->mode != MM2_START_CARRY)
        st = mm2_kafka_committed(x->j->source, x->j->cfg.group, tps, (size_t)d->n, v[2], &dl, err);
    for (int32_t p = 0; target && p < d->n; p++)
        tps[p].topic = tt;
    if (st == MM2_OK && target)
        st = mm2_kafka_log_offsets(x->j->target, tps, (size_t)d->n, v[4], v[3], NULL, &dl, err);
    free(tps);
    return st;
}

/* Every partition of one topic. */
static enum mm2_status plan_topic(struct ctx *x, const struct todo *d, struct mm2_error *err)
{
    char tt[512];
    const struct mm2_topic_meta *tm;
    int64_t *v[5] = {0}, again = 0, never = 0;
    enum mm2_status st = MM2_OK;
    cJSON *e;

    if (mm2_mirror_target_topic(x->j->mirror, d->topic, tt, sizeof(tt)) != 0)
        return mm2_error_set(err, MM2_CONFIG, "%s: its target topic name is too long", d->topic);
    tm = mm2_topics_find(&x->tgt, tt);
    if (tm != NULL && tm->partitions != d->n) {
        mm2_refuse(x->r,
                   "%s: its target topic %s has %d partitions, the source %d: MM2 would write "
                   "each source partition into the target partition of its number; make them "
                   "equal first",
                   d->topic, tt, (int)tm->partitions, (int)d->n);
        return MM2_OK;
    }
    for (size_t i = 0; i < 5 && st == MM2_OK; i++)
        if ((v[i] = calloc((size_t)d->n, sizeof(int64_t))) == NULL)
            st = mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    if (st == MM2_OK)
        st = read_ends(x, d, tt, tm != NULL, v, err);
    if (st == MM2_OK)
        st = add_topic(x, d, tt, tm != NULL ? tm->partitions : 0, err);
    for (int32_t p = 0; st == MM2_OK && p < d->n; p++) {
        struct mm2_start_facts f;
        const int64_t *ends[4] = {v[0], v[1], v[2], tm != NULL ? v[3] : NULL};
        st = facts(x, d, tt, p, ends, &f, err);
        if (st == MM2_OK)
            st = plan_part(x, d, tt, p, &f, &again, &never, err);
    }
    e = cJSON_CreateObject();
    if (st == MM2_OK && e != NULL) {
        cJSON_AddStringToObject(e, "topic", d->topic);
        cJSON_AddStringToObject(e, "mode", mm2_start_mode_name(d->mode));
        cJSON_AddItemToObject(e, "partitions", mm2_json_int(d->n));
        cJSON_AddItemToObject(e, "copied_again", mm2_json_int(again));
        cJSON_AddItemToObject(e, "never_copied", mm2_json_int(never));
        cJSON_AddItemToArray(x->starts, e);
        e = NULL;
    }
    cJSON_Delete(e);
    for (size_t i = 0; i < 5; i++)
        free(v[i]);
    return st;
}

/* The --start given for topic, or NULL. */
static const struct job_start *start_of(const struct job_upplan_in *in, const char *topic)
{
    for (size_t i = 0; i < in->nstarts; i++)
        if (strcmp(in->starts[i].topic, topic) == 0)
            return &in->starts[i];
    return NULL;
}

/* The new topics (each needs its --start) and, with --carry-over, the topics both configs
 * replicate: what the update starts, into *out (sorted). */
static enum mm2_status todos(struct ctx *x, const struct mm2_mirror *before, struct todo **out,
                             size_t *n, struct mm2_error *err)
{
    const cJSON *e;
    struct todo *v = calloc(x->src.n + 1, sizeof(*v));

    *out = v;
    *n = 0;
    if (v == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(x->in->ch->rep, "topics_new"))
    {
        const struct job_start *s = start_of(x->in, str(e, "topic"));
        const struct mm2_topic_meta *m = mm2_topics_find(&x->src, str(e, "topic"));
        if (s == NULL || m == NULL) {
            mm2_refuse(x->r,
                       "new topic: %s; give --start %s=flink (from Flink's committed offsets, "
                       "if Flink copied it), =earliest or =latest%s",
                       str(e, "why"), str(e, "topic"),
                       cJSON_GetObjectItem(e, "stored_partitions")->valueint > 0 ? " or =stored"
                                                                                 : "");
            continue;
        }
        v[(*n)++] = (struct todo){m->name, m->partitions, s->mode};
    }
    for (size_t i = 0; x->in->carry_over && before != NULL && i < x->src.n; i++)
        if (mm2_mirror_replicates(before, x->src.v[i].name) &&
            mm2_mirror_replicates(x->j->mirror, x->src.v[i].name))
            v[(*n)++] = (struct todo){x->src.v[i].name, x->src.v[i].partitions, MM2_START_CARRY};
    qsort(v, *n, sizeof(*v), by_topic);
    return MM2_OK;
}

/* What the change is refused for before any partition is looked at. */
static void refuse_change(struct ctx *x)
{
    const struct job_change *ch = x->in->ch;
    bool moves = ch->worst == MM2_CHANGE_MOVES_OFFSETS;

    if (!ch->exists)
        mm2_refuse(x->r,
                   "connector %s does not exist: creating it is the cutover (preflight, "
                   "export, plan, apply), not an update",
                   x->j->conn.name);
    if (cJSON_GetObjectItem(ch->rep, "topics_unknown") != NULL)
        mm2_refuse(x->r, "topics: cannot tell which topics are new or gone: %s",
                   str(ch->rep, "topics_unknown"));
    for (size_t i = 0; moves && !x->in->carry_over && i < ch->c.n; i++)
        if (ch->c.v[i].cls == MM2_CHANGE_MOVES_OFFSETS)
            mm2_refuse(x->r,
                       "%s: %s; give --carry-over to carry every stored offset over to the new "
                       "key (stop the connector first), or keep the old value",
                       ch->c.v[i].key, ch->c.v[i].meaning);
    if (x->in->carry_over && !moves)
        mm2_refuse(x->r, "--carry-over: no change of this update moves offsets");
    for (size_t i = 0; i < x->in->nstarts; i++) {
        const cJSON *e;
        bool found = false;
        cJSON_ArrayForEach(e, cJSON_GetObjectItem(ch->rep, "topics_new"))
        {
            found = found || strcmp(str(e, "topic"), x->in->starts[i].topic) == 0;
        }
        if (!found)
            mm2_refuse(x->r, "--start %s: not a topic this change adds", x->in->starts[i].topic);
    }
}

/* Offsets carried over must be the last the connector stored: it must be stopped. */
static enum mm2_status carry_stopped(struct ctx *x, struct mm2_error *err)
{
    struct mm2_connlive v;
    char line[MM2_REFUSAL_LEN];

    if (mm2_connlive_read(x->j->connect, x->j->conn.name, &v, err) != MM2_OK)
        return err->code;
    if (job_stop_problem(x->j, x->j->conn.name, &v, MM2_VERIFY_WHY_HOLD,
                         "then plan the update again", line, sizeof(line)))
        mm2_refuse(x->r,
                   "--carry-over needs the connector stopped, so that the offsets carried over "
                   "are its last (mm2-offsets stop --config %s): %s",
                   x->j->cfg.path, line);
    return MM2_OK;
}

/* The plan's own fields: the migration it belongs to, the config it moves to. */
static enum mm2_status header(struct ctx *x, const char *version, struct mm2_error *err)
{
    struct mm2_plan *p = x->p;
    struct mm2_deadline dl;
    enum mm2_status st = MM2_OK;

    job_utc_now(p->created, sizeof(p->created));
    (void)snprintf(p->connect_version, sizeof(p->connect_version), "%s", version);
    (void)snprintf(p->connector, sizeof(p->connector), "%s", x->j->conn.name);
    (void)snprintf(p->alias, sizeof(p->alias), "%s", x->j->conn.alias);
    (void)snprintf(p->group, sizeof(p->group), "%s", x->j->cfg.group);
    memcpy(p->config_digest, x->j->conn.digest, sizeof(p->config_digest));
    p->config_view = cJSON_Duplicate(x->j->conn.view, true);
    if (mm2_connector_config_digest(x->in->ch->live, x->j->conn.name, p->export_digest, err) !=
        MM2_OK)
        return err->code;
    job_kafka_deadline(x->j, &dl);
    if (x->j->cfg.source_cluster_id != NULL)
        (void)snprintf(p->source_cluster, sizeof(p->source_cluster), "%s",
                       x->j->cfg.source_cluster_id);
    else
        st = mm2_kafka_cluster_id(x->j->source, &dl, p->source_cluster, sizeof(p->source_cluster),
                                  err);
    if (st == MM2_OK && x->j->cfg.target_cluster_id != NULL)
        (void)snprintf(p->target_cluster, sizeof(p->target_cluster), "%s",
                       x->j->cfg.target_cluster_id);
    else if (st == MM2_OK)
        st = mm2_kafka_cluster_id(x->j->target, &dl, p->target_cluster, sizeof(p->target_cluster),
                                  err);
    return st != MM2_OK || p->config_view != NULL
               ? st
               : mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
}

/* The "update" member. */
static cJSON *member(const struct ctx *x, const char *from_alias)
{
    const struct job_change *ch = x->in->ch;
    cJSON *u = cJSON_CreateObject(), *c;

    if (u == NULL)
        return NULL;
    cJSON_AddStringToObject(u, "from_config_digest", x->p->export_digest);
    cJSON_AddItemToObject(u, "from_config", cJSON_Duplicate(ch->live_view, true));
    cJSON_AddStringToObject(u, "class", mm2_change_class_name(ch->worst));
    cJSON_AddItemToObject(u, "changes",
                          cJSON_Duplicate(cJSON_GetObjectItem(ch->rep, "changes"), true));
    cJSON_AddItemToObject(u, "starts", cJSON_Duplicate(x->starts, true));
    if (x->in->carry_over && (c = cJSON_AddObjectToObject(u, "carry_over")) != NULL) {
        cJSON_AddStringToObject(c, "from_alias", from_alias);
        cJSON_AddStringToObject(c, "to_alias", x->j->conn.alias);
    } else {
        cJSON_AddNullToObject(u, "carry_over");
    }
    c = cJSON_GetObjectItem(ch->rep, "topics_removed");
    cJSON_AddItemToObject(u, "topics_removed",
                          c != NULL ? cJSON_Duplicate(c, true) : cJSON_CreateArray());
    return u;
}

/* Reads what the starts need, then plans each. */
static enum mm2_status plan_all(struct ctx *x, struct mm2_error *err)
{
    struct mm2_connect_info info;
    struct mm2_mirror *before = NULL;
    struct mm2_deadline dl;
    struct todo *v = NULL;
    size_t n = 0;
    enum mm2_status st = mm2_connect_info(x->j->connect, &info, err);

    if (st == MM2_OK)
        st = job_kafka(x->j, true, true, err);
    if (st == MM2_OK)
        st = job_mirror(x->j, info.version, err);
    if (st == MM2_OK && x->in->carry_over &&
        mm2_mirror_new(x->in->ch->live, info.version, &before, err) != MM2_OK)
        st = mm2_error_prefix(err, "the running connector's topic filter");
    job_kafka_deadline(x->j, &dl);
    if (st == MM2_OK)
        st = mm2_kafka_topics(x->j->source, &dl, &x->src, err);
    if (st == MM2_OK)
        st = mm2_kafka_topics(x->j->target, &dl, &x->tgt, err);
    if (st == MM2_OK)
        st = mm2_connect_offsets(x->j->connect, x->j->conn.name, &x->o, err);
    if (st == MM2_OK)
        st = todos(x, before, &v, &n, err);
    for (size_t i = 0; st == MM2_OK && x->r->n == 0 && i < n; i++)
        st = plan_topic(x, &v[i], err);
    if (st == MM2_OK)
        st = header(x, info.version, err);
    free(v);
    mm2_mirror_free(before);
    return st;
}

enum mm2_status job_upplan(struct job *j, const struct job_upplan_in *in, struct mm2_plan *plan,
                           cJSON **update, struct mm2_refusals *r, struct mm2_error *err)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(in->ch->live, "source.cluster.alias");
    struct ctx x = {.j = j, .in = in, .p = plan, .r = r, .starts = cJSON_CreateArray()};
    enum mm2_status st = MM2_OK;

    memset(plan, 0, sizeof(*plan));
    *update = NULL;
    x.stored_alias = cJSON_IsString(a) ? a->valuestring : j->conn.alias;
    x.reset_latest = strcmp(job_change_reset(j->conn.config), "latest") == 0;
    if (x.starts == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    refuse_change(&x);
    if (r->n == 0 && in->carry_over)
        st = carry_stopped(&x, err);
    if (st == MM2_OK && r->n == 0)
        st = plan_all(&x, err);
    if (st == MM2_OK && r->n == 0 && (*update = member(&x, x.stored_alias)) == NULL)
        st = mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    mm2_topic_list_free(&x.src);
    mm2_topic_list_free(&x.tgt);
    mm2_source_offsets_free(&x.o);
    cJSON_Delete(x.starts);
    return st;
}
