/*
 * mm2_jregex: a subset of java.util.regex.Pattern translated to an anchored POSIX extended
 * regex that accepts exactly the Kafka topic names Pattern.matcher(name).matches() accepts. It
 * is how mm2_topics evaluates topics and topics.exclude as DefaultTopicFilter does
 * (MirrorUtils.compilePatternList joins the entries with "|" and compiles them as one Pattern).
 *
 * Contract:
 *   - Never prints, never exits, keeps no state.
 *   - The subset (the .c lists it) is translated exactly on the topic-name alphabet
 *     [a-zA-Z0-9._-]; the result says nothing about other strings. Everything else is refused
 *     with MM2_CONFIG, never guessed: a construct outside the subset ("uses the Java construct
 *     ...") or what Pattern.compile refuses ("is not a valid Java regex (...)"), the message
 *     naming the key and the entry it is in. MM2_UNEXPECTED only when memory runs out.
 *   - The output always compiles with regcomp(REG_EXTENDED | REG_NOSUB) (the fuzz target
 *     tests/fuzz/fuzz_jregex.c holds it to that).
 */
#ifndef MM2_JREGEX_H
#define MM2_JREGEX_H

#include <stdbool.h>
#include <stddef.h>

#include "mm2_err.h"

/* One entry of a joined list: where it starts in the joined text and how long it is. */
struct mm2_jregex_entry {
    size_t off;
    size_t n;
};

/* Java's \s without UNICODE_CHARACTER_CLASS: [ \t\n\x0B\f\r]. */
bool mm2_jregex_space(char c);

/* Translates text[0..len) (the entries joined with "|"; entries[0..nentries) say where each
 * starts, for messages, or NULL and 0 when text is one entry) to "^(...)$" in *out, malloc'd,
 * for the caller to free. An empty alternative at the top level is dropped (it matches only "",
 * and no topic name is empty): when none is left *out is NULL and MM2_OK is returned, a pattern
 * no topic matches. key names the config key in messages. On failure *out is NULL. */
enum mm2_status mm2_jregex_to_ere(const char *key, const char *text, size_t len,
                                  const struct mm2_jregex_entry *entries, size_t nentries,
                                  char **out, struct mm2_error *err);

#endif
