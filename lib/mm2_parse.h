/* mm2_parse: strict parsing of numbers, ports, durations, Kafka bootstrap
 * lists and topic names.  Nothing here uses atoi/sscanf: numbers go through
 * strtol with errno, end pointer and range checks, and any leading space,
 * '+' sign, trailing text or empty string is an error.  Functions return 0 /
 * -1 (or true/false for the *_valid checks) and never print; the *_valid
 * checks write a short reason naming the bad part into `why`.
 */
#ifndef MM2_PARSE_H
#define MM2_PARSE_H

#include <stdbool.h>
#include <stddef.h>

/* Decimal integer in [min, max]: optional '-', then digits only. */
int mm2_parse_long(const char *s, long min, long max, long *out);

/* TCP port 1..65535. */
int mm2_parse_port(const char *s, int *out);

/* Seconds as "5", "0.25" or "1.5" (at most 3 decimals, > 0, <= 86400) into
 * milliseconds.  ".5" and "1." are refused. */
int mm2_parse_seconds(const char *s, long *out_ms);

/* A Kafka bootstrap list: host:port[,host:port...], host a DNS name, an
 * IPv4 address or a bracketed IPv6 address; port 1..65535; at most 4096
 * characters; no empty entries. */
bool mm2_hostport_list_valid(const char *s, char *why, size_t whylen);

/* Kafka's Topic.validate: 1..249 characters of [a-zA-Z0-9._-], not "." or "..". */
bool mm2_topic_valid(const char *s, char *why, size_t whylen);

#endif
