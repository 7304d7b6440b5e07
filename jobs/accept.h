/*
 * accept: the subcommand "accept": after resume, on the real clusters, the acceptance list
 * (lib/mm2_accept.h) checked line by line with its evidence, the report sealed (JSON) and
 * written as Markdown.
 *
 * A subcommand: calls the files below it, never another subcommand (job.h has the order of
 * jobs/); main.c calls it.
 */
#ifndef JOBS_ACCEPT_H
#define JOBS_ACCEPT_H

#include "job.h"

/* Runs "mm2-offsets accept" with argv[0] the subcommand; returns its exit code
 * (docs/ARCHITECTURE.md §5, as its --help lists them). */
int cmd_accept(struct job *j, int argc, char **argv);

#endif
