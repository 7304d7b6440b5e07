/* options: a subcommand's command line against its option table, getopt_long underneath (see
 * options.h). */
#include "options.h"

#include <getopt.h>
#include <string.h>

#include "mm2_parse.h"

/* The getopt_long tables for opts plus -q, -v and -h; 0, or -1 when they do not fit. */
static int getopt_tables(const struct job_opt *opts, size_t nopts, struct option *lo, size_t nlo,
                         char *so, size_t nso)
{
    size_t n = 0, o = 0;

    if (nopts + 4 > nlo || 2 * nopts + 5 > nso)
        return -1;
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
    return 0;
}

/* Stores the argument of opt (optarg) where the option table says. */
static int take(struct job *j, const struct job_opt *opt)
{
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
    return MM2_OK;
}

int job_options(struct job *j, int argc, char **argv, const struct job_opt *opts, size_t nopts,
                void (*usage)(FILE *out), bool *done)
{
    struct option lo[24];
    char so[80];
    int c;

    *done = false;
    if (getopt_tables(opts, nopts, lo, sizeof(lo) / sizeof(lo[0]), so, sizeof(so)) != 0)
        return job_usage_error(j, "too many options (internal)");
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, so, lo, NULL)) != -1) {
        const struct job_opt *opt = NULL;
        int rc;
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
        rc = take(j, opt);
        if (rc != MM2_OK)
            return rc;
    }
    if (optind < argc)
        return job_usage_error(j, "unexpected argument '%.60s'", argv[optind]);
    return MM2_OK;
}

void job_usage_end(FILE *out, int col, const struct mm2_exit_note *notes, size_t n)
{
    static const struct {
        const char *flags, *what;
    } common[] = {
        {"-q, --quiet", "no progress lines"},
        {"-v, --verbose", "debug detail too"},
        {"-h, --help", "this text"},
    };

    for (size_t i = 0; i < sizeof(common) / sizeof(common[0]); i++)
        fprintf(out, "  %-*s%s\n", col - 2, common[i].flags, common[i].what);
    fputc('\n', out);
    mm2_cli_exit_codes(out, notes, n);
}
