/* pfretention: the retention headroom of the replicated source partitions (see pfretention.h). */
#include "pfretention.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clients.h"

/* One run's headroom: what it reads and where its findings go. */
struct hr {
    struct job *j;
    const struct mm2_xtopic *topics;
    size_t ntopics;
    bool readable;
    const struct mm2_pf_who *who;
    long rate_wait_ms;
    struct mm2_pf_findings *f;
};

/* The source partitions to judge (those of the topics that exist), in topic order. */
static struct mm2_tp *source_partitions(const struct hr *x, size_t *n)
{
    size_t np = 0, k = 0;
    struct mm2_tp *tps;

    for (size_t i = 0; i < x->ntopics; i++)
        np += x->topics[i].partitions > 0 ? (size_t)x->topics[i].partitions : 0;
    tps = calloc(np + 1, sizeof(*tps));
    for (size_t i = 0; tps != NULL && i < x->ntopics; i++)
        for (int32_t p = 0; p < x->topics[i].partitions; p++)
            tps[k++] = (struct mm2_tp){x->topics[i].name, p};
    *n = np;
    return tps;
}

/* What limits each topic's log: by time, retention.ms (ms), and by size, retention.bytes per
 * partition (bytes); each -1 (unlimited) when it is negative or the cleanup.policy has no
 * "delete". A retention.bytes missing from the answer or not a number is -1 with a warning
 * "not checked". */
static enum mm2_status retention_of(struct hr *x, const char **names, size_t n, long long *ms,
                                    long long *bytes, struct mm2_error *err)
{
    struct mm2_kafka_config_value *v = calloc(3 * n + 1, sizeof(*v));
    static const char *const keys[3] = {"retention.ms", "cleanup.policy", "retention.bytes"};
    struct mm2_deadline dl;
    enum mm2_status st = v == NULL ? mm2_error_set(err, MM2_UNEXPECTED, "out of memory") : MM2_OK;

    for (int k = 0; st == MM2_OK && k < 3; k++) {
        job_kafka_deadline(x->j, &dl);
        st = mm2_kafka_describe_config(x->j->source, names, n, keys[k], v + k * n, &dl, err);
    }
    for (size_t i = 0; st == MM2_OK && i < n; i++) {
        const struct mm2_kafka_config_value *b = &v[2 * n + i];
        char *end = NULL, *bend = NULL;
        bool deleted =
            v[n + i].seen != MM2_KAFKA_SEEN_OPS || strstr(v[n + i].value, "delete") != NULL;

        ms[i] = strtoll(v[i].value, &end, 10);
        if (v[i].seen != MM2_KAFKA_SEEN_OPS || end == v[i].value || *end != '\0')
            st = mm2_error_set(err, MM2_UNEXPECTED, "topic %.200s: no retention.ms in the answer",
                               names[i]);
        else if (!deleted)
            ms[i] = -1; /* compacted only: no time limit */
        errno = 0;
        bytes[i] = b->seen == MM2_KAFKA_SEEN_OPS ? strtoll(b->value, &bend, 10) : -1;
        if (b->seen == MM2_KAFKA_SEEN_OPS && (bend == b->value || *bend != '\0' || errno != 0)) {
            bytes[i] = -1;
            mm2_pf_add(x->f, "retention-bytes", MM2_PF_WARN, NULL, NULL, NULL,
                       "not checked: %s has retention.bytes=\"%.40s\", not a number", names[i],
                       b->value);
        } else if (b->seen != MM2_KAFKA_SEEN_OPS && deleted) {
            mm2_pf_add(x->f, "retention-bytes", MM2_PF_WARN, NULL, NULL, NULL,
                       "not checked: %s: the source did not answer its retention.bytes", names[i]);
        }
        if (bytes[i] < 0 || !deleted)
            bytes[i] = -1; /* compacted only: no size limit either */
    }
    free(v);
    return st;
}

/* The first record at or after each partition's C, read in one pass (at most 8 offsets past
 * C: transaction markers and compacted offsets have no record). */
static enum mm2_status records_at_c(struct hr *x, const struct mm2_tp *tps, size_t n,
                                    const int64_t *c, const int64_t *start, const int64_t *end,
                                    struct mm2_record_list *out, struct mm2_error *err)
{
    struct mm2_read_range *r = calloc(n + 1, sizeof(*r));
    size_t *of = calloc(n + 1, sizeof(*of)), m = 0;
    struct mm2_record_list *got = calloc(n + 1, sizeof(*got));
    bool *cut = calloc(n + 1, sizeof(*cut));
    const struct mm2_read_caps caps = {64 * 1024, SIZE_MAX};
    struct mm2_deadline dl;
    enum mm2_status st = MM2_OK;

    if (r == NULL || of == NULL || got == NULL || cut == NULL)
        st = mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    for (size_t i = 0; st == MM2_OK && i < n; i++)
        if (c[i] >= 0 && c[i] >= start[i] && c[i] < end[i]) {
            r[m] = (struct mm2_read_range){tps[i].topic, tps[i].partition, c[i],
                                           end[i] - c[i] > 8 ? c[i] + 8 : end[i]};
            of[m++] = i;
        }
    job_kafka_deadline(x->j, &dl);
    if (st == MM2_OK && m > 0)
        st = mm2_kafka_read_many(x->j->source, r, m, false, &caps, &dl, got, cut, NULL, err);
    for (size_t q = 0; q < m; q++) {
        out[of[q]] = got[q];
        got[q] = (struct mm2_record_list){NULL, 0};
    }
    for (size_t q = 0; got != NULL && q < m; q++)
        mm2_record_list_free(&got[q]);
    free(r);
    free(of);
    free(got);
    free(cut);
    return st;
}

/* What the headroom is judged from: per partition (n, in topic order) C, the log at the last
 * read, its end at the first read and the records at C; per topic (names, NULL-ended)
 * retention.ms and retention.bytes; and how far apart the two reads were (0: one read, no
 * topic has retention.bytes). */
struct pf_logs {
    struct mm2_tp *tps;
    size_t n;
    int64_t *c, *start, *end, *before;
    struct mm2_record_list *rec;
    const char **names;
    long long *ms, *bytes;
    long interval_ms;
};

/* The key, value and header bytes of the records read at C. */
static unsigned long long record_bytes(const struct mm2_record_list *l)
{
    unsigned long long b = 0;

    for (size_t r = 0; r < l->n; r++) {
        b += l->v[r].key_len + l->v[r].value_len;
        for (size_t h = 0; h < l->v[r].nheaders; h++)
            b += strlen(l->v[r].headers[h].name) + l->v[r].headers[h].len;
    }
    return b;
}

/* Partition i's retention.bytes headroom (mm2_pf_bytes_headroom), estimated. */
static long long bytes_headroom(struct hr *x, const struct pf_logs *l, size_t i, long long bytes)
{
    const struct mm2_pf_bytes h = {.topic = l->tps[i].topic,
                                   .partition = l->tps[i].partition,
                                   .c = l->c[i],
                                   .log_start = l->start[i],
                                   .log_end = l->end[i],
                                   .end_before = l->before[i],
                                   .interval_ms = l->interval_ms,
                                   .records = l->rec[i].n,
                                   .record_bytes = record_bytes(&l->rec[i]),
                                   .retention_bytes = bytes};

    return mm2_pf_bytes_headroom(x->f, x->who, &h, x->j->cfg.retention_margin_ms);
}

/* Per partition, how long until C falls below the log start, against [flink]
 * retention.margin.seconds: by retention.ms, then, where that leaves it in the log, by
 * retention.bytes (an estimate); one pass per topic with its least headroom by each. */
static void judge_headroom(struct hr *x, const struct pf_logs *l)
{
    const long margin_ms = x->j->cfg.retention_margin_ms;
    int64_t now = (int64_t)time(NULL) * 1000;

    for (size_t t = 0, i = 0; l->names[t] != NULL; t++) {
        long long least = LLONG_MAX, least_b = LLONG_MAX;
        bool ok = true, ok_b = true;
        for (; i < l->n && strcmp(l->tps[i].topic, l->names[t]) == 0; i++) {
            const struct mm2_record_list *rec = &l->rec[i];
            struct mm2_pf_headroom h = {l->tps[i].topic,
                                        l->tps[i].partition,
                                        l->c[i],
                                        l->start[i],
                                        l->end[i],
                                        rec->n > 0 && rec->v[0].timestamp >= 0,
                                        rec->n > 0 ? rec->v[0].timestamp : 0,
                                        l->ms[t]};
            long long left = mm2_pf_headroom(x->f, x->who, &h, now, margin_ms), left_b = -1;
            ok = ok && left >= 0;
            least = left >= 0 && left < least ? left : least;
            if (left >= 0 && l->bytes[t] >= 0) /* else said already: no C, or gone */
                left_b = bytes_headroom(x, l, i, l->bytes[t]);
            ok_b = ok_b && left_b >= 0;
            least_b = left_b >= 0 && left_b < least_b ? left_b : least_b;
        }
        if (ok && least == LLONG_MAX)
            mm2_pf_add(x->f, "retention", MM2_PF_PASS, NULL, NULL, NULL,
                       "%s: no time limit on C (retention.ms=-1, compacted only, or nothing at "
                       "C yet)",
                       l->names[t]);
        else if (ok)
            mm2_pf_add(x->f, "retention", MM2_PF_PASS, NULL, NULL, NULL,
                       "%s: C stays in the log at least %lld s more in every partition, above the "
                       "margin of %ld s",
                       l->names[t], least / 1000, margin_ms / 1000);
        if (ok && ok_b && l->bytes[t] >= 0)
            mm2_pf_add(x->f, "retention-bytes", MM2_PF_PASS, NULL, NULL, NULL,
                       "%s: retention.bytes=%lld (per partition), estimate: C stays in the log "
                       "about %lld s more in every partition, above the margin of %ld s (from "
                       "the records read at C, uncompressed, and the produce rate over %ld.%03ld "
                       "s)",
                       l->names[t], l->bytes[t], least_b / 1000, margin_ms / 1000,
                       l->interval_ms / 1000, l->interval_ms % 1000);
    }
}

/* The log's bounds of every partition, and, when a topic has retention.bytes, its ends again
 * --rate-wait after the first read: the produce rate (l->before, l->interval_ms). */
static enum mm2_status log_reads(struct hr *x, struct pf_logs *l, size_t nt, struct mm2_error *err)
{
    struct job *j = x->j;
    struct mm2_deadline dl;
    size_t sized = 0;
    long t0, t1, t2;
    enum mm2_status st;

    for (size_t t = 0; t < nt; t++)
        sized += l->bytes[t] >= 0;
    t0 = mm2_deadline_now_ms();
    job_kafka_deadline(j, &dl);
    st = mm2_kafka_log_offsets(j->source, l->tps, l->n, l->start, l->end, NULL, &dl, err);
    t1 = mm2_deadline_now_ms();
    if (st != MM2_OK || sized == 0)
        return st;
    memcpy(l->before, l->end, l->n * sizeof(*l->end));
    job_info(j,
             "retention.bytes is set on %zu topic%s: reading the log ends again %ld.%03ld s "
             "after the first read, for the produce rate its estimate needs (--rate-wait)",
             sized, sized == 1 ? "" : "s", x->rate_wait_ms / 1000, x->rate_wait_ms % 1000);
    if (t1 - t0 < x->rate_wait_ms) {
        job_sleep_ms(x->rate_wait_ms - (t1 - t0));
        j->waited_ms += x->rate_wait_ms - (t1 - t0);
    }
    t2 = mm2_deadline_now_ms();
    job_kafka_deadline(j, &dl);
    st = mm2_kafka_log_offsets(j->source, l->tps, l->n, l->start, l->end, NULL, &dl, err);
    /* Each read taken at its middle: the reads' own time is in neither end. */
    l->interval_ms = (t2 + mm2_deadline_now_ms()) / 2 - (t0 + t1) / 2;
    return st;
}

enum mm2_status job_pf_headroom(struct job *j, const struct mm2_xtopic *topics, size_t ntopics,
                                bool readable, const struct mm2_pf_who *who, long rate_wait_ms,
                                struct mm2_pf_findings *f, struct mm2_error *err)
{
    struct hr run = {j, topics, ntopics, readable, who, rate_wait_ms, f}, *x = &run;
    size_t n = 0, nt = 0;
    struct pf_logs l = {.tps = source_partitions(x, &n)};
    struct mm2_deadline dl;
    enum mm2_status st = MM2_OK;

    l.n = n;
    l.names = calloc(x->ntopics + 1, sizeof(*l.names));
    l.ms = calloc(x->ntopics + 1, sizeof(*l.ms));
    l.bytes = calloc(x->ntopics + 1, sizeof(*l.bytes));
    l.c = calloc(n + 1, sizeof(*l.c));
    l.start = calloc(n + 1, sizeof(*l.start));
    l.end = calloc(n + 1, sizeof(*l.end));
    l.before = calloc(n + 1, sizeof(*l.before));
    l.rec = calloc(n + 1, sizeof(*l.rec));
    if (l.tps == NULL || l.names == NULL || l.ms == NULL || l.bytes == NULL || l.c == NULL ||
        l.start == NULL || l.end == NULL || l.before == NULL || l.rec == NULL)
        st = mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    for (size_t i = 0; st == MM2_OK && i < x->ntopics; i++)
        if (x->topics[i].partitions > 0)
            l.names[nt++] = x->topics[i].name;
    if (st == MM2_OK && !x->readable)
        mm2_pf_add(x->f, "retention", MM2_PF_WARN, NULL, NULL, NULL,
                   "not checked: the retention headroom needs [source] to read the group's "
                   "offsets, the topics and their configs (see the findings above)");
    else if (st == MM2_OK && n > 0) {
        st = retention_of(x, l.names, nt, l.ms, l.bytes, err);
        job_kafka_deadline(j, &dl);
        if (st == MM2_OK)
            st = mm2_kafka_committed(j->source, j->cfg.group, l.tps, n, l.c, &dl, err);
        if (st == MM2_OK)
            st = log_reads(x, &l, nt, err);
        if (st == MM2_OK)
            st = records_at_c(x, l.tps, n, l.c, l.start, l.end, l.rec, err);
        if (st == MM2_OK)
            judge_headroom(x, &l);
    }
    for (size_t i = 0; l.rec != NULL && i < n; i++)
        mm2_record_list_free(&l.rec[i]);
    free(l.tps);
    free(l.names);
    free(l.ms);
    free(l.bytes);
    free(l.c);
    free(l.start);
    free(l.end);
    free(l.before);
    free(l.rec);
    return st == MM2_OK ? MM2_OK : mm2_error_prefix(err, "[source] retention headroom");
}
