/*
 * mm2_json: files and JSON for mm2-offsets' artifacts and Connect's answers, on cJSON.
 *
 * Contract:
 *   - Never prints, never exits. Errors fill the caller's struct mm2_error.
 *   - Kafka offsets are int64, but cJSON keeps numbers as double: only integers within
 *     +-MM2_JSON_INT_MAX (2^53 - 1) are exact, so mm2_json_int64 refuses anything else (a
 *     fraction, an exponent that is not an integer, a larger magnitude) instead of rounding.
 *   - mm2_json_print is this project's one JSON printer: members in insertion order, integers
 *     printed as integers (cJSON prints 1e+15 for 10^15, which Connect would not take as a long),
 *     strings escaped the same way every time. Its compact form is the canonical text that
 *     digests are taken over; the pretty form puts each object or array holding only scalars
 *     (or arrays of scalars) on one line, so a plan with 10,000 partitions stays one line per
 *     partition. A number that is not an exact integer is refused: artifacts carry none.
 *   - Returned strings are malloc'd; the caller frees them with free().
 */
#ifndef MM2_JSON_H
#define MM2_JSON_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mm2_err.h"
#include "mm2_limits.h"

#define MM2_JSON_INT_MAX 9007199254740991LL /* 2^53 - 1 */

/* Parses a file read with mm2_file_read; MM2_CONFIG naming the path and the byte offset of the
 * first error, or when it holds more than MM2_JSON_VALUES_MAX values (counted before parsing).
 * *out is freed by the caller with cJSON_Delete. */
enum mm2_status mm2_json_parse_file(const char *what, const char *path, size_t max, cJSON **out,
                                    struct mm2_error *err);

/* The values (cJSON nodes) that text[0..len) parses into, counted without parsing: the root,
 * one per ',' outside strings, and the first element of each container that has one (exact
 * for valid JSON; for anything else a count of what cJSON would allocate before failing, at
 * most). What parsing costs in memory follows it: a 64-byte node per value, plus its key and
 * string. */
size_t mm2_json_values(const char *text, size_t len);

/* body[0..len) as JSON, with nothing but whitespace after the value (cJSON_ParseWithLength
 * alone would ignore trailing garbage). NULL when it is not. */
cJSON *mm2_json_parse_strict(const char *body, size_t len);

/* The values of a parsed tree: item and everything inside it (what mm2_json_values counts in
 * its text). */
size_t mm2_json_nodes(const cJSON *item);

/* The JSON text of item (see the contract), or NULL when out of memory or when item holds a
 * number that is not an exact integer within +-MM2_JSON_INT_MAX. */
char *mm2_json_print(const cJSON *item, bool pretty);

/* mm2_json_print of an object without its first member named skip (NULL: none; the objects
 * inside keep theirs): the text an artifact's digest is taken over, without copying the tree. */
char *mm2_json_print_without(const cJSON *item, const char *skip, bool pretty);

/* An object printed member by member, each member or array element a small tree printed by
 * mm2_json_print and given to put in both forms: the pretty text at its place in the whole and
 * the compact one. Joined, they are what mm2_json_print prints of the whole tree, pretty and
 * compact, as long as the root holds a member that is an object (the artifacts' roots all do:
 * the root is always printed over several lines) and every streamed array holds only objects.
 * So an artifact of any size is written and digested without its whole tree in memory.
 *
 * Usage: begin; then members (member, or array + elements + array_end) in order; then end.
 * Nothing fails loudly: out of memory, a number that is not an exact integer, a call out of
 * order or a put returning non-zero sets bad, and every later call does nothing. values counts
 * the values printed (mm2_json_nodes of the whole). */
struct mm2_json_stream {
    int (*put)(void *arg, const char *pretty, size_t plen, const char *compact, size_t clen);
    void *arg;
    size_t values;
    size_t members, elements;
    bool in_array;
    bool bad;
};
void mm2_json_stream_begin(struct mm2_json_stream *s);
void mm2_json_stream_member(struct mm2_json_stream *s, const char *key, const cJSON *item);
void mm2_json_stream_array(struct mm2_json_stream *s, const char *key);
void mm2_json_stream_element(struct mm2_json_stream *s, const cJSON *item);
void mm2_json_stream_array_end(struct mm2_json_stream *s);
void mm2_json_stream_end(struct mm2_json_stream *s);

/* A cJSON number for v, or NULL when |v| > MM2_JSON_INT_MAX or out of memory. */
cJSON *mm2_json_int(int64_t v);

/* True, with *out set, when item is a number holding an exact integer within
 * +-MM2_JSON_INT_MAX. */
bool mm2_json_int64(const cJSON *item, int64_t *out);

/* Type masks for mm2_json_get. */
#define MM2_JSON_STRING 0x01
#define MM2_JSON_INT 0x02 /* a number that mm2_json_int64 accepts */
#define MM2_JSON_OBJECT 0x04
#define MM2_JSON_ARRAY 0x08
#define MM2_JSON_BOOL 0x10
#define MM2_JSON_NULL 0x20

/* The member key of object obj when its type is in mask, else NULL with err set to
 * MM2_UNEXPECTED and "<where>.<key> is missing" or "<where>.<key> is not <types>".
 * obj that is not an object gives "<where> is not an object". */
const cJSON *mm2_json_get(const cJSON *obj, const char *key, int mask, const char *where,
                          struct mm2_error *err);

/* A deep copy of item in which every object's members are sorted by key (strcmp), or NULL when
 * out of memory. Two configs that differ only in member order print the same. */
cJSON *mm2_json_sorted(const cJSON *item);

#endif
