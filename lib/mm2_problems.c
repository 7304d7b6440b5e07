/* mm2_problems: the problem collector (see mm2_problems.h). */
#include "mm2_problems.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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
