#!/usr/bin/env bash
# Formats every tracked C++ file with .clang-format (clang-format-14, Debian's `clang-format`).
# Usage: scripts/format.sh           rewrite the files in place
#        scripts/format.sh --check   change nothing; list the files that are not formatted, exit 1 if any
set -euo pipefail
cd "$(dirname "$0")/.."

mode=fix
case "${1:-}" in
  "") ;;
  --check) mode=check ;;
  -h|--help) sed -n '2,4p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "format.sh: unknown option '$1' (use --check)" >&2; exit 2 ;;
esac

clang_format=""
for candidate in clang-format-14 clang-format; do
  if command -v "$candidate" >/dev/null; then clang_format=$candidate; break; fi
done
if [ -z "$clang_format" ]; then
  echo "format.sh: clang-format-14 not found; run scripts/install-deps.sh" >&2
  exit 2
fi
# Another major version formats some constructs differently: the check would flap between machines.
if ! "$clang_format" --version | grep -q 'version 14\.'; then
  echo "format.sh: $clang_format is not version 14 ($("$clang_format" --version)); install Debian 12's clang-format" >&2
  exit 2
fi

mapfile -t files < <(git ls-files -- '*.cpp' '*.hpp' '*.h')
if [ "$mode" = fix ]; then
  printf '%s\0' "${files[@]}" | xargs -0 -n 50 "$clang_format" -i --style=file
  echo "format.sh: formatted ${#files[@]} files"
  exit 0
fi

unformatted=()
for f in "${files[@]}"; do
  "$clang_format" --style=file --dry-run --Werror "$f" >/dev/null 2>&1 || unformatted+=("$f")
done
if [ ${#unformatted[@]} -gt 0 ]; then
  printf '%s\n' "${unformatted[@]}"
  echo "format.sh: ${#unformatted[@]} of ${#files[@]} files are not formatted; run scripts/format.sh" >&2
  exit 1
fi
echo "format.sh: all ${#files[@]} files formatted"
