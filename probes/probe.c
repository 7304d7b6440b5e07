/* probe: the request helper every check uses (see probe.h). */
#include "probe.h"

#include <string.h>

#define MESSAGE_MAX 300

enum mm2_status probe_get(struct probe_ctx *ctx, const char *path, struct mm2_http_response *resp,
                          struct mm2_error *err)
{
    enum mm2_status st = mm2_http_get(ctx->http, path, &ctx->deadline, resp, err);

    if (st != MM2_OK) {
        mm2_log_info(ctx->log, "GET %s failed after %ld ms", path, resp->elapsed_ms);
        return mm2_error_prefix(err, "GET %s", path);
    }
    mm2_log_info(ctx->log, "GET %s %ld %ld ms", path, resp->status, resp->elapsed_ms);
    if (resp->status >= 300 && resp->status < 400) {
        mm2_http_response_free(resp);
        return mm2_error_set(err, MM2_UNEXPECTED,
                             "GET %s: unexpected HTTP %ld (redirects are not followed)", path,
                             resp->status);
    }
    return MM2_OK;
}

void probe_body_message(const struct mm2_http_response *resp, char *buf, size_t buflen)
{
    /* One line, bounded: Connect's messages can carry a stack trace. */
    mm2_http_message(resp, MESSAGE_MAX, buf, buflen);
}
