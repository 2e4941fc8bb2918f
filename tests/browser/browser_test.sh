#!/usr/bin/env bash
# The `browser` label: the status page in Debian's headless Chromium, driven by Selenium from the
# virtual environment scripts/install-browser-deps.sh makes (tests/browser/status_page_test.py).
# Without a browser it prints why and exits 77, which CTest reports as skipped, never as passed; with
# STATUS_STORE_REQUIRE_BROWSER=1 (scripts/test.sh, so CI) a missing browser fails the test instead.
# Usage: browser_test.sh PATH/TO/status-store SOURCE_DIR BUILD_DIR PATH/TO/browser_fleet_writer
set -uo pipefail
bin=$1
src=$2
build=$3
fleet_writer=$4
python=${STATUS_STORE_BROWSER_PYTHON:-${STATUS_STORE_CACHE:-$HOME/.cache/status-store}/browser-venv/bin/python}
missing=""
[ -x /usr/bin/chromium ] || missing+=" /usr/bin/chromium (Debian's chromium)"
[ -x /usr/bin/chromedriver ] || missing+=" /usr/bin/chromedriver (Debian's chromium-driver)"
"$python" -c 'import selenium' 2>/dev/null || missing+=" Selenium in $python"
if [ -n "$missing" ]; then
  if [ "${STATUS_STORE_REQUIRE_BROWSER:-0}" = 1 ]; then
    echo "FAIL no browser to test the status page with:$missing (scripts/install-browser-deps.sh installs them)"
    exit 1
  fi
  echo "SKIPPED: no browser to test the status page with:$missing; run scripts/install-browser-deps.sh"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$src/tests/browser" && "$python" status_page_test.py "$bin" "$work" --fleet-writer "$fleet_writer" --screenshot "$build/status-page-test.png"
