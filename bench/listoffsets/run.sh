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
# The librdkafka mm2-offsets links (scripts/librdkafka.sh builds it once), and beside it the newest
# release Debian's archive serves (LIBRDKAFKA_VERSION in scripts/librdkafka.sh), both measured in
# the same run: BENCH_VERSIONS, default "2.8.0 2.14.2".
read -ra versions <<<"${BENCH_VERSIONS:-2.8.0 2.14.2}"
mkdir -p "$root/build/bench"
for v in "${versions[@]}"; do
  LIBRDKAFKA_VERSION=$v "$root/scripts/librdkafka.sh"
  # Asked first and alone, so that a pkg-config failure stops the script (set -e) instead of
  # leaving the compiler with no flags.
  flags_line=$(PKG_CONFIG_PATH=$(LIBRDKAFKA_VERSION=$v "$root/scripts/librdkafka.sh" --prefix)/lib/pkgconfig \
    pkg-config --cflags --libs rdkafka-static | sed 's/-I/-isystem/g')
  read -ra flags <<<"$flags_line"
  cc -std=c11 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror -o "$root/build/bench/listoffsets-$v" "$here/listoffsets.c" "${flags[@]}"
done

echo "bench/listoffsets: rd_kafka_offsets_for_times, librdkafka ${versions[*]} side by side, $parts partitions a topic,"
echo "best of 3 rounds (of 1 at 50,000: one call there takes a minute); CPU is this process's, client and mock broker"
echo
printf '| %10s | %-14s | %5s | %-7s | %9s | %8s | %15s | %15s |\n' partitions calls "" version "wall ms" "CPU ms" "CPU vs one call" "CPU vs ${versions[0]}"
echo "|------------|----------------|-------|---------|-----------|----------|-----------------|-----------------|"
declare -A first
for total in 2500 10000 50000; do
  for v in "${versions[@]}"; do
    one=
    while read -r n chunk calls wall cpu; do
      [ -n "$one" ] || one=$cpu
      [ "$v" != "${versions[0]}" ] || first[$chunk]=$cpu
      label=$([ "$chunk" = 0 ] && echo "one call" || echo "chunks of $chunk")
      ratio=$(awk -v a="$cpu" -v b="$one" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
      vs=$(awk -v a="$cpu" -v b="${first[$chunk]}" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
      printf '| %10s | %-14s | %5s | %-7s | %9s | %8s | %15s | %15s |\n' "$n" "$label" "$calls" "$v" "$wall" "$cpu" "$ratio" "$vs"
    done < <("$root/build/bench/listoffsets-$v" $((total / parts)) "$parts" $((total < 50000 ? 3 : 1)) 0 2500 1000 250)
  done
done
echo
echo "One call grows as the square of the partitions (the library matches each answer to its request"
echo "list by a linear search: rd_kafka_topic_partition_list_find); fixed-size chunks grow linearly,"
echo "at one ListOffsets request per chunk and leader instead of one per leader."
