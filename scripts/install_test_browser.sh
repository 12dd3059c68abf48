#!/bin/sh
# Install what the browser tests (pytest -m browser, tests/review/test_browser.py) drive: Debian's
# headless Chromium and its chromedriver. Idempotent: does nothing when both are there. Uses apt-get
# as root, or through sudo; otherwise says what to install and exits non-zero. Nothing else is
# downloaded: Selenium is pointed at /usr/bin/chromium and /usr/bin/chromedriver by the tests.
set -eu
if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
    exit 0
fi
if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO="sudo -n"
else
    echo "install_test_browser.sh: the browser tests need Debian's chromium and chromium-driver;" >&2
    echo "  run as root (or with sudo): apt-get install -y chromium chromium-driver" >&2
    exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "install_test_browser.sh: no apt-get here; install Chromium and a matching chromedriver as" >&2
    echo "  /usr/bin/chromium and /usr/bin/chromedriver (or set NOTESCRUB_CHROMIUM / NOTESCRUB_CHROMEDRIVER)" >&2
    exit 1
fi
echo "install_test_browser.sh: installing chromium and chromium-driver with apt-get" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq chromium chromium-driver >/dev/null
if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
    echo "install_test_browser.sh: apt-get finished but /usr/bin/chromium or /usr/bin/chromedriver is missing" >&2
    exit 1
fi
