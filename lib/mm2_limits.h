/*
 * mm2_limits: the caps on everything mm2-offsets reads, in one place. The offset Job runs with a
 * 256 MiB memory limit (k8s/base/offsets); an input above a cap is refused before it is read or
 * parsed, with one line, rather than killed by the kernel half-way (exit 137, no message).
 *
 * How they were set (docs/mm2-offsets.1, LIMITS; bench/limits measures them): a real export of
 * 50,000 partitions, with each target's tail placed against the source around C (the boundary
 * evidence), is 28.7 MB of JSON holding 1,451,424 values, its plan 17.1 MB and 751,226 values,
 * and Connect's offsets answer for them 6.7 MB and 350,002 values (topic names of 35
 * characters, 10-digit offsets). Once parsed, cJSON takes about 110 bytes of memory per value (a
 * 64-byte node, its key and its string), so the memory a JSON input takes follows its values
 * more than its bytes: both are capped. At 50,000 partitions plan peaks at 189 MiB and verify at
 * 113 MiB, under the Job's 256 MiB; the values' cap lets through some 51,700 partitions of that
 * shape, and beyond the caps an artifact would not fit it.
 */
#ifndef MM2_LIMITS_H
#define MM2_LIMITS_H

#define MM2_JOB_MEMORY_MIB 256 /* the offset Job's memory limit */
#define MM2_LIMITS_STR_(x) #x
#define MM2_LIMITS_STR(x) MM2_LIMITS_STR_(x)
/* Why, in every message about a cap. */
#define MM2_LIMITS_WHY                                                                             \
    "the cap that keeps the offset Job within its " MM2_LIMITS_STR(                                \
        MM2_JOB_MEMORY_MIB) " MiB; LIMITS in mm2-offsets(1)"

/* The INI file: a few dozen lines of at most 198 characters each. */
#define MM2_CONFIG_FILE_MAX (256L * 1024L)
/* The connector JSON: a MirrorSourceConnector config is about 2 KB. */
#define MM2_CONNECTOR_FILE_MAX (1024L * 1024L)
/* An artifact (export, plan, backup, report): 1.17 times a 50,000-partition export. */
#define MM2_ARTIFACT_MAX (32L * 1024L * 1024L)
/* The values of any JSON input (files and Connect's answers), counted before cJSON parses it:
 * 1.03 times a 50,000-partition export, and what keeps a dense input (2 bytes per value) from
 * taking 40 times its size once parsed. */
#define MM2_JSON_VALUES_MAX 1500000L
/* A Connect REST answer: the offsets of 125,000 partitions (at 134 bytes each). */
#define MM2_CONNECT_BODY_MAX (16L * 1024L * 1024L)
/* The Flink REST API's GET /jobs/{id} (export's proof that Flink stopped): a job's details with
 * its vertices, some kilobytes. */
#define MM2_FLINK_BODY_MAX (1024L * 1024L)
/* A Kafka answer (librdkafka's receive.message.max.bytes, metadata included): a
 * MetadataResponse takes 42 to 50 bytes per partition at replication factor 3, so a whole
 * cluster of 330,000 partitions. */
#define MM2_KAFKA_RESPONSE_MAX (16L * 1024L * 1024L)
/* What one fetch may return (librdkafka's fetch.max.bytes, which must stay 512 bytes below
 * receive.message.max.bytes). */
#define MM2_KAFKA_FETCH_MAX (8L * 1024L * 1024L)

#endif
