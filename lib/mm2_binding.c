/* mm2_binding: an artifact's migration against the INI's (see mm2_binding.h). */
#include "mm2_binding.h"

#include <stdio.h>
#include <string.h>

#include "mm2_cfgview.h"

void mm2_binding_of_export(const struct mm2_export *ex, struct mm2_binding *out)
{
    *out = (struct mm2_binding){ex->group,       ex->source_cluster, ex->target_cluster,
                                ex->connector,   ex->alias,          ex->config_digest,
                                ex->config_view, ex->topics,         ex->ntopics};
}

void mm2_binding_of_plan(const struct mm2_plan *p, struct mm2_binding *out)
{
    *out = (struct mm2_binding){p->group,       p->source_cluster, p->target_cluster,
                                p->connector,   p->alias,          p->config_digest,
                                p->config_view, p->topics,         p->ntopics};
}

/* One refusal: "the WHAT belongs to another migration: <detail>; <fix> [rule binding]". */
static void mismatch(struct mm2_refusals *r, const char *what, const char *detail)
{
    mm2_refuse(r,
               "the %s belongs to another migration: %s; use the %s made with this INI, or %s "
               "[rule binding]",
               what, detail, what,
               strcmp(what, "export") == 0 ? "export again" : "export and plan again");
}

static void cluster(struct mm2_refusals *r, const char *what, const char *side, const char *had,
                    const char *have, bool pinned, const char *ini)
{
    char d[MM2_REFUSAL_LEN];

    if (strcmp(had, have) == 0)
        return;
    if (pinned)
        (void)snprintf(d, sizeof(d),
                       "its %s cluster id is \"%.64s\", but %.200s pins [%s] "
                       "cluster.id \"%.64s\"",
                       side, had, ini, side, have);
    else
        (void)snprintf(d, sizeof(d),
                       "its %s cluster id is \"%.64s\", but the [%s] cluster of %.200s has id "
                       "\"%.64s\"",
                       side, had, side, ini, have);
    mismatch(r, what, d);
}

/* "its topic set (N topics) holds "x" and others, which the connector in FILE does not
 * replicate" */
static void topic_line(struct mm2_refusals *r, const char *what, size_t in, const char *verb,
                       const char *first, size_t count, const char *file, const char *does)
{
    char d[MM2_REFUSAL_LEN];

    (void)snprintf(d, sizeof(d),
                   "its topic set (%zu topic%s) %s \"%.200s\"%s, which the connector in %.200s %s",
                   in, in == 1 ? "" : "s", verb, first, count > 1 ? " and others" : "", file, does);
    mismatch(r, what, d);
}

/* The topic set, both ways: a topic of the set m's connector does not replicate, and a topic a
 * saw outside its set that m's connector replicates. */
static void topic_set(struct mm2_refusals *r, const char *what, const struct mm2_binding *a,
                      const struct mm2_migration *m)
{
    size_t in = 0, extra = 0, missing = 0;
    const char *first_extra = NULL, *first_missing = NULL;

    if (!mm2_mirror_enabled(m->mirror))
        return;
    for (size_t i = 0; i < a->ntopics; i++) {
        const struct mm2_xtopic *t = &a->topics[i];
        bool rep = mm2_mirror_replicates(m->mirror, t->name);
        in += t->replicated;
        if (t->replicated && !rep && extra++ == 0)
            first_extra = t->name;
        if (!t->replicated && rep && missing++ == 0)
            first_missing = t->name;
    }
    if (extra > 0)
        topic_line(r, what, in, "holds", first_extra, extra, m->connector_file,
                   "does not replicate");
    if (missing > 0)
        topic_line(r, what, in, "leaves out", first_missing, missing, m->connector_file,
                   "replicates");
}

size_t mm2_binding_check(const char *what, const struct mm2_binding *a,
                         const struct mm2_migration *m, struct mm2_refusals *r)
{
    size_t before = r->n;
    char d[MM2_REFUSAL_LEN];

    if (strcmp(a->group, m->group) != 0) {
        (void)snprintf(d, sizeof(d),
                       "its [flink] group.id is \"%.100s\", but %.200s's is \"%.100s\"", a->group,
                       m->ini, m->group);
        mismatch(r, what, d);
    }
    cluster(r, what, "source", a->source_cluster, m->source_cluster, m->source_pinned, m->ini);
    cluster(r, what, "target", a->target_cluster, m->target_cluster, m->target_pinned, m->ini);
    if (strcmp(a->connector, m->conn->name) != 0) {
        (void)snprintf(d, sizeof(d), "its connector is \"%.100s\", but %.200s names \"%.100s\"",
                       a->connector, m->connector_file, m->conn->name);
        mismatch(r, what, d);
    }
    if (strcmp(a->alias, m->conn->alias) != 0) {
        (void)snprintf(d, sizeof(d),
                       "its offsets are keyed by source.cluster.alias \"%.60s\", but %.200s sets "
                       "\"%.60s\" (MM2 ignores offsets under another alias)",
                       a->alias, m->connector_file, m->conn->alias);
        mismatch(r, what, d);
    } else if (strcmp(a->config_digest, m->conn->digest) != 0) {
        /* The file's own name in the key list: its path is said once, before it. */
        const char *base = strrchr(m->connector_file, '/');
        char how[400], in[32];
        (void)snprintf(in, sizeof(in), "the %s", what);
        mm2_cfgview_explain(a->config_view, a->config_digest, in, m->conn->view, m->conn->digest,
                            base != NULL ? base + 1 : m->connector_file, how, sizeof(how));
        (void)snprintf(d, sizeof(d), "its connector config differs from the one in %.80s (%.360s)",
                       m->connector_file, how);
        mismatch(r, what, d);
    }
    topic_set(r, what, a, m);
    return r->n - before;
}

enum mm2_status mm2_binding_add_json(cJSON *parent, const struct mm2_binding *b,
                                     struct mm2_error *err)
{
    cJSON *o = cJSON_AddObjectToObject(parent, "migration");
    cJSON *topics = o != NULL ? cJSON_CreateArray() : NULL;
    bool ok = topics != NULL && cJSON_AddStringToObject(o, "flink_group_id", b->group) != NULL &&
              cJSON_AddStringToObject(o, "source_cluster_id", b->source_cluster) != NULL &&
              cJSON_AddStringToObject(o, "target_cluster_id", b->target_cluster) != NULL &&
              cJSON_AddStringToObject(o, "connector", b->connector) != NULL &&
              cJSON_AddStringToObject(o, "source_alias", b->alias) != NULL &&
              cJSON_AddStringToObject(o, "config_digest", b->config_digest) != NULL;

    if (ok && !cJSON_AddItemToObject(o, "topics", topics)) {
        ok = false;
    } else if (ok) {
        for (size_t i = 0; ok && i < b->ntopics; i++) {
            cJSON *s;
            if (!b->topics[i].replicated)
                continue;
            s = cJSON_CreateString(b->topics[i].name);
            ok = s != NULL && cJSON_AddItemToArray(topics, s);
            if (!ok)
                cJSON_Delete(s);
        }
        topics = NULL; /* owned by o now */
    }
    cJSON_Delete(topics);
    return ok ? MM2_OK : mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
}
