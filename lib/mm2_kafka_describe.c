/*
 * mm2_kafka_describe: what a principal may do, as Kafka answers it to that principal's own
 * credentials (KIP-430's authorized operations from DescribeTopics, DescribeConsumerGroups and
 * DescribeCluster), and one config's values per topic (DescribeConfigs): see mm2_kafka.h. Each
 * runs through the admin loop (mm2_kafka_admin_run, mm2_kafka_admin.h). An answer Kafka gives
 * instead of operations (the resource does not exist, the principal may not describe it, the
 * broker does not know the request) is an answer, not an error.
 */
#include "mm2_kafka_admin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A broker that does not know the request (or the librdkafka check of its API versions) says
 * nothing: its answer is "not answered", not an error. */
static bool unsupported(rd_kafka_resp_err_t e)
{
    return e == RD_KAFKA_RESP_ERR__UNSUPPORTED_FEATURE ||
           e == RD_KAFKA_RESP_ERR_UNSUPPORTED_VERSION;
}

/* The authorized operations librdkafka parsed (NULL: none returned) as a bit set. */
static void ops_read(const rd_kafka_AclOperation_t *ops, size_t cnt, struct mm2_kafka_described *d)
{
    d->seen = ops != NULL ? MM2_KAFKA_SEEN_OPS : MM2_KAFKA_SEEN_UNANSWERED;
    d->ops = 0;
    for (size_t i = 0; ops != NULL && i < cnt; i++)
        if ((int)ops[i] >= 0 && (int)ops[i] < 32)
            d->ops |= 1u << (unsigned)ops[i];
}

static void unanswered(const struct admin_args *a, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a->described != NULL)
            a->described[i] = (struct mm2_kafka_described){MM2_KAFKA_SEEN_UNANSWERED, 0, -1, -1};
        else if (a->values != NULL)
            a->values[i] = (struct mm2_kafka_config_value){MM2_KAFKA_SEEN_UNANSWERED, ""};
}

static bool topics_send(struct handle *h, const struct admin_args *a, rd_kafka_AdminOptions_t *o,
                        rd_kafka_queue_t *q, struct admin_req *r)
{
    const char **names = calloc(a->n, sizeof(*names));
    rd_kafka_error_t *oe;

    for (size_t i = 0; names != NULL && i < a->n; i++)
        names[i] = a->tps[i].topic;
    r->topics = names != NULL ? rd_kafka_TopicCollection_of_topic_names(names, a->n) : NULL;
    free(names);
    if (r->topics == NULL)
        return false;
    oe = rd_kafka_AdminOptions_set_include_authorized_operations(o, 1);
    if (oe != NULL) {
        rd_kafka_error_destroy(oe);
        return false;
    }
    rd_kafka_DescribeTopics(h->rk, r->topics, o, q);
    return true;
}

/* One topic's description: absent, denied, or its operations, partitions and replication factor
 * (the fewest replicas of any partition); another error into at. */
static void topic_read(const rd_kafka_TopicDescription_t *t, const char *name,
                       struct mm2_kafka_described *d, struct attempt *at)
{
    const rd_kafka_error_t *te = rd_kafka_TopicDescription_error(t);
    rd_kafka_resp_err_t e = te != NULL ? rd_kafka_error_code(te) : RD_KAFKA_RESP_ERR_NO_ERROR;
    size_t nops = 0, np = 0;
    const rd_kafka_AclOperation_t *ops;
    const rd_kafka_TopicPartitionInfo_t **p;

    *d = (struct mm2_kafka_described){MM2_KAFKA_SEEN_UNANSWERED, 0, -1, -1};
    if (e == RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART) {
        d->seen = MM2_KAFKA_SEEN_ABSENT;
        return;
    }
    if (e == RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED) {
        d->seen = MM2_KAFKA_SEEN_DENIED;
        return;
    }
    if (e != RD_KAFKA_RESP_ERR_NO_ERROR) {
        *at = (struct attempt){e, name, -1};
        return;
    }
    ops = rd_kafka_TopicDescription_authorized_operations(t, &nops);
    ops_read(ops, nops, d);
    p = rd_kafka_TopicDescription_partitions(t, &np);
    d->partitions = np > INT32_MAX ? INT32_MAX : (int32_t)np;
    for (size_t i = 0; i < np; i++) {
        size_t nr = 0;
        (void)rd_kafka_TopicPartitionInfo_replicas(p[i], &nr);
        if (d->replication < 0 || (int32_t)nr < d->replication)
            d->replication = nr > INT32_MAX ? INT32_MAX : (int32_t)nr;
    }
}

static void topics_read(rd_kafka_event_t *ev, const struct admin_args *a, struct attempt *at)
{
    size_t cnt = 0;
    const rd_kafka_TopicDescription_t **t =
        rd_kafka_DescribeTopics_result_topics(rd_kafka_event_DescribeTopics_result(ev), &cnt);
    bool *seen = calloc(a->n, sizeof(*seen));

    *at = (struct attempt){seen != NULL ? rd_kafka_event_error(ev) : ERR_OOM, NULL, -1};
    if (unsupported(at->e)) {
        unanswered(a, a->n);
        at->e = RD_KAFKA_RESP_ERR_NO_ERROR;
        free(seen);
        return;
    }
    for (size_t j = 0; at->e == RD_KAFKA_RESP_ERR_NO_ERROR && j < cnt; j++) {
        const char *name = rd_kafka_TopicDescription_name(t[j]);
        long i = mm2_kafka_handle_tp_find(a->idx, a->n, name != NULL ? name : "", 0);
        if (i < 0 || seen[i])
            continue;
        seen[i] = true;
        topic_read(t[j], a->tps[i].topic, &a->described[i], at);
    }
    for (size_t i = 0; seen != NULL && i < a->n && at->e == RD_KAFKA_RESP_ERR_NO_ERROR; i++)
        if (!seen[i])
            *at = (struct attempt){RD_KAFKA_RESP_ERR__BAD_MSG, a->tps[i].topic, -1};
    free(seen);
}

static bool group_ops_send(struct handle *h, const struct admin_args *a, rd_kafka_AdminOptions_t *o,
                           rd_kafka_queue_t *q, struct admin_req *r)
{
    rd_kafka_error_t *oe = rd_kafka_AdminOptions_set_include_authorized_operations(o, 1);
    const char *group = a->group;

    (void)r;
    if (oe != NULL) {
        rd_kafka_error_destroy(oe);
        return false;
    }
    rd_kafka_DescribeConsumerGroups(h->rk, &group, 1, o, q);
    return true;
}

/* A group is described whether it exists or not (Kafka answers "Dead"): its ACLs are by name. */
static void group_ops_read(rd_kafka_event_t *ev, const struct admin_args *a, struct attempt *at)
{
    size_t cnt = 0, nops = 0;
    const rd_kafka_AclOperation_t *ops;
    const rd_kafka_ConsumerGroupDescription_t **g = rd_kafka_DescribeConsumerGroups_result_groups(
        rd_kafka_event_DescribeConsumerGroups_result(ev), &cnt);

    *at = (struct attempt){rd_kafka_event_error(ev), NULL, -1};
    if (unsupported(at->e)) {
        unanswered(a, 1);
        at->e = RD_KAFKA_RESP_ERR_NO_ERROR;
        return;
    }
    if (at->e == RD_KAFKA_RESP_ERR_NO_ERROR && cnt != 1)
        at->e = RD_KAFKA_RESP_ERR__BAD_MSG;
    if (at->e == RD_KAFKA_RESP_ERR_NO_ERROR &&
        rd_kafka_ConsumerGroupDescription_error(g[0]) != NULL)
        at->e = rd_kafka_error_code(rd_kafka_ConsumerGroupDescription_error(g[0]));
    /* librdkafka 2.8 describes consumer groups only: a Connect group (protocol type "connect")
     * comes back as _INVALID_ARG "not a consumer group", after the broker described it. */
    if (at->e == RD_KAFKA_RESP_ERR__INVALID_ARG) {
        unanswered(a, 1);
        at->e = RD_KAFKA_RESP_ERR_NO_ERROR;
        return;
    }
    if (at->e == RD_KAFKA_RESP_ERR_GROUP_AUTHORIZATION_FAILED) {
        *a->described = (struct mm2_kafka_described){MM2_KAFKA_SEEN_DENIED, 0, -1, -1};
        at->e = RD_KAFKA_RESP_ERR_NO_ERROR;
        return;
    }
    if (unsupported(at->e)) {
        unanswered(a, 1);
        at->e = RD_KAFKA_RESP_ERR_NO_ERROR;
        return;
    }
    if (at->e != RD_KAFKA_RESP_ERR_NO_ERROR)
        return;
    /* The count is set by the call: read it after, never as an argument beside it. */
    ops = rd_kafka_ConsumerGroupDescription_authorized_operations(g[0], &nops);
    *a->described = (struct mm2_kafka_described){MM2_KAFKA_SEEN_OPS, 0, -1, -1};
    ops_read(ops, nops, a->described);
}

static bool cluster_send(struct handle *h, const struct admin_args *a, rd_kafka_AdminOptions_t *o,
                         rd_kafka_queue_t *q, struct admin_req *r)
{
    rd_kafka_error_t *oe = rd_kafka_AdminOptions_set_include_authorized_operations(o, 1);

    (void)a;
    (void)r;
    if (oe != NULL) {
        rd_kafka_error_destroy(oe);
        return false;
    }
    rd_kafka_DescribeCluster(h->rk, o, q);
    return true;
}

static void cluster_read(rd_kafka_event_t *ev, const struct admin_args *a, struct attempt *at)
{
    size_t nops = 0;
    const rd_kafka_AclOperation_t *ops;
    const rd_kafka_DescribeCluster_result_t *res = rd_kafka_event_DescribeCluster_result(ev);

    *at = (struct attempt){rd_kafka_event_error(ev), NULL, -1};
    if (unsupported(at->e)) {
        unanswered(a, 1);
        at->e = RD_KAFKA_RESP_ERR_NO_ERROR;
        return;
    }
    if (at->e == RD_KAFKA_RESP_ERR_NO_ERROR && res == NULL)
        at->e = RD_KAFKA_RESP_ERR__BAD_MSG;
    if (at->e != RD_KAFKA_RESP_ERR_NO_ERROR)
        return;
    ops = rd_kafka_DescribeCluster_result_authorized_operations(res, &nops);
    ops_read(ops, nops, a->described);
}

/* One topic's value of a->key: absent, denied, the value, or (the key not in the answer) not
 * answered. */
static void value_read(const rd_kafka_ConfigResource_t *res, const char *key,
                       struct mm2_kafka_config_value *v)
{
    rd_kafka_resp_err_t e = rd_kafka_ConfigResource_error(res);
    size_t cnt = 0;
    const rd_kafka_ConfigEntry_t **c;

    *v = (struct mm2_kafka_config_value){MM2_KAFKA_SEEN_UNANSWERED, ""};
    if (e == RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART) {
        v->seen = MM2_KAFKA_SEEN_ABSENT;
        return;
    }
    if (e == RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED) {
        v->seen = MM2_KAFKA_SEEN_DENIED;
        return;
    }
    c = rd_kafka_ConfigResource_configs(res, &cnt);
    for (size_t i = 0; i < cnt; i++) {
        const char *val = rd_kafka_ConfigEntry_value(c[i]);
        if (strcmp(rd_kafka_ConfigEntry_name(c[i]), key) != 0 || val == NULL)
            continue;
        v->seen = MM2_KAFKA_SEEN_OPS;
        snprintf(v->value, sizeof(v->value), "%s", val);
        return;
    }
}

static void values_read(rd_kafka_event_t *ev, const struct admin_args *a, struct attempt *at)
{
    size_t cnt = 0;
    const rd_kafka_ConfigResource_t **res =
        rd_kafka_DescribeConfigs_result_resources(rd_kafka_event_DescribeConfigs_result(ev), &cnt);
    bool *seen = calloc(a->n, sizeof(*seen));

    *at = (struct attempt){seen != NULL ? rd_kafka_event_error(ev) : ERR_OOM, NULL, -1};
    if (unsupported(at->e)) {
        unanswered(a, a->n);
        at->e = RD_KAFKA_RESP_ERR_NO_ERROR;
        free(seen);
        return;
    }
    for (size_t j = 0; at->e == RD_KAFKA_RESP_ERR_NO_ERROR && j < cnt; j++) {
        long i = mm2_kafka_handle_tp_find(a->idx, a->n, rd_kafka_ConfigResource_name(res[j]), 0);
        rd_kafka_resp_err_t e = rd_kafka_ConfigResource_error(res[j]);
        if (i < 0 || seen[i])
            continue;
        seen[i] = true;
        if (e != RD_KAFKA_RESP_ERR_NO_ERROR && e != RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART &&
            e != RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED)
            *at = (struct attempt){e, a->tps[i].topic, -1};
        else
            value_read(res[j], a->key, &a->values[i]);
    }
    for (size_t i = 0; seen != NULL && i < a->n && at->e == RD_KAFKA_RESP_ERR_NO_ERROR; i++)
        if (!seen[i])
            *at = (struct attempt){RD_KAFKA_RESP_ERR__BAD_MSG, a->tps[i].topic, -1};
    free(seen);
}

enum describe_kind { DESCRIBE_TOPICS, DESCRIBE_GROUP, DESCRIBE_CLUSTER, DESCRIBE_CONFIG };

static const struct admin_call CALLS[] = {
    [DESCRIBE_TOPICS] = {RD_KAFKA_ADMIN_OP_DESCRIBETOPICS, topics_send, topics_read, false},
    [DESCRIBE_GROUP] = {RD_KAFKA_ADMIN_OP_DESCRIBECONSUMERGROUPS, group_ops_send, group_ops_read,
                        false},
    [DESCRIBE_CLUSTER] = {RD_KAFKA_ADMIN_OP_DESCRIBECLUSTER, cluster_send, cluster_read, false},
    [DESCRIBE_CONFIG] = {RD_KAFKA_ADMIN_OP_DESCRIBECONFIGS, mm2_kafka_admin_configs_send,
                         values_read, false},
};

/* The topics as a checked index keyed by name alone (partition 0), for the calls that ask
 * about topics; *tps and *idx are the caller's to free. */
static enum mm2_status topic_index(struct mm2_kafka *k, const char *const *topics, size_t n,
                                   struct mm2_tp **tps, struct tpidx **idx, struct mm2_error *err)
{
    *idx = NULL;
    *tps = calloc(n + 1, sizeof(**tps));
    if (*tps == NULL)
        return mm2_kafka_handle_fail(k, err, MM2_UNEXPECTED, "out of memory");
    for (size_t i = 0; i < n; i++)
        (*tps)[i] = (struct mm2_tp){topics[i], 0};
    return mm2_kafka_handle_tp_index(k, *tps, n, idx, err);
}

enum mm2_status mm2_kafka_describe_topics(struct mm2_kafka *k, const char *const *topics, size_t n,
                                          struct mm2_kafka_described *out,
                                          const struct mm2_deadline *dl, struct mm2_error *err)
{
    struct mm2_tp *tps = NULL;
    struct tpidx *idx = NULL;
    enum mm2_status st = mm2_kafka_handle_enter(k, dl, err);

    if (st != MM2_OK)
        return st;
    if (topics == NULL || out == NULL)
        return mm2_kafka_handle_fail(k, err, MM2_USAGE, "describe topics: no topics or no output");
    st = topic_index(k, topics, n, &tps, &idx, err);
    if (st == MM2_OK) {
        struct admin_args a = {.tps = tps, .idx = idx, .n = n, .described = out};
        st = mm2_kafka_admin_run(k, &CALLS[DESCRIBE_TOPICS], &a, dl,
                                 "describe topics (authorized operations)", err);
    }
    free(idx);
    free(tps);
    return st;
}

enum mm2_status mm2_kafka_describe_group(struct mm2_kafka *k, const char *group,
                                         struct mm2_kafka_described *out,
                                         const struct mm2_deadline *dl, struct mm2_error *err)
{
    char what[320];
    struct mm2_group_info info;
    struct admin_args a = {.group = group, .info = &info, .described = out};
    enum mm2_status st = mm2_kafka_handle_enter(k, dl, err);

    if (st != MM2_OK)
        return st;
    if (group == NULL || group[0] == '\0' || out == NULL)
        return mm2_kafka_handle_fail(k, err, MM2_USAGE, "describe group: no group or no output");
    snprintf(what, sizeof(what), "describe group '%.255s' (authorized operations)", group);
    return mm2_kafka_admin_run(k, &CALLS[DESCRIBE_GROUP], &a, dl, what, err);
}

enum mm2_status mm2_kafka_describe_cluster(struct mm2_kafka *k, struct mm2_kafka_described *out,
                                           const struct mm2_deadline *dl, struct mm2_error *err)
{
    struct admin_args a = {.described = out};
    enum mm2_status st = mm2_kafka_handle_enter(k, dl, err);

    if (st != MM2_OK)
        return st;
    if (out == NULL)
        return mm2_kafka_handle_fail(k, err, MM2_USAGE, "describe cluster: no output");
    *out = (struct mm2_kafka_described){MM2_KAFKA_SEEN_UNANSWERED, 0, -1, -1};
    return mm2_kafka_admin_run(k, &CALLS[DESCRIBE_CLUSTER], &a, dl,
                               "describe cluster (authorized operations)", err);
}

enum mm2_status mm2_kafka_describe_config(struct mm2_kafka *k, const char *const *topics, size_t n,
                                          const char *key, struct mm2_kafka_config_value *out,
                                          const struct mm2_deadline *dl, struct mm2_error *err)
{
    char what[160];
    struct mm2_tp *tps = NULL;
    struct tpidx *idx = NULL;
    enum mm2_status st = mm2_kafka_handle_enter(k, dl, err);

    if (st != MM2_OK)
        return st;
    if (topics == NULL || out == NULL || key == NULL || key[0] == '\0')
        return mm2_kafka_handle_fail(k, err, MM2_USAGE, "topic config: no topics, key or output");
    snprintf(what, sizeof(what), "%.100s of the topics", key);
    st = topic_index(k, topics, n, &tps, &idx, err);
    if (st == MM2_OK) {
        struct admin_args a = {.tps = tps, .idx = idx, .n = n, .key = key, .values = out};
        st = mm2_kafka_admin_run(k, &CALLS[DESCRIBE_CONFIG], &a, dl, what, err);
    }
    free(idx);
    free(tps);
    return st;
}
