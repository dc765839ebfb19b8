#!/usr/bin/env bash
# Installs the Debian packages tengen needs to build and test. As root it runs
# apt-get; otherwise it prints the exact command and exits non-zero.
set -eu
packages=(
    build-essential clang pkg-config make
    libcmocka-dev libjansson-dev libcivetweb-dev libncurses-dev
    tmux
)
# Browser tests (tests/e2e) drive Debian's chromium through playwright-core.
if [ -d "$(dirname "$0")/../tests/e2e" ]; then
    packages+=(chromium)
    command -v npm >/dev/null 2>&1 || packages+=(nodejs npm)
fi
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    echo "deps: all packages present"
    exit 0
fi
cmd="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
    echo "deps: missing packages; run as root:" >&2
    echo "  apt-get update && $cmd" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
$cmd
