/*
 * Unit tests for lib/mm2_secret: the one list of secret names and the one redactor. Before it,
 * mm2_kafka, mm2_config and the entrypoint's launcher each had a list of marks: the table below
 * holds every mark of each (and a real name that carries it), so that none is lost, and the
 * names each of them must still show.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "mm2_secret.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

struct name_case {
    const char *name;
    bool secret;
    const char *from; /* the list(s) the mark came from */
};

static const struct name_case NAMES[] = {
    /* mm2_kafka's marks: password, secret, pem, jaas, token, config, extensions */
    {"sasl.password", true, "kafka, config"},
    {"ssl.key.password", true, "kafka, config"},
    {"ssl.keystore.password", true, "kafka, config"},
    {"sasl.oauthbearer.client.secret", true, "kafka, config"},
    {"ssl.key.pem", true, "kafka (pem), config (key.pem)"},
    {"ssl.certificate.pem", true, "kafka (pem)"},
    {"sasl.jaas.config", true, "kafka (jaas, config), config (jaas)"},
    {"sasl.oauthbearer.token.endpoint.url", true, "kafka, config (token)"},
    {"sasl.oauthbearer.config", true, "kafka (config), config (oauthbearer.config)"},
    {"sasl.oauthbearer.extensions", true, "kafka (extensions)"},
    /* mm2_config's marks: password, secret, jaas, token, credential, key.pem,
     * oauthbearer.config; it compared case-sensitively, now any case */
    {"aws.credentials", true, "config (credential)"},
    {"SASL.PASSWORD", true, "kafka (any case)"},
    /* the launcher's marks on variable names: JAAS, PASSWORD, SECRET, TOKEN, CREDENTIAL */
    {"CONNECT_SASL_JAAS_CONFIG", true, "launcher (JAAS)"},
    {"CONNECT_SSL_KEY_PASSWORD", true, "launcher (PASSWORD)"},
    {"CLIENT_SECRET", true, "launcher (SECRET)"},
    {"GITHUB_TOKEN", true, "launcher (TOKEN)"},
    {"GOOGLE_APPLICATION_CREDENTIALS", true, "launcher (CREDENTIAL)"},
    {"CONNECT_SASL_OAUTHBEARER_CONFIG", true, "oauthbearer.config with \"_\" for \".\""},
    /* shown: what names the failure (kafka's value_shown keys), and what the launcher sets */
    {"bootstrap.servers", false, "kafka shows it"},
    {"security.protocol", false, "kafka shows it"},
    {"sasl.mechanism", false, "kafka shows it"},
    {"sasl.mechanisms", false, "kafka shows it"},
    {"sasl.username", false, "no list had it"},
    {"group.id", false, "no list had it"},
    {"CONNECT_REST_PORT", false, "the launcher sets it"},
    {"CONNECT_SCHEDULED_REBALANCE_MAX_DELAY_MS", false, "the launcher sets it"},
    {"KAFKA_HEAP_OPTS", false, "the launcher sets it"},
    {"KAFKA_LOG4J_OPTS", false, "the launcher sets it"},
    {"KAFKA_OPTS", false, "the launcher sets it"},
    {"LOG_DIR", false, "the launcher sets it"},
    {"CONNECT_CONFIG_STORAGE_TOPIC", false, "a Connect variable, not a secret"},
};

static void test_secret_names_cover_every_earlier_list(void **state)
{
    (void)state;
    for (size_t i = 0; i < N(NAMES); i++)
        if (mm2_secret_name(NAMES[i].name, strlen(NAMES[i].name)) != NAMES[i].secret)
            fail_msg("%s: want %s (%s)", NAMES[i].name, NAMES[i].secret ? "secret" : "shown",
                     NAMES[i].from);
}

static void test_secret_name_reads_only_len_characters(void **state)
{
    static const char entry[] = "LOG_DIR=/tmp/password";

    (void)state;
    assert_false(mm2_secret_name(entry, strcspn(entry, "=")));
    assert_true(mm2_secret_name(entry, strlen(entry)));
    assert_false(mm2_secret_name(NULL, 3));
    assert_false(mm2_secret_name("pem", 2));
}

static void test_redact_replaces_every_value_longest_first(void **state)
{
    const char *values[] = {"hunter2", "hunter2-long", NULL, ""};
    char out[128];

    (void)state;
    assert_true(
        mm2_secret_redact("a hunter2-long b hunter2 c", values, N(values), 0, out, sizeof(out)));
    assert_string_equal(out, "a <redacted> b <redacted> c");
    assert_true(mm2_secret_redact("nothing here", values, N(values), 0, out, sizeof(out)));
    assert_string_equal(out, "nothing here");
    assert_true(mm2_secret_redact("hunter2", values, 0, 0, out, sizeof(out)));
    assert_string_equal(out, "hunter2");
}

static void test_redact_never_writes_part_of_a_mark(void **state)
{
    const char *values[] = {"hunter2"};
    char out[8];

    (void)state;
    assert_false(mm2_secret_redact("ab hunter2", values, 1, 0, out, sizeof(out)));
    assert_string_equal(out, "ab ");
    assert_false(mm2_secret_redact("abcdefghij", values, 1, 0, out, sizeof(out)));
    assert_string_equal(out, "abcdefg");
}

static void test_redact_cut_starts_only_at_a_cut(void **state)
{
    const char *values[] = {"correct-horse-battery"};
    char out[128];

    (void)state;
    /* A value quoted with %.13s: the start of the secret, before the closing quote. */
    assert_true(mm2_secret_redact("key \"correct-horse\" is bad", values, 1, MM2_SECRET_CUT_STARTS,
                                  out, sizeof(out)));
    assert_string_equal(out, "key \"<redacted>\" is bad");
    /* Before "..." and at the end of the text. */
    assert_true(
        mm2_secret_redact("x correct-hor...", values, 1, MM2_SECRET_CUT_STARTS, out, sizeof(out)));
    assert_string_equal(out, "x <redacted>...");
    assert_true(
        mm2_secret_redact("x correct-h", values, 1, MM2_SECRET_CUT_STARTS, out, sizeof(out)));
    assert_string_equal(out, "x <redacted>");
    /* Not in the middle of a text, not shorter than 6, not without the flag. */
    assert_true(
        mm2_secret_redact("a correct-horse b", values, 1, MM2_SECRET_CUT_STARTS, out, sizeof(out)));
    assert_string_equal(out, "a correct-horse b");
    assert_true(
        mm2_secret_redact("x \"corre\"", values, 1, MM2_SECRET_CUT_STARTS, out, sizeof(out)));
    assert_string_equal(out, "x \"corre\"");
    assert_true(mm2_secret_redact("x correct-h", values, 1, 0, out, sizeof(out)));
    assert_string_equal(out, "x correct-h");
}

static void test_redact_cut_start_of_a_long_value(void **state)
{
    static char value[20001];
    const char *values[] = {value};
    char in[128];
    char out[128];

    (void)state;
    memset(value, 'k', sizeof(value) - 1);
    /* 40 characters of a 20000-character secret, quoted with %.40s. */
    snprintf(in, sizeof(in), "value \"%.40s\" is bad", value);
    assert_true(mm2_secret_redact(in, values, 1, MM2_SECRET_CUT_STARTS, out, sizeof(out)));
    assert_string_equal(out, "value \"<redacted>\" is bad");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_secret_names_cover_every_earlier_list),
        cmocka_unit_test(test_secret_name_reads_only_len_characters),
        cmocka_unit_test(test_redact_replaces_every_value_longest_first),
        cmocka_unit_test(test_redact_never_writes_part_of_a_mark),
        cmocka_unit_test(test_redact_cut_starts_only_at_a_cut),
        cmocka_unit_test(test_redact_cut_start_of_a_long_value),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
