/* connect_status: strict reading of GET /connectors?expand=status (see connect_status.h). */
#include "connect_status.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm2_json.h"

#define NAME_SHOW 120

/* One entry of the map: {"status": ConnectorStateInfo}, read with its name. */
static enum mm2_status read_connector(const cJSON *item, struct mm2_cstate_info *c,
                                      struct mm2_error *err)
{
    char where[NAME_SHOW + 16];
    const cJSON *status;

    (void)snprintf(where, sizeof(where), "\"%.*s\"", NAME_SHOW, item->string);
    status = mm2_json_get(item, "status", MM2_JSON_OBJECT, where, err);
    if (status == NULL)
        return MM2_UNEXPECTED;
    (void)snprintf(where, sizeof(where), "\"%.*s\".status", NAME_SHOW, item->string);
    return mm2_cstate_read(status, where, item->string, c, err);
}

static int by_name(const void *a, const void *b)
{
    const struct mm2_cstate_info *x = a;
    const struct mm2_cstate_info *y = b;

    return strcmp(x->name, y->name);
}

enum mm2_status connect_status_parse(const char *body, size_t len, struct connect_status **out,
                                     struct mm2_error *err)
{
    struct connect_status *s;
    cJSON *root;
    const cJSON *item;
    size_t n = 0;
    enum mm2_status st = MM2_OK;

    root = cJSON_ParseWithLength(body, len);
    if (root == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "the body is not JSON");
    if (!cJSON_IsObject(root)) {
        cJSON_Delete(root);
        return mm2_error_set(err, MM2_UNEXPECTED,
                             "the body is not a JSON object of connector name to status");
    }
    cJSON_ArrayForEach(item, root)
    {
        if (++n > CONNECT_STATUS_MAX) {
            cJSON_Delete(root);
            return mm2_error_set(err, MM2_UNEXPECTED, "more than %d connectors",
                                 CONNECT_STATUS_MAX);
        }
    }
    s = calloc(1, sizeof(*s));
    if (s == NULL || (n > 0 && (s->connectors = calloc(n, sizeof(*s->connectors))) == NULL)) {
        free(s);
        cJSON_Delete(root);
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory");
    }
    s->tree = root;
    cJSON_ArrayForEach(item, root)
    {
        /* Counted first, so the connector is freed with s even when it is only half read. */
        st = read_connector(item, &s->connectors[s->n++], err);
        if (st != MM2_OK)
            break;
    }
    if (st == MM2_OK && s->n > 1) {
        qsort(s->connectors, s->n, sizeof(*s->connectors), by_name);
        for (size_t i = 1; i < s->n && st == MM2_OK; i++)
            if (strcmp(s->connectors[i - 1].name, s->connectors[i].name) == 0)
                st = mm2_error_set(err, MM2_UNEXPECTED, "connector \"%.*s\" appears twice",
                                   NAME_SHOW, s->connectors[i].name);
    }
    if (st != MM2_OK) {
        connect_status_free(s);
        return st;
    }
    *out = s;
    return MM2_OK;
}

void connect_status_free(struct connect_status *s)
{
    if (s == NULL)
        return;
    for (size_t i = 0; i < s->n; i++)
        mm2_cstate_info_free(&s->connectors[i]);
    free(s->connectors);
    cJSON_Delete(s->tree);
    free(s);
}

const struct mm2_cstate_info *connect_status_find(const struct connect_status *s, const char *name)
{
    struct mm2_cstate_info key = {.name = name};

    if (s->n == 0)
        return NULL;
    return bsearch(&key, s->connectors, s->n, sizeof(*s->connectors), by_name);
}
