/* Unit tests for lib/mm2_log: exact one-line output, levels, redaction, control characters. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm2_log.h"

struct sink {
    char *buf;
    size_t len;
    FILE *f;
};

static int sink_setup(void **state)
{
    struct sink *s = calloc(1, sizeof(*s));

    if (s == NULL)
        return -1;
    s->f = open_memstream(&s->buf, &s->len);
    if (s->f == NULL) {
        free(s);
        return -1;
    }
    *state = s;
    return 0;
}

static int sink_teardown(void **state)
{
    struct sink *s = *state;

    fclose(s->f);
    free(s->buf);
    free(s);
    return 0;
}

/* Everything written so far (open_memstream updates buf/len on fflush). */
static const char *sink_text(struct sink *s)
{
    fflush(s->f);
    return s->buf;
}

static void test_log_error_writes_one_prefixed_line(void **state)
{
    struct sink *s = *state;
    struct mm2_log log;

    mm2_log_init(&log, "mm2-entrypoint", s->f, MM2_LOG_ERROR);
    mm2_log_error(&log, "POD_IP must be an IPv4 or IPv6 address of this host, got \"%s\"",
                  "10.0.0");
    assert_string_equal(sink_text(s), "mm2-entrypoint: error: POD_IP must be an IPv4 or IPv6 "
                                      "address of this host, got \"10.0.0\"\n");
}

static void test_log_levels_use_their_tags(void **state)
{
    struct sink *s = *state;
    struct mm2_log log;

    mm2_log_init(&log, "p", s->f, MM2_LOG_DEBUG);
    mm2_log_error(&log, "e");
    mm2_log_warn(&log, "w");
    mm2_log_info(&log, "i");
    mm2_log_debug(&log, "d%d", 1);
    assert_string_equal(sink_text(s), "p: error: e\np: warning: w\np: info: i\np: debug: d1\n");
}

static void test_log_level_filters_lower_priority(void **state)
{
    struct sink *s = *state;
    struct mm2_log log;

    mm2_log_init(&log, "p", s->f, MM2_LOG_WARN);
    mm2_log_debug(&log, "d");
    mm2_log_info(&log, "i");
    mm2_log_warn(&log, "w");
    mm2_log_error(&log, "e");
    assert_string_equal(sink_text(s), "p: warning: w\np: error: e\n");
}

static void test_log_error_written_even_below_error_level(void **state)
{
    struct sink *s = *state;
    struct mm2_log log;

    mm2_log_init(&log, "p", s->f, -1);
    mm2_log_warn(&log, "w");
    mm2_log_error(&log, "e");
    assert_string_equal(sink_text(s), "p: error: e\n");
}

static void test_log_redacts_secret_appearing_twice(void **state)
{
    struct sink *s = *state;
    struct mm2_log log;

    mm2_log_init(&log, "p", s->f, MM2_LOG_INFO);
    assert_int_equal(mm2_log_add_secret(&log, "hunter2"), 0);
    mm2_log_info(&log, "password=%s again=%s", "hunter2", "hunter2");
    assert_string_equal(sink_text(s), "p: info: password=<redacted> again=<redacted>\n");
}

static void test_log_redacts_secret_inside_longer_word(void **state)
{
    struct sink *s = *state;
    struct mm2_log log;

    mm2_log_init(&log, "p", s->f, MM2_LOG_INFO);
    mm2_log_add_secret(&log, "s3cr3t");
    mm2_log_warn(&log, "token xxs3cr3tyy end");
    assert_string_equal(sink_text(s), "p: warning: token xx<redacted>yy end\n");
}

static void test_log_redacts_short_secret(void **state)
{
    struct sink *s = *state;
    struct mm2_log log;

    mm2_log_init(&log, "p", s->f, MM2_LOG_INFO);
    mm2_log_add_secret(&log, "ab");
    mm2_log_error(&log, "cab");
    assert_string_equal(sink_text(s), "p: error: c<redacted>\n");
}

static void test_log_redacts_longest_overlapping_secret(void **state)
{
    struct sink *s = *state;
    struct mm2_log log;

    mm2_log_init(&log, "p", s->f, MM2_LOG_INFO);
    mm2_log_add_secret(&log, "pass");
    mm2_log_add_secret(&log, "password1");
    mm2_log_error(&log, "x password1 pass");
    assert_string_equal(sink_text(s), "p: error: x <redacted> <redacted>\n");
}

static void test_log_add_secret_ignores_null_and_empty(void **state)
{
    struct sink *s = *state;
    struct mm2_log log;

    mm2_log_init(&log, "p", s->f, MM2_LOG_INFO);
    assert_int_equal(mm2_log_add_secret(&log, NULL), 0);
    assert_int_equal(mm2_log_add_secret(&log, ""), 0);
    assert_int_equal(log.nsecrets, 0);
    mm2_log_error(&log, "plain");
    assert_string_equal(sink_text(s), "p: error: plain\n");
}

static void test_log_add_secret_full_table_fails(void **state)
{
    struct sink *s = *state;
    struct mm2_log log;
    static const char *vals[] = {"s00", "s01", "s02", "s03", "s04", "s05", "s06", "s07", "s08",
                                 "s09", "s10", "s11", "s12", "s13", "s14", "s15", "s16"};

    mm2_log_init(&log, "p", s->f, MM2_LOG_INFO);
    for (size_t i = 0; i < MM2_LOG_SECRETS_MAX; i++)
        assert_int_equal(mm2_log_add_secret(&log, vals[i]), 0);
    assert_int_equal(mm2_log_add_secret(&log, "s00"), 0); /* duplicate: no new slot */
    assert_int_equal(mm2_log_add_secret(&log, vals[16]), -1);
    assert_int_equal(log.nsecrets, MM2_LOG_SECRETS_MAX);
}

static void test_log_newline_injection_stays_one_line(void **state)
{
    struct sink *s = *state;
    struct mm2_log log;

    mm2_log_init(&log, "p", s->f, MM2_LOG_INFO);
    mm2_log_error(&log, "got \"%s\"", "x\np: info: forged\r\t\x1b[31m");
    assert_string_equal(sink_text(s), "p: error: got \"x?p: info: forged???[31m\"\n");
}

static void test_log_secret_with_newline_is_redacted_whole(void **state)
{
    struct sink *s = *state;
    struct mm2_log log;

    /* Redaction runs before control characters are replaced, so a multi-line secret still
     * matches. */
    mm2_log_init(&log, "p", s->f, MM2_LOG_INFO);
    mm2_log_add_secret(&log, "abc\ndef");
    mm2_log_error(&log, "v=%s", "abc\ndef");
    assert_string_equal(sink_text(s), "p: error: v=<redacted>\n");
}

static void test_log_long_message_truncated_to_one_line(void **state)
{
    struct sink *s = *state;
    struct mm2_log log;
    char big[3000];
    const char *out;
    size_t n;

    memset(big, 'q', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    mm2_log_init(&log, "p", s->f, MM2_LOG_INFO);
    mm2_log_error(&log, "%s", big);
    out = sink_text(s);
    n = strlen(out);
    assert_int_equal(n, strlen("p: error: ") + MM2_LOG_LINE_MAX - 1 + 1);
    assert_memory_equal(out + n - 5, "q...\n", 5);
    assert_ptr_equal(strchr(out, '\n'), out + n - 1);
}

static void test_log_expanding_redaction_is_truncated(void **state)
{
    struct sink *s = *state;
    struct mm2_log log;
    char big[MM2_LOG_LINE_MAX];
    const char *out;
    size_t n;

    /* "x" becomes "<redacted>": the message grows tenfold and must still fit the line buffer. */
    memset(big, 'x', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    mm2_log_init(&log, "p", s->f, MM2_LOG_INFO);
    mm2_log_add_secret(&log, "x");
    mm2_log_error(&log, "%s", big);
    out = sink_text(s);
    n = strlen(out);
    assert_true(n <= strlen("p: error: ") + MM2_LOG_LINE_MAX);
    assert_memory_equal(out, "p: error: <redacted><redacted>", 30);
    assert_memory_equal(out + n - 4, "...\n", 4);
    assert_ptr_equal(strchr(out, '\n'), out + n - 1);
}

#define LOG_TEST(fn) cmocka_unit_test_setup_teardown(fn, sink_setup, sink_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        LOG_TEST(test_log_error_writes_one_prefixed_line),
        LOG_TEST(test_log_levels_use_their_tags),
        LOG_TEST(test_log_level_filters_lower_priority),
        LOG_TEST(test_log_error_written_even_below_error_level),
        LOG_TEST(test_log_redacts_secret_appearing_twice),
        LOG_TEST(test_log_redacts_secret_inside_longer_word),
        LOG_TEST(test_log_redacts_short_secret),
        LOG_TEST(test_log_redacts_longest_overlapping_secret),
        LOG_TEST(test_log_add_secret_ignores_null_and_empty),
        LOG_TEST(test_log_add_secret_full_table_fails),
        LOG_TEST(test_log_newline_injection_stays_one_line),
        LOG_TEST(test_log_secret_with_newline_is_redacted_whole),
        LOG_TEST(test_log_long_message_truncated_to_one_line),
        LOG_TEST(test_log_expanding_redaction_is_truncated),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
