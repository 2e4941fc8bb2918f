#!/usr/bin/env bash
# `status-store run` and the operator verbs end to end: a service on its embedded mock cluster, the
# verbs pointed at that cluster from other processes, the HTTP endpoints fetched with curl and
# /metrics parsed as Prometheus text, exit codes 0/1/2, and a graceful SIGTERM.
# Usage: service_test.sh PATH/TO/status-store SOURCE_DIR
set -uo pipefail
bin=$1
src=$2
source "$src/tests/app/check_lib.sh"

"$bin" run --bootstrap-servers mock --topic ops-status --set status.storage.replication.factor=1 \
  --listen 127.0.0.1:0 >"$tmp/service.out" 2>"$tmp/service.err" &
service_pid=$!
for _ in $(seq 1 100); do grep -q "HTTP on" "$tmp/service.out" 2>/dev/null && break; sleep 0.1; done
url=$(grep -oE "http://[0-9.]+:[0-9]+" "$tmp/service.out")
bs=$(grep -oE "on [0-9.:,]+;" "$tmp/service.out" | sed 's/^on //; s/;$//')
if [ -z "$url" ] || [ -z "$bs" ]; then
  fail "service starts" "$(cat "$tmp/service.out" "$tmp/service.err")"
  echo; echo "$passed passed, $failed failed"; exit 1
fi
ok "service starts and prints its endpoint"
c=(--bootstrap-servers "$bs" --topic ops-status --timeout 20)

check "put connector" 0 "acknowledged" -- "$bin" put connector my-src --state RUNNING --worker-id w1:8083 --generation 3 --plugin-version 2.1.0 "${c[@]}"
check "put task with a trace (putSafe)" 0 "acknowledged" -- "$bin" put task my-src 0 --state FAILED --trace $'boom\n\tat "x"' --worker-id w1:8083 --generation 3 --safe "${c[@]}"
check "put second task" 0 "acknowledged" -- "$bin" put task my-src 1 --state running --worker-id w1:8083 --generation 3 "${c[@]}"
check "put topic" 0 "acknowledged" -- "$bin" put topic my-src orders "${c[@]}"
check "stale putSafe exits 1 and says why" 1 "newer generation" -- "$bin" put connector my-src --state UNASSIGNED --worker-id w2:8083 --generation 1 --safe "${c[@]}"
check "get shows the connector table" 0 "connector my-src +RUNNING +w1:8083 +3 +version 2.1.0" -- "$bin" get connector my-src "${c[@]}"
check "get shows the task" 0 "task 1 +RUNNING" -- "$bin" get connector my-src "${c[@]}"
out=$("$bin" get connector my-src --json "${c[@]}" 2>&1)
if python3 - "$out" <<'PY'
import json, sys
lines = [json.loads(l) for l in sys.argv[1].splitlines()]
by_type = {}
for l in lines:
    by_type.setdefault(l["type"], []).append(l)
conn, tasks, topics = by_type["connector"][0], by_type["task"], by_type["topic"]
assert conn == {"key": "status-connector-my-src", "type": "connector", "connector": "my-src", "state": "RUNNING",
                "trace": None, "worker_id": "w1:8083", "generation": 3, "version": "2.1.0"}, conn
assert tasks[0]["key"] == "status-task-my-src-0" and tasks[0]["task"] == 0 and tasks[0]["trace"] == 'boom\n\tat "x"', tasks[0]
assert tasks[0]["version"] is None, tasks[0]
assert topics[0]["topic"] == "orders" and topics[0]["key"] == "status-topic-orders:connector-my-src", topics[0]
assert isinstance(topics[0]["discover_timestamp"], int)
PY
then ok "get --json fields"; else fail "get --json fields" "$out"; fi
check "list --json has one line per status" 0 '"key":"status-task-my-src-1"' -- "$bin" list --json "${c[@]}"
check "list counts connectors" 0 "1 connector\(s\)" -- "$bin" list "${c[@]}"
# my-src says RUNNING while task 0 is FAILED: --state FAILED lists it, and calls it degraded.
check "list --state failed lists a degraded connector" 0 "^1 connector\(s\) with a FAILED connector or task, 1 degraded \(RUNNING with a FAILED task\)$" -- "$bin" list --state failed "${c[@]}"
check "list --state FAILED shows its failed task" 0 "task 0 +FAILED" -- "$bin" list --state FAILED "${c[@]}"
check "list --state PAUSED: none, exit 0" 0 "^0 connector\(s\) with a PAUSED connector or task$" -- "$bin" list --state PAUSED "${c[@]}"
check "list --state FAILED --json" 0 '"key":"status-task-my-src-0".*"state":"FAILED"' -- "$bin" list --state FAILED --json "${c[@]}"
check "list --state with an unknown state is a usage error" 2 "--state.*must be one of UNASSIGNED" -- "$bin" list --state SLEEPING "${c[@]}"

# The service's view reads the verbs' puts back on its own (up to fetch.wait.max.ms later on the mock
# cluster): wait until it shows all four before checking what it serves.
for _ in $(seq 1 50); do
  st=$(curl -s "$url/connectors/my-src/status")
  grep -q '"connector":{"state":"RUNNING"' <<<"$st" && grep -q '"id":0,"state":"FAILED"' <<<"$st" &&
    grep -q '"id":1,"state":"RUNNING"' <<<"$st" &&
    [ "$(curl -s "$url/connectors/my-src/topics")" = '{"my-src":{"topics":["orders"]}}' ] && break
  sleep 0.1
done
check "GET /connectors" 0 '^\["my-src"\]$' -- curl -sf "$url/connectors"
check "GET /connectors/{name}/status" 0 '"name":"my-src","connector":\{"state":"RUNNING","worker_id":"w1:8083","version":"2.1.0"\}' -- curl -sf "$url/connectors/my-src/status"
check "status lists tasks with ids" 0 '"tasks":\[\{"id":0,"state":"FAILED"' -- curl -sf "$url/connectors/my-src/status"
check "GET /connectors/{name}/topics" 0 '^\{"my-src":\{"topics":\["orders"\]\}\}$' -- curl -sf "$url/connectors/my-src/topics"
check "unknown connector is a 404" 0 '^404$' -- curl -s -o /dev/null -w '%{http_code}' "$url/connectors/nope/status"
check "GET /connectors/{name}/tasks/{id}/status" 0 '^\{"id":1,"state":"RUNNING","worker_id":"w1:8083","version":null\}$' -- curl -sf "$url/connectors/my-src/tasks/1/status"
check "a task without a status is a 404 in Connect's words" 0 '"message":"No status found for task my-src-7"' -- curl -s "$url/connectors/my-src/tasks/7/status"
check "GET /connectors?expand=status maps each connector to its status" 0 '^\{"my-src":\{"status":\{"name":"my-src","connector":\{"state":"RUNNING"' -- curl -sf "$url/connectors?expand=status"
# expand=info (connector configurations) is ignored as Connect ignores an unknown type: the map form
# with nothing invented, and with expand=status as well, exactly the expand=status answer.
check "GET /connectors?expand=info is Connect's map with nothing expanded" 0 '^\{"my-src":\{\}\}$' -- curl -sf "$url/connectors?expand=info"
check "GET /connectors?expand=nonsense is the same map, as in Connect" 0 '^\{"my-src":\{\}\}$' -- curl -sf "$url/connectors?expand=nonsense"
with_info=$(curl -sf "$url/connectors?expand=info&expand=status")
if [ -n "$with_info" ] && [ "$with_info" = "$(curl -sf "$url/connectors?expand=status")" ] && ! grep -q '"info"' <<<"$with_info"; then
  ok "GET /connectors?expand=info&expand=status is the expand=status answer, no \"info\""
else
  fail "GET /connectors?expand=info&expand=status is the expand=status answer" "$with_info"
fi
# ?state= is ours: the degraded my-src is listed under FAILED (its task) and RUNNING (its own state),
# in each form; with a state that matches everything the body is the one without the parameter.
check "GET /connectors?expand=status&state=FAILED lists the degraded connector" 0 '^\{"my-src":\{"status":\{"name":"my-src","connector":\{"state":"RUNNING"' -- curl -sf "$url/connectors?expand=status&state=FAILED"
check "GET /connectors?state=failed gives the names" 0 '^\["my-src"\]$' -- curl -sf "$url/connectors?state=failed"
check "GET /connectors?expand=status&state=PAUSED matches nothing" 0 '^\{\}$' -- curl -sf "$url/connectors?expand=status&state=PAUSED"
check "GET /connectors?state=SLEEPING is Connect's 400 shape" 0 '^\{"error_code":400,"message":"Unknown state in the query parameter .state.: must be one of UNASSIGNED, RUNNING, PAUSED, FAILED, RESTARTING, STOPPED \(any case\)"\} 400$' -- curl -s -w ' %{http_code}' "$url/connectors?state=SLEEPING"
running=$(curl -sf "$url/connectors?expand=status&state=Running")
if [ -n "$running" ] && [ "$running" = "$(curl -sf "$url/connectors?expand=status")" ]; then
  ok "GET /connectors?expand=status&state=Running is byte-equal to expand=status when every connector matches"
else
  fail "GET /connectors?expand=status&state=Running is byte-equal to expand=status" "$running"
fi
check "an unknown path is Connect's 404 body" 0 '^\{"error_code":404,"message":"HTTP 404 Not Found"\} 404$' -- curl -s -w ' %{http_code}' "$url/connectors/my-src/nope"
check "another method is Connect's 405 body" 0 '^\{"error_code":405,"message":"HTTP 405 Method Not Allowed"\} 405$' -- curl -s -X DELETE -w ' %{http_code}' "$url/connectors/my-src/status"
check "PUT topics/reset is off by default: Connect's 403" 0 '^\{"error_code":403,"message":"Topic tracking reset is disabled\."\} 403$' -- curl -s -X PUT -w ' %{http_code}' "$url/connectors/my-src/topics/reset"
check "the refused reset deleted nothing" 0 '^\{"my-src":\{"topics":\["orders"\]\}\}$' -- curl -sf "$url/connectors/my-src/topics"

# topic.tracking.enable=false: a service that refuses both topic endpoints with Connect's other 403,
# also the reset it would allow (Connect checks tracking first), serves the rest, and writes nothing.
"$bin" run --bootstrap-servers "$bs" --topic ops-status --set topic.tracking.enable=false \
  --set topic.tracking.allow.reset=true --listen 127.0.0.1:0 >"$tmp/untracked.out" 2>"$tmp/untracked.err" &
untracked_pid=$!
for _ in $(seq 1 100); do grep -q "HTTP on" "$tmp/untracked.out" 2>/dev/null && break; sleep 0.1; done
untracked_url=$(grep -oE "http://[0-9.]+:[0-9]+" "$tmp/untracked.out")
check "topic.tracking.enable=false: GET topics is Connect's 403" 0 '^\{"error_code":403,"message":"Topic tracking is disabled\."\} 403$' -- curl -s -w ' %{http_code}' "$untracked_url/connectors/my-src/topics"
check "topic.tracking.enable=false: the reset is the same 403, though allowed" 0 '^\{"error_code":403,"message":"Topic tracking is disabled\."\} 403$' -- curl -s -X PUT -w ' %{http_code}' "$untracked_url/connectors/my-src/topics/reset"
check "topic.tracking.enable=false: a connector's status is still served" 0 '^\{"name":"my-src","connector":\{"state":"RUNNING"' -- curl -s "$untracked_url/connectors/my-src/status"
check "topic.tracking.enable=false: the refused reset accepted no update" 0 '^status_update_accepted_total 0$' -- curl -sf "$untracked_url/metrics"
kill -TERM "$untracked_pid"; wait "$untracked_pid"

# topic.tracking.allow.reset=true: a second service on the same cluster answers the reset with a 202
# and no body, and writes one tombstone per topic of the connector (2 here), counted as successes.
# topic.tracking.enable=false stops only the REST side: the store still writes the topic statuses it is given.
check "put a second topic, with topic.tracking.enable=false" 0 "acknowledged" -- "$bin" put topic my-src payments --set topic.tracking.enable=false "${c[@]}"
"$bin" run --bootstrap-servers "$bs" --topic ops-status --set topic.tracking.allow.reset=true \
  --listen 127.0.0.1:0 >"$tmp/reset.out" 2>"$tmp/reset.err" &
reset_pid=$!
for _ in $(seq 1 100); do grep -q "HTTP on" "$tmp/reset.out" 2>/dev/null && break; sleep 0.1; done
reset_url=$(grep -oE "http://[0-9.]+:[0-9]+" "$tmp/reset.out")
for _ in $(seq 1 50); do
  [ "$(curl -s "$reset_url/connectors/my-src/topics")" = '{"my-src":{"topics":["orders","payments"]}}' ] && break; sleep 0.1
done
check "PUT topics/reset when allowed: 202, empty body" 0 '^202 0$' -- curl -s -X PUT -o /dev/null -w '%{http_code} %{size_download}' "$reset_url/connectors/my-src/topics/reset"
# Each service's view reads the tombstones back on its own: on the mock cluster an empty fetch is
# answered only after fetch.wait.max.ms (500 ms), so the first service can lag the second; wait for both.
topics_after="" first_after="" success=""
for _ in $(seq 1 50); do
  topics_after=$(curl -s "$reset_url/connectors/my-src/topics")
  first_after=$(curl -s "$url/connectors/my-src/topics")
  success=$(curl -s "$reset_url/metrics" | sed -n 's/^status_update_success_total \([0-9]*\).*/\1/p')
  [ "$topics_after" = '{"my-src":{"topics":[]}}' ] && [ "$first_after" = '{"my-src":{"topics":[]}}' ] &&
    [ "$success" = 2 ] && break
  sleep 0.1
done
if [ "$topics_after" = '{"my-src":{"topics":[]}}' ] && [ "$success" = 2 ] && [ "$first_after" = '{"my-src":{"topics":[]}}' ]; then
  ok "the reset's 2 tombstones are acknowledged (status_update_success_total 2) and read back by both services"
else
  fail "the reset's tombstones (topics: $topics_after, first service's topics: $first_after, success total: ${success:-?})" \
    "$(cat "$tmp/reset.err")"
fi
check "PUT topics/reset of a connector without topics is a 202 as well" 0 '^202$' -- curl -s -X PUT -o /dev/null -w '%{http_code}' "$reset_url/connectors/none/topics/reset"
kill -TERM "$reset_pid"; wait "$reset_pid"
check "GET /healthz" 0 '"status":"ok"' -- curl -sf "$url/healthz"
# A connector name is anyone's string: one with a quote and a backslash must come out escaped, and
# the whole page must still parse.
check "put a connector whose name has a quote and a backslash" 0 "acknowledged" -- "$bin" put connector 'we"ird\x' --state FAILED --worker-id w1:8083 --generation 1 "${c[@]}"
for _ in $(seq 1 50); do grep -qF 'connector="we\"ird\\x"' <<<"$(curl -s "$url/metrics")" && break; sleep 0.1; done
metrics=$(curl -sf "$url/metrics")
check "/metrics escapes the label value" 0 '^status_connector_status\{connector="we\\"ird\\\\x",state="failed"\} 1$' -- printf '%s\n' "$metrics"
if parsed=$(python3 "$src/tests/app/prometheus_check.py" <<<"$metrics" 2>&1) &&
   grep -q "^status_update_success_total " <<<"$parsed" && grep -q "^status_update_retry_total " <<<"$parsed" &&
   grep -q "^status_update_failure_total " <<<"$parsed" && grep -q "^status_record_read_errors_total " <<<"$parsed" &&
   grep -qE "^status_record_read_total [1-9]" <<<"$parsed"; then
  ok "/metrics parses as Prometheus text with the KIP's counters"
else
  fail "/metrics parses as Prometheus text" "$parsed"
fi
# This service wrote nothing itself (the CLI did): its hop histograms are there, parsed, and empty.
if grep -qxF '# TYPE status_update_producer_queue_seconds histogram' <<<"$metrics" &&
   grep -qxF 'status_update_producer_queue_seconds_bucket{le="+Inf"} 0.0' <<<"$parsed" &&
   grep -qxF 'status_update_report_to_coalescer_seconds_count 0.0' <<<"$parsed"; then
  ok "/metrics serves the write path's hop histograms"
else
  fail "/metrics serves the write path's hop histograms" "$(grep _seconds_ <<<"$parsed" | head -5)"
fi
if grep -qxF 'status_connector_status{connector="my-src",state="running"} 1' <<<"$metrics" &&
   grep -qxF 'status_task_status{connector="my-src",task="0",state="failed"} 1' <<<"$metrics" &&
   grep -qxF 'status_task_status{connector="my-src",task="1",state="running"} 1' <<<"$metrics" &&
   grep -qxF 'status_connectors{state="degraded"} 1' <<<"$metrics" && grep -qxF 'status_tasks{state="failed"} 1' <<<"$metrics" &&
   grep -qxF 'status_connectors{state="failed"} 1' <<<"$metrics" &&
   grep -qxF 'status_connectors{state="stopped"} 0' <<<"$metrics"; then
  ok "/metrics has a series per connector and task with its state as a label, and the counts by state (degraded 1, failed 1: the quoted one)"
else
  fail "/metrics per-state series" "$(grep -E '^status_(connector|task|connectors|tasks)[{_]' <<<"$metrics")"
fi

# watch: another process's put shows up within a second; SIGTERM ends it with exit 0.
"$bin" watch --connector my-src --json --bootstrap-servers "$bs" --topic ops-status >"$tmp/watch.out" 2>"$tmp/watch.err" &
watch_pid=$!
for _ in $(seq 1 100); do grep -q "; watching" "$tmp/watch.err" 2>/dev/null && break; sleep 0.1; done
"$bin" put task other 0 --state RUNNING --worker-id w1:8083 --generation 3 "${c[@]}" >/dev/null 2>&1  # filtered out
"$bin" put task my-src 1 --state PAUSED --worker-id w1:8083 --generation 4 "${c[@]}" >/dev/null 2>&1
put_at=$(date +%s%N)  # the put has returned: its record is acknowledged
seen_ms=""
for _ in $(seq 1 50); do
  if grep -q '"key":"status-task-my-src-1".*"state":"PAUSED"' "$tmp/watch.out" 2>/dev/null; then
    seen_ms=$(( ($(date +%s%N) - put_at) / 1000000 )); break
  fi
  sleep 0.02
done
if [ -n "$seen_ms" ] && [ "$seen_ms" -le 1000 ] && ! grep -q '"connector":"other"' "$tmp/watch.out" &&
   [ "$(grep -c . "$tmp/watch.out")" -eq 1 ]; then
  ok "watch prints another process's put within 1 s (${seen_ms} ms after its acknowledgement), only its connector, no replay"
else
  fail "watch prints another process's put within 1 s (seen: ${seen_ms:-never})" "$(cat "$tmp/watch.out" "$tmp/watch.err")"
fi
kill -TERM "$watch_pid"
wait "$watch_pid"; rc=$?
if [ "$rc" -eq 0 ] && grep -q "stopped by SIGTERM: 1 change(s) printed" "$tmp/watch.err"; then ok "watch: SIGTERM ends it with exit 0"; else fail "watch: SIGTERM ends it with exit 0 (exit $rc)" "$(cat "$tmp/watch.err")"; fi

check "delete a topic" 0 "acknowledged" -- "$bin" delete topic my-src orders "${c[@]}"
check "delete a connector with its tasks" 0 "acknowledged" -- "$bin" delete connector my-src "${c[@]}"
check "a deleted connector has no status" 1 "no status found" -- "$bin" get connector my-src "${c[@]}"

check "bad state is a usage error" 2 "--state" -- "$bin" put connector x --state SLEEPING --worker-id w "${c[@]}"
check "bad task id is a usage error" 2 "task number" -- "$bin" put task x zero --state RUNNING --worker-id w "${c[@]}"
check "bad target is a usage error" 2 "TARGET" -- "$bin" put cluster x --state RUNNING --worker-id w "${c[@]}"
started=$(date +%s)
out=$(timeout 60 "$bin" put connector x --state RUNNING --worker-id w --bootstrap-servers 127.0.0.1:1 --topic t --timeout 3 2>&1)
rc=$?
took=$(($(date +%s) - started))
if [ "$rc" -eq 1 ] && grep -q "^error: put failed: no broker reachable at 127.0.0.1:1 within 3000 ms" <<<"$out" &&
   grep -q "^  status-update-failure-total 1$" <<<"$out" && [ "$took" -le 6 ]; then
  ok "put with no broker reachable says so within its 3 s timeout (${took} s), with its metrics, exit 1"
else
  fail "put with no broker reachable: exit $rc after ${took} s" "$out"
fi
check "get with no broker reachable says so (exit 1)" 1 "error: get failed: no broker reachable at 127.0.0.1:1" -- \
  timeout 60 "$bin" get connector x --bootstrap-servers 127.0.0.1:1 --topic t --timeout 2
check "help on a verb" 0 "--state" -- "$bin" put --help

kill -TERM "$service_pid"
for _ in $(seq 1 100); do kill -0 "$service_pid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$service_pid" 2>/dev/null; then
  fail "SIGTERM stops the service within 10 s"
else
  wait "$service_pid"; rc=$?
  service_pid=""
  if [ "$rc" -eq 0 ] && grep -q "status-store stopped" "$tmp/service.out"; then ok "SIGTERM drains and exits 0"; else fail "SIGTERM drains and exits 0 (exit $rc)" "$(cat "$tmp/service.out")"; fi
fi

summary
