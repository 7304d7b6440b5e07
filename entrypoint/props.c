/* props: a java.util.Properties file, read as Properties reads it (see props.h). */
#include "props.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *props_get(const struct props *pr, const char *key)
{
    for (size_t i = pr->n; i-- > 0;) /* the last one wins, as in Properties */
        if (strcmp(pr->e[i].key, key) == 0)
            return pr->e[i].val;
    return NULL;
}

const char *props_get_prefixed(const struct props *pr, const char *prefix, const char *key)
{
    char k[256];

    if (snprintf(k, sizeof(k), "%s%s", prefix, key) >= (int)sizeof(k))
        return NULL;
    return props_get(pr, k);
}

/* Joins continued lines in place and splits into entries; returns -1 when the
 * file holds more than PROPS_MAX_ENTRIES. */
static int props_parse(struct props *pr)
{
    char *r = pr->buf, *w = pr->buf;

    /* Continuations: an odd number of backslashes before a newline. */
    while (*r != '\0') {
        if (*r == '\\' && r[1] == '\n') {
            r += 2;
            while (*r == ' ' || *r == '\t')
                r++;
            continue;
        }
        if (*r == '\\' && r[1] != '\0') {
            *w++ = *r++;
            *w++ = *r++;
            continue;
        }
        *w++ = *r++;
    }
    *w = '\0';
    for (char *line = pr->buf, *next; line != NULL; line = next) {
        size_t kl;
        char *v;
        next = strchr(line, '\n');
        if (next != NULL)
            *next++ = '\0';
        line += strspn(line, " \t\f\r");
        if (*line == '\0' || *line == '#' || *line == '!')
            continue;
        kl = strcspn(line, "=: \t\f\r");
        v = line + kl;
        v += strspn(v, " \t\f");
        if (*v == '=' || *v == ':')
            v++;
        v += strspn(v, " \t\f");
        v[strcspn(v, "\r")] = '\0';
        line[kl] = '\0';
        if (pr->n == PROPS_MAX_ENTRIES)
            return -1;
        pr->e[pr->n].key = line;
        pr->e[pr->n].val = v;
        pr->n++;
    }
    return 0;
}

/* Reads path into pr: 0; -1 when it cannot be read; -2 when it holds more than
 * PROPS_MAX_BYTES or a NUL byte; -3 when it holds more than PROPS_MAX_ENTRIES entries. */
int props_load(struct props *pr, const char *path)
{
    FILE *f = fopen(path, "re");
    size_t got;
    int bad;

    if (f == NULL)
        return -1; /* the caller says why (errno) */
    pr->buf = malloc(PROPS_MAX_BYTES + 1);
    got = pr->buf != NULL ? fread(pr->buf, 1, PROPS_MAX_BYTES + 1, f) : 0;
    bad = ferror(f) || pr->buf == NULL;
    fclose(f);
    if (bad)
        return -1;
    if (got > PROPS_MAX_BYTES || memchr(pr->buf, '\0', got) != NULL)
        return -2;
    pr->buf[got] = '\0';
    return props_parse(pr) == 0 ? 0 : -3;
}
