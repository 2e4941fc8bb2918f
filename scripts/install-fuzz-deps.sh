#!/usr/bin/env bash
# Installs what scripts/fuzz.sh needs on top of scripts/install-deps.sh, from Debian's packages only:
# clang 14 and its compiler-rt runtimes (libFuzzer, ASan, UBSan). Kept out of install-deps.sh so the
# main build and the demo do not pay for a second compiler. Idempotent, like install-deps.sh.
set -euo pipefail

packages=(
  clang-14            # the compiler: libFuzzer needs -fsanitize=fuzzer, which g++ does not have
  libclang-rt-14-dev  # compiler-rt: libclang_rt.fuzzer*, asan, ubsan runtimes for clang 14
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-fuzz-deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "install-fuzz-deps: installing ${missing[*]}"
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -q
"${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
