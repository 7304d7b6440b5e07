/* Unit tests for lib/mm2_kafka: what can be checked without a broker. Property refusal, reserved
 * keys, builtin.features, secrets kept out of messages, NULL-safe frees, argument checks, and a
 * closed port (127.0.0.1:1) giving MM2_UNREACHABLE by the deadline. Behaviour against a broker is
 * proven on real ones: tests/e2e (offsets.bats, offsets_limits.bats) and tests/cli/fake_kafka.c,
 * librdkafka's own mock clusters. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>
#include <librdkafka/rdkafka.h>

#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>
#include <stdlib.h>

#include "mm2_kafka.h"

#define CLOSED "127.0.0.1:1" /* nothing listens on port 1 */
#define SECRET "hunter2-top-secret"

/* A client for a closed port with the given properties after bootstrap.servers. */
static enum mm2_status make(const char *role, const struct mm2_kv *extra, size_t n,
                            struct mm2_kafka **k, struct mm2_error *err)
{
    struct mm2_kv props[16] = {{"bootstrap.servers", CLOSED}};

    assert_true(n < 16);
    if (n > 0)
        memcpy(&props[1], extra, n * sizeof(*extra));
    return mm2_kafka_new(role, props, n + 1, k, err);
}

/* A client that must be created (for the argument tests). */
static struct mm2_kafka *client(void)
{
    struct mm2_kafka *k = NULL;
    struct mm2_error err = {0};

    assert_int_equal(make("source", NULL, 0, &k, &err), MM2_OK);
    assert_non_null(k);
    return k;
}

static struct mm2_deadline later(long ms)
{
    struct mm2_deadline dl;

    mm2_deadline_start(&dl, ms);
    return dl;
}

/* ---- mm2_kafka_new ----------------------------------------------------------------------- */

static void test_new_sends_nothing(void **state)
{
    struct mm2_kv props[] = {{"security.protocol", "SASL_PLAINTEXT"},
                             {"sasl.mechanisms", "PLAIN"},
                             {"sasl.username", "u"},
                             {"sasl.password", SECRET}};
    struct mm2_kafka *k = NULL;
    struct mm2_error err = {0};

    (void)state;
    assert_int_equal(make("source", props, 4, &k, &err), MM2_OK);
    assert_non_null(k);
    assert_int_equal(mm2_kafka_requests(k), 0);
    mm2_kafka_free(k);
}

static void test_new_unknown_property_names_the_key_only(void **state)
{
    struct mm2_kv props[] = {{"no.such.property", SECRET}};
    struct mm2_kafka *k = (struct mm2_kafka *)&k; /* must be reset to NULL */
    struct mm2_error err = {0};

    (void)state;
    assert_int_equal(make("source", props, 1, &k, &err), MM2_CONFIG);
    assert_null(k);
    assert_int_equal(err.code, MM2_CONFIG);
    assert_string_equal(err.msg, "[source] unknown librdkafka property 'no.such.property'");
}

static void test_new_response_cap_may_be_lowered_never_raised(void **state)
{
    struct mm2_kv low[] = {{"receive.message.max.bytes", "1600"}};
    struct mm2_kv high[] = {{"receive.message.max.bytes", "16777217"}};
    struct mm2_kv junk[] = {{"Receive.Message.Max.Bytes", "16MB"}};
    struct mm2_kafka *k = NULL;
    struct mm2_error err = {0};

    (void)state;
    assert_int_equal(make("source", low, 1, &k, &err), MM2_OK);
    mm2_kafka_free(k);
    k = NULL;
    assert_int_equal(make("source", high, 1, &k, &err), MM2_CONFIG);
    assert_null(k);
    assert_string_equal(err.msg, "[source] librdkafka property 'receive.message.max.bytes' must be "
                                 "a number of bytes up to 16777216 (the cap that keeps the offset "
                                 "Job within its 256 MiB; LIMITS in mm2-offsets(1))");
    assert_int_equal(make("source", junk, 1, &k, &err), MM2_CONFIG);
    assert_null(k);
}

static void test_new_invalid_value_is_never_shown(void **state)
{
    struct mm2_kv props[] = {{"socket.timeout.ms", SECRET}};
    struct mm2_kafka *k = NULL;
    struct mm2_error err = {0};

    (void)state;
    assert_int_equal(make("target", props, 1, &k, &err), MM2_CONFIG);
    assert_null(k);
    assert_string_equal(
        err.msg,
        "[target] invalid value for librdkafka property 'socket.timeout.ms' (value not shown)");
}

static void test_new_invalid_security_protocol_is_never_shown(void **state)
{
    struct mm2_kv props[] = {{"security.protocol", SECRET}};
    struct mm2_kafka *k = NULL;
    struct mm2_error err = {0};

    (void)state;
    assert_int_equal(make("source", props, 1, &k, &err), MM2_CONFIG);
    assert_null(strstr(err.msg, SECRET));
    assert_non_null(strstr(err.msg, "'security.protocol'"));
}

static void test_new_refuses_every_reserved_key(void **state)
{
    static const char *const reserved[] = {"group.id",
                                           "group.instance.id",
                                           "isolation.level",
                                           "enable.auto.commit",
                                           "auto.commit.enable",
                                           "enable.auto.offset.store",
                                           "auto.offset.reset",
                                           "enable.partition.eof",
                                           "offset.store.method",
                                           "enable.metrics.push",
                                           "GROUP.ID"};
    char want[256];

    (void)state;
    for (size_t i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++) {
        struct mm2_kv props[] = {{reserved[i], SECRET}};
        struct mm2_kafka *k = NULL;
        struct mm2_error err = {0};

        assert_int_equal(make("source", props, 1, &k, &err), MM2_CONFIG);
        assert_null(k);
        snprintf(want, sizeof(want),
                 "[source] librdkafka property '%s' is set by mm2-offsets itself; remove it",
                 reserved[i]);
        assert_string_equal(err.msg, want);
    }
}

static void test_new_reserved_key_refused_even_with_a_valid_value(void **state)
{
    struct mm2_kv props[] = {{"isolation.level", "read_committed"}};
    struct mm2_kafka *k = NULL;
    struct mm2_error err = {0};

    (void)state;
    assert_int_equal(make("source", props, 1, &k, &err), MM2_CONFIG);
}

static void test_new_unknown_sasl_mechanism_is_config(void **state)
{
    struct mm2_kv props[] = {{"security.protocol", "SASL_SSL"}, {"sasl.mechanism", "AWS_MSK_IAM"}};
    struct mm2_kafka *k = NULL;
    struct mm2_error err = {0};

    (void)state;
    assert_int_equal(make("source", props, 2, &k, &err), MM2_CONFIG);
    assert_null(k);
    assert_null(strstr(err.msg, "AWS_MSK_IAM"));
    assert_non_null(strstr(err.msg, "sasl.mechanisms"));
}

static void test_new_sasl_mechanism_is_case_sensitive_like_librdkafka(void **state)
{
    struct mm2_kv props[] = {{"security.protocol", "sasl_plaintext"}, {"sasl.mechanisms", "plain"}};
    struct mm2_kafka *k = NULL;
    struct mm2_error err = {0};

    (void)state;
    assert_int_equal(make("source", props, 2, &k, &err), MM2_CONFIG);
}

static void test_new_accepts_every_built_in_mechanism(void **state)
{
    /* GSSAPI is left out: librdkafka would run kinit when a client using it starts. */
    static const char *const mechs[] = {"PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER"};

    (void)state;
    for (size_t i = 0; i < sizeof(mechs) / sizeof(mechs[0]); i++) {
        struct mm2_kv props[] = {{"security.protocol", "SASL_PLAINTEXT"},
                                 {"sasl.mechanism", mechs[i]},
                                 {"sasl.username", "u"},
                                 {"sasl.password", "p"}};
        struct mm2_kafka *k = NULL;
        struct mm2_error err = {0};

        if (make("source", props, 4, &k, &err) != MM2_OK)
            fail_msg("%s refused: %s", mechs[i], err.msg);
        mm2_kafka_free(k);
    }
}

static void test_new_unsupported_build_option_says_so(void **state)
{
    /* scripts/librdkafka.sh builds librdkafka without libcurl, hence without OIDC. */
    struct mm2_kv props[] = {{"sasl.oauthbearer.method", "oidc"}};
    struct mm2_kafka *k = NULL;
    struct mm2_error err = {0};

    (void)state;
    if (make("source", props, 1, &k, &err) == MM2_OK) {
        mm2_kafka_free(k);
        skip(); /* this librdkafka has OIDC */
    }
    assert_int_equal(err.code, MM2_CONFIG);
    assert_string_equal(err.msg, "[source] librdkafka property 'sasl.oauthbearer.method' (or this "
                                 "value of it) is not supported by this build of librdkafka");
}

static void test_new_rd_kafka_new_refusal_is_config(void **state)
{
    struct mm2_kv props[] = {{"security.protocol", "ssl"},
                             {"ssl.ca.location", "/nonexistent/" SECRET "/ca.pem"}};
    struct mm2_kafka *k = NULL;
    struct mm2_error err = {0};

    (void)state;
    assert_int_equal(make("target", props, 2, &k, &err), MM2_CONFIG);
    assert_null(k);
    assert_non_null(strstr(err.msg, "[target] librdkafka refused the configuration: "));
    assert_null(strstr(err.msg, SECRET));
}

static void test_new_librdkafka_text_has_values_redacted(void **state)
{
    /* librdkafka's refusal repeats nothing of the PEM here, but a value it did repeat would be
     * replaced: the PEM text is a secret (key "ssl.key.pem"). */
    struct mm2_kv props[] = {{"security.protocol", "ssl"},
                             {"ssl.key.pem", "-----BEGIN PRIVATE KEY-----" SECRET}};
    struct mm2_kafka *k = NULL;
    struct mm2_error err = {0};

    (void)state;
    assert_int_equal(make("source", props, 2, &k, &err), MM2_CONFIG);
    assert_null(strstr(err.msg, SECRET));
    assert_null(strstr(err.msg, "BEGIN PRIVATE KEY"));
}

static void test_new_checks_what_rd_kafka_new_checks(void **state)
{
    struct mm2_kv props[] = {{"message.max.bytes", "100000"}, {"fetch.max.bytes", "1000"}};
    struct mm2_kafka *k = NULL;
    struct mm2_error err = {0};

    (void)state;
    assert_int_equal(make("source", props, 2, &k, &err), MM2_CONFIG);
    assert_string_equal(err.msg, "[source] librdkafka refused the configuration: "
                                 "`fetch.max.bytes` must be >= `message.max.bytes`");
}

static void test_new_later_property_wins(void **state)
{
    /* sasl.mechanism is librdkafka's alias of sasl.mechanisms: the last one set is checked. */
    struct mm2_kv props[] = {{"security.protocol", "SASL_SSL"},
                             {"sasl.mechanisms", "NOPE"},
                             {"sasl.mechanism", "SCRAM-SHA-512"},
                             {"sasl.username", "u"},
                             {"sasl.password", "p"}};
    struct mm2_kafka *k = NULL;
    struct mm2_error err = {0};

    (void)state;
    assert_int_equal(make("source", props, 5, &k, &err), MM2_OK);
    mm2_kafka_free(k);
}

static void test_new_plain_without_credentials_is_refused_at_once(void **state)
{
    struct mm2_kv props[] = {{"security.protocol", "SASL_PLAINTEXT"}, {"sasl.mechanism", "PLAIN"}};
    struct mm2_kafka *k = NULL;
    struct mm2_error err = {0};

    (void)state;
    assert_int_equal(make("source", props, 2, &k, &err), MM2_CONFIG);
    assert_string_equal(err.msg, "[source] librdkafka refused the configuration: sasl.username "
                                 "and sasl.password must be set");
}

static void test_new_argument_checks(void **state)
{
    struct mm2_kv nokey[] = {{NULL, "v"}};
    struct mm2_kv novalue[] = {{"client.id", NULL}};
    struct mm2_kafka *k = NULL;
    struct mm2_error err = {0};

    (void)state;
    assert_int_equal(mm2_kafka_new("source", NULL, 0, NULL, &err), MM2_USAGE);
    assert_int_equal(mm2_kafka_new(NULL, NULL, 0, &k, &err), MM2_USAGE);
    assert_int_equal(mm2_kafka_new("", NULL, 0, &k, &err), MM2_USAGE);
    assert_int_equal(mm2_kafka_new("a-role-name-that-is-far-too-long-to-keep", NULL, 0, &k, &err),
                     MM2_USAGE);
    assert_int_equal(mm2_kafka_new("source", NULL, 1, &k, &err), MM2_USAGE);
    assert_int_equal(mm2_kafka_new("source", nokey, 1, &k, &err), MM2_USAGE);
    assert_int_equal(mm2_kafka_new("source", novalue, 1, &k, &err), MM2_USAGE);
    assert_null(k);
    /* err may be NULL: the code still comes back. */
    assert_int_equal(mm2_kafka_new("source", nokey, 1, &k, NULL), MM2_USAGE);
}

static void test_new_with_no_properties_is_fine(void **state)
{
    struct mm2_kafka *k = NULL;
    struct mm2_error err = {0};

    (void)state;
    assert_int_equal(mm2_kafka_new("source", NULL, 0, &k, &err), MM2_OK);
    mm2_kafka_free(k);
}

/* ---- mm2_kafka_tls_hopeless --------------------------------------------------------------- */

static void test_tls_hopeless_only_for_verification_and_alerts(void **state)
{
    (void)state;
    /* librdkafka's texts for a wrong CA or host, and for a broker refusing our certificate. */
    assert_true(mm2_kafka_tls_hopeless(
        RD_KAFKA_RESP_ERR__SSL, "ssl://198.18.12.11:9095/bootstrap: SSL handshake failed: "
                                "error:0A000086:SSL routines::certificate verify failed: broker "
                                "certificate could not be verified (after 5ms in state "
                                "SSL_HANDSHAKE)"));
    assert_true(mm2_kafka_tls_hopeless(RD_KAFKA_RESP_ERR__SSL,
                                       "ssl://h:9095/bootstrap: SSL handshake failed: "
                                       "ssl/record/rec_layer_s3.c:1584: error:0A000415:SSL "
                                       "routines::sslv3 alert certificate expired: SSL alert "
                                       "number 45"));
    /* TLS 1.3: the broker's alert for an expired client certificate, at the first read. */
    assert_true(mm2_kafka_tls_hopeless(
        RD_KAFKA_RESP_ERR__TRANSPORT,
        "ssl://198.18.12.11:9095/bootstrap: Receive failed: error:0A000416:SSL routines::sslv3 "
        "alert certificate unknown: SSL alert number 46 (after 1ms in state APIVERSION_QUERY)"));
    /* A handshake or a read cut by a restarting broker is retried; so is any other error. */
    assert_false(mm2_kafka_tls_hopeless(RD_KAFKA_RESP_ERR__SSL,
                                        "ssl://h:9095/bootstrap: SSL handshake failed: "
                                        "Disconnected: connection reset by peer"));
    assert_false(mm2_kafka_tls_hopeless(RD_KAFKA_RESP_ERR__TRANSPORT,
                                        "ssl://h:9095/bootstrap: Receive failed: Connection reset "
                                        "by peer (after 3ms in state UP)"));
    assert_false(mm2_kafka_tls_hopeless(RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN,
                                        "1/1 brokers are down: SSL routines alert "));
    assert_false(mm2_kafka_tls_hopeless(RD_KAFKA_RESP_ERR__SSL, NULL));
}

/* ---- mm2_kafka_features_ok --------------------------------------------------------------- */

#define ALL                                                                                        \
    "gzip,snappy,ssl,sasl,regex,lz4,sasl_gssapi,sasl_plain,sasl_scram,plugins,zstd,"               \
    "sasl_oauthbearer"

static void test_features_plaintext_needs_nothing(void **state)
{
    (void)state;
    assert_true(mm2_kafka_features_ok("", NULL, NULL, NULL, 0));
    assert_true(mm2_kafka_features_ok(NULL, "PLAINTEXT", "NOPE", NULL, 0));
}

static void test_features_ssl_needs_ssl(void **state)
{
    char why[512];

    (void)state;
    assert_true(mm2_kafka_features_ok("ssl", "SSL", NULL, why, sizeof(why)));
    assert_false(mm2_kafka_features_ok("gzip,sasl_plain", "ssl", NULL, why, sizeof(why)));
    assert_string_equal(why, "security.protocol needs TLS, and this librdkafka was built without "
                             "ssl (builtin.features: gzip,sasl_plain)");
    assert_false(mm2_kafka_features_ok("sasl,sasl_plain", "SASL_SSL", "PLAIN", why, sizeof(why)));
    assert_true(
        mm2_kafka_features_ok("ssl,sasl,sasl_plain", "sasl_ssl", "PLAIN", why, sizeof(why)));
}

static void test_features_each_mechanism_needs_its_feature(void **state)
{
    static const struct {
        const char *mech;
        const char *feature;
    } cases[] = {{"PLAIN", "sasl_plain"},
                 {"SCRAM-SHA-256", "sasl_scram"},
                 {"SCRAM-SHA-512", "sasl_scram"},
                 {"GSSAPI", "sasl_gssapi"},
                 {"OAUTHBEARER", "sasl_oauthbearer"}};
    char why[512];
    char want[512];

    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        assert_true(mm2_kafka_features_ok(cases[i].feature, "SASL_PLAINTEXT", cases[i].mech, why,
                                          sizeof(why)));
        assert_true(mm2_kafka_features_ok(ALL, "SASL_PLAINTEXT", cases[i].mech, why, sizeof(why)));
        assert_false(
            mm2_kafka_features_ok("ssl,sasl", "SASL_PLAINTEXT", cases[i].mech, why, sizeof(why)));
        snprintf(want, sizeof(want),
                 "the SASL mechanism in sasl.mechanisms needs %s, which this librdkafka was built "
                 "without (builtin.features: ssl,sasl)",
                 cases[i].feature);
        assert_string_equal(why, want);
    }
}

static void test_features_default_mechanism_is_gssapi(void **state)
{
    char why[512];

    (void)state;
    assert_false(mm2_kafka_features_ok("ssl,sasl_plain", "SASL_SSL", NULL, why, sizeof(why)));
    assert_non_null(strstr(why, "sasl_gssapi"));
    assert_true(mm2_kafka_features_ok("ssl,sasl_gssapi", "SASL_SSL", NULL, why, sizeof(why)));
}

static void test_features_match_whole_names_only(void **state)
{
    (void)state;
    assert_false(mm2_kafka_features_ok("sasl_scramx,xsasl_scram,sasl", "SASL_PLAINTEXT",
                                       "SCRAM-SHA-256", NULL, 0));
    assert_false(mm2_kafka_features_ok("sslx", "SSL", NULL, NULL, 0));
    assert_true(
        mm2_kafka_features_ok("zstd,sasl_scram", "SASL_PLAINTEXT", "SCRAM-SHA-256", NULL, 0));
}

static void test_features_unknown_protocol_and_mechanism(void **state)
{
    char why[512];

    (void)state;
    assert_false(mm2_kafka_features_ok(ALL, "tls", NULL, why, sizeof(why)));
    assert_string_equal(why,
                        "security.protocol is not one of plaintext, ssl, sasl_plaintext, sasl_ssl");
    assert_false(mm2_kafka_features_ok(ALL, "SASL_SSL", "AWS_MSK_IAM", why, sizeof(why)));
    assert_null(strstr(why, "AWS_MSK_IAM"));
}

/* ---- frees and argument checks ----------------------------------------------------------- */

static void test_frees_accept_null_and_zeroed(void **state)
{
    struct mm2_topic_list tl = {0};
    struct mm2_record_list rl = {0};

    (void)state;
    mm2_kafka_free(NULL);
    mm2_topic_list_free(NULL);
    mm2_topic_list_free(&tl);
    mm2_topic_list_free(&tl); /* twice: the free resets it */
    mm2_record_list_free(NULL);
    mm2_record_list_free(&rl);
    assert_int_equal(mm2_kafka_requests(NULL), 0);
}

static void test_calls_without_a_client_are_usage(void **state)
{
    struct mm2_deadline dl = later(1000);
    struct mm2_tp tp = {"t", 0};
    struct mm2_error err = {0};
    struct mm2_topic_list tl;
    struct mm2_record_list rl;
    struct mm2_group_info gi;
    int64_t a = 0, b = 0;
    char id[MM2_KAFKA_CLUSTER_ID_MAX];

    (void)state;
    assert_int_equal(mm2_kafka_cluster_id(NULL, &dl, id, sizeof(id), &err), MM2_USAGE);
    assert_string_equal(err.msg, "no Kafka client");
    assert_int_equal(mm2_kafka_topics(NULL, &dl, &tl, &err), MM2_USAGE);
    assert_int_equal(mm2_kafka_committed(NULL, "g", &tp, 1, &a, &dl, &err), MM2_USAGE);
    assert_int_equal(mm2_kafka_group(NULL, "g", &dl, &gi, &err), MM2_USAGE);
    assert_int_equal(mm2_kafka_log_offsets(NULL, &tp, 1, &a, &b, NULL, &dl, &err), MM2_USAGE);
    assert_int_equal(mm2_kafka_commit(NULL, "g", &tp, &a, 1, &dl, &err), MM2_USAGE);
    assert_int_equal(mm2_kafka_read(NULL, "t", 0, 0, -1, 1, false, &dl, &rl, &err), MM2_USAGE);
    assert_null(rl.v); /* the list is reset even then, so freeing it is always safe */
    assert_int_equal(rl.n, 0);
}

static void test_partition_lists_are_checked(void **state)
{
    struct mm2_kafka *k = client();
    struct mm2_deadline dl = later(1000);
    struct mm2_tp twice[] = {{"a", 1}, {"b", 0}, {"a", 1}};
    struct mm2_tp negative[] = {{"a", -1}};
    struct mm2_tp notopic[] = {{"a", 0}, {NULL, 0}};
    struct mm2_tp empty[] = {{"", 0}};
    struct mm2_error err = {0};
    int64_t s[3], e[3];

    (void)state;
    assert_int_equal(mm2_kafka_log_offsets(k, twice, 3, s, e, NULL, &dl, &err), MM2_USAGE);
    assert_string_equal(err.msg, "[source] a[1] is listed twice");
    assert_int_equal(mm2_kafka_log_offsets(k, negative, 1, s, e, NULL, &dl, &err), MM2_USAGE);
    assert_string_equal(err.msg, "[source] a[-1]: negative partition");
    assert_int_equal(mm2_kafka_log_offsets(k, notopic, 2, s, e, NULL, &dl, &err), MM2_USAGE);
    assert_string_equal(err.msg, "[source] partition #1 has no topic");
    assert_int_equal(mm2_kafka_log_offsets(k, empty, 1, s, e, NULL, &dl, &err), MM2_USAGE);
    assert_int_equal(mm2_kafka_log_offsets(k, NULL, 0, s, e, NULL, &dl, &err), MM2_USAGE);
    assert_string_equal(err.msg, "[source] no partitions given");
    assert_int_equal(mm2_kafka_log_offsets(k, twice, 0, s, e, NULL, &dl, &err), MM2_USAGE);
    /* start may be NULL (no log start request); end may not. */
    assert_int_equal(mm2_kafka_log_offsets(k, twice, 1, s, NULL, NULL, &dl, &err), MM2_USAGE);
    assert_string_equal(err.msg, "[source] log offsets: no output for the end");
    assert_int_equal(mm2_kafka_log_offsets(k, twice, 1, NULL, NULL, s, &dl, &err), MM2_USAGE);
    assert_string_equal(err.msg, "[source] log offsets: no output for the end");
    assert_int_equal(mm2_kafka_committed(k, "g", twice, 3, s, &dl, &err), MM2_USAGE);
    assert_int_equal(mm2_kafka_commit(k, "g", twice, s, 3, &dl, &err), MM2_USAGE);
    assert_int_equal(mm2_kafka_requests(k), 0);
    mm2_kafka_free(k);
}

static void test_group_calls_need_a_group_and_outputs(void **state)
{
    struct mm2_kafka *k = client();
    struct mm2_deadline dl = later(1000);
    struct mm2_tp tp[] = {{"t", 0}};
    struct mm2_group_info gi;
    struct mm2_error err = {0};
    int64_t o[1] = {5};
    int64_t negative[1] = {-1};
    char id[4];

    (void)state;
    assert_int_equal(mm2_kafka_committed(k, NULL, tp, 1, o, &dl, &err), MM2_USAGE);
    assert_int_equal(mm2_kafka_committed(k, "", tp, 1, o, &dl, &err), MM2_USAGE);
    assert_int_equal(mm2_kafka_committed(k, "g", tp, 1, NULL, &dl, &err), MM2_USAGE);
    assert_int_equal(mm2_kafka_group(k, NULL, &dl, &gi, &err), MM2_USAGE);
    assert_int_equal(mm2_kafka_group(k, "g", &dl, NULL, &err), MM2_USAGE);
    assert_int_equal(mm2_kafka_commit(k, "", tp, o, 1, &dl, &err), MM2_USAGE);
    assert_int_equal(mm2_kafka_commit(k, "g", tp, NULL, 1, &dl, &err), MM2_USAGE);
    assert_int_equal(mm2_kafka_commit(k, "g", tp, negative, 1, &dl, &err), MM2_USAGE);
    assert_string_equal(err.msg, "[source] commit to group 'g': t[0]: negative offset -1");
    assert_int_equal(mm2_kafka_cluster_id(k, &dl, NULL, 10, &err), MM2_USAGE);
    assert_int_equal(mm2_kafka_cluster_id(k, &dl, id, 0, &err), MM2_USAGE);
    assert_int_equal(mm2_kafka_topics(k, &dl, NULL, &err), MM2_USAGE);
    assert_int_equal(mm2_kafka_topics(k, NULL, NULL, &err), MM2_USAGE);
    assert_int_equal(mm2_kafka_requests(k), 0);
    mm2_kafka_free(k);
}

/* mm2_kafka_compacted checks its topics like a partition list, and sends nothing when they are
 * wrong. */
static void test_compacted_arguments_are_checked(void **state)
{
    struct mm2_kafka *k = client();
    struct mm2_deadline dl = later(1000);
    const char *twice[] = {"a", "b", "a"};
    const char *unnamed[] = {"a", ""};
    bool c[3];
    struct mm2_error err = {0};

    (void)state;
    assert_int_equal(mm2_kafka_compacted(NULL, twice, 1, c, &dl, &err), MM2_USAGE);
    assert_string_equal(err.msg, "no Kafka client");
    assert_int_equal(mm2_kafka_compacted(k, twice, 3, c, &dl, &err), MM2_USAGE);
    assert_string_equal(err.msg, "[source] a[0] is listed twice");
    assert_int_equal(mm2_kafka_compacted(k, unnamed, 2, c, &dl, &err), MM2_USAGE);
    assert_string_equal(err.msg, "[source] partition #1 has no topic");
    assert_int_equal(mm2_kafka_compacted(k, NULL, 1, c, &dl, &err), MM2_USAGE);
    assert_string_equal(err.msg, "[source] cleanup.policy: no topics or no output");
    assert_int_equal(mm2_kafka_compacted(k, twice, 1, NULL, &dl, &err), MM2_USAGE);
    assert_int_equal(mm2_kafka_compacted(k, twice, 0, c, &dl, &err), MM2_USAGE);
    assert_string_equal(err.msg, "[source] no partitions given");
    assert_int_equal(mm2_kafka_requests(k), 0);
    mm2_kafka_free(k);
}

static void test_read_arguments_are_checked(void **state)
{
    struct mm2_kafka *k = client();
    struct mm2_deadline dl = later(1000);
    struct mm2_record_list rl;
    struct mm2_error err = {0};

    (void)state;
    assert_int_equal(mm2_kafka_read(k, "t", 0, 0, -1, 0, false, &dl, &rl, &err), MM2_USAGE);
    assert_int_equal(mm2_kafka_read(k, "t", 0, -1, -1, 1, false, &dl, &rl, &err), MM2_USAGE);
    assert_int_equal(mm2_kafka_read(k, "t", 0, 0, -2, 1, false, &dl, &rl, &err), MM2_USAGE);
    assert_int_equal(mm2_kafka_read(k, NULL, 0, 0, -1, 1, false, &dl, &rl, &err), MM2_USAGE);
    assert_int_equal(mm2_kafka_read(k, "t", -3, 0, -1, 1, true, &dl, &rl, &err), MM2_USAGE);
    assert_int_equal(mm2_kafka_read(k, "t", 0, 0, -1, 1, false, &dl, NULL, &err), MM2_USAGE);
    assert_int_equal(rl.n, 0);
    mm2_record_list_free(&rl);
    assert_int_equal(mm2_kafka_requests(k), 0);
    mm2_kafka_free(k);
}

static void test_read_of_an_empty_range_sends_nothing(void **state)
{
    struct mm2_kafka *k = client();
    struct mm2_deadline dl = later(1000);
    struct mm2_record_list rl;
    struct mm2_error err = {0};

    (void)state;
    assert_int_equal(mm2_kafka_read(k, "t", 0, 7, 7, 10, false, &dl, &rl, &err), MM2_OK);
    assert_int_equal(rl.n, 0);
    assert_int_equal(mm2_kafka_read(k, "t", 0, 9, 3, 10, true, &dl, &rl, &err), MM2_OK);
    assert_int_equal(rl.n, 0);
    assert_int_equal(mm2_kafka_requests(k), 0);
    mm2_kafka_free(k);
}

static void test_expired_deadline_sends_nothing(void **state)
{
    struct mm2_kafka *k = client();
    struct mm2_deadline dl = later(0);
    struct mm2_tp tp[] = {{"t", 0}};
    struct mm2_error err = {0};
    int64_t s, e;
    char id[MM2_KAFKA_CLUSTER_ID_MAX];

    (void)state;
    assert_int_equal(mm2_kafka_cluster_id(k, &dl, id, sizeof(id), &err), MM2_UNREACHABLE);
    assert_string_equal(err.msg, "[source] deadline passed before the request");
    assert_int_equal(mm2_kafka_log_offsets(k, tp, 1, &s, &e, NULL, &dl, &err), MM2_UNREACHABLE);
    assert_int_equal(mm2_kafka_requests(k), 0);
    mm2_kafka_free(k);
}

/* ---- nothing listening ------------------------------------------------------------------- */

static void test_closed_port_is_unreachable_by_the_deadline(void **state)
{
    struct mm2_kafka *k = client();
    struct mm2_deadline dl = later(300);
    struct mm2_error err = {0};
    char id[MM2_KAFKA_CLUSTER_ID_MAX] = "x";
    long t0 = mm2_deadline_now_ms();
    long took;

    (void)state;
    assert_int_equal(mm2_kafka_cluster_id(k, &dl, id, sizeof(id), &err), MM2_UNREACHABLE);
    took = mm2_deadline_now_ms() - t0;
    assert_string_equal(id, "");
    assert_non_null(strstr(err.msg, "[source] cluster id: no broker answered within "));
    assert_non_null(strstr(err.msg, "(last librdkafka error: "));
    /* Returns by the deadline: a slice of 100 ms at most past it, more under valgrind. */
    assert_true(took >= 290);
    assert_true(took < 300 + 1000);
    assert_int_equal(mm2_kafka_requests(k), 0);
    mm2_kafka_free(k);
}

static void test_closed_port_read_is_unreachable(void **state)
{
    struct mm2_kafka *k = client();
    struct mm2_deadline dl = later(200);
    struct mm2_record_list rl;
    struct mm2_error err = {0};

    (void)state;
    assert_int_equal(mm2_kafka_read(k, "t", 0, 0, 5, 10, true, &dl, &rl, &err), MM2_UNREACHABLE);
    assert_non_null(
        strstr(err.msg, "[source] read t[0]: last stable offset: no broker answered within "));
    assert_int_equal(rl.n, 0);
    mm2_record_list_free(&rl);
    mm2_kafka_free(k);
}

static void test_closed_port_log_offsets_without_start_asks_for_the_end_first(void **state)
{
    struct mm2_kafka *k = client();
    struct mm2_deadline dl = later(200);
    struct mm2_tp tp[] = {{"t", 0}};
    struct mm2_error err = {0};
    int64_t s[1] = {7}, e[1] = {7};

    (void)state;
    /* With start NULL the log start request is skipped: the first to fail is the end's. */
    assert_int_equal(mm2_kafka_log_offsets(k, tp, 1, NULL, e, NULL, &dl, &err), MM2_UNREACHABLE);
    assert_non_null(strstr(err.msg, "[source] log end offsets: no broker answered within "));
    assert_int_equal(mm2_kafka_requests(k), 0);
    mm2_kafka_free(k);
    /* With start given, the start's request is the first. */
    k = client();
    dl = later(200);
    assert_int_equal(mm2_kafka_log_offsets(k, tp, 1, s, e, NULL, &dl, &err), MM2_UNREACHABLE);
    assert_non_null(strstr(err.msg, "[source] log start offsets: no broker answered within "));
    mm2_kafka_free(k);
}

static void test_closed_port_message_keeps_secrets_out(void **state)
{
    /* librdkafka's text names the broker address (kept: not a secret) and never the password;
     * the whole message is checked anyway. */
    struct mm2_kv props[] = {{"security.protocol", "SASL_PLAINTEXT"},
                             {"sasl.mechanisms", "SCRAM-SHA-256"},
                             {"sasl.username", "user-" SECRET},
                             {"sasl.password", SECRET}};
    struct mm2_kafka *k = NULL;
    struct mm2_deadline dl = later(200);
    struct mm2_tp tp[] = {{"t", 0}};
    struct mm2_error err = {0};
    int64_t o;

    (void)state;
    assert_int_equal(make("source", props, 4, &k, &err), MM2_OK);
    assert_int_equal(mm2_kafka_committed(k, "g", tp, 1, &o, &dl, &err), MM2_UNREACHABLE);
    assert_null(strstr(err.msg, SECRET));
    assert_non_null(strstr(err.msg, "127.0.0.1:1"));
    mm2_kafka_free(k);
}

static void test_librdkafka_error_text_has_property_values_redacted(void **state)
{
    /* Values chosen to appear in what librdkafka reports for a closed port, whichever of its
     * two errors ("Connection refused" or "1/1 brokers are down") comes last. */
    struct mm2_kv props[] = {{"security.protocol", "SASL_PLAINTEXT"},
                             {"sasl.mechanisms", "PLAIN"},
                             {"sasl.username", "Connection refused"},
                             {"sasl.password", SECRET},
                             {"sasl.kerberos.service.name", "brokers are down"}};
    struct mm2_kafka *k = NULL;
    struct mm2_deadline dl = later(200);
    struct mm2_error err = {0};
    char id[MM2_KAFKA_CLUSTER_ID_MAX];

    (void)state;
    assert_int_equal(make("source", props, 5, &k, &err), MM2_OK);
    assert_int_equal(mm2_kafka_cluster_id(k, &dl, id, sizeof(id), &err), MM2_UNREACHABLE);
    assert_non_null(strstr(err.msg, "<redacted>"));
    assert_null(strstr(err.msg, "Connection refused"));
    assert_null(strstr(err.msg, "brokers are down"));
    mm2_kafka_free(k);
}

static void test_librdkafka_error_text_is_withheld_for_a_short_secret(void **state)
{
    /* "re" is in both of librdkafka's texts for a closed port: replacing it everywhere would
     * mangle the text, so none of it is shown. */
    struct mm2_kv props[] = {{"security.protocol", "SASL_PLAINTEXT"},
                             {"sasl.mechanisms", "PLAIN"},
                             {"sasl.username", "u"},
                             {"sasl.password", "re"}};
    struct mm2_kafka *k = NULL;
    struct mm2_deadline dl = later(200);
    struct mm2_error err = {0};
    char id[MM2_KAFKA_CLUSTER_ID_MAX];

    (void)state;
    assert_int_equal(make("source", props, 4, &k, &err), MM2_OK);
    assert_int_equal(mm2_kafka_cluster_id(k, &dl, id, sizeof(id), &err), MM2_UNREACHABLE);
    assert_non_null(strstr(err.msg, ", text withheld)"));
    assert_null(strstr(err.msg, "127.0.0.1"));
    mm2_kafka_free(k);
}

/* ---- log offsets on a mock cluster ------------------------------------------------------- */

#define MOCK_PARTITIONS 1100 /* two calls of mm2_kafka_admin.c's 1,000 partitions */

/* Log ends of 1,100 partitions asked in reverse order, on librdkafka's mock cluster of 3
 * brokers: every partition gets its own answer, in the caller's order, across the calls of
 * 1,000 that mm2_kafka_log_offsets makes. Partition p holds p % 3 records. Then the committed
 * offsets of a group, also committed and read in calls of 1,000. */
static void test_log_offsets_across_calls_keep_each_partitions_answer(void **state)
{
    char errstr[512];
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    rd_kafka_t *host, *prod;
    rd_kafka_mock_cluster_t *mc;
    struct mm2_kafka *k = NULL;
    struct mm2_error err = {0};
    struct mm2_deadline dl = later(60000);
    struct mm2_tp *tps = calloc(MOCK_PARTITIONS, sizeof(*tps));
    int64_t *s = calloc(MOCK_PARTITIONS, sizeof(*s)), *e = calloc(MOCK_PARTITIONS, sizeof(*e));
    struct mm2_kv props[1];

    (void)state;
    assert_non_null(tps);
    assert_non_null(s);
    assert_non_null(e);
    assert_int_equal(rd_kafka_conf_set(conf, "log_level", "3", errstr, sizeof(errstr)),
                     RD_KAFKA_CONF_OK);
    host = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof(errstr));
    assert_non_null(host);
    mc = rd_kafka_mock_cluster_new(host, 3);
    assert_non_null(mc);
    assert_int_equal(rd_kafka_mock_topic_create(mc, "t", MOCK_PARTITIONS, 1),
                     RD_KAFKA_RESP_ERR_NO_ERROR);
    conf = rd_kafka_conf_new();
    assert_int_equal(rd_kafka_conf_set(conf, "bootstrap.servers",
                                       rd_kafka_mock_cluster_bootstraps(mc), errstr,
                                       sizeof(errstr)),
                     RD_KAFKA_CONF_OK);
    assert_int_equal(rd_kafka_conf_set(conf, "log_level", "3", errstr, sizeof(errstr)),
                     RD_KAFKA_CONF_OK);
    prod = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof(errstr));
    assert_non_null(prod);
    for (int p = 0; p < MOCK_PARTITIONS; p++)
        for (int r = 0; r < p % 3; r++)
            assert_int_equal(rd_kafka_producev(prod, RD_KAFKA_V_TOPIC("t"), RD_KAFKA_V_PARTITION(p),
                                               RD_KAFKA_V_VALUE("v", 1), RD_KAFKA_V_END),
                             RD_KAFKA_RESP_ERR_NO_ERROR);
    assert_int_equal(rd_kafka_flush(prod, 30000), RD_KAFKA_RESP_ERR_NO_ERROR);
    rd_kafka_destroy(prod);

    props[0] = (struct mm2_kv){"bootstrap.servers", rd_kafka_mock_cluster_bootstraps(mc)};
    assert_int_equal(mm2_kafka_new("source", props, 1, &k, &err), MM2_OK);
    for (int i = 0; i < MOCK_PARTITIONS; i++)
        tps[i] = (struct mm2_tp){"t", MOCK_PARTITIONS - 1 - i};
    assert_int_equal(mm2_kafka_log_offsets(k, tps, MOCK_PARTITIONS, s, e, NULL, &dl, &err), MM2_OK);
    for (int i = 0; i < MOCK_PARTITIONS; i++) {
        assert_int_equal(s[i], 0);
        assert_int_equal(e[i], (MOCK_PARTITIONS - 1 - i) % 3);
    }
    /* The committed offsets the same way: committed in calls of 1,000 (once the group's
     * coordinator is known, after a first commit, a call costs the same requests whatever its
     * size: 1,100 partitions cost two calls' worth), read back in calls of 1,000. */
    for (int i = 0; i < MOCK_PARTITIONS; i++)
        e[i] = (MOCK_PARTITIONS - 1 - i) % 7;
    assert_int_equal(mm2_kafka_commit(k, "g", tps, e, 1, &dl, &err), MM2_OK);
    long before = mm2_kafka_requests(k);
    assert_int_equal(mm2_kafka_commit(k, "g", tps, e, 1, &dl, &err), MM2_OK);
    long one = mm2_kafka_requests(k) - before;
    assert_true(one >= 1);
    before = mm2_kafka_requests(k);
    assert_int_equal(mm2_kafka_commit(k, "g", tps, e, MOCK_PARTITIONS, &dl, &err), MM2_OK);
    assert_int_equal(mm2_kafka_requests(k) - before, 2 * one);
    assert_int_equal(mm2_kafka_committed(k, "g", tps, MOCK_PARTITIONS, s, &dl, &err), MM2_OK);
    for (int i = 0; i < MOCK_PARTITIONS; i++)
        assert_int_equal(s[i], (MOCK_PARTITIONS - 1 - i) % 7);
    mm2_kafka_free(k);
    free(tps);
    free(s);
    free(e);
    rd_kafka_mock_cluster_destroy(mc);
    rd_kafka_destroy(host);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_new_sends_nothing),
        cmocka_unit_test(test_log_offsets_across_calls_keep_each_partitions_answer),
        cmocka_unit_test(test_new_unknown_property_names_the_key_only),
        cmocka_unit_test(test_new_invalid_value_is_never_shown),
        cmocka_unit_test(test_new_invalid_security_protocol_is_never_shown),
        cmocka_unit_test(test_new_refuses_every_reserved_key),
        cmocka_unit_test(test_new_reserved_key_refused_even_with_a_valid_value),
        cmocka_unit_test(test_new_unknown_sasl_mechanism_is_config),
        cmocka_unit_test(test_new_sasl_mechanism_is_case_sensitive_like_librdkafka),
        cmocka_unit_test(test_new_accepts_every_built_in_mechanism),
        cmocka_unit_test(test_new_unsupported_build_option_says_so),
        cmocka_unit_test(test_new_rd_kafka_new_refusal_is_config),
        cmocka_unit_test(test_new_librdkafka_text_has_values_redacted),
        cmocka_unit_test(test_new_checks_what_rd_kafka_new_checks),
        cmocka_unit_test(test_new_later_property_wins),
        cmocka_unit_test(test_new_response_cap_may_be_lowered_never_raised),
        cmocka_unit_test(test_new_plain_without_credentials_is_refused_at_once),
        cmocka_unit_test(test_new_argument_checks),
        cmocka_unit_test(test_new_with_no_properties_is_fine),
        cmocka_unit_test(test_tls_hopeless_only_for_verification_and_alerts),
        cmocka_unit_test(test_features_plaintext_needs_nothing),
        cmocka_unit_test(test_features_ssl_needs_ssl),
        cmocka_unit_test(test_features_each_mechanism_needs_its_feature),
        cmocka_unit_test(test_features_default_mechanism_is_gssapi),
        cmocka_unit_test(test_features_match_whole_names_only),
        cmocka_unit_test(test_features_unknown_protocol_and_mechanism),
        cmocka_unit_test(test_frees_accept_null_and_zeroed),
        cmocka_unit_test(test_calls_without_a_client_are_usage),
        cmocka_unit_test(test_partition_lists_are_checked),
        cmocka_unit_test(test_group_calls_need_a_group_and_outputs),
        cmocka_unit_test(test_compacted_arguments_are_checked),
        cmocka_unit_test(test_read_arguments_are_checked),
        cmocka_unit_test(test_read_of_an_empty_range_sends_nothing),
        cmocka_unit_test(test_expired_deadline_sends_nothing),
        cmocka_unit_test(test_closed_port_is_unreachable_by_the_deadline),
        cmocka_unit_test(test_closed_port_read_is_unreachable),
        cmocka_unit_test(test_closed_port_log_offsets_without_start_asks_for_the_end_first),
        cmocka_unit_test(test_closed_port_message_keeps_secrets_out),
        cmocka_unit_test(test_librdkafka_error_text_has_property_values_redacted),
        cmocka_unit_test(test_librdkafka_error_text_is_withheld_for_a_short_secret),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
