/* mm2_err: see mm2_err.h. */
#include "mm2_err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *mm2_status_text(enum mm2_status code)
{
    /* No default: the compiler flags a code added to the enum but not here. */
    switch (code) {
    case MM2_OK:
        return "success";
    case MM2_CHECK_FAILED:
        return "check negative";
    case MM2_USAGE:
        return "usage error";
    case MM2_CONFIG:
        return "invalid configuration or environment";
    case MM2_UNREACHABLE:
        return "a dependency unreachable or timed out";
    case MM2_UNEXPECTED:
        return "a dependency answered something unexpected";
    case MM2_EXEC_NOEXEC:
        return "exec failed: not executable";
    case MM2_EXEC_NOTFOUND:
        return "exec failed: not found";
    }
    return "unknown status";
}

static void mark_truncated(char *buf, size_t size)
{
    if (size >= 4)
        memcpy(buf + size - 4, "...", 4);
}

enum mm2_status mm2_error_set(struct mm2_error *err, enum mm2_status code, const char *fmt, ...)
{
    va_list ap;
    err->code = code;
    va_start(ap, fmt);
    int n = vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    if (n < 0)
        err->msg[0] = '\0';
    else if ((size_t)n >= sizeof err->msg)
        mark_truncated(err->msg, sizeof err->msg);
    return code;
}

void mm2_error_prefix(struct mm2_error *err, const char *fmt, ...)
{
    char ctx[MM2_ERROR_MSG_MAX];
    char out[MM2_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(ctx, sizeof ctx, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    int m = snprintf(out, sizeof out, "%s: %s", ctx, err->msg);
    if (m < 0)
        return;
    if ((size_t)m >= sizeof out)
        mark_truncated(out, sizeof out);
    memcpy(err->msg, out, sizeof out);
}

void mm2_error_clear(struct mm2_error *err)
{
    err->code = MM2_OK;
    err->msg[0] = '\0';
}
