#!/usr/bin/env bash
# History, flapping and the webhook on a real broker (#22, docs/operations.md): `status-store run` on
# the one-node cluster with a 2-in-10-minutes flap rule and a webhook to a local receiver that answers
# 503 to its first request; another writer (`status-store put`, its own process) drives a task RUNNING
# -> FAILED -> RUNNING -> FAILED. Then: `history` shows the four transitions with timestamps inside
# their puts' windows, `list --flapping` names the task, /metrics has its series with the right
# labels, and the receiver got one alert per transition (the first one again after the KIP's backoff).
# Usage (inside `scripts/kafka-local.sh run 1 -- ...`): history_test.sh PATH/TO/status-store SOURCE_DIR
set -uo pipefail
bin=$1
src=$2
source "$src/tests/app/check_lib.sh"

if [ -z "${STATUS_STORE_BOOTSTRAP:-}" ]; then
  echo "FAIL STATUS_STORE_BOOTSTRAP is not set: run as scripts/kafka-local.sh run 1 -- ctest --test-dir build -L '^system\$'"
  exit 1
fi
topic="system-history-$$-$(date +%s)"
now_ms() { echo $(($(date +%s%N) / 1000000)); }

# ---- the webhook receiver: 503 to the first request, 200 after; every request logged as a JSON line --
python3 - "$tmp/alerts.jsonl" "$tmp/receiver.port" <<'PY' &
import http.server, json, sys, time
log, port_file = sys.argv[1], sys.argv[2]
seen = 0
class Receiver(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        global seen
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        code = 503 if seen == 0 else 200
        seen += 1
        with open(log, "a") as f:
            f.write(json.dumps({"at_ms": int(time.time() * 1000), "code": code, "body": body.decode()}) + "\n")
        self.send_response(code)
        self.send_header("Content-Length", "0")
        self.end_headers()
    def log_message(self, *args):
        pass
server = http.server.HTTPServer(("127.0.0.1", 0), Receiver)
open(port_file, "w").write(str(server.server_address[1]))
server.serve_forever()
PY
receiver_pid=$!
trap 'kill "$receiver_pid" 2>/dev/null; cleanup' EXIT
for _ in $(seq 1 50); do [ -s "$tmp/receiver.port" ] && break; sleep 0.1; done
receiver="http://127.0.0.1:$(cat "$tmp/receiver.port")/alerts"

c=(--bootstrap-servers "$STATUS_STORE_BOOTSTRAP" --topic "$topic" --set status.storage.replication.factor=1
   --set status.storage.partitions=1)
"$bin" run "${c[@]}" --set status.flap.threshold=2 --set status.alert.webhook.url="$receiver" \
  --set status.storage.retry.initial.backoff.ms=500 --listen 127.0.0.1:0 >"$tmp/service.out" 2>"$tmp/service.err" &
service_pid=$!
for _ in $(seq 1 300); do grep -q "HTTP on" "$tmp/service.out" 2>/dev/null && break; sleep 0.1; done
url=$(grep -oE "http://127.0.0.1:[0-9]+" "$tmp/service.out" | head -1)
if [ -z "$url" ]; then
  fail "service starts on the real broker" "$(cat "$tmp/service.out" "$tmp/service.err")"
  summary
  exit 1
fi
ok "service starts on the real broker"

# ---- another writer drives the task; each put's window bounds its record's timestamp ------------------
# (the connector has a status too: the per-task series are those of connectors with one)
check "another writer puts connector sink RUNNING" 0 "acknowledged" -- "$bin" put connector sink --state RUNNING \
  --worker-id other:8083 --generation 1 "${c[@]}" --timeout 30
states=(RUNNING FAILED RUNNING FAILED)
windows=()
for i in 0 1 2 3; do
  trace=()
  [ "${states[$i]}" = FAILED ] && trace=(--trace "boom $i")
  before=$(now_ms)
  check "another writer puts task sink 0 ${states[$i]}" 0 "acknowledged" -- "$bin" put task sink 0 \
    --state "${states[$i]}" "${trace[@]}" --worker-id other:8083 --generation $((i + 1)) "${c[@]}" --timeout 30
  windows+=("$before:$(now_ms)")
done

history_json() { "$bin" history task sink 0 --json "${c[@]}" --timeout 30 2>&1; }
for _ in $(seq 1 100); do
  out=$(history_json)
  python3 -c 'import json,sys; sys.exit(0 if len(json.loads(sys.argv[1])["transitions"]) >= 4 else 1)' "$out" \
    2>/dev/null && break
  sleep 0.2
done
if python3 - "$out" "${windows[@]}" <<'PY'
import json, sys
doc = json.loads(sys.argv[1])
windows = [tuple(map(int, w.split(":"))) for w in sys.argv[2:]]
ts = doc["transitions"]
assert [t["state"] for t in ts] == ["RUNNING", "FAILED", "RUNNING", "FAILED"], ts
for t, (lo, hi), generation in zip(ts, windows, range(1, 5)):
    assert lo <= t["timestamp_ms"] <= hi, (t, lo, hi)  # the broker's record time, inside its put
    assert t["generation"] == generation and t["worker_id"] == "other:8083", t
    assert t["written_by_this_store"] is False, t
PY
then ok "history: the four transitions, oldest first, each timestamp inside its put's window"
else fail "history --json on the real broker" "$out"; fi
check "list --flapping (same rule) names the task" 0 "^task sink-0 flapping since " -- "$bin" list --flapping "${c[@]}" \
  --set status.flap.threshold=2 --timeout 30

# ---- the service: its /metrics series and its REST history ---------------------------------------------
for _ in $(seq 1 100); do
  metrics=$(curl -sS "$url/metrics")
  grep -q '^status_flapping_keys{connector="sink"} 1$' <<<"$metrics" && break
  sleep 0.2
done
for series in 'status_task_status{connector="sink",task="0",state="failed"} 1' \
  'status_connector_failed_transitions_total{connector="sink"} 2' 'status_flapping_keys{connector="sink"} 1'; do
  if grep -qF -- "$series" <<<"$metrics"; then ok "/metrics: $series"; else fail "/metrics: $series" "$metrics"; fi
done
check "GET /status-store/v1/connectors/sink/tasks/0/history" 0 '"state":"FAILED"' -- \
  curl -sS --fail "$url/status-store/v1/connectors/sink/tasks/0/history"

# ---- the receiver: one alert per entry into and exit from FAILED, and one for the start of flapping ---
for _ in $(seq 1 150); do
  [ "$(grep -c '"code": 200' "$tmp/alerts.jsonl" 2>/dev/null)" -ge 4 ] && break
  sleep 0.2
done
if python3 - "$tmp/alerts.jsonl" <<'PY'
import json, sys
requests = [json.loads(l) for l in open(sys.argv[1])]
assert requests and requests[0]["code"] == 503, requests
# The first alert is sent again, unchanged, after the retry backoff (500 ms initial, jitter 0.2 by default).
assert requests[1]["body"] == requests[0]["body"], requests[:2]
assert requests[1]["at_ms"] - requests[0]["at_ms"] >= 350, requests[:2]
delivered = [json.loads(r["body"]) for r in requests if r["code"] == 200]
events = [(a["event"], a.get("task")) for a in delivered]
assert events == [("failed", 0), ("recovered", 0), ("failed", 0), ("flapping_started", 0)], events
assert all(a["connector"] == "sink" for a in delivered), delivered
PY
then ok "webhook: one alert per transition, the first again after its backoff when the receiver answered 503"
else fail "webhook alerts" "$(cat "$tmp/alerts.jsonl" 2>&1; tail -20 "$tmp/service.err")"; fi

kill -TERM "$service_pid"
wait "$service_pid"
rc=$?
service_pid=""
if [ "$rc" = 0 ]; then ok "service stops on SIGTERM, exit 0"; else fail "service exit $rc" "$(tail -20 "$tmp/service.err")"; fi
summary
