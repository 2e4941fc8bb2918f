# Shared by the executable's end-to-end scripts (tests/app/*.sh, tests/system/secrets_test.sh):
# a scratch directory, a background service killed on exit, pass/fail counting, and `check`, which
# runs a command and wants an exit code and an output pattern. Every checked output is also kept in
# $all_output, so a script can grep everything it saw (e.g. for a secret). Source it after `set -uo
# pipefail`; finish with `summary`.
tmp=$(mktemp -d)
service_pid=""
cleanup() {
  [ -n "$service_pid" ] && kill -KILL "$service_pid" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
passed=0
failed=0
all_output=""
ok() { passed=$((passed + 1)); echo "ok   $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1"; [ -n "${2:-}" ] && sed 's/^/     | /' <<<"$2" | tail -n 25; }
check() {  # check NAME EXPECTED_EXIT PATTERN -- command...
  local name=$1 want=$2 pattern=$3
  shift 4
  local out rc
  out=$("$@" 2>&1)
  rc=$?
  all_output+="$out"$'\n'
  if [ "$rc" -eq "$want" ] && grep -qE -- "$pattern" <<<"$out"; then ok "$name"; else fail "$name: exit $rc (wanted $want), pattern '$pattern'" "$out"; fi
}
summary() {  # the script's exit status: 0 only if nothing failed
  echo
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}
# start_service NAME ARGS...: `$bin run ARGS...` in the background ($service_pid, output in
# $tmp/NAME.out and .err); waits for its endpoint line and sets $port and $bs (the bootstrap servers it
# prints, the embedded mock cluster's ports). False if it did not start.
start_service() {
  local name=$1
  shift
  "$bin" run "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" &
  service_pid=$!
  for _ in $(seq 1 100); do grep -q "HTTP on" "$tmp/$name.out" 2>/dev/null && break; sleep 0.1; done
  port=$(grep -oE "http://127.0.0.1:[0-9]+" "$tmp/$name.out" | sed 's/.*://')
  bs=$(grep -oE "on [0-9.:,]+;" "$tmp/$name.out" | sed 's/^on //; s/;$//')
  [ -n "$port" ] && [ -n "$bs" ]
}
