/*
 * mm2_parse: strict parsing and validation of numbers, ports, durations, Kafka bootstrap lists
 * and topic names (docs/ARCHITECTURE.md §8: strtol-family with errno, end pointer and range checks;
 * no atoi/sscanf).
 *
 * Contract:
 *   - Nothing allocates. Numeric parsers return 0 and set *out on success, or -1 leaving *out
 *     untouched. Validators return true/false and, on false, write a short reason naming the bad
 *     part into why (whylen bytes, always NUL-terminated, cut when too long; why may be NULL).
 *   - Input is taken literally: no surrounding whitespace, no '+' sign is accepted anywhere.
 */
#ifndef MM2_PARSE_H
#define MM2_PARSE_H

#include <stdbool.h>
#include <stddef.h>

/* Decimal integer in [min, max]: an optional leading '-' then one or more digits, nothing else.
 * Leading zeros are decimal ("08" is 8); "-0" is 0. Rejects NULL, "", spaces, '+', "1e3", and any
 * value outside [min, max] or outside long. */
int mm2_parse_long(const char *s, long min, long max, long *out);

/* TCP port: mm2_parse_long in 1..65535. */
int mm2_parse_port(const char *s, int *out);

/* Positive duration in seconds, as digits with an optional '.' and 1 to 3 decimals ("5", "0.25",
 * "1.5"), into milliseconds. Both sides of a '.' need a digit: "1." and ".5" are rejected. The
 * value must be > 0 and <= 86400 s: "0", "0.000" and "0.0001" (4 decimals) are rejected. */
int mm2_parse_seconds(const char *s, long *out_ms);

/* A list separated by commas: v copied into buf (buflen bytes) and split there, each entry trimmed
 * of spaces and tabs, items[i] pointing into buf. Returns how many (1 to max), or -1 with why set:
 * v empty, an empty entry (",," or a comma at either end), more than max entries, or v not
 * fitting buf. */
long mm2_parse_list(const char *v, char *buf, size_t buflen, char **items, size_t max, char *why,
                    size_t whylen);

#define MM2_HOSTPORT_LIST_MAX 4096

/* Kafka bootstrap.servers list: comma-separated "host:port" entries, no empty entry, at most
 * MM2_HOSTPORT_LIST_MAX characters in total. host is a DNS name (dot-separated labels of
 * [A-Za-z0-9-], none empty, none starting or ending with '-', each <= 63, total <= 253), an IPv4
 * address, or a bracketed IPv6 address ("[::1]:9092"); port is 1..65535. A host of only digits and
 * dots must be a valid IPv4 address ("10.0.0" is rejected, not taken as a DNS name).
 * Example reason: `entry "kafka-1" has no port`. */
bool mm2_parse_hostport_list_valid(const char *s, char *why, size_t whylen);

/* Kafka topic name as org.apache.kafka.common.internals.Topic.validate accepts it: length 1..249,
 * only [a-zA-Z0-9._-], and not "." or "..". */
bool mm2_parse_topic_valid(const char *s, char *why, size_t whylen);

#endif
