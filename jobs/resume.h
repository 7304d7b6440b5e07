/*
 * resume: the subcommand "resume": the connector started, only with --approve PLAN-DIGEST, after
 * the plan's facts and offsets are checked again.
 *
 * A subcommand: calls the files below it, never another subcommand (job.h has the order of
 * jobs/); main.c calls it.
 */
#ifndef JOBS_RESUME_H
#define JOBS_RESUME_H

#include "job.h"

/* Runs "mm2-offsets resume" with argv[0] the subcommand; returns its exit code
 * (docs/ARCHITECTURE.md §5, as its --help lists them). */
int cmd_resume(struct job *j, int argc, char **argv);

#endif
