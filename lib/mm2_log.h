/*
 * mm2_log: one-line diagnostics with secret redaction. The only lib module that prints, and it
 * prints only to the FILE * the caller hands it (normally stderr; docs/ARCHITECTURE.md §3.5).
 *
 * Contract:
 *   - struct mm2_log is owned by the caller; mm2_log_init fills it. Nothing is allocated, and the
 *     prog string, the FILE * and every registered secret must outlive the struct (they are
 *     borrowed pointers, not copies).
 *   - Each mm2_log_<level> call writes exactly one line "<prog>: <level>: <message>\n", where level
 *     is error, warning, info or debug. It is written only when the call's level is at or below
 *     log->level (MM2_LOG_ERROR is always written).
 *   - The message is formatted into a bounded buffer (MM2_LOG_LINE_MAX); a longer one is cut and
 *     ends in "...". Every occurrence of each registered secret is then replaced by "<redacted>",
 *     and newlines and other control characters become '?', so one call is always one line.
 *   - Redaction is the second line of defence only: callers must never pass a secret's value in
 *     the first place, only its name (docs/ARCHITECTURE.md §8). Redaction runs on the
 *     formatted message, so a secret cut by truncation may leak its first characters; another
 *     reason never to pass one.
 *   - Write errors on out are ignored: there is nowhere left to report them.
 */
#ifndef MM2_LOG_H
#define MM2_LOG_H

#include <stddef.h>
#include <stdio.h>

enum mm2_log_level {
    MM2_LOG_ERROR = 0,
    MM2_LOG_WARN = 1,
    MM2_LOG_INFO = 2,
    MM2_LOG_DEBUG = 3,
};

#define MM2_LOG_SECRETS_MAX 16
#define MM2_LOG_LINE_MAX 2048

struct mm2_log {
    const char *prog;
    FILE *out;
    int level;
    const char *secrets[MM2_LOG_SECRETS_MAX];
    size_t nsecrets;
};

/* Fills log; no secrets registered yet. prog and out are borrowed. */
void mm2_log_init(struct mm2_log *log, const char *prog, FILE *out, int level);

/* Registers value (borrowed, not copied) for redaction. NULL and "" are ignored; short values,
 * even under 4 characters, are registered too. Returns 0, or -1 when all MM2_LOG_SECRETS_MAX slots
 * are taken (the value is then not registered). A value already registered is not added twice. */
int mm2_log_add_secret(struct mm2_log *log, const char *value);

void mm2_log_error(const struct mm2_log *log, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void mm2_log_warn(const struct mm2_log *log, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void mm2_log_info(const struct mm2_log *log, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void mm2_log_debug(const struct mm2_log *log, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
