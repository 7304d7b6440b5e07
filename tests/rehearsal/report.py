#!/usr/bin/env python3
"""The rehearsal's report: reads what tests/rehearsal/run.sh left in DIR (meta.json,
events.jsonl, samples.jsonl, checks.jsonl, the audits, the cutover's artifacts) and
writes DIR/REPORT.md and DIR/lag.svg, prints the report, and exits 0 only when every
check passed (else 1, with one line per failed check on stderr).

  report.py DIR

Replication lag comes from the sampler: per partition, every 0.5 s, the source log end
and one past the highest source offset the target holds.  A partition "pauses" while
the source holds records the target has not and the target makes no progress on it;
a bounce's pause is the longest such stretch, on the partitions the bounced pod's tasks
copied, that began at the bounce.
"""
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reportlib import checks_table, esc, lag_svg, read_samples, secs, stalls  # noqa: E402
from reportlib import lines as read_lines  # noqa: E402
from reportlib import load as read_json  # noqa: E402
from reportlib import longest as longest_in  # noqa: E402

D = sys.argv[1]


def load(name, default=None):
    return read_json(D, name, default)


def lines(name):
    return read_lines(D, name)


meta = load("meta.json")
events = lines("events.jsonl")
checks = lines("checks.jsonl")
plan = load("cutover/plan.json")
export = load("cutover/export.json")
audits = {n: load(f"audit-{n}.json") for n in ("after-roll-1", "after-kills", "final")}
final = audits["final"]
PARTS, samples = read_samples(D)


def check(name, ok, detail):
    checks.append({"name": name, "ok": bool(ok), "detail": detail})


# ---- pauses --------------------------------------------------------------------------------
STALLS = stalls(samples, PARTS)


def longest(parts, t_from, t_to):
    return longest_in(STALLS, parts, t_from, t_to)


def phases():
    out = {}
    for e in events:
        if e["kind"] != "phase":
            continue
        ph = out.setdefault(e["name"], {"name": e["name"]})
        if e.get("start"):
            ph["start"] = e["t"]
            ph.update({k: e[k] for k in ("delay_ms", "leader_delay_ms", "rate") if k in e})
        if e.get("end"):
            ph["end"] = e["t"]
    return out


PH = phases()
bounces = []
for e in events:
    if e["kind"] not in ("sigterm", "sigkill"):
        continue
    ms, part = longest(e.get("partitions") or [], e["t"] - 3000, e["t"] + 15000)
    bounces.append({**e, "pause_ms": ms, "pause_partition": part})

# ---- the cutover's times ---------------------------------------------------------------------
steps = {e["name"]: e for e in events if e["kind"] == "step"}
cut_ms = None
if "export" in steps and "resume" in steps:
    cut_ms = steps["resume"]["t"] - steps["export"]["t0"]
txn_wait = next((e["wait_ms"] for e in events if e["kind"] == "txn-committed"), None)
t_resume = next((e["t"] for e in events if e["kind"] == "resumed"), None)
t_flink = next((e["t"] for e in events if e["kind"] == "flink-stopped"), None)
gap_ms, gap_part = longest(PARTS, (t_flink or 0) - 60000, t_resume or 0) if t_resume else (0, None)

# ---- data checks -----------------------------------------------------------------------------
if final:
    tot = final["totals"]
    check("data.nothing-lost", final["complete"] and tot["lost"] == 0,
          f"{tot['source']} source records, {tot['lost']} missing on the target"
          + ("" if final["complete"] else " (the target did not catch up in time)"))
    check("data.none-lost-after-boundary", tot["lost_after_boundary"] == 0,
          f"{tot['lost_after_boundary']} records at or after C missing on the target")
    check("data.fields-equal", tot["mismatched"] == 0 and tot["unknown"] == 0 and tot["seq_not_offset"] == 0,
          f"{tot['target'] + tot['unknown']} target records compared field by field (key, value, headers, "
          f"timestamp and type): {tot['mismatched']} differ, {tot['unknown']} unknown to the source; "
          f"{tot['seq_not_offset']} source records out of sequence")
    bad = {p: (r["first_replicated"], r["c"]) for p, r in final["partitions"].items()
           if r["c"] is not None and r["c"] < r["source"] and r["first_replicated"] != r["c"]}
    check("data.mm2-starts-at-c", not bad,
          "MM2's first record on every partition is the source record at C"
          + (f"; not so for {bad} (first, C)" if bad else ""))
    # The records of a sink transaction the broker aborted after C was committed: the plan
    # started MM2 at C - k (--start-at-gap), so they must be on the target, each once.
    if plan:
        gaps = {f"{e['topic']}/{e['partition']}": e for e in plan["partitions"] if e.get("gap", 0) > 0}
        if gaps:
            got = {p: final["partitions"][p] for p in gaps}
            check("data.aborted-records-copied",
                  all(r["lost"] == 0 and r["first_replicated"] == gaps[p]["c"] for p, r in got.items()),
                  "records of Flink's aborted last transaction (source [C - k, C)), copied by MM2: " + "; ".join(
                      f"{p} [{gaps[p]['c']}, {gaps[p]['group_c']}): first replicated {r['first_replicated']}, "
                      f"{r['lost']} lost" for p, r in got.items()))
    check("data.no-duplicate-at-boundary", tot["duplicates_before_boundary"] == 0,
          f"{tot['duplicates_before_boundary']} records Flink copied (before C) copied again by MM2")
    a1, a2 = audits["after-roll-1"], audits["after-kills"]
    if a1 and a2:
        d1, d2, df = a1["totals"]["duplicates"], a2["totals"]["duplicates"], tot["duplicates"]
        check("data.no-duplicate-after-clean-restarts", a1["complete"] and d1 == 0 and df == d2,
              f"duplicates after the cutover and rolling restart 1: {d1}; after the hard kills: {d2} "
              f"(reported, allowed); at the end, after the later rolling restarts: {df}")
else:
    check("data.nothing-lost", False, "no final audit (the run stopped early)")
if samples:
    last = samples[-1]
    lag = sum(max(0, s - p) for s, p in zip(last["src"], last["pos"]))
    check("data.lag-converged", lag == 0, f"replication lag at the end: {lag} records")
if plan:
    acts = {(e["topic"], e["partition"]): e for e in plan["partitions"]}
    zero = [f"{t}-{q}" for (t, q), e in acts.items() if e["c"] == 0 and e["action"] == "reset"]
    # Flink's C: group_c (the plan's c is MM2's start, below C where --start-at-gap moved it).
    atend = [f"{t}-{q}" for (t, q), e in acts.items()
             if e.get("group_c", e["c"]) == e["log_end"] and e["c"] > 0]
    check("cutover.plan-covers-c0-and-log-end", zero and atend,
          f"C = 0 (offset null): {zero or 'none'}; C = log end: {atend or 'none'}")

# ---- on the cluster: what the Kubernetes API recorded -----------------------------------------
KUBE_EVENTS = (load("kube/events.json") or {}).get("items", []) if meta.get("on") == "kube" else []


def kube_events(reason, kind=None, name=None):
    return [e for e in KUBE_EVENTS if e.get("reason") == reason
            and (kind is None or e["involvedObject"].get("kind") == kind)
            and (name is None or e["involvedObject"].get("name") == name)]


def n_of(evs):
    """How many times the events happened (the API folds repeats into one event's count)."""
    return sum(e.get("count") or 1 for e in evs)


# A liveness probe in flight when a worker's JVM is SIGKILLed fails once on the lost
# connection: that failure is the kill's own (tests/kube/60_kill.bats counts it the same way).
LOST_CONNECTION = ("Connection reset by peer", "Connection refused", "Empty reply")


def kube_checks():
    """Cross-checks between what the run did and the namespace's events."""
    if not KUBE_EVENTS:
        check("kube.events", False, "no event of the namespace was kept (kube/events.json)")
        return
    terms = [e["worker"] for e in events if e["kind"] == "sigterm"]
    missing = [p for p in terms if not any("Stopping container" in e.get("message", "")
                                           for e in kube_events("Killing", "Pod", p))]
    check("kube.every-sigterm-a-kubelet-stop", terms and not missing,
          f"{len(terms)} SIGTERMs (rolling updates, eviction); the kubelet's `Killing: Stopping container` "
          f"event for each: {'yes' if not missing else 'missing for ' + ', '.join(missing)}")
    kills = [e["worker"] for e in events if e["kind"] == "sigkill"]
    workers = sorted({e["worker"] for e in events if e["kind"] == "start"})
    want = {p: 1 + kills.count(p) for p in workers}
    got = {p: n_of(kube_events("Started", "Pod", p)) for p in workers}
    bad = {p: (got[p], want[p]) for p in workers if got[p] != want[p]}
    check("kube.every-kill-restarted-in-its-pod", kills and not bad,
          f"{len(kills)} SIGKILLs; the kubelet's `Started` events of each worker pod's container, 1 plus the "
          f"kills of that pod (the kubelet started it again in the same pod, and for nothing else): "
          + ("yes, " + ", ".join(f"{p} {got[p]}" for p in workers if kills.count(p)) if not bad
             else f"not so for {bad} (got, want)"))
    restarted = [e["message"] for e in kube_events("Killing") if "liveness" in e.get("message", "")]
    unhealthy = [e for e in kube_events("Unhealthy", "Pod") if e.get("message", "").startswith("Liveness")]
    own, other = {}, []
    for e in unhealthy:
        p = e["involvedObject"].get("name")
        if p in kills and any(m in e["message"] for m in LOST_CONNECTION):
            own[p] = own.get(p, 0) + n_of([e])
        else:
            other.append(f"{p}: {e['message']}")
    over = {p: n for p, n in own.items() if n > kills.count(p)}
    check("kube.no-liveness-restart", not restarted and not other and not over,
          ("no restart for a failed liveness probe; liveness failures: "
           + (", ".join(f"{p} {n} (its kills' lost connection, at most one per kill)" for p, n in own.items())
              or "none") if not restarted and not other and not over
           else f"restarted for liveness: {restarted[:3]}; failures not a kill's own: {other[:3]}; "
                f"more than one per kill: {over}"))
    done = kube_events("Completed", "Job", "mm2-offsets-apply")
    check("kube.job-completed", bool(done), f"the Job's events: {[e.get('message') for e in done] or 'no Completed'}")
    scal = sorted(kube_events("ScalingReplicaSet", "Deployment", "mm2-connect"),
                  key=lambda e: int(e["metadata"]["resourceVersion"]))
    steps_ = [e.get("message", "") for e in scal]
    bad = []
    for m in steps_[1:]:
        parts = m.split()
        try:
            a, b = int(parts[-3]), int(parts[-1])
        except (ValueError, IndexError):
            bad.append(m)
            continue
        if abs(b - a) != 1:
            bad.append(m)
    check("kube.rollouts-one-pod-at-a-time", len(steps_) > 1 and not bad,
          f"{len(steps_)} `ScalingReplicaSet` events of the Deployment controller, every one after the first "
          f"by one pod: {'yes' if not bad else bad[:3]}")


if meta.get("on") == "kube":
    kube_checks()

failed = [c for c in checks if not c["ok"]]

# ---- the picture -------------------------------------------------------------------------------
BANDS = [(n + (f" (delay {ph['leader_delay_ms']})" if ph.get("leader_delay_ms") is not None else ""),
          ph["start"], ph["end"])
         for n, ph in PH.items() if "start" in ph and "end" in ph and n != "producing"]


def svg():
    return lag_svg(samples, PARTS, events, BANDS, f"Replication lag (records the target lacks), "
                   f"{meta['mode']} rehearsal, {meta['rate']:g} records/s")


with open(os.path.join(D, "lag.svg"), "w") as f:
    f.write(svg())

# ---- the report --------------------------------------------------------------------------------
md = []
w = md.append
verdict = "PASSED" if not failed else f"FAILED ({len(failed)} check{'s' if len(failed) > 1 else ''})"
w(f"# mm2kit rehearsal: {verdict}\n")
where = (f"3 worker pods of the rendered `{meta.get('overlay', 'k8s/overlays/bed')}` Deployment on the test "
         f"Kubernetes cluster ({meta.get('kube_version') or 'tests/kube'}: the Deployment controller's rolling "
         f"updates, the Eviction API, the kubelet's restarts, the Job as a Job)" if meta.get("on") == "kube"
         else f"3 worker pods run as the rendered `{meta.get('overlay', 'k8s/overlays/bed')}` Deployment says "
         f"(podman)")
w(f"{meta['mode']} rehearsal on bed `{meta['bed']}`: image `{meta['image']}` ({meta['image_id']}), Kafka "
  f"{meta['kafka']}, {where}, SOURCE and TARGET KRaft brokers with StandardAuthorizer. A producer wrote {meta['rate']:g} records/s to `orders` (4 partitions) "
  f"and `payments` (3) all along: null keys, tombstones, headers and explicit CreateTimes, each record "
  f"numbered per partition. Wall time {secs(meta['end_ms'] - meta['start_ms'])}.\n")
if final:
    tot = final["totals"]
    w(f"**Records lost: {tot['lost']}** of {tot['source']} (after the boundary: {tot['lost_after_boundary']}). "
      f"Duplicates: {tot['duplicates']} (before C: {tot['duplicates_before_boundary']}). Fields differing: "
      f"{tot['mismatched']}.\n")
w("![replication lag over time](lag.svg)\n")

w("## The cutover\n")
w("| step | time | result |\n| --- | --- | --- |")
names = [("export-open", "export (transaction open)"), ("plan-open", "plan"), ("export", "export"),
         ("plan-behind", "plan (Flink's last transaction aborted)"), ("plan", "plan"), ("job", "the Job: apply + verify"), ("resume", "resume --approve"),
         ("check", "check")]
for k, label in names:
    e = steps.get(k)
    if not e:
        continue
    res = {0: "ok", 1: "refused"}.get(e["rc"], f"exit {e['rc']}")
    if k == "plan-behind":
        with open(os.path.join(D, "cutover", "plan-behind.err")) as f:
            ref = [ln.strip() for ln in f if "rule flink-gap" in ln]
        res += f": {len(ref)} partition(s) behind C [rule flink-gap]" + (
            ", e.g. " + esc(ref[0].split("refused: ", 1)[-1][:160]) + "…" if ref else "")
        w(f"| {label} | {secs(e['ms'])} | {res} |")
        w("| plan --start-at-gap (each such partition) | | MM2 starts at C − k |")
        continue
    if k == "plan-open":
        with open(os.path.join(D, "cutover", "plan-open.err")) as f:
            ref = [ln.strip() for ln in f if "rule open-transaction" in ln]
        res += ": " + (esc(ref[0].split("refused: ", 1)[-1][:160]) + "…" if ref else "")
        if txn_wait is not None:
            w(f"| {label} | {secs(e['ms'])} | {res} |")
            w(f"| Flink's sink transaction commits (a wait, not machine time) | {secs(txn_wait)} | committed |")
            continue
    w(f"| {label} | {secs(e['ms'])} | {res} |")
if cut_ms is not None:
    w(f"\n**Cutover machine time** (export start to resume done, the successful path): **{secs(cut_ms)}**; "
      f"of it mm2-offsets: " + ", ".join(f"{k} {secs(steps[k]['ms'])}" for k in ("export", "plan", "job", "resume") if k in steps)
      + ". Excluded: the refused first attempt and the wait for the open transaction; a person's "
      "approval of the plan digest takes no time here.")
if gap_part:
    w(f" Replication gap across the cutover (Flink's last copy to MM2's first record, longest partition "
      f"{gap_part}): {secs(gap_ms)}.")
w("")
w("## Per partition\n")
w("| partition | C (Flink) | M written | first replicated | source records | on target | lost | duplicates |")
w("| --- | --- | --- | --- | --- | --- | --- | --- |")
group_c = {f"{e['topic']}/{e['partition']}": e for e in (plan or {}).get("partitions", [])}
if final:
    for p, r in final["partitions"].items():
        m = "null (reset)" if r["c"] == 0 else r["m"]
        e = group_c.get(p, {})
        c = r["c"] if not e.get("gap") else f"{e['group_c']} (aborted on the target: {e['gap']}; MM2 from {r['c']})"
        w(f"| {p} | {c} | {m} | {r['first_replicated']} | {r['source']} | {r['target']} | {r['lost']} | "
          f"{r['duplicates']} |")
w("\nC is the Flink group's committed offset, M the Connect offset the Job wrote (C − 1), \"first "
  "replicated\" the source offset of the first record MM2 wrote to the target. Duplicates by phase: "
  + ", ".join(f"{n}: {a['totals']['duplicates']}" for n, a in audits.items() if a) + ".\n")

w("## Bounces and replication pauses\n")
w("A pause is the longest time a partition's target made no progress while the source held records it "
  "lacked (sampled every 0.5 s), on the partitions the bounced pod's tasks copied. \"Leader's delay\" is "
  "`scheduled.rebalance.max.delay.ms` of the group leader at that moment: the leader's assignor applies it.\n")
w("| phase | event | pod | leader? | leader's delay | its partitions | pause |")
w("| --- | --- | --- | --- | --- | --- | --- |")
for b in bounces:
    w(f"| {esc(b['phase'])} | {'SIGTERM' if b['kind'] == 'sigterm' else 'SIGKILL'} | {b['worker'].rsplit('-', 1)[-1]} | "
      f"{'yes' if b.get('leader') else 'no'} | {b.get('leader_delay_ms')} | {' '.join(b.get('partitions') or []) or '-'} | "
      f"{secs(b['pause_ms']) if b.get('partitions') else '-'} |")
w("\n| phase | new pods' delay | delay in force at the start | longest pause | on |\n| --- | --- | --- | --- | --- |")
for name, ph in PH.items():
    if not name.startswith(("rolling", "hard", "eviction")) or "start" not in ph or "end" not in ph:
        continue
    ms, part = longest(PARTS, ph["start"], ph["end"])
    w(f"| {esc(name)} | {ph.get('delay_ms', '-')} | {ph.get('leader_delay_ms', '-')} | {secs(ms)} | {part or '-'} |")
by_delay = {}
for b in bounces:
    if b.get("partitions"):
        key = (b["kind"], bool(b.get("leader")), b.get("leader_delay_ms"))
        by_delay.setdefault(key, []).append(b["pause_ms"])
w("\n| bounce | pod | delay in force | n | pause (median, max) | pause − delay |\n| --- | --- | --- | --- | --- | --- |")
for (kind, leader, d), v in sorted(by_delay.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2] or 0)):
    med = statistics.median(v)
    over = "-" if leader else secs(med - (d or 0))
    w(f"| {kind} | {'leader' if leader else 'member'} | {d} | {len(v)} | {secs(med)}, {secs(max(v))} | {over} |")
w("\nA member's pause is the delay in force plus the rebalance and the task's restart; a crash adds "
  "`session.timeout.ms` (10 s) before the group notices. A leader's departure ends any pending delay: the "
  "new leader's assignor keeps no memory of the lost tasks and assigns them at once. That is why a pause "
  "can be shorter than the delay (pause − delay < 0) in a rolling restart that replaces the leader "
  "before the delay expires.\n")

if KUBE_EVENTS:
    w("## What the Kubernetes API recorded\n")
    w("The pods' starts, Ready times, SIGTERMs (deletionTimestamp less the grace period), ends and exit "
      "codes above come from a watch of the workers' pods (`kube/pods-watch.json`; the API keeps whole "
      "seconds). The namespace's events (`kube/events.json`), by reason:\n")
    w("| reason | reported by | objects | events |\n| --- | --- | --- | --- |")
    by = {}
    for e in KUBE_EVENTS:
        comp = e.get("reportingComponent") or (e.get("source") or {}).get("component") or "-"
        k = (e.get("reason", "-"), comp, e["involvedObject"].get("kind", "-"))
        n, objs = by.get(k, (0, set()))
        by[k] = (n + (e.get("count") or 1), objs | {e["involvedObject"].get("name")})
    for (reason, comp, kind), (n, objs) in sorted(by.items()):
        w(f"| {esc(reason)} | {esc(comp)} | {len(objs)} {esc(kind)} | {n} |")
    w("\nThe Deployment controller's own record of the rolling updates:\n")
    for e in sorted(kube_events("ScalingReplicaSet", "Deployment", "mm2-connect"),
                    key=lambda e: int(e["metadata"]["resourceVersion"])):
        w(f"- {e.get('lastTimestamp') or e.get('eventTime')}: {esc(e.get('message', ''))}")
    w("")

w("## Acceptance and the run's checks\n")
for ln in checks_table(checks):
    w(ln)
w("\nFiles: `cutover/` (export, plan, the Job's and every step's output), `audit-*.json` (per-partition "
  "comparisons), `samples.jsonl` (lag samples), `events.jsonl` (every start, Ready, SIGTERM, SIGKILL), "
  "`logs/` (every container's log, per pod incarnation)"
  + ("; `kube/` (the pods' watch and the namespace's events)." if meta.get("on") == "kube" else "."))
text = "\n".join(md) + "\n"
with open(os.path.join(D, "REPORT.md"), "w") as f:
    f.write(text)
sys.stdout.write(text)
for c in failed:
    print(f"rehearsal: FAIL: {c['name']}: {c['detail']}", file=sys.stderr)
sys.exit(1 if failed else 0)
