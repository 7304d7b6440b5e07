/*
 * mm2_kafka_read: the bounded read of one partition's records (see mm2_kafka.h, and
 * mm2_kafka_read.h for what mm2_kafka_many.c uses), on the handle of the isolation level asked:
 * the end is asked first (ListOffsets, mm2_kafka_cluster.c), then the partition is assigned at the
 * start offset and consumed up to the end, max records or the deadline, and unassigned. The
 * records are copies, owned by their list (copied, costed and freed here).
 */
#include "mm2_kafka_cluster.h"
#include "mm2_kafka_handle.h"
#include "mm2_kafka_read.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char *dup_bytes(const void *p, size_t len)
{
    unsigned char *d = malloc(len > 0 ? len : 1);

    if (d != NULL && len > 0)
        memcpy(d, p, len);
    return d;
}

static void record_free(struct mm2_record *r)
{
    free(r->key);
    free(r->value);
    for (size_t i = 0; i < r->nheaders; i++) {
        free(r->headers[i].name);
        free(r->headers[i].value);
    }
    free(r->headers);
}

/* Copies m into r (zeroed); false when out of memory (r then holds what was copied). */
static bool record_copy(const rd_kafka_message_t *m, struct mm2_record *r)
{
    rd_kafka_timestamp_type_t tstype = RD_KAFKA_TIMESTAMP_NOT_AVAILABLE;
    rd_kafka_headers_t *hdrs = NULL;
    size_t nh;

    r->offset = m->offset;
    r->timestamp = rd_kafka_message_timestamp(m, &tstype);
    r->tstype = (int)tstype;
    if (m->key != NULL) {
        r->key = dup_bytes(m->key, m->key_len);
        if (r->key == NULL)
            return false;
        r->key_len = m->key_len;
    }
    if (m->payload != NULL) {
        r->value = dup_bytes(m->payload, m->len);
        if (r->value == NULL)
            return false;
        r->value_len = m->len;
    }
    if (rd_kafka_message_headers(m, &hdrs) != RD_KAFKA_RESP_ERR_NO_ERROR || hdrs == NULL)
        return true;
    nh = rd_kafka_header_cnt(hdrs);
    if (nh == 0)
        return true;
    r->headers = calloc(nh, sizeof(*r->headers));
    if (r->headers == NULL)
        return false;
    for (size_t i = 0; i < nh; i++) {
        const char *name = NULL;
        const void *val = NULL;
        size_t len = 0;
        struct mm2_header *hd = &r->headers[i];

        if (rd_kafka_header_get_all(hdrs, i, &name, &val, &len) != RD_KAFKA_RESP_ERR_NO_ERROR)
            break;
        r->nheaders++;
        hd->name = strdup(name != NULL ? name : "");
        if (hd->name == NULL)
            return false;
        if (val != NULL) {
            hd->value = dup_bytes(val, len);
            if (hd->value == NULL)
                return false;
            hd->len = len;
        }
    }
    return true;
}

bool mm2_kafka_read_record_append(struct mm2_record_list *out, size_t *cap, size_t max,
                                  const rd_kafka_message_t *m)
{
    if (out->n == *cap) {
        size_t c = *cap > 0 ? *cap * 2 : 4; /* many lists hold a few records each */
        struct mm2_record *v;
        if (c > max)
            c = max;
        v = realloc(out->v, c * sizeof(*v));
        if (v == NULL)
            return false;
        out->v = v;
        *cap = c;
    }
    memset(&out->v[out->n], 0, sizeof(out->v[out->n]));
    out->n++; /* counted at once, so that a partial copy is freed with the list */
    return record_copy(m, &out->v[out->n - 1]);
}

/* Consumer errors that end a read: everything but the transient ones librdkafka recovers from
 * by itself. __AUTO_OFFSET_RESET is what auto.offset.reset=error gives for an offset outside
 * the log: never a silent jump. */
static bool read_fatal(rd_kafka_resp_err_t e)
{
    return !mm2_kafka_handle_retriable(e) || mm2_kafka_handle_auth_error(e);
}

/* Consumes the assigned partition until until, max records, the end or the deadline. */
static enum mm2_status read_loop(struct mm2_kafka *k, struct handle *h, const char *what,
                                 int64_t from, int64_t until, size_t max,
                                 const struct mm2_deadline *dl, struct mm2_record_list *out,
                                 struct mm2_error *err)
{
    size_t cap = 0;

    for (;;) {
        rd_kafka_message_t *m =
            rd_kafka_consumer_poll(h->rk, mm2_kafka_handle_slice_ms(dl, SLICE_MS));
        enum mm2_status st = MM2_OK;
        bool done = false;

        mm2_kafka_handle_serve(h, 0);
        if (m != NULL && mm2_kafka_handle_group_noise(m)) {
            /* the never-joined group's coordinator: nothing about this read */
        } else if (m != NULL && m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
            done = true; /* the fetch position reached the end: nothing more to read */
        } else if (m != NULL && m->err != RD_KAFKA_RESP_ERR_NO_ERROR) {
            if (m->err == RD_KAFKA_RESP_ERR__AUTO_OFFSET_RESET ||
                m->err == RD_KAFKA_RESP_ERR_OFFSET_OUT_OF_RANGE)
                st = mm2_kafka_handle_fail(k, err, MM2_UNEXPECTED,
                                           "%s: offset %" PRId64
                                           " is outside the partition's log (%s)",
                                           what, from, rd_kafka_err2name(m->err));
            else if (mm2_kafka_handle_auth_error(m->err)) /* librdkafka's text says why */
                st = mm2_kafka_handle_fail_last_error(k, h, err, MM2_CONFIG, "%s: %s: %s", what,
                                                      rd_kafka_err2name(m->err),
                                                      rd_kafka_err2str(m->err));
            else if (read_fatal(m->err))
                st = mm2_kafka_handle_fail(k, err, mm2_kafka_handle_status_of(m->err), "%s: %s: %s",
                                           what, rd_kafka_err2name(m->err),
                                           rd_kafka_err2str(m->err));
        } else if (m != NULL) {
            if (m->offset >= until) {
                done = true;
            } else if (!mm2_kafka_read_record_append(out, &cap, max, m)) {
                st = mm2_kafka_handle_fail(k, err, MM2_UNEXPECTED, "%s: out of memory", what);
            } else if (out->n >= max || m->offset + 1 >= until) {
                done = true; /* the last offset of the range: no need to wait for the end */
            }
        }
        if (m != NULL)
            rd_kafka_message_destroy(m);
        if (st != MM2_OK || done)
            return st;
        if (mm2_kafka_handle_hopeless(h))
            return mm2_kafka_handle_hopeless_fail(k, h, what, err);
        if (mm2_deadline_expired(dl))
            return mm2_kafka_handle_fail_last_error(k, h, err, MM2_UNREACHABLE,
                                                    "%s: deadline passed after %zu record(s)", what,
                                                    out->n);
    }
}

enum mm2_status mm2_kafka_read(struct mm2_kafka *k, const char *topic, int32_t partition,
                               int64_t from, int64_t until, size_t max, bool committed,
                               const struct mm2_deadline *dl, struct mm2_record_list *out,
                               struct mm2_error *err)
{
    char what[320];
    char endwhat[360];
    struct mm2_tp tp = {topic, partition};
    struct tpidx *idx = NULL;
    int64_t end = 0;
    rd_kafka_topic_partition_list_t *l;
    rd_kafka_resp_err_t e;
    struct handle *h;
    enum mm2_status st;

    if (out != NULL)
        *out = (struct mm2_record_list){NULL, 0};
    st = mm2_kafka_handle_enter(k, dl, err);
    if (st != MM2_OK)
        return st;
    if (out == NULL || max == 0 || from < 0 || until < -1)
        return mm2_kafka_handle_fail(
            k, err, MM2_USAGE, "read: needs an output list, max >= 1, from >= 0 and until >= -1");
    st = mm2_kafka_handle_tp_index(k, &tp, 1, &idx, err);
    if (st != MM2_OK)
        return st;
    if (until != -1 && from >= until) {
        free(idx);
        return MM2_OK; /* an empty range: nothing to ask */
    }
    snprintf(what, sizeof(what), "read %.255s[%d]", topic, (int)partition);
    /* The end is asked for even with an explicit until: assign() on a partition that does not
     * exist reports nothing in 2.0.2 (the read would just wait for the deadline), while
     * ListOffsets answers UNKNOWN_PARTITION at once. */
    snprintf(endwhat, sizeof(endwhat), "%s: %s", what,
             committed ? "last stable offset" : "log end offset");
    st = mm2_kafka_handle_get(k, committed, &h, err);
    if (st == MM2_OK)
        st = mm2_kafka_cluster_list_offsets(k, h, &tp, 1, RD_KAFKA_OFFSET_END, &end, endwhat, dl,
                                            err);
    free(idx);
    if (st != MM2_OK)
        return st;
    if (until == -1 || until > end)
        until = end;
    if (from >= until)
        return MM2_OK;
    l = rd_kafka_topic_partition_list_new(1);
    if (l == NULL)
        return mm2_kafka_handle_fail(k, err, MM2_UNEXPECTED, "%s: out of memory", what);
    rd_kafka_topic_partition_list_add(l, topic, partition)->offset = from;
    {
        struct tpidx one = {topic, partition, 0};
        mm2_kafka_handle_paused_lift(h, &one, 1); /* a read_many's pause on it */
    }
    e = rd_kafka_assign(h->rk, l);
    rd_kafka_topic_partition_list_destroy(l);
    if (e != RD_KAFKA_RESP_ERR_NO_ERROR)
        return mm2_kafka_handle_fail(k, err, MM2_UNEXPECTED, "%s: assign: %s", what,
                                     rd_kafka_err2name(e));
    st = read_loop(k, h, what, from, until, max, dl, out, err);
    /* Unassigning drops whatever was fetched beyond the range: the next read starts afresh. */
    e = rd_kafka_assign(h->rk, NULL);
    if (st == MM2_OK && e != RD_KAFKA_RESP_ERR_NO_ERROR)
        st = mm2_kafka_handle_fail(k, err, MM2_UNEXPECTED, "%s: unassign: %s", what,
                                   rd_kafka_err2name(e));
    return st;
}

size_t mm2_record_cost(const struct mm2_record *r)
{
    size_t c = 2 * sizeof(*r) + MM2_RECORD_ALLOC_COST * 2 + r->key_len + r->value_len;

    if (r->nheaders > 0)
        c += MM2_RECORD_ALLOC_COST;
    for (size_t i = 0; i < r->nheaders; i++)
        c += sizeof(r->headers[i]) + MM2_RECORD_ALLOC_COST * 2 + strlen(r->headers[i].name) + 1 +
             r->headers[i].len;
    return c;
}

size_t mm2_record_list_cost(const struct mm2_record_list *l)
{
    size_t c = 0;

    for (size_t i = 0; l != NULL && i < l->n; i++)
        c += mm2_record_cost(&l->v[i]);
    return c;
}

void mm2_kafka_read_record_pop(struct mm2_record_list *l)
{
    if (l->n > 0)
        record_free(&l->v[--l->n]);
}

void mm2_record_list_free(struct mm2_record_list *l)
{
    if (l == NULL)
        return;
    for (size_t i = 0; i < l->n; i++)
        record_free(&l->v[i]);
    free(l->v);
    l->v = NULL;
    l->n = 0;
}
