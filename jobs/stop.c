/* stop: the first step of a rollback after MM2 ran, and of any planned halt: PUT
 * /connectors/NAME/stop (KIP-875: the tasks are shut down and their configs removed, the
 * offsets stay), then wait until the connector is stopped as Connect decides it (no task
 * running or configured: job_stop_problem), and print a sealed report of the offsets it holds,
 * which rollback-plan turns into Flink's C. A connector already stopped is not touched again;
 * one that does not exist is refused by name (a wrong [connector] file, or nothing to stop). */
#include "stop.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clients.h"
#include "load.h"
#include "mm2_cli.h"
#include "mm2_connlive.h"
#include "mm2_json.h"
#include "options.h"
#include "readback.h"
#include "report.h"
#include "stopped.h"

#define DEFAULT_WAIT_MS 120000L

/* The codes it exits with (docs/ARCHITECTURE.md §5), as --help states them. */
static const struct mm2_exit_note exit_notes[] = {
    {MM2_OK, "stopped (or already stopped), the report printed"},
    {MM2_CHECK_FAILED, "refused: no such connector"},
    {MM2_USAGE, NULL},
    {MM2_CONFIG, "the INI file or the connector JSON"},
    {MM2_UNREACHABLE, "Connect, or not stopped in time"},
    {MM2_UNEXPECTED, "Connect"},
};

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: " PROG " stop --config FILE [--report FILE] [--timeout SECONDS]\n"
            "Stops the connector of the INI's [connector] file: PUT /connectors/NAME/stop, then\n"
            "waits until Connect has no task of it running or configured, so its offsets no\n"
            "longer move. Prints a sealed report (JSON) of the state it found and the offsets\n"
            "the connector holds: the input of rollback-plan. A connector already stopped is\n"
            "left as it is and reported the same way.\n"
            "\n"
            "Options:\n"
            "  -c, --config FILE        the migration INI file\n"
            "  -r, --report FILE        also write the report there\n"
            "  -t, --timeout SECONDS    how long to wait for the stop (%ld)\n",
            DEFAULT_WAIT_MS / 1000);
    job_usage_end(out, 27, exit_notes, sizeof(exit_notes) / sizeof(exit_notes[0]));
}

/* The report: what was found, when it was stopped, and the offsets held (sorted). */
static cJSON *stop_report(const struct job *j, const char *before, size_t tasks_before,
                          const struct mm2_source_offsets *offs)
{
    cJSON *rep = cJSON_CreateObject(), *arr = cJSON_CreateArray();
    char now[32];

    if (rep == NULL || arr == NULL) {
        cJSON_Delete(rep);
        cJSON_Delete(arr);
        return NULL;
    }
    job_utc_now(now, sizeof(now));
    cJSON_AddStringToObject(rep, "kind", "mm2kit.stop/v1");
    cJSON_AddStringToObject(rep, "connector", j->conn.name);
    cJSON_AddStringToObject(rep, "state_before", before);
    cJSON_AddItemToObject(rep, "tasks_before", mm2_json_int((int64_t)tasks_before));
    cJSON_AddStringToObject(rep, "state", "STOPPED");
    cJSON_AddStringToObject(rep, "stopped_at", now);
    job_add_offsets(arr, offs);
    cJSON_AddItemToObject(rep, "offsets", arr);
    return rep;
}

static int run(struct job *j, const char *report, long timeout_ms)
{
    const char *name = j->conn.name;
    struct mm2_connlive v;
    struct mm2_source_offsets offs = {0};
    struct mm2_error err = {0};
    char before[32];
    size_t tasks_before;
    cJSON *rep;
    int rc;

    if (job_connect(j, &err) != MM2_OK || mm2_connlive_read(j->connect, name, &v, &err) != MM2_OK)
        return job_fail(j, &err);
    if (!v.s.exists) {
        mm2_log_error(&j->log,
                      "refused: connector %s does not exist on %s: nothing to stop (is [connector] "
                      "file the connector you mean?)",
                      name, j->cfg.connect_url);
        return MM2_CHECK_FAILED;
    }
    (void)snprintf(before, sizeof(before), "%s", mm2_cstate_name(v.s.state));
    tasks_before = v.s.ntasks;
    if (v.s.state == MM2_CSTATE_STOPPED) {
        job_info(j, "connector %s is already STOPPED: not touched", name);
    } else {
        job_info(j, "connector %s is %s with %zu tasks (%zu RUNNING); PUT /connectors/%s/stop",
                 name, before, v.s.ntasks, v.s.tasks_running, name);
        if (mm2_connect_put_state(j->connect, name, "stop", &err) != MM2_OK)
            return job_fail(j, &err);
    }
    rc = job_wait_stopped(j, name, timeout_ms);
    if (rc != MM2_OK)
        return rc;
    if (job_read_offsets(j, name, NULL, &offs, &err) != MM2_OK)
        return job_fail(j, &err);
    job_info(j, "connector %s STOPPED with no task; it holds %zu source offsets", name, offs.n);
    rep = stop_report(j, before, tasks_before, &offs);
    mm2_source_offsets_free(&offs);
    if (rep == NULL)
        return job_fail(j, &(struct mm2_error){MM2_UNEXPECTED, "out of memory"});
    if (job_report(j, "stop report", rep, report, &err) != MM2_OK)
        rc = job_fail(j, &err);
    cJSON_Delete(rep);
    return rc;
}

int cmd_stop(struct job *j, int argc, char **argv)
{
    const char *config = NULL, *report = NULL;
    long timeout_ms = DEFAULT_WAIT_MS;
    const struct job_opt opts[] = {
        {"config", 'c', JOB_OPT_STRING, &config},
        {"report", 'r', JOB_OPT_STRING, &report},
        {"timeout", 't', JOB_OPT_SECONDS, &timeout_ms},
    };
    bool done;
    int rc = job_options(j, argc, argv, opts, sizeof(opts) / sizeof(opts[0]), usage, &done);

    if (rc != MM2_OK || done)
        return rc;
    rc = job_load(j, config);
    if (rc == MM2_OK)
        rc = run(j, report, timeout_ms);
    return rc;
}
