/*
 * mm2_binding: which migration an artifact belongs to, and the check that an artifact given to a
 * command is one of the migration that the INI file in use describes.
 *
 * A migration is bound by: the Flink group ([flink] group.id), the source and target cluster
 * ids, the connector (its name, and the digest of its config, which holds its
 * source.cluster.alias), and the set of source topics it replicates. An export or plan of
 * another migration applied here is silent loss: a plan for another group's C skips every
 * record between this group's C and that one, and MM2 ignores offsets keyed for another alias.
 * Exports and plans carry these facts in their own members; backups and reports carry them in a
 * "migration" object (mm2_binding_add_json).
 *
 * Contract:
 *   - Never prints, never exits, never talks to the network. Structs borrow their strings from
 *     the artifact, the configuration and the connector they were made from: nothing to free.
 *   - A mismatch is one refusal line (struct mm2_refusals) per field, naming the field, the
 *     artifact's value and the INI's value, ending in "[rule binding]". The caller refuses the
 *     artifact (exit 1) before it touches Connect.
 */
#ifndef MM2_BINDING_H
#define MM2_BINDING_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "mm2_err.h"
#include "mm2_plan.h"
#include "mm2_topics.h"

/* What an artifact says it belongs to. */
struct mm2_binding {
    const char *group;                           /* [flink] group.id */
    const char *source_cluster, *target_cluster; /* their ids */
    const char *connector, *alias, *config_digest;
    const cJSON *config_view;        /* NULL when the artifact recorded none (an older version) */
    const struct mm2_xtopic *topics; /* the set: those with .replicated; the others were seen */
    size_t ntopics;
};

void mm2_binding_of_export(const struct mm2_export *ex, struct mm2_binding *out);
void mm2_binding_of_plan(const struct mm2_plan *p, struct mm2_binding *out);

/* The migration the INI in use describes. A cluster id is pinned in the INI ([source] cluster.id)
 * or, when not, what the cluster at its bootstrap.servers answered (the caller asks). */
struct mm2_migration {
    const char *ini; /* the INI file's path, for messages */
    const char *group;
    const char *source_cluster;
    bool source_pinned;
    const char *target_cluster;
    bool target_pinned;
    const struct mm2_connector *conn;
    const char *connector_file;
    const struct mm2_mirror *mirror; /* conn's topic filter, for the artifact's Kafka version */
};

/* Adds one refusal to r per field in which the artifact a, of kind what ("export" or "plan"),
 * differs from m; returns how many. A config that differs is named by its keys (mm2_cfgview_diff),
 * or by its two digests when the artifact recorded no view. The topic set differs when a topic of
 * a's set is one m's connector does not replicate, or when a topic a saw but left out is one it
 * replicates (an export lists every source topic it saw; a plan, only its set). A disabled
 * connector (enabled=false) is not compared by topic: the plan rules refuse it on its own. */
size_t mm2_binding_check(const char *what, const struct mm2_binding *a,
                         const struct mm2_migration *m, struct mm2_refusals *r);

/* Adds to parent a "migration" object holding b: flink_group_id, source_cluster_id,
 * target_cluster_id, connector, source_alias, config_digest and topics (the names of the set,
 * sorted). MM2_UNEXPECTED when out of memory. */
enum mm2_status mm2_binding_add_json(cJSON *parent, const struct mm2_binding *b,
                                     struct mm2_error *err);

#endif
