#!/usr/bin/env python3
"""bench/probe: N runs of each command through spawn (a small C runner, so
ru_maxrss is the command's own), with per-run wall time, CPU time (user +
system) and peak RSS; prints medians side by side.

  harness.py SPAWN N -- NAME1 CMD1... -- NAME2 CMD2...
A run that exits non-zero aborts the benchmark: a failing probe is not fast.
"""
import statistics
import subprocess
import sys


def runs(spawn, n, argv):
    out = subprocess.run([spawn, str(n), *argv], check=True, capture_output=True, text=True).stdout
    got = [tuple(int(x) for x in line.split()) for line in out.splitlines()]
    bad = [r for r in got if r[3] != 0]
    if bad:
        raise SystemExit(f"harness: {' '.join(argv)} exited {bad[0][3]}")
    return got


def main():
    spawn, n = sys.argv[1], int(sys.argv[2])
    cmds, cur = [], None
    for a in sys.argv[3:]:
        if a == "--":
            cur = []
            cmds.append(cur)
        else:
            cur.append(a)
    # Interleaved in rounds of 50, so drift (CPU frequency, caches, the
    # worker's own load) falls on every command alike.
    samples = {c[0]: [] for c in cmds}
    for c in cmds:
        runs(spawn, 10, c[1:])  # warm-up
    for _ in range(max(1, n // 50)):
        for name, *argv in cmds:
            samples[name] += runs(spawn, 50, argv)
    rows = []
    for name, *_ in cmds:
        s = samples[name]
        rows.append((name, *(statistics.median(r[i] for r in s) / d for i, d in ((0, 1000), (1, 1000), (2, 1)))))
    print(f"{n} runs each, medians per run")
    print(f"{'':16} {'wall ms':>9} {'cpu ms':>8} {'peak RSS KiB':>13}")
    for name, wall, cpu, rss in rows:
        print(f"{name:16} {wall:9.3f} {cpu:8.3f} {rss:13.0f}")
    if len(rows) == 2:
        a, b = rows
        print(f"{a[0]} / {b[0]}: wall {a[1] / b[1]:.2f}x, cpu {a[2] / b[2]:.2f}x, rss {a[3] / b[3]:.2f}x"
              " (below 1 is better; target: below curl on CPU and memory)")


if __name__ == "__main__":
    main()
