/* update: day two, a change of the running connector through one path (docs/day-two.md). */
#ifndef JOBS_UPDATE_H
#define JOBS_UPDATE_H

#include "job.h"

int cmd_update(struct job *j, int argc, char **argv);

#endif
