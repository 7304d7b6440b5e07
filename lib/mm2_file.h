/*
 * mm2_file: reading a whole input file within a cap, and writing an artifact atomically, for
 * mm2-offsets and the entrypoint (docs/ARCHITECTURE.md §7: every input has a cap, checked
 * before it is read).
 *
 * Contract: never prints, never exits. Errors are MM2_CONFIG naming the file's role and path.
 * Returned buffers are malloc'd; the caller frees them.
 */
#ifndef MM2_FILE_H
#define MM2_FILE_H

#include <stddef.h>

#include "mm2_err.h"

/* Reads the whole file at path into a malloc'd NUL-terminated buffer (*out, *len without the
 * NUL). A file larger than max bytes, one that cannot be opened or read, or one holding a NUL
 * byte is MM2_CONFIG with a message naming the path ("what" names the file's role, e.g. "plan").
 * A regular file's size is checked before anything is read (fstat); a pipe's as it is read. */
enum mm2_status mm2_file_read(const char *what, const char *path, size_t max, char **out,
                              size_t *len, struct mm2_error *err);

/* Writes data to path atomically: a temporary file in the same directory, fsync, rename. The
 * file gets mode 0644 (artifacts hold no secret). MM2_CONFIG when the directory is not writable. */
enum mm2_status mm2_file_write(const char *what, const char *path, const char *data, size_t len,
                               struct mm2_error *err);

/* The same written in pieces, for an artifact too large to hold whole (mm2_artifact_out):
 * open makes the temporary file; put buffers and writes (0, or -1 once a write failed: the error
 * is kept for commit, and later puts do nothing); commit flushes, fsyncs and renames it into place
 * (MM2_CONFIG naming the first error); abort removes it. commit and abort each close it once. */
struct mm2_file_out {
    int fd;
    int err; /* the first write error (an errno), or 0 */
    size_t used;
    char buf[65536];
    char tmp[4096];
};
enum mm2_status mm2_file_out_open(const char *what, const char *path, struct mm2_file_out *o,
                                  struct mm2_error *err);
int mm2_file_out_put(struct mm2_file_out *o, const void *data, size_t len);
enum mm2_status mm2_file_out_commit(const char *what, const char *path, struct mm2_file_out *o,
                                    struct mm2_error *err);
void mm2_file_out_abort(struct mm2_file_out *o);

/* file as seen from the directory of path (an INI naming its connector JSON or a CA): file
 * itself when absolute or when path has no directory, else that directory + "/" + file.
 * malloc'd; NULL when out of memory. */
char *mm2_file_beside(const char *path, const char *file);

#endif
