/* mm2_http: bounded requests on libcurl (see mm2_http.h). */
#include "mm2_http.h"

#include <cjson/cJSON.h>
#include <curl/curl.h>
#include <errno.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define BASE_URL_MAX (MM2_HTTP_URL_MAX - 256)
#define SHOW 200 /* characters of a bad URL repeated in a reason */
#define BODY_START 4096

struct mm2_http {
    CURL *curl;
    size_t body_max;
    char base[BASE_URL_MAX + 1];
    char errbuf[CURL_ERROR_SIZE];
    struct curl_slist *connect_to; /* mm2_http_pin_address's entry, kept for libcurl */
    bool connect_failed;           /* the last request could not connect (CURLE_COULDNT_CONNECT) */
};

/* What the write callback collects; too_large and oom say why it stopped the transfer. */
struct body {
    size_t max;
    char *buf;
    size_t len;
    size_t cap;
    bool too_large;
    bool oom;
};

enum mm2_status mm2_http_global_init(struct mm2_error *err)
{
    CURLcode rc = curl_global_init(CURL_GLOBAL_DEFAULT);

    if (rc != CURLE_OK)
        return mm2_error_set(err, MM2_UNEXPECTED, "cannot initialise libcurl: %s",
                             curl_easy_strerror(rc));
    return MM2_OK;
}

void mm2_http_global_cleanup(void)
{
    curl_global_cleanup();
}

/* True when part is present in u (libcurl reports an absent part as an error). */
static bool url_has(CURLU *u, CURLUPart part)
{
    char *v = NULL;
    bool has = curl_url_get(u, part, &v, 0) == CURLUE_OK && v != NULL;

    curl_free(v);
    return has;
}

bool mm2_http_base_url_valid(const char *url, char *why, size_t whylen)
{
    size_t n;
    CURLU *u;
    CURLUcode uc;
    bool ok = false;

    if (url == NULL || url[0] == '\0') {
        mm2_whyf(why, whylen, "it is empty");
        return false;
    }
    n = strlen(url);
    if (n > BASE_URL_MAX) {
        mm2_whyf(why, whylen, "it is longer than %d bytes", BASE_URL_MAX);
        return false;
    }
    if (strncasecmp(url, "http://", 7) != 0 && strncasecmp(url, "https://", 8) != 0) {
        mm2_whyf(why, whylen, "\"%.*s\" does not start with http:// or https://", SHOW, url);
        return false;
    }
    u = curl_url();
    if (u == NULL) {
        mm2_whyf(why, whylen, "out of memory");
        return false;
    }
    uc = curl_url_set(u, CURLUPART_URL, url, 0);
    if (uc == CURLUE_NO_HOST) {
        mm2_whyf(why, whylen, "\"%.*s\" has no host", SHOW, url);
    } else if (uc != CURLUE_OK) {
        mm2_whyf(why, whylen, "\"%.*s\" is not a valid URL (%s)", SHOW, url, curl_url_strerror(uc));
    } else if (url_has(u, CURLUPART_USER) || url_has(u, CURLUPART_PASSWORD)) {
        /* The URL is not repeated: it holds a secret. */
        mm2_whyf(why, whylen, "it carries credentials (USER@), which the process list would show");
    } else if (!url_has(u, CURLUPART_HOST)) {
        mm2_whyf(why, whylen, "\"%.*s\" has no host", SHOW, url);
    } else if (url_has(u, CURLUPART_QUERY) || url_has(u, CURLUPART_FRAGMENT) ||
               strpbrk(url, "?#") != NULL) {
        mm2_whyf(why, whylen, "\"%.*s\" has a query or fragment", SHOW, url);
    } else {
        ok = true;
    }
    curl_url_cleanup(u);
    return ok;
}

static size_t on_body(char *data, size_t size, size_t nmemb, void *userp)
{
    struct body *b = userp;
    size_t n = size * nmemb; /* size is always 1 */

    if (n > b->max - b->len) {
        b->too_large = true;
        return 0; /* anything but n aborts the transfer with CURLE_WRITE_ERROR */
    }
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap > 0 ? b->cap : BODY_START;
        while (cap < b->len + n + 1)
            cap *= 2;
        if (cap > b->max + 1)
            cap = b->max + 1;
        char *p = realloc(b->buf, cap);
        if (p == NULL) {
            b->oom = true;
            return 0;
        }
        b->buf = p;
        b->cap = cap;
    }
    memcpy(b->buf + b->len, data, n);
    b->len += n;
    b->buf[b->len] = '\0';
    return n;
}

enum mm2_status mm2_http_new(const char *base_url, const char *user_agent, size_t body_max,
                             struct mm2_http **out, struct mm2_error *err)
{
    char why[512];
    struct mm2_http *c;
    CURLcode rc = CURLE_OK;
    size_t n;

    if (!mm2_http_base_url_valid(base_url, why, sizeof(why)))
        return mm2_error_set(err, MM2_USAGE, "invalid base URL: %s", why);
    c = calloc(1, sizeof(*c));
    if (c == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    c->body_max = body_max;
    n = strlen(base_url);
    while (n > 0 && base_url[n - 1] == '/')
        n--;
    memcpy(c->base, base_url, n);
    c->base[n] = '\0';
    c->curl = curl_easy_init();
    if (c->curl == NULL) {
        free(c);
        return mm2_error_set(err, MM2_UNEXPECTED, "cannot create a libcurl handle");
    }
    /* Each setopt can fail only on a bad option or no memory; the first failure stops the rest. */
    rc = curl_easy_setopt(c->curl, CURLOPT_ERRORBUFFER, c->errbuf);
    if (rc == CURLE_OK) /* signals would interrupt the JVM's PID 1 neighbours; threads are fine */
        rc = curl_easy_setopt(c->curl, CURLOPT_NOSIGNAL, 1L);
    if (rc == CURLE_OK)
        rc = curl_easy_setopt(c->curl, CURLOPT_FOLLOWLOCATION, 0L);
    if (rc == CURLE_OK)
        rc = curl_easy_setopt(c->curl, CURLOPT_PROTOCOLS_STR, "http,https");
    if (rc == CURLE_OK) /* "" disables proxies, even those named by http_proxy and friends */
        rc = curl_easy_setopt(c->curl, CURLOPT_PROXY, "");
    if (rc == CURLE_OK)
        rc = curl_easy_setopt(c->curl, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_1_1);
    if (rc == CURLE_OK) /* refuses early a body whose Content-Length is already too large */
        rc = curl_easy_setopt(c->curl, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)body_max);
    if (rc == CURLE_OK)
        rc = curl_easy_setopt(c->curl, CURLOPT_WRITEFUNCTION, on_body);
#if LIBCURL_VERSION_NUM >= 0x075700
    /* Without it, cleaning up after a timed-out lookup joins the resolver thread, which may sit
     * in getaddrinfo() long past the deadline (libcurl 7.87.0+). */
    if (rc == CURLE_OK)
        rc = curl_easy_setopt(c->curl, CURLOPT_QUICK_EXIT, 1L);
#endif
    if (rc == CURLE_OK && user_agent != NULL)
        rc = curl_easy_setopt(c->curl, CURLOPT_USERAGENT, user_agent);
    if (rc != CURLE_OK) {
        mm2_http_free(c);
        return mm2_error_set(err, MM2_UNEXPECTED, "cannot configure libcurl: %s",
                             curl_easy_strerror(rc));
    }
    *out = c;
    return MM2_OK;
}

enum mm2_status mm2_http_set_cacert(struct mm2_http *c, const char *path, struct mm2_error *err)
{
    FILE *f = fopen(path, "re");
    if (f == NULL)
        return mm2_error_set(err, MM2_CONFIG, "cannot read the CA file %.*s: %s", 200, path,
                             strerror(errno));
    fclose(f);
    CURLcode rc = curl_easy_setopt(c->curl, CURLOPT_CAINFO, path);
    if (rc == CURLE_OK) /* only that CA: not also the system's directory */
        rc = curl_easy_setopt(c->curl, CURLOPT_CAPATH, NULL);
    if (rc != CURLE_OK)
        return mm2_error_set(err, MM2_UNEXPECTED, "cannot set the CA file: %s",
                             curl_easy_strerror(rc));
    return MM2_OK;
}

bool mm2_http_basic_user_valid(const char *user)
{
    size_t n = user != NULL ? strnlen(user, MM2_HTTP_USER_MAX) : 0;

    if (n == 0 || n == MM2_HTTP_USER_MAX)
        return false;
    for (size_t i = 0; i < n; i++)
        if (user[i] == ':' || (unsigned char)user[i] < 0x20 || user[i] == 0x7f)
            return false;
    return true;
}

enum mm2_status mm2_http_set_basic_auth(struct mm2_http *c, const char *user, const char *password,
                                        struct mm2_error *err)
{
    size_t pn = password != NULL ? strnlen(password, MM2_HTTP_PASSWORD_MAX) : 0;
    CURLcode rc;

    if (!mm2_http_basic_user_valid(user))
        return mm2_error_set(err, MM2_CONFIG,
                             "the REST user name must be 1 to %d bytes without ':' or control "
                             "characters",
                             MM2_HTTP_USER_MAX - 1);
    if (pn == 0 || pn == MM2_HTTP_PASSWORD_MAX)
        return mm2_error_set(err, MM2_CONFIG, "the REST password must be 1 to %d bytes",
                             MM2_HTTP_PASSWORD_MAX - 1);
    rc = curl_easy_setopt(c->curl, CURLOPT_HTTPAUTH, (long)CURLAUTH_BASIC);
    if (rc == CURLE_OK)
        rc = curl_easy_setopt(c->curl, CURLOPT_USERNAME, user);
    if (rc == CURLE_OK)
        rc = curl_easy_setopt(c->curl, CURLOPT_PASSWORD, password);
    if (rc != CURLE_OK)
        return mm2_error_set(err, MM2_UNEXPECTED, "cannot set the REST credentials: %s",
                             curl_easy_strerror(rc));
    return MM2_OK;
}

void mm2_http_free(struct mm2_http *c)
{
    if (c == NULL)
        return;
    curl_easy_cleanup(c->curl);
    curl_slist_free_all(c->connect_to);
    free(c);
}

/* The host and port (the scheme's default when absent) of a valid base URL. */
static enum mm2_status host_port(const char *url, char *host, size_t hostlen, char *port,
                                 size_t portlen, struct mm2_error *err)
{
    CURLU *u = curl_url();
    char *h = NULL, *p = NULL;
    enum mm2_status st = MM2_OK;

    if (u == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    if (curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK ||
        curl_url_get(u, CURLUPART_HOST, &h, 0) != CURLUE_OK ||
        curl_url_get(u, CURLUPART_PORT, &p, CURLU_DEFAULT_PORT) != CURLUE_OK)
        st = mm2_error_set(err, MM2_USAGE, "\"%.*s\" has no host and port", SHOW, url);
    else if (strlen(h) >= hostlen || strlen(p) >= portlen)
        st = mm2_error_set(err, MM2_USAGE, "\"%.*s\": the host name is too long", SHOW, url);
    if (st == MM2_OK) {
        /* an IPv6 literal comes back in brackets; getaddrinfo and CONNECT_TO want it bare */
        size_t n = strlen(h);
        if (n >= 2 && h[0] == '[' && h[n - 1] == ']')
            snprintf(host, hostlen, "%.*s", (int)(n - 2), h + 1);
        else
            snprintf(host, hostlen, "%s", h);
        snprintf(port, portlen, "%s", p);
    }
    curl_free(h);
    curl_free(p);
    curl_url_cleanup(u);
    return st;
}

enum mm2_status mm2_http_addresses(const char *base_url, char (*addr)[MM2_HTTP_ADDR_LEN],
                                   size_t max, size_t *n, struct mm2_error *err)
{
    char host[256], port[8], why[256];
    struct addrinfo hints = {.ai_socktype = SOCK_STREAM, .ai_family = AF_UNSPEC};
    struct addrinfo *res = NULL;
    enum mm2_status st;
    int rc;

    *n = 0;
    if (!mm2_http_base_url_valid(base_url, why, sizeof(why)))
        return mm2_error_set(err, MM2_USAGE, "invalid base URL: %s", why);
    st = host_port(base_url, host, sizeof(host), port, sizeof(port), err);
    if (st != MM2_OK)
        return st;
    rc = getaddrinfo(host, port, &hints, &res);
    if (rc != 0)
        return mm2_error_set(err, MM2_UNREACHABLE, "cannot resolve %.200s: %s", host,
                             rc == EAI_SYSTEM ? strerror(errno) : gai_strerror(rc));
    for (const struct addrinfo *a = res; a != NULL && st == MM2_OK; a = a->ai_next) {
        char num[MM2_HTTP_ADDR_LEN];
        bool seen = false;
        if (getnameinfo(a->ai_addr, a->ai_addrlen, num, sizeof(num), NULL, 0, NI_NUMERICHOST) != 0)
            continue;
        for (size_t i = 0; i < *n && !seen; i++)
            seen = strcmp(addr[i], num) == 0;
        if (seen)
            continue;
        if (*n == max)
            st = mm2_error_set(err, MM2_UNEXPECTED, "%.200s resolves to more than %zu addresses",
                               host, max);
        else
            memcpy(addr[(*n)++], num, sizeof(num));
    }
    freeaddrinfo(res);
    if (st == MM2_OK && *n == 0)
        st = mm2_error_set(err, MM2_UNREACHABLE, "%.200s resolves to no address", host);
    return st;
}

enum mm2_status mm2_http_pin_address(struct mm2_http *c, const char *addr, struct mm2_error *err)
{
    char host[256], port[8], entry[600];
    struct curl_slist *l;
    enum mm2_status st = host_port(c->base, host, sizeof(host), port, sizeof(port), err);
    bool v6 = strchr(addr, ':') != NULL;
    int w;

    if (st != MM2_OK)
        return st;
    if (strlen(addr) >= MM2_HTTP_ADDR_LEN || strpbrk(addr, "[]/ ") != NULL || addr[0] == '\0')
        return mm2_error_set(err, MM2_USAGE, "\"%.*s\" is not an IP address", 60, addr);
    w = snprintf(entry, sizeof(entry), "%s%s%s:%s:%s%s%s:%s", strchr(host, ':') ? "[" : "", host,
                 strchr(host, ':') ? "]" : "", port, v6 ? "[" : "", addr, v6 ? "]" : "", port);
    if (w < 0 || (size_t)w >= sizeof(entry))
        return mm2_error_set(err, MM2_USAGE, "the host name is too long");
    l = curl_slist_append(NULL, entry);
    if (l == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    CURLcode rc = curl_easy_setopt(c->curl, CURLOPT_CONNECT_TO, l);
    if (rc != CURLE_OK) {
        curl_slist_free_all(l);
        return mm2_error_set(err, MM2_UNEXPECTED, "cannot set the address: %s",
                             curl_easy_strerror(rc));
    }
    curl_slist_free_all(c->connect_to);
    c->connect_to = l;
    return MM2_OK;
}

void mm2_http_response_free(struct mm2_http_response *resp)
{
    if (resp == NULL)
        return;
    free(resp->body);
    resp->body = NULL;
    resp->len = 0;
}

bool mm2_http_connect_failed(const struct mm2_http *c)
{
    return c->connect_failed;
}

/* libcurl's detail when it left one, else its generic text for rc. */
static const char *detail(const struct mm2_http *c, CURLcode rc)
{
    return c->errbuf[0] != '\0' ? c->errbuf : curl_easy_strerror(rc);
}

static enum mm2_status failure(const struct mm2_http *c, CURLcode rc, const struct body *b,
                               long timeout_ms, struct mm2_error *err)
{
    if (b->too_large || rc == CURLE_FILESIZE_EXCEEDED)
        return mm2_error_set(err, MM2_UNEXPECTED, "response body larger than %zu bytes",
                             c->body_max);
    if (b->oom || rc == CURLE_OUT_OF_MEMORY)
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    switch (rc) {
    case CURLE_OPERATION_TIMEDOUT:
        return mm2_error_set(err, MM2_UNREACHABLE, "timed out after %ld ms", timeout_ms);
    case CURLE_COULDNT_CONNECT: {
        long os_errno = 0;
        if (curl_easy_getinfo(c->curl, CURLINFO_OS_ERRNO, &os_errno) != CURLE_OK || os_errno == 0)
            return mm2_error_set(err, MM2_UNREACHABLE, "cannot connect to %s", c->base);
        return mm2_error_set(err, MM2_UNREACHABLE, "cannot connect to %s: %s", c->base,
                             strerror((int)os_errno));
    }
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_PARTIAL_FILE:
        return mm2_error_set(err, MM2_UNREACHABLE, "%s", detail(c, rc));
    case CURLE_GOT_NOTHING:
        return mm2_error_set(err, MM2_UNREACHABLE, "connection closed without an answer");
    /* No trusted conversation is possible: the server is as good as unreachable, and the
     * line says which side of the handshake to look at (its CA, name or dates). */
    case CURLE_PEER_FAILED_VERIFICATION:
        return mm2_error_set(err, MM2_UNREACHABLE,
                             "TLS: the certificate of %s is not trusted (%s); give its CA, and "
                             "a URL with a name the certificate carries",
                             c->base, detail(c, rc));
    case CURLE_SSL_CONNECT_ERROR:
        return mm2_error_set(err, MM2_UNREACHABLE, "TLS handshake with %s failed: %s", c->base,
                             detail(c, rc));
    default:
        return mm2_error_set(err, MM2_UNEXPECTED, "%s", detail(c, rc));
    }
}

void mm2_http_message(const struct mm2_http_response *r, size_t max, char *buf, size_t buflen)
{
    cJSON *root;
    const cJSON *m;

    if (buflen == 0)
        return;
    buf[0] = '\0';
    if (r->body == NULL)
        return;
    root = cJSON_ParseWithLength(r->body, r->len);
    m = cJSON_GetObjectItemCaseSensitive(root, "message");
    if (cJSON_IsString(m) && m->valuestring != NULL) {
        const char *v = m->valuestring;
        size_t cap = buflen - 1 < max ? buflen - 1 : max;
        size_t o = 0;
        for (; o < cap && v[o] != '\0'; o++) {
            unsigned char ch = (unsigned char)v[o];
            buf[o] = (ch < 0x20 || ch == 0x7f) ? ' ' : (char)ch;
        }
        buf[o] = '\0';
        if (v[o] != '\0' && o >= 3)
            memcpy(buf + o - 3, "...", 3);
    } else if (r->status == 401) {
        /* Kafka's JaasBasicAuthFilter answers with a text body, no JSON message. */
        (void)snprintf(buf, buflen, "%s", MM2_HTTP_401_MESSAGE);
    }
    cJSON_Delete(root);
}

enum mm2_status mm2_http_get(struct mm2_http *c, const char *path, const struct mm2_deadline *dl,
                             struct mm2_http_response *resp, struct mm2_error *err)
{
    return mm2_http_request(c, "GET", path, NULL, 0, dl, resp, err);
}

/* Only the methods Connect's REST API uses; anything else is a programming error. */
static bool method_known(const char *m)
{
    return strcmp(m, "GET") == 0 || strcmp(m, "POST") == 0 || strcmp(m, "PUT") == 0 ||
           strcmp(m, "PATCH") == 0 || strcmp(m, "DELETE") == 0;
}

/* Method, body and headers of one request; reset for every request, as the handle is reused. */
static CURLcode set_request(struct mm2_http *c, const char *method, const char *body,
                            size_t body_len, struct curl_slist *headers)
{
    CURLcode rc;

    if (strcmp(method, "GET") == 0) {
        rc = curl_easy_setopt(c->curl, CURLOPT_HTTPGET, 1L);
        if (rc == CURLE_OK)
            rc = curl_easy_setopt(c->curl, CURLOPT_CUSTOMREQUEST, NULL);
    } else if (body != NULL) {
        rc = curl_easy_setopt(c->curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)body_len);
        if (rc == CURLE_OK)
            rc = curl_easy_setopt(c->curl, CURLOPT_POSTFIELDS, body);
        if (rc == CURLE_OK)
            rc = curl_easy_setopt(c->curl, CURLOPT_CUSTOMREQUEST,
                                  strcmp(method, "POST") == 0 ? NULL : method);
    } else {
        /* PUT /connectors/x/resume and friends carry no body: an empty POST with the verb. */
        rc = curl_easy_setopt(c->curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)0);
        if (rc == CURLE_OK)
            rc = curl_easy_setopt(c->curl, CURLOPT_POSTFIELDS, "");
        if (rc == CURLE_OK)
            rc = curl_easy_setopt(c->curl, CURLOPT_CUSTOMREQUEST, method);
    }
    if (rc == CURLE_OK)
        rc = curl_easy_setopt(c->curl, CURLOPT_HTTPHEADER, headers);
    return rc;
}

enum mm2_status mm2_http_request(struct mm2_http *c, const char *method, const char *path,
                                 const char *body, size_t body_len, const struct mm2_deadline *dl,
                                 struct mm2_http_response *resp, struct mm2_error *err)
{
    char url[MM2_HTTP_URL_MAX];
    struct body b = {.max = c->body_max};
    struct curl_slist *headers = NULL;
    long left = mm2_deadline_remaining_ms(dl);
    long start = mm2_deadline_now_ms();
    CURLcode rc = CURLE_OK;
    int n;

    memset(resp, 0, sizeof(*resp));
    if (!method_known(method))
        return mm2_error_set(err, MM2_USAGE, "unsupported HTTP method %.16s", method);
    if (left <= 0)
        return mm2_error_set(err, MM2_UNREACHABLE, "timed out before the request was sent");
    n = snprintf(url, sizeof(url), "%s%s", c->base, path);
    if (n < 0 || (size_t)n >= sizeof(url))
        return mm2_error_set(err, MM2_USAGE, "URL longer than %d bytes", MM2_HTTP_URL_MAX - 1);
    /* Connect answers JSON; a body we send is JSON. No "Expect: 100-continue" round trip. */
    headers = curl_slist_append(headers, "Accept: application/json");
    /* Also for a bodiless PUT: libcurl would say x-www-form-urlencoded and Connect answers 415. */
    if (headers != NULL && strcmp(method, "GET") != 0) {
        struct curl_slist *h = curl_slist_append(headers, "Content-Type: application/json");
        if (h == NULL) {
            curl_slist_free_all(headers);
            headers = NULL;
        } else {
            headers = h;
        }
    }
    if (headers != NULL) {
        struct curl_slist *h = curl_slist_append(headers, "Expect:");
        if (h == NULL) {
            curl_slist_free_all(headers);
            headers = NULL;
        } else {
            headers = h;
        }
    }
    if (headers == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    c->errbuf[0] = '\0';
    rc = curl_easy_setopt(c->curl, CURLOPT_URL, url);
    if (rc == CURLE_OK)
        rc = set_request(c, method, body, body_len, headers);
    if (rc == CURLE_OK)
        rc = curl_easy_setopt(c->curl, CURLOPT_WRITEDATA, &b);
    /* One deadline for the whole run (docs/ARCHITECTURE.md §3.3): what is left bounds connect and
     * transfer. */
    if (rc == CURLE_OK)
        rc = curl_easy_setopt(c->curl, CURLOPT_CONNECTTIMEOUT_MS, left);
    if (rc == CURLE_OK)
        rc = curl_easy_setopt(c->curl, CURLOPT_TIMEOUT_MS, left);
    if (rc == CURLE_OK)
        rc = curl_easy_perform(c->curl);
    c->connect_failed = rc == CURLE_COULDNT_CONNECT;
    resp->elapsed_ms = mm2_deadline_now_ms() - start;
    /* The handle must not keep pointers to this request's headers or body. */
    (void)curl_easy_setopt(c->curl, CURLOPT_HTTPHEADER, NULL);
    (void)curl_easy_setopt(c->curl, CURLOPT_POSTFIELDS, NULL);
    curl_slist_free_all(headers);
    if (rc != CURLE_OK) {
        free(b.buf);
        return failure(c, rc, &b, left, err);
    }
    if (curl_easy_getinfo(c->curl, CURLINFO_RESPONSE_CODE, &resp->status) != CURLE_OK)
        resp->status = 0;
    if (b.buf == NULL) {
        b.buf = malloc(1);
        if (b.buf == NULL)
            return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
        b.buf[0] = '\0';
    }
    resp->body = b.buf;
    resp->len = b.len;
    return MM2_OK;
}
