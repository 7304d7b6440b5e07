/*
 * probe: what every mm2-probe check shares: the options main built, the one deadline of the run
 * (docs/ARCHITECTURE.md §3.3), the HTTP client, and probe_get, which turns an answer into a probe's
 * terms.
 *
 * Contract:
 *   - struct probe_ctx is main's; the checks borrow it. Nothing here frees the client or the log.
 *   - A check returns an exit code of docs/ARCHITECTURE.md §5 (enum mm2_status). On failure it
 *     either fills err (main prints err.msg as one line) or, when it has several lines to say
 *     (connectors), logs them itself and leaves err.msg empty.
 *   - Diagnostics go to ctx->log (stderr); data (the connectors summary) to ctx->out (stdout).
 */
#ifndef PROBE_PROBE_H
#define PROBE_PROBE_H

#include <stdbool.h>
#include <stdio.h>

#include "mm2_deadline.h"
#include "mm2_err.h"
#include "mm2_http.h"
#include "mm2_log.h"

struct probe_opts {
    const char *url;               /* validated base URL */
    long timeout_ms;               /* the whole run's deadline */
    const char *const *connectors; /* --connector names (borrowed from argv) */
    size_t nconnectors;
    bool json; /* --format json */
};

struct probe_ctx {
    const struct probe_opts *opts;
    struct mm2_http *http;
    struct mm2_deadline deadline;
    const struct mm2_log *log;
    FILE *out;
};

typedef enum mm2_status (*probe_check_fn)(struct probe_ctx *ctx, struct mm2_error *err);

/* GET path within the run's deadline; logs "GET PATH STATUS N ms" at info level (--verbose).
 * MM2_OK for an answer that is not a redirect (any other status: the check decides); a 3xx is
 * MM2_UNEXPECTED, as no redirect is followed. Errors are prefixed "GET PATH". On MM2_OK the
 * caller frees resp with mm2_http_response_free. */
enum mm2_status probe_get(struct probe_ctx *ctx, const char *path, struct mm2_http_response *resp,
                          struct mm2_error *err);

/* Connect's "message" from an error body ({"error_code":N,"message":"..."} or the /health
 * object), cut to a bounded length; "" when the body is not JSON or has none. Copies into buf. */
void probe_body_message(const struct mm2_http_response *resp, char *buf, size_t buflen);

/* The checks, one file each: live.c, ready.c, connectors.c. */
enum mm2_status probe_live(struct probe_ctx *ctx, struct mm2_error *err);
enum mm2_status probe_ready(struct probe_ctx *ctx, struct mm2_error *err);
enum mm2_status probe_connectors(struct probe_ctx *ctx, struct mm2_error *err);

#endif
