/*
 * Unit tests for lib/mm2_trail: the audit trail's key and headers (written, then read back and
 * refused when they are not what mm2-offsets writes), the reassembly of documents from chunks
 * read in order (repeats dropped, a gap or a missing start reported as incomplete, a changed byte
 * as corrupt), and the steps a trail says are missing.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm2_trail.h"

#define SEAL "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

/* The headers of part as mm2_header records, as a read returns them. */
static size_t as_read(const struct mm2_trail_headers *h, struct mm2_header *out)
{
    for (size_t i = 0; i < MM2_TRAIL_HEADERS; i++) {
        out[i].name = (char *)(uintptr_t)h->kv[i].key;
        out[i].value = (unsigned char *)(uintptr_t)h->kv[i].value;
        out[i].len = strlen(h->kv[i].value);
    }
    return MM2_TRAIL_HEADERS;
}

static void test_trail_key_is_the_migration_as_compact_json(void **state)
{
    char *k = mm2_trail_key("flink-mm2", "flink-copy \"A\"");

    (void)state;
    assert_string_equal(k,
                        "{\"connector\":\"flink-mm2\",\"flink_group\":\"flink-copy \\\"A\\\"\"}");
    free(k);
}

static void test_trail_parts_cut_at_the_chunk_size(void **state)
{
    (void)state;
    assert_int_equal(mm2_trail_parts(0), 1);
    assert_int_equal(mm2_trail_parts(1), 1);
    assert_int_equal(mm2_trail_parts((long long)MM2_TRAIL_CHUNK), 1);
    assert_int_equal(mm2_trail_parts((long long)MM2_TRAIL_CHUNK + 1), 2);
    /* 28.7 MB, the export of 50,000 partitions */
    assert_int_equal(mm2_trail_parts(28700000LL), 55);
}

static void test_trail_file_names_are_plain(void **state)
{
    (void)state;
    assert_true(mm2_trail_file_name_ok("plan-20261206.json"));
    assert_false(mm2_trail_file_name_ok(""));
    assert_false(mm2_trail_file_name_ok("../etc/passwd"));
    assert_false(mm2_trail_file_name_ok("a/b"));
    assert_false(mm2_trail_file_name_ok(".hidden"));
    assert_false(mm2_trail_file_name_ok("a b"));
}

static void test_trail_meta_keeps_the_last_path_component_only(void **state)
{
    struct mm2_trail_meta m;

    (void)state;
    assert_int_equal(mm2_trail_meta_make(&m, "mm2kit.plan/v1", "plan", "/work/run/plan.json",
                                         "2026-12-06T14:00:00Z", SEAL, "{}", 2),
                     0);
    assert_string_equal(m.file, "plan.json");
    assert_int_equal(m.size, 2);
    assert_int_equal(m.parts, 1);
    assert_string_equal(m.sha256,
                        "sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a");
    /* a name that could not be restored safely becomes the step's */
    assert_int_equal(mm2_trail_meta_make(&m, "mm2kit.plan/v1", "plan", "/tmp/my plan",
                                         "2026-12-06T14:00:00Z", SEAL, "{}", 2),
                     0);
    assert_string_equal(m.file, "plan.out");
}

static void test_trail_headers_read_back_as_written(void **state)
{
    struct mm2_trail_meta m, back;
    struct mm2_trail_headers h = {0};
    struct mm2_header rec[MM2_TRAIL_HEADERS];
    char *big = calloc(1, 3 * MM2_TRAIL_CHUNK);
    long part = -1;
    char why[200] = "";

    (void)state;
    assert_int_equal(mm2_trail_meta_make(&m, "mm2kit.export/v1", "export", "export.json",
                                         "2026-12-06T14:00:00Z", SEAL, big, 3 * MM2_TRAIL_CHUNK),
                     0);
    mm2_trail_headers(&m, 2, &h);
    assert_true(mm2_trail_meta_read(rec, as_read(&h, rec), &back, &part, why, sizeof(why)));
    assert_int_equal(part, 2);
    assert_int_equal(back.parts, 3);
    assert_int_equal(back.size, (long long)(3 * MM2_TRAIL_CHUNK));
    assert_string_equal(back.sha256, m.sha256);
    assert_string_equal(back.seal, SEAL);
    assert_string_equal(back.file, "export.json");
    assert_string_equal(back.command, "export");
    free(big);
}

/* One header's value replaced: the read refuses it, saying which. */
static void refused_with(size_t idx, const char *value, const char *expect)
{
    struct mm2_trail_meta m, back;
    struct mm2_trail_headers h = {0};
    struct mm2_header rec[MM2_TRAIL_HEADERS];
    long part;
    char why[200] = "";

    assert_int_equal(mm2_trail_meta_make(&m, "mm2kit.plan/v1", "plan", "plan.json",
                                         "2026-12-06T14:00:00Z", SEAL, "{}", 2),
                     0);
    mm2_trail_headers(&m, 0, &h);
    as_read(&h, rec);
    rec[idx].value = (unsigned char *)(uintptr_t)value;
    rec[idx].len = strlen(value);
    assert_false(mm2_trail_meta_read(rec, MM2_TRAIL_HEADERS, &back, &part, why, sizeof(why)));
    if (strstr(why, expect) == NULL)
        fail_msg("why \"%s\" does not hold \"%s\"", why, expect);
}

static void test_trail_headers_not_written_by_mm2_offsets_are_refused(void **state)
{
    struct mm2_header none[1];
    struct mm2_trail_meta back;
    long part;
    char why[200];

    (void)state;
    refused_with(0, "other.kind", "is not what mm2-offsets writes");
    refused_with(2, "../../etc/cron.d/x", "is not a plain file name");
    refused_with(4, "sha256:xyz", "is not sha256:");
    refused_with(6, "999999999999", "do not agree");
    refused_with(7, "2", "do not agree");
    refused_with(8, "1", "do not agree"); /* part 1 of 1 */
    refused_with(8, "-1", "do not agree");
    refused_with(1, "ex\x01port", "is not printable text");
    assert_false(mm2_trail_meta_read(none, 0, &back, &part, why, sizeof(why)));
    assert_string_equal(why, "header mm2kit.kind is missing");
}

/* The chunks of a document of len bytes ('a' + part), as the feed takes them. */
struct doc {
    struct mm2_trail_meta m;
    char *bytes;
};

static void doc_make(struct doc *d, size_t len, const char *time)
{
    d->bytes = malloc(len + 1);
    for (size_t i = 0; i < len; i++)
        d->bytes[i] = (char)('a' + (i / MM2_TRAIL_CHUNK) % 26);
    assert_int_equal(mm2_trail_meta_make(&d->m, "mm2kit.export/v1", "export", "export.json", time,
                                         SEAL, d->bytes, len),
                     0);
}

static void feed(struct mm2_trail_asm *a, const struct doc *d, long part, int64_t offset,
                 struct mm2_trail_event *ev)
{
    size_t off = (size_t)part * MM2_TRAIL_CHUNK;
    size_t len =
        (size_t)d->m.size - off < MM2_TRAIL_CHUNK ? (size_t)d->m.size - off : MM2_TRAIL_CHUNK;

    mm2_trail_feed(a, &d->m, part, d->bytes + off, len, offset, ev);
}

static void test_trail_chunks_in_order_with_repeats_make_the_document(void **state)
{
    struct mm2_trail_asm a = {0};
    struct mm2_trail_event ev;
    struct doc d;

    (void)state;
    doc_make(&d, 2 * MM2_TRAIL_CHUNK + 10, "2026-12-06T14:00:00Z");
    feed(&a, &d, 0, 100, &ev);
    assert_true(ev.append && ev.first);
    assert_int_equal(ev.nended, 0);
    feed(&a, &d, 0, 101, &ev); /* a retried send */
    assert_false(ev.append);
    feed(&a, &d, 1, 102, &ev);
    assert_true(ev.append && !ev.first);
    feed(&a, &d, 2, 103, &ev);
    assert_true(ev.append);
    assert_int_equal(ev.nended, 1);
    assert_int_equal(ev.ended[0].state, MM2_TRAIL_OK);
    assert_true(ev.own[0]); /* its last chunk: written before the document is closed */
    assert_int_equal(ev.ended[0].offset, 100);
    assert_int_equal(ev.ended[0].have, 3);
    assert_string_equal(ev.ended[0].got, d.m.sha256);
    mm2_trail_finish(&a, &ev);
    assert_int_equal(ev.nended, 0);
    free(d.bytes);
}

static void test_trail_a_lost_chunk_or_start_is_incomplete_a_changed_byte_corrupt(void **state)
{
    struct mm2_trail_asm a = {0};
    struct mm2_trail_event ev;
    struct doc d, e;

    (void)state;
    doc_make(&d, 3 * MM2_TRAIL_CHUNK, "2026-12-06T14:00:00Z");
    doc_make(&e, 10, "2026-12-06T14:05:00Z");
    feed(&a, &d, 0, 1, &ev);
    feed(&a, &d, 2, 2, &ev); /* part 1 lost: d ends incomplete, a broken one starts */
    assert_int_equal(ev.nended, 2);
    assert_int_equal(ev.ended[0].state, MM2_TRAIL_INCOMPLETE);
    assert_false(ev.own[0]); /* cut short: closed before the new chunk is looked at */
    assert_true(ev.own[1]);
    assert_int_equal(ev.ended[0].have, 1);
    assert_false(ev.append);
    /* ... which ends at its last part, incomplete: its start was never read */
    assert_int_equal(ev.ended[1].state, MM2_TRAIL_INCOMPLETE);
    assert_int_equal(ev.ended[1].offset, 2);
    feed(&a, &e, 0, 3, &ev); /* a document of one chunk, whole */
    assert_int_equal(ev.nended, 1);
    assert_int_equal(ev.ended[0].state, MM2_TRAIL_OK);
    assert_int_equal(ev.ended[0].offset, 3);
    /* a byte changed on the way */
    e.bytes[3] ^= 1;
    feed(&a, &e, 0, 4, &ev);
    assert_int_equal(ev.nended, 1);
    assert_int_equal(ev.ended[0].state, MM2_TRAIL_CORRUPT);
    /* a document cut short at the end of the records */
    feed(&a, &d, 0, 5, &ev);
    mm2_trail_finish(&a, &ev);
    assert_int_equal(ev.nended, 1);
    assert_int_equal(ev.ended[0].state, MM2_TRAIL_INCOMPLETE);
    free(d.bytes);
    free(e.bytes);
}

static struct mm2_trail_doc step(const char *command, const char *file, enum mm2_trail_state state)
{
    struct mm2_trail_doc d;

    memset(&d, 0, sizeof(d));
    (void)snprintf(d.m.command, sizeof(d.m.command), "%s", command);
    (void)snprintf(d.m.file, sizeof(d.m.file), "%s", file);
    (void)snprintf(d.m.kind, sizeof(d.m.kind), "mm2kit.%s/v1", command);
    (void)snprintf(d.m.time, sizeof(d.m.time), "2026-12-06T14:00:00Z");
    d.m.parts = 2;
    d.have = 1;
    d.state = state;
    return d;
}

static void test_trail_missing_names_each_step_a_later_one_presupposes(void **state)
{
    struct mm2_refusals r = {0};
    struct mm2_trail_doc whole[] = {
        step("preflight", "preflight.json", MM2_TRAIL_OK),
        step("export", "e.json", MM2_TRAIL_OK),
        step("plan", "p.json", MM2_TRAIL_OK),
        step("apply", "b.json", MM2_TRAIL_OK),
        step("resume", "resume.json", MM2_TRAIL_OK),
        step("check", "c.json", MM2_TRAIL_OK),
        step("stop", "s.json", MM2_TRAIL_OK),
        step("rollback-plan", "r.csv", MM2_TRAIL_OK),
    };
    struct mm2_trail_doc holes[] = {
        step("plan", "p.json", MM2_TRAIL_OK),
        step("export", "e.json", MM2_TRAIL_OK), /* after the plan: does not count */
        step("apply", "b.json", MM2_TRAIL_INCOMPLETE),
        step("resume", "resume.json", MM2_TRAIL_OK),
    };

    (void)state;
    assert_int_equal(mm2_trail_missing(whole, 8, &r), 0);
    assert_int_equal(mm2_trail_missing(holes, 4, &r), 3);
    assert_non_null(strstr(r.line[0], "b.json (mm2kit.apply/v1) written by apply"));
    assert_non_null(strstr(r.line[0], "incomplete, 1 of 2 chunks read"));
    assert_non_null(strstr(r.line[1], "missing: no complete record of export before the plan"));
    assert_non_null(strstr(r.line[2], "missing: no complete record of apply before the resume"));
    mm2_refusals_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_trail_key_is_the_migration_as_compact_json),
        cmocka_unit_test(test_trail_parts_cut_at_the_chunk_size),
        cmocka_unit_test(test_trail_file_names_are_plain),
        cmocka_unit_test(test_trail_meta_keeps_the_last_path_component_only),
        cmocka_unit_test(test_trail_headers_read_back_as_written),
        cmocka_unit_test(test_trail_headers_not_written_by_mm2_offsets_are_refused),
        cmocka_unit_test(test_trail_chunks_in_order_with_repeats_make_the_document),
        cmocka_unit_test(test_trail_a_lost_chunk_or_start_is_incomplete_a_changed_byte_corrupt),
        cmocka_unit_test(test_trail_missing_names_each_step_a_later_one_presupposes),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
