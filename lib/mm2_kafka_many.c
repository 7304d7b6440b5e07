/*
 * mm2_kafka_many: the records of many partition ranges in one pass (see mm2_kafka.h,
 * mm2_kafka_read_many). Every range is assigned at once on the handle of the isolation level
 * asked, so librdkafka puts all the partitions a leader holds into each Fetch it sends: the
 * requests grow with the bytes read, not with the number of partitions. A range that is done
 * (its last offset, the partition's end, or its byte budget) is paused, so nothing more is
 * fetched for it; the pauses are sent in batches (PAUSE_BATCH, or whenever the queue is idle),
 * since one pause call per range cost librdkafka an op round per partition. A read may also be
 * capped by the memory its records take together: a range whose next record would pass that cap
 * is deferred (its records dropped, for a caller to read it in a later pass) and the others go
 * on, so what is held never passes the cap.
 */
#include "mm2_kafka_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Ranges done before their pauses are sent to librdkafka in one call. */
#define PAUSE_BATCH 512

struct many {
    struct mm2_kafka *k;
    struct handle *h;
    const struct mm2_read_range *r;
    size_t n;
    struct tpidx *idx; /* sorted by topic, partition */
    struct mm2_record_list *out;
    size_t *cap;
    size_t *bytes;
    bool *done;
    bool *cut;
    bool *deferred;
    bool *paused; /* a pause queued or sent: resumed before the unassign */
    size_t left;  /* ranges not done */
    size_t budget;
    size_t memory;                          /* cap on held, SIZE_MAX for none */
    size_t held;                            /* mm2_record_cost of every record in out */
    rd_kafka_topic_partition_list_t *pause; /* done, pause not yet sent */
};

static int tpidx_cmp(const void *a, const void *b)
{
    const struct tpidx *x = a, *y = b;
    int c = strcmp(x->topic, y->topic);

    if (c != 0)
        return c;
    return (x->partition > y->partition) - (x->partition < y->partition);
}

/* The range a message belongs to, or n when none does. */
static size_t range_of(const struct many *m, const rd_kafka_message_t *msg)
{
    struct tpidx key = {rd_kafka_topic_name(msg->rkt), msg->partition, 0};
    const struct tpidx *hit = bsearch(&key, m->idx, m->n, sizeof(*m->idx), tpidx_cmp);

    return hit != NULL ? hit->i : m->n;
}

static size_t record_bytes(const rd_kafka_message_t *msg)
{
    return msg->len + msg->key_len;
}

/* Sends the pauses of the ranges done since the last call. */
static void pause_flush(struct many *m)
{
    if (m->pause == NULL || m->pause->cnt == 0)
        return;
    rd_kafka_pause_partitions(m->h->rk, m->pause);
    rd_kafka_topic_partition_list_destroy(m->pause);
    m->pause = NULL;
}

/* Marks range i done and queues its pause: librdkafka fetches nothing more for it once the batch
 * is sent. The pause is only an optimisation (records fetched meanwhile are dropped); leaving
 * out the pauses of ranges at their partition's end measured slower (bench/README.md). */
static void finish(struct many *m, size_t i)
{
    if (m->done[i])
        return;
    m->done[i] = true;
    m->left--;
    if (m->pause == NULL)
        m->pause = rd_kafka_topic_partition_list_new(PAUSE_BATCH);
    if (m->pause == NULL)
        return;
    m->paused[i] = true;
    rd_kafka_topic_partition_list_add(m->pause, m->r[i].topic, m->r[i].partition);
    if (m->pause->cnt >= PAUSE_BATCH)
        pause_flush(m);
}

/* Range i's next record would take the records held past the memory cap: the range is
 * deferred, its records freed (room for the others, which go on). */
static void defer(struct many *m, size_t i)
{
    m->held -= mm2_record_list_cost(&m->out[i]);
    mm2_record_list_free(&m->out[i]);
    m->cap[i] = 0;
    m->deferred[i] = true;
    finish(m, i);
}

/* Takes one message: a record of a range, the end of a partition, or an error. */
static enum mm2_status take(struct many *m, const rd_kafka_message_t *msg, struct mm2_error *err)
{
    size_t i = range_of(m, msg);
    size_t cost;

    if (i == m->n || m->done[i])
        return MM2_OK; /* fetched before the pause took effect */
    if (msg->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
        finish(m, i);
        return MM2_OK;
    }
    if (msg->err != RD_KAFKA_RESP_ERR_NO_ERROR) {
        if (msg->err == RD_KAFKA_RESP_ERR__AUTO_OFFSET_RESET ||
            msg->err == RD_KAFKA_RESP_ERR_OFFSET_OUT_OF_RANGE)
            return mm2k_fail(
                m->k, err, MM2_UNEXPECTED,
                "read %.255s[%d]: offset %" PRId64 " is outside the partition's log (%s)",
                m->r[i].topic, (int)m->r[i].partition, m->r[i].from, rd_kafka_err2name(msg->err));
        if (mm2k_auth_error(msg->err))
            return mm2k_fail_with_last_error(m->k, m->h, err, MM2_CONFIG, "read: %s: %s",
                                             rd_kafka_err2name(msg->err),
                                             rd_kafka_err2str(msg->err));
        if (!mm2k_retriable(msg->err))
            return mm2k_fail(m->k, err, mm2k_status_of(msg->err), "read %.255s[%d]: %s: %s",
                             m->r[i].topic, (int)m->r[i].partition, rd_kafka_err2name(msg->err),
                             rd_kafka_err2str(msg->err));
        return MM2_OK;
    }
    if (msg->offset >= m->r[i].until) {
        finish(m, i);
        return MM2_OK;
    }
    if (msg->offset < m->r[i].from)
        return MM2_OK;
    if (m->bytes[i] + record_bytes(msg) > m->budget) {
        m->cut[i] = true; /* the budget ends it: the caller says so, never guesses */
        finish(m, i);
        return MM2_OK;
    }
    if (!mm2k_record_append(&m->out[i], &m->cap[i], SIZE_MAX, msg))
        return mm2k_fail(m->k, err, MM2_UNEXPECTED, "read: out of memory");
    cost = mm2_record_cost(&m->out[i].v[m->out[i].n - 1]);
    if (m->memory != SIZE_MAX && (cost > m->memory || m->held > m->memory - cost)) {
        mm2k_record_pop(&m->out[i]); /* never held: the range is read again later */
        defer(m, i);
        return MM2_OK;
    }
    m->held += cost;
    m->bytes[i] += record_bytes(msg);
    if (msg->offset + 1 >= m->r[i].until)
        finish(m, i);
    return MM2_OK;
}

bool mm2k_paused_add(struct handle *h, const char *topic, int32_t partition)
{
    char *t;

    if (h->npaused == h->cappaused) {
        size_t c = h->cappaused > 0 ? h->cappaused * 2 : 64;
        struct paused_tp *v = realloc(h->paused, c * sizeof(*v));
        if (v == NULL)
            return false;
        h->paused = v;
        h->cappaused = c;
    }
    t = strdup(topic);
    if (t == NULL)
        return false;
    h->paused[h->npaused++] = (struct paused_tp){t, partition};
    return true;
}

void mm2k_paused_lift(struct handle *h, const struct tpidx *idx, size_t n)
{
    rd_kafka_topic_partition_list_t *l;
    size_t kept = 0;

    if (h->npaused == 0 || n == 0)
        return;
    l = rd_kafka_topic_partition_list_new(16);
    for (size_t i = 0; i < h->npaused; i++) {
        struct tpidx key = {h->paused[i].topic, h->paused[i].partition, 0};
        if (l != NULL && bsearch(&key, idx, n, sizeof(*idx), tpidx_cmp) != NULL) {
            rd_kafka_topic_partition_list_add(l, h->paused[i].topic, h->paused[i].partition);
            free(h->paused[i].topic);
        } else {
            h->paused[kept++] = h->paused[i];
        }
    }
    h->npaused = kept;
    if (l != NULL && l->cnt > 0)
        rd_kafka_resume_partitions(h->rk, l);
    if (l != NULL)
        rd_kafka_topic_partition_list_destroy(l);
}

void mm2k_paused_free(struct handle *h)
{
    for (size_t i = 0; i < h->npaused; i++)
        free(h->paused[i].topic);
    free(h->paused);
    h->paused = NULL;
    h->npaused = h->cappaused = 0;
}

/* Leaves the pauses of this read to the handle; one it cannot note is resumed now. */
static void note_pauses(struct many *m)
{
    rd_kafka_topic_partition_list_t *l = NULL;

    for (size_t i = 0; m->paused != NULL && i < m->n; i++) {
        if (!m->paused[i] || mm2k_paused_add(m->h, m->r[i].topic, m->r[i].partition))
            continue;
        if (l == NULL)
            l = rd_kafka_topic_partition_list_new(16);
        if (l != NULL)
            rd_kafka_topic_partition_list_add(l, m->r[i].topic, m->r[i].partition);
    }
    if (l != NULL && l->cnt > 0)
        rd_kafka_resume_partitions(m->h->rk, l);
    if (l != NULL)
        rd_kafka_topic_partition_list_destroy(l);
}

static enum mm2_status assign_all(struct many *m, struct mm2_error *err)
{
    rd_kafka_topic_partition_list_t *l = rd_kafka_topic_partition_list_new((int)m->n);
    rd_kafka_resp_err_t e;

    if (l == NULL)
        return mm2k_fail(m->k, err, MM2_UNEXPECTED, "read: out of memory");
    mm2k_paused_lift(m->h, m->idx, m->n); /* an earlier read's pauses on these partitions */
    for (size_t i = 0; i < m->n; i++) {
        if (m->r[i].from >= m->r[i].until) {
            m->done[i] = true;
            m->left--;
            continue;
        }
        rd_kafka_topic_partition_list_add(l, m->r[i].topic, m->r[i].partition)->offset =
            m->r[i].from;
    }
    e = l->cnt > 0 ? rd_kafka_assign(m->h->rk, l) : RD_KAFKA_RESP_ERR_NO_ERROR;
    rd_kafka_topic_partition_list_destroy(l);
    if (e != RD_KAFKA_RESP_ERR_NO_ERROR)
        return mm2k_fail(m->k, err, MM2_UNEXPECTED, "read: assign: %s", rd_kafka_err2name(e));
    return MM2_OK;
}

static enum mm2_status consume(struct many *m, const struct mm2_deadline *dl, struct mm2_error *err)
{
    while (m->left > 0) {
        rd_kafka_message_t *msg = rd_kafka_consumer_poll(m->h->rk, mm2k_slice_ms(dl, SLICE_MS));
        enum mm2_status st = MM2_OK;

        mm2k_serve(m->h, 0);
        if (msg != NULL) {
            st = take(m, msg, err);
            rd_kafka_message_destroy(msg);
        } else {
            pause_flush(m); /* nothing queued: the batch goes out now */
        }
        if (st != MM2_OK)
            return st;
        if (m->left == 0)
            break;
        if (mm2k_hopeless(m->h))
            return mm2k_hopeless_fail(m->k, m->h, "read", err);
        if (mm2_deadline_expired(dl))
            return mm2k_fail_with_last_error(m->k, m->h, err, MM2_UNREACHABLE,
                                             "read: deadline passed with %zu of %zu range(s) "
                                             "still being read",
                                             m->left, m->n);
    }
    return MM2_OK;
}

/* Gives each list back the slots it does not use (a list grows from 64 slots: 10,000 short
 * tails held 4.6 KiB each). */
static void shrink(struct many *m)
{
    for (size_t i = 0; i < m->n; i++) {
        struct mm2_record *v;
        if (m->out[i].n == 0 || m->out[i].n == m->cap[i])
            continue;
        v = realloc(m->out[i].v, m->out[i].n * sizeof(*v));
        if (v != NULL)
            m->out[i].v = v;
    }
}

enum mm2_status mm2_kafka_read_many(struct mm2_kafka *k, const struct mm2_read_range *r, size_t n,
                                    bool committed, const struct mm2_read_caps *caps,
                                    const struct mm2_deadline *dl, struct mm2_record_list *out,
                                    bool *cut, bool *deferred, struct mm2_error *err)
{
    struct many m = {k,   NULL,     r,    n, NULL, out,      NULL, NULL, NULL,
                     cut, deferred, NULL, n, 0,    SIZE_MAX, 0,    NULL};
    struct mm2_tp *tps;
    enum mm2_status st;
    rd_kafka_resp_err_t e;

    for (size_t i = 0; out != NULL && i < n; i++)
        out[i] = (struct mm2_record_list){NULL, 0};
    st = mm2k_enter(k, dl, err);
    if (st != MM2_OK)
        return st;
    if (r == NULL || n == 0 || out == NULL || cut == NULL || caps == NULL || caps->budget == 0 ||
        caps->memory == 0 || (caps->memory != SIZE_MAX && deferred == NULL))
        return mm2k_fail(k, err, MM2_USAGE,
                         "read: needs ranges, an output list and flags for each, a budget and a "
                         "memory cap > 0");
    m.budget = caps->budget;
    m.memory = caps->memory;
    for (size_t i = 0; i < n; i++)
        if (r[i].from < 0 || r[i].until < 0)
            return mm2k_fail(k, err, MM2_USAGE, "read: range %zu has a negative offset", i);
    tps = calloc(n, sizeof(*tps));
    if (tps == NULL)
        return mm2k_fail(k, err, MM2_UNEXPECTED, "read: out of memory");
    for (size_t i = 0; i < n; i++)
        tps[i] = (struct mm2_tp){r[i].topic, r[i].partition};
    st = mm2k_tp_index(k, tps, n, &m.idx, err);
    free(tps);
    if (st != MM2_OK)
        return st;
    m.cap = calloc(n, sizeof(*m.cap));
    m.bytes = calloc(n, sizeof(*m.bytes));
    m.done = calloc(n, sizeof(*m.done));
    m.paused = calloc(n, sizeof(*m.paused));
    memset(cut, 0, n * sizeof(*cut));
    if (deferred != NULL)
        memset(deferred, 0, n * sizeof(*deferred));
    if (m.cap == NULL || m.bytes == NULL || m.done == NULL || m.paused == NULL)
        st = mm2k_fail(k, err, MM2_UNEXPECTED, "read: out of memory");
    if (st == MM2_OK)
        st = mm2k_handle_get(k, committed, &m.h, err);
    if (st == MM2_OK)
        st = assign_all(&m, err);
    if (st == MM2_OK)
        st = consume(&m, dl, err);
    /* Unassigning drops what was fetched beyond the ranges: the next read starts afresh. A
     * pause belongs to the partition in librdkafka, not to the assignment: the handle keeps the
     * list, and the read that assigns the partition again lifts it (mm2k_paused_lift). */
    if (m.pause != NULL)
        rd_kafka_topic_partition_list_destroy(m.pause); /* unassigned below: no pause needed */
    if (m.h != NULL) {
        note_pauses(&m);
        e = rd_kafka_assign(m.h->rk, NULL);
        if (st == MM2_OK && e != RD_KAFKA_RESP_ERR_NO_ERROR)
            st = mm2k_fail(k, err, MM2_UNEXPECTED, "read: unassign: %s", rd_kafka_err2name(e));
    }
    if (m.cap != NULL)
        shrink(&m);
    free(m.idx);
    free(m.cap);
    free(m.bytes);
    free(m.done);
    free(m.paused);
    return st;
}
