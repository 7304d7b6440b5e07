/* export: the Flink group's committed C, the source log start/end, the target's high watermark
 * and last stable offset, read twice --stable-wait apart, and how Flink is known to have
 * stopped (docs/ARCHITECTURE.md §3.4). Writes the export artifact; touches nothing. */
#include "export.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind.h"
#include "clients.h"
#include "load.h"
#include "mm2_artifact.h"
#include "mm2_cli.h"
#include "mm2_http.h"
#include "mm2_json.h"
#include "mm2_tail.h"
#include "options.h"
#include "tconfigs.h"
#include "trail.h"

#define DEFAULT_STABLE_WAIT_MS 30000L

/* The codes it exits with (docs/ARCHITECTURE.md §5), as --help states them. */
static const struct mm2_exit_note exit_notes[] = {
    {MM2_OK, "the export written"},
    {MM2_USAGE, NULL},
    {MM2_CONFIG, "the INI file or the connector JSON"},
    {MM2_UNREACHABLE, "Kafka, Connect or Flink, or timed out"},
    {MM2_UNEXPECTED, "Kafka, Connect or Flink"},
};

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: " PROG " export --config FILE --out FILE [--stable-wait SECONDS]\n"
            "Reads, for every partition the connector will replicate: the Flink group's\n"
            "committed offset C, the source log start and end, and the target partition's high\n"
            "watermark and last stable offset; twice, SECONDS apart, so the plan can refuse\n"
            "anything that moved. Also the cluster ids, Connect's version and cluster, the\n"
            "group's state and the proof that Flink stopped ([flink] rest.url + job.id: the\n"
            "job's state; else offsets stable over more than checkpoint.interval.seconds).\n"
            "Then proves Flink's side of the boundary: the target partition's last committed\n"
            "records ([flink] tail.records) placed among the source records around C, so the\n"
            "plan knows whether the target is aligned with C, ahead of it (duplicates), behind\n"
            "it (records lost by an aborted transaction) or not a copy of that partition;\n"
            "read during the wait on the first read's offsets, and read again after the\n"
            "second only where those moved.\n"
            "Writes the export artifact (JSON with its digest) and prints its digest.\n"
            "\n"
            "Options:\n"
            "  -c, --config FILE          the migration INI file\n"
            "  -o, --out FILE             where to write the export\n"
            "  -w, --stable-wait SECONDS  time between the two reads (%ld; 1.5 checkpoint\n"
            "                             intervals when the interval is the proof); above\n"
            "                             Flink's checkpoint interval when that is the proof\n",
            DEFAULT_STABLE_WAIT_MS / 1000);
    job_usage_end(out, 29, exit_notes, sizeof(exit_notes) / sizeof(exit_notes[0]));
}

struct ctx {
    struct job *j;
    struct mm2_export ex;
    struct mm2_tp *src_tps; /* one per ex.parts */
    struct mm2_tp *tgt_tps; /* the target partitions that exist */
    size_t *tgt_of;         /* index into tgt_tps per part, or SIZE_MAX */
    size_t ntgt;
    int64_t *tgt_start[2]; /* the target log start offsets (ntgt), per read */
    /* The boundary read during the wait, on the first read's offsets: */
    struct mm2_tail_part *early;      /* its inputs by part index; source_topic NULL: not read */
    struct mm2_bnd_result *early_res; /* its results, by part index */
    struct mm2_tail_stats stats;      /* both reads' */
};

/* GET {rest.url}/jobs/{job.id}: the job's state. */
static enum mm2_status flink_state(struct job *j, char *state, size_t len, struct mm2_error *err)
{
    struct mm2_http *h = NULL;
    struct mm2_http_response r;
    struct mm2_deadline dl;
    char path[64];
    cJSON *root;
    const cJSON *s;
    enum mm2_status st;

    st = mm2_http_new(j->cfg.flink_rest_url, PROG "/" MM2KIT_VERSION, MM2_FLINK_BODY_MAX, &h, err);
    if (st != MM2_OK)
        return mm2_error_prefix(err, "[flink] rest.url");
    (void)snprintf(path, sizeof(path), "/jobs/%s", j->cfg.flink_job_id);
    mm2_deadline_start(&dl, j->cfg.request_timeout_ms);
    st = mm2_http_get(h, path, &dl, &r, err);
    mm2_http_free(h);
    if (st != MM2_OK)
        return mm2_error_prefix(err, "Flink REST GET %s", path);
    if (r.status == 404) {
        mm2_http_response_free(&r);
        return mm2_error_set(err, MM2_UNEXPECTED,
                             "Flink REST GET %s: HTTP 404: no such job; check [flink] job.id",
                             path);
    }
    if (r.status != 200) {
        long code = r.status;
        mm2_http_response_free(&r);
        return mm2_error_set(err, MM2_UNEXPECTED, "Flink REST GET %s: HTTP %ld", path, code);
    }
    root = cJSON_ParseWithLength(r.body, r.len);
    mm2_http_response_free(&r);
    s = mm2_json_get(root, "state", MM2_JSON_STRING, "Flink job", err);
    if (s == NULL) {
        cJSON_Delete(root);
        return mm2_error_prefix(err, "Flink REST GET %s", path);
    }
    (void)snprintf(state, len, "%s", s->valuestring);
    cJSON_Delete(root);
    return MM2_OK;
}

/* Source topic src as the export records it: replicated or not, and if so where MM2 writes it
 * (tgt: the target's topics) and where Flink wrote it. */
static enum mm2_status add_topic(struct ctx *x, const struct mm2_topic_meta *src,
                                 const struct mm2_topic_list *tgt, struct mm2_error *err)
{
    struct job *j = x->j;
    struct mm2_xtopic *t = &x->ex.topics[x->ex.ntopics++];
    char target[256];
    const struct mm2_topic_meta *tm;

    t->name = strdup(src->name);
    t->partitions = src->partitions;
    t->target_partitions = -1;
    if (t->name == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    t->replicated = mm2_mirror_replicates(j->mirror, t->name);
    if (!t->replicated)
        return MM2_OK;
    if (mm2_mirror_target_topic(j->mirror, t->name, target, sizeof(target)) != 0)
        return mm2_error_set(err, MM2_CONFIG, "topic %.200s: the target topic name is too long",
                             t->name);
    t->target = strdup(target);
    t->flink_target = strdup(mm2_config_flink_target(&j->cfg, t->name));
    if (t->target == NULL || t->flink_target == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    tm = mm2_topics_find(tgt, target);
    t->target_partitions = tm != NULL ? tm->partitions : -1;
    return MM2_OK;
}

/* One export entry per partition of each replicated topic (np in all), and the partition lists
 * of both reads; a target partition that does not exist is not read. */
static enum mm2_status add_partitions(struct ctx *x, size_t np, struct mm2_error *err)
{
    struct mm2_export *ex = &x->ex;

    ex->parts = np > 0 ? calloc(np, sizeof(*ex->parts)) : NULL;
    x->src_tps = calloc(np > 0 ? np : 1, sizeof(*x->src_tps));
    x->tgt_tps = calloc(np > 0 ? np : 1, sizeof(*x->tgt_tps));
    x->tgt_of = calloc(np > 0 ? np : 1, sizeof(*x->tgt_of));
    if ((np > 0 && ex->parts == NULL) || x->src_tps == NULL || x->tgt_tps == NULL ||
        x->tgt_of == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    for (size_t i = 0; i < ex->ntopics; i++) {
        const struct mm2_xtopic *t = &ex->topics[i];
        for (int32_t p = 0; t->replicated && p < t->partitions; p++) {
            struct mm2_xpart *xp = &ex->parts[ex->nparts];
            xp->topic = strdup(t->name);
            if (xp->topic == NULL)
                return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
            xp->partition = p;
            x->src_tps[ex->nparts].topic = xp->topic;
            x->src_tps[ex->nparts].partition = p;
            x->tgt_of[ex->nparts] = (size_t)-1;
            if (p < t->target_partitions) {
                x->tgt_tps[x->ntgt].topic = t->target;
                x->tgt_tps[x->ntgt].partition = p;
                x->tgt_of[ex->nparts] = x->ntgt++;
            }
            ex->nparts++;
        }
    }
    return MM2_OK;
}

/* Topics and partitions: what the connector replicates and where it writes them. */
static enum mm2_status layout(struct ctx *x, struct mm2_error *err)
{
    struct job *j = x->j;
    struct mm2_export *ex = &x->ex;
    struct mm2_topic_list src = {0}, tgt = {0};
    struct mm2_deadline dl;
    enum mm2_status st;
    size_t np = 0;

    job_kafka_deadline(j, &dl);
    st = mm2_kafka_topics(j->source, &dl, &src, err);
    if (st == MM2_OK) {
        job_kafka_deadline(j, &dl);
        st = mm2_kafka_topics(j->target, &dl, &tgt, err);
    }
    if (st == MM2_OK && src.n > 0) {
        ex->topics = calloc(src.n, sizeof(*ex->topics));
        if (ex->topics == NULL)
            st = mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    }
    for (size_t i = 0; st == MM2_OK && i < src.n; i++) {
        st = add_topic(x, &src.v[i], &tgt, err);
        if (st == MM2_OK && ex->topics[i].replicated)
            np += (size_t)ex->topics[i].partitions;
    }
    if (st == MM2_OK)
        st = add_partitions(x, np, err);
    mm2_topic_list_free(&src);
    mm2_topic_list_free(&tgt);
    return st;
}

/* The target's half of a read, on a thread of its own: the two clusters answer in parallel, and
 * librdkafka 2.0.2 spends its time matching a ListOffsets answer to the list asked, partition by
 * partition (quadratic), so two lists of 10,000 take one list's time side by side. */
struct target_read {
    struct mm2_kafka *k;
    const struct mm2_tp *tps;
    size_t n;
    int64_t *start;
    int64_t *hw;
    int64_t *lso;
    long timeout_ms;
    enum mm2_status st;
    struct mm2_error err;
    long ms;
};

static void *read_target(void *arg)
{
    struct target_read *t = arg;
    struct mm2_deadline dl;
    long t0 = mm2_deadline_now_ms();

    mm2_deadline_start(&dl, t->timeout_ms);
    t->st = t->n > 0
                ? mm2_kafka_log_offsets(t->k, t->tps, t->n, t->start, t->hw, t->lso, &dl, &t->err)
                : MM2_OK;
    t->ms = mm2_deadline_now_ms() - t0;
    return NULL;
}

/* One read (r = 0 or 1) of every offset. */
static enum mm2_status read_all(struct ctx *x, int r, struct mm2_error *err)
{
    struct job *j = x->j;
    struct mm2_export *ex = &x->ex;
    size_t n = ex->nparts;
    int64_t *c = calloc(n + 1, sizeof(*c)), *s = calloc(n + 1, sizeof(*s));
    int64_t *e = calloc(n + 1, sizeof(*e)), *hw = calloc(x->ntgt + 1, sizeof(*hw));
    int64_t *lso = calloc(x->ntgt + 1, sizeof(*lso));
    struct target_read tr = {.k = j->target,
                             .tps = x->tgt_tps,
                             .n = x->ntgt,
                             .start = x->tgt_start[r],
                             .hw = hw,
                             .lso = lso,
                             .timeout_ms = j->cfg.request_timeout_ms};
    struct mm2_deadline dl;
    enum mm2_status st = MM2_OK;
    pthread_t thread;
    bool threaded = false;
    long t0, t1, t2;

    if (c == NULL || s == NULL || e == NULL || hw == NULL || lso == NULL) {
        st = mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
        goto out;
    }
    t0 = mm2_deadline_now_ms();
    threaded = pthread_create(&thread, NULL, read_target, &tr) == 0;
    if (!threaded)
        read_target(&tr); /* no thread to be had: one after the other */
    job_kafka_deadline(j, &dl);
    if (n > 0)
        st = mm2_kafka_committed(j->source, ex->group, x->src_tps, n, c, &dl, err);
    t1 = mm2_deadline_now_ms();
    job_kafka_deadline(j, &dl);
    if (st == MM2_OK && n > 0)
        st = mm2_kafka_log_offsets(j->source, x->src_tps, n, s, e, NULL, &dl, err);
    t2 = mm2_deadline_now_ms();
    if (threaded)
        (void)pthread_join(thread, NULL);
    mm2_log_debug(&j->log,
                  "read %d: committed offsets %ld ms, source logs %ld ms, target logs %ld ms "
                  "(in parallel), %ld ms in all",
                  r + 1, t1 - t0, t2 - t1, tr.ms, mm2_deadline_now_ms() - t0);
    if (st == MM2_OK && tr.st != MM2_OK) {
        *err = tr.err;
        st = tr.st;
    }
    if (st != MM2_OK)
        goto out;
    for (size_t i = 0; i < n; i++) {
        struct mm2_xpart *p = &ex->parts[i];
        p->committed[r] = c[i] >= 0 ? c[i] : MM2_OFFSET_NONE;
        p->log_start[r] = s[i];
        p->log_end[r] = e[i];
        p->target_hw[r] = x->tgt_of[i] != (size_t)-1 ? hw[x->tgt_of[i]] : -1;
        p->target_lso[r] = x->tgt_of[i] != (size_t)-1 ? lso[x->tgt_of[i]] : -1;
    }
out:
    free(c);
    free(s);
    free(e);
    free(hw);
    free(lso);
    return st;
}

/* Whether each replicated source topic is compacted (its cleanup.policy), read from the source
 * rather than guessed: a compacted window's holes are records gone, not a copy's mismatch. */
static enum mm2_status source_policies(struct ctx *x, struct mm2_error *err)
{
    struct mm2_export *ex = &x->ex;
    const char **names = calloc(ex->ntopics + 1, sizeof(*names));
    bool *compacted = calloc(ex->ntopics + 1, sizeof(*compacted));
    struct mm2_deadline dl;
    enum mm2_status st = MM2_OK;
    size_t n = 0;

    if (names == NULL || compacted == NULL)
        st = mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    for (size_t i = 0; st == MM2_OK && i < ex->ntopics; i++)
        if (ex->topics[i].replicated)
            names[n++] = ex->topics[i].name;
    job_kafka_deadline(x->j, &dl);
    if (st == MM2_OK && n > 0)
        st = mm2_kafka_compacted(x->j->source, names, n, compacted, &dl, err);
    for (size_t i = 0, t = 0; st == MM2_OK && i < ex->ntopics; i++)
        if (ex->topics[i].replicated)
            ex->topics[i].compacted = compacted[t++];
    free(names);
    free(compacted);
    return st;
}

/* The target topics' configs (mm2_export_config_keys), for accept to compare after the cutover.
 * A login that may not DescribeConfigs them records none, with a warning: the cutover does not
 * need them, accept then says it cannot compare. */
static enum mm2_status target_configs(struct ctx *x, struct mm2_error *err)
{
    struct mm2_export *ex = &x->ex;
    const char **names = calloc(ex->ntopics + 1, sizeof(*names));
    cJSON **got = calloc(ex->ntopics + 1, sizeof(*got));
    size_t *of = calloc(ex->ntopics + 1, sizeof(*of));
    size_t n = 0, missing = 0;
    enum mm2_status st = MM2_OK;

    if (names == NULL || got == NULL || of == NULL)
        st = mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    for (size_t i = 0; st == MM2_OK && i < ex->ntopics; i++)
        if (ex->topics[i].replicated && ex->topics[i].target_partitions > 0) {
            of[n] = i;
            names[n++] = ex->topics[i].target;
        }
    if (st == MM2_OK && n > 0)
        st = job_topic_configs(x->j, names, n, got, err);
    for (size_t t = 0; st == MM2_OK && t < n; t++) {
        ex->topics[of[t]].target_configs = got[t];
        if (got[t] == NULL && missing++ == 0)
            job_warn(x->j,
                     "target topic %s: its configs not recorded (no DescribeConfigs for the "
                     "[target] login: docs/acls.md); accept will not compare them",
                     names[t]);
    }
    free(names);
    free(got);
    free(of);
    return st;
}

/* The memory the boundary read's records may take at once (mm2_tail.h; a larger tail.bytes
 * raises it to two reads of tail.bytes). */
#define BOUNDARY_MEMORY (64L * 1024 * 1024)

static void boundary_counts(struct job *j, const struct mm2_export *ex,
                            const struct mm2_tail_stats *stats, size_t memory)
{
    size_t count[MM2_BND_UNREAD + 1] = {0};
    char line[512];
    int at = 0;

    for (size_t i = 0; i < ex->nparts; i++)
        if (ex->parts[i].boundary_read && ex->parts[i].boundary.cls <= MM2_BND_UNREAD)
            count[ex->parts[i].boundary.cls]++;
    for (int c = 0; c <= MM2_BND_UNREAD && at < (int)sizeof(line) - 40; c++)
        if (count[c] > 0)
            at += snprintf(line + at, sizeof(line) - (size_t)at, "%s%zu %s", at > 0 ? ", " : "",
                           count[c], mm2_bnd_class_name((enum mm2_bnd_class)c));
    job_info(j,
             "boundary: the target's tails against the source around C: %s (%zu records, %ld "
             "requests, %ld ms)",
             at > 0 ? line : "nothing to compare", stats->records, stats->requests, stats->ms);
    mm2_log_debug(&j->log,
                  "boundary: the target's tails %ld ms beside the source's windows %ld ms; %zu "
                  "reads in %zu round(s), %zu range(s) deferred by the %zu MiB memory cap",
                  stats->tail_ms, stats->window_ms, stats->reads, stats->rounds, stats->deferred,
                  memory >> 20);
}

static void stats_add(struct mm2_tail_stats *to, const struct mm2_tail_stats *s)
{
    to->requests += s->requests;
    to->ms += s->ms;
    to->records += s->records;
    to->cut += s->cut;
    to->rounds += s->rounds;
    to->reads += s->reads;
    to->deferred += s->deferred;
    to->tail_ms += s->tail_ms;
    to->window_ms += s->window_ms;
}

static void boundary_params(const struct job *j, struct mm2_tail_params *prm)
{
    *prm = (struct mm2_tail_params){(size_t)j->cfg.tail_records,
                                    (size_t)j->cfg.tail_window,
                                    (size_t)j->cfg.tail_bytes,
                                    0,
                                    {j->cfg.headers_preserved, j->cfg.timestamps_preserved}};
    prm->memory =
        (size_t)(BOUNDARY_MEMORY > 2 * j->cfg.tail_bytes ? BOUNDARY_MEMORY : 2 * j->cfg.tail_bytes);
}

/* Part i's boundary inputs as read r saw them (false: no C, nothing to place). */
static bool boundary_part(const struct ctx *x, size_t i, size_t xt, int r, struct mm2_tail_part *tp)
{
    const struct mm2_xpart *p = &x->ex.parts[i];
    size_t t = x->tgt_of[i];

    if (p->committed[r] < 0)
        return false; /* no C: the plan refuses it (no-offset) */
    *tp = (struct mm2_tail_part){p->topic,
                                 t != (size_t)-1 ? x->tgt_tps[t].topic : NULL,
                                 p->partition,
                                 p->committed[r],
                                 p->log_start[r],
                                 p->log_end[r],
                                 t != (size_t)-1 ? x->tgt_start[r][t] : 0,
                                 p->target_lso[r],
                                 x->ex.topics[xt].compacted};
    return true;
}

/* What read r found for the m partitions of[]: read 0's kept for the second (x->early*), read 1's
 * put in the export. */
static enum mm2_status keep_boundary(struct ctx *x, int r, const struct mm2_tail_part *tp,
                                     const struct mm2_bnd_result *res, const size_t *of, size_t m,
                                     struct mm2_error *err)
{
    struct mm2_export *ex = &x->ex;

    if (r == 0 && m > 0) {
        x->early = calloc(ex->nparts, sizeof(*x->early));
        x->early_res = calloc(ex->nparts, sizeof(*x->early_res));
        if (x->early == NULL || x->early_res == NULL)
            return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    }
    for (size_t q = 0; q < m; q++) {
        if (r == 0) {
            x->early[of[q]] = tp[q];
            x->early_res[of[q]] = res[q];
        } else {
            ex->parts[of[q]].boundary = res[q];
            ex->parts[of[q]].boundary_read = true;
        }
    }
    return MM2_OK;
}

/* After the second read: the classes, and how much of the read the wait took (read: the
 * partitions read again, kept: those the early read settled). */
static void boundary_done(struct ctx *x, const struct mm2_tail_params *prm, size_t read,
                          size_t kept)
{
    struct job *j = x->j;

    if (prm->k == 0) {
        job_warn(j, "boundary: not proven ([flink] tail.records = 0): plan cannot tell whether "
                    "a target is behind, ahead of or aligned with C");
        return;
    }
    boundary_counts(j, &x->ex, &x->stats, prm->memory);
    if (x->early != NULL && read == 0)
        job_info(j,
                 "boundary: %zu partitions read during the wait; none moved before the "
                 "second read",
                 kept);
    else if (x->early != NULL)
        job_info(j,
                 "boundary: %zu partitions read during the wait; %zu read again after the "
                 "second read (their offsets had moved)",
                 kept + read, read);
}

/* Flink's side of the boundary (mm2_tail.h): every partition with a committed offset, its
 * target's tail placed in the source around C. Read r = 0 reads during the wait, on the first
 * read's offsets, and keeps what it found in x->early*; read r = 1 keeps those of the early
 * results whose inputs the second read did not change (mm2_tail_same_read), reads the others,
 * and puts the class and evidence in the export. */
static enum mm2_status prove_boundary(struct ctx *x, int r, struct mm2_error *err)
{
    struct job *j = x->j;
    struct mm2_export *ex = &x->ex;
    struct mm2_tail_params prm;
    struct mm2_tail_part *tp = calloc(ex->nparts + 1, sizeof(*tp));
    struct mm2_bnd_result *res = calloc(ex->nparts + 1, sizeof(*res));
    size_t *of = calloc(ex->nparts + 1, sizeof(*of));
    struct mm2_tail_stats stats = {0};
    struct mm2_deadline dl;
    enum mm2_status st = MM2_OK;
    size_t m = 0, kept = 0, chunk = (size_t)j->cfg.tail_partitions;

    boundary_params(j, &prm);
    if (tp == NULL || res == NULL || of == NULL)
        st = mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    for (size_t i = 0, xt = 0; st == MM2_OK && prm.k > 0 && i < ex->nparts; i++) {
        while (xt + 1 < ex->ntopics && strcmp(ex->topics[xt].name, ex->parts[i].topic) != 0)
            xt++; /* both sorted by topic */
        if (!boundary_part(x, i, xt, r, &tp[m]))
            continue;
        if (r == 1 && x->early != NULL && x->early[i].source_topic != NULL &&
            mm2_tail_same_read(&x->early[i], &tp[m], &prm)) {
            ex->parts[i].boundary = x->early_res[i];
            ex->parts[i].boundary_read = true;
            kept++;
            continue;
        }
        of[m++] = i;
    }
    /* Reads of at most [flink] tail.partitions, one after the other: the clients' own memory
     * grows with the partitions assigned (about 9 KiB each, beside the records' cap), and
     * their CPU faster (docs/ARCHITECTURE.md §4.4); one read of 50,000 took 48 s and passed
     * 512 MiB. Between reads every handle goes (mm2_kafka_release), the two every call uses
     * included: a handle keeps the state of each partition it ever read, so keeping them grew
     * export by 16 to 29 MiB a read of 10,000 (bench/README.md, issue 37 §5). */
    for (size_t at = 0; st == MM2_OK && at < m; at += chunk) {
        size_t n = m - at < chunk ? m - at : chunk;
        struct mm2_tail_stats cs = {0};

        job_kafka_deadline(j, &dl);
        st = mm2_tail_classify(j->source, j->target, tp + at, n, &prm, &dl, res + at, &cs, err);
        stats_add(&stats, &cs);
        if (st == MM2_OK && m > chunk) {
            job_info(j, "boundary: %zu of %zu partitions read", at + n, m);
            mm2_kafka_release(j->source); /* hold one read's partitions, not all */
            mm2_kafka_release(j->target);
        }
    }
    if (st == MM2_OK)
        st = keep_boundary(x, r, tp, res, of, m, err);
    if (st == MM2_OK)
        stats_add(&x->stats, &stats);
    if (st == MM2_OK && r == 0 && m > 0)
        mm2_log_debug(&j->log,
                      "boundary: %zu partitions read on the first read's offsets in %ld ms", m,
                      stats.ms);
    else if (st == MM2_OK && r == 1)
        boundary_done(x, &prm, m, kept);
    else if (st != MM2_OK)
        (void)mm2_error_prefix(err, "boundary read");
    if (r == 1) { /* what the export's JSON will need is in ex->parts */
        free(x->early);
        free(x->early_res);
        x->early = NULL;
        x->early_res = NULL;
    }
    free(tp);
    free(res);
    free(of);
    return st;
}

/* Who is who: Connect's version and cluster, both clusters' ids (against the INI's pins), the
 * connector, Flink's job state when its REST API is given, and the group's state. Returns 0 or
 * the exit code. */
static int identify(struct ctx *x)
{
    struct job *j = x->j;
    struct mm2_export *ex = &x->ex;
    struct mm2_connect_info info;
    struct mm2_group_info g;
    struct mm2_deadline dl;
    struct mm2_error err = {0};

    if (job_connect(j, &err) != MM2_OK || job_kafka(j, true, true, &err) != MM2_OK ||
        mm2_connect_info(j->connect, &info, &err) != MM2_OK ||
        job_mirror(j, info.version, &err) != MM2_OK)
        return job_fail(j, &err);
    job_info(j, "Connect %s on Kafka cluster %s", info.version, info.kafka_cluster_id);
    (void)snprintf(ex->connect_version, sizeof(ex->connect_version), "%s", info.version);
    (void)snprintf(ex->connect_cluster, sizeof(ex->connect_cluster), "%s", info.kafka_cluster_id);
    job_kafka_deadline(j, &dl);
    if (mm2_kafka_cluster_id(j->source, &dl, ex->source_cluster, sizeof(ex->source_cluster),
                             &err) != MM2_OK)
        return job_fail(j, &err);
    job_kafka_deadline(j, &dl);
    if (mm2_kafka_cluster_id(j->target, &dl, ex->target_cluster, sizeof(ex->target_cluster),
                             &err) != MM2_OK)
        return job_fail(j, &err);
    if (job_pins_hold(j, ex->source_cluster, ex->target_cluster) != MM2_OK)
        return MM2_CONFIG;
    (void)snprintf(ex->connector, sizeof(ex->connector), "%s", j->conn.name);
    (void)snprintf(ex->alias, sizeof(ex->alias), "%s", j->conn.alias);
    memcpy(ex->config_digest, j->conn.digest, sizeof(ex->config_digest));
    ex->config_view = cJSON_Duplicate(j->conn.view, true);
    if (ex->config_view == NULL)
        return job_fail(j, &(struct mm2_error){MM2_UNEXPECTED, "out of memory"});
    (void)snprintf(ex->group, sizeof(ex->group), "%s", j->cfg.group);
    ex->checkpoint_interval_ms = j->cfg.checkpoint_interval_ms;
    if (j->cfg.flink_rest_url != NULL) {
        (void)snprintf(ex->flink_method, sizeof(ex->flink_method), "flink-rest");
        if (flink_state(j, ex->flink_job_state, sizeof(ex->flink_job_state), &err) != MM2_OK)
            return job_fail(j, &err);
        job_info(j, "Flink job %s is %s", j->cfg.flink_job_id, ex->flink_job_state);
    } else {
        (void)snprintf(ex->flink_method, sizeof(ex->flink_method), "stable-offsets");
    }
    job_kafka_deadline(j, &dl);
    if (mm2_kafka_group(j->source, j->cfg.group, &dl, &g, &err) != MM2_OK)
        return job_fail(j, &err);
    (void)snprintf(ex->group_state, sizeof(ex->group_state), "%s", g.state);
    ex->group_members = g.members;
    return MM2_OK;
}

/* Writes the export to out_path, says what it holds and prints its digest. The artifact is
 * streamed (mm2_export_write): its whole tree would take about 110 bytes a JSON value, 160 MB
 * at 50,000 partitions, above what the Job's 256 MiB leaves beside the clients. */
static int write_export(struct ctx *x, const char *out_path)
{
    struct mm2_export *ex = &x->ex;
    struct mm2_error err = {0};
    char digest[MM2_DIGEST_TEXT_LEN + 1];
    size_t moved = 0, none = 0;

    for (size_t i = 0; i < ex->nparts; i++) {
        const struct mm2_xpart *p = &ex->parts[i];
        moved += p->committed[0] != p->committed[1] || p->target_hw[0] != p->target_hw[1];
        none += p->committed[1] == MM2_OFFSET_NONE;
    }
    job_utc_now(ex->created, sizeof(ex->created));
    if (mm2_export_write(ex, out_path, digest, &err) != MM2_OK)
        return job_fail(x->j, &err);
    job_info(x->j,
             "wrote %s: %zu partitions, %zu without a committed offset, %zu that moved between "
             "reads",
             out_path, ex->nparts, none, moved);
    if (job_trail_file(x->j, MM2_KIND_EXPORT, out_path, digest, &err) != MM2_OK) {
        job_trail_unrecorded(x->j, &err, out_path);
        return job_fail(x->j, &err);
    }
    printf("%s\n", digest);
    return MM2_OK;
}

static int run(struct ctx *x, const char *out_path, long wait_ms)
{
    struct job *j = x->j;
    struct mm2_export *ex = &x->ex;
    struct mm2_error err = {0};
    long t, read_ms;
    int rc;

    if (j->cfg.flink_rest_url == NULL && j->cfg.checkpoint_interval_ms <= 0) {
        mm2_log_error(&j->log,
                      "%s: nothing proves Flink stopped: give [flink] rest.url and "
                      "job.id, or [flink] checkpoint.interval.seconds with a "
                      "--stable-wait above it",
                      j->cfg.path);
        return MM2_CONFIG;
    }
    /* Not given: long enough for the proof the INI names (60 s between checkpoints: 90 s). */
    if (wait_ms < 0)
        wait_ms = j->cfg.flink_rest_url == NULL ? (j->cfg.checkpoint_interval_ms * 3 + 1) / 2
                                                : DEFAULT_STABLE_WAIT_MS;
    if (j->cfg.flink_rest_url == NULL && wait_ms <= j->cfg.checkpoint_interval_ms)
        return job_usage_error(j,
                               "--stable-wait must be longer than [flink] "
                               "checkpoint.interval.seconds (%ld ms), got %ld ms",
                               j->cfg.checkpoint_interval_ms, wait_ms);
    rc = identify(x);
    if (rc != MM2_OK)
        return rc;
    t = mm2_deadline_now_ms();
    if (layout(x, &err) != MM2_OK)
        return job_fail(j, &err);
    if (source_policies(x, &err) != MM2_OK || target_configs(x, &err) != MM2_OK)
        return job_fail(j, &err);
    mm2_log_debug(&j->log, "topics and partitions of both clusters: %ld ms",
                  mm2_deadline_now_ms() - t);
    job_info(j, "source %s, target %s; connector %s replicates %zu partitions", ex->source_cluster,
             ex->target_cluster, j->conn.name, ex->nparts);
    x->tgt_start[0] = calloc(x->ntgt + 1, sizeof(*x->tgt_start[0]));
    x->tgt_start[1] = calloc(x->ntgt + 1, sizeof(*x->tgt_start[1]));
    if (x->tgt_start[0] == NULL || x->tgt_start[1] == NULL)
        return job_fail(j, (mm2_error_set(&err, MM2_UNEXPECTED, "out of memory"), &err));
    if (read_all(x, 0, &err) != MM2_OK)
        return job_fail(j, &err);
    /* The boundary read takes the wait's time, not its own: what the second read finds
     * unchanged is not read again. */
    job_info(j, "first read done; reading the boundary while waiting %ld ms for the second",
             wait_ms);
    t = mm2_deadline_now_ms();
    if (prove_boundary(x, 0, &err) != MM2_OK)
        return job_fail(j, &err);
    read_ms = mm2_deadline_now_ms() - t;
    if (read_ms < wait_ms) {
        job_sleep_ms(wait_ms - read_ms);
        j->waited_ms += wait_ms - read_ms;
    }
    ex->stable_wait_ms = mm2_deadline_now_ms() - t;
    if (read_all(x, 1, &err) != MM2_OK || prove_boundary(x, 1, &err) != MM2_OK)
        return job_fail(j, &err);
    return write_export(x, out_path);
}

int cmd_export(struct job *j, int argc, char **argv)
{
    const char *config = NULL, *out = NULL;
    long wait_ms = -1; /* not given: run() picks it from the INI */
    const struct job_opt opts[] = {
        {"config", 'c', JOB_OPT_STRING, &config},
        {"out", 'o', JOB_OPT_STRING, &out},
        {"stable-wait", 'w', JOB_OPT_SECONDS, &wait_ms},
    };
    struct ctx x = {.j = j};
    bool done;
    int rc = job_options(j, argc, argv, opts, sizeof(opts) / sizeof(opts[0]), usage, &done);

    if (rc != MM2_OK || done)
        return rc;
    if (out == NULL)
        return job_usage_error(j, "--out FILE is required (where to write the export)");
    rc = job_load(j, config);
    if (rc != MM2_OK)
        return rc;
    rc = run(&x, out, wait_ms);
    mm2_export_free(&x.ex);
    free(x.src_tps);
    free(x.tgt_tps);
    free(x.tgt_of);
    free(x.tgt_start[0]);
    free(x.tgt_start[1]);
    free(x.early);
    free(x.early_res);
    return rc;
}
