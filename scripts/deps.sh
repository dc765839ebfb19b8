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
    echo "deps: all Debian packages present"
else
    cmd="apt-get install -y --no-install-recommends ${missing[*]}"
    if [ "$(id -u)" -ne 0 ]; then
        echo "deps: missing packages; run as root:" >&2
        echo "  apt-get update && $cmd" >&2
        exit 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    $cmd
fi
# npm packages of the browser tests (package.json, locked in package-lock.json).
top="$(dirname "$0")/.."
if [ -f "$top/package.json" ] && [ ! -d "$top/node_modules/playwright-core" ]; then
    (cd "$top" && npm ci --no-audit --no-fund)
fi
