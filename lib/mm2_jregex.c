/*
 * mm2_jregex: a subset of Java regex as an anchored POSIX ERE (see mm2_jregex.h).
 *
 * The subset, as java.util.regex.Pattern (Java 17) reads it; everything else is refused with
 * MM2_CONFIG, never guessed:
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
#include "mm2_jregex.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SUBSET "literals, \\., ., [...], \\d, \\w, \\s, *, +, ?, {n}, |, (...), ^, $"
#define SHOW_MAX 80         /* characters of an entry quoted in a message */
#define GROUP_MAX 64        /* deepest group nesting translated */
#define REPEAT_MAX 255      /* largest {n} (POSIX guarantees RE_DUP_MAX >= 255) */
#define OUT_MAX (16u << 20) /* translated regex cap; 68 bytes per input byte at most */

/* The characters of a Kafka topic name (Topic.validate), in the order they are emitted: "-"
 * last so that it is literal inside a bracket expression. */
static const char TOPIC_CHARS[] =
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-";

bool mm2_jregex_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

struct cset {
    bool has[128];
};

struct xl {
    const char *key;
    const struct mm2_jregex_entry *entries; /* where each entry starts, for messages */
    size_t nentries;
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

/* The entry the byte at pos of the joined text came from (the whole text without entries). */
static struct mm2_jregex_entry entry_at(const struct xl *x, size_t pos)
{
    struct mm2_jregex_entry e = {0, x->len};

    for (size_t i = 0; i < x->nentries; i++)
        if (i == 0 || x->entries[i].off <= pos)
            e = x->entries[i];
    return e;
}

/* A construct outside the subset: what Java would do cannot be reproduced exactly. */
static enum mm2_status unsupported(struct xl *x, size_t pos, const char *what, size_t whatlen)
{
    struct mm2_jregex_entry e = entry_at(x, pos);

    return mm2_error_set(x->err, MM2_CONFIG,
                         "%s: entry \"%.*s\" uses the Java construct \"%.*s\", which "
                         "mm2-offsets cannot evaluate exactly as Connect does; list topic "
                         "names or use the supported subset (" SUBSET ")",
                         x->key, (int)(e.n < SHOW_MAX ? e.n : SHOW_MAX), x->s + e.off,
                         (int)(whatlen < SHOW_MAX ? whatlen : SHOW_MAX), what);
}

/* Something java.util.regex.Pattern.compile refuses: Connect cannot start the connector. */
static enum mm2_status invalid(struct xl *x, size_t pos, const char *why)
{
    struct mm2_jregex_entry e = entry_at(x, pos);

    return mm2_error_set(x->err, MM2_CONFIG,
                         "%s: entry \"%.*s\" is not a valid Java regex (%s), so Connect cannot "
                         "compile it; fix the entry",
                         x->key, (int)(e.n < SHOW_MAX ? e.n : SHOW_MAX), x->s + e.off, why);
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
                                 : mm2_jregex_space((char)c);

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

/* A quantifier at s[*ip]: * + ? or {n}, then an optional lazy "?". {n,} and {n,m} are refused
 * as outside the subset; in a list value they never occur: ConfigDef splits it at every comma,
 * leaving "{n|m}", which Java refuses. */
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
            if (end > i + 1 && end < x->len && x->s[end] == ',') /* "{n," */
                return unsupported(x, i, x->s + i, end + 1 - i);
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

/* A character set at s[*ip]: a class, an escape or a literal, emitted as one atom. */
static enum mm2_status char_set(struct xl *x, size_t *ip)
{
    size_t i = *ip;
    char c = x->s[i];
    struct cset cs;
    enum mm2_status st;

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
    *ip = i;
    return MM2_OK;
}

/* The whole text, element by element, as "^(...)$". */
static enum mm2_status translate(struct xl *x)
{
    size_t i = 0;
    enum mm2_status st;

    x->alt_empty = true;
    x->prev = PREV_NONE;
    puts_(x, "^(");
    while (i < x->len) {
        char c = x->s[i];

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
            st = char_set(x, &i);
            if (st != MM2_OK)
                return st;
            break;
        }
    }
    if (x->depth > 0)
        return invalid(x, x->open[x->depth - 1], "a group is not closed");
    puts_(x, ")$");
    return MM2_OK;
}

enum mm2_status mm2_jregex_to_ere(const char *key, const char *text, size_t len,
                                  const struct mm2_jregex_entry *entries, size_t nentries,
                                  char **out, struct mm2_error *err)
{
    struct xl x;
    enum mm2_status st;

    *out = NULL;
    memset(&x, 0, sizeof(x));
    x.key = key != NULL ? key : "regex";
    x.entries = entries;
    x.nentries = entries != NULL ? nentries : 0;
    x.s = text;
    x.len = len;
    x.err = err;
    st = translate(&x);
    if (st == MM2_OK && x.oom) /* OUT_MAX is not reachable from a value within the cap */
        st = mm2_error_set(err, MM2_UNEXPECTED, "%s: out of memory translating the regex", x.key);
    if (st == MM2_OK && x.top_alts > 0) {
        *out = x.out;
        return MM2_OK;
    }
    free(x.out);
    return st;
}
