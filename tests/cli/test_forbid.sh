#!/usr/bin/env bash
# tengen forbid: listing, explanation, JSON and bad input.
. "$(dirname "$0")/lib.sh"

CHAIN_B="f4 h4 c5 f5 j5 e6 g7 h7 l7 d8 e8 g8 c9 d11 k12 g15"
CHAIN_W="h8 d10 e11 j11 k11 f12 k15"

expect_out "recursive chain: full forbidden list" "e4 double-three
g4 double-three
i4 double-three
g6 double-three
e7 double-three
f7 double-three
f9 double-four" "$TENGEN" forbid --black "$CHAIN_B" --white "$CHAIN_W"

expect_out "empty board has no forbidden point" "" "$TENGEN" forbid
expect_out "move list: cross double-three" "h8 double-three" \
    "$TENGEN" forbid h9 a1 g8 a3 i8 a5 h7 a7
expect_out "pass skips a turn" "h8 double-three" \
    "$TENGEN" forbid h9 pass g8 pass i8 pass h7
expect_out "overline and double-four precedence" "h8 overline" \
    "$TENGEN" forbid --black "f8 g8 i8 j8 k8"
expect_out "small board" "c3 double-three" \
    "$TENGEN" forbid --size 7 --black "c4 b3 d3 c2"

run "$TENGEN" forbid --black "$CHAIN_B" --white "$CHAIN_W" --explain e5
if [ "$RC" -eq 0 ] && printf '%s\n' "$OUT" | head -1 | grep -q '^e5 -> legal$' &&
    printf '%s\n' "$OUT" | grep -q '^    e7 -> double-three   (with e5 e7 on the board)$' &&
    printf '%s\n' "$OUT" | grep -q '^            f6 -> double-four   (with e5 e7 f7 f6 on the board)$' &&
    printf '%s\n' "$OUT" | grep -q '^verdict: e5 is legal: 1 of its 2 threes is real'; then
    ok "explain e5 follows the seed's X/A/B/C chain"
else not_ok "explain e5 follows the seed's X/A/B/C chain" "$OUT" "$ERR"; fi

run "$TENGEN" forbid --black "$CHAIN_B" --white "$CHAIN_W" --explain e7 --json
if [ "$RC" -eq 0 ] && printf '%s' "$OUT" | grep -q '"verdict": "double-three"' &&
    printf '%s' "$OUT" | grep -q '"straight_four_points"'; then ok "explain --json"
else not_ok "explain --json" "$OUT" "$ERR"; fi

expect_match "list --json" '"kind": "overline"' "$TENGEN" forbid --json --black "f8 g8 i8 j8 k8"

expect_fail "unknown token" 2 "argument 2 'zz'" "$TENGEN" forbid h8 zz
expect_fail "off-board point" 2 "argument 1 'p8'.*off the 15x15 board" "$TENGEN" forbid p8
expect_fail "occupied point" 2 "argument 3 'h8'.*occupied" "$TENGEN" forbid h8 h9 h8
expect_fail "stone given twice" 2 "--white token 2 'h8'" "$TENGEN" forbid --black "h8" --white "a1 h8"
expect_fail "size out of range" 2 "'23'.*5..22" "$TENGEN" forbid --size 23 h8
expect_fail "size not a number" 2 "'x'.*5..22" "$TENGEN" forbid --size x
expect_fail "unknown option" 2 "unknown option" "$TENGEN" forbid --frob h8
expect_fail "explain an occupied point" 2 "'h8'.*occupied" "$TENGEN" forbid h8 --explain h8
expect_fail "moves and lists together" 2 "not both" "$TENGEN" forbid h8 --black "a1"
