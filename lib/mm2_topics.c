/*
 * mm2_topics: MirrorSourceConnector.shouldReplicateTopic and formatRemoteTopic in C (see
 * mm2_topics.h). Each function below names the Kafka method it mirrors; the Kafka sources read
 * are 3.7.2, 3.8.1, 3.9.1, 4.0.0, 4.1.1, 4.2.0 and 4.3.1 (connect-mirror, connect-mirror-client,
 * clients' ConfigDef and ConfigUtils).
 *
 * Regexes. DefaultTopicFilter joins the entries of topics (and of topics.exclude) with "|" and
 * compiles the result as ONE java.util.regex.Pattern, matched with Matcher.matches() (the whole
 * name). The joined text is translated here to a POSIX extended regex, anchored ^(...)$ and
 * compiled with regcomp(REG_EXTENDED | REG_NOSUB). Only this subset of Java syntax is accepted;
 * everything else is refused with MM2_CONFIG, never guessed:
 *   - literals: printable ASCII other than the metacharacters below ("]" and "}" are literals,
 *     as in Java); "\" before any ASCII punctuation or space is that character ("\.", "\-");
 *   - "." (any character: a topic name holds no line terminator, the only thing Java's "."
 *     excludes);
 *   - classes [...] and [^...] of literals, escaped punctuation, ranges a-z whose two ends are
 *     literals in order, "-" first or last, and \d \D \w \W \s \S (Java's ASCII meanings);
 *   - \d \D \w \W \s \S outside classes;
 *   - quantifiers * + ? and {n} (n <= 255) after a literal, ".", a class or a group, each
 *     optionally lazy (*? +? ?? {n}?: under matches() a lazy quantifier accepts exactly the
 *     strings the greedy one does, so the "?" is dropped). {n,m} cannot occur: ConfigDef splits
 *     the value at its comma;
 *   - groups (...) and alternation |; ^ and $ anywhere (without MULTILINE Java anchors them to
 *     the ends of the name, as POSIX ERE does everywhere).
 * Refused: "(?" (flags, non-capturing groups, lookaround, named and atomic groups), possessive
 * quantifiers, back-references and every other "\" + letter or digit (\b, \Q, \p, \x, \1, ...),
 * nested classes and "&&", "[]", a "-" inside a class that is neither first, last nor a range,
 * a quantifier after an anchor or another quantifier, "()" and empty alternatives inside a group,
 * non-ASCII and control characters. An empty alternative at the top level (an empty entry, or
 * "a|") is dropped: it matches only the empty string and no topic name is empty.
 *
 * Each character set (a literal, ".", a class, \d, ...) is emitted as the exact list of the
 * topic-name characters [a-zA-Z0-9._-] it holds, with no ranges (ranges follow the collation of
 * the locale in POSIX); a set holding none of them becomes a class of all others, which no
 * topic name can match. The result is exact on valid topic names, the only strings asked about.
 */
#include "mm2_topics.h"

#include "mm2_parse.h"

#include <cjson/cJSON.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PKG "org.apache.kafka.connect.mirror."
#define SUBSET "literals, \\., ., [...], \\d, \\w, \\s, *, +, ?, {n}, |, (...), ^, $"
#define SHOW_MAX 80             /* characters of an entry quoted in a message */
#define GROUP_MAX 64            /* deepest group nesting translated */
#define REPEAT_MAX 255          /* largest {n} (POSIX guarantees RE_DUP_MAX >= 255) */
#define OUT_MAX (16u << 20)     /* translated regex cap; 68 bytes per input byte at most */
#define HEARTBEATS "heartbeats" /* ReplicationPolicy.heartbeatsTopic() */

/* The characters of a Kafka topic name (Topic.validate), in the order they are emitted: "-"
 * last so that it is literal inside a bracket expression. */
static const char TOPIC_CHARS[] =
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-";

enum rules {
    RULES_3,  /* 3.7.x-3.9.x */
    RULES_40, /* 4.0.x-4.1.x */
    RULES_42, /* 4.2.x-4.3.x: ValidList.anyNonDuplicateValues on topics, topics.exclude */
};

struct pattern {
    bool present; /* false: a null Pattern (empty list), or one only "" matches: no topic */
    regex_t re;
};

struct mm2_mirror {
    enum rules rules;
    bool enabled;
    bool heartbeats; /* heartbeats.replication.enabled; always on before 4.0 */
    bool identity;   /* IdentityReplicationPolicy, else DefaultReplicationPolicy */
    char source[MM2_MIRROR_ALIAS_MAX + 1];
    char target[MM2_MIRROR_ALIAS_MAX + 1];
    char identity_source[MM2_MIRROR_ALIAS_MAX + 1]; /* untrimmed, as the policy keeps it */
    char sep[MM2_MIRROR_SEPARATOR_MAX + 1];
    char internal_suffix[MM2_MIRROR_SEPARATOR_MAX + 16];
    char checkpoints_suffix[2 * MM2_MIRROR_SEPARATOR_MAX + 32];
    struct pattern include;
    struct pattern exclude;
};

/* ---- small string helpers --------------------------------------------------------------- */

static bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static bool ends_with(const char *s, size_t n, const char *suffix)
{
    size_t k = strlen(suffix);

    return n >= k && memcmp(s + n - k, suffix, k) == 0;
}

/* String.trim(): drops every character <= ' ' at both ends. */
static void java_trim(const char *s, const char **start, size_t *len)
{
    size_t n = strlen(s);

    while (n > 0 && (unsigned char)s[n - 1] <= ' ')
        n--;
    while (n > 0 && (unsigned char)*s <= ' ') {
        s++;
        n--;
    }
    *start = s;
    *len = n;
}

/* ASCII equalsIgnoreCase of s[0..n) and lower-case word. */
static bool equals_ignore_case(const char *s, size_t n, const char *word)
{
    if (n != strlen(word))
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];

        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != word[i])
            return false;
    }
    return true;
}

/* ---- reading the connector config ------------------------------------------------------- */

/* The string value of key, or *val = NULL when absent. Refuses what cannot be read as Connect
 * reads it: a non-string, a key given twice (Connect's JSON reader keeps the last one, cJSON
 * the first), a config provider reference (the worker resolves it, we cannot), an oversize
 * value. */
static enum mm2_status get_value(const cJSON *config, const char *key, const char **val,
                                 struct mm2_error *err)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(config, key);
    const cJSON *it;
    int count = 0;

    *val = NULL;
    if (item == NULL)
        return MM2_OK;
    cJSON_ArrayForEach(it, config)
    {
        if (it->string != NULL && strcmp(it->string, key) == 0)
            count++;
    }
    if (count > 1)
        return mm2_error_set(err, MM2_CONFIG,
                             "%s is given %d times in the connector config; give it once", key,
                             count);
    if (!cJSON_IsString(item) || item->valuestring == NULL)
        return mm2_error_set(err, MM2_CONFIG,
                             "%s must be a JSON string, as Connect stores every connector "
                             "config value",
                             key);
    if (strlen(item->valuestring) > MM2_MIRROR_VALUE_MAX)
        return mm2_error_set(err, MM2_CONFIG, "%s is longer than %d bytes", key,
                             MM2_MIRROR_VALUE_MAX);
    if (strstr(item->valuestring, "${") != NULL)
        return mm2_error_set(err, MM2_CONFIG,
                             "%s holds a config provider reference (\"${...}\") that the "
                             "Connect worker resolves and mm2-offsets cannot; write the value "
                             "itself",
                             key);
    *val = item->valuestring;
    return MM2_OK;
}

/* ConfigDef Type.BOOLEAN: trimmed, "true" or "false" in any case, else a ConfigException. */
static enum mm2_status get_bool(const cJSON *config, const char *key, bool def, bool *out,
                                struct mm2_error *err)
{
    const char *v;
    const char *t;
    size_t n;
    enum mm2_status st = get_value(config, key, &v, err);

    if (st != MM2_OK)
        return st;
    *out = def;
    if (v == NULL)
        return MM2_OK;
    java_trim(v, &t, &n);
    if (equals_ignore_case(t, n, "true"))
        *out = true;
    else if (equals_ignore_case(t, n, "false"))
        *out = false;
    else
        return mm2_error_set(err, MM2_CONFIG,
                             "%s must be true or false, got \"%.*s\" (Connect refuses it)", key,
                             SHOW_MAX, v);
    return MM2_OK;
}

/* ConfigDef Type.STRING (trimmed) or Type.CLASS (trimmed, then loaded by name) into out. */
static enum mm2_status get_trimmed(const cJSON *config, const char *key, const char *def, char *out,
                                   size_t outlen, struct mm2_error *err)
{
    const char *v;
    const char *t;
    size_t n;
    enum mm2_status st = get_value(config, key, &v, err);

    if (st != MM2_OK)
        return st;
    if (v == NULL && def == NULL)
        return mm2_error_set(err, MM2_CONFIG,
                             "%s is missing; MirrorSourceConnector requires it (it has no "
                             "default)",
                             key);
    java_trim(v != NULL ? v : def, &t, &n);
    if (n >= outlen)
        return mm2_error_set(err, MM2_CONFIG, "%s is longer than %zu bytes", key, outlen - 1);
    memcpy(out, t, n);
    out[n] = '\0';
    return MM2_OK;
}

static enum mm2_status parse_version(const char *v, enum rules *out, struct mm2_error *err)
{
    long part[3];
    const char *p = v;

    if (v == NULL)
        return mm2_error_set(err, MM2_CONFIG,
                             "the Kafka version of the Connect workers is missing");
    for (int i = 0; i < 3; i++) {
        char digits[8];
        size_t n = 0;

        while (p[n] >= '0' && p[n] <= '9')
            n++;
        if (n == 0 || n >= sizeof(digits) || p[n] != (i < 2 ? '.' : '\0'))
            goto unknown;
        memcpy(digits, p, n);
        digits[n] = '\0';
        if (mm2_parse_long(digits, 0, 9999, &part[i]) != 0)
            goto unknown;
        p += n + (i < 2 ? 1 : 0);
    }
    /* Checked: the defaults and rules below are the same across each line's sources. */
    if (part[0] == 3 && part[1] >= 7 && part[1] <= 9)
        *out = RULES_3;
    else if (part[0] == 4 && part[1] <= 1)
        *out = RULES_40;
    else if (part[0] == 4 && part[1] <= 3)
        *out = RULES_42;
    else
        goto unknown;
    return MM2_OK;
unknown:
    return mm2_error_set(err, MM2_CONFIG,
                         "Kafka version \"%.*s\" is not one whose MirrorMaker 2 topic rules "
                         "mm2-offsets knows (3.7.x-3.9.x, 4.0.x-4.3.x)",
                         SHOW_MAX, v);
}

/* ---- ConfigDef Type.LIST ---------------------------------------------------------------- */

struct entry {
    const char *p; /* into the joined pattern */
    size_t n;
    size_t off; /* offset of p in the joined pattern */
};

struct list {
    char *joined; /* entries joined with "|", as MirrorUtils.compilePatternList does */
    size_t len;
    struct entry *entries;
    size_t n;
};

static void list_free(struct list *l)
{
    free(l->joined);
    free(l->entries);
    memset(l, 0, sizeof(*l));
}

static bool is_java_space(char c) /* \s: [ \t\n\x0B\f\r] */
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

/* ConfigDef.parseType(LIST): trimmed; "" is the empty list; else split on \s*,\s* keeping
 * trailing empty entries (split(trimmed, -1)). From 4.2 ConfigDef.parseValue drops duplicate
 * entries (which changes nothing in an alternation) and ValidList.anyNonDuplicateValues(true,
 * false) refuses empty ones. */
static enum mm2_status parse_list(const char *key, const char *value, enum rules rules,
                                  struct list *l, struct mm2_error *err)
{
    const char *t;
    size_t n;
    size_t commas = 0;
    size_t o = 0;
    const char *piece;

    memset(l, 0, sizeof(*l));
    java_trim(value, &t, &n);
    if (n == 0)
        return MM2_OK;
    for (size_t i = 0; i < n; i++)
        commas += t[i] == ',';
    l->joined = malloc(n + 1);
    l->entries = calloc(commas + 1, sizeof(*l->entries));
    if (l->joined == NULL || l->entries == NULL) {
        list_free(l);
        return mm2_error_set(err, MM2_UNEXPECTED, "%s: out of memory", key);
    }
    piece = t;
    for (size_t i = 0; i <= n; i++) {
        const char *a;
        const char *b;

        if (i < n && t[i] != ',')
            continue;
        a = piece;
        b = t + i;
        while (a < b && is_java_space(*a))
            a++;
        while (b > a && is_java_space(b[-1]))
            b--;
        if (l->n > 0)
            l->joined[o++] = '|';
        l->entries[l->n].p = l->joined + o;
        l->entries[l->n].n = (size_t)(b - a);
        l->entries[l->n].off = o;
        l->n++;
        memcpy(l->joined + o, a, (size_t)(b - a));
        o += (size_t)(b - a);
        piece = t + i + 1;
    }
    l->joined[o] = '\0';
    l->len = o;
    if (rules != RULES_42)
        return MM2_OK;
    for (size_t i = 0; i < l->n; i++) {
        if (l->entries[i].n == 0) {
            list_free(l);
            return mm2_error_set(err, MM2_CONFIG,
                                 "%s has an empty entry (\"%.*s\"); Connect 4.2 and later refuse "
                                 "empty values",
                                 key, SHOW_MAX, value);
        }
    }
    return MM2_OK;
}

/* ---- Java regex subset -> POSIX ERE ----------------------------------------------------- */

struct cset {
    bool has[128];
};

struct xl {
    const char *key;
    const struct list *l;
    const char *s;
    size_t len;
    struct mm2_error *err;
    char *out;
    size_t olen;
    size_t ocap;
    bool oom;
    int depth;
    size_t open[GROUP_MAX];
    bool alt_empty;  /* the current alternative has no element yet */
    size_t top_alts; /* top-level alternatives emitted */
    enum { PREV_NONE, PREV_ATOM, PREV_QUANT, PREV_ANCHOR } prev;
};

static void put(struct xl *x, const char *s, size_t n)
{
    if (x->oom)
        return;
    if (x->olen + n + 1 > x->ocap) {
        size_t cap = x->ocap == 0 ? 256 : x->ocap;
        char *p;

        while (cap < x->olen + n + 1)
            cap *= 2;
        if (cap > OUT_MAX) {
            x->oom = true;
            return;
        }
        p = realloc(x->out, cap);
        if (p == NULL) {
            x->oom = true;
            return;
        }
        x->out = p;
        x->ocap = cap;
    }
    memcpy(x->out + x->olen, s, n);
    x->olen += n;
    x->out[x->olen] = '\0';
}

static void puts_(struct xl *x, const char *s)
{
    put(x, s, strlen(s));
}

/* The entry the byte at pos of the joined pattern came from. */
static const struct entry *entry_at(const struct xl *x, size_t pos)
{
    const struct entry *e = &x->l->entries[0];

    for (size_t i = 1; i < x->l->n; i++)
        if (x->l->entries[i].off <= pos)
            e = &x->l->entries[i];
    return e;
}

/* A construct outside the subset: what Java would do cannot be reproduced exactly. */
static enum mm2_status unsupported(struct xl *x, size_t pos, const char *what, size_t whatlen)
{
    const struct entry *e = entry_at(x, pos);

    return mm2_error_set(x->err, MM2_CONFIG,
                         "%s: entry \"%.*s\" uses the Java construct \"%.*s\", which "
                         "mm2-offsets cannot evaluate exactly as Connect does; list topic "
                         "names or use the supported subset (" SUBSET ")",
                         x->key, (int)(e->n < SHOW_MAX ? e->n : SHOW_MAX), e->p,
                         (int)(whatlen < SHOW_MAX ? whatlen : SHOW_MAX), what);
}

/* Something java.util.regex.Pattern.compile refuses: Connect cannot start the connector. */
static enum mm2_status invalid(struct xl *x, size_t pos, const char *why)
{
    const struct entry *e = entry_at(x, pos);

    return mm2_error_set(x->err, MM2_CONFIG,
                         "%s: entry \"%.*s\" is not a valid Java regex (%s), so Connect cannot "
                         "compile it; fix the entry",
                         x->key, (int)(e->n < SHOW_MAX ? e->n : SHOW_MAX), e->p, why);
}

static enum mm2_status bad_char(struct xl *x, size_t pos)
{
    char what[8];

    snprintf(what, sizeof(what), "\\x%02X", (unsigned)(unsigned char)x->s[pos]);
    return unsupported(x, pos, what, strlen(what));
}

static bool is_alpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool is_printable(char c)
{
    return (unsigned char)c >= 0x20 && (unsigned char)c < 0x7f;
}

/* Java's predefined classes without UNICODE_CHARACTER_CLASS: \d [0-9], \w [a-zA-Z_0-9],
 * \s [ \t\n\x0B\f\r]; upper case is the complement. Returns false for any other letter. */
static bool predefined(char e, struct cset *cs)
{
    char lower = (char)(e >= 'A' && e <= 'Z' ? e - 'A' + 'a' : e);

    memset(cs, 0, sizeof(*cs));
    if (lower != 'd' && lower != 'w' && lower != 's')
        return false;
    for (int c = 0; c < 128; c++) {
        bool in = lower == 'd'   ? is_digit((char)c)
                  : lower == 'w' ? is_alpha((char)c) || is_digit((char)c) || c == '_'
                                 : is_java_space((char)c);

        cs->has[c] = (e == lower) ? in : !in;
    }
    return true;
}

/* "\" at s[pos]: a literal (*lit >= 0) or a predefined class (*lit = -1, *cs). */
static enum mm2_status escape(struct xl *x, size_t pos, int *lit, struct cset *cs)
{
    char e;

    if (pos + 1 >= x->len)
        return invalid(x, pos, "lone \"\\\" at the end");
    e = x->s[pos + 1];
    *lit = -1;
    if (predefined(e, cs))
        return MM2_OK;
    if (is_alpha(e) || is_digit(e))
        return unsupported(x, pos, x->s + pos, 2);
    if (!is_printable(e))
        return bad_char(x, pos + 1);
    *lit = (unsigned char)e; /* Java: "\" before a non-letter is that character */
    return MM2_OK;
}

/* Emits the topic-name characters of cs as one ERE atom (see the top of the file). */
static void emit_set(struct xl *x, const struct cset *cs)
{
    char buf[sizeof(TOPIC_CHARS) + 4];
    size_t n = 0;
    size_t all = sizeof(TOPIC_CHARS) - 1;

    for (size_t i = 0; i < all; i++)
        if (cs->has[(unsigned char)TOPIC_CHARS[i]])
            buf[n++] = TOPIC_CHARS[i];
    if (n == all) {
        puts_(x, ".");
    } else if (n == 0) {
        puts_(x, "[^");
        puts_(x, TOPIC_CHARS);
        puts_(x, "]");
    } else if (n == 1 && buf[0] == '.') {
        puts_(x, "\\.");
    } else if (n == 1) { /* a letter, digit, "_" or "-": literal outside brackets */
        put(x, buf, 1);
    } else {
        puts_(x, "[");
        put(x, buf, n);
        puts_(x, "]");
    }
}

/* The first element of an alternative. Top-level alternatives are written lazily, so that an
 * empty one (it matches only "", and no topic name is empty) is dropped. */
static void begin_element(struct xl *x)
{
    if (x->depth == 0 && x->alt_empty) {
        if (x->top_alts > 0)
            puts_(x, "|");
        x->top_alts++;
    }
    x->alt_empty = false;
}

/* One element of a class at s[*ip]: a literal (*lit) or a predefined class (*lit = -1). */
static enum mm2_status class_atom(struct xl *x, size_t *ip, bool first, int *lit, struct cset *cs)
{
    size_t i = *ip;
    char c = x->s[i];

    if (c == '\\') {
        enum mm2_status st = escape(x, i, lit, cs);

        if (st != MM2_OK)
            return st;
        *ip = i + 2;
        return MM2_OK;
    }
    if (c == '[')
        return unsupported(x, i, "[...[", 5);
    if (c == '&' && i + 1 < x->len && x->s[i + 1] == '&')
        return unsupported(x, i, "&&", 2);
    if (c == '-' && !first && !(i + 1 < x->len && x->s[i + 1] == ']'))
        return unsupported(x, i, x->s + i - 1, i + 1 < x->len ? 3 : 2);
    if (!is_printable(c))
        return bad_char(x, i);
    *lit = (unsigned char)c;
    *ip = i + 1;
    return MM2_OK;
}

/* [...] at s[*ip] into cs. */
static enum mm2_status parse_class(struct xl *x, size_t *ip, struct cset *cs)
{
    size_t open = *ip;
    size_t i = open + 1;
    bool neg = false;
    bool first = true;

    memset(cs, 0, sizeof(*cs));
    if (i < x->len && x->s[i] == '^') {
        neg = true;
        i++;
    }
    if (i < x->len && x->s[i] == ']')
        return unsupported(x, open, x->s + open, i + 1 - open); /* "[]" "[^]" */
    for (;;) {
        int lo;
        int hi;
        struct cset pre;
        bool dash_lit;
        enum mm2_status st;

        if (i >= x->len)
            return invalid(x, open, "a character class is not closed");
        if (x->s[i] == ']')
            break;
        dash_lit = x->s[i] == '-';
        st = class_atom(x, &i, first, &lo, &pre);
        if (st != MM2_OK)
            return st;
        first = false;
        if (lo < 0) {
            for (int c = 0; c < 128; c++)
                cs->has[c] = cs->has[c] || pre.has[c];
            continue;
        }
        if (dash_lit || i + 1 >= x->len || x->s[i] != '-' || x->s[i + 1] == ']') {
            cs->has[lo] = true;
            continue;
        }
        /* a range lo-hi; both ends literals, in order */
        i++;
        if (x->s[i] == '-' && lo > '-') /* "[a--]": Java reads a range down to "-" */
            return invalid(x, open, "a character range is illegal");
        if (x->s[i] == '-') /* "[+--]": a range up to "-"; write "\\-" */
            return unsupported(x, i - 1, x->s + i - 2, 3);
        st = class_atom(x, &i, false, &hi, &pre);
        if (st != MM2_OK)
            return st;
        if (hi < 0 || hi < lo)
            return invalid(x, open, "a character range is illegal");
        for (int c = lo; c <= hi; c++)
            cs->has[c] = true;
    }
    if (neg)
        for (int c = 0; c < 128; c++)
            cs->has[c] = !cs->has[c];
    *ip = i + 1;
    return MM2_OK;
}

/* A quantifier at s[*ip]: * + ? or {n}, then an optional lazy "?". {n,} and {n,m} never reach
 * here: ConfigDef splits list values at every comma, leaving "{n|m}", which Java refuses. */
static enum mm2_status quantifier(struct xl *x, size_t *ip)
{
    size_t i = *ip;
    size_t end = i + 1;
    char c = x->s[i];

    if (x->prev == PREV_NONE || (x->prev == PREV_QUANT && c != '{'))
        return invalid(x, i, c == '{' ? "illegal repetition" : "dangling quantifier");
    if (x->prev != PREV_ATOM)
        return unsupported(x, i, x->s + i - 1, 2); /* "^*", "$?", "a*{2}" */
    if (c == '{') {
        long n = 0;
        char buf[32];

        while (end < x->len && is_digit(x->s[end]) && n <= REPEAT_MAX)
            n = n * 10 + (x->s[end++] - '0');
        if (end == i + 1 || end >= x->len || x->s[end] != '}') {
            if (n > REPEAT_MAX)
                return unsupported(x, i, x->s + i, end - i);
            return invalid(x, i, "illegal repetition");
        }
        end++;
        if (n > REPEAT_MAX)
            return unsupported(x, i, x->s + i, end - i);
        snprintf(buf, sizeof(buf), "{%ld}", n);
        puts_(x, buf);
    } else {
        put(x, &c, 1);
    }
    if (end < x->len && x->s[end] == '+')
        return unsupported(x, i, x->s + i, end + 1 - i); /* possessive */
    if (end < x->len && x->s[end] == '?')
        end++; /* lazy: matches() accepts the same names */
    x->prev = PREV_QUANT;
    *ip = end;
    return MM2_OK;
}

static enum mm2_status translate(struct xl *x)
{
    size_t i = 0;
    enum mm2_status st;

    x->alt_empty = true;
    x->prev = PREV_NONE;
    puts_(x, "^(");
    while (i < x->len) {
        char c = x->s[i];
        struct cset cs;

        switch (c) {
        case '|':
            if (x->depth > 0) {
                if (x->alt_empty)
                    return unsupported(x, i, x->s + i - 1, 2); /* "(|" "||" */
                puts_(x, "|");
            }
            x->alt_empty = true;
            x->prev = PREV_NONE;
            i++;
            break;
        case '(':
            if (i + 1 < x->len && x->s[i + 1] == '?')
                return unsupported(x, i, "(?", 2);
            if (x->depth == GROUP_MAX)
                return unsupported(x, i, "(((...", 6);
            begin_element(x);
            puts_(x, "(");
            x->open[x->depth++] = i;
            x->alt_empty = true;
            x->prev = PREV_NONE;
            i++;
            break;
        case ')':
            if (x->depth == 0)
                return invalid(x, i, "unmatched closing \")\"");
            if (x->alt_empty)
                return unsupported(x, i, x->s + i - 1, 2); /* "()" "|)" */
            puts_(x, ")");
            x->depth--;
            x->alt_empty = false;
            x->prev = PREV_ATOM;
            i++;
            break;
        case '*':
        case '+':
        case '?':
        case '{':
            st = quantifier(x, &i);
            if (st != MM2_OK)
                return st;
            break;
        case '^':
        case '$':
            begin_element(x);
            put(x, &c, 1);
            x->prev = PREV_ANCHOR;
            i++;
            break;
        case '.':
            begin_element(x);
            puts_(x, ".");
            x->prev = PREV_ATOM;
            i++;
            break;
        default:
            if (c == '[') {
                st = parse_class(x, &i, &cs);
            } else if (c == '\\') {
                int lit;

                st = escape(x, i, &lit, &cs);
                if (st == MM2_OK && lit >= 0) {
                    memset(&cs, 0, sizeof(cs));
                    cs.has[lit] = true;
                }
                i += 2;
            } else if (is_printable(c)) {
                memset(&cs, 0, sizeof(cs));
                cs.has[(unsigned char)c] = true;
                st = MM2_OK;
                i++;
            } else {
                st = bad_char(x, i);
            }
            if (st != MM2_OK)
                return st;
            begin_element(x);
            emit_set(x, &cs);
            x->prev = PREV_ATOM;
            break;
        }
    }
    if (x->depth > 0)
        return invalid(x, x->open[x->depth - 1], "a group is not closed");
    puts_(x, ")$");
    return MM2_OK;
}

/* MirrorUtils.compilePatternList(getList(key)) for value, as a POSIX regex in *p. */
static enum mm2_status compile_list(const char *key, const char *value, enum rules rules,
                                    struct pattern *p, struct mm2_error *err)
{
    struct list l;
    struct xl x;
    enum mm2_status st;

    memset(p, 0, sizeof(*p));
    st = parse_list(key, value, rules, &l, err);
    if (st != MM2_OK)
        return st;
    if (l.n == 0) /* the empty list: a null Pattern, which matches nothing */
        return MM2_OK;
    memset(&x, 0, sizeof(x));
    x.key = key;
    x.l = &l;
    x.s = l.joined;
    x.len = l.len;
    x.err = err;
    st = translate(&x);
    if (st == MM2_OK && x.oom) /* OUT_MAX is not reachable from a value within the cap */
        st = mm2_error_set(err, MM2_UNEXPECTED, "%s: out of memory translating the regex", key);
    if (st == MM2_OK && x.top_alts > 0) {
        int rc = regcomp(&p->re, x.out, REG_EXTENDED | REG_NOSUB);

        if (rc != 0) {
            char why[128];

            regerror(rc, &p->re, why, sizeof(why));
            st = mm2_error_set(err, rc == REG_ESPACE ? MM2_UNEXPECTED : MM2_CONFIG,
                               "%s: regcomp refused the translated regex: %s", key, why);
        } else {
            p->present = true;
        }
    }
    free(x.out);
    list_free(&l);
    return st;
}

static bool pattern_matches(const struct pattern *p, const char *topic)
{
    return p->present && regexec(&p->re, topic, 0, NULL, 0) == 0;
}

/* ---- ReplicationPolicy ------------------------------------------------------------------ */

/* A topic name, or a part of one, or the policy's alias; NULL p is Java's null. */
struct sv {
    const char *p;
    size_t n;
};

static bool sv_eq(struct sv a, struct sv b)
{
    return a.p != NULL && b.p != NULL && a.n == b.n && memcmp(a.p, b.p, a.n) == 0;
}

static const char *find(const char *s, size_t n, const char *needle, size_t k)
{
    for (size_t i = 0; k <= n && i <= n - k; i++)
        if (memcmp(s + i, needle, k) == 0)
            return s + i;
    return NULL;
}

/* DefaultReplicationPolicy.topicSource: parts = separatorPattern.split(topic) (trailing empty
 * strings removed); null when fewer than 2 parts, else parts[0]. */
static struct sv default_source(const struct mm2_mirror *m, struct sv t)
{
    size_t k = strlen(m->sep);
    const char *first = find(t.p, t.n, m->sep, k);
    const char *pos;
    const char *end = t.p + t.n;
    struct sv none = {NULL, 0};

    if (first == NULL)
        return none;
    pos = first + k;
    for (;;) {
        const char *next = find(pos, (size_t)(end - pos), m->sep, k);
        const char *piece_end = next != NULL ? next : end;

        if (piece_end > pos)
            return (struct sv){t.p, (size_t)(first - t.p)};
        if (next == NULL)
            return none;
        pos = next + k;
    }
}

/* DefaultReplicationPolicy.upstreamTopic: topic.substring(source.length() + separator.length()). */
static struct sv default_upstream(const struct mm2_mirror *m, struct sv t)
{
    struct sv src = default_source(m, t);
    size_t skip = src.n + strlen(m->sep);

    if (src.p == NULL)
        return src;
    return (struct sv){t.p + skip, t.n - skip};
}

/* IdentityReplicationPolicy.looksLikeHeartbeat. */
static bool looks_like_heartbeat(struct sv t)
{
    return ends_with(t.p, t.n, HEARTBEATS);
}

static struct sv topic_source(const struct mm2_mirror *m, struct sv t)
{
    if (m->identity && !looks_like_heartbeat(t))
        return (struct sv){m->identity_source, strlen(m->identity_source)};
    return default_source(m, t);
}

static struct sv upstream_topic(const struct mm2_mirror *m, struct sv t)
{
    if (m->identity && !looks_like_heartbeat(t))
        return t;
    return default_upstream(m, t);
}

/* ReplicationPolicy.originalTopic, iterated (each step is shorter or stops). */
static struct sv original_topic(const struct mm2_mirror *m, struct sv t)
{
    for (;;) {
        struct sv up = upstream_topic(m, t);

        if (up.p == NULL || sv_eq(up, t))
            return t;
        t = up;
    }
}

/* ReplicationPolicy.isHeartbeatsTopic. */
static bool is_heartbeats(const struct mm2_mirror *m, struct sv t)
{
    struct sv o = original_topic(m, t);

    return o.n == strlen(HEARTBEATS) && memcmp(o.p, HEARTBEATS, o.n) == 0;
}

/* ReplicationPolicy.isInternalTopic with DefaultReplicationPolicy's isMM2InternalTopic. */
static bool is_internal(const struct mm2_mirror *m, struct sv t)
{
    bool kafka = starts_with(t.p, "__") || starts_with(t.p, ".");

    if (m->rules == RULES_3)
        return ends_with(t.p, t.n, m->internal_suffix) || kafka ||
               ends_with(t.p, t.n, "-internal") || ends_with(t.p, t.n, ".internal");
    return (starts_with(t.p, "mm2") && ends_with(t.p, t.n, m->internal_suffix)) ||
           ends_with(t.p, t.n, m->checkpoints_suffix) || kafka;
}

/* MirrorSourceConnector.isCycle, iterated. */
static bool is_cycle(const struct mm2_mirror *m, struct sv t)
{
    struct sv target = {m->target, strlen(m->target)};

    for (;;) {
        struct sv src = topic_source(m, t);
        struct sv up;

        if (src.p == NULL)
            return false;
        if (sv_eq(src, target))
            return true;
        up = upstream_topic(m, t);
        if (up.p == NULL || sv_eq(up, t))
            return false;
        t = up;
    }
}

/* ---- building a mirror from the config, and the public calls ------------------------------ */

static enum mm2_status read_policy(const cJSON *config, struct mm2_mirror *m, struct mm2_error *err)
{
    char cls[256];
    const char *sep;
    const char *raw;
    const char *flag;
    const char *isep;
    bool valid_flag;
    enum mm2_status st;

    st = get_trimmed(config, "topic.filter.class", PKG "DefaultTopicFilter", cls, sizeof(cls), err);
    if (st == MM2_OK && strcmp(cls, PKG "DefaultTopicFilter") != 0)
        st = mm2_error_set(err, MM2_CONFIG,
                           "topic.filter.class \"%.*s\" is not one mm2-offsets can evaluate; "
                           "use " PKG "DefaultTopicFilter with topics / topics.exclude",
                           SHOW_MAX, cls);
    if (st != MM2_OK)
        return st;
    st = get_trimmed(config, "replication.policy.class", PKG "DefaultReplicationPolicy", cls,
                     sizeof(cls), err);
    if (st != MM2_OK)
        return st;
    if (strcmp(cls, PKG "IdentityReplicationPolicy") == 0)
        m->identity = true;
    else if (strcmp(cls, PKG "DefaultReplicationPolicy") != 0)
        return mm2_error_set(err, MM2_CONFIG,
                             "replication.policy.class \"%.*s\" is not one mm2-offsets can "
                             "evaluate; use " PKG "DefaultReplicationPolicy or " PKG
                             "IdentityReplicationPolicy",
                             SHOW_MAX, cls);

    st = get_trimmed(config, "source.cluster.alias", NULL, m->source, sizeof(m->source), err);
    if (st == MM2_OK)
        st = get_trimmed(config, "target.cluster.alias", "target", m->target, sizeof(m->target),
                         err);
    if (st == MM2_OK) /* IdentityReplicationPolicy.configure keeps the original, untrimmed */
        st = get_value(config, "source.cluster.alias", &raw, err);
    if (st != MM2_OK)
        return st;
    if (raw == NULL || strlen(raw) > MM2_MIRROR_ALIAS_MAX)
        return mm2_error_set(err, MM2_CONFIG, "source.cluster.alias is longer than %d bytes",
                             MM2_MIRROR_ALIAS_MAX);
    memcpy(m->identity_source, raw, strlen(raw) + 1);

    /* DefaultReplicationPolicy.configure reads the original strings: the separator untrimmed,
     * and, only when a separator is given, the internal separator flag with
     * Boolean.parseBoolean (untrimmed: " true" is false there). MirrorConnectorConfig still
     * validates the flag as a ConfigDef boolean, so a value that is not true/false is refused. */
    st = get_bool(config, "replication.policy.internal.topic.separator.enabled", true, &valid_flag,
                  err);
    if (st == MM2_OK)
        st = get_value(config, "replication.policy.internal.topic.separator.enabled", &flag, err);
    if (st == MM2_OK)
        st = get_value(config, "replication.policy.separator", &sep, err);
    if (st != MM2_OK)
        return st;
    if (sep == NULL) {
        sep = ".";
        flag = NULL;
    }
    if (sep[0] == '\0')
        return mm2_error_set(err, MM2_CONFIG,
                             "replication.policy.separator is empty, which mm2-offsets cannot "
                             "evaluate exactly as Connect does; use a non-empty separator");
    if (strlen(sep) > MM2_MIRROR_SEPARATOR_MAX)
        return mm2_error_set(err, MM2_CONFIG,
                             "replication.policy.separator is longer than %d bytes",
                             MM2_MIRROR_SEPARATOR_MAX);
    memcpy(m->sep, sep, strlen(sep) + 1);
    isep = (flag == NULL || equals_ignore_case(flag, strlen(flag), "true")) ? m->sep : ".";
    snprintf(m->internal_suffix, sizeof(m->internal_suffix), "%sinternal", isep);
    snprintf(m->checkpoints_suffix, sizeof(m->checkpoints_suffix), "%scheckpoints%sinternal", isep,
             isep);
    return MM2_OK;
}

static enum mm2_status read_filter(const cJSON *config, struct mm2_mirror *m, struct mm2_error *err)
{
    const char *include;
    const char *exclude;
    const char *exclude_key = "topics.exclude";
    enum mm2_status st;

    st = get_value(config, "topics", &include, err);
    if (st == MM2_OK)
        st = get_value(config, "topics.exclude", &exclude, err);
    if (st != MM2_OK)
        return st;
    if (m->rules == RULES_3) {
        const char *blacklist;

        /* ConfigUtils.translateDeprecatedConfigs: topics.blacklist when topics.exclude is
         * absent (removed in 4.0, when it became an unknown key). */
        st = get_value(config, "topics.blacklist", &blacklist, err);
        if (st != MM2_OK)
            return st;
        if (exclude == NULL && blacklist != NULL) {
            exclude = blacklist;
            exclude_key = "topics.blacklist";
        }
        if (exclude == NULL)
            exclude = ".*[\\-\\.]internal, .*\\.replica, __.*";
    } else if (exclude == NULL) {
        exclude = "mm2.*\\.internal, .*\\.replica, __.*";
    }
    st = compile_list("topics", include != NULL ? include : ".*", m->rules, &m->include, err);
    if (st == MM2_OK)
        st = compile_list(exclude_key, exclude, m->rules, &m->exclude, err);
    return st;
}

enum mm2_status mm2_mirror_new(const void *config, const char *kafka_version,
                               struct mm2_mirror **out, struct mm2_error *err)
{
    const cJSON *cfg = config;
    struct mm2_mirror *m;
    enum mm2_status st;

    *out = NULL;
    if (cfg == NULL || !cJSON_IsObject(cfg))
        return mm2_error_set(err, MM2_CONFIG, "the connector config must be a JSON object");
    m = calloc(1, sizeof(*m));
    if (m == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    st = parse_version(kafka_version, &m->rules, err);
    if (st == MM2_OK)
        st = get_bool(cfg, "enabled", true, &m->enabled, err);
    m->heartbeats = true;
    if (st == MM2_OK && m->rules != RULES_3)
        st = get_bool(cfg, "heartbeats.replication.enabled", true, &m->heartbeats, err);
    if (st == MM2_OK)
        st = read_policy(cfg, m, err);
    if (st == MM2_OK)
        st = read_filter(cfg, m, err);
    if (st != MM2_OK) {
        mm2_mirror_free(m);
        return st;
    }
    *out = m;
    return MM2_OK;
}

void mm2_mirror_free(struct mm2_mirror *m)
{
    if (m == NULL)
        return;
    if (m->include.present)
        regfree(&m->include.re);
    if (m->exclude.present)
        regfree(&m->exclude.re);
    free(m);
}

bool mm2_mirror_replicates(const struct mm2_mirror *m, const char *topic)
{
    struct sv t;
    bool filter;

    if (m == NULL || !m->enabled || !mm2_topic_valid(topic, NULL, 0))
        return false;
    t = (struct sv){topic, strlen(topic)};
    /* DefaultTopicFilter: included(topic) && !excluded(topic) */
    filter = pattern_matches(&m->include, topic) && !pattern_matches(&m->exclude, topic);
    return (filter || (m->heartbeats && is_heartbeats(m, t))) && !is_internal(m, t) &&
           !is_cycle(m, t);
}

bool mm2_mirror_enabled(const struct mm2_mirror *m)
{
    return m != NULL && m->enabled;
}

int mm2_mirror_target_topic(const struct mm2_mirror *m, const char *topic, char *out, size_t outlen)
{
    int n;

    if (m == NULL || topic == NULL || out == NULL || outlen == 0)
        return -1;
    /* IdentityReplicationPolicy keeps the name, except for heartbeats (Default's format). */
    if (m->identity && !looks_like_heartbeat((struct sv){topic, strlen(topic)}))
        n = snprintf(out, outlen, "%s", topic);
    else
        n = snprintf(out, outlen, "%s%s%s", m->source, m->sep, topic);
    if (n < 0 || (size_t)n >= outlen) {
        out[0] = '\0';
        return -1;
    }
    return 0;
}

const char *mm2_mirror_source_alias(const struct mm2_mirror *m)
{
    return m->source;
}
