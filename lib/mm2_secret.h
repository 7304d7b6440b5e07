/*
 * mm2_secret: which names carry a secret value, and how secret values are kept out of a text.
 * The one list and the one redactor that mm2_config (the INI file's problems), mm2_kafka
 * (librdkafka's text), mm2_log (every line printed) and the entrypoint's launcher (--check)
 * use.
 *
 * Contract:
 *   - Never prints, never exits, never allocates.
 *   - A name is secret when it holds, in any case, one of the marks password, secret, jaas,
 *     token, credential, pem, extensions or oauthbearer.config, "_" counting as ".": a Kafka or
 *     librdkafka property (sasl.password, ssl.key.pem, sasl.oauthbearer.client.secret,
 *     sasl.oauthbearer.extensions), a key of the INI file, or an environment variable
 *     (CONNECT_SASL_JAAS_CONFIG).
 *   - Redaction is a second line of defence: callers name a secret, never pass its value. It
 *     replaces every occurrence of a value by "<redacted>", the longest value first where two
 *     start at the same place (a secret that holds another is hidden whole).
 */
#ifndef MM2_SECRET_H
#define MM2_SECRET_H

#include <stdbool.h>
#include <stddef.h>

#define MM2_SECRET_MARK "<redacted>"

/* Shortest start of a value that MM2_SECRET_CUT_STARTS hides. */
#define MM2_SECRET_CUT_MIN 6

enum mm2_secret_flags {
    /* Also hide the start of a value (MM2_SECRET_CUT_MIN characters or more) where a quoted
     * value is cut: right after a '"', or right before a '"', a "..." or the end of the text
     * (a value quoted with %.40s, a line cut at its length). */
    MM2_SECRET_CUT_STARTS = 1,
};

/* True when the value of name[0..len) is a secret (see above). */
bool mm2_secret_name(const char *name, size_t len);

/* Copies in into out (outlen > 0 bytes, always NUL-terminated) with every occurrence of
 * values[0..n) replaced by MM2_SECRET_MARK; NULL and empty values are skipped. A mark that
 * does not fit is not written in part. flags: 0 or MM2_SECRET_CUT_STARTS. Returns true when
 * all of in was copied, false when out was cut. */
bool mm2_secret_redact(const char *in, const char *const *values, size_t n, int flags, char *out,
                       size_t outlen);

#endif
