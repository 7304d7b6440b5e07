#!/usr/bin/env python3
"""Lists the Prometheus queries of a Grafana dashboard JSON (k8s/dashboards/).

  dashboard-queries.py --rules DASHBOARD.json   a rule file with one recording
                                                rule per query, for promtool check rules
  dashboard-queries.py --lines DASHBOARD.json   "panel title<TAB>query" per line
  dashboard-queries.py --lines --interval 10s DASHBOARD.json

Grafana's $__rate_interval (the only variable the queries may use) becomes
--interval (default 1m).  Exit codes: 0 listed, 1 a panel without a query or
with another variable, 2 usage.
"""
import argparse
import json
import re
import sys

import yaml

PROG = "dashboard-queries"


def fail(code, msg):
    print(f"{PROG}: error: {msg}", file=sys.stderr)
    sys.exit(code)


def panels(node):
    for p in node.get("panels", []):
        if p.get("type") == "row":
            yield from panels(p)
        else:
            yield p


def main():
    ap = argparse.ArgumentParser(prog=PROG)
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--rules", action="store_true")
    mode.add_argument("--lines", action="store_true")
    ap.add_argument("--interval", default="1m")
    ap.add_argument("dashboard")
    a = ap.parse_args()
    with open(a.dashboard) as f:
        dash = json.load(f)
    out = []
    for p in panels(dash):
        title = p.get("title", "")
        targets = [t for t in p.get("targets", []) if t.get("expr")]
        if not targets:
            fail(1, f'panel "{title}" has no Prometheus query')
        for t in targets:
            expr = t["expr"].replace("$__rate_interval", a.interval)
            if "$" in expr:
                fail(1, f'panel "{title}": only $__rate_interval may appear in a query: {t["expr"]}')
            out.append((title, " ".join(expr.split())))
    if not out:
        fail(1, f"{a.dashboard}: no panel")
    if a.lines:
        for title, expr in out:
            print(f"{title}\t{expr}")
    else:
        rules = [{"record": f"dashboard:panel_{i}", "expr": e} for i, (_, e) in enumerate(out)]
        yaml.safe_dump({"groups": [{"name": "dashboard", "rules": rules}]}, sys.stdout, sort_keys=False, width=400)
    return 0


if __name__ == "__main__":
    sys.exit(main())
