/* mm2_log: one-line, redacted diagnostics to a caller-given FILE * (see mm2_log.h). */
#include "mm2_log.h"

#include <stdarg.h>
#include <string.h>

static const char redacted[] = "<redacted>";

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

/* Length of the registered secret that starts at s, longest first, or 0 when none does. */
static size_t secret_at(const struct mm2_log *log, const char *s)
{
    size_t best = 0;

    for (size_t i = 0; i < log->nsecrets; i++) {
        size_t n = strlen(log->secrets[i]);
        if (n > best && strncmp(s, log->secrets[i], n) == 0)
            best = n;
    }
    return best;
}

/* Copies in to out (cap bytes) replacing secrets and control characters; a cut ends in "...". */
static void sanitize(const struct mm2_log *log, const char *in, char *out, size_t cap)
{
    size_t o = 0;
    int cut = 0;

    while (*in != '\0') {
        size_t n = secret_at(log, in);
        if (n > 0) {
            if (o + sizeof(redacted) - 1 >= cap) {
                cut = 1;
                break;
            }
            memcpy(out + o, redacted, sizeof(redacted) - 1);
            o += sizeof(redacted) - 1;
            in += n;
            continue;
        }
        if (o + 1 >= cap) {
            cut = 1;
            break;
        }
        unsigned char c = (unsigned char)*in++;
        out[o++] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
    }
    out[o] = '\0';
    if (cut && cap >= 4)
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
