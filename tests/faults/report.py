#!/usr/bin/env python3
"""The fault matrix's report: reads what tests/faults/run.sh left in DIR (meta.json,
events.jsonl, samples.jsonl, checks.jsonl, audit-*.json, jobs.jsonl), writes DIR/REPORT.md
and DIR/lag.svg in the rehearsal's format (tests/rehearsal/reportlib.py), prints the report
and exits 0 only when nothing was lost and every check passed (else 1, one line per failed
check on stderr).

  report.py DIR

Per replication fault run, from the lag sampler (every 0.5 s, per partition, the source log
end and one past the highest source offset the target holds):
  pause     the longest time a partition's target made no progress while the source held
            records it lacked, for stretches that began from 3 s before the injection on;
  recovery  from the heal (broker started again, network back, JVM continued) to the first
            sample where every partition's target holds what the source held at the heal;
  lost and duplicates: the audit after the run against the audit before it.
"""
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "rehearsal"))
from reportlib import checks_table, esc, lag_svg, lines, load, longest, read_samples, secs, stalls  # noqa: E402

D = sys.argv[1]
meta = load(D, "meta.json", {})
events = lines(D, "events.jsonl")
checks = lines(D, "checks.jsonl")
jobs = lines(D, "jobs.jsonl")
PARTS, samples = read_samples(D)
STALLS = stalls(samples, PARTS)

# What Kafka's own system tests promise for the same kind of fault (tests/kafkatest):
# connect_distributed_test.test_bounce bounces workers (clean: every seqno once; hard: at least
# once); replication_test bounces brokers (acks=all, idempotent producers: nothing lost);
# round_trip_fault_test partitions the network and stops processes (the workload completes).
PROMISE = {
    "target-restart": "broker clean bounce (replication_test): nothing lost",
    "target-kill": "broker hard bounce (replication_test): nothing lost",
    "source-restart": "broker clean bounce (replication_test): nothing lost",
    "source-kill": "broker hard bounce (replication_test): nothing lost",
    "worker-partition": "not tested for Connect; network partition (round_trip_fault_test): workload completes; "
                        "Connect's source contract: at least once",
    "worker-sigstop": "not tested for Connect; process stop (round_trip_fault_test): workload completes; "
                      "like a hard bounce (test_bounce clean=False): at least once",
}
KIND = {"target-restart": "TARGET broker SIGTERM, started again", "target-kill": "TARGET broker SIGKILL, started again",
        "source-restart": "SOURCE broker SIGTERM, started again", "source-kill": "SOURCE broker SIGKILL, started again",
        "worker-partition": f"a worker's network cut for {meta.get('hold_s', 30)} s",
        "worker-sigstop": f"a worker's JVM SIGSTOPped for {meta.get('hold_s', 30)} s"}
MARKS = {"inject": ("#e15759", "", "fault"), "heal": ("#59a14f", "4 3", "heal"), "sigkill": ("#000", "", "K")}


def first(kind, fault):
    return next((e for e in events if e["kind"] == kind and e.get("fault") == fault), None)


def sample_at(t):
    """The last sample at or before t."""
    best = None
    for s in samples:
        if s["t"] <= t:
            best = s
        else:
            break
    return best


def progress_gap(t_from, t_to):
    """The longest time, on any partition, between two samples in [t_from, t_to] that showed the
    target advancing on it: (ms, partition).  Unlike the rehearsal's stalls, a stretch without
    samples (the SOURCE broker down: its log ends cannot be read) counts too."""
    best = (0, None)
    for i, p in enumerate(PARTS):
        last_t, last_pos = None, None
        for s in samples:
            if s["t"] < t_from - 3000 or s["t"] > t_to:
                continue
            if last_pos is None or s["pos"][i] > last_pos:
                if last_t is not None and s["t"] - last_t > best[0]:
                    best = (s["t"] - last_t, p)
                last_t, last_pos = s["t"], s["pos"][i]
    return best


def recovery_ms(t_heal):
    """From t_heal to the first sample where the target holds what the source held at t_heal."""
    s0 = sample_at(t_heal)
    if s0 is None:
        return None
    for s in samples:
        if s["t"] >= t_heal and all(p >= w for p, w in zip(s["pos"], s0["src"])):
            return s["t"] - t_heal
    return None


# ---- the replication faults, run by run -----------------------------------------------------
audit_names = meta.get("audits", [])
prev = {"lost": 0, "duplicates": 0}
runs = []
for name in audit_names:
    a = load(D, f"audit-{name}.json")
    tot = a["totals"] if a else None
    inj, heal, rec = first("inject", name), first("heal", name), first("recovered", name)
    if inj and heal and tot is not None:
        end = rec["t"] if rec else heal["t"] + 300000
        pause, on = max(longest(STALLS, PARTS, inj["t"] - 3000, end), progress_gap(inj["t"], end),
                        key=lambda x: x[0])
        runs.append({"name": name, "fault": name.split("#")[0], "inject": inj, "heal": heal,
                     "lost": tot["lost"] - prev["lost"], "duplicates": tot["duplicates"] - prev["duplicates"],
                     "mismatched": tot["mismatched"], "complete": a["complete"],
                     "pause_ms": pause, "pause_on": on, "recovery_ms": recovery_ms(heal["t"]),
                     "recovered": bool(rec and rec.get("ok")), "state": (rec or {}).get("connector_state", "-")})
    if tot is not None:
        prev = tot
final = load(D, "audit-final.json")

for r in runs:
    checks.append({"name": f"{r['name']}.nothing-lost", "ok": r["lost"] == 0 and r["mismatched"] == 0 and r["complete"],
                   "detail": f"{r['lost']} records lost, {r['mismatched']} differing, {r['duplicates']} duplicated"
                             + ("" if r["complete"] else "; the target did not catch up in time")})
if final:
    tot = final["totals"]
    checks.append({"name": "data.nothing-lost", "ok": final["complete"] and tot["lost"] == 0,
                   "detail": f"{tot['source']} source records, {tot['lost']} missing on the target"})
    checks.append({"name": "data.fields-equal", "ok": tot["mismatched"] == 0 and tot["unknown"] == 0,
                   "detail": f"{tot['target']} target records compared field by field (key, value, headers, timestamp "
                             f"and type): {tot['mismatched']} differ, {tot['unknown']} unknown to the source"})
else:
    checks.append({"name": "data.nothing-lost", "ok": False, "detail": "no final audit (the run stopped early)"})
failed = [c for c in checks if not c["ok"]]

bands = []
for r in runs:
    rec = first("recovered", r["name"])
    bands.append((r["name"], r["inject"]["t"], rec["t"] if rec else r["heal"]["t"]))
with open(os.path.join(D, "lag.svg"), "w") as f:
    f.write(lag_svg(samples, PARTS, events, bands,
                    f"Replication lag (records the target lacks) through the fault matrix, {meta.get('rate', 0):g} records/s",
                    MARKS))

# ---- the report --------------------------------------------------------------------------------
md = []
w = md.append
verdict = "PASSED" if not failed else f"FAILED ({len(failed)} check{'s' if len(failed) > 1 else ''})"
w(f"# mm2kit fault matrix: {verdict}\n")
w(f"Bed `{meta.get('bed')}`: image `{meta.get('image')}` ({meta.get('image_id')}), Kafka {meta.get('kafka')}, "
  f"single-broker SOURCE and TARGET KRaft clusters (logs kept across restarts), 3 Connect workers, "
  f"`scheduled.rebalance.max.delay.ms` {meta.get('delay_ms')}, `session.timeout.ms` 10000. A producer wrote "
  f"{meta.get('rate', 0):g} records/s to `orders` (4 partitions) and `payments` (3) all along; MirrorSourceConnector "
  f"copied them from the earliest offset. Wall time {secs(meta.get('end_ms', 0) - meta.get('start_ms', 0))}.\n")
if final:
    tot = final["totals"]
    w(f"**Records lost: {tot['lost']}** of {tot['source']}. Duplicates: {tot['duplicates']}. "
      f"Fields differing: {tot['mismatched']}.\n")
w("![replication lag over time](lag.svg)\n")

w("## Figures\n")
w("| fault | runs | records lost | duplicates | longest pause | recovery time | Kafka's system tests promise |")
w("| --- | --- | --- | --- | --- | --- | --- |")
by = {}
for r in runs:
    by.setdefault(r["fault"], []).append(r)
for fault, rs in by.items():
    rec = [r["recovery_ms"] for r in rs if r["recovery_ms"] is not None]
    dups = ", ".join(str(r["duplicates"]) for r in rs)
    w(f"| {esc(KIND.get(fault, fault))} | {len(rs)} | {sum(r['lost'] for r in rs)} | {dups} | "
      f"{secs(max(r['pause_ms'] for r in rs))} | "
      f"{(secs(statistics.median(rec)) + ' median, ' + secs(max(rec)) + ' max') if rec else 'never'} | "
      f"{esc(PROMISE.get(fault, '-'))} |")
jb = {}
for j in jobs:
    jb.setdefault(j["fault"].rsplit("-", 1)[0].removeprefix("jf-"), []).append(j)
for fault, js in jb.items():
    ok = all(c["ok"] for c in checks if c["name"].startswith(tuple(f"{j['fault']}." for j in js)))
    w(f"| mm2-offsets: {esc(fault)} | {len(js)} | - | - | - | first run exit {', '.join(str(j['first_rc']) for j in js)}; "
      f"rerun {'verified' if ok else '**not verified**'} | none (Kafka has no such job) |")
w("\nDuplicates are listed run by run. A pause is the longest stretch, on any partition, in which the target "
  "made no progress while the source held records it lacked (sampled every 0.5 s; while the SOURCE broker "
  "is down no sample is taken, and the time between the samples around the outage counts), from 3 s "
  "before the injection to the recovery; recovery runs from the heal to the first sample in which every partition's "
  "target holds what the source held at the heal.\n")

w("## Run by run\n")
w("| run | what | who | down for | lost | duplicates | pause (on) | recovery | connector status after |")
w("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for r in runs:
    i, h = r["inject"], r["heal"]
    who = i.get("broker") or (i.get("worker", "?").rsplit("-", 1)[-1] + (" (leader)" if i.get("leader") else
                                                                         f" (member, {i.get('tasks', '?')} tasks)"))
    stop = f"{secs(h['stop_ms'])}, exit {h['exit_code']}" if "stop_ms" in h else "-"
    w(f"| {esc(r['name'])} | {esc(KIND.get(r['fault'], r['fault']))} | {esc(who)} | {stop} | {r['lost']} | "
      f"{r['duplicates']} | {secs(r['pause_ms'])} ({esc(r['pause_on'] or '-')}) | "
      f"{secs(r['recovery_ms']) if r['recovery_ms'] is not None else 'never'} | {esc(r['state'])} |")
w("\n\"Down for\" is a broker's stop to its start again (and the exit code of the stop: 143 SIGTERM, 137 "
  "SIGKILL). The connector status is the connector's own (its tasks were RUNNING): UNASSIGNED there is a stale "
  "record in the status topic (see the Checks).")
if jobs:
    w("\n| mm2-offsets run | first run's exit | its error line | verify after the fault | rerun of apply | rerun's backup, its PATCH | check after resume |")
    w("| --- | --- | --- | --- | --- | --- | --- |")
    for j in jobs:
        rerun = str(j["rerun_rc"]) + (f" (refused on a stale UNASSIGNED status first; then {j.get('remedy') or 'the remedy it named'})"
                                      if j.get("stop_by_hand") else "")
        bp = "-"
        if "rerun_backup" in j:
            try:
                n_backed = f"{len(json.loads(j['rerun_backup']))} offsets"
            except ValueError:
                n_backed = j["rerun_backup"]
            bp = (f"{n_backed}; PATCH of {j['rerun_patched']} of {j['plan_partitions']} partitions" if j.get("rerun_patched")
                  else f"{n_backed}; nothing to PATCH")
        w(f"| {esc(j['fault'])} | {j['first_rc']} | {esc(j['error'] or '-')} | {j['verify_rc']} | {esc(rerun)} | {esc(bp)} | {j['check_rc']} |")
    w("\nExit codes: 0 ok, 1 check negative (verify: Connect differs from the plan), 4 Connect or Kafka "
      "unreachable or timed out, 5 an unexpected answer.")
stale = [e for e in events if e["kind"] == "stale-status"]
if stale:
    w("\n## A connector status left behind\n")
    w("Where Connect's REST status of the connector read other than RUNNING while its tasks ran (a stale record in "
      "the status topic): what `mm2-probe connectors` (run in a worker) and the JMX exporter's "
      "`kafka_connect_connector_status` (what the alerts read; the bean lives on the worker that runs the connector) "
      "said at that moment.\n")
    w("| when | REST status | mm2-probe connectors | exporter |")
    w("| --- | --- | --- | --- |")
    for e in stale:
        w(f"| {esc(e.get('when', '?'))} | {esc(e.get('rest_state', '?'))} | exit {e.get('probe_rc')}: "
          f"{esc(str(e.get('probe', '')).strip())} | {esc(str(e.get('jmx', '')).strip())} |")
w("")
w("## Checks\n")
for ln in checks_table(checks):
    w(ln)
w("\nFiles: `audit-*.json` (per-partition comparisons after each run), `samples.jsonl` (lag samples), "
  "`events.jsonl` (every injection, heal and recovery), `job/` (each migration's files and every mm2-offsets "
  "run's output), `logs/` (every container's log).")
text = "\n".join(md) + "\n"
with open(os.path.join(D, "REPORT.md"), "w") as f:
    f.write(text)
sys.stdout.write(text)
for c in failed:
    print(f"faults: FAIL: {c['name']}: {c['detail']}", file=sys.stderr)
sys.exit(1 if failed else 0)
