/*
 * libFuzzer target: lib/mm2_jregex, the Java regex subset translated to POSIX ERE. The input is
 * the joined text of a topics / topics.exclude value, bytes as they come (NUL and non-ASCII
 * included). Findings besides crashes and leaks: a translation that regcomp refuses (the
 * header promises it always compiles), a refusal without a message, and an output that is
 * neither NULL nor anchored "^(...)$".
 */
#include <regex.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mm2_jregex.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const topics[] = {"orders", "a", "mm2-offsets.src.internal", "__consumer",
                                         "A_9.-z"};
    struct mm2_error err = {0};
    char *ere = NULL;
    enum mm2_status st = mm2_jregex_to_ere("topics", (const char *)data, size, NULL, 0, &ere, &err);
    regex_t re;
    int rc;

    if (st != MM2_OK) {
        if (err.msg[0] == '\0' || ere != NULL)
            abort();
        return 0;
    }
    if (ere == NULL)
        return 0;
    if (strncmp(ere, "^(", 2) != 0 || strlen(ere) < 4 || strcmp(ere + strlen(ere) - 2, ")$") != 0)
        abort();
    rc = regcomp(&re, ere, REG_EXTENDED | REG_NOSUB);
    if (rc != 0 && rc != REG_ESPACE)
        abort();
    if (rc == 0) {
        for (size_t i = 0; i < sizeof(topics) / sizeof(topics[0]); i++)
            (void)regexec(&re, topics[i], 0, NULL, 0);
        regfree(&re);
    }
    free(ere);
    return 0;
}
