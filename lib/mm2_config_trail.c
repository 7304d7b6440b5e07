/* mm2_config_trail: the INI file's [trail] section (see mm2_config.h): where the migration's
 * audit trail is written (docs/ARCHITECTURE.md §3.4, the audit trail). How long it is kept is
 * [policy] rollback.window.days (mm2_policy.h): one answer for the rollback window. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm2_config.h"
#include "mm2_parse.h"

void mm2_config_trail_defaults(struct mm2_config *c)
{
    c->trail_enabled = true;
    c->trail_rf = -1;
}

void mm2_config_trail_key(struct mm2_config *c, struct mm2_config_trail_seen *seen,
                          const char *file, const char *key, const char *value,
                          struct mm2_problems *p)
{
    static const char *const keys[] = {"enabled", "topic", "replication.factor"};
    size_t k;
    long n;

    for (k = 0; k < 3 && strcmp(key, keys[k]) != 0; k++)
        ;
    if (k == 3) {
        mm2_problems_add(p,
                         "%s: [trail] has no key \"%.60s\"; the keys are enabled, topic, "
                         "replication.factor (its retention is [policy] rollback.window.days)",
                         file, key);
        return;
    }
    if (seen->key[k]) {
        mm2_problems_add(p, "%s: [trail] %s is given twice; keep one", file, key);
        return;
    }
    seen->key[k] = true;
    if (k == 0) {
        if (strcmp(value, "true") != 0 && strcmp(value, "false") != 0)
            mm2_problems_add(p, "%s: [trail] enabled must be true or false, got \"%.40s\"", file,
                             value);
        else
            c->trail_enabled = strcmp(value, "true") == 0;
    } else if (k == 1) {
        char why[128];
        if (!mm2_parse_topic_valid(value, why, sizeof(why)))
            mm2_problems_add(p, "%s: [trail] topic \"%.60s\" is not a Kafka topic name: %s", file,
                             value, why);
        else if ((c->trail_topic = strdup(value)) == NULL)
            mm2_problems_add(p, "out of memory");
    } else if (mm2_parse_long(value, 1, 32767, &n) != 0) {
        mm2_problems_add(p,
                         "%s: [trail] replication.factor must be 1 to 32767 (leave it out for "
                         "the broker's default.replication.factor), got \"%.40s\"",
                         file, value);
    } else {
        c->trail_rf = n;
    }
}

void mm2_config_trail_finish(struct mm2_config *c, struct mm2_problems *p)
{
    if (c->trail_topic == NULL && (c->trail_topic = strdup("mm2kit.trail")) == NULL)
        mm2_problems_add(p, "out of memory");
}

long mm2_config_trail_retention_ms(const struct mm2_config *c)
{
    return c->policy.rollback_window_days * 86400L * 1000L;
}
