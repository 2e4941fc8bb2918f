#!/usr/bin/env bash
# `status-store run` against slow, idle and hostile clients (tests/app/http_abuse.py, loopback only):
# 100 slow/idle connections while /healthz and a status query are answered within 1 s, keep-alive
# latency, bad UTF-8 and broken escapes in every path segment, a 100 KB path, multi-range headers,
# junk request lines (4xx or closed, never 5xx), the idle timeout, and the 503 beyond
# --max-connections, counted on /metrics with every slot given back. Then a graceful SIGTERM with 50
# half-sent requests open.
# Usage: http_hardening_test.sh PATH/TO/status-store SOURCE_DIR
set -uo pipefail
bin=$1
src=$2
source "$src/tests/app/check_lib.sh"
bound=150

if ! start_service service --bootstrap-servers mock --topic http-status --set status.storage.replication.factor=1 \
  --listen 127.0.0.1:0 --max-connections $bound; then
  fail "service starts" "$(cat "$tmp/service.out" "$tmp/service.err")"
  summary; exit 1
fi
ok "service starts with --max-connections $bound"
check "put the connector the probes ask for" 0 "acknowledged" -- \
  "$bin" put connector my-src --state RUNNING --worker-id w1:8083 --bootstrap-servers "$bs" --topic http-status --timeout 20
for _ in $(seq 1 50); do curl -sf "http://127.0.0.1:$port/connectors/my-src/status" >/dev/null && break; sleep 0.1; done

if out=$(timeout 300 python3 "$src/tests/app/http_abuse.py" 127.0.0.1 "$port" "$bound" 2>&1); then
  ok "http_abuse.py"
else
  fail "http_abuse.py" "$out"
fi
echo "$out" | sed 's/^/     /'

if kill -0 "$service_pid" 2>/dev/null; then ok "the service is still running"; else fail "the service is still running" "$(tail -20 "$tmp/service.err")"; fi
if grep -q "connection(s) refused with 503" "$tmp/service.err"; then ok "refused connections are logged"; else fail "refused connections are logged" "$(tail -5 "$tmp/service.err")"; fi
# ... and counted, and every slot the abuse took is given back: the scrape's own connection is the one open.
listener_metrics=""
for _ in $(seq 1 50); do
  listener_metrics=$(curl -s "http://127.0.0.1:$port/metrics" | grep -E '^status_http_(connections_open|health_lane_open|connections_shed_total) ')
  echo "$listener_metrics" | grep -qx 'status_http_connections_open 1' && echo "$listener_metrics" | grep -qx 'status_http_health_lane_open 0' && break
  sleep 0.1
done
shed=$(echo "$listener_metrics" | sed -n 's/^status_http_connections_shed_total //p')
if echo "$listener_metrics" | grep -qx 'status_http_connections_open 1' && echo "$listener_metrics" | grep -qx 'status_http_health_lane_open 0' &&
  [ "${shed:-0}" -ge 1 ]; then
  ok "/metrics counts the refused connections ($shed) and every slot is given back"
else
  fail "/metrics counts the refused connections and every slot is given back" "$listener_metrics"
fi
# 50 connections with half-sent requests must not hold up a graceful stop.
python3 -c '
import socket, sys, time
held = [socket.create_connection(("127.0.0.1", int(sys.argv[1]))) for _ in range(50)]
for s in held: s.send(b"GET /heal")
time.sleep(20)' "$port" &
holder_pid=$!
sleep 1
kill -TERM "$service_pid"
for _ in $(seq 1 40); do kill -0 "$service_pid" 2>/dev/null || break; sleep 0.1; done
kill "$holder_pid" 2>/dev/null
if kill -0 "$service_pid" 2>/dev/null; then
  fail "SIGTERM stops the service within 4 s, with 50 half-sent requests open"
else
  wait "$service_pid"; rc=$?
  service_pid=""
  if [ "$rc" -eq 0 ]; then ok "SIGTERM drains and exits 0"; else fail "SIGTERM drains and exits 0 (exit $rc)" "$(tail -20 "$tmp/service.err")"; fi
fi

summary
