# Sourced by scripts/kafka-local.sh (not run alone): each node's configuration — ports, log4j2 and
# server.properties, the one-node cluster's SASL user and TLS material, its extra listeners — and the
# check that those listeners answer. Uses kafka-local.sh's variables and helpers (STATE, log, die, ...).

write_configs() {  # write_configs N: ports, log4j2 and server.properties for N nodes
  local N=$1 n voters="" rf minisr secure=0
  [ "$N" = 1 ] && secure=1
  local ports=($(pick_ports $((2 * N + 2 * secure))))
  : > "$STATE/ports"
  for n in $(seq 1 "$N"); do echo "$n ${ports[$((2 * n - 2))]} ${ports[$((2 * n - 1))]}" >> "$STATE/ports"; done
  if [ $secure = 1 ]; then
    printf 'sasl %s\nssl %s\n' "${ports[2]}" "${ports[3]}" > "$STATE/secure-ports"
    make_sasl_credentials
    make_tls_material
  fi
  for n in $(seq 1 "$N"); do voters+="${voters:+,}$n@127.0.0.1:$(cport "$n")"; done
  if [ "$N" -ge 3 ]; then rf=3; minisr=2; else rf=1; minisr=1; fi
  cat > "$STATE/log4j2.properties" <<'EOF'
status = warn
appender.file.type = File
appender.file.name = FILE
appender.file.fileName = ${sys:kafka.logs.dir}/server.log
appender.file.layout.type = PatternLayout
appender.file.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = INFO
rootLogger.appenderRef.file.ref = FILE
logger.request.name = kafka.request.logger
logger.request.level = WARN
logger.cleaner.name = kafka.log.LogCleaner
logger.cleaner.level = WARN
EOF
  for n in $(seq 1 "$N"); do
    mkdir -p "$STATE/node-$n/data" "$STATE/node-$n/logs"
    cat > "$STATE/node-$n/server.properties" <<EOF
# written by scripts/kafka-local.sh: node $n of $N, Apache Kafka $KAFKA_VERSION
process.roles=broker,controller
node.id=$n
# static quorum: 'format' needs neither --standalone nor --initial-controllers
controller.quorum.voters=$voters
$(listener_settings "$n" $secure)
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
log.dirs=$STATE/node-$n/data
num.partitions=1
default.replication.factor=$rf
min.insync.replicas=$minisr
offsets.topic.replication.factor=$rf
offsets.topic.num.partitions=3
transaction.state.log.replication.factor=$rf
transaction.state.log.min.isr=$minisr
share.coordinator.state.topic.replication.factor=$rf
share.coordinator.state.topic.min.isr=$minisr
auto.create.topics.enable=false
group.initial.rebalance.delay.ms=0
# a 2-core machine: few threads, a small cleaner buffer (the default 128 MiB comes out of the heap)
num.network.threads=2
num.io.threads=2
background.threads=2
num.replica.fetchers=1
num.recovery.threads.per.data.dir=1
log.cleaner.threads=1
log.cleaner.dedupe.buffer.size=16777216
# faster failure detection for fault tests (defaults 30000 / 9000 / 2000)
replica.lag.time.max.ms=5000
broker.session.timeout.ms=6000
broker.heartbeat.interval.ms=1000
EOF
  done
}

# ---- security: the one-node cluster's SASL_PLAINTEXT and SSL listeners -----------------------------
make_sasl_credentials() {  # one user for PLAIN and SCRAM-SHA-256/512, a fresh random password per `up`
  local password
  # Letters and digits only: it is written into a JAAS config and into --add-scram's [name=,password=].
  password=$(head -c 64 /dev/urandom | base64 | tr -dc 'A-Za-z0-9' | head -c 24)
  printf 'username=status-store\npassword=%s\n' "$password" > "$STATE/sasl-credentials"
  chmod 600 "$STATE/sasl-credentials"
}

make_tls_material() {  # a throwaway CA and a broker certificate for 127.0.0.1 signed by it
  local tls=$STATE/tls store_password
  command -v openssl >/dev/null || die "openssl not found (scripts/install-deps.sh installs it)"
  mkdir -p "$tls"
  store_password=$(head -c 32 /dev/urandom | base64 | tr -dc 'A-Za-z0-9' | head -c 16)
  echo "$store_password" > "$tls/keystore-password"
  # EC keys: generated instantly, where RSA takes seconds on a busy 2-core machine. The broker
  # certificate names IP 127.0.0.1, so librdkafka's default hostname verification (https) passes.
  {
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 7 \
      -subj "/CN=status-store kafka-local test CA" -keyout "$tls/ca.key" -out "$tls/ca.pem" \
      -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign
    openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "/CN=localhost" \
      -keyout "$tls/broker.key" -out "$tls/broker.csr"
    printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' > "$tls/broker.ext"
    openssl x509 -req -in "$tls/broker.csr" -CA "$tls/ca.pem" -CAkey "$tls/ca.key" -CAcreateserial -days 7 \
      -extfile "$tls/broker.ext" -out "$tls/broker.pem"
    # PKCS12, which Java reads natively (a JKS keystore would need keytool's extra steps).
    openssl pkcs12 -export -in "$tls/broker.pem" -inkey "$tls/broker.key" -certfile "$tls/ca.pem" \
      -name broker -out "$tls/broker.p12" -passout "pass:$store_password"
  } > "$tls/openssl.log" 2>&1 || { cat "$tls/openssl.log" >&2; die "could not make the TLS test certificates"; }
}

listener_settings() {  # listener_settings N SECURE: listeners of node N, with the SASL and SSL ones if SECURE=1
  local n=$1 secure=$2
  if [ "$secure" != 1 ]; then
    cat <<EOF
listeners=PLAINTEXT://127.0.0.1:$(port "$n"),CONTROLLER://127.0.0.1:$(cport "$n")
advertised.listeners=PLAINTEXT://127.0.0.1:$(port "$n")
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
EOF
    return
  fi
  local sasl ssl user password
  sasl=$(secure_port sasl); ssl=$(secure_port ssl)
  user=$(sasl_credential username); password=$(sasl_credential password)
  cat <<EOF
listeners=PLAINTEXT://127.0.0.1:$(port "$n"),CONTROLLER://127.0.0.1:$(cport "$n"),SASL_PLAINTEXT://127.0.0.1:$sasl,SSL://127.0.0.1:$ssl
advertised.listeners=PLAINTEXT://127.0.0.1:$(port "$n"),SASL_PLAINTEXT://127.0.0.1:$sasl,SSL://127.0.0.1:$ssl
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT,SSL:SSL
# SASL_PLAINTEXT: PLAIN checks the user_<name> entries of its JAAS config; SCRAM-SHA-256 and -512
# check the credentials that 'format --add-scram' stored in the cluster metadata.
listener.name.sasl_plaintext.sasl.enabled.mechanisms=PLAIN,SCRAM-SHA-256,SCRAM-SHA-512
listener.name.sasl_plaintext.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required user_$user="$password";
listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
# SSL: server authentication only (no client certificates)
listener.name.ssl.ssl.keystore.type=PKCS12
listener.name.ssl.ssl.keystore.location=$STATE/tls/broker.p12
listener.name.ssl.ssl.keystore.password=$(cat "$STATE/tls/keystore-password")
listener.name.ssl.ssl.client.auth=none
EOF
}

check_secure_listeners() {  # kcat reads metadata through each secure listener
  # PLAIN only: kcat uses Debian 12's librdkafka 2.0.2, whose SCRAM Kafka >= 3.7.2 refuses (see
  # scripts/build-librdkafka.sh); the system tests log in with SCRAM through status-store itself.
  # The password goes in a file, not on kcat's command line, where ps would show it.
  printf 'security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\nsasl.username=%s\nsasl.password=%s\n' \
    "$(sasl_credential username)" "$(sasl_credential password)" > "$STATE/kcat-sasl.conf"
  kcat -F "$STATE/kcat-sasl.conf" -b "$(listener_bootstrap sasl)" -L -m 10 > /dev/null 2>&1 \
    || die "the SASL_PLAINTEXT listener refused PLAIN; logs in $STATE/node-1/logs"
  rm -f "$STATE/kcat-sasl.conf"
  kcat -X security.protocol=SSL -X ssl.ca.location="$STATE/tls/ca.pem" -b "$(listener_bootstrap ssl)" -L -m 10 > /dev/null 2>&1 \
    || die "the SSL listener did not verify against $STATE/tls/ca.pem; logs in $STATE/node-1/logs"
  log "SASL_PLAINTEXT (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512) at $(listener_bootstrap sasl) and SSL at $(listener_bootstrap ssl) answer"
}
