/* live: GET / answers 2xx in time (docs/ARCHITECTURE.md §3.3).
 *
 * GET / is served by Connect's RootResource without asking the herder, so it answers during a
 * rebalance and while connectors fail: a liveness probe that looked further would have the kubelet
 * restart healthy workers. The body is not read. */
#include "probe.h"

enum mm2_status probe_live(struct probe_ctx *ctx, struct mm2_error *err)
{
    struct mm2_http_response resp;
    char msg[512];
    enum mm2_status st = probe_get(ctx, "/", &resp, err);

    if (st != MM2_OK)
        return st;
    if (resp.status >= 200 && resp.status < 300) {
        mm2_http_response_free(&resp);
        return MM2_OK;
    }
    probe_body_message(&resp, msg, sizeof(msg));
    mm2_error_set(err, MM2_CHECK_FAILED, "GET /: HTTP %ld%s%s", resp.status, msg[0] ? ": " : "",
                  msg);
    mm2_http_response_free(&resp);
    return MM2_CHECK_FAILED;
}
