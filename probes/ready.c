/* ready: GET /health, with a fallback for Kafka before 3.9 (docs/ARCHITECTURE.md §3.3, §4.1).
 *
 * Since Kafka 3.9 (KIP-1017) GET /health answers 200 {"status":"healthy",...} once the worker
 * has finished starting and its herder thread handles requests, 503 "starting" before that and
 * 500 "unhealthy" when the herder does not answer; Connect may hold the answer for up to 10 s
 * (RestServer.DEFAULT_HEALTH_CHECK_TIMEOUT_MS, docs/ARCHITECTURE.md §4.1), so a --timeout above
 * that sees the verdict. Older workers answer 404: then GET /connectors, which needs the herder
 * too, stands in for it. */
#include "probe.h"

#include <cjson/cJSON.h>
#include <string.h>

#define STATUS_SHOW 32

/* The health object's "status", or NULL when the body is not {"status": "...", ...}. */
static const char *health_status(const cJSON *root)
{
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(root, "status");

    return cJSON_IsObject(root) && cJSON_IsString(s) ? s->valuestring : NULL;
}

static enum mm2_status healthy(const struct mm2_http_response *resp, struct mm2_error *err)
{
    cJSON *root = cJSON_ParseWithLength(resp->body, resp->len);
    const char *status = health_status(root);
    enum mm2_status st = MM2_OK;

    if (status == NULL)
        st = mm2_error_set(err, MM2_UNEXPECTED,
                           "GET /health: HTTP 200 but the body is not Connect's health JSON "
                           "{\"status\": ..., \"message\": ...}");
    else if (strcmp(status, "healthy") != 0)
        st = mm2_error_set(err, MM2_UNEXPECTED,
                           "GET /health: HTTP 200 but status \"%.*s\", expected \"healthy\"",
                           STATUS_SHOW, status);
    cJSON_Delete(root);
    return st;
}

/* 500 or 503: Connect's own word on what is wrong, on one bounded line. */
static enum mm2_status not_ready(const struct mm2_http_response *resp, struct mm2_error *err)
{
    cJSON *root = cJSON_ParseWithLength(resp->body, resp->len);
    const char *status = health_status(root);
    char msg[512];

    probe_body_message(resp, msg, sizeof(msg));
    if (root == NULL)
        mm2_error_set(err, MM2_CHECK_FAILED, "GET /health: HTTP %ld (the body is not JSON)",
                      resp->status);
    else
        mm2_error_set(err, MM2_CHECK_FAILED, "GET /health: HTTP %ld%s%.*s%s%s", resp->status,
                      status != NULL ? ": " : "", STATUS_SHOW, status != NULL ? status : "",
                      msg[0] != '\0' ? ": " : "", msg);
    cJSON_Delete(root);
    return MM2_CHECK_FAILED;
}

/* Kafka before 3.9: GET /connectors answers 200 with a JSON array once the herder serves. */
static enum mm2_status fallback(struct probe_ctx *ctx, struct mm2_error *err)
{
    struct mm2_http_response resp;
    enum mm2_status st = probe_get(ctx, "/connectors", &resp, err);

    if (st != MM2_OK)
        return st;
    if (resp.status == 200) {
        cJSON *root = cJSON_ParseWithLength(resp.body, resp.len);
        if (!cJSON_IsArray(root))
            st = mm2_error_set(err, MM2_UNEXPECTED,
                               "GET /connectors: HTTP 200 but the body is not a JSON array of "
                               "connector names");
        cJSON_Delete(root);
    } else {
        char msg[512];
        probe_body_message(&resp, msg, sizeof(msg));
        st = mm2_error_set(err, MM2_CHECK_FAILED, "GET /connectors: HTTP %ld%s%s", resp.status,
                           msg[0] != '\0' ? ": " : "", msg);
    }
    mm2_http_response_free(&resp);
    return st;
}

enum mm2_status probe_ready(struct probe_ctx *ctx, struct mm2_error *err)
{
    struct mm2_http_response resp;
    enum mm2_status st = probe_get(ctx, "/health", &resp, err);

    if (st != MM2_OK)
        return st;
    switch (resp.status) {
    case 200:
        st = healthy(&resp, err);
        break;
    case 500:
    case 503:
        st = not_ready(&resp, err);
        break;
    case 404:
        mm2_http_response_free(&resp);
        return fallback(ctx, err);
    default:
        st = mm2_error_set(err, MM2_UNEXPECTED, "GET /health: unexpected HTTP %ld", resp.status);
        break;
    }
    mm2_http_response_free(&resp);
    return st;
}
