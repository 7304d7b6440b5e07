#!/usr/bin/env python3
"""bedkit: the test bed's Kafka client (admin, producer, record dump, compare).

Credentials come from BEDKIT_SASL_USERNAME / BEDKIT_SASL_PASSWORD (never argv).
Every network wait is bounded by --timeout.  Exit codes follow DESIGN §6:
0 ok, 1 check negative (records differ), 2 usage, 4 unreachable or timed out.
"""
import argparse
import json
import os
import sys
import time

from confluent_kafka import Consumer, KafkaException, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

PROG = "bedkit"


def fail(code, msg):
    print(f"{PROG}: error: {msg}", file=sys.stderr)
    sys.exit(code)


def conf(bootstrap, **extra):
    # librdkafka's own log lines (connection refused while a broker starts)
    # are noise here: every failure that matters is raised and reported.
    c = {"bootstrap.servers": bootstrap, "log_level": 0}
    user = os.environ.get("BEDKIT_SASL_USERNAME")
    if user:
        c.update({
            "security.protocol": "SASL_PLAINTEXT",
            "sasl.mechanisms": "PLAIN",
            "sasl.username": user,
            "sasl.password": os.environ.get("BEDKIT_SASL_PASSWORD", ""),
        })
    c.update(extra)
    return c


def cmd_wait(a):
    deadline = time.monotonic() + a.timeout
    last = None
    while time.monotonic() < deadline:
        try:
            md = AdminClient(conf(a.bootstrap)).list_topics(timeout=min(5, a.timeout))
            if md.brokers:
                return 0
        except KafkaException as e:
            last = e
        time.sleep(0.5)
    fail(4, f"no broker answered at {a.bootstrap} within {a.timeout}s ({last})")


def cmd_create_topics(a):
    topics = []
    for spec in a.topics:
        parts = spec.split(":")
        if len(parts) not in (2, 3) or not parts[1].isdigit():
            fail(2, f'topic spec "{spec}" must be NAME:PARTITIONS[:compact]')
        cfg = {"cleanup.policy": "compact"} if len(parts) == 3 and parts[2] == "compact" else {}
        topics.append(NewTopic(parts[0], int(parts[1]), a.replication_factor, config=cfg))
    admin = AdminClient(conf(a.bootstrap))  # must outlive the futures
    futs = admin.create_topics(topics, operation_timeout=a.timeout,
                                                         request_timeout=a.timeout)
    for name, f in futs.items():
        try:
            f.result(timeout=a.timeout)
        except KafkaException as e:
            if e.args[0].code() != 36:  # TOPIC_ALREADY_EXISTS
                fail(5, f"create topic {name}: {e}")
    return 0


def record(i, seed):
    """Record i of a deterministic data set that exercises every field MM2 must keep."""
    key = None if i % 7 == 3 else f"k{seed}-{i % 50}".encode()
    value = None if i % 11 == 5 else f"v{seed}-{i}-".encode() + bytes([i % 256]) * (i % 40)
    headers = []
    if i % 3 == 0:
        headers.append(("h-seq", str(i).encode()))
    if i % 5 == 0:
        headers.append(("h-null", None))
        headers.append(("h-bin", bytes([0, 255, i % 256])))
    ts = 1_700_000_000_000 + i * 1000 + seed  # explicit CreateTime
    return key, value, headers, ts


def cmd_produce(a):
    p = Producer(conf(a.bootstrap, **{"enable.idempotence": True, "linger.ms": 5}))
    errors = []

    def cb(err, _msg):
        if err is not None:
            errors.append(err)

    for i in range(a.start, a.start + a.count):
        key, value, headers, ts = record(i, a.seed)
        while True:
            try:
                p.produce(a.topic, value=value, key=key, headers=headers or None,
                          partition=i % a.partitions, timestamp=ts, on_delivery=cb)
                break
            except BufferError:
                p.poll(0.1)
        p.poll(0)
    left = p.flush(a.timeout)
    if left or errors:
        fail(4, f"produce to {a.topic}: {left} undelivered, {len(errors)} failed ({errors[:1]})")
    print(a.count)
    return 0


def read_all(bootstrap, topic, timeout, isolation="read_committed"):
    """All records of topic, per partition, from log start to the end seen at start."""
    c = Consumer(conf(bootstrap, **{"group.id": f"bedkit-{os.getpid()}-{time.monotonic_ns()}",
                                    "enable.auto.commit": False, "auto.offset.reset": "earliest",
                                    "isolation.level": isolation}))
    try:
        md = c.list_topics(topic, timeout=timeout)
        t = md.topics.get(topic)
        if t is None or t.error is not None:
            fail(5, f"topic {topic} not found at {bootstrap}")
        out = {}
        ends = {}
        for p in sorted(t.partitions):
            lo, hi = c.get_watermark_offsets(TopicPartition(topic, p), timeout=timeout)
            out[p] = []
            if hi > lo:
                ends[p] = hi
        if not ends:
            return out
        c.assign([TopicPartition(topic, p, 0) for p in ends])
        deadline = time.monotonic() + timeout
        done = set()
        while len(done) < len(ends):
            if time.monotonic() > deadline:
                fail(4, f"reading {topic}: timed out after {timeout}s")
            for m in c.consume(500, 1.0):
                if m.error():
                    continue
                p = m.partition()
                if m.offset() < ends[p]:
                    out[p].append(canon(m))
                if m.offset() >= ends[p] - 1:
                    done.add(p)
            # transaction markers may end a partition before the high watermark
            for p in ends:
                if p not in done:
                    pos = c.position([TopicPartition(topic, p)])[0].offset
                    if pos >= ends[p]:
                        done.add(p)
        return out
    finally:
        c.close()


def hx(b):
    return None if b is None else b.hex()


def canon(m):
    ts_type, ts = m.timestamp()
    return {"o": m.offset(), "ts": ts, "tt": ts_type, "k": hx(m.key()), "v": hx(m.value()),
            "h": [[k, hx(v)] for k, v in (m.headers() or [])]}


def cmd_dump(a):
    for p, recs in read_all(a.bootstrap, a.topic, a.timeout).items():
        for r in recs:
            print(json.dumps({"p": p, **r}, sort_keys=True))
    return 0


def cmd_compare(a):
    """Waits until the target holds as many records as the source per partition,
    then compares them in order, field by field (offsets excluded)."""
    src = read_all(a.source, a.topic, a.timeout)
    want = {p: len(r) for p, r in src.items()}
    deadline = time.monotonic() + a.timeout
    while True:
        tgt = read_all(a.target, a.target_topic or a.topic, a.timeout)
        have = {p: len(r) for p, r in tgt.items()}
        if all(have.get(p, 0) >= n for p, n in want.items()) or time.monotonic() > deadline:
            break
        time.sleep(1)
    bad = 0
    for p, recs in src.items():
        got = tgt.get(p, [])
        if len(got) != len(recs):
            print(f"{PROG}: partition {p}: source has {len(recs)} records, target {len(got)}", file=sys.stderr)
            bad += 1
            continue
        for s, t in zip(recs, got):
            s2 = {k: v for k, v in s.items() if k != "o"}
            t2 = {k: v for k, v in t.items() if k != "o"}
            if s2 != t2:
                print(f"{PROG}: partition {p}: source offset {s['o']} differs from target offset {t['o']}: "
                      f"{json.dumps(s2, sort_keys=True)} != {json.dumps(t2, sort_keys=True)}", file=sys.stderr)
                bad += 1
                break
    total_s = sum(want.values())
    total_t = sum(len(r) for r in tgt.values())
    print(json.dumps({"source_records": total_s, "target_records": total_t, "partitions": len(src),
                      "mismatched_partitions": bad}))
    return 1 if bad else 0


def cmd_ends(a):
    """The log end offset of each partition, as JSON {"partition": end}."""
    c = Consumer(conf(a.bootstrap, **{"group.id": f"bedkit-{os.getpid()}"}))
    try:
        md = c.list_topics(a.topic, timeout=a.timeout)
        t = md.topics.get(a.topic)
        if t is None or t.error is not None:
            fail(5, f"topic {a.topic} not found at {a.bootstrap}")
        ends = {str(p): c.get_watermark_offsets(TopicPartition(a.topic, p), timeout=a.timeout)[1]
                for p in sorted(t.partitions)}
    finally:
        c.close()
    print(json.dumps(ends, sort_keys=True))
    return 0


def cmd_connect_offsets(a):
    """The last source offset Connect committed per partition for one
    connector and topic, read from the worker group's offsets topic:
    JSON {"partition": offset} (a null value, a reset, removes the entry)."""
    out = {}
    for recs in read_all(a.bootstrap, a.offsets_topic, a.timeout).values():
        for r in recs:
            if r["k"] is None:
                continue
            key = json.loads(bytes.fromhex(r["k"]))
            if not (isinstance(key, list) and len(key) == 2 and key[0] == a.connector):
                continue
            part = key[1]
            if part.get("topic") != a.topic:
                continue
            p = str(part.get("partition"))
            if r["v"] is None:
                out.pop(p, None)
            else:
                out[p] = json.loads(bytes.fromhex(r["v"])).get("offset")
    print(json.dumps(out, sort_keys=True))
    return 0


def parse_offsets(spec):
    """"P:O,P:O" -> {P: O}."""
    out = {}
    for item in spec.split(","):
        p, _, o = item.partition(":")
        if not p.isdigit() or not o.lstrip("-").isdigit():
            fail(2, f'offsets "{spec}" must be PARTITION:OFFSET[,...]')
        out[int(p)] = int(o)
    return out


def cmd_commit(a):
    """Commits offsets for a group the way Flink's source does: assign(), never subscribe(),
    so the group stays Empty with no member."""
    c = Consumer(conf(a.bootstrap, **{"group.id": a.group, "enable.auto.commit": False}))
    try:
        tps = [TopicPartition(a.topic, p, o) for p, o in sorted(parse_offsets(a.offsets).items())]
        res = c.commit(offsets=tps, asynchronous=False)
        bad = [t for t in res if t.error is not None]
        if bad:
            fail(5, f"commit to {a.group}: {bad[0].error}")
    finally:
        c.close()
    return 0


def cmd_committed(a):
    """The group's committed offsets for every partition of a topic: JSON {"partition": offset},
    -1001 where nothing is committed."""
    c = Consumer(conf(a.bootstrap, **{"group.id": a.group, "enable.auto.commit": False}))
    try:
        md = c.list_topics(a.topic, timeout=a.timeout)
        t = md.topics.get(a.topic)
        if t is None or t.error is not None:
            fail(5, f"topic {a.topic} not found at {a.bootstrap}")
        got = c.committed([TopicPartition(a.topic, p) for p in sorted(t.partitions)],
                          timeout=a.timeout)
    finally:
        c.close()
    print(json.dumps({str(tp.partition): tp.offset for tp in got}, sort_keys=True))
    return 0


def cmd_delete_records(a):
    """Deletes records below the given offsets (the log start moves there)."""
    admin = AdminClient(conf(a.bootstrap))
    tps = [TopicPartition(a.topic, p, o) for p, o in sorted(parse_offsets(a.before).items())]
    futs = admin.delete_records(tps, operation_timeout=a.timeout, request_timeout=a.timeout)
    for tp, f in futs.items():
        try:
            f.result(timeout=a.timeout)
        except KafkaException as e:
            fail(5, f"delete records of {tp.topic}-{tp.partition}: {e}")
    return 0


def read_range(bootstrap, topic, partition, start, end, timeout):
    """The raw messages of one partition with start <= offset < end (read_committed)."""
    c = Consumer(conf(bootstrap, **{"group.id": f"bedkit-{os.getpid()}-{time.monotonic_ns()}",
                                    "enable.auto.commit": False,
                                    "isolation.level": "read_committed"}))
    out = []
    try:
        if end <= start:
            return out
        c.assign([TopicPartition(topic, partition, start)])
        deadline = time.monotonic() + timeout
        while True:
            if time.monotonic() > deadline:
                fail(4, f"reading {topic}-{partition}: timed out after {timeout}s")
            m = c.poll(0.5)
            if m is None:
                pos = c.position([TopicPartition(topic, partition)])[0].offset
                if pos >= end:
                    break
                continue
            if m.error():
                continue
            if m.offset() >= end:
                break
            out.append(m)
            if m.offset() >= end - 1:
                break
    finally:
        c.close()
    return out


def cmd_flink_copy(a):
    """A Flink-like copier: copies source records [0, C) of each given partition to the same
    partition of the target topic (key, value, headers and timestamp kept), flushes, then
    commits C for the group on the source, as Flink does on a checkpoint."""
    upto = parse_offsets(a.upto)
    p = Producer(conf(a.target, **{"enable.idempotence": True, "linger.ms": 5}))
    errors = []
    copied = 0

    def cb(err, _msg):
        if err is not None:
            errors.append(err)

    for part, end in sorted(upto.items()):
        for m in read_range(a.source, a.topic, part, a.start, end, a.timeout):
            ts_type, ts = m.timestamp()
            p.produce(a.target_topic or a.topic, value=m.value(), key=m.key(),
                      headers=m.headers() or None, partition=part, timestamp=ts,
                      on_delivery=cb)
            copied += 1
            p.poll(0)
    left = p.flush(a.timeout)
    if left or errors:
        fail(4, f"flink-copy: {left} undelivered, {len(errors)} failed ({errors[:1]})")
    c = Consumer(conf(a.source, **{"group.id": a.group, "enable.auto.commit": False}))
    try:
        res = c.commit(offsets=[TopicPartition(a.topic, q, o) for q, o in sorted(upto.items())],
                       asynchronous=False)
        bad = [t for t in res if t.error is not None]
        if bad:
            fail(5, f"commit to {a.group}: {bad[0].error}")
    finally:
        c.close()
    print(copied)
    return 0


def cmd_txn_open(a):
    """Leaves a transaction open on a partition, as a Flink EXACTLY_ONCE sink does between
    checkpoints: begins, writes, flushes, and exits without committing. The broker aborts it
    after --txn-timeout-ms (plus its cleanup interval)."""
    p = Producer(conf(a.bootstrap, **{"transactional.id": a.txn_id,
                                      "transaction.timeout.ms": a.txn_timeout_ms}))
    p.init_transactions(a.timeout)
    p.begin_transaction()
    for i in range(a.count):
        p.produce(a.topic, value=f"open-txn-{i}".encode(), partition=a.partition)
    if p.flush(a.timeout):
        fail(4, "txn-open: records not delivered")
    if a.commit_after:
        time.sleep(a.commit_after)
        p.commit_transaction(a.timeout)
    else:
        os._exit(0)  # no abort on the way out: the transaction stays open
    return 0


def main():
    ap = argparse.ArgumentParser(prog=PROG)
    sub = ap.add_subparsers(dest="cmd", required=True)
    w = sub.add_parser("wait"); w.add_argument("--bootstrap", required=True)
    w.add_argument("--timeout", type=float, default=60)
    ct = sub.add_parser("create-topics"); ct.add_argument("--bootstrap", required=True)
    ct.add_argument("--replication-factor", type=int, default=1)
    ct.add_argument("--timeout", type=float, default=30); ct.add_argument("topics", nargs="+")
    pr = sub.add_parser("produce"); pr.add_argument("--bootstrap", required=True)
    pr.add_argument("--topic", required=True); pr.add_argument("--count", type=int, required=True)
    pr.add_argument("--start", type=int, default=0); pr.add_argument("--partitions", type=int, required=True)
    pr.add_argument("--seed", type=int, default=1); pr.add_argument("--timeout", type=float, default=60)
    d = sub.add_parser("dump"); d.add_argument("--bootstrap", required=True)
    d.add_argument("--topic", required=True); d.add_argument("--timeout", type=float, default=60)
    c = sub.add_parser("compare"); c.add_argument("--source", required=True)
    c.add_argument("--target", required=True); c.add_argument("--topic", required=True)
    c.add_argument("--target-topic"); c.add_argument("--timeout", type=float, default=120)
    e = sub.add_parser("ends"); e.add_argument("--bootstrap", required=True)
    e.add_argument("--topic", required=True); e.add_argument("--timeout", type=float, default=30)
    co = sub.add_parser("connect-offsets"); co.add_argument("--bootstrap", required=True)
    co.add_argument("--offsets-topic", required=True); co.add_argument("--connector", required=True)
    co.add_argument("--topic", required=True); co.add_argument("--timeout", type=float, default=60)
    cm = sub.add_parser("commit"); cm.add_argument("--bootstrap", required=True)
    cm.add_argument("--group", required=True); cm.add_argument("--topic", required=True)
    cm.add_argument("--offsets", required=True)
    cd = sub.add_parser("committed"); cd.add_argument("--bootstrap", required=True)
    cd.add_argument("--group", required=True); cd.add_argument("--topic", required=True)
    cd.add_argument("--timeout", type=float, default=30)
    dr = sub.add_parser("delete-records"); dr.add_argument("--bootstrap", required=True)
    dr.add_argument("--topic", required=True); dr.add_argument("--before", required=True)
    dr.add_argument("--timeout", type=float, default=30)
    fc = sub.add_parser("flink-copy"); fc.add_argument("--source", required=True)
    fc.add_argument("--target", required=True); fc.add_argument("--topic", required=True)
    fc.add_argument("--target-topic"); fc.add_argument("--group", required=True)
    fc.add_argument("--upto", required=True); fc.add_argument("--start", type=int, default=0)
    fc.add_argument("--timeout", type=float, default=60)
    to = sub.add_parser("txn-open"); to.add_argument("--bootstrap", required=True)
    to.add_argument("--topic", required=True); to.add_argument("--partition", type=int, default=0)
    to.add_argument("--count", type=int, default=3); to.add_argument("--txn-id", required=True)
    to.add_argument("--txn-timeout-ms", type=int, default=10000)
    to.add_argument("--commit-after", type=float, default=0)
    to.add_argument("--timeout", type=float, default=30)
    a = ap.parse_args()
    return {"wait": cmd_wait, "create-topics": cmd_create_topics, "produce": cmd_produce,
            "dump": cmd_dump, "compare": cmd_compare,
            "ends": cmd_ends, "connect-offsets": cmd_connect_offsets, "commit": cmd_commit, "committed": cmd_committed,
            "delete-records": cmd_delete_records, "flink-copy": cmd_flink_copy,
            "txn-open": cmd_txn_open}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())
