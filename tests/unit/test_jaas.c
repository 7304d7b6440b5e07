/*
 * Unit tests for lib/mm2_jaas: the shape check the entrypoint makes of CONNECT_SASL_JAAS_CONFIG
 * (one login module entry; JNDI and LDAP refused), and one option's value out of an entry, as
 * preflight --workers logs in with it: quoted (escapes undone) or bare, the exact option name,
 * never a value cut to fit, nothing out of an entry the check refuses.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "mm2_jaas.h"

#define PLAIN "org.apache.kafka.common.security.plain.PlainLoginModule required "

static void test_jaas_check_one_entry(void **state)
{
    char cls[128], why[128];

    (void)state;
    assert_int_equal(
        mm2_jaas_check(PLAIN "username=\"u\" password=\"p\";", cls, sizeof(cls), why, sizeof(why)),
        MM2_JAAS_OK);
    assert_string_equal(cls, "org.apache.kafka.common.security.plain.PlainLoginModule");
    assert_int_equal(
        mm2_jaas_check(PLAIN "username=\"u\" password=\"p\"", cls, sizeof(cls), why, sizeof(why)),
        MM2_JAAS_MALFORMED);
    assert_string_equal(why, "it does not end with ';'");
    assert_int_equal(mm2_jaas_check("com.sun.security.auth.module.JndiLoginModule required;", cls,
                                    sizeof(cls), why, sizeof(why)),
                     MM2_JAAS_REFUSED);
}

static void test_jaas_option_quoted_and_bare(void **state)
{
    char v[64];

    (void)state;
    assert_int_equal(mm2_jaas_option(PLAIN "username=\"mm2-w\" password=\"p\\\"w;d\";", "password",
                                     v, sizeof(v)),
                     0);
    assert_string_equal(v, "p\"w;d");
    assert_int_equal(
        mm2_jaas_option(PLAIN "username=mm2-w password=\"x\";", "username", v, sizeof(v)), 0);
    assert_string_equal(v, "mm2-w");
    /* The exact name: "username2" is not "username". */
    assert_int_equal(
        mm2_jaas_option(PLAIN "username2=\"a\" username = \"b\";", "username", v, sizeof(v)), 0);
    assert_string_equal(v, "b");
}

static void test_jaas_option_absent_cut_or_malformed(void **state)
{
    char v[8];

    (void)state;
    assert_int_equal(mm2_jaas_option(PLAIN "username=\"u\";", "password", v, sizeof(v)), -1);
    assert_int_equal(v[0], '\0');
    /* Eight bytes of room: a seven-character value fits, an eight-character one never half. */
    assert_int_equal(mm2_jaas_option(PLAIN "password=\"1234567\";", "password", v, sizeof(v)), 0);
    assert_string_equal(v, "1234567");
    assert_int_equal(mm2_jaas_option(PLAIN "password=\"12345678\";", "password", v, sizeof(v)), -1);
    assert_memory_equal(v, "\0\0\0\0\0\0\0\0", 8);
    assert_int_equal(mm2_jaas_option(PLAIN "password=\"p\"", "password", v, sizeof(v)), -1);
    assert_int_equal(mm2_jaas_option(PLAIN "password=\"p\"; x required;", "password", v, sizeof(v)),
                     -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_jaas_check_one_entry),
        cmocka_unit_test(test_jaas_option_quoted_and_bare),
        cmocka_unit_test(test_jaas_option_absent_cut_or_malformed),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
