#!/usr/bin/env python3
"""HTTP/1.1 framing of `status-store run`, on loopback: requests hidden in bodies are never run, a
request with a body followed by another on one connection gets two right answers, Expect:
100-continue, the body and header limits, Connect's root and health bodies, and /health answered
while 1,000 slowloris connections are open. Usage: http_framing.py HOST PORT. Prints "ok ..." or
"FAIL ..." per check, exits 1 if any failed. Every phase is bounded in time and sockets."""
import json
import socket
import sys
import threading
import time

host, port = sys.argv[1], int(sys.argv[2])
failures = 0


def report(ok, name, detail=""):
    global failures
    failures += 0 if ok else 1
    print(("ok   " if ok else "FAIL ") + name + (": " + detail if detail else ""), flush=True)


def read_responses(s, want, timeout=3.0):
    """Reads up to `want` whole responses (by Content-Length) from socket s; returns [(status, headers, body)]
    and stops early when the peer closes or nothing arrives within `timeout`."""
    s.settimeout(timeout)
    data, out = b"", []
    while len(out) < want:
        while b"\r\n\r\n" not in data:
            try:
                chunk = s.recv(65536)
            except OSError:
                return out
            if not chunk:
                return out
            data += chunk
        head, _, rest = data.partition(b"\r\n\r\n")
        lines = head.split(b"\r\n")
        status = int(lines[0].split(b" ")[1])
        headers = {l.split(b":", 1)[0].strip().lower(): l.split(b":", 1)[1].strip() for l in lines[1:] if b":" in l}
        length = int(headers.get(b"content-length", b"0")) if status >= 200 else 0
        while len(rest) < length:
            try:
                chunk = s.recv(65536)
            except OSError:
                break
            if not chunk:
                break
            rest += chunk
        out.append((status, headers, rest[:length]))
        data = rest[length:]
    # Anything more within a moment is a response to a request that should never have run.
    s.settimeout(0.5)
    try:
        extra = s.recv(65536)
        if extra:
            out.append((int(extra.split(b" ")[1]) if extra.startswith(b"HTTP/") else -1, {}, extra))
    except OSError:
        pass
    return out


def exchange(raw, want, timeout=3.0):
    with socket.create_connection((host, port), timeout=5) as s:
        s.sendall(raw)
        return read_responses(s, want, timeout)


def get_json(path):
    r = exchange(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode(), 1)
    return (r[0][0], json.loads(r[0][2])) if r else (None, None)


def topics():
    status, body = get_json("/connectors/my-src/topics")
    return body["my-src"]["topics"] if status == 200 else None


# ---- a request hidden in a body is never run --------------------------------------------------------
hidden = b"PUT /connectors/my-src/topics/reset HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n"
before = topics()
r = exchange(b"POST /connectors HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: " +
             str(len(hidden)).encode() + b"\r\n\r\n" + hidden, 2)
report([x[0] for x in r] == [405], "a reset hidden in a POST body (Content-Length): one 405, nothing else",
       f"answers {[x[0] for x in r]}")
chunked = hex(len(hidden))[2:].encode() + b"\r\n" + hidden + b"\r\n0\r\n\r\n"
r = exchange(b"POST /connectors HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n" +
             chunked, 2)
report([x[0] for x in r] == [405], "a reset hidden in a chunked POST body: one 405, nothing else",
       f"answers {[x[0] for x in r]}")
time.sleep(1.5)  # a reset that ran would have written tombstones, read back by now
after = topics()
report(before == ["orders"] and after == ["orders"], "the topics are still there (no hidden reset ran)",
       f"before {before}, after {after}")

# ---- a body, then another request on the same connection -------------------------------------------
r = exchange(b"PUT /connectors/nope/topics/reset HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
             b"Content-Length: 2\r\n\r\n{}GET /connectors HTTP/1.1\r\nHost: x\r\n\r\n", 2)
report([x[0] for x in r] == [202, 200] and json.loads(r[1][2]) == ["my-src"],
       "a PUT with a body, then a GET on one connection: 202 and the connector list",
       f"answers {[(x[0], x[2][:40]) for x in r]}")
r = exchange(b"GET /connectors HTTP/1.1\r\nHost: x\r\n\r\nGET /connectors/my-src/status HTTP/1.1\r\nHost: x\r\n\r\n", 2)
report([x[0] for x in r] == [200, 200] and json.loads(r[1][2])["name"] == "my-src",
       "two pipelined GETs: two answers, in order", f"answers {[x[0] for x in r]}")

# ---- Expect: 100-continue, body and header limits ----------------------------------------------------
with socket.create_connection((host, port), timeout=5) as s:
    s.sendall(b"POST /connectors HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n")
    first = read_responses(s, 1)
    s.sendall(b"hello")
    second = read_responses(s, 1)
report([x[0] for x in first] == [100] and [x[0] for x in second] == [405],
       "Expect: 100-continue gets a 100, then the body is read and answered",
       f"{[x[0] for x in first]} then {[x[0] for x in second]}")
r = exchange(b"POST /connectors HTTP/1.1\r\nHost: x\r\nContent-Length: 70000\r\n\r\n" + b"x" * 70000, 1)
report(r and r[0][0] == 413 and json.loads(r[0][2])["error_code"] == 413, "a body over 64 KiB is a 413",
       f"answers {[x[0] for x in r]}")
r = exchange(b"POST /connectors HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" +
             b"".join(b"1000\r\n" + b"y" * 4096 + b"\r\n" for _ in range(20)) + b"0\r\n\r\n", 1)
report(r and r[0][0] == 413, "a chunked body over 64 KiB is a 413", f"answers {[x[0] for x in r]}")
r = exchange(b"GET /connectors HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-H%d: %s\r\n" % (i, b"v" * 100)
                                                                   for i in range(200)) + b"\r\n", 1)
report(r and r[0][0] == 431, "20 KB of headers is a 431", f"answers {[x[0] for x in r]}")
r = exchange(b"GET /connectors/" + b"a" * 20000 + b"/status HTTP/1.1\r\nHost: x\r\n\r\n", 1)
report(r and r[0][0] == 414, "a 20 KB request target is a 414", f"answers {[x[0] for x in r]}")

# ---- Connect's root and health bodies ------------------------------------------------------------------
status, body = get_json("/")
report(status == 200 and list(body) == ["version", "commit", "kafka_cluster_id"] and body["version"],
       "GET / is Connect's ServerInfo", f"{status} {body}")
status, body = get_json("/health")
report(status == 200 and body == {"status": "healthy",
                                  "message": "Worker has completed startup and is ready to handle requests."},
       "GET /health is Connect's healthy WorkerStatus", f"{status} {body}")
status, body = get_json("/connectors?expand=status")
report(status == 200 and body["my-src"]["status"]["type"] == "unknown", "expand=status says \"type\":\"unknown\"",
       f"{status} {body}")

# ---- 1,000 slowloris connections; probes still answered within 100 ms -------------------------------
slow = []
for _ in range(1000):
    try:
        s = socket.create_connection((host, port), timeout=5)
        s.sendall(b"GET /connectors HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        slow.append(s)
    except OSError:
        break
stop = threading.Event()


def trickle():
    while not stop.is_set():
        for s in list(slow):
            try:
                s.send(b"z")
            except OSError:
                pass
        stop.wait(0.5)


t = threading.Thread(target=trickle, daemon=True)
t.start()
time.sleep(0.5)
took, answers = [], []
for i in range(40):
    source = "127.0.0.2" if i % 2 == 0 else "127.0.0.1"  # a probe from another address, and from the flood's
    t0 = time.monotonic()
    try:
        with socket.create_connection((host, port), timeout=2, source_address=(source, 0)) as s:
            s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            r = read_responses(s, 1, timeout=2)
    except OSError:
        r = []
    took.append(time.monotonic() - t0)
    answers.append((source, r[0][0] if r else None))
    time.sleep(0.05)
stop.set()
t.join(timeout=5)
for s in slow:
    s.close()
other = [a for a in answers if a[0] == "127.0.0.2"]
report(len(slow) == 1000 and all(a[1] == 200 for a in other) and max(took) < 0.1,
       "1,000 slowloris connections: /health from another address answered 200 within 100 ms",
       f"{len(slow)} slow connections, answers {sorted(set(answers))}, slowest {max(took) * 1000:.1f} ms")
same = [a for a in answers if a[0] == "127.0.0.1"]
report(all(a[1] in (200, 503) for a in same),
       "... and from the flood's own address: 200 or a fast 503 (the health lane), never a hang", f"{same[:4]}")

sys.exit(1 if failures else 0)
