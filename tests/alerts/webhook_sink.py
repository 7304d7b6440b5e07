#!/usr/bin/env python3
"""The webhook receiver of make alerts-e2e: Alertmanager's notifications end
here.  Listens on 127.0.0.1:PORT and appends each POSTed body, as one JSON
line, to FILE; answers 200 to a JSON body, 400 to anything else.  Stops on
SIGTERM.

  webhook_sink.py PORT FILE
"""
import http.server
import json
import signal
import sys


def main():
    if len(sys.argv) != 3:
        print("usage: webhook_sink.py PORT FILE", file=sys.stderr)
        return 2
    port, path = int(sys.argv[1]), sys.argv[2]

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            n = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(min(n, 1 << 20))
            try:
                doc = json.loads(body)
            except ValueError:
                self.send_response(400)
                self.end_headers()
                return
            with open(path, "a") as f:
                f.write(json.dumps(doc, sort_keys=True) + "\n")
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args):
            pass

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    srv.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
