/* bench/tail: export's boundary read (mm2_tail_classify, linked from build/libmm2kit.a) on T
 * topics x P partitions of librdkafka's mock cluster (rdkafka_mock.h) in this process, seeded as
 * bench/offsets seeds the bed: 4 source records a partition, the target holding the first 2,
 * C = 2. The call as export makes it (every partition in one call, its memory cap 64 MiB) beside
 * the same partitions in calls of CHUNK, which is how the read went before it took them all at
 * once (chunks of 64 MiB / (2 x tail.bytes) = 512 partitions). The mock broker shares this
 * process and its cores: the figures are the client's waits and request counts, not a broker's.
 *
 *   tail TOPICS PARTITIONS CHUNK...     (CHUNK 0: one call for all)
 *
 * One line per CHUNK: partitions, chunk, calls, wall ms, requests, reads (mm2_kafka_read_many
 * calls), rounds, records, aligned partitions, this process's peak RSS growth in KiB (ru_maxrss
 * after minus before: a measurement after another reuses what the first freed, so the chunks
 * come first and the one call's figure is a floor), this process's CPU ms (user and system) over
 * the calls, the mock broker's share included.
 * Exit: 0, 1 a call failed or misclassified, 2 usage. */
#include <errno.h>
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "../mockseed.h"
#include "mm2_tail.h"

#define RECORDS 4
#define C_AT 2
#define NAME_MAX_LEN 32

/* A whole decimal number in [0, max], or -1. */
static long number(const char *s, long max)
{
    char *end;
    long v;

    errno = 0;
    v = strtol(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || v < 0 || v > max)
        return -1;
    return v;
}

static long cpu_ms(void)
{
    struct rusage ru;

    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return 0;
    return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000L +
           (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1000L;
}

static long peak_kib(void)
{
    struct rusage ru;

    return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss : 0;
}

/* One measurement: the n partitions of p in calls of chunk (0: one call), on clients of its
 * own (a client that has read a topic knows its metadata: the chunks' first reads wait for it). */
static int measure(const char *bootstrap, const struct mm2_tail_part *p, size_t n, size_t chunk,
                   struct mm2_bnd_result *res)
{
    struct mm2_tail_params prm = {8, 64, 65536, 64L * 1024 * 1024, {false, false}};
    struct mm2_tail_stats sum = {0};
    struct mm2_kv props[] = {{"bootstrap.servers", bootstrap}};
    struct mm2_kafka *src = NULL, *tgt = NULL;
    struct mm2_error e = {0};
    size_t calls = 0, aligned = 0;
    long rss0 = peak_kib();
    long t0, c0, cpu;

    if (mm2_kafka_new("source", props, 1, &src, &e) != MM2_OK ||
        mm2_kafka_new("target", props, 1, &tgt, &e) != MM2_OK) {
        fprintf(stderr, "bench/tail: %s\n", e.msg);
        mm2_kafka_free(src);
        return -1;
    }
    t0 = mm2_deadline_now_ms();
    c0 = cpu_ms();

    for (size_t at = 0; at<n; at += chunk> 0 ? chunk : n) {
        size_t m = chunk > 0 && n - at > chunk ? chunk : n - at;
        struct mm2_tail_stats st;
        struct mm2_deadline dl;
        struct mm2_error err = {0};

        mm2_deadline_start(&dl, 600000);
        if (mm2_tail_classify(src, tgt, &p[at], m, &prm, &dl, &res[at], &st, &err) != MM2_OK) {
            fprintf(stderr, "bench/tail: %s\n", err.msg);
            mm2_kafka_free(src);
            mm2_kafka_free(tgt);
            return -1;
        }
        calls++;
        sum.requests += st.requests;
        sum.reads += st.reads;
        sum.rounds += st.rounds;
        sum.records += st.records;
    }
    cpu = cpu_ms() - c0;
    t0 = mm2_deadline_now_ms() - t0;
    mm2_kafka_free(src);
    mm2_kafka_free(tgt);
    for (size_t i = 0; i < n; i++)
        aligned += res[i].cls == MM2_BND_ALIGNED;
    printf("%zu %zu %zu %ld %ld %zu %zu %zu %zu %ld %ld\n", n, chunk, calls, t0, sum.requests,
           sum.reads, sum.rounds, sum.records, aligned, peak_kib() - rss0, cpu);
    return aligned == n ? 0 : -1;
}

int main(int argc, char **argv)
{
    long topics = argc > 2 ? number(argv[1], 1000) : -1;
    long parts = argc > 2 ? number(argv[2], 100000) : -1;
    rd_kafka_t *host, *w;
    rd_kafka_mock_cluster_t *mc;
    char(*names)[2][NAME_MAX_LEN];
    struct mm2_tail_part *p;
    struct mm2_bnd_result *res;
    size_t n;
    int rc = 0;

    if (topics < 1 || parts < 1 || argc < 4) {
        fprintf(stderr, "usage: tail TOPICS PARTITIONS CHUNK...\n");
        return 2;
    }
    n = (size_t)topics * (size_t)parts;
    host = seed_producer(NULL);
    mc = host != NULL ? rd_kafka_mock_cluster_new(host, 1) : NULL;
    w = mc != NULL ? seed_producer(rd_kafka_mock_cluster_bootstraps(mc)) : NULL;
    names = calloc((size_t)topics, sizeof(*names));
    p = calloc(n, sizeof(*p));
    res = calloc(n, sizeof(*res));
    if (w == NULL || names == NULL || p == NULL || res == NULL) {
        fprintf(stderr, "bench/tail: no mock cluster or out of memory\n");
        return 1;
    }
    for (long t = 0; t < topics && rc == 0; t++) {
        (void)snprintf(names[t][0], NAME_MAX_LEN, "s%04ld", t);
        (void)snprintf(names[t][1], NAME_MAX_LEN, "t%04ld", t);
        if (rd_kafka_mock_topic_create(mc, names[t][0], (int)parts, 1) != 0 ||
            rd_kafka_mock_topic_create(mc, names[t][1], (int)parts, 1) != 0)
            rc = 1;
        for (int q = 0; q < (int)parts && rc == 0; q++)
            for (int o = 0; o < RECORDS && rc == 0; o++) {
                char v[48];

                (void)snprintf(v, sizeof(v), "v%ld-%d-%d", t, q, o);
                if (seed_put(w, names[t][0], q, o, v) != 0 ||
                    (o < C_AT && seed_put(w, names[t][1], q, o, v) != 0))
                    rc = 1;
            }
    }
    if (rc != 0 || rd_kafka_flush(w, 1200000) != RD_KAFKA_RESP_ERR_NO_ERROR) {
        fprintf(stderr, "bench/tail: seeding the mock cluster failed\n");
        return 1;
    }
    for (long t = 0; t < topics; t++)
        for (long q = 0; q < parts; q++)
            p[t * parts + q] = (struct mm2_tail_part){names[t][0], names[t][1], (int32_t)q, C_AT, 0,
                                                      RECORDS,     0,           C_AT,       false};
    for (int a = 3; a < argc && rc == 0; a++) {
        long chunk = number(argv[a], 1000000);
        if (chunk < 0) {
            rc = 2;
            break;
        }
        rc = measure(rd_kafka_mock_cluster_bootstraps(mc), p, n, (size_t)chunk, res) == 0 ? 0 : 1;
    }
    rd_kafka_destroy(w);
    rd_kafka_mock_cluster_destroy(mc);
    rd_kafka_destroy(host);
    free(names);
    free(p);
    free(res);
    return rc;
}
