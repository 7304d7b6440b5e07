/* mm2_verify: the plan's connector as Connect holds it, judged against the plan (see
 * mm2_verify.h). */
#include "mm2_verify.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "mm2_cfgview.h"

enum mm2_verify_say mm2_verify_stopped(const char *name, const struct mm2_connlive *v,
                                       const char *why, const char *then, char *buf, size_t len)
{
    char what[256];

    if (len > 0)
        buf[0] = '\0';
    mm2_connlive_describe(v, what, sizeof(what));
    switch (v->stop) {
    case MM2_CONNLIVE_ABSENT:
        return MM2_VERIFY_NONE; /* the caller knows what an absent connector means */
    case MM2_CONNLIVE_DONE:
        if (v->s.stale == 0)
            return MM2_VERIFY_NONE;
        (void)snprintf(buf, len,
                       "connector %s is %s: stale, Connect keeps no task config behind them", name,
                       what);
        return MM2_VERIFY_INFO;
    case MM2_CONNLIVE_UNASSIGNED:
        (void)snprintf(buf, len,
                       "connector %s is %s, not STOPPED: " MM2_VERIFY_STALE_STATUS
                       ", %s [rule connector-state]",
                       name, what, name, then);
        return MM2_VERIFY_PROBLEM;
    case MM2_CONNLIVE_TASKS:
        (void)snprintf(buf, len,
                       "connector %s is %s: Connect counts a connector as stopped only once it "
                       "has none; wait for the stop's rebalance to end (PUT /connectors/%s/stop "
                       "if it was not stopped), %s [rule connector-state]",
                       name, what, name, then);
        return MM2_VERIFY_PROBLEM;
    case MM2_CONNLIVE_OTHER:
        (void)snprintf(buf, len,
                       "connector %s is %s, not STOPPED%s; %s: PUT /connectors/%s/stop, %s "
                       "[rule connector-state]",
                       name, what,
                       v->s.state == MM2_CSTATE_PAUSED ? " (PAUSED is not STOPPED: its tasks "
                                                         "still exist)"
                                                       : "",
                       why, name, then);
        return MM2_VERIFY_PROBLEM;
    }
    return MM2_VERIFY_NONE;
}

void mm2_verify_config_differs(const struct mm2_plan *plan, const cJSON *live,
                               const char *live_digest, char *buf, size_t len)
{
    cJSON *view = NULL;
    struct mm2_error err = {0};

    if (mm2_cfgview_make(live, plan->connector, &view, &err) != MM2_OK)
        view = NULL; /* out of memory: the digests alone */
    mm2_cfgview_explain(plan->config_view, plan->config_digest, "the plan", view, live_digest,
                        "Connect", buf, len);
    cJSON_Delete(view);
}

size_t mm2_verify_connector_config(const struct mm2_plan *plan, const cJSON *live,
                                   const char *live_digest, struct mm2_refusals *r)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(live, "source.cluster.alias");
    size_t n = r->n;
    char how[320];

    if (strcmp(live_digest, plan->config_digest) == 0)
        return 0;
    /* MirrorSourceTask reads the offsets keyed by its own alias: the plan's would be ignored. */
    if (!cJSON_IsString(a) || strcmp(a->valuestring, plan->alias) != 0) {
        mm2_refuse(r,
                   "connector %s exists with source.cluster.alias \"%.100s\", but the plan's "
                   "offsets are keyed by \"%.100s\"; MM2 would ignore them [rule alias]",
                   plan->connector, cJSON_IsString(a) ? a->valuestring : "(unset)", plan->alias);
        return r->n - n;
    }
    mm2_verify_config_differs(plan, live, live_digest, how, sizeof(how));
    mm2_refuse(r,
               "connector %s exists with another config than the plan's (%s); delete it or apply "
               "the JSON the plan was made with [rule connector-config]",
               plan->connector, how);
    return r->n - n;
}

bool mm2_verify_offsets_equal(const struct mm2_source_offsets *a,
                              const struct mm2_source_offsets *b)
{
    if (a->n != b->n)
        return false;
    for (size_t i = 0; i < a->n; i++)
        if (a->v[i].partition != b->v[i].partition || a->v[i].offset != b->v[i].offset ||
            strcmp(a->v[i].topic, b->v[i].topic) != 0 ||
            strcmp(a->v[i].cluster, b->v[i].cluster) != 0)
            return false;
    return true;
}

bool mm2_verify_offsets_are_plan(const struct mm2_plan *plan, const struct mm2_source_offsets *o)
{
    size_t want = 0;

    for (size_t i = 0; i < plan->n; i++) {
        const struct mm2_pentry *e = &plan->entries[i];
        const struct mm2_source_offset *f =
            mm2_source_offsets_find(o, plan->alias, e->topic, e->partition);

        if (e->action == MM2_ACT_OFFSET ? f == NULL || f->offset != e->m : f != NULL)
            return false;
        want += e->action == MM2_ACT_OFFSET;
    }
    return o->n == want; /* the plan's partitions are distinct: nothing else is listed */
}

/* A comparison under way: where its lines go, and how many mismatches it has said. */
struct said {
    mm2_verify_say_fn say;
    void *ctx;
    size_t mismatches;
};

static void say(struct said *s, enum mm2_verify_say what, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Formats one line (a mismatch cut as the report keeps it, a note whole) and hands it on. */
static void say(struct said *s, enum mm2_verify_say what, const char *fmt, ...)
{
    char line[MM2_VERIFY_NOTE_LEN];
    va_list ap;

    va_start(ap, fmt);
    if (vsnprintf(line, what == MM2_VERIFY_PROBLEM ? MM2_REFUSAL_LEN : sizeof(line), fmt, ap) < 0)
        line[0] = '\0';
    va_end(ap);
    s->mismatches += what == MM2_VERIFY_PROBLEM;
    s->say(s->ctx, what, line);
}

/* The connector itself: it exists, is stopped, and holds the plan's config. */
static void compare_connector(const struct mm2_plan *plan, const struct mm2_verify_live *l,
                              struct said *s)
{
    char line[MM2_VERIFY_NOTE_LEN];
    enum mm2_verify_say stop;

    if (!l->v->s.exists) {
        say(s, MM2_VERIFY_PROBLEM, "connector %s does not exist; run apply", plan->connector);
        return;
    }
    stop = mm2_verify_stopped(plan->connector, l->v, MM2_VERIFY_WHY_HOLD, "then verify again", line,
                              sizeof(line));
    if (stop != MM2_VERIFY_NONE)
        say(s, stop, "%s", line);
    if (strcmp(l->digest, plan->config_digest) != 0) {
        char how[320];
        mm2_verify_config_differs(plan, l->config, l->digest, how, sizeof(how));
        say(s, MM2_VERIFY_PROBLEM, "connector %s's config is not the plan's (%s)", plan->connector,
            how);
    }
}

/* Every planned partition against the offset Connect lists for it. */
static void compare_planned(const struct mm2_plan *plan, const struct mm2_verify_live *l,
                            struct said *s)
{
    for (size_t i = 0; i < plan->n; i++) {
        const struct mm2_pentry *e = &plan->entries[i];
        const struct mm2_source_offset *o =
            mm2_source_offsets_find(l->offs, plan->alias, e->topic, e->partition);
        if (e->action == MM2_ACT_OFFSET && o == NULL)
            say(s, MM2_VERIFY_PROBLEM, "%s-%d: expected offset %lld, found none", e->topic,
                (int)e->partition, (long long)e->m);
        else if (e->action == MM2_ACT_OFFSET && o->offset != e->m)
            say(s, MM2_VERIFY_PROBLEM, "%s-%d: expected offset %lld, found %lld", e->topic,
                (int)e->partition, (long long)e->m, (long long)o->offset);
        else if (e->action != MM2_ACT_OFFSET && o != NULL)
            say(s, MM2_VERIFY_PROBLEM,
                "%s-%d: expected no offset (null: start at earliest), found %lld", e->topic,
                (int)e->partition, (long long)o->offset);
    }
}

/* Offsets under the plan's topics that the plan does not have: "extra" under its alias, a
 * warning under another (MirrorSourceTask reads only its own alias's). */
static void compare_extra(const struct mm2_plan *plan, const struct mm2_verify_live *l,
                          struct said *s)
{
    for (size_t i = 0; i < l->offs->n; i++) {
        const struct mm2_source_offset *o = &l->offs->v[i];
        bool planned_topic = mm2_export_topic(plan->topics, plan->ntopics, o->topic) != NULL;
        if (strcmp(o->cluster, plan->alias) == 0 && planned_topic &&
            mm2_plan_find(plan, o->topic, o->partition) == NULL)
            say(s, MM2_VERIFY_PROBLEM, "%s-%d: an offset %lld that the plan does not have",
                o->topic, (int)o->partition, (long long)o->offset);
        else if (strcmp(o->cluster, plan->alias) != 0 && planned_topic)
            say(s, MM2_VERIFY_WARN,
                "%s-%d has an offset under cluster alias \"%.60s\", not \"%.60s\"; MM2 "
                "ignores it",
                o->topic, (int)o->partition, o->cluster, plan->alias);
    }
}

void mm2_verify_compare(const struct mm2_plan *plan, const struct mm2_verify_live *l,
                        mm2_verify_say_fn say_fn, void *ctx, struct mm2_verify_counts *c)
{
    struct said s = {say_fn, ctx, 0};

    memset(c, 0, sizeof(*c));
    compare_connector(plan, l, &s);
    if (l->v->s.exists) {
        size_t before = s.mismatches;
        compare_planned(plan, l, &s);
        c->checked = plan->n;
        c->partition_mismatches = s.mismatches - before;
    }
    compare_extra(plan, l, &s);
    c->mismatches = s.mismatches;
}
