/*
 * mm2_plan_json: the small JSON builders and strict readers that mm2_export.c and mm2_plan.c
 * share, and the builders of the artifacts mm2-offsets seals (backup, verify report).
 *
 * Builders never fail loudly: an allocation failure, or an integer beyond +-2^53, sets b->oom and
 * the caller checks it once at the end. Readers return MM2_OK or MM2_CONFIG with err naming
 * "<where>.<key>" and what was expected.
 */
#ifndef MM2_PLAN_JSON_H
#define MM2_PLAN_JSON_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mm2_digest.h"
#include "mm2_err.h"

struct pj {
    cJSON *root;
    bool oom;
};

cJSON *pj_obj(struct pj *b, cJSON *parent, const char *key);
cJSON *pj_arr(struct pj *b, cJSON *parent, const char *key);
/* A new object appended to array arr, or NULL (b->oom set). */
cJSON *pj_item(struct pj *b, cJSON *arr);
void pj_str(struct pj *b, cJSON *parent, const char *key, const char *v);
void pj_int(struct pj *b, cJSON *parent, const char *key, int64_t v);
void pj_bool(struct pj *b, cJSON *parent, const char *key, bool v);
void pj_int_or_null(struct pj *b, cJSON *parent, const char *key, int64_t v, bool is_null);
/* A copy of v under key; nothing when v is NULL. */
void pj_copy(struct pj *b, cJSON *parent, const char *key, const cJSON *v);
/* [v[0], v[1]], each null when equal to none. */
void pj_pair(struct pj *b, cJSON *parent, const char *key, const int64_t v[2], int64_t none);

/* err->code becomes MM2_CONFIG (artifact content is configuration); returns MM2_CONFIG. */
enum mm2_status pj_config(struct mm2_error *err);

enum mm2_status pj_get_buf(const cJSON *o, const char *key, const char *where, char *buf,
                           size_t len, struct mm2_error *err);
enum mm2_status pj_get_topic(const cJSON *o, const char *key, const char *where, char **out,
                             struct mm2_error *err);
enum mm2_status pj_get_int(const cJSON *o, const char *key, const char *where, int64_t min,
                           int64_t max, int64_t *out, struct mm2_error *err);
enum mm2_status pj_get_int_or_null(const cJSON *o, const char *key, const char *where, int64_t min,
                                   int64_t max, int64_t null_value, int64_t *out,
                                   struct mm2_error *err);
enum mm2_status pj_get_bool(const cJSON *o, const char *key, const char *where, bool *out,
                            struct mm2_error *err);
/* An array of exactly two offsets (integers >= 0) or nulls (stored as none). */
enum mm2_status pj_get_pair(const cJSON *o, const char *key, const char *where, int64_t none,
                            int64_t out[2], struct mm2_error *err);
/* An optional connector config view (mm2_cfgview_check): *out a copy the caller frees, or NULL
 * when the member is absent (an artifact written before views were recorded). */
enum mm2_status pj_get_view(const cJSON *o, const char *key, const char *where, cJSON **out,
                            struct mm2_error *err);
enum mm2_status pj_get_digest(const cJSON *o, const char *key, const char *where,
                              char out[MM2_DIGEST_TEXT_LEN + 1], struct mm2_error *err);

#endif
