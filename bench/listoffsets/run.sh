#!/usr/bin/env bash
# bench/listoffsets: the client CPU of librdkafka's rd_kafka_offsets_for_times (the ListOffsets
# call mm2-offsets' export makes for log starts, ends and last stable offsets) at 2,500, 10,000
# and 50,000 partitions, one call for all beside calls of 2,500, 1,000 and 250 partitions,
# against librdkafka's in-process mock cluster (listoffsets.c says why that is fair for this
# figure). No Kafka, no lock needed.
#   bench/listoffsets/run.sh [PARTITIONS_PER_TOPIC]      (default 250)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
parts=${1:-250}
bin=$root/build/bench/listoffsets
mkdir -p "$(dirname "$bin")"
# The librdkafka mm2-offsets links (scripts/librdkafka.sh builds it once).
"$root/scripts/librdkafka.sh"
export PKG_CONFIG_PATH
PKG_CONFIG_PATH=$("$root/scripts/librdkafka.sh" --prefix)/lib/pkgconfig
# Asked first and alone, so that a pkg-config failure stops the script (set -e) instead of
# leaving the compiler with no flags.
flags_line=$(pkg-config --cflags --libs rdkafka-static | sed 's/-I/-isystem/g')
read -ra flags <<<"$flags_line"
cc -std=c11 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror -o "$bin" "$here/listoffsets.c" "${flags[@]}"

echo "bench/listoffsets: rd_kafka_offsets_for_times, librdkafka $(pkg-config --modversion rdkafka-static), $parts partitions a topic,"
echo "best of 3 rounds (of 1 at 50,000: one call there takes a minute); CPU is this process's, client and mock broker"
echo
printf '| %10s | %-14s | %5s | %9s | %8s | %s |\n' partitions calls "" "wall ms" "CPU ms" "CPU vs one call"
echo "|------------|----------------|-------|-----------|----------|-----------------|"
for total in 2500 10000 50000; do
  one=
  while read -r n chunk calls wall cpu; do
    [ -n "$one" ] || one=$cpu
    label=$([ "$chunk" = 0 ] && echo "one call" || echo "chunks of $chunk")
    ratio=$(awk -v a="$cpu" -v b="$one" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
    printf '| %10s | %-14s | %5s | %9s | %8s | %15s |\n' "$n" "$label" "$calls" "$wall" "$cpu" "$ratio"
  done < <("$bin" $((total / parts)) "$parts" $((total < 50000 ? 3 : 1)) 0 2500 1000 250)
done
echo
echo "One call grows as the square of the partitions (the library matches each answer to its request"
echo "list by a linear search: rd_kafka_topic_partition_list_find); fixed-size chunks grow linearly,"
echo "at one ListOffsets request per chunk and leader instead of one per leader."
