/* Unit tests for lib/mm2_deadline: monotonic deadlines never report negative time. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <time.h>

#include "mm2_deadline.h"

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

    while (nanosleep(&ts, &ts) != 0) {
    }
}

static void test_deadline_zero_is_expired_at_once(void **state)
{
    struct mm2_deadline d;

    (void)state;
    mm2_deadline_start(&d, 0);
    assert_true(mm2_deadline_expired(&d));
    assert_int_equal(mm2_deadline_remaining_ms(&d), 0);
}

static void test_deadline_negative_counts_as_zero(void **state)
{
    struct mm2_deadline d;

    (void)state;
    mm2_deadline_start(&d, -5000);
    assert_true(mm2_deadline_expired(&d));
    assert_int_equal(mm2_deadline_remaining_ms(&d), 0);
}

static void test_deadline_future_reports_remaining(void **state)
{
    struct mm2_deadline d;
    long left;

    (void)state;
    mm2_deadline_start(&d, 60000);
    left = mm2_deadline_remaining_ms(&d);
    assert_false(mm2_deadline_expired(&d));
    assert_in_range(left, 59000, 60000);
}

static void test_deadline_large_ms_carries_nanoseconds(void **state)
{
    struct mm2_deadline d;

    (void)state;
    mm2_deadline_start(&d, 1999);
    assert_in_range(d.end.tv_nsec, 0, 999999999);
    assert_in_range(mm2_deadline_remaining_ms(&d), 1000, 1999);
}

static void test_deadline_expires_after_waiting(void **state)
{
    struct mm2_deadline d;

    (void)state;
    mm2_deadline_start(&d, 20);
    sleep_ms(40);
    assert_true(mm2_deadline_expired(&d));
    assert_int_equal(mm2_deadline_remaining_ms(&d), 0);
}

static void test_now_ms_is_monotonic_and_advances(void **state)
{
    long a;
    long b;

    (void)state;
    a = mm2_deadline_now_ms();
    sleep_ms(15);
    b = mm2_deadline_now_ms();
    assert_true(b - a >= 15);
    assert_true(b - a < 5000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_deadline_zero_is_expired_at_once),
        cmocka_unit_test(test_deadline_negative_counts_as_zero),
        cmocka_unit_test(test_deadline_future_reports_remaining),
        cmocka_unit_test(test_deadline_large_ms_carries_nanoseconds),
        cmocka_unit_test(test_deadline_expires_after_waiting),
        cmocka_unit_test(test_now_ms_is_monotonic_and_advances),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
