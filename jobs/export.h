/*
 * export: the subcommand "export": the Flink group's C, the logs and the target, read twice, and
 * Flink's side of the boundary, into the export artifact.
 *
 * A subcommand: calls the files below it, never another subcommand (job.h has the order of
 * jobs/); main.c calls it.
 */
#ifndef JOBS_EXPORT_H
#define JOBS_EXPORT_H

#include "job.h"

/* Runs "mm2-offsets export" with argv[0] the subcommand; returns its exit code
 * (docs/ARCHITECTURE.md §5, as its --help lists them). */
int cmd_export(struct job *j, int argc, char **argv);

#endif
