/*
 * mm2_cli: the command-line surface the three programs share (docs/ARCHITECTURE.md §8): the exit
 * codes as --help states them, drawn from the one table (mm2_status_text, §5), and the usage
 * error.
 *
 * Contract:
 *   - Prints only to the FILE * it is given, or to the log's own stream; never exits.
 *   - A program lists the codes it can exit with, each with what the code means for it; the
 *     table's text always comes first, so --help, the man pages and the README say the same
 *     thing for the same code (tests/cli/exit_codes.bats checks it).
 */
#ifndef MM2_CLI_H
#define MM2_CLI_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include "mm2_err.h"
#include "mm2_log.h"

/* The width --help text is wrapped to. */
#define MM2_CLI_WIDTH 80

/* One code a program can exit with, and what it means there (NULL: the table's text says it). */
struct mm2_exit_note {
    enum mm2_status code;
    const char *detail;
};

/* Writes "Exit codes: 0 success (DETAIL), 1 check failed (DETAIL), ..., 5 TEXT." to out, wrapped
 * at MM2_CLI_WIDTH columns (a code never ends a line), one entry per note in the order given. */
void mm2_cli_exit_codes(FILE *out, const struct mm2_exit_note *notes, size_t n);

/* A usage error: the message as one error line through log ("PROG: error: MESSAGE"), then
 * "Try 'PROG --help'." on the log's stream, where PROG is log->prog ("mm2-offsets plan" for a
 * subcommand). Returns MM2_USAGE. */
enum mm2_status mm2_cli_usage_error(const struct mm2_log *log, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
enum mm2_status mm2_cli_vusage_error(const struct mm2_log *log, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));

#endif
