/* Unit tests for mm2_cfgview: the config as artifacts record it, and the comparison that names
 * the keys that differ. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "mm2_cfgview.h"

static cJSON *parse(const char *text)
{
    cJSON *c = cJSON_Parse(text);

    assert_non_null(c);
    return c;
}

static cJSON *view_of(const char *config_text)
{
    cJSON *c = parse(config_text), *v = NULL;
    struct mm2_error err = {0};

    assert_int_equal(mm2_cfgview_make(c, "mm", &v, &err), MM2_OK);
    cJSON_Delete(c);
    return v;
}

static const char *member(const cJSON *v, const char *key)
{
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(v, key);

    return cJSON_IsString(m) ? m->valuestring : NULL;
}

static void test_make_masks_plain_secrets_and_keeps_references(void **state)
{
    cJSON *v = view_of("{\"name\": \"old\", \"tasks.max\": \"4\", "
                       "\"source.cluster.sasl.jaas.config\": \"${env:SOURCE_JAAS}\", "
                       "\"target.cluster.ssl.key.password\": \"hunter2\", "
                       "\"source.cluster.sasl.password\": \"${file:/etc/x:pw}\"}");
    const char *m;

    (void)state;
    assert_string_equal(member(v, "name"), "mm"); /* as Connect stores it */
    assert_string_equal(member(v, "tasks.max"), "4");
    assert_string_equal(member(v, "source.cluster.sasl.jaas.config"), "${env:SOURCE_JAAS}");
    assert_string_equal(member(v, "source.cluster.sasl.password"), "${file:/etc/x:pw}");
    m = member(v, "target.cluster.ssl.key.password");
    assert_non_null(m);
    assert_null(strstr(m, "hunter2"));
    assert_int_equal(strncmp(m, MM2_CFGVIEW_SECRET, strlen(MM2_CFGVIEW_SECRET)), 0);
    assert_int_equal(strlen(m), strlen(MM2_CFGVIEW_SECRET) + 16 + 1);
    cJSON_Delete(v);
}

static void test_make_text_around_a_reference_is_still_a_secret(void **state)
{
    cJSON *v = view_of("{\"source.cluster.sasl.jaas.config\": \"x password=\\\"${env:PW}\\\";\", "
                       "\"a.password\": \"${env:A}${env:B}\", \"b.password\": \"${nocolon}\"}");

    (void)state;
    assert_int_equal(strncmp(member(v, "source.cluster.sasl.jaas.config"), MM2_CFGVIEW_SECRET,
                             strlen(MM2_CFGVIEW_SECRET)),
                     0);
    assert_int_equal(
        strncmp(member(v, "a.password"), MM2_CFGVIEW_SECRET, strlen(MM2_CFGVIEW_SECRET)), 0);
    assert_int_equal(
        strncmp(member(v, "b.password"), MM2_CFGVIEW_SECRET, strlen(MM2_CFGVIEW_SECRET)), 0);
    cJSON_Delete(v);
}

static void test_make_refuses_a_value_that_is_not_a_string(void **state)
{
    cJSON *c = parse("{\"tasks.max\": 4}"), *v = NULL;
    struct mm2_error err = {0};

    (void)state;
    assert_int_equal(mm2_cfgview_make(c, "mm", &v, &err), MM2_CONFIG);
    assert_string_equal(err.msg, "config.tasks.max is not a string");
    assert_null(v);
    cJSON_Delete(c);
}

static void test_check_refuses_a_plain_secret_and_other_shapes(void **state)
{
    struct mm2_error err = {0};
    cJSON *ok = view_of("{\"x.password\": \"s3cret\", \"topics\": \"a\"}");
    cJSON *plain = parse("{\"x.password\": \"s3cret\"}");
    cJSON *num = parse("{\"tasks.max\": 4}");
    cJSON *arr = parse("[]");

    (void)state;
    assert_int_equal(mm2_cfgview_check(ok, "plan.connector.config", &err), MM2_OK);
    assert_int_equal(mm2_cfgview_check(plain, "plan.connector.config", &err), MM2_CONFIG);
    assert_string_equal(err.msg, "plan.connector.config.x.password holds a plain secret value; "
                                 "an artifact never does");
    assert_int_equal(mm2_cfgview_check(num, "plan.connector.config", &err), MM2_CONFIG);
    assert_string_equal(err.msg, "plan.connector.config.tasks.max is not a string");
    assert_int_equal(mm2_cfgview_check(arr, "plan.connector.config", &err), MM2_CONFIG);
    assert_string_equal(err.msg, "plan.connector.config is not an object");
    cJSON_Delete(ok);
    cJSON_Delete(plain);
    cJSON_Delete(num);
    cJSON_Delete(arr);
}

static void test_diff_names_changed_added_removed_and_secret_keys(void **state)
{
    cJSON *a = view_of("{\"tasks.max\": \"2\", \"x.password\": \"one\", \"topics\": \"a\", "
                       "\"gone\": \"g\", \"same.password\": \"p\"}");
    cJSON *b = view_of("{\"tasks.max\": \"4\", \"x.password\": \"two\", \"topics\": \"a\", "
                       "\"new\": \"n\\u0001\", \"same.password\": \"p\"}");
    char buf[512];

    (void)state;
    assert_int_equal(mm2_cfgview_diff(a, "the plan", b, "Connect", buf, sizeof(buf)), 4);
    assert_string_equal(buf, "gone (\"g\" in the plan, not in Connect), new (not in the plan, "
                             "\"n?\" in Connect), tasks.max (\"2\" in the plan, \"4\" in "
                             "Connect), x.password (a secret: differs)");
    assert_int_equal(mm2_cfgview_diff(a, "the plan", a, "Connect", buf, sizeof(buf)), 0);
    assert_string_equal(buf, "");
    assert_int_equal(mm2_cfgview_diff(NULL, "the plan", b, "Connect", buf, sizeof(buf)), 0);
    assert_string_equal(buf, "");
    cJSON_Delete(a);
    cJSON_Delete(b);
}

static void test_diff_counts_beyond_the_named_and_cuts_long_values(void **state)
{
    cJSON *a = view_of("{\"k1\": \"1\", \"k2\": \"1\", \"k3\": \"1\", \"k4\": \"1\", \"k5\": "
                       "\"1\", \"k6\": \"1\", \"x.password\": \"${env:A}\"}");
    cJSON *b = view_of("{\"k1\": \"0123456789012345678901234567890123456789tail\", \"k2\": "
                       "\"2\", \"k3\": \"2\", \"k4\": \"2\", \"k5\": \"2\", \"k6\": \"2\", "
                       "\"x.password\": \"plain\"}");
    char buf[512], small[40];

    (void)state;
    assert_int_equal(mm2_cfgview_diff(a, "A", b, "B", buf, sizeof(buf)), 7);
    assert_string_equal(buf, "k1 (\"1\" in A, \"0123456789012345678901234567890123456789...\" "
                             "in B), k2 (\"1\" in A, \"2\" in B), k3 (\"1\" in A, \"2\" in B), k4 "
                             "(\"1\" in A, \"2\" in B), and 3 more keys");
    /* A small buffer is cut, never overrun. */
    assert_int_equal(mm2_cfgview_diff(a, "A", b, "B", small, sizeof(small)), 7);
    assert_int_equal(strlen(small), sizeof(small) - 1);
    cJSON_Delete(a);
    cJSON_Delete(b);
}

static void test_diff_shows_a_reference_against_a_masked_secret(void **state)
{
    cJSON *a = view_of("{\"x.password\": \"${env:A}\"}");
    cJSON *b = view_of("{\"x.password\": \"plain\"}");
    char buf[256];

    (void)state;
    assert_int_equal(mm2_cfgview_diff(a, "A", b, "B", buf, sizeof(buf)), 1);
    assert_string_equal(buf, "x.password (\"${env:A}\" in A, a secret value in B)");
    cJSON_Delete(a);
    cJSON_Delete(b);
}

static void test_explain_gives_keys_or_both_digests(void **state)
{
    cJSON *a = view_of("{\"tasks.max\": \"2\"}");
    cJSON *b = view_of("{\"tasks.max\": \"4\"}");
    char buf[400];

    (void)state;
    mm2_cfgview_explain(a, "sha256:aa", "the plan", b, "sha256:bb", "Connect", buf, sizeof(buf));
    assert_string_equal(buf, "in 1 key: tasks.max (\"2\" in the plan, \"4\" in Connect)");
    mm2_cfgview_explain(NULL, "sha256:aa", "the plan", b, "sha256:bb", "Connect", buf, sizeof(buf));
    assert_string_equal(buf, "sha256:aa in the plan, sha256:bb in Connect, the plan recorded "
                             "only its digest");
    /* Equal views with different digests (a key order Connect does not keep): the digests. */
    mm2_cfgview_explain(a, "sha256:aa", "the plan", a, "sha256:bb", "Connect", buf, sizeof(buf));
    assert_string_equal(buf, "sha256:aa in the plan, sha256:bb in Connect");
    cJSON_Delete(a);
    cJSON_Delete(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_make_masks_plain_secrets_and_keeps_references),
        cmocka_unit_test(test_make_text_around_a_reference_is_still_a_secret),
        cmocka_unit_test(test_make_refuses_a_value_that_is_not_a_string),
        cmocka_unit_test(test_check_refuses_a_plain_secret_and_other_shapes),
        cmocka_unit_test(test_diff_names_changed_added_removed_and_secret_keys),
        cmocka_unit_test(test_diff_counts_beyond_the_named_and_cuts_long_values),
        cmocka_unit_test(test_diff_shows_a_reference_against_a_masked_secret),
        cmocka_unit_test(test_explain_gives_keys_or_both_digests),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
