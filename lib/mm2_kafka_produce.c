/* mm2_kafka_produce: the audit trail's writes (see mm2_kafka.h, mm2_kafka_produce). Above
 * mm2_kafka_handle.c, which makes its producer; no other file of the client calls it. */
#include <librdkafka/rdkafka.h>
#include <stdlib.h>
#include <string.h>

#include "mm2_deadline.h"
#include "mm2_kafka_handle.h"

#define ERR_NOMEM RD_KAFKA_RESP_ERR__BEGIN /* a marker librdkafka never returns */

static rd_kafka_headers_t *headers_of(const struct mm2_kafka_out *r)
{
    rd_kafka_headers_t *h = rd_kafka_headers_new(r->nheaders);

    for (size_t i = 0; h != NULL && i < r->nheaders; i++)
        if (rd_kafka_header_add(h, r->headers[i].key, -1, r->headers[i].value,
                                (ssize_t)strlen(r->headers[i].value)) !=
            RD_KAFKA_RESP_ERR_NO_ERROR) {
            rd_kafka_headers_destroy(h);
            return NULL;
        }
    return h;
}

/* Queues record r; waits (serving delivery reports) while librdkafka's queue is full. */
static rd_kafka_resp_err_t queue_one(struct handle *h, const char *topic, int32_t partition,
                                     const struct mm2_kafka_out *r, struct mm2_kafka_tally *t,
                                     const struct mm2_deadline *dl)
{
    for (;;) {
        rd_kafka_headers_t *hdrs = headers_of(r);
        rd_kafka_resp_err_t e;

        if (hdrs == NULL)
            return ERR_NOMEM; /* out of memory: reported as such */
        e = rd_kafka_producev(h->rk, RD_KAFKA_V_TOPIC(topic), RD_KAFKA_V_PARTITION(partition),
                              RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
                              RD_KAFKA_V_KEY(r->key, r->key_len),
                              RD_KAFKA_V_VALUE((void *)(uintptr_t)r->value, r->value_len),
                              RD_KAFKA_V_HEADERS(hdrs), RD_KAFKA_V_OPAQUE(t), RD_KAFKA_V_END);
        if (e == RD_KAFKA_RESP_ERR_NO_ERROR)
            return e; /* hdrs are librdkafka's now */
        rd_kafka_headers_destroy(hdrs);
        if (e != RD_KAFKA_RESP_ERR__QUEUE_FULL || mm2_deadline_expired(dl))
            return e;
        rd_kafka_poll(h->rk, mm2_kafka_handle_slice_ms(dl, SLICE_MS));
    }
}

/* Waits until every queued record is acknowledged or failed; at the deadline, or once the
 * handle is hopeless, purges what is left (its reports then count as failed). */
static bool drain(struct handle *h, const struct mm2_deadline *dl)
{
    while (rd_kafka_outq_len(h->rk) > 0) {
        if (mm2_deadline_expired(dl) || mm2_kafka_handle_hopeless(h)) {
            (void)rd_kafka_purge(h->rk, RD_KAFKA_PURGE_F_QUEUE | RD_KAFKA_PURGE_F_INFLIGHT);
            while (rd_kafka_outq_len(h->rk) > 0)
                rd_kafka_poll(h->rk, 10);
            return false;
        }
        (void)rd_kafka_flush(h->rk, mm2_kafka_handle_slice_ms(dl, SLICE_MS));
    }
    return true;
}

enum mm2_status mm2_kafka_produce(struct mm2_kafka *k, const char *topic, int32_t partition,
                                  const struct mm2_kafka_out *recs, size_t n,
                                  const struct mm2_deadline *dl, struct mm2_error *err)
{
    struct mm2_kafka_tally t = {0, 0, RD_KAFKA_RESP_ERR_NO_ERROR};
    struct handle *h;
    rd_kafka_resp_err_t qe = RD_KAFKA_RESP_ERR_NO_ERROR;
    size_t queued = 0;
    enum mm2_status st = mm2_kafka_handle_enter(k, dl, err);

    if (st != MM2_OK)
        return st;
    if (topic == NULL || topic[0] == '\0' || partition < 0 || (recs == NULL && n > 0))
        return mm2_kafka_handle_fail(k, err, MM2_USAGE, "write: no topic or no records");
    st = mm2_kafka_handle_producer(k, &h, err);
    if (st != MM2_OK)
        return st;
    for (; queued < n && qe == RD_KAFKA_RESP_ERR_NO_ERROR; queued++)
        qe = queue_one(h, topic, partition, &recs[queued], &t, dl);
    if (qe != RD_KAFKA_RESP_ERR_NO_ERROR)
        queued--;
    bool drained = drain(h, dl);
    if (qe == ERR_NOMEM)
        return mm2_kafka_handle_fail(k, err, MM2_UNEXPECTED, "write to '%.255s': out of memory",
                                     topic);
    if (mm2_kafka_handle_hopeless(h))
        return mm2_kafka_handle_hopeless_fail(k, h, "write", err);
    if (qe != RD_KAFKA_RESP_ERR_NO_ERROR && t.failed == 0)
        t.first = qe;
    if (t.acked == n)
        return MM2_OK;
    if (!drained || t.first == RD_KAFKA_RESP_ERR__TIMED_OUT ||
        t.first == RD_KAFKA_RESP_ERR__PURGE_QUEUE || t.first == RD_KAFKA_RESP_ERR__PURGE_INFLIGHT ||
        t.first == RD_KAFKA_RESP_ERR__MSG_TIMED_OUT)
        return mm2_kafka_handle_fail_last_error(
            k, h, err, MM2_UNREACHABLE,
            "write to '%.255s'[%d]: %zu of %zu records acknowledged "
            "before the deadline",
            topic, (int)partition, t.acked, n);
    return mm2_kafka_handle_fail(
        k, err, mm2_kafka_handle_status_of(t.first),
        "write to '%.255s'[%d]: %s: %s (%zu of %zu records acknowledged)%s", topic, (int)partition,
        rd_kafka_err2name(t.first), rd_kafka_err2str(t.first), t.acked, n,
        t.first == RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED
            ? "; grant this login Write on the topic (docs/acls.md)"
            : "");
}
