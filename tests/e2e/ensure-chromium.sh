#!/usr/bin/env bash
# End-to-end tests drive Debian's Chromium; never a downloaded browser.
# Installs the Debian package when it is missing and we can (root with apt-get); otherwise says how.
set -euo pipefail
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Chromium is missing: installing Debian's chromium package (one time)..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null
  [ -x "$CHROMIUM" ] && exit 0
fi
echo "Chromium is needed for the end-to-end tests and is not installed at $CHROMIUM." >&2
echo "Install it with: sudo apt-get update && sudo apt-get install -y --no-install-recommends chromium" >&2
echo "(or set CHROMIUM_PATH to a Chromium binary)." >&2
exit 1
