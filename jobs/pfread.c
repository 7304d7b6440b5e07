/* pfread: what both preflights share (see pfread.h). */
#include "pfread.h"

#include <stdlib.h>

#include "clients.h"
#include "report.h"

struct mm2_pf_auth job_pf_auth(const struct mm2_kafka_described *d)
{
    static const enum mm2_pf_seen seen[] = {
        [MM2_KAFKA_SEEN_OPS] = MM2_PF_SEEN_OPS,
        [MM2_KAFKA_SEEN_ABSENT] = MM2_PF_SEEN_ABSENT,
        [MM2_KAFKA_SEEN_DENIED] = MM2_PF_SEEN_DENIED,
        [MM2_KAFKA_SEEN_UNANSWERED] = MM2_PF_SEEN_UNANSWERED,
    };
    bool known = d->seen >= 0 && d->seen <= MM2_KAFKA_SEEN_UNANSWERED;

    return (struct mm2_pf_auth){known ? seen[d->seen] : MM2_PF_SEEN_UNANSWERED, d->ops};
}

/* A min.insync.replicas value read, or -1. */
static long isr_of(const struct mm2_kafka_config_value *v)
{
    char *end = NULL;
    long m;

    if (v->seen != MM2_KAFKA_SEEN_OPS)
        return -1;
    m = strtol(v->value, &end, 10);
    return end == v->value || *end != '\0' || m < 0 ? -1 : m;
}

enum mm2_status job_pf_internal_topics(struct job *j, struct mm2_kafka *k,
                                       const struct mm2_pf_who *who, const char *const *names,
                                       const char *const *keys, long rf, long isr,
                                       struct mm2_pf_findings *f, struct mm2_error *err)
{
    static const char *const which[3] = {"config", "offset", "status"};
    struct mm2_kafka_described d[3];
    struct mm2_kafka_config_value policy[3], min_isr[3];
    struct mm2_deadline dl;
    enum mm2_status st;

    job_kafka_deadline(j, &dl);
    st = mm2_kafka_describe_topics(k, names, 3, d, &dl, err);
    job_kafka_deadline(j, &dl);
    if (st == MM2_OK)
        st = mm2_kafka_describe_config(k, names, 3, "cleanup.policy", policy, &dl, err);
    job_kafka_deadline(j, &dl);
    if (st == MM2_OK)
        st = mm2_kafka_describe_config(k, names, 3, "min.insync.replicas", min_isr, &dl, err);
    for (int i = 0; st == MM2_OK && i < 3; i++) {
        const struct mm2_pf_itopic t = {which[i],
                                        names[i],
                                        keys[i],
                                        job_pf_auth(&d[i]).seen,
                                        d[i].partitions,
                                        d[i].replication,
                                        policy[i].seen == MM2_KAFKA_SEEN_OPS ? policy[i].value : "",
                                        isr_of(&min_isr[i])};
        mm2_pf_internal_topic(f, who, &t, rf, isr);
    }
    return st == MM2_OK ? MM2_OK : mm2_error_prefix(err, "Connect's internal topics");
}

void job_pf_say(struct job *j, const struct mm2_pf_findings *f)
{
    for (size_t i = 0; i < f->n; i++) {
        const struct mm2_pf_finding *x = &f->v[i];
        const char *sep = x->fix[0] != '\0' ? "; fix: " : "";
        if (x->sev == MM2_PF_REFUSE)
            mm2_log_error(&j->log, "refused: %s: %s%s%s", x->name, x->message, sep, x->fix);
        else if (x->sev == MM2_PF_WARN)
            job_warn(j, "%s: %s%s%s", x->name, x->message, sep, x->fix);
        else
            job_info(j, "pass: %s: %s", x->name, x->message);
    }
    job_info(j, "%zu passed, %zu warnings, %zu refused%s", mm2_pf_count(f, MM2_PF_PASS),
             mm2_pf_count(f, MM2_PF_WARN), mm2_pf_count(f, MM2_PF_REFUSE),
             f->oom ? " (and a finding lost: out of memory)" : "");
}

enum mm2_status job_pf_report(struct job *j, cJSON *root, const struct mm2_pf_findings *f,
                              const char *path, struct mm2_error *err)
{
    enum mm2_status st = mm2_pf_add_json(root, f, err);

    return st == MM2_OK ? job_report(j, "preflight report", root, path, err) : st;
}

int job_pf_verdict(struct job *j, const struct mm2_pf_findings *f)
{
    if (!mm2_pf_refused(f))
        return MM2_OK;
    mm2_log_error(&j->log, "%zu refused: fix them before the cutover (export)",
                  mm2_pf_count(f, MM2_PF_REFUSE));
    return MM2_CHECK_FAILED;
}
