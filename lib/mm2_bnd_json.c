/* mm2_bnd_json: a boundary classification in JSON (see mm2_bnd_json.h). */
#include "mm2_bnd_json.h"

#include <stdio.h>
#include <string.h>

#include "mm2_json.h"
#include "mm2_plan.h"

/* The offsets of a result, by JSON name: one list for the writer and the reader. */
#define OFFSETS(X)                                                                                 \
    X(tail_first, "tail_first")                                                                    \
    X(tail_last, "tail_last")                                                                      \
    X(src_first, "source_first")                                                                   \
    X(src_last, "source_last")                                                                     \
    X(resume_at, "resume_at")                                                                      \
    X(window_first, "window_first")                                                                \
    X(window_last, "window_last")                                                                  \
    X(mismatch_target, "mismatch_target")                                                          \
    X(mismatch_source, "mismatch_source")

void mm2_bnd_json_to(struct mm2_pj *b, cJSON *parent, const char *key,
                     const struct mm2_bnd_result *r)
{
    const char *name = mm2_bnd_class_name(r->cls);
    cJSON *o = mm2_pj_obj(b, parent, key);

    if (o == NULL)
        return;
    mm2_pj_str(b, o, "class", name != NULL ? name : "");
    if (r->k != 0)
        mm2_pj_int(b, o, "k", (int64_t)r->k);
    mm2_pj_int(b, o, "tail_records", (int64_t)r->tail_len);
    mm2_pj_int(b, o, "matches", (int64_t)r->matches);
#define WRITE(f, name)                                                                             \
    if (r->f >= 0)                                                                                 \
        mm2_pj_int(b, o, name, r->f);
    OFFSETS(WRITE)
#undef WRITE
    if (r->mismatch_target_digest[0] != '\0')
        mm2_pj_str(b, o, "mismatch_target_digest", r->mismatch_target_digest);
    if (r->mismatch_source_digest[0] != '\0')
        mm2_pj_str(b, o, "mismatch_source_digest", r->mismatch_source_digest);
    if (r->why[0] != '\0')
        mm2_pj_str(b, o, "why", r->why);
}

static bool has(const cJSON *o, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(o, key) != NULL;
}

static bool digest_ok(const char *s)
{
    size_t n = strlen(s);

    if (n != 0 && n != MM2_BND_DIGEST_LEN)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
            return false;
    return true;
}

static enum mm2_status check(const struct mm2_bnd_result *r, const char *where,
                             struct mm2_error *err)
{
    bool placed = r->cls == MM2_BND_ALIGNED || r->cls == MM2_BND_AHEAD || r->cls == MM2_BND_BEHIND;

    if (placed && (r->src_first < 0 || r->src_last < r->src_first || r->resume_at < 0 ||
                   r->matches != 1 || r->tail_len == 0))
        return mm2_error_set(err, MM2_CONFIG,
                             "%s: class %s needs one match, its source offsets and resume_at",
                             where, mm2_bnd_class_name(r->cls));
    if (!placed && r->resume_at >= 0)
        return mm2_error_set(err, MM2_CONFIG, "%s: class %s has no resume_at", where,
                             mm2_bnd_class_name(r->cls));
    if ((r->cls == MM2_BND_AHEAD || r->cls == MM2_BND_BEHIND) != (r->k > 0))
        return mm2_error_set(err, MM2_CONFIG, "%s: k must be above 0 for ahead and behind only",
                             where);
    if (r->cls == MM2_BND_BEHIND && r->resume_at != r->src_last + 1)
        return mm2_error_set(err, MM2_CONFIG, "%s: behind resumes right after source_last", where);
    if (r->tail_len > MM2_BND_TAIL_MAX || (r->tail_len == 0) != (r->tail_first < 0) ||
        r->tail_last < r->tail_first)
        return mm2_error_set(err, MM2_CONFIG, "%s: tail_records, tail_first and tail_last disagree",
                             where);
    return MM2_OK;
}

enum mm2_status mm2_bnd_json_from(const cJSON *o, const char *where, struct mm2_bnd_result *out,
                                  struct mm2_error *err)
{
    char cls[16];
    int64_t v;

    memset(out, 0, sizeof(*out));
    if (mm2_pj_get_buf(o, "class", where, cls, sizeof(cls), err) != MM2_OK)
        return MM2_CONFIG;
    if (!mm2_bnd_class_parse(cls, &out->cls))
        return mm2_error_set(err, MM2_CONFIG,
                             "%s.class must be aligned, ahead, behind, unplaced, ambiguous, gone, "
                             "empty or unread, got \"%.16s\"",
                             where, cls);
    /* What is empty is left out (k 0, offsets none, digests and why ""): a 50,000-partition
     * export must stay within the artifact caps (mm2_limits.h). null is read as none too. */
    v = 0;
    if (has(o, "k") && mm2_pj_get_int(o, "k", where, 0, INT64_C(1) << 53, &v, err) != MM2_OK)
        return MM2_CONFIG;
    out->k = (uint64_t)v;
    if (mm2_pj_get_int(o, "tail_records", where, 0, MM2_BND_TAIL_MAX, &v, err) != MM2_OK)
        return MM2_CONFIG;
    out->tail_len = (size_t)v;
    if (mm2_pj_get_int(o, "matches", where, 0, 1000000, &v, err) != MM2_OK)
        return MM2_CONFIG;
    out->matches = (size_t)v;
#define READ(f, name)                                                                              \
    out->f = -1;                                                                                   \
    if (has(o, name) &&                                                                            \
        mm2_pj_get_int_or_null(o, name, where, 0, INT64_C(1) << 53, -1, &out->f, err) != MM2_OK)   \
        return MM2_CONFIG;
    OFFSETS(READ)
#undef READ
    if ((has(o, "mismatch_target_digest") &&
         mm2_pj_get_buf(o, "mismatch_target_digest", where, out->mismatch_target_digest,
                        sizeof(out->mismatch_target_digest), err) != MM2_OK) ||
        (has(o, "mismatch_source_digest") &&
         mm2_pj_get_buf(o, "mismatch_source_digest", where, out->mismatch_source_digest,
                        sizeof(out->mismatch_source_digest), err) != MM2_OK) ||
        (has(o, "why") &&
         mm2_pj_get_buf(o, "why", where, out->why, sizeof(out->why), err) != MM2_OK))
        return MM2_CONFIG;
    if (!digest_ok(out->mismatch_target_digest) || !digest_ok(out->mismatch_source_digest))
        return mm2_error_set(err, MM2_CONFIG,
                             "%s: a mismatch digest is \"\" or %d lowercase hex digits", where,
                             MM2_BND_DIGEST_LEN);
    return check(out, where, err);
}

void mm2_bnd_json_entry_to(struct mm2_pj *b, cJSON *o, const struct mm2_pentry *e)
{
    mm2_pj_str(b, o, "boundary", e->boundary);
    mm2_pj_int(b, o, "group_c", e->group_c);
    mm2_pj_int(b, o, "duplicates", e->duplicates);
    mm2_pj_int(b, o, "gap", e->gap);
}

enum mm2_status mm2_bnd_json_entry_from(const cJSON *o, const char *where, struct mm2_pentry *e,
                                        struct mm2_error *err)
{
    enum mm2_bnd_class cls;

    e->group_c = e->c;
    if (cJSON_GetObjectItemCaseSensitive(o, "boundary") == NULL)
        return MM2_OK;
    if (mm2_pj_get_buf(o, "boundary", where, e->boundary, sizeof(e->boundary), err) != MM2_OK ||
        mm2_pj_get_int(o, "group_c", where, 0, MM2_JSON_INT_MAX, &e->group_c, err) != MM2_OK ||
        mm2_pj_get_int(o, "duplicates", where, 0, MM2_JSON_INT_MAX, &e->duplicates, err) !=
            MM2_OK ||
        mm2_pj_get_int(o, "gap", where, 0, MM2_JSON_INT_MAX, &e->gap, err) != MM2_OK)
        return MM2_CONFIG;
    if (e->boundary[0] != '\0' && !mm2_bnd_class_parse(e->boundary, &cls))
        return mm2_error_set(err, MM2_CONFIG, "%s.boundary is not a boundary class", where);
    if (e->group_c < e->c || (e->gap > 0) != (e->group_c > e->c) ||
        (e->gap > 0 && e->duplicates > 0))
        return mm2_error_set(err, MM2_CONFIG,
                             "%s: group_c, gap and duplicates disagree with c (a gap starts MM2 "
                             "below the group's C, duplicates are past it)",
                             where);
    return MM2_OK;
}
