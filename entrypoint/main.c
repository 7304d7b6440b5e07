/* mm2-entrypoint: the worker image's PID 1 until it execs Connect.
 *
 * In order (docs/ARCHITECTURE.md §3.2): read and validate the whole environment, reporting
 * every problem; check POD_IP is this host's; opt into the JMX agent only when
 * JMX_EXPORTER_PORT is set; set the container-safe heap and log defaults; drop
 * root and every capability, set no_new_privs; restore the signal mask and
 * exec connect-distributed.sh, so the JVM keeps this PID and gets SIGTERM.
 * It never forks. Exit codes: docs/ARCHITECTURE.md §5 (exit_notes below).
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "config.h"
#include "launch.h"
#include "mm2_cli.h"
#include "mm2_err.h"
#include "mm2_log.h"
#include "privs.h"
#include "restauth.h"

#define PROG "mm2-entrypoint"

/* The codes it exits with (docs/ARCHITECTURE.md §5), as --help states them. */
static const struct mm2_exit_note exit_notes[] = {
    {MM2_OK, "--check passed"},
    {MM2_USAGE, NULL},
    {MM2_CONFIG, "the environment, a file, or privileges that could not be dropped"},
    {MM2_EXEC_NOEXEC, "the launcher"},
    {MM2_EXEC_NOTFOUND, "the launcher"},
};

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: " PROG " [--check]\n"
            "Validates the worker pod's environment, then execs\n"
            "$KAFKA_HOME/bin/connect-distributed.sh $MM2_WORKER_CONFIG as 10001:10001.\n"
            "\n"
            "Options:\n"
            "  -c, --check    validate, print the resolved launch (secrets <redacted>), exit\n"
            "  -h, --help     this text\n"
            "  -V, --version  the version\n"
            "\n"
            "Required environment:\n"
            "  CONNECT_BOOTSTRAP_SERVERS     TARGET cluster host:port[,host:port...]\n"
            "  CONNECT_GROUP_ID              the Connect cluster's group id\n"
            "  CONNECT_CONFIG_STORAGE_TOPIC  internal config topic   } three distinct,\n"
            "  CONNECT_OFFSET_STORAGE_TOPIC  internal offsets topic  } valid topic\n"
            "  CONNECT_STATUS_STORAGE_TOPIC  internal status topic   } names\n"
            "  CONNECT_SASL_JAAS_CONFIG      one JAAS login module entry (secret: never printed)\n"
            "  POD_IP                        this pod's IP, advertised to the other workers\n"
            "\n"
            "Optional environment (default):\n"
            "  CONNECT_REST_PORT             REST port (%d)\n"
            "  CONNECT_SCHEDULED_REBALANCE_MAX_DELAY_MS  scheduled.rebalance.max.delay.ms (%ld)\n"
            "  JMX_EXPORTER_PORT             metrics port; unset = JMX exporter off (unset)\n"
            "  JMX_EXPORTER_AGENT            agent jar (" EP_DEFAULT_JMX_AGENT ")\n"
            "  JMX_EXPORTER_CONFIG           exporter rules (" EP_DEFAULT_JMX_CONFIG ")\n"
            "  KAFKA_HOME                    Kafka distribution (" EP_DEFAULT_KAFKA_HOME ")\n"
            "  MM2_WORKER_CONFIG             worker config (" EP_DEFAULT_WORKER_CONFIG ")\n"
            "  MM2_LOG_CONFIG                log config (" EP_DEFAULT_LOG4J2_CONFIG
            " for Kafka >= 4,\n"
            "                                " EP_DEFAULT_LOG4J1_CONFIG " for 3.x)\n"
            "  MM2_REST_JAAS_CONFIG          REST authentication's JAAS file, when the worker\n"
            "                                config names BasicAuthSecurityRestExtension\n"
            "                                (" RESTAUTH_DEFAULT_JAAS ")\n"
            "  KAFKA_HEAP_OPTS               heap flags (-XX:MaxRAMPercentage=50 of the limit)\n"
            "  KAFKA_OPTS, KAFKA_LOG4J_OPTS, LOG_DIR (/tmp)  passed on; appended to KAFKA_OPTS\n"
            "                                of the exec'd process only: the properties that\n"
            "                                close Kafka's login-module, config-provider and\n"
            "                                OAuth URL paths (for the Kafka version), the JAAS\n"
            "                                file's path and the JMX agent\n"
            "\n"
            "\n",
            EP_DEFAULT_REST_PORT, EP_DEFAULT_REBALANCE_DELAY_MS);
    mm2_cli_exit_codes(out, exit_notes, sizeof(exit_notes) / sizeof(exit_notes[0]));
    fputs("Otherwise it does not return: the JVM takes over this process.\n", out);
}

static int report(const struct mm2_log *log, const struct mm2_problems *p)
{
    for (size_t i = 0; i < p->n; i++)
        mm2_log_error(log, "%s", p->line[i]);
    if (p->dropped > 0)
        mm2_log_error(log, "%zu more problems not shown", p->dropped);
    return MM2_CONFIG;
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"check", no_argument, NULL, 'c'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };
    static struct launch launch; /* large; one per process */
    struct ep_config cfg;
    struct mm2_problems problems = {0};
    struct mm2_error err = {0};
    struct mm2_log log;
    bool check = false;
    bool was_root = false;
    enum mm2_status st;
    int c;

    mm2_log_init(&log, PROG, stderr, MM2_LOG_INFO);
    opterr = 0;
    /* '+': stop at the first non-option, like dumb-init. */
    while ((c = getopt_long(argc, argv, "+chV", opts, NULL)) != -1) {
        switch (c) {
        case 'c':
            check = true;
            break;
        case 'h':
            usage(stdout);
            return MM2_OK;
        case 'V':
            printf(PROG " %s\n", MM2KIT_VERSION);
            return MM2_OK;
        default:
            return mm2_cli_usage_error(&log, "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return mm2_cli_usage_error(&log, "unexpected argument '%s'", argv[optind]);

    ep_config_read(&cfg, &problems);
    if (cfg.jaas != NULL)
        mm2_log_add_secret(&log, cfg.jaas);
    if (problems.n > 0)
        return report(&log, &problems);

    if (launch_build(&launch, &cfg, &err) != MM2_OK) {
        mm2_log_error(&log, "%s", err.msg);
        return err.code;
    }
    if (check) {
        launch_print(&launch, &cfg, stdout);
        return MM2_OK;
    }

    if (privs_drop(EP_RUN_UID, EP_RUN_GID, &was_root, &err) != MM2_OK) {
        mm2_log_error(&log, "%s", err.msg);
        return MM2_CONFIG;
    }
    if (was_root) {
        /* Readable as root proves nothing: check again as the worker user. */
        ep_config_check_files(&cfg, &problems);
        if (problems.n > 0)
            return report(&log, &problems);
    }
    st = launch_exec(&launch, &err);
    mm2_log_error(&log, "%s", err.msg);
    return st;
}
