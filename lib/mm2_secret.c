/* mm2_secret: the secret names and the redactor (see mm2_secret.h). */
#include "mm2_secret.h"

#include <stdbool.h>
#include <string.h>

/* The marks, lower case, "." where a name may have "." or "_". */
static const char *const MARKS[] = {
    "password",           /* sasl.password, ssl.key.password, ssl.keystore.password, *_PASSWORD */
    "secret",             /* sasl.oauthbearer.client.secret */
    "jaas",               /* sasl.jaas.config, CONNECT_SASL_JAAS_CONFIG */
    "token",              /* bearer tokens, *_TOKEN */
    "credential",         /* *_CREDENTIALS */
    "pem",                /* ssl.key.pem and the other PEM texts */
    "extensions",         /* sasl.oauthbearer.extensions: key=value pairs sent to the broker */
    "oauthbearer.config", /* sasl.oauthbearer.config: may hold the principal's secret */
};

static char fold(char c)
{
    if (c >= 'A' && c <= 'Z')
        return (char)(c - 'A' + 'a');
    return c == '_' ? '.' : c;
}

bool mm2_secret_name(const char *name, size_t len)
{
    if (name == NULL)
        return false;
    for (size_t m = 0; m < sizeof(MARKS) / sizeof(MARKS[0]); m++) {
        size_t ml = strlen(MARKS[m]);

        for (size_t i = 0; i + ml <= len; i++) {
            size_t j = 0;

            while (j < ml && fold(name[i + j]) == MARKS[m][j])
                j++;
            if (j == ml)
                return true;
        }
    }
    return false;
}

/* True when a start of a value, k characters at in[i], sits where a quoted value is cut. */
static bool at_cut(const char *in, size_t i, size_t k)
{
    const char *after = in + i + k;

    return (i > 0 && in[i - 1] == '"') || *after == '"' || *after == '\0' ||
           strncmp(after, "...", 3) == 0;
}

/* How many characters in[i...] and value share from their start; *whole when that is all of
 * value. Stops at the first difference: linear in what matches, not in the value's length. */
static size_t shared(const char *in, size_t i, const char *value, bool *whole)
{
    size_t j = 0;

    while (value[j] != '\0' && in[i + j] == value[j])
        j++;
    *whole = value[j] == '\0' && j > 0;
    return j;
}

/* Length of the text to hide at in[i]: the longest value that starts there, else with
 * MM2_SECRET_CUT_STARTS the longest start of one at a cut; 0 when none. */
static size_t hidden_at(const char *in, size_t i, const char *const *values, size_t n, int flags)
{
    size_t best = 0;
    bool whole = false;

    for (size_t v = 0; v < n; v++) {
        size_t j = values[v] != NULL ? shared(in, i, values[v], &whole) : 0;

        if (j > best && whole)
            best = j;
    }
    if (best > 0 || !(flags & MM2_SECRET_CUT_STARTS))
        return best;
    for (size_t v = 0; v < n; v++) {
        size_t k;

        if (values[v] == NULL)
            continue;
        k = shared(in, i, values[v], &whole);
        if (whole)
            k--; /* a start, not the whole value: a whole one would have been found above */
        for (; k >= MM2_SECRET_CUT_MIN && k > best; k--) {
            if (at_cut(in, i, k)) {
                best = k;
                break;
            }
        }
    }
    return best;
}

bool mm2_secret_redact(const char *in, const char *const *values, size_t n, int flags, char *out,
                       size_t outlen)
{
    const size_t ml = strlen(MM2_SECRET_MARK);
    size_t o = 0;
    size_t i = 0;

    while (in[i] != '\0') {
        size_t hide = hidden_at(in, i, values, n, flags);

        if (hide > 0) {
            if (o + ml >= outlen)
                break;
            memcpy(out + o, MM2_SECRET_MARK, ml);
            o += ml;
            i += hide;
            continue;
        }
        if (o + 1 >= outlen)
            break;
        out[o++] = in[i++];
    }
    out[o] = '\0';
    return in[i] == '\0';
}
