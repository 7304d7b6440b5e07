/* accept: after resume, on the real clusters, the acceptance list (lib/mm2_accept.h) checked line
 * by line, each with its evidence: the report (JSON, sealed, kind mm2kit.accept/v1) on stdout and
 * in --report, its Markdown in --markdown. Exits 0 only when every line holds. The order: the
 * source's watermark W first (what "nothing missing" counts up to), then the observation (MM2
 * copies up to W meanwhile), then the offsets, the records, the Connect cluster and the target
 * topics. */
#include "accept.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acceptread.h"
#include "clients.h"
#include "load.h"
#include "mm2_accept.h"
#include "mm2_artifact.h"
#include "mm2_cli.h"
#include "mm2_connlive.h"
#include "mm2_file.h"
#include "mm2_json.h"
#include "mm2_parse.h"
#include "options.h"
#include "report.h"
#include "trail.h"

#define DEFAULT_OBSERVE_MS 60000L
#define DEFAULT_WAIT_MS 60000L
#define DEFAULT_WINDOW 1000L
#define DEFAULT_WINDOW_TOTAL 100000L
#define POLL_MS 5000L

/* The codes it exits with (docs/ARCHITECTURE.md §5), as --help states them. */
static const struct mm2_exit_note exit_notes[] = {
    {MM2_OK, "accepted: every line of the list holds"},
    {MM2_CHECK_FAILED, "a line does not hold (named with its fix), or no such connector"},
    {MM2_USAGE, NULL},
    {MM2_CONFIG, "the INI file or the plan"},
    {MM2_UNREACHABLE, "Kafka or Connect, or timed out"},
    {MM2_UNEXPECTED, "Kafka or Connect"},
};

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: " PROG " accept --config FILE --plan FILE [--observe SECONDS] [--report "
            "FILE] [--markdown FILE]\n"
            "After resume, on the real clusters: checks the acceptance list, each line with\n"
            "its evidence: 1 every planned partition imported (Connect holds M or more);\n"
            "2 MM2's first record is the source's at C; 3 nothing missing: the source's records\n"
            "from C up to its watermark at the start all on the target, a window and the last\n"
            "compared one by one; 4 connector and tasks RUNNING through the observation, offsets\n"
            "advancing, the lag not growing; 5 no Checkpoint or Heartbeat connector, no\n"
            "offset-syncs topic written (named instead on Connect 3.6 to 3.8); 6 the target\n"
            "topics' partition counts and configs as at export. Prints the report (JSON) on\n"
            "stdout and writes it as Markdown.\n"
            "\n"
            "Options:\n"
            "  -c, --config FILE         the migration INI file\n"
            "  -p, --plan FILE           the plan that was applied and resumed\n"
            "  -o, --observe SECONDS     how long to watch the connector, polled every %ld s "
            "(%ld)\n"
            "  -t, --timeout SECONDS     how long to wait, in all, for MM2 to copy up to the\n"
            "                            watermark after the observation (%ld)\n"
            "  -w, --window N            records compared one by one per partition (%ld)\n"
            "  -W, --window-total N      ... and in all (%ld)\n"
            "  -r, --report FILE         also write the report there\n"
            "  -m, --markdown FILE       the Markdown report (accept-STAMP.md)\n",
            POLL_MS / 1000, DEFAULT_OBSERVE_MS / 1000, DEFAULT_WAIT_MS / 1000, DEFAULT_WINDOW,
            DEFAULT_WINDOW_TOTAL);
    job_usage_end(out, 28, exit_notes, sizeof(exit_notes) / sizeof(exit_notes[0]));
}

struct acc {
    struct job *j;
    const struct mm2_plan *p;
    long observe_ms, wait_ms;
    struct job_accept_window win;
    bool committed; /* the connector reads read_committed */
    int64_t *w, *start, *end;
    struct mm2_accept_part *parts;
    struct mm2_accept_sample *s;
    size_t polls;
    struct mm2_source_offsets offs;
    struct mm2_accept a;
    cJSON *rows;
};

/* The source's watermark W of each planned partition: its last stable offset when the
 * connector reads read_committed, else its high watermark. */
static enum mm2_status watermarks(struct acc *x, struct mm2_error *err)
{
    struct mm2_tp *tps = calloc(x->p->n + 1, sizeof(*tps));
    int64_t *stable = calloc(x->p->n + 1, sizeof(*stable));
    struct mm2_deadline dl;
    enum mm2_status st = MM2_OK;

    if (tps == NULL || stable == NULL)
        st = mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    for (size_t i = 0; st == MM2_OK && i < x->p->n; i++)
        tps[i] = (struct mm2_tp){x->p->entries[i].topic, x->p->entries[i].partition};
    job_kafka_deadline(x->j, &dl);
    if (st == MM2_OK && x->p->n > 0)
        st = mm2_kafka_log_offsets(x->j->source, tps, x->p->n, x->start, x->end, stable, &dl, err);
    for (size_t i = 0; st == MM2_OK && i < x->p->n; i++)
        x->w[i] = x->committed ? stable[i] : x->end[i];
    free(tps);
    free(stable);
    return st;
}

/* Line 4: polls every POLL_MS for observe_ms, each poll kept (x->s, x->polls). */
static enum mm2_status observe(struct acc *x, struct mm2_error *err)
{
    size_t cap = (size_t)(x->observe_ms / POLL_MS) + 3, down = 0;
    long t0 = mm2_deadline_now_ms(), next = 0;
    enum mm2_status st = MM2_OK;

    x->s = calloc(cap, sizeof(*x->s));
    if (x->s == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    job_info(x->j, "observing connector %s for %ld s (a poll every %ld s)", x->p->connector,
             x->observe_ms / 1000, POLL_MS / 1000);
    while (st == MM2_OK && x->polls < cap) {
        struct mm2_accept_sample *now = &x->s[x->polls++];
        now->at_ms = mm2_deadline_now_ms() - t0;
        st = job_accept_poll(x->j, x->p, now, &x->offs, x->start, x->end, err);
        if (st == MM2_OK &&
            !(now->exists && now->state == MM2_CSTATE_RUNNING && now->tasks > 0 &&
              now->tasks_running == now->tasks) &&
            down++ == 0)
            job_warn(x->j, "connector %s at %ld s: %s, %zu/%zu tasks RUNNING", x->p->connector,
                     now->at_ms / 1000, now->exists ? mm2_cstate_name(now->state) : "absent",
                     now->tasks_running, now->tasks);
        if (now->at_ms >= x->observe_ms)
            break;
        next += POLL_MS;
        long sleep = (next < x->observe_ms ? next : x->observe_ms) - now->at_ms;
        if (sleep > 0) {
            job_sleep_ms(sleep);
            x->j->waited_ms += sleep;
        }
    }
    return st;
}

/* One partition's row of the report. */
static void part_row(struct acc *x, size_t i, int64_t from)
{
    const struct mm2_pentry *e = &x->p->entries[i];
    const struct mm2_accept_part *v = &x->parts[i];
    const struct mm2_source_offset *o =
        mm2_source_offsets_find(&x->offs, x->p->alias, e->topic, e->partition);
    cJSON *r = cJSON_CreateObject();

    if (r == NULL || !cJSON_AddItemToArray(x->rows, r))
        return;
    cJSON_AddStringToObject(r, "topic", e->topic);
    cJSON_AddItemToObject(r, "partition", mm2_json_int(e->partition));
    cJSON_AddItemToObject(r, "m",
                          e->action == MM2_ACT_OFFSET ? mm2_json_int(e->m) : cJSON_CreateNull());
    cJSON_AddItemToObject(r, "offset", o != NULL ? mm2_json_int(o->offset) : cJSON_CreateNull());
    cJSON_AddItemToObject(r, "from", mm2_json_int(from));
    cJSON_AddItemToObject(r, "watermark", mm2_json_int(v->w));
    cJSON_AddItemToObject(r, "target_start", mm2_json_int(e->target_start));
    cJSON_AddItemToObject(r, "source_records", mm2_json_int(v->source_count));
    cJSON_AddItemToObject(r, "target_records", mm2_json_int(v->target_count));
    cJSON_AddItemToObject(r, "compared", mm2_json_int((int64_t)v->compared));
    if (v->first_source >= 0)
        cJSON_AddItemToObject(r, "first_source", mm2_json_int(v->first_source));
    if (v->first_target >= 0)
        cJSON_AddItemToObject(r, "first_target", mm2_json_int(v->first_target));
    if (v->bad_source >= 0) {
        cJSON_AddItemToObject(r, "differs_source", mm2_json_int(v->bad_source));
        cJSON_AddItemToObject(r, "differs_target", mm2_json_int(v->bad_target));
        cJSON_AddStringToObject(r, "differs_in", v->bad_field);
    }
}

/* Lines 2 and 3: each partition read from where MM2 starts up to W, on both sides. */
static enum mm2_status records(struct acc *x, struct mm2_error *err)
{
    struct mm2_deadline wait;
    int64_t total = 0;

    mm2_deadline_start(&wait, x->wait_ms);
    for (size_t i = 0; i < x->p->n; i++) {
        const struct mm2_pentry *e = &x->p->entries[i];
        /* MM2 starts at C, or at the log start for a planned null; never below today's. */
        int64_t from = e->action == MM2_ACT_OFFSET ? e->c : e->log_start;
        if (from < x->start[i])
            from = x->start[i];
        x->parts[i].w = x->w[i] > from ? x->w[i] : from;
        if (job_accept_part(x->j, e, from, x->committed, &x->win, &wait, &x->parts[i], err) !=
            MM2_OK)
            return err->code;
        total += x->parts[i].source_count;
        part_row(x, i, from);
    }
    job_info(x->j, "read %lld source records up to the watermark and their copies",
             (long long)total);
    mm2_accept_started(x->p, x->parts, &x->a.line[MM2_ACCEPT_STARTED]);
    mm2_accept_complete(x->p, x->parts, &x->a.line[MM2_ACCEPT_COMPLETE]);
    return MM2_OK;
}

static enum mm2_status parse_classes(const char *body, size_t len, void *out, struct mm2_error *err)
{
    return mm2_accept_classes_parse(body, len, out, err);
}

/* Line 5: the Connect cluster's connectors and version, the offset-syncs topic on both. */
static enum mm2_status alone(struct acc *x, struct mm2_error *err)
{
    const cJSON *alias =
        cJSON_GetObjectItemCaseSensitive(x->j->conn.config, "target.cluster.alias");
    struct mm2_accept_classes classes = {0};
    struct mm2_connect_info info;
    char topic[MM2_ID_MAX + 32];
    struct mm2_accept_alone_in in = {.classes = &classes, .topic = topic};
    enum mm2_status st;

    (void)snprintf(topic, sizeof(topic), "mm2-offset-syncs.%s.internal",
                   cJSON_IsString(alias) ? alias->valuestring : "target");
    st = mm2_connect_info(x->j->connect, &info, err);
    if (st == MM2_OK)
        st = mm2_connect_list_info(x->j->connect, parse_classes, &classes, err);
    if (st == MM2_OK)
        st = job_accept_syncs(x->j, x->j->source, topic, &in.syncs[0], &in.syncs_end[0], err);
    if (st == MM2_OK)
        st = job_accept_syncs(x->j, x->j->target, topic, &in.syncs[1], &in.syncs_end[1], err);
    in.connect_version = info.version;
    if (st == MM2_OK)
        mm2_accept_alone(&in, &x->a.line[MM2_ACCEPT_ALONE]);
    mm2_accept_classes_free(&classes);
    return st;
}

/* Line 6. */
static enum mm2_status topics(struct acc *x, struct mm2_error *err)
{
    int32_t *parts = calloc(x->p->ntopics + 1, sizeof(*parts));
    cJSON **cfg = calloc(x->p->ntopics + 1, sizeof(*cfg));
    enum mm2_status st = MM2_OK;

    if (parts == NULL || cfg == NULL)
        st = mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    if (st == MM2_OK)
        st = job_accept_topics(x->j, x->p, parts, cfg, err);
    if (st == MM2_OK)
        mm2_accept_topics(x->p, parts, (const cJSON *const *)cfg, &x->a.line[MM2_ACCEPT_TOPICS]);
    for (size_t i = 0; cfg != NULL && i < x->p->ntopics; i++)
        cJSON_Delete(cfg[i]);
    free(parts);
    free(cfg);
    return st;
}

/* The report: the lines, the observation's ends, each partition's row. */
static cJSON *report_of(struct acc *x, const char *created, struct mm2_error *err)
{
    cJSON *root = cJSON_CreateObject(), *lines = mm2_accept_lines_json(&x->a), *obs;

    if (root == NULL || lines == NULL || job_add_migration(root, x->p, err) != MM2_OK) {
        cJSON_Delete(root);
        cJSON_Delete(lines);
        if (err->msg[0] == '\0')
            mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
        return NULL;
    }
    cJSON_AddStringToObject(root, "kind", MM2_KIND_ACCEPT);
    cJSON_AddStringToObject(root, "tool", PROG " " MM2KIT_VERSION);
    cJSON_AddStringToObject(root, "created", created);
    cJSON_AddStringToObject(root, "plan_digest", x->p->digest);
    cJSON_AddStringToObject(root, "connector", x->p->connector);
    cJSON_AddBoolToObject(root, "ok", mm2_accept_ok(&x->a));
    cJSON_AddItemToObject(root, "lines", lines);
    obs = cJSON_AddObjectToObject(root, "observation");
    if (obs != NULL && x->polls > 0) {
        const struct mm2_accept_sample *a = &x->s[0], *z = &x->s[x->polls - 1];
        cJSON_AddItemToObject(obs, "seconds", mm2_json_int(x->observe_ms / 1000));
        cJSON_AddItemToObject(obs, "polls", mm2_json_int((int64_t)x->polls));
        cJSON_AddItemToObject(obs, "position_first", mm2_json_int(a->position));
        cJSON_AddItemToObject(obs, "position_last", mm2_json_int(z->position));
        cJSON_AddItemToObject(obs, "log_end_first", mm2_json_int(a->log_end));
        cJSON_AddItemToObject(obs, "log_end_last", mm2_json_int(z->log_end));
        cJSON_AddItemToObject(obs, "lag_first", mm2_json_int(a->lag));
        cJSON_AddItemToObject(obs, "lag_last", mm2_json_int(z->lag));
    }
    cJSON_AddItemToObject(root, "partitions", x->rows);
    x->rows = NULL;
    return root;
}

/* Prints the report, writes it and its Markdown; 0 or the exit code. */
static int write_out(struct acc *x, const char *report, const char *markdown)
{
    struct mm2_error err = {0};
    char now[32];
    char *md;
    cJSON *root;
    int rc = MM2_OK;

    job_utc_now(now, sizeof(now));
    root = report_of(x, now, &err);
    if (root == NULL)
        return job_fail(x->j, &err);
    if (job_report(x->j, "acceptance report", root, report, &err) != MM2_OK)
        rc = job_fail(x->j, &err);
    cJSON_Delete(root);
    md = mm2_accept_markdown(&x->a, x->p->connector, x->p->digest, now, x->observe_ms);
    if (rc == MM2_OK && md == NULL)
        rc = job_fail(x->j, &(struct mm2_error){MM2_UNEXPECTED, "out of memory"});
    else if (rc == MM2_OK && mm2_file_write("acceptance report (Markdown)", markdown, md,
                                            strlen(md), &err) != MM2_OK)
        rc = job_fail(x->j, &err);
    else if (rc == MM2_OK && job_trail_put(x->j, x->j->cmd, JOB_TRAIL_KIND_MARKDOWN, markdown, md,
                                           strlen(md), NULL, &err) != MM2_OK) {
        job_trail_unrecorded(x->j, &err, markdown);
        rc = job_fail(x->j, &err);
    }
    free(md);
    return rc;
}

/* The reads, in order; 0 or the exit code. */
static int check_all(struct acc *x)
{
    struct job *j = x->j;
    struct mm2_connlive v;
    struct mm2_error err = {0};

    if (job_connect(j, &err) != MM2_OK || job_kafka(j, true, true, &err) != MM2_OK ||
        mm2_connlive_read(j->connect, x->p->connector, &v, &err) != MM2_OK)
        return job_fail(j, &err);
    if (!v.s.exists) {
        mm2_log_error(&j->log,
                      "refused: connector %s does not exist on %s: nothing to accept (run "
                      "resume first, or is [connector] file the connector you mean?)",
                      x->p->connector, j->cfg.connect_url);
        return MM2_CHECK_FAILED;
    }
    if (watermarks(x, &err) != MM2_OK || observe(x, &err) != MM2_OK)
        return job_fail(j, &err);
    mm2_accept_running(x->s, x->polls, x->observe_ms, &x->a.line[MM2_ACCEPT_RUNNING]);
    mm2_accept_imported(x->p, &x->offs, &x->a.line[MM2_ACCEPT_IMPORTED]);
    if (records(x, &err) != MM2_OK || alone(x, &err) != MM2_OK || topics(x, &err) != MM2_OK)
        return job_fail(j, &err);
    return MM2_OK;
}

static int run(struct job *j, const struct mm2_plan *p, struct acc *x, const char *report,
               const char *markdown)
{
    const cJSON *iso =
        cJSON_GetObjectItemCaseSensitive(j->conn.config, "source.consumer.isolation.level");
    size_t n = p->n + 1;
    int rc;

    x->j = j;
    x->p = p;
    x->committed = cJSON_IsString(iso) && strcmp(iso->valuestring, "read_committed") == 0;
    x->w = calloc(n, sizeof(*x->w));
    x->start = calloc(n, sizeof(*x->start));
    x->end = calloc(n, sizeof(*x->end));
    x->parts = calloc(n, sizeof(*x->parts));
    x->rows = cJSON_CreateArray();
    if (x->w == NULL || x->start == NULL || x->end == NULL || x->parts == NULL || x->rows == NULL)
        rc = job_fail(j, &(struct mm2_error){MM2_UNEXPECTED, "out of memory"});
    else
        rc = check_all(x);
    if (rc == MM2_OK)
        rc = write_out(x, report, markdown);
    if (rc == MM2_OK) {
        for (int i = 0; i < MM2_ACCEPT_LINES; i++)
            if (!x->a.line[i].holds)
                mm2_log_error(&j->log, "line %d (%s) does not hold: %s; fix: %s", i + 1,
                              mm2_accept_name((enum mm2_accept_no)i), x->a.line[i].evidence,
                              x->a.line[i].fix);
        if (mm2_accept_ok(&x->a))
            job_info(j, "accepted: every line of the acceptance list holds (Markdown in %s)",
                     markdown);
        else
            rc = MM2_CHECK_FAILED;
    }
    free(x->w);
    free(x->start);
    free(x->end);
    free(x->parts);
    free(x->s);
    cJSON_Delete(x->rows);
    mm2_source_offsets_free(&x->offs);
    return rc;
}

int cmd_accept(struct job *j, int argc, char **argv)
{
    const char *config = NULL, *plan_path = NULL, *report = NULL, *markdown = NULL;
    const char *window = NULL, *window_total = NULL;
    struct acc x = {.observe_ms = DEFAULT_OBSERVE_MS, .wait_ms = DEFAULT_WAIT_MS};
    const struct job_opt own[] = {
        {"observe", 'o', JOB_OPT_SECONDS, &x.observe_ms},
        {"timeout", 't', JOB_OPT_SECONDS, &x.wait_ms},
        {"window", 'w', JOB_OPT_STRING, &window},
        {"window-total", 'W', JOB_OPT_STRING, &window_total},
        {"report", 'r', JOB_OPT_STRING, &report},
        {"markdown", 'm', JOB_OPT_STRING, &markdown},
    };
    long win = DEFAULT_WINDOW, total = DEFAULT_WINDOW_TOTAL;
    struct mm2_plan plan = {0};
    char def_md[64];
    bool done;
    int rc = job_plan_options(j, argc, argv, &config, &plan_path, own, sizeof(own) / sizeof(own[0]),
                              usage, NULL, &done);

    if (rc != MM2_OK || done)
        return rc;
    if (window != NULL && mm2_parse_long(window, 1, 10000000L, &win) != 0)
        return job_usage_error(
            j, "--window must be a whole number of records from 1, got \"%.40s\"", window);
    if (window_total != NULL && mm2_parse_long(window_total, 1, 100000000L, &total) != 0)
        return job_usage_error(j,
                               "--window-total must be a whole number of records from 1, got "
                               "\"%.40s\"",
                               window_total);
    x.win = (struct job_accept_window){(size_t)win, (size_t)total};
    if (markdown == NULL) {
        char stamp[32];
        job_utc_stamp(stamp, sizeof(stamp));
        (void)snprintf(def_md, sizeof(def_md), "accept-%s.md", stamp);
        markdown = def_md;
    }
    rc = job_load_plan(j, config, plan_path, &plan);
    if (rc == MM2_OK)
        rc = run(j, &plan, &x, report, markdown);
    mm2_plan_free(&plan);
    return rc;
}
