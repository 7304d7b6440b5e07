#!/usr/bin/env python3
"""Prints bench/replication's table from the files run.sh left in DIR.

  table.py DIR RECORDS RECORD_SIZE PARTITIONS KAFKA_VERSION CPUS

MB is 2^20 bytes of record values, as Kafka's perf tools count it.  MM2's rate is
steady-state: from the first poll that saw records on the target to the one that saw all
(polled every 0.1 s), so the task start is left out; "with start" counts from the POST.
"""
import json
import os
import re
import sys

D, N, S, P, KAFKA, CPUS = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5], sys.argv[6]
MB = 1 << 20


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
    return float(row["fetch.nMsg.sec"]), float(row["nMsg.sec"])


def mm2(name):
    w = json.loads(read(f"{name}.watch"))
    steady = (w["count"] - w["first_count"]) / max(0.001, (w["done_ms"] - w["first_ms"]) / 1000)
    whole = w["count"] / max(0.001, (w["done_ms"] - w["start_ms"]) / 1000)
    return steady, whole


def settings(client, log_name="worker.log"):
    """The producer settings the worker logged for a task's producer."""
    log = read(log_name)
    want = ("acks", "enable.idempotence", "max.in.flight.requests.per.connection", "compression.type",
            "linger.ms", "batch.size", "security.protocol", "sasl.mechanism")
    for block in log.split("ProducerConfig values:")[1:]:
        kv = dict(re.findall(r"^\s+([a-z.]+) = (.*)$", block.split("\n\n")[0], re.M))
        if kv.get("client.id", "").startswith(client):
            return ", ".join(f"{k}={kv.get(k, '?')}" for k in want)
    return "(not found in the worker's log)"


raw_p = producer("raw-producer.out")
raw_pi = producer("raw-producer-image.out")
raw_c, raw_c_join = consumer("raw-consumer.out")
limit = min(max(raw_p, raw_pi), raw_c)
img, img_whole = mm2("bench-img")
stock, stock_whole = mm2("bench-stock")
raw_tls = producer("raw-producer-tls.out")
tls, tls_whole = mm2("bench-tls")

rows = [
    ("raw producer, Kafka defaults (acks=all)", raw_p, None),
    ("raw producer, the image's producer settings", raw_pi, None),
    ("raw consumer (fetch; with the group join: %.0f/s)" % raw_c_join, raw_c, None),
    ("raw limit: min(best producer, consumer)", limit, None),
    ("MM2, the image's worker settings (with start: %.0f/s)" % img_whole, img, img / limit),
    ("MM2, stock Connect defaults (with start: %.0f/s)" % stock_whole, stock, stock / limit),
    ("raw producer over SASL_SSL, the image's settings", raw_tls, None),
    ("MM2 over SASL_SSL, the image's settings (with start: %.0f/s)" % tls_whole, tls, tls / limit),
]
print(f"bench/replication: {N} records of {S} B, {P} partitions, tasks.max 3, 1 worker; Kafka {KAFKA}; {CPUS} CPUs")
print(f"{'path':<62} {'records/s':>10} {'MB/s':>8} {'x raw limit':>11}")
for name, rate, ratio in rows:
    print(f"{name:<62} {rate:>10.0f} {rate * S / MB:>8.1f} {'' if ratio is None else f'{ratio:.2f}':>11}")
print(f"image settings / stock defaults: {img / stock:.2f}x")
print(f"SASL_SSL / SASL_PLAINTEXT, the image's settings: MM2 {tls / img:.2f}x, raw producer {raw_tls / raw_pi:.2f}x")
print(f"  image's task producer: {settings('connector-producer-bench-img-')}")
print(f"  stock task producer:   {settings('connector-producer-bench-stock-')}")
print(f"  SASL_SSL task producer: {settings('connector-producer-bench-tls-', 'worker-tls.log')}")
