/* mm2-offsets: the one-shot offset migration from a Flink Kafka-to-Kafka copy job to MirrorMaker
 * 2's MirrorSourceConnector (docs/ARCHITECTURE.md §3.4): export C, plan M = C - 1 under every
 * safety rule, apply (create STOPPED, back up, PATCH, verify), verify, resume on approval, status,
 * check the boundary record by record, the acceptance report, and the rollback plan.
 *
 * Subcommands dispatch through a table, one file each. Exit codes: docs/ARCHITECTURE.md §5. */
#include <stdio.h>
#include <string.h>

#include "accept.h"
#include "apply.h"
#include "check.h"
#include "diff.h"
#include "update.h"
#include "export.h"
#include "job.h"
#include "mm2_cli.h"
#include "mm2_deadline.h"
#include "mm2_kafka.h"
#include "plan.h"
#include "preflight.h"
#include "record.h"
#include "remove.h"
#include "resume.h"
#include "rollback.h"
#include "status.h"
#include "stop.h"
#include "verify.h"

static const struct {
    const char *name;
    int (*fn)(struct job *j, int argc, char **argv);
    const char *what;
} cmds[] = {
    {"preflight", cmd_preflight, "before the cutover: permissions, internal topics, connector"},
    {"export", cmd_export, "read the Flink group's C, the logs and the target, twice"},
    {"plan", cmd_plan, "turn an export into M = C - 1 under every safety rule"},
    {"apply", cmd_apply, "create the connector STOPPED, back up, PATCH the plan, verify"},
    {"verify", cmd_verify, "read the connector's offsets back and compare with the plan"},
    {"resume", cmd_resume, "start the connector, only with --approve PLAN-DIGEST"},
    {"status", cmd_status, "connector and task states, offsets against the plan, lag"},
    {"check", cmd_check, "after resume: the first records MM2 wrote equal the source from C"},
    {"accept", cmd_accept, "after resume: the acceptance list, each line with its evidence"},
    {"stop", cmd_stop, "stop the connector, wait until no task runs, report its offsets"},
    {"remove", cmd_remove, "rollback before MM2 ran: delete the connector and its offsets"},
    {"rollback-plan", cmd_rollback, "the Flink group position C = M + 1 from MM2's offsets"},
    {"record", cmd_record, "put a file of this migration in the audit trail after the fact"},
    {"diff", cmd_diff, "day two: the connector JSON against the running connector, by offsets"},
    {"update", cmd_update,
     "day two: a change planned, approved, then applied without moving offsets"},
};

/* The codes it exits with (docs/ARCHITECTURE.md §5), as --help states them. */
static const struct mm2_exit_note exit_notes[] = {
    {MM2_OK, NULL},
    {MM2_CHECK_FAILED, "plan refused, verify or check mismatch"},
    {MM2_USAGE, NULL},
    {MM2_CONFIG, "the INI file or an input file"},
    {MM2_UNREACHABLE, "Kafka, Connect or Flink, or timed out"},
    {MM2_UNEXPECTED, "Kafka, Connect or Flink"},
    {MM2_DIFFERS, "diff: a change to apply"},
};

static void usage(FILE *out)
{
    fprintf(out, "Usage: " PROG " COMMAND [OPTION]...\n"
                 "Moves a Flink Kafka-to-Kafka copy job onto MirrorMaker 2 without losing a "
                 "record:\nMM2 starts at the Flink group's committed offset C (Connect offset "
                 "M = C - 1).\n\nCommands, in cutover order:\n");
    for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
        fprintf(out, "  %-14s %s\n", cmds[i].name, cmds[i].what);
    fprintf(out, "\n'" PROG " COMMAND --help' shows a command's options.\n"
                 "\n"
                 "Options:\n"
                 "  -h, --help     this text\n"
                 "  -V, --version  the version, and the librdkafka it is built with\n"
                 "\n"
                 "Environment: only the variables the INI file names as ${env:VAR}.\n"
                 "\n"
                 "");
    mm2_cli_exit_codes(out, exit_notes, sizeof(exit_notes) / sizeof(exit_notes[0]));
}

/* "export, plan, ... or rollback-plan", from the table, into buf. */
static const char *command_names(char *buf, size_t len)
{
    const size_t n = sizeof(cmds) / sizeof(cmds[0]);
    size_t o = 0;

    buf[0] = '\0';
    for (size_t i = 0; i < n && o < len; i++) {
        int w = snprintf(buf + o, len - o, "%s%s",
                         i == 0       ? ""
                         : i + 1 == n ? " or "
                                      : ", ",
                         cmds[i].name);
        if (w < 0)
            break;
        o += (size_t)w;
    }
    return buf;
}

int main(int argc, char **argv)
{
    struct job j;
    char names[160];
    int rc;

    mm2_kafka_arenas(); /* before any thread: librdkafka's threads would each keep an arena */
    memset(&j, 0, sizeof(j));
    mm2_log_init(&j.log, PROG, stderr, MM2_LOG_INFO);
    if (argc < 2)
        return mm2_cli_usage_error(&j.log, "no command given");
    if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
        usage(stdout);
        return MM2_OK;
    }
    if (strcmp(argv[1], "-V") == 0 || strcmp(argv[1], "--version") == 0) {
        printf(PROG " %s (librdkafka %s)\n", MM2KIT_VERSION, mm2_kafka_version());
        return MM2_OK;
    }
    for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
        if (strcmp(argv[1], cmds[i].name) != 0)
            continue;
        j.cmd = cmds[i].name;
        (void)snprintf(j.log_prog, sizeof(j.log_prog), PROG " %s", j.cmd);
        j.log.prog = j.log_prog;
        long t0 = mm2_deadline_now_ms();
        rc = cmds[i].fn(&j, argc - 1, argv + 1);
        if (j.cfg_loaded) /* not after --help or a usage error */
            job_summary(&j, t0, rc);
        job_free(&j);
        return rc;
    }
    if (argv[1][0] == '-')
        return mm2_cli_usage_error(&j.log, "unknown option '%.60s'; give a command first", argv[1]);
    return mm2_cli_usage_error(&j.log, "unknown command '%.60s'; expected %s", argv[1],
                               command_names(names, sizeof(names)));
}
