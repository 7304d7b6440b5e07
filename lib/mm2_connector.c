/* mm2_connector: the connector JSON mm2-offsets is given, and its rules (see mm2_connector.h). */
#include "mm2_connector.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mm2_connect.h"
#include "mm2_cfgview.h"
#include "mm2_json.h"
#include "mm2_limits.h"
#include "mm2_pj.h"

#define MIRROR_SOURCE_CLASS "org.apache.kafka.connect.mirror.MirrorSourceConnector"

/* ---- the connector JSON ------------------------------------------------------------------ */

/* True, with *dup set, when two members of obj share a key (cJSON keeps both). */
static bool duplicate_key(const cJSON *obj, const cJSON **dup)
{
    const cJSON *a, *b;

    cJSON_ArrayForEach(a, obj)
    {
        for (b = a->next; b != NULL; b = b->next) {
            if (strcmp(a->string, b->string) == 0) {
                *dup = a;
                return true;
            }
        }
    }
    return false;
}

void mm2_connector_free(struct mm2_connector *c)
{
    if (c == NULL)
        return;
    cJSON_Delete(c->config);
    cJSON_Delete(c->view);
    memset(c, 0, sizeof(*c));
}

enum mm2_status mm2_connector_config_digest(const cJSON *config, const char *name,
                                            char out[MM2_DIGEST_TEXT_LEN + 1],
                                            struct mm2_error *err)
{
    cJSON *copy = cJSON_Duplicate(config, true);
    cJSON *sorted, *n;
    char *text;
    int rc;

    out[0] = '\0';
    if (copy == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    /* Connect stores the config with "name" in it and returns it so. */
    cJSON_DeleteItemFromObjectCaseSensitive(copy, "name");
    n = cJSON_AddStringToObject(copy, "name", name);
    sorted = n != NULL ? mm2_json_sorted(copy) : NULL;
    cJSON_Delete(copy);
    text = sorted != NULL ? mm2_json_print(sorted, false) : NULL;
    cJSON_Delete(sorted);
    if (text == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    rc = mm2_digest_text(text, strlen(text), out);
    free(text);
    return rc == 0 ? MM2_OK : mm2_error_set(err, MM2_UNEXPECTED, "SHA-256 failed (OpenSSL)");
}

enum mm2_status mm2_connector_from_json(const cJSON *root, struct mm2_connector *out,
                                        struct mm2_error *err)
{
    const cJSON *name, *config, *v;
    char why[160];

    memset(out, 0, sizeof(*out));
    name = mm2_json_get(root, "name", MM2_JSON_STRING, "connector", err);
    config = name != NULL ? mm2_json_get(root, "config", MM2_JSON_OBJECT, "connector", err) : NULL;
    if (config == NULL)
        return mm2_pj_config(err);
    if (!mm2_connect_name_valid(name->valuestring, why, sizeof(why)))
        return mm2_error_set(err, MM2_CONFIG, "connector.name \"%.100s\": %s", name->valuestring,
                             why);
    if (cJSON_GetObjectItemCaseSensitive(root, "initial_state") != NULL)
        return mm2_error_set(err, MM2_CONFIG,
                             "connector.initial_state must not be given: mm2-offsets creates "
                             "the connector STOPPED itself");
    cJSON_ArrayForEach(v, root)
    {
        if (strcmp(v->string, "name") != 0 && strcmp(v->string, "config") != 0)
            return mm2_error_set(err, MM2_CONFIG,
                                 "connector has an unknown member \"%.60s\"; only name and config",
                                 v->string);
    }
    if (duplicate_key(root, &v) || duplicate_key(config, &v))
        return mm2_error_set(err, MM2_CONFIG,
                             "connector JSON gives \"%.100s\" twice; Connect would keep the last, "
                             "the rules would read the first: give it once",
                             v->string);
    cJSON_ArrayForEach(v, config)
    {
        if (!cJSON_IsString(v))
            return mm2_error_set(err, MM2_CONFIG,
                                 "connector.config.\"%.100s\" is not a string (Connect configs "
                                 "are strings: write \"%s\" in quotes)",
                                 v->string, cJSON_IsBool(v) ? "true/false" : "the value");
    }
    v = cJSON_GetObjectItemCaseSensitive(config, "name");
    if (v != NULL && strcmp(v->valuestring, name->valuestring) != 0)
        return mm2_error_set(err, MM2_CONFIG,
                             "connector.config.name \"%.100s\" differs from connector.name "
                             "\"%.100s\"",
                             v->valuestring, name->valuestring);
    v = cJSON_GetObjectItemCaseSensitive(config, "source.cluster.alias");
    if (v == NULL || v->valuestring[0] == '\0')
        return mm2_error_set(err, MM2_CONFIG,
                             "connector.config.\"source.cluster.alias\" is required (the "
                             "\"cluster\" key of every offset)");
    /* Connect trims it (ConfigDef) before it keys offsets with it; a plan keyed by the untrimmed
     * text would be ignored by MM2. Refuse rather than guess which one the operator meant. */
    if (isspace((unsigned char)v->valuestring[0]) ||
        isspace((unsigned char)v->valuestring[strlen(v->valuestring) - 1]))
        return mm2_error_set(err, MM2_CONFIG,
                             "connector.config.\"source.cluster.alias\" \"%.100s\" has spaces "
                             "around it; remove them",
                             v->valuestring);
    if (strlen(v->valuestring) >= sizeof(out->alias) ||
        strlen(name->valuestring) >= sizeof(out->name))
        return mm2_error_set(err, MM2_CONFIG, "connector name or alias too long");
    memcpy(out->name, name->valuestring, strlen(name->valuestring) + 1);
    memcpy(out->alias, v->valuestring, strlen(v->valuestring) + 1);
    out->config = cJSON_Duplicate(config, true);
    if (out->config == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    if (mm2_cfgview_make(out->config, out->name, &out->view, err) != MM2_OK)
        return err->code;
    return mm2_connector_config_digest(out->config, out->name, out->digest, err);
}

enum mm2_status mm2_connector_load(const char *path, struct mm2_connector *out,
                                   struct mm2_error *err)
{
    cJSON *root;
    enum mm2_status st = mm2_json_parse_file("connector", path, MM2_CONNECTOR_FILE_MAX, &root, err);

    memset(out, 0, sizeof(*out));
    if (st != MM2_OK)
        return st;
    st = mm2_connector_from_json(root, out, err);
    cJSON_Delete(root);
    if (st != MM2_OK) {
        mm2_connector_free(out);
        return mm2_error_prefix(err, "%s", path);
    }
    return MM2_OK;
}

/* ---- the connector rules (docs/ARCHITECTURE.md §6.3) ---------------------------------------- */

static const char *cfg(const cJSON *config, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(config, key);

    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* v equals word as Connect reads BOOLEAN and enum-like values: trimmed (String.trim: every
 * character up to the space), case-insensitive. */
static bool is_word(const char *v, const char *word)
{
    size_t n, wl = strlen(word);

    while (*v != '\0' && (unsigned char)*v <= ' ')
        v++;
    n = strlen(v);
    while (n > 0 && (unsigned char)v[n - 1] <= ' ')
        n--;
    return n == wl && strncasecmp(v, word, wl) == 0;
}

static bool is_false(const char *v)
{
    return is_word(v, "false");
}

/* Each key the rules want false, and why, said in the refusal itself. */
static const struct {
    const char *key, *why;
} must_be_false[] = {
    {"emit.offset-syncs.enabled", "no offset-syncs topic on either cluster"},
    {"sync.topic.configs.enabled", "the target's topic configs stay the platform's"},
    {"sync.topic.acls.enabled", "the target's ACLs stay the platform's"},
};

/* The other keys mm2-offsets reads from the connector JSON: its class and alias, the topic
 * filter (mm2_topics), the rules below and the offsets it reads with (check). */
static const char *const other_keys[] = {
    "connector.class",
    "source.cluster.alias",
    "target.cluster.alias",
    "topics",
    "topics.exclude",
    "topics.blacklist",
    "topic.filter.class",
    "replication.policy.class",
    "replication.policy.separator",
    "replication.policy.internal.topic.separator.enabled",
    "exactly.once.support",
    "source.consumer.auto.offset.reset",
    "source.consumer.isolation.level",
};

const char *mm2_connector_rule_key(size_t i)
{
    size_t nf = sizeof(must_be_false) / sizeof(must_be_false[0]);

    if (i < nf)
        return must_be_false[i].key;
    i -= nf;
    return i < sizeof(other_keys) / sizeof(other_keys[0]) ? other_keys[i] : NULL;
}

void mm2_connector_rules(const struct mm2_connector *c, bool needs_earliest, struct mm2_refusals *r)
{
    const char *cls = cfg(c->config, "connector.class");
    const char *reset = cfg(c->config, "source.consumer.auto.offset.reset");

    /* Connect resolves a plugin by class name or by its aliases (simple name, without the
     * Connector suffix). */
    if (cls == NULL ||
        (strcmp(cls, MIRROR_SOURCE_CLASS) != 0 && strcmp(cls, "MirrorSourceConnector") != 0 &&
         strcmp(cls, "MirrorSource") != 0))
        mm2_refuse(r,
                   "connector %s: connector.class is \"%.100s\", not " MIRROR_SOURCE_CLASS
                   "; only MirrorSourceConnector is migrated [rule connector-config]",
                   c->name, cls != NULL ? cls : "(missing)");
    for (size_t i = 0; i < sizeof(must_be_false) / sizeof(must_be_false[0]); i++) {
        const char *v = cfg(c->config, must_be_false[i].key);
        if (v == NULL)
            mm2_refuse(r,
                       "connector %s: %s is unset (its default is true); set it to \"false\": "
                       "%s [rule connector-config]",
                       c->name, must_be_false[i].key, must_be_false[i].why);
        else if (!is_false(v))
            mm2_refuse(r,
                       "connector %s: %s is \"%.20s\"; set it to \"false\": %s "
                       "[rule connector-config]",
                       c->name, must_be_false[i].key, v, must_be_false[i].why);
    }
    {
        /* KIP-618: "required" fails when the workers run with exactly.once.source.support
         * disabled, as this image's do (docs/ARCHITECTURE.md §3.1). */
        const char *eos = cfg(c->config, "exactly.once.support");
        if (eos != NULL && is_word(eos, "required"))
            mm2_refuse(r,
                       "connector %s: exactly.once.support is \"required\", but the workers run "
                       "plain source mode (exactly.once.source.support=disabled); remove it "
                       "[rule connector-config]",
                       c->name);
    }
    if (needs_earliest && (reset == NULL || strcmp(reset, "earliest") != 0))
        mm2_refuse(r,
                   "connector %s: source.consumer.auto.offset.reset is %s%.20s%s but the plan "
                   "clears some partitions (null) so MM2 starts them at auto.offset.reset; set "
                   "it to \"earliest\" [rule connector-config]",
                   c->name, reset != NULL ? "\"" : "", reset != NULL ? reset : "unset",
                   reset != NULL ? "\"" : "");
}

enum mm2_status mm2_connector_placeholder(const cJSON *config, cJSON **out, struct mm2_error *err)
{
    cJSON *c = cJSON_IsObject(config) ? cJSON_Duplicate(config, true) : NULL;
    cJSON *t = cJSON_CreateString(MM2_PLACEHOLDER_TOPICS);

    *out = NULL;
    if (c == NULL || t == NULL) {
        cJSON_Delete(c);
        cJSON_Delete(t);
        return mm2_error_set(err, MM2_UNEXPECTED, "placeholder config: out of memory");
    }
    if (cJSON_GetObjectItemCaseSensitive(c, "topics") != NULL)
        cJSON_ReplaceItemInObjectCaseSensitive(c, "topics", t);
    else if (!cJSON_AddItemToObject(c, "topics", t)) {
        cJSON_Delete(c);
        cJSON_Delete(t);
        return mm2_error_set(err, MM2_UNEXPECTED, "placeholder config: out of memory");
    }
    *out = c;
    return MM2_OK;
}

/* The whole number at *p (at most 4 digits), advancing p; -1 when there is none. */
static long version_part(const char **p)
{
    long v = 0;
    int n = 0;

    while (**p >= '0' && **p <= '9' && n < 5) {
        v = v * 10 + (**p - '0');
        (*p)++;
        n++;
    }
    return n == 0 || n > 4 ? -1 : v;
}

bool mm2_connector_version_below(const char *version, long major, long minor)
{
    const char *p = version;
    long a, b;

    if (p == NULL)
        return false;
    a = version_part(&p);
    if (a < 0 || *p != '.')
        return false;
    p++;
    b = version_part(&p);
    if (b < 0 || (*p != '\0' && *p != '.' && *p != '-'))
        return false;
    return a < major || (a == major && b < minor);
}
