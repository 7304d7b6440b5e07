/* auth: mm2-probe's REST password from a file or a variable (see auth.h). */
#include "auth.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "mm2_env.h"
#include "mm2_file.h"
#include "mm2_http.h"

#define SHOW 120

/* Drops one trailing "\n" or "\r\n" from s (n bytes); false when what is left is empty or holds
 * a control character. */
static bool trim_and_check(char *s, size_t n)
{
    if (n > 0 && s[n - 1] == '\n')
        s[--n] = '\0';
    if (n > 0 && s[n - 1] == '\r')
        s[--n] = '\0';
    if (n == 0)
        return false;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
            return false;
    return true;
}

enum mm2_status probe_auth_password(const char *file, const char *var, char **password,
                                    struct mm2_error *err)
{
    char *buf = NULL;
    size_t len = 0;

    *password = NULL;
    if (file != NULL) {
        enum mm2_status st = mm2_file_read("REST password file (--password-file)", file,
                                           MM2_HTTP_PASSWORD_MAX + 1, &buf, &len, err);
        if (st != MM2_OK)
            return st;
    } else {
        const char *v = mm2_env_get(var);
        if (v == NULL || v[0] == '\0')
            return mm2_error_set(err, MM2_CONFIG,
                                 "--password-env %.*s: the variable is %s; set it from the REST "
                                 "auth Secret",
                                 SHOW, var, v == NULL ? "not set" : "empty");
        len = strlen(v);
        buf = len <= MM2_HTTP_PASSWORD_MAX ? strdup(v) : NULL;
        if (buf == NULL && len <= MM2_HTTP_PASSWORD_MAX)
            return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    }
    if (buf == NULL || !trim_and_check(buf, len) || strlen(buf) >= MM2_HTTP_PASSWORD_MAX) {
        free(buf);
        return mm2_error_set(err, MM2_CONFIG,
                             "%s %.*s: the REST password must be 1 to %d bytes on one line, "
                             "without control characters",
                             file != NULL ? "--password-file" : "--password-env", SHOW,
                             file != NULL ? file : var, MM2_HTTP_PASSWORD_MAX - 1);
    }
    *password = buf;
    return MM2_OK;
}
