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

/* A digest over data given in pieces (the trail's documents, read back chunk by chunk). */
struct mm2_digest_ctx {
    void *md; /* OpenSSL's EVP_MD_CTX; NULL when begin failed */
};
/* 0, or -1 when OpenSSL fails (update and end then fail too; end frees it either way). */
int mm2_digest_begin(struct mm2_digest_ctx *c);
int mm2_digest_update(struct mm2_digest_ctx *c, const void *data, size_t len);
/* Writes the text form into out ("" on failure) and frees c; -1 on failure. */
int mm2_digest_end(struct mm2_digest_ctx *c, char out[MM2_DIGEST_TEXT_LEN + 1]);
/* Frees c without a result (accepts one never begun or already ended). */
void mm2_digest_abort(struct mm2_digest_ctx *c);

/* True when s has the form "sha256:" + 64 lowercase hex digits. */
bool mm2_digest_valid(const char *s);

#endif
