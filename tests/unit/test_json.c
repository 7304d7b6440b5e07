/*
 * Unit tests for lib/mm2_json: the canonical printer (integers exact up to 2^53 - 1, one escaping,
 * the pretty one-line-per-flat-container form), mm2_json_int64 / mm2_json_int at their edges,
 * mm2_json_get's messages, mm2_json_sorted, and the file helpers (read caps, NUL bytes, missing
 * files; atomic write with mode 0644 whatever the umask, through a fresh temporary file (no link
 * followed) of which nothing is left behind).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mm2_json.h"
#include "mm2_file.h"

/* Why, in every message about a cap (lib/mm2_limits.h). */
#define WHY "the cap that keeps the offset Job within its 256 MiB; LIMITS in mm2-offsets(1)"

/* ---- helpers --------------------------------------------------------------------------------- */

/* A fresh private directory per test (setup), removed with its files (teardown). */
struct dir {
    char path[64];
};

static int dir_setup(void **state)
{
    struct dir *d = calloc(1, sizeof(*d));

    if (d == NULL)
        return -1;
    (void)snprintf(d->path, sizeof(d->path), "/tmp/mm2-test-json-XXXXXX");
    if (mkdtemp(d->path) == NULL) {
        free(d);
        return -1;
    }
    *state = d;
    return 0;
}

static int dir_teardown(void **state)
{
    struct dir *d = *state;
    DIR *dh = opendir(d->path);
    struct dirent *e;

    while (dh != NULL && (e = readdir(dh)) != NULL) {
        char p[PATH_MAX];
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        (void)snprintf(p, sizeof(p), "%s/%s", d->path, e->d_name);
        if (unlink(p) != 0)
            (void)rmdir(p);
    }
    if (dh != NULL)
        closedir(dh);
    (void)rmdir(d->path);
    free(d);
    return 0;
}

static void file_in(const struct dir *d, const char *name, char *out, size_t len)
{
    (void)snprintf(out, len, "%s/%s", d->path, name);
}

static void put_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");

    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

/* The names in directory d other than "." and "..", up to max of them; returns how many. */
static size_t dir_entries(const struct dir *d, char names[][256], size_t max)
{
    DIR *dh = opendir(d->path);
    struct dirent *e;
    size_t n = 0;

    assert_non_null(dh);
    while ((e = readdir(dh)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (n < max)
            (void)snprintf(names[n], 256, "%s", e->d_name);
        n++;
    }
    closedir(dh);
    return n;
}

/* Parses json (it must parse) and prints it; the caller frees the text. */
static char *print_text(const char *json, bool pretty)
{
    cJSON *j = cJSON_Parse(json);
    char *s;

    if (j == NULL)
        fail_msg("test JSON does not parse: %s", json);
    s = mm2_json_print(j, pretty);
    cJSON_Delete(j);
    return s;
}

static void assert_prints(const char *json, bool pretty, const char *want)
{
    char *s = print_text(json, pretty);

    assert_non_null(s);
    assert_string_equal(s, want);
    free(s);
}

/* ---- the printer ----------------------------------------------------------------------------- */

static void test_print_compact_keeps_member_order_and_every_type(void **state)
{
    (void)state;
    assert_prints(
        "{\"b\": 1, \"a\": [1, 2, {\"c\": null}], \"t\": true, \"f\": false, \"s\": \"x\"}", false,
        "{\"b\":1,\"a\":[1,2,{\"c\":null}],\"t\":true,\"f\":false,\"s\":\"x\"}");
}

static void test_print_compact_empty_containers_and_top_level_scalars(void **state)
{
    (void)state;
    assert_prints("{}", false, "{}");
    assert_prints("[]", false, "[]");
    assert_prints("{\"a\": {}, \"b\": []}", false, "{\"a\":{},\"b\":[]}");
    assert_prints("5", false, "5");
    assert_prints("null", false, "null");
    assert_prints("\"x\"", false, "\"x\"");
    assert_prints("5", true, "5\n");
}

static void test_print_integer_ten_to_the_fifteen_is_not_an_exponent(void **state)
{
    cJSON *n = cJSON_CreateNumber(1e15);
    char *s;

    (void)state;
    /* cJSON_PrintUnformatted gives "1e+15", which Connect would not take as a long. */
    s = mm2_json_print(n, false);
    assert_non_null(s);
    assert_string_equal(s, "1000000000000000");
    free(s);
    cJSON_Delete(n);
    assert_prints("[1e3, 1.5e1, -0, 1.0]", false, "[1000,15,0,1]");
}

static void test_print_two_to_the_fifty_three_limit(void **state)
{
    (void)state;
    assert_prints("[9007199254740991, -9007199254740991]", false,
                  "[9007199254740991,-9007199254740991]");
    assert_null(print_text("[9007199254740992]", false));
    assert_null(print_text("[-9007199254740992]", false));
    assert_null(print_text("{\"a\": {\"b\": [1e300]}}", false));
}

static void test_print_refuses_fractions_anywhere(void **state)
{
    (void)state;
    assert_null(print_text("1.5", false));
    assert_null(print_text("{\"a\": [1, 2, 0.1]}", true));
    assert_null(print_text("{\"a\": -0.5}", false));
}

static void test_print_refuses_raw_items(void **state)
{
    cJSON *o = cJSON_CreateObject();

    (void)state;
    cJSON_AddItemToObject(o, "r", cJSON_CreateRaw("{\"x\":1}"));
    assert_null(mm2_json_print(o, false));
    assert_null(mm2_json_print(o, true));
    cJSON_Delete(o);
}

static void test_print_escapes_strings_the_one_way(void **state)
{
    cJSON *o = cJSON_CreateObject();
    char *s;

    (void)state;
    cJSON_AddStringToObject(o, "q\"k\n", "\"\\/\n\r\t\b\f\x01\x1f\x7f\xc3\xa9 end");
    s = mm2_json_print(o, false);
    assert_non_null(s);
    /* ", \, \n, \r, \t get their short escapes; other controls \u00XX (lowercase hex); '/',
     * DEL and UTF-8 bytes pass unchanged. Keys are escaped the same way. */
    assert_string_equal(s, "{\"q\\\"k\\n\":\"\\\"\\\\/\\n\\r\\t\\u0008\\u000c\\u0001\\u001f\x7f"
                           "\xc3\xa9 end\"}");
    free(s);
    cJSON_Delete(o);
}

static void test_print_escaped_text_parses_back_to_the_same_string(void **state)
{
    char raw[64];
    cJSON *o = cJSON_CreateObject(), *back;
    char *s;

    (void)state;
    for (int i = 1; i < 64; i++)
        raw[i - 1] = (char)i;
    raw[63] = '\0';
    cJSON_AddStringToObject(o, "k", raw);
    s = mm2_json_print(o, false);
    assert_non_null(s);
    back = cJSON_Parse(s);
    assert_non_null(back);
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(back, "k")->valuestring, raw);
    cJSON_Delete(back);
    free(s);
    cJSON_Delete(o);
}

static void test_print_pretty_flat_object_is_one_line(void **state)
{
    (void)state;
    assert_prints("{\"a\": 1, \"b\": \"x\", \"l\": [1, 2], \"n\": null}", true,
                  "{\"a\": 1, \"b\": \"x\", \"l\": [1, 2], \"n\": null}\n");
    assert_prints("{}", true, "{}\n");
    assert_prints("[]", true, "[]\n");
    assert_prints("[1, \"a\", true]", true, "[1, \"a\", true]\n");
}

static void test_print_pretty_one_line_per_partition(void **state)
{
    (void)state;
    assert_prints("{\"kind\": \"k\", \"connector\": {\"name\": \"c\", \"n\": 2}, \"partitions\": "
                  "[{\"topic\": \"a\", \"m\": null}, {\"topic\": \"b\", \"m\": 1}], \"empty\": [], "
                  "\"none\": {}}",
                  true,
                  "{\n"
                  "  \"kind\": \"k\",\n"
                  "  \"connector\": {\"name\": \"c\", \"n\": 2},\n"
                  "  \"partitions\": [\n"
                  "    {\"topic\": \"a\", \"m\": null},\n"
                  "    {\"topic\": \"b\", \"m\": 1}\n"
                  "  ],\n"
                  "  \"empty\": [],\n"
                  "  \"none\": {}\n"
                  "}\n");
}

static void test_print_pretty_array_of_scalar_arrays_is_one_line(void **state)
{
    (void)state;
    /* An array holding arrays of scalars is flat; the object holding it is not. */
    assert_prints("{\"a\": [[1, 2], [3]]}", true, "{\n  \"a\": [[1, 2], [3]]\n}\n");
    assert_prints("[[1, [2]]]", true, "[\n  [1, [2]]\n]\n");
}

static void test_print_pretty_and_compact_parse_to_the_same_tree(void **state)
{
    const char *json = "{\"a\": [{\"b\": [1, {\"c\": \"d\"}]}, 2], \"e\": {\"f\": {\"g\": null}}}";
    char *c = print_text(json, false), *p = print_text(json, true);
    cJSON *x, *y;

    (void)state;
    assert_non_null(c);
    assert_non_null(p);
    x = cJSON_Parse(c);
    y = cJSON_Parse(p);
    assert_true(cJSON_Compare(x, y, true));
    cJSON_Delete(x);
    cJSON_Delete(y);
    free(c);
    free(p);
}

/* ---- mm2_json_int64 / mm2_json_int ----------------------------------------------------------- */

struct int_case {
    const char *json;
    bool ok;
    int64_t v;
};

static void test_print_without_leaves_out_the_first_member_of_that_name_only(void **state)
{
    cJSON *j = cJSON_Parse("{\"a\": 1, \"digest\": \"x\", \"b\": {\"digest\": 2}, \"digest\": 3}");
    char *s;

    (void)state;
    assert_non_null(j);
    s = mm2_json_print_without(j, "digest", false);
    assert_string_equal(s, "{\"a\":1,\"b\":{\"digest\":2},\"digest\":3}");
    free(s);
    s = mm2_json_print_without(j, NULL, false);
    assert_string_equal(s, "{\"a\":1,\"digest\":\"x\",\"b\":{\"digest\":2},\"digest\":3}");
    free(s);
    cJSON_Delete(j);
}

static void test_values_counts_what_cjson_allocates(void **state)
{
    static const char *const docs[] = {
        "0",
        "[]",
        "{}",
        "[0]",
        "[[], {}, [[]], {\"a\": []}]",
        " { \"a\" : [ 1 , 2 ,3 ] ,\n \"b\":{ } ,\"c\" :\t[ {\"d\": null} ] } ",
        "[\"a,b\", \"[{\", \"q\\\"[,\", \"\\\\\", 1]",
        "{\"kind\": \"mm2kit.plan/v1\", \"partitions\": [{\"topic\": \"o\", \"c\": [1, "
        "null]}, {\"topic\": \"p\", \"c\": [true, false]}], \"digest\": \"sha256:x\"}",
    };

    (void)state;
    for (size_t i = 0; i < sizeof(docs) / sizeof(docs[0]); i++) {
        cJSON *j = cJSON_Parse(docs[i]);
        if (j == NULL)
            fail_msg("test JSON does not parse: %s", docs[i]);
        if (mm2_json_values(docs[i], strlen(docs[i])) != mm2_json_nodes(j))
            fail_msg("%s: counted %zu values, cJSON made %zu", docs[i],
                     mm2_json_values(docs[i], strlen(docs[i])), mm2_json_nodes(j));
        cJSON_Delete(j);
    }
    /* Not JSON: still bounded by its length, never read past it. */
    assert_int_equal(mm2_json_values("[1,", 2), 2);
    assert_int_equal(mm2_json_values("\"\\", 2), 1);
}

static void test_int64_accepts_exact_integers_only(void **state)
{
    static const struct int_case cases[] = {
        {"0", true, 0},
        {"-0", true, 0},
        {"42", true, 42},
        {"-42", true, -42},
        {"1.0", true, 1},
        {"1e3", true, 1000},
        {"1.5e1", true, 15},
        {"1E2", true, 100},
        {"9007199254740991", true, 9007199254740991LL},
        {"-9007199254740991", true, -9007199254740991LL},
        {"9007199254740992", false, 0},
        {"-9007199254740992", false, 0},
        {"1e16", false, 0},
        {"1e400", false, 0},
        {"-1e400", false, 0},
        {"0.5", false, 0},
        {"1.5", false, 0},
        {"-2.25", false, 0},
        {"1e-1", false, 0},
        {"\"5\"", false, 0},
        {"true", false, 0},
        {"null", false, 0},
        {"[1]", false, 0},
        {"{}", false, 0},
    };

    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        cJSON *j = cJSON_Parse(cases[i].json);
        int64_t v = -7;
        bool ok;
        if (j == NULL)
            fail_msg("does not parse: %s", cases[i].json);
        ok = mm2_json_int64(j, &v);
        if (ok != cases[i].ok || (ok && v != cases[i].v))
            fail_msg("%s: got %d %lld", cases[i].json, ok, (long long)v);
        cJSON_Delete(j);
    }
    assert_false(mm2_json_int64(NULL, &(int64_t){0}));
}

static void test_int64_refuses_nan_and_infinity(void **state)
{
    cJSON *n = cJSON_CreateNumber(0.0);
    int64_t v;

    (void)state;
    /* valuedouble directly: cJSON_SetNumberValue would cast NaN to int. */
    n->valuedouble = NAN;
    assert_false(mm2_json_int64(n, &v));
    n->valuedouble = INFINITY;
    assert_false(mm2_json_int64(n, &v));
    n->valuedouble = -INFINITY;
    assert_false(mm2_json_int64(n, &v));
    assert_null(mm2_json_print(n, false));
    cJSON_Delete(n);
}

static void test_int_creates_within_two_to_the_fifty_three(void **state)
{
    cJSON *j;
    int64_t v;

    (void)state;
    j = mm2_json_int(MM2_JSON_INT_MAX);
    assert_non_null(j);
    assert_true(mm2_json_int64(j, &v));
    assert_true(v == MM2_JSON_INT_MAX);
    cJSON_Delete(j);
    j = mm2_json_int(-MM2_JSON_INT_MAX);
    assert_non_null(j);
    assert_true(mm2_json_int64(j, &v));
    assert_true(v == -MM2_JSON_INT_MAX);
    cJSON_Delete(j);
    j = mm2_json_int(0);
    assert_non_null(j);
    cJSON_Delete(j);
    assert_null(mm2_json_int(MM2_JSON_INT_MAX + 1));
    assert_null(mm2_json_int(-MM2_JSON_INT_MAX - 1));
    assert_null(mm2_json_int(INT64_MAX));
    assert_null(mm2_json_int(INT64_MIN));
}

/* ---- mm2_json_get ---------------------------------------------------------------------------- */

static void test_get_returns_member_of_right_type(void **state)
{
    cJSON *o =
        cJSON_Parse("{\"s\": \"x\", \"i\": 7, \"o\": {}, \"a\": [], \"b\": false, \"n\": null}");
    struct mm2_error err = {0};

    (void)state;
    assert_string_equal(mm2_json_get(o, "s", MM2_JSON_STRING, "w", &err)->valuestring, "x");
    assert_non_null(mm2_json_get(o, "i", MM2_JSON_INT, "w", &err));
    assert_non_null(mm2_json_get(o, "o", MM2_JSON_OBJECT, "w", &err));
    assert_non_null(mm2_json_get(o, "a", MM2_JSON_ARRAY, "w", &err));
    assert_non_null(mm2_json_get(o, "b", MM2_JSON_BOOL, "w", &err));
    assert_non_null(mm2_json_get(o, "n", MM2_JSON_NULL, "w", &err));
    assert_non_null(mm2_json_get(o, "n", MM2_JSON_INT | MM2_JSON_NULL, "w", &err));
    assert_non_null(mm2_json_get(o, "i", MM2_JSON_INT | MM2_JSON_NULL, "w", &err));
    assert_int_equal(err.code, MM2_OK);
    cJSON_Delete(o);
}

static void test_get_missing_member_names_the_path(void **state)
{
    cJSON *o = cJSON_Parse("{\"kind\": \"x\"}");
    struct mm2_error err = {0};

    (void)state;
    assert_null(mm2_json_get(o, "digest", MM2_JSON_STRING, "plan", &err));
    assert_int_equal(err.code, MM2_UNEXPECTED);
    assert_string_equal(err.msg, "plan.digest is missing");
    /* Keys are case-sensitive. */
    assert_null(mm2_json_get(o, "Kind", MM2_JSON_STRING, "plan", &err));
    assert_string_equal(err.msg, "plan.Kind is missing");
    cJSON_Delete(o);
}

static void test_get_wrong_type_lists_what_was_expected(void **state)
{
    cJSON *o = cJSON_Parse("{\"x\": \"1\", \"f\": 1.5, \"big\": 9007199254740992}");
    struct mm2_error err = {0};

    (void)state;
    assert_null(mm2_json_get(o, "x", MM2_JSON_INT, "offsets[0].offset", &err));
    assert_int_equal(err.code, MM2_UNEXPECTED);
    assert_string_equal(err.msg, "offsets[0].offset.x is not an integer");
    assert_null(mm2_json_get(o, "x", MM2_JSON_INT | MM2_JSON_NULL, "p", &err));
    assert_string_equal(err.msg, "p.x is not an integer or null");
    assert_null(mm2_json_get(o, "f", MM2_JSON_STRING | MM2_JSON_OBJECT, "p", &err));
    assert_string_equal(err.msg, "p.f is not a string or an object");
    assert_null(mm2_json_get(o, "f", MM2_JSON_INT, "p", &err));
    assert_string_equal(err.msg, "p.f is not an integer");
    assert_null(mm2_json_get(o, "big", MM2_JSON_INT, "p", &err));
    assert_string_equal(err.msg, "p.big is not an integer");
    assert_null(mm2_json_get(
        o, "x", MM2_JSON_INT | MM2_JSON_OBJECT | MM2_JSON_ARRAY | MM2_JSON_BOOL | MM2_JSON_NULL,
        "p", &err));
    assert_string_equal(err.msg,
                        "p.x is not an integer or an object or an array or a boolean or null");
    cJSON_Delete(o);
}

static void test_get_on_non_object_says_so(void **state)
{
    cJSON *a = cJSON_Parse("[1]");
    struct mm2_error err = {0};

    (void)state;
    assert_null(mm2_json_get(a, "x", MM2_JSON_INT, "answer", &err));
    assert_int_equal(err.code, MM2_UNEXPECTED);
    assert_string_equal(err.msg, "answer is not an object");
    mm2_error_clear(&err);
    assert_null(mm2_json_get(NULL, "x", MM2_JSON_INT, "answer", &err));
    assert_string_equal(err.msg, "answer is not an object");
    cJSON_Delete(a);
}

/* ---- mm2_json_sorted ------------------------------------------------------------------------- */

static void test_sorted_sorts_every_object_and_keeps_array_order(void **state)
{
    cJSON *o = cJSON_Parse("{\"b\": {\"z\": 1, \"y\": 2}, \"a\": [{\"d\": 1, \"c\": 2}, 3, 1], "
                           "\"B\": true, \"a.b\": 1, \"a-b\": 2}");
    cJSON *s = mm2_json_sorted(o);
    char *t;

    (void)state;
    assert_non_null(s);
    t = mm2_json_print(s, false);
    /* strcmp order: 'B' < 'a', "a" < "a-b" < "a.b" ('-' is 0x2d, '.' 0x2e). */
    assert_string_equal(t, "{\"B\":true,\"a\":[{\"c\":2,\"d\":1},3,1],\"a-b\":2,\"a.b\":1,"
                           "\"b\":{\"y\":2,\"z\":1}}");
    free(t);
    /* The input is untouched. */
    t = mm2_json_print(o, false);
    assert_string_equal(t, "{\"b\":{\"z\":1,\"y\":2},\"a\":[{\"d\":1,\"c\":2},3,1],\"B\":true,"
                           "\"a.b\":1,\"a-b\":2}");
    free(t);
    cJSON_Delete(s);
    cJSON_Delete(o);
}

static void test_sorted_configs_differing_only_in_order_print_the_same(void **state)
{
    cJSON *x = cJSON_Parse("{\"topics\": \"orders\", \"tasks.max\": \"4\", \"name\": \"c\"}");
    cJSON *y = cJSON_Parse("{\"name\": \"c\", \"topics\": \"orders\", \"tasks.max\": \"4\"}");
    cJSON *sx = mm2_json_sorted(x), *sy = mm2_json_sorted(y);
    char *tx = mm2_json_print(sx, false), *ty = mm2_json_print(sy, false);

    (void)state;
    assert_string_equal(tx, ty);
    assert_string_equal(tx, "{\"name\":\"c\",\"tasks.max\":\"4\",\"topics\":\"orders\"}");
    free(tx);
    free(ty);
    cJSON_Delete(sx);
    cJSON_Delete(sy);
    cJSON_Delete(x);
    cJSON_Delete(y);
}

static void test_sorted_scalars_and_empty_containers_are_copies(void **state)
{
    cJSON *n = cJSON_CreateNumber(3), *o = cJSON_CreateObject(), *a = cJSON_CreateArray();
    cJSON *sn = mm2_json_sorted(n), *so = mm2_json_sorted(o), *sa = mm2_json_sorted(a);

    (void)state;
    assert_non_null(sn);
    assert_ptr_not_equal(sn, n);
    assert_true(cJSON_Compare(sn, n, true));
    assert_true(cJSON_IsObject(so));
    assert_null(so->child);
    assert_true(cJSON_IsArray(sa));
    assert_null(sa->child);
    cJSON_Delete(sn);
    cJSON_Delete(so);
    cJSON_Delete(sa);
    cJSON_Delete(n);
    cJSON_Delete(o);
    cJSON_Delete(a);
}

/* ---- mm2_file_read --------------------------------------------------------------------------- */

static void test_file_read_returns_content_and_length(void **state)
{
    struct dir *d = *state;
    struct mm2_error err = {0};
    char path[PATH_MAX], *out = NULL;
    size_t len = 99;

    file_in(d, "a.json", path, sizeof(path));
    put_file(path, "{\"a\": 1}\n", 9);
    assert_int_equal(mm2_file_read("plan", path, 1024, &out, &len, &err), MM2_OK);
    assert_int_equal(len, 9);
    assert_string_equal(out, "{\"a\": 1}\n");
    free(out);
}

static void test_file_read_empty_file_is_empty_string(void **state)
{
    struct dir *d = *state;
    struct mm2_error err = {0};
    char path[PATH_MAX], *out = NULL;
    size_t len = 99;

    file_in(d, "empty", path, sizeof(path));
    put_file(path, "", 0);
    assert_int_equal(mm2_file_read("plan", path, 0, &out, &len, &err), MM2_OK);
    assert_int_equal(len, 0);
    assert_non_null(out);
    assert_string_equal(out, "");
    free(out);
}

static void test_file_read_exactly_max_is_read_one_more_is_refused(void **state)
{
    struct dir *d = *state;
    struct mm2_error err = {0};
    char path[PATH_MAX], want[PATH_MAX + 200], *out = NULL;
    size_t len = 99;

    file_in(d, "ten", path, sizeof(path));
    put_file(path, "0123456789", 10);
    assert_int_equal(mm2_file_read("plan", path, 10, &out, &len, &err), MM2_OK);
    assert_int_equal(len, 10);
    assert_string_equal(out, "0123456789");
    free(out);
    out = (char *)1;
    assert_int_equal(mm2_file_read("plan", path, 9, &out, &len, &err), MM2_CONFIG);
    assert_null(out);
    assert_int_equal(len, 0);
    (void)snprintf(want, sizeof(want),
                   "plan file %s is 10 bytes, above the cap of 9 bytes (" WHY
                   "); check that it is the right file",
                   path);
    assert_string_equal(err.msg, want);
}

static void test_file_read_large_file_across_chunks(void **state)
{
    struct dir *d = *state;
    struct mm2_error err = {0};
    char path[PATH_MAX], want[PATH_MAX + 200], *out = NULL;
    size_t n = 300000, len = 0;
    char *big = malloc(n);

    assert_non_null(big);
    for (size_t i = 0; i < n; i++)
        big[i] = (char)('a' + i % 26);
    file_in(d, "big", path, sizeof(path));
    put_file(path, big, n);
    assert_int_equal(mm2_file_read("export", path, n, &out, &len, &err), MM2_OK);
    assert_int_equal(len, n);
    assert_memory_equal(out, big, n);
    assert_int_equal(out[n], '\0');
    free(out);
    assert_int_equal(mm2_file_read("export", path, 100000, &out, &len, &err), MM2_CONFIG);
    (void)snprintf(want, sizeof(want),
                   "export file %s is 300000 bytes, above the cap of 100000 bytes (" WHY
                   "); check that it is the right file",
                   path);
    assert_string_equal(err.msg, want);
    free(big);
}

static void test_file_read_without_a_practical_cap_reads_everything(void **state)
{
    static const size_t maxes[] = {SIZE_MAX, SIZE_MAX - 1, SIZE_MAX - 65536};
    struct dir *d = *state;
    struct mm2_error err = {0};
    char path[PATH_MAX];
    size_t n = 100000;
    char *big = malloc(n);

    assert_non_null(big);
    memset(big, 'z', n);
    file_in(d, "big", path, sizeof(path));
    put_file(path, big, n);
    /* max + one chunk would wrap around for max near SIZE_MAX: the buffer limit is clamped, so
     * the file is read whole, never cut after the first chunk. */
    for (size_t k = 0; k < sizeof(maxes) / sizeof(maxes[0]); k++) {
        char *out = NULL;
        size_t len = 0;
        assert_int_equal(mm2_file_read("export", path, maxes[k], &out, &len, &err), MM2_OK);
        assert_int_equal(len, n);
        assert_memory_equal(out, big, n);
        assert_int_equal(out[n], '\0');
        free(out);
    }
    free(big);
}

static void test_file_read_stream_above_max_is_refused_while_read(void **state)
{
    struct mm2_error err = {0};
    char *out = (char *)1;
    size_t len = 99;

    (void)state;
    /* A device has no size to check first: the reading loop stops at the cap. */
    assert_int_equal(mm2_file_read("plan", "/dev/zero", 100000, &out, &len, &err), MM2_CONFIG);
    assert_null(out);
    assert_string_equal(err.msg, "plan file /dev/zero is larger than the cap of 100000 bytes (" WHY
                                 "); check that it is the right file");
}

static void test_parse_file_refuses_more_values_than_the_cap_before_parsing(void **state)
{
    struct dir *d = *state;
    struct mm2_error err = {0};
    char path[PATH_MAX], want[PATH_MAX + 200];
    /* [0,0,...,0]: the array and its MM2_JSON_VALUES_MAX zeros, one value above the cap; parsed,
     * some 120 MB for a 3 MB file. */
    size_t zeros = (size_t)MM2_JSON_VALUES_MAX, len = 2 * zeros + 1;
    char *text = malloc(len);
    cJSON *j = (cJSON *)1;

    assert_non_null(text);
    text[0] = '[';
    for (size_t i = 0; i < zeros; i++)
        memcpy(text + 1 + 2 * i, i + 1 < zeros ? "0," : "0]", 2);
    file_in(d, "dense.json", path, sizeof(path));
    put_file(path, text, len);
    free(text);
    assert_int_equal(mm2_json_parse_file("plan", path, 8 * 1024 * 1024, &j, &err), MM2_CONFIG);
    assert_null(j);
    (void)snprintf(want, sizeof(want),
                   "plan file %s holds %ld JSON values, above the cap of %ld (" WHY
                   "); check that it is the right file",
                   path, MM2_JSON_VALUES_MAX + 1, MM2_JSON_VALUES_MAX);
    assert_string_equal(err.msg, want);
}

static void test_file_read_refuses_nul_byte(void **state)
{
    struct dir *d = *state;
    struct mm2_error err = {0};
    char path[PATH_MAX], want[PATH_MAX + 64], *out = NULL;
    size_t len = 0;

    file_in(d, "nul", path, sizeof(path));
    put_file(path, "{\"a\":\0 1}", 9);
    assert_int_equal(mm2_file_read("connector", path, 100, &out, &len, &err), MM2_CONFIG);
    assert_null(out);
    (void)snprintf(want, sizeof(want), "connector file %s holds a NUL byte; it is not text", path);
    assert_string_equal(err.msg, want);
}

static void test_file_read_missing_file_names_path_and_reason(void **state)
{
    struct dir *d = *state;
    struct mm2_error err = {0};
    char path[PATH_MAX], want[PATH_MAX + 64], *out = NULL;
    size_t len = 0;

    file_in(d, "nope.json", path, sizeof(path));
    assert_int_equal(mm2_file_read("plan", path, 100, &out, &len, &err), MM2_CONFIG);
    assert_int_equal(err.code, MM2_CONFIG);
    assert_null(out);
    (void)snprintf(want, sizeof(want), "cannot open plan file %s: No such file or directory", path);
    assert_string_equal(err.msg, want);
}

static void test_file_read_directory_is_refused(void **state)
{
    struct dir *d = *state;
    struct mm2_error err = {0};
    char want[PATH_MAX + 64], *out = NULL;
    size_t len = 0;

    assert_int_equal(mm2_file_read("plan", d->path, 100, &out, &len, &err), MM2_CONFIG);
    assert_null(out);
    (void)snprintf(want, sizeof(want), "cannot read plan file %s: Is a directory", d->path);
    assert_string_equal(err.msg, want);
}

/* ---- mm2_file_write -------------------------------------------------------------------------- */

static void test_file_write_writes_content_mode_0644_and_leaves_no_temp_file(void **state)
{
    struct dir *d = *state;
    struct mm2_error err = {0};
    char path[PATH_MAX], names[4][256], *out = NULL;
    size_t len = 0;
    struct stat st;
    mode_t old = umask(022);

    file_in(d, "plan.json", path, sizeof(path));
    assert_int_equal(mm2_file_write("plan", path, "{\"a\":1}\n", 8, &err), MM2_OK);
    umask(old);
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0644);
    assert_int_equal(mm2_file_read("plan", path, 100, &out, &len, &err), MM2_OK);
    assert_string_equal(out, "{\"a\":1}\n");
    free(out);
    assert_int_equal(dir_entries(d, names, 4), 1);
    assert_string_equal(names[0], "plan.json");
}

static void test_file_write_mode_is_0644_under_a_strict_umask(void **state)
{
    struct dir *d = *state;
    struct mm2_error err = {0};
    char path[PATH_MAX];
    struct stat st;
    mode_t old = umask(077);

    file_in(d, "plan.json", path, sizeof(path));
    assert_int_equal(mm2_file_write("plan", path, "x", 1, &err), MM2_OK);
    umask(old);
    assert_int_equal(stat(path, &st), 0);
    /* 0644 whatever the umask (077 is common in hardened Jobs): artifacts hold no secret. */
    assert_int_equal(st.st_mode & 07777, 0644);
}

static void test_file_write_does_not_follow_a_link_at_a_predictable_temp_name(void **state)
{
    struct dir *d = *state;
    struct mm2_error err = {0};
    char path[PATH_MAX], victim[PATH_MAX], link[PATH_MAX + 32], *out = NULL;
    size_t len = 0;
    mode_t old = umask(022);

    /* Someone who can write the directory plants a link where a PATH.tmp.PID name would be. */
    file_in(d, "victim", victim, sizeof(victim));
    put_file(victim, "keep me", 7);
    file_in(d, "plan.json", path, sizeof(path));
    (void)snprintf(link, sizeof(link), "%s.tmp.%ld", path, (long)getpid());
    assert_int_equal(symlink(victim, link), 0);
    assert_int_equal(mm2_file_write("plan", path, "new", 3, &err), MM2_OK);
    umask(old);
    assert_int_equal(mm2_file_read("plan", victim, 100, &out, &len, &err), MM2_OK);
    assert_string_equal(out, "keep me");
    free(out);
    assert_int_equal(mm2_file_read("plan", path, 100, &out, &len, &err), MM2_OK);
    assert_string_equal(out, "new");
    free(out);
}

static void test_file_write_replaces_an_existing_file(void **state)
{
    struct dir *d = *state;
    struct mm2_error err = {0};
    char path[PATH_MAX], names[4][256], *out = NULL;
    size_t len = 0;
    struct stat st;
    mode_t old = umask(022);

    file_in(d, "plan.json", path, sizeof(path));
    put_file(path, "old content that is longer", 26);
    assert_int_equal(chmod(path, 0600), 0);
    assert_int_equal(mm2_file_write("plan", path, "new", 3, &err), MM2_OK);
    umask(old);
    assert_int_equal(mm2_file_read("plan", path, 100, &out, &len, &err), MM2_OK);
    assert_string_equal(out, "new");
    free(out);
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0644);
    assert_int_equal(dir_entries(d, names, 4), 1);
}

static void test_file_write_empty_data(void **state)
{
    struct dir *d = *state;
    struct mm2_error err = {0};
    char path[PATH_MAX];
    struct stat st;

    file_in(d, "e", path, sizeof(path));
    assert_int_equal(mm2_file_write("plan", path, "", 0, &err), MM2_OK);
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_size, 0);
}

static void test_file_write_missing_directory_is_config_error(void **state)
{
    struct dir *d = *state;
    struct mm2_error err = {0};
    char path[PATH_MAX], want[PATH_MAX + 64], names[4][256];

    file_in(d, "no-such-dir/plan.json", path, sizeof(path));
    assert_int_equal(mm2_file_write("plan", path, "x", 1, &err), MM2_CONFIG);
    (void)snprintf(want, sizeof(want), "cannot write plan file %s: No such file or directory",
                   path);
    assert_string_equal(err.msg, want);
    assert_int_equal(dir_entries(d, names, 4), 0);
}

static void test_file_write_parent_that_is_a_file_is_config_error(void **state)
{
    struct dir *d = *state;
    struct mm2_error err = {0};
    char file[PATH_MAX], path[PATH_MAX + 16], want[PATH_MAX + 64];

    file_in(d, "f", file, sizeof(file));
    put_file(file, "x", 1);
    (void)snprintf(path, sizeof(path), "%s/plan.json", file);
    assert_int_equal(mm2_file_write("backup", path, "x", 1, &err), MM2_CONFIG);
    (void)snprintf(want, sizeof(want), "cannot write backup file %s: Not a directory", path);
    assert_string_equal(err.msg, want);
}

static void test_file_write_path_too_long_is_refused(void **state)
{
    struct mm2_error err = {0};
    char path[4200], want[300];

    (void)state;
    memset(path, 'a', sizeof(path) - 1);
    path[0] = '/';
    path[sizeof(path) - 1] = '\0';
    assert_int_equal(mm2_file_write("plan", path, "x", 1, &err), MM2_CONFIG);
    (void)snprintf(want, sizeof(want), "plan file path is too long: %.200s...", path);
    assert_string_equal(err.msg, want);
}

/* ---- mm2_json_parse_file --------------------------------------------------------------------- */

static void test_parse_file_reads_json_with_trailing_whitespace(void **state)
{
    struct dir *d = *state;
    struct mm2_error err = {0};
    char path[PATH_MAX];
    cJSON *j = NULL;

    file_in(d, "x.json", path, sizeof(path));
    put_file(path, "\n {\"a\": [1, 2]}\n\n  \t\n", 21);
    assert_int_equal(mm2_json_parse_file("plan", path, 100, &j, &err), MM2_OK);
    assert_non_null(j);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(j, "a")), 2);
    cJSON_Delete(j);
    put_file(path, "{}", 2);
    assert_int_equal(mm2_json_parse_file("plan", path, 100, &j, &err), MM2_OK);
    assert_true(cJSON_IsObject(j));
    cJSON_Delete(j);
}

static void test_parse_file_invalid_json_names_path_and_byte(void **state)
{
    struct dir *d = *state;
    struct mm2_error err = {0};
    char path[PATH_MAX], want[PATH_MAX + 64];
    cJSON *j = (cJSON *)1;

    file_in(d, "x.json", path, sizeof(path));
    put_file(path, "{\"a\": 1} x", 10);
    assert_int_equal(mm2_json_parse_file("plan", path, 100, &j, &err), MM2_CONFIG);
    assert_null(j);
    (void)snprintf(want, sizeof(want), "plan file %s is not valid JSON (near byte 9)", path);
    assert_string_equal(err.msg, want);
    put_file(path, "{\"a\": tru}", 10);
    assert_int_equal(mm2_json_parse_file("plan", path, 100, &j, &err), MM2_CONFIG);
    (void)snprintf(want, sizeof(want), "plan file %s is not valid JSON (near byte 6)", path);
    assert_string_equal(err.msg, want);
    put_file(path, "", 0);
    assert_int_equal(mm2_json_parse_file("plan", path, 100, &j, &err), MM2_CONFIG);
    (void)snprintf(want, sizeof(want), "plan file %s is not valid JSON (near byte 0)", path);
    assert_string_equal(err.msg, want);
}

static void test_parse_file_passes_read_errors_through(void **state)
{
    struct dir *d = *state;
    struct mm2_error err = {0};
    char path[PATH_MAX], want[PATH_MAX + 200];
    cJSON *j = (cJSON *)1;

    file_in(d, "missing.json", path, sizeof(path));
    assert_int_equal(mm2_json_parse_file("export", path, 100, &j, &err), MM2_CONFIG);
    assert_null(j);
    (void)snprintf(want, sizeof(want), "cannot open export file %s: No such file or directory",
                   path);
    assert_string_equal(err.msg, want);
    file_in(d, "big.json", path, sizeof(path));
    put_file(path, "[1, 2, 3]", 9);
    assert_int_equal(mm2_json_parse_file("export", path, 8, &j, &err), MM2_CONFIG);
    (void)snprintf(want, sizeof(want),
                   "export file %s is 9 bytes, above the cap of 8 bytes (" WHY
                   "); check that it is the right file",
                   path);
    assert_string_equal(err.msg, want);
}

#define DIR_TEST(fn) cmocka_unit_test_setup_teardown(fn, dir_setup, dir_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_print_compact_keeps_member_order_and_every_type),
        cmocka_unit_test(test_print_compact_empty_containers_and_top_level_scalars),
        cmocka_unit_test(test_print_integer_ten_to_the_fifteen_is_not_an_exponent),
        cmocka_unit_test(test_print_two_to_the_fifty_three_limit),
        cmocka_unit_test(test_print_refuses_fractions_anywhere),
        cmocka_unit_test(test_print_refuses_raw_items),
        cmocka_unit_test(test_print_escapes_strings_the_one_way),
        cmocka_unit_test(test_print_escaped_text_parses_back_to_the_same_string),
        cmocka_unit_test(test_print_pretty_flat_object_is_one_line),
        cmocka_unit_test(test_print_pretty_one_line_per_partition),
        cmocka_unit_test(test_print_pretty_array_of_scalar_arrays_is_one_line),
        cmocka_unit_test(test_print_pretty_and_compact_parse_to_the_same_tree),
        cmocka_unit_test(test_int64_accepts_exact_integers_only),
        cmocka_unit_test(test_int64_refuses_nan_and_infinity),
        cmocka_unit_test(test_int_creates_within_two_to_the_fifty_three),
        cmocka_unit_test(test_get_returns_member_of_right_type),
        cmocka_unit_test(test_get_missing_member_names_the_path),
        cmocka_unit_test(test_get_wrong_type_lists_what_was_expected),
        cmocka_unit_test(test_get_on_non_object_says_so),
        cmocka_unit_test(test_sorted_sorts_every_object_and_keeps_array_order),
        cmocka_unit_test(test_sorted_configs_differing_only_in_order_print_the_same),
        cmocka_unit_test(test_sorted_scalars_and_empty_containers_are_copies),
        DIR_TEST(test_file_read_returns_content_and_length),
        DIR_TEST(test_file_read_empty_file_is_empty_string),
        DIR_TEST(test_file_read_exactly_max_is_read_one_more_is_refused),
        DIR_TEST(test_file_read_large_file_across_chunks),
        DIR_TEST(test_file_read_without_a_practical_cap_reads_everything),
        DIR_TEST(test_file_read_refuses_nul_byte),
        DIR_TEST(test_file_read_missing_file_names_path_and_reason),
        DIR_TEST(test_file_read_directory_is_refused),
        DIR_TEST(test_file_write_writes_content_mode_0644_and_leaves_no_temp_file),
        DIR_TEST(test_file_write_mode_is_0644_under_a_strict_umask),
        DIR_TEST(test_file_write_does_not_follow_a_link_at_a_predictable_temp_name),
        DIR_TEST(test_file_write_replaces_an_existing_file),
        DIR_TEST(test_file_write_empty_data),
        DIR_TEST(test_file_write_missing_directory_is_config_error),
        DIR_TEST(test_file_write_parent_that_is_a_file_is_config_error),
        cmocka_unit_test(test_file_write_path_too_long_is_refused),
        DIR_TEST(test_parse_file_reads_json_with_trailing_whitespace),
        DIR_TEST(test_parse_file_invalid_json_names_path_and_byte),
        DIR_TEST(test_parse_file_passes_read_errors_through),
        DIR_TEST(test_parse_file_refuses_more_values_than_the_cap_before_parsing),
        cmocka_unit_test(test_file_read_stream_above_max_is_refused_while_read),
        cmocka_unit_test(test_print_without_leaves_out_the_first_member_of_that_name_only),
        cmocka_unit_test(test_values_counts_what_cjson_allocates),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
