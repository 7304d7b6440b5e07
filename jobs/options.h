/*
 * options: a subcommand's command line against its table of options (getopt_long underneath),
 * and the end of its --help. Calls job.c only (job.h has the order of jobs/).
 *
 * Contract: parsing stores into the caller's variables (strings point into argv); a usage error
 * is printed here (job_usage_error) and comes back as exit code 2.
 */
#ifndef JOBS_OPTIONS_H
#define JOBS_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "job.h"
#include "mm2_cli.h"

enum job_opt_kind {
    JOB_OPT_STRING,  /* const char **: the argument */
    JOB_OPT_SECONDS, /* long *: milliseconds, from seconds with up to 3 decimals */
    JOB_OPT_FLAG,    /* bool *: set when given */
    JOB_OPT_LIST,    /* struct job_list *: every argument, in order */
};

#define JOB_LIST_MAX 1024

struct job_list {
    char *v[JOB_LIST_MAX];
    size_t n;
};

struct job_opt {
    const char *name; /* long name */
    char short_name;
    enum job_opt_kind kind;
    void *dst;
};

/* Parses argv (argv[0] is the subcommand) against opts plus -q/--quiet, -v/--verbose and
 * -h/--help. Returns 0 to go on, or an exit code: 2 after a usage error, 0 with *done set after
 * --help (usage printed to stdout). Required options are the caller's to check. */
int job_options(struct job *j, int argc, char **argv, const struct job_opt *opts, size_t nopts,
                void (*usage)(FILE *out), bool *done);

/* The end of a subcommand's --help: the options job_options adds (-q, -v, -h), their text at
 * column col like the subcommand's own options above them, a blank line, then the exit codes
 * (mm2_cli_exit_codes). */
void job_usage_end(FILE *out, int col, const struct mm2_exit_note *notes, size_t n);

#endif
