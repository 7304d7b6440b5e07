/*
 * bench/mockseed.h: seeding librdkafka's mock cluster (rdkafka_mock.h), shared by bench/tail
 * and bench/memory.  A producer that never drops a record (message.timeout.ms 0: a loaded
 * machine seeding 300,000 records outlasts the default 300 s in the queue), and a put that
 * waits while the queue is full.  rd_kafka_producev returns its error; it sets neither errno
 * nor rd_kafka_last_error(), so the error is taken from its return value.
 */
#ifndef MM2KIT_BENCH_MOCKSEED_H
#define MM2KIT_BENCH_MOCKSEED_H

#include <librdkafka/rdkafka.h>
#include <stdio.h>
#include <string.h>

/* A producer for bootstrap (NULL: the client that hosts the mock cluster). */
static rd_kafka_t *seed_producer(const char *bootstrap)
{
    char err[512];
    rd_kafka_conf_t *conf = rd_kafka_conf_new();

    if ((bootstrap != NULL && rd_kafka_conf_set(conf, "bootstrap.servers", bootstrap, err,
                                                sizeof(err)) != RD_KAFKA_CONF_OK) ||
        rd_kafka_conf_set(conf, "linger.ms", "5", err, sizeof(err)) != RD_KAFKA_CONF_OK ||
        rd_kafka_conf_set(conf, "message.timeout.ms", "0", err, sizeof(err)) != RD_KAFKA_CONF_OK ||
        rd_kafka_conf_set(conf, "log_level", "0", err, sizeof(err)) != RD_KAFKA_CONF_OK ||
        rd_kafka_conf_set(conf, "enable.metrics.push", "false", err, sizeof(err)) !=
            RD_KAFKA_CONF_OK) {
        rd_kafka_conf_destroy(conf);
        return NULL;
    }
    return rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof(err));
}

/* One record to topic/partition: key "k<offset>", the value given.  0, or -1 on an error
 * other than a full queue. */
static int seed_put(rd_kafka_t *w, const char *topic, int partition, int offset, char *value)
{
    char key[16];
    rd_kafka_resp_err_t e;

    (void)snprintf(key, sizeof(key), "k%d", offset);
    while ((e = rd_kafka_producev(w, RD_KAFKA_V_TOPIC(topic), RD_KAFKA_V_PARTITION(partition),
                                  RD_KAFKA_V_KEY(key, strlen(key)),
                                  RD_KAFKA_V_VALUE(value, strlen(value)),
                                  RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_END)) != 0) {
        if (e != RD_KAFKA_RESP_ERR__QUEUE_FULL)
            return -1;
        rd_kafka_poll(w, 10);
    }
    return 0;
}

#endif
