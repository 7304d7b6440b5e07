/* mm2_cli: the exit codes of --help and the usage error (see mm2_cli.h). */
#include "mm2_cli.h"

#include <ctype.h>
#include <string.h>

/* Room for every code of the table with a detail of a few lines each. */
#define EXIT_TEXT_MAX 4096

/* True when word[0..len) is all digits: an exit code, which stays on the line of its text. */
static int is_code(const char *word, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (!isdigit((unsigned char)word[i]))
            return 0;
    return len > 0;
}

/* Writes text to out, wrapped at MM2_CLI_WIDTH columns on spaces. */
static void wrap(FILE *out, const char *text)
{
    size_t col = 0;
    const char *p = text;

    while (*p != '\0') {
        const char *w = p;
        size_t len;
        while (*p != '\0' && *p != ' ')
            p++;
        len = (size_t)(p - w);
        /* A code and the word after it go together: "2 usage" is never cut. */
        if (is_code(w, len) && *p == ' ') {
            const char *q = p + 1;
            while (*q != '\0' && *q != ' ')
                q++;
            len = (size_t)(q - w);
            p = q;
        }
        if (col > 0 && col + 1 + len > MM2_CLI_WIDTH) {
            fputc('\n', out);
            col = 0;
        } else if (col > 0) {
            fputc(' ', out);
            col++;
        }
        fwrite(w, 1, len, out);
        col += len;
        while (*p == ' ')
            p++;
    }
    fputc('\n', out);
}

void mm2_cli_exit_codes(FILE *out, const struct mm2_exit_note *notes, size_t n)
{
    char text[EXIT_TEXT_MAX];
    size_t o = 0;
    int k = snprintf(text, sizeof(text), "Exit codes:");

    o = k > 0 ? (size_t)k : 0;
    for (size_t i = 0; i < n && o < sizeof(text); i++) {
        const char *d = notes[i].detail;
        k = snprintf(text + o, sizeof(text) - o, " %d %s%s%s%s%s", (int)notes[i].code,
                     mm2_status_text(notes[i].code), d != NULL ? " (" : "", d != NULL ? d : "",
                     d != NULL ? ")" : "", i + 1 < n ? "," : ".");
        if (k < 0)
            break;
        o += (size_t)k;
    }
    if (o >= sizeof(text)) /* cut: still one paragraph, never a partial byte sequence */
        text[sizeof(text) - 1] = '\0';
    wrap(out, text);
}

enum mm2_status mm2_cli_vusage_error(const struct mm2_log *log, const char *fmt, va_list ap)
{
    char msg[MM2_LOG_LINE_MAX];

    if (vsnprintf(msg, sizeof(msg), fmt, ap) < 0)
        msg[0] = '\0';
    mm2_log_error(log, "%s", msg);
    if (log != NULL && log->out != NULL) {
        fprintf(log->out, "Try '%s --help'.\n", log->prog != NULL ? log->prog : "mm2kit");
        fflush(log->out);
    }
    return MM2_USAGE;
}

enum mm2_status mm2_cli_usage_error(const struct mm2_log *log, const char *fmt, ...)
{
    va_list ap;
    enum mm2_status st;

    va_start(ap, fmt);
    st = mm2_cli_vusage_error(log, fmt, ap);
    va_end(ap);
    return st;
}
