/*
 * record: the subcommand "record": puts a file of this migration in the audit trail (trail.h),
 * one that mm2-offsets wrote while the trail could not be reached, or on another machine.
 *
 * A subcommand: calls the files below it, never another subcommand (job.h has the order of
 * jobs/); main.c calls it.
 */
#ifndef JOBS_RECORD_H
#define JOBS_RECORD_H

#include "job.h"

/* Runs "mm2-offsets record" with argv[0] the subcommand; returns its exit code
 * (docs/ARCHITECTURE.md §5, as its --help lists them). */
int cmd_record(struct job *j, int argc, char **argv);

#endif
