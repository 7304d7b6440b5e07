/* mm2_cfgview: a connector config as artifacts record it, and its comparison (see mm2_cfgview.h).
 */
#include "mm2_cfgview.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm2_digest.h"
#include "mm2_secret.h"

#define SECRET_HEX 16

/* True when v is exactly one config-provider reference, ${provider:key} or
 * ${provider:path:key} (ConfigTransformer's pattern): no secret, whatever the key. */
static bool reference(const char *v)
{
    size_t n = strlen(v);

    if (n < 5 || strncmp(v, "${", 2) != 0 || v[n - 1] != '}')
        return false;
    for (size_t i = 2; i + 1 < n; i++)
        if (v[i] == '{' || v[i] == '}')
            return false;
    return memchr(v + 2, ':', n - 3) != NULL;
}

/* MM2_CFGVIEW_SECRET + 16 hex digits of SHA-256(key NUL value) + ">" into out. */
static int masked(const char *key, const char *value, char *out, size_t len)
{
    size_t kl = strlen(key), vl = strlen(value);
    char *buf = malloc(kl + 1 + vl);
    char d[MM2_DIGEST_TEXT_LEN + 1];
    int rc;

    if (buf == NULL)
        return -1;
    memcpy(buf, key, kl);
    buf[kl] = '\0';
    memcpy(buf + kl + 1, value, vl);
    rc = mm2_digest_text(buf, kl + 1 + vl, d);
    free(buf);
    if (rc != 0)
        return -1;
    (void)snprintf(out, len, "%s%.*s>", MM2_CFGVIEW_SECRET, SECRET_HEX, d + 7);
    return 0;
}

static bool is_masked(const char *v)
{
    return strncmp(v, MM2_CFGVIEW_SECRET, sizeof(MM2_CFGVIEW_SECRET) - 1) == 0;
}

enum mm2_status mm2_cfgview_make(const cJSON *config, const char *name, cJSON **out,
                                 struct mm2_error *err)
{
    cJSON *view = cJSON_CreateObject();
    const cJSON *v;
    bool ok = view != NULL && cJSON_AddStringToObject(view, "name", name) != NULL;

    *out = NULL;
    cJSON_ArrayForEach(v, config)
    {
        char mask[sizeof(MM2_CFGVIEW_SECRET) + SECRET_HEX + 2];
        const char *shown;
        if (!ok)
            break;
        if (strcmp(v->string, "name") == 0)
            continue;
        if (!cJSON_IsString(v)) {
            cJSON_Delete(view);
            return mm2_error_set(err, MM2_CONFIG, "config.%.100s is not a string", v->string);
        }
        shown = v->valuestring;
        if (mm2_secret_name(v->string, strlen(v->string)) && !reference(shown)) {
            if (masked(v->string, shown, mask, sizeof(mask)) != 0) {
                cJSON_Delete(view);
                return mm2_error_set(err, MM2_UNEXPECTED, "SHA-256 failed (OpenSSL)");
            }
            shown = mask;
        }
        ok = cJSON_AddStringToObject(view, v->string, shown) != NULL;
    }
    if (!ok) {
        cJSON_Delete(view);
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    }
    *out = view;
    return MM2_OK;
}

enum mm2_status mm2_cfgview_check(const cJSON *view, const char *where, struct mm2_error *err)
{
    const cJSON *v;

    if (!cJSON_IsObject(view))
        return mm2_error_set(err, MM2_CONFIG, "%s is not an object", where);
    cJSON_ArrayForEach(v, view)
    {
        if (!cJSON_IsString(v))
            return mm2_error_set(err, MM2_CONFIG, "%s.%.100s is not a string", where, v->string);
        if (mm2_secret_name(v->string, strlen(v->string)) && !reference(v->valuestring) &&
            !is_masked(v->valuestring))
            return mm2_error_set(err, MM2_CONFIG,
                                 "%s.%.100s holds a plain secret value; an artifact never does",
                                 where, v->string);
    }
    return MM2_OK;
}

static int key_cmp(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Appends to buf[*at..len) what printf would write, cut at the end; *at never passes len - 1. */
static void put(char *buf, size_t len, size_t *at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void put(char *buf, size_t len, size_t *at, const char *fmt, ...)
{
    va_list ap;
    int n;

    if (*at + 1 >= len)
        return;
    va_start(ap, fmt);
    n = vsnprintf(buf + *at, len - *at, fmt, ap);
    va_end(ap);
    if (n > 0)
        *at = *at + (size_t)n < len ? *at + (size_t)n : len - 1;
}

/* How a value is shown: quoted and cut, or "a secret value". */
static void show_value(const char *v, char *out, size_t len)
{
    size_t i = 0;

    if (is_masked(v)) {
        (void)snprintf(out, len, "a secret value");
        return;
    }
    (void)snprintf(out, len, "\"%.*s%s\"", MM2_CFGVIEW_SHOW, v,
                   strlen(v) > MM2_CFGVIEW_SHOW ? "..." : "");
    for (i = 1; out[i] != '\0'; i++)
        if ((unsigned char)out[i] < 0x20 || out[i] == 0x7f)
            out[i] = '?';
}

/* One key that differs, as the header shows it. */
static void put_key(char *buf, size_t len, size_t *at, const char *key, const cJSON *a,
                    const char *a_name, const cJSON *b, const char *b_name)
{
    char sa[MM2_CFGVIEW_SHOW + 8], sb[MM2_CFGVIEW_SHOW + 8];

    if (a != NULL && b != NULL && is_masked(a->valuestring) && is_masked(b->valuestring)) {
        put(buf, len, at, "%.100s (a secret: differs)", key);
        return;
    }
    if (a != NULL)
        show_value(a->valuestring, sa, sizeof(sa));
    if (b != NULL)
        show_value(b->valuestring, sb, sizeof(sb));
    if (a == NULL)
        put(buf, len, at, "%.100s (not in %s, %s in %s)", key, a_name, sb, b_name);
    else if (b == NULL)
        put(buf, len, at, "%.100s (%s in %s, not in %s)", key, sa, a_name, b_name);
    else
        put(buf, len, at, "%.100s (%s in %s, %s in %s)", key, sa, a_name, sb, b_name);
}

size_t mm2_cfgview_diff(const cJSON *a, const char *a_name, const cJSON *b, const char *b_name,
                        char *buf, size_t len)
{
    size_t na = (size_t)cJSON_GetArraySize(a), nb = (size_t)cJSON_GetArraySize(b);
    const char **keys;
    const cJSON *v;
    size_t n = 0, differ = 0, at = 0;

    if (len > 0)
        buf[0] = '\0';
    if (a == NULL || b == NULL)
        return 0;
    keys = calloc(na + nb + 1, sizeof(*keys));
    if (keys == NULL) {
        (void)snprintf(buf, len, "(out of memory comparing the configs)");
        return 1;
    }
    cJSON_ArrayForEach(v, a) keys[n++] = v->string;
    cJSON_ArrayForEach(v, b) keys[n++] = v->string;
    qsort(keys, n, sizeof(*keys), key_cmp);
    for (size_t i = 0; i < n; i++) {
        const cJSON *va, *vb;
        if (i > 0 && strcmp(keys[i], keys[i - 1]) == 0)
            continue;
        va = cJSON_GetObjectItemCaseSensitive(a, keys[i]);
        vb = cJSON_GetObjectItemCaseSensitive(b, keys[i]);
        va = cJSON_IsString(va) ? va : NULL; /* views hold strings only (mm2_cfgview_check) */
        vb = cJSON_IsString(vb) ? vb : NULL;
        if (va != NULL && vb != NULL && strcmp(va->valuestring, vb->valuestring) == 0)
            continue;
        if (differ++ < MM2_CFGVIEW_NAMED) {
            if (differ > 1)
                put(buf, len, &at, ", ");
            put_key(buf, len, &at, keys[i], va, a_name, vb, b_name);
        }
    }
    if (differ > MM2_CFGVIEW_NAMED)
        put(buf, len, &at, ", and %zu more key%s", differ - MM2_CFGVIEW_NAMED,
            differ - MM2_CFGVIEW_NAMED == 1 ? "" : "s");
    free(keys);
    return differ;
}

void mm2_cfgview_explain(const cJSON *a_view, const char *a_digest, const char *a_name,
                         const cJSON *b_view, const char *b_digest, const char *b_name, char *buf,
                         size_t len)
{
    char keys[360];
    size_t n = mm2_cfgview_diff(a_view, a_name, b_view, b_name, keys, sizeof(keys));

    if (n > 0)
        (void)snprintf(buf, len, "in %zu key%s: %s", n, n == 1 ? "" : "s", keys);
    else
        (void)snprintf(buf, len, "%.80s in %.40s, %.80s in %.120s%s%.40s%s", a_digest, a_name,
                       b_digest, b_name, a_view == NULL ? ", " : "", a_view == NULL ? a_name : "",
                       a_view == NULL ? " recorded only its digest" : "");
}
