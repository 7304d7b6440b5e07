/*
 * job: what every mm2-offsets subcommand shares: the parsed INI file and connector JSON, the
 * Connect and Kafka clients, progress lines (common.c); option parsing (options.c); the re-check
 * of a plan's facts that apply and resume both run (recheck.c, docs/ARCHITECTURE.md §3.4); the
 * read-back of the connector's offsets (readback.c) and their comparison with the plan
 * (verify.c).
 *
 * Contract:
 *   - struct job is main's; subcommands borrow it. job_free releases whatever was opened.
 *   - A subcommand returns an exit code of docs/ARCHITECTURE.md §5. It prints its own diagnostics
 * through j->log (stderr, one line each, secrets redacted) and its data on stdout.
 */
#ifndef JOBS_JOB_H
#define JOBS_JOB_H

#include <stdbool.h>
#include <stdio.h>

#include "mm2_cli.h"
#include "mm2_config.h"
#include "mm2_connect.h"
#include "mm2_connlive.h"
#include "mm2_err.h"
#include "mm2_kafka.h"
#include "mm2_log.h"
#include "mm2_plan.h"
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
};

typedef int (*job_cmd_fn)(struct job *j, int argc, char **argv);

/* The subcommands, one file each. */
int cmd_export(struct job *j, int argc, char **argv);
int cmd_plan(struct job *j, int argc, char **argv);
int cmd_apply(struct job *j, int argc, char **argv);
int cmd_verify(struct job *j, int argc, char **argv);
int cmd_resume(struct job *j, int argc, char **argv);
int cmd_status(struct job *j, int argc, char **argv);
int cmd_check(struct job *j, int argc, char **argv);
int cmd_rollback(struct job *j, int argc, char **argv);

/* Command-line options of a subcommand, parsed by job_options (options.c; getopt_long
 * underneath). */
enum job_opt_kind {
    JOB_OPT_STRING,  /* const char **: the argument */
    JOB_OPT_SECONDS, /* long *: milliseconds, from seconds with up to 3 decimals */
    JOB_OPT_FLAG,    /* bool *: set when given */
    JOB_OPT_LIST,    /* struct job_list *: every argument, in order */
};

#define JOB_LIST_MAX 1024

struct job_list {
    char *v[JOB_LIST_MAX];
    size_t n;
};

struct job_opt {
    const char *name; /* long name */
    char short_name;
    enum job_opt_kind kind;
    void *dst;
};

/* Parses argv (argv[0] is the subcommand) against opts plus -q/--quiet, -v/--verbose and
 * -h/--help. Returns 0 to go on, or an exit code: 2 after a usage error, 0 with *done set after
 * --help (usage printed to stdout). Required options are the caller's to check. */
int job_options(struct job *j, int argc, char **argv, const struct job_opt *opts, size_t nopts,
                void (*usage)(FILE *out), bool *done);

/* job_options for a subcommand that works on a plan: -c/--config FILE and -p/--plan FILE into
 * *config and *plan, then the subcommand's own options (at most 8); with loaded non-NULL, the
 * plan is then loaded into it (job_load_plan) unless --help was given. */
int job_plan_options(struct job *j, int argc, char **argv, const char **config, const char **plan,
                     const struct job_opt *own, size_t nown, void (*usage)(FILE *out),
                     struct mm2_plan *loaded, bool *done);

/* The end of a subcommand's --help: the options job_options adds (-q, -v, -h), their text at
 * column col like the subcommand's own options above them, a blank line, then the exit codes
 * (mm2_cli_exit_codes). */
void job_usage_end(FILE *out, int col, const struct mm2_exit_note *notes, size_t n);

/* One usage error line, "Try 'mm2-offsets CMD --help'.", and exit code 2. */
int job_usage_error(struct job *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Loads the INI file and the connector JSON it names; reports every problem; registers the
 * secrets for redaction. Returns 0 or the exit code (3). */
int job_load(struct job *j, const char *config_path);

/* The Connect client (after job_load). */
enum mm2_status job_connect(struct job *j, struct mm2_error *err);
/* The Kafka clients (after job_load); either may be skipped. */
enum mm2_status job_kafka(struct job *j, bool source, bool target, struct mm2_error *err);
/* The connector's topic filter and policy for Connect's Kafka version. */
enum mm2_status job_mirror(struct job *j, const char *kafka_version, struct mm2_error *err);

/* A deadline for one Kafka call: the [connect] request timeout. */
void job_kafka_deadline(const struct job *j, struct mm2_deadline *dl);

/* Prints err as one error line; returns its code. */
int job_fail(struct job *j, const struct mm2_error *err);
/* Prints each refusal as "refused: ..." and a closing line; returns 1. */
int job_refused(struct job *j, const struct mm2_refusals *r, const char *what_not_done);

/* Progress and notes on stderr (info level). */
void job_info(struct job *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void job_warn(struct job *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Sleeps ms milliseconds (signals do not cut it short). */
void job_sleep_ms(long ms);

/* "2026-12-02T15:30:04Z" into buf (>= 21 bytes). */
void job_utc_now(char *buf, size_t len);
/* "20261202T153004Z" into buf (>= 17 bytes), for default file names. */
void job_utc_stamp(char *buf, size_t len);

/* Reads and checks the plan artifact at path, and that it is this INI's migration's (job_bound:
 * exit 1 when not, before anything touches Connect). Returns 0 or the exit code. */
int job_read_plan(struct job *j, const char *path, struct mm2_plan *plan);

struct mm2_binding;

/* The artifact a (an "export" or a "plan", made when Connect ran kafka_version) against the
 * migration of the INI in use (bind.c, lib/mm2_binding.h): the [flink] group.id, both cluster
 * ids (pinned in the INI, or read from the clusters it names), the connector's name and config,
 * and the topic set. Each mismatch is one "refused:" line, then a closing line ending in
 * not_done. Returns 0 when it belongs, else the exit code (1; 3, 4 or 5 when a cluster id could
 * not be read). */
int job_bound(struct job *j, const char *what, const struct mm2_binding *a,
              const char *kafka_version, const char *not_done);

/* Adds the plan's migration to a backup or report, as its "migration" object. */
enum mm2_status job_add_migration(cJSON *report, const struct mm2_plan *plan,
                                  struct mm2_error *err);

/* The cluster ids pinned in the INI ([source] / [target] cluster.id) against the ids the
 * clusters answered: 0, or 3 after one error line per side that differs. */
int job_pins_hold(struct job *j, const char *source_id, const char *target_id);

/* Both at once, usage checked first: --config and --plan are required (exit 2 when missing),
 * then job_load and job_read_plan. Returns 0 or the exit code. */
int job_load_plan(struct job *j, const char *config, const char *plan_path, struct mm2_plan *plan);

/* The facts apply and resume re-check against the plan (docs/ARCHITECTURE.md §3.4): cluster ids of
 * source, target and Connect's group, the connector JSON's digest, partition counts, every topic
 * the connector would replicate being planned, and log start <= C. Refusals go into r. Returns
 * MM2_OK (look at r->n) or an error status with err set. */
enum mm2_status job_recheck(struct job *j, const struct mm2_plan *plan, struct mm2_refusals *r,
                            struct mm2_error *err);

/* The remedy for a connector whose status reads UNASSIGNED with zero tasks (format: one %s, the
 * connector's name). A status record written as a worker let the connector go can be resent
 * after a newer one and win (KafkaStatusBackingStore retries a failed write; a connector's, unlike
 * a task's, is not checked for staleness), e.g. across a restart of Connect's Kafka cluster. A
 * second PUT .../stop writes no status, since WorkerConnector.suspend returns at once when the
 * connector is already STOPPED; POST .../restart stops the connector and starts it again in its
 * target state, and a new instance writes that state (STOPPED, or RUNNING if it was resumed). */
#define JOB_STALE_STATUS                                                                           \
    "likely a stale status record (one can outlive a restart of Connect's Kafka cluster while "    \
    "the connector stays stopped, and PUT .../stop writes none for a connector already "           \
    "stopped): POST /connectors/%s/restart (the connector alone) makes its worker write its "      \
    "status afresh"

/* How the config Connect holds (live, with digest live_digest) differs from the plan's: "in 2
 * keys: tasks.max ("2" in the plan, "4" in Connect), ..." (mm2_cfgview_explain). Into buf. */
void job_config_differs(const struct mm2_plan *plan, const cJSON *live, const char *live_digest,
                        char *buf, size_t len);

/* Why a connector must be stopped, for job_stop_problem's why. */
#define JOB_STOP_WHY_WRITE "offsets can only be written to a STOPPED connector"
#define JOB_STOP_WHY_HOLD "the offsets move until the connector is stopped"

/* The problem, if any, of a connector not stopped as Connect decides it (mm2_connlive_read),
 * as one line into buf: "connector N is <how>, not STOPPED; <why>: PUT .../stop, <then> [rule
 * connector-state]" or its variants; true when there is one. For
 * UNASSIGNED with no task config, JOB_STALE_STATUS's remedy. Stale task statuses of a stopped
 * connector are an info line, not a problem; an absent connector is none either (the caller
 * knows what that means). apply, resume, verify and rollback-plan all judge by it. */
bool job_stop_problem(struct job *j, const char *name, const struct mm2_connlive *v,
                      const char *why, const char *then, char *buf, size_t len);

/* The connector's live state against the plan: exists with the plan's config digest, stopped
 * (job_stop_refuse). *exists tells whether it exists. Refusals go into r. */
enum mm2_status job_connector_stopped(struct job *j, const struct mm2_plan *plan, bool *exists,
                                      struct mm2_refusals *r, struct mm2_error *err);

/* GET /connectors/NAME/offsets until two reads agree (Connect lists partitions from the
 * worker's in-memory view of the offsets topic, which can lag a PATCH just made; the read after
 * a returned one lists all that was written before it, so the second read follows at once and
 * later ones 250 ms apart), at most the retry budget; then the last read, with a warning. With a
 * plan, a read that equals it exactly (every planned offset, no null entry listed, nothing else)
 * ends at once: the view has then read past every record the PATCH wrote, and a STOPPED connector
 * writes none. For a STOPPED connector. */
enum mm2_status job_read_offsets(struct job *j, const char *name, const struct mm2_plan *plan,
                                 struct mm2_source_offsets *out, struct mm2_error *err);

struct verify_result {
    size_t checked;
    size_t mismatches;           /* every mismatch line, the connector's own included */
    size_t partition_mismatches; /* of the checked partitions */
    cJSON *report;               /* the verify artifact (unsealed); owned */
};

/* GET offsets and compare with the plan (docs/ARCHITECTURE.md §2.1). Fills res; prints each
 * mismatch. Out of memory is an error, never a report with members missing (verify.c). */
enum mm2_status job_verify(struct job *j, const struct mm2_plan *plan, struct verify_result *res,
                           struct mm2_error *err);

/* The one error line after a comparison found mismatches: prefix, the counts, then "; not_done"
 * when not_done is not NULL. */
void job_verify_failed(struct job *j, const char *prefix, const struct verify_result *vr,
                       const char *not_done);

/* The closing progress line: wall time, the part of it spent waiting on purpose, and the
 * Kafka and REST requests sent (the benchmark reads it). */
void job_summary(struct job *j, long started_ms, int rc);

/* Seals report, writes it to path (when not NULL) and prints it on stdout. */
enum mm2_status job_report(const char *what, cJSON *report, const char *path,
                           struct mm2_error *err);

/* A debug line "WHAT: N ms" for the time since *since_ms, which then becomes now. */
void job_phase(struct job *j, const char *what, long *since_ms);

void job_free(struct job *j);

#endif
