/* Unit tests for lib/mm2_parse: strict numbers, ports, durations, bootstrap lists, topics. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "mm2_parse.h"

/* ---- mm2_parse_long ------------------------------------------------------------------------ */

static void test_parse_long_accepts_plain_decimal(void **state)
{
    long v = 0;

    (void)state;
    assert_int_equal(mm2_parse_long("42", 0, 100, &v), 0);
    assert_int_equal(v, 42);
    assert_int_equal(mm2_parse_long("-17", -100, 100, &v), 0);
    assert_int_equal(v, -17);
}

static void test_parse_long_leading_zero_is_decimal(void **state)
{
    long v = 0;

    (void)state;
    assert_int_equal(mm2_parse_long("08", 0, 100, &v), 0);
    assert_int_equal(v, 8);
}

static void test_parse_long_minus_zero_is_zero(void **state)
{
    long v = 5;

    (void)state;
    assert_int_equal(mm2_parse_long("-0", 0, 100, &v), 0);
    assert_int_equal(v, 0);
}

static void test_parse_long_accepts_long_limits(void **state)
{
    long v = 0;
    char buf[32];

    (void)state;
    snprintf(buf, sizeof(buf), "%ld", LONG_MAX);
    assert_int_equal(mm2_parse_long(buf, LONG_MIN, LONG_MAX, &v), 0);
    assert_true(v == LONG_MAX);
    snprintf(buf, sizeof(buf), "%ld", LONG_MIN);
    assert_int_equal(mm2_parse_long(buf, LONG_MIN, LONG_MAX, &v), 0);
    assert_true(v == LONG_MIN);
}

static void test_parse_long_rejects_overflow(void **state)
{
    long v = 7;

    (void)state;
    /* LONG_MAX + 1 and LONG_MIN - 1 on LP64 */
    assert_int_equal(mm2_parse_long("9223372036854775808", LONG_MIN, LONG_MAX, &v), -1);
    assert_int_equal(mm2_parse_long("-9223372036854775809", LONG_MIN, LONG_MAX, &v), -1);
    assert_int_equal(mm2_parse_long("99999999999999999999999", LONG_MIN, LONG_MAX, &v), -1);
    assert_int_equal(v, 7);
}

static void test_parse_long_rejects_malformed(void **state)
{
    long v = 7;
    static const char *bad[] = {"",    " 5", "5 ",  "+5",  "1e3", "0x10", "-",
                                "--1", "5-", "1.0", "abc", "\t5", "5\n"};

    (void)state;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        if (mm2_parse_long(bad[i], LONG_MIN, LONG_MAX, &v) != -1)
            fail_msg("accepted \"%s\"", bad[i]);
    }
    assert_int_equal(mm2_parse_long(NULL, 0, 1, &v), -1);
    assert_int_equal(v, 7);
}

static void test_parse_long_enforces_range(void **state)
{
    long v = 7;

    (void)state;
    assert_int_equal(mm2_parse_long("10", 0, 9, &v), -1);
    assert_int_equal(mm2_parse_long("-1", 0, 9, &v), -1);
    assert_int_equal(mm2_parse_long("9", 0, 9, &v), 0);
    assert_int_equal(v, 9);
    assert_int_equal(mm2_parse_long("0", 0, 9, &v), 0);
    assert_int_equal(v, 0);
}

/* ---- mm2_parse_port ------------------------------------------------------------------------ */

static void test_parse_port_accepts_range_edges(void **state)
{
    int p = 0;

    (void)state;
    assert_int_equal(mm2_parse_port("1", &p), 0);
    assert_int_equal(p, 1);
    assert_int_equal(mm2_parse_port("65535", &p), 0);
    assert_int_equal(p, 65535);
    assert_int_equal(mm2_parse_port("8083", &p), 0);
    assert_int_equal(p, 8083);
}

static void test_parse_port_rejects_out_of_range_and_words(void **state)
{
    int p = 3;

    (void)state;
    assert_int_equal(mm2_parse_port("0", &p), -1);
    assert_int_equal(mm2_parse_port("65536", &p), -1);
    assert_int_equal(mm2_parse_port("-1", &p), -1);
    assert_int_equal(mm2_parse_port("http", &p), -1);
    assert_int_equal(mm2_parse_port("8088x", &p), -1);
    assert_int_equal(mm2_parse_port("", &p), -1);
    assert_int_equal(p, 3);
}

/* ---- mm2_parse_seconds --------------------------------------------------------------------- */

static void test_parse_seconds_converts_to_ms(void **state)
{
    long ms = 0;

    (void)state;
    assert_int_equal(mm2_parse_seconds("5", &ms), 0);
    assert_int_equal(ms, 5000);
    assert_int_equal(mm2_parse_seconds("0.25", &ms), 0);
    assert_int_equal(ms, 250);
    assert_int_equal(mm2_parse_seconds("1.5", &ms), 0);
    assert_int_equal(ms, 1500);
    assert_int_equal(mm2_parse_seconds("0.001", &ms), 0);
    assert_int_equal(ms, 1);
    assert_int_equal(mm2_parse_seconds("2.05", &ms), 0);
    assert_int_equal(ms, 2050);
    assert_int_equal(mm2_parse_seconds("007", &ms), 0);
    assert_int_equal(ms, 7000);
}

static void test_parse_seconds_accepts_max(void **state)
{
    long ms = 0;

    (void)state;
    assert_int_equal(mm2_parse_seconds("86400", &ms), 0);
    assert_int_equal(ms, 86400000);
    assert_int_equal(mm2_parse_seconds("86400.000", &ms), 0);
    assert_int_equal(ms, 86400000);
}

static void test_parse_seconds_rejects_zero_and_too_fine(void **state)
{
    long ms = 9;

    (void)state;
    assert_int_equal(mm2_parse_seconds("0", &ms), -1);
    assert_int_equal(mm2_parse_seconds("0.0", &ms), -1);
    assert_int_equal(mm2_parse_seconds("0.000", &ms), -1);
    assert_int_equal(mm2_parse_seconds("0.0001", &ms), -1);
    assert_int_equal(mm2_parse_seconds("1.2345", &ms), -1);
    assert_int_equal(ms, 9);
}

static void test_parse_seconds_rejects_malformed(void **state)
{
    long ms = 9;
    static const char *bad[] = {
        "",     "abc", "1.",  ".5", "-1",    "+1",        " 1",    "1 ",
        "1..2", "1.a", "1e3", "5s", "1.2.3", "86400.001", "86401", "99999999999999999999"};

    (void)state;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        if (mm2_parse_seconds(bad[i], &ms) != -1)
            fail_msg("accepted \"%s\"", bad[i]);
    }
    assert_int_equal(mm2_parse_seconds(NULL, &ms), -1);
    assert_int_equal(ms, 9);
}

/* ---- mm2_parse_hostport_list_valid
 * --------------------------------------------------------------- */

static void test_hostport_list_accepts_names_ipv4_ipv6(void **state)
{
    char why[256] = "";

    (void)state;
    assert_true(mm2_parse_hostport_list_valid("kafka-1:9092", why, sizeof(why)));
    assert_true(
        mm2_parse_hostport_list_valid("a:1,b.example.com:9093,10.0.0.1:9092", why, sizeof(why)));
    assert_true(mm2_parse_hostport_list_valid("[::1]:9092", why, sizeof(why)));
    assert_true(mm2_parse_hostport_list_valid("[2001:db8::5]:9092,kafka:65535", why, sizeof(why)));
    assert_true(mm2_parse_hostport_list_valid("localhost:9092", NULL, 0));
    assert_string_equal(why, "");
}

static void assert_hostport_invalid(const char *list, const char *reason)
{
    char why[256] = "";

    if (mm2_parse_hostport_list_valid(list, why, sizeof(why)))
        fail_msg("accepted \"%s\"", list);
    assert_string_equal(why, reason);
}

static void test_hostport_list_rejects_empty_entry(void **state)
{
    (void)state;
    assert_hostport_invalid("a:1,,b:2", "entry 2 is empty");
    assert_hostport_invalid("a:1,", "entry 2 is empty");
    assert_hostport_invalid(",a:1", "entry 1 is empty");
    assert_hostport_invalid("", "list is empty");
}

static void test_hostport_list_rejects_missing_port(void **state)
{
    (void)state;
    assert_hostport_invalid("kafka-1", "entry \"kafka-1\" has no port");
    assert_hostport_invalid("a", "entry \"a\" has no port");
    assert_hostport_invalid("[::1]", "entry \"[::1]\" has no port");
    assert_hostport_invalid("a:1,b", "entry \"b\" has no port");
}

static void test_hostport_list_rejects_missing_host(void **state)
{
    (void)state;
    assert_hostport_invalid(":9092", "entry \":9092\" has no host");
}

static void test_hostport_list_rejects_bad_port(void **state)
{
    (void)state;
    assert_hostport_invalid("host:99999",
                            "entry \"host:99999\" has an invalid port (expected 1..65535)");
    assert_hostport_invalid("host:0", "entry \"host:0\" has an invalid port (expected 1..65535)");
    assert_hostport_invalid("host:", "entry \"host:\" has an invalid port (expected 1..65535)");
    assert_hostport_invalid("host:+1", "entry \"host:+1\" has an invalid port (expected 1..65535)");
    assert_hostport_invalid("[::1]:x", "entry \"[::1]:x\" has an invalid port (expected 1..65535)");
}

static void test_hostport_list_rejects_bad_hosts(void **state)
{
    char label64[80];

    (void)state;
    assert_hostport_invalid("http://kafka:9092",
                            "entry \"http://kafka:9092\": an IPv6 address needs brackets, as in "
                            "[::1]:9092");
    assert_hostport_invalid("::1:9092",
                            "entry \"::1:9092\": an IPv6 address needs brackets, as in [::1]:9092");
    assert_hostport_invalid("-kafka:9092", "entry \"-kafka:9092\" has an invalid host");
    assert_hostport_invalid("kafka-:9092", "entry \"kafka-:9092\" has an invalid host");
    assert_hostport_invalid("a..b:9092", "entry \"a..b:9092\" has an invalid host");
    assert_hostport_invalid("ka_fka:9092", "entry \"ka_fka:9092\" has an invalid host");
    assert_hostport_invalid("10.0.0:9092", "entry \"10.0.0:9092\" has an invalid host");
    assert_hostport_invalid("256.1.1.1:9092", "entry \"256.1.1.1:9092\" has an invalid host");
    assert_hostport_invalid("[1.2.3.4]:9092",
                            "entry \"[1.2.3.4]:9092\" has an invalid IPv6 address");
    assert_hostport_invalid("[::1:9092", "entry \"[::1:9092\" has an unclosed '['");
    assert_hostport_invalid("[::1]9092", "entry \"[::1]9092\" has junk after ']'");
    memset(label64, 'a', 64);
    memcpy(label64 + 64, ":9092", 6); /* one 64-character label: too long */
    assert_false(mm2_parse_hostport_list_valid(label64, NULL, 0));
    memcpy(label64 + 63, ".b:9092", 8); /* a 63-character label, then "b": fine */
    assert_true(mm2_parse_hostport_list_valid(label64, NULL, 0));
}

static void test_hostport_list_enforces_name_and_list_length(void **state)
{
    char name[300];
    char list[4200];
    size_t n = 0;

    (void)state;
    /* 4 labels of 63 + 3 dots = 255 > 253 */
    for (int l = 0; l < 4; l++) {
        memset(name + n, 'a', 63);
        n += 63;
        name[n++] = '.';
    }
    memcpy(name + n - 1, ":1", 3);
    assert_false(mm2_parse_hostport_list_valid(name, NULL, 0));
    memcpy(name + n - 3, ":1", 3); /* 253 characters */
    assert_true(mm2_parse_hostport_list_valid(name, NULL, 0));

    /* 1023 entries "a:1," then "a:10": exactly 4096 characters; "a:100" makes it 4097 */
    for (n = 0; n < 1023 * 4; n += 4)
        memcpy(list + n, "a:1,", 4);
    memcpy(list + n, "a:10", 5);
    assert_int_equal(strlen(list), 4096);
    assert_true(mm2_parse_hostport_list_valid(list, NULL, 0));
    memcpy(list + n, "a:100", 6);
    assert_int_equal(strlen(list), 4097);
    assert_hostport_invalid(list, "list is 4097 characters long (at most 4096)");
}

static void test_hostport_list_reason_is_bounded(void **state)
{
    char why[12];

    (void)state;
    assert_false(mm2_parse_hostport_list_valid("kafka-1", why, sizeof(why)));
    assert_string_equal(why, "entry \"kafk");
}

/* ---- mm2_parse_topic_valid
 * ----------------------------------------------------------------------- */

static void test_topic_valid_accepts_legal_names(void **state)
{
    char why[128] = "";
    char t249[250];

    (void)state;
    assert_true(mm2_parse_topic_valid("mm2-offsets.source.internal", why, sizeof(why)));
    assert_true(mm2_parse_topic_valid("a_B-9.x", why, sizeof(why)));
    assert_true(mm2_parse_topic_valid("...", why, sizeof(why)));
    memset(t249, 't', 249);
    t249[249] = '\0';
    assert_true(mm2_parse_topic_valid(t249, why, sizeof(why)));
    assert_string_equal(why, "");
}

static void test_topic_valid_rejects_250_chars(void **state)
{
    char why[128];
    char t250[251];

    (void)state;
    memset(t250, 't', 250);
    t250[250] = '\0';
    assert_false(mm2_parse_topic_valid(t250, why, sizeof(why)));
    assert_string_equal(why, "topic name is 250 characters long (at most 249)");
}

static void test_topic_valid_rejects_dot_names_and_empty(void **state)
{
    char why[128];

    (void)state;
    assert_false(mm2_parse_topic_valid("..", why, sizeof(why)));
    assert_string_equal(why, "topic name cannot be \"..\"");
    assert_false(mm2_parse_topic_valid(".", why, sizeof(why)));
    assert_string_equal(why, "topic name cannot be \".\"");
    assert_false(mm2_parse_topic_valid("", why, sizeof(why)));
    assert_string_equal(why, "topic name is empty");
    assert_false(mm2_parse_topic_valid(NULL, why, sizeof(why)));
    assert_string_equal(why, "topic name is empty");
}

static void test_topic_valid_rejects_illegal_characters(void **state)
{
    char why[128];

    (void)state;
    assert_false(mm2_parse_topic_valid("a/b", why, sizeof(why)));
    assert_string_equal(why, "topic name \"a/b\" has an illegal character at position 2 (allowed: "
                             "[a-zA-Z0-9._-])");
    assert_false(mm2_parse_topic_valid("a b", NULL, 0));
    assert_false(mm2_parse_topic_valid("t\xc3\xa9", NULL, 0));
    assert_false(mm2_parse_topic_valid("a:b", NULL, 0));
}

/* mm2_parse_list: entries trimmed, empty ones and too many refused, the copy bounded. */
static void test_parse_list(void **state)
{
    char buf[64], why[80], *it[3];

    (void)state;
    assert_int_equal(mm2_parse_list(" a ,\tb,c ", buf, sizeof(buf), it, 3, why, sizeof(why)), 3);
    assert_string_equal(it[0], "a");
    assert_string_equal(it[1], "b");
    assert_string_equal(it[2], "c");
    assert_int_equal(mm2_parse_list("one", buf, sizeof(buf), it, 3, why, sizeof(why)), 1);
    assert_string_equal(it[0], "one");
    static const char *const empty[] = {"", ",", "a,", ",a", "a,,b", "a, ,b", " "};
    for (size_t i = 0; i < sizeof(empty) / sizeof(empty[0]); i++) {
        assert_int_equal(mm2_parse_list(empty[i], buf, sizeof(buf), it, 3, why, sizeof(why)), -1);
        assert_string_equal(why, "has an empty entry");
    }
    assert_int_equal(mm2_parse_list("a,b,c,d", buf, sizeof(buf), it, 3, why, sizeof(why)), -1);
    assert_string_equal(why, "has more than 3 entries");
    assert_int_equal(mm2_parse_list("abcdefgh", buf, 8, it, 3, why, sizeof(why)), -1);
    assert_string_equal(why, "is longer than 7 bytes");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_long_accepts_plain_decimal),
        cmocka_unit_test(test_parse_long_leading_zero_is_decimal),
        cmocka_unit_test(test_parse_long_minus_zero_is_zero),
        cmocka_unit_test(test_parse_long_accepts_long_limits),
        cmocka_unit_test(test_parse_long_rejects_overflow),
        cmocka_unit_test(test_parse_long_rejects_malformed),
        cmocka_unit_test(test_parse_long_enforces_range),
        cmocka_unit_test(test_parse_port_accepts_range_edges),
        cmocka_unit_test(test_parse_port_rejects_out_of_range_and_words),
        cmocka_unit_test(test_parse_seconds_converts_to_ms),
        cmocka_unit_test(test_parse_seconds_accepts_max),
        cmocka_unit_test(test_parse_seconds_rejects_zero_and_too_fine),
        cmocka_unit_test(test_parse_seconds_rejects_malformed),
        cmocka_unit_test(test_hostport_list_accepts_names_ipv4_ipv6),
        cmocka_unit_test(test_hostport_list_rejects_empty_entry),
        cmocka_unit_test(test_hostport_list_rejects_missing_port),
        cmocka_unit_test(test_hostport_list_rejects_missing_host),
        cmocka_unit_test(test_hostport_list_rejects_bad_port),
        cmocka_unit_test(test_hostport_list_rejects_bad_hosts),
        cmocka_unit_test(test_hostport_list_enforces_name_and_list_length),
        cmocka_unit_test(test_hostport_list_reason_is_bounded),
        cmocka_unit_test(test_topic_valid_accepts_legal_names),
        cmocka_unit_test(test_topic_valid_rejects_250_chars),
        cmocka_unit_test(test_topic_valid_rejects_dot_names_and_empty),
        cmocka_unit_test(test_topic_valid_rejects_illegal_characters),
        cmocka_unit_test(test_parse_list),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
