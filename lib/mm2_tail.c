/* mm2_tail: boundary evidence read in passes over all partitions and classified (see
 * mm2_tail.h). */
#include "mm2_tail.h"

#include <pthread.h>
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

/* Where a partition's tail is: the read it waits for next, or read. */
enum tail_phase { TAIL1, TAIL2, TAIL_READ };

/* The scratch of one read (the target's and the source's run side by side: one each). */
struct scratch {
    struct mm2_read_range *rr;
    size_t *idx; /* read j is partition idx[j] */
    struct mm2_record_list *got;
    bool *cut, *deferred;
};

/* Everything the read holds, per partition of the call. */
struct state {
    size_t n;
    enum tail_phase *tph;
    struct mm2_record_list *tail, *win;
    int64_t *tail_from;    /* the lowest target offset read (or asked, for a pass to come) */
    int64_t *from2;        /* a second pass's from, while it is read */
    bool *tail_cut;        /* the byte budget ended a read of the tail */
    bool *win_read;        /* the window is read (or there is none) */
    bool *win_cut;         /* the byte budget ended it */
    bool *done;            /* classified, its records freed */
    size_t held_t, held_w; /* mm2_record_cost of the tails and windows held */
    struct scratch sc[2];  /* 0: the target's reads, 1: the source's */
};

static void scratch_free(struct scratch *c)
{
    free(c->rr);
    free(c->idx);
    free(c->got);
    free(c->cut);
    free(c->deferred);
}

static bool scratch_alloc(struct scratch *c, size_t n)
{
    c->rr = calloc(n, sizeof(*c->rr));
    c->idx = calloc(n, sizeof(*c->idx));
    c->got = calloc(n, sizeof(*c->got));
    c->cut = calloc(n, sizeof(*c->cut));
    c->deferred = calloc(n, sizeof(*c->deferred));
    return c->rr != NULL && c->idx != NULL && c->got != NULL && c->cut != NULL &&
           c->deferred != NULL;
}

static void state_free(struct state *s)
{
    for (size_t i = 0; i < s->n; i++) {
        if (s->tail != NULL)
            mm2_record_list_free(&s->tail[i]);
        if (s->win != NULL)
            mm2_record_list_free(&s->win[i]);
    }
    free(s->tph);
    free(s->tail);
    free(s->win);
    free(s->tail_from);
    free(s->from2);
    free(s->tail_cut);
    free(s->win_read);
    free(s->win_cut);
    free(s->done);
    scratch_free(&s->sc[0]);
    scratch_free(&s->sc[1]);
}

static bool state_alloc(struct state *s, size_t n)
{
    bool a, b;

    memset(s, 0, sizeof(*s));
    s->n = n;
    s->tph = calloc(n, sizeof(*s->tph));
    s->tail = calloc(n, sizeof(*s->tail));
    s->win = calloc(n, sizeof(*s->win));
    s->tail_from = calloc(n, sizeof(*s->tail_from));
    s->from2 = calloc(n, sizeof(*s->from2));
    s->tail_cut = calloc(n, sizeof(*s->tail_cut));
    s->win_read = calloc(n, sizeof(*s->win_read));
    s->win_cut = calloc(n, sizeof(*s->win_cut));
    s->done = calloc(n, sizeof(*s->done));
    a = scratch_alloc(&s->sc[0], n);
    b = scratch_alloc(&s->sc[1], n);
    return a && b && s->tph != NULL && s->tail != NULL && s->win != NULL && s->tail_from != NULL &&
           s->from2 != NULL && s->tail_cut != NULL && s->win_read != NULL && s->win_cut != NULL &&
           s->done != NULL;
}

/* Partition i as before any read: its tail's first pass due (none without a target partition
 * or in an empty one), its window unread. Whatever it held is freed. */
static void reset(const struct mm2_tail_part *p, size_t i, struct state *s,
                  const struct mm2_tail_params *prm)
{
    s->held_t -= mm2_record_list_cost(&s->tail[i]);
    s->held_w -= mm2_record_list_cost(&s->win[i]);
    mm2_record_list_free(&s->tail[i]);
    mm2_record_list_free(&s->win[i]);
    s->tail_cut[i] = s->win_cut[i] = s->win_read[i] = false;
    s->tail_from[i] = p[i].target_end;
    s->tph[i] = TAIL_READ;
    if (p[i].target_topic == NULL || p[i].target_end <= p[i].target_start)
        return;
    /* The tails, first pass: the last 2K offsets below the last stable offset. */
    s->tail_from[i] = max64(p[i].target_start, p[i].target_end - (int64_t)prm->k * 2);
    s->tph[i] = TAIL1;
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

/* Classifies partition i on its tail and window, then frees them: it is done. */
static void settle(const struct mm2_tail_part *p, size_t i, struct state *s,
                   const struct mm2_tail_params *prm, struct mm2_bnd_result *out)
{
    const struct mm2_record_list *t = &s->tail[i];
    size_t k = t->n < prm->k ? t->n : prm->k;
    int64_t want = p[i].c - (int64_t)(prm->k + prm->slack);
    struct mm2_bnd_window w = {s->win[i].v, s->win[i].n, want > 0 ? want : 0, p[i].source_start,
                               p[i].compacted};

    if (!mm2_bnd_classify(p[i].c, k > 0 ? &t->v[t->n - k] : NULL, k, &w, &prm->opts, &out[i]))
        out[i].cls = MM2_BND_UNPLACED; /* why says which input broke the contract */
    /* A read the budget ended holds the oldest records of its range, not the tail (or not the
     * whole window): never classified on it. */
    if (s->tail_cut[i] || s->win_cut[i])
        unread(&out[i], s->tail_cut[i] ? WHY_TAIL_CUT : WHY_WIN_CUT);
    reset(p, i, s, prm);
    s->done[i] = true;
}

/* A partition whose next read alone does not fit in the memory cap: unread, never guessed. */
static void too_large(const struct mm2_tail_part *p, size_t i, struct state *s,
                      const struct mm2_tail_params *prm, struct mm2_bnd_result *out)
{
    unread(&out[i], WHY_MEMORY);
    reset(p, i, s, prm);
    s->done[i] = true;
}

/* One pass of reads: which partitions, within what. */
struct pass {
    struct mm2_kafka *k;
    const struct mm2_tail_part *p;
    struct state *s;
    const struct mm2_tail_params *prm;
    const struct mm2_deadline *dl;
    size_t only;      /* one partition's reads (a narrow round), or (size_t)-1 for all */
    bool second_only; /* tails: only the second passes */
    size_t memory;    /* what this pass's records may take */
    /* out */
    enum mm2_status st;
    struct mm2_error err;
    struct mm2_tail_stats stats;
    size_t ended;    /* ranges read to their end (or cut) */
    size_t deferred; /* ranges the memory cap deferred */
    long ms;
};

/* Reads the m ranges in c->rr for the pass, counted: c->got, c->cut and c->deferred answer. */
static void pass_read(struct pass *x, struct scratch *c, size_t m)
{
    struct mm2_read_caps caps = {x->prm->budget, x->memory};

    x->stats.reads++;
    x->st = mm2_kafka_read_many(x->k, c->rr, m, true, &caps, x->dl, c->got, c->cut, c->deferred,
                                &x->err);
}

/* Counts range j of the pass's read; true when it ended (read to its end or cut), so that its
 * records are the caller's to keep. Nothing ends after a failed read or when keep is false. */
static bool pass_ended(struct pass *x, const struct scratch *c, size_t j, bool keep)
{
    x->stats.records += c->got[j].n;
    if (x->st != MM2_OK || !keep)
        return false;
    if (c->deferred[j]) {
        x->deferred++;
        return false;
    }
    x->ended++;
    x->stats.cut += c->cut[j];
    return true;
}

/* One read of the tails due (the second passes only when second_only). */
static void tail_read(struct pass *x)
{
    const struct mm2_tail_part *p = x->p;
    struct state *s = x->s;
    struct scratch *c = &s->sc[0];
    int64_t span = (int64_t)x->prm->k * 2;
    size_t m = 0;
    bool oom = false;
    long t0 = mm2_deadline_now_ms();

    for (size_t i = 0; i < s->n && x->memory > 0; i++) {
        if (s->done[i] || (x->only != (size_t)-1 && i != x->only))
            continue;
        if (s->tph[i] == TAIL1 && !x->second_only) {
            c->rr[m] = (struct mm2_read_range){p[i].target_topic, p[i].partition, s->tail_from[i],
                                               p[i].target_end};
        } else if (s->tph[i] == TAIL2) {
            s->from2[i] = max64(p[i].target_start, s->tail_from[i] - span * SECOND_PASS_FACTOR);
            c->rr[m] = (struct mm2_read_range){p[i].target_topic, p[i].partition, s->from2[i],
                                               s->tail_from[i]};
        } else {
            continue;
        }
        c->idx[m++] = i;
    }
    if (m == 0)
        return;
    pass_read(x, c, m);
    for (size_t j = 0; j < m; j++) {
        size_t i = c->idx[j];
        if (pass_ended(x, c, j, !oom)) {
            s->tail_cut[i] = s->tail_cut[i] || c->cut[j];
            s->held_t += mm2_record_list_cost(&c->got[j]);
            oom = !prepend(&s->tail[i], &c->got[j]);
            if (s->tph[i] == TAIL2)
                s->tail_from[i] = s->from2[i];
            /* Short, with more log below (an aborted transaction may end it): a second pass. */
            s->tph[i] = s->tph[i] == TAIL1 && s->tail[i].n < x->prm->k && !s->tail_cut[i] &&
                                s->tail_from[i] > p[i].target_start
                            ? TAIL2
                            : TAIL_READ;
        }
        mm2_record_list_free(&c->got[j]);
    }
    if (x->st == MM2_OK && oom)
        x->st = mm2_error_set(&x->err, MM2_UNEXPECTED, "boundary read: out of memory");
    x->ms += mm2_deadline_now_ms() - t0;
}

/* The tails: the first passes, then at once the short tails' second, unless the memory cap is
 * what ended the first. */
static void *tail_pass(void *arg)
{
    struct pass *x = arg;
    size_t deferred0 = x->deferred;

    tail_read(x);
    if (x->st == MM2_OK && x->deferred == deferred0) {
        x->second_only = true;
        tail_read(x);
    }
    return NULL;
}

/* One read of the windows not read: source [C - K - slack, C + slack), cut to the log. */
static void *window_pass(void *arg)
{
    struct pass *x = arg;
    const struct mm2_tail_part *p = x->p;
    struct state *s = x->s;
    struct scratch *c = &s->sc[1];
    size_t m = 0;
    long t0 = mm2_deadline_now_ms();

    for (size_t i = 0; i < s->n; i++) {
        int64_t from, until;
        if (s->done[i] || s->win_read[i] || (x->only != (size_t)-1 && i != x->only))
            continue;
        from = max64(p[i].source_start, p[i].c - (int64_t)(x->prm->k + x->prm->slack));
        until = min64(p[i].source_end, p[i].c + (int64_t)x->prm->slack);
        if (from >= until) {
            s->win_read[i] = true; /* nothing to read */
            x->ended++;
            continue;
        }
        if (x->memory == 0)
            continue;
        c->idx[m] = i;
        c->rr[m++] = (struct mm2_read_range){p[i].source_topic, p[i].partition, from, until};
    }
    if (m == 0)
        return NULL;
    pass_read(x, c, m);
    for (size_t j = 0; j < m; j++) {
        size_t i = c->idx[j];
        if (pass_ended(x, c, j, true)) {
            s->win_cut[i] = c->cut[j];
            s->win_read[i] = true;
            s->held_w += mm2_record_list_cost(&c->got[j]);
            s->win[i] = c->got[j];
            c->got[j] = (struct mm2_record_list){NULL, 0};
        }
        mm2_record_list_free(&c->got[j]);
    }
    x->ms += mm2_deadline_now_ms() - t0;
    return NULL;
}

static size_t room(size_t cap, size_t held)
{
    return cap > held ? cap - held : 0;
}

static void add_stats(struct mm2_tail_stats *to, const struct pass *x)
{
    to->records += x->stats.records;
    to->cut += x->stats.cut;
    to->reads += x->stats.reads;
    to->deferred += x->deferred;
}

/* A wide round: the tails (on the target) and the windows (on the source) side by side, each
 * within half the cap, then every partition with both read is classified. */
static enum mm2_status wide_round(struct mm2_kafka *source, struct mm2_kafka *target,
                                  const struct mm2_tail_part *p, struct state *s,
                                  const struct mm2_tail_params *prm, const struct mm2_deadline *dl,
                                  struct mm2_bnd_result *out, struct mm2_tail_stats *stats,
                                  bool *progress, struct mm2_error *err)
{
    struct pass t = {target, p, s, prm, dl, (size_t)-1, false, room(prm->memory / 2, s->held_t)};
    struct pass w = {source, p, s, prm, dl, (size_t)-1, false, room(prm->memory / 2, s->held_w)};
    pthread_t thread;
    bool threaded = pthread_create(&thread, NULL, tail_pass, &t) == 0;

    if (!threaded)
        (void)tail_pass(&t);
    (void)window_pass(&w);
    if (threaded)
        (void)pthread_join(thread, NULL);
    add_stats(stats, &t);
    add_stats(stats, &w);
    stats->tail_ms += t.ms;
    stats->window_ms += w.ms;
    if (t.st != MM2_OK || w.st != MM2_OK) {
        *err = t.st != MM2_OK ? t.err : w.err;
        return t.st != MM2_OK ? t.st : w.st;
    }
    *progress = t.ended + w.ended > 0;
    for (size_t i = 0; i < s->n; i++)
        if (!s->done[i] && s->tph[i] == TAIL_READ && s->win_read[i])
            settle(p, i, s, prm, out);
    return MM2_OK;
}

/* A narrow round, after a round that ended nothing: everything held by the other partitions is
 * dropped (read again later), and the first partition not done is read alone within the whole
 * cap: classified, or unread when its records alone pass the cap. It always ends one. */
static enum mm2_status narrow_round(struct mm2_kafka *source, struct mm2_kafka *target,
                                    const struct mm2_tail_part *p, struct state *s,
                                    const struct mm2_tail_params *prm,
                                    const struct mm2_deadline *dl, struct mm2_bnd_result *out,
                                    struct mm2_tail_stats *stats, struct mm2_error *err)
{
    size_t i = 0;

    while (i < s->n && s->done[i])
        i++;
    for (size_t o = i + 1; o < s->n; o++)
        if (!s->done[o])
            reset(p, o, s, prm);
    while (i < s->n && !s->done[i]) {
        bool tails = s->tph[i] != TAIL_READ;
        struct pass x = {tails ? target : source,
                         p,
                         s,
                         prm,
                         dl,
                         i,
                         false,
                         room(prm->memory, s->held_t + s->held_w)};
        if (tails)
            tail_read(&x);
        else
            (void)window_pass(&x);
        add_stats(stats, &x);
        *(tails ? &stats->tail_ms : &stats->window_ms) += x.ms;
        if (x.st != MM2_OK) {
            *err = x.err;
            return x.st;
        }
        if (x.deferred > 0 || x.memory == 0)
            too_large(p, i, s, prm, out);
        else if (s->tph[i] == TAIL_READ && s->win_read[i])
            settle(p, i, s, prm, out);
    }
    return MM2_OK;
}

enum mm2_status mm2_tail_classify(struct mm2_kafka *source, struct mm2_kafka *target,
                                  const struct mm2_tail_part *p, size_t n,
                                  const struct mm2_tail_params *prm, const struct mm2_deadline *dl,
                                  struct mm2_bnd_result *out, struct mm2_tail_stats *stats,
                                  struct mm2_error *err)
{
    long r0 = mm2_kafka_requests(source) + mm2_kafka_requests(target);
    long t0 = mm2_deadline_now_ms();
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
    for (size_t i = 0; i < n; i++)
        reset(p, i, &s, prm);
    /* Rounds until every partition is classified: a wide one takes every partition it can, a
     * read the memory cap ended defers the rest to the next; a wide round that ended nothing is
     * followed by a narrow one, which always ends one partition. So the rounds end. */
    while (st == MM2_OK && left > 0) {
        bool progress = true;
        stats->rounds++;
        if (narrow)
            st = narrow_round(source, target, p, &s, prm, dl, out, stats, err);
        else
            st = wide_round(source, target, p, &s, prm, dl, out, stats, &progress, err);
        narrow = !progress;
        left = 0;
        for (size_t i = 0; i < n; i++)
            left += !s.done[i];
    }
    state_free(&s);
    stats->requests = mm2_kafka_requests(source) + mm2_kafka_requests(target) - r0;
    stats->ms = mm2_deadline_now_ms() - t0;
    return st;
}

static bool same_name(const char *a, const char *b)
{
    return a == NULL || b == NULL ? a == b : strcmp(a, b) == 0;
}

bool mm2_tail_same_read(const struct mm2_tail_part *a, const struct mm2_tail_part *b,
                        const struct mm2_tail_params *prm)
{
    int64_t slack = (int64_t)prm->slack;

    return same_name(a->source_topic, b->source_topic) &&
           same_name(a->target_topic, b->target_topic) && a->partition == b->partition &&
           a->c == b->c && a->source_start == b->source_start &&
           a->target_start == b->target_start && a->target_end == b->target_end &&
           a->compacted == b->compacted &&
           min64(a->source_end, a->c + slack) == min64(b->source_end, b->c + slack);
}
