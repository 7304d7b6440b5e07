/* trail: the audit trail's writes and its topic (see trail.h). */
#include "trail.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clients.h"
#include "mm2_artifact.h"
#include "mm2_parse.h"
#include "mm2_trail.h"

#define DAY_MS (86400L * 1000L)

char *job_trail_key(const struct job *j)
{
    return mm2_trail_key(j->conn.name, j->cfg.group);
}

/* The topic's value of key into out; false (err set) when it cannot be read. */
static enum mm2_status topic_config(struct job *j, const char *key,
                                    struct mm2_kafka_config_value *out, struct mm2_error *err)
{
    const char *topics[] = {j->cfg.trail_topic};
    struct mm2_deadline dl;
    enum mm2_status st;

    job_kafka_deadline(j, &dl);
    st = mm2_kafka_describe_config(j->target, topics, 1, key, out, &dl, err);
    if (st == MM2_OK && out->seen == MM2_KAFKA_SEEN_DENIED)
        return mm2_error_set(err, MM2_CONFIG,
                             "[target] trail topic %s: DescribeConfigs refused; grant it to %s "
                             "(docs/acls.md, principal mm2-offsets)",
                             j->cfg.trail_topic,
                             j->cfg.target_principal ? j->cfg.target_principal
                                                     : "the target "
                                                       "principal");
    return st;
}

/* What would make an existing topic lose the trail before the window ends; MM2_OK when none. */
static enum mm2_status topic_fit(struct job *j, struct mm2_error *err)
{
    struct mm2_kafka_config_value policy, ms, bytes;
    enum mm2_status st = topic_config(j, "cleanup.policy", &policy, err);
    long days = mm2_config_trail_retention_ms(&j->cfg) / DAY_MS, kept = 0;
    const char *fix = "kafka-configs.sh --bootstrap-server TARGET --alter --entity-type topics "
                      "--entity-name";

    if (st == MM2_OK)
        st = topic_config(j, "retention.ms", &ms, err);
    if (st == MM2_OK)
        st = topic_config(j, "retention.bytes", &bytes, err);
    if (st != MM2_OK)
        return st;
    if (policy.seen == MM2_KAFKA_SEEN_OPS && strstr(policy.value, "compact") != NULL)
        return mm2_error_set(err, MM2_CONFIG,
                             "[target] trail topic %s has cleanup.policy=%s: compaction keeps one "
                             "record per key, and every chunk of a migration has the same key; "
                             "%s %s --add-config cleanup.policy=delete, or name another topic "
                             "in [trail] topic",
                             j->cfg.trail_topic, policy.value, fix, j->cfg.trail_topic);
    if (ms.seen == MM2_KAFKA_SEEN_OPS && strcmp(ms.value, "-1") != 0 &&
        (mm2_parse_long(ms.value, 0, LONG_MAX, &kept) != 0 ||
         kept < mm2_config_trail_retention_ms(&j->cfg)))
        return mm2_error_set(
            err, MM2_CONFIG,
            "[target] trail topic %s keeps records retention.ms=%s, less than "
            "the rollback window of %ld days ([policy] rollback.window.days): %s %s "
            "--add-config retention.ms=%ld",
            j->cfg.trail_topic, ms.value, days, fix, j->cfg.trail_topic,
            mm2_config_trail_retention_ms(&j->cfg));
    if (bytes.seen == MM2_KAFKA_SEEN_OPS && strcmp(bytes.value, "-1") != 0)
        return mm2_error_set(err, MM2_CONFIG,
                             "[target] trail topic %s has retention.bytes=%s: size-based deletion "
                             "may drop the trail before the rollback window ends: %s %s "
                             "--add-config retention.bytes=-1",
                             j->cfg.trail_topic, bytes.value, fix, j->cfg.trail_topic);
    return MM2_OK;
}

/* Creates the topic when absent, then checks it is fit. */
static enum mm2_status topic_ready(struct job *j, struct mm2_error *err)
{
    char ms[32];
    struct mm2_kv configs[] = {{"cleanup.policy", "delete"}, {"retention.ms", ms}};
    struct mm2_kafka_new_topic t = {j->cfg.trail_topic, 1, (int)j->cfg.trail_rf, configs, 2};
    struct mm2_deadline dl;
    bool created = false;
    enum mm2_status st = job_kafka(j, false, true, err);

    if (st != MM2_OK)
        return st;
    (void)snprintf(ms, sizeof(ms), "%ld", mm2_config_trail_retention_ms(&j->cfg));
    job_kafka_deadline(j, &dl);
    st = mm2_kafka_create_topic(j->target, &t, &created, &dl, err);
    if (st != MM2_OK)
        return st;
    if (created)
        job_info(j,
                 "trail: created topic %s on the target (1 partition, cleanup.policy=delete, "
                 "retention %ld days)",
                 j->cfg.trail_topic, mm2_config_trail_retention_ms(&j->cfg) / DAY_MS);
    return topic_fit(j, err);
}

enum mm2_status job_trail_put(struct job *j, const char *step, const char *kind, const char *file,
                              const char *text, size_t len, const char *seal, struct mm2_error *err)
{
    struct mm2_trail_meta m;
    struct mm2_kafka_out *recs = NULL;
    struct mm2_trail_headers *hdrs = NULL;
    struct mm2_deadline dl;
    char now[32];
    char *key;
    enum mm2_status st = MM2_OK;

    if (!j->cfg_loaded) /* preflight --workers: the workers' own, of no migration */
        return MM2_OK;
    if (!j->cfg.trail_enabled) {
        if (!j->trail_ready)
            mm2_log_debug(
                &j->log, "trail: off ([trail] enabled = false): nothing is recorded on the target");
        j->trail_ready = true;
        return MM2_OK;
    }
    if (!j->trail_ready && (st = topic_ready(j, err)) != MM2_OK)
        return st;
    j->trail_ready = true;
    job_utc_now(now, sizeof(now));
    if (mm2_trail_meta_make(&m, kind, step, file, now, seal, text, len) != 0)
        return mm2_error_set(err, MM2_UNEXPECTED,
                             "trail: %s cannot be recorded (%zu bytes, at "
                             "most %lld)",
                             kind, len, MM2_TRAIL_DOC_MAX);
    key = job_trail_key(j);
    recs = calloc((size_t)m.parts, sizeof(*recs));
    hdrs = calloc((size_t)m.parts, sizeof(*hdrs));
    if (key == NULL || recs == NULL || hdrs == NULL) {
        st = mm2_error_set(err, MM2_UNEXPECTED, "trail: out of memory");
    } else {
        for (long i = 0; i < m.parts; i++) {
            size_t off = (size_t)i * MM2_TRAIL_CHUNK;
            mm2_trail_headers(&m, i, &hdrs[i]);
            recs[i] = (struct mm2_kafka_out){
                key,        strlen(key),
                text + off, len - off < MM2_TRAIL_CHUNK ? len - off : MM2_TRAIL_CHUNK,
                hdrs[i].kv, MM2_TRAIL_HEADERS};
        }
        job_kafka_deadline(j, &dl);
        st = mm2_kafka_produce(j->target, j->cfg.trail_topic, 0, recs, (size_t)m.parts, &dl, err);
    }
    if (st == MM2_OK)
        job_info(j, "trail: recorded %s (%s, %zu bytes in %ld chunk%s, %s) in %s on the target",
                 m.file, kind, len, m.parts, m.parts == 1 ? "" : "s", m.sha256, j->cfg.trail_topic);
    free(key);
    free(recs);
    free(hdrs);
    return st;
}

enum mm2_status job_trail_artifact(struct job *j, const cJSON *tree, const char *file,
                                   const char *seal, struct mm2_error *err)
{
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(tree, "kind");
    char *text;
    enum mm2_status st;

    if (!j->cfg_loaded || !j->cfg.trail_enabled)
        return job_trail_put(j, j->cmd, "", file, "", 0, seal, err);
    if (!cJSON_IsString(kind))
        return mm2_error_set(err, MM2_UNEXPECTED, "trail: the artifact has no kind");
    text = mm2_artifact_text(tree);
    if (text == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "trail: out of memory");
    st = job_trail_put(j, j->cmd, kind->valuestring, file, text, strlen(text), seal, err);
    free(text);
    return st;
}

enum mm2_status job_trail_file(struct job *j, const char *kind, const char *file, const char *seal,
                               struct mm2_error *err)
{
    char *text = NULL;
    size_t len = 0;
    enum mm2_status st;

    if (!j->cfg_loaded || !j->cfg.trail_enabled)
        return job_trail_put(j, j->cmd, "", file, "", 0, seal, err);
    st = mm2_file_read("artifact", file, (size_t)MM2_ARTIFACT_MAX, &text, &len, err);
    if (st == MM2_OK)
        st = job_trail_put(j, j->cmd, kind, file, text, len, seal, err);
    free(text);
    return st;
}

void job_trail_unrecorded(const struct job *j, struct mm2_error *err, const char *file)
{
    char msg[sizeof(err->msg)];

    (void)snprintf(msg, sizeof(msg),
                   "%.560s; %.120s is not in the audit trail: fix that, then run '" PROG
                   " record --config %.120s --file %.120s'",
                   err->msg, file != NULL ? file : "the report",
                   j->cfg.path != NULL ? j->cfg.path : "INI", file != NULL ? file : "REPORT");
    memcpy(err->msg, msg, sizeof(msg));
}
