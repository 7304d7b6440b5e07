/* mm2_log: one-line diagnostics to a stream the caller chooses (stderr in
 * main), never to stdout data.
 *
 * Every line is "<prog>: <level>: <message>".  The message is formatted into
 * a bounded buffer; then every occurrence of each registered secret value is
 * replaced by "<redacted>", and newlines and other control characters by
 * '?', so one call is always exactly one line and a secret's value cannot
 * reach the log.  Redaction is the second line of defence: callers must never
 * pass a secret in the first place.  The struct is the caller's (no globals);
 * secrets are kept by pointer and must outlive it.
 */
#ifndef MM2_LOG_H
#define MM2_LOG_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

enum { MM2_LOG_ERROR = 0, MM2_LOG_WARN = 1, MM2_LOG_INFO = 2, MM2_LOG_DEBUG = 3 };

#define MM2_LOG_MAX_SECRETS 16
#define MM2_LOG_LINE_MAX 2048

struct mm2_log {
    const char *prog;
    FILE *out;
    int level; /* lines above this level are dropped */
    const char *secrets[MM2_LOG_MAX_SECRETS];
    size_t nsecrets;
};

void mm2_log_init(struct mm2_log *log, const char *prog, FILE *out, int level);

/* Registers a value to redact.  NULL and "" are ignored.  Returns 0, or -1
 * when the table is full (the caller must then not log at all). */
int mm2_log_add_secret(struct mm2_log *log, const char *value);

void mm2_log_error(const struct mm2_log *log, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void mm2_log_warn(const struct mm2_log *log, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void mm2_log_info(const struct mm2_log *log, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void mm2_log_debug(const struct mm2_log *log, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Formats like the functions above into `out` (no trailing newline), for
 * tests and for callers that need the line itself. */
void mm2_log_format(const struct mm2_log *log, int level, char *out, size_t outlen, const char *fmt,
                    va_list ap);

#endif
