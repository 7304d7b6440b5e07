/* bench/listoffsets: the CPU librdkafka spends in rd_kafka_offsets_for_times (the only
 * ListOffsets call of the librdkafka 2.0.2 that Debian bookworm ships, and the one mm2-offsets
 * uses for log starts, ends and last stable offsets) on T topics x P partitions, in one call
 * beside the same partitions in calls of CHUNK partitions. The cluster is librdkafka's own mock
 * (rdkafka_mock.h) in this process: the figure is the library's own work on the partition
 * lists, which is the same whatever broker answers; the wall time includes the mock broker and
 * is not a broker's.
 *
 *   listoffsets TOPICS PARTITIONS ROUNDS CHUNK...     (CHUNK 0: one call for all)
 *
 * One line per CHUNK: partitions, chunk, calls, wall ms, CPU ms of this process (all threads:
 * the client and the mock broker), the best of ROUNDS.
 * Exit: 0, 1 a call failed, 2 usage. */
#include <errno.h>
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static long ms_of(clockid_t id)
{
    struct timespec t;

    clock_gettime(id, &t);
    return (long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* A whole decimal number in [0, max], or -1. */
static int number(const char *s, long max)
{
    char *end;
    long v;

    errno = 0;
    v = strtol(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || v < 0 || v > max)
        return -1;
    return (int)v;
}

static rd_kafka_t *client(rd_kafka_type_t type, const char *bootstrap)
{
    char err[512];
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    rd_kafka_t *rk;

    if ((bootstrap != NULL && rd_kafka_conf_set(conf, "bootstrap.servers", bootstrap, err,
                                                sizeof(err)) != RD_KAFKA_CONF_OK) ||
        rd_kafka_conf_set(conf, "log_level", "3", err, sizeof(err)) != RD_KAFKA_CONF_OK) {
        rd_kafka_conf_destroy(conf);
        fprintf(stderr, "listoffsets: %s\n", err);
        return NULL;
    }
    rk = rd_kafka_new(type, conf, err, sizeof(err));
    if (rk == NULL) {
        rd_kafka_conf_destroy(conf);
        fprintf(stderr, "listoffsets: %s\n", err);
    }
    return rk;
}

/* The log end of every partition of all, in calls of chunk partitions (0: one call). */
static int run(rd_kafka_t *rk, const rd_kafka_topic_partition_list_t *all, int chunk, int *calls)
{
    int step = chunk > 0 ? chunk : all->cnt;

    *calls = 0;
    for (int i = 0; i < all->cnt; i += step) {
        int n = all->cnt - i < step ? all->cnt - i : step;
        rd_kafka_topic_partition_list_t *l = rd_kafka_topic_partition_list_new(n);
        rd_kafka_resp_err_t e;

        for (int j = 0; j < n; j++)
            rd_kafka_topic_partition_list_add(l, all->elems[i + j].topic,
                                              all->elems[i + j].partition)
                ->offset = RD_KAFKA_OFFSET_END;
        e = rd_kafka_offsets_for_times(rk, l, 120000);
        rd_kafka_topic_partition_list_destroy(l);
        (*calls)++;
        if (e != RD_KAFKA_RESP_ERR_NO_ERROR) {
            fprintf(stderr, "listoffsets: offsets_for_times: %s\n", rd_kafka_err2name(e));
            return 1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    int topics, parts, rounds, rc = 0;
    rd_kafka_t *host, *rk;
    rd_kafka_mock_cluster_t *mc;
    rd_kafka_topic_partition_list_t *all;
    const struct rd_kafka_metadata *md;
    char name[32];

    if (argc < 5 || (topics = number(argv[1], 1000)) <= 0 ||
        (parts = number(argv[2], 10000)) <= 0 || (rounds = number(argv[3], 100)) <= 0) {
        fprintf(stderr, "usage: listoffsets TOPICS PARTITIONS ROUNDS CHUNK...\n");
        return 2;
    }
    host = client(RD_KAFKA_PRODUCER, NULL);
    if (host == NULL)
        return 1;
    mc = rd_kafka_mock_cluster_new(host, 1);
    if (mc == NULL) {
        rd_kafka_destroy(host);
        return 1;
    }
    all = rd_kafka_topic_partition_list_new(topics * parts);
    for (int t = 0; t < topics; t++) {
        (void)snprintf(name, sizeof(name), "bench.t%04d", t);
        rd_kafka_mock_topic_create(mc, name, parts, 1);
        for (int p = 0; p < parts; p++)
            rd_kafka_topic_partition_list_add(all, name, p);
    }
    rk = client(RD_KAFKA_CONSUMER, rd_kafka_mock_cluster_bootstraps(mc));
    if (rk == NULL || rd_kafka_metadata(rk, 1, NULL, &md, 30000) != RD_KAFKA_RESP_ERR_NO_ERROR) {
        rc = 1;
        goto out;
    }
    rd_kafka_metadata_destroy(md);
    for (int a = 4; a < argc && rc == 0; a++) {
        int chunk = number(argv[a], 1000000), calls = 0;
        long best_wall = -1, best_cpu = -1;

        if (chunk < 0) {
            fprintf(stderr, "listoffsets: CHUNK \"%s\" is not a number of partitions\n", argv[a]);
            rc = 2;
            break;
        }
        for (int rep = 0; rep < rounds && rc == 0; rep++) {
            long w0 = ms_of(CLOCK_MONOTONIC), c0 = ms_of(CLOCK_PROCESS_CPUTIME_ID), w, c;
            rc = run(rk, all, chunk, &calls);
            w = ms_of(CLOCK_MONOTONIC) - w0;
            c = ms_of(CLOCK_PROCESS_CPUTIME_ID) - c0;
            if (best_cpu < 0 || c < best_cpu)
                best_cpu = c;
            if (best_wall < 0 || w < best_wall)
                best_wall = w;
        }
        if (rc == 0)
            printf("%d %d %d %ld %ld\n", topics * parts, chunk, calls, best_wall, best_cpu);
    }
out:
    if (rk != NULL)
        rd_kafka_destroy(rk);
    rd_kafka_topic_partition_list_destroy(all);
    rd_kafka_mock_cluster_destroy(mc);
    rd_kafka_destroy(host);
    return rc;
}
