#!/usr/bin/env python3
"""Reads kustomize output (a multi-document YAML stream) on stdin and writes the
rule groups of every PrometheusRule in it to stdout as a Prometheus rule file,
so promtool and a real Prometheus load exactly what kustomize renders.

  rules-from-kustomize.py <rendered.yaml >rules.yaml
  rules-from-kustomize.py --same-as BASE.yaml <overlay.yaml >rules.yaml

--same-as: also require that the rules differ from BASE's only in their
`for`s, and that every `for` of BASE is shortened (a test overlay that scales
the `for`s down and leaves every expression as it ships), except for the
recording rules named by --settable: the operator's own constants, which an
overlay may set to another vector(NUMBER).
Exit codes: 0 written, 1 a check failed, 2 usage, 3 no PrometheusRule found.
"""
import argparse
import copy
import re
import sys

import yaml

PROG = "rules-from-kustomize"


def fail(code, msg):
    print(f"{PROG}: error: {msg}", file=sys.stderr)
    sys.exit(code)


def groups_of(stream, what):
    groups = []
    for doc in yaml.safe_load_all(stream):
        if isinstance(doc, dict) and doc.get("kind") == "PrometheusRule":
            groups.extend(doc.get("spec", {}).get("groups", []))
    if not groups:
        fail(3, f"{what}: no PrometheusRule with rule groups in it")
    return groups


def seconds(d):
    """A Prometheus duration (1h30m, 15m, 4s) in seconds."""
    units = {"ms": 0.001, "s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800, "y": 31536000}
    parts = re.findall(r"(\d+)(ms|s|m|h|d|w|y)", d)
    if not parts or "".join(n + u for n, u in parts) != d:
        fail(1, f'"{d}" is not a Prometheus duration')
    return sum(int(n) * units[u] for n, u in parts)


def main():
    ap = argparse.ArgumentParser(prog=PROG)
    ap.add_argument("--same-as", metavar="BASE.yaml")
    ap.add_argument("--settable", metavar="RECORD", action="append", default=[])
    a = ap.parse_args()
    groups = groups_of(sys.stdin, "stdin")
    if a.same_as:
        with open(a.same_as) as f:
            base = groups_of(f, a.same_as)
        if len(base) != len(groups):
            fail(1, f"{len(groups)} rule groups, the base has {len(base)}")
        for bg, g in zip(base, groups):
            if len(bg["rules"]) != len(g["rules"]):
                fail(1, f'group {g["name"]}: {len(g["rules"])} rules, the base has {len(bg["rules"])}')
            for br, r in zip(bg["rules"], g["rules"]):
                name = br.get("alert") or br.get("record")
                b2, r2 = copy.deepcopy(br), copy.deepcopy(r)
                bf, rf = b2.pop("for", None), r2.pop("for", None)
                if br.get("record") in a.settable:
                    for x in (b2, r2):
                        if not re.fullmatch(r"vector\([0-9]+(\.[0-9]+)?\)", str(x.get("expr", "")).strip()):
                            fail(1, f"{name}: settable, but {x.get('expr')!r} is not vector(NUMBER)")
                        x.pop("expr")
                if b2 != r2:
                    fail(1, f"{name}: differs from the base beyond its for")
                if bf is not None and (rf is None or seconds(rf) >= seconds(bf)):
                    fail(1, f"{name}: for {rf} is not shorter than the base's {bf}")
    yaml.safe_dump({"groups": groups}, sys.stdout, sort_keys=False, width=200)
    return 0


if __name__ == "__main__":
    sys.exit(main())
