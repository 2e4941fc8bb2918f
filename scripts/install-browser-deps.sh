#!/usr/bin/env bash
# Installs what the `browser` tests need (docs/testing.md#the-status-page-in-a-real-browser): Debian's
# headless Chromium and its ChromeDriver, a font, and Selenium from PyPI in a virtual environment of its
# own (pinned, so every machine drives the browser with the same client). No browser is downloaded by a
# test tool: Selenium is given /usr/bin/chromium and /usr/bin/chromedriver. Idempotent; prints the
# virtual environment's python, which tests/browser/ runs. scripts/test.sh calls it.
set -euo pipefail

selenium_version=4.50.0
venv=${STATUS_STORE_CACHE:-$HOME/.cache/status-store}/browser-venv  # tests/browser/browser_test.sh looks here

packages=(chromium chromium-driver fonts-dejavu-core)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-browser-deps: installing ${missing[*]}" >&2
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -q >&2
  "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
fi

if ! "$venv/bin/python" -c "import selenium, sys; sys.exit(selenium.__version__ != '$selenium_version')" 2>/dev/null; then
  echo "install-browser-deps: selenium $selenium_version into $venv" >&2
  rm -rf "$venv"
  python3 -m venv "$venv" >&2
  "$venv/bin/python" -m pip install -q --disable-pip-version-check "selenium==$selenium_version" >&2
fi
echo "install-browser-deps: $(/usr/bin/chromium --version 2>/dev/null), $(/usr/bin/chromedriver --version 2>/dev/null | cut -d' ' -f1-2), selenium $selenium_version" >&2
echo "$venv/bin/python"
