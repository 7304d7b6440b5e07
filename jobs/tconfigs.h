/*
 * tconfigs: the target topics' configs that export records and accept compares
 * (mm2_export_config_keys), read with the [target] login. Calls job.c only (job.h has the order
 * of jobs/).
 *
 * Contract: out[i] is a new {"key": "value"} object for topics[i] holding each key the login may
 * DescribeConfigs and the broker answered, or NULL when the login may not (denied) or the topic
 * does not exist; the caller frees each with cJSON_Delete. Errors are mm2_kafka's.
 */
#ifndef JOBS_TCONFIGS_H
#define JOBS_TCONFIGS_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "job.h"

/* One DescribeConfigs request per key (MM2_EXPORT_CONFIG_KEYS) for the n distinct topics. */
enum mm2_status job_topic_configs(struct job *j, const char *const *topics, size_t n, cJSON **out,
                                  struct mm2_error *err);

#endif
