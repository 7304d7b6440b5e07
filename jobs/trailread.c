/* trailread: the audit trail read back, checked and restored (see trailread.h). */
#include "trailread.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "clients.h"
#include "mm2_artifact.h"
#include "mm2_json.h"
#include "mm2_trail.h"
#include "trail.h"

#define BATCH 8            /* chunks per read: 4 MiB at most */
#define PROGRESS_MS 10000L /* a progress line this often on a long read */
#define PATH_LEN 4096
#define EMPTY_READS 20 /* reads in a row that may come back empty below the end */

/* What a read of the trail gathers. */
struct gather {
    struct job *j;
    const char *key;
    const char *dir; /* NULL: no restore */
    FILE *f;         /* the document being restored */
    char tmp[PATH_LEN];
    struct mm2_trail_asm a;
    struct mm2_trail_doc *docs;
    size_t n, cap;
    size_t unreadable; /* records of the migration whose headers are not the trail's */
    char first_why[200];
    size_t restored, seal_bad;
    struct mm2_refusals r;
};

static bool restore_open(struct gather *g)
{
    (void)snprintf(g->tmp, sizeof(g->tmp), "%s/.mm2kit-restore.partial", g->dir);
    g->f = fopen(g->tmp, "wb");
    return g->f != NULL;
}

/* A restored JSON artifact read back as every command reads one: its seal must hold. */
static void seal_check(struct gather *g, const struct mm2_trail_doc *d, const char *path)
{
    struct mm2_error err = {0};
    char digest[MM2_DIGEST_TEXT_LEN + 1];
    cJSON *tree = NULL;

    if (d->m.seal[0] == '\0')
        return;
    if (mm2_artifact_read(d->m.file, path, d->m.kind, &tree, digest, &err) != MM2_OK ||
        strcmp(digest, d->m.seal) != 0) {
        g->seal_bad++;
        mm2_refuse(&g->r, "%s restored from offset %lld: %s [rule trail-whole]", path,
                   (long long)d->offset,
                   err.msg[0] != '\0' ? err.msg : "its seal is not the one recorded");
    }
    cJSON_Delete(tree);
}

static void restore_close(struct gather *g, const struct mm2_trail_doc *d)
{
    char path[PATH_LEN];

    if (g->f == NULL)
        return;
    if (fclose(g->f) != 0 || d->state != MM2_TRAIL_OK) {
        g->f = NULL;
        (void)remove(g->tmp);
        return;
    }
    g->f = NULL;
    (void)snprintf(path, sizeof(path), "%s/%lld-%s", g->dir, (long long)d->offset, d->m.file);
    if (rename(g->tmp, path) != 0) {
        mm2_refuse(&g->r, "cannot write %s: check the directory %s [rule trail-restore]", path,
                   g->dir);
        (void)remove(g->tmp);
        return;
    }
    g->restored++;
    seal_check(g, d, path);
}

static void keep(struct gather *g, const struct mm2_trail_doc *d)
{
    if (g->n == g->cap) {
        size_t cap = g->cap ? 2 * g->cap : 16;
        struct mm2_trail_doc *v = realloc(g->docs, cap * sizeof(*v));
        if (v == NULL) {
            g->r.oom = true;
            return;
        }
        g->docs = v;
        g->cap = cap;
    }
    g->docs[g->n++] = *d;
    if (g->dir != NULL)
        restore_close(g, d);
}

static void one_record(struct gather *g, const struct mm2_record *rec)
{
    struct mm2_trail_meta m;
    struct mm2_trail_event ev;
    long part;
    char why[160];

    if (rec->key == NULL || rec->key_len != strlen(g->key) ||
        memcmp(rec->key, g->key, rec->key_len) != 0)
        return; /* another migration's */
    if (!mm2_trail_meta_read(rec->headers, rec->nheaders, &m, &part, why, sizeof(why))) {
        if (g->unreadable++ == 0)
            (void)snprintf(g->first_why, sizeof(g->first_why), "offset %lld: %s",
                           (long long)rec->offset, why);
        return;
    }
    mm2_trail_feed(&g->a, &m, part, rec->value, rec->value_len, rec->offset, &ev);
    /* The document this chunk cut short ends before its own starts (and, for a document of one
     * chunk, ends). */
    for (size_t i = 0; i < ev.nended; i++)
        if (!ev.own[i])
            keep(g, &ev.ended[i]);
    if (g->dir != NULL && ev.first && !restore_open(g))
        mm2_refuse(&g->r,
                   "cannot write in %s: check that it exists and is writable "
                   "[rule trail-restore]",
                   g->dir);
    if (g->f != NULL && ev.append && rec->value_len > 0 &&
        fwrite(rec->value, 1, rec->value_len, g->f) != rec->value_len)
        mm2_refuse(&g->r, "cannot write in %s: disk full? [rule trail-restore]", g->dir);
    for (size_t i = 0; i < ev.nended; i++)
        if (ev.own[i])
            keep(g, &ev.ended[i]);
}

/* Reads [start, end) of partition 0 in batches, each with a deadline of its own. */
static enum mm2_status read_all(struct gather *g, int64_t start, int64_t end, struct mm2_error *err)
{
    struct job *j = g->j;
    long last = mm2_deadline_now_ms();
    int64_t from = start;
    int empty = 0;

    while (from < end) {
        struct mm2_record_list l = {0};
        struct mm2_deadline dl;
        enum mm2_status st;

        job_kafka_deadline(j, &dl);
        st =
            mm2_kafka_read(j->target, j->cfg.trail_topic, 0, from, end, BATCH, false, &dl, &l, err);
        for (size_t i = 0; i < l.n; i++)
            one_record(g, &l.v[i]);
        if (l.n > 0)
            from = l.v[l.n - 1].offset + 1;
        mm2_record_list_free(&l);
        if (st != MM2_OK)
            return st;
        /* A read that comes back empty below the end met the end-of-partition event of the read
         * before it (librdkafka 2.8 may deliver it after the re-assign): read again. */
        if (l.n == 0 && ++empty > EMPTY_READS)
            return mm2_error_set(err, MM2_UNEXPECTED,
                                 "[target] trail %s: %d reads in a row returned nothing at offset "
                                 "%lld, below its end %lld",
                                 j->cfg.trail_topic, EMPTY_READS, (long long)from, (long long)end);
        if (l.n > 0)
            empty = 0;
        if (mm2_deadline_now_ms() - last >= PROGRESS_MS) {
            last = mm2_deadline_now_ms();
            job_info(j, "trail: read to offset %lld of %lld", (long long)from, (long long)end);
        }
    }
    return MM2_OK;
}

static void show_text(const struct gather *g, int64_t start, int64_t end)
{
    printf("trail %s on the target, offsets %lld to %lld, migration %s: %zu document%s\n",
           g->j->cfg.trail_topic, (long long)start, (long long)end, g->key, g->n,
           g->n == 1 ? "" : "s");
    printf("%-20s %-13s %-22s %-32s %10s %6s %-10s %s\n", "TIME", "STEP", "KIND", "FILE", "BYTES",
           "CHUNKS", "STATE", "SHA256");
    for (size_t i = 0; i < g->n; i++) {
        const struct mm2_trail_doc *d = &g->docs[i];
        printf("%-20s %-13s %-22s %-32s %10lld %6ld %-10s %s\n", d->m.time, d->m.command, d->m.kind,
               d->m.file, d->m.size, d->m.parts,
               d->state == MM2_TRAIL_OK           ? "ok"
               : d->state == MM2_TRAIL_INCOMPLETE ? "incomplete"
                                                  : "corrupt",
               d->m.sha256);
    }
}

static void show_json(const struct gather *g, int64_t start, int64_t end)
{
    cJSON *root = cJSON_CreateObject();
    cJSON *docs = cJSON_AddArrayToObject(root, "documents");
    cJSON *problems = cJSON_AddArrayToObject(root, "problems");
    char *text;

    cJSON_AddStringToObject(root, "topic", g->j->cfg.trail_topic);
    cJSON_AddStringToObject(root, "migration", g->key);
    cJSON_AddItemToObject(root, "log_start", mm2_json_int(start));
    cJSON_AddItemToObject(root, "log_end", mm2_json_int(end));
    for (size_t i = 0; docs != NULL && i < g->n; i++) {
        const struct mm2_trail_doc *d = &g->docs[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "time", d->m.time);
        cJSON_AddStringToObject(o, "step", d->m.command);
        cJSON_AddStringToObject(o, "kind", d->m.kind);
        cJSON_AddStringToObject(o, "file", d->m.file);
        cJSON_AddItemToObject(o, "offset", mm2_json_int(d->offset));
        cJSON_AddItemToObject(o, "bytes", mm2_json_int(d->m.size));
        cJSON_AddItemToObject(o, "chunks", mm2_json_int(d->m.parts));
        cJSON_AddItemToObject(o, "chunks_read", mm2_json_int(d->have));
        cJSON_AddStringToObject(o, "state",
                                d->state == MM2_TRAIL_OK           ? "ok"
                                : d->state == MM2_TRAIL_INCOMPLETE ? "incomplete"
                                                                   : "corrupt");
        cJSON_AddStringToObject(o, "sha256", d->m.sha256);
        cJSON_AddStringToObject(o, "seal", d->m.seal);
        cJSON_AddItemToArray(docs, o);
    }
    for (size_t i = 0; problems != NULL && i < g->r.n; i++)
        cJSON_AddItemToArray(problems, cJSON_CreateString(g->r.line[i]));
    text = cJSON_Print(root);
    if (text != NULL)
        printf("%s\n", text);
    free(text);
    cJSON_Delete(root);
}

/* The trail topic's log start and end; *absent when it does not exist. */
static enum mm2_status bounds(struct job *j, int64_t *start, int64_t *end, bool *absent,
                              struct mm2_error *err)
{
    struct mm2_topic_list tl = {0};
    struct mm2_deadline dl;
    struct mm2_tp tp = {j->cfg.trail_topic, 0};
    enum mm2_status st = job_kafka(j, false, true, err);

    *absent = true;
    if (st != MM2_OK)
        return st;
    job_kafka_deadline(j, &dl);
    st = mm2_kafka_topics(j->target, &dl, &tl, err);
    for (size_t i = 0; st == MM2_OK && i < tl.n; i++)
        if (strcmp(tl.v[i].name, j->cfg.trail_topic) == 0)
            *absent = false;
    mm2_topic_list_free(&tl);
    if (st != MM2_OK || *absent)
        return st;
    job_kafka_deadline(j, &dl);
    return mm2_kafka_log_offsets(j->target, &tp, 1, start, end, NULL, &dl, err);
}

static int finish(struct gather *g, int64_t start, int64_t end, bool json)
{
    struct job *j = g->j;
    int rc;

    if (g->unreadable > 0)
        mm2_refuse(&g->r,
                   "%zu record%s under this migration's key are not the trail's (first: %s): "
                   "something else writes to %s; only mm2-offsets should [rule trail-whole]",
                   g->unreadable, g->unreadable == 1 ? "" : "s", g->first_why, j->cfg.trail_topic);
    (void)mm2_trail_missing(g->docs, g->n, &g->r);
    if (g->n == 0)
        mm2_refuse(
            &g->r,
            "the trail %s holds nothing for migration %s: no command of this migration "
            "recorded anything, or the records are past their retention [rule trail-missing]",
            j->cfg.trail_topic, g->key);
    if (json)
        show_json(g, start, end);
    else
        show_text(g, start, end);
    if (g->dir != NULL)
        job_info(j, "trail: restored %zu document%s into %s", g->restored,
                 g->restored == 1 ? "" : "s", g->dir);
    if (g->r.n == 0 && !g->r.oom) {
        job_info(j, "trail: whole: %zu documents, every digest verified", g->n);
        return MM2_OK;
    }
    rc = job_refused(j, &g->r, "the trail is not whole");
    return rc;
}

int job_trail_show(struct job *j, const char *restore_dir, bool json)
{
    struct gather g = {.j = j, .dir = restore_dir};
    struct mm2_trail_event ev;
    struct mm2_error err = {0};
    int64_t start = 0, end = 0;
    bool absent;
    char *key = job_trail_key(j);
    int rc;

    if (key == NULL)
        return job_fail(j, &(struct mm2_error){MM2_UNEXPECTED, "out of memory"});
    g.key = key;
    if (restore_dir != NULL && mkdir(restore_dir, 0755) != 0 && errno != EEXIST) {
        mm2_log_error(&j->log, "cannot make the directory %s for --restore: %s", restore_dir,
                      strerror(errno));
        free(key);
        return MM2_CONFIG;
    }
    if (bounds(j, &start, &end, &absent, &err) != MM2_OK) {
        free(key);
        return job_fail(j, &err);
    }
    if (absent) {
        mm2_log_error(&j->log,
                      "the trail topic %s does not exist on the target: nothing was recorded "
                      "([trail] topic names another, or the trail was off)",
                      j->cfg.trail_topic);
        free(key);
        return MM2_CHECK_FAILED;
    }
    if (read_all(&g, start, end, &err) != MM2_OK) {
        if (g.f != NULL) {
            fclose(g.f);
            (void)remove(g.tmp);
        }
        mm2_trail_finish(&g.a, &ev);
        free(g.docs);
        mm2_refusals_free(&g.r);
        free(key);
        return job_fail(j, &err);
    }
    mm2_trail_finish(&g.a, &ev);
    for (size_t i = 0; i < ev.nended; i++)
        keep(&g, &ev.ended[i]);
    rc = finish(&g, start, end, json);
    free(g.docs);
    mm2_refusals_free(&g.r);
    free(key);
    return rc;
}
