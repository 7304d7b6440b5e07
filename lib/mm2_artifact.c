/* mm2_artifact: sealed JSON artifacts (see mm2_artifact.h). */
#include "mm2_artifact.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm2_file.h"
#include "mm2_json.h"

/* The digest of tree without its "digest" member, printed without it rather than from a copy:
 * a copy of a 50,000-partition artifact's tree takes a third of the Job's memory (bench/README.md,
 * "limits": plan's peak before the digest stopped copying the tree). */
static enum mm2_status digest_of(const cJSON *tree, char out[MM2_DIGEST_TEXT_LEN + 1],
                                 struct mm2_error *err)
{
    char *text = mm2_json_print_without(tree, "digest", false);
    int rc;

    out[0] = '\0';
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

/* Each kind: what it is, in a message, and the command that writes it. */
static const struct {
    const char *kind, *noun, *writer;
} kinds[] = {
    {MM2_KIND_EXPORT, "an export", "export"},
    {MM2_KIND_PLAN, "a plan", "plan"},
    {MM2_KIND_BACKUP, "a backup of a connector's offsets", "apply"},
    {MM2_KIND_VERIFY, "a verify report", "verify"},
    {MM2_KIND_CHECK, "a check report", "check"},
    {MM2_KIND_PREFLIGHT, "a preflight report", "preflight"},
};

static size_t kind_index(const char *kind)
{
    for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
        if (strcmp(kinds[i].kind, kind) == 0)
            return i;
    return SIZE_MAX;
}

/* The family of a kind: "mm2kit.plan/" of "mm2kit.plan/v1", its length (0 without a '/'). */
static size_t family_len(const char *kind)
{
    const char *slash = strrchr(kind, '/');

    return slash != NULL ? (size_t)(slash - kind) + 1 : 0;
}

/* "is a backup ... (kind ...), not a plan: give ..." for a known kind of the wrong family, or of
 * the right family in another version, or an unknown one. */
static enum mm2_status wrong_kind(const char *what, const char *got, const char *want,
                                  struct mm2_error *err)
{
    size_t w = kind_index(want);
    size_t g = kind_index(got);
    size_t wf = family_len(want);
    const char *wnoun = w != SIZE_MAX ? kinds[w].noun : what;
    const char *writer = w != SIZE_MAX ? kinds[w].writer : what;

    if (wf > 0 && strncmp(got, want, wf) == 0)
        return mm2_error_set(err, MM2_CONFIG,
                             "this is %s of another format version (kind \"%.40s\"); this "
                             "mm2-offsets reads \"%s\": use the mm2-offsets that wrote it",
                             wnoun, got, want);
    if (g != SIZE_MAX)
        return mm2_error_set(err, MM2_CONFIG,
                             "this is %s (kind \"%s\"), not %s: give the %s that 'mm2-offsets "
                             "%s' wrote",
                             kinds[g].noun, got, wnoun, what, writer);
    return mm2_error_set(err, MM2_CONFIG,
                         "kind \"%.60s\" is no mm2-offsets artifact kind, and not \"%s\": give "
                         "the %s that 'mm2-offsets %s' wrote",
                         got, want, what, writer);
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
    /* What mm2-offsets writes, it must read back: never an artifact above the readers' caps. */
    if (strlen(text) > (size_t)MM2_ARTIFACT_MAX || mm2_json_nodes(tree) > MM2_JSON_VALUES_MAX) {
        st = mm2_error_set(err, MM2_CONFIG,
                           "the %s would be %zu bytes holding %zu JSON values, above the caps "
                           "of %ld and %ld (" MM2_LIMITS_WHY
                           "); narrow the connector's topics and migrate them in parts",
                           what, strlen(text), mm2_json_nodes(tree), MM2_ARTIFACT_MAX,
                           MM2_JSON_VALUES_MAX);
        free(text);
        return st;
    }
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
        return wrong_kind(what, k->valuestring, kind, err);
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

/* ---- an artifact written in pieces ------------------------------------------------------- */

static int out_put(void *arg, const char *pretty, size_t plen, const char *compact, size_t clen)
{
    struct mm2_artifact_out *o = arg;

    o->bytes += plen;
    if (mm2_file_out_put(&o->file, pretty, plen) != 0)
        return -1;
    if (o->sealed) /* the digest member and what follows it are not digested */
        return 0;
    return mm2_digest_update(&o->md, compact, clen);
}

enum mm2_status mm2_artifact_out_open(struct mm2_artifact_out *o, const char *what,
                                      const char *path, struct mm2_error *err)
{
    enum mm2_status st;

    memset(o, 0, sizeof(*o));
    o->what = what;
    o->path = path;
    o->js.put = out_put;
    o->js.arg = o;
    st = mm2_file_out_open(what, path, &o->file, err);
    if (st != MM2_OK)
        return st;
    o->open = true;
    if (mm2_digest_begin(&o->md) != 0) {
        mm2_artifact_out_abort(o);
        return mm2_error_set(err, MM2_UNEXPECTED, "SHA-256 failed (OpenSSL)");
    }
    mm2_json_stream_begin(&o->js);
    return MM2_OK;
}

void mm2_artifact_out_abort(struct mm2_artifact_out *o)
{
    if (!o->open)
        return;
    mm2_file_out_abort(&o->file);
    mm2_digest_abort(&o->md);
    o->open = false;
}

/* The digest of what was streamed: its compact text closed by the root's '}'. */
static enum mm2_status out_seal(struct mm2_artifact_out *o, char digest[MM2_DIGEST_TEXT_LEN + 1],
                                struct mm2_error *err)
{
    cJSON *d;

    if (o->js.bad || o->js.in_array)
        return o->file.err != 0
                   ? mm2_error_set(err, MM2_CONFIG, "cannot write %s file %s: %s", o->what, o->path,
                                   strerror(o->file.err))
                   : mm2_error_set(err, MM2_UNEXPECTED,
                                   "cannot print the %s: out of memory or a number that is not "
                                   "an exact integer",
                                   o->what);
    o->sealed = true;
    if (mm2_digest_update(&o->md, "}", 1) != 0 || mm2_digest_end(&o->md, digest) != 0)
        return mm2_error_set(err, MM2_UNEXPECTED, "SHA-256 failed (OpenSSL)");
    d = cJSON_CreateString(digest);
    if (d == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    mm2_json_stream_member(&o->js, "digest", d);
    cJSON_Delete(d);
    mm2_json_stream_end(&o->js);
    if (o->js.bad)
        return mm2_error_set(err, MM2_CONFIG, "cannot write %s file %s: %s", o->what, o->path,
                             strerror(o->file.err != 0 ? o->file.err : EIO));
    return MM2_OK;
}

enum mm2_status mm2_artifact_out_close(struct mm2_artifact_out *o,
                                       char digest[MM2_DIGEST_TEXT_LEN + 1], struct mm2_error *err)
{
    enum mm2_status st;

    digest[0] = '\0';
    if (!o->open)
        return mm2_error_set(err, MM2_UNEXPECTED, "the %s was not opened", o->what);
    st = out_seal(o, digest, err);
    /* What mm2-offsets writes, it must read back: never an artifact above the readers' caps. */
    if (st == MM2_OK && (o->bytes > (size_t)MM2_ARTIFACT_MAX || o->js.values > MM2_JSON_VALUES_MAX))
        st = mm2_error_set(err, MM2_CONFIG,
                           "the %s would be %zu bytes holding %zu JSON values, above the caps "
                           "of %ld and %ld (" MM2_LIMITS_WHY
                           "); narrow the connector's topics and migrate them in parts",
                           o->what, o->bytes, o->js.values, MM2_ARTIFACT_MAX, MM2_JSON_VALUES_MAX);
    if (st != MM2_OK) {
        digest[0] = '\0';
        mm2_artifact_out_abort(o);
        return st;
    }
    o->open = false;
    mm2_digest_abort(&o->md);
    return mm2_file_out_commit(o->what, o->path, &o->file, err);
}
