/* mm2_log: see mm2_log.h. */
#include "mm2_log.h"

#include <stdarg.h>
#include <string.h>

static const char *const level_names[] = {"error", "warning", "info", "debug"};

void mm2_log_init(struct mm2_log *log, const char *prog, FILE *out, int level)
{
    memset(log, 0, sizeof *log);
    log->prog = prog;
    log->out = out;
    log->level = level;
}

int mm2_log_add_secret(struct mm2_log *log, const char *value)
{
    if (value == NULL || *value == '\0')
        return 0;
    if (log->nsecrets >= MM2_LOG_MAX_SECRETS)
        return -1;
    log->secrets[log->nsecrets++] = value;
    return 0;
}

/* Copies src to dst (size bytes at most, NUL included) with every
 * occurrence of each secret replaced by the mark.  When the formatted text
 * was cut (`truncated`), a tail that is the start of a secret is cut too, so
 * not even a prefix of a secret survives truncation. */
static void redact(const struct mm2_log *log, const char *src, char *dst, size_t size,
                   int truncated)
{
    static const char mark[] = "<redacted>";
    size_t o = 0;
    while (*src != '\0' && o + 1 < size) {
        size_t sl = 0;
        for (size_t s = 0; s < log->nsecrets && sl == 0; s++) {
            size_t l = strlen(log->secrets[s]);
            if (strncmp(src, log->secrets[s], l) == 0)
                sl = l;
        }
        if (sl == 0) {
            dst[o++] = *src++;
            continue;
        }
        if (o + sizeof mark > size)
            break;
        memcpy(dst + o, mark, sizeof mark - 1);
        o += sizeof mark - 1;
        src += sl;
    }
    if (truncated || *src != '\0')
        for (size_t s = 0; s < log->nsecrets; s++) {
            size_t l = strlen(log->secrets[s]);
            for (size_t k = (l - 1 < o ? l - 1 : o); k > 0; k--)
                if (memcmp(dst + o - k, log->secrets[s], k) == 0) {
                    o -= k;
                    break;
                }
        }
    dst[o] = '\0';
}

void mm2_log_format(const struct mm2_log *log, int level, char *out, size_t outlen, const char *fmt,
                    va_list ap)
{
    if (outlen == 0)
        return;
    int n = snprintf(out, outlen, "%s: %s: ", log->prog,
                     level_names[level < 0 ? 0 : (level > 3 ? 3 : level)]);
    if (n < 0 || (size_t)n >= outlen) {
        out[outlen - 1] = '\0';
        return;
    }
    char *msg = out + n;
    size_t room = outlen - (size_t)n;
    char raw[MM2_LOG_LINE_MAX];
    int m = vsnprintf(raw, sizeof raw, fmt, ap);
    if (m < 0)
        raw[0] = '\0';
    redact(log, raw, msg, room, m >= (int)sizeof raw);
    for (char *c = msg; *c != '\0'; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            *c = '?';
}

static void emit(const struct mm2_log *log, int level, const char *fmt, va_list ap)
{
    char line[MM2_LOG_LINE_MAX];
    if (level > log->level || log->out == NULL)
        return;
    mm2_log_format(log, level, line, sizeof line, fmt, ap);
    fputs(line, log->out);
    fputc('\n', log->out);
    fflush(log->out);
}

#define MM2_LOG_FN(name, lvl)                                                                      \
    void name(const struct mm2_log *log, const char *fmt, ...)                                     \
    {                                                                                              \
        va_list ap;                                                                                \
        va_start(ap, fmt);                                                                         \
        emit(log, lvl, fmt, ap);                                                                   \
        va_end(ap);                                                                                \
    }

MM2_LOG_FN(mm2_log_error, MM2_LOG_ERROR)
MM2_LOG_FN(mm2_log_warn, MM2_LOG_WARN)
MM2_LOG_FN(mm2_log_info, MM2_LOG_INFO)
MM2_LOG_FN(mm2_log_debug, MM2_LOG_DEBUG)
