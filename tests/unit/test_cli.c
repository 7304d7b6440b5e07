/* Unit tests for lib/mm2_cli: the exit codes of --help drawn from the table, wrapped without
 * cutting a code from its text, and the usage error's two lines. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm2_cli.h"

/* What f wrote, as a malloc'd string; f is closed. */
static char *contents(FILE *f)
{
    long n;
    char *s;

    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    n = ftell(f);
    rewind(f);
    s = calloc(1, (size_t)n + 1);
    assert_non_null(s);
    assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    return s;
}

static void test_exit_codes_take_the_tables_text_then_the_detail(void **state)
{
    static const struct mm2_exit_note notes[] = {
        {MM2_OK, "written"},
        {MM2_USAGE, NULL},
        {MM2_EXEC_NOTFOUND, "the launcher"},
    };
    FILE *f = tmpfile();
    char *s;

    (void)state;
    assert_non_null(f);
    mm2_cli_exit_codes(f, notes, 3);
    s = contents(f);
    assert_string_equal(s, "Exit codes: 0 success (written), 2 usage error, 127 exec failed: not "
                           "found (the\nlauncher).\n");
    free(s);
}

static void test_exit_codes_wrap_at_80_columns_and_keep_each_code_with_its_text(void **state)
{
    static const struct mm2_exit_note notes[] = {
        {MM2_OK, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"},
        {MM2_UNREACHABLE, NULL},
        {MM2_UNEXPECTED, "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"},
    };
    FILE *f = tmpfile();
    char *s, *line;

    (void)state;
    assert_non_null(f);
    mm2_cli_exit_codes(f, notes, 3);
    s = contents(f);
    for (line = strtok(s, "\n"); line != NULL; line = strtok(NULL, "\n")) {
        size_t n = strlen(line);
        assert_true(n <= MM2_CLI_WIDTH);
        /* a line never ends in a bare code */
        assert_false(n > 0 && line[n - 1] >= '0' && line[n - 1] <= '9');
    }
    free(s);
}

static void test_usage_error_is_one_line_and_the_help_hint(void **state)
{
    struct mm2_log log;
    FILE *f = tmpfile();
    char *s;

    (void)state;
    assert_non_null(f);
    mm2_log_init(&log, "mm2-offsets plan", f, MM2_LOG_WARN);
    assert_int_equal(mm2_cli_usage_error(&log, "unknown option '%s'", "-x"), MM2_USAGE);
    s = contents(f);
    assert_string_equal(s, "mm2-offsets plan: error: unknown option '-x'\n"
                           "Try 'mm2-offsets plan --help'.\n");
    free(s);
}

static void test_usage_error_redacts_a_registered_secret(void **state)
{
    struct mm2_log log;
    FILE *f = tmpfile();
    char *s;

    (void)state;
    assert_non_null(f);
    mm2_log_init(&log, "mm2-probe", f, MM2_LOG_ERROR);
    assert_int_equal(mm2_log_add_secret(&log, "hunter2"), 0);
    assert_int_equal(mm2_cli_usage_error(&log, "bad value \"%s\"", "hunter2"), MM2_USAGE);
    s = contents(f);
    assert_string_equal(s, "mm2-probe: error: bad value \"<redacted>\"\nTry 'mm2-probe --help'.\n");
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exit_codes_take_the_tables_text_then_the_detail),
        cmocka_unit_test(test_exit_codes_wrap_at_80_columns_and_keep_each_code_with_its_text),
        cmocka_unit_test(test_usage_error_is_one_line_and_the_help_hint),
        cmocka_unit_test(test_usage_error_redacts_a_registered_secret),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
