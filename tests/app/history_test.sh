#!/usr/bin/env bash
# History and flapping end to end (#22, docs/operations.md): a service on its embedded mock cluster,
# a task driven FAILED, RUNNING, FAILED, RUNNING, FAILED by other processes (3 entries into FAILED
# within the default 10-minute window: flapping), then `history`, `list --flapping`, the
# /status-store/v1/ endpoints, the per-connector series on /metrics, `watch`'s flapping marks, and a
# connector tombstone taking its history and its series away.
# Usage: history_test.sh PATH/TO/status-store SOURCE_DIR
set -uo pipefail
bin=$1
src=$2
source "$src/tests/app/check_lib.sh"

if ! start_service service --bootstrap-servers mock --topic hist-status --set status.storage.replication.factor=1 \
  --listen 127.0.0.1:0; then
  fail "service starts" "$(cat "$tmp/service.out" "$tmp/service.err")"
  summary
  exit 1
fi
ok "service starts and prints its endpoint"
url="http://127.0.0.1:$port"
c=(--bootstrap-servers "$bs" --topic hist-status --timeout 20)

# Two watchers before the puts: one with the defaults (JSON), one with a 2-in-10-s rule (text), whose
# key stops flapping 10 s after its last FAILED, on time alone.
"$bin" watch --connector hist-src --json "${c[@]}" >"$tmp/watch.out" 2>"$tmp/watch.err" &
watch_pid=$!
"$bin" watch --connector hist-src "${c[@]}" --set status.flap.threshold=2 --set status.flap.window.ms=10000 \
  >"$tmp/watch-short.out" 2>"$tmp/watch-short.err" &
watch_short_pid=$!
for _ in $(seq 1 100); do
  grep -q "; watching" "$tmp/watch.err" 2>/dev/null && grep -q "; watching" "$tmp/watch-short.err" 2>/dev/null && break
  sleep 0.1
done

check "put connector hist-src" 0 "acknowledged" -- "$bin" put connector hist-src --state RUNNING --worker-id w1:8083 --generation 1 "${c[@]}"
check "put connector calm-src" 0 "acknowledged" -- "$bin" put connector calm-src --state RUNNING --worker-id w1:8083 --generation 1 "${c[@]}"
for state in FAILED RUNNING FAILED RUNNING FAILED; do
  trace=()
  [ "$state" = FAILED ] && trace=(--trace $'java.lang.RuntimeException: boom\n\tat X.y(X.java:1)')
  check "put task hist-src 0 $state" 0 "acknowledged" -- "$bin" put task hist-src 0 --state "$state" "${trace[@]}" \
    --worker-id w1:8083 --generation 1 "${c[@]}"
done
done_at_ms=$(($(date +%s%N) / 1000000))

# ---- the CLI ----------------------------------------------------------------------------------------
iso='[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z'
check "history task: a header saying how far back it reaches" 0 \
  "^history of task hist-src-0: 5 transition\(s\), oldest first; the store's history reaches back to $iso" -- \
  "$bin" history task hist-src 0 "${c[@]}"
check "history task: a line per transition with the trace's first line" 0 \
  "^$iso  FAILED +w1:8083 +generation 1  java.lang.RuntimeException: boom$" -- "$bin" history task hist-src 0 "${c[@]}"
out=$("$bin" history task hist-src 0 --json "${c[@]}" 2>&1)
if python3 - "$out" <<'PY'
import datetime, json, sys
doc = json.loads(sys.argv[1])
assert list(doc) == ["connector", "task", "reaches_back_to", "reaches_back_to_ms", "transitions"], list(doc)
assert doc["connector"] == "hist-src" and doc["task"] == 0, doc
ts = doc["transitions"]
assert [t["state"] for t in ts] == ["FAILED", "RUNNING", "FAILED", "RUNNING", "FAILED"], ts
assert [t["timestamp_ms"] for t in ts] == sorted(t["timestamp_ms"] for t in ts), "oldest first"
assert doc["reaches_back_to_ms"] <= ts[0]["timestamp_ms"], doc
for t in ts:
    iso = datetime.datetime.fromtimestamp(t["timestamp_ms"] / 1000, datetime.timezone.utc)
    assert t["timestamp"] == iso.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (t["timestamp_ms"] % 1000), t
    assert t["worker_id"] == "w1:8083" and t["generation"] == 1 and t["written_by_this_store"] is False, t
    assert t["trace"] == ("java.lang.RuntimeException: boom" if t["state"] == "FAILED" else None), t
PY
then ok "history --json: five transitions oldest first, ISO-8601 UTC timestamps, the trace's first line"; else fail "history --json" "$out"; fi
check "history connector" 0 "^history of connector hist-src: 1 transition" -- "$bin" history connector hist-src "${c[@]}"
check "history of an unknown connector exits 1" 1 "error: no status found for connector 'nope'" -- "$bin" history connector nope "${c[@]}"
check "history of an unknown task exits 1" 1 "error: no status found for task 'hist-src-9'" -- "$bin" history task hist-src 9 "${c[@]}"
check "history with a bad task id is a usage error" 2 "task number" -- "$bin" history task hist-src zero "${c[@]}"
check "history of a topic is a usage error" 2 "TARGET" -- "$bin" history topic hist-src orders "${c[@]}"
check "list --flapping names the task and since when" 0 "^task hist-src-0 flapping since $iso$" -- "$bin" list --flapping "${c[@]}"
check "list --flapping counts" 0 "^1 flapping connector\(s\) and task\(s\)$" -- "$bin" list --flapping "${c[@]}"
check "list --flapping --json" 0 "^\{\"key\":\"status-task-hist-src-0\",\"type\":\"task\",\"connector\":\"hist-src\",\"task\":0,\"since\":\"$iso\",\"since_ms\":[0-9]+\}$" -- \
  "$bin" list --flapping --json "${c[@]}"
check "list --flapping with --state is a usage error" 2 "--flapping" -- "$bin" list --flapping --state FAILED "${c[@]}"

# ---- REST, under /status-store/v1/ -------------------------------------------------------------------
# The service's view reads the puts back on its own: wait until it shows the last one.
for _ in $(seq 1 50); do
  grep -q '"status-task-hist-src-0"' <<<"$(curl -s "$url/status-store/v1/flapping")" && break
  sleep 0.1
done
body=$(curl -s -w ' %{http_code}' "$url/status-store/v1/connectors/hist-src/tasks/0/history")
if python3 - "$body" "$out" <<'PY'
import json, sys
body, code = sys.argv[1].rsplit(" ", 1)
rest, cli = json.loads(body), json.loads(sys.argv[2])
assert code == "200", code
assert rest["connector"] == "hist-src" and rest["task"] == 0, rest
assert rest["transitions"] == cli["transitions"], (rest["transitions"], cli["transitions"])
PY
then ok "GET …/tasks/0/history: 200, the transitions the CLI showed"; else fail "GET …/tasks/0/history" "$body"; fi
check "GET …/connectors/{name}/history" 0 '^\{"connector":"hist-src","reaches_back_to":"[^"]+","reaches_back_to_ms":[0-9]+,"transitions":\[\{[^]]*"state":"RUNNING"[^]]*\}\]\} 200$' -- \
  curl -s -w ' %{http_code}' "$url/status-store/v1/connectors/hist-src/history"
check "an unknown connector's history is Connect's 404 body" 0 '^\{"error_code":404,"message":"No status found for connector nope"\} 404$' -- \
  curl -s -w ' %{http_code}' "$url/status-store/v1/connectors/nope/history"
check "an unknown task's history is a 404 in Connect's words" 0 '^\{"error_code":404,"message":"No status found for task hist-src-9"\} 404$' -- \
  curl -s -w ' %{http_code}' "$url/status-store/v1/connectors/hist-src/tasks/9/history"
check "a non-integer task id is Jersey's 404" 0 '^\{"error_code":404,"message":"HTTP 404 Not Found"\} 404$' -- \
  curl -s -w ' %{http_code}' "$url/status-store/v1/connectors/hist-src/tasks/x/history"
check "GET /status-store/v1/flapping" 0 "^\{\"threshold\":3,\"window_ms\":600000,\"flapping\":\[\{\"key\":\"status-task-hist-src-0\",\"type\":\"task\",\"connector\":\"hist-src\",\"task\":0,\"since\":\"$iso\",\"since_ms\":[0-9]+\}\]\} 200$" -- \
  curl -s -w ' %{http_code}' "$url/status-store/v1/flapping"
check "POST /status-store/v1/flapping is Connect's 405 body" 0 '^\{"error_code":405,"message":"HTTP 405 Method Not Allowed"\} 405$' -- \
  curl -s -X POST -w ' %{http_code}' "$url/status-store/v1/flapping"
check "Connect's paths are unchanged: GET /connectors" 0 '^\["calm-src","hist-src"\]$' -- curl -sf "$url/connectors"

# ---- /metrics ----------------------------------------------------------------------------------------
metrics=$(curl -sf "$url/metrics")
if grep -qxF 'status_connector_failed_transitions_total{connector="hist-src"} 3' <<<"$metrics" &&
   grep -qxF 'status_connector_failed_transitions_total{connector="calm-src"} 0' <<<"$metrics" &&
   grep -qxF 'status_flapping_keys{connector="hist-src"} 1' <<<"$metrics" &&
   grep -qxF 'status_flapping_keys{connector="calm-src"} 0' <<<"$metrics" &&
   grep -qxF '# TYPE status_connector_failed_transitions_total counter' <<<"$metrics" &&
   grep -qxF '# TYPE status_flapping_keys gauge' <<<"$metrics" &&
   python3 "$src/tests/app/prometheus_check.py" <<<"$metrics" >/dev/null; then
  ok "/metrics: 3 entries into FAILED and 1 flapping key for hist-src, 0 and 0 for calm-src; parses as Prometheus text"
else
  fail "/metrics per-connector history series" "$(grep -E 'failed_transitions|flapping' <<<"$metrics")"
fi

# ---- watch -------------------------------------------------------------------------------------------
for _ in $(seq 1 50); do [ "$(grep -c '"state":"FAILED"' "$tmp/watch.out" 2>/dev/null)" -ge 3 ] && break; sleep 0.1; done
if python3 - "$tmp/watch.out" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
task = [l for l in lines if l["key"] == "status-task-hist-src-0"]
assert [l["state"] for l in task] == ["FAILED", "RUNNING", "FAILED", "RUNNING", "FAILED"], task
assert [l.get("flapping") for l in task] == [None, None, None, None, "started"], task
PY
then ok "watch --json marks the record that makes the task start flapping, only that one"; else fail "watch --json flapping mark" "$(cat "$tmp/watch.out" "$tmp/watch.err")"; fi
if grep -qE '^task hist-src-0 FAILED worker w1:8083 generation 1 trace: java.lang.RuntimeException: boom  \[starts flapping\]$' "$tmp/watch-short.out" &&
   [ "$(grep -c 'starts flapping' "$tmp/watch-short.out")" -eq 1 ]; then
  ok "watch marks the second FAILED with a 2-in-10-s rule: [starts flapping], once"
else
  fail "watch text flapping mark" "$(cat "$tmp/watch-short.out" "$tmp/watch-short.err")"
fi
# 10 s after the last FAILED: a line of its own (the machine's clock is the producer's here).
wait_until=$((done_at_ms + 25000))
while [ "$(($(date +%s%N) / 1000000))" -lt "$wait_until" ]; do
  grep -q "stops flapping" "$tmp/watch-short.out" && break
  sleep 0.2
done
if grep -qxF "task hist-src-0 stops flapping: stable for 10000 ms" "$tmp/watch-short.out"; then
  ok "watch says when the task stops flapping, stable for the window"
else
  fail "watch: stops flapping on time" "$(cat "$tmp/watch-short.out")"
fi
kill -TERM "$watch_pid" "$watch_short_pid"
wait "$watch_pid"; rc1=$?
wait "$watch_short_pid"; rc2=$?
if [ "$rc1" -eq 0 ] && [ "$rc2" -eq 0 ]; then ok "both watchers stop on SIGTERM with exit 0"; else fail "watchers' exit codes $rc1 $rc2"; fi

# ---- a connector tombstone takes the history and the series away -----------------------------------
check "delete connector hist-src" 0 "acknowledged" -- "$bin" delete connector hist-src "${c[@]}"
for _ in $(seq 1 50); do
  # Not `curl | grep -q`: under pipefail, curl's SIGPIPE when grep stops early would end the wait.
  grep -q 'connector="hist-src"' <<<"$(curl -s "$url/metrics")" || break
  sleep 0.1
done
metrics=$(curl -sf "$url/metrics")
if ! grep -q 'connector="hist-src"' <<<"$metrics" && grep -qxF 'status_flapping_keys{connector="calm-src"} 0' <<<"$metrics"; then
  ok "after the tombstone no series names hist-src; calm-src's stay"
else
  fail "series after the tombstone" "$(grep 'hist-src' <<<"$metrics")"
fi
check "after the tombstone its history is a 404" 0 '^404$' -- curl -s -o /dev/null -w '%{http_code}' "$url/status-store/v1/connectors/hist-src/tasks/0/history"
check "after the tombstone nothing flaps" 0 '^\{"threshold":3,"window_ms":600000,"flapping":\[\]\}$' -- curl -sf "$url/status-store/v1/flapping"
check "after the tombstone list --flapping lists none" 0 "^0 flapping connector\(s\) and task\(s\)$" -- "$bin" list --flapping "${c[@]}"

kill -TERM "$service_pid"
wait "$service_pid"; rc=$?
service_pid=""
if [ "$rc" -eq 0 ]; then ok "SIGTERM stops the service, exit 0"; else fail "service exit $rc" "$(cat "$tmp/service.out")"; fi

summary
