#!/usr/bin/env bash
# tengen think: progress lines, best move, tactics, limits and bad input.
. "$(dirname "$0")/lib.sh"

# Black to move with four stones in a row: the five at l8 (g8 is white's).
expect_match "five in one" '^bestmove l8$' \
    "$TENGEN" think --rule freestyle --depth 3 --black "h8 i8 j8 k8" --white "g8 a1 a3 c2"

run "$TENGEN" think --rule freestyle --depth 3 --black "h8 i8 j8 k8" --white "g8 a1 a3 c2"
if [ "$RC" -eq 0 ] && printf '%s\n' "$OUT" | grep -Eq '^depth 1 score win 1 nodes [0-9]+ nps [0-9]+ pv l8$'; then
    ok "progress line: depth, score, nodes, nps, pv"
else
    not_ok "progress line: depth, score, nodes, nps, pv" "$OUT" "$ERR"
fi

expect_match "white blocks a four" '^bestmove l8$' \
    "$TENGEN" think --rule standard --depth 3 --black "h8 i8 j8 k8 c3" --white "g8 h9 i10 b12"

expect_match "white blocks an open three" '^bestmove (g8|k8)$' \
    "$TENGEN" think --rule renju --depth 4 h8 h10 i8 c13 j8

expect_match "renju: white's four on black's forbidden point wins" '^bestmove d4$' \
    "$TENGEN" think --rule renju --depth 4 --to-move white \
    --black "i8 j8 h9 h10 c3 i9" --white "e5 f6 g7 a15 o15 o1"

# Depth limit: the last progress line is depth 2, then the move.
run "$TENGEN" think --depth 2 h8 h9
last=$(printf '%s\n' "$OUT" | tail -2 | head -1 | cut -d' ' -f1-2)
if [ "$RC" -eq 0 ] && [ "$last" = "depth 2" ] && printf '%s\n' "$OUT" | tail -1 | grep -Eq '^bestmove [a-o]([1-9]|1[0-5])$'; then
    ok "depth limit"
else
    not_ok "depth limit" "$OUT"
fi

expect_match "time limit, small board, caro" '^bestmove [a-g][1-7]$' \
    "$TENGEN" think --rule caro --size 7 --time 0.2 d4 c3
expect_match "n-best prints numbered lines" '^depth 2 line 3 ' \
    "$TENGEN" think --depth 2 --nbest 3 h8 h9
expect_match "empty board: the centre" '^bestmove h8$' "$TENGEN" think --depth 2
expect_match "two threads" '^bestmove ' "$TENGEN" think --threads 2 --nodes 20000 h8 h9 i8

# --only: the five at l8 is not among the allowed moves, so the answer is one of them.
run "$TENGEN" think --rule freestyle --depth 3 --only "b2, c3" --black "h8 i8 j8 k8" --white "g8 a1 a3 c2"
if [ "$RC" -eq 0 ] && printf '%s\n' "$OUT" | tail -1 | grep -Eq '^bestmove (b2|c3)$' &&
    ! printf '%s\n' "$OUT" | grep '^depth' | grep -Evq ' pv (b2|c3)( |$)'; then
    ok "--only searches just the given root moves"
else
    not_ok "--only searches just the given root moves" "$OUT" "$ERR"
fi
expect_fail "--only: bad point" 2 "--only token 2 'z9'" "$TENGEN" think --depth 2 --only "h9 z9" h8
expect_fail "--only: occupied point" 2 "--only token 1 'h8'.*occupied" "$TENGEN" think --depth 2 --only h8 h8
expect_fail "--only: no points" 2 "--only: no points" "$TENGEN" think --depth 2 --only " , " h8

expect_fail "bad rule" 2 "argument 2 'gomoku'" "$TENGEN" think --rule gomoku h8
expect_fail "bad depth" 2 "argument 2 '0'.*depth" "$TENGEN" think --depth 0 h8
expect_fail "bad time" 2 "argument 2 'soon'" "$TENGEN" think --time soon h8
expect_fail "bad move" 2 "z9" "$TENGEN" think --depth 2 h8 z9
expect_fail "game already won" 2 "five" \
    "$TENGEN" think --rule freestyle --depth 2 --black "h8 i8 j8 k8 l8" --white "a1 a2 a3 a4"
expect_fail "unknown option" 2 "unknown option" "$TENGEN" think --fast h8
