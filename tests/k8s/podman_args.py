#!/usr/bin/env python3
"""Turns the rendered Deployment's pod into what a kubelet would run, as
podman arguments (one per line, NUL-free), so the bed can start a worker
exactly as the manifest says.  Only the Downward API and the Secret need
values from outside: POD_IP is argv[2], Secret keys come from the JSON file
argv[3] ({"secret-name": {"key": "value"}}).

  podman_args.py run RENDERED.yaml POD_IP SECRETS.json   podman run options
  podman_args.py probe RENDERED.yaml NAME                 that probe's command
  podman_args.py budget RENDERED.yaml NAME                periodSeconds x failureThreshold
"""
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


def main():
    mode, path = sys.argv[1], sys.argv[2]
    docs = [d for d in yaml.safe_load_all(open(path)) if d]
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
            if vf["fieldRef"]["fieldPath"] != "status.podIP":
                raise SystemExit(f"podman_args: error: fieldRef {vf['fieldRef']['fieldPath']} not supported")
            out += ["-e", f"{e['name']}={pod_ip}"]
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
    vols = {v["name"]: v for v in pod.get("volumes", [])}
    for m in c.get("volumeMounts", []):
        v = vols[m["name"]]
        if "emptyDir" not in v:
            raise SystemExit(f"podman_args: error: volume {m['name']} is not an emptyDir")
        size = v["emptyDir"].get("sizeLimit")
        out += ["--tmpfs", f"{m['mountPath']}:rw,mode=1777" + (f",size={quantity_bytes(size)}" if size else "")]
    lim = c.get("resources", {}).get("limits", {})
    if "memory" in lim:
        out += ["--memory", str(quantity_bytes(lim["memory"]))]
    if "cpu" in lim:
        out += ["--cpus", cpus(lim["cpu"])]
    if c.get("command"):
        out += ["--entrypoint", c["command"][0]]
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
