/* mm2_json: JSON files and canonical JSON (see mm2_json.h). */
#include "mm2_json.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm2_file.h"

enum mm2_status mm2_json_parse_file(const char *what, const char *path, size_t max, cJSON **out,
                                    struct mm2_error *err)
{
    const char *end = NULL;
    char *buf;
    size_t len;
    enum mm2_status st = mm2_file_read(what, path, max, &buf, &len, err);

    *out = NULL;
    if (st != MM2_OK)
        return st;
    if (mm2_json_values(buf, len) > MM2_JSON_VALUES_MAX) {
        size_t n = mm2_json_values(buf, len);
        free(buf);
        return mm2_error_set(
            err, MM2_CONFIG,
            "%s file %s holds %zu JSON values, above the cap of %ld (" MM2_LIMITS_WHY
            "); check that it is the right file",
            what, path, n, MM2_JSON_VALUES_MAX);
    }
    /* len + 1: with require_null_terminated, cJSON wants the NUL inside the length. */
    *out = cJSON_ParseWithLengthOpts(buf, len + 1, &end, true);
    if (*out == NULL) {
        size_t at = end != NULL && end >= buf ? (size_t)(end - buf) : 0;
        free(buf);
        return mm2_error_set(err, MM2_CONFIG, "%s file %s is not valid JSON (near byte %zu)", what,
                             path, at);
    }
    free(buf);
    return MM2_OK;
}

bool mm2_json_int64(const cJSON *item, int64_t *out)
{
    double d;

    if (!cJSON_IsNumber(item))
        return false;
    d = item->valuedouble;
    if (!isfinite(d) || d != floor(d) || d > (double)MM2_JSON_INT_MAX ||
        d < -(double)MM2_JSON_INT_MAX)
        return false;
    *out = (int64_t)d;
    return true;
}

cJSON *mm2_json_int(int64_t v)
{
    if (v > MM2_JSON_INT_MAX || v < -MM2_JSON_INT_MAX)
        return NULL;
    return cJSON_CreateNumber((double)v);
}

size_t mm2_json_values(const char *text, size_t len)
{
    size_t n = 1;
    bool in_string = false, opened = false;

    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (in_string) {
            if (c == '\\')
                i++; /* the escaped character, a quote included, is inside the string */
            else if (c == '"')
                in_string = false;
            continue;
        }
        if ((unsigned char)c <= ' ')
            continue; /* what cJSON skips as whitespace: every control character too */
        if (opened && c != ']' && c != '}')
            n++; /* the first element of a container; each later one follows a ',' */
        opened = c == '[' || c == '{';
        if (c == ',')
            n++;
        else if (c == '"')
            in_string = true;
    }
    return n;
}

size_t mm2_json_nodes(const cJSON *item)
{
    size_t n = 1;
    const cJSON *c;

    cJSON_ArrayForEach(c, item) n += mm2_json_nodes(c);
    return n;
}

/* ---- the printer ------------------------------------------------------------------------ */

struct sb {
    char *p;
    size_t len;
    size_t cap;
    bool bad; /* out of memory, or a number that is not an exact integer */
};

static void sb_put(struct sb *b, const char *s, size_t n)
{
    if (b->bad)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap == 0 ? 256 : b->cap;
        char *p;
        while (cap < b->len + n + 1)
            cap *= 2;
        p = realloc(b->p, cap);
        if (p == NULL) {
            b->bad = true;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

static void sb_puts(struct sb *b, const char *s)
{
    sb_put(b, s, strlen(s));
}

static void put_string(struct sb *b, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    const char *run = s;

    sb_put(b, "\"", 1);
    for (; *s != '\0'; s++) {
        unsigned char c = (unsigned char)*s;
        const char *esc = NULL;
        char u[7];
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        sb_put(b, run, (size_t)(s - run));
        switch (c) {
        case '"':
            esc = "\\\"";
            break;
        case '\\':
            esc = "\\\\";
            break;
        case '\n':
            esc = "\\n";
            break;
        case '\r':
            esc = "\\r";
            break;
        case '\t':
            esc = "\\t";
            break;
        default:
            memcpy(u, "\\u00", 4);
            u[4] = hex[c >> 4];
            u[5] = hex[c & 0x0f];
            u[6] = '\0';
            esc = u;
            break;
        }
        sb_puts(b, esc);
        run = s + 1;
    }
    sb_put(b, run, (size_t)(s - run));
    sb_put(b, "\"", 1);
}

/* A container printed on one line in the pretty form: only scalars, or arrays of scalars. */
static bool flat(const cJSON *item, int depth)
{
    const cJSON *c;

    if (!cJSON_IsObject(item) && !cJSON_IsArray(item))
        return true;
    if (depth > 1)
        return false;
    cJSON_ArrayForEach(c, item)
    {
        if (cJSON_IsObject(c) || (cJSON_IsArray(c) && !flat(c, depth + 1)))
            return false;
    }
    return true;
}

static void indent(struct sb *b, int level)
{
    sb_put(b, "\n", 1);
    for (int i = 0; i < level; i++)
        sb_put(b, "  ", 2);
}

/* skip: the name of a member left out of this object (its first one of that name, as
 * cJSON_DeleteItemFromObjectCaseSensitive would remove; not of the objects inside), or NULL. */
static void put_item(struct sb *b, const cJSON *item, bool pretty, int level, const char *skip)
{
    int64_t v;
    char num[32];

    if (cJSON_IsNull(item)) {
        sb_puts(b, "null");
    } else if (cJSON_IsTrue(item)) {
        sb_puts(b, "true");
    } else if (cJSON_IsFalse(item)) {
        sb_puts(b, "false");
    } else if (cJSON_IsNumber(item)) {
        if (!mm2_json_int64(item, &v)) {
            b->bad = true;
            return;
        }
        (void)snprintf(num, sizeof(num), "%lld", (long long)v);
        sb_puts(b, num);
    } else if (cJSON_IsString(item)) {
        put_string(b, item->valuestring != NULL ? item->valuestring : "");
    } else if (cJSON_IsObject(item) || cJSON_IsArray(item)) {
        bool obj = cJSON_IsObject(item);
        bool one_line = !pretty || flat(item, 0);
        const cJSON *c;
        const cJSON *left_out =
            obj && skip != NULL ? cJSON_GetObjectItemCaseSensitive(item, skip) : NULL;
        bool first = true;
        sb_puts(b, obj ? "{" : "[");
        cJSON_ArrayForEach(c, item)
        {
            if (c == left_out)
                continue;
            if (!first)
                sb_puts(b, pretty && one_line ? ", " : ",");
            first = false;
            if (!one_line)
                indent(b, level + 1);
            if (obj) {
                put_string(b, c->string != NULL ? c->string : "");
                sb_puts(b, pretty ? ": " : ":");
            }
            put_item(b, c, pretty, level + 1, NULL);
        }
        if (!one_line && !first)
            indent(b, level);
        sb_puts(b, obj ? "}" : "]");
    } else {
        b->bad = true; /* raw or invalid items are never printed */
    }
}

char *mm2_json_print(const cJSON *item, bool pretty)
{
    return mm2_json_print_without(item, NULL, pretty);
}

char *mm2_json_print_without(const cJSON *item, const char *skip, bool pretty)
{
    struct sb b = {0};

    put_item(&b, item, pretty, 0, skip);
    if (pretty)
        sb_put(&b, "\n", 1);
    if (b.bad) {
        free(b.p);
        return NULL;
    }
    return b.p;
}

/* ---- the printer, in pieces ------------------------------------------------------------- */

/* Both forms of one piece: the pretty one at its level, the compact one for the digest. */
static void stream_emit(struct mm2_json_stream *s, struct sb *pretty, struct sb *compact)
{
    if (pretty->bad || compact->bad)
        s->bad = true;
    else if (s->put(s->arg, pretty->p, pretty->len, compact->p, compact->len) != 0)
        s->bad = true;
    free(pretty->p);
    free(compact->p);
}

/* The separator and key of the root's next member into both forms. */
static void stream_key(struct mm2_json_stream *s, struct sb *pretty, struct sb *compact,
                       const char *key)
{
    if (s->members > 0) {
        sb_puts(pretty, ",");
        sb_puts(compact, ",");
    }
    s->members++;
    indent(pretty, 1);
    put_string(pretty, key);
    sb_puts(pretty, ": ");
    put_string(compact, key);
    sb_puts(compact, ":");
}

void mm2_json_stream_begin(struct mm2_json_stream *s)
{
    s->bad = s->bad || s->put(s->arg, "{", 1, "{", 1) != 0;
    s->values = 1;
}

void mm2_json_stream_member(struct mm2_json_stream *s, const char *key, const cJSON *item)
{
    struct sb pretty = {0}, compact = {0};

    if (s->bad || s->in_array || item == NULL) {
        s->bad = true;
        return;
    }
    stream_key(s, &pretty, &compact, key);
    put_item(&pretty, item, true, 1, NULL);
    put_item(&compact, item, false, 0, NULL);
    s->values += mm2_json_nodes(item);
    stream_emit(s, &pretty, &compact);
}

void mm2_json_stream_array(struct mm2_json_stream *s, const char *key)
{
    struct sb pretty = {0}, compact = {0};

    if (s->bad || s->in_array) {
        s->bad = true;
        return;
    }
    stream_key(s, &pretty, &compact, key);
    sb_puts(&pretty, "[");
    sb_puts(&compact, "[");
    s->in_array = true;
    s->elements = 0;
    s->values++;
    stream_emit(s, &pretty, &compact);
}

void mm2_json_stream_element(struct mm2_json_stream *s, const cJSON *item)
{
    struct sb pretty = {0}, compact = {0};

    /* Only objects: an array holding one is never printed on one line (flat), so each element
     * goes on a line of its own whatever the others are. */
    if (s->bad || !s->in_array || !cJSON_IsObject(item)) {
        s->bad = true;
        return;
    }
    if (s->elements++ > 0) {
        sb_puts(&pretty, ",");
        sb_puts(&compact, ",");
    }
    indent(&pretty, 2);
    put_item(&pretty, item, true, 2, NULL);
    put_item(&compact, item, false, 0, NULL);
    s->values += mm2_json_nodes(item);
    stream_emit(s, &pretty, &compact);
}

void mm2_json_stream_array_end(struct mm2_json_stream *s)
{
    struct sb pretty = {0}, compact = {0};

    if (s->bad || !s->in_array) {
        s->bad = true;
        return;
    }
    if (s->elements > 0)
        indent(&pretty, 1);
    sb_puts(&pretty, "]");
    sb_puts(&compact, "]");
    s->in_array = false;
    stream_emit(s, &pretty, &compact);
}

void mm2_json_stream_end(struct mm2_json_stream *s)
{
    struct sb pretty = {0}, compact = {0};

    if (s->bad || s->in_array) {
        s->bad = true;
        return;
    }
    if (s->members > 0)
        sb_puts(&pretty, "\n");
    sb_puts(&pretty, "}\n");
    sb_puts(&compact, "}");
    stream_emit(s, &pretty, &compact);
}

/* ---- readers ---------------------------------------------------------------------------- */

static const char *type_names(int mask, char *buf, size_t len)
{
    static const struct {
        int bit;
        const char *name;
    } names[] = {
        {MM2_JSON_STRING, "a string"}, {MM2_JSON_INT, "an integer"}, {MM2_JSON_OBJECT, "an object"},
        {MM2_JSON_ARRAY, "an array"},  {MM2_JSON_BOOL, "a boolean"}, {MM2_JSON_NULL, "null"},
    };
    size_t o = 0;

    buf[0] = '\0';
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        int n;
        if (!(mask & names[i].bit))
            continue;
        n = snprintf(buf + o, len - o, "%s%s", o > 0 ? " or " : "", names[i].name);
        if (n < 0 || (size_t)n >= len - o)
            break;
        o += (size_t)n;
    }
    return buf;
}

static bool type_ok(const cJSON *v, int mask)
{
    int64_t i;

    return ((mask & MM2_JSON_STRING) && cJSON_IsString(v)) ||
           ((mask & MM2_JSON_INT) && mm2_json_int64(v, &i)) ||
           ((mask & MM2_JSON_OBJECT) && cJSON_IsObject(v)) ||
           ((mask & MM2_JSON_ARRAY) && cJSON_IsArray(v)) ||
           ((mask & MM2_JSON_BOOL) && cJSON_IsBool(v)) ||
           ((mask & MM2_JSON_NULL) && cJSON_IsNull(v));
}

const cJSON *mm2_json_get(const cJSON *obj, const char *key, int mask, const char *where,
                          struct mm2_error *err)
{
    const cJSON *v;

    if (!cJSON_IsObject(obj)) {
        mm2_error_set(err, MM2_UNEXPECTED, "%s is not an object", where);
        return NULL;
    }
    v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (v == NULL) {
        mm2_error_set(err, MM2_UNEXPECTED, "%s.%s is missing", where, key);
        return NULL;
    }
    if (!type_ok(v, mask)) {
        char types[96];
        mm2_error_set(err, MM2_UNEXPECTED, "%s.%s is not %s", where, key,
                      type_names(mask, types, sizeof(types)));
        return NULL;
    }
    return v;
}

static int by_key(const void *a, const void *b)
{
    const cJSON *x = *(const cJSON *const *)a;
    const cJSON *y = *(const cJSON *const *)b;

    return strcmp(x->string != NULL ? x->string : "", y->string != NULL ? y->string : "");
}

cJSON *mm2_json_sorted(const cJSON *item)
{
    cJSON *copy, *c;
    cJSON **v;
    size_t n = 0, i = 0;

    if (!cJSON_IsObject(item) && !cJSON_IsArray(item))
        return cJSON_Duplicate(item, true);
    copy = cJSON_IsObject(item) ? cJSON_CreateObject() : cJSON_CreateArray();
    if (copy == NULL)
        return NULL;
    cJSON_ArrayForEach(c, item) n++;
    if (n == 0)
        return copy;
    v = calloc(n, sizeof(*v));
    if (v == NULL) {
        cJSON_Delete(copy);
        return NULL;
    }
    cJSON_ArrayForEach(c, item) v[i++] = c;
    if (cJSON_IsObject(item))
        qsort(v, n, sizeof(*v), by_key);
    for (i = 0; i < n; i++) {
        cJSON *d = mm2_json_sorted(v[i]);
        if (d == NULL) {
            free(v);
            cJSON_Delete(copy);
            return NULL;
        }
        if (cJSON_IsObject(item))
            cJSON_AddItemToObject(copy, v[i]->string, d);
        else
            cJSON_AddItemToArray(copy, d);
    }
    free(v);
    return copy;
}

cJSON *mm2_json_parse_strict(const char *body, size_t len)
{
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(body, len, &end, false);

    if (root == NULL)
        return NULL;
    for (; end != NULL && end < body + len; end++) {
        if (*end != ' ' && *end != '\t' && *end != '\n' && *end != '\r' && *end != '\0') {
            cJSON_Delete(root);
            return NULL;
        }
    }
    return root;
}
