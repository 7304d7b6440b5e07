/*
 * mm2_policy: the operator's answers to the open questions of the cutover, the INI's [policy]
 * section (docs/RUNBOOK.md, "Before you start"), and the checks the commands make against them.
 *
 *   max.pause.seconds             the longest pause the cutover may take, from the plan (made
 *                                 after the export proved Flink stopped) to resume; 0 (the
 *                                 default): not checked. 0 to 604800 (7 days). resume warns
 *                                 when it is exceeded, and says how much of it is used
 *                                 otherwise (a refusal would only make the pause longer).
 *   max.duplicates.per.partition  the most records MM2 may copy again on one partition (a
 *                                 boundary "ahead": Flink wrote past its committed C); plan
 *                                 refuses more [rule duplicates]. Not given: no limit, each one
 *                                 a warning. 0 to 1000000000.
 *   max.duplicates.total          the same over all partitions.
 *   rollback.window.days          how long a rollback must stay possible, so how long the
 *                                 artifacts and the audit trail are kept (30; 1 to 366).
 *
 * Contract: never prints, never exits; problems and refusals are one line each, naming the key,
 * the value and the fix.
 */
#ifndef MM2_POLICY_H
#define MM2_POLICY_H

#include <stdbool.h>
#include <stddef.h>

struct mm2_problems;
struct mm2_refusals;
struct mm2_plan;

#define MM2_POLICY_NO_LIMIT (-1L)

struct mm2_policy {
    long max_pause_s;          /* [policy] max.pause.seconds; 0: not checked */
    long max_dup_partition;    /* [policy] max.duplicates.per.partition; MM2_POLICY_NO_LIMIT */
    long max_dup_total;        /* [policy] max.duplicates.total; MM2_POLICY_NO_LIMIT */
    long rollback_window_days; /* [policy] rollback.window.days (30) */
};

/* Which keys were given (each once). */
struct mm2_policy_seen {
    bool pause, dup_partition, dup_total, window;
};

void mm2_policy_defaults(struct mm2_policy *pol);

/* One key of [policy] from file: sets pol, or adds one problem to p (an unknown key, a repeated
 * one, a value out of range). */
void mm2_policy_key(struct mm2_policy *pol, struct mm2_policy_seen *seen, const char *file,
                    const char *key, const char *value, struct mm2_problems *p);

/* The plan's boundary duplicates against the policy: one refusal per partition above
 * max.duplicates.per.partition, one for a total above max.duplicates.total [rule duplicates].
 * Returns how many refusals were added. */
size_t mm2_policy_duplicates(const struct mm2_policy *pol, const struct mm2_plan *plan,
                             struct mm2_refusals *r);

/* The pause so far: seconds from created (UTC, "YYYY-MM-DDTHH:MM:SSZ", an artifact's created)
 * to now_s (seconds since the epoch); -1 when created is not such a time. */
long long mm2_policy_pause_s(const char *created, long long now_s);

/* A line saying how the pause so far stands against max.pause.seconds, into buf; returns true
 * when it exceeds it (a warning), false otherwise (an information, or "" when not checked). */
bool mm2_policy_pause_text(const struct mm2_policy *pol, long long pause_s, char *buf, size_t len);

#endif
