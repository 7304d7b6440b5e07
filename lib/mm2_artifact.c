/* mm2_artifact: sealed JSON artifacts (see mm2_artifact.h). */
#include "mm2_artifact.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm2_json.h"

/* The digest of tree without its "digest" member. */
static enum mm2_status digest_of(const cJSON *tree, char out[MM2_DIGEST_TEXT_LEN + 1],
                                 struct mm2_error *err)
{
    cJSON *copy = cJSON_Duplicate(tree, true);
    char *text;
    int rc;

    out[0] = '\0';
    if (copy == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    cJSON_DeleteItemFromObjectCaseSensitive(copy, "digest");
    text = mm2_json_print(copy, false);
    cJSON_Delete(copy);
    if (text == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED,
                             "cannot print the artifact: out of memory or a number that is not "
                             "an exact integer");
    rc = mm2_digest_text(text, strlen(text), out);
    free(text);
    if (rc != 0)
        return mm2_error_set(err, MM2_UNEXPECTED, "SHA-256 failed (OpenSSL)");
    return MM2_OK;
}

enum mm2_status mm2_artifact_seal(cJSON *tree, char digest[MM2_DIGEST_TEXT_LEN + 1],
                                  struct mm2_error *err)
{
    enum mm2_status st;

    cJSON_DeleteItemFromObjectCaseSensitive(tree, "digest");
    st = digest_of(tree, digest, err);
    if (st != MM2_OK)
        return st;
    if (cJSON_AddStringToObject(tree, "digest", digest) == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    return MM2_OK;
}

char *mm2_artifact_text(const cJSON *tree)
{
    return mm2_json_print(tree, true);
}

enum mm2_status mm2_artifact_write(const char *what, const char *path, cJSON *tree,
                                   char digest[MM2_DIGEST_TEXT_LEN + 1], struct mm2_error *err)
{
    enum mm2_status st = mm2_artifact_seal(tree, digest, err);
    char *text;

    if (st != MM2_OK)
        return st;
    text = mm2_json_print(tree, true);
    if (text == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory printing the %s", what);
    st = mm2_file_write(what, path, text, strlen(text), err);
    free(text);
    return st;
}

enum mm2_status mm2_artifact_verify(const char *what, const cJSON *tree, const char *kind,
                                    char digest[MM2_DIGEST_TEXT_LEN + 1], struct mm2_error *err)
{
    const cJSON *k = cJSON_GetObjectItemCaseSensitive(tree, "kind");
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(tree, "digest");
    char want[MM2_DIGEST_TEXT_LEN + 1];
    enum mm2_status st;

    digest[0] = '\0';
    if (!cJSON_IsObject(tree))
        return mm2_error_set(err, MM2_CONFIG, "the %s is not a JSON object", what);
    if (!cJSON_IsString(k))
        return mm2_error_set(err, MM2_CONFIG,
                             "the %s has no \"kind\"; it is not an mm2-offsets "
                             "artifact",
                             what);
    if (strcmp(k->valuestring, kind) != 0)
        return mm2_error_set(err, MM2_CONFIG, "the %s is of kind \"%.60s\", expected \"%s\"", what,
                             k->valuestring, kind);
    if (!cJSON_IsString(d) || !mm2_digest_valid(d->valuestring))
        return mm2_error_set(err, MM2_CONFIG, "the %s has no valid \"digest\"", what);
    st = digest_of(tree, want, err);
    if (st != MM2_OK) {
        mm2_error_prefix(err, "the %s cannot be digested", what);
        err->code = MM2_CONFIG;
        return MM2_CONFIG;
    }
    if (strcmp(want, d->valuestring) != 0)
        return mm2_error_set(err, MM2_CONFIG,
                             "the %s was changed after it was written: it says %s but its content "
                             "hashes to %s; make it again with mm2-offsets instead of editing it",
                             what, d->valuestring, want);
    memcpy(digest, want, sizeof(want));
    return MM2_OK;
}

enum mm2_status mm2_artifact_read(const char *what, const char *path, const char *kind, cJSON **out,
                                  char digest[MM2_DIGEST_TEXT_LEN + 1], struct mm2_error *err)
{
    enum mm2_status st = mm2_json_parse_file(what, path, (size_t)MM2_ARTIFACT_MAX, out, err);

    digest[0] = '\0';
    if (st != MM2_OK)
        return st;
    st = mm2_artifact_verify(what, *out, kind, digest, err);
    if (st != MM2_OK) {
        cJSON_Delete(*out);
        *out = NULL;
        return mm2_error_prefix(err, "%s", path);
    }
    return MM2_OK;
}
