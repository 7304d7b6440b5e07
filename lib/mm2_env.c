/* mm2_env: environment reading and the problems collector (see mm2_env.h). */
#include "mm2_env.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *mm2_env_get(const char *name)
{
    return getenv(name);
}

void mm2_problems_add(struct mm2_problems *p, const char *fmt, ...)
{
    va_list ap;
    char *line;
    int n;

    if (p->n >= MM2_PROBLEMS_MAX) {
        p->dropped++;
        return;
    }
    line = p->line[p->n++];
    va_start(ap, fmt);
    n = vsnprintf(line, MM2_PROBLEM_LEN, fmt, ap);
    va_end(ap);
    if (n < 0)
        line[0] = '\0';
    else if ((size_t)n >= MM2_PROBLEM_LEN)
        memcpy(line + MM2_PROBLEM_LEN - 4, "...", 4);
}

const char *mm2_env_required(const char *name, const char *expected, struct mm2_problems *p)
{
    const char *v = getenv(name);

    if (v == NULL) {
        mm2_problems_add(p, "%s is not set; set it to %s", name, expected);
        return NULL;
    }
    if (v[0] == '\0') {
        mm2_problems_add(p, "%s is empty; set it to %s", name, expected);
        return NULL;
    }
    return v;
}

const char *mm2_env_optional(const char *name, const char *dflt)
{
    const char *v = getenv(name);

    return v != NULL ? v : dflt;
}
