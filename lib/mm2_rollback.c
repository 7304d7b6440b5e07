/* mm2_rollback: Flink's positions from MM2's offsets, and their CSV (see mm2_rollback.h). */
#include "mm2_rollback.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_row(const void *a, const void *b)
{
    const struct mm2_rollback_row *x = a, *y = b;
    int c = strcmp(x->topic, y->topic);

    return c != 0 ? c : (x->partition > y->partition) - (x->partition < y->partition);
}

/* MirrorSourceTask resumes at M + 1, and a group at its committed offset: MM2's M is Flink's
 * C - 1. A planned partition with no offset never got a record from MM2, so the plan's C holds. */
size_t mm2_rollback_rows(const struct mm2_source_offsets *offs, const char *alias,
                         const struct mm2_plan *plan, struct mm2_rollback_row *rows,
                         size_t *from_plan)
{
    size_t n = 0;

    *from_plan = 0;
    for (size_t i = 0; i < offs->n; i++)
        if (strcmp(offs->v[i].cluster, alias) == 0)
            rows[n++] = (struct mm2_rollback_row){offs->v[i].topic, offs->v[i].partition,
                                                  offs->v[i].offset + 1};
    for (size_t i = 0; plan != NULL && i < plan->n; i++) {
        const struct mm2_pentry *e = &plan->entries[i];
        if (mm2_source_offsets_find(offs, alias, e->topic, e->partition) == NULL) {
            rows[n++] = (struct mm2_rollback_row){e->topic, e->partition, e->c};
            (*from_plan)++;
        }
    }
    qsort(rows, n, sizeof(*rows), cmp_row);
    return n;
}

/* A row longer than a line (no Kafka topic name is) is left out rather than cut. */
char *mm2_rollback_csv(const struct mm2_rollback_row *rows, size_t n, size_t *len)
{
    char *csv = NULL;
    size_t cap = 0;

    *len = 0;
    for (size_t i = 0; i < n; i++) {
        char line[400];
        int k = snprintf(line, sizeof(line), "%s,%d,%lld\n", rows[i].topic, (int)rows[i].partition,
                         (long long)rows[i].c);
        if (k < 0 || (size_t)k >= sizeof(line))
            continue;
        if (*len + (size_t)k + 1 > cap) {
            size_t ncap = cap == 0 ? 4096 : cap * 2;
            char *p;
            while (ncap < *len + (size_t)k + 1)
                ncap *= 2;
            p = realloc(csv, ncap);
            if (p == NULL) {
                free(csv);
                return NULL;
            }
            csv = p;
            cap = ncap;
        }
        memcpy(csv + *len, line, (size_t)k + 1);
        *len += (size_t)k;
    }
    return csv != NULL ? csv : calloc(1, 1);
}
