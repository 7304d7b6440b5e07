/*
 * mm2_trail: the migration's audit trail as records of a Kafka topic on the target cluster
 * (docs/ARCHITECTURE.md §3.4, the audit trail): every artifact and report a subcommand writes is
 * also appended there, cut into chunks of at most MM2_TRAIL_CHUNK bytes, each chunk a record keyed
 * by the migration (mm2_trail_key) whose headers say which document it belongs to (struct
 * mm2_trail_meta) and which part it is. This file holds what needs no network: the key, the
 * headers written and read back (validated: they come from a topic anyone with Write may fill),
 * the reassembly of documents from the chunks read in order, and what the trail says is missing.
 *
 * Contract:
 *   - Never prints, never exits, never talks to the network (jobs/trail.c does).
 *   - Chunks of one document are appended in order by one producer with one request in flight:
 *     a retried send may repeat a chunk (no idempotence: it would need another ACL), never
 *     reorder two. The reader drops repeats and reports a document whose chunks are not all
 *     there, in order, as incomplete; one whose bytes do not digest to its recorded sha256, or
 *     whose size differs, as corrupt.
 */
#ifndef MM2_TRAIL_H
#define MM2_TRAIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mm2_digest.h"
#include "mm2_kafka.h"
#include "mm2_refusal.h"

/* Half of Kafka's default record limits (the broker's message.max.bytes 1048588, librdkafka's
 * message.max.bytes 1000000): a chunk and its headers fit under either with room to spare. */
#define MM2_TRAIL_CHUNK ((size_t)512 * 1024)
/* The largest document recorded: the artifacts' own cap (MM2_ARTIFACT_MAX, 32 MiB) twice. */
#define MM2_TRAIL_DOC_MAX (64LL * 1024 * 1024)
#define MM2_TRAIL_KIND_MAX 64
#define MM2_TRAIL_COMMAND_MAX 32
#define MM2_TRAIL_FILE_MAX 128
#define MM2_TRAIL_TIME_MAX 32
#define MM2_TRAIL_HEADERS 9

/* What every chunk of one document carries. */
struct mm2_trail_meta {
    char kind[MM2_TRAIL_KIND_MAX];        /* "mm2kit.plan/v1", "mm2kit.rollback-csv/v1" */
    char command[MM2_TRAIL_COMMAND_MAX];  /* the subcommand that wrote it: "export" */
    char file[MM2_TRAIL_FILE_MAX];        /* its file name, no directory: restored under it */
    char time[MM2_TRAIL_TIME_MAX];        /* when, UTC: "2026-12-06T14:02:11Z" */
    char sha256[MM2_DIGEST_TEXT_LEN + 1]; /* of the document's bytes */
    char seal[MM2_DIGEST_TEXT_LEN + 1];   /* the artifact's own digest; "" for a CSV */
    long long size;                       /* its bytes */
    long parts;                           /* its chunks: mm2_trail_parts(size) */
};

/* The headers of one chunk, as mm2_trail_headers fills them (values point into it and m). */
struct mm2_trail_headers {
    struct mm2_kv kv[MM2_TRAIL_HEADERS];
    char part[24], parts[24], size[24];
};

/* The record key of a migration: {"connector":NAME,"flink_group":GROUP}, compact (malloc'd;
 * NULL when out of memory). Every document of the migration has it. */
char *mm2_trail_key(const char *connector, const char *group);

/* How many chunks a document of size bytes is cut into (at least 1: an empty one is one empty
 * chunk). */
long mm2_trail_parts(long long size);

/* True when name may be a restored file's name: 1 to MM2_TRAIL_FILE_MAX - 1 characters of
 * [A-Za-z0-9._-], not starting with '.' (never a path, never hidden). */
bool mm2_trail_file_name_ok(const char *name);

/* Fills m for a document: kind, command, file (a path: its last component is kept, and a name
 * that mm2_trail_file_name_ok refuses becomes "COMMAND.out"), time, the digest of its bytes and
 * its size and parts. -1 when a field is too long or the digest fails. */
int mm2_trail_meta_make(struct mm2_trail_meta *m, const char *kind, const char *command,
                        const char *file, const char *time, const char *seal, const void *bytes,
                        size_t len);

/* The headers of chunk part (0-based) of m's document. */
void mm2_trail_headers(const struct mm2_trail_meta *m, long part, struct mm2_trail_headers *out);

/* Reads m and *part back from a record's headers; false with why set (one clause, e.g.
 * "header mm2kit.part \"x\" is not a number") when one is missing, repeated, too long or
 * inconsistent (parts not those of size, part outside them, a digest not sha256:<hex>, a file
 * name mm2_trail_file_name_ok refuses). Headers of other names are ignored. */
bool mm2_trail_meta_read(const struct mm2_header *h, size_t n, struct mm2_trail_meta *m, long *part,
                         char *why, size_t whylen);

/* ---- reading back ------------------------------------------------------------------------ */

enum mm2_trail_state { MM2_TRAIL_OK, MM2_TRAIL_INCOMPLETE, MM2_TRAIL_CORRUPT };

/* A document read back. */
struct mm2_trail_doc {
    struct mm2_trail_meta m;
    int64_t offset;  /* of its first chunk read */
    long have;       /* chunks read (repeats not counted) */
    long long bytes; /* their bytes */
    enum mm2_trail_state state;
    char got[MM2_DIGEST_TEXT_LEN + 1]; /* what its bytes digest to (OK and CORRUPT) */
};

/* The reassembly of the chunks read in offset order. */
struct mm2_trail_asm {
    bool open;
    bool broken; /* its first chunk was not part 0: it can only end incomplete */
    struct mm2_trail_doc cur;
    long next; /* the part expected next */
    struct mm2_digest_ctx d;
};

/* What one chunk did: whether its bytes belong to the open document (append: a restore writes
 * them), and the documents it ended (at most two: the one it cut short, and its own when it is
 * a document of one chunk). */
struct mm2_trail_event {
    bool append;
    bool first; /* append, and it is part 0: a restore opens a new file */
    struct mm2_trail_doc ended[2];
    bool own[2]; /* ended[i] is the chunk's own document (else one it cut short, ended first) */
    size_t nended;
};

/* Feeds one chunk read at offset. A chunk of the open document's next part is appended; a repeat
 * of one of its earlier parts is dropped; any other ends the open document as incomplete and
 * starts its own (broken, when it is not part 0). */
void mm2_trail_feed(struct mm2_trail_asm *a, const struct mm2_trail_meta *m, long part,
                    const void *value, size_t len, int64_t offset, struct mm2_trail_event *ev);
/* The end of the records: an open document ends incomplete (ev->nended 0 or 1). */
void mm2_trail_finish(struct mm2_trail_asm *a, struct mm2_trail_event *ev);

/* What is wrong with a migration's trail, given its documents in offset order: one refusal per
 * document that is incomplete or corrupt, and one per step that a later step presupposes and
 * that has no complete document before it (a plan with no export before it; apply with no plan;
 * resume with no apply; check and accept with no resume; stop and remove with no apply;
 * rollback-plan with no stop). Returns how many lines it added. */
size_t mm2_trail_missing(const struct mm2_trail_doc *docs, size_t n, struct mm2_refusals *r);

#endif
