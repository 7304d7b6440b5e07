/*
 * mm2_http: bounded HTTP requests on libcurl against one base URL (a Kafka Connect worker's REST
 * API). It never prints, never exits and never forks.
 *
 * Contract:
 *   - mm2_http_global_init() once before any client, mm2_http_global_cleanup() once after the last
 *     mm2_http_free (both wrap curl_global_*, which are not thread-safe).
 *   - struct mm2_http is opaque: mm2_http_new copies the base URL and the User-Agent,
 *     mm2_http_free releases everything and accepts NULL. One client reuses one connection
 *     across requests (the ready fallback costs no second handshake).
 *   - mm2_http_request sends METHOD <base><path>, with an optional JSON body
 *     (Content-Type: application/json), and returns MM2_OK for ANY complete HTTP answer, whatever
 *     its status (3xx, 4xx and 5xx included: the caller decides what they mean). Then
 *     resp->body is a NUL-terminated malloc'd copy of the body (never NULL), resp->len its
 *     length; free it with mm2_http_response_free. resp->status and resp->elapsed_ms are set in
 * every case (status 0 when nothing was answered); on failure body is NULL.
 *   - The caller's deadline bounds each request: the time left is both the connect timeout and
 *     the whole-transfer timeout (CURLOPT_TIMEOUT_MS), so a worker that accepts and never answers,
 *     or drips its body, cannot hold the caller past it. An expired deadline sends nothing.
 *   - The body is capped at the client's body_max bytes (MM2_HTTP_BODY_MAX for the probe); a
 *     larger one aborts the transfer and is an
 *     error, never a truncation. No compression is asked for, so the cap counts real bytes.
 *   - No redirect is followed (a 3xx comes back as a status), proxy environment variables are
 *     ignored (the probe talks to the worker, never through a proxy), only http and https.
 *   - Errors fill err without the method and path (the caller prefixes them):
 *       MM2_UNREACHABLE  "timed out after N ms", connection refused, host not resolved,
 *                        connection closed or reset before a complete answer;
 *       MM2_UNEXPECTED   "response body larger than N bytes", not HTTP, TLS failure,
 *                        out of memory.
 */
#ifndef MM2_HTTP_H
#define MM2_HTTP_H

#include <stdbool.h>
#include <stddef.h>

#include "mm2_deadline.h"
#include "mm2_err.h"

#define MM2_HTTP_BODY_MAX (1024L * 1024L)
#define MM2_HTTP_URL_MAX 1024 /* base URL plus path, in bytes */

struct mm2_http;

struct mm2_http_response {
    long status;     /* HTTP status, 0 when there was no complete answer */
    char *body;      /* malloc'd, NUL-terminated; NULL unless mm2_http_get returned MM2_OK */
    size_t len;      /* body length without the NUL */
    long elapsed_ms; /* time spent in this request */
};

/* MM2_OK, or MM2_UNEXPECTED with err filled when libcurl cannot initialise. */
enum mm2_status mm2_http_global_init(struct mm2_error *err);
void mm2_http_global_cleanup(void);

/* True when url is a usable base URL: http:// or https://, a host, an optional port and path
 * prefix, no credentials, query or fragment, at most MM2_HTTP_URL_MAX - 256 bytes (room for the
 * paths appended). On false, a short reason naming the bad part goes into why (whylen bytes,
 * always NUL-terminated). The reason never repeats a URL that carries credentials. */
bool mm2_http_base_url_valid(const char *url, char *why, size_t whylen);

/* A client for base_url (validated with mm2_http_base_url_valid; a trailing '/' is dropped).
 * *out is set on MM2_OK; MM2_USAGE for an invalid URL, MM2_UNEXPECTED when out of memory. */
enum mm2_status mm2_http_new(const char *base_url, const char *user_agent, size_t body_max,
                             struct mm2_http **out, struct mm2_error *err);
void mm2_http_free(struct mm2_http *c);

/* Whether the last mm2_http_request failed to open its connection (refused, or no route to the
 * host): the request never left this process. */
bool mm2_http_connect_failed(const struct mm2_http *c);

/* METHOD base_url + path (path starts with '/'), bounded by deadline. body (body_len bytes) is
 * sent as application/json when not NULL. See the contract above. */
enum mm2_status mm2_http_request(struct mm2_http *c, const char *method, const char *path,
                                 const char *body, size_t body_len, const struct mm2_deadline *dl,
                                 struct mm2_http_response *resp, struct mm2_error *err);

/* mm2_http_request with GET and no body. */
enum mm2_status mm2_http_get(struct mm2_http *c, const char *path, const struct mm2_deadline *dl,
                             struct mm2_http_response *resp, struct mm2_error *err);

/* The "message" member of a JSON body (Kafka Connect's {"error_code": N, "message": "..."} and
 * its /health object) as one line: control characters become spaces, at most max characters
 * (a Connect message can carry a stack trace), a cut one ends in "...". "" when the body is not
 * such JSON; MM2_HTTP_401_MESSAGE (cut to buflen) for a 401 without one: the answer of Kafka's
 * basic-auth REST extension. Copies into buf (buflen bytes, always NUL-terminated when buflen > 0).
 */
#define MM2_HTTP_401_MESSAGE                                                                       \
    "the worker wants REST credentials, or refused them (Kafka's basic-auth extension): give "     \
    "this client the REST user and password"
void mm2_http_message(const struct mm2_http_response *r, size_t max, char *buf, size_t buflen);

/* Verifies an https:// server against the CA certificate(s) in the PEM file `path` instead of
 * the system's store (libcurl CURLOPT_CAINFO); peer and host name verification stay on. The file
 * must be readable: MM2_CONFIG with err naming it otherwise. */
enum mm2_status mm2_http_set_cacert(struct mm2_http *c, const char *path, struct mm2_error *err);

/* True when user can be an HTTP Basic user name for Kafka's JaasBasicAuthFilter: not empty, at
 * most MM2_HTTP_USER_MAX - 1 bytes, no ':' (the filter splits the pair at the first one) and no
 * control character. */
#define MM2_HTTP_USER_MAX 256
bool mm2_http_basic_user_valid(const char *user);

/* Sends user and password as HTTP Basic (RFC 7617) with every request (libcurl CURLOPT_USERNAME,
 * CURLOPT_PASSWORD, which keep their own copies): a worker whose REST API runs Kafka's
 * basic-auth extension (docker/mm2/README.md). MM2_CONFIG when user is not valid
 * (mm2_http_basic_user_valid) or the password is empty or longer than MM2_HTTP_PASSWORD_MAX - 1
 * bytes; err never holds either value. Over http:// the pair crosses the network in the clear:
 * use the HTTPS profile where that matters. */
#define MM2_HTTP_PASSWORD_MAX 1024
enum mm2_status mm2_http_set_basic_auth(struct mm2_http *c, const char *user, const char *password,
                                        struct mm2_error *err);

/* The numeric addresses (IPv4 or IPv6, at most MM2_HTTP_ADDR_LEN - 1 characters) the host of
 * base_url resolves to, each once, in the resolver's order: all the pods of a headless Service,
 * for example. *n is how many; MM2_UNREACHABLE when the name does not resolve (err says why),
 * MM2_USAGE for an invalid URL, MM2_UNEXPECTED when it resolves to more than max addresses. */
#define MM2_HTTP_ADDR_LEN 46 /* INET6_ADDRSTRLEN */
enum mm2_status mm2_http_addresses(const char *base_url, char (*addr)[MM2_HTTP_ADDR_LEN],
                                   size_t max, size_t *n, struct mm2_error *err);

/* Connects to the numeric address addr instead of resolving the base URL's host, which still
 * names the server in the Host header and in TLS (SNI, certificate name): one worker behind a
 * name that resolves to several (libcurl CURLOPT_CONNECT_TO). */
enum mm2_status mm2_http_pin_address(struct mm2_http *c, const char *addr, struct mm2_error *err);

/* Frees resp->body and resets resp; resp itself is the caller's. NULL is accepted. */
void mm2_http_response_free(struct mm2_http_response *resp);

#endif
