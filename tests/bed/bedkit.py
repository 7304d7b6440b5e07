#!/usr/bin/env python3
"""bedkit: the test bed's Kafka client (admin, producer, record dump, compare), and the
rehearsal's Flink-like copier, continuous producer, lag sampler and record audit.

Credentials come from BEDKIT_SASL_USERNAME / BEDKIT_SASL_PASSWORD (never argv).
Every network wait is bounded by --timeout.  Exit codes follow docs/ARCHITECTURE.md §5:
0 ok, 1 check negative (records differ), 2 usage, 4 unreachable or timed out.
"""
import argparse
import json
import os
import re
import signal
import sys
import time

from confluent_kafka import OFFSET_BEGINNING, Consumer, KafkaException, Producer, TopicPartition
from confluent_kafka.admin import (AclBinding, AclBindingFilter, AclOperation, AclPermissionType,
                                   AdminClient, ConfigResource, NewTopic, ResourcePatternType,
                                   ResourceType)

PROG = "bedkit"
# produce-loop numbers the records of each partition 0, 1, 2... in this header:
# on a fresh topic the number is the source offset, so a copy's gaps and
# duplicates can be counted exactly wherever it lands.
SEQ_HEADER = "mm2kit-seq"


def fail(code, msg):
    print(f"{PROG}: error: {msg}", file=sys.stderr)
    sys.exit(code)


def conf(bootstrap, login=None, **extra):
    # librdkafka's own log lines (connection refused while a broker starts)
    # are noise here: every failure that matters is raised and reported.
    # The TLS bed: BEDKIT_SECURITY_PROTOCOL (SASL_SSL, SSL), BEDKIT_SASL_MECHANISM,
    # BEDKIT_SSL_CA, BEDKIT_SSL_CERT, BEDKIT_SSL_KEY and BEDKIT_SSL_KEY_PASSWORD.
    c = {"bootstrap.servers": bootstrap, "log_level": 0}
    env = os.environ.get
    proto = env("BEDKIT_SECURITY_PROTOCOL", "SASL_PLAINTEXT")
    user, password = login or (env("BEDKIT_SASL_USERNAME"), env("BEDKIT_SASL_PASSWORD", ""))
    if user and proto.startswith("SASL_"):
        c.update({
            "security.protocol": proto,
            "sasl.mechanisms": env("BEDKIT_SASL_MECHANISM", "PLAIN"),
            "sasl.username": user,
            "sasl.password": password,
        })
    elif proto == "SSL":
        c["security.protocol"] = "SSL"
    for var, key in (("BEDKIT_SSL_CA", "ssl.ca.location"), ("BEDKIT_SSL_CERT", "ssl.certificate.location"),
                     ("BEDKIT_SSL_KEY", "ssl.key.location"), ("BEDKIT_SSL_KEY_PASSWORD", "ssl.key.password")):
        if env(var):
            c[key] = env(var)
    c.update(extra)
    return c


# --- ACLs: the rows of docs/acls.md (BEDKIT_ACL_PAGE), granted by the admin ---

ACL_COLUMNS = ("cluster", "operation", "resource", "name", "pattern", "when", "needed_by")


def acl_rows(page):
    """Each row of each "## Principal: ROLE" table of the page, as a dict with its role."""
    rows, role = [], None
    try:
        lines = open(page, encoding="utf-8").read().splitlines()
    except OSError as e:
        fail(2, f"ACL page {page}: {e.strerror}")
    for n, line in enumerate(lines, 1):
        m = re.match(r"^## Principal: ([a-z]+)\s*$", line)
        if m or line.startswith("## "):
            role = m.group(1) if m else None
            continue
        if not role or not line.startswith("| ") or line.startswith(("| cluster ", "| ---")):
            continue
        cells = [x.strip() for x in line.strip().strip("|").split("|")]
        if len(cells) != len(ACL_COLUMNS):
            fail(2, f"{page}:{n}: an ACL row has {len(cells)} cells, not {len(ACL_COLUMNS)}")
        r = dict(zip(ACL_COLUMNS, cells), role=role, line=n)
        if r["cluster"] not in ("source", "target") or r["pattern"] not in ("literal", "prefixed"):
            fail(2, f"{page}:{n}: cluster must be source or target, pattern literal or prefixed")
        rows.append(r)
    if not rows:
        fail(2, f"ACL page {page} has no principal table")
    return rows


def version_below(version, floor):
    def key(v):
        return tuple(int(x) for x in re.findall(r"\d+", v)[:3])
    return bool(version) and key(version) < key(floor)


def acl_granted(r, version):
    """Whether the beds grant a row: always, commit, accept, and kafka<X where the bed's Connect is
    older."""
    when = r["when"]
    if when in ("always", "commit", "accept"):
        return True
    m = re.match(r"^kafka<([0-9.]+)$", when)
    if m:
        return version_below(version, m.group(1))
    return False


def acl_bindings(r, names, principals):
    """The AclBindings of row r (for its role's principal) with its {placeholders} filled from
    names; none if one is not."""
    missing = [k for k in re.findall(r"\{([a-z ]+)\}", r["name"]) if k not in names]
    if missing:
        return []
    name = re.sub(r"\{([a-z ]+)\}", lambda m: names[m.group(1)], r["name"])
    try:
        rtype = {"Topic": ResourceType.TOPIC, "Group": ResourceType.GROUP,
                 "TransactionalId": ResourceType.TRANSACTIONAL_ID, "Cluster": ResourceType.BROKER}[r["resource"]]
        op = AclOperation[re.sub(r"(?<!^)(?=[A-Z])", "_", r["operation"]).upper()]
    except KeyError:
        fail(2, f"ACL page line {r['line']}: unknown resource or operation {r['resource']} {r['operation']}")
    if rtype == ResourceType.BROKER:
        name = "kafka-cluster"
    pattern = ResourcePatternType.PREFIXED if r["pattern"] == "prefixed" else ResourcePatternType.LITERAL
    if r["role"] not in principals:
        fail(2, f"BEDKIT_PRINCIPALS names no principal for {r['role']}")
    return [AclBinding(rtype, name, pattern, principals[r["role"]], "*", op, AclPermissionType.ALLOW)]


def principals_from_env():
    """BEDKIT_PRINCIPALS: ROLE=User:NAME,... One principal a role, and one role a principal:
    a login that held two roles' rows would hide a row missing from either table."""
    out = {}
    for item in filter(None, os.environ.get("BEDKIT_PRINCIPALS", "").split(",")):
        role, sep, principal = item.partition("=")
        if not sep or not re.fullmatch(r"User:[^|,=]+", principal):
            fail(2, f'BEDKIT_PRINCIPALS item "{item}" must be ROLE=User:NAME')
        if principal in out.values():
            fail(2, f"BEDKIT_PRINCIPALS gives {principal} two roles")
        out[role] = principal
    return out


def grant(names, roles=None, timeout=30, revoke=False, only_line=None):
    """Grants (or with revoke, deletes) every row of the page whose placeholders names fills (a
    dict, or a list of dicts: one request per cluster for all), of roles (all if None), on the
    cluster the row says.  Returns the bindings touched."""
    page = os.environ.get("BEDKIT_ACL_PAGE")
    if not page:
        return []
    version = os.environ.get("BEDKIT_KAFKA_VERSION", "")
    principals = principals_from_env()
    by_cluster = {"source": [], "target": []}
    rows = acl_rows(page)
    for one in names if isinstance(names, list) else [names]:
        for r in rows:
            if roles and r["role"] not in roles:
                continue
            if only_line is not None and r["line"] != only_line:
                continue
            if only_line is None and not acl_granted(r, version):
                continue
            by_cluster[r["cluster"]] += acl_bindings(r, one, principals)
    done = []
    for cluster, bindings in by_cluster.items():
        if not bindings:
            continue
        bootstrap = os.environ.get("BEDKIT_SOURCE" if cluster == "source" else "BEDKIT_TARGET")
        if not bootstrap:
            fail(2, f"BEDKIT_SOURCE and BEDKIT_TARGET must name the clusters (bed.sh kit sets them)")
        # Two names may give the same row's binding (a cluster-wide row, for each name):
        # create_acls refuses a list with a binding twice.
        bindings = list(dict.fromkeys(bindings))
        admin = AdminClient(conf(bootstrap))
        if revoke:
            futs = admin.delete_acls([AclBindingFilter(b.restype, b.name, b.resource_pattern_type, b.principal,
                                                       b.host, b.operation, b.permission_type)
                                      for b in bindings], request_timeout=timeout)
        else:
            futs = admin.create_acls(bindings, request_timeout=timeout)
        for b, f in futs.items():
            try:
                f.result(timeout=timeout)
            except KafkaException as e:
                fail(5, f"{'delete' if revoke else 'create'} ACL {b} on {cluster}: {e}")
        done += [(cluster, b) for b in bindings]
    return done


def cmd_grant(a):
    """Grants the page's rows whose placeholders the --name NAME=VALUE options fill (all roles,
    or --role ROLE); --revoke-line N deletes the one row on line N of the page instead."""
    names = {}
    for kv in a.name or []:
        k, sep, v = kv.partition("=")
        if not sep or not v:
            fail(2, f'--name "{kv}" must be PLACEHOLDER=VALUE, e.g. "replicated topic=orders"')
        names[k] = v
    roles = [a.role] if a.role else None
    # One placeholder may take several values, comma-separated ("replicated topic=a,b,c").
    many = [k for k, v in names.items() if "," in v]
    if len(many) > 1:
        fail(2, f"--name: only one placeholder may list several values, not {', '.join(many)}")
    sets = [dict(names, **{many[0]: v}) for v in names[many[0]].split(",") if v] if many else [names]
    if a.revoke_line is not None:
        done = grant(sets, roles, a.timeout, revoke=True, only_line=a.revoke_line)
        if not done:
            fail(2, f"line {a.revoke_line} of the ACL page is no row these names fill")
    else:
        done = grant(sets, roles, a.timeout)
    for cluster, b in done:
        print(f"{cluster} {b.principal} {b.operation.name} {b.restype.name} {b.name} "
              f"{b.resource_pattern_type.name}")
    return 0


def cmd_wait(a):
    deadline = time.monotonic() + a.timeout
    last = None
    while time.monotonic() < deadline:
        try:
            md = AdminClient(conf(a.bootstrap)).list_topics(timeout=min(5, a.timeout))
            if len(md.brokers) >= a.brokers:
                return 0
        except KafkaException as e:
            last = e
        time.sleep(0.5)
    fail(4, f"not {a.brokers} broker(s) registered at {a.bootstrap} within {a.timeout}s ({last})")


def cmd_create_topics(a):
    topics = []
    for spec in a.topics:
        parts = spec.split(":")
        if len(parts) not in (2, 3) or not parts[1].isdigit():
            fail(2, f'topic spec "{spec}" must be NAME:PARTITIONS[:compact]')
        cfg = {"cleanup.policy": "compact"} if len(parts) == 3 and parts[2] == "compact" else {}
        for kv in a.config or []:
            k, sep, v = kv.partition("=")
            if not sep:
                fail(2, f'topic config "{kv}" must be NAME=VALUE')
            cfg[k] = v
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
    # A topic to be replicated comes with its rows of docs/acls.md on both clusters, as an
    # admin onboarding it for the migration grants them (--no-grant: a topic of no migration).
    if not a.no_grant:
        grant([{"replicated topic": t.topic} for t in topics], timeout=a.timeout)
    return 0


def cmd_alter_config(a):
    """Sets NAME=VALUE on a topic as an admin does (IncrementalAlterConfigs): a change made
    behind the migration's back, for mm2-offsets accept to find."""
    from confluent_kafka.admin import AlterConfigOpType, ConfigEntry
    entries = []
    for kv in a.config:
        k, sep, v = kv.partition("=")
        if not sep:
            fail(2, f'topic config "{kv}" must be NAME=VALUE')
        entries.append(ConfigEntry(k, v, incremental_operation=AlterConfigOpType.SET))
    admin = AdminClient(conf(a.bootstrap))
    res = ConfigResource(ResourceType.TOPIC, a.topic, incremental_configs=entries)
    for _, f in admin.incremental_alter_configs([res], request_timeout=a.timeout).items():
        try:
            f.result(timeout=a.timeout)
        except KafkaException as e:
            fail(5, f"alter topic {a.topic}: {e}")
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
        if a.keys:  # a compacted topic takes no null key: key i % KEYS, never null
            key = f"c{a.seed}-{i % a.keys}".encode()
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


def cmd_put(a):
    """Writes one record, KEY and VALUE as given (UTF-8), into the partition Java's producer
    would pick for KEY (murmur2, as a Connect worker's): a record of Connect's own topics as a
    worker writes it (e2e: the status a deleted connector's task can leave behind, which real
    Connect writes only by chance)."""
    p = Producer(conf(a.bootstrap, **{"enable.idempotence": True, "partitioner": "murmur2_random"}))
    errors = []
    p.produce(a.topic, key=a.key.encode(), value=a.value.encode(),
              on_delivery=lambda err, _m: errors.append(err) if err is not None else None)
    if p.flush(a.timeout) or errors:
        fail(4, f"put to {a.topic}: {errors[:1] or 'not delivered'}")
    print(1)
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
    for p, recs in read_all(a.bootstrap, a.topic, a.timeout, a.isolation).items():
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


def flink_login():
    """The stand-in Flink job's own login (docs/acls.md, principal flink), or the admin's
    where the bed names none (BEDKIT_FLINK_USERNAME)."""
    user = os.environ.get("BEDKIT_FLINK_USERNAME")
    return (user, os.environ.get("BEDKIT_FLINK_PASSWORD", "")) if user else None


def cmd_commit(a):
    """Commits offsets for a group the way Flink's source does: assign(), never subscribe(),
    so the group stays Empty with no member."""
    grant({"flink group": a.group, "replicated topic": a.topic})
    c = Consumer(conf(a.bootstrap, flink_login(), **{"group.id": a.group, "enable.auto.commit": False}))
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


def group_committed(bootstrap, group, topic, parts, timeout, login=None):
    """{partition: committed offset} for a group (-1001 where nothing is committed)."""
    c = Consumer(conf(bootstrap, login, **{"group.id": group, "enable.auto.commit": False}))
    try:
        got = c.committed([TopicPartition(topic, q) for q in sorted(parts)], timeout=timeout)
    finally:
        c.close()
    return {tp.partition: tp.offset for tp in got}


def java_string_hash(text):
    """java.lang.String.hashCode() of text (UTF-16 code units, 32-bit wrap)."""
    h = 0
    for unit in text.encode("utf-16-be").hex(" ", 2).split():
        h = (31 * h + int(unit, 16)) & 0xFFFFFFFF
    return h - (1 << 32) if h >= 1 << 31 else h


def flink_subtask(topic, partition, parallelism):
    """The source subtask that reads a partition: flink-connector-kafka's
    KafkaSourceEnumerator.getSplitOwner (startIndex from the topic's hashCode, then round robin)."""
    start = ((java_string_hash(topic) * 31) & 0x7FFFFFFF) % parallelism
    return (start + partition) % parallelism


def target_partitions(bootstrap, topic, timeout):
    """The sorted partition ids of a target topic."""
    c = Consumer(conf(bootstrap, **{"group.id": f"bedkit-{os.getpid()}"}))
    try:
        t = c.list_topics(topic, timeout=timeout).topics.get(topic)
        if t is None or t.error is not None:
            fail(5, f"topic {topic} not found at {bootstrap}")
        return sorted(t.partitions)
    finally:
        c.close()


def source_ends(bootstrap, topic, parts, timeout):
    """{partition: high watermark} of the given partitions."""
    c = Consumer(conf(bootstrap, **{"group.id": f"bedkit-{os.getpid()}"}))
    try:
        return {q: c.get_watermark_offsets(TopicPartition(topic, q), timeout=timeout)[1]
                for q in parts}
    finally:
        c.close()


def lso_reached(bootstrap, topic, parts, timeout):
    """True when no transaction is open on any of the partitions: the last stable offset
    (what a read_committed ListOffsets answers) equals the high watermark."""
    ends = []
    for iso in ("read_committed", "read_uncommitted"):
        c = Consumer(conf(bootstrap, **{"group.id": f"bedkit-{os.getpid()}",
                                        "isolation.level": iso}))
        try:
            ends.append([c.get_watermark_offsets(TopicPartition(topic, q), timeout=timeout)[1]
                         for q in sorted(parts)])
        finally:
            c.close()
    return ends[0] == ends[1]


def cmd_flink_copy(a):
    """A Flink-like copier: copies source records [start, C) of each given partition to the same
    partition of the target topic (key, value, headers and timestamp kept), flushes, then
    commits C for the group on the source, as Flink does on a checkpoint.

    --from-committed starts each partition at the group's committed offset, as a restarted
    job does.  --txn-id writes through a transactional producer, as Flink's EXACTLY_ONCE sink
    does: the transaction is committed after the group offsets (the checkpoint), at once, or,
    with --txn-release FILE, only once FILE exists; until then it stays open on the target
    (--status FILE says so), which is what a sink whose final commit is pending leaves.

    The failures that make C untrue on the target:
    --abort-last N   (with --txn-id) the last N records of each partition go into a final
                     transaction that is flushed but never committed, C is committed for the
                     group, and the copier waits until the broker has aborted that transaction
                     (transaction.timeout.ms, --txn-timeout-ms) before it exits: the target
                     lacks source [C - N, C), as when the sink's commit came too late.
    --past N         an at-least-once sink: it copies N records past C of each partition
                     before C is committed (fewer where the partition ends sooner).
    --partitioner fixed --parallelism P
                     FlinkKafkaProducer's default FlinkFixedPartitioner: the source subtask
                     that reads a partition (KafkaSourceEnumerator's owner) writes all it reads
                     to target partition subtask % (target partitions)."""
    upto = parse_offsets(a.upto)
    if a.abort_last and not a.txn_id:
        fail(2, "flink-copy: --abort-last needs --txn-id (the sink's transactions)")
    if a.abort_last and (a.past or a.txn_release):
        fail(2, "flink-copy: --abort-last goes with neither --past nor --txn-release")
    # Flink's own principal (docs/acls.md) writes, commits and reads its group's offsets; its
    # rows for this topic, group and transactional id are granted first, as a platform would.
    names = {"flink group": a.group, "replicated topic": a.topic}
    if a.txn_id:
        # Flink's sink names its transactional ids PREFIX-SUBTASK-N: the grant is on the prefix.
        names["flink transactional id"] = a.txn_id.rstrip("0123456789") or a.txn_id
    grant(names, roles=["flink", "source"])
    if a.target_topic:
        grant({"replicated topic": a.target_topic}, roles=["flink"])
    login = flink_login()
    starts = dict.fromkeys(upto, a.start)
    if a.from_committed:
        for q, o in group_committed(a.source, a.group, a.topic, upto, a.timeout, login).items():
            starts[q] = o if o >= 0 else a.start
    out_topic = a.target_topic or a.topic
    dest = {q: q for q in upto}
    if a.partitioner == "fixed":
        tparts = target_partitions(a.target, out_topic, a.timeout)
        dest = {q: tparts[flink_subtask(a.topic, q, a.parallelism) % len(tparts)] for q in upto}
    pconf = {"enable.idempotence": True, "linger.ms": 5}
    if a.txn_id:
        pconf.update({"transactional.id": a.txn_id, "transaction.timeout.ms": a.txn_timeout_ms})
    p = Producer(conf(a.target, login, **pconf))
    errors = []
    copied = 0

    def cb(err, _msg):
        if err is not None:
            errors.append(err)

    def copy(part, lo, hi):
        n = 0
        for m in read_range(a.source, a.topic, part, lo, hi, a.timeout):
            _ts_type, ts = m.timestamp()
            while True:
                try:
                    p.produce(out_topic, value=m.value(), key=m.key(), headers=m.headers() or None,
                              partition=dest[part], timestamp=ts, on_delivery=cb)
                    break
                except BufferError:
                    p.poll(0.1)
            n += 1
            p.poll(0)
        return n

    def flushed():
        left = p.flush(a.timeout)
        if left or errors:
            fail(4, f"flink-copy: {left} undelivered, {len(errors)} failed ({errors[:1]})")

    if a.txn_id:
        p.init_transactions(a.timeout)
        p.begin_transaction()
    cut = {q: max(starts[q], end - a.abort_last) for q, end in upto.items()}
    # Past C, but not past the end: a partition's end is never waited for.
    ends = source_ends(a.source, a.topic, upto, a.timeout) if a.past else {}
    for part, end in sorted(upto.items()):
        copied += copy(part, starts[part], min(cut[part] + a.past, ends.get(part, end)))
    flushed()
    aborted = 0
    if a.abort_last:
        # The earlier checkpoints' transaction is committed; the last one is only pre-committed.
        p.commit_transaction(a.timeout)
        p.begin_transaction()
        for part, end in sorted(upto.items()):
            aborted += copy(part, cut[part], end)
        flushed()
    c = Consumer(conf(a.source, login, **{"group.id": a.group, "enable.auto.commit": False}))
    try:
        res = c.commit(offsets=[TopicPartition(a.topic, q, o) for q, o in sorted(upto.items())],
                       asynchronous=False)
        bad = [t for t in res if t.error is not None]
        if bad:
            fail(5, f"commit to {a.group}: {bad[0].error}")
    finally:
        c.close()
    if a.abort_last:
        if a.status:
            write_json(a.status, {"copied": copied, "pending": aborted, "transaction": "open",
                                  "txn_id": a.txn_id})
        # The broker aborts it: transaction.timeout.ms, then its cleanup interval.
        deadline = time.monotonic() + a.txn_timeout_ms / 1000 + a.timeout
        while not lso_reached(a.target, out_topic, set(dest.values()), a.timeout):
            if time.monotonic() > deadline:
                fail(4, "flink-copy: the broker did not abort the last transaction in time")
            time.sleep(0.5)
        if a.status:
            write_json(a.status, {"copied": copied, "aborted": aborted, "transaction": "aborted",
                                  "txn_id": a.txn_id})
        print(copied, flush=True)
        os._exit(0)  # the producer must not touch the transaction the broker aborted
    if a.txn_id:
        if a.status:
            write_json(a.status, {"copied": copied, "transaction": "open", "txn_id": a.txn_id})
        if a.txn_release:
            deadline = time.monotonic() + a.txn_timeout_ms / 1000
            while not os.path.exists(a.txn_release):
                if time.monotonic() > deadline:
                    fail(4, f"flink-copy: {a.txn_release} did not appear before the transaction timed out")
                time.sleep(0.2)
        p.commit_transaction(a.timeout)
        if a.status:
            write_json(a.status, {"copied": copied, "transaction": "committed", "txn_id": a.txn_id})
    print(copied)
    return 0


def write_json(path, obj):
    """Writes obj to path atomically (a reader never sees half a file)."""
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "w") as f:
        json.dump(obj, f, sort_keys=True)
    os.replace(tmp, path)


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


def topic_specs(spec):
    """"orders:4,payments:3" -> [("orders", 4), ("payments", 3)]."""
    out = []
    for item in spec.split(","):
        t, _, n = item.rpartition(":")
        if not t or not n.isdigit():
            fail(2, f'topics "{spec}" must be NAME:PARTITIONS[,...]')
        out.append((t, int(n)))
    return out


def seq_of(m):
    """The SEQ_HEADER number of a message, or None."""
    for k, v in m.headers() or []:
        if k == SEQ_HEADER and v is not None:
            try:
                return int(v)
            except ValueError:
                return None
    return None


def cmd_produce_loop(a):
    """Keeps writing to every partition of the topics, round robin, at --rate records/s, until
    DIR/stop exists or SIGTERM.  Record n of a partition carries SEQ_HEADER n, plus what
    record() gives (null keys, tombstones, other headers) and an explicit CreateTime that is
    not the send time.  Partitions listed in DIR/hold ("topic:partition" lines) are skipped
    while listed; each change of the hold is acknowledged in DIR/state.json only after a
    flush, so a reader of "held" knows those partitions' log ends are final.  DIR/state.json
    also carries the records sent and acknowledged per partition."""
    parts = [(t, q) for t, n in topic_specs(a.topics) for q in range(n)]
    keys = [f"{t}/{q}" for t, q in parts]
    sent = dict.fromkeys(keys, 0)
    acked = dict.fromkeys(keys, 0)
    errors = []
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    p = Producer(conf(a.bootstrap, **{"enable.idempotence": True, "linger.ms": 5}))

    def cb(err, msg):
        if err is not None:
            errors.append(str(err))
        else:
            acked[f"{msg.topic()}/{msg.partition()}"] += 1

    def hold_list():
        try:
            with open(os.path.join(a.control, "hold")) as f:
                return sorted({ln.strip() for ln in f if ln.strip()})
        except FileNotFoundError:
            return []

    def state(final=False):
        write_json(os.path.join(a.control, "state.json"),
                   {"held": held, "sent": sent, "acked": acked, "errors": len(errors), "final": final})

    held = []
    state()
    t0 = time.monotonic()
    n = 0
    rr = 0
    next_check = 0.0
    next_state = 0.0
    while True:
        now = time.monotonic()
        if now >= next_check:
            next_check = now + 0.2
            if stop or os.path.exists(os.path.join(a.control, "stop")):
                break
            h = hold_list()
            if h != held:
                if p.flush(a.timeout):
                    fail(4, "produce-loop: records not delivered before a hold")
                held = h
                state()
        if now >= next_state:
            next_state = now + 2
            state()
        due = t0 + n / a.rate
        if now < due:
            p.poll(min(due - now, 0.05))
            continue
        live = [(t, q) for t, q in parts if f"{t}:{q}" not in held]
        n += 1
        if not live:
            continue
        t, q = live[rr % len(live)]
        rr += 1
        key = f"{t}/{q}"
        seq = sent[key]
        k, v, hdrs, _ = record(seq, a.seed * 100 + parts.index((t, q)))
        ts = int(time.time() * 1000) - 5000 - seq % 1000  # explicit, and never the send time
        while True:
            try:
                p.produce(t, value=v, key=k, headers=[(SEQ_HEADER, str(seq).encode())] + hdrs,
                          partition=q, timestamp=ts, on_delivery=cb)
                break
            except BufferError:
                p.poll(0.1)
        sent[key] += 1
        p.poll(0)
    left = p.flush(a.timeout)
    state(final=True)
    if left or errors:
        fail(4, f"produce-loop: {left} undelivered, {len(errors)} failed ({errors[:1]})")
    print(json.dumps({"sent": sum(sent.values()), "acked": sum(acked.values())}))
    return 0


def topic_partitions(client, topics, timeout):
    """[(topic, partition)...] of the topics, in order; fails if one is missing."""
    out = []
    for t in topics:
        md = client.list_topics(t, timeout=timeout).topics.get(t)
        if md is None or md.error is not None:
            fail(5, f"topic {t} not found")
        out += [(t, q) for q in sorted(md.partitions)]
    return out


def cmd_sample(a):
    """Every --interval seconds, one JSON line: the time (epoch ms), the SOURCE log end of each
    partition and how far the TARGET has got: one past the highest SEQ_HEADER it holds
    (read_committed), i.e. the source offset replication has reached.  A first line names
    the partitions.  Stops when DIR/stop-sampler exists."""
    topics = a.topics.split(",")
    src = Consumer(conf(a.source, **{"group.id": f"bedkit-s-{os.getpid()}", "enable.auto.commit": False}))
    parts = topic_partitions(src, topics, a.timeout)
    idx = {tp: i for i, tp in enumerate(parts)}
    pos = [0] * len(parts)
    nxt = [OFFSET_BEGINNING] * len(parts)  # the target offset to read next, per partition

    def target_consumer():
        c = Consumer(conf(a.target, **{"group.id": f"bedkit-t-{os.getpid()}", "enable.auto.commit": False,
                                       "isolation.level": "read_committed", "fetch.wait.max.ms": 100}))
        c.assign([TopicPartition(t, q, o) for (t, q), o in zip(parts, nxt)])
        return c

    tgt = target_consumer()
    last_msg = next_stall = time.monotonic()
    stopfile = os.path.join(a.control, "stop-sampler")
    with open(a.out, "a", buffering=1) as out:
        out.write(json.dumps({"partitions": [f"{t}/{q}" for t, q in parts],
                              "interval": a.interval}) + "\n")
        next_t = time.monotonic()
        while not os.path.exists(stopfile):
            wait = max(0.0, min(0.1, next_t - time.monotonic()))
            for m in tgt.consume(1000, wait):
                if m.error():
                    continue
                i = idx.get((m.topic(), m.partition()))
                if i is None:
                    continue
                last_msg = time.monotonic()
                nxt[i] = m.offset() + 1
                s = seq_of(m)
                if s is not None and s + 1 > pos[i]:
                    pos[i] = s + 1
            now = time.monotonic()
            # A consumer that lost its broker (a TARGET restart) was seen to fetch nothing
            # ever after: one that has read nothing for 10 s while the target holds records
            # past it, or that cannot tell, is replaced, reading on from where it was.
            if now - last_msg > 10 and now >= next_stall:
                next_stall = now + 10
                try:
                    ahead = any(tgt.get_watermark_offsets(TopicPartition(t, q), timeout=5, cached=False)[1] > max(o, 0)
                                for (t, q), o in zip(parts, nxt))
                except KafkaException:
                    ahead = True  # the stuck consumer could not even ask: replace it as well
                if ahead:
                    print(f"{PROG}: sample: the target consumer read nothing for {now - last_msg:.0f} s with records "
                          "to read; replacing it", file=sys.stderr)
                    tgt.close()
                    tgt = target_consumer()
            if now < next_t:
                continue
            t_ms = int(time.time() * 1000)
            try:
                ends = [src.get_watermark_offsets(TopicPartition(t, q), timeout=5, cached=False)[1]
                        for t, q in parts]
            except KafkaException:
                ends = None
            if ends is not None:
                out.write(json.dumps({"t": t_ms, "src": ends, "pos": list(pos)}) + "\n")
            next_t = max(next_t + a.interval, now)
    src.close()
    tgt.close()
    return 0


def read_partitions(bootstrap, parts, ends, timeout, until=None):
    """The messages of each partition from offset 0 (read_committed): up to ends[tp] when ends
    is given, else while until(got) is false, re-reading nothing; {tp: [message...]}."""
    c = Consumer(conf(bootstrap, **{"group.id": f"bedkit-r-{os.getpid()}-{time.monotonic_ns()}",
                                    "enable.auto.commit": False, "isolation.level": "read_committed"}))
    got = {tp: [] for tp in parts}
    try:
        todo = [tp for tp in parts if ends is None or ends[tp] > 0]
        c.assign([TopicPartition(t, q, OFFSET_BEGINNING) for t, q in todo])
        deadline = time.monotonic() + timeout
        done = set()
        while True:
            if ends is not None and len(done) >= len(todo):
                break
            if until is not None and until(got, c):
                break
            if time.monotonic() > deadline:
                return got, False
            for m in c.consume(1000, 0.5):
                if m.error():
                    continue
                tp = (m.topic(), m.partition())
                if ends is not None and m.offset() >= ends[tp]:
                    done.add(tp)
                    continue
                got[tp].append(m)
                if ends is not None and m.offset() >= ends[tp] - 1:
                    done.add(tp)
            if ends is not None:  # transaction markers can end a partition early
                for tp in todo:
                    if tp not in done and c.position([TopicPartition(*tp)])[0].offset >= ends[tp]:
                        done.add(tp)
        return got, True
    finally:
        c.close()


def cmd_audit(a):
    """Every source record of the topics, from offset 0 to the log end (--ends JSON, or the ends
    now), against the target, by SEQ_HEADER: per partition the records lost (before and from
    the boundary C of --plan), the duplicates, the target records whose fields (key, value,
    headers, timestamp and its type) differ from their source record, and the source offset
    of the first record written at or after --first-from (JSON {"topic/partition": target
    offset}).  Waits (up to --timeout) until the target holds a record from after the snapshot
    on every partition (so replays of earlier ones are done) or, with --final, the snapshot's
    last record and its log end stopped moving.  Prints JSON ("complete": false when the wait
    timed out); exits 1 when a record is lost, differs or is unknown to the source."""
    topics = a.topics.split(",")
    admin_c = Consumer(conf(a.source, **{"group.id": f"bedkit-a-{os.getpid()}"}))
    parts = topic_partitions(admin_c, topics, a.timeout)
    if a.ends:
        with open(a.ends) as f:
            raw = json.load(f)
        ends = {(t, q): int(raw[f"{t}/{q}"]) for t, q in parts}
    else:
        ends = {(t, q): admin_c.get_watermark_offsets(TopicPartition(t, q), timeout=a.timeout, cached=False)[1]
                for t, q in parts}
    admin_c.close()
    boundary = {}
    if a.plan:
        with open(a.plan) as f:
            for e in json.load(f)["partitions"]:
                boundary[(e["topic"], e["partition"])] = e["c"]
    first_from = {}
    if a.first_from:
        with open(a.first_from) as f:
            first_from = {tuple(k.rsplit("/", 1)): v for k, v in json.load(f).items()}
        first_from = {(t, int(q)): v for (t, q), v in first_from.items()}

    src, ok = read_partitions(a.source, parts, ends, a.timeout)
    if not ok:
        fail(4, "audit: the source could not be read to its end in time")
    tgt_c = Consumer(conf(a.target, **{"group.id": f"bedkit-h-{os.getpid()}"}))
    quiet = {"hw": None, "since": 0.0}

    def complete(got, c):
        # Per partition MM2 copies in order, so once the target holds a record from after the
        # snapshot (or, at the end, the snapshot's last record) every earlier one it will ever
        # copy is there, and replays after a crash come before newer records: what is missing
        # then is lost, and is counted, not waited for.
        for tp in parts:
            if ends[tp] == 0:
                continue
            top = max((s for s in map(seq_of, got[tp]) if s is not None), default=-1)
            if top < (ends[tp] - 1 if a.final else ends[tp]):
                return False
        if not a.final:
            return True
        # At the end, read on until the target's log end has not moved for 3 s.
        hw = tuple(tgt_c.get_watermark_offsets(TopicPartition(*tp), timeout=10, cached=False)[1] for tp in parts)
        pos = tuple(p.offset for p in c.position([TopicPartition(*tp) for tp in parts]))
        if hw != quiet["hw"]:
            quiet.update(hw=hw, since=time.monotonic())
            return False
        return time.monotonic() - quiet["since"] >= 3 and all(
            p < 0 or p >= h for p, h in zip(pos, hw))

    tgt, ok = read_partitions(a.target, parts, None, a.timeout, until=complete)
    tgt_c.close()
    res = {}
    tot = {"source": 0, "target": 0, "lost": 0, "lost_after_boundary": 0, "duplicates": 0,
           "duplicates_before_boundary": 0, "mismatched": 0, "unknown": 0, "seq_not_offset": 0}
    for tp in parts:
        t, q = tp
        by_seq = {}
        seq_not_offset = 0
        for m in src[tp]:
            s = seq_of(m)
            if s != m.offset():
                seq_not_offset += 1
            by_seq[s] = canon(m)
        c_ = boundary.get(tp)
        counts = {}
        mismatched = unknown = 0
        first = None
        for m in tgt[tp]:
            s = seq_of(m)
            if s is None or (s >= ends[tp] and a.final):
                unknown += 1
                continue
            if s >= ends[tp]:
                continue
            counts[s] = counts.get(s, 0) + 1
            want = by_seq.get(s)
            got = canon(m)
            if want is None or {k: v for k, v in want.items() if k != "o"} != {k: v for k, v in got.items() if k != "o"}:
                mismatched += 1
            if first is None and tp in first_from and m.offset() >= first_from[tp]:
                first = s
        lost = [i for i in range(ends[tp]) if i not in counts]
        dups = {i: n - 1 for i, n in counts.items() if n > 1}
        r = {"source": ends[tp], "target": sum(counts.values()), "c": c_,
             "m": None if c_ is None or c_ == 0 else c_ - 1,
             "first_replicated": first,
             "lost": len(lost), "lost_after_boundary": len([i for i in lost if c_ is not None and i >= c_]),
             "first_lost": lost[:5], "duplicates": sum(dups.values()),
             "duplicates_before_boundary": sum(n for i, n in dups.items() if c_ is not None and i < c_),
             "mismatched": mismatched, "unknown": unknown, "seq_not_offset": seq_not_offset}
        res[f"{t}/{q}"] = r
        for k in tot:
            tot[k] += r[k]
    print(json.dumps({"complete": ok, "final": a.final, "partitions": res, "totals": tot}, sort_keys=True))
    return 1 if (not ok or tot["lost"] or tot["mismatched"] or tot["unknown"]) else 0


def cmd_inventory(a):
    """What replication must not change, as JSON: the topic names, the non-default configs and
    partition counts of --topics, every ACL and every consumer group of one cluster."""
    admin = AdminClient(conf(a.bootstrap))
    md = admin.list_topics(timeout=a.timeout)
    out = {"topics": sorted(md.topics), "partitions": {}, "configs": {}}
    for t in a.topics.split(",") if a.topics else []:
        if t not in md.topics:
            fail(5, f"topic {t} not found at {a.bootstrap}")
        out["partitions"][t] = len(md.topics[t].partitions)
        r = ConfigResource("topic", t)
        cfg = admin.describe_configs([r], request_timeout=a.timeout)[r].result(timeout=a.timeout)
        out["configs"][t] = {k: v.value for k, v in sorted(cfg.items()) if not v.is_default}
    f = AclBindingFilter(ResourceType.ANY, None, ResourcePatternType.ANY, None, None,
                         AclOperation.ANY, AclPermissionType.ANY)
    try:
        acls = admin.describe_acls(f, request_timeout=a.timeout).result(timeout=a.timeout)
        out["acls"] = sorted(f"{b.principal} {b.permission_type.name} {b.operation.name} "
                             f"{b.restype.name}:{b.resource_pattern_type.name}:{b.name} host={b.host}"
                             for b in acls)
    except KafkaException as e:
        out["acls_error"] = str(e.args[0])
    out["groups"] = sorted(g.group_id for g in admin.list_consumer_groups(
        request_timeout=a.timeout).result(timeout=a.timeout).valid)
    print(json.dumps(out, sort_keys=True))
    return 0


def cmd_acl_add(a):
    """Allows PRINCIPAL an operation on a topic (a platform's ACL, for replication to leave alone)."""
    admin = AdminClient(conf(a.bootstrap))
    b = AclBinding(ResourceType.TOPIC, a.topic, ResourcePatternType.LITERAL, a.principal, "*",
                   AclOperation[a.operation], AclPermissionType.ALLOW)
    try:
        admin.create_acls([b], request_timeout=a.timeout)[b].result(timeout=a.timeout)
    except KafkaException as e:
        fail(5, f"create ACL {b}: {e}")
    return 0


def cmd_watch(a):
    """Polls the sum of a topic's log ends every --interval s until it reaches --count: prints
    JSON with the epoch ms of the start, of the first poll that saw a record and of the one
    that saw them all, and the count at the first sight (for a rate without the start-up);
    --trace: every poll's epoch ms and count too."""
    c = Consumer(conf(a.bootstrap, **{"group.id": f"bedkit-w-{os.getpid()}"}))
    parts = topic_partitions(c, [a.topic], a.timeout)
    t0 = time.time()
    deadline = time.monotonic() + a.timeout
    first = first_n = None
    trace = []
    while True:
        n = sum(c.get_watermark_offsets(TopicPartition(*tp), timeout=10, cached=False)[1] for tp in parts)
        now = time.time()
        if a.trace:
            trace.append([int(now * 1000), n])
        if n > 0 and first is None:
            first, first_n = now, n
        if n >= a.count:
            break
        if time.monotonic() > deadline:
            c.close()
            fail(4, f"watch {a.topic}: {n} of {a.count} records after {a.timeout}s")
        time.sleep(a.interval)
    c.close()
    out = {"start_ms": int(t0 * 1000), "first_ms": int(first * 1000), "first_count": first_n,
           "done_ms": int(now * 1000), "count": n}
    if a.trace:
        out["trace"] = trace
    print(json.dumps(out))
    return 0


def main():
    ap = argparse.ArgumentParser(prog=PROG)
    sub = ap.add_subparsers(dest="cmd", required=True)
    w = sub.add_parser("wait"); w.add_argument("--bootstrap", required=True)
    w.add_argument("--timeout", type=float, default=60)
    w.add_argument("--brokers", type=int, default=1, help="wait until this many are registered")
    ct = sub.add_parser("create-topics"); ct.add_argument("--bootstrap", required=True)
    ct.add_argument("--replication-factor", type=int, default=1)
    ct.add_argument("--timeout", type=float, default=30); ct.add_argument("topics", nargs="+")
    ct.add_argument("--config", action="append", help="NAME=VALUE for every topic of this call")
    ct.add_argument("--no-grant", action="store_true", help="no ACL rows: a topic of no migration")
    ac = sub.add_parser("alter-config"); ac.add_argument("--bootstrap", required=True)
    ac.add_argument("--topic", required=True); ac.add_argument("--timeout", type=float, default=30)
    ac.add_argument("--config", action="append", required=True, help="NAME=VALUE")
    gr = sub.add_parser("grant"); gr.add_argument("--name", action="append")
    gr.add_argument("--role"); gr.add_argument("--revoke-line", type=int)
    gr.add_argument("--timeout", type=float, default=30)
    pr = sub.add_parser("produce"); pr.add_argument("--bootstrap", required=True)
    pr.add_argument("--topic", required=True); pr.add_argument("--count", type=int, required=True)
    pr.add_argument("--start", type=int, default=0); pr.add_argument("--partitions", type=int, required=True)
    pr.add_argument("--seed", type=int, default=1); pr.add_argument("--timeout", type=float, default=60)
    pr.add_argument("--keys", type=int, default=0, help="key i %% KEYS, never null (compacted topics)")
    pu = sub.add_parser("put"); pu.add_argument("--bootstrap", required=True)
    pu.add_argument("--topic", required=True); pu.add_argument("--key", required=True)
    pu.add_argument("--value", required=True); pu.add_argument("--timeout", type=float, default=30)
    d = sub.add_parser("dump"); d.add_argument("--bootstrap", required=True)
    d.add_argument("--topic", required=True); d.add_argument("--timeout", type=float, default=60)
    d.add_argument("--isolation", choices=["read_committed", "read_uncommitted"],
                   default="read_committed")
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
    fc.add_argument("--from-committed", action="store_true")
    fc.add_argument("--txn-id"); fc.add_argument("--txn-timeout-ms", type=int, default=300000)
    fc.add_argument("--txn-release"); fc.add_argument("--status")
    fc.add_argument("--abort-last", type=int, default=0)
    fc.add_argument("--past", type=int, default=0)
    fc.add_argument("--partitioner", choices=["keep", "fixed"], default="keep")
    fc.add_argument("--parallelism", type=int, default=1)
    to = sub.add_parser("txn-open"); to.add_argument("--bootstrap", required=True)
    to.add_argument("--topic", required=True); to.add_argument("--partition", type=int, default=0)
    to.add_argument("--count", type=int, default=3); to.add_argument("--txn-id", required=True)
    to.add_argument("--txn-timeout-ms", type=int, default=10000)
    to.add_argument("--commit-after", type=float, default=0)
    to.add_argument("--timeout", type=float, default=30)
    pl = sub.add_parser("produce-loop"); pl.add_argument("--bootstrap", required=True)
    pl.add_argument("--topics", required=True); pl.add_argument("--rate", type=float, required=True)
    pl.add_argument("--control", required=True); pl.add_argument("--seed", type=int, default=1)
    pl.add_argument("--timeout", type=float, default=120)
    sa = sub.add_parser("sample"); sa.add_argument("--source", required=True)
    sa.add_argument("--target", required=True); sa.add_argument("--topics", required=True)
    sa.add_argument("--control", required=True); sa.add_argument("--out", required=True)
    sa.add_argument("--interval", type=float, default=0.5); sa.add_argument("--timeout", type=float, default=30)
    au = sub.add_parser("audit"); au.add_argument("--source", required=True)
    au.add_argument("--target", required=True); au.add_argument("--topics", required=True)
    au.add_argument("--ends"); au.add_argument("--plan"); au.add_argument("--first-from")
    au.add_argument("--final", action="store_true"); au.add_argument("--timeout", type=float, default=300)
    iv = sub.add_parser("inventory"); iv.add_argument("--bootstrap", required=True)
    iv.add_argument("--topics"); iv.add_argument("--timeout", type=float, default=30)
    aa = sub.add_parser("acl-add"); aa.add_argument("--bootstrap", required=True)
    aa.add_argument("--principal", required=True); aa.add_argument("--topic", required=True)
    aa.add_argument("--operation", default="READ", choices=["READ", "WRITE", "DESCRIBE"])
    aa.add_argument("--timeout", type=float, default=30)
    wa = sub.add_parser("watch"); wa.add_argument("--bootstrap", required=True)
    wa.add_argument("--topic", required=True); wa.add_argument("--count", type=int, required=True)
    wa.add_argument("--interval", type=float, default=0.1); wa.add_argument("--timeout", type=float, default=600)
    wa.add_argument("--trace", action="store_true", help="also every poll's [epoch ms, count] (bench/replication)")
    a = ap.parse_args()
    return {"wait": cmd_wait, "create-topics": cmd_create_topics, "alter-config": cmd_alter_config, "produce": cmd_produce,
            "dump": cmd_dump, "compare": cmd_compare,
            "ends": cmd_ends, "connect-offsets": cmd_connect_offsets, "commit": cmd_commit, "committed": cmd_committed,
            "delete-records": cmd_delete_records, "flink-copy": cmd_flink_copy,
            "txn-open": cmd_txn_open, "produce-loop": cmd_produce_loop, "sample": cmd_sample,
            "audit": cmd_audit, "inventory": cmd_inventory, "acl-add": cmd_acl_add, "put": cmd_put, "grant": cmd_grant,
            "watch": cmd_watch}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())
