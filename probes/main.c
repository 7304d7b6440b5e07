/* mm2-probe: asks a Kafka Connect worker's REST API one question and answers with the exit code
 * (docs/ARCHITECTURE.md §3.3), for kubelet probes and monitoring.
 *
 * One hard deadline covers the whole run; it never forks (the JVM is PID 1 in the worker's
 * container and reaps nothing, so a forked child would stay a zombie); it prints nothing on
 * success unless --verbose. Exit codes: docs/ARCHITECTURE.md §5 (exit_notes below). */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm2_cli.h"
#include "mm2_deadline.h"
#include "mm2_env.h"
#include "mm2_err.h"
#include "mm2_http.h"
#include "mm2_log.h"
#include "mm2_parse.h"
#include "auth.h"
#include "probe.h"

#define PROG "mm2-probe"
#define DEFAULT_REST_PORT 8088 /* the entrypoint's default CONNECT_REST_PORT */
#define DEFAULT_TIMEOUT_MS 5000L
#define CONNECTORS_MAX 64
#define CONNECTOR_NAME_MAX 1024
#define SHOW 120 /* characters of a bad value repeated in a message */

static const struct {
    const char *name;
    probe_check_fn fn;
} checks[] = {
    {"live", probe_live},
    {"ready", probe_ready},
    {"connectors", probe_connectors},
};

/* The codes it exits with (docs/ARCHITECTURE.md §5), as --help states them. */
static const struct mm2_exit_note exit_notes[] = {
    {MM2_OK, "healthy"},
    {MM2_CHECK_FAILED, "unhealthy"},
    {MM2_USAGE, NULL},
    {MM2_CONFIG, "CONNECT_REST_PORT is not a port; the REST password unreadable or empty"},
    {MM2_UNREACHABLE, "the worker, or no answer before --timeout"},
    {MM2_UNEXPECTED, "a redirect, a body over the cap or not the JSON expected"},
};

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: " PROG " live|ready|connectors [OPTION]...\n"
            "Asks a Kafka Connect worker's REST API one question; the exit code is the answer.\n"
            "\n"
            "Checks:\n"
            "  live        GET / answers 2xx: REST is up (livenessProbe); never fails because\n"
            "              of connectors, tasks or a rebalance\n"
            "  ready       GET /health answers 200 (readinessProbe, startupProbe); Kafka before\n"
            "              3.9 answers 404 there, then GET /connectors answering 200 counts\n"
            "  connectors  GET /connectors?expand=status: no connector or task FAILED, no\n"
            "              RUNNING connector without tasks, every --connector present;\n"
            "              prints one line per connector: NAME STATE tasks=RUNNING/TOTAL failed=N\n"
            "\n"
            "Options:\n"
            "  -u, --url URL           the worker's REST API, http[s]://HOST[:PORT][/PATH]\n"
            "                          (http://127.0.0.1:$CONNECT_REST_PORT)\n"
            "  -t, --timeout SECONDS   one deadline for the whole run, up to 3 decimals (%ld)\n"
            "  -c, --connector NAME    connectors: judge and show only NAME; repeatable, at most\n"
            "                          %d; a missing one is unhealthy\n"
            "  -f, --format text|json  connectors: the summary's format (text)\n"
            "      --cacert FILE       https: trust the CA certificate(s) in this PEM file\n"
            "                          instead of the system's (the REST listener's CA)\n"
            "      --user NAME         HTTP Basic as NAME (Kafka's basic-auth REST extension),\n"
            "                          with one of:\n"
            "      --password-file FILE  the password: this file's one line (a Secret mount)\n"
            "      --password-env VAR    the password: this environment variable\n"
            "                          (never on the command line; never printed)\n"
            "  -v, --verbose           one stderr line per request: method, path, status, ms\n"
            "  -h, --help              this text\n"
            "  -V, --version           the version\n"
            "\n"
            "Environment:\n"
            "  CONNECT_REST_PORT       REST port of the default --url (%d); not read with --url\n"
            "Proxy variables (http_proxy, https_proxy, ...) are ignored: the probe talks to the\n"
            "worker directly. No redirect is followed; bodies over 1048576 bytes are refused.\n"
            "\n"
            "Silent on success unless --verbose; diagnostics on stderr, the summary on stdout.\n"
            "\n",
            DEFAULT_TIMEOUT_MS / 1000, CONNECTORS_MAX, DEFAULT_REST_PORT);
    mm2_cli_exit_codes(out, exit_notes, sizeof(exit_notes) / sizeof(exit_notes[0]));
}

struct cli {
    struct probe_opts opts;
    probe_check_fn check;
    const char *url;                          /* --url as given, NULL for the default */
    const char *cacert;                       /* --cacert FILE, or NULL */
    const char *user;                         /* --user NAME, or NULL */
    const char *password_file, *password_env; /* --password-file, --password-env */
    const char *names[CONNECTORS_MAX];
    bool format_given;
    bool verbose;
    char default_url[64];
};

/* The option getopt stopped at, as the user wrote it: "--name..." or "-c". */
static void bad_option(char *buf, size_t len, char *const *argv)
{
    const char *arg = argv[optind - 1];

    if (strncmp(arg, "--", 2) == 0 || optopt == 0)
        (void)snprintf(buf, len, "%.*s", SHOW, arg);
    else
        (void)snprintf(buf, len, "-%c", optopt);
}

static enum mm2_status set_check(struct cli *cli, const char *arg, const struct mm2_log *log)
{
    if (cli->check != NULL)
        return mm2_cli_usage_error(log, "unexpected argument '%.*s'", SHOW, arg);
    for (size_t i = 0; i < sizeof(checks) / sizeof(checks[0]); i++) {
        if (strcmp(arg, checks[i].name) == 0) {
            cli->check = checks[i].fn;
            return MM2_OK;
        }
    }
    return mm2_cli_usage_error(log, "unknown check '%.*s'; expected live, ready or connectors",
                               SHOW, arg);
}

/* --connector NAME, once per connector. */
static enum mm2_status add_connector(struct cli *cli, const char *name, const struct mm2_log *log)
{
    if (name[0] == '\0')
        return mm2_cli_usage_error(log, "--connector needs a connector name, got \"\"");
    if (strlen(name) > CONNECTOR_NAME_MAX)
        return mm2_cli_usage_error(log, "--connector NAME must be at most %d bytes",
                                   CONNECTOR_NAME_MAX);
    if (cli->opts.nconnectors >= CONNECTORS_MAX)
        return mm2_cli_usage_error(log, "--connector may be given at most %d times",
                                   CONNECTORS_MAX);
    cli->names[cli->opts.nconnectors++] = name;
    return MM2_OK;
}

/* --format text|json. */
static enum mm2_status set_format(struct cli *cli, const char *format, const struct mm2_log *log)
{
    cli->format_given = true;
    if (strcmp(format, "json") == 0)
        cli->opts.json = true;
    else if (strcmp(format, "text") == 0)
        cli->opts.json = false;
    else
        return mm2_cli_usage_error(log, "--format must be text or json, got \"%.*s\"", SHOW,
                                   format);
    return MM2_OK;
}

/* --user, --password-file, --password-env: each once; one password source. */
static enum mm2_status set_auth(struct cli *cli, int c, const char *arg, const struct mm2_log *log)
{
    const char **slot = c == 'U' ? &cli->user : c == 'P' ? &cli->password_file : &cli->password_env;
    const char *name = c == 'U' ? "--user" : c == 'P' ? "--password-file" : "--password-env";

    if (*slot != NULL)
        return mm2_cli_usage_error(log, "%s may be given once", name);
    if (c == 'U' && !mm2_http_basic_user_valid(arg))
        return mm2_cli_usage_error(log,
                                   "--user must be 1 to %d bytes without ':' or control "
                                   "characters",
                                   MM2_HTTP_USER_MAX - 1);
    if (arg[0] == '\0')
        return mm2_cli_usage_error(log, "%s needs a value, got \"\"", name);
    *slot = arg;
    if (cli->password_file != NULL && cli->password_env != NULL)
        return mm2_cli_usage_error(log, "--password-file and --password-env exclude each other");
    return MM2_OK;
}

/* What the options say together, once all are read. */
static enum mm2_status check_options(const struct cli *cli, const struct mm2_log *log)
{
    if (cli->check == NULL)
        return mm2_cli_usage_error(log, "no check given; expected live, ready or connectors");
    if (cli->check != probe_connectors && cli->opts.nconnectors > 0)
        return mm2_cli_usage_error(log, "--connector applies only to the connectors check");
    if (cli->check != probe_connectors && cli->format_given)
        return mm2_cli_usage_error(log, "--format applies only to the connectors check");
    if ((cli->user != NULL) != (cli->password_file != NULL || cli->password_env != NULL))
        return mm2_cli_usage_error(log, "--user goes with --password-file or --password-env");
    return MM2_OK;
}

static enum mm2_status parse_args(int argc, char **argv, struct cli *cli, const struct mm2_log *log,
                                  bool *exit_now)
{
    static const struct option opts[] = {
        {"url", required_argument, NULL, 'u'},
        {"timeout", required_argument, NULL, 't'},
        {"connector", required_argument, NULL, 'c'},
        {"format", required_argument, NULL, 'f'},
        {"verbose", no_argument, NULL, 'v'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {"cacert", required_argument, NULL, 'C'},
        {"user", required_argument, NULL, 'U'},
        {"password-file", required_argument, NULL, 'P'},
        {"password-env", required_argument, NULL, 'E'},
        {NULL, 0, NULL, 0},
    };
    char opt[SHOW + 4];
    enum mm2_status st = MM2_OK;
    int c;

    opterr = 0;
    /* '-': operands come back in order as 1, so options may follow the check and POSIXLY_CORRECT
     * changes nothing; ':': a missing argument is told apart from an unknown option. */
    while (st == MM2_OK && (c = getopt_long(argc, argv, "-:u:t:c:f:vhV", opts, NULL)) != -1) {
        switch (c) {
        case 1:
            st = set_check(cli, optarg, log);
            break;
        case 'u':
            cli->url = optarg;
            break;
        case 't':
            if (mm2_parse_seconds(optarg, &cli->opts.timeout_ms) != 0)
                st = mm2_cli_usage_error(
                    log,
                    "--timeout must be seconds above 0 and at most 86400 with at "
                    "most 3 decimals, as in 5 or 0.5, got \"%.*s\"",
                    SHOW, optarg);
            break;
        case 'c':
            st = add_connector(cli, optarg, log);
            break;
        case 'f':
            st = set_format(cli, optarg, log);
            break;
        case 'v':
            cli->verbose = true;
            break;
        case 'C':
            if (optarg[0] == '\0')
                st = mm2_cli_usage_error(log,
                                         "--cacert needs a PEM file of CA certificates, got \"\"");
            cli->cacert = optarg;
            break;
        case 'U':
        case 'P':
        case 'E':
            st = set_auth(cli, c, optarg, log);
            break;
        case 'h':
            usage(stdout);
            *exit_now = true;
            return MM2_OK;
        case 'V':
            printf(PROG " %s\n", MM2KIT_VERSION);
            *exit_now = true;
            return MM2_OK;
        case ':':
            bad_option(opt, sizeof(opt), argv);
            st = mm2_cli_usage_error(log, "option '%s' needs an argument", opt);
            break;
        default:
            bad_option(opt, sizeof(opt), argv);
            st = mm2_cli_usage_error(log, "unknown option '%s'", opt);
            break;
        }
    }
    return st != MM2_OK ? st : check_options(cli, log);
}

/* --url, checked; or the default from CONNECT_REST_PORT (exit 3 when that is bad). */
static enum mm2_status resolve_url(struct cli *cli, const struct mm2_log *log)
{
    const char *v;
    int port = DEFAULT_REST_PORT;

    if (cli->url != NULL) {
        char why[512];
        if (!mm2_http_base_url_valid(cli->url, why, sizeof(why)))
            return mm2_cli_usage_error(log, "--url must be http[s]://HOST[:PORT][/PATH]: %s", why);
        cli->opts.url = cli->url;
        return MM2_OK;
    }
    v = mm2_env_get("CONNECT_REST_PORT");
    if (v != NULL && mm2_parse_port(v, &port) != 0) {
        mm2_log_error(log, "CONNECT_REST_PORT must be a port number from 1 to 65535, got \"%.*s\"",
                      SHOW, v);
        return MM2_CONFIG;
    }
    (void)snprintf(cli->default_url, sizeof(cli->default_url), "http://127.0.0.1:%d", port);
    cli->opts.url = cli->default_url;
    return MM2_OK;
}

/* The password from its file or variable, registered for redaction before anything is logged,
 * and handed to libcurl with the user. */
static enum mm2_status set_credentials(const struct cli *cli, struct probe_ctx *ctx,
                                       struct mm2_log *log, char **password, struct mm2_error *err)
{
    enum mm2_status st = probe_auth_password(cli->password_file, cli->password_env, password, err);

    if (st != MM2_OK)
        return st;
    (void)mm2_log_add_secret(log, *password);
    return mm2_http_set_basic_auth(ctx->http, cli->user, *password, err);
}

int main(int argc, char **argv)
{
    struct cli cli = {.opts = {.timeout_ms = DEFAULT_TIMEOUT_MS}};
    struct probe_ctx ctx = {0};
    struct mm2_error err = {0};
    struct mm2_log log;
    char *password = NULL;
    bool exit_now = false;
    bool curl_up = false;
    enum mm2_status st;

    mm2_log_init(&log, PROG, stderr, MM2_LOG_WARN);
    cli.opts.connectors = cli.names;
    st = parse_args(argc, argv, &cli, &log, &exit_now);
    if (st != MM2_OK || exit_now)
        return st;
    st = resolve_url(&cli, &log);
    if (st != MM2_OK)
        return st;
    if (cli.verbose)
        log.level = MM2_LOG_INFO;

    /* The deadline starts before libcurl does: its start-up counts against --timeout too. */
    mm2_deadline_start(&ctx.deadline, cli.opts.timeout_ms);
    ctx.opts = &cli.opts;
    ctx.log = &log;
    ctx.out = stdout;
    st = mm2_http_global_init(&err);
    curl_up = st == MM2_OK;
    if (st == MM2_OK)
        st =
            mm2_http_new(cli.opts.url, PROG "/" MM2KIT_VERSION, MM2_HTTP_BODY_MAX, &ctx.http, &err);
    if (st == MM2_OK && cli.cacert != NULL)
        st = mm2_http_set_cacert(ctx.http, cli.cacert, &err);
    if (st == MM2_OK && cli.user != NULL)
        st = set_credentials(&cli, &ctx, &log, &password, &err);
    if (st == MM2_OK)
        st = cli.check(&ctx, &err);
    if (st != MM2_OK && err.msg[0] != '\0')
        mm2_log_error(&log, "%s", err.msg);

    mm2_http_free(ctx.http);
    free(password);
    if (curl_up)
        mm2_http_global_cleanup();
    return st;
}
