#!/usr/bin/env bash
# Debian's Chromium for the console's browser tests (playwright-core drives it; no browser download).
# Run as root; safe to re-run (skips apt when the package is installed).
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
[ "$(id -u)" -eq 0 ] || { echo "run as root" >&2; exit 1; }
if ! dpkg-query -W -f='${Status}' chromium 2>/dev/null | grep -q 'install ok installed'; then
  apt-get update -q
  apt-get install -y -q chromium
fi
/usr/bin/chromium --version
