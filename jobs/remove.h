/*
 * remove: the subcommand "remove": the rollback before MM2 ever ran: the STOPPED connector that
 * still holds exactly the plan's offsets, its offsets and itself deleted.
 *
 * A subcommand: calls the files below it, never another subcommand (job.h has the order of
 * jobs/); main.c calls it.
 */
#ifndef JOBS_REMOVE_H
#define JOBS_REMOVE_H

#include "job.h"

/* Runs "mm2-offsets remove" with argv[0] the subcommand; returns its exit code
 * (docs/ARCHITECTURE.md §5, as its --help lists them). */
int cmd_remove(struct job *j, int argc, char **argv);

#endif
