/*
 * libFuzzer target: lib/mm2_trail, the audit trail read back. Its records come from a topic that
 * anyone with Write on it may fill, so the headers and values are untrusted. The input is a
 * sequence of records separated by 0x1e; in each, header lines "name:value" up to an empty line,
 * then the value's bytes. Each record's headers go through mm2_trail_meta_read and, when
 * accepted, the chunk through mm2_trail_feed; at the end mm2_trail_finish and mm2_trail_missing.
 * Findings besides crashes and leaks: a refusal without a reason, and a document said whole
 * whose bytes or size are not what its headers recorded.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mm2_trail.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_HEADERS 16
#define MAX_DOCS 64

static void judge(const struct mm2_trail_event *ev, struct mm2_trail_doc *docs, size_t *n)
{
    for (size_t i = 0; i < ev->nended; i++) {
        const struct mm2_trail_doc *d = &ev->ended[i];
        if (d->state == MM2_TRAIL_OK &&
            (strcmp(d->got, d->m.sha256) != 0 || d->bytes != d->m.size || d->have != d->m.parts))
            abort();
        if (*n < MAX_DOCS)
            docs[(*n)++] = *d;
    }
}

/* One record of [p, end): its headers into h (names NUL-terminated in place), its value. */
static void one(char *p, char *end, struct mm2_trail_asm *a, int64_t off,
                struct mm2_trail_doc *docs, size_t *n)
{
    struct mm2_header h[MAX_HEADERS];
    size_t nh = 0;
    struct mm2_trail_meta m;
    struct mm2_trail_event ev;
    long part;
    char why[200] = "";

    while (p < end && *p != '\n' && nh < MAX_HEADERS) {
        char *nl = memchr(p, '\n', (size_t)(end - p));
        char *colon = memchr(p, ':', (size_t)((nl != NULL ? nl : end) - p));
        if (nl == NULL || colon == NULL)
            break;
        *colon = '\0';
        h[nh].name = p;
        h[nh].value = (unsigned char *)colon + 1;
        h[nh].len = (size_t)(nl - colon - 1);
        nh++;
        p = nl + 1;
    }
    if (p < end && *p == '\n')
        p++;
    if (!mm2_trail_meta_read(h, nh, &m, &part, why, sizeof(why))) {
        if (why[0] == '\0')
            abort();
        return;
    }
    mm2_trail_feed(a, &m, part, p, (size_t)(end - p), off, &ev);
    judge(&ev, docs, n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *buf = malloc(size + 1);
    struct mm2_trail_asm a = {0};
    struct mm2_trail_event ev;
    struct mm2_trail_doc docs[MAX_DOCS];
    struct mm2_refusals r = {0};
    size_t n = 0;
    int64_t off = 0;
    char *p, *end;

    if (buf == NULL)
        return 0;
    memcpy(buf, data, size);
    buf[size] = '\0';
    p = buf;
    end = buf + size;
    while (p < end) {
        char *sep = memchr(p, 0x1e, (size_t)(end - p));
        char *stop = sep != NULL ? sep : end;
        one(p, stop, &a, off++, docs, &n);
        p = stop + (sep != NULL ? 1 : 0);
    }
    mm2_trail_finish(&a, &ev);
    judge(&ev, docs, &n);
    (void)mm2_trail_missing(docs, n, &r);
    mm2_refusals_free(&r);
    free(buf);
    return 0;
}
