/* connect-patch: a test tool that sends one PATCH /connectors/NAME/offsets through lib/mm2_connect
 * (the client mm2-offsets uses), so the e2e tests can show, against a real worker, how that
 * client reports Connect's answers to bodies mm2-offsets itself never builds (the bad bodies of
 * Kafka's OffsetsApiIntegrationTest) and how it retries real 409s.
 *
 *   connect-patch URL NAME BODY_FILE [RETRY_BUDGET_SECONDS]
 * With CONNECT_PATCH_USER and CONNECT_PATCH_PASSWORD set, it sends them as HTTP Basic (the bed's
 * workers run Kafka's basic-auth REST extension). Prints "retry: WHAT HTTP N, waiting MS ms" per
 * retry and the error line on stderr; exits with the status code (docs/ARCHITECTURE.md §5). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm2_connect.h"
#include "mm2_file.h"
#include "mm2_http.h"
#include "mm2_json.h"
#include "mm2_parse.h"

static void on_retry(void *ctx, const char *what, long status, const char *why, long wait_ms)
{
    (void)ctx;
    fprintf(stderr, "retry: %s HTTP %ld (%s), waiting %ld ms\n", what, status, why, wait_ms);
}

int main(int argc, char **argv)
{
    struct mm2_error err = {0};
    struct mm2_connect *c = NULL;
    char *body = NULL;
    size_t len = 0;
    long budget = 60;
    enum mm2_status st;

    if (argc < 4 || argc > 5 || (argc == 5 && mm2_parse_long(argv[4], 1, 3600, &budget) != 0)) {
        fprintf(stderr, "usage: connect-patch URL NAME BODY_FILE [RETRY_BUDGET_SECONDS]\n");
        return 2;
    }
    st = mm2_http_global_init(&err);
    if (st == MM2_OK)
        st = mm2_file_read("body", argv[3], 16 * 1024 * 1024, &body, &len, &err);
    if (st == MM2_OK)
        st = mm2_connect_new(argv[1], 100000, budget * 1000, &c, &err);
    if (st == MM2_OK && getenv("CONNECT_PATCH_USER") != NULL)
        st = mm2_connect_set_basic_auth(
            c, getenv("CONNECT_PATCH_USER"),
            getenv("CONNECT_PATCH_PASSWORD") != NULL ? getenv("CONNECT_PATCH_PASSWORD") : "", &err);
    if (st == MM2_OK) {
        mm2_connect_set_notify(c, on_retry, NULL);
        st = mm2_connect_patch_offsets(c, argv[2], body, len, &err);
    }
    if (st != MM2_OK)
        fprintf(stderr, "connect-patch: error: %s\n", err.msg);
    else
        fprintf(stderr, "connect-patch: ok after %ld requests\n", mm2_connect_requests(c));
    mm2_connect_free(c);
    free(body);
    mm2_http_global_cleanup();
    return (int)st;
}
