#!/usr/bin/env python3
"""`status-store run` under hostile and slow clients, on loopback. Usage: http_abuse.py HOST PORT BOUND
(BOUND = the service's --max-connections). Prints one line per check ("ok ..." or "FAIL ...") with
the numbers measured, and exits 1 if any check failed. Every phase is bounded in time and sockets."""
import json
import select
import socket
import statistics
import sys
import threading
import time
import http.client

host, port, bound = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
failures = 0


def report(ok, name, detail=""):
    global failures
    failures += 0 if ok else 1
    print(("ok   " if ok else "FAIL ") + name + (": " + detail if detail else ""), flush=True)


def raw(request: bytes, timeout=5.0):
    """Sends raw bytes; returns (status or None if closed without a status line, body bytes, whole reply)."""
    with socket.create_connection((host, port), timeout=timeout) as s:
        try:
            s.sendall(request)
        except OSError:
            pass  # the service may close before reading everything: that is an allowed answer
        data = b""
        try:
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
                if b"\r\n\r\n" in data:
                    head, _, body = data.partition(b"\r\n\r\n")
                    length = [l for l in head.split(b"\r\n") if l.lower().startswith(b"content-length:")]
                    if length and len(body) >= int(length[0].split(b":")[1]):
                        break
        except OSError:
            pass
    if not data.startswith(b"HTTP/1."):
        return None, b"", data
    head, _, body = data.partition(b"\r\n\r\n")
    length = [l for l in head.split(b"\r\n") if l.lower().startswith(b"content-length:")]
    if length:
        body = body[:int(length[0].split(b":")[1])]  # the first response only
    return int(head.split(b" ")[1]), body, data


def get(path, timeout=5.0):
    t0 = time.monotonic()
    status, body, _ = raw(b"GET " + path + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", timeout)
    return status, body, time.monotonic() - t0


# ---- hostile requests: every answer a 4xx with Connect's JSON body, or a closed connection -------
bad_segments = [b"%FF%FE", b"%C0%AE", b"%ED%A0%80", b"\xff", b"%F4%90%80%80", b"%E2%82", b"%G0", b"%", b"%F"]
templates = [[b"connectors", b"X", b"status"], [b"connectors", b"X", b"topics"], [b"connectors"], [b"metrics"],
             [b"healthz"]]
answers = {}
bad = []
for template in templates:
    for i in range(len(template)):
        for seg in bad_segments:
            parts = list(template)
            parts[i] = seg if parts[i] == b"X" else parts[i] + seg
            path = b"/" + b"/".join(parts)
            status, body, _ = get(path)
            answers[status] = answers.get(status, 0) + 1
            ok = status is None or (400 <= status < 500 and json.loads(body)["error_code"] == status)
            if not ok:
                bad.append((path, status, body[:80]))
for query in [b"/connectors?x=%FF", b"/healthz?%C0%AE=1", b"/metrics?a=%", b"/connectors/a/status?\xff"]:
    status, body, _ = get(query)
    answers[status] = answers.get(status, 0) + 1
    if not (status is not None and status == 400 and json.loads(body)["error_code"] == 400):
        bad.append((query, status, body[:80]))
report(not bad, "bad UTF-8 and broken escapes in every path segment and the query: 4xx with a JSON body",
       f"{sum(answers.values())} requests, answers {answers}" + (f"; wrong: {bad[:3]}" if bad else ""))

status, body, _ = get(b"/connectors/" + b"a" * 100_000 + b"/status", timeout=10)
report(status is None or 400 <= status < 500, "a 100 KB path is a 4xx or closed", f"status {status}")

plain_status, plain, _ = get(b"/metrics")
ranges = ",".join(f"{i}-{i + 1}" for i in range(0, 1200, 2))  # ~6 KB of ranges
for value in [ranges, "bytes=" + ranges, "bytes=" + ",".join("0-" for _ in range(1500)),
              "bytes=" + ",".join("0-0" for _ in range(2040))]:  # the longest header line the library reads
    status, body, data = raw(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\nRange: " + value.encode() +
                             b"\r\n\r\n")
    report(status in (200, 416) and len(data) < 2 * len(plain) + 1024,
           "a multi-range header on /metrics is ignored (200, whole body once) or refused (416)",
           f"{len(value)} B header: status {status}, {len(data)} B reply (plain /metrics: {len(plain)} B)")

junk = [b"GARBAGE\r\n\r\n", b"\x00\x01\x02\x03\r\n\r\n", b"GET\r\n\r\n", b"GET / HTTP/9.9\r\n\r\n",
        b"GET /healthz\r\n\r\n", b"\xff\xfe /healthz HTTP/1.1\r\n\r\n", b"GET /healthz HTTP/1.1\r\nX: \xff\xfe\r\n\r\n",
        b"GET /healthz HTTP/1.1\r\nX: " + b"h" * 100_000 + b"\r\n\r\n",
        b"GET /healthz HTTP/1.1\r\nContent-Length: 99999999999\r\n\r\nabc",
        b"POST /connectors HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello", b"\r\n" * 5000, b"G" * 300_000]
wrong = []
for request in junk:
    status, body, data = raw(request, timeout=10)
    if status is not None and not 200 <= status < 500:
        wrong.append((request[:30], status))
    elif status is not None and status >= 400 and body and json.loads(body).get("error_code") != status:
        wrong.append((request[:30], status, body[:60]))
report(not wrong, "junk request lines and headers: never a 5xx", f"{len(junk)} requests" + (f"; {wrong}" if wrong else ""))

# ---- keep-alive latency: one connection, many requests -------------------------------------------
c = http.client.HTTPConnection(host, port, timeout=5)
lat = []
for i in range(400):
    t0 = time.perf_counter()
    c.request("GET", "/healthz" if i % 2 else "/connectors/my-src/status")
    r = c.getresponse()
    r.read()
    lat.append((time.perf_counter() - t0) * 1000)
c.close()
lat = sorted(lat[20:])
p50, p99 = statistics.median(lat), lat[int(len(lat) * 0.99)]
report(p50 <= 5.0, "keep-alive requests on one connection: p50 <= 5 ms", f"p50 {p50:.2f} ms, p99 {p99:.2f} ms, "
       f"{len(lat)} requests")

# ---- 100 slow and idle connections, reopened as the service closes them --------------------------
stop = threading.Event()
open_now = []
lock = threading.Lock()


def idle_client():
    while not stop.is_set():
        try:
            s = socket.create_connection((host, port), timeout=10)
        except OSError:
            time.sleep(0.05)
            continue
        with lock:
            open_now.append(s)
        try:
            s.settimeout(0.2)
            while not stop.is_set():
                try:
                    if s.recv(1) == b"":
                        break  # closed by the service: reconnect, as an attacker would
                except socket.timeout:
                    pass
        except OSError:
            pass
        finally:
            with lock:
                open_now.remove(s)
            s.close()


def trickle_client():
    request = b"GET /connectors/my-src/status HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"z" * 10000
    while not stop.is_set():
        try:
            s = socket.create_connection((host, port), timeout=10)
        except OSError:
            time.sleep(0.05)
            continue
        with lock:
            open_now.append(s)
        try:
            for b in request:
                if stop.is_set():
                    break
                s.send(bytes([b]))
                time.sleep(0.25)
        except OSError:
            pass  # cut off by the request deadline
        finally:
            with lock:
                open_now.remove(s)
            s.close()


threads = [threading.Thread(target=idle_client if i % 2 else trickle_client, daemon=True) for i in range(100)]
for t in threads:
    t.start()
time.sleep(1.0)
probes = []
while len(probes) < 40:
    for path in (b"/healthz", b"/connectors/my-src/status"):
        status, _, took = get(path, timeout=5)
        probes.append((path, status, took))
    time.sleep(0.2)
with lock:
    held = len(open_now)
stop.set()
for t in threads:
    t.join(timeout=10)
worst = max(p[2] for p in probes)
answered = sum(1 for p in probes if p[1] == 200 and p[2] < 1.0)
report(answered == len(probes), "100 slow/idle connections: /healthz and a status query answered within 1 s",
       f"{answered}/{len(probes)} within 1 s, slowest {worst * 1000:.1f} ms, median "
       f"{statistics.median(p[2] for p in probes) * 1000:.1f} ms, {held} slow connections open at the end")

# ---- an idle connection is closed after the idle timeout ----------------------------------------
s = socket.create_connection((host, port), timeout=10)
t0 = time.monotonic()
closed = s.recv(1) == b""
took = time.monotonic() - t0
s.close()
report(closed and took < 3.5, "an idle connection is closed within the idle timeout (2 s)", f"closed after {took:.2f} s")

# ---- beyond the bound: /healthz still answered, anything else an immediate 503 -----------------
def closed_by_service(s):
    """Readable without a request sent: the service closed it (or answered it)."""
    return bool(select.select([s], [], [], 0)[0])


# `bound` connections from one address: its share (three quarters of the bound, the default of
# --max-connections-per-client) get slots; the rest wait in the health lane, which closes each after
# 250 ms without a health check. The checks need the share's connections held while they run; on a
# slow machine the first can reach the idle timeout (2 s) first, freeing a slot a status query then
# takes. So the phase runs again (at most 3 times) when more than the lane's connections were closed:
# a loaded machine cannot pass for a broken bound, and a broken bound still fails every attempt.
share = bound * 3 // 4
for attempt in range(1, 4):
    held = [socket.create_connection((host, port), timeout=5) for _ in range(bound)]
    time.sleep(0.3)
    health = get(b"/healthz")
    status, body, took = get(b"/connectors/my-src/status")
    idle_closed = sum(1 for h in held if closed_by_service(h)) - (bound - share)
    if idle_closed <= 0 or attempt == 3:
        break
    print(f"     ({idle_closed} of the {share} connections with slots reached the idle timeout during attempt "
          f"{attempt}: again)", flush=True)
    for h in held:
        h.close()
    time.sleep(0.5)
report(health[0] == 200 and health[2] < 1.0,
       f"with {bound} connections open from one address ({share} with slots, its share), /healthz is still answered",
       f"status {health[0]} in {health[2] * 1000:.1f} ms")
report(status == 503 and json.loads(body)["error_code"] == 503 and took < 1.0,
       f"with {bound} connections open from one address ({share} with slots, its share), a status query gets a 503 "
       "at once", f"status {status} in {took * 1000:.1f} ms, {max(idle_closed, 0)} slot(s) freed by the idle timeout")
extra = [socket.create_connection((host, port), timeout=5) for _ in range(20)]  # silent: fill the lane
status, body, took = get(b"/healthz")
report(status in (200, 503) and took < 1.0, "with the health lane full of silent connections too: an answer within 1 s",
       f"status {status} in {took * 1000:.1f} ms")
for h in held + extra:
    h.close()
time.sleep(0.5)
status, _, took = get(b"/connectors/my-src/status")
report(status == 200, "after they close, a status query is 200 again", f"{took * 1000:.1f} ms")

sys.exit(1 if failures else 0)
