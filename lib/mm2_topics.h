/*
 * mm2_topics: which source topics a MirrorSourceConnector replicates, and the target topic each
 * one is written to (and a topic's entry in a cluster's topic list, mm2_topics_find), computed from
 * the connector's config exactly as Kafka's MirrorMaker 2 does
 * (MirrorSourceConnector.shouldReplicateTopic, DefaultTopicFilter, MirrorUtils.compilePatternList,
 * DefaultReplicationPolicy, IdentityReplicationPolicy), so that mm2-offsets plans every partition
 * MM2 will copy and none that it will not (docs/ARCHITECTURE.md §4.2: a replicated partition
 * without a plan entry is copied again from the earliest offset).
 *
 * Contract:
 *   - Never prints, never exits. struct mm2_mirror is opaque; mm2_mirror_new copies what it keeps;
 *     mm2_mirror_free accepts NULL.
 *   - What cannot be evaluated exactly as Connect would is refused with MM2_CONFIG and a message
 *     naming the config key, the offending part and what to write instead: a topic.filter.class
 *     other than DefaultTopicFilter, a replication.policy.class other than
 *     DefaultReplicationPolicy / IdentityReplicationPolicy, an empty replication.policy.separator,
 *     a value holding a config provider reference ("${...}"), a non-string value, a key given
 *     twice, and any Java regex construct outside the subset translated to POSIX extended
 *     regexes (mm2_jregex.c lists the subset). What Connect itself refuses (a missing
 *     source.cluster.alias, a boolean that is not true/false, a regex Java cannot compile, from
 *     4.2 an empty entry in topics / topics.exclude) is MM2_CONFIG too.
 *   - The rules that depend on the Kafka version are taken for the version Connect reports in
 *     GET / ("4.3.1", "3.9.1", ...: MAJOR.MINOR.PATCH, digits only), any patch of a known line:
 *       3.6.x-3.9.x  topics.exclude default ".*[\-\.]internal, .*\.replica, __.*", and its
 *                    deprecated alias topics.blacklist used when topics.exclude is absent;
 *                    heartbeats always replicated; internal: "__*", ".*", "*.internal",
 *                    "*-internal", "*<sep>internal";
 *       4.0.x-4.1.x  topics.exclude default "mm2.*\.internal, .*\.replica, __.*", no alias;
 *                    heartbeats.replication.enabled (default true); internal: "__*", ".*",
 *                    "mm2*<sep>internal", "*<sep>checkpoints<sep>internal";
 *       4.2.x-4.3.x  as 4.0, and an empty entry in topics / topics.exclude ("a,,b") is refused
 *                    (duplicate entries are dropped, which changes nothing).
 *     (<sep>: replication.policy.separator, or "." when that is set and
 *     replication.policy.internal.topic.separator.enabled is false.) A version the module does not
 *     know is MM2_CONFIG.
 *   - Topic names passed in must be valid Kafka topic names (mm2_parse_topic_valid); the regex
 *     translation is exact on that alphabet ([a-zA-Z0-9._-]) only, so any other string is
 *     reported as not replicated (no such topic can exist on the source cluster).
 */
#ifndef MM2_TOPICS_H
#define MM2_TOPICS_H

#include <stdbool.h>
#include <stddef.h>

#include "mm2_err.h"

struct mm2_mirror;
struct mm2_topic_list;

/* Longest source/target alias and replication.policy.separator, in bytes, and longest value of
 * any key read (topics, ...); a longer one is MM2_CONFIG. */
#define MM2_MIRROR_ALIAS_MAX 255
#define MM2_MIRROR_SEPARATOR_MAX 63
#define MM2_MIRROR_VALUE_MAX 65536

/* Reads the connector's config (the "config" object of the connector JSON: string values, as
 * Connect stores them; a key that is absent takes Connect's default) and the Kafka version of
 * the Connect workers. The keys read: topics, topics.exclude (and topics.blacklist before 4.0),
 * topic.filter.class, replication.policy.class, replication.policy.separator,
 * replication.policy.internal.topic.separator.enabled, source.cluster.alias (required, as in
 * Connect), target.cluster.alias, heartbeats.replication.enabled (from 4.0) and enabled. config
 * is a cJSON object (const cJSON *), passed as void * so this header does not pull in cJSON; it
 * is only read during the call. On failure *out is NULL and err says why: MM2_CONFIG, or
 * MM2_UNEXPECTED when memory runs out. */
enum mm2_status mm2_mirror_new(const void *config, const char *kafka_version,
                               struct mm2_mirror **out, struct mm2_error *err);
void mm2_mirror_free(struct mm2_mirror *m);

/* MirrorSourceConnector.shouldReplicateTopic(topic) for this config: (the topic filter accepts
 * it, or it is a heartbeats topic and heartbeats replication is on) and it is not internal and
 * not a cycle back to the target cluster. False for every topic when the connector's "enabled"
 * is false (MirrorSourceConnector then creates no tasks), and for a string that is not a valid
 * topic name. */
bool mm2_mirror_replicates(const struct mm2_mirror *m, const char *topic);

/* The connector's "enabled" (default true). When false MM2 replicates nothing; a caller that
 * plans a migration onto this connector most likely wants to refuse it. */
bool mm2_mirror_enabled(const struct mm2_mirror *m);

/* ReplicationPolicy.formatRemoteTopic(sourceAlias, topic): the target topic name, into out.
 * Returns 0, or -1 when it does not fit in outlen bytes (out is then "" when outlen > 0). The
 * name is not checked against Kafka's topic rules (a long alias can make it longer than 249). */
int mm2_mirror_target_topic(const struct mm2_mirror *m, const char *topic, char *out,
                            size_t outlen);

/* The topic called name in l, a cluster's topics as mm2_kafka_topics lists them (sorted by name,
 * strcmp, each once), or NULL: what export and the plan's re-check look a source or target topic
 * up with. The list is mm2_kafka's; its lookup is pure and lives here, with the other answers
 * about a topic by name. */
const struct mm2_topic_meta *mm2_topics_find(const struct mm2_topic_list *l, const char *name);

#endif
