/* acceptread: what accept reads of the clusters (see acceptread.h). */
#include "acceptread.h"

#include <stdlib.h>
#include <string.h>

#include "clients.h"
#include "mm2_check.h"
#include "mm2_connlive.h"
#include "tconfigs.h"

/* Records read at once: a partition is counted in chunks, each freed before the next, so that
 * large records (up to MM2_KAFKA_FETCH_MAX) keep the Job within its memory. */
#define CHUNK 200

enum mm2_status job_accept_poll(struct job *j, const struct mm2_plan *p,
                                struct mm2_accept_sample *s, struct mm2_source_offsets *offs,
                                int64_t *start, int64_t *end, struct mm2_error *err)
{
    struct mm2_tp *tps = calloc(p->n + 1, sizeof(*tps));
    struct mm2_connlive v;
    struct mm2_deadline dl;
    enum mm2_status st;

    if (tps == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    for (size_t i = 0; i < p->n; i++)
        tps[i] = (struct mm2_tp){p->entries[i].topic, p->entries[i].partition};
    st = mm2_connlive_read(j->connect, p->connector, &v, err);
    if (st == MM2_OK) {
        s->exists = v.s.exists;
        s->state = v.s.state;
        s->tasks = v.s.ntasks;
        s->tasks_running = v.s.tasks_running;
        memcpy(s->first_bad_task, v.s.first_bad_task, sizeof(s->first_bad_task));
        mm2_source_offsets_free(offs);
        if (v.s.exists)
            st = mm2_connect_offsets(j->connect, p->connector, offs, err);
    }
    job_kafka_deadline(j, &dl);
    if (st == MM2_OK && p->n > 0)
        st = mm2_kafka_log_offsets(j->source, tps, p->n, start, end, NULL, &dl, err);
    free(tps);
    s->position = s->log_end = s->lag = 0;
    for (size_t i = 0; st == MM2_OK && i < p->n; i++) {
        const struct mm2_pentry *e = &p->entries[i];
        const struct mm2_source_offset *o =
            mm2_source_offsets_find(offs, p->alias, e->topic, e->partition);
        int64_t pos = o != NULL ? o->offset + 1 : start[i];
        s->position += pos;
        s->log_end += end[i];
        s->lag += end[i] > pos ? end[i] - pos : 0;
    }
    return st;
}

/* Up to max data records of e's target partition from pos into *t, read again (until the
 * deadline wait) while it holds fewer than want: MM2 may still be copying. */
static enum mm2_status target_read(struct job *j, const struct mm2_pentry *e, int64_t pos,
                                   size_t max, size_t want, const struct mm2_deadline *wait,
                                   struct mm2_record_list *t, struct mm2_error *err)
{
    for (;;) {
        struct mm2_deadline dl;
        enum mm2_status st;
        job_kafka_deadline(j, &dl);
        st = mm2_kafka_read(j->target, e->target_topic, e->partition, pos, -1, max, true, &dl, t,
                            err);
        if (st != MM2_OK || t->n >= want || mm2_deadline_expired(wait))
            return st;
        mm2_record_list_free(t);
        long left = mm2_deadline_remaining_ms(wait);
        job_sleep_ms(left < 500 ? left : 500);
    }
}

static void compare(const struct mm2_record *s, const struct mm2_record *t,
                    struct mm2_accept_part *x)
{
    const char *d = mm2_check_differs(s, t);

    x->compared++;
    if (d[0] != '\0' && x->bad_source < 0) {
        x->bad_source = s->offset;
        x->bad_target = t->offset;
        x->bad_field = d;
    }
}

/* The window: the first records of both sides compared pair by pair, counted; *spos and *tpos
 * move past them. *short_target when the target held fewer than the source by the deadline. */
static enum mm2_status window(struct job *j, const struct mm2_pentry *e, bool committed, size_t win,
                              const struct mm2_deadline *wait, int64_t *spos, int64_t *tpos,
                              struct mm2_accept_part *x, bool *short_target, struct mm2_error *err)
{
    enum mm2_status st = MM2_OK;

    *short_target = false;
    while (st == MM2_OK && x->compared < win) {
        struct mm2_record_list s = {0}, t = {0};
        struct mm2_deadline dl;
        size_t max = win - x->compared < CHUNK ? win - x->compared : CHUNK;
        job_kafka_deadline(j, &dl);
        st = mm2_kafka_read(j->source, e->topic, e->partition, *spos, x->w, max, committed, &dl, &s,
                            err);
        if (st == MM2_OK && s.n > 0)
            st = target_read(j, e, *tpos, s.n, s.n, wait, &t, err);
        if (st == MM2_OK && s.n > 0) {
            if (x->source_count == 0) {
                x->first_source = s.v[0].offset;
                x->first_target = t.n > 0 ? t.v[0].offset : -1;
                x->first_differs = t.n > 0 ? mm2_check_differs(&s.v[0], &t.v[0]) : "";
            }
            for (size_t i = 0; i < s.n && i < t.n; i++)
                compare(&s.v[i], &t.v[i], x);
            x->source_count += (int64_t)s.n;
            x->target_count += (int64_t)t.n;
            *spos = s.v[s.n - 1].offset + 1;
            *tpos = t.n > 0 ? t.v[t.n - 1].offset + 1 : *tpos;
            *short_target = t.n < s.n;
        }
        bool end = s.n < max || *short_target;
        mm2_record_list_free(&s);
        mm2_record_list_free(&t);
        if (end)
            break;
    }
    return st;
}

/* The source's records after the window, counted; the last kept in *last. */
static enum mm2_status count_source(struct job *j, const struct mm2_pentry *e, bool committed,
                                    int64_t spos, struct mm2_accept_part *x,
                                    struct mm2_record_list *last, struct mm2_error *err)
{
    for (;;) {
        struct mm2_record_list s = {0};
        struct mm2_deadline dl;
        enum mm2_status st;
        job_kafka_deadline(j, &dl);
        st = mm2_kafka_read(j->source, e->topic, e->partition, spos, x->w, CHUNK, committed, &dl,
                            &s, err);
        if (st != MM2_OK || s.n == 0) {
            mm2_record_list_free(&s);
            return st;
        }
        if (x->source_count == 0)
            x->first_source = s.v[0].offset;
        x->source_count += (int64_t)s.n;
        spos = s.v[s.n - 1].offset + 1;
        mm2_record_list_free(last);
        *last = s;
    }
}

/* The target's records after the window, counted up to the source's count (waiting for MM2);
 * the last compared with the source's last. */
static enum mm2_status count_target(struct job *j, const struct mm2_pentry *e, int64_t tpos,
                                    const struct mm2_deadline *wait, const struct mm2_record *slast,
                                    struct mm2_accept_part *x, struct mm2_error *err)
{
    struct mm2_record_list keep = {0};
    enum mm2_status st = MM2_OK;

    while (st == MM2_OK && x->target_count < x->source_count) {
        struct mm2_record_list t = {0};
        int64_t need = x->source_count - x->target_count;
        size_t max = need < CHUNK ? (size_t)need : CHUNK;
        st = target_read(j, e, tpos, max, max, wait, &t, err);
        if (st != MM2_OK || t.n == 0) {
            mm2_record_list_free(&t);
            break;
        }
        if (x->target_count == 0) {
            x->first_target = t.v[0].offset;
            x->first_differs = "";
        }
        x->target_count += (int64_t)t.n;
        tpos = t.v[t.n - 1].offset + 1;
        mm2_record_list_free(&keep);
        keep = t;
    }
    if (st == MM2_OK && slast != NULL && x->target_count == x->source_count && keep.n > 0)
        compare(slast, &keep.v[keep.n - 1], x);
    mm2_record_list_free(&keep);
    return st;
}

enum mm2_status job_accept_part(struct job *j, const struct mm2_pentry *e, int64_t from,
                                bool committed, struct job_accept_window *win,
                                const struct mm2_deadline *wait, struct mm2_accept_part *x,
                                struct mm2_error *err)
{
    /* At least the first record, whatever --window-total left: it is line 2's proof. */
    size_t w = win->per_partition < win->left ? win->per_partition : win->left > 0 ? win->left : 1;
    int64_t spos = from, tpos = e->target_start;
    struct mm2_record_list last = {0};
    bool short_target = false;
    enum mm2_status st;

    x->source_count = x->target_count = 0;
    x->first_source = x->first_target = x->bad_source = x->bad_target = -1;
    x->first_differs = "";
    x->compared = 0;
    st = window(j, e, committed, w, wait, &spos, &tpos, x, &short_target, err);
    win->left = x->compared < win->left ? win->left - x->compared : 0;
    x->cut = w < win->per_partition && x->compared == w;
    if (st == MM2_OK)
        st = count_source(j, e, committed, spos, x, &last, err);
    if (st == MM2_OK && !short_target)
        st = count_target(j, e, tpos, wait, last.n > 0 ? &last.v[last.n - 1] : NULL, x, err);
    mm2_record_list_free(&last);
    return st;
}

enum mm2_status job_accept_syncs(struct job *j, struct mm2_kafka *k, const char *topic,
                                 enum mm2_accept_syncs *state, int64_t *end, struct mm2_error *err)
{
    struct mm2_kafka_described d;
    struct mm2_deadline dl;
    enum mm2_status st;

    *end = 0;
    job_kafka_deadline(j, &dl);
    st = mm2_kafka_describe_topics(k, &topic, 1, &d, &dl, err);
    if (st != MM2_OK)
        return st;
    if (d.seen == MM2_KAFKA_SEEN_ABSENT) {
        *state = MM2_ACCEPT_SYNCS_ABSENT;
        return MM2_OK;
    }
    if (d.seen == MM2_KAFKA_SEEN_DENIED || d.partitions <= 0) {
        *state = MM2_ACCEPT_SYNCS_DENIED;
        return MM2_OK;
    }
    struct mm2_tp *tps = calloc((size_t)d.partitions, sizeof(*tps));
    int64_t *hw = calloc((size_t)d.partitions, sizeof(*hw));
    if (tps == NULL || hw == NULL)
        st = mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    for (int32_t p = 0; st == MM2_OK && p < d.partitions; p++)
        tps[p] = (struct mm2_tp){topic, p};
    if (st == MM2_OK)
        st = mm2_kafka_log_offsets(k, tps, (size_t)d.partitions, NULL, hw, NULL, &dl, err);
    for (int32_t p = 0; st == MM2_OK && p < d.partitions; p++)
        *end += hw[p];
    *state = *end > 0 ? MM2_ACCEPT_SYNCS_WRITTEN : MM2_ACCEPT_SYNCS_EMPTY;
    free(tps);
    free(hw);
    return st;
}

enum mm2_status job_accept_topics(struct job *j, const struct mm2_plan *p, int32_t *partitions,
                                  cJSON **configs, struct mm2_error *err)
{
    const char **names = calloc(p->ntopics + 1, sizeof(*names));
    struct mm2_kafka_described *d = calloc(p->ntopics + 1, sizeof(*d));
    struct mm2_deadline dl;
    enum mm2_status st = MM2_OK;

    for (size_t i = 0; i < p->ntopics; i++)
        configs[i] = NULL;
    if (names == NULL || d == NULL)
        st = mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    for (size_t i = 0; st == MM2_OK && i < p->ntopics; i++)
        names[i] = p->topics[i].target;
    job_kafka_deadline(j, &dl);
    if (st == MM2_OK && p->ntopics > 0)
        st = mm2_kafka_describe_topics(j->target, names, p->ntopics, d, &dl, err);
    for (size_t i = 0; st == MM2_OK && i < p->ntopics; i++)
        partitions[i] = d[i].seen == MM2_KAFKA_SEEN_OPS || d[i].seen == MM2_KAFKA_SEEN_UNANSWERED
                            ? d[i].partitions
                            : -1;
    if (st == MM2_OK && p->ntopics > 0)
        st = job_topic_configs(j, names, p->ntopics, configs, err);
    free(names);
    free(d);
    return st;
}
