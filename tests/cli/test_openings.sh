#!/usr/bin/env bash
# tengen openings: reproducible from a seed, every kept opening scored within
# the margin (checked again through `tengen think`), atomic --out, bad input.
. "$(dirname "$0")/lib.sh"

ARGS=(--rule freestyle --count 2 --stones 3 --depth 4 --margin 100 --seed 7)
run "$TENGEN" openings "${ARGS[@]}"
first=$OUT rc1=$RC
run "$TENGEN" openings "${ARGS[@]}"
mapfile -t lines < <(grep -v '^#' <<<"$OUT")
if [ "$rc1" -eq 0 ] && [ "$RC" -eq 0 ] && [ "$OUT" = "$first" ] && [ "${#lines[@]}" -eq 2 ]; then
    ok "the same seed gives the same openings"
else not_ok "the same seed gives the same openings" "status $rc1/$RC" "$first" "$OUT" "$ERR"; fi

# Each line: three stones, then the scores of depths 3 and 4; think, searching
# the same way (one thread, 16 MB hash, depth 4), must print the same scores.
good=0
for l in "${lines[@]}"; do
    moves=${l%%#*}
    want=$(sed 's/.*# *//' <<<"$l")
    got=$("$TENGEN" think --rule freestyle --size 15 --depth 4 --threads 1 --hash 16 $moves |
        awk '$1 == "depth" && ($2 == 3 || $2 == 4) { printf "%s%s", sep, $4; sep = " " }')
    read -r s3 s4 <<<"$got"
    set -- $moves
    if [ "$#" -eq 3 ] && [ "$got" = "$want" ] && [ "${s3#-}" -le 100 ] && [ "${s4#-}" -le 100 ]; then
        good=$((good + 1))
    else echo "# $l: think says '$got'"; fi
done
if [ "$good" -eq 2 ]; then ok "kept openings score within the margin at the last two depths"
else not_ok "kept openings score within the margin at the last two depths"; fi

run "$TENGEN" openings "${ARGS[@]}" --out "$TMPD/open.txt"
if [ "$RC" -eq 0 ] && [ -z "$OUT" ] && [ "$(grep -v '^# Made by' "$TMPD/open.txt")" = "$(grep -v '^# Made by' <<<"$first")" ] &&
    [ -z "$(ls "$TMPD" | grep -v '^open.txt$' | grep -v '^out$' | grep -v '^err$')" ]; then
    ok "--out writes the same openings, no temporary file left"
else not_ok "--out writes the same openings, no temporary file left" "status $RC" "$(ls "$TMPD")" "$ERR"; fi

expect_fail "bad rule" 2 'openings: the rule must be freestyle, standard, renju or caro' \
    "$TENGEN" openings --rule gomoku
expect_fail "too many stones for the square" 2 'openings: 30 stones do not fit in radius 2' \
    "$TENGEN" openings --stones 30 --radius 2
run "$TENGEN" openings --rule freestyle --count 5 --stones 3 --depth 2 --tries 2 --out "$TMPD/none.txt"
if [ "$RC" -eq 1 ] && grep -q 'only [0-9] of 5 openings balanced within +-60 after 2 tries' <<<"$ERR" &&
    [ ! -e "$TMPD/none.txt" ]; then
    ok "too few balanced openings: status 1, no file"
else not_ok "too few balanced openings: status 1, no file" "status $RC" "$ERR"; fi

# --playout: each kept opening names its two self-play results, and one colour
# never won both.
run "$TENGEN" openings --rule freestyle --count 1 --stones 5 --depth 2 --margin 200 --seed 1 --playout 100
bad=$(grep -v '^#' <<<"$OUT" | grep -Evc ' self-play (1-0 0-1|0-1 1-0|draw [^ ]+|[^ ]+ draw)$')
n=$(grep -vc '^#' <<<"$OUT")
if [ "$RC" -eq 0 ] && [ "$n" -eq 1 ] && [ "$bad" -eq 0 ]; then
    ok "--playout keeps openings whose two self-play games split"
else not_ok "--playout keeps openings whose two self-play games split" "status $RC" "$OUT" "$ERR"; fi
