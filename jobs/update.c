/* update: day two, a change of the running connector applied through one path
 * (docs/day-two.md). Without --plan: diff's comparison (change.c), and for every partition the
 * change starts an explicit start (upplan.c), written as a sealed plan with an "update" member
 * and recorded; its digest is what a person approves. With --plan and --approve: the connector
 * stopped, the planned offsets written and read back, the file's config PUT, the connector
 * resumed, each step skipped when a rerun finds it done; check --plan then proves each started
 * partition. Refuses a connector whose config is neither the planned one nor the file's
 * (drift). */
#include "update.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bind.h"
#include "change.h"
#include "clients.h"
#include "load.h"
#include "mm2_artifact.h"
#include "mm2_binding.h"
#include "mm2_cfgview.h"
#include "mm2_cli.h"
#include "mm2_connlive.h"
#include "mm2_json.h"
#include "options.h"
#include "readback.h"
#include "report.h"
#include "stopped.h"
#include "trail.h"
#include "upplan.h"

#define DEFAULT_WAIT_MS 120000L

#define KIND_UPDATE_RUN "mm2kit.update-run/v1"

static const struct mm2_exit_note exit_notes[] = {
    {MM2_OK, "planned (the digest on stdout), or applied"},
    {MM2_CHECK_FAILED, "refused: a start missing or unsafe, drift, or the offsets read back"},
    {MM2_USAGE, NULL},
    {MM2_CONFIG, "the INI file, the connector JSON or the plan"},
    {MM2_UNREACHABLE, "Kafka or Connect, or not stopped / RUNNING in time"},
    {MM2_UNEXPECTED, "Kafka or Connect"},
};

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: " PROG " update --config FILE --out FILE [--start TOPIC=MODE]... "
            "[--carry-over]\n"
            "       " PROG " update --config FILE --plan FILE --approve DIGEST [--timeout "
            "SECONDS]\n"
            "Changes the running connector to the INI's [connector] file, the one way that\n"
            "cannot move its offsets silently. The first form plans: diff's comparison, and for\n"
            "each topic the change adds a start you choose (flink: Flink's committed offset;\n"
            "earliest; latest; stored: the offsets kept since it was removed); a change of the\n"
            "source alias, replication policy or source cluster needs --carry-over (connector\n"
            "stopped). It writes the plan and prints its digest. The second form applies an\n"
            "approved plan: stop, write and read back the offsets, PUT the config, resume; a\n"
            "rerun after a crash finishes what is left. Then: check --plan FILE.\n"
            "\n"
            "Options:\n"
            "  -c, --config FILE        the migration INI file\n"
            "  -o, --out FILE           where to write the plan\n"
            "  -s, --start TOPIC=MODE   where a topic the change adds starts: flink, earliest,\n"
            "                           latest or stored\n"
            "  -C, --carry-over         carry the stored offsets over to the new key\n"
            "  -p, --plan FILE          the approved plan\n"
            "  -a, --approve DIGEST     the plan's digest, sha256:...\n"
            "  -t, --timeout SECONDS    how long to wait for stopped, then RUNNING (%ld)\n",
            DEFAULT_WAIT_MS / 1000);
    job_usage_end(out, 27, exit_notes, sizeof(exit_notes) / sizeof(exit_notes[0]));
}

/* ---- the plan ---------------------------------------------------------------------------- */

static int parse_starts(struct job *j, struct job_list *l, struct job_start *v)
{
    for (size_t i = 0; i < l->n; i++) {
        char *eq = strrchr(l->v[i], '=');
        if (eq == NULL || eq == l->v[i])
            return job_usage_error(j, "--start must be TOPIC=MODE, got \"%.80s\"", l->v[i]);
        *eq = '\0';
        v[i].topic = l->v[i];
        if (!mm2_start_mode_parse(eq + 1, &v[i].mode))
            return job_usage_error(j,
                                   "--start %s: the mode must be flink, earliest, latest or "
                                   "stored, got \"%.40s\"",
                                   l->v[i], eq + 1);
        for (size_t k = 0; k < i; k++)
            if (strcmp(v[k].topic, v[i].topic) == 0)
                return job_usage_error(j, "--start %s given twice", v[i].topic);
    }
    return MM2_OK;
}

/* Writes the plan with its update member, records it, prints what it holds and its digest. */
static int write_update(struct job *j, struct mm2_plan *p, cJSON *update, const char *out)
{
    struct mm2_error err = {0};
    char digest[MM2_DIGEST_TEXT_LEN + 1];
    cJSON *tree = NULL;
    int rc = MM2_OK;

    if (mm2_plan_to_json(p, &tree, &err) != MM2_OK) {
        cJSON_Delete(update);
        return job_fail(j, &err);
    }
    cJSON_AddItemToObject(tree, "update", update);
    if (mm2_artifact_write("update plan", out, tree, digest, &err) != MM2_OK) {
        rc = job_fail(j, &err);
    } else {
        job_info(j,
                 "wrote %s: %zu partitions of %zu topics to start; approve with: " PROG
                 " update --config %s --plan %s --approve %s",
                 out, p->n, p->ntopics, j->cfg.path, out, digest);
        if (job_trail_artifact(j, tree, out, digest, &err) != MM2_OK) {
            job_trail_unrecorded(j, &err, out);
            rc = job_fail(j, &err);
        } else {
            printf("%s\n", digest);
        }
    }
    cJSON_Delete(tree);
    return rc;
}

static int plan_update(struct job *j, const struct job_start *starts, size_t n, bool carry,
                       const char *out)
{
    struct mm2_error err = {0};
    struct job_change ch;
    struct mm2_plan p = {0};
    struct mm2_refusals r = {0};
    cJSON *update = NULL;
    int rc = MM2_OK;

    if (job_change_read(j, &ch, &err) != MM2_OK) {
        rc = job_fail(j, &err);
    } else if (ch.exists && ch.c.n == 0) {
        job_info(j, "connector %s equals %s: nothing to update", j->conn.name,
                 j->cfg.connector_file);
    } else {
        struct job_upplan_in in = {&ch, starts, n, carry};
        for (size_t i = 0; i < ch.c.n; i++)
            job_info(j, "%s: %s %s: %s", mm2_change_class_name(ch.c.v[i].cls),
                     mm2_change_kind_name(ch.c.v[i].kind), ch.c.v[i].key, ch.c.v[i].meaning);
        if (job_upplan(j, &in, &p, &update, &r, &err) != MM2_OK)
            rc = job_fail(j, &err);
        else if (r.n > 0 || r.oom)
            rc = job_refused(j, &r, "no plan was written");
        else {
            rc = write_update(j, &p, update, out);
            update = NULL; /* the tree's */
        }
    }
    cJSON_Delete(update);
    mm2_refusals_free(&r);
    mm2_plan_free(&p);
    job_change_free(&ch);
    return rc;
}

/* ---- the approved plan applied ------------------------------------------------------------ */

struct applied {
    struct mm2_plan p;
    cJSON *tree;         /* the plan read, its update member included */
    const cJSON *update; /* in tree */
    const char *path;
    const char *from; /* update.from_config_digest */
    bool put_done;    /* the running config is the file's already */
    const char *steps[4];
};

/* Reads the plan, its digest against the approval, and the migration it belongs to. */
static int read_update(struct job *j, const char *path, const char *approve, struct applied *a)
{
    struct mm2_error err = {0};
    struct mm2_binding b;
    const cJSON *f;

    if (mm2_artifact_read("update plan", path, MM2_KIND_PLAN, &a->tree, a->p.digest, &err) !=
        MM2_OK)
        return job_fail(j, &err);
    a->update = cJSON_GetObjectItemCaseSensitive(a->tree, "update");
    f = cJSON_GetObjectItemCaseSensitive(a->update, "from_config_digest");
    if (!cJSON_IsObject(a->update) || !cJSON_IsString(f)) {
        mm2_log_error(&j->log, "%s is a cutover's plan, not an update's: resume applies it", path);
        return MM2_CONFIG;
    }
    a->from = f->valuestring;
    {
        char digest[MM2_DIGEST_TEXT_LEN + 1];
        memcpy(digest, a->p.digest, sizeof(digest));
        if (mm2_plan_from_json(a->tree, &a->p, &err) != MM2_OK) {
            mm2_error_prefix(&err, "%s", path);
            return job_fail(j, &err);
        }
        memcpy(a->p.digest, digest, sizeof(digest));
    }
    if (strcmp(approve, a->p.digest) != 0) {
        mm2_log_error(&j->log,
                      "--approve %.80s is not the digest of %s (%s): approve the plan that was "
                      "reviewed, or plan again",
                      approve, path, a->p.digest);
        return MM2_CHECK_FAILED;
    }
    mm2_binding_of_plan(&a->p, &b);
    return job_bound(j, "update plan", &b, a->p.connect_version, "the connector was not touched");
}

/* Where the running connector is: its config the one planned against, or the file's already
 * (a rerun after the PUT); anything else is drift. *running: RUNNING with every task. */
static int where(struct job *j, struct applied *a, bool *running)
{
    struct mm2_error err = {0};
    struct mm2_connlive v;
    char digest[MM2_DIGEST_TEXT_LEN + 1], d[700];
    cJSON *live = NULL, *view = NULL;
    int rc = MM2_OK;

    *running = false;
    if (job_connect(j, &err) != MM2_OK ||
        mm2_connect_config(j->connect, a->p.connector, &live, &err) != MM2_OK)
        return job_fail(j, &err);
    if (live == NULL) {
        mm2_log_error(&j->log, "connector %s does not exist: nothing to update", a->p.connector);
        return MM2_CHECK_FAILED;
    }
    if (mm2_connector_config_digest(live, a->p.connector, digest, &err) != MM2_OK ||
        mm2_cfgview_make(live, a->p.connector, &view, &err) != MM2_OK) {
        rc = job_fail(j, &err);
    } else if (strcmp(digest, a->p.config_digest) == 0) {
        a->put_done = true;
    } else if (strcmp(digest, a->from) != 0) {
        mm2_cfgview_explain(cJSON_GetObjectItem(a->update, "from_config"), a->from,
                            "the update plan", view, digest, "the running connector", d, sizeof(d));
        mm2_log_error(&j->log,
                      "refused: connector %s changed since the update was planned (drift), %s; "
                      "plan the update again against what runs; the connector was not touched",
                      a->p.connector, d);
        rc = MM2_CHECK_FAILED;
    }
    if (rc == MM2_OK && mm2_connlive_read(j->connect, a->p.connector, &v, &err) != MM2_OK)
        rc = job_fail(j, &err);
    else if (rc == MM2_OK)
        *running =
            v.s.state == MM2_CSTATE_RUNNING && v.s.ntasks > 0 && v.s.tasks_running == v.s.ntasks;
    cJSON_Delete(view);
    cJSON_Delete(live);
    return rc;
}

/* The approval acted on, on record before anything changes (as resume's). */
static enum mm2_status record_run(struct job *j, const struct applied *a, struct mm2_error *err)
{
    char now[32], host[256] = "";
    cJSON *root = cJSON_CreateObject();
    enum mm2_status st;

    job_utc_now(now, sizeof(now));
    (void)gethostname(host, sizeof(host) - 1);
    if (root == NULL || cJSON_AddStringToObject(root, "kind", KIND_UPDATE_RUN) == NULL ||
        cJSON_AddStringToObject(root, "created", now) == NULL ||
        cJSON_AddStringToObject(root, "approved_plan_digest", a->p.digest) == NULL ||
        cJSON_AddStringToObject(root, "plan_file", a->path) == NULL ||
        cJSON_AddStringToObject(root, "host", host) == NULL ||
        cJSON_AddBoolToObject(root, "config_put_before", a->put_done) == NULL) {
        cJSON_Delete(root);
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    }
    st = job_add_migration(root, &a->p, err);
    if (st == MM2_OK)
        st = job_report(j, "update record", root, NULL, err);
    cJSON_Delete(root);
    return st;
}

/* How many planned offsets Connect holds as planned: a reset entry is no stored offset. */
static size_t as_planned(const struct mm2_plan *p, const struct mm2_source_offsets *o, bool say,
                         struct job *j)
{
    size_t ok = 0;

    for (size_t i = 0; i < p->n; i++) {
        const struct mm2_pentry *e = &p->entries[i];
        const struct mm2_source_offset *s =
            mm2_source_offsets_find(o, p->alias, e->topic, e->partition);
        bool eq = e->action == MM2_ACT_OFFSET ? s != NULL && s->offset == e->m : s == NULL;
        ok += eq;
        if (!eq && say) {
            char have[32] = "no offset", want[32] = "no offset";
            if (s != NULL)
                (void)snprintf(have, sizeof(have), "%lld", (long long)s->offset);
            if (e->action == MM2_ACT_OFFSET)
                (void)snprintf(want, sizeof(want), "%lld", (long long)e->m);
            mm2_log_error(&j->log, "mismatch: %s-%d: Connect holds %s, the plan %s", e->topic,
                          (int)e->partition, have, want);
        }
    }
    return ok;
}

/* The mode the plan gave the topic of e. */
static const char *mode_of(const struct applied *a, const char *topic)
{
    const cJSON *e;

    cJSON_ArrayForEach(e, cJSON_GetObjectItem(a->update, "starts"))
    {
        const cJSON *t = cJSON_GetObjectItem(e, "topic"), *m = cJSON_GetObjectItem(e, "mode");
        if (cJSON_IsString(t) && cJSON_IsString(m) && strcmp(t->valuestring, topic) == 0)
            return m->valuestring;
    }
    return "";
}

/* The facts the starts stand on, again, just before they are written: no record expired, no
 * target moved, Flink's committed offsets where they were. */
static enum mm2_status recheck(struct job *j, const struct applied *a, struct mm2_refusals *r,
                               struct mm2_error *err)
{
    size_t n = a->p.n;
    struct mm2_tp *src = calloc(n + 1, sizeof(*src)), *tgt = calloc(n + 1, sizeof(*tgt));
    int64_t *v = calloc(5 * (n + 1), sizeof(*v));
    struct mm2_topic_list tl = {0};
    struct mm2_deadline dl;
    size_t nt = 0;
    enum mm2_status st = job_kafka(j, true, true, err);

    job_kafka_deadline(j, &dl);
    if (st == MM2_OK && (src == NULL || tgt == NULL || v == NULL))
        st = mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    if (st == MM2_OK)
        st = mm2_kafka_topics(j->target, &dl, &tl, err);
    for (size_t i = 0; st == MM2_OK && i < n; i++) {
        src[i] = (struct mm2_tp){a->p.entries[i].topic, a->p.entries[i].partition};
        if (mm2_topics_find(&tl, a->p.entries[i].target_topic) != NULL)
            tgt[nt++] = (struct mm2_tp){a->p.entries[i].target_topic, a->p.entries[i].partition};
    }
    if (st == MM2_OK)
        st = mm2_kafka_log_offsets(j->source, src, n, v, v + n, NULL, &dl, err);
    for (size_t i = 0; st == MM2_OK && i < n; i++) /* Flink's offsets: for flink starts only */
        if (strcmp(mode_of(a, src[i].topic), "flink") == 0) {
            st = mm2_kafka_committed(j->source, a->p.group, src, n, v + 2 * n, &dl, err);
            break;
        }
    if (st == MM2_OK && nt > 0)
        st = mm2_kafka_log_offsets(j->target, tgt, nt, v + 3 * n, v + 4 * n, NULL, &dl, err);
    for (size_t i = 0, k = 0; st == MM2_OK && i < n; i++) {
        const struct mm2_pentry *e = &a->p.entries[i];
        bool has = k < nt && strcmp(tgt[k].topic, e->target_topic) == 0 &&
                   tgt[k].partition == e->partition;
        int64_t te = has ? v[4 * n + k++] : 0;
        if (e->action == MM2_ACT_OFFSET && e->c < v[i])
            mm2_refuse(r, "%s-%d: the start %lld has expired since the plan (log start now %lld)",
                       e->topic, (int)e->partition, (long long)e->c, (long long)v[i]);
        if (te != e->target_start)
            mm2_refuse(r, "%s-%d: the target %s moved since the plan (its end %lld, planned %lld)",
                       e->topic, (int)e->partition, e->target_topic, (long long)te,
                       (long long)e->target_start);
        if (strcmp(mode_of(a, e->topic), "flink") == 0 && v[2 * n + i] != e->c)
            mm2_refuse(r,
                       "%s-%d: the Flink group's committed offset moved since the plan (%lld, "
                       "planned %lld): is Flink still copying it?",
                       e->topic, (int)e->partition, (long long)v[2 * n + i], (long long)e->c);
    }
    mm2_topic_list_free(&tl);
    free(src);
    free(tgt);
    free(v);
    return st;
}

/* The planned offsets: written unless Connect holds them already (a rerun), then read back. */
static int offsets(struct job *j, struct applied *a)
{
    struct mm2_error err = {0};
    struct mm2_source_offsets o = {0};
    char *body = NULL;
    int rc = MM2_OK;

    if (a->p.n == 0) {
        a->steps[1] = "none planned";
        return MM2_OK;
    }
    if (job_read_offsets(j, a->p.connector, &a->p, &o, &err) != MM2_OK)
        return job_fail(j, &err);
    if (as_planned(&a->p, &o, false, j) == a->p.n) {
        a->steps[1] = "held already";
        job_info(j, "Connect holds the %zu planned offsets already", a->p.n);
        mm2_source_offsets_free(&o);
        return MM2_OK;
    }
    mm2_source_offsets_free(&o);
    if ((body = mm2_plan_patch_body(&a->p)) == NULL)
        rc = job_fail(j, &(struct mm2_error){MM2_UNEXPECTED, "out of memory"});
    else if (job_info(j, "PATCH /connectors/%s/offsets: %zu partitions", a->p.connector, a->p.n),
             mm2_connect_patch_offsets(j->connect, a->p.connector, body, strlen(body), &err) !=
                     MM2_OK ||
                 job_read_offsets(j, a->p.connector, &a->p, &o, &err) != MM2_OK)
        rc = job_fail(j, &err);
    else if (as_planned(&a->p, &o, true, j) != a->p.n) {
        mm2_log_error(&j->log, "the offsets read back differ from the plan; the connector stays "
                               "stopped: run update again to write them again");
        rc = MM2_CHECK_FAILED;
    } else {
        a->steps[1] = "written and read back";
        job_info(j, "read back %zu offsets as planned", a->p.n);
    }
    free(body);
    mm2_source_offsets_free(&o);
    return rc;
}

/* The starts' facts checked again before anything changes (recheck); 0 or the exit code. */
static int facts_hold(struct job *j, const struct applied *a)
{
    struct mm2_error err = {0};
    struct mm2_refusals r = {0};
    int rc = MM2_OK;

    if (a->p.n > 0 && recheck(j, a, &r, &err) != MM2_OK)
        rc = job_fail(j, &err);
    else if (r.n > 0 || r.oom)
        rc = job_refused(j, &r, "the connector was not touched: plan the update again");
    mm2_refusals_free(&r);
    return rc;
}

/* What was done, sealed, printed and recorded. */
static int report(struct job *j, const struct applied *a)
{
    static const char *const names[] = {"stop", "offsets", "config", "resume"};
    struct mm2_error err = {0};
    cJSON *root = cJSON_CreateObject(), *s = cJSON_AddObjectToObject(root, "steps");
    char now[32];
    int rc = MM2_OK;

    job_utc_now(now, sizeof(now));
    cJSON_AddStringToObject(root, "kind", "mm2kit.update-report/v1");
    cJSON_AddStringToObject(root, "created", now);
    cJSON_AddStringToObject(root, "plan_digest", a->p.digest);
    for (size_t i = 0; s != NULL && i < 4; i++)
        cJSON_AddStringToObject(s, names[i], a->steps[i] != NULL ? a->steps[i] : "");
    if (root == NULL || s == NULL || job_add_migration(root, &a->p, &err) != MM2_OK ||
        job_report(j, "update report", root, NULL, &err) != MM2_OK)
        rc = job_fail(j, err.msg[0] != '\0' ? &err
                                            : &(struct mm2_error){MM2_UNEXPECTED, "out of memory"});
    cJSON_Delete(root);
    return rc;
}

static int apply_update(struct job *j, const char *path, const char *approve, long timeout_ms)
{
    struct mm2_error err = {0};
    struct applied a = {.path = path};
    bool running = false;
    int rc = read_update(j, path, approve, &a);

    if (rc == MM2_OK)
        rc = where(j, &a, &running);
    if (rc == MM2_OK && a.put_done && running) {
        job_info(j,
                 "connector %s runs the file's config already: the update is applied; prove "
                 "it with: " PROG " check --config %s --plan %s",
                 a.p.connector, j->cfg.path, path);
        goto out;
    }
    if (rc == MM2_OK)
        rc = facts_hold(j, &a);
    if (rc == MM2_OK && record_run(j, &a, &err) != MM2_OK) {
        rc = job_fail(j, &err);
        mm2_log_error(&j->log, "the connector was not touched: the approval must be on record "
                               "in the audit trail first");
    }
    if (rc == MM2_OK) {
        job_info(j, "PUT /connectors/%s/stop (approved %s)", a.p.connector, a.p.digest);
        if (mm2_connect_put_state(j->connect, a.p.connector, "stop", &err) != MM2_OK)
            rc = job_fail(j, &err);
        else
            rc = job_wait_stopped(j, a.p.connector, timeout_ms);
        a.steps[0] = "stopped";
    }
    if (rc == MM2_OK)
        rc = offsets(j, &a);
    if (rc == MM2_OK && !a.put_done) {
        job_info(j, "PUT /connectors/%s/config: %s", a.p.connector, j->cfg.connector_file);
        if (mm2_connect_put_config(j->connect, a.p.connector, j->conn.config, &err) != MM2_OK)
            rc = job_fail(j, &err);
        a.steps[2] = "put";
    } else if (rc == MM2_OK) {
        a.steps[2] = "put already";
    }
    if (rc == MM2_OK) {
        job_info(j, "PUT /connectors/%s/resume", a.p.connector);
        if (mm2_connect_put_state(j->connect, a.p.connector, "resume", &err) != MM2_OK)
            rc = job_fail(j, &err);
        else
            rc = job_wait_running(j, a.p.connector, timeout_ms);
        a.steps[3] = "running";
    }
    if (rc == MM2_OK)
        rc = report(j, &a);
    if (rc == MM2_OK)
        job_info(j,
                 "updated; prove where each started partition began with: " PROG
                 " check --config %s --plan %s",
                 j->cfg.path, path);
out:
    mm2_plan_free(&a.p);
    cJSON_Delete(a.tree);
    return rc;
}

int cmd_update(struct job *j, int argc, char **argv)
{
    const char *config = NULL, *out = NULL, *plan = NULL, *approve = NULL;
    struct job_list starts = {0};
    struct job_start sv[JOB_LIST_MAX];
    long timeout_ms = DEFAULT_WAIT_MS;
    bool carry = false, done;
    const struct job_opt opts[] = {
        {"config", 'c', JOB_OPT_STRING, &config},       {"out", 'o', JOB_OPT_STRING, &out},
        {"start", 's', JOB_OPT_LIST, &starts},          {"carry-over", 'C', JOB_OPT_FLAG, &carry},
        {"plan", 'p', JOB_OPT_STRING, &plan},           {"approve", 'a', JOB_OPT_STRING, &approve},
        {"timeout", 't', JOB_OPT_SECONDS, &timeout_ms},
    };
    int rc = job_options(j, argc, argv, opts, sizeof(opts) / sizeof(opts[0]), usage, &done);

    if (rc != MM2_OK || done)
        return rc;
    if (config == NULL)
        return job_usage_error(j, "--config FILE is required (the migration INI file)");
    if (plan == NULL && out == NULL)
        return job_usage_error(j, "give --out FILE to plan an update, or --plan FILE --approve "
                                  "DIGEST to apply an approved one");
    if (plan != NULL && (out != NULL || starts.n > 0 || carry))
        return job_usage_error(j, "--plan applies a plan: --out, --start and --carry-over belong "
                                  "to planning it");
    if (plan != NULL && approve == NULL)
        return job_usage_error(j, "--approve DIGEST is required with --plan (the digest the "
                                  "plan printed and a person approved)");
    if (plan == NULL && approve != NULL)
        return job_usage_error(j, "--approve needs --plan FILE");
    rc = parse_starts(j, &starts, sv);
    if (rc == MM2_OK)
        rc = job_load(j, config);
    if (rc == MM2_OK)
        rc = plan != NULL ? apply_update(j, plan, approve, timeout_ms)
                          : plan_update(j, sv, starts.n, carry, out);
    return rc;
}
