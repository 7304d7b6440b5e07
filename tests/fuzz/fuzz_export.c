/*
 * libFuzzer target: the export reader. The input is parsed as JSON (cJSON, bounded by its
 * length: the input is not NUL-terminated), then given to mm2_artifact_verify
 * (lib/mm2_artifact.h), which mostly refuses it for its digest, and to mm2_export_from_json
 * (lib/mm2_plan.h) regardless, so the model reader sees every tree the mutator makes and not
 * only sealed ones. Everything is freed whatever the outcome: a leak is a finding.
 *
 * The count of values that decides, before parsing, whether an input is within the cap
 * (mm2_json_values, lib/mm2_json.h) must equal the nodes cJSON made of it: a count below would
 * let a dense input through to an out-of-memory kill.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cjson/cJSON.h>

#include "mm2_artifact.h"
#include "mm2_json.h"
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
    struct mm2_export ex;
    char digest[MM2_DIGEST_TEXT_LEN + 1];
    const char *end = NULL;
    cJSON *tree = cJSON_ParseWithLengthOpts((const char *)data, size, &end, false);

    if (tree == NULL)
        return 0;
    if (mm2_json_values((const char *)data, (size_t)(end - (const char *)data)) !=
        mm2_json_nodes(tree))
        abort();
    said_why(mm2_artifact_verify("export", tree, MM2_KIND_EXPORT, digest, &err), &err);
    said_why(mm2_export_from_json(tree, &ex, &err), &err);
    mm2_export_free(&ex);
    cJSON_Delete(tree);
    return 0;
}
