#!/usr/bin/env bash
# `status-store run`'s HTTP/1.1 framing and listener (tests/app/http_framing.py, loopback only): a
# request hidden in a POST body is never run, bodies are read before the next request, Expect:
# 100-continue, 413/431/414, Connect's GET / and GET /health bodies, 1,000 slowloris connections while
# /health answers; then a second `run` on the bound port exits 1 at once, and /health says "starting"
# while no broker can be reached yet.
# Usage: http_framing_test.sh PATH/TO/status-store SOURCE_DIR
set -uo pipefail
bin=$1
src=$2
source "$src/tests/app/check_lib.sh"
ulimit -n 8192 2>/dev/null || true  # 1,000 client sockets here, as many accepted by the service

if ! start_service service --bootstrap-servers mock --topic framing-status --set status.storage.replication.factor=1 \
  --set topic.tracking.allow.reset=true --listen 127.0.0.1:0; then
  fail "service starts" "$(cat "$tmp/service.out" "$tmp/service.err")"
  summary; exit 1
fi
ok "service starts"
c=(--bootstrap-servers "$bs" --topic framing-status --timeout 20)
check "put the connector" 0 "acknowledged" -- "$bin" put connector my-src --state RUNNING --worker-id w1:8083 "${c[@]}"
check "put its topic" 0 "acknowledged" -- "$bin" put topic my-src orders "${c[@]}"
for _ in $(seq 1 50); do grep -q orders <<<"$(curl -sf "http://127.0.0.1:$port/connectors/my-src/topics")" && break; sleep 0.1; done

if out=$(timeout 300 python3 "$src/tests/app/http_framing.py" 127.0.0.1 "$port" 2>&1); then
  ok "http_framing.py"
else
  fail "http_framing.py" "$out"
fi
echo "$out" | sed 's/^/     /'
if grep -q "topics reset for connector 'my-src'" "$tmp/service.err"; then
  fail "no reset of my-src ran" "$(grep "topics reset" "$tmp/service.err")"
else
  ok "no reset of my-src ran (the service's log)"
fi

# The port is ours alone: a second service on it stops at once, naming the address.
start=$(date +%s%N)
check "a second run on the bound port exits 1: address already in use" 1 \
  "cannot listen on 127.0.0.1:$port: address already in use" -- \
  timeout 10 "$bin" run --bootstrap-servers mock --topic framing-status --listen "127.0.0.1:$port"
took_ms=$(( ($(date +%s%N) - start) / 1000000 ))
if [ "$took_ms" -lt 1000 ]; then ok "... within a second ($took_ms ms)"; else fail "... within a second ($took_ms ms)"; fi
check "GET / still answered by the first service" 0 '"kafka_cluster_id"' -- curl -sf "http://127.0.0.1:$port/"

check "HEAD /connectors: the GET's Content-Length, no body" 0 '^200 [1-9][0-9]* 0$' -- \
  curl -s -I -o /dev/null -w '%{http_code} %header{content-length} %{size_download}' "http://127.0.0.1:$port/connectors"

kill -TERM "$service_pid"
wait "$service_pid"; rc=$?
service_pid=""
if [ "$rc" -eq 0 ]; then ok "SIGTERM drains and exits 0"; else fail "SIGTERM drains and exits 0 (exit $rc)" "$(tail -20 "$tmp/service.err")"; fi

# Every interface, plain HTTP, no authentication: said at start-up, naming what is exposed.
"$bin" run --bootstrap-servers mock --topic framing-status --listen 0.0.0.0:0 >"$tmp/exposed.out" 2>"$tmp/exposed.err" &
service_pid=$!
for _ in $(seq 1 100); do grep -q "HTTP on" "$tmp/exposed.out" 2>/dev/null && break; sleep 0.1; done
if grep -q "serves plain HTTP to other hosts without authentication: anyone who can reach it reads every connector's and task's status and trace" "$tmp/exposed.err"; then
  ok "--listen 0.0.0.0:0 without authentication is warned about, naming what is exposed"
else
  fail "--listen 0.0.0.0:0 without authentication is warned about" "$(head -5 "$tmp/exposed.err")"
fi
kill -TERM "$service_pid"; wait "$service_pid"; service_pid=""

# Starting: the listener is up before the store, so probes can tell "starting" from "down". Nothing
# listens on port 1, so start-up waits for status.storage.startup.timeout.ms, then fails.
"$bin" run --bootstrap-servers 127.0.0.1:1 --topic framing-status --set status.storage.startup.timeout.ms=6000 \
  --listen 127.0.0.1:0 >"$tmp/starting.out" 2>"$tmp/starting.err" &
service_pid=$!
# The log's "listening on" line comes before the store starts; the "HTTP on" line of stdout after it.
for _ in $(seq 1 50); do grep -q "listening on" "$tmp/starting.err" 2>/dev/null && break; sleep 0.1; done
sport=$(grep -oE "listening on http://127.0.0.1:[0-9]+" "$tmp/starting.err" | sed 's/.*://')
check "while the store starts, /health is Connect's 503 starting" 0 \
  '^503 \{"status":"starting","message":"Worker is still starting up\.' -- \
  curl -s -w '%{http_code} ' -o "$tmp/h.json" "http://127.0.0.1:$sport/health" --next -s "file://$tmp/h.json"
check "... and a status query a 503" 0 '^503$' -- curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$sport/connectors"
check "... and /healthz (liveness) a 200" 0 '^200$' -- curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$sport/healthz"
wait "$service_pid"; rc=$?
service_pid=""
if [ "$rc" -eq 1 ]; then ok "start-up without a broker fails with exit 1"; else fail "start-up without a broker fails with exit 1 (exit $rc)" "$(tail -5 "$tmp/starting.err")"; fi

summary
