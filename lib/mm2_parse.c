/* mm2_parse: strict number, port, duration, bootstrap list and topic parsing (see mm2_parse.h). */
#include "mm2_parse.h"

#include "mm2_err.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool is_alnum(char c)
{
    return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

int mm2_parse_long(const char *s, long min, long max, long *out)
{
    const char *p;
    char *end;
    long v;

    if (s == NULL)
        return -1;
    /* strtol itself would accept leading spaces and '+': check the shape first. */
    p = (*s == '-') ? s + 1 : s;
    if (!is_digit(*p))
        return -1;
    errno = 0;
    v = strtol(s, &end, 10);
    if (errno != 0 || *end != '\0' || v < min || v > max)
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

#define SECONDS_MAX 86400L

int mm2_parse_seconds(const char *s, long *out_ms)
{
    const char *dot;
    long whole;
    long frac = 0;
    char intpart[16];
    size_t n;

    if (s == NULL)
        return -1;
    dot = strchr(s, '.');
    n = dot != NULL ? (size_t)(dot - s) : strlen(s);
    if (n == 0 || n >= sizeof(intpart))
        return -1;
    for (size_t i = 0; i < n; i++)
        if (!is_digit(s[i]))
            return -1;
    memcpy(intpart, s, n);
    intpart[n] = '\0';
    if (mm2_parse_long(intpart, 0, SECONDS_MAX, &whole) != 0)
        return -1;
    if (dot != NULL) {
        const char *f = dot + 1;
        size_t nf = strlen(f);
        long scale = 100;
        if (nf == 0 || nf > 3)
            return -1;
        for (size_t i = 0; i < nf; i++, scale /= 10) {
            if (!is_digit(f[i]))
                return -1;
            frac += (f[i] - '0') * scale;
        }
    }
    if (whole * 1000 + frac <= 0 || whole * 1000 + frac > SECONDS_MAX * 1000)
        return -1;
    *out_ms = whole * 1000 + frac;
    return 0;
}

/* DNS name per RFC 1123 labels: [A-Za-z0-9-], no edge '-', label <= 63, name <= 253. */
static bool dns_name_valid(const char *h, size_t len)
{
    size_t label = 0;

    if (len == 0 || len > 253)
        return false;
    for (size_t i = 0; i <= len; i++) {
        if (i == len || h[i] == '.') {
            if (label == 0 || label > 63 || h[i - 1] == '-' || h[i - label] == '-')
                return false;
            label = 0;
        } else if (is_alnum(h[i]) || h[i] == '-') {
            label++;
        } else {
            return false;
        }
    }
    return true;
}

static bool ip_valid(int af, const char *h, size_t len)
{
    char buf[INET6_ADDRSTRLEN + 1];
    unsigned char addr[sizeof(struct in6_addr)];

    if (len == 0 || len >= sizeof(buf))
        return false;
    memcpy(buf, h, len);
    buf[len] = '\0';
    return inet_pton(af, buf, addr) == 1;
}

/* Only digits and dots: a would-be IPv4 address, which DNS rules must not rescue ("10.0.0"). */
static bool looks_numeric(const char *h, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (!is_digit(h[i]) && h[i] != '.')
            return false;
    return true;
}

static bool entry_valid(const char *e, size_t len, char *why, size_t whylen)
{
    const char *colon;
    const char *host = e;
    size_t hlen;
    char port[8];
    size_t plen;
    int p;

    if (len > 0 && e[0] == '[') {
        const char *close = memchr(e, ']', len);
        if (close == NULL) {
            mm2_whyf(why, whylen, "entry \"%.*s\" has an unclosed '['", (int)len, e);
            return false;
        }
        host = e + 1;
        hlen = (size_t)(close - host);
        colon = close + 1;
        if (colon == e + len) {
            mm2_whyf(why, whylen, "entry \"%.*s\" has no port", (int)len, e);
            return false;
        }
        if (*colon != ':') {
            mm2_whyf(why, whylen, "entry \"%.*s\" has junk after ']'", (int)len, e);
            return false;
        }
        if (!ip_valid(AF_INET6, host, hlen)) {
            mm2_whyf(why, whylen, "entry \"%.*s\" has an invalid IPv6 address", (int)len, e);
            return false;
        }
    } else {
        colon = NULL;
        for (size_t i = 0; i < len; i++)
            if (e[i] == ':')
                colon = e + i;
        if (colon == NULL) {
            mm2_whyf(why, whylen, "entry \"%.*s\" has no port", (int)len, e);
            return false;
        }
        hlen = (size_t)(colon - e);
        if (hlen == 0) {
            mm2_whyf(why, whylen, "entry \"%.*s\" has no host", (int)len, e);
            return false;
        }
        if (memchr(e, ':', hlen) != NULL) {
            mm2_whyf(why, whylen,
                     "entry \"%.*s\": an IPv6 address needs brackets, as in [::1]:9092", (int)len,
                     e);
            return false;
        }
        if (looks_numeric(host, hlen) ? !ip_valid(AF_INET, host, hlen)
                                      : !dns_name_valid(host, hlen)) {
            mm2_whyf(why, whylen, "entry \"%.*s\" has an invalid host", (int)len, e);
            return false;
        }
    }
    plen = (size_t)(e + len - (colon + 1));
    if (plen == 0 || plen >= sizeof(port)) {
        mm2_whyf(why, whylen, "entry \"%.*s\" has an invalid port (expected 1..65535)", (int)len,
                 e);
        return false;
    }
    memcpy(port, colon + 1, plen);
    port[plen] = '\0';
    if (mm2_parse_port(port, &p) != 0) {
        mm2_whyf(why, whylen, "entry \"%.*s\" has an invalid port (expected 1..65535)", (int)len,
                 e);
        return false;
    }
    return true;
}

bool mm2_parse_hostport_list_valid(const char *s, char *why, size_t whylen)
{
    size_t total;
    const char *e;

    if (s == NULL || s[0] == '\0') {
        mm2_whyf(why, whylen, "list is empty");
        return false;
    }
    total = strlen(s);
    if (total > MM2_HOSTPORT_LIST_MAX) {
        mm2_whyf(why, whylen, "list is %zu characters long (at most %d)", total,
                 MM2_HOSTPORT_LIST_MAX);
        return false;
    }
    e = s;
    for (size_t n = 1;; n++) {
        const char *comma = strchr(e, ',');
        size_t len = comma != NULL ? (size_t)(comma - e) : strlen(e);
        if (len == 0) {
            mm2_whyf(why, whylen, "entry %zu is empty", n);
            return false;
        }
        if (!entry_valid(e, len, why, whylen))
            return false;
        if (comma == NULL)
            return true;
        e = comma + 1;
    }
}

/* Kafka's Topic.MAX_NAME_LENGTH. */
#define TOPIC_MAX 249

bool mm2_parse_topic_valid(const char *s, char *why, size_t whylen)
{
    size_t len;

    if (s == NULL || s[0] == '\0') {
        mm2_whyf(why, whylen, "topic name is empty");
        return false;
    }
    if (strcmp(s, ".") == 0 || strcmp(s, "..") == 0) {
        mm2_whyf(why, whylen, "topic name cannot be \"%s\"", s);
        return false;
    }
    len = strlen(s);
    if (len > TOPIC_MAX) {
        mm2_whyf(why, whylen, "topic name is %zu characters long (at most %d)", len, TOPIC_MAX);
        return false;
    }
    for (size_t i = 0; i < len; i++) {
        if (!is_alnum(s[i]) && s[i] != '.' && s[i] != '_' && s[i] != '-') {
            mm2_whyf(why, whylen,
                     "topic name \"%s\" has an illegal character at position %zu (allowed: "
                     "[a-zA-Z0-9._-])",
                     s, i + 1);
            return false;
        }
    }
    return true;
}

long mm2_parse_list(const char *v, char *buf, size_t buflen, char **items, size_t max, char *why,
                    size_t whylen)
{
    size_t len = strlen(v), n = 0;
    char *p = buf;

    if (len >= buflen) {
        mm2_whyf(why, whylen, "is longer than %zu bytes", buflen - 1);
        return -1;
    }
    memcpy(buf, v, len + 1);
    for (;;) {
        char *end = p + strcspn(p, ","), *last = end;
        bool more = *end == ',';
        *end = '\0';
        while (*p == ' ' || *p == '\t')
            p++;
        while (last > p && (last[-1] == ' ' || last[-1] == '\t'))
            *--last = '\0';
        if (*p == '\0') {
            mm2_whyf(why, whylen, "has an empty entry");
            return -1;
        }
        if (n == max) {
            mm2_whyf(why, whylen, "has more than %zu entries", max);
            return -1;
        }
        items[n++] = p;
        if (!more)
            return (long)n;
        p = end + 1;
    }
}
