/*
 * plan: the subcommand "plan": an export turned into M = C - 1 under every safety rule, or refused.
 *
 *
 * A subcommand: calls the files below it, never another subcommand (job.h has the order of
 * jobs/); main.c calls it.
 */
#ifndef JOBS_PLAN_H
#define JOBS_PLAN_H

#include "job.h"

/* Runs "mm2-offsets plan" with argv[0] the subcommand; returns its exit code
 * (docs/ARCHITECTURE.md §5, as its --help lists them). */
int cmd_plan(struct job *j, int argc, char **argv);

#endif
