/* mm2_export: the export artifact's model and its JSON form (see mm2_export.h). */
#include "mm2_export.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm2_artifact.h"
#include "mm2_bnd_json.h"
#include "mm2_json.h"
#include "mm2_parse.h"
#include "mm2_pj.h"

/* ---- the export --------------------------------------------------------------------------- */

const char *const mm2_export_config_keys[MM2_EXPORT_CONFIG_KEYS] = {
    "cleanup.policy",      "compression.type", "max.message.bytes", "message.timestamp.type",
    "min.insync.replicas", "retention.bytes",  "retention.ms",      "segment.bytes",
};

void mm2_export_free(struct mm2_export *ex)
{
    if (ex == NULL)
        return;
    for (size_t i = 0; i < ex->ntopics; i++) {
        free(ex->topics[i].name);
        free(ex->topics[i].target);
        free(ex->topics[i].flink_target);
        cJSON_Delete(ex->topics[i].target_configs);
    }
    for (size_t i = 0; i < ex->nparts; i++)
        free(ex->parts[i].topic);
    free(ex->topics);
    free(ex->parts);
    cJSON_Delete(ex->config_view);
    memset(ex, 0, sizeof(*ex));
}

/* The root's members before "topics", into b.root. */
static void header_json(struct mm2_pj *b, const struct mm2_export *ex)
{
    cJSON *o;

    mm2_pj_str(b, b->root, "kind", MM2_KIND_EXPORT);
    mm2_pj_str(b, b->root, "tool", "mm2-offsets " MM2KIT_VERSION);
    mm2_pj_str(b, b->root, "created", ex->created);
    mm2_pj_str(b, b->root, "source_cluster_id", ex->source_cluster);
    mm2_pj_str(b, b->root, "target_cluster_id", ex->target_cluster);
    o = mm2_pj_obj(b, b->root, "connect");
    mm2_pj_str(b, o, "version", ex->connect_version);
    mm2_pj_str(b, o, "kafka_cluster_id", ex->connect_cluster);
    o = mm2_pj_obj(b, b->root, "connector");
    mm2_pj_str(b, o, "name", ex->connector);
    mm2_pj_str(b, o, "source_alias", ex->alias);
    mm2_pj_str(b, o, "config_digest", ex->config_digest);
    mm2_pj_copy(b, o, "config", ex->config_view);
    o = mm2_pj_obj(b, b->root, "flink");
    mm2_pj_str(b, o, "group_id", ex->group);
    mm2_pj_str(b, o, "group_state", ex->group_state);
    mm2_pj_int(b, o, "group_members", ex->group_members);
    mm2_pj_str(b, o, "stopped_by", ex->flink_method);
    mm2_pj_str(b, o, "job_state", ex->flink_job_state);
    mm2_pj_int(b, o, "checkpoint_interval_ms", ex->checkpoint_interval_ms);
    mm2_pj_int(b, b->root, "stable_wait_ms", ex->stable_wait_ms);
}

/* One element of "topics", appended to arr. */
static void topic_json(struct mm2_pj *b, cJSON *arr, const struct mm2_xtopic *t)
{
    cJSON *e = mm2_pj_item(b, arr);

    if (e == NULL)
        return;
    mm2_pj_str(b, e, "name", t->name);
    mm2_pj_int(b, e, "partitions", t->partitions);
    mm2_pj_bool(b, e, "replicated", t->replicated);
    if (t->replicated) {
        mm2_pj_str(b, e, "target", t->target);
        mm2_pj_int_or_null(b, e, "target_partitions", t->target_partitions,
                           t->target_partitions < 0);
        mm2_pj_str(b, e, "flink_target", t->flink_target);
        mm2_pj_bool(b, e, "compacted", t->compacted);
        mm2_pj_copy(b, e, "target_configs", t->target_configs);
    }
}

/* One element of "partitions", appended to arr. */
static void part_json(struct mm2_pj *b, cJSON *arr, const struct mm2_xpart *p)
{
    cJSON *e = mm2_pj_item(b, arr);

    if (e == NULL)
        return;
    mm2_pj_str(b, e, "topic", p->topic);
    mm2_pj_int(b, e, "partition", p->partition);
    mm2_pj_pair(b, e, "committed", p->committed, MM2_OFFSET_NONE);
    mm2_pj_pair(b, e, "log_start", p->log_start, MM2_OFFSET_NONE);
    mm2_pj_pair(b, e, "log_end", p->log_end, MM2_OFFSET_NONE);
    mm2_pj_pair(b, e, "target_hw", p->target_hw, -1);
    mm2_pj_pair(b, e, "target_lso", p->target_lso, -1);
    if (p->boundary_read)
        mm2_bnd_json_to(b, e, "boundary", &p->boundary);
}

enum mm2_status mm2_export_to_json(const struct mm2_export *ex, cJSON **out, struct mm2_error *err)
{
    struct mm2_pj b = {.root = cJSON_CreateObject()};
    cJSON *arr;

    *out = NULL;
    header_json(&b, ex);
    arr = mm2_pj_arr(&b, b.root, "topics");
    for (size_t i = 0; i < ex->ntopics && arr != NULL && !b.oom; i++)
        topic_json(&b, arr, &ex->topics[i]);
    arr = mm2_pj_arr(&b, b.root, "partitions");
    for (size_t i = 0; i < ex->nparts && arr != NULL && !b.oom; i++)
        part_json(&b, arr, &ex->parts[i]);
    if (b.oom || b.root == NULL) {
        cJSON_Delete(b.root);
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory, or an offset above 2^53");
    }
    *out = b.root;
    return MM2_OK;
}

/* Element i of "topics" (part false) or "partitions" (part true) streamed into o. */
static void element_out(struct mm2_artifact_out *o, const struct mm2_export *ex, bool part,
                        size_t i)
{
    struct mm2_pj b = {.root = cJSON_CreateArray()};

    if (b.root != NULL && part)
        part_json(&b, b.root, &ex->parts[i]);
    else if (b.root != NULL)
        topic_json(&b, b.root, &ex->topics[i]);
    if (b.oom || b.root == NULL)
        o->js.bad = true;
    else
        mm2_json_stream_element(&o->js, b.root->child);
    cJSON_Delete(b.root);
}

enum mm2_status mm2_export_write(const struct mm2_export *ex, const char *path,
                                 char digest[MM2_DIGEST_TEXT_LEN + 1], struct mm2_error *err)
{
    struct mm2_artifact_out *o = malloc(sizeof(*o));
    struct mm2_pj b = {.root = cJSON_CreateObject()};
    enum mm2_status st;

    digest[0] = '\0';
    if (o == NULL || b.root == NULL) {
        free(o);
        cJSON_Delete(b.root);
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    }
    st = mm2_artifact_out_open(o, "export", path, err);
    if (st == MM2_OK) {
        const cJSON *m;
        header_json(&b, ex);
        o->js.bad = o->js.bad || b.oom;
        cJSON_ArrayForEach(m, b.root)
        {
            mm2_json_stream_member(&o->js, m->string, m);
        }
        mm2_json_stream_array(&o->js, "topics");
        for (size_t i = 0; i < ex->ntopics && !o->js.bad; i++)
            element_out(o, ex, false, i);
        mm2_json_stream_array_end(&o->js);
        mm2_json_stream_array(&o->js, "partitions");
        for (size_t i = 0; i < ex->nparts && !o->js.bad; i++)
            element_out(o, ex, true, i);
        mm2_json_stream_array_end(&o->js);
        st = mm2_artifact_out_close(o, digest, err);
    }
    cJSON_Delete(b.root);
    free(o);
    return st;
}

const struct mm2_xtopic *mm2_export_topic(const struct mm2_xtopic *v, size_t n, const char *name)
{
    for (size_t lo = 0, hi = n; lo < hi;) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(name, v[mid].name);
        if (c == 0)
            return &v[mid];
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return NULL;
}

static enum mm2_status read_topics(const cJSON *arr, struct mm2_export *ex, struct mm2_error *err)
{
    const cJSON *e;
    size_t n = (size_t)cJSON_GetArraySize(arr), i = 0;

    ex->topics = n > 0 ? calloc(n, sizeof(*ex->topics)) : NULL;
    if (n > 0 && ex->topics == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    cJSON_ArrayForEach(e, arr)
    {
        struct mm2_xtopic *t = &ex->topics[i];
        char where[48];
        int64_t v;
        bool rep;
        (void)snprintf(where, sizeof(where), "topics[%zu]", i);
        ex->ntopics = ++i;
        t->target_partitions = -1;
        if (mm2_pj_get_topic(e, "name", where, &t->name, err) != MM2_OK ||
            mm2_pj_get_int(e, "partitions", where, 1, INT32_MAX, &v, err) != MM2_OK ||
            mm2_pj_get_bool(e, "replicated", where, &rep, err) != MM2_OK)
            return MM2_CONFIG;
        t->partitions = (int32_t)v;
        t->replicated = rep;
        if (rep) {
            if (mm2_pj_get_topic(e, "target", where, &t->target, err) != MM2_OK ||
                mm2_pj_get_int_or_null(e, "target_partitions", where, 1, INT32_MAX, -1, &v, err) !=
                    MM2_OK ||
                mm2_pj_get_topic(e, "flink_target", where, &t->flink_target, err) != MM2_OK ||
                (cJSON_GetObjectItemCaseSensitive(e, "compacted") != NULL &&
                 mm2_pj_get_bool(e, "compacted", where, &t->compacted, err) != MM2_OK) ||
                mm2_pj_get_view(e, "target_configs", where, &t->target_configs, err) != MM2_OK)
                return err->code;
            t->target_partitions = (int32_t)v;
        }
        if (i > 1 && strcmp(ex->topics[i - 2].name, t->name) >= 0)
            return mm2_error_set(err, MM2_CONFIG, "%s.name \"%.100s\" is out of order or repeated",
                                 where, t->name);
    }
    return MM2_OK;
}

static enum mm2_status read_parts(const cJSON *arr, struct mm2_export *ex, struct mm2_error *err)
{
    const cJSON *e;
    size_t n = (size_t)cJSON_GetArraySize(arr), i = 0;

    ex->parts = n > 0 ? calloc(n, sizeof(*ex->parts)) : NULL;
    if (n > 0 && ex->parts == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    cJSON_ArrayForEach(e, arr)
    {
        struct mm2_xpart *p = &ex->parts[i];
        const struct mm2_xtopic *t;
        char where[48];
        int64_t v;
        (void)snprintf(where, sizeof(where), "partitions[%zu]", i);
        ex->nparts = ++i;
        if (mm2_pj_get_topic(e, "topic", where, &p->topic, err) != MM2_OK ||
            mm2_pj_get_int(e, "partition", where, 0, INT32_MAX - 1, &v, err) != MM2_OK)
            return MM2_CONFIG;
        p->partition = (int32_t)v;
        if (mm2_pj_get_pair(e, "committed", where, MM2_OFFSET_NONE, p->committed, err) != MM2_OK ||
            mm2_pj_get_pair(e, "log_start", where, MM2_OFFSET_NONE, p->log_start, err) != MM2_OK ||
            mm2_pj_get_pair(e, "log_end", where, MM2_OFFSET_NONE, p->log_end, err) != MM2_OK ||
            mm2_pj_get_pair(e, "target_hw", where, -1, p->target_hw, err) != MM2_OK ||
            mm2_pj_get_pair(e, "target_lso", where, -1, p->target_lso, err) != MM2_OK)
            return MM2_CONFIG;
        if (cJSON_GetObjectItemCaseSensitive(e, "boundary") != NULL) {
            char bwhere[64];
            const cJSON *bo = mm2_json_get(e, "boundary", MM2_JSON_OBJECT, where, err);
            (void)snprintf(bwhere, sizeof(bwhere), "%s.boundary", where);
            if (bo == NULL || mm2_bnd_json_from(bo, bwhere, &p->boundary, err) != MM2_OK)
                return mm2_pj_config(err);
            p->boundary_read = true;
        }
        for (int r = 0; r < 2; r++)
            if (p->log_start[r] < 0 || p->log_end[r] < 0 || p->log_start[r] > p->log_end[r])
                return mm2_error_set(err, MM2_CONFIG,
                                     "%s: log_start and log_end must be offsets with start <= end",
                                     where);
        t = mm2_export_topic(ex->topics, ex->ntopics, p->topic);
        if (t == NULL || !t->replicated || p->partition >= t->partitions)
            return mm2_error_set(err, MM2_CONFIG,
                                 "%s: %.100s-%d is not a partition of a replicated topic", where,
                                 p->topic, (int)p->partition);
        if (i > 1) {
            const struct mm2_xpart *q = &ex->parts[i - 2];
            int c = strcmp(q->topic, p->topic);
            if (c > 0 || (c == 0 && q->partition >= p->partition))
                return mm2_error_set(err, MM2_CONFIG, "%s is out of order or repeated", where);
        }
    }
    return MM2_OK;
}

enum mm2_status mm2_export_from_json(const cJSON *root, struct mm2_export *ex,
                                     struct mm2_error *err)
{
    const cJSON *o, *arr;
    int64_t v;
    size_t want = 0;

    memset(ex, 0, sizeof(*ex));
    if (mm2_pj_get_buf(root, "created", "export", ex->created, sizeof(ex->created), err) !=
            MM2_OK ||
        mm2_pj_get_buf(root, "source_cluster_id", "export", ex->source_cluster,
                       sizeof(ex->source_cluster), err) != MM2_OK ||
        mm2_pj_get_buf(root, "target_cluster_id", "export", ex->target_cluster,
                       sizeof(ex->target_cluster), err) != MM2_OK)
        return MM2_CONFIG;
    o = mm2_json_get(root, "connect", MM2_JSON_OBJECT, "export", err);
    if (o == NULL ||
        mm2_pj_get_buf(o, "version", "export.connect", ex->connect_version,
                       sizeof(ex->connect_version), err) != MM2_OK ||
        mm2_pj_get_buf(o, "kafka_cluster_id", "export.connect", ex->connect_cluster,
                       sizeof(ex->connect_cluster), err) != MM2_OK)
        return mm2_pj_config(err);
    o = mm2_json_get(root, "connector", MM2_JSON_OBJECT, "export", err);
    if (o == NULL ||
        mm2_pj_get_buf(o, "name", "export.connector", ex->connector, sizeof(ex->connector), err) !=
            MM2_OK ||
        mm2_pj_get_buf(o, "source_alias", "export.connector", ex->alias, sizeof(ex->alias), err) !=
            MM2_OK ||
        mm2_pj_get_digest(o, "config_digest", "export.connector", ex->config_digest, err) !=
            MM2_OK ||
        mm2_pj_get_view(o, "config", "export.connector", &ex->config_view, err) != MM2_OK)
        return mm2_pj_config(err);
    o = mm2_json_get(root, "flink", MM2_JSON_OBJECT, "export", err);
    if (o == NULL ||
        mm2_pj_get_buf(o, "group_id", "export.flink", ex->group, sizeof(ex->group), err) !=
            MM2_OK ||
        mm2_pj_get_buf(o, "group_state", "export.flink", ex->group_state, sizeof(ex->group_state),
                       err) != MM2_OK ||
        mm2_pj_get_int(o, "group_members", "export.flink", 0, 1000000, &v, err) != MM2_OK)
        return mm2_pj_config(err);
    ex->group_members = (int)v;
    if (mm2_pj_get_buf(o, "stopped_by", "export.flink", ex->flink_method, sizeof(ex->flink_method),
                       err) != MM2_OK ||
        mm2_pj_get_buf(o, "job_state", "export.flink", ex->flink_job_state,
                       sizeof(ex->flink_job_state), err) != MM2_OK ||
        mm2_pj_get_int(o, "checkpoint_interval_ms", "export.flink", 0, 86400000L * 7, &v, err) !=
            MM2_OK)
        return mm2_pj_config(err);
    ex->checkpoint_interval_ms = (long)v;
    if (strcmp(ex->flink_method, "flink-rest") != 0 &&
        strcmp(ex->flink_method, "stable-offsets") != 0)
        return mm2_error_set(err, MM2_CONFIG,
                             "export.flink.stopped_by must be flink-rest or stable-offsets");
    if (mm2_pj_get_int(root, "stable_wait_ms", "export", 0, 86400000L, &v, err) != MM2_OK)
        return MM2_CONFIG;
    ex->stable_wait_ms = (long)v;
    arr = mm2_json_get(root, "topics", MM2_JSON_ARRAY, "export", err);
    if (arr == NULL || read_topics(arr, ex, err) != MM2_OK)
        return mm2_pj_config(err);
    arr = mm2_json_get(root, "partitions", MM2_JSON_ARRAY, "export", err);
    if (arr == NULL || read_parts(arr, ex, err) != MM2_OK)
        return mm2_pj_config(err);
    for (size_t i = 0; i < ex->ntopics; i++)
        if (ex->topics[i].replicated)
            want += (size_t)ex->topics[i].partitions;
    if (want != ex->nparts)
        return mm2_error_set(err, MM2_CONFIG,
                             "export lists %zu partitions but its replicated topics have %zu",
                             ex->nparts, want);
    o = cJSON_GetObjectItemCaseSensitive(root, "digest");
    if (cJSON_IsString(o) && mm2_digest_valid(o->valuestring))
        memcpy(ex->digest, o->valuestring, MM2_DIGEST_TEXT_LEN + 1);
    return MM2_OK;
}
