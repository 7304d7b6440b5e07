/*
 * http: bounded HTTP GETs on libcurl against one base URL (a Kafka Connect worker's REST API).
 * Written to move into lib/ later: it never prints, never exits and never forks.
 *
 * Contract:
 *   - http_global_init() once before any client, http_global_cleanup() once after the last
 *     http_client_free (both wrap curl_global_*, which are not thread-safe).
 *   - struct http_client is opaque: http_client_new copies the base URL and the User-Agent,
 *     http_client_free releases everything and accepts NULL. One client reuses one connection
 *     across requests (the ready fallback costs no second handshake).
 *   - http_get sends GET <base><path> and returns MM2_OK for ANY complete HTTP answer, whatever
 *     its status (3xx, 4xx and 5xx included: the caller decides what they mean). Then
 *     resp->body is a NUL-terminated malloc'd copy of the body (never NULL), resp->len its
 *     length; free it with http_response_free. resp->status and resp->elapsed_ms are set in every
 *     case (status 0 when nothing was answered); on failure body is NULL.
 *   - The caller's deadline bounds each request: the time left is both the connect timeout and
 *     the whole-transfer timeout (CURLOPT_TIMEOUT_MS), so a worker that accepts and never answers,
 *     or drips its body, cannot hold the caller past it. An expired deadline sends nothing.
 *   - The body is capped at HTTP_BODY_MAX bytes; a larger one aborts the transfer and is an
 *     error, never a truncation. No compression is asked for, so the cap counts real bytes.
 *   - No redirect is followed (a 3xx comes back as a status), proxy environment variables are
 *     ignored (the probe talks to the worker, never through a proxy), only http and https.
 *   - Errors fill err without the method and path (the caller prefixes them):
 *       MM2_UNREACHABLE  "timed out after N ms", connection refused, host not resolved,
 *                        connection closed or reset before a complete answer;
 *       MM2_UNEXPECTED   "response body larger than 1048576 bytes", not HTTP, TLS failure,
 *                        out of memory.
 */
#ifndef PROBE_HTTP_H
#define PROBE_HTTP_H

#include <stdbool.h>
#include <stddef.h>

#include "mm2_deadline.h"
#include "mm2_err.h"

#define HTTP_BODY_MAX (1024L * 1024L)
#define HTTP_URL_MAX 1024 /* base URL plus path, in bytes */

struct http_client;

struct http_response {
    long status;     /* HTTP status, 0 when there was no complete answer */
    char *body;      /* malloc'd, NUL-terminated; NULL unless http_get returned MM2_OK */
    size_t len;      /* body length without the NUL */
    long elapsed_ms; /* time spent in this request */
};

/* MM2_OK, or MM2_UNEXPECTED with err filled when libcurl cannot initialise. */
enum mm2_status http_global_init(struct mm2_error *err);
void http_global_cleanup(void);

/* True when url is a usable base URL: http:// or https://, a host, an optional port and path
 * prefix, no credentials, query or fragment, at most HTTP_URL_MAX - 256 bytes (room for the
 * paths appended). On false, a short reason naming the bad part goes into why (whylen bytes,
 * always NUL-terminated). The reason never repeats a URL that carries credentials. */
bool http_base_url_valid(const char *url, char *why, size_t whylen);

/* A client for base_url (validated with http_base_url_valid; a trailing '/' is dropped).
 * *out is set on MM2_OK; MM2_USAGE for an invalid URL, MM2_UNEXPECTED when out of memory. */
enum mm2_status http_client_new(const char *base_url, const char *user_agent,
                                struct http_client **out, struct mm2_error *err);
void http_client_free(struct http_client *c);

/* GET base_url + path (path starts with '/'), bounded by deadline. See the contract above. */
enum mm2_status http_get(struct http_client *c, const char *path, const struct mm2_deadline *dl,
                         struct http_response *resp, struct mm2_error *err);

/* Frees resp->body and resets resp; resp itself is the caller's. NULL is accepted. */
void http_response_free(struct http_response *resp);

#endif
