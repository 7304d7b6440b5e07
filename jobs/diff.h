/* diff: the connector JSON of the repository against the running connector, each change
 * classified by what it does to the stored offsets; read-only (docs/day-two.md). */
#ifndef JOBS_DIFF_H
#define JOBS_DIFF_H

#include "job.h"

int cmd_diff(struct job *j, int argc, char **argv);

#endif
