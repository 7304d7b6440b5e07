/*
 * load: what a subcommand's command line names, read and checked: the INI file with the
 * connector JSON it names, and the plan, which must be this INI's migration's. Calls job.c,
 * options.c and bind.c (job.h has the order of jobs/).
 *
 * Contract: each returns 0 or an exit code of docs/ARCHITECTURE.md §5, after its own lines on
 * stderr (a missing --config or --plan is a usage error, 2). A plan read is the caller's to
 * free (mm2_plan_free), on success only.
 */
#ifndef JOBS_LOAD_H
#define JOBS_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "job.h"
#include "mm2_plan.h"
#include "options.h"

/* Loads the INI file and the connector JSON it names; reports every problem; registers the
 * secrets for redaction. Returns 0 or the exit code (3). */
int job_load(struct job *j, const char *config_path);

/* Reads and checks the plan artifact at path, and that it is this INI's migration's (job_bound:
 * exit 1 when not, before anything touches Connect). Returns 0 or the exit code. */
int job_read_plan(struct job *j, const char *path, struct mm2_plan *plan);

/* Both at once, usage checked first: --config and --plan are required (exit 2 when missing),
 * then job_load and job_read_plan. Returns 0 or the exit code. */
int job_load_plan(struct job *j, const char *config, const char *plan_path, struct mm2_plan *plan);

/* job_options for a subcommand that works on a plan: -c/--config FILE and -p/--plan FILE into
 * *config and *plan, then the subcommand's own options (at most 8); with loaded non-NULL, the
 * plan is then loaded into it (job_load_plan) unless --help was given. */
int job_plan_options(struct job *j, int argc, char **argv, const char **config, const char **plan,
                     const struct job_opt *own, size_t nown, void (*usage)(FILE *out),
                     struct mm2_plan *loaded, bool *done);

#endif
