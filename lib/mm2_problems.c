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

void mm2_problems_check_lines(struct mm2_problems *p, const char *text, const char *file,
                              size_t max)
{
    size_t line = 1;

    while (*text != '\0') {
        const char *nl = strchr(text, '\n');
        size_t len = nl != NULL ? (size_t)(nl - text) : strlen(text);
        if (len > 0 && text[len - 1] == '\r')
            len--;
        if (len > max)
            mm2_problems_add(p,
                             "%s:%zu: line is %zu characters, above the %zu libinih reads; "
                             "shorten it or move the value into ${env:VAR}",
                             file, line, len, max);
        if (nl == NULL)
            break;
        text = nl + 1;
        line++;
    }
}
