#!/usr/bin/env bash
# tengen solve: lines, forbidden blocks, JSON, side to move and bad input.
. "$(dirname "$0")/lib.sh"

expect_out "renju: white wins on black's forbidden block" "i9 (h8 forbidden)" \
    "$TENGEN" solve --rule renju --vcf --to-move white --black "h9 g8 i8 h7 d4" --white "e5 f6 g7 a1 a15"
expect_out "standard: the same four is simply blocked" "no win found" \
    "$TENGEN" solve --rule standard --vcf --depth 1 --to-move white --black "h9 g8 i8 h7 d4" --white "e5 f6 g7 a1 a15"
expect_out "five in one" "g8" "$TENGEN" solve --rule freestyle --vcf --black "h8 i8 j8 k8" --white "a1 a3 a5 a7"
expect_out "renju: black's overline is no five" "no win found" \
    "$TENGEN" solve --rule renju --vcf --depth 1 --black "d8 e8 f8 h8 i8" --white "a1 a3 c1 n14 n12"
expect_out "freestyle: the overline wins" "g8" \
    "$TENGEN" solve --rule freestyle --vcf --black "d8 e8 f8 h8 i8" --white "a1 a3 c1 n14 n12"
expect_out "empty board" "no win found" "$TENGEN" solve
expect_out "pass: white to move has nothing" "no win found" "$TENGEN" solve --vcf h8 pass i8 pass j8 pass k8
expect_out "--to-move overrides the move count" "g8" "$TENGEN" solve --vcf --to-move black h8 pass i8 pass j8 pass k8

# A VCF from the puzzle set: the line alternates and ends in a five.
P=$(grep -m1 'rule=freestyle size=15 side=black mode=vcf expect=win' "$TESTDATA/puzzles/solver.txt")
B=$(printf '%s' "$P" | sed -n 's/.* black=\([^ ]*\).*/\1/p' | tr , ' ')
W=$(printf '%s' "$P" | sed -n 's/.* white=\([^ ]*\).*/\1/p' | tr , ' ')
expect_match "puzzle: a line of several moves" '^([a-o][0-9]+ ){4,}[a-o][0-9]+$' \
    "$TENGEN" solve --rule freestyle --vcf --to-move black --black "$B" --white "$W"
run "$TENGEN" solve --rule freestyle --vcf --to-move black --json --black "$B" --white "$W"
if [ "$RC" -eq 0 ] && printf '%s' "$OUT" | grep -q '"status": "win"' &&
    printf '%s' "$OUT" | grep -q '"mode": "vcf"' && printf '%s' "$OUT" | grep -q '"forbidden": null'; then
    ok "--json"
else not_ok "--json" "$OUT" "$ERR"; fi
expect_match "--vct finds the same win" '^([a-o][0-9]+ )+[a-o][0-9]+$' \
    "$TENGEN" solve --rule freestyle --vct --to-move black --black "$B" --white "$W"

expect_fail "unknown rule" 2 "argument 2 'gomoku'" "$TENGEN" solve --rule gomoku h8
expect_fail "size out of range" 2 "'4'.*5..22" "$TENGEN" solve --size 4 h8
expect_fail "bad point" 2 "argument 3 'z9'" "$TENGEN" solve h8 h9 z9
expect_fail "occupied point" 2 "argument 2 'h8'.*occupied" "$TENGEN" solve h8 h8
expect_fail "bad side" 2 "argument 2 'red'.*black or white" "$TENGEN" solve --to-move red h8
expect_fail "bad time" 2 "argument 2 '-1'.*seconds" "$TENGEN" solve --time -1 h8
expect_fail "bad depth" 2 "argument 2 '0'.*depth" "$TENGEN" solve --depth 0 h8
expect_fail "moves and lists together" 2 "not both" "$TENGEN" solve h8 --black a1
expect_fail "unknown option" 2 "argument 1 '--frob'.*unknown option" "$TENGEN" solve --frob h8
expect_fail "missing value" 2 "argument 1 '--rule'.*needs a value" "$TENGEN" solve --rule
expect_fail "a finished position" 2 "already has a five" \
    "$TENGEN" solve --rule freestyle --black "h8 i8 j8 k8 l8" --white "a1 a3 a5 a7"
