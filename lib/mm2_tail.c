/* mm2_tail: boundary evidence read in passes over all partitions and classified (see
 * mm2_tail.h). */
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

/* Where a partition is: the read it waits for next. */
enum phase { TAIL1, TAIL2, WIN, DONE };

/* Everything the read holds, per partition of the call. */
struct state {
    size_t n;
    enum phase *ph;
    struct mm2_record_list *tail;
    int64_t *tail_from;        /* the lowest target offset read (or asked, for a pass to come) */
    bool *tail_cut;            /* the byte budget ended a read of the tail */
    size_t held;               /* mm2_record_cost of the tails held */
    struct mm2_read_range *rr; /* scratch: the ranges of one read */
    size_t *idx;               /* scratch: read j is partition idx[j] */
    int64_t *from2;            /* scratch: a second pass's from */
    struct mm2_record_list *got;
    bool *cut, *deferred;
};

static void state_free(struct state *s)
{
    for (size_t i = 0; s->tail != NULL && i < s->n; i++)
        mm2_record_list_free(&s->tail[i]);
    free(s->ph);
    free(s->tail);
    free(s->tail_from);
    free(s->tail_cut);
    free(s->rr);
    free(s->idx);
    free(s->from2);
    free(s->got);
    free(s->cut);
    free(s->deferred);
}

static bool state_alloc(struct state *s, size_t n)
{
    memset(s, 0, sizeof(*s));
    s->n = n;
    s->ph = calloc(n, sizeof(*s->ph));
    s->tail = calloc(n, sizeof(*s->tail));
    s->tail_from = calloc(n, sizeof(*s->tail_from));
    s->tail_cut = calloc(n, sizeof(*s->tail_cut));
    s->rr = calloc(n, sizeof(*s->rr));
    s->idx = calloc(n, sizeof(*s->idx));
    s->from2 = calloc(n, sizeof(*s->from2));
    s->got = calloc(n, sizeof(*s->got));
    s->cut = calloc(n, sizeof(*s->cut));
    s->deferred = calloc(n, sizeof(*s->deferred));
    return s->ph != NULL && s->tail != NULL && s->tail_from != NULL && s->tail_cut != NULL &&
           s->rr != NULL && s->idx != NULL && s->from2 != NULL && s->got != NULL &&
           s->cut != NULL && s->deferred != NULL;
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

static void unread(struct mm2_bnd_result *o, const char *why)
{
    memset(o, 0, sizeof(*o));
    o->cls = MM2_BND_UNREAD;
    o->resume_at = -1;
    (void)snprintf(o->why, sizeof(o->why), "%s", why);
}

#define WHY_TAIL_CUT                                                                               \
    "the byte budget (tail.bytes) ended the read of the target's tail before its last record"
#define WHY_WIN_CUT                                                                                \
    "the byte budget (tail.bytes) ended the read of the source window before its last record"
#define WHY_MEMORY "its records alone would pass the boundary read's memory cap"

/* Classifies partition i on its tail and window (win NULL: no window to read), then frees its
 * tail: it is done. */
static void settle(const struct mm2_tail_part *p, size_t i, struct state *s,
                   const struct mm2_record_list *win, bool win_cut,
                   const struct mm2_tail_params *prm, struct mm2_bnd_result *out)
{
    const struct mm2_record_list *t = &s->tail[i];
    size_t k = t->n < prm->k ? t->n : prm->k;
    int64_t want = p[i].c - (int64_t)(prm->k + prm->slack);
    struct mm2_bnd_window w = {win != NULL ? win->v : NULL, win != NULL ? win->n : 0,
                               want > 0 ? want : 0, p[i].source_start, p[i].compacted};

    if (!mm2_bnd_classify(p[i].c, k > 0 ? &t->v[t->n - k] : NULL, k, &w, &prm->opts, &out[i]))
        out[i].cls = MM2_BND_UNPLACED; /* why says which input broke the contract */
    /* A read the budget ended holds the oldest records of its range, not the tail (or not the
     * whole window): never classified on it. */
    if (s->tail_cut[i] || win_cut)
        unread(&out[i], s->tail_cut[i] ? WHY_TAIL_CUT : WHY_WIN_CUT);
    s->held -= mm2_record_list_cost(t);
    mm2_record_list_free(&s->tail[i]);
    s->ph[i] = DONE;
}

/* A partition whose next read alone does not fit in the memory cap: unread, never guessed. */
static void too_large(size_t i, struct state *s, struct mm2_bnd_result *out)
{
    unread(&out[i], WHY_MEMORY);
    s->held -= mm2_record_list_cost(&s->tail[i]);
    mm2_record_list_free(&s->tail[i]);
    s->ph[i] = DONE;
}

/* The tail's first read, or where the first read left it: the next phase. */
static enum phase after_tail(const struct mm2_tail_part *p, size_t i, const struct state *s,
                             const struct mm2_tail_params *prm, enum phase was)
{
    if (was == TAIL1 && s->tail[i].n < prm->k && !s->tail_cut[i] &&
        s->tail_from[i] > p[i].target_start)
        return TAIL2; /* short, with more log below: an aborted transaction may end it */
    return WIN;
}

/* One read of the tails still to read (only the second passes when second_only; one range only
 * when narrow). Sets *progress when a range ended. */
static enum mm2_status tail_pass(struct mm2_kafka *target, const struct mm2_tail_part *p,
                                 struct state *s, const struct mm2_tail_params *prm, bool narrow,
                                 bool second_only, const struct mm2_deadline *dl,
                                 struct mm2_tail_stats *stats, bool *progress,
                                 struct mm2_bnd_result *out, struct mm2_error *err)
{
    int64_t span = (int64_t)prm->k * 2;
    struct mm2_read_caps caps = {prm->budget, 0};
    size_t m = 0;
    enum mm2_status st;
    bool oom = false;

    /* Half the cap for the tails held, so that their windows always have room. */
    if (narrow)
        caps.memory = prm->memory > s->held ? prm->memory - s->held : 0;
    else
        caps.memory = prm->memory / 2 > s->held ? prm->memory / 2 - s->held : 0;
    for (size_t i = 0; i < s->n && !(narrow && m > 0); i++) {
        if (s->ph[i] != TAIL2 && (s->ph[i] != TAIL1 || second_only))
            continue;
        if (caps.memory == 0 && narrow) {
            too_large(i, s, out); /* the tails held leave it no room */
            *progress = true;
            break;
        }
        if (caps.memory == 0)
            break;
        if (s->ph[i] == TAIL1) {
            s->rr[m] = (struct mm2_read_range){p[i].target_topic, p[i].partition, s->tail_from[i],
                                               p[i].target_end};
        } else if (s->ph[i] == TAIL2) {
            s->from2[i] = max64(p[i].target_start, s->tail_from[i] - span * SECOND_PASS_FACTOR);
            s->rr[m] = (struct mm2_read_range){p[i].target_topic, p[i].partition, s->from2[i],
                                               s->tail_from[i]};
        }
        s->idx[m++] = i;
    }
    if (m == 0)
        return MM2_OK;
    stats->reads++;
    st = mm2_kafka_read_many(target, s->rr, m, true, &caps, dl, s->got, s->cut, s->deferred, err);
    for (size_t j = 0; j < m; j++) {
        size_t i = s->idx[j];
        enum phase was = s->ph[i];
        stats->records += s->got[j].n;
        if (st == MM2_OK && !oom && s->deferred[j]) {
            stats->deferred++;
            if (narrow)
                too_large(i, s, out);
            *progress = *progress || narrow;
        } else if (st == MM2_OK && !oom) {
            stats->cut += s->cut[j];
            s->tail_cut[i] = s->tail_cut[i] || s->cut[j];
            s->held += mm2_record_list_cost(&s->got[j]);
            oom = !prepend(&s->tail[i], &s->got[j]);
            if (was == TAIL2)
                s->tail_from[i] = s->from2[i];
            s->ph[i] = after_tail(p, i, s, prm, was);
            *progress = true;
        }
        mm2_record_list_free(&s->got[j]);
    }
    if (st == MM2_OK && oom)
        st = mm2_error_set(err, MM2_UNEXPECTED, "boundary read: out of memory");
    return st;
}

/* One read of the windows of the partitions whose tails are read (one only when narrow); each
 * partition whose window ended is classified and its records freed. */
static enum mm2_status window_pass(struct mm2_kafka *source, const struct mm2_tail_part *p,
                                   struct state *s, const struct mm2_tail_params *prm, bool narrow,
                                   const struct mm2_deadline *dl, struct mm2_tail_stats *stats,
                                   bool *progress, struct mm2_bnd_result *out,
                                   struct mm2_error *err)
{
    struct mm2_read_caps caps = {prm->budget, prm->memory > s->held ? prm->memory - s->held : 0};
    size_t m = 0;
    enum mm2_status st;

    for (size_t i = 0; i < s->n && !(narrow && m > 0); i++) {
        int64_t from, until;
        if (s->ph[i] != WIN)
            continue;
        /* The window: source [C - K - slack, C + slack), cut to the log. */
        from = max64(p[i].source_start, p[i].c - (int64_t)(prm->k + prm->slack));
        until = min64(p[i].source_end, p[i].c + (int64_t)prm->slack);
        if (from >= until) {
            settle(p, i, s, NULL, false, prm, out);
            *progress = true;
            continue;
        }
        if (caps.memory == 0 && narrow) {
            too_large(i, s, out); /* the tails held leave it no room */
            *progress = true;
            break;
        }
        if (caps.memory == 0)
            continue;
        s->idx[m] = i;
        s->rr[m++] = (struct mm2_read_range){p[i].source_topic, p[i].partition, from, until};
    }
    if (m == 0)
        return MM2_OK;
    stats->reads++;
    st = mm2_kafka_read_many(source, s->rr, m, true, &caps, dl, s->got, s->cut, s->deferred, err);
    for (size_t j = 0; j < m; j++) {
        size_t i = s->idx[j];
        stats->records += s->got[j].n;
        if (st == MM2_OK && s->deferred[j]) {
            stats->deferred++;
            if (narrow) {
                too_large(i, s, out);
                *progress = true;
            }
        } else if (st == MM2_OK) {
            stats->cut += s->cut[j];
            settle(p, i, s, &s->got[j], s->cut[j], prm, out);
            *progress = true;
        }
        mm2_record_list_free(&s->got[j]);
    }
    return st;
}

enum mm2_status mm2_tail_classify(struct mm2_kafka *source, struct mm2_kafka *target,
                                  const struct mm2_tail_part *p, size_t n,
                                  const struct mm2_tail_params *prm, const struct mm2_deadline *dl,
                                  struct mm2_bnd_result *out, struct mm2_tail_stats *stats,
                                  struct mm2_error *err)
{
    long r0 = mm2_kafka_requests(source) + mm2_kafka_requests(target);
    long t0 = mm2_now_ms();
    int64_t span = (int64_t)prm->k * 2;
    enum mm2_status st = MM2_OK;
    bool narrow = false;
    struct state s;
    size_t left = n;

    memset(stats, 0, sizeof(*stats));
    if (prm->k == 0 || prm->k > MM2_BND_TAIL_MAX || prm->budget == 0 ||
        prm->memory < 2 * prm->budget)
        return mm2_error_set(err, MM2_USAGE,
                             "boundary read: K and the budget must be above 0 (K at most %d), "
                             "the memory cap at least twice the budget",
                             MM2_BND_TAIL_MAX);
    if (!state_alloc(&s, n)) {
        state_free(&s);
        return mm2_error_set(err, MM2_UNEXPECTED, "boundary read: out of memory");
    }
    for (size_t i = 0; i < n; i++) {
        s.tail_from[i] = p[i].target_end;
        s.ph[i] = WIN; /* no target partition, or an empty one: no tail to read */
        if (p[i].target_topic == NULL || p[i].target_end <= p[i].target_start)
            continue;
        /* The tails, first pass: the last 2K offsets below the last stable offset. */
        s.tail_from[i] = max64(p[i].target_start, p[i].target_end - span);
        s.ph[i] = TAIL1;
    }
    /* A round: the tails still to read, then the windows of the tails read. Each read takes
     * every partition it can; a read the memory cap ended defers the rest to the next round. A
     * round that ended nothing is followed by a narrow one: one range, a window if any is due
     * (it frees a tail), which always ends (read, or unread when it alone passes the cap). So
     * the rounds end. */
    while (st == MM2_OK && left > 0) {
        bool progress = false, win_due = false;
        size_t deferred0 = stats->deferred;
        stats->rounds++;
        for (size_t i = 0; narrow && i < n && !win_due; i++)
            win_due = s.ph[i] == WIN;
        if (!narrow || !win_due)
            st = tail_pass(target, p, &s, prm, narrow, false, dl, stats, &progress, out, err);
        /* The short tails' second pass at once, unless the memory cap is what ended the first. */
        if (st == MM2_OK && !narrow && stats->deferred == deferred0)
            st = tail_pass(target, p, &s, prm, false, true, dl, stats, &progress, out, err);
        if (st == MM2_OK && (!narrow || win_due))
            st = window_pass(source, p, &s, prm, narrow, dl, stats, &progress, out, err);
        narrow = !progress;
        left = 0;
        for (size_t i = 0; i < n; i++)
            left += s.ph[i] != DONE;
    }
    state_free(&s);
    stats->requests = mm2_kafka_requests(source) + mm2_kafka_requests(target) - r0;
    stats->ms = mm2_now_ms() - t0;
    return st;
}
