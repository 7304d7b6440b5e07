#!/usr/bin/env python3
"""fake_connect: a stand-in for a Kafka Connect worker's REST API that misbehaves on demand.

Only for faults a real worker cannot be made to show at will (a server that never answers, a
dripping or 10 MB body, garbage, a redirect loop, a FAILED task with a trace, 409 for ever, 500
"a rebalance is expected", 500 "Failed to retrieve offsets", 500 "IO Error trying to forward REST
request" for exactly as long as a test needs, an offsets answer of the wrong shape or one that
keeps changing); behaviour against a real worker is proven by the e2e tests on the bed and the
fault matrix (tests/faults).

    fake_connect.py MODE PORT_FILE [DIR]

Listens on 127.0.0.1, port 0 (the kernel picks), and writes the port to PORT_FILE once it accepts
connections. MODE is one of the keys of MODES below. Runs until killed.

The offsets-* modes (mm2-offsets' tests) serve one connector, the one of DIR/connector.json
({"name": ..., "config": {...}}, read at start): GET /connectors/NAME/config answers its config
with "name" set, as Connect stores it; GET /connectors/NAME/offsets answers the bytes of
DIR/offsets.json as they are (read at each request), so a test can serve any shape, garbage
included; the Nth GET of the offsets answers DIR/offsets.N.json instead when that file exists
(N from 1), so a test can serve a worker whose list is still growing. Any other connector name
is 404, as in Connect.

With FAKE_CONNECT_BASIC=USER:PASSWORD in its environment, every request must carry that pair as
HTTP Basic, or is answered as Kafka's JaasBasicAuthFilter answers it: 401 with the text "User
cannot access the resource." (not JSON). The log says which requests were refused, never the
pair.
"""
import base64
import json
import os
import sys
import threading
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
# A task producer refused by the target's authorizer, as AbstractWorkerSourceTask reports it.
AUTHZ_TRACE = ("org.apache.kafka.connect.errors.ConnectException: Unrecoverable exception from "
               "producer send callback\n\tat org.apache.kafka.connect.runtime.AbstractWorkerSourceTask"
               ".maybeThrowProducerSendException(AbstractWorkerSourceTask.java:334)\nCaused by: "
               "org.apache.kafka.common.errors.TopicAuthorizationException: Not authorized to access "
               "topics: [orders]\n")
CONNECTORS_FAILED_AUTHZ = merge(
    connector("mirror-source", "RUNNING",
              [task(0), task(1, "FAILED", "10.0.0.2:8088", AUTHZ_TRACE)]),
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
    "connectors-failed-authz": with_status(CONNECTORS_FAILED_AUTHZ),
    "connectors-no-tasks": with_status(CONNECTORS_NO_TASKS),
    "connectors-malformed": with_status(CONNECTORS_MALFORMED),
    "connectors-not-object": with_status([]),
    # Special behaviour, in Handler.do_GET:
    "hang": {},
    "slow-body": {},
    "huge": {},
    "huge-unsized": {},
    "redirect-loop": {},
    # mm2-offsets, in OffsetsHandler below:
    "offsets-stopped": {},    # STOPPED, zero tasks; PATCH 200, PUT resume 202, POST 201
    "offsets-running": {},    # RUNNING with two tasks
    "offsets-unassigned": {},  # UNASSIGNED with zero tasks (a stale status of a STOPPED one)
    # STOPPED with no task config, but its status still lists task 0 UNASSIGNED: the record an
    # earlier connector of the same name left in the status topic (KafkaStatusBackingStore).
    "offsets-stale": {},
    # STOPPED, yet one task config is left (a stop whose rebalance has not ended) and its task
    # reads RUNNING.
    "offsets-stopping": {},
    "offsets-absent": {},     # no such connector: 404 under /connectors/NAME
    "offsets-500": {},        # as offsets-stopped, but GET offsets is HTTP 500 with a message
    #                           that mm2-offsets does not retry (an answer, not a race)
    "offsets-409": {},        # every request HTTP 409 (a rebalance that never ends)
    "offsets-409-twice": {},  # the first two requests HTTP 409, then as offsets-stopped
    "offsets-500-rebalance": {},        # every request HTTP 500 "a rebalance is expected"
    "offsets-500-rebalance-twice": {},  # the first two requests so, then as offsets-stopped
    # A worker whose leader is gone: every request, or the first two, HTTP 500 "IO Error trying
    # to forward REST request" (RestClient), then as offsets-stopped.
    "offsets-500-forward": {},
    "offsets-500-forward-twice": {},
    "offsets-huge": {},       # GET offsets announces a body above mm2-offsets' 16 MiB cap
    # GET offsets: HTTP 500 "Failed to retrieve offsets for source connector NAME" (Worker's
    # wrapped ConcurrentModificationException) every time, or the first two times.
    "offsets-500-retrieve": {},
    "offsets-500-retrieve-twice": {},
    # GET offsets: offsets.json plus src/churn-0, whose offset is the number of the GET: a list
    # that never settles.
    "offsets-churn": {},
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

    def authorized(self):
        """False after answering 401 when FAKE_CONNECT_BASIC is set and not matched."""
        want = os.environ.get("FAKE_CONNECT_BASIC")
        if want is None:
            return True
        got = self.headers.get("Authorization", "")
        if got == "Basic " + base64.b64encode(want.encode()).decode():
            return True
        sys.stderr.write("fake_connect: 401 for %s %s (Authorization %s)\n"
                         % (self.command, self.path, "absent" if got == "" else "wrong"))
        self.answer(401, "User cannot access the resource.", "text/plain")
        self.close_connection = True  # any request body stays unread
        return False

    def do_GET(self):
        if not self.authorized():
            return
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


STALE = {"error_code": 409,
         "message": "Cannot complete request momentarily due to stale configuration (typically "
                    "caused by a concurrent config change)"}
# DistributedHerder's RebalanceNeededException, outside HerderRequestHandler: a 500 that passes.
REBALANCE = {"error_code": 500,
             "message": "Request cannot be completed because a rebalance is expected"}
OFFSETS_FAILED = {"error_code": 500,
                  "message": "Failed to retrieve source connector offsets: "
                             "org.apache.kafka.common.errors.TimeoutException: boom"}
# RestClient.httpRequest: the request forwarded to a leader that is gone (its IOException,
# TimeoutException or ExecutionException, as a ConnectRestException 500 through
# ConnectExceptionMapper).
FORWARD = {"error_code": 500,
           "message": "IO Error trying to forward REST request: java.net.ConnectException: "
                      "Connection refused"}
# Worker.sourceConnectorOffsets, ConnectUtils.maybeWrap of a non-Connect exception.
RETRIEVE_FAILED = "Failed to retrieve offsets for source connector %s"
CAP = 16 * 1024 * 1024  # MM2_CONNECT_BODY_MAX (lib/mm2_limits.h)


class OffsetsHandler(Handler):
    """The Connect REST calls of mm2-offsets, for the offsets-* modes."""
    dir = "."
    connector = {"name": "none", "config": {}}
    lock = threading.Lock()
    requests = 0
    offsets_gets = 0

    def do_GET(self):
        self.offsets_dispatch("GET")

    def do_PUT(self):
        self.offsets_dispatch("PUT")

    def do_PATCH(self):
        self.offsets_dispatch("PATCH")

    def do_POST(self):
        self.offsets_dispatch("POST")

    def do_DELETE(self):
        self.offsets_dispatch("DELETE")

    def offsets_dispatch(self, method):
        if not self.authorized():
            return
        try:
            self.offsets_answer(method)
        except (BrokenPipeError, ConnectionResetError):
            pass  # mm2-offsets hung up, as it should on a body above its cap

    def offsets_answer(self, method):
        length = int(self.headers.get("Content-Length") or 0)
        if length > 0:
            self.rfile.read(length)
        with OffsetsHandler.lock:
            OffsetsHandler.requests += 1
            n = OffsetsHandler.requests
        mode = self.mode
        if mode == "offsets-409" or (mode == "offsets-409-twice" and n <= 2):
            self.answer(409, STALE)
            return
        if mode == "offsets-500-rebalance" or (mode == "offsets-500-rebalance-twice" and n <= 2):
            self.answer(500, REBALANCE)
            return
        if mode == "offsets-500-forward" or (mode == "offsets-500-forward-twice" and n <= 2):
            self.answer(500, FORWARD)
            return
        name = self.connector["name"]
        base = "/connectors/" + name
        if self.path == "/" and method == "GET":
            self.answer(200, ROOT)
        elif self.path == "/connectors" and method == "POST":
            self.answer(201, {"name": name, "config": self.connector["config"], "tasks": [],
                              "type": "source"})
        elif not self.path.startswith(base + "/") or mode == "offsets-absent":
            self.answer(404, {"error_code": 404,
                              "message": "Connector %s not found" % self.path.split("/")[2]
                              if self.path.startswith("/connectors/") else "HTTP 404 Not Found"})
        elif self.path == base + "/config" and method == "GET":
            self.answer(200, dict(self.connector["config"], name=name))
        elif self.path == base + "/tasks" and method == "GET":
            n = {"offsets-running": 2, "offsets-stopping": 1}.get(mode, 0)
            self.answer(200, [{"id": {"connector": name, "task": i},
                               "config": dict(self.connector["config"], name=name)}
                              for i in range(n)])
        elif self.path == base + "/status" and method == "GET":
            running = mode == "offsets-running"
            tasks = [task(0), task(1, worker="10.0.0.2:8088")] if running else []
            state = "RUNNING" if running else "STOPPED"
            if mode == "offsets-unassigned":
                state = "UNASSIGNED"
            if mode == "offsets-stale":
                tasks = [task(0, "UNASSIGNED", "10.0.0.2:8088")]
            if mode == "offsets-stopping":
                tasks = [task(0)]
            self.answer(200, {"name": name, "type": "source", "tasks": tasks,
                              "connector": {"state": state, "worker_id": "10.0.0.1:8088"}})
        elif self.path == base + "/offsets" and method == "GET":
            with OffsetsHandler.lock:
                OffsetsHandler.offsets_gets += 1
                g = OffsetsHandler.offsets_gets
            if mode == "offsets-500":
                self.answer(500, OFFSETS_FAILED)
            elif mode == "offsets-500-retrieve" or (mode == "offsets-500-retrieve-twice"
                                                    and g <= 2):
                self.answer(500, {"error_code": 500, "message": RETRIEVE_FAILED % name})
            elif mode == "offsets-huge":
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(CAP + 1))
                self.end_headers()
                self.wfile.write(b'{"offsets": [')
            elif mode == "offsets-churn":
                with open(os.path.join(self.dir, "offsets.json"), "rb") as f:
                    body = json.load(f)
                body["offsets"].append({"partition": {"cluster": "src", "topic": "churn",
                                                      "partition": 0}, "offset": {"offset": g}})
                self.answer(200, body)
            else:
                path = os.path.join(self.dir, "offsets.%d.json" % g)
                if not os.path.exists(path):
                    path = os.path.join(self.dir, "offsets.json")
                with open(path, "rb") as f:
                    self.answer(200, f.read().decode())
        elif self.path == base + "/offsets" and method == "PATCH":
            self.answer(200, {"message": "The offsets for this connector have been altered "
                                         "successfully"})
        elif self.path == base + "/resume" and method == "PUT":
            self.send_response(202)
            self.send_header("Content-Length", "0")
            self.end_headers()
        else:
            self.answer(405, {"error_code": 405, "message": "HTTP 405 Method Not Allowed"})


def main():
    if len(sys.argv) not in (3, 4) or sys.argv[1] not in MODES:
        sys.stderr.write("usage: fake_connect.py MODE PORT_FILE [DIR]\nmodes: %s\n"
                         % " ".join(MODES))
        return 2
    handler = Handler
    if sys.argv[1].startswith("offsets-"):
        handler = OffsetsHandler
        handler.dir = sys.argv[3] if len(sys.argv) == 4 else "."
        with open(os.path.join(handler.dir, "connector.json")) as f:
            handler.connector = json.load(f)
    handler.mode = sys.argv[1]
    # FAKE_CONNECT_PORT: a port chosen beforehand (a Connect that comes up late); else the kernel's.
    server = ThreadingHTTPServer(("127.0.0.1", int(os.environ.get("FAKE_CONNECT_PORT", "0"))), handler)
    server.daemon_threads = True
    tmp = sys.argv[2] + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d\n" % server.server_address[1])
    os.replace(tmp, sys.argv[2])  # the port file appears whole, never half-written
    server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
