/* mm2_policy: the INI's [policy] keys and the checks against them (see mm2_policy.h). */
#include "mm2_policy.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "mm2_parse.h"
#include "mm2_plan.h"
#include "mm2_problems.h"
#include "mm2_refusal.h"

void mm2_policy_defaults(struct mm2_policy *pol)
{
    pol->max_pause_s = 0;
    pol->max_dup_partition = MM2_POLICY_NO_LIMIT;
    pol->max_dup_total = MM2_POLICY_NO_LIMIT;
    pol->rollback_window_days = 30;
}

void mm2_policy_key(struct mm2_policy *pol, struct mm2_policy_seen *seen, const char *file,
                    const char *key, const char *value, struct mm2_problems *p)
{
    static const struct {
        const char *key, *what;
        long min, max;
        size_t seen, field;
    } keys[] = {
        {"max.pause.seconds", "seconds: the longest pause from the plan to resume, 0 for none", 0,
         604800, offsetof(struct mm2_policy_seen, pause), offsetof(struct mm2_policy, max_pause_s)},
        {"max.duplicates.per.partition", "records MM2 may copy again on one partition", 0,
         1000000000L, offsetof(struct mm2_policy_seen, dup_partition),
         offsetof(struct mm2_policy, max_dup_partition)},
        {"max.duplicates.total", "records MM2 may copy again over all partitions", 0, 1000000000L,
         offsetof(struct mm2_policy_seen, dup_total), offsetof(struct mm2_policy, max_dup_total)},
        {"rollback.window.days", "days a rollback must stay possible", 1, 366,
         offsetof(struct mm2_policy_seen, window),
         offsetof(struct mm2_policy, rollback_window_days)},
    };

    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
        bool *given = (bool *)((char *)seen + keys[i].seen);
        long *dst = (long *)((char *)pol + keys[i].field);
        if (strcmp(key, keys[i].key) != 0)
            continue;
        if (*given) {
            mm2_problems_add(p, "%s: [policy] %s is given twice; give it once", file, key);
        } else if (mm2_parse_long(value, keys[i].min, keys[i].max, dst) != 0) {
            mm2_problems_add(p,
                             "%s: [policy] %s must be a whole number from %ld to %ld (%s), got "
                             "\"%.40s\"",
                             file, key, keys[i].min, keys[i].max, keys[i].what, value);
        }
        *given = true;
        return;
    }
    mm2_problems_add(p,
                     "%s: [policy] has no key \"%.60s\"; the keys are max.pause.seconds, "
                     "max.duplicates.per.partition, max.duplicates.total, rollback.window.days",
                     file, key);
}

size_t mm2_policy_duplicates(const struct mm2_policy *pol, const struct mm2_plan *plan,
                             struct mm2_refusals *r)
{
    size_t refused = 0;
    long long total = 0;

    for (size_t i = 0; i < plan->n; i++) {
        const struct mm2_pentry *e = &plan->entries[i];
        total += e->duplicates;
        if (pol->max_dup_partition == MM2_POLICY_NO_LIMIT ||
            e->duplicates <= pol->max_dup_partition)
            continue;
        mm2_refuse(r,
                   "%s-%d: the target already holds %lld records past C=%lld (Flink wrote past "
                   "its committed offset), which MM2 would copy again: more than [policy] "
                   "max.duplicates.per.partition = %ld; have the duplicates accepted (raise it) "
                   "or remove them from the target first [rule duplicates]",
                   e->topic, (int)e->partition, (long long)e->duplicates, (long long)e->c,
                   pol->max_dup_partition);
        refused++;
    }
    if (pol->max_dup_total != MM2_POLICY_NO_LIMIT && total > pol->max_dup_total) {
        mm2_refuse(r,
                   "%lld boundary duplicates over %zu partitions: more than [policy] "
                   "max.duplicates.total = %ld; have the duplicates accepted (raise it) or "
                   "remove them from the target first [rule duplicates]",
                   total, plan->n, pol->max_dup_total);
        refused++;
    }
    return refused;
}

long long mm2_policy_pause_s(const char *created, long long now_s)
{
    struct tm tm = {0};
    const char *end;

    if (created == NULL || (end = strptime(created, "%Y-%m-%dT%H:%M:%S", &tm)) == NULL)
        return -1;
    /* Fractions of a second, if any, then the Z of UTC. */
    if (*end == '.')
        for (end++; *end >= '0' && *end <= '9'; end++)
            ;
    if (strcmp(end, "Z") != 0)
        return -1;
    return now_s - (long long)timegm(&tm);
}

bool mm2_policy_pause_text(const struct mm2_policy *pol, long long pause_s, char *buf, size_t len)
{
    buf[0] = '\0';
    if (pol->max_pause_s == 0 || pause_s < 0)
        return false;
    if (pause_s > pol->max_pause_s) {
        (void)snprintf(buf, len,
                       "the pause is %lld s since the plan was made (longer since Flink "
                       "stopped), more than [policy] max.pause.seconds = %ld: the agreed pause "
                       "is exceeded; resuming now ends it, so tell whoever agreed to it",
                       pause_s, pol->max_pause_s);
        return true;
    }
    (void)snprintf(buf, len,
                   "the pause is %lld s since the plan was made, within [policy] "
                   "max.pause.seconds = %ld",
                   pause_s, pol->max_pause_s);
    return false;
}
