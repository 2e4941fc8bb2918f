#!/usr/bin/env bash
# The house rules anyone can run (docs/testing.md#house-rules); scripts/test.sh runs it after the
# format check. Fails on: a function over 60 lines under actors/ or app/store/, a source file over
# 400 lines, a README over 300 lines, or a repeated run of code across actors/, config/ and app/
# that the workplace's `duplicates` does not call boilerplate and scripts/house-duplicates.allow
# does not keep on purpose.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
python3 scripts/house_checks.py || status=1

folders='(actors|config|app)/'
if command -v duplicates >/dev/null; then
  report=$(duplicates --most 200 --seconds 120)
  incomplete=$(grep '^incomplete:' <<<"$report" || true)
  [ -z "$incomplete" ] || { echo "duplicates did not read the whole tree: $incomplete"; status=1; }
  # A row is 'Dn a:lines ~ b:lines [shape] [boilerplate] ...'; both sides in the product folders.
  ours=$(grep -E "^D[0-9]+ $folders[^ ]+ ~ $folders" <<<"$report" || true)
  repeated=$(grep -v ' boilerplate' <<<"$ours" || true)
  # Pairs kept on purpose (scripts/house-duplicates.allow): matched by their two files.
  kept=0
  allowed=$(grep -v '^#' scripts/house-duplicates.allow | sed 's/ *#.*//' | grep . || true)
  while IFS= read -r pair; do
    [ -n "$pair" ] || continue
    a=${pair%% ~ *} b=${pair##* ~ }
    row="^D[0-9]+ ($a:[0-9-]+ ~ $b|$b:[0-9-]+ ~ $a):"  # either order
    if grep -qE "$row" <<<"$repeated"; then
      repeated=$(grep -vE "$row" <<<"$repeated" || true)
      kept=$((kept + 1))
    else
      echo "scripts/house-duplicates.allow: '$pair' is no longer listed by duplicates; remove the entry"
      status=1
    fi
  done <<<"$allowed"
  if [ -n "$repeated" ]; then
    echo "code written twice in actors/, config/ or app/ (make it one piece of code, or say in"
    echo "scripts/house-duplicates.allow why it stays):"
    echo "$repeated"
    status=1
  fi
  echo "duplicates: $(grep -c . <<<"$ours" || true) pair(s) inside actors/, config/ and app/, $kept kept on purpose (scripts/house-duplicates.allow), $(grep -c . <<<"$repeated" || true) not boilerplate"
else
  # The command belongs to the developers' workplace, not to the repository (its README: call it,
  # do not copy it); elsewhere this part cannot run and says so.
  echo "duplicates: NOT CHECKED (the workplace command 'duplicates' is not on this machine's PATH)"
fi
exit $status
