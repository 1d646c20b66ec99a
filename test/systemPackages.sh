#!/usr/bin/env bash
# The Debian packages the tests need, installed before the first test that uses them (`npm test` runs this first).
#   chromium            the webview tests (test/webview) and the VS Code workbench the integration tests drive
#   fonts-noto-cjk      Chinese and Japanese text in those screenshots (RGB's zh data, the seeds) instead of boxes
#   libkrb5-dev, pkg-config, g++, make, python3
#                       build code-server's native modules (kerberos, argon2) in `npm run e2e:setup`
# As root the missing ones are installed; otherwise this stops at once with the one command to run.
set -euo pipefail

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -e /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc ] || missing+=(fonts-noto-cjk)
[ -e /usr/include/gssapi/gssapi.h ] || missing+=(libkrb5-dev)
command -v pkg-config >/dev/null || missing+=(pkg-config)
command -v g++ >/dev/null || missing+=(g++)
command -v make >/dev/null || missing+=(make)
command -v python3 >/dev/null || missing+=(python3)
[ ${#missing[@]} -eq 0 ] && exit 0

command="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" != 0 ]; then
  echo "The tests need these Debian packages: ${missing[*]}. Install them, then run npm test again:" >&2
  echo "  sudo apt-get update && sudo $command" >&2
  exit 1
fi
echo "[test:system $(date +%T)] $command"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive $command -qq >/dev/null
