/*
 * mm2_kafka_cluster: what a cluster says of itself, asked through a consumer handle (see
 * mm2_kafka.h): its id, its topics (metadata) and its partitions' log start, end and last stable
 * offsets (ListOffsets). Each request is retried by the handle layer's one rule
 * (mm2_kafka_handle_settle). The bounded read asks the end of its partition here
 * (mm2_kafka_cluster_list_offsets).
 */
#include "mm2_kafka_cluster.h"
#include "mm2_kafka_handle.h"

#include <stdlib.h>
#include <string.h>

/* ---- cluster id and topics --------------------------------------------------------------- */

enum mm2_status mm2_kafka_cluster_id(struct mm2_kafka *k, const struct mm2_deadline *dl, char *out,
                                     size_t outlen, struct mm2_error *err)
{
    struct handle *h;
    enum mm2_status st = mm2_kafka_handle_enter(k, dl, err);
    char *id;
    size_t n;

    if (st != MM2_OK)
        return st;
    if (out == NULL || outlen == 0)
        return mm2_kafka_handle_fail(k, err, MM2_USAGE, "cluster id: no output buffer");
    out[0] = '\0';
    st = mm2_kafka_handle_get(k, false, &h, err);
    if (st == MM2_OK)
        st = mm2_kafka_handle_wait_up(k, h, dl, "cluster id", err);
    if (st != MM2_OK)
        return st;
    id = rd_kafka_clusterid(h->rk, 0); /* cached by wait_up */
    if (id == NULL)
        return mm2_kafka_handle_fail_last_error(k, h, err, MM2_UNEXPECTED,
                                                "cluster id: the brokers reported none");
    n = strlen(id);
    if (n >= outlen) {
        rd_kafka_mem_free(h->rk, id);
        return mm2_kafka_handle_fail(k, err, MM2_UNEXPECTED,
                                     "cluster id: %zu characters, more than the %zu expected", n,
                                     outlen - 1);
    }
    memcpy(out, id, n + 1);
    rd_kafka_mem_free(h->rk, id);
    return MM2_OK;
}

static int topic_cmp(const void *a, const void *b)
{
    const struct mm2_topic_meta *x = a;
    const struct mm2_topic_meta *y = b;

    return strcmp(x->name, y->name);
}

/* Copies md's topics into out; returns false when out of memory (out then partly filled). */
static bool topics_copy(const struct rd_kafka_metadata *md, struct mm2_topic_list *out)
{
    out->v = calloc(md->topic_cnt > 0 ? (size_t)md->topic_cnt : 1, sizeof(*out->v));
    if (out->v == NULL)
        return false;
    for (int i = 0; i < md->topic_cnt; i++) {
        out->v[i].name = strdup(md->topics[i].topic);
        if (out->v[i].name == NULL)
            return false;
        out->v[i].partitions = md->topics[i].partition_cnt;
        out->n++;
    }
    qsort(out->v, out->n, sizeof(*out->v), topic_cmp);
    return true;
}

enum mm2_status mm2_kafka_topics(struct mm2_kafka *k, const struct mm2_deadline *dl,
                                 struct mm2_topic_list *out, struct mm2_error *err)
{
    struct handle *h = NULL;
    enum mm2_status st = mm2_kafka_handle_enter(k, dl, err);

    if (out != NULL)
        *out = (struct mm2_topic_list){NULL, 0};
    if (st == MM2_OK && out == NULL)
        st = mm2_kafka_handle_fail(k, err, MM2_USAGE, "topics: no output list");
    if (st == MM2_OK)
        st = mm2_kafka_handle_get(k, false, &h, err);
    if (st == MM2_OK)
        st = mm2_kafka_handle_wait_up(k, h, dl, "topics", err);
    while (st == MM2_OK) {
        const struct rd_kafka_metadata *md = NULL;
        struct attempt at = {RD_KAFKA_RESP_ERR_NO_ERROR, NULL, -1};

        at.e = rd_kafka_metadata(h->rk, 1, NULL, &md, mm2_kafka_handle_slice_ms(dl, 0));
        mm2_kafka_handle_serve(h, 0);
        /* A topic being created or deleted can answer with an error of its own: asked again
         * while that error is retriable. */
        for (int i = 0; at.e == RD_KAFKA_RESP_ERR_NO_ERROR && i < md->topic_cnt; i++)
            if (md->topics[i].err != RD_KAFKA_RESP_ERR_NO_ERROR)
                at = (struct attempt){md->topics[i].err, md->topics[i].topic, -1};
        if (at.e == RD_KAFKA_RESP_ERR_NO_ERROR) {
            bool ok = topics_copy(md, out);
            rd_kafka_metadata_destroy(md);
            if (ok)
                return MM2_OK;
            mm2_topic_list_free(out);
            return mm2_kafka_handle_fail(k, err, MM2_UNEXPECTED, "topics: out of memory");
        }
        /* An answer above receive.message.max.bytes fails the request itself (_BAD_MSG); the
         * broker's failure, served just now, makes the handle hopeless and says why. */
        st = mm2_kafka_handle_settle(k, h, &at, dl, "topics", err);
        if (md != NULL)
            rd_kafka_metadata_destroy(md); /* after settle: at.topic is md's */
    }
    return st;
}

void mm2_topic_list_free(struct mm2_topic_list *l)
{
    if (l == NULL)
        return;
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i].name);
    free(l->v);
    l->v = NULL;
    l->n = 0;
}

/* ---- log offsets ------------------------------------------------------------------------- */

/* rd_kafka_offsets_for_times for timestamp ts (-2 log start, -1 end: high watermark or last
 * stable offset, by the handle's isolation.level) on tps[0..n), one ListOffsets request per
 * leader. librdkafka 2.0.2 leaves an offset as the timestamp asked when no answer came for it (a
 * leader that did not answer in time is not an error there), and folds the first per-partition
 * error into its return code without telling which partition; a negative offset after NO_ERROR
 * is therefore "not answered" and retried. The list keeps its order through the call
 * (rd_kafka_topic_partition_list_update writes the answers in place), so elems[j] is tps[j]. */
static enum mm2_status list_offsets_chunk(struct mm2_kafka *k, struct handle *h,
                                          const struct mm2_tp *tps, size_t n, int64_t ts,
                                          int64_t *out, const char *what,
                                          const struct mm2_deadline *dl, struct mm2_error *err)
{
    enum mm2_status st = MM2_OK;

    while (st == MM2_OK) {
        struct attempt a = {RD_KAFKA_RESP_ERR_NO_ERROR, NULL, 0};
        rd_kafka_topic_partition_list_t *l = mm2_kafka_handle_tp_list(tps, n);

        if (l == NULL)
            return mm2_kafka_handle_fail(k, err, MM2_UNEXPECTED, "%s: out of memory", what);
        for (int j = 0; j < l->cnt; j++)
            l->elems[j].offset = ts;
        a.e = rd_kafka_offsets_for_times(h->rk, l, mm2_kafka_handle_slice_ms(dl, 0));
        mm2_kafka_handle_serve(h, 0);
        for (int j = 0; j < l->cnt && a.e == RD_KAFKA_RESP_ERR_NO_ERROR; j++) {
            if (l->elems[j].err != RD_KAFKA_RESP_ERR_NO_ERROR)
                a = (struct attempt){l->elems[j].err, tps[j].topic, tps[j].partition};
            else if (l->elems[j].offset < 0)
                a = (struct attempt){RD_KAFKA_RESP_ERR__TIMED_OUT, tps[j].topic, tps[j].partition};
            else
                out[j] = l->elems[j].offset;
        }
        if (a.e != RD_KAFKA_RESP_ERR_NO_ERROR && a.topic == NULL && n == 1) {
            a.topic = tps[0].topic;
            a.partition = tps[0].partition;
        }
        rd_kafka_topic_partition_list_destroy(l);
        if (a.e == RD_KAFKA_RESP_ERR_NO_ERROR)
            return MM2_OK;
        st = mm2_kafka_handle_settle(k, h, &a, dl, what, err);
    }
    return st;
}

/* The same on every partition, in calls of at most MM2_KAFKA_HANDLE_PARTITIONS_PER_CALL partitions:
 * librdkafka (2.0.2, and 2.8.0 still) matches each partition of a call against lists of the whole
 * call by linear search (rd_kafka_topic_partition_list_query_leaders0 per leader, then
 * rd_kafka_topic_partition_list_update over the answers), so one call costs CPU as the square of
 * its partitions and calls of a fixed size cost it linearly (bench/README.md, listoffsets). The
 * price is one request per leader per call: ceil(n / 1,000) calls instead of one. 2.0.2, which
 * this was written for, had no other call answering ListOffsets for many partitions
 * (query_watermark_offsets asks per partition); the Admin API's rd_kafka_ListOffsets (2.3 on)
 * has not been measured against it. */
enum mm2_status mm2_kafka_cluster_list_offsets(struct mm2_kafka *k, struct handle *h,
                                               const struct mm2_tp *tps, size_t n, int64_t ts,
                                               int64_t *out, const char *what,
                                               const struct mm2_deadline *dl, struct mm2_error *err)
{
    const size_t per = MM2_KAFKA_HANDLE_PARTITIONS_PER_CALL;
    enum mm2_status st = mm2_kafka_handle_wait_up(k, h, dl, what, err);

    for (size_t off = 0; st == MM2_OK && off < n; off += per) {
        size_t m = n - off < per ? n - off : per;

        st = list_offsets_chunk(k, h, tps + off, m, ts, out + off, what, dl, err);
    }
    return st;
}

enum mm2_status mm2_kafka_log_offsets(struct mm2_kafka *k, const struct mm2_tp *tps, size_t n,
                                      int64_t *start, int64_t *end, int64_t *stable,
                                      const struct mm2_deadline *dl, struct mm2_error *err)
{
    struct tpidx *idx = NULL;
    struct handle *h;
    enum mm2_status st = mm2_kafka_handle_enter(k, dl, err);

    if (st != MM2_OK)
        return st;
    if (end == NULL)
        return mm2_kafka_handle_fail(k, err, MM2_USAGE, "log offsets: no output for the end");
    st = mm2_kafka_handle_tp_index(k, tps, n, &idx, err);
    if (st == MM2_OK)
        st = mm2_kafka_handle_get(k, false, &h, err);
    if (st == MM2_OK && start != NULL)
        st = mm2_kafka_cluster_list_offsets(k, h, tps, n, RD_KAFKA_OFFSET_BEGINNING, start,
                                            "log start offsets", dl, err);
    if (st == MM2_OK)
        st = mm2_kafka_cluster_list_offsets(k, h, tps, n, RD_KAFKA_OFFSET_END, end,
                                            "log end offsets", dl, err);
    if (st == MM2_OK && stable != NULL)
        st = mm2_kafka_handle_get(k, true, &h, err);
    if (st == MM2_OK && stable != NULL)
        st = mm2_kafka_cluster_list_offsets(k, h, tps, n, RD_KAFKA_OFFSET_END, stable,
                                            "last stable offsets", dl, err);
    free(idx);
    return st;
}
