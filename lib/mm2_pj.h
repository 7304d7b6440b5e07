/*
 * mm2_pj ("plan JSON"): the small JSON builders and strict readers that mm2_export.c, mm2_plan.c,
 * mm2_bnd_json.c, mm2_connector.c, mm2_backup.c and the commands' reports
 * share, and the builders of the artifacts mm2-offsets seals (backup, verify report).
 *
 * Builders never fail loudly: an allocation failure, or an integer beyond +-2^53, sets b->oom and
 * the caller checks it once at the end. Readers return MM2_OK or MM2_CONFIG with err naming
 * "<where>.<key>" and what was expected.
 */
#ifndef MM2_PJ_H
#define MM2_PJ_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mm2_digest.h"
#include "mm2_err.h"

struct mm2_pj {
    cJSON *root;
    bool oom;
};

cJSON *mm2_pj_obj(struct mm2_pj *b, cJSON *parent, const char *key);
cJSON *mm2_pj_arr(struct mm2_pj *b, cJSON *parent, const char *key);
/* A new object appended to array arr, or NULL (b->oom set). */
cJSON *mm2_pj_item(struct mm2_pj *b, cJSON *arr);
void mm2_pj_str(struct mm2_pj *b, cJSON *parent, const char *key, const char *v);
void mm2_pj_int(struct mm2_pj *b, cJSON *parent, const char *key, int64_t v);
void mm2_pj_bool(struct mm2_pj *b, cJSON *parent, const char *key, bool v);
void mm2_pj_int_or_null(struct mm2_pj *b, cJSON *parent, const char *key, int64_t v, bool is_null);
/* A copy of v under key; nothing when v is NULL. */
void mm2_pj_copy(struct mm2_pj *b, cJSON *parent, const char *key, const cJSON *v);
/* [v[0], v[1]], each null when equal to none. */
void mm2_pj_pair(struct mm2_pj *b, cJSON *parent, const char *key, const int64_t v[2],
                 int64_t none);

/* err->code becomes MM2_CONFIG (artifact content is configuration); returns MM2_CONFIG. */
enum mm2_status mm2_pj_config(struct mm2_error *err);

enum mm2_status mm2_pj_get_buf(const cJSON *o, const char *key, const char *where, char *buf,
                               size_t len, struct mm2_error *err);
enum mm2_status mm2_pj_get_topic(const cJSON *o, const char *key, const char *where, char **out,
                                 struct mm2_error *err);
enum mm2_status mm2_pj_get_int(const cJSON *o, const char *key, const char *where, int64_t min,
                               int64_t max, int64_t *out, struct mm2_error *err);
enum mm2_status mm2_pj_get_int_or_null(const cJSON *o, const char *key, const char *where,
                                       int64_t min, int64_t max, int64_t null_value, int64_t *out,
                                       struct mm2_error *err);
enum mm2_status mm2_pj_get_bool(const cJSON *o, const char *key, const char *where, bool *out,
                                struct mm2_error *err);
/* An array of exactly two offsets (integers >= 0) or nulls (stored as none). */
enum mm2_status mm2_pj_get_pair(const cJSON *o, const char *key, const char *where, int64_t none,
                                int64_t out[2], struct mm2_error *err);
/* An optional connector config view (mm2_cfgview_check): *out a copy the caller frees, or NULL
 * when the member is absent (an artifact written before views were recorded). */
enum mm2_status mm2_pj_get_view(const cJSON *o, const char *key, const char *where, cJSON **out,
                                struct mm2_error *err);
enum mm2_status mm2_pj_get_digest(const cJSON *o, const char *key, const char *where,
                                  char out[MM2_DIGEST_TEXT_LEN + 1], struct mm2_error *err);

#endif
