#!/usr/bin/env python3
"""bench/offsets seed: TOPICS topics of PARTITIONS partitions (bo.t00, bo.t01, ...) on the source
and the target, RECORDS records in every source partition, their first C = RECORDS / 2 in the same
target partition (Flink's copy), and a Flink-like group that committed C everywhere (as Flink's
source does: assign(), no member).

  seed.py SOURCE TARGET GROUP TOPICS PARTITIONS RECORDS
Credentials from BEDKIT_SASL_USERNAME / BEDKIT_SASL_PASSWORD. Prints the seconds it took."""
import os
import sys
import time

from confluent_kafka import Consumer, KafkaException, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic


def conf(bootstrap, **extra):
    c = {"bootstrap.servers": bootstrap, "log_level": 0, "security.protocol": "SASL_PLAINTEXT",
         "sasl.mechanisms": "PLAIN", "sasl.username": os.environ["BEDKIT_SASL_USERNAME"],
         "sasl.password": os.environ["BEDKIT_SASL_PASSWORD"]}
    c.update(extra)
    return c


def main():
    src, tgt, group = sys.argv[1], sys.argv[2], sys.argv[3]
    ntopics, nparts, nrec = int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
    t0 = time.monotonic()
    names = [f"bo.t{i:02d}" for i in range(ntopics)]
    # KRaft refuses one request that creates too many partitions ("excessively large batch
    # operation"): a few topics per request.
    per = max(1, 2000 // nparts)
    for b in (src, tgt):
        admin = AdminClient(conf(b))
        for k in range(0, len(names), per):
            futs = admin.create_topics([NewTopic(n, nparts, 1) for n in names[k:k + per]],
                                       operation_timeout=120, request_timeout=120)
            for n, f in futs.items():
                try:
                    f.result(timeout=180)
                except KafkaException as e:
                    if e.args[0].code() != 36:  # TOPIC_ALREADY_EXISTS
                        sys.exit(f"seed: create {n}: {e}")
    # New partitions take a moment to get a leader everywhere: wait, or produce fails.
    admin = AdminClient(conf(src))
    deadline = time.monotonic() + 120
    while True:
        md = admin.list_topics(timeout=30)
        ready = sum(1 for n in names if n in md.topics and md.topics[n].error is None and
                    len(md.topics[n].partitions) == nparts and
                    all(pm.leader >= 0 for pm in md.topics[n].partitions.values()))
        if ready == len(names):
            break
        if time.monotonic() > deadline:
            sys.exit(f"seed: only {ready} of {len(names)} topics have leaders after 120 s")
        time.sleep(1)
    errors = []

    def delivered(err, _msg):
        if err is not None:
            errors.append(err)

    # The source gets RECORDS records a partition; the target, Flink's copy of what the group
    # committed: the first C of them, the same bytes, in the same partition (export's boundary
    # read then finds each target's tail aligned with the source below C, as after a Flink job
    # that kept the partitioning).
    for b, count in ((src, nrec), (tgt, nrec // 2)):
        p = Producer(conf(b, **{"linger.ms": 50, "batch.num.messages": 10000,
                                "message.timeout.ms": 120000}))
        for n in names:
            for part in range(nparts):
                for i in range(count):
                    while True:
                        try:
                            p.produce(n, value=f"{n}-{part}-{i}".encode(), partition=part,
                                      on_delivery=delivered)
                            break
                        except BufferError:
                            p.poll(0.1)
            p.poll(0)
        if p.flush(180) or errors:
            sys.exit(f"seed: records not delivered ({len(errors)} failed: {errors[:1]})")
    c = Consumer(conf(src, **{"group.id": group, "enable.auto.commit": False}))
    try:
        for n in names:
            res = c.commit(offsets=[TopicPartition(n, part, nrec // 2) for part in range(nparts)],
                           asynchronous=False)
            bad = [t for t in res if t.error is not None]
            if bad:
                sys.exit(f"seed: commit: {bad[0].error}")
    finally:
        c.close()
    print(f"{time.monotonic() - t0:.1f}")


if __name__ == "__main__":
    main()
