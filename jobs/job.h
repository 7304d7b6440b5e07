/*
 * job: one run of an mm2-offsets subcommand: its state (struct job: the INI file and connector
 * JSON once loaded, the clients once opened), what it says on stderr, its clock, and its end.
 *
 * The files of jobs/ call one way, each only the ones above it here (scripts/layer-check):
 *   job.c                                  the run itself: calls lib/ only
 *   options.c clients.c                    a subcommand's tools: job.c at most
 *   trail.c                                (the audit trail's writes: clients.c)
 *   report.c                               (a report sealed, written, recorded: trail.c)
 *   bind.c readback.c recheck.c stopped.c  reads and checks: the tools
 *   tconfigs.c                             (the target topics' configs: export and accept)
 *   pfread.c pfversions.c                  (preflight's shared reads and output)
 *   pfretention.c                          (preflight's retention headroom)
 *   load.c compare.c past.c pfworkers.c    steps a subcommand takes: all of the above
 *   change.c                               (diff's comparison: diff and update)
 *   upplan.c                               (an update's plan: change.c)
 *   trailread.c                            (the audit trail read back: trail.c)
 *   acceptread.c                           (accept's reads of the clusters)
 *   accept.c apply.c check.c diff.c export.c plan.c preflight.c record.c remove.c resume.c
 *   rollback.c status.c stop.c update.c verify.c
 *                                          the subcommands: all of the above, never each other
 *   main.c                                 the table of subcommands
 * The decisions they act on are lib/'s pure functions (mm2_plan, mm2_binding, mm2_recheck,
 * mm2_verify, mm2_past, mm2_rollback, mm2_check, mm2_preflight, mm2_accept, mm2_change,
 * mm2_upstart), unit-tested there: jobs/ reads arguments and artifacts, calls Kafka and Connect,
 * and prints.
 *
 * Contract:
 *   - struct job is main's; subcommands borrow it. job_free releases whatever was opened.
 *   - A subcommand returns an exit code of docs/ARCHITECTURE.md §5. It prints its own diagnostics
 *     through j->log (stderr, one line each, secrets redacted) and its data on stdout.
 */
#ifndef JOBS_JOB_H
#define JOBS_JOB_H

#include <stdbool.h>
#include <stddef.h>

#include "mm2_config.h"
#include "mm2_connect.h"
#include "mm2_connector.h"
#include "mm2_err.h"
#include "mm2_kafka.h"
#include "mm2_log.h"
#include "mm2_refusal.h"
#include "mm2_topics.h"

#define PROG "mm2-offsets"

struct job {
    const char *cmd; /* the subcommand, for messages */
    struct mm2_log log;
    char log_prog[64]; /* "mm2-offsets: apply" */
    struct mm2_config cfg;
    bool cfg_loaded;
    struct mm2_connector conn;
    struct mm2_connect *connect;
    struct mm2_kafka *source;
    struct mm2_kafka *target;
    struct mm2_mirror *mirror;
    bool curl_up;
    long waited_ms;           /* time spent waiting on purpose (export's --stable-wait) */
    char connect_version[64]; /* GET /'s version, once job_recheck has read it */
    bool trail_ready;         /* the trail's topic found fit (or the trail off): trail.c */
    bool trail_failed;        /* job_report wrote and printed, but could not record */
};

/* Progress and notes on stderr (info level). */
void job_info(struct job *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void job_warn(struct job *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Prints err as one error line; returns its code. */
int job_fail(struct job *j, const struct mm2_error *err);
/* Prints each refusal as "refused: ..." and a closing line; returns 1. */
int job_refused(struct job *j, const struct mm2_refusals *r, const char *what_not_done);
/* One usage error line, "Try 'mm2-offsets CMD --help'.", and exit code 2. */
int job_usage_error(struct job *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A debug line "WHAT: N ms" for the time since *since_ms, which then becomes now. */
void job_phase(struct job *j, const char *what, long *since_ms);
/* The closing progress line: wall time, the part of it spent waiting on purpose, and the
 * Kafka and REST requests sent (the benchmark reads it). */
void job_summary(struct job *j, long started_ms, int rc);

/* Sleeps ms milliseconds (signals do not cut it short). */
void job_sleep_ms(long ms);
/* "2026-12-02T15:30:04Z" into buf (>= 21 bytes). */
void job_utc_now(char *buf, size_t len);
/* "20261202T153004Z" into buf (>= 17 bytes), for default file names. */
void job_utc_stamp(char *buf, size_t len);

void job_free(struct job *j);

#endif
