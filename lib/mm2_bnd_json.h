/*
 * mm2_bnd_json: a boundary classification (mm2_boundary.h) in an export artifact, written and
 * read back strictly (internal to lib/, beside mm2_pj.h).
 *
 *   "boundary": {"class": "behind", "k": 3, "tail_records": 8, "matches": 1,
 *                "tail_first": 93, "tail_last": 100, "source_first": 86, "source_last": 93,
 *                "resume_at": 94, "window_first": 20, "window_last": 115,
 *                "mismatch_target": null, "mismatch_target_digest": "",
 *                "mismatch_source": null, "mismatch_source_digest": "", "why": ""}
 *
 * Offsets are null where the result has -1. Digests are "" or MM2_BND_DIGEST_LEN lowercase hex
 * digits (never record bytes). The reader checks what the classes promise: a placed class has
 * its source offsets and resume_at, ahead and behind a k above 0, the others no resume_at.
 */
#ifndef MM2_BND_JSON_H
#define MM2_BND_JSON_H

#include <cjson/cJSON.h>

#include "mm2_boundary.h"
#include "mm2_err.h"
#include "mm2_pj.h"

void mm2_bnd_json_to(struct mm2_pj *b, cJSON *parent, const char *key,
                     const struct mm2_bnd_result *r);
/* MM2_OK, or MM2_CONFIG naming "<where>.<key>" and what is wrong. */
enum mm2_status mm2_bnd_json_from(const cJSON *o, const char *where, struct mm2_bnd_result *out,
                                  struct mm2_error *err);

struct mm2_pentry;

/* A plan entry's boundary members: "boundary" (class name or ""), "group_c", "duplicates",
 * "gap". The reader takes an entry without them (a plan from before the proof) as "", c, 0, 0,
 * and checks group_c >= c, gap > 0 only below group_c, duplicates >= 0. */
void mm2_bnd_json_entry_to(struct mm2_pj *b, cJSON *o, const struct mm2_pentry *e);
enum mm2_status mm2_bnd_json_entry_from(const cJSON *o, const char *where, struct mm2_pentry *e,
                                        struct mm2_error *err);

#endif
