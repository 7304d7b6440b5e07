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
