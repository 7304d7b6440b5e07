/*
 * stop: the subcommand "stop": PUT /connectors/NAME/stop, wait until the connector is stopped as
 * Connect decides it, and report the offsets it holds.
 *
 * A subcommand: calls the files below it, never another subcommand (job.h has the order of
 * jobs/); main.c calls it.
 */
#ifndef JOBS_STOP_H
#define JOBS_STOP_H

#include "job.h"

/* Runs "mm2-offsets stop" with argv[0] the subcommand; returns its exit code
 * (docs/ARCHITECTURE.md §5, as its --help lists them). */
int cmd_stop(struct job *j, int argc, char **argv);

#endif
