/* mm2_log: one-line, redacted diagnostics to a caller-given FILE * (see mm2_log.h). */
#include "mm2_log.h"
#include "mm2_secret.h"

#include <stdarg.h>
#include <stdbool.h>
#include <string.h>

void mm2_log_init(struct mm2_log *log, const char *prog, FILE *out, int level)
{
    memset(log, 0, sizeof(*log));
    log->prog = prog;
    log->out = out;
    log->level = level;
}

int mm2_log_add_secret(struct mm2_log *log, const char *value)
{
    if (value == NULL || value[0] == '\0')
        return 0;
    for (size_t i = 0; i < log->nsecrets; i++)
        if (strcmp(log->secrets[i], value) == 0)
            return 0;
    if (log->nsecrets >= MM2_LOG_SECRETS_MAX)
        return -1;
    log->secrets[log->nsecrets++] = value;
    return 0;
}

/* Copies in to out (cap bytes) replacing secrets and control characters; a cut ends in "...". */
static void sanitize(const struct mm2_log *log, const char *in, char *out, size_t cap)
{
    bool whole = mm2_secret_redact(in, log->secrets, log->nsecrets, 0, out, cap);
    size_t o = strlen(out);

    for (size_t i = 0; i < o; i++) {
        unsigned char c = (unsigned char)out[i];

        if (c < 0x20 || c == 0x7f)
            out[i] = '?';
    }
    if (!whole && cap >= 4)
        memcpy(out + (o >= 3 ? o - 3 : 0), "...", 4);
}

static void emit(const struct mm2_log *log, int level, const char *tag, const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));

static void emit(const struct mm2_log *log, int level, const char *tag, const char *fmt, va_list ap)
{
    char raw[MM2_LOG_LINE_MAX];
    char line[MM2_LOG_LINE_MAX];
    int n;

    if (log == NULL || log->out == NULL || (level > log->level && level != MM2_LOG_ERROR))
        return;
    n = vsnprintf(raw, sizeof(raw), fmt, ap);
    if (n < 0)
        raw[0] = '\0';
    else if ((size_t)n >= sizeof(raw))
        memcpy(raw + sizeof(raw) - 4, "...", 4);
    sanitize(log, raw, line, sizeof(line));
    fprintf(log->out, "%s: %s: %s\n", log->prog != NULL ? log->prog : "mm2kit", tag, line);
    fflush(log->out);
}

void mm2_log_error(const struct mm2_log *log, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit(log, MM2_LOG_ERROR, "error", fmt, ap);
    va_end(ap);
}

void mm2_log_warn(const struct mm2_log *log, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit(log, MM2_LOG_WARN, "warning", fmt, ap);
    va_end(ap);
}

void mm2_log_info(const struct mm2_log *log, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit(log, MM2_LOG_INFO, "info", fmt, ap);
    va_end(ap);
}

void mm2_log_debug(const struct mm2_log *log, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit(log, MM2_LOG_DEBUG, "debug", fmt, ap);
    va_end(ap);
}
