/*
 * mm2_kafka_admin: the Admin API's one retry loop and what an admin call is made of, internal to
 * lib/mm2_kafka*.c (callers use mm2_kafka.h). mm2_kafka_admin.c defines its own calls on it (a
 * group's offsets and state, the commit, cleanup.policy); mm2_kafka_describe.c, above it, adds
 * the KIP-430 describes and one config's values.
 *
 * Contract: as mm2_kafka_handle.h's. An admin call is a table entry (struct admin_call): how its
 * request is made and sent, how its answer is read into struct admin_args' outputs and into one
 * struct attempt; mm2_kafka_admin_run repeats it until the answer has no error, the error is
 * settled for good (mm2_kafka_handle_settle), or the deadline passes.
 */
#ifndef MM2_KAFKA_ADMIN_H
#define MM2_KAFKA_ADMIN_H

#include "mm2_kafka_handle.h"

#define ERR_OOM RD_KAFKA_RESP_ERR__BEGIN /* a marker librdkafka never returns: out of memory */

/* What an admin call works on, and where its answer goes. */
struct admin_args {
    const char *group;
    const struct mm2_tp *tps; /* with idx and n; NULL for DescribeConsumerGroups */
    const struct tpidx *idx;
    size_t n;
    const int64_t *offsets;      /* AlterConsumerGroupOffsets: to write, in the caller's order */
    int64_t *out;                /* ListConsumerGroupOffsets: read, in the caller's order */
    struct mm2_group_info *info; /* DescribeConsumerGroups */
    bool *compacted; /* DescribeConfigs of topics (tps' topics), in the caller's order */
    const char *key; /* DescribeConfigs of one key (tps' topics): its values into values */
    struct mm2_kafka_config_value *values;
    struct mm2_kafka_described *described; /* KIP-430: per topic (tps'), or the one group/cluster */
    const struct mm2_kafka_new_topic *create; /* CreateTopics: the one topic */
    bool *created;                            /* CreateTopics: false when it existed */
};

/* The objects one attempt made, freed once its answer is read. */
struct admin_req {
    rd_kafka_topic_partition_list_t *l;
    rd_kafka_ListConsumerGroupOffsets_t *list;
    rd_kafka_AlterConsumerGroupOffsets_t *alter;
    rd_kafka_ConfigResource_t **res;
    size_t nres;
    rd_kafka_TopicCollection_t *topics;
    rd_kafka_NewTopic_t *newtopic;
};

/* What differs between the admin calls; admin_run is the one retry loop around them. */
struct admin_call {
    rd_kafka_admin_op_t op;
    /* Makes the request into r and sends it, the answer to come on q; false when out of
     * memory (nothing sent). */
    bool (*send)(struct handle *h, const struct admin_args *a, rd_kafka_AdminOptions_t *o,
                 rd_kafka_queue_t *q, struct admin_req *r);
    /* Reads the result event: the first error into at, the answer into a's output. */
    void (*read)(rd_kafka_event_t *ev, const struct admin_args *a, struct attempt *at);
    /* A classic group with active members refuses the call (a commit from outside it):
     * UNKNOWN_MEMBER_ID, ILLEGAL_GENERATION and REBALANCE_IN_PROGRESS end it at once. */
    bool members_refuse;
};

/* Runs the admin call c on the read_uncommitted handle until it is answered without error,
 * fails for good, or the deadline passes. what names it in messages. A topic's own error (not a
 * partition's) comes in struct attempt with partition -1. */
enum mm2_status mm2_kafka_admin_run(struct mm2_kafka *k, const struct admin_call *c,
                                    const struct admin_args *a, const struct mm2_deadline *dl,
                                    const char *what, struct mm2_error *err);

/* DescribeConfigs of a's topics (tps), asking for a->key only (cleanup.policy when NULL), so the
 * answer stays small whatever the number of topics. */
bool mm2_kafka_admin_configs_send(struct handle *h, const struct admin_args *a,
                                  rd_kafka_AdminOptions_t *o, rd_kafka_queue_t *q,
                                  struct admin_req *r);

#endif
