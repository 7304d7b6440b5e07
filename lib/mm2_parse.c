/* mm2_parse: see mm2_parse.h. */
#include "mm2_parse.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mm2_parse_long(const char *s, long min, long max, long *out)
{
    const char *d = s;
    if (s == NULL)
        return -1;
    if (*d == '-')
        d++;
    if (!isdigit((unsigned char)*d))
        return -1;
    for (const char *c = d; *c != '\0'; c++)
        if (!isdigit((unsigned char)*c))
            return -1;
    char *end = NULL;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

int mm2_parse_port(const char *s, int *out)
{
    long v;
    if (mm2_parse_long(s, 1, 65535, &v) != 0)
        return -1;
    *out = (int)v;
    return 0;
}

int mm2_parse_seconds(const char *s, long *out_ms)
{
    if (s == NULL || !isdigit((unsigned char)s[0]))
        return -1;
    const char *dot = strchr(s, '.');
    size_t ilen = dot ? (size_t)(dot - s) : strlen(s);
    char ipart[16];
    if (ilen == 0 || ilen >= sizeof ipart)
        return -1;
    memcpy(ipart, s, ilen);
    ipart[ilen] = '\0';
    long secs;
    if (mm2_parse_long(ipart, 0, 86400, &secs) != 0)
        return -1;
    long ms = 0;
    if (dot != NULL) {
        const char *f = dot + 1;
        size_t flen = strlen(f);
        if (flen == 0 || flen > 3)
            return -1;
        long scale = 100;
        for (size_t i = 0; i < flen; i++, scale /= 10) {
            if (!isdigit((unsigned char)f[i]))
                return -1;
            ms += (f[i] - '0') * scale;
        }
    }
    long total = secs * 1000 + ms;
    if (total <= 0 || total > 86400L * 1000)
        return -1;
    *out_ms = total;
    return 0;
}

static bool dns_name_valid(const char *h, size_t n)
{
    if (n == 0 || n > 253)
        return false;
    size_t label = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)h[i];
        if (c == '.') {
            if (label == 0 || h[i - 1] == '-')
                return false;
            label = 0;
            continue;
        }
        if (!(isalnum(c) || c == '-') || (label == 0 && c == '-') || ++label > 63)
            return false;
    }
    return label > 0 && h[n - 1] != '-';
}

static bool entry_valid(const char *e, size_t n, char *why, size_t whylen)
{
    const char *colon;
    size_t hlen;

    if (n == 0) {
        snprintf(why, whylen, "an entry is empty");
        return false;
    }
    if (e[0] == '[') {
        const char *close = memchr(e, ']', n);
        if (close == NULL || (size_t)(close - e) + 1 >= n || close[1] != ':') {
            snprintf(why, whylen, "entry \"%.*s\" must be [IPv6]:port", (int)n, e);
            return false;
        }
        char host[64];
        hlen = (size_t)(close - e) - 1;
        if (hlen == 0 || hlen >= sizeof host) {
            snprintf(why, whylen, "entry \"%.*s\" has no valid IPv6 address", (int)n, e);
            return false;
        }
        memcpy(host, e + 1, hlen);
        host[hlen] = '\0';
        struct in6_addr a6;
        if (inet_pton(AF_INET6, host, &a6) != 1) {
            snprintf(why, whylen, "entry \"%.*s\" has no valid IPv6 address", (int)n, e);
            return false;
        }
        colon = close + 1;
    } else {
        colon = memchr(e, ':', n);
        if (colon == NULL) {
            snprintf(why, whylen, "entry \"%.*s\" has no port", (int)n, e);
            return false;
        }
        hlen = (size_t)(colon - e);
        if (hlen == 0) {
            snprintf(why, whylen, "entry \"%.*s\" has no host", (int)n, e);
            return false;
        }
        if (memchr(colon + 1, ':', n - hlen - 1) != NULL) {
            snprintf(why, whylen, "entry \"%.*s\" must be host:port (IPv6 in brackets)", (int)n, e);
            return false;
        }
        if (!dns_name_valid(e, hlen)) {
            snprintf(why, whylen, "entry \"%.*s\" has an invalid host name", (int)n, e);
            return false;
        }
    }
    char port[8];
    size_t plen = n - (size_t)(colon + 1 - e);
    int p;
    if (plen == 0 || plen >= sizeof port) {
        snprintf(why, whylen, "entry \"%.*s\" has no valid port (1-65535)", (int)n, e);
        return false;
    }
    memcpy(port, colon + 1, plen);
    port[plen] = '\0';
    if (mm2_parse_port(port, &p) != 0) {
        snprintf(why, whylen, "entry \"%.*s\" has no valid port (1-65535)", (int)n, e);
        return false;
    }
    return true;
}

bool mm2_hostport_list_valid(const char *s, char *why, size_t whylen)
{
    if (s == NULL || *s == '\0') {
        snprintf(why, whylen, "the list is empty");
        return false;
    }
    if (strlen(s) > 4096) {
        snprintf(why, whylen, "the list is longer than 4096 characters");
        return false;
    }
    for (;;) {
        size_t n = strcspn(s, ",");
        if (!entry_valid(s, n, why, whylen))
            return false;
        if (s[n] == '\0')
            return true;
        s += n + 1;
    }
}

bool mm2_topic_valid(const char *s, char *why, size_t whylen)
{
    size_t n = s ? strlen(s) : 0;
    if (n == 0) {
        snprintf(why, whylen, "a topic name cannot be empty");
        return false;
    }
    if (n > 249) {
        snprintf(why, whylen, "a topic name is at most 249 characters, this one has %zu", n);
        return false;
    }
    if (strcmp(s, ".") == 0 || strcmp(s, "..") == 0) {
        snprintf(why, whylen, "a topic name cannot be \".\" or \"..\"");
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (!(isalnum(c) || c == '.' || c == '_' || c == '-')) {
            snprintf(why, whylen, "character %zu is not one of [a-zA-Z0-9._-]", i + 1);
            return false;
        }
    }
    return true;
}
