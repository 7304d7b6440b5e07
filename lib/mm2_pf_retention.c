/* mm2_pf_retention: the retention headroom of C on the source, by retention.ms and, estimated,
 * by retention.bytes (see mm2_preflight.h); its findings go to mm2_preflight's list. */
#include "mm2_preflight.h"

#include <stdio.h>
#include <string.h>

#define HOUR_MS (3600LL * 1000)

long long mm2_pf_headroom(struct mm2_pf_findings *f, const struct mm2_pf_who *who,
                          const struct mm2_pf_headroom *h, int64_t now_ms, long margin_ms)
{
    char res[MM2_PF_RES_LEN], fix[MM2_PF_TEXT_LEN], b[MM2_PF_RES_LEN];
    long long left, need;

    (void)snprintf(res, sizeof(res), "Topic:%s", h->topic);
    if (h->retention_ms < 0)
        return LLONG_MAX;
    if (h->c < 0) {
        mm2_pf_add(f, "retention", MM2_PF_WARN, NULL, res, NULL,
                   "not checked: %s-%d has no committed offset in the Flink group (plan refuses "
                   "it [rule no-offset])",
                   h->topic, (int)h->partition);
        return -1;
    }
    if (h->c < h->log_start) {
        mm2_pf_add(f, "retention", MM2_PF_REFUSE, NULL, res, NULL,
                   "%s-%d: committed offset C=%lld is below the log start %lld already: the "
                   "records between are gone [rule expired]",
                   h->topic, (int)h->partition, (long long)h->c, (long long)h->log_start);
        return -1;
    }
    if (h->c >= h->log_end)
        return LLONG_MAX; /* nothing at C yet: the next record is written from now on */
    if (!h->has_ts) {
        mm2_pf_add(f, "retention", MM2_PF_WARN, NULL, res, NULL,
                   "not checked: %s-%d: no record found at or after C=%lld (transaction markers "
                   "or compacted offsets)",
                   h->topic, (int)h->partition, (long long)h->c);
        return -1;
    }
    left = (long long)h->ts_ms + h->retention_ms - (long long)now_ms;
    if (left >= margin_ms)
        return left;
    /* The age of the record at C, the margin and an hour, in whole hours. */
    need = ((long long)now_ms - h->ts_ms + margin_ms + HOUR_MS + HOUR_MS - 1) / HOUR_MS * HOUR_MS;
    mm2_pf_shell_word(b, sizeof(b), who->bootstrap);
    (void)snprintf(fix, sizeof(fix),
                   "kafka-configs.sh --bootstrap-server %s --alter --entity-type topics "
                   "--entity-name %s --add-config retention.ms=%lld",
                   b, h->topic, need);
    if (left <= 0)
        mm2_pf_add(f, "retention", MM2_PF_REFUSE, NULL, res, fix,
                   "%s-%d: the record at C=%lld (timestamp %lld) is older than retention.ms=%lld "
                   "already: its segment can be deleted at any moment, and C with it [rule "
                   "expired]",
                   h->topic, (int)h->partition, (long long)h->c, (long long)h->ts_ms,
                   h->retention_ms);
    else
        mm2_pf_add(f, "retention", MM2_PF_REFUSE, NULL, res, fix,
                   "%s-%d: the record at C=%lld (timestamp %lld) can leave the log in %lld s "
                   "(retention.ms=%lld), less than the margin of %ld s ([flink] "
                   "retention.margin.seconds): C could fall below the log start before the "
                   "cutover ends [rule expired]",
                   h->topic, (int)h->partition, (long long)h->c, (long long)h->ts_ms, left / 1000,
                   h->retention_ms, margin_ms / 1000);
    return -1;
}

#define MIB (1024.0 * 1024)
#define FAR_MS 1e15 /* about 31,000 years: the most an estimate says */

/* The message's opening: which partition, by which setting, as an estimate. */
#define BYTES_AT "%s-%d: retention.bytes=%lld (per partition), estimate: "

/* The kafka-configs.sh line setting retention.bytes to need bytes, rounded up to whole MiB and
 * above the topic's value. */
static void bytes_fix(char *fix, size_t len, const struct mm2_pf_who *who,
                      const struct mm2_pf_bytes *h, double need)
{
    char b[MM2_PF_RES_LEN];
    const double most = (double)(LLONG_MAX / (1024LL * 1024));
    const double least = (double)(h->retention_bytes / (1024LL * 1024) + 1);
    double mib = need / MIB;
    long long whole;

    mib = mib > least ? mib : least;
    mib = mib < most ? mib : most;
    whole = (long long)mib;
    whole += (double)whole < mib;
    mm2_pf_shell_word(b, sizeof(b), who->bootstrap);
    (void)snprintf(fix, len,
                   "kafka-configs.sh --bootstrap-server %s --alter --entity-type topics "
                   "--entity-name %s --add-config retention.bytes=%lld",
                   b, h->topic, whole * 1024LL * 1024);
}

long long mm2_pf_bytes_headroom(struct mm2_pf_findings *f, const struct mm2_pf_who *who,
                                const struct mm2_pf_bytes *h, long margin_ms)
{
    char res[MM2_PF_RES_LEN], fix[MM2_PF_TEXT_LEN];
    /* Offsets Kafka answered are never negative; should one be, there is no rate. */
    long long grown =
        h->log_end >= 0 && h->end_before >= 0 ? (long long)h->log_end - h->end_before : -1;
    long long behind = h->log_end > h->c ? (long long)h->log_end - (long long)h->c : 0;
    double size, kept, rate, left;

    (void)snprintf(res, sizeof(res), "Topic:%s", h->topic);
    if (h->retention_bytes < 0)
        return LLONG_MAX;
    if (h->c < 0) {
        mm2_pf_add(f, "retention-bytes", MM2_PF_WARN, NULL, res, NULL,
                   "not checked: %s-%d has no committed offset in the Flink group (plan refuses "
                   "it [rule no-offset])",
                   h->topic, (int)h->partition);
        return -1;
    }
    if (h->c < h->log_start) {
        mm2_pf_add(f, "retention-bytes", MM2_PF_REFUSE, NULL, res, NULL,
                   "%s-%d: committed offset C=%lld is below the log start %lld already: the "
                   "records between are gone [rule expired]",
                   h->topic, (int)h->partition, (long long)h->c, (long long)h->log_start);
        return -1;
    }
    if (h->interval_ms <= 0 || grown <= 0) {
        mm2_pf_add(f, "retention-bytes", MM2_PF_WARN, NULL, res, NULL,
                   "not checked: " BYTES_AT
                   "none: the log end %s %lld in the %ld.%03ld s between two reads, so there is "
                   "no produce rate to tell how soon C leaves the log; run preflight again while "
                   "the producers write, or with a longer --rate-wait",
                   h->topic, (int)h->partition, h->retention_bytes,
                   grown < 0 ? "went back to" : "stayed at", (long long)h->log_end,
                   h->interval_ms > 0 ? h->interval_ms / 1000 : 0,
                   h->interval_ms > 0 ? h->interval_ms % 1000 : 0);
        return -1;
    }
    if (h->records == 0) {
        mm2_pf_add(f, "retention-bytes", MM2_PF_WARN, NULL, res, NULL,
                   "not checked: " BYTES_AT
                   "none: no record was read at or after C=%lld to size the records by "
                   "(transaction markers, compacted offsets, a record above 64 KiB, or nothing "
                   "at C yet)",
                   h->topic, (int)h->partition, h->retention_bytes, (long long)h->c);
        return -1;
    }
    size = (double)h->record_bytes / (double)h->records + MM2_PF_RECORD_OVERHEAD;
    kept = (double)h->retention_bytes / size;
    rate = (double)grown * 1000.0 / (double)h->interval_ms;
    left = (kept - (double)behind) / rate * 1000.0;
    if (left >= (double)margin_ms)
        return left < FAR_MS ? (long long)left : (long long)FAR_MS;
    bytes_fix(fix, sizeof(fix), who, h,
              size * ((double)behind + rate * (double)(margin_ms + HOUR_MS) / 1000.0));
    if (left < 0)
        mm2_pf_add(f, "retention-bytes", MM2_PF_REFUSE, NULL, res, fix,
                   BYTES_AT "C=%lld is %lld records behind the log end, more than the about "
                            "%.0f records of about %.0f bytes (the %zu read at C, uncompressed, "
                            "and %d of framing each) it keeps: C can leave the log at the next "
                            "retention check [rule expired]",
                   h->topic, (int)h->partition, h->retention_bytes, (long long)h->c, behind, kept,
                   size, h->records, MM2_PF_RECORD_OVERHEAD);
    else
        mm2_pf_add(f, "retention-bytes", MM2_PF_REFUSE, NULL, res, fix,
                   BYTES_AT "it keeps about %.0f records of about %.0f bytes (the %zu read at "
                            "C, uncompressed, and %d of framing each); C=%lld is %lld records "
                            "behind the log end, which moved %.1f records/s over %ld.%03ld s: C "
                            "can leave the log in about %lld s, less than the margin of %ld s "
                            "([flink] retention.margin.seconds) [rule expired]",
                   h->topic, (int)h->partition, h->retention_bytes, kept, size, h->records,
                   MM2_PF_RECORD_OVERHEAD, (long long)h->c, behind, rate, h->interval_ms / 1000,
                   h->interval_ms % 1000, (long long)(left / 1000), margin_ms / 1000);
    return -1;
}
