/*
 * mm2_digest: SHA-256 digests for mm2-offsets artifacts and connector configs (docs/ARCHITECTURE.md
 * §3.4: every artifact carries a digest of itself and of the connector config; resume takes the
 * plan digest a person approved).
 *
 * Contract: nothing allocates; the text form is "sha256:" followed by 64 lowercase hex digits
 * (MM2_DIGEST_TEXT_LEN characters plus the NUL). OpenSSL's EVP interface does the hashing.
 */
#ifndef MM2_DIGEST_H
#define MM2_DIGEST_H

#include <stdbool.h>
#include <stddef.h>

#define MM2_DIGEST_TEXT_LEN (7 + 64)

/* Writes "sha256:<hex>" of data[0..len) into out (MM2_DIGEST_TEXT_LEN + 1 bytes). Returns 0, or
 * -1 when OpenSSL fails (out is then ""). */
int mm2_digest_text(const void *data, size_t len, char out[MM2_DIGEST_TEXT_LEN + 1]);

/* True when s has the form "sha256:" + 64 lowercase hex digits. */
bool mm2_digest_valid(const char *s);

#endif
