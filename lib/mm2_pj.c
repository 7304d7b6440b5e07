/* mm2_pj: JSON builders and strict readers for the artifacts (see mm2_pj.h). */
#include "mm2_pj.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm2_cfgview.h"
#include "mm2_json.h"
#include "mm2_parse.h"

static void add(struct mm2_pj *b, cJSON *parent, const char *key, cJSON *item)
{
    if (item == NULL || parent == NULL || !cJSON_AddItemToObject(parent, key, item)) {
        cJSON_Delete(item);
        b->oom = true;
    }
}

cJSON *mm2_pj_obj(struct mm2_pj *b, cJSON *parent, const char *key)
{
    cJSON *o = cJSON_CreateObject();

    add(b, parent, key, o);
    return b->oom ? NULL : o;
}

cJSON *mm2_pj_arr(struct mm2_pj *b, cJSON *parent, const char *key)
{
    cJSON *o = cJSON_CreateArray();

    add(b, parent, key, o);
    return b->oom ? NULL : o;
}

cJSON *mm2_pj_item(struct mm2_pj *b, cJSON *arr)
{
    cJSON *e = cJSON_CreateObject();

    if (e == NULL || arr == NULL || !cJSON_AddItemToArray(arr, e)) {
        cJSON_Delete(e);
        b->oom = true;
        return NULL;
    }
    return e;
}

void mm2_pj_str(struct mm2_pj *b, cJSON *parent, const char *key, const char *v)
{
    add(b, parent, key, cJSON_CreateString(v != NULL ? v : ""));
}

void mm2_pj_int(struct mm2_pj *b, cJSON *parent, const char *key, int64_t v)
{
    add(b, parent, key, mm2_json_int(v));
}

void mm2_pj_bool(struct mm2_pj *b, cJSON *parent, const char *key, bool v)
{
    add(b, parent, key, cJSON_CreateBool(v));
}

void mm2_pj_copy(struct mm2_pj *b, cJSON *parent, const char *key, const cJSON *v)
{
    if (v != NULL)
        add(b, parent, key, cJSON_Duplicate(v, true));
}

void mm2_pj_int_or_null(struct mm2_pj *b, cJSON *parent, const char *key, int64_t v, bool is_null)
{
    add(b, parent, key, is_null ? cJSON_CreateNull() : mm2_json_int(v));
}

void mm2_pj_pair(struct mm2_pj *b, cJSON *parent, const char *key, const int64_t v[2], int64_t none)
{
    cJSON *a = cJSON_CreateArray();

    for (int i = 0; i < 2 && a != NULL; i++) {
        cJSON *e = v[i] == none ? cJSON_CreateNull() : mm2_json_int(v[i]);
        if (e == NULL || !cJSON_AddItemToArray(a, e)) {
            cJSON_Delete(e);
            cJSON_Delete(a);
            a = NULL;
        }
    }
    add(b, parent, key, a);
}

enum mm2_status mm2_pj_config(struct mm2_error *err)
{
    if (err != NULL)
        err->code = MM2_CONFIG;
    return MM2_CONFIG;
}

enum mm2_status mm2_pj_get_buf(const cJSON *o, const char *key, const char *where, char *buf,
                               size_t len, struct mm2_error *err)
{
    const cJSON *v = mm2_json_get(o, key, MM2_JSON_STRING, where, err);
    size_t n;

    if (v == NULL)
        return mm2_pj_config(err);
    n = strlen(v->valuestring);
    if (n >= len)
        return mm2_error_set(err, MM2_CONFIG, "%s.%s is longer than %zu bytes", where, key,
                             len - 1);
    memcpy(buf, v->valuestring, n + 1);
    return MM2_OK;
}

enum mm2_status mm2_pj_get_topic(const cJSON *o, const char *key, const char *where, char **out,
                                 struct mm2_error *err)
{
    const cJSON *v = mm2_json_get(o, key, MM2_JSON_STRING, where, err);
    char why[160];

    if (v == NULL)
        return mm2_pj_config(err);
    if (!mm2_parse_topic_valid(v->valuestring, why, sizeof(why)))
        return mm2_error_set(err, MM2_CONFIG, "%s.%s is not a topic name: %s", where, key, why);
    *out = strdup(v->valuestring);
    if (*out == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    return MM2_OK;
}

enum mm2_status mm2_pj_get_int(const cJSON *o, const char *key, const char *where, int64_t min,
                               int64_t max, int64_t *out, struct mm2_error *err)
{
    const cJSON *v = mm2_json_get(o, key, MM2_JSON_INT, where, err);
    int64_t i;

    if (v == NULL)
        return mm2_pj_config(err);
    (void)mm2_json_int64(v, &i);
    if (i < min || i > max)
        return mm2_error_set(err, MM2_CONFIG, "%s.%s is %lld, outside %lld..%lld", where, key,
                             (long long)i, (long long)min, (long long)max);
    *out = i;
    return MM2_OK;
}

enum mm2_status mm2_pj_get_int_or_null(const cJSON *o, const char *key, const char *where,
                                       int64_t min, int64_t max, int64_t null_value, int64_t *out,
                                       struct mm2_error *err)
{
    const cJSON *v = mm2_json_get(o, key, MM2_JSON_INT | MM2_JSON_NULL, where, err);

    if (v == NULL)
        return mm2_pj_config(err);
    if (cJSON_IsNull(v)) {
        *out = null_value;
        return MM2_OK;
    }
    return mm2_pj_get_int(o, key, where, min, max, out, err);
}

enum mm2_status mm2_pj_get_bool(const cJSON *o, const char *key, const char *where, bool *out,
                                struct mm2_error *err)
{
    const cJSON *v = mm2_json_get(o, key, MM2_JSON_BOOL, where, err);

    if (v == NULL)
        return mm2_pj_config(err);
    *out = cJSON_IsTrue(v);
    return MM2_OK;
}

enum mm2_status mm2_pj_get_pair(const cJSON *o, const char *key, const char *where, int64_t none,
                                int64_t out[2], struct mm2_error *err)
{
    const cJSON *v = mm2_json_get(o, key, MM2_JSON_ARRAY, where, err);
    const cJSON *e;
    int i = 0;

    if (v == NULL)
        return mm2_pj_config(err);
    if (cJSON_GetArraySize(v) != 2)
        return mm2_error_set(err, MM2_CONFIG, "%s.%s must hold the two reads, [first, second]",
                             where, key);
    cJSON_ArrayForEach(e, v)
    {
        int64_t x;
        if (cJSON_IsNull(e)) {
            out[i++] = none;
            continue;
        }
        if (!mm2_json_int64(e, &x) || x < 0)
            return mm2_error_set(err, MM2_CONFIG,
                                 "%s.%s[%d] is not an offset (an integer >= 0) "
                                 "or null",
                                 where, key, i);
        out[i++] = x;
    }
    return MM2_OK;
}

enum mm2_status mm2_pj_get_digest(const cJSON *o, const char *key, const char *where,
                                  char out[MM2_DIGEST_TEXT_LEN + 1], struct mm2_error *err)
{
    const cJSON *v = mm2_json_get(o, key, MM2_JSON_STRING, where, err);

    if (v == NULL)
        return mm2_pj_config(err);
    if (!mm2_digest_valid(v->valuestring))
        return mm2_error_set(err, MM2_CONFIG, "%s.%s is not a sha256:<64 hex> digest", where, key);
    memcpy(out, v->valuestring, MM2_DIGEST_TEXT_LEN + 1);
    return MM2_OK;
}

enum mm2_status mm2_pj_get_view(const cJSON *o, const char *key, const char *where, cJSON **out,
                                struct mm2_error *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    char at[160];

    *out = NULL;
    if (v == NULL)
        return MM2_OK;
    (void)snprintf(at, sizeof(at), "%s.%s", where, key);
    if (mm2_cfgview_check(v, at, err) != MM2_OK)
        return mm2_pj_config(err);
    *out = cJSON_Duplicate(v, true);
    return *out != NULL ? MM2_OK : mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
}
