/*
 * mm2_backup: the backup of a connector's offsets that apply writes before it PATCHes the plan
 * over them (docs/ARCHITECTURE.md §2.1, §3.4): the kind (mm2kit.backup/v2), the tool, when, the
 * plan's digest, the plan's migration (mm2_binding_add_json) and every offset as Connect listed
 * it.
 *
 * Contract:
 *   - Never prints, never touches a file or the network; the caller seals and writes the tree
 *     (mm2_artifact_write) and owns it.
 *   - Every member or none: an allocation failure anywhere is MM2_UNEXPECTED "out of memory
 *     building the backup" and *out stays NULL, never a tree with members missing that would be
 *     sealed as if whole.
 */
#ifndef MM2_BACKUP_H
#define MM2_BACKUP_H

#include <cjson/cJSON.h>

#include "mm2_connect.h"
#include "mm2_err.h"
#include "mm2_plan.h"

/* The backup of o, the offsets of plan's connector, made by tool ("mm2-offsets 0.1.0") at
 * created (UTC, "2026-12-02T15:30:04Z"). */
enum mm2_status mm2_backup_build(const struct mm2_plan *plan, const struct mm2_source_offsets *o,
                                 const char *tool, const char *created, cJSON **out,
                                 struct mm2_error *err);

#endif
