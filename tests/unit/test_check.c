/*
 * Unit tests for lib/mm2_check: which field of a copied record differs from the source record.
 * A record with a key, a value and two headers, changed one field at a time: each change is named
 * (the first in key, value, headers, timestamp order), a null and an empty field differ, and
 * neither offsets nor a timestamp that either side's LogAppendTime rewrote count.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "mm2_check.h"

static unsigned char k1[] = "order-17", k2[] = "order-18", v1[] = "{\"qty\": 3}",
                     v2[] = "{\"qty\": 4}", h1[] = "trace-1", h2[] = "trace-2", empty[] = "";

static struct mm2_header headers(int which, size_t i)
{
    struct mm2_header h[] = {{"trace", h1, 7}, {"origin", NULL, 0}};

    if (which == 1 && i == 0)
        h[0].value = h2;
    if (which == 2 && i == 0)
        h[0].name = "trace-id";
    if (which == 3 && i == 1)
        h[1].value = empty;
    return h[i];
}

/* The source record, with each test's copy made from it. */
static struct mm2_record record(struct mm2_header *h)
{
    h[0] = headers(0, 0);
    h[1] = headers(0, 1);
    return (struct mm2_record){.offset = 41,
                               .timestamp = 1700000000000,
                               .tstype = 1,
                               .key = k1,
                               .key_len = 8,
                               .value = v1,
                               .value_len = 10,
                               .headers = h,
                               .nheaders = 2};
}

static void test_check_differs_a_copy_is_equal_whatever_its_offset(void **state)
{
    struct mm2_header sh[2], th[2];
    struct mm2_record s = record(sh), t = record(th);

    (void)state;
    t.offset = 9000;
    assert_string_equal(mm2_check_differs(&s, &t), "");
}

static void test_check_differs_key_and_value_null_is_not_empty(void **state)
{
    struct mm2_header sh[2], th[2];
    struct mm2_record s = record(sh), t = record(th);

    (void)state;
    t.key = k2;
    assert_string_equal(mm2_check_differs(&s, &t), "key");
    t.value = v2; /* key still differs: it is named first */
    assert_string_equal(mm2_check_differs(&s, &t), "key");
    t = record(th);
    t.key_len = 5;
    assert_string_equal(mm2_check_differs(&s, &t), "key");
    t = record(th);
    s.key = NULL;
    s.key_len = 0;
    t.key = empty;
    t.key_len = 0;
    assert_string_equal(mm2_check_differs(&s, &t), "key");
    t.key = NULL;
    assert_string_equal(mm2_check_differs(&s, &t), "");
    t.value = v2;
    assert_string_equal(mm2_check_differs(&s, &t), "value");
    s.value = NULL;
    s.value_len = 0;
    t.value = empty;
    t.value_len = 0;
    assert_string_equal(mm2_check_differs(&s, &t), "value");
}

static void test_check_differs_headers_count_name_and_value(void **state)
{
    struct mm2_header sh[2], th[2];
    struct mm2_record s = record(sh), t = record(th);

    (void)state;
    t.nheaders = 1;
    assert_string_equal(mm2_check_differs(&s, &t), "headers");
    for (int which = 1; which <= 3; which++) {
        t = record(th);
        th[0] = headers(which, 0);
        th[1] = headers(which, 1);
        assert_string_equal(mm2_check_differs(&s, &t), "headers");
    }
}

static void test_check_differs_timestamp_only_when_both_are_create_time(void **state)
{
    struct mm2_header sh[2], th[2];
    struct mm2_record s = record(sh), t = record(th);

    (void)state;
    t.timestamp = s.timestamp + 1;
    assert_string_equal(mm2_check_differs(&s, &t), "timestamp");
    t.tstype = 2; /* the target's LogAppendTime rewrote it */
    assert_string_equal(mm2_check_differs(&s, &t), "");
    t.tstype = 1;
    s.tstype = 2;
    assert_string_equal(mm2_check_differs(&s, &t), "");
    s.tstype = 0;
    assert_string_equal(mm2_check_differs(&s, &t), "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_check_differs_a_copy_is_equal_whatever_its_offset),
        cmocka_unit_test(test_check_differs_key_and_value_null_is_not_empty),
        cmocka_unit_test(test_check_differs_headers_count_name_and_value),
        cmocka_unit_test(test_check_differs_timestamp_only_when_both_are_create_time),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
