/*
 * props: a java.util.Properties file read as Properties reads it (comments '#'/'!', key ends at
 * '=', ':' or blank, '\' continues a line), for the files the entrypoint checks before Connect
 * reads them: the worker config (workercfg.h) and the REST credentials file (restauth.h).
 *
 * Contract:
 *   - Never prints, never exits. At most PROPS_MAX_BYTES of text and PROPS_MAX_ENTRIES entries;
 *     escapes other than the line continuation are kept as written.
 *   - props_load mallocs pr->buf, which the entries point into: free(pr->buf) when done.
 */
#ifndef MM2_ENTRYPOINT_PROPS_H
#define MM2_ENTRYPOINT_PROPS_H

#include <stddef.h>

#define PROPS_MAX_BYTES (256 * 1024)
#define PROPS_MAX_ENTRIES 512

struct props_entry {
    const char *key;
    const char *val;
};

struct props {
    char *buf;
    size_t n;
    struct props_entry e[PROPS_MAX_ENTRIES];
};

/* The value of key (the last one given, as in Properties), or NULL. */
const char *props_get(const struct props *pr, const char *key);

/* props_get of prefix followed by key. */
const char *props_get_prefixed(const struct props *pr, const char *prefix, const char *key);

/* Reads path into pr (zeroed by the caller): 0; -1 when it cannot be read (errno says why); -2
 * when it holds more than PROPS_MAX_BYTES or a NUL byte; -3 when it holds more than
 * PROPS_MAX_ENTRIES entries. */
int props_load(struct props *pr, const char *path);

#endif
