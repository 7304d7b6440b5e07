#!/usr/bin/env python3
"""Validates rendered manifests (kubectl kustomize output on stdin or files):
core kinds against the Kubernetes schemas that kubernetes-validate ships
(strict: unknown fields are errors), ServiceMonitor and PrometheusRule
against the prometheus-operator CRDs in the folder MM2_CRD_SCHEMAS names
(tests/k8s/crds.sh generates them; make k8s-check sets it).
Prints one line per object; exits 1 when any is invalid, 3 without CRDs.
"""
import glob
import os
import sys

import jsonschema
import kubernetes_validate
import yaml

K8S_VERSION = os.environ.get("K8S_VERSION", "1.32.0")


def crd_schemas(folder):
    out = {}
    for path in glob.glob(os.path.join(folder, "*.yaml")):
        with open(path) as f:
            crd = yaml.safe_load(f)
        if not isinstance(crd, dict) or crd.get("kind") != "CustomResourceDefinition":
            continue
        group, kind = crd["spec"]["group"], crd["spec"]["names"]["kind"]
        for v in crd["spec"]["versions"]:
            out[(f"{group}/{v['name']}", kind)] = v["schema"]["openAPIV3Schema"]
    return out


def main():
    schemas_dir = os.environ.get("MM2_CRD_SCHEMAS", "")
    crds = crd_schemas(schemas_dir) if schemas_dir else {}
    if not crds:
        print(f"validate: error: no CRD found in MM2_CRD_SCHEMAS={schemas_dir!r}; "
              "set it to the folder tests/k8s/crds.sh prints", file=sys.stderr)
        return 3
    text = sys.stdin.read() if len(sys.argv) < 2 else "".join(open(p).read() for p in sys.argv[1:])
    docs = [d for d in yaml.safe_load_all(text) if d]
    bad = 0
    for d in docs:
        name = f"{d.get('kind')}/{d.get('metadata', {}).get('name')}"
        key = (d.get("apiVersion"), d.get("kind"))
        try:
            if key in crds:
                # Not jsonschema.validate: the CRDs hold Go regexes such as
                # '^(?i)(abort|warn)?$' that Python's metaschema check refuses.
                jsonschema.Draft7Validator(crds[key]).validate(d)
                how = "CRD schema"
            else:
                kubernetes_validate.validate(d, K8S_VERSION, strict=True)
                how = f"Kubernetes {K8S_VERSION} strict"
            print(f"validate: {name}: valid ({how})")
        except (jsonschema.ValidationError, kubernetes_validate.ValidationError) as e:
            print(f"validate: error: {name}: {getattr(e, 'message', e)} at {'/'.join(str(p) for p in getattr(e, 'path', []))}",
                  file=sys.stderr)
            bad += 1
        except kubernetes_validate.SchemaNotFoundError as e:
            print(f"validate: error: {name}: no schema: {e}", file=sys.stderr)
            bad += 1
    print(f"validate: {len(docs) - bad} valid, {bad} invalid")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
