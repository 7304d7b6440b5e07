#!/usr/bin/env bash
# bench/tail: export's boundary read (mm2_tail_classify) on librdkafka's in-process mock
# cluster, seeded as bench/offsets seeds its bed (4 source records a partition, the target the
# first 2, C = 2): the call as export makes it (all partitions in one call, within its 64 MiB
# memory cap) beside the same partitions in calls of 512, the read's chunks before it took them
# all (tail.c says why that comparison is fair). No Kafka, no lock needed; the mock broker shares
# this process's cores, so the wall times are the client's waits more than a broker's.
#   bench/tail/run.sh [TOPICS [PARTITIONS]]      (default 40 x 250 = 10,000; also 4 x PARTITIONS)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
topics=${1:-40}
parts=${2:-250}
bin=$root/build/bench/tail
# The library and make's own pkg-config answers (build/pkg: asked once librdkafka is built).
make -C "$root" --no-print-directory build/libmm2kit.a build/pkg/cflags >/dev/null
export PKG_CONFIG_PATH
PKG_CONFIG_PATH=$("$root/scripts/librdkafka.sh" --prefix)/lib/pkgconfig
mkdir -p "$(dirname "$bin")"
flags_line=$(sed 's/-I/-isystem/g' "$root/build/pkg/cflags" "$root/build/pkg/libs" | tr '\n' ' ')
read -ra flags <<<"$flags_line"
cc -std=c11 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror -I"$root/lib" -o "$bin" "$here/tail.c" \
  "$root/build/libmm2kit.a" "${flags[@]}"

echo "bench/tail: mm2_tail_classify on the mock cluster, librdkafka $(pkg-config --modversion rdkafka-static); load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
printf '| %10s | %-15s | %5s | %8s | %8s | %8s | %5s | %6s | %7s | %12s |\n' partitions calls "" "wall ms" "CPU ms" requests reads rounds records "peak RSS +KiB"
echo "|------------|-----------------|-------|----------|----------|----------|-------|--------|---------|---------------|"
for t in 4 "$topics"; do
  while read -r n chunk calls wall req reads rounds recs _ rss cpu; do
    label=$([ "$chunk" = 0 ] && echo "one call" || echo "chunks of $chunk")
    printf '| %10s | %-15s | %5s | %8s | %8s | %8s | %5s | %6s | %7s | %13s |\n' "$n" "$label" "$calls" "$wall" "$cpu" "$req" "$reads" "$rounds" "$recs" "$rss"
  done < <("$bin" "$t" "$parts" 512 0)
done
