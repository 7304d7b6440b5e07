/*
 * mm2_plan_bnd: the plan's rules for Flink's side of the boundary (see mm2_plan.h,
 * mm2_plan_bnd_rules): what the export found when it placed the target's tail among the source
 * records around C, and what the operator said about it.
 */
#include <stdio.h>
#include <string.h>

#include "mm2_plan.h"

/* The index of the option naming topic-partition, or -1. */
static long named(const struct mm2_tpref *refs, size_t n, const char *topic, int32_t partition)
{
    for (size_t i = 0; i < n; i++)
        if (refs[i].partition == partition && strcmp(refs[i].topic, topic) == 0)
            return (long)i;
    return -1;
}

/* "target offsets A..B (N records)" of the tail, into buf. */
static void tail_text(const struct mm2_bnd_result *b, char *buf, size_t len)
{
    (void)snprintf(buf, len, "its last %zu records (target offsets %lld..%lld)", b->tail_len,
                   (long long)b->tail_first, (long long)b->tail_last);
}

/* The refusal for a tail that is not placed: the evidence, never the bytes. */
static void refuse_unplaced(const struct mm2_xpart *p, const struct mm2_bnd_result *b,
                            struct mm2_refusals *r)
{
    const char *t = p->topic;
    int n = (int)p->partition;
    long long c = (long long)p->committed[1];
    char tail[96], diff[160] = "";

    tail_text(b, tail, sizeof(tail));
    if (b->mismatch_target >= 0 && b->mismatch_source >= 0)
        (void)snprintf(diff, sizeof(diff),
                       ": target offset %lld (digest %s) differs from source offset %lld "
                       "(digest %s)",
                       (long long)b->mismatch_target, b->mismatch_target_digest,
                       (long long)b->mismatch_source, b->mismatch_source_digest);
    else if (b->mismatch_target >= 0)
        (void)snprintf(diff, sizeof(diff),
                       ": target offset %lld (digest %s) has no source record to compare",
                       (long long)b->mismatch_target, b->mismatch_target_digest);
    switch (b->cls) {
    case MM2_BND_UNPLACED:
        if (b->tail_len == 0)
            mm2_refuse(r,
                       "%s-%d: the target partition is empty while C=%lld: Flink's copy of this "
                       "partition is not there (Flink wrote other partitions or topics?); MM2 "
                       "keeps partitions, so it cannot take over as is; if you know why, record "
                       "it with --accept-unplaced %s:%d [rule flink-partitioning]",
                       t, n, c, t, n);
        else
            mm2_refuse(r,
                       "%s-%d: %s match no place of source %lld..%lld around C=%lld%s; Flink "
                       "repartitioned, transformed, or another writer wrote there, and MM2 keeps "
                       "partitions; if you know why, record it with --accept-unplaced %s:%d "
                       "[rule flink-partitioning]",
                       t, n, tail, (long long)b->window_first, (long long)b->window_last, c, diff,
                       t, n);
        break;
    case MM2_BND_AMBIGUOUS:
        mm2_refuse(r,
                   "%s-%d: %s match %zu places of source %lld..%lld around C=%lld: they do not "
                   "say where Flink stopped; raise [flink] tail.records and export again, or "
                   "--accept-unplaced %s:%d [rule flink-ambiguous]",
                   t, n, tail, b->matches, (long long)b->window_first, (long long)b->window_last, c,
                   t, n);
        break;
    case MM2_BND_GONE:
        mm2_refuse(r,
                   "%s-%d: %s (C=%lld); what Flink copied cannot be compared, not guessed either; "
                   "--accept-unplaced %s:%d records that you checked it otherwise "
                   "[rule flink-window-gone]",
                   t, n, b->why, c, t, n);
        break;
    default: /* MM2_BND_UNREAD, and a class this version does not know */
        mm2_refuse(r,
                   "%s-%d: %s (C=%lld); raise [flink] tail.bytes and export again, or "
                   "--accept-unplaced %s:%d [rule flink-unread]",
                   t, n, b->why, c, t, n);
        break;
    }
}

bool mm2_plan_bnd_rules(const struct mm2_plan_input *in, const struct mm2_xpart *p, bool *gap_used,
                        bool *unplaced_used, struct mm2_pentry *e, struct mm2_refusals *r)
{
    const struct mm2_bnd_result *b = &p->boundary;
    const char *name = mm2_bnd_class_name(b->cls);
    long gap = named(in->start_at_gap, in->ngap, p->topic, p->partition);
    long accept = named(in->accept_unplaced, in->nunplaced, p->topic, p->partition);

    e->group_c = e->c;
    if (!p->boundary_read)
        return true;
    (void)snprintf(e->boundary, sizeof(e->boundary), "%s", name != NULL ? name : "?");
    /* An accepted loss: the records around C expired, so nothing can be placed, and the
     * operator already accepted what is gone. */
    if (e->action == MM2_ACT_LOSS)
        return true;
    switch (b->cls) {
    case MM2_BND_ALIGNED:
    case MM2_BND_EMPTY:
        return true;
    case MM2_BND_AHEAD:
        e->duplicates = (int64_t)b->k;
        return true;
    case MM2_BND_BEHIND:
        if (gap < 0 || e->action != MM2_ACT_OFFSET || b->resume_at < e->log_start) {
            char tail[96];
            tail_text(b, tail, sizeof(tail));
            mm2_refuse(r,
                       "%s-%d: the target ends %llu records before C=%lld: %s are source "
                       "%lld..%lld, so source %lld..%lld never reached it (the sink's last "
                       "transaction aborted?); MM2 would skip them: plan with --start-at-gap "
                       "%s:%d to copy them [rule flink-gap]",
                       p->topic, (int)p->partition, (unsigned long long)b->k, (long long)e->c, tail,
                       (long long)b->src_first, (long long)b->src_last, (long long)b->resume_at,
                       (long long)e->c - 1, p->topic, (int)p->partition);
            return false;
        }
        gap_used[gap] = true;
        e->gap = (int64_t)b->k;
        e->c = b->resume_at;
        e->m = b->resume_at - 1;
        if (e->m < 0) {
            e->action = MM2_ACT_RESET;
            e->m = -1;
        }
        return true;
    default:
        if (accept >= 0) {
            unplaced_used[accept] = true;
            return true;
        }
        refuse_unplaced(p, b, r);
        return false;
    }
}

void mm2_plan_bnd_unused(const struct mm2_plan_input *in, const bool *gap_used,
                         const bool *unplaced_used, struct mm2_refusals *r)
{
    for (size_t i = 0; i < in->ngap; i++)
        if (!gap_used[i])
            mm2_refuse(r,
                       "--start-at-gap %s:%d: the export did not find that partition behind C "
                       "(or it is not replicated); it is only for a target that lacks records "
                       "below C [rule start-at-gap]",
                       in->start_at_gap[i].topic, (int)in->start_at_gap[i].partition);
    for (size_t i = 0; i < in->nunplaced; i++)
        if (!unplaced_used[i])
            mm2_refuse(r,
                       "--accept-unplaced %s:%d: that partition's tail was placed (or it is not "
                       "replicated); it is only for a tail the export could not place "
                       "[rule accept-unplaced]",
                       in->accept_unplaced[i].topic, (int)in->accept_unplaced[i].partition);
}
