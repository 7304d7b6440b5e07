/*
 * mm2_kafka_admin: the calls of librdkafka's Admin API (see mm2_kafka.h): a group's committed
 * offsets (ListConsumerGroupOffsets), its state (DescribeConsumerGroups), the offset commit
 * (AlterConsumerGroupOffsets), the topics' cleanup.policy (DescribeConfigs),
 * and the one retry loop every admin call runs through (mm2_kafka_admin_run, mm2_kafka_admin.h;
 * mm2_kafka_describe.c's calls too), driven by a table of what differs between them; an attempt
 * that fails is settled by the handle layer's one rule (mm2_kafka_handle_settle).
 */
#include "mm2_kafka_admin.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool group_valid(const char *group)
{
    return group != NULL && group[0] != '\0';
}

/* ---- the requests and their answers ------------------------------------------------------ */

/* An admin request's result event from q, or NULL at the deadline or once the handle is hopeless
 * (mm2_kafka_handle_hopeless). */
static rd_kafka_event_t *admin_wait(struct handle *h, rd_kafka_queue_t *q,
                                    const struct mm2_deadline *dl)
{
    for (;;) {
        rd_kafka_event_t *ev = rd_kafka_queue_poll(q, mm2_kafka_handle_slice_ms(dl, SLICE_MS));

        mm2_kafka_handle_serve(h, 0);
        if (ev != NULL)
            return ev;
        if (mm2_kafka_handle_hopeless(h) || mm2_deadline_expired(dl))
            return NULL;
    }
}

/* Admin options with the time left as the request timeout (librdkafka accepts up to 1 hour). */
static rd_kafka_AdminOptions_t *admin_options(struct handle *h, rd_kafka_admin_op_t op,
                                              const struct mm2_deadline *dl)
{
    char errstr[256];
    rd_kafka_AdminOptions_t *o = rd_kafka_AdminOptions_new(h->rk, op);
    int ms = mm2_kafka_handle_slice_ms(dl, 3600L * 1000L);

    if (o == NULL)
        return NULL;
    if (rd_kafka_AdminOptions_set_request_timeout(o, ms > 0 ? ms : 1, errstr, sizeof(errstr)) !=
        RD_KAFKA_RESP_ERR_NO_ERROR) {
        rd_kafka_AdminOptions_destroy(o);
        return NULL;
    }
    return o;
}

/* The first error of a group result's event: the event's own, then the group's. */
static rd_kafka_resp_err_t group_result_err(rd_kafka_event_t *ev, const rd_kafka_group_result_t **g,
                                            size_t cnt)
{
    rd_kafka_resp_err_t e = rd_kafka_event_error(ev);

    if (e != RD_KAFKA_RESP_ERR_NO_ERROR)
        return e;
    if (cnt != 1)
        return RD_KAFKA_RESP_ERR__BAD_MSG;
    if (rd_kafka_group_result_error(g[0]) != NULL)
        return rd_kafka_error_code(rd_kafka_group_result_error(g[0]));
    return RD_KAFKA_RESP_ERR_NO_ERROR;
}

/* Reads per-partition answers into out (when not NULL), in the caller's order, and the first
 * per-partition error into a. A partition missing from the answer is an error, never a silent
 * "none". Offsets below 0 become MM2_OFFSET_NONE (librdkafka maps the broker's -1 to -1001). */
static void partitions_read(const rd_kafka_topic_partition_list_t *l, const struct mm2_tp *tps,
                            const struct tpidx *idx, size_t n, int64_t *out, struct attempt *a)
{
    bool *seen = calloc(n, sizeof(*seen));

    *a = (struct attempt){RD_KAFKA_RESP_ERR_NO_ERROR, NULL, 0};
    if (seen == NULL || l == NULL) {
        a->e = seen == NULL ? ERR_OOM : RD_KAFKA_RESP_ERR__BAD_MSG;
        free(seen);
        return;
    }
    for (int j = 0; j < l->cnt; j++) {
        const rd_kafka_topic_partition_t *p = &l->elems[j];
        long i = mm2_kafka_handle_tp_find(idx, n, p->topic, p->partition);

        if (i < 0 || seen[i])
            continue;
        seen[i] = true;
        if (p->err != RD_KAFKA_RESP_ERR_NO_ERROR && a->e == RD_KAFKA_RESP_ERR_NO_ERROR)
            *a = (struct attempt){p->err, tps[i].topic, tps[i].partition};
        if (out != NULL)
            out[i] = p->offset < 0 ? MM2_OFFSET_NONE : p->offset;
    }
    for (size_t i = 0; i < n && a->e == RD_KAFKA_RESP_ERR_NO_ERROR; i++)
        if (!seen[i])
            *a = (struct attempt){RD_KAFKA_RESP_ERR__BAD_MSG, tps[i].topic, tps[i].partition};
    free(seen);
}

/* Frees what one admin attempt made; every argument may be NULL. */
static void admin_done(rd_kafka_queue_t *q, rd_kafka_AdminOptions_t *o,
                       rd_kafka_topic_partition_list_t *l)
{
    if (q != NULL)
        rd_kafka_queue_destroy(q);
    if (o != NULL)
        rd_kafka_AdminOptions_destroy(o);
    if (l != NULL)
        rd_kafka_topic_partition_list_destroy(l);
}

/* The answer to a group offsets request (list or alter): the group's error, then the first
 * partition's; the offsets into out when it is not NULL. */
static void offsets_read(rd_kafka_event_t *ev, const rd_kafka_group_result_t **g, size_t cnt,
                         const struct admin_args *a, int64_t *out, struct attempt *at)
{
    at->e = group_result_err(ev, g, cnt);
    if (at->e == RD_KAFKA_RESP_ERR_NO_ERROR)
        partitions_read(rd_kafka_group_result_partitions(g[0]), a->tps, a->idx, a->n, out, at);
}

static bool list_send(struct handle *h, const struct admin_args *a, rd_kafka_AdminOptions_t *o,
                      rd_kafka_queue_t *q, struct admin_req *r)
{
    rd_kafka_error_t *oe;

    r->l = mm2_kafka_handle_tp_list(a->tps, a->n);
    r->list = r->l != NULL ? rd_kafka_ListConsumerGroupOffsets_new(a->group, r->l) : NULL;
    if (r->list == NULL)
        return false;
    /* require_stable: a transactional offset commit still pending answers
     * UNSTABLE_OFFSET_COMMIT (retried) instead of the offset before it. */
    oe = rd_kafka_AdminOptions_set_require_stable_offsets(o, 1);
    if (oe != NULL) {
        rd_kafka_error_destroy(oe);
        return false;
    }
    rd_kafka_ListConsumerGroupOffsets(h->rk, &r->list, 1, o, q);
    return true;
}

static void list_read(rd_kafka_event_t *ev, const struct admin_args *a, struct attempt *at)
{
    size_t cnt = 0;
    const rd_kafka_group_result_t **g = rd_kafka_ListConsumerGroupOffsets_result_groups(
        rd_kafka_event_ListConsumerGroupOffsets_result(ev), &cnt);

    offsets_read(ev, g, cnt, a, a->out, at);
}

static bool describe_send(struct handle *h, const struct admin_args *a, rd_kafka_AdminOptions_t *o,
                          rd_kafka_queue_t *q, struct admin_req *r)
{
    const char *group = a->group;

    (void)r;
    rd_kafka_DescribeConsumerGroups(h->rk, &group, 1, o, q);
    return true;
}

static void copy_name(char *dst, size_t cap, const char *src)
{
    snprintf(dst, cap, "%s", src != NULL ? src : "");
}

static void describe_read(rd_kafka_event_t *ev, const struct admin_args *a, struct attempt *at)
{
    size_t cnt = 0;
    const rd_kafka_ConsumerGroupDescription_t **g = rd_kafka_DescribeConsumerGroups_result_groups(
        rd_kafka_event_DescribeConsumerGroups_result(ev), &cnt);
    size_t members;

    at->e = rd_kafka_event_error(ev);
    if (at->e == RD_KAFKA_RESP_ERR_NO_ERROR && cnt != 1)
        at->e = RD_KAFKA_RESP_ERR__BAD_MSG;
    if (at->e == RD_KAFKA_RESP_ERR_NO_ERROR &&
        rd_kafka_ConsumerGroupDescription_error(g[0]) != NULL)
        at->e = rd_kafka_error_code(rd_kafka_ConsumerGroupDescription_error(g[0]));
    if (at->e != RD_KAFKA_RESP_ERR_NO_ERROR)
        return;
    members = rd_kafka_ConsumerGroupDescription_member_count(g[0]);
    copy_name(a->info->state, sizeof(a->info->state),
              rd_kafka_consumer_group_state_name(rd_kafka_ConsumerGroupDescription_state(g[0])));
    a->info->members = members > INT_MAX ? INT_MAX : (int)members;
    /* librdkafka (2.8.0 as 2.0.2) has no accessor for the protocol type: a "simple" group is one
     * without (commits only, as Flink's assign()-based source makes). */
    copy_name(a->info->protocol_type, sizeof(a->info->protocol_type),
              rd_kafka_ConsumerGroupDescription_is_simple_consumer_group(g[0]) ? "" : "consumer");
}

static bool alter_send(struct handle *h, const struct admin_args *a, rd_kafka_AdminOptions_t *o,
                       rd_kafka_queue_t *q, struct admin_req *r)
{
    r->l = mm2_kafka_handle_tp_list(a->tps, a->n);
    for (int j = 0; r->l != NULL && j < r->l->cnt; j++)
        r->l->elems[j].offset = a->offsets[j]; /* tp_list keeps the caller's order */
    r->alter = r->l != NULL ? rd_kafka_AlterConsumerGroupOffsets_new(a->group, r->l) : NULL;
    if (r->alter == NULL)
        return false;
    rd_kafka_AlterConsumerGroupOffsets(h->rk, &r->alter, 1, o, q);
    return true;
}

static void alter_read(rd_kafka_event_t *ev, const struct admin_args *a, struct attempt *at)
{
    size_t cnt = 0;
    const rd_kafka_group_result_t **g = rd_kafka_AlterConsumerGroupOffsets_result_groups(
        rd_kafka_event_AlterConsumerGroupOffsets_result(ev), &cnt);

    offsets_read(ev, g, cnt, a, NULL, at);
}

/* ---- cleanup.policy (DescribeConfigs) ---------------------------------------------------- */

/* DescribeConfigs of every topic, asking for cleanup.policy only (the request's configuration
 * keys), so the answer stays small whatever the number of topics. */
bool mm2_kafka_admin_configs_send(struct handle *h, const struct admin_args *a,
                                  rd_kafka_AdminOptions_t *o, rd_kafka_queue_t *q,
                                  struct admin_req *r)
{
    r->res = calloc(a->n, sizeof(*r->res));
    for (size_t i = 0; r->res != NULL && i < a->n; i++) {
        r->res[i] = rd_kafka_ConfigResource_new(RD_KAFKA_RESOURCE_TOPIC, a->tps[i].topic);
        if (r->res[i] == NULL)
            return false;
        r->nres++;
        /* DescribeConfigs sends the entries' names only (librdkafka's DescribeConfigsRequest);
         * set_config refuses a NULL value, so the value is "". */
        if (rd_kafka_ConfigResource_set_config(r->res[i],
                                               a->key != NULL ? a->key : "cleanup.policy",
                                               "") != RD_KAFKA_RESP_ERR_NO_ERROR)
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
        long i = mm2_kafka_handle_tp_find(a->idx, a->n, rd_kafka_ConfigResource_name(res[j]), 0);
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

static bool create_send(struct handle *h, const struct admin_args *a, rd_kafka_AdminOptions_t *o,
                        rd_kafka_queue_t *q, struct admin_req *r)
{
    char errstr[256];
    const struct mm2_kafka_new_topic *t = a->create;

    r->newtopic = rd_kafka_NewTopic_new(t->topic, t->partitions, t->replication_factor, errstr,
                                        sizeof(errstr));
    if (r->newtopic == NULL)
        return false;
    for (size_t i = 0; i < t->nconfigs; i++)
        if (rd_kafka_NewTopic_set_config(r->newtopic, t->configs[i].key, t->configs[i].value) !=
            RD_KAFKA_RESP_ERR_NO_ERROR)
            return false;
    rd_kafka_CreateTopics(h->rk, &r->newtopic, 1, o, q);
    return true;
}

/* TOPIC_ALREADY_EXISTS is an answer, not an error: a retried request that created it, or another
 * migration's run. */
static void create_read(rd_kafka_event_t *ev, const struct admin_args *a, struct attempt *at)
{
    size_t cnt = 0;
    const rd_kafka_CreateTopics_result_t *res = rd_kafka_event_CreateTopics_result(ev);
    const rd_kafka_topic_result_t **t =
        res != NULL ? rd_kafka_CreateTopics_result_topics(res, &cnt) : NULL;

    at->e = rd_kafka_event_error(ev);
    at->topic = a->create->topic;
    at->partition = -1;
    if (at->e != RD_KAFKA_RESP_ERR_NO_ERROR)
        return;
    if (cnt != 1) {
        at->e = RD_KAFKA_RESP_ERR__BAD_MSG;
        return;
    }
    at->e = rd_kafka_topic_result_error(t[0]);
    *a->created = at->e == RD_KAFKA_RESP_ERR_NO_ERROR;
    if (at->e == RD_KAFKA_RESP_ERR_TOPIC_ALREADY_EXISTS)
        at->e = RD_KAFKA_RESP_ERR_NO_ERROR;
}

/* ---- the table and its loop -------------------------------------------------------------- */

enum admin_kind { ADMIN_COMMITTED, ADMIN_GROUP, ADMIN_COMMIT, ADMIN_CONFIGS, ADMIN_CREATE };

static const struct admin_call ADMIN_CALLS[] = {
    [ADMIN_COMMITTED] = {RD_KAFKA_ADMIN_OP_LISTCONSUMERGROUPOFFSETS, list_send, list_read, false},
    [ADMIN_GROUP] = {RD_KAFKA_ADMIN_OP_DESCRIBECONSUMERGROUPS, describe_send, describe_read, false},
    /* Retrying a commit is safe: the same offsets are written again. */
    [ADMIN_COMMIT] = {RD_KAFKA_ADMIN_OP_ALTERCONSUMERGROUPOFFSETS, alter_send, alter_read, true},
    [ADMIN_CONFIGS] = {RD_KAFKA_ADMIN_OP_DESCRIBECONFIGS, mm2_kafka_admin_configs_send,
                       configs_read, false},
    [ADMIN_CREATE] = {RD_KAFKA_ADMIN_OP_CREATETOPICS, create_send, create_read, false},
};

static void admin_req_free(struct admin_req *r)
{
    if (r->list != NULL)
        rd_kafka_ListConsumerGroupOffsets_destroy(r->list);
    if (r->alter != NULL)
        rd_kafka_AlterConsumerGroupOffsets_destroy(r->alter);
    if (r->res != NULL)
        rd_kafka_ConfigResource_destroy_array(r->res, r->nres);
    free(r->res);
    if (r->topics != NULL)
        rd_kafka_TopicCollection_destroy(r->topics);
    if (r->newtopic != NULL)
        rd_kafka_NewTopic_destroy(r->newtopic);
}

/* What a classic group with members answers a commit from outside it. */
static bool members_refused(rd_kafka_resp_err_t e)
{
    return e == RD_KAFKA_RESP_ERR_UNKNOWN_MEMBER_ID || e == RD_KAFKA_RESP_ERR_ILLEGAL_GENERATION ||
           e == RD_KAFKA_RESP_ERR_REBALANCE_IN_PROGRESS;
}

enum mm2_status mm2_kafka_admin_run(struct mm2_kafka *k, const struct admin_call *c,
                                    const struct admin_args *a, const struct mm2_deadline *dl,
                                    const char *what, struct mm2_error *err)
{
    struct handle *h;
    enum mm2_status st = mm2_kafka_handle_get(k, false, &h, err);

    if (st == MM2_OK)
        st = mm2_kafka_handle_wait_up(k, h, dl, what, err);
    while (st == MM2_OK) {
        struct attempt at = {RD_KAFKA_RESP_ERR__TIMED_OUT, NULL, 0};
        struct admin_req r = {NULL, NULL, NULL, NULL, 0, NULL, NULL};
        rd_kafka_AdminOptions_t *o = admin_options(h, c->op, dl);
        rd_kafka_queue_t *q = rd_kafka_queue_new(h->rk);

        if (o == NULL || q == NULL || !c->send(h, a, o, q, &r)) {
            at.e = ERR_OOM;
        } else {
            rd_kafka_event_t *ev = admin_wait(h, q, dl);

            if (ev != NULL) {
                c->read(ev, a, &at);
                rd_kafka_event_destroy(ev);
            }
        }
        admin_req_free(&r);
        admin_done(q, o, r.l);
        if (at.e == ERR_OOM)
            st = mm2_kafka_handle_fail(k, err, MM2_UNEXPECTED, "%s: out of memory", what);
        else if (at.e == RD_KAFKA_RESP_ERR_NO_ERROR)
            break;
        else if (c->members_refuse && members_refused(at.e))
            st = mm2_kafka_handle_fail(
                k, err, MM2_UNEXPECTED,
                "%s: %.*s[%d]: %s (the group has active members; other partitions may "
                "have been committed)",
                what, 255, at.topic != NULL ? at.topic : "?", (int)at.partition,
                rd_kafka_err2name(at.e));
        else
            st = mm2_kafka_handle_settle(k, h, &at, dl, what, err);
    }
    return st;
}

/* Runs the group offsets call c (list or alter) over all's partitions in calls of at most
 * MM2_KAFKA_HANDLE_PARTITIONS_PER_CALL, each with its own index, all's offsets and out cut to
 * match; the caller has checked the whole list (mm2_kafka_handle_tp_index) before any call is sent.
 * librdkafka (2.8.0 as 2.0.2) matches each partition of an OffsetFetch or OffsetCommit answer to
 * the list it sent by linear search (rd_kafka_topic_partition_list_find, in
 * rd_kafka_handle_OffsetFetch and rd_kafka_handle_OffsetCommit), quadratic in the partitions of one
 * call; calls of a fixed size keep it linear. Not atomic: a call that fails leaves those before it
 * done. */
static enum mm2_status admin_batches(struct mm2_kafka *k, const struct admin_call *c,
                                     const struct admin_args *all, const struct mm2_deadline *dl,
                                     const char *what, struct mm2_error *err)
{
    const size_t per = MM2_KAFKA_HANDLE_PARTITIONS_PER_CALL;
    enum mm2_status st = MM2_OK;

    for (size_t off = 0; st == MM2_OK && off < all->n; off += per) {
        struct admin_args a = *all;
        struct tpidx *idx = NULL;

        a.tps = all->tps + off;
        a.n = all->n - off < per ? all->n - off : per;
        a.offsets = all->offsets != NULL ? all->offsets + off : NULL;
        a.out = all->out != NULL ? all->out + off : NULL;
        st = mm2_kafka_handle_tp_index(k, a.tps, a.n, &idx, err);
        a.idx = idx;
        if (st == MM2_OK)
            st = mm2_kafka_admin_run(k, c, &a, dl, what, err);
        free(idx);
    }
    return st;
}

/* ---- the calls --------------------------------------------------------------------------- */

enum mm2_status mm2_kafka_committed(struct mm2_kafka *k, const char *group,
                                    const struct mm2_tp *tps, size_t n, int64_t *out,
                                    const struct mm2_deadline *dl, struct mm2_error *err)
{
    char what[320];
    struct tpidx *idx = NULL;
    enum mm2_status st = mm2_kafka_handle_enter(k, dl, err);

    if (st != MM2_OK)
        return st;
    if (!group_valid(group) || out == NULL)
        return mm2_kafka_handle_fail(k, err, MM2_USAGE, "committed offsets: no group or no output");
    snprintf(what, sizeof(what), "committed offsets of group '%.255s'", group);
    st = mm2_kafka_handle_tp_index(k, tps, n, &idx, err);
    free(idx);
    if (st == MM2_OK) {
        struct admin_args all = {.group = group, .tps = tps, .n = n, .out = out};

        st = admin_batches(k, &ADMIN_CALLS[ADMIN_COMMITTED], &all, dl, what, err);
    }
    return st;
}

enum mm2_status mm2_kafka_group(struct mm2_kafka *k, const char *group,
                                const struct mm2_deadline *dl, struct mm2_group_info *out,
                                struct mm2_error *err)
{
    char what[320];
    struct admin_args a = {.group = group, .info = out};
    enum mm2_status st = mm2_kafka_handle_enter(k, dl, err);

    if (st != MM2_OK)
        return st;
    if (!group_valid(group) || out == NULL)
        return mm2_kafka_handle_fail(k, err, MM2_USAGE, "group state: no group or no output");
    *out = (struct mm2_group_info){{0}, 0, {0}};
    snprintf(what, sizeof(what), "state of group '%.255s'", group);
    return mm2_kafka_admin_run(k, &ADMIN_CALLS[ADMIN_GROUP], &a, dl, what, err);
}

enum mm2_status mm2_kafka_commit(struct mm2_kafka *k, const char *group, const struct mm2_tp *tps,
                                 const int64_t *offsets, size_t n, const struct mm2_deadline *dl,
                                 struct mm2_error *err)
{
    char what[320];
    struct tpidx *idx = NULL;
    enum mm2_status st = mm2_kafka_handle_enter(k, dl, err);

    if (st != MM2_OK)
        return st;
    if (!group_valid(group) || offsets == NULL)
        return mm2_kafka_handle_fail(k, err, MM2_USAGE, "commit: no group or no offsets");
    snprintf(what, sizeof(what), "commit to group '%.255s'", group);
    /* Every partition checked before any is committed. */
    st = mm2_kafka_handle_tp_index(k, tps, n, &idx, err);
    free(idx);
    for (size_t i = 0; st == MM2_OK && i < n; i++)
        if (offsets[i] < 0)
            st = mm2_kafka_handle_fail(k, err, MM2_USAGE, "%s: %.*s[%d]: negative offset %" PRId64,
                                       what, 255, tps[i].topic, (int)tps[i].partition, offsets[i]);
    if (st == MM2_OK) {
        struct admin_args all = {.group = group, .tps = tps, .n = n, .offsets = offsets};

        st = admin_batches(k, &ADMIN_CALLS[ADMIN_COMMIT], &all, dl, what, err);
    }
    return st;
}

enum mm2_status mm2_kafka_compacted(struct mm2_kafka *k, const char *const *topics, size_t n,
                                    bool *compacted, const struct mm2_deadline *dl,
                                    struct mm2_error *err)
{
    struct mm2_tp *tps;
    struct tpidx *idx = NULL;
    enum mm2_status st = mm2_kafka_handle_enter(k, dl, err);

    if (st != MM2_OK)
        return st;
    if (topics == NULL || compacted == NULL)
        return mm2_kafka_handle_fail(k, err, MM2_USAGE, "cleanup.policy: no topics or no output");
    tps = calloc(n + 1, sizeof(*tps));
    if (tps == NULL)
        return mm2_kafka_handle_fail(k, err, MM2_UNEXPECTED, "cleanup.policy: out of memory");
    for (size_t i = 0; i < n; i++)
        tps[i] = (struct mm2_tp){topics[i], 0}; /* partition 0: the index keys topics alone */
    st = mm2_kafka_handle_tp_index(k, tps, n, &idx, err);
    if (st == MM2_OK) {
        struct admin_args a = {.tps = tps, .idx = idx, .n = n, .compacted = compacted};

        st = mm2_kafka_admin_run(k, &ADMIN_CALLS[ADMIN_CONFIGS], &a, dl,
                                 "cleanup.policy of the topics", err);
    }
    free(idx);
    free(tps);
    return st;
}

enum mm2_status mm2_kafka_create_topic(struct mm2_kafka *k, const struct mm2_kafka_new_topic *t,
                                       bool *created, const struct mm2_deadline *dl,
                                       struct mm2_error *err)
{
    char what[320];
    struct admin_args a = {.create = t, .created = created};
    enum mm2_status st = mm2_kafka_handle_enter(k, dl, err);

    if (st != MM2_OK)
        return st;
    if (t == NULL || t->topic == NULL || t->topic[0] == '\0' || created == NULL)
        return mm2_kafka_handle_fail(k, err, MM2_USAGE, "create topic: no topic or no output");
    *created = false;
    snprintf(what, sizeof(what), "create topic '%.255s'", t->topic);
    return mm2_kafka_admin_run(k, &ADMIN_CALLS[ADMIN_CREATE], &a, dl, what, err);
}
