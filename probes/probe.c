/* probe: the request helper every check uses (see probe.h). */
#include "probe.h"

#include <cjson/cJSON.h>
#include <string.h>

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

#define MESSAGE_MAX 300

void probe_body_message(const struct mm2_http_response *resp, char *buf, size_t buflen)
{
    cJSON *root;
    const cJSON *m;

    if (buflen == 0)
        return;
    buf[0] = '\0';
    if (resp->body == NULL)
        return;
    root = cJSON_ParseWithLength(resp->body, resp->len);
    m = cJSON_GetObjectItemCaseSensitive(root, "message");
    if (cJSON_IsString(m)) {
        /* One line, bounded: Connect's messages can carry a stack trace. */
        const char *v = m->valuestring;
        size_t cap = buflen > MESSAGE_MAX ? MESSAGE_MAX : buflen - 1;
        size_t o = 0;
        for (; o < cap && v[o] != '\0'; o++) {
            unsigned char ch = (unsigned char)v[o];
            buf[o] = (ch < 0x20 || ch == 0x7f) ? ' ' : (char)ch;
        }
        buf[o] = '\0';
        if (v[o] != '\0' && o >= 3)
            memcpy(buf + o - 3, "...", 3);
    }
    cJSON_Delete(root);
}
