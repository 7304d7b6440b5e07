/* mm2_digest: SHA-256 text digests (see mm2_digest.h). */
#include "mm2_digest.h"

#include <openssl/evp.h>
#include <string.h>

static const char hex[] = "0123456789abcdef";

static int to_text(const unsigned char *md, unsigned int mdlen, char out[MM2_DIGEST_TEXT_LEN + 1])
{
    if (mdlen != 32)
        return -1;
    memcpy(out, "sha256:", 7);
    for (unsigned int i = 0; i < mdlen; i++) {
        out[7 + 2 * i] = hex[md[i] >> 4];
        out[7 + 2 * i + 1] = hex[md[i] & 0x0f];
    }
    out[MM2_DIGEST_TEXT_LEN] = '\0';
    return 0;
}

int mm2_digest_text(const void *data, size_t len, char out[MM2_DIGEST_TEXT_LEN + 1])
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int mdlen = 0;

    out[0] = '\0';
    if (EVP_Digest(data, len, md, &mdlen, EVP_sha256(), NULL) != 1)
        return -1;
    return to_text(md, mdlen, out);
}

int mm2_digest_begin(struct mm2_digest_ctx *c)
{
    EVP_MD_CTX *x = EVP_MD_CTX_new();

    c->md = x;
    if (x == NULL)
        return -1;
    if (EVP_DigestInit_ex(x, EVP_sha256(), NULL) != 1) {
        EVP_MD_CTX_free(x);
        c->md = NULL;
        return -1;
    }
    return 0;
}

int mm2_digest_update(struct mm2_digest_ctx *c, const void *data, size_t len)
{
    if (c->md == NULL)
        return -1;
    if (len > 0 && EVP_DigestUpdate(c->md, data, len) != 1) {
        mm2_digest_abort(c);
        return -1;
    }
    return 0;
}

int mm2_digest_end(struct mm2_digest_ctx *c, char out[MM2_DIGEST_TEXT_LEN + 1])
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int mdlen = 0;
    int rc;

    out[0] = '\0';
    if (c->md == NULL)
        return -1;
    rc = EVP_DigestFinal_ex(c->md, md, &mdlen) == 1 ? to_text(md, mdlen, out) : -1;
    mm2_digest_abort(c);
    return rc;
}

void mm2_digest_abort(struct mm2_digest_ctx *c)
{
    if (c->md != NULL)
        EVP_MD_CTX_free(c->md);
    c->md = NULL;
}

bool mm2_digest_valid(const char *s)
{
    if (s == NULL || strncmp(s, "sha256:", 7) != 0 || strlen(s) != MM2_DIGEST_TEXT_LEN)
        return false;
    for (size_t i = 7; i < MM2_DIGEST_TEXT_LEN; i++) {
        char c = s[i];
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
            return false;
    }
    return true;
}
