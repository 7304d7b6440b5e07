/* mm2_file: capped reads and atomic writes of whole files (see mm2_file.h). */
#include "mm2_file.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mm2_limits.h"

#define READ_CHUNK 65536

/* A regular file larger than max is refused from its size, before a byte of it is read: what
 * is read is held whole, and a file of hundreds of MB would be killed by the Job's memory limit
 * instead of refused. */
static enum mm2_status size_ok(int fd, const char *what, const char *path, size_t max,
                               struct mm2_error *err)
{
    struct stat st;

    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (uintmax_t)st.st_size <= (uintmax_t)max)
        return MM2_OK; /* a pipe or a device: the reading loop below stops at max */
    return mm2_error_set(err, MM2_CONFIG,
                         "%s file %s is %jd bytes, above the cap of %zu bytes (" MM2_LIMITS_WHY
                         "); check that it is the right file",
                         what, path, (intmax_t)st.st_size, max);
}

enum mm2_status mm2_file_read(const char *what, const char *path, size_t max, char **out,
                              size_t *len, struct mm2_error *err)
{
    char *buf = NULL;
    size_t n = 0, cap = 0;
    int fd;

    *out = NULL;
    *len = 0;
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return mm2_error_set(err, MM2_CONFIG, "cannot open %s file %s: %s", what, path,
                             strerror(errno));
    if (size_ok(fd, what, path, max, err) != MM2_OK) {
        close(fd);
        return MM2_CONFIG;
    }
    for (;;) {
        ssize_t r;
        if (n + READ_CHUNK + 1 > cap) {
            size_t ncap = cap == 0 ? READ_CHUNK + 1 : cap * 2;
            /* At most max + one chunk: enough to see that a file is too large. Clamped first so
             * a max near SIZE_MAX cannot wrap. */
            size_t limit = max > SIZE_MAX - READ_CHUNK - 1 ? SIZE_MAX : max + READ_CHUNK + 1;
            char *p;
            if (ncap > limit || ncap < cap)
                ncap = limit;
            p = realloc(buf, ncap);
            if (p == NULL) {
                free(buf);
                close(fd);
                return mm2_error_set(err, MM2_UNEXPECTED, "out of memory reading %s", path);
            }
            buf = p;
            cap = ncap;
        }
        r = read(fd, buf + n, cap - n - 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            int e = errno;
            free(buf);
            close(fd);
            return mm2_error_set(err, MM2_CONFIG, "cannot read %s file %s: %s", what, path,
                                 strerror(e));
        }
        if (r == 0)
            break;
        n += (size_t)r;
        if (n > max) {
            free(buf);
            close(fd);
            return mm2_error_set(err, MM2_CONFIG,
                                 "%s file %s is larger than the cap of %zu bytes (" MM2_LIMITS_WHY
                                 "); check that it is the right file",
                                 what, path, max);
        }
    }
    close(fd);
    if (buf == NULL) {
        buf = malloc(1);
        if (buf == NULL)
            return mm2_error_set(err, MM2_UNEXPECTED, "out of memory reading %s", path);
    }
    buf[n] = '\0';
    if (memchr(buf, '\0', n) != NULL) {
        free(buf);
        return mm2_error_set(err, MM2_CONFIG, "%s file %s holds a NUL byte; it is not text", what,
                             path);
    }
    *out = buf;
    *len = n;
    return MM2_OK;
}

/* fsync of the directory holding path, so the rename itself is durable. */
static int sync_dir(const char *path)
{
    char dir[4096];
    const char *slash = strrchr(path, '/');
    int fd, rc;

    if (slash == NULL)
        (void)snprintf(dir, sizeof(dir), ".");
    else if (slash == path)
        (void)snprintf(dir, sizeof(dir), "/");
    else
        (void)snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
    fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    rc = fsync(fd);
    close(fd);
    return rc;
}

enum mm2_status mm2_file_out_open(const char *what, const char *path, struct mm2_file_out *o,
                                  struct mm2_error *err)
{
    int n = snprintf(o->tmp, sizeof(o->tmp), "%s.tmp.XXXXXX", path);

    o->fd = -1;
    o->err = 0;
    o->used = 0;
    if (n < 0 || (size_t)n >= sizeof(o->tmp))
        return mm2_error_set(err, MM2_CONFIG, "%s file path is too long: %.200s...", what, path);
    /* mkstemp: O_EXCL with a random name, never a link someone left in the way. */
    o->fd = mkstemp(o->tmp);
    if (o->fd < 0)
        return mm2_error_set(err, MM2_CONFIG, "cannot write %s file %s: %s", what, path,
                             strerror(errno));
    if (fchmod(o->fd, 0644) != 0)
        o->err = errno;
    return MM2_OK;
}

/* The buffer's bytes to the file; 0, or -1 with o->err set. */
static int out_flush(struct mm2_file_out *o)
{
    size_t off = 0;

    while (o->err == 0 && off < o->used) {
        ssize_t w = write(o->fd, o->buf + off, o->used - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            o->err = w == 0 ? EIO : errno;
        else
            off += (size_t)w;
    }
    o->used = 0;
    return o->err == 0 ? 0 : -1;
}

int mm2_file_out_put(struct mm2_file_out *o, const void *data, size_t len)
{
    const char *p = data;

    while (o->err == 0 && len > 0) {
        size_t n = sizeof(o->buf) - o->used < len ? sizeof(o->buf) - o->used : len;
        memcpy(o->buf + o->used, p, n);
        o->used += n;
        p += n;
        len -= n;
        if (o->used == sizeof(o->buf))
            (void)out_flush(o);
    }
    return o->err == 0 ? 0 : -1;
}

void mm2_file_out_abort(struct mm2_file_out *o)
{
    if (o->fd < 0)
        return;
    close(o->fd);
    unlink(o->tmp);
    o->fd = -1;
}

enum mm2_status mm2_file_out_commit(const char *what, const char *path, struct mm2_file_out *o,
                                    struct mm2_error *err)
{
    int e;

    /* The artifact is the audit record of a cutover: it must be on disk before we go on. */
    if (out_flush(o) != 0 || fsync(o->fd) != 0)
        goto fail;
    e = close(o->fd);
    o->fd = -1;
    if (e != 0 || rename(o->tmp, path) != 0)
        goto fail;
    if (sync_dir(path) != 0)
        return mm2_error_set(err, MM2_CONFIG, "cannot sync the directory of %s file %s: %s", what,
                             path, strerror(errno));
    return MM2_OK;
fail:
    e = o->err != 0 ? o->err : errno;
    if (o->fd >= 0)
        close(o->fd);
    o->fd = -1;
    unlink(o->tmp);
    return mm2_error_set(err, MM2_CONFIG, "cannot write %s file %s: %s", what, path, strerror(e));
}

enum mm2_status mm2_file_write(const char *what, const char *path, const char *data, size_t len,
                               struct mm2_error *err)
{
    struct mm2_file_out *o = malloc(sizeof(*o));
    enum mm2_status st;

    if (o == NULL)
        return mm2_error_set(err, MM2_UNEXPECTED, "out of memory writing %s file %s", what, path);
    st = mm2_file_out_open(what, path, o, err);
    if (st == MM2_OK) {
        (void)mm2_file_out_put(o, data, len);
        st = mm2_file_out_commit(what, path, o, err);
    }
    free(o);
    return st;
}

char *mm2_file_beside(const char *path, const char *file)
{
    const char *slash = strrchr(path, '/');
    size_t dl, fl;
    char *out;

    if (file[0] == '/' || slash == NULL)
        return strdup(file);
    dl = (size_t)(slash - path) + 1;
    fl = strlen(file);
    out = malloc(dl + fl + 1);
    if (out == NULL)
        return NULL;
    memcpy(out, path, dl);
    memcpy(out + dl, file, fl + 1);
    return out;
}
