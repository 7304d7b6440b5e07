/*
 * mm2_export: the export artifact, the model of what the clusters said, read twice, and its JSON
 * form (kind "mm2kit.export/v1", mm2_artifact.h): what a plan is made from, with the connector
 * JSON (mm2_connector.h).
 *
 * Contract:
 *   - Never prints, never exits, never talks to the network.
 *   - Structs own their strings and arrays; each *_free releases them and accepts a zeroed or
 *     partly filled struct. *_from_json validates every member (type, range, order, uniqueness)
 *     and returns MM2_CONFIG naming the JSON path of the first bad one.
 */
#ifndef MM2_EXPORT_H
#define MM2_EXPORT_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mm2_boundary.h"
#include "mm2_connector.h"
#include "mm2_digest.h"
#include "mm2_err.h"
#include "mm2_kafka.h"

/* ---- the export --------------------------------------------------------------------------- */

/* Per source topic. target_partitions is -1 when the target topic does not exist. */
struct mm2_xtopic {
    char *name;
    int32_t partitions;
    bool replicated; /* the connector's filter accepts it */
    char *target;    /* the topic MM2 writes to (replication policy); NULL when not replicated */
    int32_t target_partitions;
    char *flink_target; /* the topic Flink wrote to ([flink] topic.mapping); NULL likewise */
    bool compacted;     /* replicated: the source's cleanup.policy holds compact (false in an export
                           from before it was read) */
    /* replicated, target existing: {"key": "value"} of mm2_export_config_keys on the target
     * topic at export, what accept compares after the cutover (only the keys the target's login
     * may DescribeConfigs); NULL in an export from before they were recorded, or not readable.
     * Owned. */
    cJSON *target_configs;
};

/* The target topic configs export records (mm2_xtopic.target_configs): those that change what a
 * copy keeps or refuses (retention, compaction, record size, timestamps, durability), a fixed
 * few so that 50,000 partitions stay within the artifact caps (mm2_limits.h). */
extern const char *const mm2_export_config_keys[];
#define MM2_EXPORT_CONFIG_KEYS 8

/* Per replicated source partition: both reads. Offsets MM2_OFFSET_NONE when not known;
 * target_* are -1 when the target partition does not exist. */
struct mm2_xpart {
    char *topic;
    int32_t partition;
    int64_t committed[2];
    int64_t log_start[2];
    int64_t log_end[2];
    int64_t target_hw[2];
    int64_t target_lso[2];
    /* Flink's side of the boundary: the target's tail placed in the source around C (read
     * once, after the second read). An export written before this proof has none. */
    bool boundary_read;
    struct mm2_bnd_result boundary;
};

struct mm2_export {
    char created[32];
    char source_cluster[MM2_KAFKA_CLUSTER_ID_MAX];
    char target_cluster[MM2_KAFKA_CLUSTER_ID_MAX];
    char connect_version[64];
    char connect_cluster[MM2_KAFKA_CLUSTER_ID_MAX]; /* GET /'s kafka_cluster_id */
    char connector[MM2_ID_MAX];
    char alias[MM2_ID_MAX];
    char config_digest[MM2_DIGEST_TEXT_LEN + 1];
    cJSON *config_view; /* the config, secrets masked (mm2_cfgview); NULL in older exports; owned */
    char group[MM2_ID_MAX];
    char group_state[32];
    int group_members;
    char flink_method[16];       /* "flink-rest" or "stable-offsets" */
    char flink_job_state[32];    /* with flink-rest: the job's state */
    long checkpoint_interval_ms; /* with stable-offsets */
    long stable_wait_ms;         /* the time between the two reads */
    struct mm2_xtopic *topics;   /* every source topic, sorted by name */
    size_t ntopics;
    struct mm2_xpart *parts; /* every partition of the replicated topics, sorted */
    size_t nparts;
    char digest[MM2_DIGEST_TEXT_LEN + 1]; /* set by *_from_json (and by the writer) */
};

enum mm2_status mm2_export_to_json(const struct mm2_export *ex, cJSON **out, struct mm2_error *err);
/* Writes the export to path as mm2_export_to_json then mm2_artifact_write would, the same bytes
 * and digest, without the whole tree: each topic and partition is a small tree printed and freed
 * in turn (mm2_artifact_out), so the memory it takes does not grow with the partitions. The
 * refusals are mm2_artifact_write's (the caps: MM2_CONFIG, nothing written). */
enum mm2_status mm2_export_write(const struct mm2_export *ex, const char *path,
                                 char digest[MM2_DIGEST_TEXT_LEN + 1], struct mm2_error *err);
enum mm2_status mm2_export_from_json(const cJSON *root, struct mm2_export *out,
                                     struct mm2_error *err);
void mm2_export_free(struct mm2_export *ex);

/* The topic called name among the n of v, or NULL. v must be sorted by name (strcmp), each name
 * once: an export's topics and a plan's are (*_from_json refuses any other order), and so is what
 * mm2_plan_build makes. The one lookup of a topic by name for both artifacts. */
const struct mm2_xtopic *mm2_export_topic(const struct mm2_xtopic *v, size_t n, const char *name);

#endif
