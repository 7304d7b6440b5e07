/*
 * preflight: the subcommand run before Flink is stopped and again just before export: it reads
 * the clusters and Connect with the INI's credentials and judges (lib/mm2_preflight.h) whether
 * the cutover can go on, each finding with the exact fix. Read-only: it creates, alters,
 * commits and PATCHes nothing (docs/ARCHITECTURE.md §3.4; mm2-offsets(1) PREFLIGHT).
 */
#ifndef JOBS_PREFLIGHT_H
#define JOBS_PREFLIGHT_H

#include "job.h"

int cmd_preflight(struct job *j, int argc, char **argv);

#endif
