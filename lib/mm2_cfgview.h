/*
 * mm2_cfgview: a connector config as artifacts record it, and the one comparison of two configs
 * that names the keys that differ (docs/ARCHITECTURE.md §3.4).
 *
 * The view of a config holds every key with its value as written, but a secret one
 * (mm2_secret_name) whose value is not a single config-provider reference: that value is
 * replaced by MM2_CFGVIEW_SECRET and a short digest of the key and value, so a view never holds
 * a secret, yet two views tell whether a secret changed. A reference such as
 * "${env:SOURCE_JAAS}" is no secret and is kept as written, and compared as written, never
 * resolved. Exports and plans carry the view beside the config's digest, so that a refusal can
 * say "tasks.max ("2" in the plan, "4" in connector.json)" instead of two digests.
 *
 * Contract:
 *   - Never prints, never exits, never talks to the network.
 *   - Views are cJSON objects of strings; the caller owns what *_make returns (cJSON_Delete).
 *   - mm2_cfgview_diff writes one bounded phrase; values are quoted, cut at MM2_CFGVIEW_SHOW
 *     characters, control characters written as '?'.
 */
#ifndef MM2_CFGVIEW_H
#define MM2_CFGVIEW_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "mm2_err.h"

/* What a masked secret value starts with; 16 hex digits of SHA-256 over key, NUL, value follow. */
#define MM2_CFGVIEW_SECRET "<secret sha256:"
/* Characters of a value a diff quotes. */
#define MM2_CFGVIEW_SHOW 40
/* Keys a diff names before it says how many more differ. */
#define MM2_CFGVIEW_NAMED 4

/* The view of config (a string map) with "name" set to name, as Connect stores it. */
enum mm2_status mm2_cfgview_make(const cJSON *config, const char *name, cJSON **out,
                                 struct mm2_error *err);

/* A view read from an artifact at `where` ("plan.connector.config"): an object of strings whose
 * secret keys hold no plain value. MM2_CONFIG naming the first bad member. */
enum mm2_status mm2_cfgview_check(const cJSON *view, const char *where, struct mm2_error *err);

/* Compares view a (named a_name, e.g. "the plan") with view b ("connector.json"), both made by
 * mm2_cfgview_make: returns how many keys differ, and writes into buf (always terminated) the
 * first MM2_CFGVIEW_NAMED of them in key order, e.g.
 *   tasks.max ("2" in the plan, "4" in connector.json), topics.exclude (not in the plan,
 *   ".*\.internal" in connector.json), source.cluster.sasl.jaas.config (a secret: differs)
 * followed by ", and 3 more keys" when there are more; "" when none differ. A NULL a (an
 * artifact of a version that recorded no view) is 0 with buf "". */
size_t mm2_cfgview_diff(const cJSON *a, const char *a_name, const cJSON *b, const char *b_name,
                        char *buf, size_t len);

/* The phrase every refusal about a changed config uses: "in 2 keys: tasks.max (...), ..."
 * (mm2_cfgview_diff, at most 360 characters of it) when a_view is not NULL and the views differ,
 * else "sha256:... in A, sha256:... in B", with ", A recorded only its digest" when a_view is NULL.
 */
void mm2_cfgview_explain(const cJSON *a_view, const char *a_digest, const char *a_name,
                         const cJSON *b_view, const char *b_digest, const char *b_name, char *buf,
                         size_t len);

#endif
