/*
 * mm2_kafka_many: the records of many partition ranges in one pass (see mm2_kafka.h,
 * mm2_kafka_read_many), the top of the Kafka client: it calls mm2_kafka_read.c (the records)
 * and mm2_kafka_handle.c (handles, pauses, messages), and nothing calls it. Every range is assigned
 * at once, so librdkafka puts all the partitions a leader holds into each Fetch it sends: the
 * requests grow with the bytes read, not with the number of partitions. A range that is done (its
 * last offset, the partition's end, or its byte budget) is paused, so nothing more is fetched for
 * it; the pauses are sent in batches (PAUSE_BATCH, or whenever the queue is idle), since one pause
 * call per range cost librdkafka an op round per partition. A read may also be capped by the memory
 * its records take together: when a record would pass that cap, the range of the lane that holds
 * the most and is not done yet is deferred (its records dropped, for a caller to read it in a later
 * pass) and the others go on, so what is held never passes the cap and the small ranges, which
 * can end within it, are the ones that end.
 *
 * The ranges are spread over lanes of at most k->per_reader partitions
 * (MM2_KAFKA_HANDLE_PER_READER), each on a handle of its own (mm2_kafka_handle_reader) and a thread
 * of its own, side by side. librdkafka 2.8.0 spends, per handle, time that grows as the square of
 * the partitions assigned to it: its broker thread decides for every partition it leads whether to
 * fetch it on each wake-up (rd_kafka_broker_consumer_toppars_serve), each assign, pause and
 * unassign of a partition inserts a priority op in order into the one consumer queue
 * (rd_kafka_q_enq0 behind rd_kafka_toppar_op_version_bump), and each partition leaving the
 * assignment is removed from a list by linear search (rd_kafka_cgrp_partition_del). Split over L
 * handles, that is L times less; each lane costs one handle's connections and one metadata request
 * (bench/README.md has the figures). A handle made for the read asks for its topics' metadata right
 * after the assign, so that it does not wait for librdkafka's next refresh before its first fetch
 * (leaders()).
 */
#include "mm2_kafka_handle.h"
#include "mm2_kafka_read.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Ranges done before their pauses are sent to librdkafka in one call. */
#define PAUSE_BATCH 512

/* What the lanes of one read share. Each range belongs to one lane, which alone touches its
 * slots; only held (the records' cost, against the memory cap) and stop are shared. */
struct many {
    struct mm2_kafka *k;
    const struct mm2_read_range *r;
    size_t n;
    const struct mm2_deadline *dl;
    struct mm2_record_list *out;
    size_t *cap;
    size_t *own; /* mm2_record_cost of the records in out[i] */
    size_t *bytes;
    bool *done;
    bool *cut;
    bool *deferred;
    bool *paused; /* a pause queued or sent: resumed before the unassign */
    size_t budget;
    size_t memory;      /* cap on held, SIZE_MAX for none */
    atomic_size_t held; /* mm2_record_cost of every record in out */
    atomic_bool stop;   /* a lane failed: the others end too */
    atomic_size_t left; /* ranges not done, all lanes' */
};

/* Some of the ranges, on a handle of their own. */
struct lane {
    struct many *m;
    struct handle *h;
    const struct tpidx *idx; /* its ranges, sorted by topic, partition */
    size_t n;
    size_t left;                            /* its ranges not done */
    bool made;                              /* its handle was made by this read */
    rd_kafka_topic_partition_list_t *pause; /* done, pause not yet sent */
    enum mm2_status st;
    struct mm2_error err;
};

/* The range a message belongs to, or n when none of the lane's does (an error about no
 * partition, such as the consumer group's, has no topic). */
static size_t range_of(const struct lane *l, const rd_kafka_message_t *msg)
{
    long i =
        msg->rkt != NULL
            ? mm2_kafka_handle_tp_find(l->idx, l->n, rd_kafka_topic_name(msg->rkt), msg->partition)
            : -1;

    return i >= 0 ? (size_t)i : l->m->n;
}

static size_t record_bytes(const rd_kafka_message_t *msg)
{
    return msg->len + msg->key_len;
}

/* Takes cost out of what the memory cap leaves; false (nothing taken) when it would pass it. */
static bool reserve(struct many *m, size_t cost)
{
    size_t held = atomic_load(&m->held);

    if (m->memory == SIZE_MAX) {
        atomic_fetch_add(&m->held, cost);
        return true;
    }
    do {
        if (cost > m->memory || held > m->memory - cost)
            return false;
    } while (!atomic_compare_exchange_weak(&m->held, &held, held + cost));
    return true;
}

/* Sends the pauses of the ranges done since the last call. */
static void pause_flush(struct lane *l)
{
    if (l->pause == NULL || l->pause->cnt == 0)
        return;
    rd_kafka_pause_partitions(l->h->rk, l->pause);
    rd_kafka_topic_partition_list_destroy(l->pause);
    l->pause = NULL;
}

/* Marks range i done and queues its pause: librdkafka fetches nothing more for it once the batch
 * is sent. The pause is only an optimisation (records fetched meanwhile are dropped); leaving
 * out the pauses of ranges at their partition's end measured slower (bench/README.md). */
static void finish(struct lane *l, size_t i)
{
    struct many *m = l->m;

    if (m->done[i])
        return;
    m->done[i] = true;
    l->left--;
    atomic_fetch_sub(&m->left, 1);
    if (l->pause == NULL)
        l->pause = rd_kafka_topic_partition_list_new(PAUSE_BATCH);
    if (l->pause == NULL)
        return;
    m->paused[i] = true;
    rd_kafka_topic_partition_list_add(l->pause, m->r[i].topic, m->r[i].partition);
    if (l->pause->cnt >= PAUSE_BATCH)
        pause_flush(l);
}

/* Range i is deferred: its records are freed (room for the others, which go on). */
static void defer(struct lane *l, size_t i)
{
    struct many *m = l->m;

    atomic_fetch_sub(&m->held, m->own[i]);
    mm2_record_list_free(&m->out[i]);
    m->own[i] = 0;
    m->cap[i] = 0;
    m->deferred[i] = true;
    finish(l, i);
}

/* The lane's range, other than i and not done, whose records hold the most; m->n when none
 * holds any. Only the lane's own ranges: the other lanes' belong to their threads. */
static size_t heaviest(const struct lane *l, size_t i)
{
    const struct many *m = l->m;
    size_t best = m->n;

    for (size_t j = 0; j < l->n; j++) {
        size_t x = l->idx[j].i;
        if (x != i && !m->done[x] && m->own[x] > 0 && (best == m->n || m->own[x] > m->own[best]))
            best = x;
    }
    return best;
}

/* Range i's new record, of cost, would pass the memory cap. The range of the lane holding the
 * most gives way until the record fits: a range holding more than i would with the record is
 * deferred, and when none does, i itself is (its record dropped). Deferring whichever range's
 * record came last instead left the cap full of the large ranges' first records, so that every
 * small range was deferred and a read could end none. False when i was deferred. */
static bool make_room(struct lane *l, size_t i, size_t cost)
{
    struct many *m = l->m;

    while (!reserve(m, cost)) {
        size_t j = heaviest(l, i);
        if (j == m->n || m->own[j] <= m->own[i] + cost) {
            mm2_kafka_read_record_pop(&m->out[i]); /* never held: read again later */
            defer(l, i);
            return false;
        }
        defer(l, j);
    }
    return true;
}

/* Takes one message: a record of a range, the end of a partition, or an error. */
static enum mm2_status take(struct lane *l, const rd_kafka_message_t *msg, struct mm2_error *err)
{
    struct many *m = l->m;
    size_t i;
    size_t cost;

    if (mm2_kafka_handle_group_noise(msg))
        return MM2_OK;
    if (msg->rkt == NULL) /* the client's own event, of no partition */
        return msg->err == RD_KAFKA_RESP_ERR_NO_ERROR || mm2_kafka_handle_retriable(msg->err)
                   ? MM2_OK
                   : mm2_kafka_handle_fail_last_error(
                         m->k, l->h, err, mm2_kafka_handle_status_of(msg->err), "read: %s: %s",
                         rd_kafka_err2name(msg->err), rd_kafka_err2str(msg->err));
    i = range_of(l, msg);
    if (i == m->n || m->done[i])
        return MM2_OK; /* fetched before the pause took effect */
    if (msg->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
        finish(l, i);
        return MM2_OK;
    }
    if (msg->err != RD_KAFKA_RESP_ERR_NO_ERROR) {
        if (msg->err == RD_KAFKA_RESP_ERR__AUTO_OFFSET_RESET ||
            msg->err == RD_KAFKA_RESP_ERR_OFFSET_OUT_OF_RANGE)
            return mm2_kafka_handle_fail(
                m->k, err, MM2_UNEXPECTED,
                "read %.255s[%d]: offset %" PRId64 " is outside the partition's log (%s)",
                m->r[i].topic, (int)m->r[i].partition, m->r[i].from, rd_kafka_err2name(msg->err));
        if (mm2_kafka_handle_auth_error(msg->err))
            return mm2_kafka_handle_fail_last_error(m->k, l->h, err, MM2_CONFIG, "read: %s: %s",
                                                    rd_kafka_err2name(msg->err),
                                                    rd_kafka_err2str(msg->err));
        if (!mm2_kafka_handle_retriable(msg->err))
            return mm2_kafka_handle_fail(m->k, err, mm2_kafka_handle_status_of(msg->err),
                                         "read %.255s[%d]: %s: %s", m->r[i].topic,
                                         (int)m->r[i].partition, rd_kafka_err2name(msg->err),
                                         rd_kafka_err2str(msg->err));
        return MM2_OK;
    }
    if (msg->offset >= m->r[i].until) {
        finish(l, i);
        return MM2_OK;
    }
    if (msg->offset < m->r[i].from)
        return MM2_OK;
    if (m->bytes[i] + record_bytes(msg) > m->budget) {
        m->cut[i] = true; /* the budget ends it: the caller says so, never guesses */
        finish(l, i);
        return MM2_OK;
    }
    if (!mm2_kafka_read_record_append(&m->out[i], &m->cap[i], SIZE_MAX, msg))
        return mm2_kafka_handle_fail(m->k, err, MM2_UNEXPECTED, "read: out of memory");
    cost = mm2_record_cost(&m->out[i].v[m->out[i].n - 1]);
    if (!make_room(l, i, cost))
        return MM2_OK;
    m->own[i] += cost;
    m->bytes[i] += record_bytes(msg);
    if (msg->offset + 1 >= m->r[i].until)
        finish(l, i);
    return MM2_OK;
}

/* Leaves the pauses of the lane's ranges to its handle; one it cannot note is resumed now. */
static void note_pauses(struct lane *l)
{
    struct many *m = l->m;
    rd_kafka_topic_partition_list_t *rl = NULL;

    for (size_t j = 0; j < l->n; j++) {
        size_t i = l->idx[j].i;
        if (!m->paused[i] || mm2_kafka_handle_paused_add(l->h, m->r[i].topic, m->r[i].partition))
            continue;
        if (rl == NULL)
            rl = rd_kafka_topic_partition_list_new(16);
        if (rl != NULL)
            rd_kafka_topic_partition_list_add(rl, m->r[i].topic, m->r[i].partition);
    }
    if (rl != NULL && rl->cnt > 0)
        rd_kafka_resume_partitions(l->h->rk, rl);
    if (rl != NULL)
        rd_kafka_topic_partition_list_destroy(rl);
}

static enum mm2_status assign_all(struct lane *l, struct mm2_error *err)
{
    struct many *m = l->m;
    rd_kafka_topic_partition_list_t *al = rd_kafka_topic_partition_list_new((int)l->n);
    rd_kafka_resp_err_t e;

    if (al == NULL)
        return mm2_kafka_handle_fail(m->k, err, MM2_UNEXPECTED, "read: out of memory");
    /* An earlier read's pauses on these partitions. */
    mm2_kafka_handle_paused_lift(l->h, l->idx, l->n);
    for (size_t j = 0; j < l->n; j++) {
        size_t i = l->idx[j].i;
        if (m->r[i].from < m->r[i].until)
            rd_kafka_topic_partition_list_add(al, m->r[i].topic, m->r[i].partition)->offset =
                m->r[i].from;
    }
    e = al->cnt > 0 ? rd_kafka_assign(l->h->rk, al) : RD_KAFKA_RESP_ERR_NO_ERROR;
    rd_kafka_topic_partition_list_destroy(al);
    if (e != RD_KAFKA_RESP_ERR_NO_ERROR)
        return mm2_kafka_handle_fail(m->k, err, MM2_UNEXPECTED, "read: assign: %s",
                                     rd_kafka_err2name(e));
    return MM2_OK;
}

/* One metadata request for the topics the lane's handle knows, those just assigned among them,
 * on a handle this read made: librdkafka learns a new topic's leaders only at its next refresh,
 * and fetches nothing for the topic meanwhile. Not on a handle made before: it has the topics'
 * metadata (the ListOffsets before the read cached it), and there the same request, with
 * thousands of partitions assigned, returned long after they were fetched, later the more were
 * assigned (bench/README.md, "The Kafka client's figures"). Retried like the fetches, until the
 * deadline. */
static enum mm2_status leaders(struct lane *l, struct mm2_error *err)
{
    struct many *m = l->m;

    for (;;) {
        const struct rd_kafka_metadata *md = NULL;
        rd_kafka_resp_err_t e = rd_kafka_metadata(l->h->rk, 0, NULL, &md,
                                                  mm2_kafka_handle_slice_ms(m->dl, 10 * SLICE_MS));
        if (e == RD_KAFKA_RESP_ERR_NO_ERROR) {
            rd_kafka_metadata_destroy(md);
            return MM2_OK;
        }
        mm2_kafka_handle_serve(l->h, 0);
        if (mm2_kafka_handle_hopeless(l->h))
            return mm2_kafka_handle_hopeless_fail(m->k, l->h, "read", err);
        if (mm2_deadline_expired(m->dl))
            return mm2_kafka_handle_fail_last_error(m->k, l->h, err, MM2_UNREACHABLE,
                                                    "read: no broker told the partitions' leaders "
                                                    "before the deadline (%s)",
                                                    rd_kafka_err2name(e));
        if (atomic_load(&m->stop))
            return MM2_OK; /* another lane failed: its error is the read's */
        mm2_kafka_handle_serve(
            l->h, mm2_kafka_handle_slice_ms(m->dl, 10)); /* a refusal that came back at once */
    }
}

static enum mm2_status consume(struct lane *l, struct mm2_error *err)
{
    struct many *m = l->m;

    while (l->left > 0) {
        rd_kafka_message_t *msg =
            rd_kafka_consumer_poll(l->h->rk, mm2_kafka_handle_slice_ms(m->dl, SLICE_MS));
        enum mm2_status st = MM2_OK;

        mm2_kafka_handle_serve(l->h, 0);
        if (msg != NULL) {
            st = take(l, msg, err);
            rd_kafka_message_destroy(msg);
        } else {
            pause_flush(l); /* nothing queued: the batch goes out now */
        }
        if (st != MM2_OK)
            return st;
        if (l->left == 0)
            break;
        if (atomic_load(&m->stop))
            return MM2_OK; /* another lane failed: its error is the read's */
        if (mm2_kafka_handle_hopeless(l->h))
            return mm2_kafka_handle_hopeless_fail(m->k, l->h, "read", err);
        if (mm2_deadline_expired(m->dl))
            return mm2_kafka_handle_fail_last_error(
                m->k, l->h, err, MM2_UNREACHABLE,
                "read: deadline passed with %zu of %zu range(s) "
                "still being read",
                atomic_load(&m->left), m->n);
    }
    return MM2_OK;
}

/* A lane's read, from its assign to its unassign; on a thread of its own for all lanes but the
 * first. */
static void *lane_run(void *arg)
{
    struct lane *l = arg;
    rd_kafka_resp_err_t e;

    l->st = assign_all(l, &l->err);
    if (l->st == MM2_OK && l->left > 0 && l->made)
        l->st = leaders(l, &l->err);
    if (l->st == MM2_OK)
        l->st = consume(l, &l->err);
    /* Unassigning drops what was fetched beyond the ranges: the next read starts afresh. A
     * pause belongs to the partition in librdkafka, not to the assignment: the handle keeps the
     * list, and the read that assigns the partition again lifts it (mm2_kafka_handle_paused_lift).
     */
    if (l->pause != NULL)
        rd_kafka_topic_partition_list_destroy(l->pause); /* unassigned below: no pause needed */
    l->pause = NULL;
    note_pauses(l);
    e = rd_kafka_assign(l->h->rk, NULL);
    if (l->st == MM2_OK && e != RD_KAFKA_RESP_ERR_NO_ERROR)
        l->st = mm2_kafka_handle_fail(l->m->k, &l->err, MM2_UNEXPECTED, "read: unassign: %s",
                                      rd_kafka_err2name(e));
    if (l->st != MM2_OK)
        atomic_store(&l->m->stop, true);
    return NULL;
}

/* Gives each list back the slots it does not use: a list grows by doubling, so up to half of
 * them may be empty, and over thousands of short lists that adds up (bench/README.md, "The Kafka
 * client's figures"). */
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

/* Cuts idx (sorted) into lanes of about as many ranges to read each, at most k->per_reader
 * (MM2_KAFKA_HANDLE_READERS lanes at most), and gives each its handle. Returns the number of lanes.
 */
static size_t lanes_make(struct many *m, struct tpidx *idx, bool committed, struct lane *lanes,
                         enum mm2_status *st, struct mm2_error *err)
{
    size_t active = 0, nl, per, j = 0, at = 0;
    size_t per_reader = m->k->per_reader > 0 ? m->k->per_reader : 1;

    for (size_t i = 0; i < m->n; i++)
        active += m->r[i].from < m->r[i].until;
    nl = active / per_reader + (active % per_reader != 0);
    nl = nl < 1 ? 1 : nl > MM2_KAFKA_HANDLE_READERS ? MM2_KAFKA_HANDLE_READERS : nl;
    per = active / nl + (active % nl != 0);
    for (size_t l = 0; l < nl; l++)
        lanes[l] = (struct lane){m, NULL, &idx[0], 0, 0, false, NULL, MM2_OK, {0}};
    for (size_t x = 0; x < m->n; x++) {
        bool reads = m->r[idx[x].i].from < m->r[idx[x].i].until;
        if (reads && lanes[j].left == per && j + 1 < nl) {
            j++;
            lanes[j].idx = &idx[x];
            at = x;
        }
        lanes[j].n = x - at + 1;
        if (reads)
            lanes[j].left++;
        else
            m->done[idx[x].i] = true;
    }
    atomic_store(&m->left, active);
    for (size_t l = 0; l < nl && *st == MM2_OK; l++)
        *st = mm2_kafka_handle_reader(m->k, committed, l, &lanes[l].h, &lanes[l].made, err);
    return nl;
}

/* Runs the nl lanes side by side, the first on this thread and each other on a thread of its own
 * (one that gets no thread runs after the others); the read's status is the first failed lane's,
 * its message into err. */
static enum mm2_status lanes_run(struct lane *lanes, size_t nl, struct mm2_error *err)
{
    pthread_t thread[MM2_KAFKA_HANDLE_READERS];
    bool threaded[MM2_KAFKA_HANDLE_READERS] = {false};

    for (size_t l = 1; l < nl; l++)
        threaded[l] = pthread_create(&thread[l], NULL, lane_run, &lanes[l]) == 0;
    if (nl > 0)
        (void)lane_run(&lanes[0]);
    for (size_t l = 1; l < nl; l++) {
        if (threaded[l])
            (void)pthread_join(thread[l], NULL);
        else
            (void)lane_run(&lanes[l]); /* no thread to be had: after the others */
    }
    for (size_t l = 0; l < nl; l++)
        if (lanes[l].st != MM2_OK) {
            *err = lanes[l].err;
            return lanes[l].st;
        }
    return MM2_OK;
}

enum mm2_status mm2_kafka_read_many(struct mm2_kafka *k, const struct mm2_read_range *r, size_t n,
                                    bool committed, const struct mm2_read_caps *caps,
                                    const struct mm2_deadline *dl, struct mm2_record_list *out,
                                    bool *cut, bool *deferred, struct mm2_error *err)
{
    struct many m = {.k = k,
                     .r = r,
                     .n = n,
                     .dl = dl,
                     .out = out,
                     .cut = cut,
                     .deferred = deferred,
                     .memory = SIZE_MAX};
    struct lane lanes[MM2_KAFKA_HANDLE_READERS];
    struct tpidx *idx = NULL;
    struct mm2_tp *tps;
    size_t nl = 0;
    enum mm2_status st;

    atomic_init(&m.held, 0);
    atomic_init(&m.stop, false);
    atomic_init(&m.left, 0);
    for (size_t i = 0; out != NULL && i < n; i++)
        out[i] = (struct mm2_record_list){NULL, 0};
    st = mm2_kafka_handle_enter(k, dl, err);
    if (st != MM2_OK)
        return st;
    if (r == NULL || n == 0 || out == NULL || cut == NULL || caps == NULL || caps->budget == 0 ||
        caps->memory == 0 || (caps->memory != SIZE_MAX && deferred == NULL))
        return mm2_kafka_handle_fail(
            k, err, MM2_USAGE,
            "read: needs ranges, an output list and flags for each, a budget and a "
            "memory cap > 0");
    m.budget = caps->budget;
    m.memory = caps->memory;
    for (size_t i = 0; i < n; i++)
        if (r[i].from < 0 || r[i].until < 0)
            return mm2_kafka_handle_fail(k, err, MM2_USAGE, "read: range %zu has a negative offset",
                                         i);
    tps = calloc(n, sizeof(*tps));
    if (tps == NULL)
        return mm2_kafka_handle_fail(k, err, MM2_UNEXPECTED, "read: out of memory");
    for (size_t i = 0; i < n; i++)
        tps[i] = (struct mm2_tp){r[i].topic, r[i].partition};
    st = mm2_kafka_handle_tp_index(k, tps, n, &idx, err);
    free(tps);
    if (st != MM2_OK)
        return st;
    m.cap = calloc(n, sizeof(*m.cap));
    m.own = calloc(n, sizeof(*m.own));
    m.bytes = calloc(n, sizeof(*m.bytes));
    m.done = calloc(n, sizeof(*m.done));
    m.paused = calloc(n, sizeof(*m.paused));
    memset(cut, 0, n * sizeof(*cut));
    if (deferred != NULL)
        memset(deferred, 0, n * sizeof(*deferred));
    if (m.cap == NULL || m.own == NULL || m.bytes == NULL || m.done == NULL || m.paused == NULL)
        st = mm2_kafka_handle_fail(k, err, MM2_UNEXPECTED, "read: out of memory");
    if (st == MM2_OK)
        nl = lanes_make(&m, idx, committed, lanes, &st, err);
    if (st == MM2_OK)
        st = lanes_run(lanes, nl, err);
    if (m.cap != NULL)
        shrink(&m);
    free(idx);
    free(m.cap);
    free(m.own);
    free(m.bytes);
    free(m.done);
    free(m.paused);
    return st;
}
