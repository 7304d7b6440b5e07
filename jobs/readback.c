/* readback: the connector's offsets as Connect lists them, read until two reads agree (see
 * readback.h). */
#include "readback.h"

#include <string.h>

#include "mm2_verify.h"

/* The second read follows the first at once: Worker.sourceConnectorOffsets lists the partitions
 * from the worker's in-memory view and then reads the offsets topic to its end
 * (KafkaOffsetBackingStore.get), so once a read has returned, the view holds every record
 * written before it began, and the next read lists them all. Only a writer still at work can
 * make that read differ again; from then on the reads are paced, not to load the worker with
 * back-to-back reads of every partition. */
#define FIRST_GAP_MS 20L
#define STABLE_GAP_MS 250L

enum mm2_status job_read_offsets(struct job *j, const char *name, const struct mm2_plan *plan,
                                 struct mm2_source_offsets *out, struct mm2_error *err)
{
    struct mm2_source_offsets prev = {0};
    struct mm2_deadline dl;
    int reads = 0;

    mm2_deadline_start(&dl, j->cfg.retry_budget_ms);
    for (;;) {
        long t = mm2_deadline_now_ms();
        enum mm2_status st = mm2_connect_offsets(j->connect, name, out, err);
        mm2_log_debug(&j->log, "GET /connectors/%s/offsets: %zu offsets in %ld ms", name,
                      st == MM2_OK ? out->n : 0, mm2_deadline_now_ms() - t);
        if (st != MM2_OK) {
            mm2_source_offsets_free(&prev);
            return st;
        }
        if (++reads > 1 && mm2_verify_offsets_equal(&prev, out))
            break;
        if (plan != NULL && mm2_verify_offsets_are_plan(plan, out))
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
