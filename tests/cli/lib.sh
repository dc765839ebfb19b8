# Helpers for command-line tests. Source it; each check prints a TAP-style
# "ok - NAME" or "not ok - NAME" line that scripts/run-tests.sh counts.
# $TENGEN is the binary under test (set by run-tests.sh), $TESTDATA tests/data.
: "${TENGEN:=build/tengen}"
: "${TESTDATA:=tests/data}"
TMPD=$(mktemp -d)
trap 'rm -rf "$TMPD"' EXIT

ok() { echo "ok - $1"; }
not_ok() { echo "not ok - $1"; shift; for l in "$@"; do echo "#   $l"; done; }

# run CMD...: runs a command, keeping stdout, stderr and status in OUT, ERR, RC.
run() {
    "$@" >"$TMPD/out" 2>"$TMPD/err" </dev/null
    RC=$?
    OUT=$(cat "$TMPD/out")
    ERR=$(cat "$TMPD/err")
}

# expect_out NAME EXPECTED CMD...: stdout equals EXPECTED and the status is 0.
expect_out() {
    local name=$1 want=$2
    shift 2
    run "$@"
    if [ "$RC" -eq 0 ] && [ "$OUT" = "$want" ]; then ok "$name"; else
        not_ok "$name" "status $RC" "want: $want" "got:  $OUT" "stderr: $ERR"; fi
}

# expect_fail NAME STATUS PATTERN CMD...: exits with STATUS, stdout empty, stderr
# is one line matching the grep -E PATTERN.
expect_fail() {
    local name=$1 status=$2 pat=$3
    shift 3
    run "$@"
    local lines
    lines=$(printf '%s' "$ERR" | grep -c '')
    if [ "$RC" -eq "$status" ] && [ -z "$OUT" ] && [ "$lines" -eq 1 ] && printf '%s' "$ERR" | grep -Eq -- "$pat"; then
        ok "$name"
    else
        not_ok "$name" "status $RC (want $status)" "stdout: $OUT" "stderr: $ERR" "pattern: $pat"
    fi
}

# expect_match NAME PATTERN CMD...: status 0 and stdout matches grep -E PATTERN.
expect_match() {
    local name=$1 pat=$2
    shift 2
    run "$@"
    if [ "$RC" -eq 0 ] && printf '%s' "$OUT" | grep -Eq -- "$pat"; then ok "$name"; else
        not_ok "$name" "status $RC" "pattern: $pat" "got: $OUT" "stderr: $ERR"; fi
}
