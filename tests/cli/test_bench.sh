#!/usr/bin/env bash
# tengen bench: the signatures are reproducible, the referee's is pinned, bad input.
. "$(dirname "$0")/lib.sh"

# The forbid bench judges every empty cell of 1000 positions drawn from seed 7.
# Its checksum covers the referee's answers, so it moves only when the rules
# code or the position draw changes (the draw is sequenced, so every compiler
# gives the same positions).
run "$TENGEN" bench forbid
first=$(printf '%s\n' "$OUT" | head -1)
if [ "$RC" -eq 0 ] && [ "$first" = "forbid: positions 1000 checks 180423 forbidden 1424 checksum 112569f3042712ec" ]; then
    ok "forbid bench: the referee's signature"
else
    not_ok "forbid bench: the referee's signature" "status $RC" "got: $OUT" "stderr: $ERR"
fi

# The search bench is a node count at fixed depth: two runs agree.
run "$TENGEN" bench search
a=$(printf '%s\n' "$OUT" | grep -E '^nodes [0-9]+$')
run "$TENGEN" bench search
b=$(printf '%s\n' "$OUT" | grep -E '^nodes [0-9]+$')
if [ "$RC" -eq 0 ] && [ -n "$a" ] && [ "$a" = "$b" ] &&
    [ "$(printf '%s\n' "$OUT" | grep -c '^search: .* bestmove [a-t][0-9]* ')" -eq 12 ]; then
    ok "search bench: 12 positions, the same node count twice"
else
    not_ok "search bench: 12 positions, the same node count twice" "first: $a" "second: $b" "got: $OUT"
fi

expect_fail "unknown bench" 2 "argument 1 'bogus': no such bench" "$TENGEN" bench bogus
