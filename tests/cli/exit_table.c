/* exit-table: a test tool that prints the one exit-code table (lib/mm2_err.h,
 * docs/ARCHITECTURE.md §5) as the programs know it: one line per code, "CODE<TAB>TEXT", for every
 * code from 0 to 255 that mm2_status_text names. tests/cli/exit_codes.bats compares every
 * --help, man page and the README with it.
 * Exit: 0, or 2 when given an argument. */
#include <stdio.h>
#include <string.h>

#include "mm2_err.h"

int main(int argc, char **argv)
{
    const char *unknown = mm2_status_text((enum mm2_status)1000); /* no code, ever */

    (void)argv;
    if (argc != 1) {
        fprintf(stderr, "usage: exit-table\n");
        return 2;
    }
    for (int c = 0; c < 256; c++) {
        const char *t = mm2_status_text((enum mm2_status)c);
        if (strcmp(t, unknown) != 0)
            printf("%d\t%s\n", c, t);
    }
    return 0;
}
