/*
 * mm2_accept: the acceptance list that `mm2-offsets accept` checks on the real clusters after
 * resume (docs/mm2-offsets.1, accept; docs/RUNBOOK.md), each line judged from what the
 * subcommand read, with its evidence and, when it does not hold, the fix; and the report's
 * Markdown form. The lines:
 *   1 imported   the connector's stored offsets hold, per planned partition, the plan's M or more
 *   2 started    MM2's first record on the target equals the source's at C (or the first after)
 *   3 complete   the source's data records in [C, W) and the target's from the boundary are as
 *                many, the last and a window of the first compared record by record
 *   4 running    connector and tasks RUNNING through the observation, offsets advancing with the
 *                source, the lag not grown
 *   5 alone      no MirrorCheckpointConnector or MirrorHeartbeatConnector on the Connect cluster,
 *                no offset-syncs topic written (named, not failed, on Connect 3.6 to 3.8)
 *   6 topics     the target topics' partition counts and configs as the export recorded them
 *
 * Contract: never prints, never exits, never talks to the network: pure functions of their
 * inputs, unit-tested (tests/unit/test_accept.c). Each judge fills one line; a line's evidence
 * and fix are one line of text each, cut to fit.
 */
#ifndef MM2_ACCEPT_H
#define MM2_ACCEPT_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mm2_connect.h"
#include "mm2_plan.h"

enum mm2_accept_no {
    MM2_ACCEPT_IMPORTED = 0,
    MM2_ACCEPT_STARTED,
    MM2_ACCEPT_COMPLETE,
    MM2_ACCEPT_RUNNING,
    MM2_ACCEPT_ALONE,
    MM2_ACCEPT_TOPICS,
    MM2_ACCEPT_LINES,
};

#define MM2_ACCEPT_TEXT 640

struct mm2_accept_line {
    bool holds;
    char evidence[MM2_ACCEPT_TEXT];
    char fix[MM2_ACCEPT_TEXT]; /* "" when it holds */
};

struct mm2_accept {
    struct mm2_accept_line line[MM2_ACCEPT_LINES];
};

/* The line's short name ("imported", ...) and what it checks, in a sentence. */
const char *mm2_accept_name(enum mm2_accept_no n);
const char *mm2_accept_title(enum mm2_accept_no n);

/* Line 1: offs (GET /connectors/NAME/offsets, after the observation) against the plan: each
 * planned M (alias, topic, partition) present with an offset >= M; a partition planned null may
 * be absent (MM2 starts it at the log start) or hold any offset. */
void mm2_accept_imported(const struct mm2_plan *p, const struct mm2_source_offsets *offs,
                         struct mm2_accept_line *l);

/* What the subcommand read of one planned partition for lines 2 and 3. from is where MM2 starts
 * (C, or the log start for a planned null), w the source watermark taken at the start (the last
 * stable offset with read_committed, else the high watermark). */
struct mm2_accept_part {
    int64_t w;
    int64_t source_count;      /* the source's data records in [from, w) */
    int64_t target_count;      /* the target's from target_start, read up to source_count (+1) */
    int64_t first_source;      /* offset of the source's first record at or after from, -1: none */
    int64_t first_target;      /* offset of the target's first at or after target_start, -1: none */
    const char *first_differs; /* mm2_check_differs of those two; "" equal */
    size_t compared;           /* records compared one by one (the window and the last) */
    int64_t bad_source;        /* the first compared pair that differs: source offset, or -1 */
    int64_t bad_target;
    const char *bad_field;
    bool cut; /* the window was cut by --window-total: fewer compared than asked */
};

/* Lines 2 and 3 from the n = p->n parts read, in plan order. A partition with no source record
 * at or after from before w is pending for line 2 (nothing to start at yet) and holds line 3
 * with 0 records on both sides; line 3 fails on a count that differs or a compared record that
 * does. */
void mm2_accept_started(const struct mm2_plan *p, const struct mm2_accept_part *v,
                        struct mm2_accept_line *l);
void mm2_accept_complete(const struct mm2_plan *p, const struct mm2_accept_part *v,
                         struct mm2_accept_line *l);

/* One poll of the observation: the connector's status and, summed over the planned partitions,
 * MM2's position (offset + 1, or the log start without one), the source log end, the lag. */
struct mm2_accept_sample {
    long at_ms; /* since the observation began */
    bool exists;
    enum mm2_cstate state;
    size_t tasks, tasks_running;
    char first_bad_task[96];
    int64_t position, log_end, lag;
};

/* Line 4 from the n samples (at least the first and the last), over observe_ms. */
void mm2_accept_running(const struct mm2_accept_sample *s, size_t n, long observe_ms,
                        struct mm2_accept_line *l);

/* GET /connectors?expand=info, strictly: each connector's name and connector.class. */
struct mm2_accept_class {
    char *name;
    char *cls;
};
struct mm2_accept_classes {
    struct mm2_accept_class *v;
    size_t n;
};
enum mm2_status mm2_accept_classes_parse(const char *body, size_t len,
                                         struct mm2_accept_classes *out, struct mm2_error *err);
void mm2_accept_classes_free(struct mm2_accept_classes *c);

/* The offset-syncs topic on one cluster. */
enum mm2_accept_syncs {
    MM2_ACCEPT_SYNCS_ABSENT,
    MM2_ACCEPT_SYNCS_EMPTY,   /* exists, nothing written (high watermark 0) */
    MM2_ACCEPT_SYNCS_WRITTEN, /* holds records */
    MM2_ACCEPT_SYNCS_DENIED,  /* the login may not Describe it: unknown */
};
struct mm2_accept_alone_in {
    const struct mm2_accept_classes *classes;
    const char *connect_version;    /* GET /'s */
    const char *topic;              /* mm2-offset-syncs.<target alias>.internal */
    enum mm2_accept_syncs syncs[2]; /* on the source, on the target */
    int64_t syncs_end[2];           /* their high watermarks when they exist */
};
/* Line 5. */
void mm2_accept_alone(const struct mm2_accept_alone_in *in, struct mm2_accept_line *l);

/* Line 6: for each of the plan's topics, the target's partition count now (partitions[i], -1
 * when it does not exist) and configs now (configs[i], NULL when they could not be read) against
 * the plan's target_partitions and target_configs (NULL: an export from before they were
 * recorded: the line fails, it cannot compare). */
void mm2_accept_topics(const struct mm2_plan *p, const int32_t *partitions,
                       const cJSON *const *configs, struct mm2_accept_line *l);

/* Whether every line holds. */
bool mm2_accept_ok(const struct mm2_accept *a);

/* The lines as a JSON array [{"line", "name", "check", "holds", "evidence", "fix"?}], or NULL
 * when out of memory. */
cJSON *mm2_accept_lines_json(const struct mm2_accept *a);

/* The Markdown report (malloc'd; NULL when out of memory): a title naming the connector and the
 * plan digest, when it was made, each line a row of a table with its evidence, then the fix of
 * each line that does not hold, and the verdict. */
char *mm2_accept_markdown(const struct mm2_accept *a, const char *connector,
                          const char *plan_digest, const char *created, long observe_ms);

#endif
