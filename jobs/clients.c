/* clients: Connect, Kafka and the connector's topic filter, opened once from the INI file (see
 * clients.h). */
#include "clients.h"

#include "mm2_http.h"

static void on_retry(void *ctx, const char *what, long status, const char *why, long wait_ms)
{
    struct job *j = ctx;

    if (status == 0)
        job_info(j,
                 "%s: %s; a pod just started may not be allowed through yet (a NetworkPolicy "
                 "engine catching up): retrying in %ld ms, for up to [connect] "
                 "connect.wait.seconds",
                 what, why, wait_ms);
    else
        job_info(j, "%s answered HTTP %ld (%s); retrying in %ld ms", what, status, why, wait_ms);
}

enum mm2_status job_connect(struct job *j, struct mm2_error *err)
{
    enum mm2_status st;

    if (j->connect != NULL)
        return MM2_OK;
    if (!j->curl_up) {
        st = mm2_http_global_init(err);
        if (st != MM2_OK)
            return st;
        j->curl_up = true;
    }
    st = mm2_connect_new(j->cfg.connect_url, j->cfg.request_timeout_ms, j->cfg.retry_budget_ms,
                         &j->connect, err);
    if (st != MM2_OK)
        return mm2_error_prefix(err, "[connect] url");
    /* An https url signed by the REST listener's own CA (the HTTPS worker profile). */
    if (j->cfg.connect_ca != NULL &&
        mm2_connect_set_cacert(j->connect, j->cfg.connect_ca, err) != MM2_OK)
        return mm2_error_prefix(err, "[connect] ca.location");
    /* A REST API behind Kafka's basic-auth extension (docker/mm2/README.md). */
    if (j->cfg.connect_user != NULL &&
        mm2_connect_set_basic_auth(j->connect, j->cfg.connect_user, j->cfg.connect_password, err) !=
            MM2_OK)
        return mm2_error_prefix(err, "[connect] username");
    mm2_connect_set_notify(j->connect, on_retry, j);
    mm2_connect_set_connect_wait(j->connect, j->cfg.connect_wait_ms);
    return MM2_OK;
}

enum mm2_status job_kafka(struct job *j, bool source, bool target, struct mm2_error *err)
{
    enum mm2_status st = MM2_OK;

    if (source && j->source == NULL)
        st = mm2_kafka_new("source", j->cfg.source, j->cfg.nsource, &j->source, err);
    if (st == MM2_OK && target && j->target == NULL)
        st = mm2_kafka_new("target", j->cfg.target, j->cfg.ntarget, &j->target, err);
    return st;
}

enum mm2_status job_mirror(struct job *j, const char *kafka_version, struct mm2_error *err)
{
    if (j->mirror != NULL)
        return MM2_OK;
    return mm2_mirror_new(j->conn.config, kafka_version, &j->mirror, err) == MM2_OK
               ? MM2_OK
               : mm2_error_prefix(err, "connector %s", j->conn.name);
}

void job_kafka_deadline(const struct job *j, struct mm2_deadline *dl)
{
    mm2_deadline_start(dl, j->cfg.request_timeout_ms);
}
