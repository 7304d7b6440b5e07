/*
 * mm2_change: a change of the running connector's config, key by key, classified by what it does
 * to the offsets MirrorSourceConnector has stored (docs/day-two.md, mm2-offsets diff).
 *
 * A change is a key whose value differs between the live config (GET /connectors/NAME/config,
 * "old") and the connector JSON of the repository ("new"), both as mm2_cfgview_make shows them:
 * secrets masked, ${provider:...} references kept as written and never resolved. A key only the
 * live config holds is "removed" (PUT /config replaces the whole config: it would be gone, its
 * default back); a key only the file holds is "added". Connect returns only the keys it was
 * given, never defaults, so nothing is compared that nobody wrote.
 *
 * Classes, from the stored source offsets' point of view (each keyed by source.cluster.alias,
 * topic and partition: MirrorUtils.wrapPartition):
 *   harmless       a restart of the tasks only (tasks.max, client overrides, intervals, ...);
 *   moves-offsets  the stored offsets no longer describe what MM2 reads or where it writes:
 *                  source.cluster.alias, replication.policy.class / .separator, the source
 *                  cluster's bootstrap.servers;
 *   topics         the topic filter (topics, topics.exclude, topics.blacklist): which topics are
 *                  new or gone is decided with the source's topic list (mm2_change_topics);
 *   review         anything else, unknown keys included: never assumed harmless.
 *
 * Contract: pure; never prints, never exits, never talks to the network. Strings returned are
 * static. struct mm2_changes owns its entries (mm2_changes_free; NULL-safe on a zeroed struct).
 */
#ifndef MM2_CHANGE_H
#define MM2_CHANGE_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "mm2_err.h"

enum mm2_change_class {
    MM2_CHANGE_HARMLESS,
    MM2_CHANGE_TOPICS,
    MM2_CHANGE_REVIEW,
    MM2_CHANGE_MOVES_OFFSETS,
};

enum mm2_change_kind {
    MM2_CHANGE_CHANGED, /* in both, values differ */
    MM2_CHANGE_ADDED,   /* only in the file */
    MM2_CHANGE_REMOVED, /* only live: the file dropped it (or it was added by hand) */
};

struct mm2_change {
    const char *key;     /* borrowed from the views */
    const char *old_val; /* live, masked; NULL when added */
    const char *new_val; /* file, masked; NULL when removed */
    enum mm2_change_kind kind;
    enum mm2_change_class cls;
    const char *meaning; /* what it does, one sentence; static */
};

struct mm2_changes {
    struct mm2_change *v; /* sorted by key */
    size_t n;
};

/* The class of a change of key, and what it means (static, one sentence). */
enum mm2_change_class mm2_change_classify(const char *key, const char **meaning);

/* "harmless", "topics", "review", "moves-offsets"; "added", "removed", "changed". */
const char *mm2_change_class_name(enum mm2_change_class c);
const char *mm2_change_kind_name(enum mm2_change_kind k);

/* Every key of live_view and file_view (mm2_cfgview_make views; "name" skipped) whose value
 * differs, classified. The views must outlive out. MM2_UNEXPECTED when memory runs out. */
enum mm2_status mm2_change_list(const cJSON *live_view, const cJSON *file_view,
                                struct mm2_changes *out, struct mm2_error *err);
void mm2_changes_free(struct mm2_changes *c);

/* The worst class among the changes (MM2_CHANGE_HARMLESS when there are none). A topics change
 * counts as its outcome: the caller passes topics_worst, the class its topic lists gave
 * (MM2_CHANGE_HARMLESS when no topic is new or gone, MM2_CHANGE_REVIEW otherwise). */
enum mm2_change_class mm2_change_worst(const struct mm2_changes *c,
                                       enum mm2_change_class topics_worst);

/* Whether a change of the topic filter touches a topic: replicated_before (by the live config)
 * and replicated_after (by the file). The four outcomes: "new" (MM2 would start it from
 * auto.offset.reset), "removed" (its stored offsets stay behind), or unchanged. */
enum mm2_topic_change {
    MM2_TOPIC_SAME,
    MM2_TOPIC_NEW,
    MM2_TOPIC_GONE,
};
enum mm2_topic_change mm2_change_topic(bool replicated_before, bool replicated_after);

/* What diff found of a topic the file newly replicates. */
struct mm2_new_topic {
    const char *topic;
    int parts;              /* its partitions on the source */
    int flink_parts;        /* those the Flink group ([flink] group.id) committed an offset on */
    int stored_parts;       /* those Connect still stores an offset for (the file's alias) */
    int stored_below_start; /* of those, the ones whose next record (offset + 1) has expired */
    const char *group;
    const char *reset; /* the live auto.offset.reset of MM2's source consumer, "" when unset */
};

/* What a new topic needs before an update may start it, one phrase into buf (always
 * terminated), starting "refused without a start: TOPIC: ". A topic with stored offsets was
 * replicated before and is resumed from them, not from auto.offset.reset: the phrase says how
 * many have expired (records lost between) and that the target may have moved since. Otherwise
 * it starts from auto.offset.reset ("" is MM2's default, earliest): with Flink's committed
 * offsets on it, that copies again what Flink copied (earliest) or never copies what was
 * written after Flink's C (latest); without, every record it holds is copied (earliest) or
 * none of them (latest). */
void mm2_change_new_topic_why(const struct mm2_new_topic *t, char *buf, size_t len);

#endif
