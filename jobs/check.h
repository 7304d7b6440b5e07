/*
 * check: the subcommand "check": after resume, the first records MM2 wrote against the source from
 * C, and Flink's last write before the boundary.
 *
 * A subcommand: calls the files below it, never another subcommand (job.h has the order of
 * jobs/); main.c calls it.
 */
#ifndef JOBS_CHECK_H
#define JOBS_CHECK_H

#include "job.h"

/* Runs "mm2-offsets check" with argv[0] the subcommand; returns its exit code
 * (docs/ARCHITECTURE.md §5, as its --help lists them). */
int cmd_check(struct job *j, int argc, char **argv);

#endif
