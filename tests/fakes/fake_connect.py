#!/usr/bin/env python3
"""fake_connect: a stand-in for a Kafka Connect worker's REST API that misbehaves on demand.

Only for faults a real worker cannot be made to show at will (a server that never answers, a
dripping or 10 MB body, garbage, a redirect loop, a FAILED task with a trace); behaviour against a
real worker is proven by the e2e tests on the bed.

    fake_connect.py MODE PORT_FILE

Listens on 127.0.0.1, port 0 (the kernel picks), and writes the port to PORT_FILE once it accepts
connections. MODE is one of the keys of MODES below. Runs until killed.
"""
import json
import os
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ROOT = {"version": "4.1.0", "commit": "0123456789abcdef", "kafka_cluster_id": "fake-cluster"}
HEALTHY = {"status": "healthy",
           "message": "Worker has completed startup and is ready to handle requests."}
STARTING = {"status": "starting", "message": "Worker is still starting up."}
UNHEALTHY = {"status": "unhealthy",
             "message": "Worker was unable to handle this request and may be unable\n"
                        "to handle other requests."}
NOT_FOUND = {"error_code": 404, "message": "HTTP 404 Not Found"}
TIMED_OUT = {"error_code": 500, "message": "Request timed out"}
TRACE = ("org.apache.kafka.connect.errors.ConnectException: boom\n"
         "\tat org.apache.kafka.connect.mirror.MirrorSourceTask.poll(MirrorSourceTask.java:1)\n")


def task(i, state="RUNNING", worker="10.0.0.1:8088", trace=None):
    t = {"id": i, "state": state, "worker_id": worker}
    if trace is not None:
        t["trace"] = trace
    return t


def connector(name, state, tasks, ctype="source", worker="10.0.0.1:8088", trace=None):
    c = {"state": state, "worker_id": worker}
    if trace is not None:
        c["trace"] = trace
    return {name: {"status": {"name": name, "connector": c, "tasks": tasks, "type": ctype}}}


def merge(*dicts):
    out = {}
    for d in dicts:
        out.update(d)
    return out


CONNECTORS_OK = merge(
    connector("mirror-source", "RUNNING", [task(0), task(1, worker="10.0.0.2:8088")]),
    connector("mirror-heartbeat", "RUNNING", [task(0)]),
    connector("mirror-checkpoint", "STOPPED", []),
)
CONNECTORS_FAILED = merge(
    connector("mirror-source", "RUNNING",
              [task(0), task(1, "FAILED", "10.0.0.2:8088", TRACE)]),
    connector("mirror-heartbeat", "RUNNING", [task(0)]),
)
CONNECTORS_NO_TASKS = merge(
    connector("mirror-source", "RUNNING", []),
    connector("mirror-heartbeat", "RUNNING", [task(0)]),
)
CONNECTORS_MALFORMED = connector("mirror-source", "RUNNING", [task("0")])

# mode -> {path: (status, body)}; "*" answers any other path. A body of None means the mode's
# handler below does something special.
HEALTHY_PATHS = {"/": (200, ROOT), "/health": (200, HEALTHY), "/connectors": (200, []),
                 "/connectors?expand=status": (200, {})}


def with_status(body):
    return merge(HEALTHY_PATHS, {"/connectors?expand=status": (200, body)})


MODES = {
    "healthy": HEALTHY_PATHS,
    "starting": merge(HEALTHY_PATHS, {"/health": (503, STARTING)}),
    "unhealthy": merge(HEALTHY_PATHS, {"/health": (500, UNHEALTHY)}),
    "no-health": merge(HEALTHY_PATHS, {"/health": (404, NOT_FOUND)}),
    "no-health-500": merge(HEALTHY_PATHS, {"/health": (404, NOT_FOUND),
                                           "/connectors": (500, TIMED_OUT)}),
    "error500": {"*": (500, TIMED_OUT)},
    "garbage": {"*": (200, "<html>this is not JSON</html>")},
    "connectors-ok": with_status(CONNECTORS_OK),
    "connectors-failed": with_status(CONNECTORS_FAILED),
    "connectors-no-tasks": with_status(CONNECTORS_NO_TASKS),
    "connectors-malformed": with_status(CONNECTORS_MALFORMED),
    "connectors-not-object": with_status([]),
    # Special behaviour, in Handler.do_GET:
    "hang": {},
    "slow-body": {},
    "huge": {},
    "huge-unsized": {},
    "redirect-loop": {},
}

HUGE = 10 * 1024 * 1024
CHUNK = b"x" * 65536


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # no 40 ms delayed-ACK stall on a reused connection
    mode = "healthy"

    def log_message(self, fmt, *args):
        sys.stderr.write("fake_connect: %s %s\n" % (self.address_string(), fmt % args))

    def answer(self, status, body, ctype="application/json"):
        data = body.encode() if isinstance(body, str) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        try:
            self.dispatch()
        except (BrokenPipeError, ConnectionResetError):
            pass  # the probe hung up, as it should on a huge or slow body

    def dispatch(self):
        mode = self.mode
        if mode == "hang":
            time.sleep(3600)
            return
        if mode == "redirect-loop":
            self.send_response(302)
            self.send_header("Location", self.path)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if mode == "slow-body":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "1000")
            self.end_headers()
            for _ in range(1000):
                self.wfile.write(b" ")
                self.wfile.flush()
                time.sleep(0.1)
            return
        if mode in ("huge", "huge-unsized"):
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            if mode == "huge":
                self.send_header("Content-Length", str(HUGE))
            else:
                self.send_header("Connection", "close")
                self.close_connection = True
            self.end_headers()
            for _ in range(HUGE // len(CHUNK)):
                self.wfile.write(CHUNK)
            return
        paths = MODES[mode]
        status, body = paths.get(self.path) or paths.get("*") or (404, NOT_FOUND)
        self.answer(status, body, "text/html" if isinstance(body, str) else "application/json")


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in MODES:
        sys.stderr.write("usage: fake_connect.py MODE PORT_FILE\nmodes: %s\n" % " ".join(MODES))
        return 2
    Handler.mode = sys.argv[1]
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    tmp = sys.argv[2] + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d\n" % server.server_address[1])
    os.replace(tmp, sys.argv[2])  # the port file appears whole, never half-written
    server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
