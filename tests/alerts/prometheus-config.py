#!/usr/bin/env python3
"""Writes the Prometheus and Alertmanager configuration of make alerts-e2e from
the rendered manifests (kustomize output), so the scrape is the one the
ServiceMonitor asks prometheus-operator for:

  prometheus-config.py RENDERED.yaml OUTDIR PROM_RULES AM_ADDR WEBHOOK_URL

OUTDIR/prometheus.yml: one job per ServiceMonitor endpoint, named after the
Service it selects, with the endpoint's path, scheme, interval and
scrapeTimeout; its targets come from OUTDIR/targets.json (file_sd), the one
thing that depends on where the pods run (podman bed or a real cluster).
OUTDIR/alertmanager.yml: every alert to the webhook, grouped by alert name and
connector, with waits short enough for a test.
Prints the metrics port the targets must use (the container port the
Service's targetPort names).  Exit codes: 0 written, 1 the manifests do not
hold together, 2 usage.
"""
import json
import os
import sys

import yaml

PROG = "prometheus-config"


def fail(code, msg):
    print(f"{PROG}: error: {msg}", file=sys.stderr)
    sys.exit(code)


def main():
    if len(sys.argv) != 6:
        fail(2, "usage: prometheus-config.py RENDERED.yaml OUTDIR PROM_RULES AM_ADDR WEBHOOK_URL")
    rendered, outdir, rules, am_addr, webhook = sys.argv[1:]
    with open(rendered) as f:
        docs = [d for d in yaml.safe_load_all(f) if d]
    sms = [d for d in docs if d["kind"] == "ServiceMonitor"]
    if len(sms) != 1:
        fail(1, f"{len(sms)} ServiceMonitors in {rendered}, want 1")
    sm = sms[0]
    want = sm["spec"]["selector"]["matchLabels"]
    svcs = [d for d in docs if d["kind"] == "Service"
            and all(d["metadata"].get("labels", {}).get(k) == v for k, v in want.items())]
    if len(svcs) != 1:
        fail(1, f"the ServiceMonitor selects {len(svcs)} Services, want 1")
    svc = svcs[0]
    dep = next((d for d in docs if d["kind"] == "Deployment"), None)
    if dep is None:
        fail(1, "no Deployment in the render")
    ports = {p["name"]: p for p in dep["spec"]["template"]["spec"]["containers"][0].get("ports", [])}
    jobs = []
    port = None
    for ep in sm["spec"]["endpoints"]:
        sp = next((p for p in svc["spec"]["ports"] if p.get("name") == ep["port"]), None)
        if sp is None:
            fail(1, f'Service {svc["metadata"]["name"]} has no port named {ep["port"]}')
        tp = sp.get("targetPort", sp["port"])
        if isinstance(tp, str):
            if tp not in ports:
                fail(1, f"the worker container has no port named {tp}")
            tp = ports[tp]["containerPort"]
        port = tp
        job = {
            "job_name": svc["metadata"]["name"],
            "metrics_path": ep.get("path", "/metrics"),
            "scheme": ep.get("scheme", "http"),
            "file_sd_configs": [{"files": [os.path.join(os.path.abspath(outdir), "targets.json")],
                                 "refresh_interval": "5s"}],
        }
        if "interval" in ep:
            job["scrape_interval"] = ep["interval"]
        if "scrapeTimeout" in ep:
            job["scrape_timeout"] = ep["scrapeTimeout"]
        jobs.append(job)
    interval = jobs[0].get("scrape_interval", "30s")
    prom = {
        "global": {"scrape_interval": interval, "evaluation_interval": interval},
        "rule_files": [os.path.abspath(rules)],
        "alerting": {"alertmanagers": [{"static_configs": [{"targets": [am_addr]}]}]},
        "scrape_configs": jobs,
    }
    am = {
        "route": {"receiver": "webhook", "group_by": ["alertname", "connector"],
                  "group_wait": "1s", "group_interval": "2s", "repeat_interval": "1h"},
        "receivers": [{"name": "webhook",
                       "webhook_configs": [{"url": webhook, "send_resolved": True}]}],
    }
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, "prometheus.yml"), "w") as f:
        yaml.safe_dump(prom, f, sort_keys=False)
    with open(os.path.join(outdir, "alertmanager.yml"), "w") as f:
        yaml.safe_dump(am, f, sort_keys=False)
    if not os.path.exists(os.path.join(outdir, "targets.json")):
        with open(os.path.join(outdir, "targets.json"), "w") as f:
            json.dump([], f)
    print(port)
    return 0


if __name__ == "__main__":
    sys.exit(main())
