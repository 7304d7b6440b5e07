/* fake_kafka: two Kafka clusters for CLI tests, a SOURCE and a TARGET, each librdkafka's own
 * in-process mock cluster (rdkafka_mock.h) serving the Kafka protocol on a port of 127.0.0.1, so
 * mm2-offsets' reads (metadata, ListOffsets, Fetch) meet real Kafka answers without a JVM. It
 * exists for what the bed cannot show cheaply and exactly: a run's timing across partitions whose
 * first MirrorMaker record never comes.
 *
 *   fake_kafka OUT SIDE:TOPIC:N0[,N1...]...
 *     SIDE is source or target; TOPIC gets one partition per count, and partition p gets Np
 *     records, the same on both sides for the same offset: key "key-<offset>", value
 *     "value-<offset>", a header "h" = "<offset>", CreateTime 1700000000000 + offset.
 *     Once all are written, OUT holds "source=HOST:PORT" and "target=HOST:PORT" (written whole,
 *     then renamed into place); it then serves until SIGTERM or SIGINT.
 * Exit: 0 stopped by a signal (at once, without tearing the clusters down), 1 a mock cluster or a
 * record could not be made, 2 usage. */
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_PARTITIONS 64

struct side {
    const char *name;
    rd_kafka_t *host;   /* the handle that owns the mock cluster */
    rd_kafka_t *writer; /* a producer connected to it */
    rd_kafka_mock_cluster_t *mc;
};

static int die(const char *what, const char *detail)
{
    fprintf(stderr, "fake_kafka: %s: %s\n", what, detail);
    return 1;
}

static rd_kafka_t *producer(const char *bootstrap, char *errstr, size_t len)
{
    rd_kafka_conf_t *conf = rd_kafka_conf_new();

    if ((bootstrap != NULL && rd_kafka_conf_set(conf, "bootstrap.servers", bootstrap, errstr,
                                                len) != RD_KAFKA_CONF_OK) ||
        rd_kafka_conf_set(conf, "linger.ms", "0", errstr, len) != RD_KAFKA_CONF_OK ||
        rd_kafka_conf_set(conf, "log_level", "3", errstr, len) != RD_KAFKA_CONF_OK ||
        /* no client metrics: with them on, rd_kafka_destroy waits up to 1 s */
        rd_kafka_conf_set(conf, "enable.metrics.push", "false", errstr, len) != RD_KAFKA_CONF_OK) {
        rd_kafka_conf_destroy(conf);
        return NULL;
    }
    return rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, len); /* takes conf when it succeeds */
}

static int side_open(struct side *s)
{
    char errstr[512];

    s->host = producer(NULL, errstr, sizeof(errstr));
    if (s->host == NULL)
        return die(s->name, errstr);
    s->mc = rd_kafka_mock_cluster_new(s->host, 1);
    if (s->mc == NULL)
        return die(s->name, "rd_kafka_mock_cluster_new failed");
    s->writer = producer(rd_kafka_mock_cluster_bootstraps(s->mc), errstr, sizeof(errstr));
    return s->writer == NULL ? die(s->name, errstr) : 0;
}

static void side_close(struct side *s)
{
    if (s->writer != NULL)
        rd_kafka_destroy(s->writer);
    if (s->mc != NULL)
        rd_kafka_mock_cluster_destroy(s->mc);
    if (s->host != NULL)
        rd_kafka_destroy(s->host);
}

/* TOPIC:N0,N1,...: the topic with its records. */
static int topic(struct side *s, char *spec)
{
    char *counts = strchr(spec, ':'), *tok, *save = NULL;
    long n[MAX_PARTITIONS];
    int np = 0;
    rd_kafka_resp_err_t e;
    rd_kafka_topic_t *rkt;
    const struct rd_kafka_metadata *md;

    if (counts == NULL || counts == spec)
        return die(spec, "expected TOPIC:N0[,N1...]");
    *counts++ = '\0';
    for (tok = strtok_r(counts, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
        char *end;
        if (np == MAX_PARTITIONS)
            return die(spec, "too many partitions");
        n[np] = strtol(tok, &end, 10);
        if (*end != '\0' || n[np] < 0 || n[np] > 100000)
            return die(spec, "a record count is 0 to 100000");
        np++;
    }
    if (np == 0)
        return die(spec, "no partition");
    e = rd_kafka_mock_topic_create(s->mc, spec, np, 1);
    if (e != RD_KAFKA_RESP_ERR_NO_ERROR)
        return die(spec, rd_kafka_err2str(e));
    /* The writer learns the topic's partitions first; a record for a partition it does not know
     * yet would wait for its next metadata refresh, a second later. */
    rkt = rd_kafka_topic_new(s->writer, spec, NULL);
    if (rkt == NULL)
        return die(spec, rd_kafka_err2str(rd_kafka_last_error()));
    e = rd_kafka_metadata(s->writer, 0, rkt, &md, 10000);
    rd_kafka_topic_destroy(rkt);
    if (e != RD_KAFKA_RESP_ERR_NO_ERROR)
        return die(spec, rd_kafka_err2str(e));
    rd_kafka_metadata_destroy(md);
    for (int p = 0; p < np; p++) {
        for (long off = 0; off < n[p]; off++) {
            char key[32], value[32], h[24];
            (void)snprintf(key, sizeof(key), "key-%ld", off);
            (void)snprintf(value, sizeof(value), "value-%ld", off);
            (void)snprintf(h, sizeof(h), "%ld", off);
            e = rd_kafka_producev(s->writer, RD_KAFKA_V_TOPIC(spec), RD_KAFKA_V_PARTITION(p),
                                  RD_KAFKA_V_KEY(key, strlen(key)),
                                  RD_KAFKA_V_VALUE(value, strlen(value)),
                                  RD_KAFKA_V_HEADER("h", h, (ssize_t)strlen(h)),
                                  RD_KAFKA_V_TIMESTAMP(1700000000000LL + off),
                                  RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_END);
            if (e != RD_KAFKA_RESP_ERR_NO_ERROR)
                return die(spec, rd_kafka_err2str(e));
        }
    }
    e = rd_kafka_flush(s->writer, 30000);
    return e == RD_KAFKA_RESP_ERR_NO_ERROR ? 0 : die(spec, rd_kafka_err2str(e));
}

static int publish(const char *out, struct side *sides)
{
    char tmp[4096];
    FILE *f;

    if (snprintf(tmp, sizeof(tmp), "%s.tmp", out) >= (int)sizeof(tmp))
        return die(out, "path too long");
    f = fopen(tmp, "w");
    if (f == NULL)
        return die(tmp, "cannot write");
    for (int i = 0; i < 2; i++)
        fprintf(f, "%s=%s\n", sides[i].name, rd_kafka_mock_cluster_bootstraps(sides[i].mc));
    if (fclose(f) != 0 || rename(tmp, out) != 0)
        return die(out, "cannot write");
    return 0;
}

int main(int argc, char **argv)
{
    struct side sides[2] = {{.name = "source"}, {.name = "target"}};
    sigset_t stop;
    int sig, rc = 0;

    if (argc < 2) {
        fprintf(stderr, "usage: fake_kafka OUT SIDE:TOPIC:N0[,N1...]...\n");
        return 2;
    }
    /* Blocked before any thread starts, so every librdkafka thread inherits the mask and
     * sigwait below is the only taker. */
    sigemptyset(&stop);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGINT);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    for (int i = 0; i < 2 && rc == 0; i++)
        rc = side_open(&sides[i]);
    for (int a = 2; a < argc && rc == 0; a++) {
        char *spec = argv[a];
        if (strncmp(spec, "source:", 7) == 0)
            rc = topic(&sides[0], spec + 7);
        else if (strncmp(spec, "target:", 7) == 0)
            rc = topic(&sides[1], spec + 7);
        else
            rc = die(spec, "expected source:... or target:...");
    }
    if (rc == 0)
        rc = publish(argv[1], sides);
    if (rc == 0) {
        (void)sigwait(&stop, &sig);
        /* Destroying a mock cluster takes a second (its broker threads' poll); the kernel frees
         * the rest at once. */
        _exit(0);
    }
    for (int i = 0; i < 2; i++)
        side_close(&sides[i]);
    return rc;
}
