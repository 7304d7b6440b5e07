/* bench/memory/export.c: export's memory at T topics x P partitions, measured on what export
 * does with it, in the order it does it, without Kafka: the partitions' log offsets read on a
 * source and a target client (mm2_kafka_log_offsets, as export's reads), the boundary read
 * (mm2_tail_classify in reads of at most R partitions, the clients' extra handles released
 * after each, as export's prove_boundary does with [flink] tail.partitions), then the export
 * artifact written: with -DSTREAMED (a library that has mm2_export_write) streamed, otherwise
 * as the whole tree sealed by mm2_artifact_write (main before the change). -DRELEASE_ALL: every
 * handle released between reads (mm2_kafka_release) instead of the extra ones only; -DARENAS:
 * malloc's arenas limited first (mm2_kafka_arenas), as mm2-offsets' main does. run.sh sets each
 * where the tree's library has it, so one file measures main and this tree alike.
 *
 * The Kafka side is librdkafka's mock cluster in a child process (rdkafka_mock.h), seeded as
 * bench/tail seeds it (4 source records a partition, the target the first 2, C = 2), so its
 * memory is not this process's: ru_maxrss is export's alone.
 *
 *   export TOPICS PARTITIONS READ_PARTITIONS OUT.json
 *
 * Prints one line: partitions, then wall ms and peak RSS (KiB, ru_maxrss after the phase) of
 * each phase: reads, boundary, write; then the whole CPU ms (user + system) of this process. On
 * stderr, the peak RSS after each read of the boundary.
 * Exit: 0, 1 a call failed, 2 usage. */
#include <errno.h>
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../mockseed.h"
#include "mm2_artifact.h"
#include "mm2_export.h"
#include "mm2_tail.h"

#define RECORDS 4
#define C_AT 2
#define NAME_LEN 64

static long number(const char *s, long max)
{
    char *end;
    long v;

    errno = 0;
    v = strtol(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || v < 1 || v > max)
        return -1;
    return v;
}

static void topic_name(char *out, char side, long t)
{
    (void)snprintf(out, NAME_LEN, "%c.prod.payments.settlement-events-%04ld", side, t);
}

/* The child: the mock cluster, seeded; its bootstrap written to fd, then serves until killed. */
static int serve(long topics, long parts, int fd)
{
    rd_kafka_t *host = seed_producer(NULL), *w;
    rd_kafka_mock_cluster_t *mc = host != NULL ? rd_kafka_mock_cluster_new(host, 1) : NULL;
    char s[NAME_LEN], t[NAME_LEN];
    const char *b;

    w = mc != NULL ? seed_producer(rd_kafka_mock_cluster_bootstraps(mc)) : NULL;
    if (w == NULL)
        return 1;
    for (long i = 0; i < topics; i++) {
        topic_name(s, 's', i);
        topic_name(t, 't', i);
        if (rd_kafka_mock_topic_create(mc, s, (int)parts, 1) != 0 ||
            rd_kafka_mock_topic_create(mc, t, (int)parts, 1) != 0) {
            fprintf(stderr, "bench/memory: mock topic %s: %s\n", s,
                    rd_kafka_err2str(rd_kafka_last_error()));
            return 1;
        }
        for (int q = 0; q < (int)parts; q++)
            for (int o = 0; o < RECORDS; o++) {
                char v[96]; /* the same on both sides: the names without their "s." or "t." */

                (void)snprintf(v, sizeof(v), "v-%s-%d-%d", s + 2, q, o);
                if (seed_put(w, s, q, o, v) != 0 || (o < C_AT && seed_put(w, t, q, o, v) != 0)) {
                    fprintf(stderr, "bench/memory: producing to %s failed\n", s);
                    return 1;
                }
            }
    }
    if (rd_kafka_flush(w, 1200000) != RD_KAFKA_RESP_ERR_NO_ERROR)
        return 1;
    b = rd_kafka_mock_cluster_bootstraps(mc);
    if (write(fd, b, strlen(b)) != (ssize_t)strlen(b))
        return 1;
    close(fd);
    for (;;)
        pause();
}

static long peak_kib(void)
{
    struct rusage ru;

    return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss : 0;
}

static long cpu_ms(void)
{
    struct rusage ru;

    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return 0;
    return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000L +
           (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1000L;
}

/* The export export would write of these partitions (its shape: a topic's target configs, the
 * connector's config view), the offsets filled by the reads. */
static int model(struct mm2_export *ex, long topics, long parts)
{
    static const char *const keys[] = {
        "cleanup.policy",      "compression.type", "max.message.bytes", "message.timestamp.type",
        "min.insync.replicas", "retention.bytes",  "retention.ms",      "segment.bytes"};
    char s[NAME_LEN], t[NAME_LEN];

    memset(ex, 0, sizeof(*ex));
    (void)snprintf(ex->created, sizeof(ex->created), "2026-12-06T21:00:00Z");
    (void)snprintf(ex->source_cluster, sizeof(ex->source_cluster), "Zk3XcJ1pT9qkq2mYf0w8Bg");
    (void)snprintf(ex->target_cluster, sizeof(ex->target_cluster), "Qm7YdK2qU0rlr3nZg1x9Ch");
    (void)snprintf(ex->connect_version, sizeof(ex->connect_version), "4.3.1");
    (void)snprintf(ex->connector, sizeof(ex->connector), "mirror-source");
    (void)snprintf(ex->alias, sizeof(ex->alias), "src");
    (void)snprintf(ex->config_digest, sizeof(ex->config_digest), "sha256:%064d", 0);
    ex->config_view = cJSON_Parse("{\"topics\": \"s\\\\..*\", \"tasks.max\": \"4\"}");
    (void)snprintf(ex->group, sizeof(ex->group), "flink-copy");
    (void)snprintf(ex->group_state, sizeof(ex->group_state), "Empty");
    (void)snprintf(ex->flink_method, sizeof(ex->flink_method), "stable-offsets");
    ex->topics = calloc((size_t)topics, sizeof(*ex->topics));
    ex->parts = calloc((size_t)(topics * parts), sizeof(*ex->parts));
    if (ex->config_view == NULL || ex->topics == NULL || ex->parts == NULL)
        return -1;
    for (long i = 0; i < topics; i++) {
        struct mm2_xtopic *x = &ex->topics[ex->ntopics++];
        topic_name(s, 's', i);
        topic_name(t, 't', i);
        *x = (struct mm2_xtopic){strdup(s),      (int32_t)parts, true,  strdup(t),
                                 (int32_t)parts, strdup(t),      false, cJSON_CreateObject()};
        for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
            (void)cJSON_AddStringToObject(x->target_configs, keys[k], "604800000");
        for (long q = 0; q < parts; q++) {
            struct mm2_xpart *p = &ex->parts[ex->nparts++];
            p->topic = strdup(s);
            p->partition = (int32_t)q;
            p->committed[0] = p->committed[1] = C_AT;
        }
    }
    return 0;
}

/* export's two reads of the log offsets, on both clients, for every partition. */
static int reads(struct mm2_kafka *src, struct mm2_kafka *tgt, struct mm2_export *ex,
                 int64_t *tgt_start)
{
    struct mm2_tp *stp = calloc(ex->nparts, sizeof(*stp)), *ttp = calloc(ex->nparts, sizeof(*ttp));
    int64_t *st = calloc(ex->nparts, sizeof(*st)), *en = calloc(ex->nparts, sizeof(*en));
    int64_t *hw = calloc(ex->nparts, sizeof(*hw)), *lso = calloc(ex->nparts, sizeof(*lso));
    struct mm2_error err = {0};
    struct mm2_deadline dl;
    int rc = stp != NULL && ttp != NULL && st != NULL && en != NULL && hw != NULL && lso != NULL
                 ? 0
                 : -1;

    for (size_t i = 0; rc == 0 && i < ex->nparts; i++) {
        stp[i] = (struct mm2_tp){ex->parts[i].topic, ex->parts[i].partition};
        ttp[i] = (struct mm2_tp){ex->topics[i / (size_t)ex->topics[0].partitions].target,
                                 ex->parts[i].partition};
    }
    for (int r = 0; r < 2 && rc == 0; r++) {
        mm2_deadline_start(&dl, 600000);
        if (mm2_kafka_log_offsets(src, stp, ex->nparts, st, en, NULL, &dl, &err) != MM2_OK ||
            mm2_kafka_log_offsets(tgt, ttp, ex->nparts, tgt_start, hw, lso, &dl, &err) != MM2_OK) {
            fprintf(stderr, "bench/memory: %s\n", err.msg);
            rc = -1;
        }
        for (size_t i = 0; rc == 0 && i < ex->nparts; i++) {
            struct mm2_xpart *p = &ex->parts[i];
            p->log_start[r] = st[i];
            p->log_end[r] = en[i];
            p->target_hw[r] = hw[i];
            p->target_lso[r] = lso[i];
        }
    }
    free(stp);
    free(ttp);
    free(st);
    free(en);
    free(hw);
    free(lso);
    return rc;
}

/* prove_boundary's read: its arrays, then reads of at most chunk partitions. */
static int boundary(struct mm2_kafka *src, struct mm2_kafka *tgt, struct mm2_export *ex,
                    const int64_t *tgt_start, size_t chunk)
{
    struct mm2_tail_params prm = {8, 64, 65536, 64L * 1024 * 1024, {false, false}};
    struct mm2_tail_part *tp = calloc(ex->nparts + 1, sizeof(*tp));
    struct mm2_bnd_result *res = calloc(ex->nparts + 1, sizeof(*res));
    int rc = tp != NULL && res != NULL ? 0 : -1;

    for (size_t i = 0; rc == 0 && i < ex->nparts; i++) {
        const struct mm2_xpart *p = &ex->parts[i];
        tp[i] = (struct mm2_tail_part){p->topic,
                                       ex->topics[i / (size_t)ex->topics[0].partitions].target,
                                       p->partition,
                                       p->committed[0],
                                       p->log_start[0],
                                       p->log_end[0],
                                       tgt_start[i],
                                       p->target_lso[0],
                                       false};
    }
    for (size_t at = 0; rc == 0 && at < ex->nparts; at += chunk) {
        size_t n = ex->nparts - at < chunk ? ex->nparts - at : chunk;
        struct mm2_tail_stats stats = {0};
        struct mm2_error err = {0};
        struct mm2_deadline dl;

        mm2_deadline_start(&dl, 600000);
        if (mm2_tail_classify(src, tgt, tp + at, n, &prm, &dl, res + at, &stats, &err) != MM2_OK) {
            fprintf(stderr, "bench/memory: %s\n", err.msg);
            rc = -1;
        } else if (ex->nparts > chunk) { /* as export's prove_boundary does */
#ifdef RELEASE_ALL
            mm2_kafka_release(src);
            mm2_kafka_release(tgt);
#else
            mm2_kafka_readers_release(src);
            mm2_kafka_readers_release(tgt);
#endif
        }
        fprintf(stderr, "bench/memory: partitions %zu to %zu read: peak RSS %ld KiB\n", at, at + n,
                peak_kib());
    }
    for (size_t i = 0; rc == 0 && i < ex->nparts; i++) {
        ex->parts[i].boundary = res[i];
        ex->parts[i].boundary_read = true;
        rc = res[i].cls == MM2_BND_ALIGNED ? 0 : -1;
        if (rc != 0)
            fprintf(stderr, "bench/memory: %s-%d classified %s (%s), not aligned\n",
                    ex->parts[i].topic, (int)ex->parts[i].partition, mm2_bnd_class_name(res[i].cls),
                    res[i].why);
    }
    free(tp);
    free(res);
    return rc;
}

static int write_out(const struct mm2_export *ex, const char *path)
{
    char digest[MM2_DIGEST_TEXT_LEN + 1];
    struct mm2_error err = {0};
    enum mm2_status st;
#ifdef STREAMED
    st = mm2_export_write(ex, path, digest, &err);
#else
    cJSON *tree = NULL;
    st = mm2_export_to_json(ex, &tree, &err);
    if (st == MM2_OK)
        st = mm2_artifact_write("export", path, tree, digest, &err);
    cJSON_Delete(tree);
#endif
    if (st != MM2_OK)
        fprintf(stderr, "bench/memory: %s\n", err.msg);
    return st == MM2_OK ? 0 : -1;
}

static int measure(const char *bootstrap, long topics, long parts, size_t chunk, const char *out)
{
    struct mm2_kv props[] = {{"bootstrap.servers", bootstrap}};
    struct mm2_kafka *src = NULL, *tgt = NULL;
    struct mm2_export ex;
    struct mm2_error err = {0};
    int64_t *tgt_start = calloc((size_t)(topics * parts), sizeof(*tgt_start));
    long t[4], rss[3];
    int rc = 0;

    if (tgt_start == NULL || model(&ex, topics, parts) != 0 ||
        mm2_kafka_new("source", props, 1, &src, &err) != MM2_OK ||
        mm2_kafka_new("target", props, 1, &tgt, &err) != MM2_OK) {
        fprintf(stderr, "bench/memory: %s\n", err.msg[0] != '\0' ? err.msg : "out of memory");
        return -1;
    }
    t[0] = mm2_deadline_now_ms();
    rc = reads(src, tgt, &ex, tgt_start);
    t[1] = mm2_deadline_now_ms();
    rss[0] = peak_kib();
    rc = rc == 0 ? boundary(src, tgt, &ex, tgt_start, chunk) : rc;
    t[2] = mm2_deadline_now_ms();
    rss[1] = peak_kib();
    rc = rc == 0 ? write_out(&ex, out) : rc;
    t[3] = mm2_deadline_now_ms();
    rss[2] = peak_kib();
    if (rc == 0)
        printf("%zu %ld %ld %ld %ld %ld %ld %ld\n", ex.nparts, t[1] - t[0], rss[0], t[2] - t[1],
               rss[1], t[3] - t[2], rss[2], cpu_ms());
    mm2_kafka_free(src);
    mm2_kafka_free(tgt);
    mm2_export_free(&ex);
    free(tgt_start);
    return rc;
}

int main(int argc, char **argv)
{
    long topics = argc == 5 ? number(argv[1], 1000) : -1;
    long parts = argc == 5 ? number(argv[2], 10000) : -1;
    long chunk = argc == 5 ? number(argv[3], 1000000) : -1;
    char bootstrap[256] = "";
    int fds[2], status = 0, rc;
    ssize_t n;
    pid_t child;

    if (topics < 1 || parts < 1 || chunk < 1) {
        fprintf(stderr, "usage: export TOPICS PARTITIONS READ_PARTITIONS OUT.json\n");
        return 2;
    }
    if (pipe(fds) != 0 || (child = fork()) < 0)
        return 1;
    if (child == 0) {
        close(fds[0]);
        _exit(serve(topics, parts, fds[1]));
    }
    close(fds[1]);
    n = read(fds[0], bootstrap, sizeof(bootstrap) - 1);
    close(fds[0]);
    if (n <= 0) {
        fprintf(stderr, "bench/memory: the mock cluster did not start\n");
        (void)waitpid(child, &status, 0);
        return 1;
    }
    bootstrap[n] = '\0';
#ifdef ARENAS
    mm2_kafka_arenas(); /* as mm2-offsets' main does, before any thread of this process */
#endif
    rc = measure(bootstrap, topics, parts, (size_t)chunk, argv[4]) == 0 ? 0 : 1;
    kill(child, SIGKILL);
    (void)waitpid(child, &status, 0);
    return rc;
}
