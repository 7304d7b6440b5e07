/*
 * mm2_kafka_configs: the topics' cleanup.policy (see mm2_kafka.h, mm2_kafka_compacted), one
 * DescribeConfigs request through the admin calls' retry loop (mm2k_admin_run).
 */
#include "mm2_kafka_internal.h"

#include <stdlib.h>
#include <string.h>

/* DescribeConfigs of every topic, asking for cleanup.policy only (the request's configuration
 * keys), so the answer stays small whatever the number of topics. */
static bool configs_send(struct handle *h, const struct admin_args *a, rd_kafka_AdminOptions_t *o,
                         rd_kafka_queue_t *q, struct admin_req *r)
{
    r->res = calloc(a->n, sizeof(*r->res));
    for (size_t i = 0; r->res != NULL && i < a->n; i++) {
        r->res[i] = rd_kafka_ConfigResource_new(RD_KAFKA_RESOURCE_TOPIC, a->tps[i].topic);
        if (r->res[i] == NULL)
            return false;
        r->nres++;
        /* DescribeConfigs sends the entries' names only (librdkafka's DescribeConfigsRequest);
         * set_config refuses a NULL value, so the value is "". */
        if (rd_kafka_ConfigResource_set_config(r->res[i], "cleanup.policy", "") !=
            RD_KAFKA_RESP_ERR_NO_ERROR)
            return false;
    }
    if (r->res == NULL)
        return false;
    rd_kafka_DescribeConfigs(h->rk, r->res, r->nres, o, q);
    return true;
}

/* Whether the comma-separated list holds word (spaces around items ignored). */
static bool list_holds(const char *list, const char *word)
{
    size_t w = strlen(word);

    for (const char *p = list + strspn(list, " ,"); *p != '\0'; p += strspn(p, " ,")) {
        size_t len = strcspn(p, ","), l = len;
        while (l > 0 && p[l - 1] == ' ')
            l--;
        if (l == w && strncmp(p, word, w) == 0)
            return true;
        p += len;
    }
    return false;
}

/* A topic's cleanup.policy from its resource: false when the answer has none (never guessed). */
static bool policy_read(const rd_kafka_ConfigResource_t *res, bool *compacted)
{
    size_t cnt = 0;
    const rd_kafka_ConfigEntry_t **c = rd_kafka_ConfigResource_configs(res, &cnt);

    for (size_t i = 0; i < cnt; i++) {
        const char *v = rd_kafka_ConfigEntry_value(c[i]);
        if (strcmp(rd_kafka_ConfigEntry_name(c[i]), "cleanup.policy") != 0 || v == NULL)
            continue;
        *compacted = list_holds(v, "compact");
        return true;
    }
    return false;
}

static void configs_read(rd_kafka_event_t *ev, const struct admin_args *a, struct attempt *at)
{
    size_t cnt = 0;
    const rd_kafka_ConfigResource_t **res =
        rd_kafka_DescribeConfigs_result_resources(rd_kafka_event_DescribeConfigs_result(ev), &cnt);
    bool *seen = calloc(a->n, sizeof(*seen));

    *at = (struct attempt){seen != NULL ? rd_kafka_event_error(ev) : ERR_OOM, NULL, -1};
    for (size_t j = 0; at->e == RD_KAFKA_RESP_ERR_NO_ERROR && j < cnt; j++) {
        long i = mm2k_tp_find(a->idx, a->n, rd_kafka_ConfigResource_name(res[j]), 0);
        if (i < 0 || seen[i])
            continue;
        if (rd_kafka_ConfigResource_error(res[j]) != RD_KAFKA_RESP_ERR_NO_ERROR)
            *at = (struct attempt){rd_kafka_ConfigResource_error(res[j]), a->tps[i].topic, -1};
        else if (!(seen[i] = policy_read(res[j], &a->compacted[i])))
            *at = (struct attempt){RD_KAFKA_RESP_ERR__BAD_MSG, a->tps[i].topic, -1};
    }
    for (size_t i = 0; seen != NULL && i < a->n && at->e == RD_KAFKA_RESP_ERR_NO_ERROR; i++)
        if (!seen[i])
            *at = (struct attempt){RD_KAFKA_RESP_ERR__BAD_MSG, a->tps[i].topic, -1};
    free(seen);
}

static const struct admin_call CONFIGS = {RD_KAFKA_ADMIN_OP_DESCRIBECONFIGS, configs_send,
                                          configs_read, false};

enum mm2_status mm2_kafka_compacted(struct mm2_kafka *k, const char *const *topics, size_t n,
                                    bool *compacted, const struct mm2_deadline *dl,
                                    struct mm2_error *err)
{
    struct mm2_tp *tps;
    struct tpidx *idx = NULL;
    enum mm2_status st = mm2k_enter(k, dl, err);

    if (st != MM2_OK)
        return st;
    if (topics == NULL || compacted == NULL)
        return mm2k_fail(k, err, MM2_USAGE, "cleanup.policy: no topics or no output");
    tps = calloc(n + 1, sizeof(*tps));
    if (tps == NULL)
        return mm2k_fail(k, err, MM2_UNEXPECTED, "cleanup.policy: out of memory");
    for (size_t i = 0; i < n; i++)
        tps[i] = (struct mm2_tp){topics[i], 0}; /* partition 0: the index keys topics alone */
    st = mm2k_tp_index(k, tps, n, &idx, err);
    if (st == MM2_OK) {
        struct admin_args a = {.tps = tps, .idx = idx, .n = n, .compacted = compacted};

        st = mm2k_admin_run(k, &CONFIGS, &a, dl, "cleanup.policy of the topics", err);
    }
    free(idx);
    free(tps);
    return st;
}
