/* diff: read-only, day two. The connector JSON of the repository ([connector] file) against the
 * running connector's config (GET /connectors/NAME/config), key by key through the masked views
 * of the binding refusal (mm2_cfgview: secrets masked, ${provider:...} references compared as
 * written, never resolved), each change classified by what it does to the stored offsets
 * (mm2_change). A change of the topic filter is judged on the source's topic list: the topics
 * it newly replicates (with whether the Flink group committed offsets for them) and the topics it
 * leaves out (with the offsets Connect holds for them). Exit 0 when equal, 7 when they differ
 * (docs/day-two.md). Changes nothing. */
#include "diff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "change.h"
#include "load.h"
#include "mm2_cli.h"
#include "mm2_json.h"
#include "options.h"

/* The codes it exits with (docs/ARCHITECTURE.md §5), as --help states them. */
static const struct mm2_exit_note exit_notes[] = {
    {MM2_OK, "the connector equals its file"},
    {MM2_USAGE, NULL},
    {MM2_CONFIG, "the INI file or the connector JSON"},
    {MM2_UNREACHABLE, "Kafka or Connect, or timed out"},
    {MM2_UNEXPECTED, "Kafka or Connect"},
    {MM2_DIFFERS, "a key differs, or the connector does not exist"},
};

static void usage(FILE *out)
{
    fprintf(out, "Usage: " PROG " diff --config FILE [--format text|json]\n"
                 "Compares the INI's [connector] file with the running connector's config (GET\n"
                 "/connectors/NAME/config), key by key: secrets masked, ${provider:...} values\n"
                 "compared as written, never resolved; a key only the connector has is reported\n"
                 "as removed (PUT /config would drop it). Each change gets its class by what it\n"
                 "does to the stored offsets: harmless, topics (new topics start from\n"
                 "auto.offset.reset: refused without a start; removed topics keep their offsets),\n"
                 "review, moves-offsets (alias, replication policy, source cluster). A connector\n"
                 "that does not exist differs (the cutover creates it). Changes nothing.\n"
                 "\n"
                 "Options:\n"
                 "  -c, --config FILE        the migration INI file\n"
                 "  -f, --format text|json   output format (text)\n");
    job_usage_end(out, 27, exit_notes, sizeof(exit_notes) / sizeof(exit_notes[0]));
}

/* A value as a text line shows it: quoted, cut at 120 characters, control characters as '?'. */
static void shown(const cJSON *v, char *out, size_t len)
{
    if (!cJSON_IsString(v)) {
        (void)snprintf(out, len, "(not set)");
        return;
    }
    (void)snprintf(out, len, "\"%.120s%s\"", v->valuestring,
                   strlen(v->valuestring) > 120 ? "..." : "");
    for (size_t i = 1; out[i] != '\0'; i++)
        if ((unsigned char)out[i] < 0x20 || out[i] == 0x7f)
            out[i] = '?';
}

static const char *str(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

    return cJSON_IsString(v) ? v->valuestring : "";
}

/* A topic left out, and the offsets Connect stores for it. */
static void print_removed(const cJSON *e)
{
    const cJSON *x;
    int64_t off;

    printf("removed topic: %s: no longer replicated; its stored offsets stay behind:",
           str(e, "topic"));
    if (cJSON_GetArraySize(cJSON_GetObjectItem(e, "stored_offsets")) == 0)
        printf(" none");
    cJSON_ArrayForEach(x, cJSON_GetObjectItem(e, "stored_offsets"))
    {
        if (mm2_json_int64(cJSON_GetObjectItem(x, "offset"), &off))
            printf(" %s-%d=%lld", str(e, "topic"), cJSON_GetObjectItem(x, "partition")->valueint,
                   (long long)off);
    }
    printf("; added back later, it resumes from them (refused while they are below the "
           "log start)\n");
}

/* The text form: one line per change and per topic, then the verdict. */
static void print_text(const cJSON *rep)
{
    const cJSON *e;
    char a[140], b[140];

    printf("connector %s (%s) against %s: %d key%s differ%s\n", str(rep, "connector"),
           str(rep, "connect"), str(rep, "file"),
           cJSON_GetArraySize(cJSON_GetObjectItem(rep, "changes")),
           cJSON_GetArraySize(cJSON_GetObjectItem(rep, "changes")) == 1 ? "" : "s",
           cJSON_GetArraySize(cJSON_GetObjectItem(rep, "changes")) == 1 ? "s" : "");
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(rep, "changes"))
    {
        shown(cJSON_GetObjectItem(e, "old"), a, sizeof(a));
        shown(cJSON_GetObjectItem(e, "new"), b, sizeof(b));
        printf("%s: %s %s: %s -> %s: %s\n", str(e, "class"), str(e, "change"), str(e, "key"), a, b,
               str(e, "meaning"));
    }
    if (cJSON_GetObjectItem(rep, "topics_unknown") != NULL)
        printf("review: topics: cannot tell which topics are new or gone: %s\n",
               str(rep, "topics_unknown"));
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(rep, "topics_new"))
    {
        printf("new topic: %s\n", str(e, "why"));
    }
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(rep, "topics_removed"))
    {
        print_removed(e);
    }
    printf("verdict: %s\n", str(rep, "verdict"));
}

static int print_report(struct job *j, const cJSON *rep, bool json)
{
    char *text;

    if (!json) {
        print_text(rep);
        return fflush(stdout) == 0
                   ? MM2_OK
                   : job_fail(j, &(struct mm2_error){MM2_UNEXPECTED, "stdout: write failed"});
    }
    text = mm2_json_print(rep, true);
    if (text == NULL)
        return job_fail(j, &(struct mm2_error){MM2_UNEXPECTED, "out of memory"});
    fputs(text, stdout);
    if (text[0] == '\0' || text[strlen(text) - 1] != '\n')
        putchar('\n');
    free(text);
    return MM2_OK;
}

/* Compares, classifies, prints; 0, 7 or the exit code of a failure. */
static int run(struct job *j, bool json)
{
    struct mm2_error err = {0};
    struct job_change ch;
    int rc = MM2_OK;

    if (job_change_read(j, &ch, &err) != MM2_OK)
        rc = job_fail(j, &err);
    else {
        rc = print_report(j, ch.rep, json);
        if (rc == MM2_OK && (!ch.exists || ch.c.n > 0))
            rc = MM2_DIFFERS;
    }
    job_change_free(&ch);
    return rc;
}

int cmd_diff(struct job *j, int argc, char **argv)
{
    const char *config = NULL, *format = NULL;
    const struct job_opt opts[] = {
        {"config", 'c', JOB_OPT_STRING, &config},
        {"format", 'f', JOB_OPT_STRING, &format},
    };
    bool done;
    int rc = job_options(j, argc, argv, opts, sizeof(opts) / sizeof(opts[0]), usage, &done);

    if (rc != MM2_OK || done)
        return rc;
    if (format != NULL && strcmp(format, "text") != 0 && strcmp(format, "json") != 0)
        return job_usage_error(j, "--format must be text or json, got \"%.40s\"", format);
    rc = job_load(j, config);
    if (rc == MM2_OK)
        rc = run(j, format != NULL && strcmp(format, "json") == 0);
    return rc;
}
