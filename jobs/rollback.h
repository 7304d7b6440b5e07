/*
 * rollback: the subcommand "rollback-plan": the Flink group position C = M + 1 from MM2's offsets,
 * as a CSV, and committed with --commit.
 *
 * A subcommand: calls the files below it, never another subcommand (job.h has the order of
 * jobs/); main.c calls it.
 */
#ifndef JOBS_ROLLBACK_H
#define JOBS_ROLLBACK_H

#include "job.h"

/* Runs "mm2-offsets rollback-plan" with argv[0] the subcommand; returns its exit code
 * (docs/ARCHITECTURE.md §5, as its --help lists them). */
int cmd_rollback(struct job *j, int argc, char **argv);

#endif
