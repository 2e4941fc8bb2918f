#!/usr/bin/env bash
# The status page's endpoints and the event stream end to end (docs/http-service.md#the-status-page): a
# service on its embedded mock cluster with at most 3 event streams, statuses put by other processes.
# The page and GET / by Accept; the stream's events equal `watch --json`'s lines and arrive within a
# second; a quiet stream outlives the idle timeout; a fourth stream gets a 503; a reader that reads
# nothing is dropped and counted while one that reads gets every event (the counts also on /metrics);
# the overview and metrics documents; and over HTTPS with Basic auth, the page and the stream ask for
# credentials as the REST endpoints do.
# Usage: event_stream_test.sh PATH/TO/status-store SOURCE_DIR
set -uo pipefail
bin=$1
src=$2
source "$src/tests/app/check_lib.sh"
client=(python3 "$src/tests/app/event_stream_client.py")
browser_accept='text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'

if ! start_service service --bootstrap-servers mock --topic events-status --set status.storage.replication.factor=1 \
  --listen 127.0.0.1:0 --max-event-streams 3; then
  fail "service starts" "$(cat "$tmp/service.out" "$tmp/service.err")"
  summary
  exit 1
fi
url="http://127.0.0.1:$port"
c=(--bootstrap-servers "$bs" --topic events-status --timeout 20)
pids=()

# stream_metrics OPEN OPENED REFUSED DROPPED: the event streams' families on /metrics, each a HELP line, its
# TYPE line and its one sample with that value (opened so far: stream1, quiet, the 3 held, then stall and
# good); prints the samples, else why not.
stream_metrics() {
  curl -s "$url/metrics" | python3 -c '
import sys
want = [("status_event_streams_open", "gauge", sys.argv[1]), ("status_event_streams_max", "gauge", "3"),
        ("status_event_streams_opened_total", "counter", sys.argv[2]),
        ("status_event_streams_refused_total", "counter", sys.argv[3]),
        ("status_event_streams_dropped_total", "counter", sys.argv[4])]
lines = sys.stdin.read().splitlines()
for name, kind, value in want:
    at = [i for i, line in enumerate(lines) if line.startswith(f"# HELP {name} ")]
    assert len(at) == 1, f"{name}: {len(at)} HELP lines"
    i = at[0]
    assert lines[i + 1] == f"# TYPE {name} {kind}", lines[i + 1]
    assert lines[i + 2] == f"{name} {value}", lines[i + 2]
    print(lines[i + 2])
' "$@"
}

# ---- the page ---------------------------------------------------------------------------------------
check "GET /ui is the page" 0 '^200 text/html; charset=utf-8$' -- curl -s -o /dev/null -w '%{http_code} %{content_type}' "$url/ui"
check "the page forbids inline script and other origins" 0 "Content-Security-Policy: default-src 'none'; script-src 'self'" -- curl -s -D - -o /dev/null "$url/ui"
check "GET / for a browser is the page" 0 '<title>status-store</title>' -- curl -s -H "Accept: $browser_accept" "$url/"
check "GET / for curl stays Connect's ServerInfo" 0 '^\{"version":"[^"]+","commit":' -- curl -s "$url/"
check "GET / for a JSON client stays Connect's ServerInfo" 0 '^\{"version":' -- curl -s -H 'Accept: application/json' "$url/"
check "GET / says it varies by Accept" 0 '^Vary: Accept' -- curl -s -D - -o /dev/null "$url/"
check "GET /ui/app.js is the script" 0 '^200 text/javascript' -- curl -s -o /dev/null -w '%{http_code} %{content_type}' "$url/ui/app.js"
check "an unknown file under /ui is a 404" 0 '^404$' -- curl -s -o /dev/null -w '%{http_code}' "$url/ui/nope.js"

# ---- events: watch's lines, within a second --------------------------------------------------------
"$bin" watch --connector ev-src --json "${c[@]}" >"$tmp/watch.out" 2>"$tmp/watch.err" &
pids+=($!)
"${client[@]}" read "$url" 30 --expect 3 >"$tmp/stream1.out" &
pids+=($!)
for _ in $(seq 1 100); do grep -q "; watching" "$tmp/watch.err" 2>/dev/null && grep -q '"status": 200' "$tmp/stream1.out" 2>/dev/null && break; sleep 0.1; done
check "the stream's head" 0 'text/event-stream' -- cat "$tmp/stream1.out"
check "the stream asks to be reopened after a second" 0 '"retry: 1000"' -- cat "$tmp/stream1.out"
"$bin" put task ev-src 0 --state RUNNING --worker-id w1:8083 --generation 1 "${c[@]}" >/dev/null
"$bin" put task ev-src 0 --state FAILED --trace $'boom\n\tat "x" </script>' --worker-id w1:8083 --generation 1 "${c[@]}" >/dev/null
"$bin" put connector ev-src --state RUNNING --worker-id w1:8083 --generation 1 "${c[@]}" >/dev/null
acked=$(date +%s.%N)
for _ in $(seq 1 50); do [ "$(grep -c '"event": "status"' "$tmp/stream1.out")" -ge 3 ] && [ "$(wc -l <"$tmp/watch.out")" -ge 3 ] && break; sleep 0.1; done
if python3 - "$tmp/stream1.out" "$tmp/watch.out" "$acked" <<'PY'
import json, sys
stream = [json.loads(l) for l in open(sys.argv[1])]
events = [s for s in stream if s.get("event") == "status"]
watch = open(sys.argv[2]).read().splitlines()
assert [e["data"] for e in events] == watch, (events, watch)
assert [json.loads(e["data"])["state"] for e in events] == ["RUNNING", "FAILED", "RUNNING"]
assert json.loads(events[1]["data"])["trace"] == 'boom\n\tat "x" </script>'
late = events[-1]["at"] - float(sys.argv[3])
print(f"last event {late * 1000:.0f} ms after its put was acknowledged")
assert late < 1.0, late
PY
then ok "the stream's events are watch --json's lines, the last within 1 s of its put"; else fail "stream = watch" "$(cat "$tmp/stream1.out" "$tmp/watch.out")"; fi

# ---- a quiet stream outlives the idle timeout (2 s) ----------------------------------------------------
"${client[@]}" read "$url" 15 --expect 1 >"$tmp/quiet.out" &
quiet=$!
sleep 3.5
"$bin" put task ev-src 1 --state PAUSED --worker-id w1:8083 --generation 1 "${c[@]}" >/dev/null
wait "$quiet"
check "a stream quiet for longer than the idle timeout still gets the next event" 0 '"state\\":\\"PAUSED' -- cat "$tmp/quiet.out"

# ---- the bound: 3 streams; a fourth gets a 503 --------------------------------------------------------
for i in 1 2 3; do "${client[@]}" read "$url" 20 >"$tmp/held$i.out" & pids+=($!); done
for _ in $(seq 1 50); do [ "$(cat "$tmp"/held*.out 2>/dev/null | grep -c '"status": 200')" -ge 3 ] && break; sleep 0.1; done
check "a fourth stream gets a 503 and why" 0 'too many event streams open \(3\)' -- "${client[@]}" read "$url" 5
check "the metrics count the open streams and the refused one" 0 '"open":3,"max":3,"opened_total":[0-9]+,"refused_total":1,' -- curl -s "$url/status-store/v1/metrics"
check "/metrics too, each family with its HELP and TYPE lines" 0 '^status_event_streams_refused_total 1$' -- stream_metrics 3 5 1 0
for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
wait "${pids[@]}" 2>/dev/null
pids=()
for _ in $(seq 1 50); do grep -q '"open":0' <<<"$(curl -s "$url/status-store/v1/metrics")" && break; sleep 0.1; done
check "closed streams give their slots back" 0 '"open":0,' -- curl -s "$url/status-store/v1/metrics"

# ---- a reader that reads nothing is dropped and counted; one that reads gets everything -----------------
"${client[@]}" stall "$url" 15 >"$tmp/stall.out" &
stall=$!
"${client[@]}" read "$url" 40 >"$tmp/good.out" &
good=$!
sleep 0.5
check "demo writes a burst to the service's cluster" 0 'verdict: every key' -- \
  "$bin" demo --connectors 200 --tasks 8 --duration 4 --rate 3000 --outage 0 --no-progress --bootstrap-servers "$bs" \
  --topic events-status
demo_read=$(curl -s "$url/status-store/v1/metrics" | python3 -c 'import json,sys; print(json.load(sys.stdin)["metrics"]["status-record-read-total"])')
wait "$stall"
check "the reader that read nothing was closed" 0 '"closed": true' -- cat "$tmp/stall.out"
check "and counted as dropped, the service's log saying why" 0 'dropped_total":1\}' -- curl -s "$url/status-store/v1/metrics"
check "/metrics counts it dropped too, the reader that reads still open" 0 '^status_event_streams_dropped_total 1$' -- \
  stream_metrics 1 7 1 1
check "the log names the stream closed for falling behind" 0 'event stream of 127.0.0.1 closed' -- cat "$tmp/service.err"
kill "$good" 2>/dev/null
wait "$good" 2>/dev/null
got=$(grep -c '"event": "status"' "$tmp/good.out")
# Records read before the good stream joined are not in it: at most the first puts of this script.
if [ "$demo_read" -ge 5000 ] && [ "$got" -ge $((demo_read - 20)) ] && ! grep -q '"closed": true' "$tmp/good.out"; then
  ok "the reader that reads got every event of the burst ($got for $demo_read records read)"
else
  fail "the good reader: $got events for $demo_read records" "$(tail -3 "$tmp/good.out")"
fi
check "the service is still healthy" 0 '"status":"healthy"' -- curl -s "$url/health"

# ---- the overview and the metrics document ---------------------------------------------------------------
if curl -s "$url/status-store/v1/overview" | python3 -c '
import json, sys
o = json.load(sys.stdin)
c = {x["name"]: x for x in o["connectors"]}["ev-src"]
assert c["state"] == "RUNNING" and isinstance(c["last_change_ms"], int), c
t = {x["id"]: x for x in c["tasks"]}
assert t[0]["state"] == "FAILED" and t[0]["trace"] == "boom" and t[1]["state"] == "PAUSED", t
assert o["flap"] == {"threshold": 3, "window_ms": 600000}, o["flap"]
'; then ok "the overview: each connector with its tasks, last changes and trace first lines"; else fail "overview"; fi
check "the metrics document has the KIP's totals" 0 '"status-update-success-total":[0-9]+' -- curl -s "$url/status-store/v1/metrics"

# ---- HTTPS and Basic auth: the page and the stream as the REST endpoints ----------------------------------
fx="$tmp/fixtures"
bash "$src/tests/app/make_tls_fixtures.sh" "$fx" >/dev/null
cat >"$tmp/jaas.conf" <<EOF
KafkaConnect {
  org.apache.kafka.connect.rest.basic.auth.extension.PropertyFileLoginModule required
  file="$tmp/passwords";
};
EOF
printf 'alice: alice-rest-secret\n' >"$tmp/passwords"
cat >"$tmp/secure.properties" <<EOF
bootstrap.servers=$bs
status.storage.topic=events-status
listeners=https://127.0.0.1:0
listeners.https.ssl.keystore.type=PEM
listeners.https.ssl.keystore.location=$fx/server.pem
listeners.https.ssl.key.password=server-key-secret
rest.extension.classes=org.apache.kafka.connect.rest.basic.auth.extension.BasicAuthSecurityRestExtension
status.rest.jaas.config.file=$tmp/jaas.conf
EOF
"$bin" run --config "$tmp/secure.properties" >"$tmp/secure.out" 2>"$tmp/secure.err" &
secure_pid=$!
for _ in $(seq 1 100); do grep -q "HTTP on" "$tmp/secure.out" 2>/dev/null && break; sleep 0.1; done
surl=$(grep -oE "https://127.0.0.1:[0-9]+" "$tmp/secure.out")
check "https: the page without credentials is a 401" 0 '^401$' -- curl -s --cacert "$fx/ca.pem" -o /dev/null -w '%{http_code}' "$surl/ui"
check "https: the page with credentials" 0 '^200$' -- curl -s --cacert "$fx/ca.pem" -u alice:alice-rest-secret -o /dev/null -w '%{http_code}' "$surl/ui"
check "https: the stream without credentials is a 401" 0 '"status": 401' -- "${client[@]}" read "$surl" 5 --cafile "$fx/ca.pem"
"${client[@]}" read "$surl" 20 --cafile "$fx/ca.pem" --user alice:alice-rest-secret --expect 1 >"$tmp/secure-stream.out" &
sstream=$!
for _ in $(seq 1 100); do grep -q '"status": 200' "$tmp/secure-stream.out" 2>/dev/null && break; sleep 0.1; done
"$bin" put task ev-src 2 --state RESTARTING --worker-id w1:8083 --generation 1 "${c[@]}" >/dev/null
wait "$sstream"
check "https: with credentials the stream gets the next event over TLS" 0 'RESTARTING' -- cat "$tmp/secure-stream.out"
kill -TERM "$secure_pid"
wait "$secure_pid"

kill -TERM "$service_pid"
wait "$service_pid"
rc=$?
service_pid=""
check "SIGTERM with streams closed: exit 0" 0 '' -- test "$rc" -eq 0
kill "${pids[@]}" 2>/dev/null
summary
