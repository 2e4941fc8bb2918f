#!/usr/bin/env bash
# Webhook alerts end to end: `status-store run` on its embedded mock cluster with
# status.alert.webhook.url pointing at a small local receiver (tests/app/webhook_receiver.py) that
# answers every alert's first POST with 503 and the next with 200. A task driven RUNNING → FAILED →
# RUNNING → FAILED by another process (the `put` verb) gives one alert per transition — failed,
# recovered, failed, flapping_started (status.flap.threshold=2) — each delivered after one retry at the
# KIP's backoff, with the token header and never a secret in a log; then an https:// receiver trusted
# through SSL_CERT_FILE, and one that is down, whose alert is lost only after the retries: counted in
# /metrics and logged with the receiver's origin alone.
# Usage: webhook_test.sh PATH/TO/status-store SOURCE_DIR
set -uo pipefail
bin=$1
src=$2
source "$src/tests/app/check_lib.sh"
pids=()
cleanup_all() {
  for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null; done
  rm -rf "$tmp"
}
trap cleanup_all EXIT

start_receiver() {  # start_receiver NAME [--tls CERT KEY]: sets $receiver_port
  local name=$1
  shift
  python3 "$src/tests/app/webhook_receiver.py" "$tmp/$name.port" "$tmp/$name.log" "$@" 2>"$tmp/$name.err" &
  pids+=($!)
  for _ in $(seq 1 100); do [ -f "$tmp/$name.port" ] && break; sleep 0.1; done
  receiver_port=$(cat "$tmp/$name.port" 2>/dev/null)
  [ -n "$receiver_port" ]
}
# run_service NAME ARGS...: like check_lib's start_service, keeping every PID; sets $url and $bs.
run_service() {
  local name=$1
  shift
  "$bin" run --listen 127.0.0.1:0 "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" &
  pids+=($!)
  for _ in $(seq 1 150); do grep -q "HTTP on" "$tmp/$name.out" 2>/dev/null && break; sleep 0.1; done
  url=$(grep -oE "http://127.0.0.1:[0-9]+" "$tmp/$name.out")
  bs=$(grep -oE "on [0-9.:,]+;" "$tmp/$name.out" | sed 's/^on //; s/;$//')
  [ -n "$url" ] && [ -n "$bs" ]
}
wait_for_lines() {  # wait_for_lines FILE N [SECONDS]
  for _ in $(seq 1 $((${3:-20} * 10))); do [ -f "$1" ] && [ "$(wc -l <"$1")" -ge "$2" ] && return 0; sleep 0.1; done
  return 1
}
metric() { curl -sf "$1/metrics" | grep -E "^$2 " | cut -d' ' -f2; }

token="Bearer tok-xyz-$$"
start_receiver recv-plain || { fail "the receiver starts" "$(cat "$tmp/recv-plain.err")"; summary; exit 1; }
plain_port=$receiver_port
retry=(--set status.storage.retry.initial.backoff.ms=200 --set status.storage.retry.jitter.factor=0.25)
if ! run_service main --bootstrap-servers mock --topic alert-status --set status.storage.replication.factor=1 \
  --set "status.alert.webhook.url=http://127.0.0.1:$plain_port/hooks/status?key=s3cr3t-q" \
  --set "status.alert.webhook.headers=Authorization: $token" --set status.flap.threshold=2 "${retry[@]}"; then
  fail "the service starts" "$(cat "$tmp/main.out" "$tmp/main.err")"
  summary
  exit 1
fi
main_url=$url
ok "the service starts with a webhook"
check "the service names the receiver by its origin" 0 "webhook alerts go to http://127.0.0.1:$plain_port \(" -- cat "$tmp/main.err"
c=(--bootstrap-servers "$bs" --topic alert-status --timeout 20)

for state in RUNNING FAILED RUNNING FAILED; do
  check "put task my-src 0 $state" 0 "acknowledged" -- "$bin" put task my-src 0 --state "$state" \
    --trace "java.lang.IllegalStateException: boom"$'\n\tat X.y(X.java:1)' --worker-id w1:8083 --generation 2 "${c[@]}"
done
# Four alerts, each refused once with 503 and then taken: eight requests.
if wait_for_lines "$tmp/recv-plain.log" 8; then ok "the receiver got eight requests"; else fail "eight requests" "$(cat "$tmp/recv-plain.log")"; fi
if python3 - "$tmp/recv-plain.log" "$token" <<'PY'
import json, sys
requests = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8")]
token = sys.argv[2]
delivered = [r for r in requests if r["status"] == 200]
events = [json.loads(r["body"])["event"] for r in delivered]
assert events == ["failed", "recovered", "failed", "flapping_started"], events
for r in requests:
    assert r["path"] == "/hooks/status?key=s3cr3t-q", r["path"]
    assert r["authorization"] == token, r["authorization"]
    assert r["content_type"] == "application/json", r["content_type"]
# Each document twice, 503 then 200, the retry after the KIP's backoff: initial 200 ms, up to 25 % more.
by_body = {}
for r in requests:
    by_body.setdefault(r["body"], []).append(r)
assert len(by_body) == 4, len(by_body)
for body, tries in by_body.items():
    assert [t["status"] for t in tries] == [503, 200], [t["status"] for t in tries]
    gap = tries[1]["time"] - tries[0]["time"]
    assert 0.2 <= gap < 0.25 + 0.5, gap  # the upper bound leaves room for a busy machine
doc = json.loads(delivered[0]["body"])
assert doc == {"event": "failed", "type": "task", "connector": "my-src", "task": 0, "state": "FAILED",
               "previous_state": "RUNNING", "worker_id": "w1:8083", "generation": 2,
               "trace": "java.lang.IllegalStateException: boom", "timestamp_ms": doc["timestamp_ms"],
               "status_topic": "alert-status",
               "text": "task my-src-0 entered FAILED (was RUNNING) on w1:8083"}, doc
assert isinstance(doc["timestamp_ms"], int) and doc["timestamp_ms"] > 1_600_000_000_000
PY
then ok "one alert per transition, each after a 503 and the backoff, with the token and the JSON document"
else fail "one alert per transition" "$(cat "$tmp/recv-plain.log")"; fi
for _ in $(seq 1 50); do [ "$(metric "$main_url" status_alert_sent_total)" = 4 ] && break; sleep 0.1; done
check "/metrics: 4 raised" 0 '^status_alert_raised_total 4$' -- curl -sf "$main_url/metrics"
check "/metrics: 4 sent" 0 '^status_alert_sent_total 4$' -- curl -sf "$main_url/metrics"
check "/metrics: 4 retried" 0 '^status_alert_retry_total 4$' -- curl -sf "$main_url/metrics"
check "/metrics: none failed or dropped" 0 '^status_alert_failure_total 0$' -- curl -sf "$main_url/metrics"
check "/metrics: nothing pending" 0 '^status_alert_pending 0$' -- curl -sf "$main_url/metrics"
check "/metrics: alert counters are typed" 0 '^# TYPE status_alert_dropped_total counter$' -- curl -sf "$main_url/metrics"

# https:// with the receiver's certificate trusted through SSL_CERT_FILE, and a receiver that is down.
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$tmp/key.pem" -out "$tmp/cert.pem" -days 1 -subj /CN=127.0.0.1 \
  -addext subjectAltName=IP:127.0.0.1 2>/dev/null
start_receiver recv-tls --tls "$tmp/cert.pem" "$tmp/key.pem" || fail "the https receiver starts" "$(cat "$tmp/recv-tls.err")"
tls_port=$receiver_port
down_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
SSL_CERT_FILE="$tmp/cert.pem" run_service tls "${c[@]:0:4}" "${retry[@]}" \
  --set "status.alert.webhook.url=https://127.0.0.1:$tls_port/tls-hook" || fail "the https service starts" "$(cat "$tmp/tls.err")"
run_service down "${c[@]:0:4}" --set status.storage.retry.max.retries=1 --set status.storage.retry.initial.backoff.ms=50 \
  --set "status.alert.webhook.url=http://127.0.0.1:$down_port/down-hook?key=s3cr3t-q" \
  --set "status.alert.webhook.headers=Authorization: $token" || fail "the service with a receiver down starts" "$(cat "$tmp/down.err")"
down_url=$url
check "put connector other-src FAILED" 0 "acknowledged" -- "$bin" put connector other-src --state FAILED --worker-id w2:8083 --generation 1 "${c[@]}"
if wait_for_lines "$tmp/recv-tls.log" 2 && python3 - "$tmp/recv-tls.log" <<'PY'
import json, sys
requests = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8")]
assert [r["status"] for r in requests] == [503, 200], requests
doc = json.loads(requests[1]["body"])
assert (doc["event"], doc["type"], doc["connector"], doc["task"]) == ("failed", "connector", "other-src", None), doc
assert requests[1]["path"] == "/tls-hook"
PY
then ok "an https:// receiver gets the connector's alert after its 503 (the replay raised none)"
else fail "an https:// receiver gets the alert" "$(cat "$tmp/recv-tls.log" "$tmp/tls.err")"; fi
for _ in $(seq 1 100); do [ "$(metric "$down_url" status_alert_failure_total)" = 1 ] && break; sleep 0.1; done
check "a receiver that is down: the alert fails after its retries" 0 '^status_alert_failure_total 1$' -- curl -sf "$down_url/metrics"
check "a receiver that is down: one retry (max.retries=1)" 0 '^status_alert_retry_total 1$' -- curl -sf "$down_url/metrics"
check "a receiver that is down: nothing sent" 0 '^status_alert_sent_total 0$' -- curl -sf "$down_url/metrics"
check "the loss is logged with the receiver's origin" 0 "alert not delivered to http://127.0.0.1:$down_port after 2 attempt\(s\), lost \(connecting: Connection refused\): connector other-src entered FAILED on w2:8083" -- cat "$tmp/down.err"

# check-config masks the headers; no log, no output holds the token or the URL's path and query.
printf '%s\n' "status.storage.topic=t" "status.alert.webhook.url=http://h/x" "status.alert.webhook.headers=Authorization: $token" >"$tmp/alert.properties"
check "check-config masks the webhook headers" 0 '^status\.alert\.webhook\.headers=\[hidden\]$' -- "$bin" check-config "$tmp/alert.properties"
for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null; done
for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null; done
pids=()
leaks=$(grep -l -e "tok-xyz" -e "s3cr3t" -e "hooks/status" -e "down-hook" "$tmp"/*.out "$tmp"/*.err 2>/dev/null)
if [ -z "$leaks" ] && ! grep -q "tok-xyz" <<<"$all_output"; then ok "no log and no output holds the token or the URL's path"
else fail "a secret in: $leaks" "$(grep -h -e "tok-xyz" -e "s3cr3t" -e "hooks/status" -e "down-hook" $leaks)"; fi
summary
