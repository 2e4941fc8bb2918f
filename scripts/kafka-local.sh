#!/usr/bin/env bash
# kafka-local.sh — real Apache Kafka brokers on 127.0.0.1 for the system tests: 1 or 3 KRaft nodes
# (each a combined broker + controller), fetched from Maven Central as jars, on free ports picked at
# run time, tracked by PID, and stopped, killed and restarted on demand for fault tests.
#
#   scripts/kafka-local.sh fetch               resolve the broker jars into the cache (once per machine)
#   scripts/kafka-local.sh up [1|3]            fetch, wipe the state dir, pick ports, format, start, wait
#   scripts/kafka-local.sh run [1|3] -- CMD..  up, run CMD with the cluster's variables exported, and
#                                              always take the cluster down afterwards (exit code of CMD)
#   scripts/kafka-local.sh start [N|all]       start formatted node(s) again (no re-format) and wait
#   scripts/kafka-local.sh stop  [N|all]       SIGTERM (controlled shutdown), SIGKILL after a timeout
#   scripts/kafka-local.sh kill N              SIGKILL: a crash
#   scripts/kafka-local.sh pause N             SIGSTOP: a hung node (its connections stay open, nothing answers)
#   scripts/kafka-local.sh resume N            SIGCONT: the hung node carries on
#   scripts/kafka-local.sh restart N           stop N, then start N
#   scripts/kafka-local.sh down                stop every node (data kept)
#   scripts/kafka-local.sh wipe                down, then delete the state dir
#   scripts/kafka-local.sh bootstrap [LISTENER] print host:port,... of every node (LISTENER: plaintext,
#                                              the default, or sasl / ssl: the one-node cluster's extra
#                                              listeners)
#   scripts/kafka-local.sh status              one line per node: pid, port, running or not
#
# Environment:
#   KAFKA_VERSION        org.apache.kafka:kafka_2.13 version (default 4.4.0, the newest on Maven Central)
#   STATUS_STORE_CACHE   jar cache, outside the repo (default ~/.cache/status-store); the jars go to
#                        $STATUS_STORE_CACHE/kafka-<version>/lib and are kept between runs
#   KAFKA_LOCAL_DIR      state: configs, data, logs, pid files (default <repo>/build/kafka-local)
#   KAFKA_HEAP_OPTS      JVM heap per node (default -Xms128m -Xmx512m for 1 node, -Xmx384m for 3)
#   KAFKA_STOP_TIMEOUT   seconds a node gets to stop after SIGTERM before SIGKILL (default 30)
#   KAFKA_READY_TIMEOUT  seconds to wait for readiness (default 120)
#
# `run` exports STATUS_STORE_BOOTSTRAP (the bootstrap servers), STATUS_STORE_KAFKA_NODES (1 or 3),
# STATUS_STORE_KAFKA_LOCAL (this script's path), KAFKA_LOCAL_DIR and KAFKA_VERSION, so a test can
# stop, kill and restart nodes itself.
#
# A one-node cluster also has two authenticated listeners for the security tests, and `run` exports
# what a client needs for them:
#   STATUS_STORE_SASL_BOOTSTRAP   SASL_PLAINTEXT listener, mechanisms PLAIN, SCRAM-SHA-256 and SCRAM-SHA-512
#   STATUS_STORE_SSL_BOOTSTRAP    SSL listener (server authentication only)
#   STATUS_STORE_SSL_CA           PEM file of the throwaway CA that signed the broker's certificate
#                                 (made at `up`; the certificate is for IP 127.0.0.1 and localhost)
#   STATUS_STORE_SASL_USERNAME, STATUS_STORE_SASL_PASSWORD
#                                 the one user every mechanism accepts (PLAIN from the listener's JAAS
#                                 config, SCRAM-SHA-256 and -512 from the credentials added at format
#                                 time); the password is random per `up`
# Three-node clusters have the PLAINTEXT listener only.
#
# Only processes whose PIDs this script recorded are ever signalled, and only after checking that
# the PID still runs this state dir's broker (never `pkill -f kafka`). Needs Java 17+, Maven 3.8+
# (Maven Central on the first fetch only), kcat and openssl.
set -euo pipefail

script_path=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$(basename "${BASH_SOURCE[0]}")
repo_root=$(cd "$(dirname "$script_path")/.." && pwd)

KAFKA_VERSION=${KAFKA_VERSION:-4.4.0}
# The broker POM brings log4j-api/-core 2.25.x and slf4j-api 1.7.36 but no slf4j binding: without
# log4j-slf4j-impl (the slf4j 1.7 binding; not -slf4j2-impl) the broker logs nothing at all.
LOG4J_VERSION=${LOG4J_VERSION:-2.25.5}
home=${HOME:-$(cd ~ && pwd)}  # CI may run without HOME; ~ then comes from the passwd entry
CACHE_ROOT=${STATUS_STORE_CACHE:-${XDG_CACHE_HOME:-$home/.cache}/status-store}
KAFKA_HOME=$CACHE_ROOT/kafka-$KAFKA_VERSION
LIB=$KAFKA_HOME/lib
STATE=${KAFKA_LOCAL_DIR:-$repo_root/build/kafka-local}
STOP_TIMEOUT=${KAFKA_STOP_TIMEOUT:-30}
READY_TIMEOUT=${KAFKA_READY_TIMEOUT:-120}
JAVA=${JAVA:-java}
# kafka-run-class.sh's GC flags, plus C1 only (-XX:TieredStopAtLevel=1): on 2 cores it halves the
# time a node takes to start (13 s -> 6-7 s measured), which every restart in the fault tests pays;
# a test broker does not need C2's peak throughput.
JVM_OPTS=${KAFKA_JVM_OPTS:--XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:InitiatingHeapOccupancyPercent=35 -XX:+ExplicitGCInvokesConcurrent -XX:TieredStopAtLevel=1}

log() { echo "kafka-local: $*" >&2; }
die() { log "error: $*"; exit 1; }

# ---- fetch: jars from Maven Central into the cache ------------------------------------------------
complete() { [ -f "$KAFKA_HOME/.complete" ] && [ -f "$LIB/kafka-tools-$KAFKA_VERSION.jar" ]; }  # (older caches lack tools)
fetch() {
  if complete; then return 0; fi
  command -v mvn >/dev/null || die "mvn not found (scripts/install-deps.sh installs maven)"
  mkdir -p "$CACHE_ROOT"
  # One fetch at a time per cache (two test runs on one machine); the second finds .complete.
  exec 8>"$CACHE_ROOT/.kafka-$KAFKA_VERSION.lock"
  flock 8
  if complete; then exec 8>&-; return 0; fi
  local started=$SECONDS work jar
  work=$(mktemp -d "$CACHE_ROOT/.fetch-XXXXXX")
  cat > "$work/pom.xml" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>status-store.local</groupId>
  <artifactId>kafka-broker-runtime</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <!-- kafka.Kafka and kafka.tools.StorageTool; the broker's own dependencies have runtime scope -->
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka_2.13</artifactId><version>$KAFKA_VERSION</version></dependency>
    <!-- org.apache.kafka.tools.ConfigCommand: adds SCRAM users to a running cluster (the system tests) -->
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka-tools</artifactId><version>$KAFKA_VERSION</version></dependency>
    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-slf4j-impl</artifactId><version>$LOG4J_VERSION</version></dependency>
  </dependencies>
</project>
EOF
  log "fetching Apache Kafka $KAFKA_VERSION broker jars with Maven into $LIB"
  if ! (cd "$work" && mvn -B -q -Dstyle.color=never org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy-dependencies \
          -DoutputDirectory=lib -DincludeScope=runtime); then
    rm -rf "$work"
    die "Maven could not resolve org.apache.kafka:kafka_2.13:$KAFKA_VERSION"
  fi
  for jar in kafka_2.13 kafka-tools; do
    [ -f "$work/lib/$jar-$KAFKA_VERSION.jar" ] || { rm -rf "$work"; die "$jar-$KAFKA_VERSION.jar missing after fetch"; }
  done
  if ls "$work"/lib/slf4j-api-2.* >/dev/null 2>&1; then
    log "warning: slf4j-api 2.x resolved; the broker needs log4j-slf4j2-impl instead of log4j-slf4j-impl to log"
  fi
  rm -rf "$KAFKA_HOME"
  mkdir -p "$KAFKA_HOME"
  mv "$work/lib" "$LIB"
  mv "$work/pom.xml" "$KAFKA_HOME/pom.xml"
  rmdir "$work"
  touch "$KAFKA_HOME/.complete"
  log "fetched $(find "$LIB" -name '*.jar' | wc -l) jars ($(du -sh "$LIB" | cut -f1)) in $((SECONDS - started)) s"
  exec 8>&-
}

# ---- ports: free ones, below the kernel's ephemeral range so that no client connection can take a
# broker's port while it is stopped for a fault test and must come back on the same port ---------
# (reads /proc/net/tcp*, so no iproute2 is needed: any socket of any state bound to the port counts)
port_in_use() {
  local hex; hex=$(printf '%04X' "$1")
  cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | awk -v h=":$hex" 'NR > 1 && substr($2, length($2) - 4) == h { f = 1 } END { exit !f }'
}
pick_ports() {  # pick_ports COUNT: prints COUNT distinct free ports
  local count=$1 low high picked=() p tries=0
  read -r low _ < /proc/sys/net/ipv4/ip_local_port_range
  high=$((low - 1)); [ "$high" -gt 20000 ] || high=65000
  while [ ${#picked[@]} -lt "$count" ]; do
    tries=$((tries + 1)); [ $tries -lt 1000 ] || die "no free port found"
    p=$(shuf -i "20000-$high" -n 1)
    port_in_use "$p" && continue
    [[ " ${picked[*]} " == *" $p "* ]] && continue
    picked+=("$p")
  done
  echo "${picked[*]}"
}

# ---- state -----------------------------------------------------------------------------------------
nodes() { cat "$STATE/nodes" 2>/dev/null || echo 0; }
port() { sed -n "s/^$1 \([0-9]*\) [0-9]*$/\1/p" "$STATE/ports"; }
cport() { sed -n "s/^$1 [0-9]* \([0-9]*\)$/\1/p" "$STATE/ports"; }
bootstrap() {
  local b="" n
  for n in $(seq 1 "$(nodes)"); do b+="${b:+,}127.0.0.1:$(port "$n")"; done
  echo "$b"
}
secure_port() { sed -n "s/^$1 \([0-9]*\)$/\1/p" "$STATE/secure-ports" 2>/dev/null; }  # secure_port sasl|ssl
listener_bootstrap() {  # listener_bootstrap plaintext|sasl|ssl
  case $1 in
    plaintext) bootstrap ;;
    sasl|ssl) [ -s "$STATE/secure-ports" ] || die "no $1 listener: only a one-node cluster has one"
              echo "127.0.0.1:$(secure_port "$1")" ;;
    *) die "no listener '$1' (plaintext, sasl or ssl)" ;;
  esac
}
sasl_credential() { sed -n "s/^$1=//p" "$STATE/sasl-credentials"; }  # sasl_credential username|password
pid_of() { cat "$STATE/node-$1.pid" 2>/dev/null || true; }
# The recorded PID is ours only while it still runs kafka.Kafka on this node's config (PIDs get reused).
ours() { local p=$1 n=$2; [ -r "/proc/$p/cmdline" ] && tr '\0' ' ' < "/proc/$p/cmdline" | grep -qF "kafka.Kafka $STATE/node-$n/server.properties"; }
alive() { local p; p=$(pid_of "$1"); [ -n "$p" ] && ours "$p" "$1"; }
require_state() { [ -f "$STATE/nodes" ] || die "no cluster in $STATE (run: $0 up)"; }
check_node() { [[ "$1" =~ ^[0-9]+$ ]] && [ "$1" -ge 1 ] && [ "$1" -le "$(nodes)" ] || die "no node '$1' (nodes: 1..$(nodes))"; }

# write_configs, make_sasl_credentials, make_tls_material, listener_settings, check_secure_listeners
source "$(dirname "$script_path")/kafka-local-config.sh"

format() {  # one cluster id, every node formatted in parallel (a JVM start each: seconds on 2 cores)
  local N=$1 n cid pids=() failed=0
  # kafka.tools.StorageTool random-uuid is just 16 random bytes in unpadded URL-safe base64; making it
  # here saves a JVM start. Like Kafka's Uuid.randomUuid, draw again when it starts with '-': the
  # storage tool's argument parser would take "-t -xyz…" for an option (1 run in 64 failed so).
  cid=-
  while [[ $cid == -* ]]; do cid=$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '='); done
  echo "$cid" > "$STATE/cluster.id"
  local scram=()
  if [ -s "$STATE/sasl-credentials" ]; then
    scram=(--add-scram "SCRAM-SHA-256=[name=$(sasl_credential username),password=$(sasl_credential password)]"
           --add-scram "SCRAM-SHA-512=[name=$(sasl_credential username),password=$(sasl_credential password)]")
  fi
  for n in $(seq 1 "$N"); do
    "$JAVA" -XX:TieredStopAtLevel=1 -Dlog4j2.configurationFile="$STATE/log4j2.properties" \
      -Dkafka.logs.dir="$STATE/node-$n/logs" -cp "$LIB/*" kafka.tools.StorageTool format -t "$cid" \
      -c "$STATE/node-$n/server.properties" "${scram[@]}" > "$STATE/node-$n/logs/format.log" 2>&1 &
    pids+=($!)
  done
  for n in $(seq 1 "$N"); do
    if ! wait "${pids[$((n - 1))]}"; then cat "$STATE/node-$n/logs/format.log" >&2; log "format of node $n failed"; failed=1; fi
  done
  [ $failed = 0 ] || die "formatting failed"
}

heap() {
  if [ -n "${KAFKA_HEAP_OPTS:-}" ]; then echo "$KAFKA_HEAP_OPTS"
  elif [ "$(nodes)" -ge 3 ]; then echo "-Xms128m -Xmx384m"
  else echo "-Xms128m -Xmx512m"; fi
}

start_one() {
  local n=$1 p
  if alive "$n"; then log "node $n already running (pid $(pid_of "$n"))"; return 0; fi
  [ -f "$STATE/node-$n/data/meta.properties" ] || die "node $n is not formatted (run: $0 up)"
  # kafka-run-class.sh's JVM flags; exec so that $! is the JVM itself; every descriptor redirected so
  # that a caller waiting on its pipes (ctest, a test's std::system) is never held open by the broker.
  # shellcheck disable=SC2046
  ( exec "$JAVA" $(heap) $JVM_OPTS -Djava.awt.headless=true -Djava.net.preferIPv4Stack=true \
      -Dkafka.logs.dir="$STATE/node-$n/logs" -Dlog4j2.configurationFile="$STATE/log4j2.properties" \
      -cp "$LIB/*" kafka.Kafka "$STATE/node-$n/server.properties" \
      > "$STATE/node-$n/logs/stdout.log" 2>&1 < /dev/null 8>&- 9>&- ) &
  p=$!
  disown "$p" 2>/dev/null || true  # no "Killed" job notice from this shell when a test kills the node
  echo "$p" > "$STATE/node-$n/pid.tmp" && mv "$STATE/node-$n/pid.tmp" "$STATE/node-$n.pid"
  # Until the subshell has exec'd the JVM, /proc/$p/cmdline is bash's and alive() would say no.
  local i
  for i in $(seq 100); do ours "$p" "$n" && break; kill -0 "$p" 2>/dev/null || break; sleep 0.05; done
  log "node $n started: pid $p, 127.0.0.1:$(port "$n")"
}

wait_ready() {  # every running node answers metadata listing every running node
  local want=0 deadline=$((SECONDS + READY_TIMEOUT)) n started=$SECONDS
  for n in $(seq 1 "$(nodes)"); do alive "$n" && want=$((want + 1)); done
  [ "$want" -gt 0 ] || die "no node is running"
  for n in $(seq 1 "$(nodes)"); do
    alive "$n" || continue
    until [ "$(kcat -b "127.0.0.1:$(port "$n")" -L -m 2 2>/dev/null | grep -c '^  broker ')" -ge "$want" ]; do
      alive "$n" || { tail -20 "$STATE/node-$n/logs/stdout.log" "$STATE/node-$n/logs/server.log" >&2 2>/dev/null; die "node $n died; logs in $STATE/node-$n/logs"; }
      [ $SECONDS -lt $deadline ] || die "node $n not ready within $READY_TIMEOUT s; logs in $STATE/node-$n/logs"
      sleep 0.25
    done
  done
  log "ready in $((SECONDS - started)) s: $(bootstrap) ($want of $(nodes) node(s) up)"
}

signal_and_wait() {  # signal_and_wait N SIGNAL: signal, then wait for the JVM to exit (KILL after the timeout)
  local n=$1 sig=$2 p waited=0
  p=$(pid_of "$n")
  if [ -z "$p" ]; then log "node $n is not running"; return 0; fi
  if ! ours "$p" "$n"; then rm -f "$STATE/node-$n.pid"; log "node $n (pid $p) has exited"; return 0; fi
  kill "-$sig" "$p" 2>/dev/null || true
  kill -CONT "$p" 2>/dev/null || true  # a paused node could not act on SIGTERM
  while ours "$p" "$n"; do
    if [ "$sig" != KILL ] && [ $waited -ge $((STOP_TIMEOUT * 10)) ]; then
      log "node $n (pid $p) still up $STOP_TIMEOUT s after SIG$sig: SIGKILL"
      kill -KILL "$p" 2>/dev/null || true
      sig=KILL
    fi
    sleep 0.1; waited=$((waited + 1))
  done
  rm -f "$STATE/node-$n.pid"
  log "node $n (pid $p) stopped by SIG$sig after $((waited / 10)).$((waited % 10)) s"
}

send_signal() {  # send_signal N SIGNAL: signal a running node and return at once (pause, resume)
  local n=$1 sig=$2 p
  p=$(pid_of "$n")
  { [ -n "$p" ] && ours "$p" "$n"; } || die "node $n is not running"
  kill "-$sig" "$p"
  log "node $n (pid $p): SIG$sig"
}

each_node() {  # each_node N|all FUNCTION [ARGS]
  local which=$1 fn=$2 n; shift 2
  if [ "$which" = all ]; then for n in $(seq 1 "$(nodes)"); do "$fn" "$n" "$@"; done
  else check_node "$which"; "$fn" "$which" "$@"; fi
}

down() {
  [ -f "$STATE/nodes" ] || return 0
  local n
  # TERM every node at once (the last nodes of a quorum may otherwise wait for each other), then wait.
  for n in $(seq 1 "$(nodes)"); do alive "$n" && kill -TERM "$(pid_of "$n")" 2>/dev/null || true; done
  for n in $(seq 1 "$(nodes)"); do [ -z "$(pid_of "$n")" ] || signal_and_wait "$n" TERM; done
}

up() {
  local N=${1:-1} started=$SECONDS
  [ "$N" = 1 ] || [ "$N" = 3 ] || die "a cluster has 1 or 3 nodes, not '$N'"
  command -v kcat >/dev/null || die "kcat not found (scripts/install-deps.sh installs it)"
  "$JAVA" -version >/dev/null 2>&1 || die "java not found (scripts/install-deps.sh installs openjdk-17-jdk-headless)"
  fetch
  down
  rm -rf "$STATE"
  mkdir -p "$STATE"
  echo "$KAFKA_VERSION" > "$STATE/version"
  echo "$N" > "$STATE/nodes"
  write_configs "$N"
  format "$N"
  each_node all start_one
  wait_ready
  [ ! -s "$STATE/secure-ports" ] || check_secure_listeners
  log "Apache Kafka $KAFKA_VERSION: $N node(s) up in $((SECONDS - started)) s at $(bootstrap); state in $STATE"
}

run() {
  local N=1
  if [ $# -gt 0 ] && [ "$1" != -- ]; then N=$1; shift; fi
  [ "${1:-}" = -- ] && shift
  [ $# -gt 0 ] || die "usage: $0 run [1|3] -- COMMAND [ARGS]"
  # Two runs on one state dir (two scripts/test.sh in one tree) take turns instead of wiping each
  # other's cluster. The brokers never inherit descriptor 9 (start_one closes it).
  mkdir -p "$(dirname "$STATE")"
  exec 9>"$STATE.lock"
  flock -n 9 || { log "another run uses $STATE; waiting for it"; flock 9; }
  trap 'down' EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  up "$N"
  export STATUS_STORE_BOOTSTRAP STATUS_STORE_KAFKA_NODES=$N STATUS_STORE_KAFKA_LOCAL=$script_path \
         KAFKA_LOCAL_DIR=$STATE KAFKA_VERSION
  STATUS_STORE_BOOTSTRAP=$(bootstrap)
  if [ -s "$STATE/secure-ports" ]; then
    export STATUS_STORE_SASL_BOOTSTRAP STATUS_STORE_SSL_BOOTSTRAP STATUS_STORE_SSL_CA=$STATE/tls/ca.pem \
           STATUS_STORE_SASL_USERNAME STATUS_STORE_SASL_PASSWORD
    STATUS_STORE_SASL_BOOTSTRAP=$(listener_bootstrap sasl)
    STATUS_STORE_SSL_BOOTSTRAP=$(listener_bootstrap ssl)
    STATUS_STORE_SASL_USERNAME=$(sasl_credential username)
    STATUS_STORE_SASL_PASSWORD=$(sasl_credential password)
  fi
  local rc=0
  "$@" || rc=$?
  exit $rc
}

status() {
  require_state
  local n
  for n in $(seq 1 "$(nodes)"); do
    if alive "$n"; then echo "node $n pid $(pid_of "$n") 127.0.0.1:$(port "$n") running"
    else echo "node $n 127.0.0.1:$(port "$n") stopped"; fi
  done
}

cmd=${1:-}; [ $# -gt 0 ] && shift
case $cmd in
  fetch) fetch; echo "$LIB" ;;
  up) up "${1:-1}" ;;
  run) run "$@" ;;
  start) require_state; each_node "${1:-all}" start_one; wait_ready ;;
  stop) require_state; if [ "${1:-all}" = all ]; then down; else each_node "$1" signal_and_wait TERM; fi ;;
  kill) require_state; [ $# -ge 1 ] || die "usage: $0 kill N"; each_node "$1" signal_and_wait KILL ;;
  pause) require_state; [ $# -ge 1 ] || die "usage: $0 pause N"; each_node "$1" send_signal STOP ;;
  resume) require_state; [ $# -ge 1 ] || die "usage: $0 resume N"; each_node "$1" send_signal CONT ;;
  restart) require_state; [ $# -ge 1 ] || die "usage: $0 restart N"
           each_node "$1" signal_and_wait TERM; each_node "$1" start_one; wait_ready ;;
  down) down ;;
  wipe) down; rm -rf "$STATE" ;;
  bootstrap) require_state; listener_bootstrap "${1:-plaintext}" ;;
  status) status ;;
  *) sed -n '2,/^set -euo/p' "$script_path" | sed '$d' | sed 's/^# \{0,1\}//'; [ -z "$cmd" ] || [ "$cmd" = help ] || [ "$cmd" = --help ] || exit 2 ;;
esac
