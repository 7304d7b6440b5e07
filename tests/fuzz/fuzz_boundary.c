/*
 * libFuzzer target: the boundary classifier (lib/mm2_boundary.h). The input is decoded into C,
 * the options, a source window and a target tail over a small alphabet (so that tails match,
 * repeat and half-match), and every result is checked against what it claims: a placed tail
 * equals the source records it names, k counts the records between them and C, resume_at is
 * C or the record after the last one copied, and an unplaced or gone tail matches nowhere.
 * Any broken claim aborts: a wrong class is a finding like a crash.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mm2_boundary.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_RECS 96

static const char *const alphabet[] = {"a", "b", "c", "", "abc"};

/* One record from two bytes: the offset step (1..8) and the content (value, key, null flags,
 * timestamp, one header). */
static void decode(struct mm2_record *r, struct mm2_header *h, int64_t offset, uint8_t content)
{
    memset(r, 0, sizeof *r);
    r->offset = offset;
    if ((content & 0x80) == 0) {
        r->value = (unsigned char *)alphabet[content % 5];
        r->value_len = strlen(alphabet[content % 5]);
    }
    if ((content & 0x40) == 0) {
        r->key = (unsigned char *)alphabet[(content >> 3) % 3];
        r->key_len = 1;
    }
    r->timestamp = (content >> 5) & 1;
    h->name = (char *)"h";
    h->value = (unsigned char *)alphabet[(content >> 4) % 2];
    h->len = 1;
    r->headers = h;
    r->nheaders = 1;
}

static size_t count_between(const struct mm2_bnd_window *w, int64_t lo, int64_t hi)
{
    size_t n = 0;

    for (size_t i = 0; i < w->n; i++)
        n += w->recs[i].offset >= lo && w->recs[i].offset < hi;
    return n;
}

static void check(int64_t c, const struct mm2_record *tail, size_t t,
                  const struct mm2_bnd_window *w, const struct mm2_bnd_opts *o,
                  const struct mm2_bnd_result *r)
{
    if (mm2_bnd_class_name(r->cls) == NULL || r->tail_len != t)
        abort();
    if (r->cls == MM2_BND_ALIGNED || r->cls == MM2_BND_AHEAD || r->cls == MM2_BND_BEHIND) {
        size_t first = 0;

        if (r->matches != 1 || mm2_bnd_find(tail, t, w, o, NULL) != 1)
            abort();
        while (first < w->n && w->recs[first].offset != r->src_first)
            first++;
        if (first + t > w->n || w->recs[first + t - 1].offset != r->src_last)
            abort();
        for (size_t i = 0; i < t; i++)
            if (!mm2_bnd_equal(&tail[i], &w->recs[first + i], o))
                abort();
        if (r->cls == MM2_BND_ALIGNED &&
            (r->resume_at != c || r->src_last >= c || count_between(w, r->src_last + 1, c) != 0))
            abort();
        if (r->cls == MM2_BND_AHEAD &&
            (r->resume_at != c || r->src_last < c || count_between(w, c, r->src_last + 1) != r->k))
            abort();
        if (r->cls == MM2_BND_BEHIND && (r->resume_at != r->src_last + 1 || r->k == 0 ||
                                         count_between(w, r->src_last + 1, c) != r->k))
            abort();
        return;
    }
    if (r->resume_at != -1 || r->why[0] == '\0')
        abort();
    if ((r->cls == MM2_BND_UNPLACED || r->cls == MM2_BND_GONE) && t > 0 &&
        mm2_bnd_find(tail, t, w, o, NULL) != 0)
        abort();
    if (r->cls == MM2_BND_AMBIGUOUS && r->matches < 2)
        abort();
    if (r->cls == MM2_BND_EMPTY && t != 0)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct mm2_record src[FUZZ_RECS], tgt[FUZZ_RECS];
    static struct mm2_header srch[FUZZ_RECS], tgth[FUZZ_RECS];
    struct mm2_bnd_window w = {src, 0, 0, 0, false};
    struct mm2_bnd_opts o;
    struct mm2_bnd_result r;
    size_t n, t, pos = 5;
    int64_t c, off = 0;

    if (size < 5)
        return 0;
    c = data[0];
    o.headers = data[1] & 1;
    o.timestamps = (data[1] >> 1) & 1;
    w.compacted = (data[1] >> 2) & 1;
    w.from = data[2] % 64;
    w.log_start = data[3] % 64;
    n = (size_t)data[4] % FUZZ_RECS;
    for (size_t i = 0; i < n && pos + 1 < size; i++, pos += 2) {
        off += 1 + data[pos] % 8 * (data[pos] >> 7);
        decode(&src[w.n], &srch[w.n], w.from + off - 1, data[pos + 1]);
        w.n++;
    }
    /* The rest is the tail, one byte a record: its content (offsets just increase). */
    for (t = 0; t < FUZZ_RECS && pos < size; t++, pos++)
        decode(&tgt[t], &tgth[t], (int64_t)t, data[pos]);
    if (!mm2_bnd_classify(c, tgt, t, &w, &o, &r))
        abort(); /* the inputs keep the contract: never refused */
    check(c, tgt, t, &w, &o, &r);
    return 0;
}
