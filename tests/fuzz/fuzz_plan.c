/*
 * libFuzzer target: the plan reader. The input is parsed as JSON (cJSON, bounded by its length),
 * then given to mm2_artifact_verify (lib/mm2_artifact.h), which mostly refuses it for its
 * digest, and to mm2_plan_from_json (lib/mm2_plan.h) regardless. A plan that parses is turned
 * into the PATCH body mm2-offsets would send (mm2_plan_patch_body), which must then be JSON
 * itself. Everything is freed whatever the outcome: a leak is a finding.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "mm2_artifact.h"
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
    struct mm2_plan plan;
    enum mm2_status st;
    char digest[MM2_DIGEST_TEXT_LEN + 1];
    cJSON *tree = cJSON_ParseWithLength((const char *)data, size);

    if (tree == NULL)
        return 0;
    said_why(mm2_artifact_verify("plan", tree, MM2_KIND_PLAN, digest, &err), &err);
    st = mm2_plan_from_json(tree, &plan, &err);
    said_why(st, &err);
    if (st == MM2_OK) {
        char *body = mm2_plan_patch_body(&plan);
        /* The body goes to Connect as is: it must be JSON (NULL only when out of memory). */
        if (body != NULL) {
            cJSON *back = cJSON_ParseWithLength(body, strlen(body));
            if (back == NULL)
                abort();
            cJSON_Delete(back);
        }
        free(body);
    }
    mm2_plan_free(&plan);
    cJSON_Delete(tree);
    return 0;
}
