/* tconfigs: the target topics' configs (see tconfigs.h). */
#include "tconfigs.h"

#include <stdbool.h>
#include <stdlib.h>

#include "clients.h"
#include "mm2_export.h"

enum mm2_status job_topic_configs(struct job *j, const char *const *topics, size_t n, cJSON **out,
                                  struct mm2_error *err)
{
    struct mm2_kafka_config_value *v = calloc(n + 1, sizeof(*v));
    bool *denied = calloc(n + 1, sizeof(*denied));
    enum mm2_status st = MM2_OK;

    for (size_t i = 0; i < n; i++)
        out[i] = NULL;
    if (v == NULL || denied == NULL)
        st = mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    for (size_t k = 0; st == MM2_OK && n > 0 && k < MM2_EXPORT_CONFIG_KEYS; k++) {
        struct mm2_deadline dl;
        const char *key = mm2_export_config_keys[k];
        job_kafka_deadline(j, &dl);
        st = mm2_kafka_describe_config(j->target, topics, n, key, v, &dl, err);
        for (size_t i = 0; st == MM2_OK && i < n; i++) {
            if (v[i].seen == MM2_KAFKA_SEEN_DENIED || v[i].seen == MM2_KAFKA_SEEN_ABSENT)
                denied[i] = true;
            if (v[i].seen != MM2_KAFKA_SEEN_OPS || denied[i])
                continue;
            if (out[i] == NULL && (out[i] = cJSON_CreateObject()) == NULL)
                st = mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
            else if (cJSON_AddStringToObject(out[i], key, v[i].value) == NULL)
                st = mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
        }
    }
    for (size_t i = 0; i < n; i++)
        if (st != MM2_OK || denied[i]) {
            cJSON_Delete(out[i]);
            out[i] = NULL;
        }
    free(v);
    free(denied);
    return st;
}
