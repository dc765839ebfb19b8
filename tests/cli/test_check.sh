#!/usr/bin/env bash
# tengen check: the referee on .tgn records — results, ongoing games, illegal
# actions (exit 1), malformed records and bad options (exit 2).
. "$(dirname "$0")/lib.sh"

G="$TESTDATA/games"

expect_out "RIF game to a five" "result: black wins: five h8-l8 (move 11 at l8)" \
    "$TENGEN" check "$G/rif_black_five.tgn"
expect_out "auto: a forbidden move loses at once" \
    "result: white wins: black's double-three at h8 (move 9)" "$TENGEN" check "$G/forbidden_auto.tgn"
expect_out "claim: white claims at once" \
    "result: white wins: claimed black's double-three at h8 (move 9)" \
    "$TENGEN" check "$G/forbidden_claim.tgn"
expect_fail "claim: a missed claim is gone" 1 \
    "action 12 'claim' \(line 6, column 10\): nothing to claim" "$TENGEN" check "$G/missed_claim.tgn"
expect_out "claim: an overline may be claimed later" \
    "result: white wins: claimed black's earlier overline at h8 (move 11)" \
    "$TENGEN" check "$G/overline_claim.tgn"
expect_out "ongoing: who must act and how" "result: ongoing: black (first player) to propose 2 5th moves" \
    "$TENGEN" check "$G/rif_propose.tgn"
expect_fail "symmetric 5th moves are refused" 1 \
    "action 5 'propose g8,i7' \(line 3, column 1\): 5th moves g8 and i7 are symmetric: a half turn about the middle of h7 and h8" \
    "$TENGEN" check "$G/rif_symmetric.tgn"
expect_fail "no pass before the 6th stone" 1 "action 7 'pass' \(line 4, column 1\): no pass during the opening" \
    "$TENGEN" check "$G/rif_early_pass.tgn"
expect_out "swap2: the opener chooses after 4 and 5" \
    "result: ongoing: black (first player) to choose colours: swap or noswap" "$TENGEN" check "$G/swap2.tgn"
expect_out "two passes draw" "result: draw: both players passed in a row" "$TENGEN" check "$G/two_passes.tgn"
expect_out "draw by agreement" "result: draw: agreed by both players" "$TENGEN" check "$G/draw_agreed.tgn"
expect_out "resignation after a Yamaguchi opening" "result: white wins: black resigned" \
    "$TENGEN" check "$G/resign.tgn"
expect_out "dual-board: fives on both boards in one round" \
    "result: black wins: fives on both boards in round 6 (1:l8, 2:l8)" "$TENGEN" check "$G/dual_fives.tgn"
expect_match "dual-board: a five on one board only loses" \
    "^result: white wins: black made a five on board 1 only in round 5 \(1:h8-l8\)" \
    "$TENGEN" check "$G/dual_one_board.tgn"
expect_out "Soosorv-8 with both swaps" "result: ongoing: black (second player) to play move 7" \
    "$TENGEN" check "$G/soosorv8.tgn"
expect_out "Taraguchi-10, ten 5th moves" "result: ongoing: white (second player) to play move 6" \
    "$TENGEN" check "$G/taraguchi10.tgn"
expect_out "designated opening from the header, turned" \
    "result: ongoing: black (first player) to play move 5" "$TENGEN" check "$G/designated.tgn"
printf 'opening taraguchi10\nh8 noswap i9 noswap j10 noswap l8\n' >"$TMPD/t7.tgn"
expect_fail "Taraguchi move 4 outside 7x7" 1 "action 7 'l8'.*central 7x7 square; l8 does not" \
    "$TENGEN" check "$TMPD/t7.tgn"
printf 'opening soosorv8\nh8 h9 h7 h6 declare 9\n' >"$TMPD/s9.tgn"
expect_fail "Soosorv declares at most 8" 1 "action 5 'declare 9'.*must be 1..8, not 9" \
    "$TENGEN" check "$TMPD/s9.tgn"

# Options override the header.
expect_out "--opening free" "result: ongoing: black (first player) to play move 5" \
    "$TENGEN" check --opening free "$G/rif_propose.tgn"
expect_out "--forbidden claim" \
    "result: ongoing: white (second player) to claim black's double-three at h8 or play move 10" \
    "$TENGEN" check --forbidden claim "$G/forbidden_auto.tgn"
expect_out "--rule freestyle has no forbidden moves" \
    "result: ongoing: white (second player) to play move 10" \
    "$TENGEN" check --rule freestyle "$G/forbidden_auto.tgn"
expect_out "--designated" "result: ongoing: black (first player) to play move 5" \
    "$TENGEN" check --opening designated --designated shogetsu "$G/rif_propose.tgn"
run "$TENGEN" check --opening designated --designated kagetsu "$G/rif_propose.tgn"
if [ "$RC" -eq 1 ] && printf '%s' "$ERR" | grep -q "action 3 'h7'.*does not make the designated opening Kagetsu (4D)"; then
    ok "--designated refuses another opening"
else not_ok "--designated refuses another opening" "status $RC" "$ERR"; fi

# Standard input, JSON.
printf 'opening free\nh8 h9 i8 i9 j8 j9 k8 k9 l8\n' >"$TMPD/in.tgn"
"$TENGEN" check - <"$TMPD/in.tgn" >"$TMPD/out" 2>&1
if [ "$(cat "$TMPD/out")" = "result: black wins: five h8-l8 (move 9 at l8)" ]; then ok "record on standard input"
else not_ok "record on standard input" "$(cat "$TMPD/out")"; fi
run "$TENGEN" check --json "$G/forbidden_auto.tgn"
if [ "$RC" -eq 0 ] && printf '%s' "$OUT" | grep -q '"result": "white"' &&
    printf '%s' "$OUT" | grep -q '"reason": "forbidden"' && printf '%s' "$OUT" | grep -q '"kind": "double-three"' &&
    printf '%s' "$OUT" | grep -q '"point": "h8"' && printf '%s' "$OUT" | grep -q '"move": 9'; then ok "--json result"
else not_ok "--json result" "$OUT" "$ERR"; fi
expect_match "--json ongoing" '"result": "ongoing"' "$TENGEN" check --json "$G/rif_propose.tgn"

# Illegal actions: number, token, where, why; exit 1.
printf 'opening free\nh8 h9 i8 i9 j8 j9 k8 k9 l8 a1\n' >"$TMPD/late.tgn"
expect_fail "an action after the end" 1 "action 10 'a1' \(line 2, column 28\): the game is over \(black wins" \
    "$TENGEN" check "$TMPD/late.tgn"
printf 'opening rif\nh8 h9 h7 swap swap\n' >"$TMPD/swap.tgn"
expect_fail "a second swap" 1 "action 5 'swap' \(line 2, column 15\): white \(first player\) to place move 4" \
    "$TENGEN" check "$TMPD/swap.tgn"
printf 'opening rif\na1\n' >"$TMPD/a1.tgn"
expect_fail "RIF move 1 off the centre" 1 "action 1 'a1'.*move 1 goes on the centre \(h8\), not a1" \
    "$TENGEN" check "$TMPD/a1.tgn"
printf 'opening free\nh8 h8\n' >"$TMPD/occ.tgn"
expect_fail "occupied point" 1 "action 2 'h8' \(line 2, column 4\): h8 is occupied" "$TENGEN" check "$TMPD/occ.tgn"

# Malformed records and bad options: exit 2.
expect_fail "malformed record names line and column" 2 "malformed.tgn:2:7: 'zz9'" \
    "$TENGEN" check "$G/malformed.tgn"
expect_fail "missing file" 2 "cannot open" "$TENGEN" check "$TMPD/nope.tgn"
expect_fail "no record argument" 2 "expected one RECORD" "$TENGEN" check
expect_fail "unknown option" 2 "unknown option" "$TENGEN" check --frob "$G/resign.tgn"
expect_fail "bad --forbidden" 2 "--forbidden 'sometimes'" "$TENGEN" check --forbidden sometimes "$G/resign.tgn"
expect_fail "bad --opening" 2 "--opening 'rif2'" "$TENGEN" check --opening rif2 "$G/resign.tgn"
expect_fail "bad --rule" 2 "--rule 'go'" "$TENGEN" check --rule go "$G/resign.tgn"
expect_fail "dual-board points under another rule" 2 "not written for it" \
    "$TENGEN" check --rule renju "$G/dual_fives.tgn"
# A record without a known extension is read as what its text looks like.
cp "$TESTDATA/records/gomocup.psq" "$TMPD/game.dat"
expect_out "a PSQ without its extension" "result: ongoing: white (second player) to play move 8" \
    "$TENGEN" check --rule freestyle "$TMPD/game.dat"
