/*
 * apply: the subcommand "apply": re-checks the plan's facts, creates the connector STOPPED (or
 * finds it so), backs up its offsets, PATCHes the plan and verifies; never resumes.
 *
 * A subcommand: calls the files below it, never another subcommand (job.h has the order of
 * jobs/); main.c calls it.
 */
#ifndef JOBS_APPLY_H
#define JOBS_APPLY_H

#include "job.h"

/* Runs "mm2-offsets apply" with argv[0] the subcommand; returns its exit code
 * (docs/ARCHITECTURE.md §5, as its --help lists them). */
int cmd_apply(struct job *j, int argc, char **argv);

#endif
