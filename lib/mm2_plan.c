/* mm2_plan: the plan artifact's model and the rules that refuse a plan (see mm2_plan.h). */
#include "mm2_plan.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mm2_artifact.h"
#include "mm2_cfgview.h"
#include "mm2_json.h"
#include "mm2_parse.h"
#include "mm2_bnd_json.h"
#include "mm2_pj.h"

/* ---- --accept-loss ---------------------------------------------------------------------- */

int mm2_plan_tpref_parse(char *s, struct mm2_tpref *out, char *why, size_t whylen)
{
    char *colon = strrchr(s, ':');
    long p;
    char w[160];

    if (colon == NULL) {
        mm2_whyf(why, whylen, "\"%.100s\" is not TOPIC:PARTITION", s);
        return -1;
    }
    *colon = '\0';
    if (!mm2_parse_topic_valid(s, w, sizeof(w))) {
        mm2_whyf(why, whylen, "\"%.100s\" is not a topic name: %s", s, w);
        *colon = ':';
        return -1;
    }
    if (mm2_parse_long(colon + 1, 0, INT32_MAX - 1, &p) != 0) {
        mm2_whyf(why, whylen, "\"%.40s\" is not a partition number", colon + 1);
        *colon = ':';
        return -1;
    }
    out->topic = s;
    out->partition = (int32_t)p;
    return 0;
}

/* ---- the plan model ------------------------------------------------------------------------ */

void mm2_plan_free(struct mm2_plan *p)
{
    if (p == NULL)
        return;
    for (size_t i = 0; i < p->ntopics; i++) {
        free(p->topics[i].name);
        free(p->topics[i].target);
        free(p->topics[i].flink_target);
        cJSON_Delete(p->topics[i].target_configs);
    }
    for (size_t i = 0; i < p->n; i++) {
        free(p->entries[i].topic);
        free(p->entries[i].target_topic);
    }
    free(p->topics);
    free(p->entries);
    cJSON_Delete(p->config_view);
    memset(p, 0, sizeof(*p));
}

static const char *action_name(enum mm2_action a)
{
    switch (a) {
    case MM2_ACT_OFFSET:
        return "offset";
    case MM2_ACT_RESET:
        return "reset";
    case MM2_ACT_LOSS:
        return "accept-loss";
    }
    return "?";
}

enum mm2_status mm2_plan_to_json(const struct mm2_plan *p, cJSON **out, struct mm2_error *err)
{
    struct mm2_pj b = {.root = cJSON_CreateObject()};
    cJSON *o, *arr;
    int64_t offsets = 0, resets = 0, losses = 0, lost = 0, duplicates = 0, gaps = 0;

    *out = NULL;
    mm2_pj_str(&b, b.root, "kind", MM2_KIND_PLAN);
    mm2_pj_str(&b, b.root, "tool", "mm2-offsets " MM2KIT_VERSION);
    mm2_pj_str(&b, b.root, "created", p->created);
    mm2_pj_str(&b, b.root, "export_digest", p->export_digest);
    mm2_pj_str(&b, b.root, "source_cluster_id", p->source_cluster);
    mm2_pj_str(&b, b.root, "target_cluster_id", p->target_cluster);
    o = mm2_pj_obj(&b, b.root, "connect");
    mm2_pj_str(&b, o, "version", p->connect_version);
    o = mm2_pj_obj(&b, b.root, "connector");
    mm2_pj_str(&b, o, "name", p->connector);
    mm2_pj_str(&b, o, "source_alias", p->alias);
    mm2_pj_str(&b, o, "config_digest", p->config_digest);
    mm2_pj_copy(&b, o, "config", p->config_view);
    o = mm2_pj_obj(&b, b.root, "flink");
    mm2_pj_str(&b, o, "group_id", p->group);
    arr = mm2_pj_arr(&b, b.root, "topics");
    for (size_t i = 0; i < p->ntopics && arr != NULL; i++) {
        const struct mm2_xtopic *t = &p->topics[i];
        cJSON *e = mm2_pj_item(&b, arr);
        if (e == NULL)
            break;
        mm2_pj_str(&b, e, "name", t->name);
        mm2_pj_int(&b, e, "partitions", t->partitions);
        mm2_pj_str(&b, e, "target", t->target);
        mm2_pj_int(&b, e, "target_partitions", t->target_partitions);
        mm2_pj_str(&b, e, "flink_target", t->flink_target);
        mm2_pj_copy(&b, e, "target_configs", t->target_configs);
    }
    arr = mm2_pj_arr(&b, b.root, "partitions");
    for (size_t i = 0; i < p->n && arr != NULL; i++) {
        const struct mm2_pentry *e = &p->entries[i];
        cJSON *j = mm2_pj_item(&b, arr);
        if (j == NULL)
            break;
        mm2_pj_str(&b, j, "topic", e->topic);
        mm2_pj_int(&b, j, "partition", e->partition);
        mm2_pj_int(&b, j, "c", e->c);
        mm2_pj_int_or_null(&b, j, "m", e->m, e->action != MM2_ACT_OFFSET);
        mm2_pj_str(&b, j, "action", action_name(e->action));
        mm2_pj_int(&b, j, "log_start", e->log_start);
        mm2_pj_int(&b, j, "log_end", e->log_end);
        mm2_pj_int(&b, j, "lost", e->lost);
        mm2_pj_str(&b, j, "target_topic", e->target_topic);
        mm2_pj_int(&b, j, "target_start", e->target_start);
        mm2_bnd_json_entry_to(&b, j, e);
        duplicates += e->duplicates;
        gaps += e->gap;
        offsets += e->action == MM2_ACT_OFFSET;
        resets += e->action == MM2_ACT_RESET;
        losses += e->action == MM2_ACT_LOSS;
        lost += e->lost;
    }
    o = mm2_pj_obj(&b, b.root, "summary");
    mm2_pj_int(&b, o, "partitions", (int64_t)p->n);
    mm2_pj_int(&b, o, "offsets", offsets);
    mm2_pj_int(&b, o, "resets", resets);
    mm2_pj_int(&b, o, "accepted_losses", losses);
    mm2_pj_int(&b, o, "records_lost", lost);
    mm2_pj_int(&b, o, "boundary_duplicates", duplicates);
    mm2_pj_int(&b, o, "gap_records", gaps);
    if (b.oom || b.root == NULL) {
        cJSON_Delete(b.root);
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory, or an offset above 2^53");
    }
    *out = b.root;
    return MM2_OK;
}

static enum mm2_status read_plan_topics(const cJSON *arr, struct mm2_plan *p, struct mm2_error *err)
{
    const cJSON *e;
    size_t n = (size_t)cJSON_GetArraySize(arr), i = 0;

    p->topics = n > 0 ? calloc(n, sizeof(*p->topics)) : NULL;
    if (n > 0 && p->topics == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    cJSON_ArrayForEach(e, arr)
    {
        struct mm2_xtopic *t = &p->topics[i];
        char where[48];
        int64_t v, tv;
        (void)snprintf(where, sizeof(where), "topics[%zu]", i);
        p->ntopics = ++i;
        t->replicated = true;
        if (mm2_pj_get_topic(e, "name", where, &t->name, err) != MM2_OK ||
            mm2_pj_get_int(e, "partitions", where, 1, INT32_MAX, &v, err) != MM2_OK ||
            mm2_pj_get_topic(e, "target", where, &t->target, err) != MM2_OK ||
            mm2_pj_get_int(e, "target_partitions", where, 1, INT32_MAX, &tv, err) != MM2_OK ||
            mm2_pj_get_topic(e, "flink_target", where, &t->flink_target, err) != MM2_OK ||
            mm2_pj_get_view(e, "target_configs", where, &t->target_configs, err) != MM2_OK)
            return err->code;
        t->partitions = (int32_t)v;
        t->target_partitions = (int32_t)tv;
        if (i > 1 && strcmp(p->topics[i - 2].name, t->name) >= 0)
            return mm2_error_set(err, MM2_CONFIG, "%s.name is out of order or repeated", where);
    }
    return MM2_OK;
}

static enum mm2_status read_entry(const cJSON *e, const char *where, struct mm2_pentry *x,
                                  struct mm2_error *err)
{
    char action[16];
    int64_t v;

    if (mm2_pj_get_topic(e, "topic", where, &x->topic, err) != MM2_OK ||
        mm2_pj_get_int(e, "partition", where, 0, INT32_MAX - 1, &v, err) != MM2_OK)
        return MM2_CONFIG;
    x->partition = (int32_t)v;
    if (mm2_pj_get_int(e, "c", where, 0, MM2_JSON_INT_MAX, &x->c, err) != MM2_OK ||
        mm2_pj_get_int_or_null(e, "m", where, 0, MM2_JSON_INT_MAX, -1, &x->m, err) != MM2_OK ||
        mm2_pj_get_buf(e, "action", where, action, sizeof(action), err) != MM2_OK ||
        mm2_pj_get_int(e, "log_start", where, 0, MM2_JSON_INT_MAX, &x->log_start, err) != MM2_OK ||
        mm2_pj_get_int(e, "log_end", where, 0, MM2_JSON_INT_MAX, &x->log_end, err) != MM2_OK ||
        mm2_pj_get_int(e, "lost", where, 0, MM2_JSON_INT_MAX, &x->lost, err) != MM2_OK ||
        mm2_pj_get_topic(e, "target_topic", where, &x->target_topic, err) != MM2_OK ||
        mm2_pj_get_int(e, "target_start", where, 0, MM2_JSON_INT_MAX, &x->target_start, err) !=
            MM2_OK)
        return MM2_CONFIG;
    /* The entry must be what the rules would have written for its numbers. */
    if (strcmp(action, "offset") == 0) {
        x->action = MM2_ACT_OFFSET;
        if (x->c < 1 || x->m != x->c - 1 || x->c < x->log_start || x->c > x->log_end ||
            x->lost != 0)
            return mm2_error_set(err, MM2_CONFIG,
                                 "%s: an \"offset\" entry needs m = c - 1 with log_start <= c <= "
                                 "log_end and lost 0",
                                 where);
    } else if (strcmp(action, "reset") == 0) {
        x->action = MM2_ACT_RESET;
        if (x->c != 0 || x->m != -1 || x->log_start != 0 || x->lost != 0)
            return mm2_error_set(err, MM2_CONFIG,
                                 "%s: a \"reset\" entry needs c = 0 = log_start, m null, lost 0",
                                 where);
    } else if (strcmp(action, "accept-loss") == 0) {
        x->action = MM2_ACT_LOSS;
        if (x->m != -1 || x->c >= x->log_start || x->lost != x->log_start - x->c)
            return mm2_error_set(err, MM2_CONFIG,
                                 "%s: an \"accept-loss\" entry needs c < log_start, m null and "
                                 "lost = log_start - c",
                                 where);
    } else {
        return mm2_error_set(err, MM2_CONFIG,
                             "%s.action must be offset, reset or accept-loss, got \"%s\"", where,
                             action);
    }
    return mm2_bnd_json_entry_from(e, where, x, err);
}

enum mm2_status mm2_plan_from_json(const cJSON *root, struct mm2_plan *p, struct mm2_error *err)
{
    const cJSON *o, *arr, *e;
    size_t n, i = 0, want = 0;

    memset(p, 0, sizeof(*p));
    if (mm2_pj_get_buf(root, "created", "plan", p->created, sizeof(p->created), err) != MM2_OK ||
        mm2_pj_get_digest(root, "export_digest", "plan", p->export_digest, err) != MM2_OK ||
        mm2_pj_get_buf(root, "source_cluster_id", "plan", p->source_cluster,
                       sizeof(p->source_cluster), err) != MM2_OK ||
        mm2_pj_get_buf(root, "target_cluster_id", "plan", p->target_cluster,
                       sizeof(p->target_cluster), err) != MM2_OK)
        return MM2_CONFIG;
    o = mm2_json_get(root, "connect", MM2_JSON_OBJECT, "plan", err);
    if (o == NULL || mm2_pj_get_buf(o, "version", "plan.connect", p->connect_version,
                                    sizeof(p->connect_version), err) != MM2_OK)
        return mm2_pj_config(err);
    o = mm2_json_get(root, "connector", MM2_JSON_OBJECT, "plan", err);
    if (o == NULL ||
        mm2_pj_get_buf(o, "name", "plan.connector", p->connector, sizeof(p->connector), err) !=
            MM2_OK ||
        mm2_pj_get_buf(o, "source_alias", "plan.connector", p->alias, sizeof(p->alias), err) !=
            MM2_OK ||
        mm2_pj_get_digest(o, "config_digest", "plan.connector", p->config_digest, err) != MM2_OK ||
        mm2_pj_get_view(o, "config", "plan.connector", &p->config_view, err) != MM2_OK)
        return mm2_pj_config(err);
    o = mm2_json_get(root, "flink", MM2_JSON_OBJECT, "plan", err);
    if (o == NULL ||
        mm2_pj_get_buf(o, "group_id", "plan.flink", p->group, sizeof(p->group), err) != MM2_OK)
        return mm2_pj_config(err);
    arr = mm2_json_get(root, "topics", MM2_JSON_ARRAY, "plan", err);
    if (arr == NULL || read_plan_topics(arr, p, err) != MM2_OK)
        return mm2_pj_config(err);
    arr = mm2_json_get(root, "partitions", MM2_JSON_ARRAY, "plan", err);
    if (arr == NULL)
        return mm2_pj_config(err);
    n = (size_t)cJSON_GetArraySize(arr);
    p->entries = n > 0 ? calloc(n, sizeof(*p->entries)) : NULL;
    if (n > 0 && p->entries == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    cJSON_ArrayForEach(e, arr)
    {
        struct mm2_pentry *x = &p->entries[i];
        const struct mm2_xtopic *t;
        char where[48];
        (void)snprintf(where, sizeof(where), "partitions[%zu]", i);
        p->n = ++i;
        if (read_entry(e, where, x, err) != MM2_OK)
            return mm2_pj_config(err);
        t = mm2_export_topic(p->topics, p->ntopics, x->topic);
        if (t == NULL || x->partition >= t->partitions || strcmp(t->target, x->target_topic) != 0)
            return mm2_error_set(err, MM2_CONFIG,
                                 "%s: %.100s-%d is not a partition of the plan's topics", where,
                                 x->topic, (int)x->partition);
        if (i > 1) {
            const struct mm2_pentry *q = &p->entries[i - 2];
            int c = strcmp(q->topic, x->topic);
            if (c > 0 || (c == 0 && q->partition >= x->partition))
                return mm2_error_set(err, MM2_CONFIG, "%s is out of order or repeated", where);
        }
    }
    for (size_t t = 0; t < p->ntopics; t++)
        want += (size_t)p->topics[t].partitions;
    if (want != p->n)
        return mm2_error_set(err, MM2_CONFIG, "plan lists %zu partitions but its topics have %zu",
                             p->n, want);
    o = cJSON_GetObjectItemCaseSensitive(root, "digest");
    if (cJSON_IsString(o) && mm2_digest_valid(o->valuestring))
        memcpy(p->digest, o->valuestring, MM2_DIGEST_TEXT_LEN + 1);
    return MM2_OK;
}

static int cmp_entry_key(const void *key, const void *elem)
{
    const struct mm2_pentry *k = key, *e = elem;
    int c = strcmp(k->topic, e->topic);

    return c != 0 ? c : (k->partition > e->partition) - (k->partition < e->partition);
}

const struct mm2_pentry *mm2_plan_find(const struct mm2_plan *p, const char *topic,
                                       int32_t partition)
{
    struct mm2_pentry key = {.topic = (char *)(uintptr_t)topic, .partition = partition};

    return p->n == 0 ? NULL : bsearch(&key, p->entries, p->n, sizeof(key), cmp_entry_key);
}

char *mm2_plan_patch_body(const struct mm2_plan *p)
{
    struct mm2_pj b = {.root = cJSON_CreateObject()};
    cJSON *arr = mm2_pj_arr(&b, b.root, "offsets");
    char *text;

    for (size_t i = 0; i < p->n && arr != NULL && !b.oom; i++) {
        const struct mm2_pentry *e = &p->entries[i];
        cJSON *j = cJSON_CreateObject(), *part;
        if (j == NULL || !cJSON_AddItemToArray(arr, j)) {
            cJSON_Delete(j);
            b.oom = true;
            break;
        }
        /* MirrorUtils.wrapPartition: cluster = source.cluster.alias, topic, partition. */
        part = mm2_pj_obj(&b, j, "partition");
        mm2_pj_str(&b, part, "cluster", p->alias);
        mm2_pj_str(&b, part, "topic", e->topic);
        mm2_pj_int(&b, part, "partition", e->partition);
        if (e->action == MM2_ACT_OFFSET) {
            cJSON *off = mm2_pj_obj(&b, j, "offset");
            mm2_pj_int(&b, off, "offset", e->m);
        } else {
            /* null clears the partition: the task then starts at auto.offset.reset=earliest. */
            if (!cJSON_AddNullToObject(j, "offset"))
                b.oom = true;
        }
    }
    text = b.oom ? NULL : mm2_json_print(b.root, false);
    cJSON_Delete(b.root);
    return text;
}

/* ---- the plan rules ------------------------------------------------------------------------ */

static bool accepted(const struct mm2_plan_input *in, const char *topic, int32_t partition,
                     bool *used)
{
    bool found = false;

    for (size_t i = 0; i < in->naccept; i++) {
        if (in->accept_loss[i].partition == partition &&
            strcmp(in->accept_loss[i].topic, topic) == 0) {
            used[i] = true; /* every copy: the same partition given twice is not an error */
            found = true;
        }
    }
    return found;
}

static void global_rules(const struct mm2_plan_input *in, struct mm2_refusals *r)
{
    const struct mm2_export *ex = in->ex;
    const struct mm2_connector *c = in->connector;

    if (strcmp(ex->connector, c->name) != 0 || strcmp(ex->config_digest, c->digest) != 0) {
        if (strcmp(ex->alias, c->alias) != 0)
            mm2_refuse(r,
                       "the connector's source.cluster.alias is \"%.100s\" now but was \"%.100s\" "
                       "at export; every offset's \"cluster\" key must equal it (Connect does not "
                       "check, and MM2 ignores offsets under another alias): export again "
                       "[rule alias]",
                       c->alias, ex->alias);
        else if (strcmp(ex->connector, c->name) != 0)
            mm2_refuse(r,
                       "the connector JSON names connector \"%.100s\" now, \"%.100s\" at export; "
                       "export again with the JSON you will apply [rule connector-config]",
                       c->name, ex->connector);
        else {
            char how[320];
            mm2_cfgview_explain(ex->config_view, ex->config_digest, "the export", c->view,
                                c->digest, "the JSON now", how, sizeof(how));
            mm2_refuse(r,
                       "the connector JSON changed since the export (%s); export again with the "
                       "JSON you will apply [rule connector-config]",
                       how);
        }
    }
    if (strcmp(ex->connect_cluster, ex->target_cluster) != 0)
        mm2_refuse(r,
                   "Connect's workers store their offsets in Kafka cluster %.64s, but the "
                   "[target] cluster is %.64s; point [connect] url or [target] at the same "
                   "cluster [rule wrong-target]",
                   ex->connect_cluster, ex->target_cluster);
    if (strcmp(ex->flink_method, "flink-rest") == 0) {
        if (strcmp(ex->flink_job_state, "FINISHED") != 0 &&
            strcmp(ex->flink_job_state, "CANCELED") != 0)
            mm2_refuse(r,
                       "the Flink job was %.32s at export, not FINISHED or CANCELED; stop it "
                       "with a savepoint, disable its restarts, then export again "
                       "[rule flink-running]",
                       ex->flink_job_state);
    } else if (ex->checkpoint_interval_ms <= 0 ||
               ex->stable_wait_ms <= ex->checkpoint_interval_ms) {
        mm2_refuse(r,
                   "the two reads were %ld ms apart, not more than one Flink checkpoint interval "
                   "(%ld ms): that does not prove Flink stopped committing; export with a longer "
                   "--stable-wait or give [flink] rest.url and job.id [rule flink-unproven]",
                   ex->stable_wait_ms, ex->checkpoint_interval_ms);
    }
    if (ex->group_members > 0)
        mm2_refuse(r,
                   "group %.100s has %d active members (state %.32s); Flink's source uses "
                   "assign() and has none: something else is consuming with this group; stop it "
                   "[rule group-active]",
                   ex->group, ex->group_members, ex->group_state);
}

/* Per topic: the filter and mapping still agree with the export, the target topic exists with
 * as many partitions, and MM2 writes to the topic Flink wrote to. */
static void topic_rules(const struct mm2_plan_input *in, struct mm2_refusals *r)
{
    const struct mm2_export *ex = in->ex;

    if (!mm2_mirror_enabled(in->mirror))
        mm2_refuse(r,
                   "connector %s: \"enabled\" is \"false\", so MirrorSourceConnector creates no "
                   "task and copies nothing; remove it [rule connector-config]",
                   in->connector->name);

    for (size_t i = 0; i < ex->ntopics; i++) {
        const struct mm2_xtopic *t = &ex->topics[i];
        char target[256];
        bool rep = mm2_mirror_replicates(in->mirror, t->name);
        const char *flink = mm2_config_flink_target(in->cfg, t->name);
        if (rep != t->replicated) {
            mm2_refuse(r,
                       "topic %.200s: the connector JSON %s it now but %s at export; export "
                       "again [rule topics-changed]",
                       t->name, rep ? "replicates" : "does not replicate",
                       t->replicated ? "did" : "did not");
            continue;
        }
        if (!rep)
            continue;
        if (mm2_mirror_target_topic(in->mirror, t->name, target, sizeof(target)) != 0 ||
            strcmp(target, t->target) != 0) {
            mm2_refuse(r,
                       "topic %.200s: the replication policy maps it to \"%.200s\" now but to "
                       "\"%.200s\" at export; export again [rule topics-changed]",
                       t->name, target, t->target);
            continue;
        }
        if (strcmp(t->flink_target, flink) != 0) {
            mm2_refuse(r,
                       "topic %.200s: [flink] topic.mapping says Flink wrote it to \"%.200s\" now "
                       "but \"%.200s\" at export; export again [rule topics-changed]",
                       t->name, flink, t->flink_target);
            continue;
        }
        if (strcmp(t->target, flink) != 0)
            mm2_refuse(r,
                       "topic %.200s: MM2's replication policy writes it to \"%.200s\" but Flink "
                       "wrote it to \"%.200s\"; use a replication.policy.class that maps it to "
                       "the topic Flink wrote (IdentityReplicationPolicy for the same name) or "
                       "fix [flink] topic.mapping [rule topic-mapping]",
                       t->name, t->target, flink);
        if (t->target_partitions < 0)
            mm2_refuse(r,
                       "topic %.200s: target topic \"%.200s\" does not exist; create it with %d "
                       "partitions before the cutover [rule target-missing]",
                       t->name, t->target, (int)t->partitions);
        else if (t->target_partitions != t->partitions)
            mm2_refuse(r,
                       "topic %.200s: the source has %d partitions but target topic \"%.200s\" "
                       "has %d; MM2 keeps partition numbers, so they must match "
                       "[rule partition-count]",
                       t->name, (int)t->partitions, t->target, (int)t->target_partitions);
    }
}

/* An offset, or "none" for MM2_OFFSET_NONE. */
static void offset_text(int64_t v, char *buf, size_t len)
{
    if (v == MM2_OFFSET_NONE)
        (void)snprintf(buf, len, "none");
    else
        (void)snprintf(buf, len, "%lld", (long long)v);
}

static int64_t max64(int64_t a, int64_t b)
{
    return a > b ? a : b;
}

/* The target side of a partition: no open transaction, no other writer. */
static void target_rules(const struct mm2_export *ex, const struct mm2_xpart *p,
                         struct mm2_refusals *r)
{
    const char *t = p->topic;
    int n = (int)p->partition;

    if (p->target_hw[0] >= 0 &&
        (p->target_lso[0] < p->target_hw[0] || p->target_lso[1] < p->target_hw[1]))
        mm2_refuse(
            r,
            "%s-%d: on the target, the last stable offset %lld is below the high "
            "watermark %lld: a transaction is open (a Flink EXACTLY_ONCE sink?); wait for "
            "it to commit or abort (transaction.timeout.ms), then export again "
            "[rule open-transaction]",
            t, n,
            (long long)(p->target_lso[0] < p->target_hw[0] ? p->target_lso[0] : p->target_lso[1]),
            (long long)(p->target_lso[0] < p->target_hw[0] ? p->target_hw[0] : p->target_hw[1]));
    if (p->target_hw[0] >= 0 && p->target_hw[0] != p->target_hw[1])
        mm2_refuse(r,
                   "%s-%d: the target's high watermark moved from %lld to %lld between the two "
                   "reads %ld ms apart: another writer is active; only one replicating writer may "
                   "exist, stop it [rule target-moving]",
                   t, n, (long long)p->target_hw[0], (long long)p->target_hw[1],
                   ex->stable_wait_ms);
}

/* The entry for a partition that passed every rule: C, the log, and what is written. */
static void fill_entry(struct mm2_pentry *e, int64_t c, int64_t start, int64_t end,
                       int64_t target_hw)
{
    e->c = c;
    e->log_start = start;
    e->log_end = end;
    e->target_start = target_hw >= 0 ? target_hw : 0;
    if (c < start) {
        e->action = MM2_ACT_LOSS;
        e->m = -1;
        e->lost = start - c;
    } else if (c == 0) {
        e->action = MM2_ACT_RESET;
        e->m = -1;
    } else {
        e->action = MM2_ACT_OFFSET;
        e->m = c - 1;
    }
}

/* Per partition; fills e when nothing is refused for it. Returns false when refused. */
static bool partition_rules(const struct mm2_plan_input *in, const struct mm2_xpart *p, bool *used,
                            struct mm2_pentry *e, struct mm2_refusals *r)
{
    const struct mm2_export *ex = in->ex;
    const char *t = p->topic;
    int n = (int)p->partition;
    size_t before = r->n;
    int64_t c = p->committed[0];
    int64_t start = max64(p->log_start[0], p->log_start[1]);
    int64_t end = p->log_end[1];

    target_rules(ex, p, r);
    if (p->committed[0] != p->committed[1]) {
        char a[24], b[24];
        offset_text(p->committed[0], a, sizeof(a));
        offset_text(p->committed[1], b, sizeof(b));
        mm2_refuse(r,
                   "%s-%d: the committed offset of group %.100s moved from %s to %s between "
                   "the two reads %ld ms apart: Flink (or another client of the group) is still "
                   "committing; stop it, then export again [rule offset-moved]",
                   t, n, ex->group, a, b, ex->stable_wait_ms);
        return false;
    }
    if (p->log_end[1] < p->log_end[0] || p->log_start[1] < p->log_start[0]) {
        mm2_refuse(r,
                   "%s-%d: the source log went backwards between the two reads (start %lld -> "
                   "%lld, end %lld -> %lld): was the topic recreated? [rule log-moved]",
                   t, n, (long long)p->log_start[0], (long long)p->log_start[1],
                   (long long)p->log_end[0], (long long)p->log_end[1]);
        return false;
    }
    if (c == MM2_OFFSET_NONE) {
        mm2_refuse(r,
                   "%s-%d: group %.100s has no committed offset; MM2 would start at "
                   "auto.offset.reset and copy the whole partition again (or skip it with "
                   "latest): find where Flink stopped [rule no-offset]",
                   t, n, ex->group);
        return false;
    }
    if (c > end) {
        mm2_refuse(r,
                   "%s-%d: committed offset C=%lld is beyond the log end %lld: not a position "
                   "in this partition (topic recreated? wrong cluster?); check the group and "
                   "cluster [rule beyond-end]",
                   t, n, (long long)c, (long long)end);
        return false;
    }
    if (c < start && !accepted(in, t, p->partition, used)) {
        mm2_refuse(r,
                   "%s-%d: committed offset C=%lld is below the log start %lld: %lld records "
                   "expired before MM2 could copy them; restore them from elsewhere, or record "
                   "the loss with --accept-loss %s:%d [rule expired]",
                   t, n, (long long)c, (long long)start, (long long)(start - c), t, n);
        return false;
    }
    if (r->n > before)
        return false;
    fill_entry(e, c, start, end, p->target_hw[0]);
    return true;
}

/* Every partition of every replicated topic has an export entry: a missing one would get no
 * plan entry, and MM2 would copy it from the earliest offset. */
static void unplanned_rule(const struct mm2_export *ex, struct mm2_refusals *r)
{
    for (size_t i = 0; i < ex->ntopics; i++) {
        const struct mm2_xtopic *t = &ex->topics[i];
        int32_t seen = 0;
        if (!t->replicated)
            continue;
        for (size_t k = 0; k < ex->nparts; k++)
            seen += strcmp(ex->parts[k].topic, t->name) == 0;
        if (seen != t->partitions)
            mm2_refuse(r,
                       "topic %.200s: %d partitions are replicated but the export read %d; MM2 "
                       "would copy the others from the earliest offset: export again "
                       "[rule unplanned]",
                       t->name, (int)t->partitions, (int)seen);
    }
}

static enum mm2_status copy_topics(const struct mm2_export *ex, struct mm2_plan *out,
                                   struct mm2_error *err)
{
    size_t n = 0;

    for (size_t i = 0; i < ex->ntopics; i++)
        n += ex->topics[i].replicated;
    out->topics = n > 0 ? calloc(n, sizeof(*out->topics)) : NULL;
    if (n > 0 && out->topics == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    for (size_t i = 0; i < ex->ntopics; i++) {
        const struct mm2_xtopic *t = &ex->topics[i];
        struct mm2_xtopic *d;
        if (!t->replicated)
            continue;
        d = &out->topics[out->ntopics++];
        d->name = strdup(t->name);
        d->target = strdup(t->target);
        d->flink_target = strdup(t->flink_target);
        d->partitions = t->partitions;
        d->target_partitions = t->target_partitions;
        d->replicated = true;
        d->target_configs =
            t->target_configs != NULL ? cJSON_Duplicate(t->target_configs, true) : NULL;
        if (d->name == NULL || d->target == NULL || d->flink_target == NULL ||
            (t->target_configs != NULL && d->target_configs == NULL))
            return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    }
    return MM2_OK;
}

/* The operator's options, one flag per option given: whether a partition used it. */
struct used {
    bool *loss, *gap, *unplaced;
};

static void used_free(struct used *u)
{
    free(u->loss);
    free(u->gap);
    free(u->unplaced);
}

/* An entry per partition that passes every partition rule (the others' refusals go to r). */
static enum mm2_status plan_entries(const struct mm2_plan_input *in, struct mm2_plan *out,
                                    struct used *u, bool *needs_earliest, struct mm2_refusals *r,
                                    struct mm2_error *err)
{
    const struct mm2_export *ex = in->ex;

    for (size_t i = 0; i < ex->nparts; i++) {
        const struct mm2_xpart *p = &ex->parts[i];
        struct mm2_pentry *e = &out->entries[out->n];
        const struct mm2_xtopic *t = mm2_export_topic(ex->topics, ex->ntopics, p->topic);
        memset(e, 0, sizeof(*e));
        if (!partition_rules(in, p, u->loss, e, r) ||
            !mm2_plan_bnd_rules(in, p, u->gap, u->unplaced, e, r))
            continue;
        e->topic = strdup(p->topic);
        e->target_topic = strdup(t != NULL && t->target != NULL ? t->target : p->topic);
        e->partition = p->partition;
        out->n++;
        if (e->topic == NULL || e->target_topic == NULL)
            return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
        *needs_earliest |= e->action != MM2_ACT_OFFSET;
    }
    return MM2_OK;
}

static void accept_loss_unused(const struct mm2_plan_input *in, const bool *used,
                               struct mm2_refusals *r)
{
    for (size_t i = 0; i < in->naccept; i++)
        if (!used[i])
            mm2_refuse(r,
                       "--accept-loss %s:%d: that partition's committed offset is not below its "
                       "log start (or it is not replicated); --accept-loss is only for expired "
                       "data [rule accept-loss]",
                       in->accept_loss[i].topic, (int)in->accept_loss[i].partition);
}

enum mm2_status mm2_plan_build(const struct mm2_plan_input *in, struct mm2_plan *out,
                               struct mm2_refusals *r, struct mm2_error *err)
{
    const struct mm2_export *ex = in->ex;
    struct used u = {calloc(in->naccept + 1, sizeof(bool)), calloc(in->ngap + 1, sizeof(bool)),
                     calloc(in->nunplaced + 1, sizeof(bool))};
    bool needs_earliest = false;
    enum mm2_status st;

    memset(out, 0, sizeof(*out));
    if (u.loss == NULL || u.gap == NULL || u.unplaced == NULL) {
        used_free(&u);
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    }
    global_rules(in, r);
    topic_rules(in, r);
    out->entries = ex->nparts > 0 ? calloc(ex->nparts, sizeof(*out->entries)) : NULL;
    st = ex->nparts > 0 && out->entries == NULL
             ? mm2_error_set(err, MM2_UNEXPECTED, "out of memory")
             : plan_entries(in, out, &u, &needs_earliest, r, err);
    if (st != MM2_OK) {
        used_free(&u);
        mm2_plan_free(out);
        return st;
    }
    unplanned_rule(ex, r);
    accept_loss_unused(in, u.loss, r);
    mm2_plan_bnd_unused(in, u.gap, u.unplaced, r);
    used_free(&u);
    mm2_connector_rules(in->connector, needs_earliest, r);
    if (r->oom) {
        mm2_plan_free(out);
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory while checking the rules");
    }
    if (r->n > 0) {
        mm2_plan_free(out);
        return MM2_CHECK_FAILED;
    }
    st = copy_topics(ex, out, err);
    if (st != MM2_OK) {
        mm2_plan_free(out);
        return st;
    }
    memcpy(out->created, ex->created, sizeof(out->created));
    memcpy(out->export_digest, ex->digest, sizeof(out->export_digest));
    memcpy(out->source_cluster, ex->source_cluster, sizeof(out->source_cluster));
    memcpy(out->target_cluster, ex->target_cluster, sizeof(out->target_cluster));
    memcpy(out->connect_version, ex->connect_version, sizeof(out->connect_version));
    memcpy(out->connector, in->connector->name, sizeof(out->connector));
    memcpy(out->alias, in->connector->alias, sizeof(out->alias));
    memcpy(out->config_digest, in->connector->digest, sizeof(out->config_digest));
    memcpy(out->group, ex->group, sizeof(out->group));
    if (in->connector->view != NULL) {
        out->config_view = cJSON_Duplicate(in->connector->view, true);
        if (out->config_view == NULL) {
            mm2_plan_free(out);
            return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
        }
    }
    return MM2_OK;
}
