/*
 * Unit tests for lib/mm2_digest and lib/mm2_artifact: SHA-256 text digests, and sealed artifacts
 * (seal then verify, any change to a member refused with "was changed after it was written",
 * wrong kind, missing digest, and the file round trip).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mm2_artifact.h"
#include "mm2_file.h"
#include "mm2_digest.h"
#include "mm2_json.h"

#define SMALL_DIGEST "sha256:455ab5c721c39832f0c2d161406cb84f2ac1e191760d2a7424fbdd7e8762d2b6"

/* ---- helpers --------------------------------------------------------------------------------- */

static cJSON *parse(const char *json)
{
    cJSON *j = cJSON_Parse(json);

    if (j == NULL)
        fail_msg("test JSON does not parse: %s", json);
    return j;
}

/* A plan-like artifact, sealed; digest receives its digest. */
static cJSON *sealed(char digest[MM2_DIGEST_TEXT_LEN + 1])
{
    cJSON *t = parse("{\"kind\": \"mm2kit.plan/v1\", \"created\": \"2026-01-01T00:00:00Z\", "
                     "\"connector\": {\"name\": \"flink-to-mm2-source\", \"source_alias\": "
                     "\"source\"}, \"partitions\": [{\"topic\": \"orders\", \"partition\": 0, "
                     "\"c\": 1000, \"m\": 999}, {\"topic\": \"orders\", \"partition\": 1, \"c\": "
                     "0, \"m\": null}], \"summary\": {\"offsets\": 1, \"resets\": 1}}");
    struct mm2_error err = {0};

    assert_int_equal(mm2_artifact_seal(t, digest, &err), MM2_OK);
    return t;
}

/* The digest of tree's compact text without its "digest" member, computed independently. */
static void content_digest(const cJSON *tree, char out[MM2_DIGEST_TEXT_LEN + 1])
{
    cJSON *copy = cJSON_Duplicate(tree, true);
    char *text;

    cJSON_DeleteItemFromObjectCaseSensitive(copy, "digest");
    text = mm2_json_print(copy, false);
    assert_non_null(text);
    assert_int_equal(mm2_digest_text(text, strlen(text), out), 0);
    free(text);
    cJSON_Delete(copy);
}

/* Verifies a tampered tree: refused, with the exact message naming both digests. */
static void assert_changed(const cJSON *tampered, const char *original)
{
    struct mm2_error err = {0};
    char got[MM2_DIGEST_TEXT_LEN + 1] = "x", now[MM2_DIGEST_TEXT_LEN + 1], want[600];

    content_digest(tampered, now);
    assert_string_not_equal(now, original);
    (void)snprintf(want, sizeof(want),
                   "the plan was changed after it was written: it says %s but its content hashes "
                   "to %s; make it again with mm2-offsets instead of editing it",
                   original, now);
    assert_int_equal(mm2_artifact_verify("plan", tampered, MM2_KIND_PLAN, got, &err), MM2_CONFIG);
    assert_int_equal(err.code, MM2_CONFIG);
    assert_string_equal(err.msg, want);
    assert_string_equal(got, "");
}

static cJSON *at(cJSON *o, const char *path1, int index, const char *path2)
{
    cJSON *v = cJSON_GetObjectItemCaseSensitive(o, path1);

    if (index >= 0)
        v = cJSON_GetArrayItem(v, index);
    if (path2 != NULL)
        v = cJSON_GetObjectItemCaseSensitive(v, path2);
    assert_non_null(v);
    return v;
}

static int dir_setup(void **state)
{
    char *d = malloc(64);

    if (d == NULL)
        return -1;
    (void)snprintf(d, 64, "/tmp/mm2-test-artifact-XXXXXX");
    if (mkdtemp(d) == NULL) {
        free(d);
        return -1;
    }
    *state = d;
    return 0;
}

static int dir_teardown(void **state)
{
    char *d = *state, p[PATH_MAX];

    (void)snprintf(p, sizeof(p), "%s/plan.json", d);
    (void)unlink(p);
    (void)rmdir(d);
    free(d);
    return 0;
}

static char *slurp(const char *path)
{
    struct mm2_error err = {0};
    char *s = NULL;
    size_t n;

    assert_int_equal(mm2_file_read("test", path, 1 << 20, &s, &n, &err), MM2_OK);
    return s;
}

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");

    assert_non_null(f);
    assert_true(fputs(text, f) >= 0);
    assert_int_equal(fclose(f), 0);
}

/* ---- mm2_digest ------------------------------------------------------------------------------ */

static void test_digest_text_known_vectors(void **state)
{
    char out[MM2_DIGEST_TEXT_LEN + 1];

    (void)state;
    assert_int_equal(mm2_digest_text("", 0, out), 0);
    assert_string_equal(out,
                        "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    assert_int_equal(mm2_digest_text("abc", 3, out), 0);
    assert_string_equal(out,
                        "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    assert_int_equal(strlen(out), MM2_DIGEST_TEXT_LEN);
}

static void test_digest_text_hashes_len_bytes_including_nul(void **state)
{
    char out[MM2_DIGEST_TEXT_LEN + 1];

    (void)state;
    assert_int_equal(mm2_digest_text("a\0b", 3, out), 0);
    assert_string_equal(out,
                        "sha256:59b271ae1bbcb1d31d41929817f4b16fb439eb4f31520b5ad1d5ce98920a7138");
    assert_int_equal(mm2_digest_text("abcdef", 3, out), 0);
    assert_string_equal(out,
                        "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

static void test_digest_valid_accepts_only_the_text_form(void **state)
{
    char d[MM2_DIGEST_TEXT_LEN + 2];

    (void)state;
    assert_true(mm2_digest_valid(SMALL_DIGEST));
    assert_true(mm2_digest_valid(
        "sha256:0000000000000000000000000000000000000000000000000000000000000000"));
    assert_false(mm2_digest_valid(NULL));
    assert_false(mm2_digest_valid(""));
    assert_false(mm2_digest_valid("sha256:"));
    /* uppercase hex, another prefix, a non-hex digit, one digit short or long */
    assert_false(mm2_digest_valid(
        "sha256:455AB5C721C39832F0C2D161406CB84F2AC1E191760D2A7424FBDD7E8762D2B6"));
    assert_false(mm2_digest_valid(
        "SHA256:455ab5c721c39832f0c2d161406cb84f2ac1e191760d2a7424fbdd7e8762d2b6"));
    assert_false(mm2_digest_valid(
        "sha512:455ab5c721c39832f0c2d161406cb84f2ac1e191760d2a7424fbdd7e8762d2b6"));
    assert_false(mm2_digest_valid(
        "sha256:455ab5c721c39832f0c2d161406cb84f2ac1e191760d2a7424fbdd7e8762d2bg"));
    assert_false(
        mm2_digest_valid("455ab5c721c39832f0c2d161406cb84f2ac1e191760d2a7424fbdd7e8762d2b6"));
    memcpy(d, SMALL_DIGEST, MM2_DIGEST_TEXT_LEN - 1);
    d[MM2_DIGEST_TEXT_LEN - 1] = '\0';
    assert_false(mm2_digest_valid(d));
    memcpy(d, SMALL_DIGEST, MM2_DIGEST_TEXT_LEN);
    d[MM2_DIGEST_TEXT_LEN] = '0';
    d[MM2_DIGEST_TEXT_LEN + 1] = '\0';
    assert_false(mm2_digest_valid(d));
    assert_false(mm2_digest_valid(
        " sha256:455ab5c721c39832f0c2d161406cb84f2ac1e191760d2a7424fbdd7e8762d2b6"));
}

/* ---- seal ------------------------------------------------------------------------------------ */

static void test_seal_appends_digest_of_compact_text_last(void **state)
{
    cJSON *t = parse("{\"kind\": \"mm2kit.plan/v1\", \"n\": 1}");
    struct mm2_error err = {0};
    char digest[MM2_DIGEST_TEXT_LEN + 1];
    char *text;

    (void)state;
    assert_int_equal(mm2_artifact_seal(t, digest, &err), MM2_OK);
    /* sha256 of {"kind":"mm2kit.plan/v1","n":1} */
    assert_string_equal(digest, SMALL_DIGEST);
    text = mm2_json_print(t, false);
    assert_string_equal(text,
                        "{\"kind\":\"mm2kit.plan/v1\",\"n\":1,\"digest\":\"" SMALL_DIGEST "\"}");
    free(text);
    cJSON_Delete(t);
}

static void test_seal_replaces_an_old_digest_anywhere_and_moves_it_last(void **state)
{
    cJSON *t = parse("{\"digest\": \"sha256:old\", \"kind\": \"mm2kit.plan/v1\", \"n\": 1}");
    struct mm2_error err = {0};
    char digest[MM2_DIGEST_TEXT_LEN + 1], again[MM2_DIGEST_TEXT_LEN + 1];
    char *text;

    (void)state;
    assert_int_equal(mm2_artifact_seal(t, digest, &err), MM2_OK);
    assert_string_equal(digest, SMALL_DIGEST);
    assert_int_equal(mm2_artifact_seal(t, again, &err), MM2_OK);
    assert_string_equal(again, SMALL_DIGEST);
    text = mm2_json_print(t, false);
    assert_string_equal(text,
                        "{\"kind\":\"mm2kit.plan/v1\",\"n\":1,\"digest\":\"" SMALL_DIGEST "\"}");
    free(text);
    cJSON_Delete(t);
}

static void test_seal_refuses_a_number_that_is_not_an_integer(void **state)
{
    cJSON *t = parse("{\"kind\": \"mm2kit.plan/v1\", \"x\": 0.5}");
    struct mm2_error err = {0};
    char digest[MM2_DIGEST_TEXT_LEN + 1] = "x";

    (void)state;
    assert_int_equal(mm2_artifact_seal(t, digest, &err), MM2_UNEXPECTED);
    assert_string_equal(err.msg, "cannot print the artifact: out of memory or a number that is "
                                 "not an exact integer");
    assert_string_equal(digest, "");
    assert_null(cJSON_GetObjectItemCaseSensitive(t, "digest"));
    cJSON_Delete(t);
}

static void test_artifact_text_is_the_pretty_form(void **state)
{
    cJSON *t = parse("{\"kind\": \"mm2kit.plan/v1\", \"n\": 1}");
    struct mm2_error err = {0};
    char digest[MM2_DIGEST_TEXT_LEN + 1];
    char *text;

    (void)state;
    assert_int_equal(mm2_artifact_seal(t, digest, &err), MM2_OK);
    text = mm2_artifact_text(t);
    assert_string_equal(text, "{\"kind\": \"mm2kit.plan/v1\", \"n\": 1, \"digest\": \"" SMALL_DIGEST
                              "\"}\n");
    free(text);
    cJSON_Delete(t);
}

/* ---- verify ---------------------------------------------------------------------------------- */

static void test_verify_accepts_what_seal_wrote(void **state)
{
    char digest[MM2_DIGEST_TEXT_LEN + 1], got[MM2_DIGEST_TEXT_LEN + 1];
    cJSON *t = sealed(digest);
    struct mm2_error err = {0};

    (void)state;
    assert_int_equal(mm2_artifact_verify("plan", t, MM2_KIND_PLAN, got, &err), MM2_OK);
    assert_string_equal(got, digest);
    assert_true(mm2_digest_valid(got));
    cJSON_Delete(t);
}

static void test_verify_accepts_the_same_content_printed_another_way(void **state)
{
    char digest[MM2_DIGEST_TEXT_LEN + 1], got[MM2_DIGEST_TEXT_LEN + 1];
    cJSON *t = sealed(digest), *back;
    struct mm2_error err = {0};
    char *pretty = mm2_artifact_text(t), *compact = mm2_json_print(t, false);

    (void)state;
    /* The digest is over the canonical compact text, not the file's whitespace. */
    back = parse(pretty);
    assert_int_equal(mm2_artifact_verify("plan", back, MM2_KIND_PLAN, got, &err), MM2_OK);
    assert_string_equal(got, digest);
    cJSON_Delete(back);
    back = parse(compact);
    assert_int_equal(mm2_artifact_verify("plan", back, MM2_KIND_PLAN, got, &err), MM2_OK);
    cJSON_Delete(back);
    free(pretty);
    free(compact);
    cJSON_Delete(t);
}

static void test_verify_refuses_a_changed_number(void **state)
{
    char digest[MM2_DIGEST_TEXT_LEN + 1];
    cJSON *t = sealed(digest);

    (void)state;
    cJSON_SetNumberValue(at(t, "partitions", 0, "c"), 1001);
    assert_changed(t, digest);
    cJSON_Delete(t);
}

static void test_verify_refuses_a_changed_string(void **state)
{
    char digest[MM2_DIGEST_TEXT_LEN + 1];
    cJSON *t = sealed(digest);

    (void)state;
    cJSON_ReplaceItemInObjectCaseSensitive(at(t, "partitions", 0, NULL), "topic",
                                           cJSON_CreateString("orderz"));
    assert_changed(t, digest);
    cJSON_Delete(t);
}

static void test_verify_refuses_null_made_a_number(void **state)
{
    char digest[MM2_DIGEST_TEXT_LEN + 1];
    cJSON *t = sealed(digest);

    (void)state;
    cJSON_ReplaceItemInObjectCaseSensitive(at(t, "partitions", 1, NULL), "m",
                                           cJSON_CreateNumber(0));
    assert_changed(t, digest);
    cJSON_Delete(t);
}

static void test_verify_refuses_a_number_made_a_string(void **state)
{
    char digest[MM2_DIGEST_TEXT_LEN + 1];
    cJSON *t = sealed(digest);

    (void)state;
    cJSON_ReplaceItemInObjectCaseSensitive(at(t, "partitions", 0, NULL), "m",
                                           cJSON_CreateString("999"));
    assert_changed(t, digest);
    cJSON_Delete(t);
}

static void test_verify_refuses_reordered_top_level_members(void **state)
{
    char digest[MM2_DIGEST_TEXT_LEN + 1];
    cJSON *t = sealed(digest);
    cJSON *created = cJSON_DetachItemFromObjectCaseSensitive(t, "created");

    (void)state;
    /* "created" moves from second to first: same members, another order. */
    assert_true(cJSON_InsertItemInArray(t, 0, created));
    assert_changed(t, digest);
    cJSON_Delete(t);
}

static void test_verify_refuses_reordered_nested_members(void **state)
{
    char digest[MM2_DIGEST_TEXT_LEN + 1];
    cJSON *t = sealed(digest);
    cJSON *conn = at(t, "connector", -1, NULL);
    cJSON *alias = cJSON_DetachItemFromObjectCaseSensitive(conn, "source_alias");

    (void)state;
    assert_true(cJSON_InsertItemInArray(conn, 0, alias));
    assert_changed(t, digest);
    cJSON_Delete(t);
}

static void test_verify_refuses_reordered_array_entries(void **state)
{
    char digest[MM2_DIGEST_TEXT_LEN + 1];
    cJSON *t = sealed(digest);
    cJSON *parts = at(t, "partitions", -1, NULL);
    cJSON *second = cJSON_DetachItemFromArray(parts, 1);

    (void)state;
    assert_true(cJSON_InsertItemInArray(parts, 0, second));
    assert_changed(t, digest);
    cJSON_Delete(t);
}

static void test_verify_refuses_an_added_or_removed_member(void **state)
{
    char digest[MM2_DIGEST_TEXT_LEN + 1];
    cJSON *t = sealed(digest);

    (void)state;
    cJSON_AddTrueToObject(at(t, "summary", -1, NULL), "approved");
    assert_changed(t, digest);
    cJSON_DeleteItemFromObjectCaseSensitive(at(t, "summary", -1, NULL), "approved");
    cJSON_DeleteItemFromObjectCaseSensitive(at(t, "summary", -1, NULL), "resets");
    assert_changed(t, digest);
    cJSON_Delete(t);
}

static void test_verify_refuses_a_replaced_digest(void **state)
{
    char digest[MM2_DIGEST_TEXT_LEN + 1], want[600];
    cJSON *t = sealed(digest);
    struct mm2_error err = {0};
    char got[MM2_DIGEST_TEXT_LEN + 1];
    const char *other = "sha256:0000000000000000000000000000000000000000000000000000000000000000";

    (void)state;
    cJSON_ReplaceItemInObjectCaseSensitive(t, "digest", cJSON_CreateString(other));
    assert_int_equal(mm2_artifact_verify("plan", t, MM2_KIND_PLAN, got, &err), MM2_CONFIG);
    (void)snprintf(want, sizeof(want),
                   "the plan was changed after it was written: it says %s but its content hashes "
                   "to %s; make it again with mm2-offsets instead of editing it",
                   other, digest);
    assert_string_equal(err.msg, want);
    cJSON_Delete(t);
}

static void test_verify_refuses_the_wrong_kind(void **state)
{
    char digest[MM2_DIGEST_TEXT_LEN + 1], got[MM2_DIGEST_TEXT_LEN + 1];
    cJSON *t = sealed(digest);
    struct mm2_error err = {0};

    (void)state;
    assert_int_equal(mm2_artifact_verify("export", t, MM2_KIND_EXPORT, got, &err), MM2_CONFIG);
    assert_string_equal(err.msg, "this is a plan (kind \"mm2kit.plan/v1\"), not an export: give "
                                 "the export that 'mm2-offsets export' wrote");
    assert_string_equal(got, "");
    cJSON_Delete(t);
}

static void test_verify_refuses_missing_or_non_string_kind(void **state)
{
    cJSON *t = parse("{\"n\": 1, \"digest\": \"" SMALL_DIGEST "\"}");
    struct mm2_error err = {0};
    char got[MM2_DIGEST_TEXT_LEN + 1];

    (void)state;
    assert_int_equal(mm2_artifact_verify("plan", t, MM2_KIND_PLAN, got, &err), MM2_CONFIG);
    assert_string_equal(err.msg, "the plan has no \"kind\"; it is not an mm2-offsets artifact");
    cJSON_AddNumberToObject(t, "kind", 1);
    assert_int_equal(mm2_artifact_verify("plan", t, MM2_KIND_PLAN, got, &err), MM2_CONFIG);
    assert_string_equal(err.msg, "the plan has no \"kind\"; it is not an mm2-offsets artifact");
    cJSON_Delete(t);
}

static void test_verify_refuses_missing_or_malformed_digest(void **state)
{
    static const char *const bad[] = {
        "{\"kind\": \"mm2kit.plan/v1\", \"n\": 1}",
        "{\"kind\": \"mm2kit.plan/v1\", \"n\": 1, \"digest\": null}",
        "{\"kind\": \"mm2kit.plan/v1\", \"n\": 1, \"digest\": 5}",
        "{\"kind\": \"mm2kit.plan/v1\", \"n\": 1, \"digest\": \"\"}",
        "{\"kind\": \"mm2kit.plan/v1\", \"n\": 1, \"digest\": "
        "\"sha256:455AB5C721C39832F0C2D161406CB84F2AC1E191760D2A7424FBDD7E8762D2B6\"}",
        "{\"kind\": \"mm2kit.plan/v1\", \"n\": 1, \"digest\": "
        "\"455ab5c721c39832f0c2d161406cb84f2ac1e191760d2a7424fbdd7e8762d2b6\"}",
    };

    (void)state;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        cJSON *t = parse(bad[i]);
        struct mm2_error err = {0};
        char got[MM2_DIGEST_TEXT_LEN + 1];
        assert_int_equal(mm2_artifact_verify("plan", t, MM2_KIND_PLAN, got, &err), MM2_CONFIG);
        assert_string_equal(err.msg, "the plan has no valid \"digest\"");
        cJSON_Delete(t);
    }
}

static void test_verify_refuses_what_is_not_an_object(void **state)
{
    cJSON *t = parse("[{\"kind\": \"mm2kit.plan/v1\"}]");
    struct mm2_error err = {0};
    char got[MM2_DIGEST_TEXT_LEN + 1];

    (void)state;
    assert_int_equal(mm2_artifact_verify("plan", t, MM2_KIND_PLAN, got, &err), MM2_CONFIG);
    assert_string_equal(err.msg, "the plan is not a JSON object");
    cJSON_Delete(t);
}

static void test_verify_refuses_a_fraction_with_a_readable_message(void **state)
{
    cJSON *t =
        parse("{\"kind\": \"mm2kit.plan/v1\", \"x\": 0.5, \"digest\": \"" SMALL_DIGEST "\"}");
    struct mm2_error err = {0};
    char got[MM2_DIGEST_TEXT_LEN + 1];
    enum mm2_status st;

    (void)state;
    st = mm2_artifact_verify("plan", t, MM2_KIND_PLAN, got, &err);
    cJSON_Delete(t);
    assert_int_equal(st, MM2_CONFIG);
    assert_int_equal(err.code, MM2_CONFIG);
    assert_string_equal(err.msg, "the plan cannot be digested: cannot print the artifact: out of "
                                 "memory or a number that is not an exact integer");
}

/* ---- write and read -------------------------------------------------------------------------- */

static void test_write_then_read_round_trip(void **state)
{
    const char *d = *state;
    char path[PATH_MAX], digest[MM2_DIGEST_TEXT_LEN + 1], got[MM2_DIGEST_TEXT_LEN + 1], want[400];
    cJSON *t = parse("{\"kind\": \"mm2kit.export/v1\", \"partitions\": [{\"topic\": \"a\", "
                     "\"c\": [1, 1]}]}");
    cJSON *back = NULL;
    struct mm2_error err = {0};
    char *file, *text;
    struct stat st;

    (void)snprintf(path, sizeof(path), "%s/plan.json", d);
    assert_int_equal(mm2_artifact_write("export", path, t, digest, &err), MM2_OK);
    assert_true(mm2_digest_valid(digest));
    /* The file is the pretty text of the sealed tree. */
    file = slurp(path);
    text = mm2_artifact_text(t);
    assert_string_equal(file, text);
    (void)snprintf(want, sizeof(want),
                   "{\n"
                   "  \"kind\": \"mm2kit.export/v1\",\n"
                   "  \"partitions\": [\n"
                   "    {\"topic\": \"a\", \"c\": [1, 1]}\n"
                   "  ],\n"
                   "  \"digest\": \"%s\"\n"
                   "}\n",
                   digest);
    assert_string_equal(file, want);
    free(file);
    free(text);
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0644);
    assert_int_equal(mm2_artifact_read("export", path, MM2_KIND_EXPORT, &back, got, &err), MM2_OK);
    assert_string_equal(got, digest);
    assert_true(cJSON_Compare(back, t, true));
    cJSON_Delete(back);
    cJSON_Delete(t);
}

static void test_read_refuses_an_edited_file_naming_it(void **state)
{
    const char *d = *state;
    char path[PATH_MAX], digest[MM2_DIGEST_TEXT_LEN + 1], got[MM2_DIGEST_TEXT_LEN + 1];
    char want[PATH_MAX + 600], now[MM2_DIGEST_TEXT_LEN + 1];
    cJSON *t = sealed(digest), *back = (cJSON *)1, *edited;
    struct mm2_error err = {0};
    char *file, *p;

    (void)snprintf(path, sizeof(path), "%s/plan.json", d);
    assert_int_equal(mm2_artifact_write("plan", path, t, digest, &err), MM2_OK);
    file = slurp(path);
    p = strstr(file, "\"c\": 1000");
    assert_non_null(p);
    p[8] = '1'; /* 1000 -> 1001 */
    put(path, file);
    edited = parse(file);
    content_digest(edited, now);
    cJSON_Delete(edited);
    free(file);
    assert_int_equal(mm2_artifact_read("plan", path, MM2_KIND_PLAN, &back, got, &err), MM2_CONFIG);
    assert_null(back);
    assert_string_equal(got, "");
    (void)snprintf(want, sizeof(want),
                   "%s: the plan was changed after it was written: it says %s but its content "
                   "hashes to %s; make it again with mm2-offsets instead of editing it",
                   path, digest, now);
    assert_string_equal(err.msg, want);
    cJSON_Delete(t);
}

static void test_read_refuses_the_wrong_kind_naming_the_file(void **state)
{
    const char *d = *state;
    char path[PATH_MAX], digest[MM2_DIGEST_TEXT_LEN + 1], got[MM2_DIGEST_TEXT_LEN + 1];
    char want[PATH_MAX + 200];
    cJSON *t = sealed(digest), *back = (cJSON *)1;
    struct mm2_error err = {0};

    (void)snprintf(path, sizeof(path), "%s/plan.json", d);
    assert_int_equal(mm2_artifact_write("plan", path, t, digest, &err), MM2_OK);
    assert_int_equal(mm2_artifact_read("backup", path, MM2_KIND_BACKUP, &back, got, &err),
                     MM2_CONFIG);
    assert_null(back);
    (void)snprintf(want, sizeof(want),
                   "%s: this is a plan (kind \"mm2kit.plan/v1\"), not a backup of a connector's "
                   "offsets: give the backup that 'mm2-offsets apply' wrote",
                   path);
    assert_string_equal(err.msg, want);
    cJSON_Delete(t);
}

static void test_read_missing_or_invalid_file(void **state)
{
    const char *d = *state;
    char path[PATH_MAX], got[MM2_DIGEST_TEXT_LEN + 1], want[PATH_MAX + 200];
    cJSON *back = (cJSON *)1;
    struct mm2_error err = {0};

    (void)snprintf(path, sizeof(path), "%s/plan.json", d);
    assert_int_equal(mm2_artifact_read("plan", path, MM2_KIND_PLAN, &back, got, &err), MM2_CONFIG);
    assert_null(back);
    (void)snprintf(want, sizeof(want), "cannot open plan file %s: No such file or directory", path);
    assert_string_equal(err.msg, want);
    put(path, "{\"kind\": \"mm2kit.plan/v1\",");
    assert_int_equal(mm2_artifact_read("plan", path, MM2_KIND_PLAN, &back, got, &err), MM2_CONFIG);
    assert_null(back);
    (void)snprintf(want, sizeof(want), "plan file %s is not valid JSON (near byte 26)", path);
    assert_string_equal(err.msg, want);
}

static void test_write_refuses_a_fraction_and_writes_nothing(void **state)
{
    const char *d = *state;
    char path[PATH_MAX], digest[MM2_DIGEST_TEXT_LEN + 1];
    cJSON *t = parse("{\"kind\": \"mm2kit.plan/v1\", \"x\": 1.25}");
    struct mm2_error err = {0};

    (void)snprintf(path, sizeof(path), "%s/plan.json", d);
    assert_int_equal(mm2_artifact_write("plan", path, t, digest, &err), MM2_UNEXPECTED);
    assert_string_equal(err.msg, "cannot print the artifact: out of memory or a number that is "
                                 "not an exact integer");
    assert_int_equal(access(path, F_OK), -1);
    cJSON_Delete(t);
}

static void test_write_refuses_what_no_reader_would_take_and_writes_nothing(void **state)
{
    const char *d = *state;
    char path[PATH_MAX], digest[MM2_DIGEST_TEXT_LEN + 1], want[400];
    size_t n = (size_t)MM2_ARTIFACT_MAX;
    char *big = malloc(n + 1);
    cJSON *t = parse("{\"kind\": \"mm2kit.export/v1\"}");
    struct mm2_error err = {0};

    assert_non_null(big);
    memset(big, 'a', n);
    big[n] = '\0';
    assert_non_null(cJSON_AddStringToObject(t, "x", big));
    free(big);
    (void)snprintf(path, sizeof(path), "%s/export.json", d);
    assert_int_equal(mm2_artifact_write("export", path, t, digest, &err), MM2_CONFIG);
    /* {"kind": ..., "x": "a...", "digest": ...}, pretty on one line: 32 MiB and the rest. */
    (void)snprintf(want, sizeof(want),
                   "the export would be %zu bytes holding 4 JSON values, above the caps of %ld "
                   "and %ld (the cap that keeps the offset Job within its 256 MiB; LIMITS in "
                   "mm2-offsets(1)); narrow the connector's topics and migrate them in parts",
                   n + strlen("{\"kind\": \"mm2kit.export/v1\", \"x\": \"\", \"digest\": \"\"}\n") +
                       MM2_DIGEST_TEXT_LEN,
                   MM2_ARTIFACT_MAX, MM2_JSON_VALUES_MAX);
    assert_string_equal(err.msg, want);
    assert_int_equal(access(path, F_OK), -1);
    cJSON_Delete(t);
}

static void test_verify_names_another_version_and_an_unknown_kind(void **state)
{
    char digest[MM2_DIGEST_TEXT_LEN + 1], got[MM2_DIGEST_TEXT_LEN + 1];
    cJSON *t = sealed(digest);
    struct mm2_error err = {0};

    (void)state;
    cJSON_ReplaceItemInObjectCaseSensitive(t, "kind", cJSON_CreateString("mm2kit.plan/v9"));
    assert_int_equal(mm2_artifact_verify("plan", t, MM2_KIND_PLAN, got, &err), MM2_CONFIG);
    assert_string_equal(err.msg, "this is a plan of another format version (kind "
                                 "\"mm2kit.plan/v9\"); this mm2-offsets reads \"mm2kit.plan/v1\": "
                                 "use the mm2-offsets that wrote it");
    cJSON_ReplaceItemInObjectCaseSensitive(t, "kind", cJSON_CreateString("acme.plan"));
    assert_int_equal(mm2_artifact_verify("plan", t, MM2_KIND_PLAN, got, &err), MM2_CONFIG);
    assert_string_equal(err.msg, "kind \"acme.plan\" is no mm2-offsets artifact kind, and not "
                                 "\"mm2kit.plan/v1\": give the plan that 'mm2-offsets plan' wrote");
    cJSON_ReplaceItemInObjectCaseSensitive(t, "kind", cJSON_CreateString(MM2_KIND_CHECK));
    assert_int_equal(mm2_artifact_verify("backup", t, MM2_KIND_BACKUP, got, &err), MM2_CONFIG);
    assert_string_equal(err.msg, "this is a check report (kind \"mm2kit.check/v2\"), not a backup "
                                 "of a connector's offsets: give the backup that 'mm2-offsets "
                                 "apply' wrote");
    cJSON_Delete(t);
}

#define DIR_TEST(fn) cmocka_unit_test_setup_teardown(fn, dir_setup, dir_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_digest_text_known_vectors),
        cmocka_unit_test(test_digest_text_hashes_len_bytes_including_nul),
        cmocka_unit_test(test_digest_valid_accepts_only_the_text_form),
        cmocka_unit_test(test_seal_appends_digest_of_compact_text_last),
        cmocka_unit_test(test_seal_replaces_an_old_digest_anywhere_and_moves_it_last),
        cmocka_unit_test(test_seal_refuses_a_number_that_is_not_an_integer),
        cmocka_unit_test(test_artifact_text_is_the_pretty_form),
        cmocka_unit_test(test_verify_accepts_what_seal_wrote),
        cmocka_unit_test(test_verify_accepts_the_same_content_printed_another_way),
        cmocka_unit_test(test_verify_refuses_a_changed_number),
        cmocka_unit_test(test_verify_refuses_a_changed_string),
        cmocka_unit_test(test_verify_refuses_null_made_a_number),
        cmocka_unit_test(test_verify_refuses_a_number_made_a_string),
        cmocka_unit_test(test_verify_refuses_reordered_top_level_members),
        cmocka_unit_test(test_verify_refuses_reordered_nested_members),
        cmocka_unit_test(test_verify_refuses_reordered_array_entries),
        cmocka_unit_test(test_verify_refuses_an_added_or_removed_member),
        cmocka_unit_test(test_verify_refuses_a_replaced_digest),
        cmocka_unit_test(test_verify_refuses_the_wrong_kind),
        cmocka_unit_test(test_verify_refuses_missing_or_non_string_kind),
        cmocka_unit_test(test_verify_refuses_missing_or_malformed_digest),
        cmocka_unit_test(test_verify_refuses_what_is_not_an_object),
        cmocka_unit_test(test_verify_refuses_a_fraction_with_a_readable_message),
        DIR_TEST(test_write_then_read_round_trip),
        DIR_TEST(test_read_refuses_an_edited_file_naming_it),
        DIR_TEST(test_read_refuses_the_wrong_kind_naming_the_file),
        DIR_TEST(test_read_missing_or_invalid_file),
        DIR_TEST(test_write_refuses_a_fraction_and_writes_nothing),
        DIR_TEST(test_write_refuses_what_no_reader_would_take_and_writes_nothing),
        cmocka_unit_test(test_verify_names_another_version_and_an_unknown_kind),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
