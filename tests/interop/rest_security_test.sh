#!/usr/bin/env bash
# `status-store run` behind TLS and Basic auth configured as a Connect worker is, driven by real REST
# clients (curl and Python requests): HTTPS with a PKCS12 keystore (unprefixed ssl.*, shared with the
# Kafka clients as in Connect) and with a PEM keystore (listeners.https.ssl.*, beside a plain loopback
# listener), client certificates required, Basic auth from a Connect JAAS file found through
# KAFKA_OPTS or status.rest.jaas.config.file. Each: the right certificate and credentials get 200,
# missing or wrong credentials Connect's 401, a missing or untrusted certificate no HTTP at all,
# /health open for probes; no secret in any log. The embedded mock cluster: no broker needed.
# Usage: rest_security_test.sh PATH/TO/status-store SOURCE_DIR
set -uo pipefail
bin=$1
src=$2
source "$src/tests/app/check_lib.sh"
fx=$tmp/fixtures
bash "$src/tests/app/make_tls_fixtures.sh" "$fx" >/dev/null || { fail "make_tls_fixtures.sh"; summary; exit 1; }
# Debian's interpreter has python3-requests (scripts/install-deps.sh); another python3 may have it too.
py=python3
/usr/bin/python3 -c 'import requests' 2>/dev/null && py=/usr/bin/python3

cat >"$tmp/connect-jaas.conf" <<EOF
// As a Connect worker's JAAS file: only the KafkaConnect entry is read.
KafkaClient { org.apache.kafka.common.security.plain.PlainLoginModule required username="x" password="y"; };
KafkaConnect {
  org.apache.kafka.connect.rest.basic.auth.extension.PropertyFileLoginModule required
  file="$tmp/connect.password";
};
EOF
printf 'alice: alice-rest-secret\nbob=bob-rest-secret\n' >"$tmp/connect.password"
basic=org.apache.kafka.connect.rest.basic.auth.extension.BasicAuthSecurityRestExtension

start_service() {  # start_service NAME WORKER_FILE [ENV...]: sets url_https (and url_http if any)
  local name=$1 file=$2
  shift 2
  env "$@" "$bin" run --config "$file" >"$tmp/$name.out" 2>"$tmp/$name.err" &
  service_pid=$!
  for _ in $(seq 1 100); do grep -q "HTTP on" "$tmp/$name.out" 2>/dev/null && break; sleep 0.1; done
  url_https=$(grep -oE "https://127.0.0.1:[0-9]+" "$tmp/$name.out" | head -1)
  url_http=$(grep -oE "http://127.0.0.1:[0-9]+" "$tmp/$name.out" | head -1)
  if [ -n "$url_https" ]; then ok "$name: starts on $url_https"; else fail "$name: starts" "$(cat "$tmp/$name.out" "$tmp/$name.err")"; fi
}

stop_service() {  # stop_service NAME: SIGTERM, exit 0, no secret in its output
  kill -TERM "$service_pid"
  wait "$service_pid"
  local rc=$?
  service_pid=""
  if [ "$rc" -eq 0 ]; then ok "$1: SIGTERM exits 0"; else fail "$1: SIGTERM exits 0 (exit $rc)"; fi
  if grep -qE "alice-rest-secret|bob-rest-secret|server-store-secret|server-key-secret|trust-store-secret" \
    "$tmp/$1.out" "$tmp/$1.err"; then
    fail "$1: no password in its output" "$(grep -E "secret" "$tmp/$1.err" | head -5)"
  else
    ok "$1: no password in its output"
  fi
}

refused() {  # refused NAME curl...: curl fails (TLS refused or no HTTP reply) and saw no status code
  local name=$1 out rc
  shift
  out=$("$@" 2>&1)
  rc=$?
  if [ "$rc" -ne 0 ] && [ "$out" = "000" ]; then ok "$name (curl exit $rc)"; else fail "$name: exit $rc, '$out'"; fi
}

curl_checks() {  # curl_checks NAME: the same checks on $url_https
  local n=$1 tls=(--cacert "$fx/ca.pem" --cert "$fx/client.pem" --key "$fx/client.key" -s)
  check "$n curl: certificate and credentials: 200" 0 '^200 \[\]$' -- \
    curl "${tls[@]}" -u alice:alice-rest-secret -w '%{http_code} ' -o "$tmp/body" "$url_https/connectors" --next -s "file://$tmp/body"
  check "$n curl: the second user of the file: 200" 0 '^200$' -- \
    curl "${tls[@]}" -u bob:bob-rest-secret -o /dev/null -w '%{http_code}' "$url_https/"
  check "$n curl: no credentials: Connect's 401" 0 '^401 User cannot access the resource\.$' -- \
    curl "${tls[@]}" -w '%{http_code} ' -o "$tmp/body" "$url_https/connectors" --next -s "file://$tmp/body"
  check "$n curl: the 401 asks for Basic credentials" 0 '[Ww][Ww][Ww]-[Aa]uthenticate: Basic' -- \
    curl "${tls[@]}" -D - -o /dev/null "$url_https/connectors/x/status"
  check "$n curl: a wrong password: 401" 0 '^401$' -- \
    curl "${tls[@]}" -u alice:wrong -o /dev/null -w '%{http_code}' "$url_https/connectors"
  check "$n curl: /health without credentials (a probe): 200" 0 '^200 .*"status":"healthy"' -- \
    curl "${tls[@]}" -w '%{http_code} ' -o "$tmp/body" "$url_https/health" --next -s "file://$tmp/body"
  refused "$n curl: no client certificate: no HTTP answer" \
    curl -s --cacert "$fx/ca.pem" -u alice:alice-rest-secret -o /dev/null -w '%{http_code}' "$url_https/connectors"
  refused "$n curl: a certificate of another CA: no HTTP answer" \
    curl -s --cacert "$fx/ca.pem" --cert "$fx/untrusted-client.pem" --key "$fx/untrusted-client.key" \
    -u alice:alice-rest-secret -o /dev/null -w '%{http_code}' "$url_https/connectors"
  refused "$n curl: plain HTTP to the HTTPS port: no HTTP answer" \
    curl -s -m 5 -o /dev/null -w '%{http_code}' "${url_https/https:/http:}/health"
}

requests_checks() {  # requests_checks NAME: the same with Python requests
  if out=$("$py" - "$url_https" "$fx" <<'PY' 2>&1
import sys, requests
url, fx = sys.argv[1], sys.argv[2]
ca, cert = f"{fx}/ca.pem", (f"{fx}/client.pem", f"{fx}/client.key")
r = requests.get(url + "/connectors", verify=ca, cert=cert, auth=("alice", "alice-rest-secret"), timeout=10)
assert r.status_code == 200 and r.json() == [], (r.status_code, r.text)
r = requests.get(url + "/", verify=ca, cert=cert, auth=("alice", "alice-rest-secret"), timeout=10)
assert r.status_code == 200 and list(r.json()) == ["version", "commit", "kafka_cluster_id"], r.text
r = requests.get(url + "/connectors", verify=ca, cert=cert, timeout=10)
assert r.status_code == 401 and r.text == "User cannot access the resource.", (r.status_code, r.text)
assert r.headers["WWW-Authenticate"].startswith("Basic"), r.headers
r = requests.get(url + "/health", verify=ca, cert=cert, timeout=10)
assert r.status_code == 200 and r.json()["status"] == "healthy", r.text
for bad in [None, (f"{fx}/untrusted-client.pem", f"{fx}/untrusted-client.key")]:
    try:
        r = requests.get(url + "/connectors", verify=ca, cert=bad, auth=("alice", "alice-rest-secret"), timeout=10)
        raise AssertionError(f"certificate {bad} was let in: {r.status_code}")
    except (requests.exceptions.SSLError, requests.exceptions.ConnectionError):
        pass
try:
    requests.get(url + "/health", verify=f"{fx}/other-ca.pem", cert=cert, timeout=10)
    raise AssertionError("the server's certificate was trusted by a CA that did not sign it")
except requests.exceptions.SSLError:
    pass
print("requests: 200 with certificate and credentials, 401 without credentials, /health open, "
      "no certificate and an untrusted one refused, the server verified against its CA")
PY
  ); then ok "$1 Python requests: $out"; else fail "$1 Python requests" "$out"; fi
}

# ---- A: PKCS12 keystore from the unprefixed ssl.* (Kafka's clients see them too, as in Connect) -------
cat >"$tmp/a.properties" <<EOF
bootstrap.servers=mock
status.storage.topic=secure-status
status.storage.replication.factor=1
listeners=https://127.0.0.1:0
ssl.keystore.type=PKCS12
ssl.keystore.location=$fx/server.p12
ssl.keystore.password=server-store-secret
ssl.truststore.type=PEM
ssl.truststore.location=$fx/ca.pem
ssl.client.auth=required
rest.extension.classes=$basic
EOF
start_service pkcs12 "$tmp/a.properties" KAFKA_OPTS="-Xmx1g -Djava.security.auth.login.config=$tmp/connect-jaas.conf"
if [ -n "$url_https" ]; then
  curl_checks pkcs12
  requests_checks pkcs12
fi
stop_service pkcs12

# ---- B: PEM keystore (encrypted key) from listeners.https.ssl.*, beside a plain loopback listener ----
cat >"$tmp/b.properties" <<EOF
bootstrap.servers=mock
status.storage.topic=secure-status
status.storage.replication.factor=1
listeners=https://127.0.0.1:0,http://127.0.0.1:0
listeners.https.ssl.keystore.type=PEM
listeners.https.ssl.keystore.location=$fx/server.pem
listeners.https.ssl.key.password=server-key-secret
listeners.https.ssl.truststore.type=PKCS12
listeners.https.ssl.truststore.location=$fx/truststore.p12
listeners.https.ssl.truststore.password=trust-store-secret
listeners.https.ssl.client.auth=required
rest.extension.classes=$basic
status.rest.jaas.config.file=$tmp/connect-jaas.conf
EOF
start_service pem "$tmp/b.properties"
if [ -n "$url_https" ]; then
  curl_checks pem
  requests_checks pem
  check "pem: the plain loopback listener asks for credentials too: 401" 0 '^401$' -- \
    curl -s -o /dev/null -w '%{http_code}' "$url_http/connectors"
  check "pem: ... and answers them: 200" 0 '^200$' -- \
    curl -s -u alice:alice-rest-secret -o /dev/null -w '%{http_code}' "$url_http/connectors"
fi
stop_service pem

# ---- refusals at start-up: exit 2 naming the setting or the file ---------------------------------------
sed "s|^ssl.keystore.password=.*|ssl.keystore.password=not-the-password|" "$tmp/a.properties" >"$tmp/c.properties"
check "a wrong keystore password stops start-up (exit 2), naming the keystore" 2 "ssl.keystore" -- \
  env KAFKA_OPTS="-Djava.security.auth.login.config=$tmp/connect-jaas.conf" "$bin" run --config "$tmp/c.properties"
check "Basic auth without a JAAS file stops start-up (exit 2)" 2 "java.security.auth.login.config|status.rest.jaas.config.file" -- \
  env -u KAFKA_OPTS "$bin" run --config "$tmp/a.properties"
sed "s|^status.rest.jaas.config.file=.*|status.rest.jaas.config.file=$tmp/missing.conf|" "$tmp/b.properties" >"$tmp/d.properties"
check "a missing JAAS file stops start-up (exit 2), naming it" 2 "missing.conf" -- "$bin" run --config "$tmp/d.properties"
sed "s|^listeners.https.ssl.keystore.type=PEM|listeners.https.ssl.keystore.type=JKS|; s|server.pem|server.jks|" "$tmp/b.properties" >"$tmp/e.properties"
check "a JKS keystore is refused with the keytool line (exit 2)" 2 "keytool -importkeystore" -- "$bin" run --config "$tmp/e.properties"

summary
