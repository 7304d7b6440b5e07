/*
 * Unit tests for lib/mm2_config: mm2-offsets' INI file on Debian's libinih (INI_MAX_LINE 200,
 * inline " ;" comments). Every section and key, the defaults, ${env:VAR} expansion through a fake
 * getenv, the problems (unknown, duplicate, malformed, over-long lines by number), the connector
 * file resolved against the INI's directory, the values of secret keys (whatever their source)
 * collected and never repeated in a problem while other wrong values are quoted, and every
 * problem reported at once.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mm2_config.h"

#define INI "/etc/mm2/migration.ini"
#define SECRET "S3CR3T-do-not-print"

/* ---- a fake environment ---------------------------------------------------------------------- */

static const struct {
    const char *name;
    const char *value;
} ENV[] = {
    {"SOURCE_JAAS", "source-jaas-" SECRET},
    {"TARGET_JAAS", "target-jaas-" SECRET},
    {"SAME_JAAS", "source-jaas-" SECRET}, /* the same value as SOURCE_JAAS */
    {"EMPTY", ""},
    {"A", "alpha"},
    {"B", "beta"},
    {"NESTED", "${env:A}"},
    {"TIMEOUT", "120"},
    {"MAPPING", "orders=orders-copy"},
    {"GROUP", "flink-orders"},
    {"CONNECT_URL", "http://connect:8088"},
    {"PASSWORD", SECRET},
    {"SHORT_PASSWORD", "S3CR3T"},                                          /* the head of SECRET */
    {"LONG_PASSWORD", SECRET "-and-then-some-more-characters-0123456789"}, /* above 40 */
    {"BAD_URL", "ftp://connect"},
    {"BAD_JOB", "not-a-job-id"},
    {"BAD_SERVERS", "kafka"},
    {"S0", "v0"},
    {"S1", "v1"},
    {"S2", "v2"},
    {"S3", "v3"},
    {"S4", "v4"},
    {"S5", "v5"},
    {"S6", "v6"},
    {"S7", "v7"},
    {"S8", "v8"},
    {"S9", "v9"},
    {"S10", "v10"},
    {"S11", "v11"},
    {"S12", "v12"},
    {"S13", "v13"},
    {"S14", "v14"},
    {"S15", "v15"},
    {"S16", "v16"},
};

static const char *fake_getenv(const char *name)
{
    if (strcmp(name, "LONG") == 0) {
        static char long_value[5000];
        memset(long_value, 'x', sizeof(long_value) - 1);
        long_value[sizeof(long_value) - 1] = '\0';
        return long_value;
    }
    for (size_t i = 0; i < sizeof(ENV) / sizeof(ENV[0]); i++)
        if (strcmp(ENV[i].name, name) == 0)
            return ENV[i].value;
    return NULL;
}

/* ---- helpers --------------------------------------------------------------------------------- */

/* The sections every valid file needs, before and after the part a test varies. */
#define HEAD "[source]\nbootstrap.servers = src:9092\n[target]\nbootstrap.servers = tgt:9092\n"
#define CONNECT "[connect]\nurl = http://connect:8088\n"
#define FLINK "[flink]\ngroup.id = flink-orders\n"
#define CONNECTOR "[connector]\nfile = connector.json\n"
#define VALID HEAD CONNECT FLINK CONNECTOR

static enum mm2_status parse(const char *text, struct mm2_config *c, struct mm2_problems *p)
{
    memset(p, 0, sizeof(*p));
    return mm2_config_parse(text, INI, fake_getenv, c, p);
}

static void dump(const struct mm2_problems *p)
{
    for (size_t i = 0; i < p->n; i++)
        print_message("problem %zu: %s\n", i, p->line[i]);
}

/* Parses text and expects exactly the one problem line want. */
static void assert_one_problem(const char *text, const char *want)
{
    struct mm2_config c;
    struct mm2_problems p;

    if (parse(text, &c, &p) != MM2_CONFIG || p.n != 1) {
        dump(&p);
        fail_msg("expected one problem: %s", want);
    }
    assert_string_equal(p.line[0], want);
    mm2_config_free(&c);
}

static void assert_valid(const char *text, struct mm2_config *c)
{
    struct mm2_problems p;

    if (parse(text, c, &p) != MM2_OK || p.n != 0) {
        dump(&p);
        fail_msg("expected a valid file");
    }
}

static const char *prop(const struct mm2_kv *kv, size_t n, const char *key)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(kv[i].key, key) == 0)
            return kv[i].value;
    return NULL;
}

/* ---- a complete file ------------------------------------------------------------------------- */

static void test_config_every_section_and_key(void **state)
{
    const char *text = "; mm2-offsets migration\n"
                       "# comments both ways\n"
                       "[source]\n"
                       "bootstrap.servers = src-1:9092,src-2:9092\n"
                       "security.protocol = SASL_PLAINTEXT\n"
                       "sasl.mechanism = PLAIN\n"
                       "sasl.jaas.config = ${env:SOURCE_JAAS}\n"
                       "\n"
                       "[target]\n"
                       "bootstrap.servers = tgt-1:9092\n"
                       "sasl.jaas.config = ${env:TARGET_JAAS}\n"
                       "\n"
                       "[connect]\n"
                       "url = http://connect:8088\n"
                       "request.timeout.seconds = 120\n"
                       "retry.budget.seconds = 600.5\n"
                       "\n"
                       "[flink]\n"
                       "group.id = flink-orders ; the Flink job's group\n"
                       "rest.url = http://flink-jobmanager:8081\n"
                       "job.id = 0123456789abcdef0123456789abcdef\n"
                       "checkpoint.interval.seconds = 60\n"
                       "topic.mapping = orders=orders-copy,payments=payments-copy\n"
                       "\n"
                       "[connector]\n"
                       "file = connector.json\n";
    struct mm2_config c;

    (void)state;
    assert_valid(text, &c);
    assert_string_equal(c.path, INI);
    assert_int_equal(c.nsource, 4);
    assert_string_equal(c.source[0].key, "bootstrap.servers");
    assert_string_equal(c.source[0].value, "src-1:9092,src-2:9092");
    assert_string_equal(c.source[1].key, "security.protocol");
    assert_string_equal(c.source[1].value, "SASL_PLAINTEXT");
    assert_string_equal(c.source[2].key, "sasl.mechanism");
    assert_string_equal(c.source[2].value, "PLAIN");
    assert_string_equal(c.source[3].key, "sasl.jaas.config");
    assert_string_equal(c.source[3].value, "source-jaas-" SECRET);
    assert_int_equal(c.ntarget, 2);
    assert_string_equal(prop(c.target, c.ntarget, "bootstrap.servers"), "tgt-1:9092");
    assert_string_equal(prop(c.target, c.ntarget, "sasl.jaas.config"), "target-jaas-" SECRET);
    assert_string_equal(c.connect_url, "http://connect:8088");
    assert_int_equal(c.request_timeout_ms, 120000);
    assert_int_equal(c.retry_budget_ms, 600500);
    assert_string_equal(c.group, "flink-orders");
    assert_string_equal(c.flink_rest_url, "http://flink-jobmanager:8081");
    assert_string_equal(c.flink_job_id, "0123456789abcdef0123456789abcdef");
    assert_int_equal(c.checkpoint_interval_ms, 60000);
    assert_int_equal(c.nmapping, 2);
    assert_string_equal(c.mapping[0].source, "orders");
    assert_string_equal(c.mapping[0].target, "orders-copy");
    assert_string_equal(c.mapping[1].source, "payments");
    assert_string_equal(c.mapping[1].target, "payments-copy");
    assert_string_equal(c.connector_file, "/etc/mm2/connector.json");
    assert_int_equal(c.nsecrets, 2);
    assert_string_equal(c.secrets[0], "source-jaas-" SECRET);
    assert_string_equal(c.secrets[1], "target-jaas-" SECRET);
    mm2_config_free(&c);
}

static void test_config_defaults_for_optional_keys(void **state)
{
    struct mm2_config c;

    (void)state;
    assert_valid(VALID, &c);
    assert_int_equal(c.request_timeout_ms, 100000);
    assert_int_equal(c.retry_budget_ms, 300000);
    assert_int_equal(c.connect_wait_ms, 30000);
    assert_int_equal(c.checkpoint_interval_ms, 0);
    assert_null(c.flink_rest_url);
    assert_null(c.flink_job_id);
    assert_int_equal(c.nmapping, 0);
    assert_null(c.mapping);
    assert_int_equal(c.nsecrets, 0);
    assert_int_equal(c.nsource, 1);
    assert_int_equal(c.ntarget, 1);
    assert_string_equal(mm2_config_flink_target(&c, "orders"), "orders");
    assert_int_equal(c.tail_records, 8);
    assert_int_equal(c.tail_window, 64);
    assert_int_equal(c.tail_bytes, 65536);
    assert_int_equal(c.tail_partitions, 10000);
    assert_false(c.headers_preserved);
    assert_false(c.timestamps_preserved);
    mm2_config_free(&c);
}

static void test_config_tail_keys(void **state)
{
    struct mm2_config c;

    (void)state;
    assert_valid(HEAD CONNECT FLINK
                 "tail.records = 16\ntail.window = 0\ntail.bytes = 4096\ntail.partitions = 3\n"
                 "headers.preserved = true\ntimestamps.preserved = false\n" CONNECTOR,
                 &c);
    assert_int_equal(c.tail_records, 16);
    assert_int_equal(c.tail_window, 0);
    assert_int_equal(c.tail_bytes, 4096);
    assert_int_equal(c.tail_partitions, 3);
    assert_true(c.headers_preserved);
    assert_false(c.timestamps_preserved);
    mm2_config_free(&c);
    assert_one_problem(HEAD CONNECT FLINK "tail.records = 257\n" CONNECTOR, INI
                       ": [flink] tail.records must be a whole number from 0 to 256, got \"257\"");
    assert_one_problem(HEAD CONNECT FLINK "tail.bytes = 1k\n" CONNECTOR,
                       INI ": [flink] tail.bytes must be a whole number from 1024 to 67108864, got "
                           "\"1k\"");
    assert_one_problem(HEAD CONNECT FLINK "tail.partitions = 0\n" CONNECTOR,
                       INI ": [flink] tail.partitions must be a whole number from 1 to 100000, "
                           "got \"0\"");
    assert_one_problem(HEAD CONNECT FLINK "headers.preserved = yes\n" CONNECTOR,
                       INI ": [flink] headers.preserved must be true or false, got \"yes\"");
    assert_one_problem(HEAD CONNECT FLINK "tail.window = 1\ntail.window = 2\n" CONNECTOR,
                       INI ": [flink] tail.window is given twice (or continued on an indented "
                           "line); give it once");
    /* The last key of the table too: each has its own flag (a table longer than its flags
     * wrote past them; the fuzzer found it). */
    assert_one_problem(HEAD CONNECT FLINK
                       "timestamps.preserved = true\ntimestamps.preserved = false\n" CONNECTOR,
                       INI ": [flink] timestamps.preserved is given twice (or continued on an "
                           "indented line); give it once");
    /* ... and its flag is its own: after an unknown section was noted, given once, it is
     * given once. */
    assert_one_problem(VALID "[sink]\nx = 1\n[flink]\ntimestamps.preserved = true\n",
                       INI ": unknown section [sink]; the sections are source, target, connect, "
                           "flink, connector, trail, policy");
}

static void test_config_empty_file_names_every_required_part(void **state)
{
    struct mm2_config c;
    struct mm2_problems p;

    (void)state;
    assert_int_equal(parse("", &c, &p), MM2_CONFIG);
    assert_int_equal(p.n, 5);
    assert_string_equal(p.line[0],
                        INI ": [source] is missing; it needs at least bootstrap.servers");
    assert_string_equal(p.line[1],
                        INI ": [target] is missing; it needs at least bootstrap.servers");
    assert_string_equal(p.line[2],
                        INI ": [connect] url is required (the Connect REST API, http://HOST:8088)");
    assert_string_equal(p.line[3],
                        INI ": [flink] group.id is required (the Flink job's consumer group)");
    assert_string_equal(p.line[4], INI ": [connector] file is required (the connector JSON)");
    mm2_config_free(&c);
}

static void test_config_inline_comment_needs_a_space_before_the_semicolon(void **state)
{
    struct mm2_config c;

    (void)state;
    assert_valid(HEAD
                 "[source]\nsasl.password = a;b\nssl.key.password = c ;d\n" CONNECT FLINK CONNECTOR,
                 &c);
    assert_string_equal(prop(c.source, c.nsource, "sasl.password"), "a;b");
    assert_string_equal(prop(c.source, c.nsource, "ssl.key.password"), "c");
    mm2_config_free(&c);
}

/* ---- ${env:VAR} ------------------------------------------------------------------------------ */

static void test_config_env_expansion_replaces_each_reference(void **state)
{
    struct mm2_config c;

    (void)state;
    assert_valid(HEAD "[source]\n"
                      "client.id = pre-${env:A}-${env:B}-post\n"
                      "x.two = ${env:A}${env:B}\n"
                      "x.dollar = $A a$b $\n"
                      "x.nested = ${env:NESTED}\n"
                      "x.empty = [${env:EMPTY}]\n" CONNECT FLINK CONNECTOR,
                 &c);
    assert_string_equal(prop(c.source, c.nsource, "client.id"), "pre-alpha-beta-post");
    assert_string_equal(prop(c.source, c.nsource, "x.two"), "alphabeta");
    assert_string_equal(prop(c.source, c.nsource, "x.dollar"), "$A a$b $");
    /* A variable's value is not expanded again. */
    assert_string_equal(prop(c.source, c.nsource, "x.nested"), "${env:A}");
    assert_string_equal(prop(c.source, c.nsource, "x.empty"), "[]");
    /* Coming from the environment does not make a value a secret: none of these keys is one. */
    assert_int_equal(c.nsecrets, 0);
    mm2_config_free(&c);
}

static void test_config_env_expansion_in_named_keys(void **state)
{
    struct mm2_config c;

    (void)state;
    assert_valid(HEAD "[connect]\nurl = ${env:CONNECT_URL}\n[flink]\ngroup.id = ${env:GROUP}\n"
                      "[connector]\nfile = /srv/${env:A}.json\n",
                 &c);
    assert_string_equal(c.connect_url, "http://connect:8088");
    assert_string_equal(c.group, "flink-orders");
    assert_string_equal(c.connector_file, "/srv/alpha.json");
    assert_int_equal(c.nsecrets, 0);
    mm2_config_free(&c);
}

static void test_config_env_expansion_in_every_key(void **state)
{
    struct mm2_config c;
    struct mm2_problems p;
    enum mm2_status st;
    long got[4];
    char mapping[64] = "";

    (void)state;
    st = parse(HEAD "[connect]\nurl = http://connect:8088\nrequest.timeout.seconds = "
                    "${env:TIMEOUT}\nretry.budget.seconds = ${env:TIMEOUT}\n"
                    "[flink]\ngroup.id = g\ncheckpoint.interval.seconds = ${env:TIMEOUT}\n"
                    "topic.mapping = ${env:MAPPING}\n" CONNECTOR,
               &c, &p);
    dump(&p);
    got[0] = c.request_timeout_ms;
    got[1] = c.retry_budget_ms;
    got[2] = c.checkpoint_interval_ms;
    got[3] = (long)c.nmapping;
    if (c.nmapping == 1)
        (void)snprintf(mapping, sizeof(mapping), "%s=%s", c.mapping[0].source, c.mapping[0].target);
    mm2_config_free(&c);
    assert_int_equal(st, MM2_OK);
    assert_int_equal(got[0], 120000);
    assert_int_equal(got[1], 120000);
    assert_int_equal(got[2], 120000);
    assert_int_equal(got[3], 1);
    assert_string_equal(mapping, "orders=orders-copy");
    /* A wrong value is reported as expanded: the variable's value is what is wrong. */
    assert_one_problem(VALID "[connect]\nretry.budget.seconds = ${env:A}\n", INI
                       ": [connect] retry.budget.seconds must be seconds from 1.000 to 86400 (up "
                       "to 3 decimals), got \"alpha\"");
    assert_one_problem(VALID "[flink]\ntopic.mapping = ${env:A}\n",
                       INI ": [flink] topic.mapping must be \"identity\" or SOURCE=TARGET pairs "
                           "separated by commas, got \"alpha\"");
}

static void test_config_connect_wait(void **state)
{
    struct mm2_config c;
    struct mm2_problems p;
    long got[2];

    (void)state;
    assert_int_equal(parse(VALID "[connect]\nconnect.wait.seconds = 0\n", &c, &p), MM2_OK);
    got[0] = c.connect_wait_ms;
    mm2_config_free(&c);
    assert_int_equal(parse(VALID "[connect]\nconnect.wait.seconds = 2.5\n", &c, &p), MM2_OK);
    got[1] = c.connect_wait_ms;
    mm2_config_free(&c);
    assert_int_equal(got[0], 0);
    assert_int_equal(got[1], 2500);
    assert_one_problem(VALID "[connect]\nconnect.wait.seconds = 600.001\n",
                       INI ": [connect] connect.wait.seconds must be 0 (off) or seconds from "
                           "0.001 to 600 (up to 3 decimals), got \"600.001\"");
    assert_one_problem(VALID "[connect]\nconnect.wait.seconds = 0.0\n",
                       INI ": [connect] connect.wait.seconds must be 0 (off) or seconds from "
                           "0.001 to 600 (up to 3 decimals), got \"0.0\"");
}

static void test_config_same_secret_listed_once(void **state)
{
    struct mm2_config c;

    (void)state;
    assert_valid(HEAD "[source]\nsasl.jaas.config = ${env:SOURCE_JAAS}\n[target]\n"
                      "sasl.jaas.config = ${env:SAME_JAAS}\n" CONNECT FLINK CONNECTOR,
                 &c);
    assert_int_equal(c.nsecrets, 1);
    assert_string_equal(c.secrets[0], "source-jaas-" SECRET);
    mm2_config_free(&c);
}

static void test_config_secret_keys_are_listed_whatever_the_source(void **state)
{
    struct mm2_config c;

    (void)state;
    assert_valid(HEAD "[source]\n"
                      "sasl.username = flink\n"
                      "sasl.password = literal-pw\n"
                      "ssl.key.password = ${env:A}\n"
                      "ssl.keystore.password = pre-${env:B}\n"
                      "sasl.oauthbearer.client.secret = cs\n"
                      "ssl.key.pem = pem\n"
                      "sasl.oauthbearer.config = oc\n"
                      "[target]\n"
                      "sasl.jaas.config = ${env:TARGET_JAAS}\n"
                      "x.token = tk\n"
                      "x.credential = cr\n"
                      "client.id = ${env:GROUP}\n"
                      "sasl.password = literal-pw\n" CONNECT FLINK CONNECTOR,
                 &c);
    /* In file order, each value once; sasl.username and client.id are no secrets. */
    assert_int_equal(c.nsecrets, 9);
    assert_string_equal(c.secrets[0], "literal-pw");
    assert_string_equal(c.secrets[1], "alpha");
    assert_string_equal(c.secrets[2], "pre-beta");
    assert_string_equal(c.secrets[3], "cs");
    assert_string_equal(c.secrets[4], "pem");
    assert_string_equal(c.secrets[5], "oc");
    assert_string_equal(c.secrets[6], "target-jaas-" SECRET);
    assert_string_equal(c.secrets[7], "tk");
    assert_string_equal(c.secrets[8], "cr");
    mm2_config_free(&c);
}

/* [source] with x.0.password .. x.<n-1>.password = ${env:S0} .. */
static void many_secrets_text(char *text, size_t len, int n)
{
    size_t o = (size_t)snprintf(text, len, "%s[source]\n", HEAD);

    for (int i = 0; i < n; i++)
        o += (size_t)snprintf(text + o, len - o, "x.%d.password = ${env:S%d}\n", i, i);
    (void)snprintf(text + o, len - o, "%s", CONNECT FLINK CONNECTOR);
}

static void test_config_more_than_16_secret_values_is_a_problem(void **state)
{
    struct mm2_config c;
    struct mm2_problems p;
    char text[2048];

    (void)state;
    many_secrets_text(text, sizeof(text), 16);
    assert_valid(text, &c);
    assert_int_equal(c.nsecrets, 16);
    assert_string_equal(c.secrets[15], "v15");
    mm2_config_free(&c);
    /* A 17th could not be redacted: the file is refused rather than the value printed. */
    many_secrets_text(text, sizeof(text), 17);
    assert_int_equal(parse(text, &c, &p), MM2_CONFIG);
    dump(&p);
    assert_int_equal(p.n, 1);
    assert_string_equal(p.line[0], INI ": more than 16 different secret values (passwords, JAAS "
                                       "lines, tokens); at most 16 can be kept out of the logs");
    assert_int_equal(c.nsecrets, 16);
    mm2_config_free(&c);
}

static void test_config_unset_variable_names_it(void **state)
{
    (void)state;
    assert_one_problem(HEAD "[source]\nsasl.jaas.config = ${env:NOPE}\n" CONNECT FLINK CONNECTOR,
                       INI ": [source] sasl.jaas.config: environment variable NOPE is not set; set "
                           "it in the Job's environment (from its Secret)");
}

static void test_config_unset_variable_in_a_required_key_is_one_problem(void **state)
{
    (void)state;
    /* The key is given: its unset variable is the one problem, not also "is required". */
    assert_one_problem(HEAD CONNECT "[flink]\ngroup.id = ${env:NOPE}\n" CONNECTOR,
                       INI ": [flink] group.id: environment variable NOPE is not set; set it in "
                           "the Job's environment (from its Secret)");
    assert_one_problem(HEAD "[connect]\nurl = ${env:NOPE}\n" FLINK CONNECTOR,
                       INI ": [connect] url: environment variable NOPE is not set; set it in the "
                           "Job's environment (from its Secret)");
    assert_one_problem(HEAD CONNECT FLINK "[connector]\nfile = ${env:NOPE}\n",
                       INI ": [connector] file: environment variable NOPE is not set; set it in "
                           "the Job's environment (from its Secret)");
    /* Not "rest.url and job.id go together" either. */
    assert_one_problem(VALID "[flink]\nrest.url = ${env:NOPE}\n"
                             "job.id = 0123456789abcdef0123456789abcdef\n",
                       INI ": [flink] rest.url: environment variable NOPE is not set; set it in "
                           "the Job's environment (from its Secret)");
    assert_one_problem("[source]\nbootstrap.servers = ${env:NOPE}\n[target]\n"
                       "bootstrap.servers = tgt:9092\n" CONNECT FLINK CONNECTOR,
                       INI ": [source] bootstrap.servers: environment variable NOPE is not set; "
                           "set it in the Job's environment (from its Secret)");
    assert_one_problem("[source]\nbootstrap.servers = src:9092\n[target]\n"
                       "bootstrap.servers = ${env:NOPE}\n" CONNECT FLINK CONNECTOR,
                       INI ": [target] bootstrap.servers: environment variable NOPE is not set; "
                           "set it in the Job's environment (from its Secret)");
}

static void test_config_bad_env_syntax(void **state)
{
    static const char *const unclosed[] = {"${FOO}", "${env:FOO", "x${", "${ENV:FOO}"};

    (void)state;
    for (size_t i = 0; i < sizeof(unclosed) / sizeof(unclosed[0]); i++) {
        char text[512];
        (void)snprintf(text, sizeof(text), "%s[source]\nx = %s\n%s", HEAD, unclosed[i],
                       CONNECT FLINK CONNECTOR);
        assert_one_problem(text, INI ": [source] x: \"${\" must start ${env:NAME} and end with "
                                     "\"}\"");
    }
    assert_one_problem(HEAD "[source]\nx = ${env:1A}\n" CONNECT FLINK CONNECTOR,
                       INI ": [source] x: ${env:...} must name a variable as "
                           "[A-Za-z_][A-Za-z0-9_]*");
    assert_one_problem(HEAD "[source]\nx = ${env:}\n" CONNECT FLINK CONNECTOR,
                       INI ": [source] x: ${env:...} must name a variable as "
                           "[A-Za-z_][A-Za-z0-9_]*");
    assert_one_problem(HEAD "[source]\nx = ${env:A-B}\n" CONNECT FLINK CONNECTOR,
                       INI ": [source] x: ${env:...} must name a variable as "
                           "[A-Za-z_][A-Za-z0-9_]*");
}

static void test_config_value_longer_than_cap_after_expansion(void **state)
{
    (void)state;
    assert_one_problem(HEAD "[source]\nsasl.jaas.config = ${env:LONG}\n" CONNECT FLINK CONNECTOR,
                       INI ": [source] sasl.jaas.config: value longer than 4095 bytes");
}

static void test_config_empty_required_value(void **state)
{
    (void)state;
    assert_one_problem(HEAD CONNECT "[flink]\ngroup.id = ${env:EMPTY}\n" CONNECTOR,
                       INI ": [flink] group.id is empty");
    assert_one_problem(HEAD CONNECT "[flink]\ngroup.id =\n" CONNECTOR,
                       INI ": [flink] group.id is empty");
}

/* ---- secrets are never repeated -------------------------------------------------------------- */

struct leak_case {
    const char *name;
    const char *text;
};

#define PW_SOURCE "[source]\nsasl.password = ${env:PASSWORD}\n"

static void test_config_secret_never_appears_in_a_problem(void **state)
{
    static const struct leak_case cases[] = {
        {"[source] unset variable",
         HEAD "[source]\nsasl.jaas.config = " SECRET "${env:NOPE}\n" CONNECT FLINK CONNECTOR},
        {"[source] value too long", HEAD
         "[source]\nsasl.jaas.config = ${env:SOURCE_JAAS}${env:LONG}\n" CONNECT FLINK CONNECTOR},
        {"[source] given twice",
         HEAD "[source]\nsasl.jaas.config = ${env:SOURCE_JAAS}\nsasl.jaas.config = "
              "${env:SOURCE_JAAS}\n" CONNECT FLINK CONNECTOR},
        {"[connect] unknown secret key",
         HEAD CONNECT "[connect]\npassword = " SECRET "\n" FLINK CONNECTOR},
        /* The password's value where a quoted value shows it. */
        {"[connect] url",
         HEAD PW_SOURCE "[connect]\nurl = ftp://${env:PASSWORD}\n" FLINK CONNECTOR},
        {"[connect] url with a query", HEAD PW_SOURCE
         "[connect]\nurl = http://connect:8088/?token=${env:PASSWORD}\n" FLINK CONNECTOR},
        {"[flink] rest.url", HEAD PW_SOURCE CONNECT FLINK
         "rest.url = ftp://${env:PASSWORD}\njob.id = 0123456789abcdef0123456789abcdef\n" CONNECTOR},
        {"[flink] job.id", HEAD PW_SOURCE CONNECT FLINK
         "rest.url = http://flink:8081\njob.id = ${env:PASSWORD}\n" CONNECTOR},
        {"[flink] job.id, the secret literal in both",
         HEAD "[source]\nsasl.password = " SECRET "\n" CONNECT FLINK
              "rest.url = http://flink:8081\njob.id = " SECRET "\n" CONNECTOR},
        {"[source] bootstrap.servers",
         "[source]\nbootstrap.servers = ${env:PASSWORD}\nsasl.password = ${env:PASSWORD}\n"
         "[target]\nbootstrap.servers = tgt:9092\n" CONNECT FLINK CONNECTOR},
        {"[target] bootstrap.servers",
         "[source]\nbootstrap.servers = src:9092\n[target]\n"
         "bootstrap.servers = ${env:PASSWORD}\n" PW_SOURCE CONNECT FLINK CONNECTOR},
        {"[flink] topic.mapping",
         HEAD PW_SOURCE CONNECT FLINK "topic.mapping = orders=${env:PASSWORD} x\n" CONNECTOR},
        {"[connect] request.timeout.seconds", HEAD PW_SOURCE CONNECT
         "[connect]\nrequest.timeout.seconds = ${env:PASSWORD}\n" FLINK CONNECTOR},
    };
    char leaks[1024] = "";
    size_t o = 0;

    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct mm2_config c;
        struct mm2_problems p;
        bool leaked = false;
        assert_int_equal(parse(cases[i].text, &c, &p), MM2_CONFIG);
        assert_true(p.n > 0);
        for (size_t k = 0; k < p.n; k++)
            leaked |= strstr(p.line[k], "S3CR3T") != NULL;
        if (leaked)
            o += (size_t)snprintf(leaks + o, sizeof(leaks) - o, "%s%s", o > 0 ? ", " : "",
                                  cases[i].name);
        mm2_config_free(&c);
    }
    if (o > 0)
        fail_msg("a secret value appears in the problems of: %s", leaks);
}

static void test_config_secret_in_a_quoted_value_is_redacted(void **state)
{
    (void)state;
    assert_one_problem(HEAD PW_SOURCE "[connect]\nurl = ftp://${env:PASSWORD}\n" FLINK CONNECTOR,
                       INI ": [connect] url must be http[s]://HOST[:PORT]: \"ftp://<redacted>\" "
                           "does not start with http:// or https://");
    assert_one_problem(HEAD "[source]\nssl.key.password = " SECRET "\n" CONNECT FLINK
                            "rest.url = http://flink:8081\njob.id = " SECRET "\n" CONNECTOR,
                       INI ": [flink] job.id must be a Flink job id (32 lowercase hex digits), got "
                           "\"<redacted>\"");
}

static void test_config_wrong_values_are_quoted_even_from_the_environment(void **state)
{
    struct mm2_config c;
    struct mm2_problems p;

    (void)state;
    /* A URL, a job id, a bootstrap list: no secrets, and what the operator has to fix. */
    assert_int_equal(parse("[source]\nbootstrap.servers = ${env:BAD_SERVERS}\n[target]\n"
                           "bootstrap.servers = tgt:9092\n[connect]\nurl = ${env:BAD_URL}\n" FLINK
                           "rest.url = http://flink:8081\njob.id = ${env:BAD_JOB}\n" CONNECTOR,
                           &c, &p),
                     MM2_CONFIG);
    dump(&p);
    assert_int_equal(c.nsecrets, 0);
    mm2_config_free(&c);
    assert_int_equal(p.n, 3);
    assert_string_equal(p.line[0], INI ": [connect] url must be http[s]://HOST[:PORT]: "
                                       "\"ftp://connect\" does not start with http:// or https://");
    assert_string_equal(p.line[1], INI ": [flink] job.id must be a Flink job id (32 lowercase hex "
                                       "digits), got \"not-a-job-id\"");
    assert_string_equal(p.line[2], INI ": [source] bootstrap.servers must be host:port[,...]: "
                                       "entry \"kafka\" has no port");
}

static void test_config_secret_is_listed_for_redaction_even_when_refused(void **state)
{
    struct mm2_config c;
    struct mm2_problems p;

    (void)state;
    /* The second value is refused (given twice), an unknown key's too: both may still show up
     * elsewhere (a log line quoting the file), so both are listed. */
    assert_int_equal(parse(HEAD
                           "[source]\nsasl.password = ${env:A}\nsasl.password = "
                           "${env:B}\n[connect]\ntoken = ${env:PASSWORD}\n" CONNECT FLINK CONNECTOR,
                           &c, &p),
                     MM2_CONFIG);
    dump(&p);
    assert_int_equal(p.n, 2);
    assert_int_equal(c.nsecrets, 3);
    assert_string_equal(c.secrets[0], "alpha");
    assert_string_equal(c.secrets[1], "beta");
    assert_string_equal(c.secrets[2], SECRET);
    mm2_config_free(&c);
}

static void test_config_secret_cut_short_in_a_problem_is_still_redacted(void **state)
{
    struct mm2_config c;
    struct mm2_problems p;
    bool leaked = false;

    (void)state;
    /* ${env:LONG_PASSWORD} given to job.id by mistake (a wrong variable name). */
    assert_int_equal(
        parse(HEAD "[source]\nsasl.password = ${env:LONG_PASSWORD}\n" CONNECT FLINK
                   "rest.url = http://flink:8081\njob.id = ${env:LONG_PASSWORD}\n" CONNECTOR,
              &c, &p),
        MM2_CONFIG);
    dump(&p);
    for (size_t k = 0; k < p.n; k++)
        leaked |= strstr(p.line[k], "S3CR3T") != NULL;
    mm2_config_free(&c);
    /* job.id is quoted with "%.40s": the first 40 characters of the secret are redacted too. */
    assert_false(leaked);
    assert_int_equal(p.n, 1);
    assert_string_equal(p.line[0], INI ": [flink] job.id must be a Flink job id (32 lowercase hex "
                                       "digits), got \"<redacted>\"");
}

static void test_config_secret_head_is_redacted_after_a_quote_from_6_characters(void **state)
{
    (void)state;
    /* A value quoted with a cut can end in the head of a secret: from 6 characters, a head of
     * one right after a quote is redacted, whatever follows it. */
    assert_one_problem(HEAD PW_SOURCE CONNECT FLINK
                       "rest.url = http://flink:8081\njob.id = S3CR3T-do-other\n" CONNECTOR,
                       INI ": [flink] job.id must be a Flink job id (32 lowercase hex digits), got "
                           "\"<redacted>other\"");
    /* 5 characters are not enough. */
    assert_one_problem(HEAD PW_SOURCE CONNECT FLINK
                       "rest.url = http://flink:8081\njob.id = S3CR3-other\n" CONNECTOR,
                       INI ": [flink] job.id must be a Flink job id (32 lowercase hex digits), got "
                           "\"S3CR3-other\"");
    /* Nor is a head anywhere but right after the quote. */
    assert_one_problem(HEAD PW_SOURCE "[connect]\nurl = ftp://S3CR3T-do-other\n" FLINK CONNECTOR,
                       INI
                       ": [connect] url must be http[s]://HOST[:PORT]: \"ftp://S3CR3T-do-other\" "
                       "does not start with http:// or https://");
}

static void test_config_secret_holding_another_is_redacted_whole(void **state)
{
    struct mm2_config c;
    struct mm2_problems p;
    bool leaked = false;

    (void)state;
    /* "S3CR3T" is registered before "S3CR3T-do-not-print", which it starts. */
    assert_int_equal(parse(HEAD
                           "[source]\nsasl.password = ${env:SHORT_PASSWORD}\n[target]\n"
                           "sasl.password = ${env:PASSWORD}\n" CONNECT FLINK
                           "rest.url = http://flink:8081\njob.id = ${env:PASSWORD}\n" CONNECTOR,
                           &c, &p),
                     MM2_CONFIG);
    dump(&p);
    for (size_t k = 0; k < p.n; k++)
        leaked |= strstr(p.line[k], "do-not-print") != NULL;
    mm2_config_free(&c);
    /* The longest secret is replaced first, so the shorter one cannot leave its tail. */
    assert_false(leaked);
    assert_int_equal(p.n, 1);
    assert_string_equal(p.line[0], INI ": [flink] job.id must be a Flink job id (32 lowercase hex "
                                       "digits), got \"<redacted>\"");
}

/* ---- unknown and duplicate keys -------------------------------------------------------------- */

static void test_config_unknown_section(void **state)
{
    (void)state;
    /* One line for the section, not one per key in it. */
    assert_one_problem(VALID "[sink]\ntopic = x\nsasl.password = ${env:NOPE}\nflush = 1\n",
                       INI ": unknown section [sink]; the sections are source, target, connect, "
                           "flink, connector, trail, policy");
}

static void test_config_unknown_section_given_twice_is_reported_once(void **state)
{
    struct mm2_config c;
    struct mm2_problems p;

    (void)state;
    assert_int_equal(
        parse(VALID "[sink]\ntopic = x\n[metrics]\nport = 1\n[sink]\nflush = 1\n", &c, &p),
        MM2_CONFIG);
    dump(&p);
    mm2_config_free(&c);
    assert_string_equal(p.line[0], INI ": unknown section [sink]; the sections are source, "
                                       "target, connect, flink, connector, trail, policy");
    assert_string_equal(p.line[1], INI ": unknown section [metrics]; the sections are source, "
                                       "target, connect, flink, connector, trail, policy");
    /* [sink] coming back after [metrics] is not reported again. */
    assert_int_equal(p.n, 2);
}

static void test_config_trail_defaults_and_keys(void **state)
{
    struct mm2_config c;
    struct mm2_problems p;

    (void)state;
    assert_int_equal(parse(VALID, &c, &p), MM2_OK);
    assert_true(c.trail_enabled);
    assert_string_equal(c.trail_topic, "mm2kit.trail");
    assert_int_equal(c.trail_rf, -1);
    assert_int_equal(mm2_config_trail_retention_ms(&c), 30L * 86400 * 1000);
    mm2_config_free(&c);
    assert_int_equal(parse(VALID "[trail]\nenabled = false\ntopic = ops.mm2-audit\n"
                                 "replication.factor = 3\n[policy]\nrollback.window.days = 90\n",
                           &c, &p),
                     MM2_OK);
    assert_false(c.trail_enabled);
    assert_string_equal(c.trail_topic, "ops.mm2-audit");
    assert_int_equal(c.trail_rf, 3);
    assert_int_equal(mm2_config_trail_retention_ms(&c), 90L * 86400 * 1000);
    mm2_config_free(&c);
    assert_one_problem(VALID "[trail]\nenabled = yes\n",
                       INI ": [trail] enabled must be true or false, got \"yes\"");
    assert_one_problem(VALID "[trail]\ntopic = a/b\n",
                       INI ": [trail] topic \"a/b\" is not a Kafka topic name: topic name \"a/b\" "
                           "has an illegal character at position 2 (allowed: [a-zA-Z0-9._-])");
    assert_one_problem(VALID "[trail]\nreplication.factor = 0\n",
                       INI ": [trail] replication.factor must be 1 to 32767 (leave it out for "
                           "the broker's default.replication.factor), got \"0\"");
    assert_one_problem(VALID "[trail]\ntopic = a\ntopic = b\n",
                       INI ": [trail] topic is given twice; keep one");
    assert_one_problem(VALID "[trail]\nretention.days = 1\n",
                       INI ": [trail] has no key \"retention.days\"; the keys are enabled, topic, "
                           "replication.factor (its retention is [policy] rollback.window.days)");
}

static void test_config_key_outside_any_section(void **state)
{
    (void)state;
    /* One line, naming the first such key. */
    assert_one_problem("group.id = x\nurl = y\n" VALID,
                       INI ": key \"group.id\" is outside any section; put it under [source], "
                           "[target], [connect], [flink], [connector], [trail] or [policy]");
}

static void test_config_unknown_keys_list_the_known_ones(void **state)
{
    (void)state;
    assert_one_problem(
        VALID "[connect]\ntimeout = 5\n", INI
        ": [connect] has no key \"timeout\"; the keys are url, workers, ca.location, "
        "username, password, request.timeout.seconds, retry.budget.seconds, connect.wait.seconds, "
        "config.topic, "
        "offset.topic, status.topic, internal.replication.factor, "
        "internal.min.insync.replicas");
    assert_one_problem(VALID "[flink]\ngroup = x\n",
                       INI ": [flink] has no key \"group\"; the keys are group.id, rest.url, "
                           "job.id, checkpoint.interval.seconds, topic.mapping, "
                           "isolation.level, retention.margin.seconds, tail.records, "
                           "tail.window, tail.bytes, tail.partitions, headers.preserved, "
                           "timestamps.preserved");
    assert_one_problem(VALID "[connector]\npath = c.json\n",
                       INI ": [connector] has no key \"path\"; the key is file");
}

/* ---- preflight's keys --------------------------------------------------------------------- */

static void test_config_preflight_defaults(void **state)
{
    struct mm2_config c;

    (void)state;
    assert_valid(VALID, &c);
    assert_string_equal(c.config_topic, "flink-mm2-connect-configs");
    assert_string_equal(c.offset_topic, "flink-mm2-connect-offsets");
    assert_string_equal(c.status_topic, "flink-mm2-connect-status");
    assert_int_equal(c.internal_rf, 3);
    assert_int_equal(c.internal_isr, 2);
    assert_int_equal(c.retention_margin_ms, 86400000);
    assert_null(c.flink_isolation);
    assert_null(c.source_principal); /* no sasl.username: unknown */
    assert_null(c.target_principal);
    mm2_config_free(&c);
}

static void test_config_preflight_keys(void **state)
{
    struct mm2_config c;

    (void)state;
    assert_valid("[source]\nbootstrap.servers = src:9092\nsasl.username = mm2-src\n"
                 "[target]\nbootstrap.servers = tgt:9092\nsasl.username = mm2-tgt\n"
                 "principal = User:CN=mm2,O=example\n" CONNECT "config.topic = c1\n"
                 "offset.topic = o1\nstatus.topic = s1\ninternal.replication.factor = 1\n"
                 "internal.min.insync.replicas = 1\n" FLINK
                 "isolation.level = read_committed\nretention.margin.seconds = 7200\n" CONNECTOR,
                 &c);
    assert_string_equal(c.source_principal, "User:mm2-src");          /* from sasl.username */
    assert_string_equal(c.target_principal, "User:CN=mm2,O=example"); /* stated wins */
    assert_null(prop(c.target, c.ntarget, "principal"));              /* not for librdkafka */
    assert_string_equal(c.config_topic, "c1");
    assert_string_equal(c.offset_topic, "o1");
    assert_string_equal(c.status_topic, "s1");
    assert_int_equal(c.internal_rf, 1);
    assert_int_equal(c.internal_isr, 1);
    assert_string_equal(c.flink_isolation, "read_committed");
    assert_int_equal(c.retention_margin_ms, 7200000);
    mm2_config_free(&c);
}

static void test_config_preflight_refusals(void **state)
{
    (void)state;
    assert_one_problem(VALID "[flink]\nisolation.level = committed\n",
                       INI ": [flink] isolation.level must be read_committed or read_uncommitted "
                           "(what the Flink job's Kafka source read with), got \"committed\"");
    assert_one_problem(VALID "[connect]\nconfig.topic = bad topic\n",
                       INI ": [connect] config.topic must be a topic name: topic name \"bad "
                           "topic\" has an illegal character at position 4 (allowed: "
                           "[a-zA-Z0-9._-])");
    assert_one_problem(VALID "[connect]\ninternal.replication.factor = 0\n",
                       INI ": [connect] internal.replication.factor must be a whole number from 1 "
                           "to 32767, got \"0\"");
    assert_one_problem(VALID "[connect]\ninternal.min.insync.replicas = two\n",
                       INI ": [connect] internal.min.insync.replicas must be a whole number from "
                           "1 to 32767, got \"two\"");
    assert_one_problem(VALID "[source]\nprincipal = alice\n",
                       INI ": [source] principal must be TYPE:NAME as Kafka's ACLs name it "
                           "(User:alice), at most 255 characters, got \"alice\"");
    assert_one_problem(VALID "[connect]\noffset.topic = flink-mm2-connect-status\n",
                       INI ": [connect] config.topic, offset.topic and status.topic name "
                           "\"flink-mm2-connect-status\" twice; Connect's three internal "
                           "topics are three different topics");
    assert_one_problem(VALID "[connect]\nstatus.topic = a\nstatus.topic = b\n",
                       INI ": [connect] status.topic is given twice (or continued on an indented "
                           "line); give it once");
}

static void test_config_duplicate_keys_in_every_section(void **state)
{
    (void)state;
    assert_one_problem(VALID "[source]\nbootstrap.servers = other:9092\n",
                       INI ": [source] bootstrap.servers is given twice (or continued on an "
                           "indented line); give it once");
    assert_one_problem(VALID "[target]\nbootstrap.servers = other:9092\n",
                       INI ": [target] bootstrap.servers is given twice (or continued on an "
                           "indented line); give it once");
    assert_one_problem(VALID "[connect]\nurl = http://other:8088\n",
                       INI ": [connect] url is given twice (or continued on an indented line); "
                           "give it once");
    assert_one_problem(VALID
                       "[connect]\nrequest.timeout.seconds = 5\nrequest.timeout.seconds = 6\n",
                       INI ": [connect] request.timeout.seconds is given twice (or continued on "
                           "an indented line); give it once");
    assert_one_problem(VALID "[flink]\ngroup.id = other\n",
                       INI ": [flink] group.id is given twice (or continued on an indented line); "
                           "give it once");
    assert_one_problem(VALID "[flink]\ntopic.mapping = identity\ntopic.mapping = identity\n",
                       INI ": [flink] topic.mapping is given twice (or continued on an indented "
                           "line); give it once");
    assert_one_problem(VALID "[connector]\nfile = other.json\n",
                       INI ": [connector] file is given twice (or continued on an indented "
                           "line); give it once");
}

static void test_config_indented_continuation_is_a_duplicate(void **state)
{
    (void)state;
    assert_one_problem(HEAD CONNECT "[flink]\ngroup.id = flink\n  orders\n" CONNECTOR,
                       INI ": [flink] group.id is given twice (or continued on an indented line); "
                           "give it once");
}

static void test_config_invalid_url_given_twice_is_reported_once(void **state)
{
    struct mm2_config c;
    struct mm2_problems p;

    (void)state;
    assert_int_equal(
        parse(HEAD "[connect]\nurl = ftp://a\nurl = http://b:8088\n" FLINK CONNECTOR, &c, &p),
        MM2_CONFIG);
    dump(&p);
    mm2_config_free(&c);
    assert_string_equal(p.line[0], INI ": [connect] url must be http[s]://HOST[:PORT]: "
                                       "\"ftp://a\" does not start with http:// or https://");
    assert_string_equal(p.line[1], INI ": [connect] url is given twice (or continued on an "
                                       "indented line); give it once");
    assert_int_equal(p.n, 2);
    /* rest.url and job.id likewise. */
    assert_int_equal(parse(VALID "[flink]\nrest.url = ftp://f\nrest.url = http://f:8081\n"
                                 "job.id = x\njob.id = 0123456789abcdef0123456789abcdef\n",
                           &c, &p),
                     MM2_CONFIG);
    dump(&p);
    mm2_config_free(&c);
    assert_int_equal(p.n, 4);
    assert_string_equal(p.line[0], INI ": [flink] rest.url must be http[s]://HOST[:PORT]: "
                                       "\"ftp://f\" does not start with http:// or https://");
    assert_string_equal(p.line[1], INI ": [flink] rest.url is given twice (or continued on an "
                                       "indented line); give it once");
    assert_string_equal(p.line[2], INI ": [flink] job.id must be a Flink job id (32 lowercase hex "
                                       "digits), got \"x\"");
    assert_string_equal(p.line[3], INI ": [flink] job.id is given twice (or continued on an "
                                       "indented line); give it once");
}

static void test_config_syntax_error_names_the_line(void **state)
{
    struct mm2_config c;
    struct mm2_problems p;

    (void)state;
    assert_int_equal(parse(VALID "[source]\nsasl.mechanism\nalso bad\n", &c, &p), MM2_CONFIG);
    /* inih reports the first bad line; [source] starts again on line 11. */
    assert_int_equal(p.n, 1);
    assert_string_equal(p.line[0], INI ":12: not a \"key = value\" line, a [section] or a comment");
    mm2_config_free(&c);
}

/* ---- line length ----------------------------------------------------------------------------- */

/* HEAD then "[source]" (line 5) and line 6: "sasl.jaas.config = " plus x's, n characters long,
 * ended by eol. */
static void long_line_text(char *text, size_t len, size_t n, const char *eol)
{
    size_t o = (size_t)snprintf(text, len, "%s[source]\nsasl.jaas.config = ", HEAD);

    memset(text + o, 'x', n - 19);
    o += n - 19;
    (void)snprintf(text + o, len - o, "%s%s", eol, CONNECT FLINK CONNECTOR);
}

static void test_config_line_of_198_characters_is_read_whole(void **state)
{
    char text[1024], want[200];
    struct mm2_config c;

    (void)state;
    long_line_text(text, sizeof(text), 198, "\n");
    assert_valid(text, &c);
    memset(want, 'x', 179);
    want[179] = '\0';
    assert_string_equal(prop(c.source, c.nsource, "sasl.jaas.config"), want);
    mm2_config_free(&c);
    long_line_text(text, sizeof(text), 198, "\r\n");
    assert_valid(text, &c);
    assert_string_equal(prop(c.source, c.nsource, "sasl.jaas.config"), want);
    mm2_config_free(&c);
}

static void test_config_line_of_199_characters_is_refused_by_number(void **state)
{
    char text[1024];

    (void)state;
    long_line_text(text, sizeof(text), 199, "\n");
    /* Only the length is reported: inih would read the cut line as something else. */
    assert_one_problem(text, INI ":6: line is 199 characters, above the 198 libinih reads; "
                                 "shorten it or move the value into ${env:VAR}");
    long_line_text(text, sizeof(text), 199, "\r\n");
    assert_one_problem(text, INI ":6: line is 199 characters, above the 198 libinih reads; "
                                 "shorten it or move the value into ${env:VAR}");
}

static void test_config_every_long_line_is_reported(void **state)
{
    char text[2048], line[301];
    struct mm2_config c;
    struct mm2_problems p;

    (void)state;
    memset(line, 'c', 300);
    line[0] = ';';
    line[300] = '\0';
    (void)snprintf(text, sizeof(text), "%s\n" VALID "%s", line, line); /* lines 1 and 12 */
    assert_int_equal(parse(text, &c, &p), MM2_CONFIG);
    assert_int_equal(p.n, 2);
    assert_string_equal(p.line[0], INI ":1: line is 300 characters, above the 198 libinih reads; "
                                       "shorten it or move the value into ${env:VAR}");
    assert_string_equal(p.line[1], INI ":12: line is 300 characters, above the 198 libinih "
                                       "reads; shorten it or move the value into ${env:VAR}");
    mm2_config_free(&c);
}

/* ---- values ---------------------------------------------------------------------------------- */

static void test_config_seconds_ranges(void **state)
{
    struct mm2_config c;

    (void)state;
    assert_valid(HEAD "[connect]\nurl = http://c:8088\nrequest.timeout.seconds = 3600\n"
                      "retry.budget.seconds = 86400\n[flink]\ngroup.id = g\n"
                      "checkpoint.interval.seconds = 0.001\n" CONNECTOR,
                 &c);
    assert_int_equal(c.request_timeout_ms, 3600000);
    assert_int_equal(c.retry_budget_ms, 86400000);
    assert_int_equal(c.checkpoint_interval_ms, 1);
    mm2_config_free(&c);
    assert_one_problem(VALID "[connect]\nrequest.timeout.seconds = 0.5\n",
                       INI ": [connect] request.timeout.seconds must be seconds from 1.000 to "
                           "3600 (up to 3 decimals), got \"0.5\"");
    assert_one_problem(VALID "[connect]\nrequest.timeout.seconds = 3601\n",
                       INI ": [connect] request.timeout.seconds must be seconds from 1.000 to "
                           "3600 (up to 3 decimals), got \"3601\"");
    assert_one_problem(VALID "[connect]\nretry.budget.seconds = 86400.001\n",
                       INI ": [connect] retry.budget.seconds must be seconds from 1.000 to 86400 "
                           "(up to 3 decimals), got \"86400.001\"");
    assert_one_problem(VALID "[connect]\nretry.budget.seconds = 1.2345\n",
                       INI ": [connect] retry.budget.seconds must be seconds from 1.000 to 86400 "
                           "(up to 3 decimals), got \"1.2345\"");
    assert_one_problem(VALID "[flink]\ncheckpoint.interval.seconds = 1m\n",
                       INI ": [flink] checkpoint.interval.seconds must be seconds from 0.001 to "
                           "86400 (up to 3 decimals), got \"1m\"");
}

static void test_config_checkpoint_interval_zero_message_states_the_real_minimum(void **state)
{
    (void)state;
    assert_one_problem(VALID "[flink]\ncheckpoint.interval.seconds = 0\n",
                       INI ": [flink] checkpoint.interval.seconds must be seconds from 0.001 to "
                           "86400 (up to 3 decimals), got \"0\"");
}

static void test_config_rest_url_and_job_id_go_together(void **state)
{
    (void)state;
    assert_one_problem(VALID "[flink]\nrest.url = http://flink:8081\n",
                       INI ": [flink] rest.url and job.id go together; give both or neither");
    assert_one_problem(VALID "[flink]\njob.id = 0123456789abcdef0123456789abcdef\n",
                       INI ": [flink] rest.url and job.id go together; give both or neither");
}

static void test_config_job_id_must_be_32_lowercase_hex(void **state)
{
    (void)state;
    assert_one_problem(VALID "[flink]\nrest.url = http://flink:8081\n"
                             "job.id = 0123456789ABCDEF0123456789ABCDEF\n",
                       INI ": [flink] job.id must be a Flink job id (32 lowercase hex digits), "
                           "got \"0123456789ABCDEF0123456789ABCDEF\"");
    assert_one_problem(VALID "[flink]\nrest.url = http://flink:8081\n"
                             "job.id = 0123456789abcdef0123456789abcde\n",
                       INI ": [flink] job.id must be a Flink job id (32 lowercase hex digits), "
                           "got \"0123456789abcdef0123456789abcde\"");
}

static void test_config_urls_must_be_base_urls(void **state)
{
    (void)state;
    assert_one_problem(HEAD "[connect]\nurl = connect:8088\n" FLINK CONNECTOR,
                       INI ": [connect] url must be http[s]://HOST[:PORT]: \"connect:8088\" does "
                           "not start with http:// or https://");
    assert_one_problem(HEAD "[connect]\nurl = http://user:pw@connect:8088\n" FLINK CONNECTOR,
                       INI ": [connect] url must be http[s]://HOST[:PORT]: it carries credentials "
                           "(USER@), which the process list would show");
    assert_one_problem(VALID "[flink]\nrest.url = http://flink:8081/?x=1\n"
                             "job.id = 0123456789abcdef0123456789abcdef\n",
                       INI ": [flink] rest.url must be http[s]://HOST[:PORT]: "
                           "\"http://flink:8081/?x=1\" has a query or fragment");
}

static void test_config_bootstrap_servers_required_and_checked(void **state)
{
    (void)state;
    assert_one_problem("[source]\nsecurity.protocol = PLAINTEXT\n[target]\nbootstrap.servers = "
                       "t:9092\n" CONNECT FLINK CONNECTOR,
                       INI ": [source] bootstrap.servers is required (host:port[,host:port...])");
    assert_one_problem("[source]\nbootstrap.servers = s:9092\n[target]\nbootstrap.servers = "
                       "kafka\n" CONNECT FLINK CONNECTOR,
                       INI ": [target] bootstrap.servers must be host:port[,...]: entry \"kafka\" "
                           "has no port");
}

static void test_config_cluster_ids_are_pinned_not_passed_to_librdkafka(void **state)
{
    struct mm2_config c;

    (void)state;
    assert_valid(
        "[source]\nbootstrap.servers = s:9092\ncluster.id = Zk3XcJ1pT9qkq2mYf0w8Bg\n"
        "[target]\ncluster.id = ${env:A}\nbootstrap.servers = t:9092\n" CONNECT FLINK CONNECTOR,
        &c);
    assert_string_equal(c.source_cluster_id, "Zk3XcJ1pT9qkq2mYf0w8Bg");
    assert_string_equal(c.target_cluster_id, "alpha");
    assert_int_equal(c.nsource, 1);
    assert_int_equal(c.ntarget, 1);
    assert_null(prop(c.source, c.nsource, "cluster.id"));
    mm2_config_free(&c);
    assert_valid(VALID, &c);
    assert_null(c.source_cluster_id);
    assert_null(c.target_cluster_id);
    mm2_config_free(&c);
}

static void test_config_cluster_id_refusals(void **state)
{
    (void)state;
    assert_one_problem("[source]\nbootstrap.servers = s:9092\ncluster.id = a b\n[target]\n"
                       "bootstrap.servers = t:9092\n" CONNECT FLINK CONNECTOR,
                       INI
                       ": [source] cluster.id must be a Kafka cluster id (1 to 63 characters of "
                       "[A-Za-z0-9._-], as kafka-cluster.sh cluster-id prints it), got \"a b\"");
    assert_one_problem(
        "[source]\nbootstrap.servers = s:9092\n[target]\nbootstrap.servers = "
        "t:9092\ncluster.id = "
        "0123456789012345678901234567890123456789012345678901234567890123\n" CONNECT FLINK
            CONNECTOR,
        INI ": [target] cluster.id must be a Kafka cluster id (1 to 63 characters of "
            "[A-Za-z0-9._-], as kafka-cluster.sh cluster-id prints it), got "
            "\"0123456789012345678901234567890123456789012345678901234567890123\"");
    assert_one_problem("[source]\nbootstrap.servers = s:9092\ncluster.id = a\ncluster.id = b\n"
                       "[target]\nbootstrap.servers = t:9092\n" CONNECT FLINK CONNECTOR,
                       INI ": [source] cluster.id is given twice (or continued on an indented "
                           "line); give it once");
    assert_one_problem(
        "[source]\ncluster.id = a\n[target]\nbootstrap.servers = t:9092\n" CONNECT FLINK CONNECTOR,
        INI ": [source] bootstrap.servers is required (host:port[,host:port...])");
}

static void test_config_more_than_64_properties(void **state)
{
    char text[4096];
    size_t o;
    struct mm2_config c;
    struct mm2_problems p;

    (void)state;
    o = (size_t)snprintf(text, sizeof(text), "%s[source]\n", HEAD);
    for (int i = 0; i < 64; i++)
        o += (size_t)snprintf(text + o, sizeof(text) - o, "k.%d = v\n", i);
    (void)snprintf(text + o, sizeof(text) - o, "%s", CONNECT FLINK CONNECTOR);
    /* bootstrap.servers and k.0 .. k.62 fit; k.63 is the 65th. */
    assert_int_equal(parse(text, &c, &p), MM2_CONFIG);
    assert_int_equal(p.n, 1);
    assert_string_equal(p.line[0], INI ": [source] has more than 64 properties");
    assert_int_equal(c.nsource, 64);
    mm2_config_free(&c);
}

/* ---- topic.mapping --------------------------------------------------------------------------- */

static void test_config_mapping_identity_and_pairs(void **state)
{
    struct mm2_config c;

    (void)state;
    assert_valid(VALID "[flink]\ntopic.mapping = identity\n", &c);
    assert_int_equal(c.nmapping, 0);
    assert_string_equal(mm2_config_flink_target(&c, "orders"), "orders");
    mm2_config_free(&c);
    assert_valid(VALID "[flink]\ntopic.mapping =  orders=orders-copy ,  payments=pay.v2\n", &c);
    assert_int_equal(c.nmapping, 2);
    assert_string_equal(mm2_config_flink_target(&c, "orders"), "orders-copy");
    assert_string_equal(mm2_config_flink_target(&c, "payments"), "pay.v2");
    assert_string_equal(mm2_config_flink_target(&c, "refunds"), "refunds");
    mm2_config_free(&c);
}

static void test_config_mapping_refusals(void **state)
{
    (void)state;
    assert_one_problem(VALID "[flink]\ntopic.mapping = orders\n",
                       INI ": [flink] topic.mapping must be \"identity\" or SOURCE=TARGET pairs "
                           "separated by commas, got \"orders\"");
    assert_one_problem(VALID "[flink]\ntopic.mapping = identity,orders=x\n",
                       INI ": [flink] topic.mapping must be \"identity\" or SOURCE=TARGET pairs "
                           "separated by commas, got \"identity\"");
    assert_one_problem(VALID "[flink]\ntopic.mapping = orders=a,orders=b\n",
                       INI ": [flink] topic.mapping maps orders twice");
    assert_one_problem(VALID "[flink]\ntopic.mapping = orders=\n",
                       INI ": [flink] topic.mapping: \"orders=\": topic name is empty");
    assert_one_problem(VALID "[flink]\ntopic.mapping = =orders\n",
                       INI ": [flink] topic.mapping: \"=orders\": topic name is empty");
    assert_one_problem(VALID "[flink]\ntopic.mapping = orders = copy\n",
                       INI ": [flink] topic.mapping: \"orders = copy\": topic name \"orders \" "
                           "has an illegal character at position 7 (allowed: [a-zA-Z0-9._-])");
    assert_one_problem(VALID "[flink]\ntopic.mapping = a=b=c\n",
                       INI ": [flink] topic.mapping: \"a=b=c\": topic name \"b=c\" has an illegal "
                           "character at position 2 (allowed: [a-zA-Z0-9._-])");
    assert_one_problem(VALID "[flink]\ntopic.mapping = ..=x\n",
                       INI ": [flink] topic.mapping: \"..=x\": topic name cannot be \"..\"");
}

static void test_config_mapping_refuses_empty_pairs(void **state)
{
    static const char *const empty[] = {"a=b,,c=d", ",a=b", "a=b,", ",", ""};

    (void)state;
    for (size_t i = 0; i < sizeof(empty) / sizeof(empty[0]); i++) {
        char text[512];
        (void)snprintf(text, sizeof(text), "%s[flink]\ntopic.mapping = %s\n", VALID, empty[i]);
        assert_one_problem(text, INI ": [flink] topic.mapping has an empty entry; write "
                                     "\"identity\" or SOURCE=TARGET pairs separated by commas "
                                     "(at most 1024)");
    }
    /* Spaces alone between two commas are no pair either. */
    assert_one_problem(VALID "[flink]\ntopic.mapping = a=b, ,c=d\n",
                       INI ": [flink] topic.mapping has an empty entry; write \"identity\" or "
                           "SOURCE=TARGET pairs separated by commas (at most 1024)");
}

/* ---- the connector file ---------------------------------------------------------------------- */

static void connector_file_for(const char *ini, const char *file, const char *want)
{
    char text[512];
    struct mm2_config c;
    struct mm2_problems p = {0};

    (void)snprintf(text, sizeof(text), "%s[connector]\nfile = %s\n", HEAD CONNECT FLINK, file);
    assert_int_equal(mm2_config_parse(text, ini, fake_getenv, &c, &p), MM2_OK);
    assert_string_equal(c.connector_file, want);
    mm2_config_free(&c);
}

static void test_config_connector_file_relative_to_the_ini(void **state)
{
    (void)state;
    connector_file_for("/etc/mm2/migration.ini", "connector.json", "/etc/mm2/connector.json");
    connector_file_for("/etc/mm2/migration.ini", "sub/c.json", "/etc/mm2/sub/c.json");
    connector_file_for("/etc/mm2/migration.ini", "../c.json", "/etc/mm2/../c.json");
    connector_file_for("/etc/mm2/migration.ini", "/abs/c.json", "/abs/c.json");
    connector_file_for("migration.ini", "c.json", "c.json");
    connector_file_for("./migration.ini", "c.json", "./c.json");
    connector_file_for("/migration.ini", "c.json", "/c.json");
}

/* [connect] ca.location: resolved as the connector file is; unset means the system's CAs. */
/* [connect] workers: base URLs separated by commas, each checked, trimmed. */
#define W4 "http://h,http://h,http://h,http://h"
static void test_config_connect_workers(void **state)
{
    struct mm2_config c;
    struct mm2_problems p = {0};

    (void)state;
    assert_int_equal(parse(VALID "[connect]\nworkers = http://mm2-connect-workers:8088 , "
                                 "https://10.0.0.7:8443\n",
                           &c, &p),
                     MM2_OK);
    assert_int_equal(c.nworkers, 2);
    assert_string_equal(c.workers[0], "http://mm2-connect-workers:8088");
    assert_string_equal(c.workers[1], "https://10.0.0.7:8443");
    mm2_config_free(&c);
    assert_int_equal(parse(VALID, &c, &p), MM2_OK);
    assert_int_equal(c.nworkers, 0);
    mm2_config_free(&c);
    assert_one_problem(VALID "[connect]\nworkers = http://a:8088,,http://b:8088\n",
                       INI ": [connect] workers has an empty entry; list the workers' base URLs "
                           "separated by commas (at most 16), or name their headless Service");
    assert_one_problem(VALID "[connect]\nworkers = http://a:8088,\n",
                       INI ": [connect] workers has an empty entry; list the workers' base URLs "
                           "separated by commas (at most 16), or name their headless Service");
    assert_one_problem(VALID "[connect]\nworkers = a:8088\n",
                       INI ": [connect] workers: each must be http[s]://HOST[:PORT]: \"a:8088\" "
                           "does not start with http:// or https://");
    assert_one_problem(VALID "[connect]\nworkers = http://u:pw@a:8088\n",
                       INI ": [connect] workers: each must be http[s]://HOST[:PORT]: it carries "
                           "credentials (USER@), which the process list would show");
    assert_one_problem(VALID "[connect]\nworkers = " W4 "," W4 "," W4 "," W4 ",http://h\n",
                       INI ": [connect] workers has more than 16 entries; list the workers' base "
                           "URLs separated by commas (at most 16), or name their headless Service");
}

static void test_config_connect_ca_relative_to_the_ini(void **state)
{
    struct mm2_config c;
    struct mm2_problems p = {0};

    (void)state;
    assert_int_equal(mm2_config_parse(HEAD "[connect]\nurl = https://connect:8088\n"
                                           "ca.location = tls/rest-ca.crt\n" FLINK CONNECTOR,
                                      "/etc/mm2/migration.ini", fake_getenv, &c, &p),
                     MM2_OK);
    assert_string_equal(c.connect_ca, "/etc/mm2/tls/rest-ca.crt");
    mm2_config_free(&c);
    assert_int_equal(mm2_config_parse(HEAD CONNECT FLINK CONNECTOR, "/etc/mm2/migration.ini",
                                      fake_getenv, &c, &p),
                     MM2_OK);
    assert_null(c.connect_ca);
    mm2_config_free(&c);
}

/* [connect] username and password: HTTP Basic to a REST API behind Kafka's basic-auth
 * extension. The password is a secret (listed, never in a problem); the two go together; a user
 * name the filter cannot read (':' splits the pair) is refused. */
static void test_config_connect_basic_auth(void **state)
{
    struct mm2_config c;
    struct mm2_problems p = {0};

    (void)state;
    assert_valid(
        HEAD CONNECT "username = mm2-offsets\npassword = ${env:PASSWORD}\n" FLINK CONNECTOR, &c);
    assert_string_equal(c.connect_user, "mm2-offsets");
    assert_string_equal(c.connect_password, SECRET);
    assert_int_equal(c.nsecrets, 1);
    assert_string_equal(c.secrets[0], SECRET);
    mm2_config_free(&c);
    assert_valid(VALID, &c);
    assert_null(c.connect_user);
    assert_null(c.connect_password);
    mm2_config_free(&c);
    assert_one_problem(HEAD CONNECT "username = mm2-offsets\n" FLINK CONNECTOR,
                       INI ": [connect] username and password go together; give both or neither");
    assert_one_problem(HEAD CONNECT "password = ${env:PASSWORD}\n" FLINK CONNECTOR,
                       INI ": [connect] username and password go together; give both or neither");
    assert_one_problem(HEAD CONNECT
                       "username = op:er\npassword = ${env:PASSWORD}\n" FLINK CONNECTOR,
                       INI ": [connect] username must be 1 to 255 bytes, no ':' or control "
                           "character");
    assert_one_problem(HEAD CONNECT "username = u\npassword = ${env:EMPTY}\n" FLINK CONNECTOR,
                       INI ": [connect] password is empty");
    /* An unset variable is one problem, not also "go together". */
    assert_int_equal(
        parse(HEAD CONNECT "username = u\npassword = ${env:NOPE}\n" FLINK CONNECTOR, &c, &p),
        MM2_CONFIG);
    assert_int_equal(p.n, 1);
    assert_null(strstr(p.line[0], "go together"));
    mm2_config_free(&c);
}

/* ---- all at once ----------------------------------------------------------------------------- */

static void test_config_reports_every_problem_at_once(void **state)
{
    struct mm2_config c;
    struct mm2_problems p;

    (void)state;
    assert_int_equal(parse("[source]\n"
                           "bootstrap.servers = kafka\n"
                           "[connect]\n"
                           "url = http://connect:8088\n"
                           "url = http://other:8088\n"
                           "timeout = 5\n"
                           "[flink]\n"
                           "group.id = flink-orders\n"
                           "checkpoint.interval.seconds = ${env:NOPE}\n"
                           "rest.url = http://flink:8081\n"
                           "[sink]\n"
                           "x = 1\n"
                           "y = 2\n",
                           &c, &p),
                     MM2_CONFIG);
    dump(&p);
    assert_int_equal(p.n, 8);
    assert_string_equal(p.line[0], INI ": [connect] url is given twice (or continued on an "
                                       "indented line); give it once");
    assert_string_equal(p.line[1], INI ": [connect] has no key \"timeout\"; the keys are url, "
                                       "workers, ca.location, username, password, "
                                       "request.timeout.seconds, retry.budget.seconds, "
                                       "connect.wait.seconds, config.topic, offset.topic, "
                                       "status.topic, "
                                       "internal.replication.factor, internal.min.insync.replicas");
    assert_string_equal(p.line[2], INI ": [flink] checkpoint.interval.seconds: environment "
                                       "variable NOPE is not set; set it in the Job's environment "
                                       "(from its Secret)");
    assert_string_equal(p.line[3], INI ": unknown section [sink]; the sections are source, "
                                       "target, connect, flink, connector, trail, policy");
    assert_string_equal(p.line[4], INI ": [source] bootstrap.servers must be host:port[,...]: "
                                       "entry \"kafka\" has no port");
    assert_string_equal(p.line[5], INI ": [target] is missing; it needs at least "
                                       "bootstrap.servers");
    assert_string_equal(p.line[6], INI ": [flink] rest.url and job.id go together; give both or "
                                       "neither");
    assert_string_equal(p.line[7], INI ": [connector] file is required (the connector JSON)");
    mm2_config_free(&c);
}

static void test_config_problems_past_capacity_still_fail(void **state)
{
    char text[8192];
    size_t o;
    struct mm2_config c;
    struct mm2_problems p;

    (void)state;
    o = (size_t)snprintf(text, sizeof(text), "%s", VALID "[connect]\n");
    for (int i = 0; i < 40; i++)
        o += (size_t)snprintf(text + o, sizeof(text) - o, "bad.%d = 1\n", i);
    assert_int_equal(parse(text, &c, &p), MM2_CONFIG);
    assert_int_equal(p.n, MM2_PROBLEMS_MAX);
    assert_int_equal(p.dropped, 40 - MM2_PROBLEMS_MAX);
    mm2_config_free(&c);
}

/* ---- load and free --------------------------------------------------------------------------- */

static void test_config_load_reads_the_file_with_the_real_environment(void **state)
{
    char dir[] = "/tmp/mm2-test-config-XXXXXX", path[PATH_MAX], want[PATH_MAX];
    struct mm2_config c;
    struct mm2_problems p = {0};
    FILE *f;

    (void)state;
    assert_non_null(mkdtemp(dir));
    (void)snprintf(path, sizeof(path), "%s/migration.ini", dir);
    f = fopen(path, "w");
    assert_non_null(f);
    fputs(HEAD
          "[source]\nsasl.jaas.config = ${env:MM2KIT_TEST_CONFIG_JAAS}\n" CONNECT FLINK CONNECTOR,
          f);
    assert_int_equal(fclose(f), 0);
    setenv("MM2KIT_TEST_CONFIG_JAAS", "jaas-from-env", 1);
    assert_int_equal(mm2_config_load(path, &c, &p), MM2_OK);
    unsetenv("MM2KIT_TEST_CONFIG_JAAS");
    assert_string_equal(prop(c.source, c.nsource, "sasl.jaas.config"), "jaas-from-env");
    (void)snprintf(want, sizeof(want), "%s/connector.json", dir);
    assert_string_equal(c.connector_file, want);
    assert_string_equal(c.path, path);
    mm2_config_free(&c);
    assert_int_equal(unlink(path), 0);
    assert_int_equal(rmdir(dir), 0);
}

static void test_config_load_missing_file_is_one_problem(void **state)
{
    struct mm2_config c;
    struct mm2_problems p = {0};

    (void)state;
    assert_int_equal(mm2_config_load("/nonexistent/migration.ini", &c, &p), MM2_CONFIG);
    assert_int_equal(p.n, 1);
    assert_string_equal(p.line[0],
                        "cannot open config file /nonexistent/migration.ini: No such file or "
                        "directory");
    mm2_config_free(&c);
}

static void test_config_free_accepts_zeroed_and_freed_structs(void **state)
{
    struct mm2_config c;

    (void)state;
    memset(&c, 0, sizeof(c));
    mm2_config_free(&c);
    mm2_config_free(NULL);
    assert_valid(VALID "[flink]\ntopic.mapping = a=b\n", &c);
    mm2_config_free(&c);
    mm2_config_free(&c);
    assert_null(c.path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_config_every_section_and_key),
        cmocka_unit_test(test_config_defaults_for_optional_keys),
        cmocka_unit_test(test_config_connect_ca_relative_to_the_ini),
        cmocka_unit_test(test_config_connect_basic_auth),
        cmocka_unit_test(test_config_connect_workers),
        cmocka_unit_test(test_config_tail_keys),
        cmocka_unit_test(test_config_empty_file_names_every_required_part),
        cmocka_unit_test(test_config_inline_comment_needs_a_space_before_the_semicolon),
        cmocka_unit_test(test_config_env_expansion_replaces_each_reference),
        cmocka_unit_test(test_config_env_expansion_in_named_keys),
        cmocka_unit_test(test_config_env_expansion_in_every_key),
        cmocka_unit_test(test_config_connect_wait),
        cmocka_unit_test(test_config_same_secret_listed_once),
        cmocka_unit_test(test_config_secret_keys_are_listed_whatever_the_source),
        cmocka_unit_test(test_config_more_than_16_secret_values_is_a_problem),
        cmocka_unit_test(test_config_unset_variable_names_it),
        cmocka_unit_test(test_config_unset_variable_in_a_required_key_is_one_problem),
        cmocka_unit_test(test_config_bad_env_syntax),
        cmocka_unit_test(test_config_value_longer_than_cap_after_expansion),
        cmocka_unit_test(test_config_empty_required_value),
        cmocka_unit_test(test_config_secret_never_appears_in_a_problem),
        cmocka_unit_test(test_config_secret_in_a_quoted_value_is_redacted),
        cmocka_unit_test(test_config_wrong_values_are_quoted_even_from_the_environment),
        cmocka_unit_test(test_config_secret_is_listed_for_redaction_even_when_refused),
        cmocka_unit_test(test_config_secret_cut_short_in_a_problem_is_still_redacted),
        cmocka_unit_test(test_config_secret_head_is_redacted_after_a_quote_from_6_characters),
        cmocka_unit_test(test_config_secret_holding_another_is_redacted_whole),
        cmocka_unit_test(test_config_unknown_section),
        cmocka_unit_test(test_config_unknown_section_given_twice_is_reported_once),
        cmocka_unit_test(test_config_key_outside_any_section),
        cmocka_unit_test(test_config_trail_defaults_and_keys),
        cmocka_unit_test(test_config_unknown_keys_list_the_known_ones),
        cmocka_unit_test(test_config_preflight_defaults),
        cmocka_unit_test(test_config_preflight_keys),
        cmocka_unit_test(test_config_preflight_refusals),
        cmocka_unit_test(test_config_duplicate_keys_in_every_section),
        cmocka_unit_test(test_config_indented_continuation_is_a_duplicate),
        cmocka_unit_test(test_config_invalid_url_given_twice_is_reported_once),
        cmocka_unit_test(test_config_syntax_error_names_the_line),
        cmocka_unit_test(test_config_line_of_198_characters_is_read_whole),
        cmocka_unit_test(test_config_line_of_199_characters_is_refused_by_number),
        cmocka_unit_test(test_config_every_long_line_is_reported),
        cmocka_unit_test(test_config_seconds_ranges),
        cmocka_unit_test(test_config_checkpoint_interval_zero_message_states_the_real_minimum),
        cmocka_unit_test(test_config_rest_url_and_job_id_go_together),
        cmocka_unit_test(test_config_job_id_must_be_32_lowercase_hex),
        cmocka_unit_test(test_config_urls_must_be_base_urls),
        cmocka_unit_test(test_config_bootstrap_servers_required_and_checked),
        cmocka_unit_test(test_config_more_than_64_properties),
        cmocka_unit_test(test_config_mapping_identity_and_pairs),
        cmocka_unit_test(test_config_mapping_refusals),
        cmocka_unit_test(test_config_mapping_refuses_empty_pairs),
        cmocka_unit_test(test_config_connector_file_relative_to_the_ini),
        cmocka_unit_test(test_config_reports_every_problem_at_once),
        cmocka_unit_test(test_config_problems_past_capacity_still_fail),
        cmocka_unit_test(test_config_cluster_ids_are_pinned_not_passed_to_librdkafka),
        cmocka_unit_test(test_config_cluster_id_refusals),
        cmocka_unit_test(test_config_load_reads_the_file_with_the_real_environment),
        cmocka_unit_test(test_config_load_missing_file_is_one_problem),
        cmocka_unit_test(test_config_free_accepts_zeroed_and_freed_structs),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
