/* mm2_err: exit-code table text and the caller-owned error value (see mm2_err.h). */
#include "mm2_err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *mm2_status_text(enum mm2_status status)
{
    /* No default: the compiler (-Wswitch, in -Wall) flags a code appended without text. */
    switch (status) {
    case MM2_OK:
        return "success";
    case MM2_CHECK_FAILED:
        return "check failed";
    case MM2_USAGE:
        return "usage error";
    case MM2_CONFIG:
        return "invalid configuration";
    case MM2_UNREACHABLE:
        return "dependency unreachable";
    case MM2_UNEXPECTED:
        return "unexpected answer from dependency";
    case MM2_DIFFERS:
        return "the connector differs from its file";
    case MM2_EXEC_NOEXEC:
        return "exec failed: not executable";
    case MM2_EXEC_NOTFOUND:
        return "exec failed: not found";
    }
    return "unknown status";
}

/* vsnprintf returned n for a buffer of size cap: mark a cut with "..." at the end. */
static void mark_truncated(char *buf, size_t cap, int n)
{
    if (n < 0) {
        buf[0] = '\0';
        return;
    }
    if ((size_t)n >= cap && cap >= 4)
        memcpy(buf + cap - 4, "...", 4);
}

enum mm2_status mm2_error_set(struct mm2_error *err, enum mm2_status code, const char *fmt, ...)
{
    va_list ap;
    int n;

    if (err == NULL)
        return code;
    err->code = code;
    va_start(ap, fmt);
    n = vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
    va_end(ap);
    mark_truncated(err->msg, sizeof(err->msg), n);
    return code;
}

enum mm2_status mm2_error_prefix(struct mm2_error *err, const char *fmt, ...)
{
    char ctx[MM2_ERROR_MSG_MAX];
    char old[MM2_ERROR_MSG_MAX];
    va_list ap;
    int n;

    if (err == NULL)
        return MM2_OK;
    va_start(ap, fmt);
    n = vsnprintf(ctx, sizeof(ctx), fmt, ap);
    va_end(ap);
    if (n < 0)
        ctx[0] = '\0';
    /* Copy first: err->msg is both the source and the destination. */
    memcpy(old, err->msg, sizeof(old));
    old[sizeof(old) - 1] = '\0';
    n = snprintf(err->msg, sizeof(err->msg), "%s: %s", ctx, old);
    mark_truncated(err->msg, sizeof(err->msg), n);
    return err->code;
}

void mm2_error_clear(struct mm2_error *err)
{
    if (err == NULL)
        return;
    err->code = MM2_OK;
    err->msg[0] = '\0';
}

void mm2_whyf(char *why, size_t whylen, const char *fmt, ...)
{
    va_list ap;

    if (why == NULL || whylen == 0)
        return;
    va_start(ap, fmt);
    if (vsnprintf(why, whylen, fmt, ap) < 0)
        why[0] = '\0';
    va_end(ap);
}
