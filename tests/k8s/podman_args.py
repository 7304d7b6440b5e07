#!/usr/bin/env python3
"""Turns the rendered Deployment's pod into what a kubelet would run, as
podman arguments (one per line, NUL-free), so the bed can start a worker
exactly as the manifest says.  Only the Downward API and the Secret need
values from outside: POD_IP is argv[2], Secret keys come from the JSON file
argv[3] ({"secret-name": {"key": "value"}}).

  podman_args.py run RENDERED.yaml POD_IP SECRETS.json   podman run options; a Secret volume's
      files are written beside SECRETS.json in secret-volumes/SECRET and mounted read-only
  podman_args.py probe RENDERED.yaml NAME                 that probe's command
  podman_args.py budget RENDERED.yaml NAME                periodSeconds x failureThreshold
  podman_args.py job RENDERED.yaml SECRETS.json OUTDIR [CONFIGMAP=DIR]...
      the offset Job's container as podman run options, then a line "--", then its command:
      a Secret volume's files go to OUTDIR/secret-volumes/SECRET; each configMap volume's
      files are written to OUTDIR/VOLUME and mounted read-only where the
      Job mounts them; a configMap the render does not hold (the reviewed plan) comes from DIR
"""
import os
import json
import re
import sys

import yaml


def quantity_bytes(q):
    m = re.fullmatch(r"(\d+)(Ki|Mi|Gi)?", str(q))
    if not m:
        raise SystemExit(f"podman_args: error: memory quantity {q!r} not understood")
    return int(m.group(1)) * {None: 1, "Ki": 1 << 10, "Mi": 1 << 20, "Gi": 1 << 30}[m.group(2)]


def cpus(q):
    q = str(q)
    return str(int(q[:-1]) / 1000) if q.endswith("m") else q


def container_args(pod, c, secrets, cms, extra_env=()):
    """podman run options for container c of pod spec pod: env, identity, limits, emptyDirs."""
    out = []
    for src in c.get("envFrom", []):
        for k, v in cms[src["configMapRef"]["name"]]["data"].items():
            out += ["-e", f"{k}={v}"]
    for e in c.get("env", []):
        if "value" in e:
            out += ["-e", f"{e['name']}={e['value']}"]
            continue
        vf = e["valueFrom"]
        if "fieldRef" in vf:
            if vf["fieldRef"]["fieldPath"] != "status.podIP" or not extra_env:
                raise SystemExit(f"podman_args: error: fieldRef {vf['fieldRef']['fieldPath']} not supported")
            out += ["-e", f"{e['name']}={extra_env[0]}"]
        elif "secretKeyRef" in vf:
            ref = vf["secretKeyRef"]
            out += ["-e", f"{e['name']}={secrets[ref['name']][ref['key']]}"]
        else:
            raise SystemExit(f"podman_args: error: env {e['name']}: valueFrom {list(vf)} not supported")
    psc, csc = pod.get("securityContext", {}), c.get("securityContext", {})
    uid = csc.get("runAsUser", psc.get("runAsUser"))
    gid = csc.get("runAsGroup", psc.get("runAsGroup"))
    if uid is not None:
        out += ["--user", f"{uid}:{gid if gid is not None else uid}"]
    if csc.get("readOnlyRootFilesystem"):
        out.append("--read-only")
    if "ALL" in csc.get("capabilities", {}).get("drop", []):
        out += ["--cap-drop", "ALL"]
    if csc.get("allowPrivilegeEscalation") is False:
        out += ["--security-opt", "no-new-privileges"]
    lim = c.get("resources", {}).get("limits", {})
    if "memory" in lim:
        out += ["--memory", str(quantity_bytes(lim["memory"]))]
    if "cpu" in lim:
        out += ["--cpus", cpus(lim["cpu"])]
    return out


def secret_volume(v, secrets, base):
    """A Secret volume as the kubelet would project it: its items (or every key) written as
    files to BASE/secret-volumes/SECRET (readable by the container's user: podman has no
    fsGroup), the directory to mount read-only."""
    name = v["secret"]["secretName"]
    if name not in secrets:
        raise SystemExit(f"podman_args: error: Secret {name} is not in the secrets file")
    data = secrets[name]
    items = v["secret"].get("items") or [{"key": k, "path": k} for k in data]
    d = os.path.join(base, "secret-volumes", name)
    os.makedirs(d, exist_ok=True)
    os.chmod(d, 0o755)
    for it in items:
        if it["key"] not in data:
            raise SystemExit(f"podman_args: error: Secret {name} has no key {it['key']}")
        f = os.path.join(d, it["path"])
        with open(f, "w") as fh:
            fh.write(data[it["key"]])
        os.chmod(f, 0o644)
    return d


def job_args(docs, secrets, outdir, extra_cms):
    # The offset Job by name: the render also holds the day-two Jobs (diff, update).
    job = next(d for d in docs if d["kind"] == "Job" and d["metadata"]["name"] == "mm2-offsets-apply")
    cms = {d["metadata"]["name"]: d for d in docs if d["kind"] == "ConfigMap"}
    pod = job["spec"]["template"]["spec"]
    c = pod["containers"][0]
    out = container_args(pod, c, secrets, cms)
    vols = {v["name"]: v for v in pod.get("volumes", [])}
    for m in c.get("volumeMounts", []):
        v = vols[m["name"]]
        if "emptyDir" in v:
            size = v["emptyDir"].get("sizeLimit")
            out += ["--tmpfs", f"{m['mountPath']}:rw,mode=1777" + (f",size={quantity_bytes(size)}" if size else "")]
        elif "configMap" in v:
            name = v["configMap"]["name"]
            if name in extra_cms:
                src = extra_cms[name]
            elif name in cms:
                src = os.path.join(outdir, m["name"])
                os.makedirs(src, exist_ok=True)
                os.chmod(src, 0o755)
                for k, data in cms[name]["data"].items():
                    f = os.path.join(src, k)
                    with open(f, "w") as fh:
                        fh.write(data)
                    os.chmod(f, 0o644)
            else:
                raise SystemExit(f"podman_args: error: configMap {name} is not in the render; give {name}=DIR")
            out += ["-v", f"{src}:{m['mountPath']}:ro"]
        elif "secret" in v:
            out += ["-v", f"{secret_volume(v, secrets, outdir)}:{m['mountPath']}:ro"]
        else:
            raise SystemExit(f"podman_args: error: volume {m['name']} is not an emptyDir, configMap or Secret")
    cmd = c.get("command", []) + c.get("args", [])
    if not cmd:
        raise SystemExit("podman_args: error: the Job's container has no command")
    out += ["--entrypoint", cmd[0], "--"] + cmd[1:]
    return out


def main():
    mode, path = sys.argv[1], sys.argv[2]
    docs = [d for d in yaml.safe_load_all(open(path)) if d]
    if mode == "job":
        extra = dict(a.split("=", 1) for a in sys.argv[5:])
        print("\n".join(job_args(docs, json.load(open(sys.argv[3])), sys.argv[4], extra)))
        return 0
    dep = next(d for d in docs if d["kind"] == "Deployment")
    cms = {d["metadata"]["name"]: d for d in docs if d["kind"] == "ConfigMap"}
    pod = dep["spec"]["template"]["spec"]
    c = pod["containers"][0]
    if mode == "probe":
        print("\n".join(c[sys.argv[3]]["exec"]["command"]))
        return 0
    if mode == "budget":
        probe = c[sys.argv[3]]
        print(probe["periodSeconds"] * probe["failureThreshold"])
        return 0
    pod_ip, secrets = sys.argv[3], json.load(open(sys.argv[4]))
    out = container_args(pod, c, secrets, cms, (pod_ip,))
    vols = {v["name"]: v for v in pod.get("volumes", [])}
    for m in c.get("volumeMounts", []):
        v = vols[m["name"]]
        if "secret" in v:
            base = os.path.dirname(os.path.abspath(sys.argv[4]))
            out += ["-v", f"{secret_volume(v, secrets, base)}:{m['mountPath']}:ro"]
            continue
        if "emptyDir" not in v:
            raise SystemExit(f"podman_args: error: volume {m['name']} is not an emptyDir or a Secret")
        size = v["emptyDir"].get("sizeLimit")
        out += ["--tmpfs", f"{m['mountPath']}:rw,mode=1777" + (f",size={quantity_bytes(size)}" if size else "")]
    if c.get("command"):
        out += ["--entrypoint", c["command"][0]]
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
