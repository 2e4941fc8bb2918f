"""A raw client of GET /status-store/v1/events for tests/app/event_stream_test.sh: it reads the head and
the events as they come, or reads nothing at all (a slow reader), over plain TCP or TLS, with or
without Basic credentials, and prints what it saw as JSON lines.

  event_stream_client.py read URL SECONDS [--user U:P] [--cafile CA] [--expect N]
      prints {"status":..,"head":..} then one line per event's data, until SECONDS pass or N events came
  event_stream_client.py stall URL SECONDS
      opens a stream with a tiny receive buffer, reads nothing for SECONDS, then reads what is left and
      prints {"status":..,"bytes":..,"closed":true|false}
"""
import base64
import json
import socket
import ssl
import sys
import time
import urllib.parse


def connect(url, cafile=None, rcvbuf=None):
    u = urllib.parse.urlsplit(url)
    s = socket.socket()
    if rcvbuf:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.connect((u.hostname, u.port))
    if u.scheme == "https":
        ctx = ssl.create_default_context(cafile=cafile)
        s = ctx.wrap_socket(s, server_hostname=u.hostname)
    return s, u


def request(s, u, user=None):
    auth = f"Authorization: Basic {base64.b64encode(user.encode()).decode()}\r\n" if user else ""
    s.sendall(f"GET /status-store/v1/events HTTP/1.1\r\nHost: {u.netloc}\r\nAccept: text/event-stream\r\n"
              f"{auth}\r\n".encode())


def read_head(s):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(4096)
        if not chunk:
            break
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/1.1 ") else 0
    return status, head.decode("latin-1"), rest


def read(url, seconds, user=None, cafile=None, expect=None):
    s, u = connect(url, cafile)
    request(s, u, user)
    status, head, buf = read_head(s)
    print(json.dumps({"status": status, "head": head, "at": time.time()}), flush=True)
    if status != 200:
        print(json.dumps({"body": buf.decode("utf-8", "replace")}), flush=True)
        return
    deadline = time.time() + seconds
    seen = 0
    s.settimeout(0.1)
    while time.time() < deadline and (expect is None or seen < expect):
        *complete, buf = buf.split(b"\n\n")
        for event in complete:
            lines = event.decode("utf-8").split("\n")
            data = [line[6:] for line in lines if line.startswith("data: ")]
            kind = [line[7:] for line in lines if line.startswith("event: ")]
            if data:
                seen += 1
                print(json.dumps({"event": kind[0] if kind else "message", "data": data[0], "at": time.time()}),
                      flush=True)
            elif lines and lines[0].startswith(("retry:", ":")):
                print(json.dumps({"preamble": lines}), flush=True)
        try:
            chunk = s.recv(65536)
        except (socket.timeout, TimeoutError):
            continue
        if not chunk:
            print(json.dumps({"closed": True}), flush=True)
            return
        buf += chunk


def stall(url, seconds):
    s, u = connect(url, rcvbuf=4096)
    request(s, u)
    status, _, buf = read_head(s)
    time.sleep(seconds)  # reads nothing: the service's writes back up
    total, closed = len(buf), False
    s.settimeout(5)
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                closed = True
                break
            total += len(chunk)
    except (socket.timeout, TimeoutError, ConnectionResetError):
        closed = not isinstance(sys.exc_info()[1], (socket.timeout, TimeoutError))
    print(json.dumps({"status": status, "bytes": total, "closed": closed}), flush=True)


if __name__ == "__main__":
    mode, url, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
    opts = dict(zip(sys.argv[4::2], sys.argv[5::2]))
    if mode == "read":
        read(url, seconds, opts.get("--user"), opts.get("--cafile"),
             int(opts["--expect"]) if "--expect" in opts else None)
    else:
        stall(url, seconds)
