/* Unit tests for lib/mm2_err: the exit-code table and error context chaining. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "mm2_err.h"

static void test_status_codes_match_design_table(void **state)
{
    (void)state;
    /* docs/ARCHITECTURE.md §5: never renumbered. */
    assert_int_equal(MM2_OK, 0);
    assert_int_equal(MM2_CHECK_FAILED, 1);
    assert_int_equal(MM2_USAGE, 2);
    assert_int_equal(MM2_CONFIG, 3);
    assert_int_equal(MM2_UNREACHABLE, 4);
    assert_int_equal(MM2_UNEXPECTED, 5);
    assert_int_equal(MM2_EXEC_NOEXEC, 126);
    assert_int_equal(MM2_EXEC_NOTFOUND, 127);
}

static void test_status_text_names_every_code(void **state)
{
    (void)state;
    assert_string_equal(mm2_status_text(MM2_OK), "success");
    assert_string_equal(mm2_status_text(MM2_CHECK_FAILED), "check failed");
    assert_string_equal(mm2_status_text(MM2_USAGE), "usage error");
    assert_string_equal(mm2_status_text(MM2_CONFIG), "invalid configuration");
    assert_string_equal(mm2_status_text(MM2_UNREACHABLE), "dependency unreachable");
    assert_string_equal(mm2_status_text(MM2_UNEXPECTED), "unexpected answer from dependency");
    assert_string_equal(mm2_status_text(MM2_EXEC_NOEXEC), "exec failed: not executable");
    assert_string_equal(mm2_status_text(MM2_EXEC_NOTFOUND), "exec failed: not found");
}

static void test_status_text_unknown_code_is_not_null(void **state)
{
    (void)state;
    assert_string_equal(mm2_status_text((enum mm2_status)42), "unknown status");
}

static void test_error_set_returns_code_and_formats(void **state)
{
    struct mm2_error err;

    (void)state;
    mm2_error_clear(&err);
    assert_int_equal(mm2_error_set(&err, MM2_UNEXPECTED, "HTTP %d: %s", 409, "stale configuration"),
                     MM2_UNEXPECTED);
    assert_int_equal(err.code, MM2_UNEXPECTED);
    assert_string_equal(err.msg, "HTTP 409: stale configuration");
}

static void test_error_set_null_err_still_returns_code(void **state)
{
    (void)state;
    assert_int_equal(mm2_error_set(NULL, MM2_CONFIG, "x"), MM2_CONFIG);
    assert_int_equal(mm2_error_prefix(NULL, "x"), MM2_OK);
}

static void test_error_prefix_chains_layers(void **state)
{
    struct mm2_error err;

    (void)state;
    mm2_error_set(&err, MM2_UNEXPECTED, "stale configuration");
    assert_int_equal(mm2_error_prefix(&err, "HTTP %d", 409), MM2_UNEXPECTED);
    assert_int_equal(mm2_error_prefix(&err, "PATCH /connectors/%s/offsets", "x"), MM2_UNEXPECTED);
    assert_int_equal(err.code, MM2_UNEXPECTED);
    assert_string_equal(err.msg, "PATCH /connectors/x/offsets: HTTP 409: stale configuration");
}

static void test_error_set_truncates_with_ellipsis(void **state)
{
    struct mm2_error err;
    char big[2000];

    (void)state;
    memset(big, 'a', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    mm2_error_set(&err, MM2_CONFIG, "%s", big);
    assert_int_equal(strlen(err.msg), sizeof(err.msg) - 1);
    assert_string_equal(err.msg + sizeof(err.msg) - 4, "...");
    assert_int_equal(err.msg[sizeof(err.msg) - 5], 'a');
}

static void test_error_set_exact_fit_is_not_marked(void **state)
{
    struct mm2_error err;
    char fit[MM2_ERROR_MSG_MAX];

    (void)state;
    memset(fit, 'b', sizeof(fit) - 1);
    fit[sizeof(fit) - 1] = '\0';
    mm2_error_set(&err, MM2_CONFIG, "%s", fit);
    assert_string_equal(err.msg, fit);
}

static void test_error_prefix_truncates_with_ellipsis(void **state)
{
    struct mm2_error err;
    char big[1000];

    (void)state;
    memset(big, 'z', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    mm2_error_set(&err, MM2_UNREACHABLE, "%s", big);
    mm2_error_prefix(&err, "GET /connectors/%s/status", "mirror-source");
    assert_int_equal(err.code, MM2_UNREACHABLE);
    assert_int_equal(strlen(err.msg), sizeof(err.msg) - 1);
    assert_memory_equal(err.msg, "GET /connectors/mirror-source/status: zzz", 41);
    assert_string_equal(err.msg + sizeof(err.msg) - 4, "...");
}

static void test_error_clear_resets(void **state)
{
    struct mm2_error err;

    (void)state;
    mm2_error_set(&err, MM2_CONFIG, "bad");
    mm2_error_clear(&err);
    assert_int_equal(err.code, MM2_OK);
    assert_string_equal(err.msg, "");
    mm2_error_clear(NULL);
}

static void test_whyf_formats_and_cuts(void **state)
{
    (void)state;
    char why[8];

    mm2_whyf(why, sizeof(why), "port %d", 99999);
    assert_string_equal(why, "port 99");
    mm2_whyf(why, sizeof(why), "%s", "ok");
    assert_string_equal(why, "ok");
    mm2_whyf(NULL, 0, "ignored %d", 1);
    mm2_whyf(why, 0, "ignored %d", 1);
    assert_string_equal(why, "ok");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_status_codes_match_design_table),
        cmocka_unit_test(test_status_text_names_every_code),
        cmocka_unit_test(test_status_text_unknown_code_is_not_null),
        cmocka_unit_test(test_error_set_returns_code_and_formats),
        cmocka_unit_test(test_error_set_null_err_still_returns_code),
        cmocka_unit_test(test_error_prefix_chains_layers),
        cmocka_unit_test(test_error_set_truncates_with_ellipsis),
        cmocka_unit_test(test_error_set_exact_fit_is_not_marked),
        cmocka_unit_test(test_error_prefix_truncates_with_ellipsis),
        cmocka_unit_test(test_error_clear_resets),
        cmocka_unit_test(test_whyf_formats_and_cuts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
