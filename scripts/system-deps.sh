#!/usr/bin/env bash
# Installs the Debian packages the test suite drives for real:
#   chromium    headless browser, to open the built library site as a reader would
#   prometheus  server and promtool, for the Prometheus source tests
#   victoria-metrics  the same tests against a second server that speaks the Prometheus API
# Needs root and apt-get. Elsewhere it says what to install and exits 0, so the tests
# that need a package skip with a message naming it.
set -euo pipefail

packages=(chromium prometheus victoria-metrics)

missing=()
for pkg in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "system-deps: all present (${packages[*]})"
  exit 0
fi
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
  echo "system-deps: missing ${missing[*]}; install them with your package manager (as root: apt-get install ${missing[*]})" >&2
  exit 0
fi
echo "system-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "${missing[@]}" >/dev/null
echo "system-deps: installed ${missing[*]}"
