/* plan: C -> M = C - 1 for every exported partition, under every rule of docs/ARCHITECTURE.md §6;
 * refuses with one line per problem and writes nothing, or writes the plan and prints its digest
 * (the value a person approves for resume). Talks to nothing but, for the cluster ids the INI does
 * not pin, the clusters: the export holds every other fact. */
#include "plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind.h"
#include "clients.h"
#include "load.h"
#include "mm2_artifact.h"
#include "mm2_binding.h"
#include "mm2_cli.h"
#include "options.h"
#include "trail.h"

/* The codes it exits with (docs/ARCHITECTURE.md §5), as --help states them. */
static const struct mm2_exit_note exit_notes[] = {
    {MM2_OK, "the plan written"},
    {MM2_CHECK_FAILED, "refused"},
    {MM2_USAGE, NULL},
    {MM2_CONFIG, "the INI file, the connector JSON or the export"},
    {MM2_UNREACHABLE, "a cluster whose id the INI does not pin"},
    {MM2_UNEXPECTED, "such a cluster"},
};

static void usage(FILE *out)
{
    fprintf(
        out,
        "Usage: " PROG " plan --config FILE --export FILE --out FILE [--accept-loss "
        "TOPIC:PARTITION]...\n"
        "       [--start-at-gap TOPIC:PARTITION]... [--accept-unplaced TOPIC:PARTITION]...\n"
        "Turns the Flink group's committed offsets C into the Connect offsets MM2 resumes\n"
        "from: {\"offset\": C-1} when C > 0, null (start at auto.offset.reset=earliest) when\n"
        "C = 0 = log start. Refuses, naming topic, partition, the numbers and the rule: a\n"
        "missing C, C below the log start (expired) or above the log end, anything that\n"
        "moved between the export's two reads, an open transaction on the target, a target\n"
        "topic missing or with another partition count, a connector JSON that sets one of\n"
        "the emit.offset-syncs, sync.topic.configs or sync.topic.acls \"enabled\" keys\n"
        "other than false, an alias or Connect cluster that does not\n"
        "match, and no proof that Flink stopped. Flink's side of the boundary, as the\n"
        "export found it: a target whose last records are source records [C - k, C) short\n"
        "of C (behind: the sink's last transaction was lost) is refused, and so is a target\n"
        "whose last records are no copy of the partition around C (unplaced: Flink\n"
        "repartitioned); a target k records past C (ahead) is planned and its k\n"
        "duplicates reported. Nothing is written when anything is refused.\n"
        "Prints the plan's digest: resume --approve takes it.\n"
        "\n"
        "Options:\n"
        "  -c, --config FILE                  the migration INI file\n"
        "  -e, --export FILE                  the export to plan from\n"
        "  -o, --out FILE                     where to write the plan\n"
        "  -a, --accept-loss TOPIC:PARTITION  accept and record the loss of the expired\n"
        "                                     records of that partition (C < log start);\n"
        "                                     repeatable\n"
        "  -g, --start-at-gap TOPIC:PARTITION start MM2 at the first record the target lacks\n"
        "                                     (behind by k: M = C - k - 1) so it copies them;\n"
        "                                     repeatable\n"
        "  -u, --accept-unplaced TOPIC:PARTITION\n"
        "                                     plan a partition whose target tail could not be\n"
        "                                     placed (unplaced, ambiguous, gone, unread) at C\n"
        "                                     all the same: your decision, recorded; repeatable\n");
    job_usage_end(out, 37, exit_notes, sizeof(exit_notes) / sizeof(exit_notes[0]));
}

/* Reads and checks the export at path, and that it is this INI's migration's. Returns 0 or the
 * exit code; ex is freed on failure. */
static int read_export(struct job *j, const char *path, struct mm2_export *ex)
{
    struct mm2_error err = {0};
    struct mm2_binding b;
    char digest[MM2_DIGEST_TEXT_LEN + 1];
    cJSON *tree = NULL;
    int rc;

    if (mm2_artifact_read("export", path, MM2_KIND_EXPORT, &tree, digest, &err) != MM2_OK)
        return job_fail(j, &err);
    if (mm2_export_from_json(tree, ex, &err) != MM2_OK) {
        cJSON_Delete(tree);
        mm2_export_free(ex);
        mm2_error_prefix(&err, "%s", path);
        return job_fail(j, &err);
    }
    cJSON_Delete(tree);
    memcpy(ex->digest, digest, sizeof(digest));
    mm2_binding_of_export(ex, &b);
    rc = job_bound(j, "export", &b, ex->connect_version, "no plan written");
    if (rc != MM2_OK)
        mm2_export_free(ex);
    return rc;
}

/* What the plan records of Flink's side of the boundary, where it is not simply aligned. */
static void report_boundary(struct job *j, const struct mm2_pentry *e)
{
    if (e->duplicates > 0)
        job_warn(j,
                 "%s-%d: the target already holds %lld records past C=%lld (Flink wrote past "
                 "its committed offset): MM2 copies them again, %lld boundary duplicates",
                 e->topic, (int)e->partition, (long long)e->duplicates, (long long)e->c,
                 (long long)e->duplicates);
    else if (e->gap > 0)
        job_warn(j,
                 "%s-%d: starting MM2 at %lld, %lld records below C=%lld (--start-at-gap): it "
                 "copies the %lld records the target lacks",
                 e->topic, (int)e->partition, (long long)e->c, (long long)e->gap,
                 (long long)e->group_c, (long long)e->gap);
    else if (strcmp(e->boundary, "aligned") != 0 && strcmp(e->boundary, "empty") != 0 &&
             e->boundary[0] != '\0')
        job_warn(j, "%s-%d: planned at C=%lld although the target's tail is %s (--accept-unplaced)",
                 e->topic, (int)e->partition, (long long)e->c, e->boundary);
}

/* Parses every TOPIC:PARTITION of a repeatable option into refs. Returns 0 or the exit code. */
static int parse_refs(struct job *j, const struct job_list *l, const char *flag,
                      struct mm2_tpref *refs)
{
    for (size_t i = 0; i < l->n; i++) {
        char why[200];
        if (mm2_plan_tpref_parse(l->v[i], &refs[i], why, sizeof(why)) != 0)
            return job_usage_error(j, "%s must be TOPIC:PARTITION: %s", flag, why);
    }
    return MM2_OK;
}

/* A warning per accepted loss, then what the plan written to out holds. */
static void summarize(struct job *j, const struct mm2_plan *plan, const char *out,
                      const char *digest)
{
    size_t resets = 0, losses = 0, unproven = 0;
    long long lost = 0;

    for (size_t i = 0; i < plan->n; i++) {
        const struct mm2_pentry *e = &plan->entries[i];
        resets += e->action == MM2_ACT_RESET;
        losses += e->action == MM2_ACT_LOSS;
        lost += e->lost;
        report_boundary(j, e);
        unproven += e->boundary[0] == '\0';
        if (e->action == MM2_ACT_LOSS)
            job_warn(j,
                     "%s-%d: accepting the loss of %lld expired records (C=%lld, log start "
                     "%lld)",
                     e->topic, (int)e->partition, (long long)e->lost, (long long)e->c,
                     (long long)e->log_start);
    }
    if (unproven > 0)
        job_warn(j,
                 "%zu of %zu partitions planned without Flink's side of the boundary proven: the "
                 "export read no target tails ([flink] tail.records = 0, or an export from before "
                 "that proof), so a target behind or ahead of C goes unseen",
                 unproven, plan->n);
    job_info(j,
             "wrote %s: %zu partitions: %zu offsets C-1, %zu reset to earliest (C=0), %zu "
             "accepted losses (%lld records); approve with: resume --approve %s",
             out, plan->n, plan->n - resets - losses, resets, losses, lost, digest);
}

/* The plan written, summarized, recorded in the trail, and its digest printed. */
static int write_plan(struct job *j, struct mm2_plan *plan, const char *out)
{
    struct mm2_error err = {0};
    char digest[MM2_DIGEST_TEXT_LEN + 1];
    cJSON *tree = NULL;
    int rc = MM2_OK;

    job_utc_now(plan->created, sizeof(plan->created));
    if (mm2_plan_to_json(plan, &tree, &err) != MM2_OK ||
        mm2_artifact_write("plan", out, tree, digest, &err) != MM2_OK) {
        rc = job_fail(j, &err);
    } else {
        summarize(j, plan, out, digest);
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

int cmd_plan(struct job *j, int argc, char **argv)
{
    const char *config = NULL, *export_path = NULL, *out = NULL;
    struct job_list accept = {0}, gap = {0}, unplaced = {0};
    const struct job_opt opts[] = {
        {"config", 'c', JOB_OPT_STRING, &config},
        {"export", 'e', JOB_OPT_STRING, &export_path},
        {"out", 'o', JOB_OPT_STRING, &out},
        {"accept-loss", 'a', JOB_OPT_LIST, &accept},
        {"start-at-gap", 'g', JOB_OPT_LIST, &gap},
        {"accept-unplaced", 'u', JOB_OPT_LIST, &unplaced},
    };
    struct mm2_tpref refs[JOB_LIST_MAX], gap_refs[JOB_LIST_MAX], unplaced_refs[JOB_LIST_MAX];
    struct mm2_export ex = {0};
    struct mm2_plan plan = {0};
    struct mm2_refusals refusals = {0};
    struct mm2_error err = {0};
    enum mm2_status st;
    bool done;
    int rc = job_options(j, argc, argv, opts, sizeof(opts) / sizeof(opts[0]), usage, &done);

    if (rc != MM2_OK || done)
        return rc;
    if (export_path == NULL)
        return job_usage_error(j, "--export FILE is required (the export to plan from)");
    if (out == NULL)
        return job_usage_error(j, "--out FILE is required (where to write the plan)");
    rc = parse_refs(j, &accept, "--accept-loss", refs);
    if (rc == MM2_OK)
        rc = parse_refs(j, &gap, "--start-at-gap", gap_refs);
    if (rc == MM2_OK)
        rc = parse_refs(j, &unplaced, "--accept-unplaced", unplaced_refs);
    if (rc != MM2_OK)
        return rc;
    rc = job_load(j, config);
    if (rc == MM2_OK)
        rc = read_export(j, export_path, &ex);
    if (rc != MM2_OK)
        return rc;
    /* The filter's defaults are those of the Kafka that Connect runs (read at export). */
    if (job_mirror(j, ex.connect_version, &err) != MM2_OK) {
        mm2_export_free(&ex);
        return job_fail(j, &err);
    }
    st = mm2_plan_build(&(const struct mm2_plan_input){.ex = &ex,
                                                       .connector = &j->conn,
                                                       .mirror = j->mirror,
                                                       .cfg = &j->cfg,
                                                       .accept_loss = refs,
                                                       .naccept = accept.n,
                                                       .start_at_gap = gap_refs,
                                                       .ngap = gap.n,
                                                       .accept_unplaced = unplaced_refs,
                                                       .nunplaced = unplaced.n},
                        &plan, &refusals, &err);
    /* [policy] max.duplicates.*: the boundary duplicates the operator agreed to. */
    if (st == MM2_OK && mm2_policy_duplicates(&j->cfg.policy, &plan, &refusals) > 0)
        st = MM2_CHECK_FAILED;
    if (st == MM2_CHECK_FAILED) {
        rc = job_refused(j, &refusals, "no plan written");
    } else if (st != MM2_OK) {
        rc = job_fail(j, &err);
    } else {
        rc = write_plan(j, &plan, out);
    }
    mm2_plan_free(&plan);
    mm2_export_free(&ex);
    mm2_refusals_free(&refusals);
    return rc;
}
