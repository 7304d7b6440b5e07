/*
 * mm2_artifact: the JSON files mm2-offsets writes and reads back (export, plan, backup, verify
 * report, check report, preflight report; docs/ARCHITECTURE.md §3.4). Each carries a "kind" with a
 * version and, as its last member, "digest": the SHA-256 of the artifact's compact canonical text
 * (mm2_json_print) without that member. A file edited by hand no longer matches its digest and is
 * refused.
 *
 * Contract: never prints, never exits. Trees are the caller's (cJSON_Delete).
 */
#ifndef MM2_ARTIFACT_H
#define MM2_ARTIFACT_H

#include <cjson/cJSON.h>

#include "mm2_digest.h"
#include "mm2_err.h"
#include "mm2_file.h"
#include "mm2_json.h"
#include "mm2_limits.h"

#define MM2_KIND_EXPORT "mm2kit.export/v1"
#define MM2_KIND_PLAN "mm2kit.plan/v1"
/* v2: the migration they belong to in a "migration" object (mm2_binding_add_json). */
#define MM2_KIND_BACKUP "mm2kit.backup/v2"
#define MM2_KIND_VERIFY "mm2kit.verify/v2"
#define MM2_KIND_CHECK "mm2kit.check/v2"
/* preflight's findings, with the migration they were found for (mm2_binding_add_json). */
#define MM2_KIND_PREFLIGHT "mm2kit.preflight/v1"
/* resume's record of the approval it acted on, written before MM2 starts (jobs/resume.c). */
#define MM2_KIND_RESUME "mm2kit.resume/v1"
/* accept's acceptance list, each line with its evidence, and the migration (lib/mm2_accept.h). */
#define MM2_KIND_ACCEPT "mm2kit.accept/v1"

/* Replaces any "digest" member of tree by the digest of the rest, appended last, and copies it
 * into digest. MM2_UNEXPECTED when tree cannot be printed (a number that is not an integer). */
enum mm2_status mm2_artifact_seal(cJSON *tree, char digest[MM2_DIGEST_TEXT_LEN + 1],
                                  struct mm2_error *err);

/* Seals tree and writes it, pretty, to path (atomically). An artifact that would not pass the
 * readers' caps (MM2_ARTIFACT_MAX bytes, MM2_JSON_VALUES_MAX values) is not written: MM2_CONFIG,
 * since what mm2-offsets writes it must read back. */
enum mm2_status mm2_artifact_write(const char *what, const char *path, cJSON *tree,
                                   char digest[MM2_DIGEST_TEXT_LEN + 1], struct mm2_error *err);

/* An artifact too large to hold as one tree (an export of 50,000 partitions: about 110 bytes a
 * JSON value, 1.45 million values), written in pieces: open, then the root's members in order
 * through o->js (mm2_json_stream_member, _array, _element, _array_end; never "digest"), then
 * close. The file holds what mm2_artifact_write writes of the whole tree, byte for byte, and its
 * digest is the same: close appends "digest" last, taken over the compact text streamed, checks
 * the readers' caps (the same refusal as mm2_artifact_write) and only then renames the file into
 * place; on any failure nothing is left at path. abort, after open, removes what was written. */
struct mm2_artifact_out {
    struct mm2_json_stream js;
    struct mm2_file_out file;
    struct mm2_digest_ctx md;
    const char *what, *path;
    size_t bytes; /* of the pretty text */
    bool open, sealed;
};
enum mm2_status mm2_artifact_out_open(struct mm2_artifact_out *o, const char *what,
                                      const char *path, struct mm2_error *err);
enum mm2_status mm2_artifact_out_close(struct mm2_artifact_out *o,
                                       char digest[MM2_DIGEST_TEXT_LEN + 1], struct mm2_error *err);
void mm2_artifact_out_abort(struct mm2_artifact_out *o);

/* The pretty text of a sealed tree (malloc'd), for stdout. NULL when out of memory. */
char *mm2_artifact_text(const cJSON *tree);

/* Reads path (at most MM2_ARTIFACT_MAX bytes and MM2_JSON_VALUES_MAX values, both checked before
 * parsing), checks that it is a JSON object whose "kind" is kind and whose digest matches its
 * content; *out is the tree (digest member included), digest its digest. MM2_CONFIG otherwise,
 * naming the file and what is wrong: an artifact of another kind is named as what it is ("this
 * is a backup of a connector's offsets (kind ...), not a plan: give the plan that 'mm2-offsets
 * plan' wrote"). */
enum mm2_status mm2_artifact_read(const char *what, const char *path, const char *kind, cJSON **out,
                                  char digest[MM2_DIGEST_TEXT_LEN + 1], struct mm2_error *err);

/* The same checks on a tree already parsed (the fuzzer and the tests use it). */
enum mm2_status mm2_artifact_verify(const char *what, const cJSON *tree, const char *kind,
                                    char digest[MM2_DIGEST_TEXT_LEN + 1], struct mm2_error *err);

#endif
