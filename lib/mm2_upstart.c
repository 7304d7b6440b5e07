/* mm2_upstart: where an update starts a partition (see mm2_upstart.h). */
#include "mm2_upstart.h"

#include <stdio.h>
#include <string.h>

static const char *const NAMES[] = {"flink", "earliest", "latest", "stored", "carry"};

bool mm2_start_mode_parse(const char *s, enum mm2_start_mode *out)
{
    for (size_t i = 0; s != NULL && i < MM2_START_CARRY; i++)
        if (strcmp(s, NAMES[i]) == 0) {
            *out = (enum mm2_start_mode)i;
            return true;
        }
    return false;
}

const char *mm2_start_mode_name(enum mm2_start_mode m)
{
    return (size_t)m < sizeof(NAMES) / sizeof(NAMES[0]) ? NAMES[m] : "?";
}

/* The start for the stored offset (stored, carry): its next record. */
static bool from_stored(enum mm2_start_mode mode, const struct mm2_start_facts *f, int64_t *c,
                        char *why, size_t len)
{
    if (f->stored < 0) {
        (void)snprintf(why, len, "Connect stores no offset for it to %s",
                       mode == MM2_START_CARRY ? "carry over" : "resume from");
        return false;
    }
    if (f->stored + 1 < f->log_start) {
        (void)snprintf(why, len,
                       "its stored offset %lld is below the log start %lld: the %lld records in "
                       "between have expired and would be lost without a word",
                       (long long)f->stored, (long long)f->log_start,
                       (long long)(f->log_start - f->stored - 1));
        return false;
    }
    if (f->stored + 1 > f->log_end) {
        (void)snprintf(why, len,
                       "its stored offset %lld is at or past the log end %lld: the offset is not "
                       "of this log (another cluster, or the topic deleted and created again)",
                       (long long)f->stored, (long long)f->log_end);
        return false;
    }
    if ((mode == MM2_START_STORED || f->target_end > 0) && !f->target_last_copy) {
        (void)snprintf(why, len,
                       "the target's last record is not the copy of the source record at its "
                       "stored offset %lld: the target moved since MM2 last copied it",
                       (long long)f->stored);
        return false;
    }
    *c = f->stored + 1;
    return true;
}

/* The start at Flink's committed offset. */
static bool from_flink(const struct mm2_start_facts *f, int64_t *c, char *why, size_t len)
{
    if (f->committed < 0) {
        (void)snprintf(why, len, "the Flink group committed no offset on it");
        return false;
    }
    if (f->target_end < 0) {
        (void)snprintf(why, len, "its target topic does not exist: Flink never wrote it there");
        return false;
    }
    if (f->committed < f->log_start || f->committed > f->log_end) {
        (void)snprintf(why, len,
                       "Flink's committed offset %lld is outside the source log [%lld, %lld]%s",
                       (long long)f->committed, (long long)f->log_start, (long long)f->log_end,
                       f->committed < f->log_start ? ": the records below the log start expired "
                                                     "before anyone copied them"
                                                   : "");
        return false;
    }
    if (f->committed > 0 && !f->target_last_copy) {
        (void)snprintf(why, len,
                       "the target's last record (of %lld) is not the copy of the source record "
                       "before Flink's committed offset %lld: Flink's sink and its offsets "
                       "disagree; plan this topic with the cutover's export and plan, which prove "
                       "the boundary record by record",
                       (long long)f->target_end, (long long)f->committed);
        return false;
    }
    *c = f->committed;
    return true;
}

bool mm2_start_entry(enum mm2_start_mode mode, const struct mm2_start_facts *f,
                     struct mm2_pentry *e, char *why, size_t len)
{
    int64_t c = 0;
    bool ok;

    why[0] = '\0';
    switch (mode) {
    case MM2_START_FLINK:
        ok = from_flink(f, &c, why, len);
        break;
    case MM2_START_EARLIEST:
        ok = true;
        c = f->log_start;
        break;
    case MM2_START_LATEST:
        ok = true;
        c = f->log_end;
        break;
    case MM2_START_STORED:
    case MM2_START_CARRY:
    default:
        ok = from_stored(mode, f, &c, why, len);
        break;
    }
    if (!ok)
        return false;
    if (c == 0 && f->reset_latest && f->log_end > 0) {
        (void)snprintf(why, len,
                       "a start at offset 0 is no stored offset, which MM2 reads as its "
                       "auto.offset.reset, latest in the connector: set it to earliest");
        return false;
    }
    e->c = c;
    e->group_c = c;
    e->m = c > 0 ? c - 1 : -1;
    e->action = c > 0 ? MM2_ACT_OFFSET : MM2_ACT_RESET;
    e->log_start = f->log_start;
    e->log_end = f->log_end;
    e->lost = 0;
    e->target_start = f->target_end > 0 ? f->target_end : 0;
    e->duplicates = 0;
    e->gap = 0;
    (void)snprintf(e->boundary, sizeof(e->boundary), "%s",
                   mode == MM2_START_EARLIEST || mode == MM2_START_LATEST ? "unplaced" : "");
    return true;
}

void mm2_start_consequence(enum mm2_start_mode mode, const struct mm2_start_facts *f, char *buf,
                           size_t len)
{
    bool flink = f->committed >= f->log_start && f->committed <= f->log_end;

    buf[0] = '\0';
    if (mode == MM2_START_EARLIEST && flink)
        (void)snprintf(buf, len,
                       "copies %lld records again (from the log start %lld to Flink's committed "
                       "offset %lld: Flink copied them)",
                       (long long)(f->committed - f->log_start), (long long)f->log_start,
                       (long long)f->committed);
    else if (mode == MM2_START_EARLIEST)
        (void)snprintf(buf, len, "copies all %lld records from the log start %lld",
                       (long long)(f->log_end - f->log_start), (long long)f->log_start);
    else if (mode == MM2_START_LATEST && flink)
        (void)snprintf(buf, len,
                       "never copies the %lld records from Flink's committed offset %lld to the "
                       "log end %lld",
                       (long long)(f->log_end - f->committed), (long long)f->committed,
                       (long long)f->log_end);
    else if (mode == MM2_START_LATEST)
        (void)snprintf(buf, len, "never copies the %lld records it holds (log end %lld)",
                       (long long)(f->log_end - f->log_start), (long long)f->log_end);
}
