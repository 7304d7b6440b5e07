/* privs: the drop to 10001:10001 with no capabilities (see privs.h). */
#include "privs.h"

#include <errno.h>
#include <grp.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <unistd.h>

enum mm2_status privs_drop(uid_t uid, gid_t gid, bool *was_root, struct mm2_error *err)
{
    cap_t none;
    int rc, e;

    *was_root = geteuid() == 0;
    if (*was_root) {
        /* The bounding set can only shrink while CAP_SETPCAP is held. */
        for (cap_value_t c = 0; c <= CAP_LAST_CAP; c++)
            if (cap_drop_bound(c) != 0 && errno != EINVAL)
                return mm2_error_set(err, MM2_CONFIG,
                                     "unable to drop capability %d from the bounding set: %s",
                                     (int)c, strerror(errno));
        if (setgroups(1, &gid) != 0)
            return mm2_error_set(err, MM2_CONFIG, "unable to set groups to %u: %s", (unsigned)gid,
                                 strerror(errno));
        if (setresgid(gid, gid, gid) != 0)
            return mm2_error_set(err, MM2_CONFIG, "unable to set gid %u: %s", (unsigned)gid,
                                 strerror(errno));
        if (setresuid(uid, uid, uid) != 0)
            return mm2_error_set(err, MM2_CONFIG, "unable to set uid %u: %s", (unsigned)uid,
                                 strerror(errno));
        /* Proof, not hope: root must be out of reach now. */
        if (setuid(0) == 0)
            return mm2_error_set(err, MM2_CONFIG, "still able to regain root after dropping to %u",
                                 (unsigned)uid);
    }
    none = cap_init();
    if (none == NULL)
        return mm2_error_set(err, MM2_CONFIG, "unable to allocate a capability set: %s",
                             strerror(errno));
    rc = cap_set_proc(none);
    e = errno;
    cap_free(none);
    if (rc != 0)
        return mm2_error_set(err, MM2_CONFIG, "unable to clear capabilities: %s", strerror(e));
    if (CAP_AMBIENT_SUPPORTED() && cap_reset_ambient() != 0)
        return mm2_error_set(err, MM2_CONFIG, "unable to clear ambient capabilities: %s",
                             strerror(errno));
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        return mm2_error_set(err, MM2_CONFIG, "unable to set no_new_privs: %s", strerror(errno));
    return MM2_OK;
}
