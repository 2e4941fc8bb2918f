#!/usr/bin/env bash
# The status-store executable end to end, as an operator runs it: help, check-config on valid and
# invalid files (exit 2 naming the property), secrets masked, and the demo's verdict with an outage
# inside the retry window (exit 0) and beyond it (exit 1: counted failures, no hang).
# Usage: cli_test.sh PATH/TO/status-store SOURCE_DIR
set -uo pipefail
bin=$1
src=$2
source "$src/tests/app/check_lib.sh"

refuse() {  # refuse NAME PATTERN OUTPUT: the output must not match
  local name=$1 pattern=$2 out=$3
  if grep -qE -- "$pattern" <<<"$out"; then fail "$name: output contains '$pattern'"; else ok "$name"; fi
}

check "help lists the verbs" 0 "check-config" -- "$bin" --help
check "help lists demo" 0 "demo" -- "$bin" --help
check "no verb is a usage error" 2 "subcommand" -- "$bin"
check "unknown verb is a usage error" 2 "" -- "$bin" frobnicate

check "sample config is valid" 0 "status.storage.retry.max.retries=5" -- "$bin" check-config "$src/config/worker.properties"
check "defaults are filled in" 0 "status.storage.retry.jitter.factor=0.25" -- "$bin" check-config "$src/config/worker.properties"

write() { printf '%s\n' "status.storage.topic=connect-status" "$@" > "$tmp/bad.properties"; }
expect_invalid() {  # expect_invalid PROPERTY LINE...
  local property=$1
  shift
  write "$@"
  check "invalid: $*" 2 "$property" -- "$bin" check-config "$tmp/bad.properties"
}
expect_invalid status.storage.retry.jitter.factor "status.storage.retry.jitter.factor=1.5"
expect_invalid status.storage.retry.backoff.multiplier "status.storage.retry.backoff.multiplier=0.99"
expect_invalid status.storage.retry.max.retries "status.storage.retry.max.retries=-1"
expect_invalid status.storage.retry.max.retries "status.storage.retry.max.retries=2147483648"
expect_invalid status.storage.retry.initial.backoff.ms "status.storage.retry.initial.backoff.ms=20000"
expect_invalid status.storage.retry.max.backoff.ms "status.storage.retry.max.backoff.ms=ten"
expect_invalid status.storage.partitions "status.storage.partitions=0"
printf 'bootstrap.servers=mock\nstatus.storage.topic=   \n' > "$tmp/blank.properties"
check "blank topic gives Connect's message" 2 "Must specify topic for connector status" -- "$bin" check-config "$tmp/blank.properties"
check "blank topic names the property to set" 2 "Set status.storage.topic to" -- "$bin" check-config "$tmp/blank.properties"
check "global options are accepted after the verb" 0 "status.storage.retry.max.retries=5" -- "$bin" check-config "$src/config/worker.properties" --log-level error
check "an unknown option after the verb is still a usage error" 2 "" -- "$bin" check-config "$src/config/worker.properties" --no-such-option
check "missing file is an error" 2 "cannot read" -- "$bin" check-config "$tmp/does-not-exist.properties"

printf '%s\n' "status.storage.topic=t" "sasl.mechanism=PLAIN" "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\" password=\"hunter2\";" \
  "producer.ssl.key.password=hunter3" > "$tmp/secret.properties"
out=$("$bin" check-config "$tmp/secret.properties" 2>&1)
refuse "secrets are masked in check-config" "hunter2|hunter3" "$out"
check "masked secrets are shown as [hidden]" 0 "sasl.password=\[hidden\]" -- "$bin" check-config "$tmp/secret.properties"
check "sasl.jaas.config becomes librdkafka's sasl.username" 0 "sasl.username=u" -- "$bin" check-config "$tmp/secret.properties"
printf '%s\n' "status.storage.topic=t" "sasl.mechanism=PLAIN" "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule username=u password=hunter5;" > "$tmp/jaas-bad.properties"
check "a malformed sasl.jaas.config exits 2 naming it" 2 "configuration sasl.jaas.config: Invalid login module control flag" -- "$bin" check-config "$tmp/jaas-bad.properties"
out=$("$bin" check-config "$tmp/jaas-bad.properties" 2>&1)
refuse "a malformed sasl.jaas.config never shows its password" "hunter5" "$out"
printf '%s\n' "status.storage.topic=t" "security.protocol=SSL" "ssl.truststore.location=/etc/kafka/truststore.jks" "ssl.truststore.password=hunter6" > "$tmp/jks.properties"
check "a JKS truststore exits 2 saying what to use instead" 2 "ssl.truststore.location: status-store's Kafka client cannot read a JKS truststore.*ssl.ca.location" -- "$bin" check-config "$tmp/jks.properties"
printf '%s\n' "status.storage.topic=t" "ssl.keystore.passwrd=hunter7" > "$tmp/unknown-ssl.properties"
check "an ssl.* name librdkafka does not know exits 2 naming it" 2 "configuration ssl.keystore.passwrd: librdkafka refuses it: No such configuration property" -- "$bin" check-config "$tmp/unknown-ssl.properties"
refuse "a misspelt secret's value is never printed (the client library does not know the name)" "hunter7" "$all_output"
printf '%s\n' "status.storage.topic=t" "sasl.pasword=hunter5" "producer.ssl.keystore.passwd=hunter6" > "$tmp/typo.properties"
check "a misspelt sasl.password exits 2 naming it, its value hidden" 2 "Invalid value \[hidden\] for configuration sasl.pasword" -- \
  "$bin" check-config "$tmp/typo.properties"
check "a malformed --set exits 2 without echoing the argument" 2 "Invalid value \[hidden\] for configuration --set" -- \
  "$bin" put connector x --state RUNNING --worker-id w --bootstrap-servers mock --topic t --set "sasl.password:hunter8"
refuse "neither the misspelt secrets nor the malformed --set are printed" "hunter5|hunter6|hunter8" "$all_output"
printf '%s\n' "status.storage.topic=t" "ssl.key.password=hunter4" "status.storage.retry.jitter.factor=2" > "$tmp/secret-bad.properties"
out=$("$bin" check-config "$tmp/secret-bad.properties" 2>&1)
refuse "secrets are masked in errors" "hunter4" "$out"

# The REST listener's settings, as a Connect worker file gives them (admin.listeners used to exit 2), with
# real keystores: check-config reads them as run does.
fx=$tmp/fixtures
bash "$src/tests/app/make_tls_fixtures.sh" "$fx" >/dev/null
printf '%s\n' "status.storage.topic=connect-status" "group.id=connect-cluster" "listeners=https://0.0.0.0:8443,HTTP://:8083" \
  "admin.listeners=http://localhost:8084" "rest.advertised.host.name=worker-1" \
  "listeners.https.ssl.keystore.type=PKCS12" "listeners.https.ssl.keystore.location=$fx/server.p12" \
  "listeners.https.ssl.keystore.password=server-store-secret" "listeners.https.ssl.client.auth=required" \
  "listeners.https.ssl.truststore.type=PEM" "listeners.https.ssl.truststore.location=$fx/ca.pem" \
  "rest.extension.classes=org.apache.kafka.connect.rest.basic.auth.extension.BasicAuthSecurityRestExtension" \
  > "$tmp/rest.properties"
printf '%s\n' "alice: hunter9" "bob: other" > "$tmp/credentials.properties"
printf '%s\n' "KafkaConnect {" "  org.apache.kafka.connect.rest.basic.auth.extension.PropertyFileLoginModule required" \
  "  file=\"$tmp/credentials.properties\";" "};" > "$tmp/connect-jaas.conf"
check "a Connect worker file with REST settings is valid" 0 "listeners.https.ssl.keystore.password=\[hidden\]" -- \
  env KAFKA_OPTS="-Djava.security.auth.login.config=$tmp/connect-jaas.conf" "$bin" check-config "$tmp/rest.properties"
check "check-config names the admin listeners as not served" 0 "warning: admin.listeners: accepted, not used" -- \
  env KAFKA_OPTS="-Djava.security.auth.login.config=$tmp/connect-jaas.conf" "$bin" check-config "$tmp/rest.properties"
check "check-config reads the credentials file" 0 "# Basic auth: 2 user\(s\) from $tmp/credentials.properties" -- \
  env KAFKA_OPTS="-Djava.security.auth.login.config=$tmp/connect-jaas.conf" "$bin" check-config "$tmp/rest.properties"
refuse "REST secrets are masked in check-config" "server-store-secret|hunter9" "$all_output"
check "Basic auth without a JAAS file exits 2 naming both ways" 2 "set status.rest.jaas.config.file=FILE, or start status-store with KAFKA_OPTS" -- \
  env -u KAFKA_OPTS "$bin" check-config "$tmp/rest.properties"
check "a missing JAAS file exits 2 naming it" 2 "Cannot read the JAAS file $tmp/none.conf" -- \
  env KAFKA_OPTS="-Djava.security.auth.login.config=$tmp/none.conf" "$bin" check-config "$tmp/rest.properties"
expect_invalid "configuration listeners: Listener protocol must be" "listeners=ftp://:21"
expect_invalid "configuration listeners: The port must be from 0 to 65535" "listeners=http://:65536"
expect_invalid "listeners.https.ssl.keystore.type: status-store reads PKCS12 and PEM keystores, not JKS.*keytool -importkeystore" \
  "listeners=https://:8443" "listeners.https.ssl.keystore.location=$fx/server.jks" "listeners.https.ssl.keystore.type=JKS" \
  "listeners.https.ssl.keystore.password=server-store-secret"
printf '%s\n' "status.storage.topic=t" "listeners=https://:8443" "listeners.https.ssl.keystore.location=$fx/server.p12" \
  "listeners.https.ssl.keystore.password=server-store-secret" > "$tmp/jks-default.properties"
check "a PKCS12 keystore under Java's default type (JKS) is read, as Java 9+ reads it" 0 \
  "listeners.https.ssl.keystore.type=JKS" -- "$bin" check-config "$tmp/jks-default.properties"
expect_invalid "listeners.https.ssl.keystore.password: .*wrong password" \
  "listeners=https://:8443" "listeners.https.ssl.keystore.location=$fx/server.p12" "listeners.https.ssl.keystore.password=nope"
expect_invalid "An https listener needs a keystore: set ssl.keystore.location" "listeners=https://:8443"

check "demo: an outage inside the retry window loses nothing" 0 "verdict: every key's latest status is on the topic" -- \
  timeout 120 "$bin" demo --connectors 10 --tasks 2 --duration 4 --rate 500 --outage 1.5 --no-progress
check "demo: an outage beyond the retry window ends in counted failures" 1 "verdict: FAILED .* [1-9][0-9]* update\(s\) failed \(status-update-failure-total\)" -- \
  timeout 120 "$bin" demo --connectors 5 --tasks 1 --duration 4 --rate 200 --outage 3 --no-progress \
  --set status.storage.retry.max.retries=0 --set producer.message.timeout.ms=500
verdict=$(grep "^verdict" <<<"$all_output" | tail -n 1)
refuse "demo: the FAILED verdict lists only the reasons that apply" "verdict: FAILED.* 0 (key|stale|update|putSafe)" "$verdict"

# SIGTERM mid-run: the workload stops, the updates drain, and the summary and the verdict are printed
# (line-buffered: nothing is lost in the pipe); exit 0 because everything reported is on the topic.
"$bin" demo --connectors 10 --tasks 2 --duration 60 --rate 500 --outage 0 --no-progress >"$tmp/demo.out" 2>"$tmp/demo.err" &
demo_pid=$!
for _ in $(seq 1 100); do grep -q "status-store demo:" "$tmp/demo.out" 2>/dev/null && break; sleep 0.1; done
sleep 1
kill -TERM "$demo_pid"
for _ in $(seq 1 300); do kill -0 "$demo_pid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$demo_pid" 2>/dev/null; then
  kill -KILL "$demo_pid"
  fail "demo: SIGTERM ends the demo within 30 s"
else
  wait "$demo_pid"; rc=$?
  out=$(cat "$tmp/demo.out")
  if [ "$rc" -eq 0 ] && grep -q "^status-store demo:" <<<"$out" && grep -q "^summary" <<<"$out" &&
     grep -q "keys checked .*0 missing, 0 stale" <<<"$out" &&
     grep -q "^verdict: every key's latest status is on the topic (stopped early by SIGTERM)" <<<"$out"; then
    ok "demo: SIGTERM mid-run prints the header, the summary and the verdict, exit 0"
  else
    fail "demo: SIGTERM mid-run prints the header, the summary and the verdict, exit 0 (exit $rc)" "$out$(tail -5 "$tmp/demo.err")"
  fi
fi
check "demo: invalid --set is a configuration error" 2 "--set" -- "$bin" demo --set nonsense --duration 1
check "demo: invalid retry setting exits 2 naming it" 2 "status.storage.retry.jitter.factor" -- \
  "$bin" demo --set status.storage.retry.jitter.factor=-0.5 --duration 1

summary
