#!/usr/bin/env python3
"""Prints bench/replication's tables from the files run.sh left in DIR.

  table.py DIR RECORDS RECORD_SIZE PARTITIONS KAFKA_VERSION CPUS PROFILES SIZING

MB is 2^20 bytes of record values, as Kafka's perf tools count it.  Every copy's rate is
steady-state: from 10 % to 90 % of the records on the target (kit watch, every 0.1 s), so the
tasks' (or the pipe's threads') staggered start and the last partition's tail are left out;
"with start" counts all from the POST.  CPU s/M: CPU seconds per million records, the worker's cgroup from the POST to the
last record (task start included), the pipe's whole JVM.
"""
import json
import os
import re
import statistics
import sys


def steady_rate(w):
    """Records/s between 10 % and 90 % of the count on the target (kit watch --trace, every 0.1
    s), each crossing interpolated: neither the tasks' staggered start nor the last partition's
    tail is in it; without a trace, from the first poll that saw a record to the last."""
    tr = w.get("trace") or []
    lo, hi = 0.1 * w["count"], 0.9 * w["count"]

    def cross(level):
        for (t0, n0), (t1, n1) in zip(tr, tr[1:]):
            if n0 < level <= n1:
                return t0 + (t1 - t0) * (level - n0) / (n1 - n0)
        return None
    a, b = cross(lo), cross(hi)
    if a is None or b is None or b <= a:
        return (w["count"] - w["first_count"]) / max(0.001, (w["done_ms"] - w["first_ms"]) / 1000)
    return (hi - lo) / ((b - a) / 1000)


if len(sys.argv) >= 3 and sys.argv[1] == "--rate":  # --rate WATCH...: the median steady rate
    rates = []
    for name in sys.argv[2:]:
        with open(name) as f:
            rates.append(steady_rate(json.load(f)))
    print(int(statistics.median(rates)))
    sys.exit(0)

D, N, S, P, KAFKA, CPUS = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5], sys.argv[6]
PROFILES = sys.argv[7].split()
SIZING = sys.argv[8].split()
RUNS = range(1, int(sys.argv[9]) + 1)
SHARES = sys.argv[10].split()
MB = 1 << 20
NAMES = {"sasl_plaintext": "SASL_PLAINTEXT/PLAIN", "sasl_ssl": "SASL_SSL/SCRAM-SHA-512", "ssl": "SSL (mTLS)"}


def read(name):
    with open(os.path.join(D, name)) as f:
        return f.read()


def producer(name):
    m = re.findall(r"(\d+) records sent, ([\d.]+) records/sec \(([\d.]+) MB/sec\)", read(name))
    if not m:
        sys.exit(f"bench/replication: no summary line in {name}")
    return float(m[-1][1])


def consumer(name):
    rows = [ln for ln in read(name).splitlines() if ln.strip()]
    head = [h.strip() for h in rows[-2].split(",")]
    vals = [v.strip() for v in rows[-1].split(",")]
    row = dict(zip(head, vals))
    return float(row["fetch.nMsg.sec"])


def watch(name):
    w = json.loads(read(f"{name}.watch"))
    steady = steady_rate(w)
    whole = w["count"] / max(0.001, (w["done_ms"] - w["start_ms"]) / 1000)
    return steady, whole


def mm2(alias):
    steady, whole = watch(f"mm2-{alias}")
    cpu = int(read(f"mm2-{alias}.cpu")) / 1e6
    return steady, whole, cpu / N * 1e6


def pipe(name):
    steady, _ = watch(f"pipe-{name}")
    # The last JSON line: Flight Recorder (BENCH_JFR=1) writes its own lines before it.
    j = json.loads([ln for ln in read(f"pipe-{name}.json").splitlines() if ln.startswith("{")][-1])
    return steady, j["cpu_seconds"] / N * 1e6


def med(rows, i):
    return statistics.median(r[i] for r in rows)


def spread(rows, i):
    return f"{min(r[i] for r in rows) / 1000:.0f}-{max(r[i] for r in rows) / 1000:.0f}k"


def fmt(rate):
    return f"{rate:>9.0f} {rate * S / MB:>6.1f}"


print(f"bench/replication: {N} records of {S} B, {P} partitions, 1 worker; Kafka {KAFKA}; {CPUS} CPUs")
print(f"raw producer into the source, Kafka's defaults: {producer('raw-producer.out'):.0f} records/s; "
      f"the image's settings: {producer('raw-producer-image.out'):.0f}/s; raw consumer: {consumer('raw-consumer.out'):.0f}/s")
print()
print(f"Throughput (tasks.max 3; the pipe: 3 threads, each a consumer and a producer like a task); "
      f"the median of {len(RUNS)} interleaved runs, their range beside it")
print(f"{'profile':<24} {'pipe rec/s':>10} {'range':>9} {'MB/s':>6} {'CPU s/M':>7}   {'MM2 rec/s':>9} {'range':>9} "
      f"{'MB/s':>6} {'CPU s/M':>7} {'with start':>10}   {'MM2/pipe':>8} {'per run':>16}")
mm2_rate, pipe_rate = {}, {}
for prof in PROFILES:
    pr = [pipe(f"{prof}-{r}") for r in RUNS]
    mr = [mm2(f"{prof}-{r}") for r in RUNS]
    pipe_rate[prof], mm2_rate[prof] = med(pr, 0), med(mr, 0)
    per = "/".join(f"{m[0] / p[0]:.2f}" for m, p in zip(mr, pr))
    print(f"{NAMES[prof]:<24} {pipe_rate[prof]:>10.0f} {spread(pr, 0):>9} {pipe_rate[prof] * S / MB:>6.1f} "
          f"{med(pr, 1):>7.2f}   {mm2_rate[prof]:>9.0f} {spread(mr, 0):>9} {mm2_rate[prof] * S / MB:>6.1f} "
          f"{med(mr, 2):>7.2f} {med(mr, 1):>10.0f}   {mm2_rate[prof] / pipe_rate[prof]:>8.2f} {per:>16}")
if "sasl_plaintext" in PROFILES:
    base = mm2_rate["sasl_plaintext"]
    for prof in PROFILES:
        if prof != "sasl_plaintext":
            print(f"  {NAMES[prof]} / SASL_PLAINTEXT: MM2 {mm2_rate[prof] / base:.2f}x, "
                  f"the pipe {pipe_rate[prof] / pipe_rate['sasl_plaintext']:.2f}x")
    if os.path.exists(os.path.join(D, "mm2-stock.watch")):
        st, _, sc = mm2("stock")
        print(f"  MM2 with stock Connect producer defaults (SASL_PLAINTEXT, one run): {st:.0f} records/s, "
              f"CPU {sc:.2f} s/M; the image's settings {base / st:.2f}x")

print()
print("End-to-end latency, ms (target LogAppendTime - source LogAppendTime, every record past the first 3 s),\n"
      "the same steady input for both, at 1/2 and 1/4 of the slower copier's median rate")
print(f"{'profile':<24} {'share':>5} {'rec/s':>7}   {'MM2 p50':>7} {'p99':>6} {'max':>6}   {'pipe p50':>8} {'p99':>6} {'max':>6}")
for prof in PROFILES:
    for share in SHARES:
        m = json.loads(read(f"lat-mm2-{prof}-{share}.json"))
        p = json.loads(read(f"lat-pipe-{prof}-{share}.json"))
        rate = int(read(f"lat-{prof}-{share}.rate"))
        print(f"{NAMES[prof]:<24} {'1/' + share:>5} {rate:>7}   {m['p50_ms']:>7} {m['p99_ms']:>6} {m['max_ms']:>6}   "
              f"{p['p50_ms']:>8} {p['p99_ms']:>6} {p['max_ms']:>6}")

def catch_up(c, mx, title, basis):
    """One catch-up's lines: files C.*, against MM2's maximum MX."""
    rate = int(read(f"{c}.rate"))
    stop, resume = int(read(f"{c}.stop")), int(read(f"{c}.resume"))
    # EPOCH_MS SOURCE_END TARGET_END LAG_0 ... LAG_N (Pipe lag)
    full = [tuple(int(x) for x in ln.split()) for ln in read(f"{c}.lag").splitlines() if ln.strip()]
    rows = [r[:3] for r in full]
    t0 = rows[0][0]
    warm = [s - t for (ms, s, t) in rows if t0 + 10_000 <= ms < stop]
    steady = statistics.median(warm) if warm else 0
    band = max(warm) if warm else 0
    at = [r for r in rows if r[0] >= resume]
    backlog = at[0][1] - at[0][2]
    first = next((r for r in at if r[2] > at[0][2]), None)
    caught = next((r for r in at if r[1] - r[2] <= band), None)
    print()
    print(f"Catch-up{title} (SASL_PLAINTEXT): input {rate} records/s; MM2 stopped {(resume - stop) / 1000:.1f} s, "
          f"then resumed; MM2's maximum {mx:.0f} records/s ({basis})")
    print(f"  lag while steady: median {steady:.0f} records, max {band}; backlog at the resume: {backlog} records")
    if caught and first:
        drained = caught[2] - at[0][2]
        t_all = (caught[0] - resume) / 1000
        t_flow = (caught[0] - first[0]) / 1000
        pred = backlog / (mx - rate) if mx > rate else float("inf")
        print(f"  back within the steady band {t_all:.1f} s after the resume ({t_flow:.1f} s after the first record "
              f"copied; the tasks' start {(first[0] - resume) / 1000:.1f} s)")
        print(f"  predicted: backlog / (MM2's maximum - input {rate}) = {pred:.1f} s, plus the tasks' start")
        print(f"  drain rate: {drained / max(0.001, t_flow):.0f} records/s = {drained / max(0.001, t_flow) / mx:.2f}x "
              f"MM2's maximum (from the first record copied; {drained / max(0.001, t_all) / mx:.2f}x from the resume)")
        # The maximum is measured from 10 % to 90 % of a copy's records (copy_rate): the drain's
        # rate over the same share of the backlog, the records copied (the input's included) per s.
        a = next((r for r in at if r[1] - r[2] <= 0.9 * backlog), None)
        b = next((r for r in at if r[1] - r[2] <= 0.1 * backlog), None)
        r1090 = None
        if a and b and b[0] > a[0]:
            r1090 = (b[2] - a[2]) / ((b[0] - a[0]) / 1000)
            print(f"  drain rate from 10 % to 90 % of the backlog (as the maximum is measured): {r1090:.0f} records/s "
                  f"= {r1090 / mx:.2f}x MM2's maximum")
        per = [r for r in full if r[0] >= resume and len(r) > 3]
        if per:
            n = len(per[0]) - 3
            back = [per[0][3 + i] for i in range(n)]
            # A partition is drained once its lag is within its share of the steady band.
            done = [next(((r[0] - resume) / 1000 for r in per if r[3 + i] <= max(1, band // n)), None) for i in range(n)]
            cells = " ".join(f"p{i} {back[i]} {'%.1f s' % d if d is not None else 'never'}" for i, d in enumerate(done))
            print(f"  per partition, backlog and drained after the resume: {cells}")
            ends = [d for d in done if d is not None]
            if len(ends) == n:
                first_done = min(ends)
                fr = next((r for r in rows if r[0] - resume >= first_done * 1000), None)
                if fr and first:
                    rall = (fr[2] - first[2]) / max(0.001, (fr[0] - first[0]) / 1000)
                    print(f"  while every partition had a backlog (to {first_done:.1f} s): {rall:.0f} records/s = "
                          f"{rall / mx:.2f}x MM2's maximum; then {max(ends) - first_done:.1f} s for the partitions "
                          f"left, fewer tasks at work")
    else:
        print("  the lag never came back within the steady band while sampled")
        return None
    return drained / max(0.001, t_flow) / mx, (r1090 / mx if r1090 is not None else None)


# The catch-ups: each against the mean of MM2's maximum timed right before and right after it
# (mm2-cu(K-1) and mm2-cuK).
ks = sorted(int(m.group(1)) for m in (re.match(r"catchup-(\d+)\.lag$", f) for f in os.listdir(D)) if m)
if ks:
    ratios = []
    for k in ks:
        around = [watch(f"mm2-cu{j}")[0] for j in (k - 1, k) if os.path.exists(os.path.join(D, f"mm2-cu{j}.watch"))]
        mx = statistics.mean(around) if around else mm2_rate.get("sasl_plaintext", 0)
        ratio = catch_up(f"catchup-{k}", mx, f" {k}", "the mean of " + " and ".join(f"{r:.0f}" for r in around) +
                         ", timed right before and right after it")
        if ratio is not None:
            ratios.append(ratio)
    if len(ratios) > 1:
        whole = [r for r, _ in ratios]
        mid = [m for _, m in ratios if m is not None]
        print()
        print(f"Catch-up drain rate against MM2's maximum around it, median of {len(ratios)}: "
              f"{statistics.median(whole):.2f}x from the first record copied ({', '.join(f'{r:.2f}' for r in whole)})"
              + (f"; {statistics.median(mid):.2f}x from 10 % to 90 % of the backlog ({', '.join(f'{r:.2f}' for r in mid)})"
                 if mid else ""))

if SIZING and "sasl_plaintext" in PROFILES:
    print()
    print("Sizing (SASL_PLAINTEXT, one worker; the image's settings)")
    print(f"{'tasks.max':>9} {'rec/s':>9} {'MB/s':>6} {'per task':>9} {'CPU s/M':>7}")
    three = [mm2(f"sasl_plaintext-{r}") for r in RUNS]
    rows = [(3, (med(three, 0), 0, med(three, 2)))] + [(int(t), mm2(f"tasks{t}")) for t in SIZING]
    for t, (r, _, c) in sorted(rows):
        print(f"{t:>9} {fmt(r)} {r / min(t, int(P)):>9.0f} {c:>7.2f}")
    print("  (tasks.max 3: the median above; the others one run each)")
