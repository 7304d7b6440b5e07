/* mm2_trail: the audit trail's records, their reassembly and what is missing (see mm2_trail.h). */
#include "mm2_trail.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define H_KIND "mm2kit.kind"
#define H_COMMAND "mm2kit.command"
#define H_FILE "mm2kit.file"
#define H_TIME "mm2kit.time"
#define H_SHA "mm2kit.sha256"
#define H_SEAL "mm2kit.seal"
#define H_SIZE "mm2kit.size"
#define H_PARTS "mm2kit.parts"
#define H_PART "mm2kit.part"

char *mm2_trail_key(const char *connector, const char *group)
{
    cJSON *o = cJSON_CreateObject();
    char *s = NULL;

    if (o != NULL && cJSON_AddStringToObject(o, "connector", connector) != NULL &&
        cJSON_AddStringToObject(o, "flink_group", group) != NULL)
        s = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    return s;
}

long mm2_trail_parts(long long size)
{
    if (size <= 0)
        return 1;
    return (long)((size + (long long)MM2_TRAIL_CHUNK - 1) / (long long)MM2_TRAIL_CHUNK);
}

bool mm2_trail_file_name_ok(const char *name)
{
    size_t n = strlen(name);

    if (n == 0 || n >= MM2_TRAIL_FILE_MAX || name[0] == '.')
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == '-'))
            return false;
    }
    return true;
}

static bool copy(char *dst, size_t cap, const char *src)
{
    size_t n = strlen(src);

    if (n >= cap)
        return false;
    memcpy(dst, src, n + 1);
    return true;
}

int mm2_trail_meta_make(struct mm2_trail_meta *m, const char *kind, const char *command,
                        const char *file, const char *time, const char *seal, const void *bytes,
                        size_t len)
{
    const char *base = file != NULL ? strrchr(file, '/') : NULL;

    memset(m, 0, sizeof(*m));
    base = base != NULL ? base + 1 : file;
    if (!copy(m->kind, sizeof(m->kind), kind) || !copy(m->command, sizeof(m->command), command) ||
        !copy(m->time, sizeof(m->time), time) ||
        !copy(m->seal, sizeof(m->seal), seal != NULL ? seal : "") ||
        (long long)len > MM2_TRAIL_DOC_MAX)
        return -1;
    if (base == NULL || !mm2_trail_file_name_ok(base))
        (void)snprintf(m->file, sizeof(m->file), "%s.out", command);
    else
        (void)copy(m->file, sizeof(m->file), base);
    m->size = (long long)len;
    m->parts = mm2_trail_parts(m->size);
    return mm2_digest_text(bytes, len, m->sha256);
}

void mm2_trail_headers(const struct mm2_trail_meta *m, long part, struct mm2_trail_headers *out)
{
    (void)snprintf(out->part, sizeof(out->part), "%ld", part);
    (void)snprintf(out->parts, sizeof(out->parts), "%ld", m->parts);
    (void)snprintf(out->size, sizeof(out->size), "%lld", m->size);
    out->kv[0] = (struct mm2_kv){H_KIND, m->kind};
    out->kv[1] = (struct mm2_kv){H_COMMAND, m->command};
    out->kv[2] = (struct mm2_kv){H_FILE, m->file};
    out->kv[3] = (struct mm2_kv){H_TIME, m->time};
    out->kv[4] = (struct mm2_kv){H_SHA, m->sha256};
    out->kv[5] = (struct mm2_kv){H_SEAL, m->seal};
    out->kv[6] = (struct mm2_kv){H_SIZE, out->size};
    out->kv[7] = (struct mm2_kv){H_PARTS, out->parts};
    out->kv[8] = (struct mm2_kv){H_PART, out->part};
}

/* A header's value as a NUL-terminated string of printable ASCII into dst (cap bytes). */
static bool header_text(const struct mm2_header *h, char *dst, size_t cap)
{
    if (h->value == NULL) { /* a null value: the seal of a document that has none */
        dst[0] = '\0';
        return true;
    }
    if (h->len >= cap)
        return false;
    for (size_t i = 0; i < h->len; i++)
        if (h->value[i] < 0x20 || h->value[i] > 0x7e)
            return false;
    memcpy(dst, h->value, h->len);
    dst[h->len] = '\0';
    return true;
}

static bool number(const char *s, long long max, long long *out)
{
    char *end;
    long long v;

    if (s[0] < '0' || s[0] > '9' || (s[0] == '0' && s[1] != '\0'))
        return false;
    errno = 0;
    v = strtoll(s, &end, 10);
    if (errno != 0 || *end != '\0' || v > max)
        return false;
    *out = v;
    return true;
}

bool mm2_trail_meta_read(const struct mm2_header *h, size_t n, struct mm2_trail_meta *m, long *part,
                         char *why, size_t whylen)
{
    char vals[MM2_TRAIL_HEADERS][MM2_TRAIL_FILE_MAX];
    bool seen[MM2_TRAIL_HEADERS] = {false};
    static const char *const names[MM2_TRAIL_HEADERS] = {H_KIND, H_SHA,     H_SEAL, H_SIZE, H_PARTS,
                                                         H_PART, H_COMMAND, H_FILE, H_TIME};
    long long size, parts, p;

    memset(m, 0, sizeof(*m));
    for (size_t i = 0; i < n; i++) {
        size_t k;
        for (k = 0; k < MM2_TRAIL_HEADERS && strcmp(h[i].name, names[k]) != 0; k++)
            ;
        if (k == MM2_TRAIL_HEADERS)
            continue;
        if (seen[k]) {
            (void)snprintf(why, whylen, "header %s is there twice", names[k]);
            return false;
        }
        seen[k] = true;
        if (!header_text(&h[i], vals[k], sizeof(vals[k]))) {
            (void)snprintf(why, whylen, "header %s is not printable text of at most %zu bytes",
                           names[k], sizeof(vals[k]) - 1);
            return false;
        }
    }
    for (size_t k = 0; k < MM2_TRAIL_HEADERS; k++)
        if (!seen[k]) {
            (void)snprintf(why, whylen, "header %s is missing", names[k]);
            return false;
        }
    if (!copy(m->kind, sizeof(m->kind), vals[0]) || strncmp(m->kind, "mm2kit.", 7) != 0 ||
        !copy(m->command, sizeof(m->command), vals[6]) ||
        !copy(m->time, sizeof(m->time), vals[8])) {
        (void)snprintf(why, whylen, "header %s, %s or %s is not what mm2-offsets writes", H_KIND,
                       H_COMMAND, H_TIME);
        return false;
    }
    if (!mm2_digest_valid(vals[1]) || (vals[2][0] != '\0' && !mm2_digest_valid(vals[2]))) {
        (void)snprintf(why, whylen, "header %s or %s is not sha256:<64 hex digits>", H_SHA, H_SEAL);
        return false;
    }
    (void)copy(m->sha256, sizeof(m->sha256), vals[1]);
    (void)copy(m->seal, sizeof(m->seal), vals[2]);
    if (!mm2_trail_file_name_ok(vals[7])) {
        (void)snprintf(why, whylen, "header %s \"%.60s\" is not a plain file name", H_FILE,
                       vals[7]);
        return false;
    }
    (void)copy(m->file, sizeof(m->file), vals[7]);
    if (!number(vals[3], MM2_TRAIL_DOC_MAX, &size) || !number(vals[4], 1L << 30, &parts) ||
        !number(vals[5], 1L << 30, &p) || parts != mm2_trail_parts(size) || p >= parts) {
        (void)snprintf(why, whylen,
                       "headers %s %.24s, %s %.24s and %s %.24s do not agree (at most %lld bytes "
                       "in chunks of %zu)",
                       H_SIZE, vals[3], H_PARTS, vals[4], H_PART, vals[5], MM2_TRAIL_DOC_MAX,
                       MM2_TRAIL_CHUNK);
        return false;
    }
    m->size = size;
    m->parts = (long)parts;
    *part = (long)p;
    return true;
}

/* ---- reading back ------------------------------------------------------------------------ */

static bool same_doc(const struct mm2_trail_meta *a, const struct mm2_trail_meta *b)
{
    return strcmp(a->sha256, b->sha256) == 0 && a->parts == b->parts && a->size == b->size &&
           strcmp(a->time, b->time) == 0 && strcmp(a->command, b->command) == 0;
}

static void end_doc(struct mm2_trail_asm *a, enum mm2_trail_state state, bool own,
                    struct mm2_trail_event *ev)
{
    a->cur.state = state;
    if (state == MM2_TRAIL_OK) {
        if (mm2_digest_end(&a->d, a->cur.got) != 0 || strcmp(a->cur.got, a->cur.m.sha256) != 0 ||
            a->cur.bytes != a->cur.m.size)
            a->cur.state = MM2_TRAIL_CORRUPT;
    } else {
        mm2_digest_abort(&a->d);
    }
    ev->own[ev->nended] = own;
    ev->ended[ev->nended++] = a->cur;
    a->open = false;
}

/* Appends the chunk to the open document, which it ends when it is the last part. */
static void take(struct mm2_trail_asm *a, const void *value, size_t len, struct mm2_trail_event *ev)
{
    a->cur.have++;
    a->cur.bytes += (long long)len;
    a->next++;
    if (!a->broken) {
        ev->append = true;
        (void)mm2_digest_update(&a->d, value, len);
    }
    if (a->next == a->cur.m.parts)
        end_doc(a, a->broken ? MM2_TRAIL_INCOMPLETE : MM2_TRAIL_OK, true, ev);
}

void mm2_trail_feed(struct mm2_trail_asm *a, const struct mm2_trail_meta *m, long part,
                    const void *value, size_t len, int64_t offset, struct mm2_trail_event *ev)
{
    memset(ev, 0, sizeof(*ev));
    if (a->open && same_doc(&a->cur.m, m)) {
        if (part < a->next)
            return; /* a repeat of a retried send */
        if (part == a->next) {
            take(a, value, len, ev);
            return;
        }
    }
    if (a->open)
        end_doc(a, MM2_TRAIL_INCOMPLETE, false, ev);
    memset(&a->cur, 0, sizeof(a->cur));
    a->cur.m = *m;
    a->cur.offset = offset;
    a->open = true;
    a->broken = part != 0;
    a->next = part;
    if (!a->broken) {
        ev->first = true;
        (void)mm2_digest_begin(&a->d);
    }
    take(a, value, len, ev);
}

void mm2_trail_finish(struct mm2_trail_asm *a, struct mm2_trail_event *ev)
{
    memset(ev, 0, sizeof(*ev));
    if (a->open)
        end_doc(a, MM2_TRAIL_INCOMPLETE, true, ev);
}

/* The steps a step presupposes: each needs a complete document of `before` (or of `alt`, when
 * set) earlier. */
static const struct {
    const char *step, *before, *why, *alt;
} NEEDS[] = {
    {"plan", "export", "a plan's C comes from an export"},
    {"apply", "plan", "apply imports a plan"},
    {"resume", "apply", "resume starts what apply imported and verified"},
    {"check", "resume", "check proves what resume (or an update) started", "update"},
    {"accept", "resume", "accept judges what resume started"},
    {"stop", "apply", "stop stops what apply created"},
    {"remove", "apply", "remove deletes what apply created"},
    {"rollback-plan", "stop", "rollback-plan reads the offsets of a stopped connector"},
};

size_t mm2_trail_missing(const struct mm2_trail_doc *docs, size_t n, struct mm2_refusals *r)
{
    size_t before = r->n;

    for (size_t i = 0; i < n; i++) {
        const struct mm2_trail_doc *d = &docs[i];
        if (d->state == MM2_TRAIL_INCOMPLETE)
            mm2_refuse(r,
                       "%s (%s) written by %s at %s, offset %lld: incomplete, %ld of %ld "
                       "chunks read; record the file again with 'mm2-offsets record' "
                       "[rule trail-whole]",
                       d->m.file, d->m.kind, d->m.command, d->m.time, (long long)d->offset, d->have,
                       d->m.parts);
        else if (d->state == MM2_TRAIL_CORRUPT)
            mm2_refuse(r,
                       "%s (%s) written by %s at %s, offset %lld: corrupt, its %lld bytes digest "
                       "to %s, not the %s recorded; record the file again with 'mm2-offsets "
                       "record' [rule trail-whole]",
                       d->m.file, d->m.kind, d->m.command, d->m.time, (long long)d->offset,
                       d->bytes, d->got[0] != '\0' ? d->got : "nothing", d->m.sha256);
    }
    for (size_t k = 0; k < sizeof(NEEDS) / sizeof(NEEDS[0]); k++) {
        size_t first = n; /* the first complete document of the step */
        bool found = false;
        for (size_t i = 0; i < n && first == n; i++)
            if (docs[i].state == MM2_TRAIL_OK && strcmp(docs[i].m.command, NEEDS[k].step) == 0)
                first = i;
        for (size_t i = 0; i < first && !found; i++)
            found = docs[i].state == MM2_TRAIL_OK &&
                    (strcmp(docs[i].m.command, NEEDS[k].before) == 0 ||
                     (NEEDS[k].alt != NULL && strcmp(docs[i].m.command, NEEDS[k].alt) == 0));
        if (first < n && !found)
            mm2_refuse(r,
                       "missing: no complete record of %s before the %s of %s (%s, %s): %s; "
                       "record its file with 'mm2-offsets record' if you still have it "
                       "[rule trail-missing]",
                       NEEDS[k].before, NEEDS[k].step, docs[first].m.time, docs[first].m.file,
                       docs[first].m.kind, NEEDS[k].why);
    }
    return r->n - before;
}
