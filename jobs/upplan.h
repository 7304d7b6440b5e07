/*
 * upplan: the plan of an update (docs/day-two.md, mm2-offsets update): the change diff found
 * (change.c), and for every partition the update starts, the offset it writes, each start the
 * operator's explicit choice and judged by lib/mm2_upstart on the partition's facts (the source
 * log, the Flink group's committed offset, Connect's stored offset, the target's last record).
 * The plan is an mm2_plan, so that the readback, check and the audit trail treat it as they treat
 * the cutover's; what only an update has goes into its "update" member. Calls the tools and
 * change.c (job.h has the order of jobs/).
 *
 * Contract: reads only; refusals go into r (the caller prints them); *plan and *update are the
 * caller's to free (mm2_plan_free, cJSON_Delete), also after a failure.
 */
#ifndef JOBS_UPPLAN_H
#define JOBS_UPPLAN_H

#include <cjson/cJSON.h>
#include <stdbool.h>

#include "change.h"
#include "job.h"
#include "mm2_plan.h"
#include "mm2_upstart.h"

/* --start TOPIC=MODE */
struct job_start {
    const char *topic;
    enum mm2_start_mode mode;
};

struct job_upplan_in {
    const struct job_change *ch;
    const struct job_start *starts;
    size_t nstarts;
    bool carry_over; /* --carry-over */
};

/* The plan of the change ch found, and its "update" member: {"from_config_digest",
 * "from_config" (the running config's view), "class", "changes", "starts" [{"topic", "mode",
 * "partitions", "copied_again", "never_copied"}], "carry_over" ({"from_alias", "to_alias"} or
 * null), "topics_removed"}. MM2_OK also when refused: r then holds why. */
enum mm2_status job_upplan(struct job *j, const struct job_upplan_in *in, struct mm2_plan *plan,
                           cJSON **update, struct mm2_refusals *r, struct mm2_error *err);

#endif
