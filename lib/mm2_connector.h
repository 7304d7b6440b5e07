/*
 * mm2_connector: the connector JSON mm2-offsets is given ({"name", "config"}, as POST /connectors
 * takes it, without initial_state), the digest Connect's stored config would have, and the rules
 * the config must meet before offsets are planned for it (docs/ARCHITECTURE.md §6.3).
 *
 * Contract:
 *   - Never prints, never exits, never talks to the network.
 *   - struct mm2_connector owns its config and its view; mm2_connector_free releases them and
 * accepts a zeroed or partly filled struct. The readers validate every member and return MM2_CONFIG
 * naming the first bad one.
 *   - A broken rule is one refusal line ending in "[rule connector-config]" that says why the
 *     key must have that value (struct mm2_refusals, mm2_refusal.h).
 */
#ifndef MM2_CONNECTOR_H
#define MM2_CONNECTOR_H

#include <cjson/cJSON.h>
#include <stdbool.h>

#include "mm2_digest.h"
#include "mm2_err.h"
#include "mm2_refusal.h"

#define MM2_ID_MAX 256

struct mm2_connector {
    char name[MM2_ID_MAX];
    cJSON *config;                        /* the "config" object, string values only; owned */
    char alias[MM2_ID_MAX];               /* source.cluster.alias */
    char digest[MM2_DIGEST_TEXT_LEN + 1]; /* of the config, sorted, with "name" */
    cJSON *view;                          /* the config as artifacts record it (mm2_cfgview) */
};

/* Reads {"name": ..., "config": {...}} (a "config.name", if given, must equal "name"; an
 * "initial_state" member is refused: mm2-offsets sets it). MM2_CONFIG naming the file. */
enum mm2_status mm2_connector_load(const char *path, struct mm2_connector *out,
                                   struct mm2_error *err);
enum mm2_status mm2_connector_from_json(const cJSON *root, struct mm2_connector *out,
                                        struct mm2_error *err);
void mm2_connector_free(struct mm2_connector *c);

/* The digest Connect's stored config would have: config (string map, as GET
 * /connectors/{name}/config returns it) with "name" set, members sorted. */
enum mm2_status mm2_connector_config_digest(const cJSON *config, const char *name,
                                            char out[MM2_DIGEST_TEXT_LEN + 1],
                                            struct mm2_error *err);

/* A topics value no topic name can match ('/' is not a legal topic-name character, Kafka's
 * Topic.validate): on a Connect without initial_state (before 3.7, KIP-980) apply first creates
 * the connector with it, so that it starts with nothing to copy, stops it, then PUTs the real
 * config (docs/kafka-versions.md). */
#define MM2_PLACEHOLDER_TOPICS "mm2kit/placeholder"

/* A copy of config (a string map) with "topics" set to MM2_PLACEHOLDER_TOPICS. */
enum mm2_status mm2_connector_placeholder(const cJSON *config, cJSON **out, struct mm2_error *err);

/* True when version ("X.Y", "X.Y.Z", "X.Y.Z-suffix": GET /'s "version") is below major.minor;
 * false when it is not, or does not start with two whole numbers. */
bool mm2_connector_version_below(const char *version, long major, long minor);

/* The connector JSON against docs/ARCHITECTURE.md §6.3: connector.class MirrorSourceConnector,
 * emit.offset-syncs.enabled, sync.topic.configs.enabled and sync.topic.acls.enabled false,
 * source.consumer.auto.offset.reset earliest when needs_earliest (some partition is written as
 * null), and exactly.once.support not required. Adds refusals. */
void mm2_connector_rules(const struct mm2_connector *c, bool needs_earliest,
                         struct mm2_refusals *r);

/* The connector keys mm2-offsets requires or reads, the i-th (from 0); NULL past the last.
 * tests/compat/config-keys.sh checks that the Kafka versions read each (docs/kafka-versions.md). */
const char *mm2_connector_rule_key(size_t i);

#endif
