/* Unit tests for lib/mm2_boundary: the target's tail placed in the source window around C. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "mm2_boundary.h"

#define N_MAX 64

/* A partition as a sequence: offsets[i] and values[i] (NULL: a null value); keys "k<value>". */
struct seq {
    struct mm2_record r[N_MAX];
    char keys[N_MAX][16];
    size_t n;
};

static void seq_add(struct seq *s, int64_t offset, const char *value)
{
    struct mm2_record *r = &s->r[s->n];

    memset(r, 0, sizeof *r);
    r->offset = offset;
    r->timestamp = 1000 + offset;
    if (value != NULL) {
        r->value = (unsigned char *)value;
        r->value_len = strlen(value);
        strncpy(s->keys[s->n], value, sizeof s->keys[s->n] - 1);
        r->key = (unsigned char *)s->keys[s->n];
        r->key_len = strlen(s->keys[s->n]);
    }
    s->n++;
}

/* Source records from..to-1 with values "v<offset>", skipping the offsets in skip[]. */
static void seq_range(struct seq *s, int64_t from, int64_t to, const int64_t *skip, size_t nskip)
{
    static char vals[256][24]; /* "v" and any int64, so -O1 sees no truncation */

    for (int64_t o = from; o < to; o++) {
        bool skipped = false;
        for (size_t i = 0; i < nskip; i++)
            skipped = skipped || skip[i] == o;
        if (skipped)
            continue;
        snprintf(vals[o % 256], sizeof vals[0], "v%lld", (long long)o);
        seq_add(s, o, vals[o % 256]);
    }
}

/* The target's copy of source records from..to-1 (same bytes), at target offsets base... */
static void seq_copy(struct seq *dst, const struct seq *src, int64_t from, int64_t to, int64_t base)
{
    for (size_t i = 0; i < src->n; i++)
        if (src->r[i].offset >= from && src->r[i].offset < to) {
            dst->r[dst->n] = src->r[i];
            dst->r[dst->n].offset = base++;
            dst->n++;
        }
}

static struct mm2_bnd_window win(const struct seq *s, int64_t from, int64_t log_start)
{
    struct mm2_bnd_window w = {s->r, s->n, from, log_start, false};
    return w;
}

static const struct mm2_bnd_opts kv = {false, false};

/* The last k records of a sequence as the tail. */
#define TAIL(s, k) (&(s).r[(s).n - (k)]), (k)

static void test_boundary_aligned_tail_ends_below_c(void **state)
{
    struct seq src = {0}, tgt = {0};
    struct mm2_bnd_result res;
    struct mm2_bnd_window w;

    (void)state;
    seq_range(&src, 80, 120, NULL, 0);
    seq_copy(&tgt, &src, 80, 100, 500);
    w = win(&src, 80, 0);
    assert_true(mm2_bnd_classify(100, TAIL(tgt, 8), &w, &kv, &res));
    assert_int_equal(res.cls, MM2_BND_ALIGNED);
    assert_int_equal(res.matches, 1);
    assert_int_equal(res.src_first, 92);
    assert_int_equal(res.src_last, 99);
    assert_int_equal(res.tail_first, 512);
    assert_int_equal(res.tail_last, 519);
    assert_int_equal(res.resume_at, 100);
    assert_int_equal(res.k, 0);
}

static void test_boundary_behind_by_k_names_the_missing_records(void **state)
{
    struct seq src = {0}, tgt = {0};
    struct mm2_bnd_result res;
    struct mm2_bnd_window w;

    (void)state;
    /* The sink's last transaction (source 95..99) was aborted: the target ends at 94. */
    seq_range(&src, 80, 120, NULL, 0);
    seq_copy(&tgt, &src, 0, 95, 0);
    w = win(&src, 80, 0);
    assert_true(mm2_bnd_classify(100, TAIL(tgt, 8), &w, &kv, &res));
    assert_int_equal(res.cls, MM2_BND_BEHIND);
    assert_int_equal(res.k, 5);
    assert_int_equal(res.src_last, 94);
    assert_int_equal(res.resume_at, 95);
}

static void test_boundary_ahead_by_k_counts_duplicates(void **state)
{
    struct seq src = {0}, tgt = {0};
    struct mm2_bnd_result res;
    struct mm2_bnd_window w;

    (void)state;
    seq_range(&src, 80, 120, NULL, 0);
    seq_copy(&tgt, &src, 0, 107, 0);
    w = win(&src, 80, 0);
    assert_true(mm2_bnd_classify(100, TAIL(tgt, 8), &w, &kv, &res));
    assert_int_equal(res.cls, MM2_BND_AHEAD);
    assert_int_equal(res.k, 7);
    assert_int_equal(res.src_last, 106);
    assert_int_equal(res.resume_at, 100);
}

static void test_boundary_other_partition_is_unplaced_with_digests(void **state)
{
    struct seq src = {0}, other = {0}, tgt = {0};
    struct mm2_bnd_result res;
    struct mm2_bnd_window w, wo;
    size_t end = 0;

    (void)state;
    seq_range(&src, 80, 120, NULL, 0);
    /* A fixed partitioner wrote another source partition's records here. */
    seq_add(&other, 0, "w0");
    seq_add(&other, 1, "w1");
    seq_add(&other, 2, "w2");
    seq_add(&other, 3, "w3");
    seq_copy(&tgt, &other, 0, 4, 10);
    w = win(&src, 80, 0);
    assert_true(mm2_bnd_classify(100, TAIL(tgt, 4), &w, &kv, &res));
    assert_int_equal(res.cls, MM2_BND_UNPLACED);
    assert_int_equal(res.mismatch_target, 10);
    assert_int_equal(res.mismatch_source, 96);
    assert_int_equal(strlen(res.mismatch_target_digest), MM2_BND_DIGEST_LEN);
    assert_string_not_equal(res.mismatch_target_digest, res.mismatch_source_digest);
    assert_int_equal(res.src_last, -1);
    assert_int_equal(res.resume_at, -1);
    /* ...and the tail is found in the partition it came from. */
    wo = win(&other, 0, 0);
    assert_int_equal(mm2_bnd_find(TAIL(tgt, 4), &wo, &kv, &end), 1);
    assert_int_equal(end, 3);
}

static void test_boundary_duplicate_values_in_window(void **state)
{
    struct seq src = {0}, tgt = {0};
    struct mm2_bnd_result res;
    struct mm2_bnd_window w;

    (void)state;
    /* The source repeats a b c a b c ... : a tail of 2 matches in many places. */
    for (int64_t o = 0; o < 30; o++)
        seq_add(&src, o, (const char *[]){"a", "b", "c"}[o % 3]);
    seq_copy(&tgt, &src, 0, 20, 0);
    w = win(&src, 0, 0);
    assert_true(mm2_bnd_classify(20, TAIL(tgt, 2), &w, &kv, &res));
    assert_int_equal(res.cls, MM2_BND_AMBIGUOUS);
    assert_true(res.matches > 1);
    assert_int_equal(res.resume_at, -1);
    /* A single different record inside the tail makes it unique again. */
    src.r[17].value = (unsigned char *)"x";
    src.r[17].value_len = 1;
    tgt.r[17].value = (unsigned char *)"x";
    tgt.r[17].value_len = 1;
    assert_true(mm2_bnd_classify(20, TAIL(tgt, 4), &w, &kv, &res));
    assert_int_equal(res.cls, MM2_BND_ALIGNED);
    assert_int_equal(res.matches, 1);
    assert_int_equal(res.src_first, 16);
}

static void test_boundary_empty_target(void **state)
{
    struct seq src = {0};
    struct mm2_bnd_result res;
    struct mm2_bnd_window w;

    (void)state;
    w = win(&src, 0, 0);
    /* Nothing committed, nothing copied. */
    assert_true(mm2_bnd_classify(0, NULL, 0, &w, &kv, &res));
    assert_int_equal(res.cls, MM2_BND_EMPTY);
    assert_int_equal(res.tail_first, -1);
    /* C > 0 with source records below it: Flink's copy is not there. */
    seq_range(&src, 0, 20, NULL, 0);
    w = win(&src, 0, 0);
    assert_true(mm2_bnd_classify(10, NULL, 0, &w, &kv, &res));
    assert_int_equal(res.cls, MM2_BND_UNPLACED);
    assert_non_null(strstr(res.why, "empty"));
    /* C > 0 and the source has nothing below C either: gone, not guessed. */
    w = win(&src, 0, 0);
    w.log_start = 10;
    w.recs = &src.r[10];
    w.n = 10;
    assert_true(mm2_bnd_classify(10, NULL, 0, &w, &kv, &res));
    assert_int_equal(res.cls, MM2_BND_GONE);
}

static void test_boundary_window_cut_by_log_start(void **state)
{
    struct seq src = {0}, tgt = {0};
    struct mm2_bnd_result res;
    struct mm2_bnd_window w;

    (void)state;
    /* Asked from 80, but the log starts at 97: the aligned tail (92..99) cannot be placed. */
    seq_range(&src, 97, 120, NULL, 0);
    seq_range(&tgt, 80, 100, NULL, 0);
    w = win(&src, 80, 97);
    assert_true(mm2_bnd_classify(100, TAIL(tgt, 8), &w, &kv, &res));
    assert_int_equal(res.cls, MM2_BND_GONE);
    assert_non_null(strstr(res.why, "log start"));
    /* A tail short enough to sit inside what is left is still placed. */
    assert_true(mm2_bnd_classify(100, TAIL(tgt, 3), &w, &kv, &res));
    assert_int_equal(res.cls, MM2_BND_ALIGNED);
}

static void test_boundary_compaction_hole(void **state)
{
    static const int64_t holes[] = {95, 96};
    struct seq src = {0}, tgt = {0};
    struct mm2_bnd_result res;
    struct mm2_bnd_window w;

    (void)state;
    /* Flink copied 95 and 96 before the source compacted them away. */
    seq_range(&src, 80, 120, holes, 2);
    seq_range(&tgt, 80, 100, NULL, 0);
    w = win(&src, 80, 0);
    w.compacted = true;
    assert_true(mm2_bnd_classify(100, TAIL(tgt, 8), &w, &kv, &res));
    assert_int_equal(res.cls, MM2_BND_GONE);
    assert_non_null(strstr(res.why, "compacted"));
    /* The same gap on a topic that is not compacted is no excuse: unplaced. */
    w.compacted = false;
    assert_true(mm2_bnd_classify(100, TAIL(tgt, 8), &w, &kv, &res));
    assert_int_equal(res.cls, MM2_BND_UNPLACED);
    /* Compacted on both sides alike: placed by content, k counted in records. */
    struct seq tgt2 = {0};
    seq_copy(&tgt2, &src, 0, 100, 0);
    w.compacted = true;
    assert_true(mm2_bnd_classify(100, TAIL(tgt2, 8), &w, &kv, &res));
    assert_int_equal(res.cls, MM2_BND_ALIGNED);
    assert_int_equal(res.src_first, 90);
}

static void test_boundary_transaction_markers(void **state)
{
    /* A transactional source: commit markers at 5 and 11, records 12..14 aborted. */
    static const int64_t gone[] = {5, 11, 12, 13, 14};
    struct seq src = {0}, tgt = {0};
    struct mm2_bnd_result res;
    struct mm2_bnd_window w;

    (void)state;
    seq_range(&src, 0, 25, gone, 5);
    /* Flink read up to 10 and committed 11: C is a marker's offset. */
    seq_copy(&tgt, &src, 0, 11, 0);
    w = win(&src, 0, 0);
    assert_true(mm2_bnd_classify(11, TAIL(tgt, 6), &w, &kv, &res));
    assert_int_equal(res.cls, MM2_BND_ALIGNED);
    assert_int_equal(res.src_first, 4);
    assert_int_equal(res.src_last, 10);
    /* Past C: the aborted records are no record at all; k counts 15 and 16. */
    seq_copy(&tgt, &src, 11, 17, 100);
    assert_true(mm2_bnd_classify(11, TAIL(tgt, 6), &w, &kv, &res));
    assert_int_equal(res.cls, MM2_BND_AHEAD);
    assert_int_equal(res.k, 2);
    assert_int_equal(res.src_last, 16);
    /* Behind across a marker: the tail ends at 4, records 6..10 missing, MM2 starts at 5. */
    struct seq tgt2 = {0};
    seq_copy(&tgt2, &src, 0, 5, 0);
    assert_true(mm2_bnd_classify(11, TAIL(tgt2, 4), &w, &kv, &res));
    assert_int_equal(res.cls, MM2_BND_BEHIND);
    assert_int_equal(res.k, 5);
    assert_int_equal(res.resume_at, 5);
}

static void test_boundary_headers_and_timestamps_only_when_asked(void **state)
{
    struct mm2_header h1 = {"h", (unsigned char *)"1", 1}, h2 = {"h", (unsigned char *)"2", 1};
    struct mm2_record a = {0}, b;
    struct mm2_bnd_opts both = {true, true};

    (void)state;
    a.value = (unsigned char *)"v";
    a.value_len = 1;
    a.headers = &h1;
    a.nheaders = 1;
    a.timestamp = 5;
    b = a;
    assert_true(mm2_bnd_equal(&a, &b, &both));
    b.headers = &h2;
    assert_true(mm2_bnd_equal(&a, &b, &kv));
    assert_false(mm2_bnd_equal(&a, &b, &both));
    b = a;
    b.timestamp = 6;
    assert_true(mm2_bnd_equal(&a, &b, &kv));
    assert_false(mm2_bnd_equal(&a, &b, &both));
    /* A null key is not an empty key; a null value is not an empty value. */
    b = a;
    b.key = (unsigned char *)"";
    assert_false(mm2_bnd_equal(&a, &b, &kv));
    b = a;
    b.value = NULL;
    assert_false(mm2_bnd_equal(&a, &b, &kv));
    b.value = (unsigned char *)"";
    b.value_len = 0;
    assert_false(mm2_bnd_equal(&a, &b, &kv));
    a.value = NULL;
    assert_false(mm2_bnd_equal(&a, &b, &kv));
    b.value = NULL;
    assert_true(mm2_bnd_equal(&a, &b, &kv));
}

static void test_boundary_refuses_broken_inputs(void **state)
{
    struct seq src = {0};
    struct mm2_bnd_result res;
    struct mm2_bnd_window w;
    enum mm2_bnd_class cls;

    (void)state;
    seq_range(&src, 0, 5, NULL, 0);
    src.r[3].offset = 1;
    w = win(&src, 0, 0);
    assert_false(mm2_bnd_classify(5, NULL, 0, &w, &kv, &res));
    assert_non_null(strstr(res.why, "increase"));
    assert_false(mm2_bnd_classify(-1, NULL, 0, &w, &kv, &res));
    assert_string_equal(mm2_bnd_class_name(MM2_BND_BEHIND), "behind");
    assert_null(mm2_bnd_class_name((enum mm2_bnd_class)99));
    assert_true(mm2_bnd_class_parse("gone", &cls));
    assert_int_equal(cls, MM2_BND_GONE);
    assert_false(mm2_bnd_class_parse("Gone", &cls));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_boundary_aligned_tail_ends_below_c),
        cmocka_unit_test(test_boundary_behind_by_k_names_the_missing_records),
        cmocka_unit_test(test_boundary_ahead_by_k_counts_duplicates),
        cmocka_unit_test(test_boundary_other_partition_is_unplaced_with_digests),
        cmocka_unit_test(test_boundary_duplicate_values_in_window),
        cmocka_unit_test(test_boundary_empty_target),
        cmocka_unit_test(test_boundary_window_cut_by_log_start),
        cmocka_unit_test(test_boundary_compaction_hole),
        cmocka_unit_test(test_boundary_transaction_markers),
        cmocka_unit_test(test_boundary_headers_and_timestamps_only_when_asked),
        cmocka_unit_test(test_boundary_refuses_broken_inputs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
