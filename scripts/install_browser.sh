#!/usr/bin/env bash
# Install Debian's Chromium and ChromeDriver for the browser tests (tests/hitl/test_browser.py), when missing.
# Needs root (CI runs as root). Idempotent.
set -euo pipefail
if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium chromium-driver >/dev/null
