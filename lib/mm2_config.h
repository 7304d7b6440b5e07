/*
 * mm2_config: mm2-offsets' INI file (docs/ARCHITECTURE.md §3.4), read with inih.
 *
 *   [source]     librdkafka properties of the SOURCE cluster (bootstrap.servers required), and
 *                cluster.id (not passed to librdkafka): the cluster's id, pinned, so that
 *                artifacts are checked against it without asking the cluster; principal (not
 *                passed either): the principal Kafka knows these credentials as (TYPE:NAME,
 *                default User:<sasl.username>), for preflight's kafka-acls.sh lines
 *   [target]     the same for the TARGET cluster
 *   [connect]    url (required), request.timeout.seconds (100), retry.budget.seconds (300);
 *                username and password (together; the password as ${env:VAR}): HTTP Basic for
 *                a REST API behind Kafka's basic-auth extension (docker/mm2/README.md);
 *                workers: base URLs separated by commas (at most MM2_CONFIG_WORKERS_MAX), each
 *                name resolving to one worker or several (the workers' headless Service), that
 *                preflight asks every worker's version at;
 *                Connect's internal topics for preflight: config.topic, offset.topic,
 *                status.topic (default flink-mm2-connect-configs, -offsets, -status, as
 *                k8s/base/configmap.yaml names them), internal.replication.factor (3) and
 *                internal.min.insync.replicas (2), 1 to 32767
 *   [flink]      group.id (required); rest.url + job.id (together); checkpoint.interval.seconds;
 *                topic.mapping ("identity", or SOURCE=TARGET pairs separated by commas);
 *                the boundary proof: tail.records (8; 0 to 256, 0: no proof), tail.window
 *                (64; source records read beyond the tail on each side of C, 0 to 100000),
 *                tail.bytes (65536; the most key and value bytes one read takes from a
 *                partition, 1024 to 67108864), tail.partitions (10000; the most partitions
 *                one read takes, 1 to 100000), headers.preserved and timestamps.preserved
 *                (false; true when the Flink job copied them unchanged, so they are compared);
 *                isolation.level (read_committed or read_uncommitted: what the Flink job's
 *                source read with; preflight compares the connector's with it);
 *                retention.margin.seconds (86400; 1 to 366 days): how long C must stay above
 *                the source's log start (the cutover window plus the approval wait)
 *   [connector]  file: the connector JSON (a relative path is taken from the INI's directory)
 *   [trail]      the audit trail (mm2_config_trail.c; docs/ARCHITECTURE.md §3.4): enabled (true),
 *                topic (mm2kit.trail, on the target cluster), replication.factor (the broker's
 *                default)
 *   [policy]     the operator's answers to the cutover's open questions (mm2_policy.h)
 *
 * Contract:
 *   - Never prints, never exits. Every problem found is collected (struct mm2_problems), one
 *     line each naming the file, section and key. Unknown sections and keys are problems, so are
 *     duplicates.
 *   - A value may hold ${env:NAME} (NAME = [A-Za-z_][A-Za-z0-9_]*), replaced by that variable of
 *     the environment; an unset one is a problem.
 *   - The value of a secret key (its name holds password, secret, jaas, token, credential,
 *     key.pem or oauthbearer.config: sasl.password, ssl.key.password, ...) is never repeated in a
 *     problem, whether it came from the environment or not, and is listed in secrets[] so the
 *     caller registers it for log redaction. Other values (a URL, a bootstrap list, a job id)
 *     are quoted when they are wrong: they are what the operator must fix.
 *   - Debian's libinih is built with INI_MAX_LINE 200 and inline ';' comments: a line longer than
 *     MM2_CONFIG_LINE_MAX characters is a problem naming its line number (inih would cut it), and
 *     " ;" inside a value starts a comment. Both are reasons to keep secrets in ${env:VAR}.
 *   - struct mm2_config owns all its strings; mm2_config_free releases them and accepts a zeroed
 *     or partly filled struct.
 */
#ifndef MM2_CONFIG_H
#define MM2_CONFIG_H

#include <stddef.h>

#include "mm2_env.h"
#include "mm2_err.h"
#include "mm2_kafka.h"
#include "mm2_limits.h"
#include "mm2_policy.h"

#define MM2_CONFIG_LINE_MAX 198 /* characters, without the newline (Debian's INI_MAX_LINE 200) */
#define MM2_CONFIG_PROPS_MAX 64
#define MM2_CONFIG_WORKERS_MAX 16
#define MM2_CONFIG_SECRETS_MAX 16
#define MM2_CONFIG_MAPPING_MAX 1024

struct mm2_topic_map {
    char *source;
    char *target;
};

struct mm2_config {
    char *path;
    struct mm2_kv source[MM2_CONFIG_PROPS_MAX]; /* key and value strings owned */
    size_t nsource;
    struct mm2_kv target[MM2_CONFIG_PROPS_MAX];
    size_t ntarget;
    char *source_cluster_id; /* [source] cluster.id; NULL when not pinned */
    char *target_cluster_id; /* [target] cluster.id; NULL when not pinned */
    char *source_principal;  /* [source] principal, else User:<sasl.username>; NULL: unknown */
    char *target_principal;  /* [target] principal, likewise */
    char *connect_url;
    char *
        connect_ca; /* [connect] ca.location (resolved like [connector] file); NULL: the system's */
    char *connect_user;     /* [connect] username: HTTP Basic to the REST API; NULL: none */
    char *connect_password; /* [connect] password, with username; a secret */
    char *workers[MM2_CONFIG_WORKERS_MAX]; /* [connect] workers, each a base URL */
    size_t nworkers;
    long request_timeout_ms;
    long retry_budget_ms;
    long connect_wait_ms; /* [connect] connect.wait.seconds (30): refused connections retried */
    char *config_topic, *offset_topic, *status_topic; /* [connect] config.topic, ... (defaults) */
    long internal_rf;         /* [connect] internal.replication.factor (3) */
    long internal_isr;        /* [connect] internal.min.insync.replicas (2) */
    char *flink_isolation;    /* [flink] isolation.level; NULL when not given */
    long retention_margin_ms; /* [flink] retention.margin.seconds (86400) */
    char *group;
    char *flink_rest_url;          /* NULL when not given */
    char *flink_job_id;            /* NULL when not given */
    long checkpoint_interval_ms;   /* 0 when not given */
    struct mm2_topic_map *mapping; /* topic.mapping pairs; none = identity */
    size_t nmapping;
    long tail_records;         /* [flink] tail.records */
    long tail_window;          /* [flink] tail.window */
    long tail_bytes;           /* [flink] tail.bytes */
    long tail_partitions;      /* [flink] tail.partitions */
    bool headers_preserved;    /* [flink] headers.preserved */
    bool timestamps_preserved; /* [flink] timestamps.preserved */
    struct mm2_policy policy;  /* [policy] (mm2_policy.h) */
    char *connector_file;
    bool trail_enabled; /* [trail] enabled (true) */
    char *trail_topic;  /* [trail] topic (mm2kit.trail) */
    long trail_rf;      /* [trail] replication.factor (-1: the broker's default) */
    char *secrets[MM2_CONFIG_SECRETS_MAX]; /* values taken from the environment */
    size_t nsecrets;
};

/* Environment lookup, getenv by default; tests and the fuzzer pass their own. */
typedef const char *(*mm2_getenv_fn)(const char *name);

/* Parses text (the INI file's content; path is used in messages and to resolve the connector
 * file). MM2_OK, or MM2_CONFIG with every problem in p. */
enum mm2_status mm2_config_parse(const char *text, const char *path, mm2_getenv_fn getenv_fn,
                                 struct mm2_config *out, struct mm2_problems *p);

/* Reads the file at path and parses it with getenv. */
enum mm2_status mm2_config_load(const char *path, struct mm2_config *out, struct mm2_problems *p);

void mm2_config_free(struct mm2_config *c);

/* [trail] (mm2_config_trail.c): its defaults, one key, and the defaults of what was not given. */
struct mm2_config_trail_seen {
    bool key[3];
};
void mm2_config_trail_defaults(struct mm2_config *c);
void mm2_config_trail_key(struct mm2_config *c, struct mm2_config_trail_seen *seen,
                          const char *file, const char *key, const char *value,
                          struct mm2_problems *p);
void mm2_config_trail_finish(struct mm2_config *c, struct mm2_problems *p);
/* The trail's retention: [policy] rollback.window.days, in ms. */
long mm2_config_trail_retention_ms(const struct mm2_config *c);

/* The target topic Flink wrote for source topic (topic.mapping, or the same name). */
const char *mm2_config_flink_target(const struct mm2_config *c, const char *topic);

#endif
