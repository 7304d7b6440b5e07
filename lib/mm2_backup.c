/* mm2_backup: the backup of a connector's offsets (see mm2_backup.h). */
#include "mm2_backup.h"

#include "mm2_artifact.h"
#include "mm2_binding.h"
#include "mm2_pj.h"

enum mm2_status mm2_backup_build(const struct mm2_plan *plan, const struct mm2_source_offsets *o,
                                 const char *tool, const char *created, cJSON **out,
                                 struct mm2_error *err)
{
    struct mm2_pj b = {.root = cJSON_CreateObject()};
    struct mm2_binding m;
    cJSON *arr;

    *out = NULL;
    mm2_pj_str(&b, b.root, "kind", MM2_KIND_BACKUP);
    mm2_pj_str(&b, b.root, "tool", tool);
    mm2_pj_str(&b, b.root, "created", created);
    mm2_pj_str(&b, b.root, "plan_digest", plan->digest);
    mm2_binding_of_plan(plan, &m);
    if (!b.oom && mm2_binding_add_json(b.root, &m, err) != MM2_OK)
        b.oom = true;
    arr = mm2_pj_arr(&b, b.root, "offsets");
    for (size_t i = 0; i < o->n && !b.oom; i++) {
        cJSON *e = mm2_pj_item(&b, arr);
        mm2_pj_str(&b, e, "cluster", o->v[i].cluster);
        mm2_pj_str(&b, e, "topic", o->v[i].topic);
        mm2_pj_int(&b, e, "partition", o->v[i].partition);
        mm2_pj_int(&b, e, "offset", o->v[i].offset);
    }
    if (b.oom || b.root == NULL) {
        cJSON_Delete(b.root);
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory building the backup");
    }
    *out = b.root;
    return MM2_OK;
}
