/*
 * mm2_limits: the caps on everything mm2-offsets reads, in one place. The offset Job runs with a
 * 256 MiB memory limit (k8s/base/offsets); an input above a cap is refused before it is read or
 * parsed, with one line, rather than killed by the kernel half-way (exit 137, no message).
 *
 * How they were set (docs/mm2-offsets.1, LIMITS): from a real-shaped export of 50,000 partitions
 * with its boundary evidence, its plan and Connect's offsets answer for them, whose bytes, JSON
 * values and the peak memory of plan and verify bench/limits measures (the figures are in
 * bench/README.md, "limits"). Once parsed, cJSON takes some 110 bytes of memory per value (a
 * 64-byte node, its key and its string), so the memory a JSON input takes follows its values
 * more than its bytes: both are capped, each a little above what 50,000 partitions need and
 * below what would not fit the Job.
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
/* An artifact (export, plan, backup, report): a 50,000-partition export with its evidence, and
 * some room (bench/README.md, "limits"). */
#define MM2_ARTIFACT_MAX (32L * 1024L * 1024L)
/* The values of any JSON input (files and Connect's answers), counted before cJSON parses it:
 * just above a 50,000-partition export's (bench/README.md, "limits"), and what keeps a dense
 * input (2 bytes per value) from taking 40 times its size once parsed. */
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
