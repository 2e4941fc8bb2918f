#!/usr/bin/env python3
"""A webhook receiver for tests/app/webhook_test.sh: answers the first POST of every distinct body
with 503 and every later one with 200, and logs each request as one JSON line (the time it came, the
status it got, its path, its Authorization and Content-Type headers and its body).

Usage: webhook_receiver.py PORT_FILE LOG_FILE [--tls CERT KEY]. Listens on 127.0.0.1, on a free port
it writes to PORT_FILE once it is listening."""
import http.server
import json
import ssl
import sys
import threading
import time

port_file, log_file = sys.argv[1], sys.argv[2]
seen = set()
lock = threading.Lock()


class Receiver(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0"))).decode("utf-8")
        with lock:
            status = 200 if body in seen else 503
            seen.add(body)
            with open(log_file, "a", encoding="utf-8") as log:
                log.write(json.dumps({"time": time.monotonic(), "status": status, "path": self.path,
                                      "authorization": self.headers.get("Authorization"),
                                      "content_type": self.headers.get("Content-Type"),
                                      "body": body}) + "\n")
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
if len(sys.argv) > 3 and sys.argv[3] == "--tls":
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(sys.argv[4], sys.argv[5])
    server.socket = context.wrap_socket(server.socket, server_side=True)
with open(port_file + ".tmp", "w", encoding="utf-8") as f:
    f.write(str(server.server_address[1]))
import os  # noqa: E402  (renamed into place only once listening)
os.rename(port_file + ".tmp", port_file)
server.serve_forever()
