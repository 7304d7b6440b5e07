/* job: what the mm2-offsets subcommands share (see job.h). */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "job.h"
#include "mm2_artifact.h"
#include "mm2_binding.h"
#include "mm2_cli.h"
#include "mm2_http.h"
#include "mm2_json.h"
#include "mm2_parse.h"

int job_options(struct job *j, int argc, char **argv, const struct job_opt *opts, size_t nopts,
                void (*usage)(FILE *out), bool *done)
{
    struct option lo[24];
    char so[80];
    size_t n = 0, o = 0;
    int c;

    *done = false;
    if (nopts + 4 > sizeof(lo) / sizeof(lo[0]))
        return job_usage_error(j, "too many options (internal)");
    so[o++] = ':';
    for (size_t i = 0; i < nopts; i++) {
        bool arg = opts[i].kind != JOB_OPT_FLAG;
        lo[n++] = (struct option){opts[i].name, arg ? required_argument : no_argument, NULL,
                                  opts[i].short_name};
        so[o++] = opts[i].short_name;
        if (arg)
            so[o++] = ':';
    }
    lo[n++] = (struct option){"quiet", no_argument, NULL, 'q'};
    lo[n++] = (struct option){"verbose", no_argument, NULL, 'v'};
    lo[n++] = (struct option){"help", no_argument, NULL, 'h'};
    lo[n] = (struct option){NULL, 0, NULL, 0};
    memcpy(so + o, "qvh", 4);
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, so, lo, NULL)) != -1) {
        const struct job_opt *opt = NULL;
        switch (c) {
        case 'q':
            j->log.level = MM2_LOG_WARN;
            continue;
        case 'v':
            j->log.level = MM2_LOG_DEBUG;
            continue;
        case 'h':
            usage(stdout);
            *done = true;
            return MM2_OK;
        case ':':
            return job_usage_error(j, "option '%.60s' needs an argument", argv[optind - 1]);
        case '?':
            return job_usage_error(j, "unknown option '%.60s'", argv[optind - 1]);
        default:
            break;
        }
        for (size_t i = 0; i < nopts && opt == NULL; i++)
            if (opts[i].short_name == c)
                opt = &opts[i];
        if (opt == NULL)
            return job_usage_error(j, "unknown option '%.60s'", argv[optind - 1]);
        switch (opt->kind) {
        case JOB_OPT_STRING:
            if (optarg[0] == '\0')
                return job_usage_error(j, "--%s needs a value, got \"\"", opt->name);
            *(const char **)opt->dst = optarg;
            break;
        case JOB_OPT_SECONDS:
            if (mm2_parse_seconds(optarg, (long *)opt->dst) != 0)
                return job_usage_error(j,
                                       "--%s must be seconds above 0 and at most 86400, up to 3 "
                                       "decimals, as in 30 or 0.5, got \"%.40s\"",
                                       opt->name, optarg);
            break;
        case JOB_OPT_FLAG:
            *(bool *)opt->dst = true;
            break;
        case JOB_OPT_LIST: {
            struct job_list *l = opt->dst;
            if (l->n >= JOB_LIST_MAX)
                return job_usage_error(j, "--%s may be given at most %d times", opt->name,
                                       JOB_LIST_MAX);
            l->v[l->n++] = optarg;
            break;
        }
        }
    }
    if (optind < argc)
        return job_usage_error(j, "unexpected argument '%.60s'", argv[optind]);
    return MM2_OK;
}

int job_usage_error(struct job *j, const char *fmt, ...)
{
    va_list ap;
    enum mm2_status st;

    va_start(ap, fmt);
    st = mm2_cli_vusage_error(&j->log, fmt, ap);
    va_end(ap);
    return st;
}

static void vlog(struct job *j, int level, const char *fmt, va_list ap)
{
    char msg[MM2_LOG_LINE_MAX];

    if (vsnprintf(msg, sizeof(msg), fmt, ap) < 0)
        msg[0] = '\0';
    if (level == MM2_LOG_WARN)
        mm2_log_warn(&j->log, "%s", msg);
    else
        mm2_log_info(&j->log, "%s", msg);
}

void job_info(struct job *j, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vlog(j, MM2_LOG_INFO, fmt, ap);
    va_end(ap);
}

void job_warn(struct job *j, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vlog(j, MM2_LOG_WARN, fmt, ap);
    va_end(ap);
}

int job_fail(struct job *j, const struct mm2_error *err)
{
    if (err->msg[0] != '\0')
        mm2_log_error(&j->log, "%s", err->msg);
    return err->code != MM2_OK ? (int)err->code : (int)MM2_UNEXPECTED;
}

int job_refused(struct job *j, const struct mm2_refusals *r, const char *what_not_done)
{
    for (size_t i = 0; i < r->n; i++)
        mm2_log_error(&j->log, "refused: %s", r->line[i]);
    mm2_log_error(&j->log, "%zu refusal%s; %s", r->n, r->n == 1 ? "" : "s", what_not_done);
    return MM2_CHECK_FAILED;
}

void job_sleep_ms(long ms)
{
    struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L};

    while (nanosleep(&ts, &ts) != 0)
        ;
}

void job_utc_now(char *buf, size_t len)
{
    time_t now = time(NULL);
    struct tm tm;

    if (gmtime_r(&now, &tm) == NULL || strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
        (void)snprintf(buf, len, "unknown");
}

void job_utc_stamp(char *buf, size_t len)
{
    time_t now = time(NULL);
    struct tm tm;

    if (gmtime_r(&now, &tm) == NULL || strftime(buf, len, "%Y%m%dT%H%M%SZ", &tm) == 0)
        (void)snprintf(buf, len, "now");
}

int job_load(struct job *j, const char *config_path)
{
    struct mm2_problems p = {0};
    struct mm2_error err = {0};

    if (config_path == NULL)
        return job_usage_error(j, "--config FILE is required (the migration INI file)");
    if (mm2_config_load(config_path, &j->cfg, &p) != MM2_OK) {
        /* Values from the environment may be secrets, even in a message about another key. */
        for (size_t i = 0; i < j->cfg.nsecrets; i++)
            (void)mm2_log_add_secret(&j->log, j->cfg.secrets[i]);
        for (size_t i = 0; i < p.n; i++)
            mm2_log_error(&j->log, "%s", p.line[i]);
        if (p.dropped > 0)
            mm2_log_error(&j->log, "... and %zu more problems", p.dropped);
        mm2_config_free(&j->cfg);
        j->log.nsecrets = 0; /* they pointed into the config just freed */
        return MM2_CONFIG;
    }
    j->cfg_loaded = true;
    for (size_t i = 0; i < j->cfg.nsecrets; i++)
        (void)mm2_log_add_secret(&j->log, j->cfg.secrets[i]);
    if (mm2_connector_load(j->cfg.connector_file, &j->conn, &err) != MM2_OK) {
        mm2_log_error(&j->log, "[connector] file: %s", err.msg);
        return MM2_CONFIG;
    }
    return MM2_OK;
}

static void on_retry(void *ctx, const char *what, long status, long wait_ms)
{
    struct job *j = ctx;

    job_info(j, "%s answered HTTP %ld (%s); retrying in %ld ms", what, status,
             status == 409 ? "a rebalance or a concurrent config change"
                           : "a rebalance expected, or a race inside the worker",
             wait_ms);
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
    mm2_connect_set_notify(j->connect, on_retry, j);
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

int job_read_plan(struct job *j, const char *path, struct mm2_plan *plan)
{
    struct mm2_error err = {0};
    char digest[MM2_DIGEST_TEXT_LEN + 1];
    struct mm2_binding b;
    cJSON *tree;
    int rc;

    if (path == NULL)
        return job_usage_error(j, "--plan FILE is required (the plan.json that was reviewed)");
    if (mm2_artifact_read("plan", path, MM2_KIND_PLAN, &tree, digest, &err) != MM2_OK)
        return job_fail(j, &err);
    if (mm2_plan_from_json(tree, plan, &err) != MM2_OK) {
        cJSON_Delete(tree);
        mm2_plan_free(plan);
        mm2_error_prefix(&err, "%s", path);
        return job_fail(j, &err);
    }
    cJSON_Delete(tree);
    memcpy(plan->digest, digest, sizeof(digest));
    mm2_binding_of_plan(plan, &b);
    rc = job_bound(j, "plan", &b, plan->connect_version, "Connect was not touched");
    if (rc != MM2_OK)
        mm2_plan_free(plan);
    return rc;
}

int job_load_plan(struct job *j, const char *config, const char *plan_path, struct mm2_plan *plan)
{
    int rc;

    if (config == NULL)
        return job_usage_error(j, "--config FILE is required (the migration INI file)");
    if (plan_path == NULL)
        return job_usage_error(j, "--plan FILE is required (the reviewed plan)");
    rc = job_load(j, config);
    return rc != MM2_OK ? rc : job_read_plan(j, plan_path, plan);
}

/* Source and target cluster ids, and Connect's, against the plan. */
static enum mm2_status recheck_clusters(struct job *j, const struct mm2_plan *plan,
                                        struct mm2_connect_info *info, struct mm2_refusals *r,
                                        struct mm2_error *err)
{
    char src[MM2_KAFKA_CLUSTER_ID_MAX], tgt[MM2_KAFKA_CLUSTER_ID_MAX];
    struct mm2_deadline dl;
    enum mm2_status st;

    job_kafka_deadline(j, &dl);
    st = mm2_kafka_cluster_id(j->source, &dl, src, sizeof(src), err);
    if (st == MM2_OK) {
        job_kafka_deadline(j, &dl);
        st = mm2_kafka_cluster_id(j->target, &dl, tgt, sizeof(tgt), err);
    }
    if (st == MM2_OK)
        st = mm2_connect_info(j->connect, info, err);
    if (st != MM2_OK)
        return st;
    if (strcmp(src, plan->source_cluster) != 0)
        mm2_refuse(r,
                   "the [source] cluster is %.64s but the plan was made on %.64s; use the "
                   "plan's clusters [rule wrong-source]",
                   src, plan->source_cluster);
    if (strcmp(tgt, plan->target_cluster) != 0)
        mm2_refuse(r,
                   "the [target] cluster is %.64s but the plan was made for %.64s [rule "
                   "wrong-target]",
                   tgt, plan->target_cluster);
    if (strcmp(info->kafka_cluster_id, plan->target_cluster) != 0)
        mm2_refuse(r,
                   "Connect at %s runs on Kafka cluster %.64s (GET /), not the plan's target "
                   "%.64s: wrong Connect cluster [rule wrong-target]",
                   j->cfg.connect_url, info->kafka_cluster_id, plan->target_cluster);
    return MM2_OK;
}

static const struct mm2_topic_meta *find_meta(const struct mm2_topic_list *l, const char *name)
{
    for (size_t lo = 0, hi = l->n; lo < hi;) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(name, l->v[mid].name);
        if (c == 0)
            return &l->v[mid];
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return NULL;
}

static const struct mm2_xtopic *find_plan_topic(const struct mm2_plan *plan, const char *name)
{
    for (size_t i = 0; i < plan->ntopics; i++)
        if (strcmp(plan->topics[i].name, name) == 0)
            return &plan->topics[i];
    return NULL;
}

/* Partition counts, and every replicated topic planned. */
static enum mm2_status recheck_topics(struct job *j, const struct mm2_plan *plan,
                                      struct mm2_refusals *r, struct mm2_error *err)
{
    struct mm2_topic_list src = {0}, tgt = {0};
    struct mm2_deadline dl;
    enum mm2_status st;

    job_kafka_deadline(j, &dl);
    st = mm2_kafka_topics(j->source, &dl, &src, err);
    if (st == MM2_OK) {
        job_kafka_deadline(j, &dl);
        st = mm2_kafka_topics(j->target, &dl, &tgt, err);
    }
    if (st != MM2_OK) {
        mm2_topic_list_free(&src);
        return st;
    }
    for (size_t i = 0; i < plan->ntopics; i++) {
        const struct mm2_xtopic *t = &plan->topics[i];
        const struct mm2_topic_meta *s = find_meta(&src, t->name);
        const struct mm2_topic_meta *d = find_meta(&tgt, t->target);
        if (s == NULL)
            mm2_refuse(r, "topic %.200s: it no longer exists on the source [rule topics-changed]",
                       t->name);
        else if (s->partitions != t->partitions)
            mm2_refuse(r,
                       "topic %.200s: it has %d partitions now, %d in the plan; partitions "
                       "%d.. have no plan entry and MM2 would copy them from the earliest "
                       "offset: export and plan again [rule unplanned]",
                       t->name, (int)s->partitions, (int)t->partitions, (int)t->partitions);
        if (d == NULL)
            mm2_refuse(r, "topic %.200s: target topic %.200s does not exist [rule target-missing]",
                       t->name, t->target);
        else if (d->partitions != t->target_partitions)
            mm2_refuse(r,
                       "topic %.200s: target topic %.200s has %d partitions, %d in the plan "
                       "[rule partition-count]",
                       t->name, t->target, (int)d->partitions, (int)t->target_partitions);
    }
    for (size_t i = 0; i < src.n; i++) {
        if (mm2_mirror_replicates(j->mirror, src.v[i].name) &&
            find_plan_topic(plan, src.v[i].name) == NULL)
            mm2_refuse(r,
                       "topic %.200s (%d partitions): the connector replicates it but the plan "
                       "has no entry for it; MM2 would copy it from the earliest offset, a full "
                       "duplicate: export and plan again, or narrow \"topics\" [rule unplanned]",
                       src.v[i].name, (int)src.v[i].partitions);
    }
    mm2_topic_list_free(&src);
    mm2_topic_list_free(&tgt);
    return MM2_OK;
}

/* Log start <= C <= log end still holds for every entry. */
static enum mm2_status recheck_logs(struct job *j, const struct mm2_plan *plan,
                                    struct mm2_refusals *r, struct mm2_error *err)
{
    struct mm2_tp *tps = calloc(plan->n > 0 ? plan->n : 1, sizeof(*tps));
    int64_t *start = calloc(plan->n > 0 ? plan->n : 1, sizeof(*start));
    int64_t *end = calloc(plan->n > 0 ? plan->n : 1, sizeof(*end));
    struct mm2_deadline dl;
    enum mm2_status st = MM2_OK;

    if (tps == NULL || start == NULL || end == NULL) {
        st = mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < plan->n; i++) {
        tps[i].topic = plan->entries[i].topic;
        tps[i].partition = plan->entries[i].partition;
    }
    job_kafka_deadline(j, &dl);
    if (plan->n > 0)
        st = mm2_kafka_log_offsets(j->source, tps, plan->n, start, end, NULL, &dl, err);
    for (size_t i = 0; st == MM2_OK && i < plan->n; i++) {
        const struct mm2_pentry *e = &plan->entries[i];
        if (e->action == MM2_ACT_LOSS)
            continue; /* the loss was accepted; MM2 starts at the log start, whatever it is */
        if (e->c < start[i])
            mm2_refuse(r,
                       "%s-%d: the log start is %lld now, above the plan's C=%lld: records "
                       "expired since the export; export and plan again [rule expired]",
                       e->topic, (int)e->partition, (long long)start[i], (long long)e->c);
        else if (e->c > end[i])
            mm2_refuse(r,
                       "%s-%d: the log end is %lld now, below the plan's C=%lld: was the topic "
                       "recreated? [rule beyond-end]",
                       e->topic, (int)e->partition, (long long)end[i], (long long)e->c);
    }
out:
    free(tps);
    free(start);
    free(end);
    return st;
}

enum mm2_status job_recheck(struct job *j, const struct mm2_plan *plan, struct mm2_refusals *r,
                            struct mm2_error *err)
{
    struct mm2_connect_info info;
    enum mm2_status st = job_kafka(j, true, true, err);

    if (st == MM2_OK)
        st = job_connect(j, err);
    if (st != MM2_OK)
        return st;
    job_info(j, "re-checking the plan's facts: clusters, topics, partitions, log start");
    st = recheck_clusters(j, plan, &info, r, err);
    if (st == MM2_OK)
        st = job_mirror(j, info.version, err);
    if (st == MM2_OK)
        st = recheck_topics(j, plan, r, err);
    if (st == MM2_OK)
        st = recheck_logs(j, plan, r, err);
    return st;
}

enum mm2_status job_connector_stopped(struct job *j, const struct mm2_plan *plan, bool *exists,
                                      struct mm2_refusals *r, struct mm2_error *err)
{
    struct mm2_connector_status s;
    char digest[MM2_DIGEST_TEXT_LEN + 1];
    cJSON *live = NULL;
    enum mm2_status st = mm2_connect_config(j->connect, plan->connector, &live, err);

    *exists = false;
    if (st != MM2_OK)
        return st;
    if (live == NULL)
        return MM2_OK;
    *exists = true;
    st = mm2_connector_config_digest(live, plan->connector, digest, err);
    if (st == MM2_OK && strcmp(digest, plan->config_digest) != 0) {
        const cJSON *a = cJSON_GetObjectItemCaseSensitive(live, "source.cluster.alias");
        if (!cJSON_IsString(a) || strcmp(a->valuestring, plan->alias) != 0)
            mm2_refuse(r,
                       "connector %s exists with source.cluster.alias \"%.100s\", but the plan's "
                       "offsets are keyed by \"%.100s\"; MM2 would ignore them [rule alias]",
                       plan->connector, cJSON_IsString(a) ? a->valuestring : "(unset)",
                       plan->alias);
        else
            mm2_refuse(r,
                       "connector %s exists with another config (%s, the plan's is %s); delete "
                       "it or apply the JSON the plan was made with [rule connector-config]",
                       plan->connector, digest, plan->config_digest);
    }
    cJSON_Delete(live);
    if (st != MM2_OK)
        return st;
    st = mm2_connect_status(j->connect, plan->connector, &s, err);
    if (st != MM2_OK)
        return st;
    if (!s.exists)
        return MM2_OK; /* deleted between the two calls: treat it as found, the caller re-reads */
    if (s.state != MM2_CSTATE_STOPPED)
        mm2_refuse(r,
                   "connector %s is %s, not STOPPED%s; offsets can only be written to a STOPPED "
                   "connector: PUT /connectors/%s/stop, check that its offsets have not moved "
                   "past the plan, then run again [rule connector-state]",
                   plan->connector, mm2_cstate_name(s.state),
                   s.state == MM2_CSTATE_PAUSED ? " (PAUSED is not STOPPED: its tasks still "
                                                  "exist)"
                                                : "",
                   plan->connector);
    else if (s.ntasks != 0)
        mm2_refuse(r,
                   "connector %s is STOPPED but still lists %zu tasks; wait for the rebalance to "
                   "end and run again [rule connector-state]",
                   plan->connector, s.ntasks);
    return MM2_OK;
}

#define STABLE_GAP_MS 250L

static bool offsets_equal(const struct mm2_source_offsets *a, const struct mm2_source_offsets *b)
{
    if (a->n != b->n)
        return false;
    for (size_t i = 0; i < a->n; i++)
        if (a->v[i].partition != b->v[i].partition || a->v[i].offset != b->v[i].offset ||
            strcmp(a->v[i].topic, b->v[i].topic) != 0 ||
            strcmp(a->v[i].cluster, b->v[i].cluster) != 0)
            return false;
    return true;
}

enum mm2_status job_read_offsets(struct job *j, const char *name, struct mm2_source_offsets *out,
                                 struct mm2_error *err)
{
    struct mm2_source_offsets prev = {0};
    struct mm2_deadline dl;
    int reads = 0;

    mm2_deadline_start(&dl, j->cfg.retry_budget_ms);
    for (;;) {
        long t = mm2_now_ms();
        enum mm2_status st = mm2_connect_offsets(j->connect, name, out, err);
        mm2_log_debug(&j->log, "GET /connectors/%s/offsets: %zu offsets in %ld ms", name,
                      st == MM2_OK ? out->n : 0, mm2_now_ms() - t);
        if (st != MM2_OK) {
            mm2_source_offsets_free(&prev);
            return st;
        }
        if (++reads > 1 && offsets_equal(&prev, out))
            break;
        if (mm2_deadline_expired(&dl)) {
            job_warn(j,
                     "the offsets Connect lists for %s still changed after %d reads in %ld ms; "
                     "using the last one",
                     name, reads, j->cfg.retry_budget_ms);
            break;
        }
        if (reads > 1)
            job_info(j,
                     "connector %s: %zu offsets listed, %zu the read before: the worker is "
                     "still reading its offsets topic; reading again",
                     name, out->n, prev.n);
        mm2_source_offsets_free(&prev);
        prev = *out;
        memset(out, 0, sizeof(*out));
        job_sleep_ms(STABLE_GAP_MS);
    }
    mm2_source_offsets_free(&prev);
    return MM2_OK;
}

static void mismatch(struct job *j, cJSON *list, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void mismatch(struct job *j, cJSON *list, const char *fmt, ...)
{
    char line[MM2_REFUSAL_LEN];
    va_list ap;

    va_start(ap, fmt);
    if (vsnprintf(line, sizeof(line), fmt, ap) < 0)
        line[0] = '\0';
    va_end(ap);
    mm2_log_error(&j->log, "mismatch: %s", line);
    (void)cJSON_AddItemToArray(list, cJSON_CreateString(line));
}

/* A topic of the plan: offsets under it but for an unplanned partition are "extra". */
static bool planned_topic(const struct mm2_plan *plan, const char *topic)
{
    return find_plan_topic(plan, topic) != NULL;
}

enum mm2_status job_verify(struct job *j, const struct mm2_plan *plan, struct verify_result *res,
                           struct mm2_error *err)
{
    struct mm2_source_offsets offs = {0};
    struct mm2_connector_status s;
    char digest[MM2_DIGEST_TEXT_LEN + 1] = "", now[32];
    cJSON *live = NULL, *list;
    size_t before;
    enum mm2_status st;

    memset(res, 0, sizeof(*res));
    res->report = cJSON_CreateObject();
    list = cJSON_CreateArray();
    if (res->report == NULL || list == NULL) {
        cJSON_Delete(list);
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    }
    st = mm2_connect_status(j->connect, plan->connector, &s, err);
    if (st == MM2_OK && s.exists)
        st = mm2_connect_config(j->connect, plan->connector, &live, err);
    if (st == MM2_OK && live != NULL)
        st = mm2_connector_config_digest(live, plan->connector, digest, err);
    cJSON_Delete(live);
    if (st == MM2_OK && s.exists)
        st = job_read_offsets(j, plan->connector, &offs, err);
    if (st != MM2_OK) {
        cJSON_Delete(list);
        return st;
    }
    if (!s.exists) {
        mismatch(j, list, "connector %s does not exist; run apply", plan->connector);
    } else {
        if (s.state != MM2_CSTATE_STOPPED || s.ntasks != 0)
            mismatch(j, list, "connector %s is %s with %zu tasks, not STOPPED with none",
                     plan->connector, mm2_cstate_name(s.state), s.ntasks);
        if (strcmp(digest, plan->config_digest) != 0)
            mismatch(j, list, "connector %s's config is %s, the plan's %s", plan->connector, digest,
                     plan->config_digest);
    }
    before = (size_t)cJSON_GetArraySize(list);
    for (size_t i = 0; s.exists && i < plan->n; i++) {
        const struct mm2_pentry *e = &plan->entries[i];
        const struct mm2_source_offset *o =
            mm2_source_offsets_find(&offs, plan->alias, e->topic, e->partition);
        res->checked++;
        if (e->action == MM2_ACT_OFFSET && o == NULL)
            mismatch(j, list, "%s-%d: expected offset %lld, found none", e->topic,
                     (int)e->partition, (long long)e->m);
        else if (e->action == MM2_ACT_OFFSET && o->offset != e->m)
            mismatch(j, list, "%s-%d: expected offset %lld, found %lld", e->topic,
                     (int)e->partition, (long long)e->m, (long long)o->offset);
        else if (e->action != MM2_ACT_OFFSET && o != NULL)
            mismatch(j, list, "%s-%d: expected no offset (null: start at earliest), found %lld",
                     e->topic, (int)e->partition, (long long)o->offset);
    }
    res->partition_mismatches = (size_t)cJSON_GetArraySize(list) - before;
    for (size_t i = 0; i < offs.n; i++) {
        const struct mm2_source_offset *o = &offs.v[i];
        if (strcmp(o->cluster, plan->alias) == 0 && planned_topic(plan, o->topic) &&
            mm2_plan_find(plan, o->topic, o->partition) == NULL)
            mismatch(j, list, "%s-%d: an offset %lld that the plan does not have", o->topic,
                     (int)o->partition, (long long)o->offset);
        else if (strcmp(o->cluster, plan->alias) != 0 && planned_topic(plan, o->topic))
            job_warn(j,
                     "%s-%d has an offset under cluster alias \"%.60s\", not \"%.60s\"; MM2 "
                     "ignores it",
                     o->topic, (int)o->partition, o->cluster, plan->alias);
    }
    res->mismatches = (size_t)cJSON_GetArraySize(list);
    job_utc_now(now, sizeof(now));
    cJSON_AddStringToObject(res->report, "kind", MM2_KIND_VERIFY);
    cJSON_AddStringToObject(res->report, "tool", PROG " " MM2KIT_VERSION);
    cJSON_AddStringToObject(res->report, "created", now);
    cJSON_AddStringToObject(res->report, "plan_digest", plan->digest);
    if (job_add_migration(res->report, plan, err) != MM2_OK) {
        cJSON_Delete(list);
        mm2_source_offsets_free(&offs);
        return MM2_UNEXPECTED;
    }
    cJSON_AddStringToObject(res->report, "state", s.exists ? mm2_cstate_name(s.state) : "absent");
    cJSON_AddItemToObject(res->report, "tasks", mm2_json_int((int64_t)s.ntasks));
    cJSON_AddItemToObject(res->report, "checked", mm2_json_int((int64_t)res->checked));
    cJSON_AddItemToObject(res->report, "offsets_read", mm2_json_int((int64_t)offs.n));
    cJSON_AddItemToObject(res->report, "mismatches", list);
    cJSON_AddBoolToObject(res->report, "ok", res->mismatches == 0);
    mm2_source_offsets_free(&offs);
    return MM2_OK;
}

enum mm2_status job_report(const char *what, cJSON *report, const char *path, struct mm2_error *err)
{
    char digest[MM2_DIGEST_TEXT_LEN + 1];
    char *text;
    enum mm2_status st = mm2_artifact_seal(report, digest, err);

    if (st == MM2_OK && path != NULL)
        st = mm2_artifact_write(what, path, report, digest, err);
    if (st != MM2_OK)
        return st;
    text = mm2_artifact_text(report);
    if (text == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory printing the %s", what);
    fputs(text, stdout);
    free(text);
    return MM2_OK;
}

void job_phase(struct job *j, const char *what, long *since_ms)
{
    long now = mm2_now_ms();

    mm2_log_debug(&j->log, "%s: %ld ms", what, now - *since_ms);
    *since_ms = now;
}

void job_summary(struct job *j, long started_ms, int rc)
{
    long kafka = (j->source != NULL ? mm2_kafka_requests(j->source) : 0) +
                 (j->target != NULL ? mm2_kafka_requests(j->target) : 0);
    long rest = j->connect != NULL ? mm2_connect_requests(j->connect) : 0;

    job_info(j,
             "finished with exit code %d in %ld ms (%ld ms of it waiting on purpose): %ld Kafka "
             "request%s, %ld REST request%s",
             rc, mm2_now_ms() - started_ms, j->waited_ms, kafka, kafka == 1 ? "" : "s", rest,
             rest == 1 ? "" : "s");
}

void job_free(struct job *j)
{
    mm2_mirror_free(j->mirror);
    mm2_kafka_free(j->source);
    mm2_kafka_free(j->target);
    mm2_connect_free(j->connect);
    if (j->curl_up)
        mm2_http_global_cleanup();
    mm2_connector_free(&j->conn);
    if (j->cfg_loaded)
        mm2_config_free(&j->cfg);
    memset(j, 0, sizeof(*j));
}
