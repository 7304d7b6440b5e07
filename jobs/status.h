/*
 * status: the subcommand "status": the connector's and its tasks' states, its offsets against the
 * plan and the lag.
 *
 * A subcommand: calls the files below it, never another subcommand (job.h has the order of
 * jobs/); main.c calls it.
 */
#ifndef JOBS_STATUS_H
#define JOBS_STATUS_H

#include "job.h"

/* Runs "mm2-offsets status" with argv[0] the subcommand; returns its exit code
 * (docs/ARCHITECTURE.md §5, as its --help lists them). */
int cmd_status(struct job *j, int argc, char **argv);

#endif
