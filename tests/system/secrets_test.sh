#!/usr/bin/env bash
# The `status-store` executable on the one-node cluster's authenticated listeners, as an operator
# runs it with a Connect worker's file (sasl.jaas.config, ssl.truststore.*): check-config, put/get
# and the `run` service's /metrics with the right password, put with a wrong one. Every output is
# grepped for the password, which must never appear. Also logs in with SCRAM-SHA-256 through Kafka's
# Java client, proving the credential valid for Kafka's own client (status-store's SCRAM logins:
# scram_round_trip_test.cpp).
# Usage (inside `scripts/kafka-local.sh run 1 -- ...`): secrets_test.sh PATH/TO/status-store SOURCE_DIR
set -uo pipefail
bin=$1
src=$2
source "$src/tests/app/check_lib.sh"

for v in STATUS_STORE_SASL_BOOTSTRAP STATUS_STORE_SSL_BOOTSTRAP STATUS_STORE_SSL_CA STATUS_STORE_SASL_USERNAME \
         STATUS_STORE_SASL_PASSWORD STATUS_STORE_KAFKA_LOCAL; do
  if [ -z "${!v:-}" ]; then
    echo "FAIL $v is not set: run as scripts/kafka-local.sh run 1 -- ctest --test-dir build -L '^system\$'"
    exit 1
  fi
done
user=$STATUS_STORE_SASL_USERNAME
password=$STATUS_STORE_SASL_PASSWORD
wrong="wrong-${password:0:8}-x"
topic="system-secrets-$$-$(date +%s)"

worker_file() {  # worker_file FILE PASSWORD [extra lines...]
  local file=$1 pass=$2; shift 2
  printf '%s\n' "bootstrap.servers=$STATUS_STORE_SASL_BOOTSTRAP" "status.storage.topic=$topic" \
    "status.storage.replication.factor=1" "status.storage.partitions=1" "security.protocol=SASL_PLAINTEXT" \
    "sasl.mechanism=PLAIN" \
    "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"$user\" password=\"$pass\";" \
    "$@" > "$file"
}
worker_file "$tmp/right.properties" "$password"
worker_file "$tmp/wrong.properties" "$wrong"

check "check-config: a Connect worker's SASL file is valid, the password hidden" 0 "sasl.password=\[hidden\]" -- \
  "$bin" check-config "$tmp/right.properties"
check "put over SASL PLAIN with the right password" 0 "acknowledged" -- \
  "$bin" put connector sasl-src --state RUNNING --worker-id w1:8083 --generation 2 --config "$tmp/right.properties" --timeout 30
check "get reads it back over SASL PLAIN" 0 "connector sasl-src +RUNNING" -- \
  "$bin" get connector sasl-src --config "$tmp/right.properties"
# A 600 s start-up deadline (--timeout): failing before `timeout 250` proves the store did not wait it out.
check "put with a wrong password fails as an authentication error (exit 1)" 1 "authentication with the broker failed \(_AUTHENTICATION\)" -- \
  timeout 250 "$bin" put connector sasl-src --state PAUSED --worker-id w1:8083 --generation 2 --config "$tmp/wrong.properties" --timeout 600

printf '%s\n' "bootstrap.servers=$STATUS_STORE_SSL_BOOTSTRAP" "status.storage.topic=$topic-tls" "status.storage.replication.factor=1" \
  "status.storage.partitions=1" "security.protocol=SSL" "ssl.truststore.type=PEM" "ssl.truststore.location=$STATUS_STORE_SSL_CA" > "$tmp/tls.properties"
check "put over TLS with a PEM truststore" 0 "acknowledged" -- \
  "$bin" put connector tls-src --state RUNNING --worker-id w1:8083 --generation 1 --config "$tmp/tls.properties" --timeout 30

# The service: /metrics (and every log line it writes) without the password.
"$bin" --log-level debug run --config "$tmp/right.properties" --listen 127.0.0.1:0 >"$tmp/service.out" 2>"$tmp/service.err" &
service_pid=$!
for _ in $(seq 1 300); do grep -q "HTTP on" "$tmp/service.out" 2>/dev/null && break; sleep 0.1; done
url=$(grep -oE "http://[0-9.]+:[0-9]+" "$tmp/service.out")
if [ -n "$url" ]; then
  ok "run starts on the SASL listener"
  metrics=$(curl -sf "$url/metrics")
  all_output+="$metrics"$'\n'
  if grep -q "status_update_success_total" <<<"$metrics"; then ok "/metrics answers"; else fail "/metrics answers" "$metrics"; fi
  check "put through the service's cluster" 0 "acknowledged" -- \
    "$bin" put connector sasl-src --state PAUSED --worker-id w1:8083 --generation 3 --config "$tmp/right.properties" --timeout 30
  kill -TERM "$service_pid"; wait "$service_pid"; service_pid=""
else
  fail "run starts on the SASL listener" "$(cat "$tmp/service.out" "$tmp/service.err")"
fi
all_output+="$(cat "$tmp/service.out" "$tmp/service.err")"$'\n'

# SCRAM-SHA-256: the credential is valid for Kafka's own client.
lib=$(bash "$STATUS_STORE_KAFKA_LOCAL" fetch 2>/dev/null | tail -1)
# (The list may hold users that other tests of the label added: scram_round_trip_test.cpp's late user.)
check "the SCRAM-SHA-256 credential logs in with Kafka's Java client" 0 "scram login ok: \[(.*, )?$user(, .*)?\]" -- \
  timeout 120 java -XX:TieredStopAtLevel=1 -cp "$lib/*" "$src/tests/system/java/ScramLogin.java" "$STATUS_STORE_SASL_BOOTSTRAP" "$user"

if grep -qF -- "$password" <<<"$all_output"; then fail "the password appears in an output"; else ok "the password appears in no output"; fi
if grep -qF -- "$wrong" <<<"$all_output"; then fail "the wrong password appears in an output"; else ok "the wrong password appears in no output"; fi
if [ "$(grep -c "the broker refused this client's credentials" <<<"$all_output")" -eq 1 ]; then
  ok "the authentication failure is logged once"
else
  fail "the authentication failure is logged once" "$(grep "refused" <<<"$all_output")"
fi

summary
