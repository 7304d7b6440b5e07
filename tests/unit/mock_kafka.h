/* A librdkafka in-process mock cluster (rdkafka_mock.h) for the unit tests that read real
 * records: one broker, a producer writing to it, and topics created and known to that producer
 * before the test writes. Include after <cmocka.h>. */
#ifndef MM2_TEST_MOCK_KAFKA_H
#define MM2_TEST_MOCK_KAFKA_H

#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>
#include <stddef.h>

struct mock_kafka {
    rd_kafka_t *host, *writer; /* host owns the cluster; writer produces to it */
    rd_kafka_mock_cluster_t *mc;
};

/* A producer that sends at once, logs nothing and pushes no client metrics (with them on,
 * rd_kafka_destroy waits up to 1 s); bootstrap NULL for the cluster's host. */
static inline rd_kafka_t *mock_producer(const char *bootstrap)
{
    char errstr[256];
    rd_kafka_conf_t *conf = rd_kafka_conf_new();

    if ((bootstrap != NULL && rd_kafka_conf_set(conf, "bootstrap.servers", bootstrap, errstr,
                                                sizeof(errstr)) != RD_KAFKA_CONF_OK) ||
        rd_kafka_conf_set(conf, "linger.ms", "0", errstr, sizeof(errstr)) != RD_KAFKA_CONF_OK ||
        rd_kafka_conf_set(conf, "log_level", "0", errstr, sizeof(errstr)) != RD_KAFKA_CONF_OK ||
        rd_kafka_conf_set(conf, "enable.metrics.push", "false", errstr, sizeof(errstr)) !=
            RD_KAFKA_CONF_OK)
        return NULL;
    return rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof(errstr));
}

static inline void mock_kafka_up(struct mock_kafka *m)
{
    m->host = mock_producer(NULL);
    assert_non_null(m->host);
    m->mc = rd_kafka_mock_cluster_new(m->host, 1);
    assert_non_null(m->mc);
    m->writer = mock_producer(rd_kafka_mock_cluster_bootstraps(m->mc));
    assert_non_null(m->writer);
}

/* Topic name with parts partitions, its metadata read by the writer so that it can produce. */
static inline void mock_kafka_topic(struct mock_kafka *m, const char *name, int parts)
{
    const struct rd_kafka_metadata *md;
    rd_kafka_topic_t *rkt;

    assert_int_equal(rd_kafka_mock_topic_create(m->mc, name, parts, 1), 0);
    rkt = rd_kafka_topic_new(m->writer, name, NULL);
    assert_int_equal(rd_kafka_metadata(m->writer, 0, rkt, &md, 10000), 0);
    rd_kafka_metadata_destroy(md);
    rd_kafka_topic_destroy(rkt);
}

static inline void mock_kafka_down(struct mock_kafka *m)
{
    rd_kafka_destroy(m->writer);
    rd_kafka_mock_cluster_destroy(m->mc);
    rd_kafka_destroy(m->host);
}

#endif
