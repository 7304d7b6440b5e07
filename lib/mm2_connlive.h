/*
 * mm2_connlive: a connector as Connect itself counts it, read over REST with mm2_connect (its
 * task configs, then its status split by them), and the one judgement of "stopped" that every
 * command uses.
 *
 * Contract: never prints, never exits. mm2_connlive_read's errors are mm2_connect's. The rest is
 * pure and unit-tested.
 */
#ifndef MM2_CONNLIVE_H
#define MM2_CONNLIVE_H

#include <stddef.h>

#include "mm2_connect.h"

/*
 * Why (docs/ARCHITECTURE.md §4.1): Connect takes an offsets write only with target state STOPPED
 * and no task configs (DistributedHerder.modifyConnectorOffsetsChecks). REST shows the target
 * state only through the connector's status, which the worker running the connector writes once
 * it has stopped it (AbstractHerder.onStop), and the task configs through GET .../tasks. The task
 * entries of GET .../status come from the status topic instead, keyed by task id: the UNASSIGNED
 * record a worker writes as it lets a deleted connector's task go can land after the leader
 * removed the deleted connector's statuses (DistributedHerder.updateDeletedTaskStatus, at the end
 * of a rebalance), so a new connector of the same name lists it until a task of that id writes
 * again or the leader's next rebalance removes it. An entry with no task config
 * behind it is stale: counted apart, reported, never waited for. Every place that waits for or
 * checks "STOPPED with zero tasks", or waits for every task RUNNING, reads the connector so.
 */
enum mm2_connlive_stop {
    MM2_CONNLIVE_ABSENT, /* no such connector */
    MM2_CONNLIVE_DONE,   /* status STOPPED, no task config: Connect takes an offsets write */
    MM2_CONNLIVE_TASKS,  /* task configs remain: a task may run (the stop's rebalance, or live) */
    MM2_CONNLIVE_UNASSIGNED, /* status UNASSIGNED, no task config: the target state is unknown */
    MM2_CONNLIVE_OTHER,      /* RUNNING, PAUSED, FAILED, RESTARTING: not stopped */
};

struct mm2_connlive {
    struct mm2_connector_status s; /* GET .../status, its entries split by the config count */
    size_t task_configs;           /* GET .../tasks */
    enum mm2_connlive_stop stop;
};

/* The verdict alone, pure: from a status already split by the config count (s->ntasks counts
 * only entries with a config) and that count. */
enum mm2_connlive_stop mm2_connlive_judge(const struct mm2_connector_status *s,
                                          size_t task_configs);

/* GET .../tasks, then GET .../status split by its count, judged. A connector deleted between
 * the two reads is absent. */
enum mm2_status mm2_connlive_read(struct mm2_connect *c, const char *name, struct mm2_connlive *out,
                                  struct mm2_error *err);

/* One phrase for messages: "STOPPED with no task config", "STOPPED with no task config (1 stale
 * task status: task 0 UNASSIGNED on 10.0.0.7:8088)", "STOPPED with 2 task configs", "RUNNING
 * with 3 tasks", "absent". */
void mm2_connlive_describe(const struct mm2_connlive *v, char *buf, size_t len);

#endif
