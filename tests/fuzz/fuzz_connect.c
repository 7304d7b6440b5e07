/*
 * libFuzzer target: what mm2-offsets reads from Kafka Connect. The same input goes to both
 * answer parsers of lib/mm2_connect.h, mm2_connect_offsets_parse (GET
 * /connectors/{name}/offsets) and mm2_connect_status_parse (GET /connectors/{name}/status),
 * which take the body with its length as the HTTP client returns it (not NUL-terminated), and
 * mm2_accept_classes_parse (GET /connectors?expand=info, lib/mm2_accept.h), and,
 * parsed as JSON, to mm2_connector_from_json (lib/mm2_plan.h), the connector JSON reader.
 * Everything is freed whatever the outcome: a leak is a finding.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cjson/cJSON.h>

#include "mm2_accept.h"
#include "mm2_connect.h"
#include "mm2_plan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Every refusal says why: a failure with an empty message is a finding too. */
static void said_why(enum mm2_status st, struct mm2_error *err)
{
    if (st != MM2_OK && err->msg[0] == '\0')
        abort();
    mm2_error_clear(err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct mm2_error err = {0};
    struct mm2_source_offsets offsets;
    struct mm2_connector_status status;
    size_t ntasks;
    struct mm2_connector connector;
    struct mm2_accept_classes classes;
    cJSON *tree;

    enum mm2_status st = mm2_connect_offsets_parse((const char *)data, size, &offsets, &err);

    said_why(st, &err);
    if (st == MM2_OK) {
        /* The lookup mm2-offsets does on the answer must find every entry it holds. */
        for (size_t i = 0; i < offsets.n; i++) {
            const struct mm2_source_offset *e = &offsets.v[i];
            if (mm2_source_offsets_find(&offsets, e->cluster, e->topic, e->partition) != e)
                abort();
        }
    }
    mm2_source_offsets_free(&offsets);
    said_why(mm2_connect_status_parse((const char *)data, size, SIZE_MAX, &status, &err), &err);
    said_why(mm2_connect_status_parse((const char *)data, size, 1, &status, &err), &err);
    said_why(mm2_connect_task_configs_parse((const char *)data, size, &ntasks, &err), &err);
    said_why(mm2_accept_classes_parse((const char *)data, size, &classes, &err), &err);
    mm2_accept_classes_free(&classes);
    tree = cJSON_ParseWithLength((const char *)data, size);
    if (tree != NULL) {
        said_why(mm2_connector_from_json(tree, &connector, &err), &err);
        mm2_connector_free(&connector);
        cJSON_Delete(tree);
    }
    return 0;
}
