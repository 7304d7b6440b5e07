/* mm2_connect_offsets: the answer of GET /connectors/{name}/offsets as mm2-offsets reads it
 * (see mm2_connect.h: mm2_connect_offsets_parse, mm2_source_offsets_find and _free). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm2_connect.h"
#include "mm2_json.h"

#define OFFSETS_MAX 10000000UL

void mm2_source_offsets_free(struct mm2_source_offsets *o)
{
    if (o == NULL)
        return;
    for (size_t i = 0; i < o->n; i++) {
        free(o->v[i].cluster);
        free(o->v[i].topic);
    }
    free(o->v);
    o->v = NULL;
    o->n = 0;
}

static int cmp_offset(const void *a, const void *b)
{
    const struct mm2_source_offset *x = a, *y = b;
    int r = strcmp(x->cluster, y->cluster);

    if (r == 0)
        r = strcmp(x->topic, y->topic);
    if (r == 0)
        r = (x->partition > y->partition) - (x->partition < y->partition);
    return r;
}

/* One entry {"partition": {...}, "offset": {...}} into *e (strings malloc'd). */
static enum mm2_status parse_entry(const cJSON *item, size_t i, struct mm2_source_offset *e,
                                   struct mm2_error *err)
{
    char where[64];
    const cJSON *part, *off, *cl, *tp, *pn, *ov;
    int64_t p, o;

    (void)snprintf(where, sizeof(where), "offsets[%zu]", i);
    part = mm2_json_get(item, "partition", MM2_JSON_OBJECT, where, err);
    off = part != NULL ? mm2_json_get(item, "offset", MM2_JSON_OBJECT | MM2_JSON_NULL, where, err)
                       : NULL;
    if (cJSON_IsNull(off))
        return MM2_OK; /* a partition whose offset was reset: no offset, e->topic stays NULL */
    (void)snprintf(where, sizeof(where), "offsets[%zu].partition", i);
    cl = off != NULL ? mm2_json_get(part, "cluster", MM2_JSON_STRING, where, err) : NULL;
    tp = cl != NULL ? mm2_json_get(part, "topic", MM2_JSON_STRING, where, err) : NULL;
    pn = tp != NULL ? mm2_json_get(part, "partition", MM2_JSON_INT, where, err) : NULL;
    (void)snprintf(where, sizeof(where), "offsets[%zu].offset", i);
    ov = pn != NULL ? mm2_json_get(off, "offset", MM2_JSON_INT, where, err) : NULL;
    if (ov == NULL)
        return MM2_UNEXPECTED;
    (void)mm2_json_int64(pn, &p);
    (void)mm2_json_int64(ov, &o);
    if (p < 0 || p > INT32_MAX || o < 0)
        return mm2_error_set(err, MM2_UNEXPECTED,
                             "offsets[%zu]: partition %lld or offset %lld "
                             "is out of range",
                             i, (long long)p, (long long)o);
    e->cluster = strdup(cl->valuestring);
    e->topic = strdup(tp->valuestring);
    e->partition = (int32_t)p;
    e->offset = o;
    if (e->cluster == NULL || e->topic == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    return MM2_OK;
}

enum mm2_status mm2_connect_offsets_parse(const char *body, size_t len,
                                          struct mm2_source_offsets *out, struct mm2_error *err)
{
    cJSON *root = mm2_json_parse_strict(body, len);
    const cJSON *arr, *item;
    size_t n, i = 0;
    enum mm2_status st = MM2_OK;

    memset(out, 0, sizeof(*out));
    if (root == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "the offsets answer is not JSON");
    arr = mm2_json_get(root, "offsets", MM2_JSON_ARRAY, "answer", err);
    if (arr == NULL) {
        cJSON_Delete(root);
        return MM2_UNEXPECTED;
    }
    n = (size_t)cJSON_GetArraySize(arr);
    if (n > OFFSETS_MAX) {
        cJSON_Delete(root);
        return mm2_error_set(err, MM2_UNEXPECTED, "the offsets answer has more than %lu entries",
                             OFFSETS_MAX);
    }
    out->v = n > 0 ? calloc(n, sizeof(*out->v)) : NULL;
    if (n > 0 && out->v == NULL) {
        cJSON_Delete(root);
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    }
    cJSON_ArrayForEach(item, arr)
    {
        st = parse_entry(item, i++, &out->v[out->n], err);
        if (out->v[out->n].topic != NULL || out->v[out->n].cluster != NULL)
            out->n++; /* kept: parsed, or half-parsed and to be freed */
        if (st != MM2_OK)
            break;
    }
    cJSON_Delete(root);
    if (st != MM2_OK) {
        mm2_source_offsets_free(out);
        return st;
    }
    if (out->n > 1)
        qsort(out->v, out->n, sizeof(*out->v), cmp_offset);
    for (i = 1; i < out->n; i++) {
        if (cmp_offset(&out->v[i - 1], &out->v[i]) == 0) {
            st = mm2_error_set(err, MM2_UNEXPECTED,
                               "the offsets answer lists %.100s/%.200s-%d twice", out->v[i].cluster,
                               out->v[i].topic, (int)out->v[i].partition);
            mm2_source_offsets_free(out);
            return st;
        }
    }
    return MM2_OK;
}

const struct mm2_source_offset *mm2_source_offsets_find(const struct mm2_source_offsets *o,
                                                        const char *cluster, const char *topic,
                                                        int32_t partition)
{
    struct mm2_source_offset key = {.cluster = (char *)(uintptr_t)cluster,
                                    .topic = (char *)(uintptr_t)topic,
                                    .partition = partition};

    if (o->n == 0)
        return NULL;
    return bsearch(&key, o->v, o->n, sizeof(*o->v), cmp_offset);
}
