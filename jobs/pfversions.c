/* pfversions: every worker's version and commit (see pfversions.h). */
#include "pfversions.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm2_http.h"

/* Each worker's answer, or why there is none. */
struct asked {
    char addr[MM2_HTTP_ADDR_LEN];
    const char *url;
    struct mm2_connect_info info;
    char error[MM2_ERROR_MSG_MAX];
    bool answered;
};

/* A worker is asked once, briefly: one that takes longer than this to say its version is not
 * one to cut over on. */
#define ASK_TIMEOUT_MS 10000L

static void ask(struct job *j, struct asked *a)
{
    struct mm2_connect *c = NULL;
    struct mm2_error err = {0};
    long timeout =
        j->cfg.request_timeout_ms < ASK_TIMEOUT_MS ? j->cfg.request_timeout_ms : ASK_TIMEOUT_MS;

    if (mm2_connect_new(a->url, timeout, 0, &c, &err) == MM2_OK &&
        (j->cfg.connect_ca == NULL ||
         mm2_connect_set_cacert(c, j->cfg.connect_ca, &err) == MM2_OK) &&
        (j->cfg.connect_user == NULL ||
         mm2_connect_set_basic_auth(c, j->cfg.connect_user, j->cfg.connect_password, &err) ==
             MM2_OK) &&
        mm2_connect_pin_address(c, a->addr, &err) == MM2_OK &&
        mm2_connect_info(c, &a->info, &err) == MM2_OK)
        a->answered = true;
    else
        (void)snprintf(a->error, sizeof(a->error), "%s", err.msg);
    mm2_connect_free(c);
}

enum mm2_status job_pf_versions(struct job *j, struct mm2_pf_findings *f, struct mm2_error *err)
{
    struct asked *a = calloc(JOB_PF_WORKERS_MAX, sizeof(*a));
    struct mm2_pf_worker *w = calloc(JOB_PF_WORKERS_MAX, sizeof(*w));
    char(*addr)[MM2_HTTP_ADDR_LEN] = calloc(JOB_PF_WORKERS_MAX, sizeof(*addr));
    size_t n = 0;
    enum mm2_status st = MM2_OK;

    if (a == NULL || w == NULL || addr == NULL) {
        st = mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
        goto out;
    }
    for (size_t u = 0; u < j->cfg.nworkers; u++) {
        const char *url = j->cfg.workers[u];
        struct mm2_error e = {0};
        size_t got = 0;
        if (mm2_http_addresses(url, addr, JOB_PF_WORKERS_MAX - n, &got, &e) != MM2_OK) {
            /* A name that does not resolve is one worker (or all of them) not answering. */
            a[n].url = url;
            (void)snprintf(a[n].addr, sizeof(a[n].addr), "?");
            (void)snprintf(a[n].error, sizeof(a[n].error), "%s", e.msg);
            n++;
            if (n == JOB_PF_WORKERS_MAX)
                break;
            continue;
        }
        for (size_t i = 0; i < got; i++) {
            a[n].url = url;
            memcpy(a[n].addr, addr[i], sizeof(a[n].addr));
            n++;
        }
        if (n == JOB_PF_WORKERS_MAX)
            break;
    }
    if (n > 0)
        job_info(j, "asking %zu worker%s for their version (GET /)", n, n == 1 ? "" : "s");
    for (size_t i = 0; i < n; i++) {
        if (a[i].error[0] == '\0')
            ask(j, &a[i]);
        w[i] = (struct mm2_pf_worker){.url = a[i].url,
                                      .addr = a[i].addr,
                                      .answered = a[i].answered,
                                      .version = a[i].info.version,
                                      .commit = a[i].info.commit,
                                      .error = a[i].answered ? NULL : a[i].error};
    }
    mm2_pf_workers(f, w, n);
out:
    free(a);
    free(w);
    free(addr);
    return st;
}
