#!/usr/bin/env python3
"""Cross-checks the rendered manifests against the sources they must agree
with: environment variable names, ports, paths and UID/GID, read from
entrypoint/*.c, probes/*.c, docker/mm2/Dockerfile, the worker config the
Deployment selects (MM2_WORKER_CONFIG, default connect-mm2.properties) and
the Job's files, never from a second hand-kept list.  The day-two Jobs (diff,
update) are held to the offset Job's pod and to what they may run.

  consistency.py ROOT < rendered.yaml
Prints one line per check; exits 1 when any fails.
"""
import json
import os
import re
import sys

import yaml

ROOT = sys.argv[1]
fails = 0


def check(ok, what):
    global fails
    print(f"consistency: {'ok' if ok else 'FAIL'}: {what}")
    if not ok:
        fails += 1


def read(*parts):
    with open(os.path.join(ROOT, *parts)) as f:
        return f.read()


docs = [d for d in yaml.safe_load_all(sys.stdin.read()) if d]
by_kind = {}
for d in docs:
    by_kind.setdefault(d["kind"], []).append(d)
dep = by_kind["Deployment"][0]
jobs = {j["metadata"]["name"]: j for j in by_kind["Job"]}
job = jobs["mm2-offsets-apply"]
# The day-two Jobs (k8s/README.md, "Day two"): diff plans in CI, update applies after approval.
DIFF, UPDATE = "mm2-offsets-diff", "mm2-offsets-update"
check(set(jobs) == {"mm2-offsets-apply", DIFF, UPDATE}, f"the Jobs are the offset Job, {DIFF} and {UPDATE}: {sorted(jobs)}")
svc = by_kind["Service"][0]
cms = {c["metadata"]["name"]: c for c in by_kind["ConfigMap"]}

# --- what the sources read ---------------------------------------------------------------
ep_src = "".join(read("entrypoint", f) for f in sorted(os.listdir(os.path.join(ROOT, "entrypoint"))) if f.endswith((".c", ".h")))
ep_vars = set(re.findall(r'"((?:CONNECT|JMX|KAFKA|MM2|POD)_[A-Z0-9_]*|POD_IP|LOG_DIR)"', ep_src))
ep_required = set(re.findall(r'mm2_env_required\(\s*"([A-Z0-9_]+)"', ep_src))
ep_required |= {v for v in re.findall(r'"(CONNECT_[A-Z_]+_STORAGE_TOPIC)"', ep_src)}
defaults = {"CONNECT_REST_PORT", "CONNECT_SCHEDULED_REBALANCE_MAX_DELAY_MS"}
def uncommented(text, marks="#"):
    return "\n".join(l for l in text.splitlines() if not l.lstrip().startswith(tuple(marks)))


# The worker config the Deployment runs: MM2_WORKER_CONFIG names one of the image's profiles.
dep_c = dep["spec"]["template"]["spec"]["containers"][0]
profile_path = next((e.get("value") for e in dep_c.get("env", []) if e["name"] == "MM2_WORKER_CONFIG"),
                    None) or "/etc/mm2/connect-mm2.properties"
profile = os.path.basename(profile_path)
check(profile_path == f"/etc/mm2/{profile}" and os.path.isfile(os.path.join(ROOT, "docker", "mm2", profile))
      and f"docker/mm2/{profile}" in read("docker", "mm2", "Dockerfile"),
      f"MM2_WORKER_CONFIG {profile_path} is a profile the image installs in /etc/mm2")
props = uncommented(read("docker", "mm2", profile))
# The entrypoint asks for the JAAS entry only when the worker config uses it (config.c: read_jaas;
# the mTLS profile logs in with a certificate).
if "${env:CONNECT_SASL_JAAS_CONFIG}" not in props:
    ep_required.discard("CONNECT_SASL_JAAS_CONFIG")
prop_vars = set(re.findall(r"\$\{env:([A-Z0-9_]+)\}", props))
allow = re.search(r"^config\.providers\.env\.param\.allowlist\.pattern=\^\((.*)\)\$$", props, re.M)
allowlist = set(allow.group(1).split("|")) if allow else set()
dockerfile = read("docker", "mm2", "Dockerfile")
user = re.search(r"^USER (\d+):(\d+)$", dockerfile, re.M)
expose = re.search(r"^EXPOSE (\d+)$", dockerfile, re.M)
rest_default = re.search(r"#define EP_DEFAULT_REST_PORT (\d+)", ep_src)
run_uid = re.search(r"#define EP_RUN_UID (\d+)", ep_src)
run_gid = re.search(r"#define EP_RUN_GID (\d+)", ep_src)
probe_src = "".join(read("probes", f) for f in os.listdir(os.path.join(ROOT, "probes")) if f.endswith(".c"))

# --- the Deployment ----------------------------------------------------------------------
pod = dep["spec"]["template"]["spec"]
c = pod["containers"][0]
env_cm = cms[c["envFrom"][0]["configMapRef"]["name"]]["data"]
dep_env = set(env_cm) | {e["name"] for e in c.get("env", [])}
check(ep_required <= dep_env, f"the Deployment sets every variable mm2-entrypoint requires: missing {sorted(ep_required - dep_env)}")
# Allowlisted variables are readable by connector configs too.
unknown = {v for v in dep_env if v not in ep_vars | prop_vars | allowlist}
check(not unknown, f"every variable the Deployment sets is read by the entrypoint, the worker config or a connector config: unread {sorted(unknown)}")
check(prop_vars <= allowlist, f"every ${{env:X}} of the worker config is in its allowlist: missing {sorted(prop_vars - allowlist)}")
unset = {v for v in prop_vars if v not in dep_env and v not in defaults}
check(not unset, f"every ${{env:X}} of the worker config is set by the Deployment or defaulted by the entrypoint: unset {sorted(unset)}")
conn = json.loads(cms[[n for n in cms if n.startswith("mm2-offsets-job")][0]]["data"]["connector.json"])
conn_vars = set(re.findall(r"\$\{env:([A-Z0-9_]+)\}", json.dumps(conn)))
check(conn_vars <= allowlist and conn_vars <= dep_env,
      f"the connector JSON's ${{env:X}} are allowlisted and set on every worker: {sorted(conn_vars)}")

# Every file under /etc/mm2/tls the worker config or the connector JSON names is a file of a
# Secret mounted there (with items: one of them), so no store is missing at the pod's start.
dep_mounts = {m["mountPath"]: m["name"] for m in c.get("volumeMounts", [])}
dep_vols = {v["name"]: v for v in pod.get("volumes", [])}
for path in sorted(set(re.findall(r"(/etc/mm2/tls/[\w./-]+)", props + json.dumps(conn)))):
    mount = next((m for m in dep_mounts if path.startswith(m + "/")), None)
    secret = dep_vols.get(dep_mounts[mount], {}).get("secret") if mount else None
    items = (secret or {}).get("items")
    check(secret is not None and (items is None or path[len(mount) + 1:] in {i["path"] for i in items}),
          f"{path} (worker config or connector JSON) is a file of a Secret mounted at {mount}")
# The workers' own certificate (the mTLS profile's /etc/mm2/tls/worker) is theirs alone: the
# offset Job, which logs in as the connector's source and target principals, never mounts it.
worker_tls = dep_vols.get(dep_mounts.get("/etc/mm2/tls/worker"), {}).get("secret", {}).get("secretName")
job_secrets = {v.get("secret", {}).get("secretName") for v in job["spec"]["template"]["spec"].get("volumes", [])}
check(worker_tls is None or worker_tls not in job_secrets,
      f"the offset Job does not mount the workers' own certificate (Secret {worker_tls})")

ports = {p["name"]: p["containerPort"] for p in c["ports"]}
check(int(env_cm["CONNECT_REST_PORT"]) == ports["rest"] == int(expose.group(1)) == int(rest_default.group(1)),
      f"REST port agrees: ConfigMap {env_cm['CONNECT_REST_PORT']}, containerPort {ports['rest']}, EXPOSE {expose.group(1)}, entrypoint default {rest_default.group(1)}")
delay_default = re.search(r"#define EP_DEFAULT_REBALANCE_DELAY_MS (\d+)L?\b", ep_src)
check(delay_default is not None and env_cm.get("CONNECT_SCHEDULED_REBALANCE_MAX_DELAY_MS") == delay_default.group(1),
      f"scheduled.rebalance.max.delay.ms agrees: ConfigMap {env_cm.get('CONNECT_SCHEDULED_REBALANCE_MAX_DELAY_MS')}, "
      f"entrypoint default {delay_default.group(1) if delay_default else None}")
check(int(env_cm.get("JMX_EXPORTER_PORT", 0)) == ports["metrics"],
      f"JMX_EXPORTER_PORT {env_cm.get('JMX_EXPORTER_PORT')} is the metrics containerPort {ports['metrics']}")
svc_ports = {p["name"]: p for p in svc["spec"]["ports"]}
check(all(p["targetPort"] in ports for p in svc_ports.values()), "every Service targetPort names a container port")
sm = by_kind["ServiceMonitor"][0]
check(all(e["port"] in svc_ports for e in sm["spec"]["endpoints"]), "the ServiceMonitor scrapes a named Service port")
np_ports = {p["port"] for np in by_kind["NetworkPolicy"] for r in np["spec"].get("ingress", []) for p in r.get("ports", [])}
check({ports["rest"], ports["metrics"]} <= np_ports, f"the NetworkPolicy admits REST and metrics: {sorted(np_ports)}")

uid, gid = int(user.group(1)), int(user.group(2))
for name, spec in [("Deployment", pod)] + [(f"Job {n}", j["spec"]["template"]["spec"]) for n, j in sorted(jobs.items())]:
    sc = spec["securityContext"]
    csc = spec["containers"][0]["securityContext"]
    check(sc["runAsUser"] == csc["runAsUser"] == uid == int(run_uid.group(1)) and
          sc["runAsGroup"] == csc["runAsGroup"] == gid == int(run_gid.group(1)),
          f"{name} runs as the image's USER {uid}:{gid}, the entrypoint's drop target")
    check(csc["readOnlyRootFilesystem"] is True and any(m["mountPath"] == "/tmp" for m in spec["containers"][0]["volumeMounts"]),
          f"{name}: read-only root with /tmp mounted (the only path written: LOG_DIR)")
check("/tmp" == re.search(r'put\(l, "LOG_DIR", "([^"]+)"', ep_src).group(1), "the entrypoint's LOG_DIR default is the mounted /tmp")

for probe in ("startupProbe", "livenessProbe", "readinessProbe"):
    cmd = c[probe]["exec"]["command"]
    check(cmd[0] == "mm2-probe" and f'"{cmd[1]}"' in probe_src,
          f"{probe} runs an mm2-probe check that exists: {' '.join(cmd)}")
    t = float(cmd[cmd.index("--timeout") + 1])
    check(t < c[probe]["timeoutSeconds"], f"{probe}: the probe's own deadline {t} s is inside the kubelet's {c[probe]['timeoutSeconds']} s")

# --- the Job -----------------------------------------------------------------------------
jc = job["spec"]["template"]["spec"]["containers"][0]
script = " ".join(jc.get("command", []) + jc.get("args", []))
check(job["spec"]["backoffLimit"] == 0, "the offset Job never retries (backoffLimit 0)")
check("resume" not in script and "mm2-offsets apply" in script and "mm2-offsets verify" in script,
      "the offset Job runs apply and verify, never resume")
ini = cms[[n for n in cms if n.startswith("mm2-offsets-job")][0]]["data"]["migration.ini"]
ini_vars = set(re.findall(r"\$\{env:([A-Z0-9_]+)\}", uncommented(ini, ";#")))


def job_script(j):
    """The Job's command line, each "$var" set in it to a path (var=/path) written out."""
    c0 = j["spec"]["template"]["spec"]["containers"][0]
    text = " ".join(c0.get("command", []) + c0.get("args", []))
    for var, val in re.findall(r"^\s*([a-z_]+)=(/\S+)$", text, re.M):
        text = re.sub(r'"?\$\{?' + var + r'\}?"?(?![\w])', val, text)
    return text


for jname, j in sorted(jobs.items()):
    c0 = j["spec"]["template"]["spec"]["containers"][0]
    j_env = {e["name"] for e in c0.get("env", [])}
    check(ini_vars <= j_env, f"every ${{env:X}} of migration.ini is set in the Job {jname}: missing {sorted(ini_vars - j_env)}")
    j_mounts = {m["mountPath"] for m in c0["volumeMounts"]}
    for path in re.findall(r"(/etc/[\w./-]+)", job_script(j) + uncommented(ini, ";#")):
        check(any(path.startswith(m + "/") for m in j_mounts), f"{path} is under a volume the Job {jname} mounts")
mounts = {m["mountPath"] for m in jc["volumeMounts"]}
# A Secret mounted with items: every file the INI names there is one of its items.
vols = {v["name"]: v for v in job["spec"]["template"]["spec"].get("volumes", [])}
for m in jc["volumeMounts"]:
    items = vols.get(m["name"], {}).get("secret", {}).get("items")
    for path in re.findall(r"(" + re.escape(m["mountPath"]) + r"/[\w./-]+)", uncommented(ini, ";#")):
        check(items is None or path[len(m["mountPath"]) + 1:] in {i["path"] for i in items},
              f"{path} is an item of the Secret mounted at {m['mountPath']}")
connect_url = re.search(r"^url\s*=\s*(\S+)", uncommented(ini, ";#").split("[connect]", 1)[-1], re.M)
if connect_url and connect_url.group(1).startswith("https://"):
    check(re.search(r"^ca\.location\s*=", uncommented(ini, ";#"), re.M) is not None,
          "an https [connect] url comes with its ca.location (the REST CA is rarely the system's)")
rest_https = re.search(r"^listeners=https://", props, re.M) is not None
check(connect_url is not None and connect_url.group(1).startswith("https://") == rest_https,
      f"the Job's [connect] url speaks what the workers' REST listener does ({'https' if rest_https else 'http'})")

# --- REST authentication (docker/mm2/README.md, "REST authentication") ------------------
# The worker config names Kafka's basic-auth extension; the JAAS file the entrypoint checks
# (MM2_REST_JAAS_CONFIG, or its default), the credentials file that JAAS entry names and the
# probes' --password-file are files of one Secret mounted on the workers; the probes and the
# Job log in as users of that Secret's credentials file (when the overlay carries the Secret).
ext = "org.apache.kafka.connect.rest.basic.auth.extension.BasicAuthSecurityRestExtension"
check(re.search(r"^rest\.extension\.classes=.*" + re.escape(ext), props, re.M) is not None,
      f"the worker config {profile} turns REST authentication on ({ext})")
jaas_default = re.search(r'#define RESTAUTH_DEFAULT_JAAS "([^"]+)"', read("entrypoint", "restauth.h")).group(1)
jaas_path = next((e.get("value") for e in c.get("env", []) if e["name"] == "MM2_REST_JAAS_CONFIG"), None) or jaas_default
ra_mount = next((m for m in dep_mounts if jaas_path.startswith(m + "/")), None)
ra_secret = dep_vols.get(dep_mounts[ra_mount], {}).get("secret") if ra_mount else None
ra_items = {i["path"]: i["key"] for i in (ra_secret or {}).get("items", [])}


def in_rest_secret(path):
    return ra_secret is not None and path.startswith(ra_mount + "/") and \
        (not ra_items or path[len(ra_mount) + 1:] in ra_items)


check(in_rest_secret(jaas_path), f"the REST JAAS file {jaas_path} is a file of the Secret mounted at {ra_mount}")
probe_users = set()
for probe in ("startupProbe", "livenessProbe", "readinessProbe"):
    cmd = c[probe]["exec"]["command"]
    pw = cmd[cmd.index("--password-file") + 1] if "--password-file" in cmd else ""
    check("--user" in cmd and in_rest_secret(pw),
          f"{probe} logs in (--user, --password-file a file of the REST Secret): {' '.join(cmd)}")
    if "--user" in cmd:
        probe_users.add(cmd[cmd.index("--user") + 1])
ini_connect = uncommented(ini, ";#").split("[connect]", 1)[-1].split("\n[", 1)[0]
ini_user = re.search(r"^username\s*=\s*(\S+)", ini_connect, re.M)
ini_pw = re.search(r"^password\s*=\s*\$\{env:([A-Z0-9_]+)\}", ini_connect, re.M)
pw_ref = next((e.get("valueFrom", {}).get("secretKeyRef") for e in jc.get("env", [])
               if ini_pw and e["name"] == ini_pw.group(1)), None)
check(ini_user is not None and pw_ref is not None and ra_secret is not None and
      pw_ref["name"] == ra_secret["secretName"],
      "the Job's [connect] username and password (${env:X} from the REST Secret) are given")
rest_secret = next((d for d in by_kind.get("Secret", []) if ra_secret and d["metadata"]["name"] == ra_secret["secretName"]), None)
if rest_secret is not None:
    data = rest_secret.get("stringData", {})
    creds_path = re.search(r'file="([^"]+)"', data.get(ra_items.get(jaas_path[len(ra_mount) + 1:], ""), ""))
    check(creds_path is not None and in_rest_secret(creds_path.group(1)),
          f"the example JAAS file names a credentials file of the same Secret: {creds_path.group(1) if creds_path else None}")
    creds = data.get(ra_items.get(creds_path.group(1)[len(ra_mount) + 1:], ""), "") if creds_path else ""
    users = {ln.split("=", 1)[0].strip() for ln in creds.splitlines() if "=" in ln}
    check(probe_users | {ini_user.group(1) if ini_user else None} <= users,
          f"the probes' and the Job's REST users {sorted(probe_users)} {ini_user.group(1) if ini_user else None} are in the example credentials {sorted(users)}")
    check(pw_ref is not None and pw_ref["key"] in data, f"the Job's REST password key {pw_ref['key'] if pw_ref else None} is in the example Secret")

# --- the Job against mm2-offsets' own sources --------------------------------------------
jobs_main = read("jobs", "main.c")
commands = set(re.findall(r'\{"([a-z-]+)", cmd_', jobs_main))
jobs_src = "".join(read("jobs", f) for f in os.listdir(os.path.join(ROOT, "jobs")) if f.endswith(".c"))


def offsets_calls(text):
    """[(command, [options])] of each 'mm2-offsets CMD --opt VALUE ...' in a Job's script."""
    return [(m.group(1), re.findall(r" --([a-z-]+)", m.group(2)))
            for m in re.finditer(r"mm2-offsets ([a-z-]+)((?: --?[a-z-]+(?: [^ &;|>]+)?)*)", text)]


for jname, j in sorted(jobs.items()):
    for cmd, opts in offsets_calls(job_script(j)):
        check(cmd in commands, f"the Job {jname}'s 'mm2-offsets {cmd}' is a command of jobs/main.c: {sorted(commands)}")
        for opt in opts:
            check(f'{{"{opt}", ' in jobs_src, f"the Job {jname}'s option --{opt} of {cmd} is one mm2-offsets parses")
cfg_src = read("lib", "mm2_config.c")
sections = set(re.findall(r'strcmp\(section, "([a-z]+)"\)', cfg_src))
keys = set(re.findall(r'strcmp\((?:key|name), "([a-z.]+)"\)', cfg_src))
trail_keys = set(re.findall(r'"([a-z.]+)"', re.search(r"keys\[\] = \{([^}]*)\}", read("lib", "mm2_config_trail.c")).group(1)))
section = None
for line in uncommented(ini, ";#").splitlines():
    line = line.strip()
    if not line:
        continue
    if line.startswith("["):
        section = line.strip("[]")
        check(section in sections, f"migration.ini section [{section}] is one lib/mm2_config.c reads: {sorted(sections)}")
        continue
    key = line.split("=", 1)[0].strip()
    if section in ("connect", "flink", "connector"):
        check(key in keys, f"migration.ini key [{section}] {key} is one lib/mm2_config.c reads")
    if section == "trail":
        check(key in trail_keys, f"migration.ini key [trail] {key} is one lib/mm2_config_trail.c reads: {sorted(trail_keys)}")
job_conn = json.loads(cms[[n for n in cms if n.startswith("mm2-offsets-job")][0]]["data"]["connector.json"])
file_key = re.search(r"^file\s*=\s*(\S+)", uncommented(ini, ";#"), re.M)
check(file_key is not None and file_key.group(1).endswith("/connector.json") and
      any(file_key.group(1).startswith(mm + "/") for mm in mounts),
      f"[connector] file {file_key.group(1) if file_key else None} is the mounted connector.json")
check(job_conn["config"].get("connector.class", "").endswith("MirrorSourceConnector"),
      "the Job's connector JSON runs MirrorSourceConnector")


# --- the day-two Jobs (k8s/README.md, "Day two") -------------------------------------------
def pod_of(j):
    return j["spec"]["template"]["spec"]


def secret_refs(spec):
    """(Secret, key) pairs a pod reads: env, envFrom (key "*": every key) and Secret volumes."""
    out = set()
    for ct in spec.get("initContainers", []) + spec["containers"]:
        for e in ct.get("env", []):
            r = e.get("valueFrom", {}).get("secretKeyRef")
            if r:
                out.add((r["name"], r["key"]))
        out |= {(e["secretRef"]["name"], "*") for e in ct.get("envFrom", []) if "secretRef" in e}
    for v in spec.get("volumes", []):
        for src in [v] + v.get("projected", {}).get("sources", []):
            sec = src.get("secret")
            if sec is not None:
                name = sec.get("secretName") or sec.get("name")
                out |= {(name, i["key"]) for i in sec["items"]} if sec.get("items") else {(name, "*")}
    return out


# The workers' own credentials: every Secret key the Deployment gives the worker for itself,
# i.e. not for the connector (an env var its JSON reads, a file under a path its JSON names);
# a CA certificate (ca.crt) is no credential.
conn_paths = set(re.findall(r"(/etc/mm2/[\w./-]+)", json.dumps(conn)))
workers_own = set()
for e in c.get("env", []):
    r = e.get("valueFrom", {}).get("secretKeyRef")
    if r and e["name"] not in conn_vars:
        workers_own.add((r["name"], r["key"]))
for m in c.get("volumeMounts", []):
    sec = dep_vols.get(m["name"], {}).get("secret")
    if sec is not None and not any(p.startswith(m["mountPath"] + "/") for p in conn_paths):
        workers_own |= {(sec["secretName"], i["key"]) for i in sec["items"]} if sec.get("items") \
            else {(sec["secretName"], "*")}
workers_own = {(n, k) for n, k in workers_own if k != "ca.crt"}
for jname, j in sorted(jobs.items()):
    mine = {(n, k) for n, k in secret_refs(pod_of(j)) if k != "ca.crt"}
    shared = sorted({f"{n}/{k}" for n, k in mine for wn, wk in workers_own
                     if n == wn and "*" in (k, wk) or (n, k) == (wn, wk)})
    check(not shared, f"the Job {jname} reads none of the workers' own credentials: {shared}")

in_render = set(cms)
apply_pod, apply_c = pod_of(job), pod_of(job)["containers"][0]
# The offset Job's volumes but its plan's (mounted where its --plan is), with their mounts.
apply_plan = re.findall(r"--plan\s+(\S+)", job_script(job))
plan_vols = {m["name"] for m in apply_c["volumeMounts"] for p in apply_plan if p.startswith(m["mountPath"] + "/")}
shared_vols = {v["name"]: v for v in apply_pod["volumes"] if v["name"] not in plan_vols}
shared_mounts = [m for m in apply_c["volumeMounts"] if m["name"] in shared_vols]


def env_of(ct, name):
    return next((e for e in ct.get("env", []) if e["name"] == name), None)


for jname in (DIFF, UPDATE):
    j = jobs.get(jname)
    if j is None:
        continue
    spec, jp = j["spec"], pod_of(j)
    jct = jp["containers"][0]
    check(spec.get("suspend") is True, f"{jname} is suspended: it runs only when a person (or CI, for the diff) unsuspends it")
    check(spec.get("backoffLimit") == 0, f"{jname} is never retried by the controller (backoffLimit 0)")
    check(isinstance(spec.get("activeDeadlineSeconds"), int) and spec["activeDeadlineSeconds"] > 0 and
          isinstance(spec.get("ttlSecondsAfterFinished"), int) and spec["ttlSecondsAfterFinished"] > 0,
          f"{jname} has a deadline ({spec.get('activeDeadlineSeconds')} s) and a TTL ({spec.get('ttlSecondsAfterFinished')} s)")
    check(len(jp["containers"]) == 1 and not jp.get("initContainers"), f"{jname}: one container, as the offset Job")
    same = [k for k in ("serviceAccountName", "automountServiceAccountToken", "securityContext", "hostAliases",
                        "restartPolicy") if jp.get(k) != apply_pod.get(k)]
    same += [f"container {k}" for k in ("image", "imagePullPolicy", "securityContext", "resources", "command")
             if jct.get(k) != apply_c.get(k)]
    if j["spec"]["template"]["metadata"].get("labels") != job["spec"]["template"]["metadata"].get("labels"):
        same.append("template labels (the NetworkPolicies' selectors)")
    check(not same, f"{jname}: identity, securityContext, image, resources and labels are the offset Job's: differ {same}")
    secret_env = [e for e in jct.get("env", []) if "secretKeyRef" in e.get("valueFrom", {})]
    check(secret_env == [e for e in apply_c.get("env", []) if "secretKeyRef" in e.get("valueFrom", {})] and
          secret_refs(jp) == secret_refs(apply_pod),
          f"{jname} reads exactly the offset Job's Secrets: {sorted(f'{n}/{k}' for n, k in secret_refs(jp))}")
    jvols = {v["name"]: v for v in jp["volumes"]}
    check(all(jvols.get(n) == v for n, v in shared_vols.items()) and
          all(m in jct["volumeMounts"] for m in shared_mounts),
          f"{jname} mounts the offset Job's volumes ({sorted(shared_vols)}) as it does")
    extra = {n: v for n, v in jvols.items() if n not in shared_vols}
    # No digest in the Job: only the image reference may hold one (an overlay's pin).
    text = json.dumps({**j, "spec": {**spec, "template": {**spec["template"], "spec": {
        **jp, "containers": [{k: v for k, v in ct.items() if k != "image"} for ct in jp["containers"]]}}}})
    check(re.search(r"sha256:[0-9a-fA-F]", text) is None, f"{jname} holds no digest (only its image reference may)")
    calls = offsets_calls(job_script(j))
    approves = re.findall(r"--approve\s+(\S+)", job_script(j))
    if jname == DIFF:
        check([cmd for cmd, _ in calls] == ["diff", "update"],
              f"{DIFF} runs mm2-offsets diff, then update: {[cmd for cmd, _ in calls]}")
        upd = next((o for cmd, o in calls if cmd == "update"), [])
        check("out" in upd and "plan" not in upd and "approve" not in upd and not approves and
              env_of(jct, "UPDATE_APPROVE") is None,
              f"{DIFF} only plans (update --out), never applies (no --plan, no --approve, no UPDATE_APPROVE)")
        check(not extra, f"{DIFF} mounts nothing beyond the offset Job's files: {sorted(extra)}")
        opt = (env_of(jct, "UPDATE_OPTIONS") or {}).get("valueFrom", {}).get("configMapKeyRef", {})
        check(opt.get("name") in in_render and opt.get("key") in cms[opt["name"]].get("data", {}),
              f"{DIFF}'s UPDATE_OPTIONS come from a ConfigMap of the render, reviewed with the connector JSON: {opt.get('name')}")
        given = cms.get(opt.get("name"), {}).get("data", {}).get(opt.get("key"), "") or ""
        for o in re.findall(r"(?:^|\s)--([a-z-]+)", given):
            check(o in ("start", "carry-over") and f'{{"{o}", ' in jobs_src,
                  f"{DIFF}'s UPDATE_OPTIONS --{o} is an option of update's plan (--start, --carry-over) mm2-offsets parses")
        # What CI applies with `kubectl apply -l mm2kit.io/ci=diff`: this Job and the ConfigMaps it
        # reads, nothing else (never the Deployment, its ConfigMap, or the update Job).
        read_cms = {v["configMap"]["name"] for v in jp["volumes"] if "configMap" in v}
        read_cms |= {e["valueFrom"]["configMapKeyRef"]["name"] for e in jct.get("env", [])
                     if "configMapKeyRef" in e.get("valueFrom", {})}
        labelled = {f"{d['kind']}/{d['metadata']['name']}" for d in docs
                    if d["metadata"].get("labels", {}).get("mm2kit.io/ci") == "diff"}
        check(labelled == {f"Job/{DIFF}"} | {f"ConfigMap/{n}" for n in read_cms},
              f"mm2kit.io/ci=diff selects {DIFF} and the ConfigMaps it reads, nothing else: {sorted(labelled)}")
    else:
        check([cmd for cmd, _ in calls] == ["update", "check"],
              f"{UPDATE} runs mm2-offsets update, then check: {[cmd for cmd, _ in calls]}")
        plans = re.findall(r"mm2-offsets (?:update|check) [^\n&]*?--plan\s+(\S+)", job_script(j))
        upd = next((o for cmd, o in calls if cmd == "update"), [])
        check("plan" in upd and "approve" in upd and "out" not in upd and len(plans) == 2 and plans[0] == plans[1],
              f"{UPDATE}: update --plan P --approve, then check --plan P, one plan: {plans}")
        check(approves == ['"$UPDATE_APPROVE"'] and "UPDATE_APPROVE=" not in job_script(j),
              f"{UPDATE}: the one --approve is \"$UPDATE_APPROVE\", never set in the script: {approves}")
        ref = env_of(jct, "UPDATE_APPROVE") or {}
        cmk = ref.get("valueFrom", {}).get("configMapKeyRef", {})
        check("value" not in ref and cmk.get("name") and cmk["name"] not in in_render and not cmk.get("optional"),
              f"{UPDATE}: UPDATE_APPROVE only from the ConfigMap a person creates after review "
              f"({cmk.get('name')}, key {cmk.get('key')}; no overlay ships it)")
        # The plan: a file of that same ConfigMap (its update.json item only, not the approval).
        pv = [v for v in extra.values() if v.get("configMap", {}).get("name") == cmk.get("name")]
        items = [i["key"] for i in pv[0]["configMap"].get("items", [])] if pv else None
        mount = next((m["mountPath"] for m in jct["volumeMounts"] if pv and m["name"] == pv[0]["name"]), None)
        check(len(extra) == 1 and pv and items and cmk.get("key") not in items and
              plans and mount and plans[0].startswith(mount + "/"),
              f"{UPDATE} mounts the reviewed plan from {cmk.get('name')} at {mount} (items {items}), not the approval")

print(f"consistency: {'all checks passed' if not fails else f'{fails} failed'}")
sys.exit(1 if fails else 0)
