#!/usr/bin/env python3
"""The CPU of Flight Recorder profiles, by where it went: bench/replication's BENCH_JFR=1.

  jfr-top.py FILE.jfr...   (needs the JDK's jfr tool on PATH)

For each recording: the share of execution samples whose top frame is in TLS and crypto
(sun.security.ssl, com.sun.crypto, javax.crypto, sun.security.provider), compression (lz4),
Kafka's clients, Connect and MirrorMaker, the JDK's networking and the rest; then the 15 top
frames.  Only Java frames are sampled (jdk.ExecutionSample): time in native code and GC shows
in the worker's cgroup CPU, not here.
"""
import collections
import json
import subprocess
import sys

GROUPS = [
    ("TLS and crypto", ("sun.security.ssl.", "com.sun.crypto.", "javax.crypto.", "sun.security.provider.",
                        "sun.security.util.", "java.math.BigInteger")),
    ("lz4 compression", ("net.jpountz.", "org.apache.kafka.common.compress.Lz4")),
    ("Connect and MirrorMaker", ("org.apache.kafka.connect.",)),
    ("Kafka clients", ("org.apache.kafka.",)),
    ("JDK network and NIO", ("sun.nio.", "java.nio.", "sun.net.")),
]


def top_frames(path):
    out = subprocess.run(["jfr", "print", "--json", "--events", "jdk.ExecutionSample", path],
                         check=True, capture_output=True, text=True).stdout
    events = json.loads(out)["recording"]["events"]
    for e in events:
        frames = e["values"]["stackTrace"]["frames"] if e["values"].get("stackTrace") else []
        if frames:
            m = frames[0]["method"]
            yield f'{m["type"]["name"].replace("/", ".")}.{m["name"]}'


for path in sys.argv[1:]:
    frames = list(top_frames(path))
    n = len(frames) or 1
    share = collections.Counter()
    for f in frames:
        share[next((g for g, prefixes in GROUPS if f.startswith(prefixes)), "other")] += 1
    print(f"{path}: {len(frames)} samples")
    for g, c in share.most_common():
        print(f"  {g:<26} {100 * c / n:5.1f} %")
    for f, c in collections.Counter(frames).most_common(15):
        print(f"    {100 * c / n:5.1f} %  {f}")
