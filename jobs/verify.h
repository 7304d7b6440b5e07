/*
 * verify: the subcommand "verify": the connector's offsets read back and compared with the plan.
 *
 *
 * A subcommand: calls the files below it, never another subcommand (job.h has the order of
 * jobs/); main.c calls it.
 */
#ifndef JOBS_VERIFY_H
#define JOBS_VERIFY_H

#include "job.h"

/* Runs "mm2-offsets verify" with argv[0] the subcommand; returns its exit code
 * (docs/ARCHITECTURE.md §5, as its --help lists them). */
int cmd_verify(struct job *j, int argc, char **argv);

#endif
