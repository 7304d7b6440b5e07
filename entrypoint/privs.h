/*
 * privs: the entrypoint's last step before exec (docs/ARCHITECTURE.md §3.2). Started as root, it
 * becomes 10001:10001 with no supplementary groups; in every case it clears all capability sets
 * (effective, permitted, inheritable, ambient, and the bounding set where it may) and sets
 * no_new_privs, so neither the JVM nor anything it runs can gain more.
 *
 * Contract:
 *   - Never prints, never exits. A step that cannot be taken is MM2_CONFIG naming the step; the
 *     steps before it stay taken, so the caller exits then, it does not exec.
 *   - It proves the drop: after the uid change, regaining root must fail, or that is an error.
 */
#ifndef MM2_ENTRYPOINT_PRIVS_H
#define MM2_ENTRYPOINT_PRIVS_H

#include <stdbool.h>
#include <sys/types.h>

#include "mm2_err.h"

/* Returns MM2_OK, or MM2_CONFIG with err saying which step failed. *was_root tells whether a
 * uid/gid change happened. */
enum mm2_status privs_drop(uid_t uid, gid_t gid, bool *was_root, struct mm2_error *err);

#endif
