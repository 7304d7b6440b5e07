/* readback: the connector's offsets as Connect lists them, read until two reads agree (see
 * readback.h). */
#include "readback.h"

#include <stdbool.h>
#include <string.h>

/* The second read follows the first at once: Worker.sourceConnectorOffsets lists the partitions
 * from the worker's in-memory view and then reads the offsets topic to its end
 * (KafkaOffsetBackingStore.get), so once a read has returned, the view holds every record
 * written before it began, and the next read lists them all. Only a writer still at work can
 * make that read differ again; from then on the reads are paced, not to load the worker with
 * back-to-back reads of every partition. */
#define FIRST_GAP_MS 20L
#define STABLE_GAP_MS 250L

static bool offsets_equal(const struct mm2_source_offsets *a, const struct mm2_source_offsets *b)
{
    if (a->n != b->n)
        return false;
    for (size_t i = 0; i < a->n; i++)
        if (a->v[i].partition != b->v[i].partition || a->v[i].offset != b->v[i].offset ||
            strcmp(a->v[i].topic, b->v[i].topic) != 0 ||
            strcmp(a->v[i].cluster, b->v[i].cluster) != 0)
            return false;
    return true;
}

/* o is exactly what the plan writes: its offsets, its nulls absent, nothing else. */
static bool offsets_are_plan(const struct mm2_plan *plan, const struct mm2_source_offsets *o)
{
    size_t want = 0;

    for (size_t i = 0; i < plan->n; i++) {
        const struct mm2_pentry *e = &plan->entries[i];
        const struct mm2_source_offset *f =
            mm2_source_offsets_find(o, plan->alias, e->topic, e->partition);

        if (e->action == MM2_ACT_OFFSET ? f == NULL || f->offset != e->m : f != NULL)
            return false;
        want += e->action == MM2_ACT_OFFSET;
    }
    return o->n == want; /* the plan's partitions are distinct: nothing else is listed */
}

enum mm2_status job_read_offsets(struct job *j, const char *name, const struct mm2_plan *plan,
                                 struct mm2_source_offsets *out, struct mm2_error *err)
{
    struct mm2_source_offsets prev = {0};
    struct mm2_deadline dl;
    int reads = 0;

    mm2_deadline_start(&dl, j->cfg.retry_budget_ms);
    for (;;) {
        long t = mm2_now_ms();
        enum mm2_status st = mm2_connect_offsets(j->connect, name, out, err);
        mm2_log_debug(&j->log, "GET /connectors/%s/offsets: %zu offsets in %ld ms", name,
                      st == MM2_OK ? out->n : 0, mm2_now_ms() - t);
        if (st != MM2_OK) {
            mm2_source_offsets_free(&prev);
            return st;
        }
        if (++reads > 1 && offsets_equal(&prev, out))
            break;
        if (plan != NULL && offsets_are_plan(plan, out))
            break;
        if (mm2_deadline_expired(&dl)) {
            job_warn(j,
                     "the offsets Connect lists for %s still changed after %d reads in %ld ms; "
                     "using the last one",
                     name, reads, j->cfg.retry_budget_ms);
            break;
        }
        if (reads > 1)
            job_info(j,
                     "connector %s: %zu offsets listed, %zu the read before: the worker is "
                     "still reading its offsets topic; reading again",
                     name, out->n, prev.n);
        mm2_source_offsets_free(&prev);
        prev = *out;
        memset(out, 0, sizeof(*out));
        job_sleep_ms(reads == 1 ? FIRST_GAP_MS : STABLE_GAP_MS);
    }
    mm2_source_offsets_free(&prev);
    return MM2_OK;
}
