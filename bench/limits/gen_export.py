#!/usr/bin/env python3
"""gen_export.py FILE TOPICS PARTITIONS CONFIG_DIGEST: an export of TOPICS x PARTITIONS replicated
partitions as mm2-offsets export writes it once sealed (bench/limits/run.sh seals it with the
project's own writer): topic names of 35 characters (prod.payments.settlement-events-NNN),
offsets of 10 digits, both reads equal, Flink stopped (FINISHED), targets as large and quiet,
each target's tail aligned with C (the boundary evidence as export writes it: what is empty left
out), and each target topic's configs as export records them for accept (mm2_export_config_keys)."""
import json
import sys

file, ntopics, nparts, cdigest = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
topics, parts = [], []
for t in range(ntopics):
    name = "prod.payments.settlement-events-%03d" % t
    topics.append({"name": name, "partitions": nparts, "replicated": True, "target": name,
                   "target_partitions": nparts, "flink_target": name, "compacted": False,
                   "target_configs": {"cleanup.policy": "delete", "compression.type": "producer",
                                      "max.message.bytes": "1048588",
                                      "message.timestamp.type": "CreateTime",
                                      "min.insync.replicas": "2", "retention.bytes": "-1",
                                      "retention.ms": "604800000", "segment.bytes": "1073741824"}})
for t in topics:
    for p in range(nparts):
        c = 1234567890 + p
        parts.append({"topic": t["name"], "partition": p, "committed": [c, c],
                      "log_start": [c - 500000, c - 500000], "log_end": [c + 1000, c + 1000],
                      "target_hw": [c + 7, c + 7], "target_lso": [c + 7, c + 7],
                      "boundary": {"class": "aligned", "tail_records": 8, "matches": 1,
                                   "tail_first": c - 1, "tail_last": c + 6,
                                   "source_first": c - 8, "source_last": c - 1, "resume_at": c,
                                   "window_first": c - 72, "window_last": c + 63}})
x = {"kind": "mm2kit.export/v1", "tool": "bench/limits", "created": "2026-01-02T03:04:05Z",
     "source_cluster_id": "Zk3XcJ1pT9qkq2mYf0w8Bg", "target_cluster_id": "Qm7YdK2qU0rlr3nZg1x9Ch",
     "connect": {"version": "4.1.0", "kafka_cluster_id": "Qm7YdK2qU0rlr3nZg1x9Ch"},
     "connector": {"name": "mirror-source", "source_alias": "src", "config_digest": cdigest},
     "flink": {"group_id": "flink-copy", "group_state": "Empty", "group_members": 0,
               "stopped_by": "flink-rest", "job_state": "FINISHED", "checkpoint_interval_ms": 0},
     "stable_wait_ms": 30000, "topics": topics, "partitions": parts}
with open(file, "w") as f:
    json.dump(x, f)
