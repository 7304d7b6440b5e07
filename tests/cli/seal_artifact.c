/* seal-artifact: a test tool that (re)seals a JSON file as an mm2-offsets artifact, so CLI tests
 * can craft exports and plans (every edge case of the rules) and tamper with them on purpose.
 *
 *   seal-artifact FILE     rewrites FILE with its "digest" recomputed; prints the digest
 * Exit: 0 sealed, 1 not JSON or not sealable, 2 usage. */
#include <stdio.h>
#include <stdlib.h>

#include "mm2_artifact.h"
#include "mm2_json.h"

int main(int argc, char **argv)
{
    struct mm2_error err = {0};
    char digest[MM2_DIGEST_TEXT_LEN + 1];
    cJSON *tree;

    if (argc != 2) {
        fprintf(stderr, "usage: seal-artifact FILE\n");
        return 2;
    }
    if (mm2_json_parse_file("artifact", argv[1], MM2_ARTIFACT_MAX, &tree, &err) != MM2_OK ||
        mm2_artifact_write("artifact", argv[1], tree, digest, &err) != MM2_OK) {
        fprintf(stderr, "seal-artifact: %s\n", err.msg);
        return 1;
    }
    cJSON_Delete(tree);
    printf("%s\n", digest);
    return 0;
}
