/* mm2_check: which field of a copied record differs from the source's (see mm2_check.h). */
#include "mm2_check.h"

#include <string.h>

static bool bytes_eq(const unsigned char *a, size_t al, const unsigned char *b, size_t bl)
{
    if ((a == NULL) != (b == NULL))
        return false;
    return a == NULL || (al == bl && (al == 0 || memcmp(a, b, al) == 0));
}

const char *mm2_check_differs(const struct mm2_record *s, const struct mm2_record *t)
{
    if (!bytes_eq(s->key, s->key_len, t->key, t->key_len))
        return "key";
    if (!bytes_eq(s->value, s->value_len, t->value, t->value_len))
        return "value";
    if (s->nheaders != t->nheaders)
        return "headers";
    for (size_t i = 0; i < s->nheaders; i++)
        if (strcmp(s->headers[i].name, t->headers[i].name) != 0 ||
            !bytes_eq(s->headers[i].value, s->headers[i].len, t->headers[i].value,
                      t->headers[i].len))
            return "headers";
    /* MM2 keeps the source timestamp; a LogAppendTime topic on either side rewrites it. */
    if (s->tstype == 1 && t->tstype == 1 && s->timestamp != t->timestamp)
        return "timestamp";
    return "";
}
