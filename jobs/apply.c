/* apply: re-checks the plan's facts, creates the connector STOPPED (or finds it STOPPED with the
 * plan's config), backs up its offsets, refuses if they show it moved past the plan, PATCHes
 * the plan in one request (409 retried), then verifies (docs/ARCHITECTURE.md §2.1, §6.4). Never
 * resumes. */
#include "apply.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clients.h"
#include "compare.h"
#include "load.h"
#include "mm2_artifact.h"
#include "mm2_backup.h"
#include "mm2_cli.h"
#include "mm2_connlive.h"
#include "options.h"
#include "trail.h"
#include "past.h"
#include "readback.h"
#include "recheck.h"
#include "report.h"
#include "stopped.h"

/* The codes it exits with (docs/ARCHITECTURE.md §5), as --help states them. */
static const struct mm2_exit_note exit_notes[] = {
    {MM2_OK, "applied and verified"},
    {MM2_CHECK_FAILED, "refused, or a verify mismatch"},
    {MM2_USAGE, NULL},
    {MM2_CONFIG, "the INI file or the plan"},
    {MM2_UNREACHABLE, "Kafka or Connect, or timed out"},
    {MM2_UNEXPECTED, "Kafka or Connect"},
};

static void usage(FILE *out)
{
    fprintf(out, "Usage: " PROG " apply --config FILE --plan FILE [--backup FILE] [--report FILE] "
                 "[--replace-stale-offsets]\n"
                 "Re-checks the plan against the clusters (cluster ids, partition counts, every\n"
                 "replicated topic planned, log start <= C) and Connect (GET / reports the target\n"
                 "cluster), creates the connector with \"initial_state\": \"STOPPED\" or finds it\n"
                 "STOPPED with zero tasks and the plan's config, writes a backup of its offsets,\n"
                 "refuses if they show the connector moved past the plan, sends the plan in one\n"
                 "PATCH /connectors/NAME/offsets (retrying HTTP 409), then verifies. Running it\n"
                 "again on an unchanged STOPPED connector changes nothing and verifies. It never\n"
                 "resumes the connector. The verify report goes to stdout.\n"
                 "Connect keeps the offsets of a deleted connector: when the connector apply\n"
                 "created holds offsets past the plan, they are an earlier connector's, and going\n"
                 "back to the plan copies the records in between again. apply names them, deletes\n"
                 "the connector it created and changes nothing else, unless\n"
                 "--replace-stale-offsets is given: then it writes the plan over them (the backup\n"
                 "keeps them) and the report lists them.\n"
                 "\n"
                 "Options:\n"
                 "  -c, --config FILE  the migration INI file\n"
                 "  -p, --plan FILE    the reviewed plan\n"
                 "  -b, --backup FILE  where to write the backup of the connector's offsets\n"
                 "                     (backup-NAME-UTCTIME.json in the current directory)\n"
                 "  -r, --report FILE  also write the verify report there\n"
                 "  -S, --replace-stale-offsets\n"
                 "                     write the plan over offsets past it that an earlier\n"
                 "                     connector of that name left (only for a connector this\n"
                 "                     apply creates)\n");
    job_usage_end(out, 21, exit_notes, sizeof(exit_notes) / sizeof(exit_notes[0]));
}

/* The pause before the next poll of a status or config: 25 ms first, doubling to 250 ms. Connect
 * shows a connector's state and config as soon as its herder has read them back from the config
 * topic, usually within tens of milliseconds of the answer that wrote them; a first pause of
 * 250 ms was most of the wait. */
static void poll_pause(long *gap)
{
    job_sleep_ms(*gap);
    *gap = *gap * 2 > 250 ? 250 : *gap * 2;
}

/* Polls until the connector is stopped as Connect decides it (mm2_connlive_read: status
 * STOPPED, no task config), a moment after the 201, or after PUT .../stop when stopping. A task
 * status left by an earlier connector of the same name is reported, never waited for. A RUNNING
 * or PAUSED connector is another client's change, unless this run has just stopped it. */
static enum mm2_status wait_stopped(struct job *j, const char *name, bool stopping,
                                    struct mm2_error *err)
{
    struct mm2_deadline dl;
    struct mm2_connlive v = {0};
    char what[256];
    long gap = 25;

    mm2_deadline_start(&dl, j->cfg.retry_budget_ms);
    for (;;) {
        enum mm2_status st = mm2_connlive_read(j->connect, name, &v, err);
        if (st != MM2_OK)
            return st;
        mm2_connlive_describe(&v, what, sizeof(what));
        if (v.stop == MM2_CONNLIVE_DONE) {
            if (v.s.stale > 0)
                job_info(j,
                         "connector %s is %s: stale, Connect keeps no task config behind them; "
                         "not waited for",
                         name, what);
            return MM2_OK;
        }
        if (!stopping && v.stop == MM2_CONNLIVE_OTHER &&
            (v.s.state == MM2_CSTATE_RUNNING || v.s.state == MM2_CSTATE_PAUSED))
            return mm2_error_set(err, MM2_UNEXPECTED,
                                 "connector %s was created STOPPED but is %s: another client "
                                 "changed it; stop it and run again",
                                 name, mm2_cstate_name(v.s.state));
        if (mm2_deadline_expired(&dl))
            return mm2_error_set(err, MM2_UNREACHABLE,
                                 "connector %s did not report STOPPED with no task config within "
                                 "%ld ms (last: %s)",
                                 name, j->cfg.retry_budget_ms, what);
        poll_pause(&gap);
    }
}

static enum mm2_status create_stopped(struct job *j, const struct mm2_plan *plan, bool *created,
                                      struct mm2_error *err)
{
    cJSON *body = cJSON_CreateObject();
    cJSON *cfg = cJSON_Duplicate(j->conn.config, true);
    enum mm2_status st;

    if (body == NULL || cfg == NULL || !cJSON_AddStringToObject(body, "name", plan->connector) ||
        !cJSON_AddItemToObject(body, "config", cfg)) {
        cJSON_Delete(body);
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    }
    /* Since Kafka 3.7 (KIP-980): the connector and its tasks never start. */
    if (!cJSON_AddStringToObject(body, "initial_state", mm2_cstate_name(MM2_CSTATE_STOPPED))) {
        cJSON_Delete(body);
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    }
    st = mm2_connect_create(j->connect, body, created, err);
    cJSON_Delete(body);
    return st;
}

static enum mm2_status write_backup(struct job *j, const struct mm2_plan *plan,
                                    const struct mm2_source_offsets *o, const char *path,
                                    char digest[MM2_DIGEST_TEXT_LEN + 1], struct mm2_error *err)
{
    cJSON *root;
    char now[32];
    enum mm2_status st;

    job_utc_now(now, sizeof(now));
    st = mm2_backup_build(plan, o, PROG " " MM2KIT_VERSION, now, &root, err);
    if (st != MM2_OK)
        return st;
    st = mm2_artifact_write("backup", path, root, digest, err);
    /* In the trail before any offset changes: the Job's emptyDir goes with its pod. */
    if (st == MM2_OK && (st = job_trail_artifact(j, root, path, digest, err)) != MM2_OK)
        job_trail_unrecorded(j, err, path);
    cJSON_Delete(root);
    if (st == MM2_OK)
        job_info(j, "backed up %zu existing offsets of connector %s to %s (%s)", o->n,
                 plan->connector, path, digest);
    return st;
}

/* What apply's report adds to verify's: the backup, and what --replace-stale-offsets replaced. */
static enum mm2_status report_extras(cJSON *report, const char *backup, const char *digest,
                                     cJSON *replaced)
{
    cJSON *b = cJSON_AddObjectToObject(report, "backup");

    if (b == NULL || cJSON_AddStringToObject(b, "file", backup) == NULL ||
        cJSON_AddStringToObject(b, "digest", digest) == NULL) {
        cJSON_Delete(replaced);
        return MM2_UNEXPECTED;
    }
    if (replaced == NULL)
        replaced = cJSON_CreateArray();
    if (replaced == NULL || !cJSON_AddItemToObject(report, "replaced_stale_offsets", replaced)) {
        cJSON_Delete(replaced);
        return MM2_UNEXPECTED;
    }
    return MM2_OK;
}

static enum mm2_status patch(struct job *j, const struct mm2_plan *plan, struct mm2_error *err)
{
    char *body = mm2_plan_patch_body(plan);
    long t1 = mm2_deadline_now_ms();
    enum mm2_status st;

    if (body == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    job_info(j, "PATCH /connectors/%s/offsets: %zu partitions, %zu bytes", plan->connector, plan->n,
             strlen(body));
    st = mm2_connect_patch_offsets(j->connect, plan->connector, body, strlen(body), err);
    free(body);
    if (st == MM2_OK)
        job_info(j, "offsets written in %ld ms", mm2_deadline_now_ms() - t1);
    return st;
}

/* Polls until the connector's config has the plan's digest (the worker that answers may read
 * the config topic a moment after the one that wrote it). */
static enum mm2_status wait_config(struct job *j, const struct mm2_plan *plan,
                                   struct mm2_error *err)
{
    struct mm2_deadline dl;
    long gap = 25;

    mm2_deadline_start(&dl, j->cfg.retry_budget_ms);
    for (;;) {
        char digest[MM2_DIGEST_TEXT_LEN + 1] = "";
        cJSON *live = NULL;
        enum mm2_status st = mm2_connect_config(j->connect, plan->connector, &live, err);

        if (st == MM2_OK && live != NULL)
            st = mm2_connector_config_digest(live, plan->connector, digest, err);
        cJSON_Delete(live);
        if (st != MM2_OK || strcmp(digest, plan->config_digest) == 0)
            return st;
        if (mm2_deadline_expired(&dl))
            return mm2_error_set(err, MM2_UNREACHABLE,
                                 "connector %s did not show the plan's config (%s) within %ld ms "
                                 "of PUT .../config (last: %s)",
                                 plan->connector, plan->config_digest, j->cfg.retry_budget_ms,
                                 digest[0] != '\0' ? digest : "none");
        poll_pause(&gap);
    }
}

/* The placeholder would copy nothing: MirrorSourceConnector.shouldReplicateTopic also takes a
 * heartbeats topic whatever topics says, and the placeholder would then get a task for it. */
static enum mm2_status placeholder_copies_nothing(struct job *j, const cJSON *placeholder,
                                                  struct mm2_refusals *r, struct mm2_error *err)
{
    struct mm2_topic_list src = {0};
    struct mm2_mirror *m = NULL;
    struct mm2_deadline dl;
    enum mm2_status st = mm2_mirror_new(placeholder, j->connect_version, &m, err);

    job_kafka_deadline(j, &dl);
    if (st == MM2_OK)
        st = mm2_kafka_topics(j->source, &dl, &src, err);
    for (size_t i = 0; st == MM2_OK && i < src.n; i++)
        if (mm2_mirror_replicates(m, src.v[i].name))
            mm2_refuse(r,
                       "topic %.200s on the source: Connect %s has no initial_state, so apply "
                       "creates the connector with topics \"%s\" first, and MirrorSourceConnector "
                       "would still copy this heartbeats topic before apply could stop it; "
                       "create the connector STOPPED yourself on a newer Connect, or remove the "
                       "topic from the source [rule placeholder]",
                       src.v[i].name, j->connect_version, MM2_PLACEHOLDER_TOPICS);
    mm2_topic_list_free(&src);
    mm2_mirror_free(m);
    return st;
}

/* Connect before 3.7 has no initial_state (KIP-980; its REST server refuses the unknown field):
 * the connector is created with topics that match nothing (MM2_PLACEHOLDER_TOPICS), so that
 * it has no task and writes no offset; then stopped; then given the plan's config, which a
 * STOPPED connector takes without starting (KafkaConfigBackingStore keeps a connector's target
 * state across a config update, and DistributedHerder asks for task configs only for a STARTED
 * one). A run that finds the placeholder's config (one that stopped in between) goes on from
 * the stop; any other connector found is left to find_or_create's judgement.
 * docs/kafka-versions.md. Returns 0 or the exit code. */
static int create_legacy(struct job *j, const struct mm2_plan *plan, bool *created)
{
    struct mm2_error err = {0};
    struct mm2_refusals r = {0};
    char ph_digest[MM2_DIGEST_TEXT_LEN + 1], live_digest[MM2_DIGEST_TEXT_LEN + 1] = "";
    cJSON *ph = NULL, *live = NULL, *body = NULL;
    int rc = MM2_OK;

    if (mm2_connector_placeholder(j->conn.config, &ph, &err) != MM2_OK ||
        mm2_connector_config_digest(ph, plan->connector, ph_digest, &err) != MM2_OK ||
        mm2_connect_config(j->connect, plan->connector, &live, &err) != MM2_OK ||
        (live != NULL &&
         mm2_connector_config_digest(live, plan->connector, live_digest, &err) != MM2_OK)) {
        rc = job_fail(j, &err);
        goto out;
    }
    if (live != NULL && strcmp(live_digest, ph_digest) != 0)
        goto out; /* not the placeholder: judged like any existing connector */
    if (live != NULL) {
        job_info(j,
                 "connector %s exists with the placeholder config an earlier apply created it "
                 "with (topics \"%s\"): stopping it and writing the plan's config",
                 plan->connector, MM2_PLACEHOLDER_TOPICS);
    } else {
        if (placeholder_copies_nothing(j, ph, &r, &err) != MM2_OK) {
            rc = job_fail(j, &err);
            goto out;
        }
        if (r.n > 0) {
            rc = job_refused(j, &r, "Connect was not changed");
            goto out;
        }
        job_info(j,
                 "Connect %s has no initial_state (Kafka 3.7, KIP-980): creating connector %s "
                 "with topics \"%s\", which no topic matches, then stopping it",
                 j->connect_version, plan->connector, MM2_PLACEHOLDER_TOPICS);
        body = cJSON_CreateObject();
        if (body == NULL || !cJSON_AddStringToObject(body, "name", plan->connector) ||
            !cJSON_AddItemToObject(body, "config", ph)) {
            rc = job_fail(j, &(struct mm2_error){MM2_UNEXPECTED, "out of memory"});
            goto out;
        }
        ph = NULL; /* body owns it */
        if (mm2_connect_create(j->connect, body, created, &err) != MM2_OK) {
            rc = job_fail(j, &err);
            goto out;
        }
        if (!*created)
            goto out; /* it appeared meanwhile: judged like any existing connector */
    }
    if (mm2_connect_put_state(j->connect, plan->connector, "stop", &err) != MM2_OK ||
        wait_stopped(j, plan->connector, true, &err) != MM2_OK) {
        rc = job_fail(j, &err);
        goto out;
    }
    job_info(j, "connector %s STOPPED with zero tasks; writing the plan's config (%s)",
             plan->connector, plan->config_digest);
    if (mm2_connect_put_config(j->connect, plan->connector, j->conn.config, &err) != MM2_OK ||
        wait_config(j, plan, &err) != MM2_OK ||
        wait_stopped(j, plan->connector, false, &err) != MM2_OK)
        rc = job_fail(j, &err);
out:
    cJSON_Delete(body);
    cJSON_Delete(ph);
    cJSON_Delete(live);
    mm2_refusals_free(&r);
    return rc;
}

/* The connector found STOPPED with the plan's config, or created so; *created when this run
 * made it. Returns 0 or the exit code. */
static int find_or_create(struct job *j, const struct mm2_plan *plan, bool *created)
{
    struct mm2_refusals r = {0};
    struct mm2_error err = {0};
    bool exists = false;
    bool legacy = mm2_connector_version_below(j->connect_version, 3, 7);
    int rc = MM2_OK;

    *created = false;
    if (legacy) {
        rc = create_legacy(j, plan, created);
        if (rc != MM2_OK)
            return rc;
    }
    if (job_connector_stopped(j, plan, &exists, &r, &err) != MM2_OK) {
        rc = job_fail(j, &err);
    } else if (r.n == 0 && exists) {
        job_info(j, "connector %s exists, STOPPED with zero tasks and the plan's config",
                 plan->connector);
    } else if (r.n == 0 && legacy) {
        (void)mm2_error_set(&err, MM2_UNEXPECTED,
                            "connector %s was deleted while apply created it; run apply again",
                            plan->connector);
        rc = job_fail(j, &err);
    } else if (r.n == 0) {
        job_info(j, "creating connector %s STOPPED", plan->connector);
        if (create_stopped(j, plan, created, &err) != MM2_OK)
            rc = job_fail(j, &err);
        /* it appeared meanwhile: judge it like any existing one */
        else if (!*created && job_connector_stopped(j, plan, &exists, &r, &err) != MM2_OK)
            rc = job_fail(j, &err);
        else if (r.n == 0 && wait_stopped(j, plan->connector, false, &err) != MM2_OK)
            rc = job_fail(j, &err);
    }
    if (rc == MM2_OK && r.n > 0)
        rc = job_refused(j, &r, "Connect was not changed");
    mm2_refusals_free(&r);
    return rc;
}

/* Backs up the connector's offsets, then judges those past the plan (job_judge_past). *same tells
 * that they already equal the plan; *replaced, what --replace-stale-offsets will replace.
 * Returns 0 or the exit code. */
static int back_up(struct job *j, const struct mm2_plan *plan, bool created, bool replace,
                   const char *backup, char digest[MM2_DIGEST_TEXT_LEN + 1], bool *same,
                   cJSON **replaced)
{
    struct mm2_source_offsets existing = {0};
    struct mm2_error err = {0};
    struct mm2_past *past = calloc(plan->n + 1, sizeof(*past));
    size_t npast;
    int rc = MM2_OK;
    long t = mm2_deadline_now_ms();

    if (past == NULL) {
        rc = job_fail(j, &(struct mm2_error){MM2_UNEXPECTED, "out of memory"});
    } else if (job_read_offsets(j, plan->connector, NULL, &existing, &err) != MM2_OK ||
               write_backup(j, plan, &existing, backup, digest, &err) != MM2_OK) {
        rc = job_fail(j, &err);
    } else {
        job_phase(j, "backup of its offsets", &t);
        npast = mm2_past_find(plan, &existing, past, same);
        if (npast > 0)
            rc = job_judge_past(j, plan, past, npast, created, replace, backup, replaced);
        else if (created && existing.n > 0)
            job_info(j,
                     "connector %s, just created, holds %zu offsets from an earlier connector of "
                     "that name, none past the plan: the plan is written over them (backed up in "
                     "%s)",
                     plan->connector, existing.n, backup);
    }
    mm2_source_offsets_free(&existing);
    free(past);
    return rc;
}

static int run(struct job *j, const struct mm2_plan *plan, const char *backup, const char *report,
               bool replace)
{
    struct mm2_refusals r = {0};
    struct job_comparison vr = {0};
    struct mm2_error err = {0};
    char backup_digest[MM2_DIGEST_TEXT_LEN + 1];
    cJSON *replaced = NULL;
    bool created = false, same = false;
    int rc = MM2_OK;
    long t = mm2_deadline_now_ms();

    if (job_recheck(j, plan, &r, &err) != MM2_OK) {
        rc = job_fail(j, &err);
        goto out;
    }
    job_phase(j, "re-check of the plan's facts", &t);
    if (r.n > 0) {
        rc = job_refused(j, &r, "Connect was not changed");
        goto out;
    }
    rc = find_or_create(j, plan, &created);
    if (rc != MM2_OK)
        goto out;
    job_phase(j, "the connector found or created STOPPED", &t);
    rc = back_up(j, plan, created, replace, backup, backup_digest, &same, &replaced);
    if (rc != MM2_OK)
        goto out;
    t = mm2_deadline_now_ms();
    if (same) {
        job_info(j, "the connector's offsets already equal the plan; nothing to PATCH");
    } else if (patch(j, plan, &err) != MM2_OK) {
        rc = job_fail(j, &err);
        goto out;
    }
    job_phase(j, "PATCH", &t);
    if (job_compare(j, plan, &vr, &err) != MM2_OK) {
        rc = job_fail(j, &err);
        goto out;
    }
    job_phase(j, "verify", &t);
    if (report_extras(vr.report, backup, backup_digest, replaced) != MM2_OK) {
        replaced = NULL;
        rc = job_fail(j, &(struct mm2_error){MM2_UNEXPECTED, "out of memory"});
        goto out;
    }
    replaced = NULL;
    if (job_report(j, "verify report", vr.report, report, &err) != MM2_OK) {
        rc = job_fail(j, &err);
        goto out;
    }
    if (vr.mismatches > 0) {
        job_compare_failed(j, "verify: ", &vr, "do not resume");
        rc = MM2_CHECK_FAILED;
        goto out;
    }
    job_info(j,
             "verified: all %zu partitions match the plan; connector %s stays STOPPED until "
             "resume --approve %s",
             vr.checked, plan->connector, plan->digest);
out:
    cJSON_Delete(replaced);
    cJSON_Delete(vr.report);
    mm2_refusals_free(&r);
    return rc;
}

int cmd_apply(struct job *j, int argc, char **argv)
{
    const char *config = NULL, *plan_path = NULL, *backup = NULL, *report = NULL;
    bool replace = false;
    const struct job_opt own[] = {
        {"backup", 'b', JOB_OPT_STRING, &backup},
        {"report", 'r', JOB_OPT_STRING, &report},
        {"replace-stale-offsets", 'S', JOB_OPT_FLAG, &replace},
    };
    struct mm2_plan plan = {0};
    char def_backup[MM2_ID_MAX + 64];
    bool done;
    int rc = job_plan_options(j, argc, argv, &config, &plan_path, own, sizeof(own) / sizeof(own[0]),
                              usage, &plan, &done);

    if (rc != MM2_OK || done)
        return rc;
    if (backup == NULL) {
        char stamp[32];
        job_utc_stamp(stamp, sizeof(stamp));
        (void)snprintf(def_backup, sizeof(def_backup), "backup-%s-%s.json", plan.connector, stamp);
        backup = def_backup;
    }
    rc = run(j, &plan, backup, report, replace);
    mm2_plan_free(&plan);
    return rc;
}
