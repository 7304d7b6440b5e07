/* mm2_boundary: the target's tail placed in the source window around C (see mm2_boundary.h). */
#include "mm2_boundary.h"

#include <openssl/evp.h>
#include <stdio.h>
#include <string.h>

/* NULL is a null (key, value, header value): it equals only NULL. */
static bool bytes_equal(const void *a, size_t alen, const void *b, size_t blen)
{
    if (a == NULL || b == NULL)
        return a == b;
    if (alen != blen)
        return false;
    return alen == 0 || memcmp(a, b, alen) == 0;
}

static bool headers_equal(const struct mm2_record *a, const struct mm2_record *b)
{
    if (a->nheaders != b->nheaders)
        return false;
    for (size_t i = 0; i < a->nheaders; i++) {
        const struct mm2_header *x = &a->headers[i], *y = &b->headers[i];
        const char *xn = x->name ? x->name : "", *yn = y->name ? y->name : "";

        if (strcmp(xn, yn) != 0 || !bytes_equal(x->value, x->len, y->value, y->len))
            return false;
    }
    return true;
}

bool mm2_bnd_equal(const struct mm2_record *a, const struct mm2_record *b,
                   const struct mm2_bnd_opts *opts)
{
    if (!bytes_equal(a->key, a->key_len, b->key, b->key_len) ||
        !bytes_equal(a->value, a->value_len, b->value, b->value_len))
        return false;
    if (opts != NULL && opts->timestamps && a->timestamp != b->timestamp)
        return false;
    if (opts != NULL && opts->headers && !headers_equal(a, b))
        return false;
    return true;
}

size_t mm2_bnd_find(const struct mm2_record *tail, size_t t, const struct mm2_bnd_window *w,
                    const struct mm2_bnd_opts *opts, size_t *end)
{
    size_t found = 0;

    if (t == 0 || w == NULL || w->n < t)
        return 0;
    /* Every end j with t - 1 <= j < n; t is capped by the caller, so this is O(n * t). */
    for (size_t j = t - 1; j < w->n; j++) {
        size_t i = 0;

        while (i < t && mm2_bnd_equal(&tail[t - 1 - i], &w->recs[j - i], opts))
            i++;
        if (i == t) {
            found++;
            if (end != NULL)
                *end = j;
        }
    }
    return found;
}

static void digest_bytes(EVP_MD_CTX *ctx, const void *p, size_t len)
{
    bool null = p == NULL;
    unsigned char lenb[9];
    uint64_t n = len;

    lenb[0] = null ? 1 : 0;
    for (int i = 0; i < 8; i++)
        lenb[1 + i] = (unsigned char)(n >> (56 - 8 * i));
    EVP_DigestUpdate(ctx, lenb, sizeof lenb);
    if (!null && len > 0)
        EVP_DigestUpdate(ctx, p, len);
}

void mm2_bnd_digest(const struct mm2_record *r, char out[MM2_BND_DIGEST_LEN + 1])
{
    static const char hex[] = "0123456789abcdef";
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();

    out[0] = '\0';
    if (ctx == NULL)
        return;
    if (EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) == 1) {
        unsigned char md[EVP_MAX_MD_SIZE];
        unsigned int mdlen = 0;

        digest_bytes(ctx, r->key, r->key_len);
        digest_bytes(ctx, r->value, r->value_len);
        if (EVP_DigestFinal_ex(ctx, md, &mdlen) == 1 && mdlen * 2 >= MM2_BND_DIGEST_LEN) {
            for (unsigned int i = 0; i < MM2_BND_DIGEST_LEN / 2; i++) {
                out[2 * i] = hex[md[i] >> 4];
                out[2 * i + 1] = hex[md[i] & 0x0f];
            }
            out[MM2_BND_DIGEST_LEN] = '\0';
        }
    }
    EVP_MD_CTX_free(ctx);
}

static const char *const class_names[] = {
    [MM2_BND_ALIGNED] = "aligned",   [MM2_BND_AHEAD] = "ahead",         [MM2_BND_BEHIND] = "behind",
    [MM2_BND_UNPLACED] = "unplaced", [MM2_BND_AMBIGUOUS] = "ambiguous", [MM2_BND_GONE] = "gone",
    [MM2_BND_EMPTY] = "empty",       [MM2_BND_UNREAD] = "unread",
};
#define CLASS_COUNT (sizeof class_names / sizeof class_names[0])

const char *mm2_bnd_class_name(enum mm2_bnd_class cls)
{
    if ((size_t)cls >= CLASS_COUNT)
        return NULL;
    return class_names[cls];
}

bool mm2_bnd_class_parse(const char *name, enum mm2_bnd_class *out)
{
    for (size_t i = 0; name != NULL && i < CLASS_COUNT; i++)
        if (strcmp(name, class_names[i]) == 0) {
            *out = (enum mm2_bnd_class)i;
            return true;
        }
    return false;
}

/* An offset gap inside the window, or between its first asked offset and its first record. */
static bool window_has_gap(const struct mm2_bnd_window *w)
{
    int64_t start = w->from > w->log_start ? w->from : w->log_start;

    if (w->n > 0 && w->recs[0].offset > start)
        return true;
    for (size_t i = 1; i < w->n; i++)
        if (w->recs[i].offset != w->recs[i - 1].offset + 1)
            return true;
    return false;
}

/* UNPLACED's evidence: the first tail record that differs from the source record it would be
 * were the tail aligned (ending just below C at window index idx_c - 1). */
static void mismatch_evidence(const struct mm2_record *tail, size_t t,
                              const struct mm2_bnd_window *w, size_t idx_c,
                              const struct mm2_bnd_opts *opts, struct mm2_bnd_result *out)
{
    size_t missing = t;

    for (size_t i = 0; i < t; i++) {
        /* The source record under tail[i]: idx_c - t + i, when not below the window. */
        if (idx_c + i < t) {
            if (missing == t)
                missing = i;
            continue;
        }
        const struct mm2_record *s = &w->recs[idx_c + i - t];
        if (!mm2_bnd_equal(&tail[i], s, opts)) {
            out->mismatch_target = tail[i].offset;
            out->mismatch_source = s->offset;
            mm2_bnd_digest(&tail[i], out->mismatch_target_digest);
            mm2_bnd_digest(s, out->mismatch_source_digest);
            return;
        }
    }
    if (missing < t) {
        out->mismatch_target = tail[missing].offset;
        mm2_bnd_digest(&tail[missing], out->mismatch_target_digest);
    }
}

static void set_why(struct mm2_bnd_result *out, const char *why)
{
    (void)snprintf(out->why, sizeof(out->why), "%s", why);
}

static void result_init(struct mm2_bnd_result *out)
{
    memset(out, 0, sizeof *out);
    out->cls = MM2_BND_UNPLACED;
    out->tail_first = out->tail_last = -1;
    out->src_first = out->src_last = -1;
    out->resume_at = -1;
    out->mismatch_target = out->mismatch_source = -1;
    out->window_first = out->window_last = -1;
}

static void place(int64_t c, size_t t, const struct mm2_bnd_window *w, size_t j, size_t idx_c,
                  struct mm2_bnd_result *out)
{
    out->src_first = w->recs[j + 1 - t].offset;
    out->src_last = w->recs[j].offset;
    out->resume_at = c;
    if (j + 1 == idx_c) {
        out->cls = MM2_BND_ALIGNED;
    } else if (j >= idx_c) {
        out->cls = MM2_BND_AHEAD;
        out->k = (uint64_t)(j - idx_c + 1);
    } else {
        out->cls = MM2_BND_BEHIND;
        out->k = (uint64_t)(idx_c - 1 - j);
        /* M is the last record Flink really copied: MM2 starts right after it. */
        out->resume_at = w->recs[j].offset + 1;
    }
}

bool mm2_bnd_classify(int64_t c, const struct mm2_record *tail, size_t t,
                      const struct mm2_bnd_window *w, const struct mm2_bnd_opts *opts,
                      struct mm2_bnd_result *out)
{
    size_t idx_c = 0, end = 0;
    bool cut, holes;

    result_init(out);
    if (c < 0 || w == NULL || (w->n > 0 && w->recs == NULL) || (t > 0 && tail == NULL)) {
        set_why(out, "C or the inputs are out of range");
        return false;
    }
    for (size_t i = 1; i < w->n; i++)
        if (w->recs[i].offset <= w->recs[i - 1].offset) {
            set_why(out, "the source window's offsets do not increase");
            return false;
        }
    if (t > MM2_BND_TAIL_MAX) {
        tail += t - MM2_BND_TAIL_MAX;
        t = MM2_BND_TAIL_MAX;
    }
    out->tail_len = t;
    if (t > 0) {
        out->tail_first = tail[0].offset;
        out->tail_last = tail[t - 1].offset;
    }
    if (w->n > 0) {
        out->window_first = w->recs[0].offset;
        out->window_last = w->recs[w->n - 1].offset;
    }
    while (idx_c < w->n && w->recs[idx_c].offset < c)
        idx_c++;
    cut = w->log_start > w->from;
    holes = w->compacted && window_has_gap(w);

    if (t == 0) {
        if (c == 0) {
            out->cls = MM2_BND_EMPTY;
            set_why(out, "C is 0 and the target partition is empty: nothing was copied");
        } else if (idx_c > 0) {
            out->cls = MM2_BND_UNPLACED;
            set_why(out, "the target partition is empty while the source holds records below C");
        } else if (cut || holes) {
            out->cls = MM2_BND_GONE;
            set_why(out, cut ? "the target partition is empty and the source records below C are "
                               "gone (log start)"
                             : "the target partition is empty and the source records below C "
                               "were compacted away (cleanup.policy)");
        } else {
            out->cls = MM2_BND_EMPTY;
            set_why(out, "the target partition is empty and the source holds no record below C "
                         "(only transaction markers or aborted records)");
        }
        return true;
    }

    out->matches = mm2_bnd_find(tail, t, w, opts, &end);
    if (out->matches == 1) {
        place(c, t, w, end, idx_c, out);
        return true;
    }
    if (out->matches > 1) {
        out->cls = MM2_BND_AMBIGUOUS;
        set_why(out, "the tail matches several places of the source window; a longer tail "
                     "(tail.records) tells them apart");
        return true;
    }
    if (cut || holes) {
        out->cls = MM2_BND_GONE;
        set_why(
            out,
            cut ? "the tail matches nowhere and source records of the window are gone "
                  "(below the log start)"
                : "the tail matches nowhere and the source topic is compacted (cleanup.policy): "
                  "records of the window were removed");
        return true;
    }
    out->cls = MM2_BND_UNPLACED;
    set_why(out, "the tail matches no place of the source window");
    mismatch_evidence(tail, t, w, idx_c, opts, out);
    return true;
}
