/* mm2_accept: the acceptance list, judged line by line (see mm2_accept.h). */
#include "mm2_accept.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm2_connector.h"
#include "mm2_cstate.h"
#include "mm2_json.h"

static const struct {
    const char *name, *title;
} LINES[MM2_ACCEPT_LINES] = {
    {"imported", "every planned partition imported and read back: Connect holds the plan's M or "
                 "more"},
    {"started", "MM2 started at C: its first record on the target is the source record at C, or "
                "the first after it"},
    {"complete", "nothing missing after the boundary: the source's records from C up to its "
                 "watermark, all on the target, the last and a window compared one by one"},
    {"running", "the connector and its tasks RUNNING through the observation, offsets advancing, "
                "the lag not growing"},
    {"alone", "no MirrorCheckpointConnector or MirrorHeartbeatConnector, no offset-syncs topic "
              "written"},
    {"topics", "the target topics' partition counts and configs as they were at export"},
};

const char *mm2_accept_name(enum mm2_accept_no n)
{
    return n < MM2_ACCEPT_LINES ? LINES[n].name : "?";
}

const char *mm2_accept_title(enum mm2_accept_no n)
{
    return n < MM2_ACCEPT_LINES ? LINES[n].title : "?";
}

static void __attribute__((format(printf, 3, 4))) put(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    (void)vsnprintf(buf, len, fmt, ap);
    va_end(ap);
}

#define EVIDENCE(l, ...) put((l)->evidence, sizeof((l)->evidence), __VA_ARGS__)
#define FIX(l, ...) put((l)->fix, sizeof((l)->fix), __VA_ARGS__)

static void line_start(struct mm2_accept_line *l)
{
    memset(l, 0, sizeof(*l));
    l->holds = true;
}

/* ---- 1: imported --------------------------------------------------------------------------- */

void mm2_accept_imported(const struct mm2_plan *p, const struct mm2_source_offsets *offs,
                         struct mm2_accept_line *l)
{
    size_t at_m = 0, past = 0, nulls = 0, bad = 0;
    char first[256] = "";

    line_start(l);
    for (size_t i = 0; i < p->n; i++) {
        const struct mm2_pentry *e = &p->entries[i];
        const struct mm2_source_offset *o =
            mm2_source_offsets_find(offs, p->alias, e->topic, e->partition);
        if (e->action != MM2_ACT_OFFSET) {
            nulls++;
            continue;
        }
        if (o != NULL && o->offset >= e->m) {
            at_m += o->offset == e->m;
            past += o->offset > e->m;
            continue;
        }
        if (bad++ == 0 && o == NULL)
            put(first, sizeof(first), "%.120s-%d holds no offset (the plan's M is %lld)", e->topic,
                (int)e->partition, (long long)e->m);
        else if (bad == 1)
            put(first, sizeof(first), "%.120s-%d holds %lld, below the plan's M %lld", e->topic,
                (int)e->partition, (long long)o->offset, (long long)e->m);
    }
    if (bad == 0) {
        EVIDENCE(l,
                 "%zu planned partitions: %zu at the plan's M, %zu past it (MM2 has copied "
                 "since), %zu planned null (MM2 starts them at the log start); Connect lists %zu "
                 "offsets",
                 p->n, at_m, past, nulls, offs->n);
        return;
    }
    l->holds = false;
    EVIDENCE(l, "%zu of %zu planned offsets missing or below M: %s%s", bad, p->n - nulls, first,
             bad > 1 ? ", and others" : "");
    FIX(l, "MM2 did not start where the plan says: run mm2-offsets stop now, compare its report "
           "with the verify report, and follow the rollback in docs/RUNBOOK.md");
}

/* ---- 2 and 3: started, complete ------------------------------------------------------------ */

void mm2_accept_started(const struct mm2_plan *p, const struct mm2_accept_part *v,
                        struct mm2_accept_line *l)
{
    size_t equal = 0, pending = 0, bad = 0;
    char first[320] = "";

    line_start(l);
    for (size_t i = 0; i < p->n; i++) {
        const struct mm2_pentry *e = &p->entries[i];
        const struct mm2_accept_part *x = &v[i];
        if (x->first_source < 0) {
            pending++;
            continue;
        }
        if (x->first_target >= 0 && x->first_differs != NULL && x->first_differs[0] == '\0') {
            equal++;
            continue;
        }
        if (bad++ > 0)
            continue;
        if (x->first_target < 0)
            put(first, sizeof(first),
                "%.120s-%d: no record on the target at or after %lld, the source has one at %lld",
                e->target_topic, (int)e->partition, (long long)e->target_start,
                (long long)x->first_source);
        else
            put(first, sizeof(first),
                "%.120s-%d: MM2's first record (target offset %lld) differs from the source "
                "record at %lld in its %s",
                e->topic, (int)e->partition, (long long)x->first_target, (long long)x->first_source,
                x->first_differs != NULL ? x->first_differs : "?");
    }
    if (bad == 0) {
        EVIDENCE(l,
                 "%zu partitions: MM2's first record equals the source's at C (or the first "
                 "after it) on %zu; %zu had no source record after C before the watermark",
                 p->n, equal, pending);
        return;
    }
    l->holds = false;
    EVIDENCE(l, "%zu of %zu partitions: %s%s", bad, p->n, first, bad > 1 ? ", and others" : "");
    FIX(l, "MM2 did not start at C: run mm2-offsets stop, then mm2-offsets check --plan for the "
           "details, and follow the rollback in docs/RUNBOOK.md");
}

/* The first problem of partition i for line 3 into buf; false when it has none. */
static bool complete_problem(const struct mm2_pentry *e, const struct mm2_accept_part *x, char *buf,
                             size_t len)
{
    if (x->target_count < x->source_count) {
        put(buf, len,
            "%.120s-%d: the source holds %lld records in [%lld, %lld), the target %lld from "
            "%lld: %lld missing",
            e->topic, (int)e->partition, (long long)x->source_count,
            (long long)(e->action == MM2_ACT_OFFSET ? e->c : e->log_start), (long long)x->w,
            (long long)x->target_count, (long long)e->target_start,
            (long long)(x->source_count - x->target_count));
        return true;
    }
    if (x->bad_source >= 0) {
        put(buf, len,
            "%.120s-%d: the target record at %lld differs from the source record at %lld in its "
            "%s",
            e->topic, (int)e->partition, (long long)x->bad_target, (long long)x->bad_source,
            x->bad_field != NULL ? x->bad_field : "?");
        return true;
    }
    return false;
}

void mm2_accept_complete(const struct mm2_plan *p, const struct mm2_accept_part *v,
                         struct mm2_accept_line *l)
{
    int64_t records = 0;
    size_t compared = 0, bad = 0, cut = 0;
    char first[384] = "";

    line_start(l);
    for (size_t i = 0; i < p->n; i++) {
        char why[384];
        records += v[i].source_count;
        compared += v[i].compared;
        cut += v[i].cut;
        if (complete_problem(&p->entries[i], &v[i], why, sizeof(why)) && bad++ == 0)
            memcpy(first, why, sizeof(first));
    }
    if (bad == 0) {
        EVIDENCE(l,
                 "%zu partitions: %lld source records from C up to the watermark, each partition's "
                 "as many on the target from the boundary; %zu records compared one by one "
                 "(key, value, headers, timestamp), all equal%s",
                 p->n, (long long)records, compared,
                 cut > 0 ? " (the window cut on some partitions by --window-total)" : "");
        return;
    }
    l->holds = false;
    EVIDENCE(l, "%zu of %zu partitions: %s%s", bad, p->n, first, bad > 1 ? ", and others" : "");
    FIX(l, "records are missing or differ after the boundary: run mm2-offsets stop, keep the "
           "report, and do not accept the cutover; if MM2 was only slow, run accept again with "
           "a longer --observe");
}

/* ---- 4: running ---------------------------------------------------------------------------- */

static bool sample_running(const struct mm2_accept_sample *s)
{
    return s->exists && s->state == MM2_CSTATE_RUNNING && s->tasks > 0 &&
           s->tasks_running == s->tasks;
}

void mm2_accept_running(const struct mm2_accept_sample *s, size_t n, long observe_ms,
                        struct mm2_accept_line *l)
{
    const struct mm2_accept_sample *a = &s[0], *z = &s[n > 0 ? n - 1 : 0];
    size_t down = 0, first_down = 0;

    line_start(l);
    if (n == 0) {
        l->holds = false;
        EVIDENCE(l, "nothing observed");
        FIX(l, "run accept again with --observe SECONDS");
        return;
    }
    for (size_t i = n; i-- > 0;)
        if (!sample_running(&s[i])) {
            down++;
            first_down = i;
        }
    if (down > 0) {
        const struct mm2_accept_sample *b = &s[first_down];
        l->holds = false;
        EVIDENCE(l,
                 "%zu of %zu polls over %ld s not all RUNNING; first at %ld s: connector %s, "
                 "%zu/%zu tasks RUNNING%s%s",
                 down, n, observe_ms / 1000, b->at_ms / 1000,
                 b->exists ? mm2_cstate_name(b->state) : "absent", b->tasks_running, b->tasks,
                 b->first_bad_task[0] != '\0' ? ", " : "", b->first_bad_task);
        FIX(l, "see mm2-offsets status and the worker logs; once it runs again, run accept again");
        return;
    }
    if (z->log_end > a->log_end && z->position <= a->position) {
        l->holds = false;
        EVIDENCE(l, "the source grew by %lld records over %ld s but MM2's offsets stayed at %lld",
                 (long long)(z->log_end - a->log_end), (z->at_ms - a->at_ms) / 1000,
                 (long long)a->position);
        FIX(l, "MM2 copies nothing or does not commit its offsets: see mm2-offsets status and the "
               "worker logs (offset.flush.interval.ms above the observation: observe longer)");
        return;
    }
    if (z->lag > a->lag) {
        l->holds = false;
        EVIDENCE(l, "the lag grew from %lld to %lld records over %ld s", (long long)a->lag,
                 (long long)z->lag, (z->at_ms - a->at_ms) / 1000);
        FIX(l, "MM2 falls behind the source: add tasks (tasks.max) or workers, or observe longer "
               "if the source had a burst");
        return;
    }
    EVIDENCE(l,
             "%zu polls over %ld s, all RUNNING with %zu tasks; the source log end %lld -> %lld, "
             "MM2's position %lld -> %lld, lag %lld -> %lld",
             n, (z->at_ms - a->at_ms) / 1000, z->tasks, (long long)a->log_end,
             (long long)z->log_end, (long long)a->position, (long long)z->position,
             (long long)a->lag, (long long)z->lag);
}

/* ---- 5: alone: the connectors ------------------------------------------------------------- */

void mm2_accept_classes_free(struct mm2_accept_classes *c)
{
    if (c == NULL)
        return;
    for (size_t i = 0; i < c->n; i++) {
        free(c->v[i].name);
        free(c->v[i].cls);
    }
    free(c->v);
    c->v = NULL;
    c->n = 0;
}

enum mm2_status mm2_accept_classes_parse(const char *body, size_t len,
                                         struct mm2_accept_classes *out, struct mm2_error *err)
{
    cJSON *root = mm2_json_parse_strict(body, len);
    const cJSON *c;
    size_t n;

    memset(out, 0, sizeof(*out));
    if (!cJSON_IsObject(root)) {
        cJSON_Delete(root);
        return mm2_error_set(err, MM2_UNEXPECTED, "the answer is not a JSON object");
    }
    n = (size_t)cJSON_GetArraySize(root);
    out->v = calloc(n + 1, sizeof(*out->v));
    if (out->v == NULL) {
        cJSON_Delete(root);
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    }
    cJSON_ArrayForEach(c, root)
    {
        const cJSON *info = cJSON_GetObjectItemCaseSensitive(c, "info");
        const cJSON *cfg = cJSON_GetObjectItemCaseSensitive(info, "config");
        const cJSON *cls = cJSON_GetObjectItemCaseSensitive(cfg, "connector.class");
        struct mm2_accept_class *x = &out->v[out->n];
        if (!cJSON_IsString(cls)) {
            mm2_error_set(err, MM2_UNEXPECTED,
                          "connector \"%.100s\" has no info.config[\"connector.class\"] string",
                          c->string);
            cJSON_Delete(root);
            mm2_accept_classes_free(out);
            return MM2_UNEXPECTED;
        }
        x->name = strdup(c->string);
        x->cls = strdup(cls->valuestring);
        out->n++;
        if (x->name == NULL || x->cls == NULL) {
            cJSON_Delete(root);
            mm2_accept_classes_free(out);
            return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
        }
    }
    cJSON_Delete(root);
    return MM2_OK;
}

/* ---- 5: alone ------------------------------------------------------------------------------ */

/* Whether cls names one of the two connectors that must not run (any package). */
static const char *forbidden(const char *cls)
{
    static const char *const names[] = {"MirrorCheckpointConnector", "MirrorHeartbeatConnector"};

    for (size_t i = 0; i < 2; i++) {
        size_t n = strlen(names[i]), c = strlen(cls);
        if (c >= n && strcmp(cls + c - n, names[i]) == 0 && (c == n || cls[c - n - 1] == '.'))
            return names[i];
    }
    return NULL;
}

static const char *const CLUSTER[2] = {"source", "target"};

/* The offset-syncs part of line 5; false when it fails it. */
static bool alone_syncs(const struct mm2_accept_alone_in *in, struct mm2_accept_line *l, char *say,
                        size_t len)
{
    bool old = !mm2_connector_version_below(in->connect_version, 3, 6) &&
               mm2_connector_version_below(in->connect_version, 3, 9);
    size_t at = 0;

    for (int c = 0; c < 2; c++) {
        static const char *const state[] = {"absent", "empty", "written", "not visible"};
        int w = snprintf(say + at, len - at, "%s%s on the %s: %s", c > 0 ? "; " : "", in->topic,
                         CLUSTER[c], state[in->syncs[c]]);
        if (in->syncs[c] == MM2_ACCEPT_SYNCS_WRITTEN && w > 0 && (size_t)w < len - at)
            w += snprintf(say + at + (size_t)w, len - at - (size_t)w, " (%lld records)",
                          (long long)in->syncs_end[c]);
        if (w > 0 && (size_t)w < len - at)
            at += (size_t)w;
    }
    for (int c = 0; c < 2; c++) {
        if (in->syncs[c] == MM2_ACCEPT_SYNCS_DENIED) {
            FIX(l,
                "the [%s] login may not Describe %s: grant the accept row of docs/acls.md, "
                "then run accept again",
                CLUSTER[c], in->topic);
            return false;
        }
        if (in->syncs[c] == MM2_ACCEPT_SYNCS_WRITTEN && !old) {
            FIX(l,
                "Connect %s writes offset syncs although emit.offset-syncs.enabled=false is "
                "required: check the connector config (mm2-offsets preflight)",
                in->connect_version);
            return false;
        }
    }
    return true;
}

void mm2_accept_alone(const struct mm2_accept_alone_in *in, struct mm2_accept_line *l)
{
    bool old = !mm2_connector_version_below(in->connect_version, 3, 6) &&
               mm2_connector_version_below(in->connect_version, 3, 9);
    char syncs[400];
    const char *bad_name = NULL, *bad_cls = NULL;
    size_t bad = 0;

    line_start(l);
    for (size_t i = 0; i < in->classes->n; i++) {
        const char *f = forbidden(in->classes->v[i].cls);
        if (f != NULL && bad++ == 0) {
            bad_name = in->classes->v[i].name;
            bad_cls = f;
        }
    }
    l->holds = alone_syncs(in, l, syncs, sizeof(syncs));
    if (bad > 0) {
        l->holds = false;
        EVIDENCE(l, "connector %.100s is a %s%s on the Connect cluster (Kafka %s); %s", bad_name,
                 bad_cls, bad > 1 ? ", and others" : "", in->connect_version, syncs);
        FIX(l,
            "delete it (DELETE /connectors/%.100s): the cutover runs MirrorSourceConnector "
            "alone (docs/ARCHITECTURE.md)",
            bad_name);
        return;
    }
    if (!l->holds) {
        EVIDENCE(l,
                 "%zu connectors on the Connect cluster (Kafka %s), none a Checkpoint or "
                 "Heartbeat connector; %s",
                 in->classes->n, in->connect_version, syncs);
        return;
    }
    EVIDENCE(l,
             "%zu connectors on the Connect cluster (Kafka %s), none a Checkpoint or Heartbeat "
             "connector; %s%s",
             in->classes->n, in->connect_version, syncs,
             old ? " (Connect 3.6 to 3.8 write offset syncs whatever emit.offset-syncs.enabled "
                   "says: docs/kafka-versions.md; named, not failed)"
                 : "");
}

/* ---- 6: topics ----------------------------------------------------------------------------- */

/* The first key whose value differs between a (at export) and b (now) into buf; false if none.
 * A key of a that b lacks differs (it could not be read now); one only b holds is not compared
 * (the export could not read it). */
static bool config_differs(const cJSON *a, const cJSON *b, char *buf, size_t len)
{
    const cJSON *x;

    cJSON_ArrayForEach(x, a)
    {
        const cJSON *y = cJSON_GetObjectItemCaseSensitive(b, x->string);
        const char *now = cJSON_IsString(y) ? y->valuestring : "(not readable)";
        if (cJSON_IsString(x) && strcmp(x->valuestring, now) != 0) {
            put(buf, len, "%.60s was %.60s at export, is %.60s now", x->string, x->valuestring,
                now);
            return true;
        }
    }
    return false;
}

void mm2_accept_topics(const struct mm2_plan *p, const int32_t *partitions,
                       const cJSON *const *configs, struct mm2_accept_line *l)
{
    size_t bad = 0, unrecorded = 0, keys = 0;
    char first[400] = "";

    line_start(l);
    for (size_t i = 0; i < p->ntopics; i++) {
        const struct mm2_xtopic *t = &p->topics[i];
        char why[200];
        bool b = false;
        if (partitions[i] != t->target_partitions) {
            b = true;
            if (partitions[i] < 0)
                put(why, sizeof(why), "no longer exists");
            else
                put(why, sizeof(why), "has %d partitions, %d at export", (int)partitions[i],
                    (int)t->target_partitions);
        } else if (t->target_configs == NULL) {
            unrecorded++;
            continue;
        } else if (configs[i] == NULL) {
            b = true;
            put(why, sizeof(why), "its configs are not readable now (DescribeConfigs)");
        } else {
            keys += (size_t)cJSON_GetArraySize(t->target_configs);
            b = config_differs(t->target_configs, configs[i], why, sizeof(why));
        }
        if (b && bad++ == 0)
            put(first, sizeof(first), "target topic %.120s %s", t->target, why);
    }
    if (bad > 0) {
        l->holds = false;
        EVIDENCE(l, "%zu of %zu target topics changed since export: %s%s", bad, p->ntopics, first,
                 bad > 1 ? ", and others" : "");
        FIX(l, "find who changed it (kafka-configs.sh --describe, the cluster's audit log) and "
               "set it back, or record why the change is right; then run accept again");
        return;
    }
    if (unrecorded > 0) {
        l->holds = false;
        EVIDENCE(l,
                 "%zu target topics keep their partition counts; the export recorded no "
                 "configs for %zu of them (an export from before they were recorded, or no "
                 "DescribeConfigs then): nothing to compare with",
                 p->ntopics, unrecorded);
        FIX(l, "compare the target topics' configs by hand (kafka-configs.sh --describe "
               "--entity-type topics) with what they were before the cutover; export with this "
               "version (and the accept row of docs/acls.md) on the next migration");
        return;
    }
    EVIDENCE(l,
             "%zu target topics with the partition counts and the %zu config values of "
             "export",
             p->ntopics, keys);
}

/* ---- the report ---------------------------------------------------------------------------- */

bool mm2_accept_ok(const struct mm2_accept *a)
{
    for (int i = 0; i < MM2_ACCEPT_LINES; i++)
        if (!a->line[i].holds)
            return false;
    return true;
}

cJSON *mm2_accept_lines_json(const struct mm2_accept *a)
{
    cJSON *arr = cJSON_CreateArray();

    for (int i = 0; arr != NULL && i < MM2_ACCEPT_LINES; i++) {
        const struct mm2_accept_line *l = &a->line[i];
        cJSON *o = cJSON_CreateObject();
        if (o == NULL || !cJSON_AddItemToArray(arr, o) ||
            cJSON_AddItemToObject(o, "line", mm2_json_int(i + 1)) == false ||
            cJSON_AddStringToObject(o, "name", LINES[i].name) == NULL ||
            cJSON_AddStringToObject(o, "check", LINES[i].title) == NULL ||
            cJSON_AddBoolToObject(o, "holds", l->holds) == NULL ||
            cJSON_AddStringToObject(o, "evidence", l->evidence) == NULL ||
            (!l->holds && cJSON_AddStringToObject(o, "fix", l->fix) == NULL)) {
            cJSON_Delete(arr);
            return NULL;
        }
    }
    return arr;
}

/* Appends to a growing string; false when out of memory. */
struct md {
    char *s;
    size_t n, cap;
    bool oom;
};

static void __attribute__((format(printf, 2, 3))) md_add(struct md *m, const char *fmt, ...)
{
    va_list ap;

    if (m->oom)
        return;
    for (;;) {
        va_start(ap, fmt);
        int w =
            vsnprintf(m->s != NULL ? m->s + m->n : NULL, m->s != NULL ? m->cap - m->n : 0, fmt, ap);
        va_end(ap);
        if (w < 0) {
            m->oom = true;
            return;
        }
        if (m->s != NULL && (size_t)w < m->cap - m->n) {
            m->n += (size_t)w;
            return;
        }
        size_t cap = (m->cap + (size_t)w + 1) * 2;
        char *s = realloc(m->s, cap);
        if (s == NULL) {
            m->oom = true;
            return;
        }
        m->s = s;
        m->cap = cap;
    }
}

/* A table cell: '|' and newlines would break the row. */
static void md_cell(struct md *m, const char *text)
{
    for (const char *c = text; *c != '\0' && !m->oom; c++)
        md_add(m, "%s", *c == '|' ? "\\|" : *c == '\n' ? " " : (char[]){*c, '\0'});
}

char *mm2_accept_markdown(const struct mm2_accept *a, const char *connector,
                          const char *plan_digest, const char *created, long observe_ms)
{
    struct md m = {0};
    bool ok = mm2_accept_ok(a);

    md_add(&m, "# Acceptance of the cutover to MirrorMaker 2: connector %s\n\n", connector);
    md_add(&m,
           "- plan: `%s`\n- made: %s by mm2-offsets accept, observing %ld s\n- verdict: **%s**\n\n",
           plan_digest, created, observe_ms / 1000,
           ok ? "accepted: every line holds" : "NOT accepted");
    md_add(&m, "| # | check | holds | evidence |\n| --- | --- | --- | --- |\n");
    for (int i = 0; i < MM2_ACCEPT_LINES; i++) {
        md_add(&m, "| %d | ", i + 1);
        md_cell(&m, LINES[i].title);
        md_add(&m, " | %s | ", a->line[i].holds ? "yes" : "**no**");
        md_cell(&m, a->line[i].evidence);
        md_add(&m, " |\n");
    }
    if (!ok) {
        md_add(&m, "\n## What to do\n\n");
        for (int i = 0; i < MM2_ACCEPT_LINES; i++)
            if (!a->line[i].holds)
                md_add(&m, "- line %d (%s): %s\n", i + 1, LINES[i].name, a->line[i].fix);
    }
    if (m.oom) {
        free(m.s);
        return NULL;
    }
    return m.s;
}
