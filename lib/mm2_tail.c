/* mm2_tail: boundary evidence read in chunks and classified (see mm2_tail.h). */
#include "mm2_tail.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The second pass reads this many times the first pass's span further back. */
#define SECOND_PASS_FACTOR 32

static int64_t max64(int64_t a, int64_t b)
{
    return a > b ? a : b;
}

static int64_t min64(int64_t a, int64_t b)
{
    return a < b ? a : b;
}

/* What one chunk read, per partition of the chunk. */
struct chunk {
    size_t n;
    struct mm2_record_list *tail, *win;
    int64_t *tail_from;        /* the lowest target offset read */
    bool *tail_cut, *win_cut;  /* a read the byte budget ended */
    struct mm2_read_range *rr; /* scratch: the ranges of one read */
    size_t *idx;               /* scratch: read j is partition idx[j] */
    struct mm2_record_list *got;
    bool *cut;
};

static void chunk_free(struct chunk *c)
{
    for (size_t i = 0; i < c->n; i++) {
        if (c->tail != NULL)
            mm2_record_list_free(&c->tail[i]);
        if (c->win != NULL)
            mm2_record_list_free(&c->win[i]);
    }
    free(c->tail);
    free(c->win);
    free(c->tail_from);
    free(c->tail_cut);
    free(c->win_cut);
    free(c->rr);
    free(c->idx);
    free(c->got);
    free(c->cut);
}

static bool chunk_alloc(struct chunk *c, size_t n)
{
    memset(c, 0, sizeof(*c));
    c->n = n;
    c->tail = calloc(n, sizeof(*c->tail));
    c->win = calloc(n, sizeof(*c->win));
    c->tail_from = calloc(n, sizeof(*c->tail_from));
    c->tail_cut = calloc(n, sizeof(*c->tail_cut));
    c->win_cut = calloc(n, sizeof(*c->win_cut));
    c->rr = calloc(n, sizeof(*c->rr));
    c->idx = calloc(n, sizeof(*c->idx));
    c->got = calloc(n, sizeof(*c->got));
    c->cut = calloc(n, sizeof(*c->cut));
    return c->tail != NULL && c->win != NULL && c->tail_from != NULL && c->tail_cut != NULL &&
           c->win_cut != NULL && c->rr != NULL && c->idx != NULL && c->got != NULL &&
           c->cut != NULL;
}

/* older ++ *dst into *dst (older's records move; its array is freed). */
static bool prepend(struct mm2_record_list *dst, struct mm2_record_list *older)
{
    struct mm2_record *v;

    if (older->n == 0) {
        mm2_record_list_free(older);
        return true;
    }
    v = realloc(older->v, (older->n + dst->n) * sizeof(*v));
    if (v == NULL)
        return false;
    if (dst->n > 0)
        memcpy(&v[older->n], dst->v, dst->n * sizeof(*v));
    free(dst->v);
    dst->v = v;
    dst->n += older->n;
    older->v = NULL;
    older->n = 0;
    return true;
}

/* Runs the m ranges in c->rr (for partitions c->idx) and moves what each read in front of
 * dst[partition] (so a pass further back lands before the pass before it). */
static enum mm2_status run_read(struct mm2_kafka *k, struct chunk *c, size_t m, bool committed,
                                const struct mm2_tail_params *prm, const struct mm2_deadline *dl,
                                struct mm2_record_list *dst, bool *dst_cut,
                                struct mm2_tail_stats *stats, struct mm2_error *err)
{
    enum mm2_status st;
    bool oom = false;

    if (m == 0)
        return MM2_OK;
    st = mm2_kafka_read_many(k, c->rr, m, committed, prm->budget, dl, c->got, c->cut, err);
    for (size_t j = 0; j < m; j++) {
        stats->records += c->got[j].n;
        stats->cut += c->cut[j];
        dst_cut[c->idx[j]] = dst_cut[c->idx[j]] || c->cut[j];
        if (st == MM2_OK && !oom)
            oom = !prepend(&dst[c->idx[j]], &c->got[j]);
        mm2_record_list_free(&c->got[j]);
    }
    if (st == MM2_OK && oom)
        st = mm2_error_set(err, MM2_UNEXPECTED, "boundary read: out of memory");
    return st;
}

static enum mm2_status read_chunk(struct mm2_kafka *source, struct mm2_kafka *target,
                                  const struct mm2_tail_part *p, struct chunk *c,
                                  const struct mm2_tail_params *prm, const struct mm2_deadline *dl,
                                  struct mm2_tail_stats *stats, struct mm2_error *err)
{
    int64_t span = (int64_t)prm->k * 2;
    size_t m = 0;
    enum mm2_status st;

    /* The tails, first pass: the last 2K offsets below the last stable offset. */
    for (size_t i = 0; i < c->n; i++) {
        c->tail_from[i] = p[i].target_end;
        if (p[i].target_topic == NULL || p[i].target_end <= p[i].target_start)
            continue;
        c->tail_from[i] = max64(p[i].target_start, p[i].target_end - span);
        c->idx[m] = i;
        c->rr[m++] = (struct mm2_read_range){p[i].target_topic, p[i].partition, c->tail_from[i],
                                             p[i].target_end};
    }
    st = run_read(target, c, m, true, prm, dl, c->tail, c->tail_cut, stats, err);
    if (st != MM2_OK)
        return st;
    /* The second pass, for the tails still short with more log below. */
    m = 0;
    for (size_t i = 0; i < c->n; i++) {
        int64_t from;
        if (p[i].target_topic == NULL || c->tail[i].n >= prm->k || c->tail_cut[i] ||
            c->tail_from[i] <= p[i].target_start)
            continue;
        from = max64(p[i].target_start, c->tail_from[i] - span * SECOND_PASS_FACTOR);
        c->idx[m] = i;
        c->rr[m++] =
            (struct mm2_read_range){p[i].target_topic, p[i].partition, from, c->tail_from[i]};
        c->tail_from[i] = from;
    }
    st = run_read(target, c, m, true, prm, dl, c->tail, c->tail_cut, stats, err);
    if (st != MM2_OK)
        return st;
    /* The windows: source [C - K - slack, C + slack), cut to the log. */
    m = 0;
    for (size_t i = 0; i < c->n; i++) {
        int64_t from = max64(p[i].source_start, p[i].c - (int64_t)(prm->k + prm->slack));
        int64_t until = min64(p[i].source_end, p[i].c + (int64_t)prm->slack);
        if (from >= until)
            continue;
        c->idx[m] = i;
        c->rr[m++] = (struct mm2_read_range){p[i].source_topic, p[i].partition, from, until};
    }
    return run_read(source, c, m, true, prm, dl, c->win, c->win_cut, stats, err);
}

static void classify_chunk(const struct mm2_tail_part *p, const struct chunk *c,
                           const struct mm2_tail_params *prm, struct mm2_bnd_result *out)
{
    for (size_t i = 0; i < c->n; i++) {
        const struct mm2_record_list *t = &c->tail[i];
        size_t k = t->n < prm->k ? t->n : prm->k;
        int64_t want = p[i].c - (int64_t)(prm->k + prm->slack);
        struct mm2_bnd_window w = {c->win[i].v, c->win[i].n, want > 0 ? want : 0, p[i].source_start,
                                   p[i].compacted};

        if (!mm2_bnd_classify(p[i].c, k > 0 ? &t->v[t->n - k] : NULL, k, &w, &prm->opts, &out[i]))
            out[i].cls = MM2_BND_UNPLACED; /* why says which input broke the contract */
        /* A read the budget ended holds the oldest records of its range, not the tail (or not
         * the whole window): never classified on it. */
        if (c->tail_cut[i] || c->win_cut[i]) {
            out[i].cls = MM2_BND_UNREAD;
            out[i].resume_at = -1;
            (void)snprintf(out[i].why, sizeof(out[i].why), "%s",
                           c->tail_cut[i] ? "the byte budget (tail.bytes) ended the read of the "
                                            "target's tail before its last record"
                                          : "the byte budget (tail.bytes) ended the read of the "
                                            "source window before its last record");
        }
    }
}

enum mm2_status mm2_tail_classify(struct mm2_kafka *source, struct mm2_kafka *target,
                                  const struct mm2_tail_part *p, size_t n,
                                  const struct mm2_tail_params *prm, const struct mm2_deadline *dl,
                                  struct mm2_bnd_result *out, struct mm2_tail_stats *stats,
                                  struct mm2_error *err)
{
    long r0 = mm2_kafka_requests(source) + mm2_kafka_requests(target);
    long t0 = mm2_now_ms();
    enum mm2_status st = MM2_OK;

    memset(stats, 0, sizeof(*stats));
    if (prm->k == 0 || prm->k > MM2_BND_TAIL_MAX || prm->chunk == 0 || prm->budget == 0)
        return mm2_error_set(err, MM2_USAGE,
                             "boundary read: K, the chunk and the budget must "
                             "be above 0 (K at most %d)",
                             MM2_BND_TAIL_MAX);
    for (size_t at = 0; at < n && st == MM2_OK; at += prm->chunk) {
        struct chunk c;
        size_t m = n - at < prm->chunk ? n - at : prm->chunk;

        if (!chunk_alloc(&c, m))
            st = mm2_error_set(err, MM2_UNEXPECTED, "boundary read: out of memory");
        else
            st = read_chunk(source, target, &p[at], &c, prm, dl, stats, err);
        if (st == MM2_OK)
            classify_chunk(&p[at], &c, prm, &out[at]);
        chunk_free(&c);
    }
    stats->requests = mm2_kafka_requests(source) + mm2_kafka_requests(target) - r0;
    stats->ms = mm2_now_ms() - t0;
    return st;
}
