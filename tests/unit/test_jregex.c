/*
 * Unit tests for lib/mm2_jregex: the Java regex subset translated to POSIX ERE. The exact text
 * of each translation is pinned (each character set as the topic-name characters it holds), the
 * translation is compiled and matched against topic names Java's Pattern.matches accepts or
 * rejects, and every refusal names the entry and the construct. test_topics.c holds the same
 * translator to Java through mm2_mirror_replicates, row by row.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm2_jregex.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define ALPHANUM "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
/* A character set holding no topic-name character: no topic name matches it. */
#define NONE "[^" ALPHANUM "_.-]"

static enum mm2_status to_ere(const char *text, char **out, struct mm2_error *err)
{
    mm2_error_clear(err);
    return mm2_jregex_to_ere("topics", text, strlen(text), NULL, 0, out, err);
}

struct xl_case {
    const char *java;
    const char *ere;
};

static void test_jregex_translations_are_exact(void **state)
{
    static const struct xl_case cases[] = {
        {"orders", "^(orders)$"},
        {"a.b", "^(a.b)$"},
        {"a\\.b", "^(a\\.b)$"},
        {"a\\-b", "^(a-b)$"},
        {"[a-c]x", "^([abc]x)$"},
        {"[.]", "^(\\.)$"},
        {"[_-]", "^([_-])$"},
        {"[\\d_]", "^([0123456789_])$"},
        {"\\d+", "^([0123456789]+)$"},
        {"\\W", "^([.-])$"},
        {"\\S", "^(.)$"},
        {"[^a-z]", "^([ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-])$"},
        {"\\s", "^(" NONE ")$"},
        {"a*?", "^(a*)$"}, /* lazy: the same names under matches() */
        {"x{3}", "^(x{3})$"},
        {"x{3}?", "^(x{3})$"},
        {"(a|b)c", "^((a|b)c)$"},
        {"^a$", "^(^a$)$"},
        {"a|", "^(a)$"}, /* an empty top-level alternative is dropped */
        {"a||b", "^(a|b)$"},
        {"mm2.*\\.internal", "^(mm2.*\\.internal)$"},
        {"a]b}", "^(a" NONE "b" NONE ")$"}, /* literals in Java too, never in a topic */
    };
    struct mm2_error err;

    (void)state;
    for (size_t i = 0; i < N(cases); i++) {
        char *ere = NULL;
        enum mm2_status st = to_ere(cases[i].java, &ere, &err);

        if (st != MM2_OK || ere == NULL || strcmp(ere, cases[i].ere) != 0)
            fail_msg("%s: got %d \"%s\" (%s), want \"%s\"", cases[i].java, (int)st,
                     ere != NULL ? ere : "(null)", err.msg, cases[i].ere);
        free(ere);
    }
}

static void test_jregex_nothing_to_match_is_null_not_an_error(void **state)
{
    static const char *const empty[] = {"", "|", "||"};
    struct mm2_error err;

    (void)state;
    for (size_t i = 0; i < N(empty); i++) {
        char *ere = (char *)"unset";

        assert_int_equal(to_ere(empty[i], &ere, &err), MM2_OK);
        assert_null(ere);
    }
}

struct match_case {
    const char *java;
    const char *topic;
    bool matches; /* Pattern.matches(java, topic) */
};

static void test_jregex_translations_match_as_java_does(void **state)
{
    static const struct match_case cases[] = {
        {"orders", "orders", true},
        {"orders", "orders2", false},
        {"orders", "xorders", false},
        {"a.b", "a-b", true},
        {"a\\.b", "a-b", false},
        {"a\\.b", "a.b", true},
        {"[^a-z]", "A", true},
        {"[^a-z]", "a", false},
        {"\\W", "-", true},
        {"\\W", "_", false},
        {"\\w+", "a_1", true},
        {"\\s*x", "x", true},
        {"x{3}", "xxx", true},
        {"x{3}", "xx", false},
        {"(a|b)c", "bc", true},
        {"(a|b)c", "abc", false},
        {"a|", "a", true},
        {"^a$|b", "b", true},
        {".*-internal", "x-internal", true},
    };
    struct mm2_error err;

    (void)state;
    for (size_t i = 0; i < N(cases); i++) {
        char *ere = NULL;
        regex_t re;

        assert_int_equal(to_ere(cases[i].java, &ere, &err), MM2_OK);
        assert_non_null(ere);
        assert_int_equal(regcomp(&re, ere, REG_EXTENDED | REG_NOSUB), 0);
        if ((regexec(&re, cases[i].topic, 0, NULL, 0) == 0) != cases[i].matches)
            fail_msg("%s on \"%s\": want %s", cases[i].java, cases[i].topic,
                     cases[i].matches ? "a match" : "no match");
        regfree(&re);
        free(ere);
    }
}

struct refusal {
    const char *java;
    const char *message; /* after "topics: entry \"<java>\" " */
};

static void test_jregex_refusals_name_the_entry_and_the_construct(void **state)
{
    static const struct refusal cases[] = {
        {"(?i)a", "uses the Java construct \"(?\""},
        {"a*+", "uses the Java construct \"*+\""},
        {"\\bfoo", "uses the Java construct \"\\b\""},
        {"[a&&b]", "uses the Java construct \"&&\""},
        {"[]", "uses the Java construct \"[]\""},
        {"()", "uses the Java construct \"()\""},
        {"a{300}", "uses the Java construct \"{300}\""},
        {"a{2,3}", "uses the Java construct \"{2,\""}, /* Java compiles it; never in a list */
        {"a{2,}", "uses the Java construct \"{2,\""},
        {"\xC3\xA9", "uses the Java construct \"\\xC3\""},
        {"*a", "is not a valid Java regex (dangling quantifier), so Connect cannot compile it; "
               "fix the entry"},
        {"a{x}", "is not a valid Java regex (illegal repetition)"},
        {"a(b", "is not a valid Java regex (a group is not closed)"},
        {"a)b", "is not a valid Java regex (unmatched closing \")\")"},
        {"[ab", "is not a valid Java regex (a character class is not closed)"},
        {"[z-a]", "is not a valid Java regex (a character range is illegal)"},
        {"a\\", "is not a valid Java regex (lone \"\\\" at the end)"},
    };
    struct mm2_error err;

    (void)state;
    for (size_t i = 0; i < N(cases); i++) {
        char want[512];
        char *ere = (char *)"unset";
        enum mm2_status st = to_ere(cases[i].java, &ere, &err);

        snprintf(want, sizeof(want), "topics: entry \"%s\" %s", cases[i].java, cases[i].message);
        if (st != MM2_CONFIG || strncmp(err.msg, want, strlen(want)) != 0)
            fail_msg("%s: got %d \"%s\", want \"%s...\"", cases[i].java, (int)st, err.msg, want);
        assert_null(ere);
    }
}

static void test_jregex_refusal_quotes_the_entry_it_is_in(void **state)
{
    /* "orders, (?i)x, tail" as ConfigDef splits it and MirrorUtils joins it. */
    static const char joined[] = "orders|(?i)x|tail";
    static const struct mm2_jregex_entry entries[] = {{0, 6}, {7, 5}, {13, 4}};
    struct mm2_error err;
    char *ere = NULL;

    (void)state;
    mm2_error_clear(&err);
    assert_int_equal(mm2_jregex_to_ere("topics.exclude", joined, strlen(joined), entries,
                                       N(entries), &ere, &err),
                     MM2_CONFIG);
    assert_null(ere);
    assert_true(strncmp(err.msg, "topics.exclude: entry \"(?i)x\" uses the Java construct \"(?\"",
                        strlen("topics.exclude: entry \"(?i)x\" uses the Java construct \"(?\"")) ==
                0);
}

static void test_jregex_groups_nest_64_deep_not_65(void **state)
{
    char text[2 * 65 + 2];
    char *ere = NULL;
    struct mm2_error err;

    (void)state;
    for (int depth = 64; depth <= 65; depth++) {
        memset(text, '(', (size_t)depth);
        text[depth] = 'a';
        memset(text + depth + 1, ')', (size_t)depth);
        text[2 * depth + 1] = '\0';
        if (depth == 64) {
            assert_int_equal(to_ere(text, &ere, &err), MM2_OK);
            assert_non_null(ere);
            free(ere);
        } else {
            assert_int_equal(to_ere(text, &ere, &err), MM2_CONFIG);
            assert_non_null(strstr(err.msg, "uses the Java construct \"(((...\""));
        }
    }
}

static void test_jregex_space_is_javas_backslash_s(void **state)
{
    (void)state;
    for (int c = 0; c < 128; c++) {
        bool want = c == ' ' || c == '\t' || c == '\n' || c == 0x0B || c == '\f' || c == '\r';

        assert_int_equal(mm2_jregex_space((char)c), want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_jregex_translations_are_exact),
        cmocka_unit_test(test_jregex_nothing_to_match_is_null_not_an_error),
        cmocka_unit_test(test_jregex_translations_match_as_java_does),
        cmocka_unit_test(test_jregex_refusals_name_the_entry_and_the_construct),
        cmocka_unit_test(test_jregex_refusal_quotes_the_entry_it_is_in),
        cmocka_unit_test(test_jregex_groups_nest_64_deep_not_65),
        cmocka_unit_test(test_jregex_space_is_javas_backslash_s),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
