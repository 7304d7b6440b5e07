/* mm2_refusal: the list of refusals every rule adds to (see mm2_refusal.h). */
#include "mm2_refusal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mm2_refuse(struct mm2_refusals *r, const char *fmt, ...)
{
    va_list ap;
    int n;

    if (r->n == r->cap) {
        size_t cap = r->cap == 0 ? 16 : r->cap * 2;
        char(*p)[MM2_REFUSAL_LEN] = realloc(r->line, cap * sizeof(*p));
        if (p == NULL) {
            r->oom = true; /* never let a lost refusal read as "nothing refused" */
            return;
        }
        r->line = p;
        r->cap = cap;
    }
    va_start(ap, fmt);
    n = vsnprintf(r->line[r->n], MM2_REFUSAL_LEN, fmt, ap);
    va_end(ap);
    if (n < 0)
        r->line[r->n][0] = '\0';
    else if ((size_t)n >= MM2_REFUSAL_LEN)
        memcpy(r->line[r->n] + MM2_REFUSAL_LEN - 4, "...", 4);
    r->n++;
}

void mm2_refusals_free(struct mm2_refusals *r)
{
    if (r == NULL)
        return;
    free(r->line);
    memset(r, 0, sizeof(*r));
}
