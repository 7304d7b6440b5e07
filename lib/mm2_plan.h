/*
 * mm2_plan: the plan of an offset migration and its rules (docs/ARCHITECTURE.md §6): the plan
 * (C -> M = C - 1 per partition, or null, or a recorded loss) made from an export
 * (mm2_export.h) and the connector JSON (mm2_connector.h, which holds its own rules), and the
 * rules that refuse a plan, added to a list of refusals (mm2_refusal.h).
 *
 * Contract:
 *   - Never prints, never exits, never talks to the network: everything here is a pure function
 *     of its inputs, so every rule is unit-tested and fuzzed.
 *   - Structs own their strings and arrays; each *_free releases them and accepts a zeroed or
 *     partly filled struct. *_from_json validates every member (type, range, order, uniqueness)
 *     and returns MM2_CONFIG naming the JSON path of the first bad one.
 *   - A refusal is one line (mm2_refusal.h) ending in its rule's id. Rules ids:
 *     no-offset, expired, beyond-end, offset-moved, log-moved, open-transaction, target-moving,
 *     target-missing, partition-count, topic-mapping, topics-changed, unplanned, connector-config,
 *     alias, flink-running, flink-unproven, group-active, wrong-target, wrong-source, accept-loss,
 *     flink-gap, flink-partitioning, flink-ambiguous, flink-window-gone, flink-unread,
 *     start-at-gap, accept-unplaced;
 *     and, from the programs, connector-state, progressed, approval, and resume's flink-moved and
 *     target-moved.
 */
#ifndef MM2_PLAN_H
#define MM2_PLAN_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mm2_config.h"
#include "mm2_connector.h"
#include "mm2_digest.h"
#include "mm2_err.h"
#include "mm2_export.h"
#include "mm2_kafka.h"
#include "mm2_refusal.h"
#include "mm2_topics.h"

/* ---- the plan ------------------------------------------------------------------------------ */

enum mm2_action {
    MM2_ACT_OFFSET = 0, /* write {"offset": M} */
    MM2_ACT_RESET,      /* C = 0 = log start: write null (auto.offset.reset=earliest) */
    MM2_ACT_LOSS,       /* C < log start, accepted: write null, lost = log start - C records */
};

struct mm2_pentry {
    char *topic;
    int32_t partition;
    int64_t c;
    int64_t m; /* -1 for null */
    enum mm2_action action;
    int64_t log_start;
    int64_t log_end;
    int64_t lost;
    char *target_topic;
    int64_t target_start; /* the target's high watermark at export: MM2's first record lands here */
    /* Flink's side of the boundary (mm2_boundary.h), "" when the export did not read it. With
     * --start-at-gap, c is where MM2 starts (the first record the target lacks) and group_c the
     * group's C; otherwise group_c = c. duplicates: the records past C the target already holds
     * (ahead), which MM2 copies again; gap: the records below C MM2 copies that Flink lost. */
    char boundary[16];
    int64_t group_c;
    int64_t duplicates;
    int64_t gap;
};

struct mm2_plan {
    char created[32];
    char export_digest[MM2_DIGEST_TEXT_LEN + 1];
    char source_cluster[MM2_KAFKA_CLUSTER_ID_MAX];
    char target_cluster[MM2_KAFKA_CLUSTER_ID_MAX];
    char connect_version[64];
    char connector[MM2_ID_MAX];
    char alias[MM2_ID_MAX];
    char config_digest[MM2_DIGEST_TEXT_LEN + 1];
    cJSON *config_view; /* the config, secrets masked (mm2_cfgview); NULL in older plans; owned */
    char group[MM2_ID_MAX];
    struct mm2_xtopic *topics; /* replicated topics only, sorted by name (mm2_export_topic) */
    size_t ntopics;
    struct mm2_pentry *entries; /* sorted by topic, partition */
    size_t n;
    char digest[MM2_DIGEST_TEXT_LEN + 1];
};

enum mm2_status mm2_plan_to_json(const struct mm2_plan *p, cJSON **out, struct mm2_error *err);
enum mm2_status mm2_plan_from_json(const cJSON *root, struct mm2_plan *out, struct mm2_error *err);
void mm2_plan_free(struct mm2_plan *p);

/* The entry for (topic, partition), or NULL. */
const struct mm2_pentry *mm2_plan_find(const struct mm2_plan *p, const char *topic,
                                       int32_t partition);

/* The PATCH body {"offsets": [{"partition": {"cluster", "topic", "partition"},
 * "offset": {"offset": M} | null}, ...]} for every entry (malloc'd), or NULL when out of memory. */
char *mm2_plan_patch_body(const struct mm2_plan *p);

/* ---- rules --------------------------------------------------------------------------------- */

/* A TOPIC:PARTITION given to --accept-loss. */
struct mm2_tpref {
    const char *topic;
    int32_t partition;
};

/* Parses "TOPIC:PARTITION" in place (the ':' is the last one). 0, or -1 with why set. */
int mm2_plan_tpref_parse(char *s, struct mm2_tpref *out, char *why, size_t whylen);

struct mm2_plan_input {
    const struct mm2_export *ex;
    const struct mm2_connector *connector; /* the connector JSON now */
    const struct mm2_mirror *mirror;       /* its topic filter and replication policy */
    const struct mm2_config *cfg;          /* [flink] topic.mapping */
    const struct mm2_tpref *accept_loss;
    size_t naccept;
    const struct mm2_tpref *start_at_gap; /* --start-at-gap */
    size_t ngap;
    const struct mm2_tpref *accept_unplaced; /* --accept-unplaced */
    size_t nunplaced;
};

/* Flink's side of the boundary for one partition the other rules planned (e filled, action
 * offset, reset or accept-loss): records the class in e, refuses behind (flink-gap), unplaced
 * (flink-partitioning), ambiguous (flink-ambiguous), gone (flink-window-gone) and unread
 * (flink-unread) unless the operator's option names the partition (gap_used[i] /
 * unplaced_used[i] set for the option that did), and moves e to the gap's start with
 * --start-at-gap. Returns false when refused. lib/mm2_plan_bnd.c. */
bool mm2_plan_bnd_rules(const struct mm2_plan_input *in, const struct mm2_xpart *p, bool *gap_used,
                        bool *unplaced_used, struct mm2_pentry *e, struct mm2_refusals *r);
/* The --start-at-gap and --accept-unplaced given for a partition they did not apply to. */
void mm2_plan_bnd_unused(const struct mm2_plan_input *in, const bool *gap_used,
                         const bool *unplaced_used, struct mm2_refusals *r);

/* Every rule of docs/ARCHITECTURE.md §6.1 and §6.2 over the export. MM2_OK with *out filled when
 * nothing is refused; MM2_CHECK_FAILED with every refusal in r otherwise (out stays empty);
 * MM2_UNEXPECTED when out of memory (a refusal that could not be stored included). */
enum mm2_status mm2_plan_build(const struct mm2_plan_input *in, struct mm2_plan *out,
                               struct mm2_refusals *r, struct mm2_error *err);

#endif
