/*
 * Unit tests for lib/mm2_topics: which source topics MirrorSourceConnector replicates, and the
 * target topic of each.
 *
 * The expected values in the tables were not written by hand: a throwaway Java 17 program ran
 * Kafka's own MirrorSourceConnector.shouldReplicateTopic and formatRemoteTopic (the connector
 * built from MirrorSourceConfig, as start() builds it) from the Kafka 4.3.1 and 3.9.1 jars on
 * every case, and a second one ran java.util.regex.Pattern.matches on each regex row (the value
 * split as ConfigDef splits a LIST and joined with "|" as MirrorUtils.compilePatternList does);
 * both agreed on every regex row, on both versions. The refusals record whether
 * Pattern.compile accepts the value ("compiles": outside the subset mm2-offsets translates) or
 * what it says (Java itself refuses it). The 3.7/3.8/4.0/4.1/4.2 cases in
 * test_version_lines_take_their_rules follow from the sources of those versions, where no jar
 * was run; the tests after it pin what mm2-offsets refuses by its own rules (config provider
 * references, non-string values, keys given twice, caps), which have no Java counterpart.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "mm2_connector.h"
#include "mm2_kafka.h"
#include "mm2_topics.h"

#define TOPICS_PER_CASE 16

struct regex_case {
    const char *version;
    const char *topics; /* the value of "topics"; "topics.exclude" is "" */
    const char *topic;
    bool replicates;
};

struct refusal {
    const char *topics;
    const char *message; /* part of the error message */
};

struct topic_expect {
    const char *topic;
    bool replicates;
    const char *target;
};

struct mirror_case {
    const char *version;
    const char *config;
    struct topic_expect t[TOPICS_PER_CASE];
};

struct error_case {
    const char *version;
    const char *config;
    const char *message;
};

/* ---- tables (generated from Kafka's answers; see the top of the file) --------------------- */

static const struct regex_case REGEX_CASES[] = {
    {"4.3.1", "orders", "orders", true},
    {"4.3.1", "orders", "orders2", false},
    {"4.3.1", "orders", "xorders", false},
    {"4.3.1", "orders", "Orders", false},
    {"4.3.1", "orders, payments", "orders", true},
    {"4.3.1", "orders, payments", "payments", true},
    {"4.3.1", "orders, payments", "orderspayments", false},
    {"4.3.1", "orders ,payments ,  refunds", "orders", true},
    {"4.3.1", "orders ,payments ,  refunds", "payments", true},
    {"4.3.1", "orders ,payments ,  refunds", "refunds", true},
    {"4.3.1", "orders ,payments ,  refunds", "ordersrefunds", false},
    {"4.3.1", "orders\\.v1", "orders.v1", true},
    {"4.3.1", "orders\\.v1", "ordersXv1", false},
    {"4.3.1", "orders\\.v1", "orders-v1", false},
    {"4.3.1", "orders.v1", "orders.v1", true},
    {"4.3.1", "orders.v1", "ordersXv1", true},
    {"4.3.1", "orders.v1", "orders-v1", true},
    {"4.3.1", "orders.v1", "orders_v1", true},
    {"4.3.1", ".*", "a", true},
    {"4.3.1", ".*", "orders.v1", true},
    {"4.3.1", ".*", "A-b_c.9", true},
    {"4.3.1", "orders.*", "orders", true},
    {"4.3.1", "orders.*", "orders-v2", true},
    {"4.3.1", "orders.*", "order", false},
    {"4.3.1", "ord(ers|ering)", "orders", true},
    {"4.3.1", "ord(ers|ering)", "ordering", true},
    {"4.3.1", "ord(ers|ering)", "ord", false},
    {"4.3.1", "ord(ers|ering)", "ordersering", false},
    {"4.3.1", "a+b", "ab", true},
    {"4.3.1", "a+b", "aab", true},
    {"4.3.1", "a+b", "b", false},
    {"4.3.1", "a+b", "abb", false},
    {"4.3.1", "a?b", "b", true},
    {"4.3.1", "a?b", "ab", true},
    {"4.3.1", "a?b", "aab", false},
    {"4.3.1", "a*b", "b", true},
    {"4.3.1", "a*b", "aaab", true},
    {"4.3.1", "a*b", "ba", false},
    {"4.3.1", "a[\\-\\.]b", "a-b", true},
    {"4.3.1", "a[\\-\\.]b", "a.b", true},
    {"4.3.1", "a[\\-\\.]b", "a_b", false},
    {"4.3.1", "a[\\-\\.]b", "ab", false},
    {"4.3.1", "a[\\-\\.]b", "a\\b", false},
    {"4.3.1", "a[-.]b", "a-b", true},
    {"4.3.1", "a[-.]b", "a.b", true},
    {"4.3.1", "a[-.]b", "a_b", false},
    {"4.3.1", "a[.-]b", "a-b", true},
    {"4.3.1", "a[.-]b", "a.b", true},
    {"4.3.1", "a[.-]b", "a_b", false},
    {"4.3.1", "a[^.]b", "a-b", true},
    {"4.3.1", "a[^.]b", "a.b", false},
    {"4.3.1", "a[^.]b", "axb", true},
    {"4.3.1", "a[^.]b", "a_b", true},
    {"4.3.1", "[a-c]+", "abc", true},
    {"4.3.1", "[a-c]+", "abcd", false},
    {"4.3.1", "[a-c]+", "cab", true},
    {"4.3.1", "[a-cx-z0-2]", "b", true},
    {"4.3.1", "[a-cx-z0-2]", "y", true},
    {"4.3.1", "[a-cx-z0-2]", "1", true},
    {"4.3.1", "[a-cx-z0-2]", "3", false},
    {"4.3.1", "[a-cx-z0-2]", "d", false},
    {"4.3.1", "[a-cx-z0-2]", "X", false},
    {"4.3.1", "\\d+", "123", true},
    {"4.3.1", "\\d+", "12a", false},
    {"4.3.1", "\\d+", "x", false},
    {"4.3.1", "\\w+", "ab_9", true},
    {"4.3.1", "\\w+", "a-b", false},
    {"4.3.1", "\\w+", "a.b", false},
    {"4.3.1", "\\w+", "AZ", true},
    {"4.3.1", "\\W", "-", true},
    {"4.3.1", "\\W", "a", false},
    {"4.3.1", "\\W", "_", false},
    {"4.3.1", "\\W", "9", false},
    {"4.3.1", "[\\w.]+", "a.b", true},
    {"4.3.1", "[\\w.]+", "a-b", false},
    {"4.3.1", "[\\w.]+", "x_Y.9", true},
    {"4.3.1", "[^\\d]+", "abc", true},
    {"4.3.1", "[^\\d]+", "a1", false},
    {"4.3.1", "[^\\d]+", "a-b.c", true},
    {"4.3.1", "\\D+", "abc", true},
    {"4.3.1", "\\D+", "a1", false},
    {"4.3.1", "\\s*orders", "orders", true},
    {"4.3.1", "\\s*orders", "xorders", false},
    {"4.3.1", "\\S+", "orders", true},
    {"4.3.1", "\\S+", "a.b-c_d", true},
    {"4.3.1", "[\\s\\d]+", "123", true},
    {"4.3.1", "[\\s\\d]+", "1a", false},
    {"4.3.1", "a{3}", "aaa", true},
    {"4.3.1", "a{3}", "aa", false},
    {"4.3.1", "a{3}", "aaaa", false},
    {"4.3.1", "a{2}b?", "aa", true},
    {"4.3.1", "a{2}b?", "aab", true},
    {"4.3.1", "a{2}b?", "ab", false},
    {"4.3.1", "ax{0}b", "ab", true},
    {"4.3.1", "ax{0}b", "axb", false},
    {"4.3.1", "(ab){2}", "abab", true},
    {"4.3.1", "(ab){2}", "ab", false},
    {"4.3.1", "(ab){2}", "ababab", false},
    {"4.3.1", "a*?b", "aab", true},
    {"4.3.1", "a*?b", "b", true},
    {"4.3.1", "a*?b", "ba", false},
    {"4.3.1", "a+?", "aaa", true},
    {"4.3.1", "a+?", "b", false},
    {"4.3.1", "(ab)??c", "c", true},
    {"4.3.1", "(ab)??c", "abc", true},
    {"4.3.1", "(ab)??c", "ababc", false},
    {"4.3.1", "a{2}?", "aa", true},
    {"4.3.1", "a{2}?", "a", false},
    {"4.3.1", "^orders$", "orders", true},
    {"4.3.1", "^orders$", "orders2", false},
    {"4.3.1", "^orders|^payments$", "orders", true},
    {"4.3.1", "^orders|^payments$", "payments", true},
    {"4.3.1", "^orders|^payments$", "ordersx", false},
    {"4.3.1", "a^b", "ab", false},
    {"4.3.1", "a^b", "a", false},
    {"4.3.1", "a^b", "b", false},
    {"4.3.1", "a$b", "ab", false},
    {"4.3.1", "a$b", "a", false},
    {"4.3.1", "(^a|b)c", "ac", true},
    {"4.3.1", "(^a|b)c", "bc", true},
    {"4.3.1", "(^a|b)c", "c", false},
    {"4.3.1", "x(^a|b)c", "xac", false},
    {"4.3.1", "x(^a|b)c", "xbc", true},
    {"4.3.1", "orders$|pay", "orders", true},
    {"4.3.1", "orders$|pay", "pay", true},
    {"4.3.1", "orders|", "orders", true},
    {"4.3.1", "orders|", "o", false},
    {"4.3.1", "|orders", "orders", true},
    {"4.3.1", "orders||payments", "orders", true},
    {"4.3.1", "orders||payments", "payments", true},
    {"4.3.1", "(foo, bar)", "foo", true},
    {"4.3.1", "(foo, bar)", "bar", true},
    {"4.3.1", "(foo, bar)", "foobar", false},
    {"4.3.1", "(foo, bar)-x", "foo-x", true},
    {"4.3.1", "(foo, bar)-x", "bar-x", true},
    {"4.3.1", "(foo, bar)-x", "foo", false},
    {"4.3.1", "a]", "a", false},
    {"4.3.1", "a}", "a", false},
    {"4.3.1", "[a-]", "a", true},
    {"4.3.1", "[a-]", "-", true},
    {"4.3.1", "[a-]", "b", false},
    {"4.3.1", "[-a]", "a", true},
    {"4.3.1", "[-a]", "-", true},
    {"4.3.1", "[-a]", "b", false},
    {"4.3.1", "[^-a]", "a", false},
    {"4.3.1", "[^-a]", "-", false},
    {"4.3.1", "[^-a]", "b", true},
    {"4.3.1", "[a-c-]", "-", true},
    {"4.3.1", "[a-c-]", "b", true},
    {"4.3.1", "[a-c-]", "d", false},
    {"4.3.1", "x[\\--\\.]", "x-", true},
    {"4.3.1", "x[\\--\\.]", "x.", true},
    {"4.3.1", "x[\\--\\.]", "x_", false},
    {"4.3.1", "[^a-z]+", "ABC", true},
    {"4.3.1", "[^a-z]+", "aB", false},
    {"4.3.1", "[^a-z]+", "1.2", true},
    {"4.3.1", "[^a-z]+", "-_", true},
    {"4.3.1", "orders-[0-9]+", "orders-1", true},
    {"4.3.1", "orders-[0-9]+", "orders-12", true},
    {"4.3.1", "orders-[0-9]+", "orders-", false},
    {"4.3.1", "orders-[0-9]+", "orders-a", false},
    {"4.3.1", "a\\_b\\-c", "a_b-c", true},
    {"4.3.1", "a\\_b\\-c", "ab-c", false},
    {"4.3.1", "a[ ]b", "ab", false},
    {"4.3.1", "a[ ]b", "a-b", false},
    {"4.3.1", "a[ ]*b", "ab", true},
    {"4.3.1", "a[ ]*b", "a-b", false},
    {"4.3.1", "a b", "ab", false},
    {"4.3.1", "a b", "a-b", false},
    {"4.3.1", "(a|b)*c", "c", true},
    {"4.3.1", "(a|b)*c", "ababc", true},
    {"4.3.1", "(a|b)*c", "abd", false},
    {"4.3.1", "((a))", "a", true},
    {"4.3.1", "((a))", "aa", false},
    {"4.3.1", "x[.]y", "x.y", true},
    {"4.3.1", "x[.]y", "xay", false},
    {"4.3.1", "A", "a", false},
    {"4.3.1", "A", "A", true},
    {"4.3.1", "[^-]", "-", false},
    {"4.3.1", "[^-]", "a", true},
    {"4.3.1", "[\\^a]", "a", true},
    {"4.3.1", "[\\^a]", "b", false},
    {"4.3.1", "[a^]", "a", true},
    {"4.3.1", "[a^]", "b", false},
    {"4.3.1", "a\\$", "a", false},
    {"4.3.1", "a|b|c", "b", true},
    {"4.3.1", "a|b|c", "d", false},
    {"4.3.1", "a.*(b|c)", "axxc", true},
    {"4.3.1", "a.*(b|c)", "axxd", false},
    {"4.3.1", "a.*(b|c)", "ab", true},
    {"4.3.1", "[\\.]", "x", false},
    {"4.3.1", "x\\.", "x.", true},
    {"4.3.1", "x\\.", "xx", false},
    {"4.3.1", "[\\]a]", "a", true},
    {"4.3.1", "[\\]a]", "b", false},
    {"4.3.1", "[a&b]", "a", true},
    {"4.3.1", "[a&b]", "b", true},
    {"4.3.1", "[a&b]", "c", false},
    {"4.3.1", "[.]+", "..a", false},
    {"4.3.1", "[.]+", "x", false},
    {"4.3.1", "[_]", "_", true},
    {"4.3.1", "[_]", "a", false},
    {"4.3.1", "[\\\\a]", "a", true},
    {"4.3.1", "", "orders", false},
    {"4.3.1", "stock.*, .*-dlq", "stock", true},
    {"4.3.1", "stock.*, .*-dlq", "stock.eu", true},
    {"4.3.1", "stock.*, .*-dlq", "orders-dlq", true},
    {"4.3.1", "stock.*, .*-dlq", "dlq", false},
    {"4.3.1", "my-app-(orders|payments)-v[0-9]+", "my-app-orders-v1", true},
    {"4.3.1", "my-app-(orders|payments)-v[0-9]+", "my-app-payments-v22", true},
    {"4.3.1", "my-app-(orders|payments)-v[0-9]+", "my-app-refunds-v1", false},
    {"4.3.1", "my-app-(orders|payments)-v[0-9]+", "my-app-orders-v", false},
    {"3.9.1", ",", "orders", false},
    {"3.9.1", "orders,", "orders", true},
    {"3.9.1", "orders,", "x", false},
};

static const struct refusal REFUSALS[] = {
    {"(?i)orders", "uses the Java construct \"(?\""},     /* Java: compiles */
    {"(?:a)b", "uses the Java construct \"(?\""},         /* Java: compiles */
    {"a(?=b)", "uses the Java construct \"(?\""},         /* Java: compiles */
    {"a(?!b)", "uses the Java construct \"(?\""},         /* Java: compiles */
    {"(?<n>a)", "uses the Java construct \"(?\""},        /* Java: compiles */
    {"(?>a)", "uses the Java construct \"(?\""},          /* Java: compiles */
    {"a*+", "uses the Java construct \"*+\""},            /* Java: compiles */
    {"a++", "uses the Java construct \"++\""},            /* Java: compiles */
    {"a?+", "uses the Java construct \"?+\""},            /* Java: compiles */
    {"a{2}+", "uses the Java construct \"{2}+\""},        /* Java: compiles */
    {"\\bfoo", "uses the Java construct \"\\b\""},        /* Java: compiles */
    {"\\Qa.b\\E", "uses the Java construct \"\\Q\""},     /* Java: compiles */
    {"\\p{Alpha}", "uses the Java construct \"\\p\""},    /* Java: compiles */
    {"(a)\\1", "uses the Java construct \"\\1\""},        /* Java: compiles */
    {"\\x41", "uses the Java construct \"\\x\""},         /* Java: compiles */
    {"\\t", "uses the Java construct \"\\t\""},           /* Java: compiles */
    {"\\Aa", "uses the Java construct \"\\A\""},          /* Java: compiles */
    {"a\\z", "uses the Java construct \"\\z\""},          /* Java: compiles */
    {"[a&&b]", "uses the Java construct \"&&\""},         /* Java: compiles */
    {"[a[b]]", "uses the Java construct \"[...[\""},      /* Java: compiles */
    {"[[:alpha:]]", "uses the Java construct \"[...[\""}, /* Java: compiles */
    {"[]a]", "uses the Java construct \"[]\""},           /* Java: compiles */
    {"[^]a]", "uses the Java construct \"[^]\""},         /* Java: compiles */
    {"[a-c-e]", "uses the Java construct \"c-e\""},       /* Java: compiles */
    {"[--a]", "uses the Java construct \"--a\""},         /* Java: compiles */
    {"[+--]", "uses the Java construct \"+--\""},         /* Java: compiles */
    {"[\\d-z]", "uses the Java construct \"d-z\""},       /* Java: compiles */
    {"^*a", "uses the Java construct \"^*\""},            /* Java: compiles */
    {"a$?", "uses the Java construct \"$?\""},            /* Java: compiles */
    {"a*{2}", "uses the Java construct \"*{\""},          /* Java: compiles */
    {"()", "uses the Java construct \"()\""},             /* Java: compiles */
    {"(a|)", "uses the Java construct \"|)\""},           /* Java: compiles */
    {"(|a)", "uses the Java construct \"(|\""},           /* Java: compiles */
    {"(a||b)", "uses the Java construct \"||\""},         /* Java: compiles */
    {"(a, )", "uses the Java construct \"|)\""},          /* Java: compiles */
    {"a{300}", "uses the Java construct \"{300}\""},      /* Java: compiles */
    {"caf\xc3"
     "\xa9"
     "",
     "uses the Java construct \"\\xC3\""}, /* Java: compiles */
    {"a{1,3}",
     "is not a valid Java regex (illegal repetition"}, /* Java: Unclosed counted closure */
    {"*a",
     "is not a valid Java regex (dangling quantifier"}, /* Java: Dangling meta character '*' */
    {"a|*b",
     "is not a valid Java regex (dangling quantifier"}, /* Java: Dangling meta character '*' */
    {"a**",
     "is not a valid Java regex (dangling quantifier"}, /* Java: Dangling meta character '*' */
    {"a*??",
     "is not a valid Java regex (dangling quantifier"}, /* Java: Dangling meta character '?' */
    {"{a}", "is not a valid Java regex (illegal repetition"},  /* Java: Illegal repetition */
    {"a{x}", "is not a valid Java regex (illegal repetition"}, /* Java: Illegal repetition */
    {"a{2", "is not a valid Java regex (illegal repetition"},  /* Java: Unclosed counted closure */
    {"a(b", "is not a valid Java regex (a group is not closed"}, /* Java: Unclosed group */
    {"a)b", "is not a valid Java regex (unmatched closing"},     /* Java: Unmatched closing ')' */
    {"[ab", "is not a valid Java regex (a character class is not closed"}, /* Java: Unclosed
                                                                              character class */
    {"[z-a]",
     "is not a valid Java regex (a character range is illegal"}, /* Java: Illegal character range */
    {"[a-\\d]",
     "is not a valid Java regex (a character range is illegal"}, /* Java: Illegal character range */
    {"[a--]",
     "is not a valid Java regex (a character range is illegal"}, /* Java: Illegal character range */
    {"a\\", "is not a valid Java regex (lone"}, /* Java: Unexpected internal error */
};

static const struct mirror_case CASES_DEFAULT_FILTER[] = {
    {"4.3.1",
     "{\"source.cluster.alias\": \"src\"}",
     {
         {"orders", true, "src.orders"},
         {"__consumer_offsets", false, "src.__consumer_offsets"},
         {"__transaction_state", false, "src.__transaction_state"},
         {"mm2-offset-syncs.x.internal", false, "src.mm2-offset-syncs.x.internal"},
         {"mm2-offset-syncs.src.internal", false, "src.mm2-offset-syncs.src.internal"},
         {"mm2-configs.target.internal", false, "src.mm2-configs.target.internal"},
         {"src.checkpoints.internal", false, "src.src.checkpoints.internal"},
         {"x.checkpoints.internal", false, "src.x.checkpoints.internal"},
         {"connect-offsets-internal", true, "src.connect-offsets-internal"},
         {"my.internal", true, "src.my.internal"},
         {"orders.replica", false, "src.orders.replica"},
         {"_private", true, "src._private"},
         {".hidden", false, "src..hidden"},
         {"mm2x", true, "src.mm2x"},
         {"target.orders", false, "src.target.orders"},
         {"a.b", true, "src.a.b"},
     }},
    {"3.9.1",
     "{\"source.cluster.alias\": \"src\"}",
     {
         {"orders", true, "src.orders"},
         {"__consumer_offsets", false, "src.__consumer_offsets"},
         {"mm2-offset-syncs.x.internal", false, "src.mm2-offset-syncs.x.internal"},
         {"src.checkpoints.internal", false, "src.src.checkpoints.internal"},
         {"connect-offsets-internal", false, "src.connect-offsets-internal"},
         {"my.internal", false, "src.my.internal"},
         {"orders.replica", false, "src.orders.replica"},
         {"_private", true, "src._private"},
         {".hidden", false, "src..hidden"},
         {"target.orders", false, "src.target.orders"},
         {"a.b", true, "src.a.b"},
         {"x-internalx", true, "src.x-internalx"},
     }},
};

static const struct mirror_case CASES_HEARTBEATS[] = {
    {"4.3.1",
     "{\"source.cluster.alias\": \"src\", \"topics\": \"orders\"}",
     {
         {"orders", true, "src.orders"},
         {"heartbeats", true, "src.heartbeats"},
         {"src.heartbeats", true, "src.src.heartbeats"},
         {"other.heartbeats", true, "src.other.heartbeats"},
         {"a.b.heartbeats", true, "src.a.b.heartbeats"},
         {"target.heartbeats", false, "src.target.heartbeats"},
         {"x.target.heartbeats", false, "src.x.target.heartbeats"},
         {"myheartbeats", false, "src.myheartbeats"},
         {"heartbeats.x", false, "src.heartbeats.x"},
         {"payments", false, "src.payments"},
     }},
    {"3.9.1",
     "{\"source.cluster.alias\": \"src\", \"topics\": \"orders\"}",
     {
         {"orders", true, "src.orders"},
         {"heartbeats", true, "src.heartbeats"},
         {"other.heartbeats", true, "src.other.heartbeats"},
         {"target.heartbeats", false, "src.target.heartbeats"},
         {"myheartbeats", false, "src.myheartbeats"},
     }},
};

static const struct mirror_case CASES_HEARTBEATS_OFF[] = {
    {"4.3.1",
     "{\"source.cluster.alias\": \"src\", \"topics\": \"orders\", "
     "\"heartbeats.replication.enabled\": \"false\"}",
     {
         {"orders", true, "src.orders"},
         {"heartbeats", false, "src.heartbeats"},
         {"other.heartbeats", false, "src.other.heartbeats"},
     }},
    {"4.3.1",
     "{\"source.cluster.alias\": \"src\", \"heartbeats.replication.enabled\": \" FALSE \"}",
     {
         {"orders", true, "src.orders"},
         {"heartbeats", true, "src.heartbeats"},
         {"other.heartbeats", true, "src.other.heartbeats"},
         {"target.heartbeats", false, "src.target.heartbeats"},
     }},
    {"3.9.1",
     "{\"source.cluster.alias\": \"src\", \"topics\": \"orders\", "
     "\"heartbeats.replication.enabled\": \"false\"}",
     {
         {"orders", true, "src.orders"},
         {"heartbeats", true, "src.heartbeats"},
     }},
};

static const struct mirror_case CASES_CYCLES[] = {
    {"4.3.1",
     "{\"source.cluster.alias\": \"src\"}",
     {
         {"target.orders", false, "src.target.orders"},
         {"x.target.orders", false, "src.x.target.orders"},
         {"target.x.orders", false, "src.target.x.orders"},
         {"src.orders", true, "src.src.orders"},
         {"targetx.orders", true, "src.targetx.orders"},
         {"orders.target", true, "src.orders.target"},
         {"target..orders", false, "src.target..orders"},
         {"target.", true, "src.target."},
         {"target", true, "src.target"},
     }},
    {"4.3.1",
     "{\"source.cluster.alias\": \"src\", \"target.cluster.alias\": \"backup\"}",
     {
         {"target.orders", true, "src.target.orders"},
         {"backup.orders", false, "src.backup.orders"},
         {"a.backup.orders", false, "src.a.backup.orders"},
         {"backup_orders", true, "src.backup_orders"},
     }},
    {"4.3.1",
     "{\"source.cluster.alias\": \"src\", \"target.cluster.alias\": \" backup \"}",
     {
         {"backup.orders", false, "src.backup.orders"},
         {"orders", true, "src.orders"},
     }},
    {"3.9.1",
     "{\"source.cluster.alias\": \"src\", \"target.cluster.alias\": \"backup\"}",
     {
         {"target.orders", true, "src.target.orders"},
         {"backup.orders", false, "src.backup.orders"},
         {"a.backup.orders", false, "src.a.backup.orders"},
     }},
};

static const struct mirror_case CASES_DEFAULT_POLICY[] = {
    {"4.3.1",
     "{\"source.cluster.alias\": \"us-west\"}",
     {
         {"orders", true, "us-west.orders"},
         {"other.orders", true, "us-west.other.orders"},
         {"heartbeats", true, "us-west.heartbeats"},
     }},
    {"4.3.1",
     "{\"source.cluster.alias\": \"  src \\t\"}",
     {
         {"orders", true, "src.orders"},
         {"src.orders", true, "src.src.orders"},
     }},
};

static const struct mirror_case CASES_SEPARATOR[] = {
    {"4.3.1",
     "{\"source.cluster.alias\": \"src\", \"replication.policy.separator\": \"_\"}",
     {
         {"orders", true, "src_orders"},
         {"target_orders", false, "src_target_orders"},
         {"target.orders", true, "src_target.orders"},
         {"x_target_orders", false, "src_x_target_orders"},
         {"mm2-offset-syncs_src_internal", false, "src_mm2-offset-syncs_src_internal"},
         {"mm2-offset-syncs.src.internal", false, "src_mm2-offset-syncs.src.internal"},
         {"src_checkpoints_internal", false, "src_src_checkpoints_internal"},
         {"x.checkpoints.internal", true, "src_x.checkpoints.internal"},
         {"my_internal", true, "src_my_internal"},
     }},
    {"4.3.1",
     "{\"source.cluster.alias\": \"src\", \"replication.policy.separator\": \"_\", "
     "\"replication.policy.internal.topic.separator.enabled\": \"false\"}",
     {
         {"mm2-offset-syncs_src_internal", true, "src_mm2-offset-syncs_src_internal"},
         {"mm2-offset-syncs.src.internal", false, "src_mm2-offset-syncs.src.internal"},
         {"src.checkpoints.internal", false, "src_src.checkpoints.internal"},
         {"target_orders", false, "src_target_orders"},
     }},
    {"4.3.1",
     "{\"source.cluster.alias\": \"src\", \"replication.policy.separator\": \"_\", "
     "\"replication.policy.internal.topic.separator.enabled\": \" true\"}",
     {
         {"mm2-offset-syncs_src_internal", true, "src_mm2-offset-syncs_src_internal"},
         {"mm2-offset-syncs.src.internal", false, "src_mm2-offset-syncs.src.internal"},
     }},
    {"4.3.1",
     "{\"source.cluster.alias\": \"src\", \"replication.policy.internal.topic.separator.enabled\": "
     "\"false\"}",
     {
         {"mm2-offset-syncs.src.internal", false, "src.mm2-offset-syncs.src.internal"},
         {"orders", true, "src.orders"},
     }},
    {"4.3.1",
     "{\"source.cluster.alias\": \"src\", \"replication.policy.separator\": \"--\"}",
     {
         {"orders", true, "src--orders"},
         {"target--orders", false, "src--target--orders"},
         {"target---orders", false, "src--target---orders"},
         {"target----orders", false, "src--target----orders"},
         {"a--target--b", false, "src--a--target--b"},
         {"target-orders", true, "src--target-orders"},
         {"--target--x", false, "src----target--x"},
         {"heartbeats", true, "src--heartbeats"},
         {"x--heartbeats", true, "src--x--heartbeats"},
     }},
    {"4.3.1",
     "{\"source.cluster.alias\": \"src\", \"replication.policy.separator\": \" . \"}",
     {
         {"orders", true, "src . orders"},
         {"target.orders", true, "src . target.orders"},
     }},
    {"3.9.1",
     "{\"source.cluster.alias\": \"src\", \"replication.policy.separator\": \"_\"}",
     {
         {"orders", true, "src_orders"},
         {"target_orders", false, "src_target_orders"},
         {"mm2-offset-syncs_src_internal", false, "src_mm2-offset-syncs_src_internal"},
         {"my_internal", false, "src_my_internal"},
         {"my.internal", false, "src_my.internal"},
         {"my-internal", false, "src_my-internal"},
     }},
};

static const struct mirror_case CASES_IDENTITY[] = {
    {"4.3.1",
     "{\"source.cluster.alias\": \"src\", \"replication.policy.class\": "
     "\"org.apache.kafka.connect.mirror.IdentityReplicationPolicy\"}",
     {
         {"orders", true, "orders"},
         {"target.orders", true, "target.orders"},
         {"src.orders", true, "src.orders"},
         {"heartbeats", true, "src.heartbeats"},
         {"other.heartbeats", true, "src.other.heartbeats"},
         {"target.heartbeats", false, "src.target.heartbeats"},
         {"myheartbeats", true, "src.myheartbeats"},
         {"x.myheartbeats", true, "src.x.myheartbeats"},
         {"mm2-offset-syncs.src.internal", false, "mm2-offset-syncs.src.internal"},
     }},
    {"4.3.1",
     "{\"source.cluster.alias\": \"src\", \"replication.policy.class\": \" "
     "org.apache.kafka.connect.mirror.IdentityReplicationPolicy \", \"target.cluster.alias\": "
     "\"src\"}",
     {
         {"orders", false, "orders"},
         {"heartbeats", true, "src.heartbeats"},
         {"src.heartbeats", false, "src.src.heartbeats"},
     }},
    {"4.3.1",
     "{\"source.cluster.alias\": \" src\", \"replication.policy.class\": "
     "\"org.apache.kafka.connect.mirror.IdentityReplicationPolicy\", \"target.cluster.alias\": "
     "\"src\"}",
     {
         {"orders", true, "orders"},
         {"heartbeats", true, "src.heartbeats"},
     }},
    {"4.3.1",
     "{\"source.cluster.alias\": \"src\", \"replication.policy.class\": "
     "\"org.apache.kafka.connect.mirror.IdentityReplicationPolicy\", "
     "\"replication.policy.separator\": \"_\"}",
     {
         {"orders", true, "orders"},
         {"heartbeats", true, "src_heartbeats"},
         {"a_heartbeats", true, "src_a_heartbeats"},
         {"target_heartbeats", false, "src_target_heartbeats"},
     }},
    {"3.9.1",
     "{\"source.cluster.alias\": \"src\", \"replication.policy.class\": "
     "\"org.apache.kafka.connect.mirror.IdentityReplicationPolicy\"}",
     {
         {"orders", true, "orders"},
         {"target.orders", true, "target.orders"},
         {"heartbeats", true, "src.heartbeats"},
         {"target.heartbeats", false, "src.target.heartbeats"},
     }},
};

static const struct mirror_case CASES_EXCLUDE[] = {
    {"4.3.1",
     "{\"source.cluster.alias\": \"src\", \"topics\": \"orders.*\", \"topics.exclude\": "
     "\"orders-dlq, .*-tmp\"}",
     {
         {"orders", true, "src.orders"},
         {"orders-dlq", false, "src.orders-dlq"},
         {"orders-x-tmp", false, "src.orders-x-tmp"},
         {"orders-tmpx", true, "src.orders-tmpx"},
     }},
    {"4.3.1",
     "{\"source.cluster.alias\": \"src\", \"topics.exclude\": \"\"}",
     {
         {"orders", true, "src.orders"},
         {"orders.replica", true, "src.orders.replica"},
         {"mm2x.internal", false, "src.mm2x.internal"},
         {"__consumer_offsets", false, "src.__consumer_offsets"},
     }},
    {"4.3.1",
     "{\"source.cluster.alias\": \"src\", \"topics\": \"\", \"topics.exclude\": \"\"}",
     {
         {"orders", false, "src.orders"},
         {"heartbeats", true, "src.heartbeats"},
     }},
    {"4.3.1",
     "{\"source.cluster.alias\": \"src\", \"topics.blacklist\": \"orders\"}",
     {
         {"orders", true, "src.orders"},
         {"payments", true, "src.payments"},
     }},
    {"4.3.1",
     "{\"source.cluster.alias\": \"src\", \"topics\": \"orders, orders , payments\"}",
     {
         {"orders", true, "src.orders"},
         {"payments", true, "src.payments"},
         {"x", false, "src.x"},
     }},
    {"3.9.1",
     "{\"source.cluster.alias\": \"src\", \"topics.blacklist\": \"orders\"}",
     {
         {"orders", false, "src.orders"},
         {"payments", true, "src.payments"},
         {"my.internal", false, "src.my.internal"},
     }},
    {"3.9.1",
     "{\"source.cluster.alias\": \"src\", \"topics.blacklist\": \"orders\", \"topics.exclude\": "
     "\"payments\"}",
     {
         {"orders", true, "src.orders"},
         {"payments", false, "src.payments"},
     }},
    {"3.9.1",
     "{\"source.cluster.alias\": \"src\", \"topics\": \"orders, orders\", \"topics.exclude\": "
     "\"a,,b\"}",
     {
         {"orders", true, "src.orders"},
         {"a", false, "src.a"},
     }},
};

static const struct mirror_case CASES_DISABLED[] = {
    {"4.3.1",
     "{\"source.cluster.alias\": \"src\", \"enabled\": \"false\"}",
     {
         {"orders", false, "src.orders"},
         {"heartbeats", false, "src.heartbeats"},
     }},
    {"4.3.1",
     "{\"source.cluster.alias\": \"src\", \"enabled\": \" True\"}",
     {
         {"orders", true, "src.orders"},
     }},
};

static const struct error_case ERROR_CASES[] = {
    /* Kafka 4.3.1: ConfigException: Missing required configuration "source.cluster.alias" */
    {"4.3.1", "{\"topics\": \"orders\"}", "source.cluster.alias is missing"},
    /* Kafka 4.3.1: ConfigException: Configuration 'topics.exclude' values must not be empty */
    {"4.3.1", "{\"source.cluster.alias\": \"src\", \"topics.exclude\": \"a,,b\"}", "empty entry"},
    /* Kafka 4.3.1: ConfigException: Configuration 'topics' values must not be empty */
    {"4.3.1", "{\"source.cluster.alias\": \"src\", \"topics\": \"orders,\"}", "empty entry"},
    /* Kafka 4.3.1: ConfigException: Invalid value yes for configuration
       heartbeats.replication.enabled */
    {"4.3.1", "{\"source.cluster.alias\": \"src\", \"heartbeats.replication.enabled\": \"yes\"}",
     "must be true or false"},
    /* Kafka 4.3.1: ConfigException: Invalid value 1 for configuration enabled */
    {"4.3.1", "{\"source.cluster.alias\": \"src\", \"enabled\": \"1\"}", "must be true or false"},
    /* Kafka 4.3.1: ConfigException: Invalid value no for configuration
       replication.policy.internal.topic.separator.enabled */
    {"4.3.1",
     "{\"source.cluster.alias\": \"src\", \"replication.policy.internal.topic.separator.enabled\": "
     "\"no\"}",
     "must be true or false"},
    /* Kafka 4.3.1: ConfigException: Invalid value com.example.MyFilter for configuration
       topic.filter.class: Class com.example.MyFilter could not be found */
    {"4.3.1",
     "{\"source.cluster.alias\": \"src\", \"topic.filter.class\": \"com.example.MyFilter\"}",
     "topic.filter.class"},
    /* Kafka 4.3.1: ConfigException: Invalid value com.example.MyPolicy for configuration
       replication.policy.class: Class com.example.MyPolicy could not be found */
    {"4.3.1",
     "{\"source.cluster.alias\": \"src\", \"replication.policy.class\": \"com.example.MyPolicy\"}",
     "replication.policy.class"},
    /* Kafka 4.3.1: PatternSyntaxException: Unclosed counted closure */
    {"4.3.1", "{\"source.cluster.alias\": \"src\", \"topics\": \"a{1,3}\"}",
     "is not a valid Java regex"},
    /* Kafka 4.3.1 accepts it; mm2-offsets cannot evaluate it */
    {"4.3.1", "{\"source.cluster.alias\": \"src\", \"topics.exclude\": \"(?i)x\"}",
     "topics.exclude: entry \"(?i)x\" uses the Java construct \"(?\""},
    /* Kafka 3.9.1 accepts it; mm2-offsets cannot evaluate it */
    {"3.9.1", "{\"source.cluster.alias\": \"src\", \"topics.blacklist\": \"(?i)x\"}",
     "topics.blacklist: entry"},
};

/* ---- helpers ------------------------------------------------------------------------------ */

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* mm2_mirror_new on a JSON text; the cJSON tree is freed here, as the contract allows. */
static enum mm2_status mirror_from(const char *version, const char *json, struct mm2_mirror **m,
                                   struct mm2_error *err)
{
    cJSON *cfg = cJSON_Parse(json);
    enum mm2_status st;

    if (cfg == NULL)
        fail_msg("test JSON does not parse: %s", json);
    mm2_error_clear(err);
    st = mm2_mirror_new(cfg, version, m, err);
    cJSON_Delete(cfg);
    return st;
}

static struct mm2_mirror *mirror_ok(const char *version, const char *json)
{
    struct mm2_mirror *m = NULL;
    struct mm2_error err;

    if (mirror_from(version, json, &m, &err) != MM2_OK)
        fail_msg("%s %s: refused: %s", version, json, err.msg);
    return m;
}

static void expect_refused(const char *version, const char *json, const char *part)
{
    struct mm2_mirror *m = (struct mm2_mirror *)1;
    struct mm2_error err;
    enum mm2_status st = mirror_from(version, json, &m, &err);

    if (st != MM2_CONFIG || m != NULL)
        fail_msg("%s %s: expected MM2_CONFIG, got %d", version, json, (int)st);
    if (strstr(err.msg, part) == NULL)
        fail_msg("%s %s: message \"%s\" lacks \"%s\"", version, json, err.msg, part);
}

static void check_cases(const struct mirror_case *cases, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        struct mm2_mirror *m = mirror_ok(cases[i].version, cases[i].config);

        for (size_t j = 0; j < TOPICS_PER_CASE && cases[i].t[j].topic != NULL; j++) {
            const struct topic_expect *e = &cases[i].t[j];
            char target[512];

            if (mm2_mirror_replicates(m, e->topic) != e->replicates)
                fail_msg("%s %s: topic %s: Kafka says %s", cases[i].version, cases[i].config,
                         e->topic, e->replicates ? "replicated" : "not replicated");
            assert_int_equal(mm2_mirror_target_topic(m, e->topic, target, sizeof(target)), 0);
            if (strcmp(target, e->target) != 0)
                fail_msg("%s %s: topic %s: target %s, Kafka says %s", cases[i].version,
                         cases[i].config, e->topic, target, e->target);
        }
        mm2_mirror_free(m);
    }
}

/* {"source.cluster.alias": "src", "topics": <topics>, "topics.exclude": ""} as JSON. */
static char *topics_config(const char *topics)
{
    cJSON *o = cJSON_CreateObject();
    char *s;

    cJSON_AddStringToObject(o, "source.cluster.alias", "src");
    cJSON_AddStringToObject(o, "topics", topics);
    cJSON_AddStringToObject(o, "topics.exclude", "");
    s = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    return s;
}

/* ---- the regex subset --------------------------------------------------------------------- */

static void test_regex_table_matches_java(void **state)
{
    (void)state;
    for (size_t i = 0; i < N(REGEX_CASES); i++) {
        const struct regex_case *r = &REGEX_CASES[i];
        char *json = topics_config(r->topics);
        struct mm2_mirror *m = mirror_ok(r->version, json);

        if (mm2_mirror_replicates(m, r->topic) != r->replicates)
            fail_msg("%s topics \"%s\", topic %s: Java says %s", r->version, r->topics, r->topic,
                     r->replicates ? "true" : "false");
        mm2_mirror_free(m);
        cJSON_free(json);
    }
}

/* The translation lists characters instead of using ranges, so a UTF-8 locale (where regcomp
 * works on multibyte characters and ranges follow collation) changes nothing. */
static void test_regex_table_same_in_utf8_locale(void **state)
{
    (void)state;
    if (setlocale(LC_ALL, "C.UTF-8") == NULL) {
        skip();
        return;
    }
    test_regex_table_matches_java(state);
    setlocale(LC_ALL, "C");
}

static void test_regex_outside_subset_refused_naming_key_entry_and_construct(void **state)
{
    (void)state;
    for (size_t i = 0; i < N(REFUSALS); i++) {
        char *json = topics_config(REFUSALS[i].topics);

        expect_refused("4.3.1", json, "topics: entry \"");
        expect_refused("4.3.1", json, REFUSALS[i].message);
        cJSON_free(json);
    }
}

static void test_regex_refusal_is_one_actionable_line(void **state)
{
    struct mm2_mirror *m = NULL;
    struct mm2_error err;

    (void)state;
    assert_int_equal(mirror_from("4.3.1",
                                 "{\"source.cluster.alias\":\"src\",\"topics\":\"payments, "
                                 "(?i)orders\"}",
                                 &m, &err),
                     MM2_CONFIG);
    assert_null(m);
    assert_string_equal(err.msg,
                        "topics: entry \"(?i)orders\" uses the Java construct \"(?\", which "
                        "mm2-offsets cannot evaluate exactly as Connect does; list topic names "
                        "or use the supported subset (literals, \\., ., [...], \\d, \\w, \\s, *, "
                        "+, ?, {n}, |, (...), ^, $)");
}

static void test_regex_invalid_java_names_the_entry(void **state)
{
    struct mm2_mirror *m = NULL;
    struct mm2_error err;

    (void)state;
    assert_int_equal(mirror_from("4.3.1",
                                 "{\"source.cluster.alias\":\"src\",\"topics\":\"orders, "
                                 "stock-{1,3}\"}",
                                 &m, &err),
                     MM2_CONFIG);
    assert_string_equal(err.msg, "topics: entry \"stock-{1\" is not a valid Java regex (illegal "
                                 "repetition), so Connect cannot compile it; fix the entry");
}

static void test_regex_long_literal_list_compiles(void **state)
{
    char *topics = malloc(3000 * 16);
    size_t o = 0;
    struct mm2_mirror *m;
    cJSON *cfg = cJSON_CreateObject();
    struct mm2_error err;

    (void)state;
    assert_non_null(topics);
    for (int i = 0; i < 3000; i++)
        o += (size_t)snprintf(topics + o, 3000 * 16 - o, "%sorders-%d", i ? ", " : "", i);
    cJSON_AddStringToObject(cfg, "source.cluster.alias", "src");
    cJSON_AddStringToObject(cfg, "topics", topics);
    assert_int_equal(mm2_mirror_new(cfg, "4.3.1", &m, &err), MM2_OK);
    assert_true(mm2_mirror_replicates(m, "orders-0"));
    assert_true(mm2_mirror_replicates(m, "orders-2999"));
    assert_false(mm2_mirror_replicates(m, "orders-3000"));
    assert_false(mm2_mirror_replicates(m, "orders-"));
    mm2_mirror_free(m);
    cJSON_Delete(cfg);
    free(topics);
}

/* ---- shouldReplicateTopic and formatRemoteTopic ------------------------------------------- */

static void test_default_filter_replicates_normal_topics_not_internal_ones(void **state)
{
    (void)state;
    check_cases(CASES_DEFAULT_FILTER, N(CASES_DEFAULT_FILTER));
}

static void test_heartbeats_replicated_even_outside_topics(void **state)
{
    (void)state;
    check_cases(CASES_HEARTBEATS, N(CASES_HEARTBEATS));
}

static void test_heartbeats_replication_disabled_from_4_0_only(void **state)
{
    (void)state;
    check_cases(CASES_HEARTBEATS_OFF, N(CASES_HEARTBEATS_OFF));
}

static void test_cycles_back_to_target_alias_not_replicated(void **state)
{
    (void)state;
    check_cases(CASES_CYCLES, N(CASES_CYCLES));
}

static void test_default_policy_prefixes_source_alias(void **state)
{
    (void)state;
    check_cases(CASES_DEFAULT_POLICY, N(CASES_DEFAULT_POLICY));
}

static void test_custom_separator_in_names_cycles_and_internal_topics(void **state)
{
    (void)state;
    check_cases(CASES_SEPARATOR, N(CASES_SEPARATOR));
}

static void test_identity_policy_keeps_names_except_heartbeats(void **state)
{
    (void)state;
    check_cases(CASES_IDENTITY, N(CASES_IDENTITY));
}

static void test_exclude_and_its_deprecated_alias(void **state)
{
    (void)state;
    check_cases(CASES_EXCLUDE, N(CASES_EXCLUDE));
}

static void test_disabled_connector_replicates_nothing(void **state)
{
    struct mm2_mirror *m;

    (void)state;
    check_cases(CASES_DISABLED, N(CASES_DISABLED));
    m = mirror_ok("4.3.1", "{\"source.cluster.alias\":\"src\",\"enabled\":\"false\"}");
    assert_false(mm2_mirror_enabled(m));
    mm2_mirror_free(m);
    m = mirror_ok("4.3.1", "{\"source.cluster.alias\":\"src\"}");
    assert_true(mm2_mirror_enabled(m));
    mm2_mirror_free(m);
}

static void test_config_connect_refuses_is_refused(void **state)
{
    (void)state;
    for (size_t i = 0; i < N(ERROR_CASES); i++)
        expect_refused(ERROR_CASES[i].version, ERROR_CASES[i].config, ERROR_CASES[i].message);
}

static void test_unknown_policy_or_filter_class_refused(void **state)
{
    struct mm2_mirror *m = NULL;
    struct mm2_error err;

    (void)state;
    assert_int_equal(mirror_from("4.3.1",
                                 "{\"source.cluster.alias\":\"src\",\"replication.policy.class\":"
                                 "\"com.example.PrefixPolicy\"}",
                                 &m, &err),
                     MM2_CONFIG);
    assert_string_equal(err.msg, "replication.policy.class \"com.example.PrefixPolicy\" is not one "
                                 "mm2-offsets can evaluate; use "
                                 "org.apache.kafka.connect.mirror.DefaultReplicationPolicy or "
                                 "org.apache.kafka.connect.mirror.IdentityReplicationPolicy");
    assert_int_equal(mirror_from("4.3.1",
                                 "{\"source.cluster.alias\":\"src\",\"topic.filter.class\":"
                                 "\"org.apache.kafka.connect.mirror.TopicFilter\"}",
                                 &m, &err),
                     MM2_CONFIG);
    assert_string_equal(err.msg, "topic.filter.class "
                                 "\"org.apache.kafka.connect.mirror.TopicFilter\" is not one "
                                 "mm2-offsets can evaluate; use "
                                 "org.apache.kafka.connect.mirror.DefaultTopicFilter with topics / "
                                 "topics.exclude");
    /* The default classes, spelled out and padded (ConfigDef trims a CLASS), are accepted. */
    m = mirror_ok("4.3.1", "{\"source.cluster.alias\":\"src\",\"topic.filter.class\":"
                           "\" org.apache.kafka.connect.mirror.DefaultTopicFilter\","
                           "\"replication.policy.class\":"
                           "\"org.apache.kafka.connect.mirror.DefaultReplicationPolicy \"}");
    mm2_mirror_free(m);
}

/* ---- versions ----------------------------------------------------------------------------- */

static void test_version_known_lines_accepted(void **state)
{
    static const char *const known[] = {"3.6.2", "3.7.0", "3.7.2", "3.8.1", "3.9.0", "3.9.1",
                                        "4.0.0", "4.1.1", "4.2.0", "4.3.0", "4.3.1"};

    (void)state;
    for (size_t i = 0; i < N(known); i++)
        mm2_mirror_free(mirror_ok(known[i], "{\"source.cluster.alias\":\"src\"}"));
}

/* The placeholder apply creates a connector with on Connect 3.6 (no initial_state): its topics
 * match no topic name, whatever the config had; a heartbeats topic is still replicated (apply
 * refuses then); the rest of the config is kept. */
static void test_placeholder_matches_nothing_but_heartbeats(void **state)
{
    static const char *const configs[] = {
        "{\"source.cluster.alias\":\"src\",\"topics\":\".*\"}",
        "{\"source.cluster.alias\":\"src\"}",
        "{\"source.cluster.alias\":\"src\",\"topics\":\"orders,payments\",\"replication.policy."
        "class\":\"org.apache.kafka.connect.mirror.IdentityReplicationPolicy\"}",
    };
    static const char *const names[] = {
        "orders", "payments", "mm2kit", "placeholder", "mm2kit.placeholder", "mm2kit_placeholder",
        "a"};
    struct mm2_error err;

    (void)state;
    for (size_t i = 0; i < N(configs); i++) {
        cJSON *cfg = cJSON_Parse(configs[i]), *ph = NULL;
        struct mm2_mirror *m = NULL;

        assert_non_null(cfg);
        assert_int_equal(mm2_connector_placeholder(cfg, &ph, &err), MM2_OK);
        assert_string_equal(cJSON_GetObjectItemCaseSensitive(ph, "topics")->valuestring,
                            MM2_PLACEHOLDER_TOPICS);
        assert_string_equal(
            cJSON_GetObjectItemCaseSensitive(ph, "source.cluster.alias")->valuestring, "src");
        assert_int_equal(cJSON_GetArraySize(ph),
                         cJSON_GetArraySize(cfg) +
                             (cJSON_GetObjectItemCaseSensitive(cfg, "topics") == NULL));
        assert_int_equal(mm2_mirror_new(ph, "3.6.2", &m, &err), MM2_OK);
        for (size_t k = 0; k < N(names); k++)
            assert_false(mm2_mirror_replicates(m, names[k]));
        assert_true(mm2_mirror_replicates(m, "heartbeats"));
        mm2_mirror_free(m);
        cJSON_Delete(ph);
        cJSON_Delete(cfg);
    }
}

static void test_version_below(void **state)
{
    (void)state;
    assert_true(mm2_connector_version_below("3.6.2", 3, 7));
    assert_true(mm2_connector_version_below("3.6", 3, 7));
    assert_true(mm2_connector_version_below("3.6.0-SNAPSHOT", 3, 7));
    assert_true(mm2_connector_version_below("2.8.2", 3, 7));
    assert_false(mm2_connector_version_below("3.7.0", 3, 7));
    assert_false(mm2_connector_version_below("3.10.0", 3, 7));
    assert_false(mm2_connector_version_below("4.0.0", 3, 7));
    assert_false(mm2_connector_version_below("4.3.1", 3, 7));
    assert_false(mm2_connector_version_below("", 3, 7));
    assert_false(mm2_connector_version_below(NULL, 3, 7));
    assert_false(mm2_connector_version_below("3", 3, 7));
    assert_false(mm2_connector_version_below("3.x", 3, 7));
    assert_false(mm2_connector_version_below("3.6x", 3, 7));
    assert_false(mm2_connector_version_below("99999.1", 3, 7));
}

static void test_version_unknown_refused(void **state)
{
    static const char *const unknown[] = {"3.5.2",     "2.8.0", "4.4.0",  "5.0.0",   "4.3",
                                          "4.3.1-ccs", "",      " 4.3.1", "4.3.1.0", "4..1"};
    struct mm2_mirror *m = NULL;
    struct mm2_error err;
    cJSON *cfg = cJSON_Parse("{\"source.cluster.alias\":\"src\"}");

    (void)state;
    for (size_t i = 0; i < N(unknown); i++)
        expect_refused(unknown[i], "{\"source.cluster.alias\":\"src\"}", "is not one whose");
    assert_int_equal(mm2_mirror_new(cfg, NULL, &m, &err), MM2_CONFIG);
    assert_null(m);
    cJSON_Delete(cfg);
    expect_refused("4.4.0", "{\"source.cluster.alias\":\"src\"}",
                   "Kafka version \"4.4.0\" is not one whose MirrorMaker 2 topic rules "
                   "mm2-offsets knows (3.6.x-3.9.x, 4.0.x-4.3.x)");
}

/* From the sources (no jar run): each line keeps the rules of the version checked above. */
static void test_version_lines_take_their_rules(void **state)
{
    struct mm2_mirror *m;

    (void)state;
    /* 3.7/3.8: the 3.x default exclude, topics.blacklist honoured, heartbeats flag unknown */
    m = mirror_ok("3.7.2", "{\"source.cluster.alias\":\"src\",\"topics.blacklist\":\"orders\","
                           "\"heartbeats.replication.enabled\":\"false\",\"topics\":\"a.*\"}");
    assert_false(mm2_mirror_replicates(m, "orders"));
    assert_true(mm2_mirror_replicates(m, "heartbeats"));
    assert_false(mm2_mirror_replicates(m, "ab-internal"));
    assert_true(mm2_mirror_replicates(m, "ab"));
    mm2_mirror_free(m);
    /* 4.0/4.1: the 4.x default exclude, no alias, heartbeats flag, empty entries accepted */
    m = mirror_ok("4.1.1", "{\"source.cluster.alias\":\"src\",\"topics.blacklist\":\"orders\","
                           "\"heartbeats.replication.enabled\":\"false\",\"topics\":\"a.*,,o.*\"}");
    assert_true(mm2_mirror_replicates(m, "orders"));
    assert_false(mm2_mirror_replicates(m, "heartbeats"));
    assert_true(mm2_mirror_replicates(m, "ab-internal"));
    assert_false(mm2_mirror_replicates(m, "mm2-x.internal"));
    mm2_mirror_free(m);
    m = mirror_ok("4.0.0", "{\"source.cluster.alias\":\"src\",\"topics\":\",\"}");
    assert_false(mm2_mirror_replicates(m, "orders"));
    assert_true(mm2_mirror_replicates(m, "heartbeats"));
    mm2_mirror_free(m);
    /* 4.2: empty entries refused, as 4.3.1 was seen to */
    expect_refused("4.2.0", "{\"source.cluster.alias\":\"src\",\"topics\":\"a.*,,o.*\"}",
                   "topics has an empty entry (\"a.*,,o.*\"); Connect 4.2 and later refuse "
                   "empty values");
}

/* ---- what mm2-offsets cannot read as Connect does ------------------------------------------ */

static void test_config_provider_reference_refused(void **state)
{
    (void)state;
    expect_refused("4.3.1",
                   "{\"source.cluster.alias\":\"src\",\"topics\":\"${file:/etc/mm2.properties:"
                   "topics}\"}",
                   "topics holds a config provider reference (\"${...}\") that the Connect "
                   "worker resolves and mm2-offsets cannot; write the value itself");
    expect_refused("4.3.1", "{\"source.cluster.alias\":\"${env:ALIAS}\"}",
                   "source.cluster.alias holds a config provider reference");
}

static void test_non_string_value_refused(void **state)
{
    (void)state;
    expect_refused("4.3.1", "{\"source.cluster.alias\":\"src\",\"enabled\":false}",
                   "enabled must be a JSON string");
    expect_refused("4.3.1", "{\"source.cluster.alias\":\"src\",\"topics\":null}",
                   "topics must be a JSON string");
    expect_refused("4.3.1", "{\"source.cluster.alias\":7}",
                   "source.cluster.alias must be a JSON string");
}

static void test_key_given_twice_refused(void **state)
{
    (void)state;
    expect_refused("4.3.1", "{\"source.cluster.alias\":\"src\",\"topics\":\"a\",\"topics\":\"b\"}",
                   "topics is given 2 times in the connector config; give it once");
}

static void test_config_must_be_an_object(void **state)
{
    struct mm2_mirror *m = (struct mm2_mirror *)1;
    struct mm2_error err;
    cJSON *arr = cJSON_CreateArray();

    (void)state;
    assert_int_equal(mm2_mirror_new(NULL, "4.3.1", &m, &err), MM2_CONFIG);
    assert_null(m);
    assert_int_equal(mm2_mirror_new(arr, "4.3.1", &m, &err), MM2_CONFIG);
    assert_string_equal(err.msg, "the connector config must be a JSON object");
    cJSON_Delete(arr);
}

static void test_separator_empty_or_long_refused(void **state)
{
    (void)state;
    expect_refused("4.3.1",
                   "{\"source.cluster.alias\":\"src\",\"replication.policy.separator\":\"\"}",
                   "replication.policy.separator is empty");
    expect_refused("4.3.1",
                   "{\"source.cluster.alias\":\"src\",\"replication.policy.separator\":"
                   "\"0123456789012345678901234567890123456789012345678901234567890123\"}",
                   "replication.policy.separator is longer than 63 bytes");
}

static void test_alias_longer_than_cap_refused(void **state)
{
    char json[600];
    char alias[300];

    (void)state;
    memset(alias, 'a', 256);
    alias[256] = '\0';
    snprintf(json, sizeof(json), "{\"source.cluster.alias\":\"%s\"}", alias);
    expect_refused("4.3.1", json, "source.cluster.alias is longer than 255 bytes");
    snprintf(json, sizeof(json), "{\"source.cluster.alias\":\"s\",\"target.cluster.alias\":\"%s\"}",
             alias);
    expect_refused("4.3.1", json, "target.cluster.alias is longer than 255 bytes");
}

static void test_value_longer_than_cap_refused(void **state)
{
    size_t n = MM2_MIRROR_VALUE_MAX + 1;
    char *topics = malloc(n + 1);
    cJSON *cfg = cJSON_CreateObject();
    struct mm2_mirror *m = (struct mm2_mirror *)1;
    struct mm2_error err;

    (void)state;
    assert_non_null(topics);
    memset(topics, 'a', n);
    topics[n] = '\0';
    cJSON_AddStringToObject(cfg, "source.cluster.alias", "src");
    cJSON_AddStringToObject(cfg, "topics", topics);
    assert_int_equal(mm2_mirror_new(cfg, "4.3.1", &m, &err), MM2_CONFIG);
    assert_null(m);
    assert_string_equal(err.msg, "topics is longer than 65536 bytes");
    cJSON_Delete(cfg);
    free(topics);
}

/* ---- the other calls ---------------------------------------------------------------------- */

static void test_invalid_topic_names_never_replicated(void **state)
{
    struct mm2_mirror *m = mirror_ok("4.3.1", "{\"source.cluster.alias\":\"src\"}");
    char longname[300];

    (void)state;
    memset(longname, 'a', 250);
    longname[250] = '\0';
    assert_false(mm2_mirror_replicates(m, ""));
    assert_false(mm2_mirror_replicates(m, NULL));
    assert_false(mm2_mirror_replicates(m, "a b"));
    assert_false(mm2_mirror_replicates(m, "a\nb"));
    assert_false(mm2_mirror_replicates(m, "caf\xc3\xa9"));
    assert_false(mm2_mirror_replicates(m, longname));
    longname[249] = '\0';
    assert_true(mm2_mirror_replicates(m, longname));
    assert_false(mm2_mirror_replicates(NULL, "orders"));
    mm2_mirror_free(m);
}

static void test_target_topic_that_does_not_fit_gives_minus_one_and_empty(void **state)
{
    struct mm2_mirror *m = mirror_ok("4.3.1", "{\"source.cluster.alias\":\"src\"}");
    char out[11];

    (void)state;
    assert_int_equal(mm2_mirror_target_topic(m, "orders", out, sizeof(out)), 0);
    assert_string_equal(out, "src.orders");
    assert_int_equal(mm2_mirror_target_topic(m, "orders1", out, sizeof(out)), -1);
    assert_string_equal(out, "");
    assert_int_equal(mm2_mirror_target_topic(m, "orders", out, 0), -1);
    mm2_mirror_free(m);
}

static void test_source_alias_is_trimmed_as_connect_does(void **state)
{
    struct mm2_mirror *m = mirror_ok("4.3.1", "{\"source.cluster.alias\":\" \\tus-west \"}");
    char target[64];

    (void)state;
    /* DefaultReplicationPolicy.formatRemoteTopic with the alias ConfigDef trimmed. */
    assert_int_equal(mm2_mirror_target_topic(m, "orders", target, sizeof(target)), 0);
    assert_string_equal(target, "us-west.orders");
    mm2_mirror_free(m);
}

static void test_free_accepts_null(void **state)
{
    (void)state;
    mm2_mirror_free(NULL);
}

/* A cluster's topics as mm2_kafka_topics lists them: sorted by strcmp, upper case first. */
static struct mm2_topic_meta cluster_topics[] = {
    {"Orders", 1}, {"__consumer_offsets", 50}, {"orders", 3}, {"orders.dlq", 1}, {"payments", 6},
};

static void test_topics_find_each_topic_with_its_partitions(void **state)
{
    const size_t n = sizeof(cluster_topics) / sizeof(cluster_topics[0]);

    (void)state;
    for (size_t k = 1; k <= n; k++) {
        struct mm2_topic_list l = {cluster_topics, k};
        for (size_t i = 0; i < k; i++)
            assert_ptr_equal(mm2_topics_find(&l, cluster_topics[i].name), &cluster_topics[i]);
    }
    assert_int_equal(
        mm2_topics_find(&(struct mm2_topic_list){cluster_topics, n}, "payments")->partitions, 6);
}

static void test_topics_find_absent_topic_is_null(void **state)
{
    static const char *const absent[] = {"",        "ORDERS",      "_",        "order",
                                         "orders.", "orders.dlq2", "paymentz", "zz"};
    struct mm2_topic_list l = {cluster_topics, sizeof(cluster_topics) / sizeof(cluster_topics[0])};

    (void)state;
    for (size_t i = 0; i < sizeof(absent) / sizeof(absent[0]); i++)
        assert_null(mm2_topics_find(&l, absent[i]));
    assert_null(mm2_topics_find(&(struct mm2_topic_list){NULL, 0}, "orders"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_regex_table_matches_java),
        cmocka_unit_test(test_regex_table_same_in_utf8_locale),
        cmocka_unit_test(test_regex_outside_subset_refused_naming_key_entry_and_construct),
        cmocka_unit_test(test_regex_refusal_is_one_actionable_line),
        cmocka_unit_test(test_regex_invalid_java_names_the_entry),
        cmocka_unit_test(test_regex_long_literal_list_compiles),
        cmocka_unit_test(test_default_filter_replicates_normal_topics_not_internal_ones),
        cmocka_unit_test(test_heartbeats_replicated_even_outside_topics),
        cmocka_unit_test(test_heartbeats_replication_disabled_from_4_0_only),
        cmocka_unit_test(test_cycles_back_to_target_alias_not_replicated),
        cmocka_unit_test(test_default_policy_prefixes_source_alias),
        cmocka_unit_test(test_custom_separator_in_names_cycles_and_internal_topics),
        cmocka_unit_test(test_identity_policy_keeps_names_except_heartbeats),
        cmocka_unit_test(test_exclude_and_its_deprecated_alias),
        cmocka_unit_test(test_disabled_connector_replicates_nothing),
        cmocka_unit_test(test_config_connect_refuses_is_refused),
        cmocka_unit_test(test_unknown_policy_or_filter_class_refused),
        cmocka_unit_test(test_version_known_lines_accepted),
        cmocka_unit_test(test_version_unknown_refused),
        cmocka_unit_test(test_placeholder_matches_nothing_but_heartbeats),
        cmocka_unit_test(test_version_below),
        cmocka_unit_test(test_version_lines_take_their_rules),
        cmocka_unit_test(test_config_provider_reference_refused),
        cmocka_unit_test(test_non_string_value_refused),
        cmocka_unit_test(test_key_given_twice_refused),
        cmocka_unit_test(test_config_must_be_an_object),
        cmocka_unit_test(test_separator_empty_or_long_refused),
        cmocka_unit_test(test_alias_longer_than_cap_refused),
        cmocka_unit_test(test_value_longer_than_cap_refused),
        cmocka_unit_test(test_invalid_topic_names_never_replicated),
        cmocka_unit_test(test_target_topic_that_does_not_fit_gives_minus_one_and_empty),
        cmocka_unit_test(test_source_alias_is_trimmed_as_connect_does),
        cmocka_unit_test(test_free_accepts_null),
        cmocka_unit_test(test_topics_find_each_topic_with_its_partitions),
        cmocka_unit_test(test_topics_find_absent_topic_is_null),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
