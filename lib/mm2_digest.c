/* mm2_digest: SHA-256 text digests (see mm2_digest.h). */
#include "mm2_digest.h"

#include <openssl/evp.h>
#include <string.h>

int mm2_digest_text(const void *data, size_t len, char out[MM2_DIGEST_TEXT_LEN + 1])
{
    static const char hex[] = "0123456789abcdef";
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int mdlen = 0;

    out[0] = '\0';
    if (EVP_Digest(data, len, md, &mdlen, EVP_sha256(), NULL) != 1 || mdlen != 32)
        return -1;
    memcpy(out, "sha256:", 7);
    for (unsigned int i = 0; i < mdlen; i++) {
        out[7 + 2 * i] = hex[md[i] >> 4];
        out[7 + 2 * i + 1] = hex[md[i] & 0x0f];
    }
    out[MM2_DIGEST_TEXT_LEN] = '\0';
    return 0;
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
