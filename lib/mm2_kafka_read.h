/*
 * mm2_kafka_read: the bounded read of one partition and the records it returns, internal part:
 * how a librdkafka message becomes a record of a list, which mm2_kafka_many.c's read uses too
 * (callers use mm2_kafka.h: mm2_kafka_read, mm2_record_list_free, mm2_record_cost). Above
 * mm2_kafka_handle.c and mm2_kafka_cluster.c, which it calls; mm2_kafka_many.c calls it
 * (mm2_kafka_handle.h has the order of the files).
 *
 * Contract: never prints, never exits. A record list owns every byte of its records (key,
 * value, headers: copies, never librdkafka's memory), whatever a call returned: the caller frees
 * it with mm2_record_list_free, which accepts a list a failed copy left partly filled.
 */
#ifndef MM2_KAFKA_READ_H
#define MM2_KAFKA_READ_H

#include <librdkafka/rdkafka.h>
#include <stdbool.h>
#include <stddef.h>

#include "mm2_kafka.h"

/* Appends a copy of m (key, value, headers, timestamp) to out, growing it (*cap entries, doubled
 * from 4: many lists hold a few records each) up to max entries; false when out of memory (what
 * was copied stays in out, to be freed with it). */
bool mm2_kafka_read_record_append(struct mm2_record_list *out, size_t *cap, size_t max,
                                  const rd_kafka_message_t *m);
/* Drops and frees the last record of l (the one mm2_kafka_read_record_append just added). */
void mm2_kafka_read_record_pop(struct mm2_record_list *l);

#endif
