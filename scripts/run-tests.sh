#!/usr/bin/env bash
# Runs every test of one build: the cmocka unit tests, then the command-line and
# protocol scripts (TAP-style "ok"/"not ok" lines). Prints one closing line
# "tests: N passed, N failed, N skipped" (then each skip with its reason) and
# exits non-zero when anything failed.
set -u
build=${1:-build}
export TENGEN="$PWD/$build/tengen"
export PBRAIN="$PWD/$build/pbrain-tengen"
export TESTDATA="$PWD/tests/data"
passed=0 failed=0 skipped=0
log=$(mktemp)
skips=$(mktemp)
trap 'rm -f "$log" "$skips"' EXIT

for t in "$build"/tests/test_*; do
    [ -x "$t" ] || continue
    echo "== $t"
    "$t" >"$log" 2>&1
    rc=$?
    cat "$log"
    p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | awk '{s+=$1} END {print s+0}')
    f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | awk '{s+=$1} END {print s+0}')
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "!! $t exited with status $rc"
        f=1
    fi
    passed=$((passed + p)) failed=$((failed + f))
done

for t in tests/cli/test_*.sh tests/protocol/test_*.sh; do
    [ -f "$t" ] || continue
    echo "== $t"
    bash "$t" >"$log" 2>&1
    rc=$?
    cat "$log"
    s=$(grep -c '^ok .*# SKIP' "$log")
    p=$(($(grep -c '^ok ' "$log") - s))
    f=$(grep -c '^not ok ' "$log")
    skipped=$((skipped + s))
    grep '^ok .*# SKIP' "$log" >>"$skips"
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "!! $t exited with status $rc"
        f=1
    fi
    passed=$((passed + p)) failed=$((failed + f))
done

# Browser tests: tengen serve driven through Debian's chromium (playwright-core
# from npm). Both must be present: a missing one is a failure, not a skip.
for t in tests/e2e/test_*.mjs; do
    [ -f "$t" ] || continue
    echo "== $t"
    if [ ! -d node_modules/playwright-core ]; then
        echo "not ok - $t: node_modules/playwright-core is missing (run npm ci)" | tee "$log"
    elif [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ]; then
        echo "not ok - $t: ${CHROMIUM:-/usr/bin/chromium} is missing (scripts/deps.sh installs chromium)" | tee "$log"
    else
        timeout 120 node "$t" >"$log" 2>&1
        rc=$?
        cat "$log"
        if [ "$rc" -ne 0 ] && ! grep -q '^not ok ' "$log"; then
            echo "not ok - $t exited with status $rc" | tee -a "$log"
        fi
    fi
    passed=$((passed + $(grep -c '^ok ' "$log"))) failed=$((failed + $(grep -c '^not ok ' "$log")))
done

echo "build: $build"
echo "tests: $passed passed, $failed failed, $skipped skipped"
[ "$skipped" -eq 0 ] || sed 's/^/skipped: /' "$skips"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
