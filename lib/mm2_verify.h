/*
 * mm2_verify: what Connect holds of the plan's connector, judged against the plan
 * (docs/ARCHITECTURE.md §2.1, §6.4): the connector stopped as Connect decides it (mm2_connlive),
 * its config the plan's, every planned offset present and equal, every null absent, nothing extra
 * under the plan's topics and alias. verify, apply and resume compare so after a write; apply,
 * resume and rollback-plan judge "stopped" by the same words; apply's read-back of the offsets
 * asks whether two reads agree and whether a read is the plan.
 *
 * Contract:
 *   - Never prints, never exits, never talks to the network: the caller reads Connect
 *     (mm2_connlive_read, mm2_connect_config, mm2_connect_offsets) and prints what these say.
 *   - A line goes into the caller's buffer (always terminated, cut to fit), or to the caller's
 *     function, in order (mm2_verify_compare). A mismatch is cut at MM2_REFUSAL_LEN - 1 bytes, a
 *     note at MM2_VERIFY_NOTE_LEN - 1. Refusals go to the caller's list (mm2_refusal.h).
 *   - Everything is borrowed: nothing to free.
 */
#ifndef MM2_VERIFY_H
#define MM2_VERIFY_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "mm2_connect.h"
#include "mm2_connlive.h"
#include "mm2_plan.h"
#include "mm2_refusal.h"

/* Room for any line these write: a note (a connector's name and state, a topic, two aliases)
 * is never cut where the log would not cut it (MM2_LOG_LINE_MAX). */
#define MM2_VERIFY_NOTE_LEN 2048

/* Why a connector must be stopped, for mm2_verify_stopped's why. */
#define MM2_VERIFY_WHY_WRITE "offsets can only be written to a STOPPED connector"
#define MM2_VERIFY_WHY_HOLD "the offsets move until the connector is stopped"

/* The remedy for a connector whose status reads UNASSIGNED with zero tasks (format: one %s, the
 * connector's name). A status record written as a worker let the connector go can be resent
 * after a newer one and win (KafkaStatusBackingStore retries a failed write; a connector's, unlike
 * a task's, is not checked for staleness), e.g. across a restart of Connect's Kafka cluster. A
 * second PUT .../stop writes no status, since WorkerConnector.suspend returns at once when the
 * connector is already STOPPED; POST .../restart stops the connector and starts it again in its
 * target state, and a new instance writes that state (STOPPED, or RUNNING if it was resumed). */
#define MM2_VERIFY_STALE_STATUS                                                                    \
    "likely a stale status record (one can outlive a restart of Connect's Kafka cluster while "    \
    "the connector stays stopped, and PUT .../stop writes none for a connector already "           \
    "stopped): POST /connectors/%s/restart (the connector alone) makes its worker write its "      \
    "status afresh"

/* What a line is, for the caller that prints it. */
enum mm2_verify_say {
    MM2_VERIFY_NONE,    /* nothing to say */
    MM2_VERIFY_INFO,    /* a progress note */
    MM2_VERIFY_WARN,    /* a warning: something MM2 ignores */
    MM2_VERIFY_PROBLEM, /* a mismatch, or what a command refuses */
};

/* Connector name as Connect decides it (v, mm2_connlive_read) for a command that needs it
 * stopped: MM2_VERIFY_PROBLEM with "connector N is <how>, not STOPPED; <why>: PUT .../stop,
 * <then> [rule connector-state]" or its variants in buf (for UNASSIGNED with no task config,
 * MM2_VERIFY_STALE_STATUS's remedy); MM2_VERIFY_INFO with a note in buf when it is stopped but
 * lists stale task statuses; MM2_VERIFY_NONE when stopped, and when absent (the caller knows what
 * that means). */
enum mm2_verify_say mm2_verify_stopped(const char *name, const struct mm2_connlive *v,
                                       const char *why, const char *then, char *buf, size_t len);

/* How the config Connect holds (live, with digest live_digest) differs from the plan's: "in 2
 * keys: tasks.max ("2" in the plan, "4" in Connect), ..." (mm2_cfgview_explain), or the two
 * digests when the plan recorded no view or memory ran out. Into buf. */
void mm2_verify_config_differs(const struct mm2_plan *plan, const cJSON *live,
                               const char *live_digest, char *buf, size_t len);

/* The config of a connector apply found (live, with digest live_digest) against the plan's: none
 * when the digests are equal; else one refusal, [rule alias] when its source.cluster.alias is not
 * the plan's (MM2 would ignore the plan's offsets), [rule connector-config] otherwise, naming the
 * keys that differ. Returns how many it added. */
size_t mm2_verify_connector_config(const struct mm2_plan *plan, const cJSON *live,
                                   const char *live_digest, struct mm2_refusals *r);

/* Two reads of a connector's offsets list the same ones (cluster, topic, partition, offset). */
bool mm2_verify_offsets_equal(const struct mm2_source_offsets *a,
                              const struct mm2_source_offsets *b);

/* o is exactly what the plan writes: every planned offset, no null entry listed, nothing else. */
bool mm2_verify_offsets_are_plan(const struct mm2_plan *plan, const struct mm2_source_offsets *o);

/* What Connect holds of the plan's connector, as the caller read it. */
struct mm2_verify_live {
    const struct mm2_connlive *v;          /* its status and task configs, judged */
    const cJSON *config;                   /* its config; NULL when absent */
    const char *digest;                    /* that config's digest; "" when absent */
    const struct mm2_source_offsets *offs; /* its offsets; empty when absent */
};

struct mm2_verify_counts {
    size_t checked;              /* the planned partitions compared (0 when absent) */
    size_t mismatches;           /* every mismatch, the connector's own included */
    size_t partition_mismatches; /* of the checked partitions */
};

/* Receives each line of a comparison, in order; ctx is the caller's. */
typedef void (*mm2_verify_say_fn)(void *ctx, enum mm2_verify_say say, const char *line);

/* The connector l against the plan: it exists, is stopped (mm2_verify_stopped, then "then verify
 * again") and has the plan's config; then each planned partition's offset (offset M present and
 * equal, null absent); then each offset listed under a planned topic that the plan lacks (a
 * mismatch under the plan's alias, a warning under another: MM2 ignores it). Every line goes to
 * say; c gets the counts. */
void mm2_verify_compare(const struct mm2_plan *plan, const struct mm2_verify_live *l,
                        mm2_verify_say_fn say, void *ctx, struct mm2_verify_counts *c);

#endif
