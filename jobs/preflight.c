/* preflight: what must hold before the cutover, read with the INI's own credentials and judged
 * by lib/mm2_preflight; each finding on stderr with its fix, and the sealed report (see
 * preflight.h). Read-only: only describe and list requests are sent, and GET /. */
#include "preflight.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bind.h"
#include "clients.h"
#include "load.h"
#include "mm2_artifact.h"
#include "mm2_cli.h"
#include "mm2_export.h"
#include "mm2_preflight.h"
#include "options.h"
#include "mm2_parse.h"
#include "pfread.h"
#include "pfretention.h"
#include "pfversions.h"
#include "pfworkers.h"

/* --rate-wait's default: long enough for a producer's rate to show, short beside the
 * cutover. */
#define DEFAULT_RATE_WAIT_MS 10000L

/* The codes it exits with (docs/ARCHITECTURE.md §5), as --help states them. */
static const struct mm2_exit_note exit_notes[] = {
    {MM2_OK, "nothing refused; warnings may remain"},
    {MM2_CHECK_FAILED, "a finding refuses the cutover"},
    {MM2_USAGE, NULL},
    {MM2_CONFIG, "the INI file, the connector JSON or the workers' environment"},
    {MM2_UNREACHABLE, "Kafka or Connect, or timed out"},
    {MM2_UNEXPECTED, "Kafka or Connect"},
};

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: " PROG " preflight --config FILE [--report FILE] [--rate-wait SECONDS]\n"
            "       " PROG " preflight --workers [--replication-factor N]\n"
            "                   [--min-insync-replicas N] [--timeout SECONDS] [--report FILE]\n"
            "Checks, before Flink is stopped and again just before export, what the cutover\n"
            "needs, each with the INI's own credentials: the permissions Kafka says each\n"
            "principal has (KIP-430) on the topics, the Flink group and the cluster;\n"
            "Connect's internal topics; how long each partition's C stays in the source's\n"
            "log, against [flink] retention.margin.seconds; the connector against the Flink\n"
            "job (isolation level, topics an explicit list, refresh.topics.enabled, the\n"
            "offset-syncs topic of Connect 3.6 to 3.8). Each finding is pass, warn or\n"
            "refuse, with the command that fixes it (kafka-acls.sh, kafka-configs.sh); what\n"
            "cannot be asked is \"not checked\", never a pass. Changes nothing anywhere.\n"
            "Prints the findings on stderr and the report (JSON) on stdout.\n"
            "A topic's retention.bytes is judged by an estimate (a partition's size cannot\n"
            "be asked): the records read at C, and the log ends read twice --rate-wait apart.\n"
            "With --workers, in a worker pod (the workers' own credentials, never the\n"
            "offset Job's): from CONNECT_BOOTSTRAP_SERVERS, CONNECT_GROUP_ID, the three\n"
            "CONNECT_*_STORAGE_TOPIC and CONNECT_SASL_JAAS_CONFIG (PLAIN), the workers'\n"
            "principal on its group and the internal topics (Describe, Read, Write), and\n"
            "those topics' settings.\n"
            "\n"
            "Options:\n"
            "  -c, --config FILE             the migration INI file\n"
            "  -r, --report FILE             also write the report there\n"
            "  -W, --rate-wait SECONDS       between the two reads of the log ends that give\n"
            "                                retention.bytes' produce rate (%ld)\n"
            "  -w, --workers                 the workers' principal, from their environment\n"
            "  -R, --replication-factor N    --workers: the internal topics' least (3)\n"
            "  -I, --min-insync-replicas N   --workers: their least min.insync.replicas (2)\n"
            "  -t, --timeout SECONDS         --workers: each Kafka request's deadline (100)\n",
            DEFAULT_RATE_WAIT_MS / 1000);
    job_usage_end(out, 32, exit_notes, sizeof(exit_notes) / sizeof(exit_notes[0]));
}

/* What one run read, and what it found. */
struct pf {
    struct job *j;
    struct mm2_pf_findings f;
    struct mm2_connect_info info;
    char source_id[MM2_KAFKA_CLUSTER_ID_MAX], target_id[MM2_KAFKA_CLUSTER_ID_MAX];
    /* The topics the connector replicates, sorted by name: the explicit list's names (seen on
     * the source or not) and any other source topic its filter takes; partitions -1 when the
     * listing did not show it. */
    struct mm2_xtopic *topics;
    size_t ntopics, cap;
    /* [source] may read the group's offsets and every topic's records and configs (no refusal,
     * nothing not checked): the retention headroom can be read. */
    bool readable;
    /* --rate-wait: how far apart the two reads of the log ends are that give the produce rate
     * the retention.bytes estimate needs (taken only when a topic has retention.bytes). */
    long rate_wait_ms;
};

static void pf_free(struct pf *x)
{
    for (size_t i = 0; i < x->ntopics; i++) {
        free(x->topics[i].name);
        free(x->topics[i].target);
    }
    free(x->topics);
    mm2_pf_free(&x->f);
}

/* Adds the replicated source topic name (partitions: -1 when not listed), once. */
static enum mm2_status add_topic(struct pf *x, const char *name, int32_t partitions,
                                 struct mm2_error *err)
{
    char target[256];
    struct mm2_xtopic *t;

    for (size_t i = 0; i < x->ntopics; i++)
        if (strcmp(x->topics[i].name, name) == 0) {
            if (partitions >= 0)
                x->topics[i].partitions = partitions;
            return MM2_OK;
        }
    if (mm2_mirror_target_topic(x->j->mirror, name, target, sizeof(target)) != 0)
        return mm2_error_set(err, MM2_CONFIG, "topic %.200s: the target topic name is too long",
                             name);
    if (x->ntopics == x->cap) {
        size_t cap = x->cap == 0 ? 16 : 2 * x->cap;
        struct mm2_xtopic *v = realloc(x->topics, cap * sizeof(*v));
        if (v == NULL)
            return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
        x->topics = v;
        x->cap = cap;
    }
    t = &x->topics[x->ntopics];
    *t = (struct mm2_xtopic){.name = strdup(name),
                             .partitions = partitions,
                             .replicated = true,
                             .target = strdup(target),
                             .target_partitions = -1};
    x->ntopics++;
    if (t->name == NULL || t->target == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    return MM2_OK;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const struct mm2_xtopic *)a)->name, ((const struct mm2_xtopic *)b)->name);
}

/* The replicated set: the connector's explicit names, and whatever else of the source's
 * listing its filter takes (a '.' in a name is a regex's any-character: "orders.v1" also takes
 * "orders_v1"). A listed name the filter leaves out (topics.exclude, an internal name) is a
 * warning: the connector will not copy it. */
static enum mm2_status topic_set(struct pf *x, struct mm2_error *err)
{
    struct job *j = x->j;
    struct mm2_topic_list src = {0}, tgt = {0};
    struct mm2_error nerr = {0};
    struct mm2_deadline dl;
    char **names = NULL;
    size_t n = 0;
    enum mm2_status st;

    job_kafka_deadline(j, &dl);
    st = mm2_kafka_topics(j->source, &dl, &src, err);
    if (st == MM2_OK) {
        job_kafka_deadline(j, &dl);
        st = mm2_kafka_topics(j->target, &dl, &tgt, err);
    }
    if (st == MM2_OK && mm2_pf_topic_names(j->conn.config, &names, &n, &nerr) == MM2_UNEXPECTED)
        st = mm2_error_set(err, MM2_UNEXPECTED, "%s", nerr.msg);
    for (size_t i = 0; st == MM2_OK && i < n; i++) {
        const struct mm2_topic_meta *m = mm2_topics_find(&src, names[i]);
        if (!mm2_mirror_replicates(j->mirror, names[i]))
            mm2_pf_add(&x->f, "topics", MM2_PF_WARN, NULL, NULL, NULL,
                       "topics names %s, but the connector's filter leaves it out "
                       "(topics.exclude, or an internal topic's name): it will not be copied",
                       names[i]);
        else
            st = add_topic(x, names[i], m != NULL ? m->partitions : -1, err);
    }
    for (size_t i = 0; st == MM2_OK && i < src.n; i++) {
        bool named = false;
        if (!mm2_mirror_replicates(j->mirror, src.v[i].name))
            continue;
        for (size_t k = 0; k < n && !named; k++)
            named = strcmp(names[k], src.v[i].name) == 0;
        if (!named && n > 0)
            mm2_pf_add(&x->f, "topics", MM2_PF_REFUSE, NULL, NULL,
                       "write the '.' of the entry that takes it as \"\\\\.\" in the "
                       "connector JSON, or add the topic to topics.exclude",
                       "the connector also replicates %s, which topics does not name (a '.' in "
                       "an entry matches any character): Flink did not copy it",
                       src.v[i].name);
        st = add_topic(x, src.v[i].name, src.v[i].partitions, err);
    }
    if (st == MM2_OK && x->ntopics > 1)
        qsort(x->topics, x->ntopics, sizeof(*x->topics), by_name);
    for (size_t i = 0; st == MM2_OK && i < x->ntopics; i++) {
        const struct mm2_topic_meta *m = mm2_topics_find(&tgt, x->topics[i].target);
        x->topics[i].target_partitions = m != NULL ? m->partitions : -1;
    }
    mm2_pf_names_free(names, n);
    mm2_topic_list_free(&src);
    mm2_topic_list_free(&tgt);
    return st;
}

/* Who is who: Connect's version and Kafka cluster (GET /), both cluster ids (against the INI's
 * pins), the connector's topic filter for that version. Returns 0 or the exit code. */
static int identify(struct pf *x)
{
    struct job *j = x->j;
    struct mm2_deadline dl;
    struct mm2_error err = {0};

    if (job_connect(j, &err) != MM2_OK || job_kafka(j, true, true, &err) != MM2_OK ||
        mm2_connect_info(j->connect, &x->info, &err) != MM2_OK ||
        job_mirror(j, x->info.version, &err) != MM2_OK)
        return job_fail(j, &err);
    job_info(j, "Connect %s on Kafka cluster %s", x->info.version, x->info.kafka_cluster_id);
    job_kafka_deadline(j, &dl);
    if (mm2_kafka_cluster_id(j->source, &dl, x->source_id, sizeof(x->source_id), &err) != MM2_OK)
        return job_fail(j, &err);
    job_kafka_deadline(j, &dl);
    if (mm2_kafka_cluster_id(j->target, &dl, x->target_id, sizeof(x->target_id), &err) != MM2_OK)
        return job_fail(j, &err);
    if (job_pins_hold(j, x->source_id, x->target_id) != MM2_OK)
        return MM2_CONFIG;
    if (strcmp(x->info.kafka_cluster_id, x->target_id) != 0)
        mm2_pf_add(&x->f, "connect-cluster", MM2_PF_REFUSE, NULL, NULL,
                   "point the workers' bootstrap.servers at the target, or [target] at "
                   "Connect's cluster",
                   "Connect stores its offsets in Kafka cluster %s, not in the target %s: the "
                   "offsets written there are not the ones the connector reads [rule "
                   "wrong-target]",
                   x->info.kafka_cluster_id, x->target_id);
    else
        mm2_pf_add(&x->f, "connect-cluster", MM2_PF_PASS, NULL, NULL, NULL,
                   "Connect %s keeps its offsets in the target cluster %s", x->info.version,
                   x->target_id);
    return MM2_OK;
}

/* ---- permissions ------------------------------------------------------------------------- */

/* The INI's bootstrap.servers of a section's properties. */
static const char *bootstrap(const struct mm2_kv *props, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(props[i].key, "bootstrap.servers") == 0)
            return props[i].value;
    return "";
}

/* Who the INI's [source] (target false) or [target] section logs in as; a finding when the INI
 * does not say (no principal, no sasl.username): the fix lines then name User:UNKNOWN. */
static struct mm2_pf_who who(struct pf *x, bool target)
{
    const struct mm2_config *c = &x->j->cfg;
    struct mm2_pf_who w = {
        target ? "target" : "source", target ? c->target_principal : c->source_principal,
        target ? bootstrap(c->target, c->ntarget) : bootstrap(c->source, c->nsource)};

    if (w.principal == NULL) {
        w.principal = "User:UNKNOWN";
        mm2_pf_add(&x->f, "principal", MM2_PF_WARN, NULL, NULL,
                   target ? "set [target] principal = User:NAME (or the TLS certificate's "
                            "mapped name) in the INI"
                          : "set [source] principal = User:NAME (or the TLS certificate's "
                            "mapped name) in the INI",
                   "[%s] has neither principal nor sasl.username: the fix lines below name "
                   "User:UNKNOWN where the principal those credentials log in as belongs",
                   w.role);
    }
    return w;
}

/* The source, with [source]'s credentials: every replicated topic, and the Flink group. */
static enum mm2_status source_acls(struct pf *x, struct mm2_error *err)
{
    struct job *j = x->j;
    const struct mm2_pf_who w = who(x, false);
    const char **names = calloc(x->ntopics + 1, sizeof(*names));
    struct mm2_kafka_described *d = calloc(x->ntopics + 1, sizeof(*d)), g;
    struct mm2_deadline dl;
    enum mm2_status st = MM2_OK;

    if (names == NULL || d == NULL)
        st = mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    for (size_t i = 0; st == MM2_OK && i < x->ntopics; i++)
        names[i] = x->topics[i].name;
    job_kafka_deadline(j, &dl);
    if (st == MM2_OK && x->ntopics > 0)
        st = mm2_kafka_describe_topics(j->source, names, x->ntopics, d, &dl, err);
    for (size_t i = 0; st == MM2_OK && i < x->ntopics; i++) {
        struct mm2_pf_auth a = job_pf_auth(&d[i]);
        mm2_pf_need(&x->f, &w, MM2_PF_TOPIC, names[i], &a, MM2_PF_OP_DESCRIBE, MM2_PF_REFUSE,
                    "Metadata, ListOffsets and OffsetFetch of export");
        mm2_pf_need(&x->f, &w, MM2_PF_TOPIC, names[i], &a, MM2_PF_OP_READ, MM2_PF_REFUSE,
                    "Fetch of export's boundary read (read_committed) and of check");
        mm2_pf_need(&x->f, &w, MM2_PF_TOPIC, names[i], &a, MM2_PF_OP_DESCRIBE_CONFIGS,
                    MM2_PF_REFUSE,
                    "DescribeConfigs of cleanup.policy in export, and of the connector's "
                    "createNewTopics");
        if (d[i].seen == MM2_KAFKA_SEEN_OPS && x->topics[i].partitions < 0)
            x->topics[i].partitions = d[i].partitions; /* not listed: the listing omits it */
        if (d[i].seen == MM2_KAFKA_SEEN_ABSENT)
            x->topics[i].partitions = 0; /* nothing to read */
        else if (!mm2_pf_allows(a.ops, MM2_PF_OP_READ) ||
                 !mm2_pf_allows(a.ops, MM2_PF_OP_DESCRIBE_CONFIGS) || a.seen != MM2_PF_SEEN_OPS)
            x->readable = false;
    }
    job_kafka_deadline(j, &dl);
    if (st == MM2_OK)
        st = mm2_kafka_describe_group(j->source, j->cfg.group, &g, &dl, err);
    if (st == MM2_OK) {
        struct mm2_pf_auth a = job_pf_auth(&g);
        mm2_pf_need(&x->f, &w, MM2_PF_GROUP, j->cfg.group, &a, MM2_PF_OP_DESCRIBE, MM2_PF_REFUSE,
                    "FindCoordinator and OffsetFetch of export's committed offsets");
        mm2_pf_need(&x->f, &w, MM2_PF_GROUP, j->cfg.group, &a, MM2_PF_OP_READ, MM2_PF_WARN,
                    "OffsetCommit of rollback-plan --commit, and nothing else");
        if (a.seen != MM2_PF_SEEN_OPS || !mm2_pf_allows(a.ops, MM2_PF_OP_DESCRIBE))
            x->readable = false;
    }
    free(names);
    free(d);
    return st == MM2_OK ? MM2_OK : mm2_error_prefix(err, "[source]");
}

/* One target topic against its source: missing (the plan refuses it; the connector would
 * create it, which needs Create on the cluster) or with fewer partitions (the connector adds
 * them: Alter). Whether the cluster's operations are needed is returned. */
static bool target_layout(struct pf *x, const struct mm2_pf_who *w, const struct mm2_xtopic *t,
                          const struct mm2_kafka_described *d)
{
    char res[320];
    struct mm2_pf_auth a = job_pf_auth(d);

    (void)snprintf(res, sizeof(res), "Topic:%s", t->target);
    if (d->seen == MM2_KAFKA_SEEN_ABSENT) {
        mm2_pf_add(&x->f, "target-topic", MM2_PF_REFUSE, NULL, res, NULL,
                   "target topic %s of source topic %s does not exist: Flink wrote there, so "
                   "the name or the replication policy is wrong; plan refuses it too [rule "
                   "target-missing]",
                   t->target, t->name);
        return true;
    }
    if (d->seen == MM2_KAFKA_SEEN_OPS && t->partitions >= 0 && d->partitions != t->partitions) {
        mm2_pf_add(&x->f, "target-topic", MM2_PF_REFUSE, NULL, res, NULL,
                   "target topic %s has %d partitions, source topic %s %d: records would land "
                   "in other partitions than Flink wrote them to [rule partition-count]",
                   t->target, (int)d->partitions, t->name, (int)t->partitions);
        if (d->partitions < t->partitions)
            mm2_pf_need(&x->f, w, MM2_PF_TOPIC, t->target, &a, MM2_PF_OP_ALTER, MM2_PF_REFUSE,
                        "CreatePartitions of the connector's target admin");
    }
    return false;
}

/* The target, with [target]'s credentials: every target topic, and the cluster's Create when
 * one is missing. */
static enum mm2_status target_acls(struct pf *x, struct mm2_error *err)
{
    struct job *j = x->j;
    const struct mm2_pf_who w = who(x, true);
    const char **names = calloc(x->ntopics + 1, sizeof(*names));
    struct mm2_kafka_described *d = calloc(x->ntopics + 1, sizeof(*d)), c;
    struct mm2_deadline dl;
    enum mm2_status st = MM2_OK;
    bool create = false;

    if (names == NULL || d == NULL)
        st = mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    for (size_t i = 0; st == MM2_OK && i < x->ntopics; i++)
        names[i] = x->topics[i].target;
    job_kafka_deadline(j, &dl);
    if (st == MM2_OK && x->ntopics > 0)
        st = mm2_kafka_describe_topics(j->target, names, x->ntopics, d, &dl, err);
    for (size_t i = 0; st == MM2_OK && i < x->ntopics; i++) {
        struct mm2_pf_auth a = job_pf_auth(&d[i]);
        mm2_pf_need(&x->f, &w, MM2_PF_TOPIC, names[i], &a, MM2_PF_OP_DESCRIBE, MM2_PF_REFUSE,
                    "Metadata and ListOffsets of export and of apply's re-check");
        mm2_pf_need(&x->f, &w, MM2_PF_TOPIC, names[i], &a, MM2_PF_OP_READ, MM2_PF_REFUSE,
                    "Fetch of the target's records in export's boundary read and in check");
        if (d[i].seen != MM2_KAFKA_SEEN_ABSENT) /* absent: Create on the cluster, below */
            mm2_pf_need(&x->f, &w, MM2_PF_TOPIC, names[i], &a, MM2_PF_OP_CREATE, MM2_PF_WARN,
                        "CreateTopics of the connector's target admin, should the topic be "
                        "deleted and its source topic still be replicated (docs/acls.md)");
        create |= target_layout(x, &w, &x->topics[i], &d[i]);
    }
    job_kafka_deadline(j, &dl);
    if (st == MM2_OK && create)
        st = mm2_kafka_describe_cluster(j->target, &c, &dl, err);
    if (st == MM2_OK && create) {
        struct mm2_pf_auth a = job_pf_auth(&c);
        mm2_pf_need(&x->f, &w, MM2_PF_CLUSTER, NULL, &a, MM2_PF_OP_CREATE, MM2_PF_REFUSE,
                    "CreateTopics of the connector's target admin, for the missing target topic");
    }
    free(names);
    free(d);
    return st == MM2_OK ? MM2_OK : mm2_error_prefix(err, "[target]");
}

/* The audit trail's topic ([trail] topic), with [target]'s credentials: every command records
 * there (Write), status --trail reads it (Read), the first record checks its retention
 * (DescribeConfigs) and creates it when absent (Create). Authorized operations exist only for a
 * topic that exists: an absent one is a warning, never a pass. */
static enum mm2_status trail_acls(struct pf *x, struct mm2_error *err)
{
    struct job *j = x->j;
    const struct mm2_pf_who w = who(x, true);
    const char *names[1] = {j->cfg.trail_topic};
    struct mm2_kafka_described d;
    struct mm2_deadline dl;
    struct mm2_pf_auth a;
    enum mm2_status st;

    if (!j->cfg.trail_enabled)
        return MM2_OK;
    job_kafka_deadline(j, &dl);
    st = mm2_kafka_describe_topics(j->target, names, 1, &d, &dl, err);
    if (st != MM2_OK)
        return mm2_error_prefix(err, "[target]");
    if (d.seen == MM2_KAFKA_SEEN_ABSENT) {
        mm2_pf_add(&x->f, "trail", MM2_PF_WARN, w.principal, NULL, NULL,
                   "not checked: the trail topic %s does not exist yet; the first command that "
                   "records creates it, which needs Create on it (Kafka tells authorized "
                   "operations only of what exists): grant Create, or create it with one "
                   "partition, cleanup.policy=delete and retention.ms=%ld",
                   names[0], mm2_config_trail_retention_ms(&j->cfg));
        return MM2_OK;
    }
    a = job_pf_auth(&d);
    mm2_pf_need(&x->f, &w, MM2_PF_TOPIC, names[0], &a, MM2_PF_OP_WRITE, MM2_PF_REFUSE,
                "Produce of every artifact and report to the audit trail");
    mm2_pf_need(&x->f, &w, MM2_PF_TOPIC, names[0], &a, MM2_PF_OP_READ, MM2_PF_REFUSE,
                "Fetch of the audit trail in status --trail");
    mm2_pf_need(&x->f, &w, MM2_PF_TOPIC, names[0], &a, MM2_PF_OP_DESCRIBE_CONFIGS, MM2_PF_REFUSE,
                "DescribeConfigs of the trail's retention before its first record of a run");
    mm2_pf_need(&x->f, &w, MM2_PF_TOPIC, names[0], &a, MM2_PF_OP_CREATE, MM2_PF_WARN,
                "CreateTopics of the audit trail, should the topic be deleted");
    return MM2_OK;
}

/* ---- Connect's internal topics ------------------------------------------------------------ */

/* The three on the target, with [target]'s credentials. */
static enum mm2_status internal_topics(struct pf *x, struct mm2_error *err)
{
    const struct mm2_config *c = &x->j->cfg;
    const struct mm2_pf_who w = {"target",
                                 c->target_principal != NULL ? c->target_principal : "User:UNKNOWN",
                                 bootstrap(c->target, c->ntarget)};
    const char *const names[3] = {c->config_topic, c->offset_topic, c->status_topic};
    static const char *const keys[3] = {"[connect] config.topic", "[connect] offset.topic",
                                        "[connect] status.topic"};

    return job_pf_internal_topics(x->j, x->j->target, &w, names, keys, c->internal_rf,
                                  c->internal_isr, &x->f, err) == MM2_OK
               ? MM2_OK
               : mm2_error_prefix(err, "[target]");
}

/* ---- retention headroom on the source ----------------------------------------------------- */

/* The retention headroom of every replicated source partition (pfretention.h), read with
 * [source]'s credentials when they may (source_acls said so). */
static enum mm2_status headroom(struct pf *x, struct mm2_error *err)
{
    const struct mm2_pf_who w = {"source", "", bootstrap(x->j->cfg.source, x->j->cfg.nsource)};

    return job_pf_headroom(x->j, x->topics, x->ntopics, x->readable, &w, x->rate_wait_ms, &x->f,
                           err);
}

/* The report: kind, when, Connect's version, the migration, the findings; sealed, written to
 * path (when given) and printed. */
static enum mm2_status report(struct pf *x, const char *path, struct mm2_error *err)
{
    struct job *j = x->j;
    struct mm2_binding b = {.group = j->cfg.group,
                            .source_cluster = x->source_id,
                            .target_cluster = x->target_id,
                            .connector = j->conn.name,
                            .alias = j->conn.alias,
                            .config_digest = j->conn.digest,
                            .config_view = j->conn.view,
                            .topics = x->topics,
                            .ntopics = x->ntopics};
    cJSON *root = cJSON_CreateObject();
    char created[32];
    enum mm2_status st;

    job_utc_now(created, sizeof(created));
    if (root == NULL || cJSON_AddStringToObject(root, "kind", MM2_KIND_PREFLIGHT) == NULL ||
        cJSON_AddStringToObject(root, "created", created) == NULL ||
        cJSON_AddStringToObject(root, "connect_version", x->info.version) == NULL ||
        cJSON_AddBoolToObject(root, "refused", mm2_pf_refused(&x->f)) == NULL) {
        cJSON_Delete(root);
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    }
    st = mm2_binding_add_json(root, &b, err);
    if (st == MM2_OK)
        st = job_pf_report(j, root, &x->f, path, err);
    cJSON_Delete(root);
    return st;
}

static int run(struct pf *x, const char *path)
{
    struct job *j = x->j;
    struct mm2_error err = {0};
    int rc = identify(x);

    if (rc != MM2_OK)
        return rc;
    mm2_pf_connector(&x->f, j->conn.config, j->cfg.flink_isolation, x->info.version);
    if (topic_set(x, &err) != MM2_OK || source_acls(x, &err) != MM2_OK ||
        target_acls(x, &err) != MM2_OK || trail_acls(x, &err) != MM2_OK ||
        internal_topics(x, &err) != MM2_OK || headroom(x, &err) != MM2_OK ||
        job_pf_versions(j, &x->f, &err) != MM2_OK)
        return job_fail(j, &err);
    job_pf_say(j, &x->f);
    if (report(x, path, &err) != MM2_OK && !j->trail_failed)
        return job_fail(j, &err);
    rc = job_pf_verdict(j, &x->f);
    if (j->trail_failed) { /* the findings stand; the trail's problem is one more */
        (void)job_fail(j, &err);
        if (rc == MM2_OK)
            rc = MM2_CHECK_FAILED;
    }
    return rc;
}

/* --replication-factor / --min-insync-replicas of --workers: 1 to 32767. */
static int count_opt(struct job *j, const char *name, const char *v, long *out)
{
    if (v != NULL && mm2_parse_long(v, 1, 32767, out) != 0)
        return job_usage_error(j, "--%s must be a whole number from 1 to 32767, got \"%.40s\"",
                               name, v);
    return MM2_OK;
}

int cmd_preflight(struct job *j, int argc, char **argv)
{
    const char *config = NULL, *path = NULL, *rf_s = NULL, *isr_s = NULL;
    bool workers = false;
    long rf = 3, isr = 2, timeout_ms = -1, rate_ms = -1;
    const struct job_opt opts[] = {
        {"config", 'c', JOB_OPT_STRING, &config},
        {"report", 'r', JOB_OPT_STRING, &path},
        {"workers", 'w', JOB_OPT_FLAG, &workers},
        {"replication-factor", 'R', JOB_OPT_STRING, &rf_s},
        {"min-insync-replicas", 'I', JOB_OPT_STRING, &isr_s},
        {"timeout", 't', JOB_OPT_SECONDS, &timeout_ms},
        {"rate-wait", 'W', JOB_OPT_SECONDS, &rate_ms},
    };
    struct pf x = {.j = j, .readable = true};
    bool done;
    int rc = job_options(j, argc, argv, opts, sizeof(opts) / sizeof(opts[0]), usage, &done);

    if (rc != MM2_OK || done)
        return rc;
    if (workers && config != NULL)
        return job_usage_error(j, "--workers takes no --config: it reads the workers' own "
                                  "environment (CONNECT_*)");
    if (workers && rate_ms >= 0)
        return job_usage_error(j, "--rate-wait goes with --config: --workers reads no source "
                                  "topic");
    if (!workers && (rf_s != NULL || isr_s != NULL || timeout_ms >= 0))
        return job_usage_error(j, "--replication-factor, --min-insync-replicas and --timeout go "
                                  "with --workers; the INI states them in [connect]");
    if (workers) {
        rc = count_opt(j, "replication-factor", rf_s, &rf);
        if (rc == MM2_OK)
            rc = count_opt(j, "min-insync-replicas", isr_s, &isr);
        return rc != MM2_OK
                   ? rc
                   : job_pf_workers(j, rf, isr, timeout_ms > 0 ? timeout_ms : 100000, path);
    }
    rc = job_load(j, config);
    if (rc != MM2_OK)
        return rc;
    x.rate_wait_ms = rate_ms > 0 ? rate_ms : DEFAULT_RATE_WAIT_MS;
    rc = run(&x, path);
    pf_free(&x);
    return rc;
}
