#!/usr/bin/env bash
# tengen tune: gen / fit / match round trip and bad input.
. "$(dirname "$0")/lib.sh"

run "$TENGEN" tune gen --rule freestyle --games 2 --seed 5 --nodes 200 "$TMPD/a.txt"
run "$TENGEN" tune gen --rule freestyle --games 2 --seed 5 --nodes 200 "$TMPD/b.txt"
if [ "$RC" -eq 0 ] && cmp -s "$TMPD/a.txt" "$TMPD/b.txt" && [ "$(grep -vc '^#' "$TMPD/a.txt")" -eq 2 ]; then
    ok "gen: same seed, same bytes"
else not_ok "gen: same seed, same bytes" "status $RC" "$ERR"; fi

expect_match "fit: errors and a C table" '^error before [0-9.]+ after [0-9.]+$' \
    "$TENGEN" tune fit --rule freestyle --iterations 3 "$TMPD/a.txt" --out "$TMPD/w.txt"
if grep -q '^own [0-9]' "$TMPD/w.txt" && printf '%s' "$OUT" | grep -q '\[RULE_FREESTYLE\] ='; then
    ok "fit: weights file and table"
else not_ok "fit: weights file and table" "$OUT"; fi
# From weights without combinations, on enough positions for some codes to be
# fitted: --no-combo adds none, the default fit does.
run "$TENGEN" tune gen --rule freestyle --games 8 --seed 6 --nodes 100 "$TMPD/m.txt"
run "$TENGEN" tune fit --rule freestyle --iterations 3 --weights "$TESTDATA/tune/base-weights.txt" \
    --no-combo "$TMPD/m.txt" --out "$TMPD/nc.txt"
if [ "$RC" -eq 0 ] && ! grep -q '^combo ' "$TMPD/nc.txt"; then
    ok "fit --no-combo: no combination weights"
else not_ok "fit --no-combo: no combination weights" "status $RC" "$ERR"; fi
run "$TENGEN" tune fit --rule freestyle --iterations 3 --weights "$TESTDATA/tune/base-weights.txt" \
    "$TMPD/m.txt" --out "$TMPD/c.txt"
if [ "$RC" -eq 0 ] && grep -q '^combo ' "$TMPD/c.txt"; then
    ok "fit: combination weights"
else not_ok "fit: combination weights" "status $RC" "$ERR"; fi
# --combo-anchor: a strong pull keeps the combination weights at their start
# (within Adam's steps); the same pull towards 0 moves them far.
combo_drift() { # the largest change of a combination weight from file $1 to $2
    awk '$1 == "combo" { k = $2 " " $3 " " $4 " " $5 " " $6; if (FILENAME == ARGV[1]) a[k] = $7; else b[k] = $7; seen[k] = 1 }
         END { m = 0; for (k in seen) { d = a[k] - b[k]; if (d < 0) d = -d; if (d > m) m = d } print m }' "$1" "$2"
}
run "$TENGEN" tune fit --rule freestyle --iterations 2 --weights "$TESTDATA/tune/freestyle-weights.txt" \
    --combo-l2 1 --combo-anchor "$TMPD/m.txt" --out "$TMPD/anc.txt"
rc_anchor=$RC
run "$TENGEN" tune fit --rule freestyle --iterations 2 --weights "$TESTDATA/tune/freestyle-weights.txt" \
    --combo-l2 1 "$TMPD/m.txt" --out "$TMPD/zero.txt"
da=$(combo_drift "$TESTDATA/tune/freestyle-weights.txt" "$TMPD/anc.txt")
dz=$(combo_drift "$TESTDATA/tune/freestyle-weights.txt" "$TMPD/zero.txt")
if [ "$rc_anchor" -eq 0 ] && [ "$RC" -eq 0 ] && [ "$da" -le 3 ] && [ "$dz" -gt 20 ]; then
    ok "fit --combo-anchor: pulled towards the start, not 0"
else not_ok "fit --combo-anchor: pulled towards the start, not 0" "status $rc_anchor/$RC drift $da/$dz"; fi
# --smooth: the weights written say so, and read back they give the error the
# fit ended with (the data is taken with each position's predecessor again).
run "$TENGEN" tune fit --rule freestyle --iterations 2 --k 300 --smooth "$TMPD/m.txt" --out "$TMPD/sm.txt"
after=$(printf '%s' "$OUT" | sed -n 's/^error before [0-9.]* after \([0-9.]*\)$/\1/p')
rc_smooth=$RC
c_smooth=$(printf '%s' "$OUT" | grep -c '^        \.smooth = 1,$')
run "$TENGEN" tune fit --rule freestyle --iterations 0 --k 300 --weights "$TMPD/sm.txt" "$TMPD/m.txt"
again=$(printf '%s' "$OUT" | sed -n 's/^error before \([0-9.]*\) after .*/\1/p')
if [ "$rc_smooth" -eq 0 ] && [ "$RC" -eq 0 ] && [ "$c_smooth" -eq 1 ] && grep -q '^smooth 1$' "$TMPD/sm.txt" &&
    [ -n "$after" ] && [ "$after" = "$again" ]; then
    ok "fit --smooth: written, read back, same error"
else not_ok "fit --smooth: written, read back, same error" "status $rc_smooth/$RC entry $c_smooth error '$after' '$again'"; fi
sed 's/^smooth 1$/smooth 2/' "$TMPD/sm.txt" > "$TMPD/sm2.txt"
expect_fail "weights: bad smooth" 2 "sm2.txt:$(grep -n '^smooth' "$TMPD/sm2.txt" | cut -d: -f1):8: bad smooth '2'" \
    "$TENGEN" tune fit --rule freestyle --weights "$TMPD/sm2.txt" "$TMPD/m.txt"
# --to-move: only that side's positions (fewer than all, and both sides' add up).
count_positions() { "$TENGEN" tune fit --rule freestyle --iterations 0 "$@" "$TMPD/m.txt" | sed -n 's/^games [0-9]* positions \([0-9]*\) .*/\1/p'; }
all=$(count_positions); nb=$(count_positions --to-move black); nw=$(count_positions --to-move white)
if [ -n "$all" ] && [ "$nb" -gt 0 ] && [ "$nw" -gt 0 ] && [ $((nb + nw)) -eq "$all" ]; then
    ok "fit --to-move: the positions split by side to move"
else not_ok "fit --to-move: the positions split by side to move" "all '$all' black '$nb' white '$nw'"; fi
expect_match "fit --k: the scale given is kept" '^games [0-9]+ positions [0-9]+ K 250\.0 ' \
    "$TENGEN" tune fit --rule freestyle --iterations 1 --k 250 "$TMPD/m.txt"
run "$TENGEN" tune gen --rule freestyle --games 2 --seed 5 --nodes 200 --opening 3 --balance 80 "$TMPD/bal.txt"
if [ "$RC" -eq 0 ] && grep -q '^# rule freestyle games 2 seed 5 nodes 200 opening 3 balance 80$' "$TMPD/bal.txt" &&
    ! cmp -s "$TMPD/a.txt" "$TMPD/bal.txt"; then
    ok "gen --balance: recorded in the header"
else not_ok "gen --balance: recorded in the header" "status $RC" "$ERR"; fi
run "$TENGEN" tune gen --rule freestyle --games 2 --seed 5 --nodes 200 --opening 3 --balance 80 --edge "$TMPD/edge.txt"
if [ "$RC" -eq 0 ] && grep -q '^# rule freestyle games 2 seed 5 nodes 200 opening 3 balance 80 edge$' "$TMPD/edge.txt" &&
    ! cmp -s "$TMPD/bal.txt" "$TMPD/edge.txt"; then
    ok "gen --edge: recorded in the header, other openings"
else not_ok "gen --edge: recorded in the header, other openings" "status $RC" "$ERR"; fi
expect_fail "gen --edge without --balance" 2 "edge openings need a balance margin" \
    "$TENGEN" tune gen --rule freestyle --games 2 --seed 5 --edge "$TMPD/noedge.txt"
run "$TENGEN" tune gen --rule renju --games 2 --seed 5 --nodes 200 --opening 3 --scores "$TMPD/sc.txt"
if [ "$RC" -eq 0 ] && head -1 "$TMPD/sc.txt" | grep -q '^# tengen tune data 2$' &&
    [ "$(grep -v '^#' "$TMPD/sc.txt" | grep -cE '^[-/10]+ 3 [a-o0-9,]+ -?[0-9]+(,-?[0-9]+)*$')" -eq 2 ]; then
    ok "gen --scores: a fourth field of scores"
else not_ok "gen --scores: a fourth field of scores" "status $RC" "$ERR"; fi
run "$TENGEN" tune fit --rule renju --iterations 1 --lambda 0.5 "$TMPD/sc.txt"
npos=$(printf '%s' "$OUT" | sed -n 's/^games 2 positions \([0-9]*\) .*/\1/p')
if [ "$RC" -eq 0 ] && [ -n "$npos" ] && printf '%s' "$OUT" | grep -q "^lambda 0.500 scored positions $npos\$"; then
    ok "fit --lambda: every position of scored data blended"
else not_ok "fit --lambda: every position of scored data blended" "status $RC" "$OUT" "$ERR"; fi
expect_match "fit --lambda: data without scores keeps the results" '^lambda 0\.250 scored positions 0$' \
    "$TENGEN" tune fit --rule freestyle --iterations 1 --lambda 0.25 "$TMPD/a.txt"
expect_fail "bad --lambda" 2 "argument 5 '1.5'" "$TENGEN" tune fit --rule renju --lambda 1.5 x
printf '1-0 2 h8,h9,i9,i8 5\n' > "$TMPD/badsc.txt"
expect_fail "scores that do not match the moves" 2 "badsc.txt:1:19" "$TENGEN" tune fit --rule renju "$TMPD/badsc.txt"
expect_fail "bad --balance" 2 "argument 9 '0'" "$TENGEN" tune gen --rule freestyle --games 2 --seed 5 --balance 0 x
expect_fail "bad --k" 2 "argument 5 '0'" "$TENGEN" tune fit --rule renju --k 0 x
expect_fail "bad --score-k" 2 "argument 5 'big': --score-k must be auto or a number" \
    "$TENGEN" tune fit --rule renju --score-k big x
expect_match "fit --score-k: the scores converted at the given scale" '^lambda 0\.500 scored positions [0-9]+ score K 250\.0$' \
    "$TENGEN" tune fit --rule renju --iterations 0 --lambda 0.5 --score-k 250 "$TMPD/sc.txt"
printf '1-0 2 h8,h9,i9,i8,j10 10000,-10000,10000\n' > "$TMPD/forced.txt"
expect_fail "fit --score-k auto: no score but forced results" 2 'forced.txt: --score-k auto needs scores' \
    "$TENGEN" tune fit --rule freestyle --lambda 0.5 --score-k auto "$TMPD/forced.txt"
expect_fail "bad --to-move" 2 "argument 5 'red'" "$TENGEN" tune fit --rule renju --to-move red x
expect_match "match --white: a set per side to move" '^games 2 wins [0-2] losses [0-2] draws [0-2] score ' \
    "$TENGEN" tune match --rule freestyle --games 2 --seed 1 --nodes 100 --white "$TMPD/nc.txt" \
    --base-white "$TMPD/c.txt" "$TMPD/w.txt"
expect_fail "match --white: missing file" 2 "nope.txt" \
    "$TENGEN" tune match --rule freestyle --games 2 --seed 1 --white "$TMPD/nope.txt" "$TMPD/w.txt"
expect_fail "bad combination pull" 2 "argument 5 '-1'" "$TENGEN" tune fit --rule renju --combo-l2 -1 x
expect_match "match: wins losses draws" '^games 2 wins [0-2] losses [0-2] draws [0-2] score ' \
    "$TENGEN" tune match --rule freestyle --games 2 --seed 1 --nodes 100 "$TMPD/w.txt"
# Openings from a file: two games each by default; the first is black's five
# at once, so weights a (black in the odd games) win one and lose one of it,
# and lose both of the second's (white's five, a black first).
printf '# a five for the side to move\nf8 a1 g8 a3 h8 a5 i8 a7\n\na1 f8 a3 g8 a5 h8 o15 i8 o13\n' > "$TMPD/ops.txt"
expect_match "match --openings: two games an opening" '^games 4 wins 2 losses 2 draws 0 score 0\.500$' \
    "$TENGEN" tune match --rule freestyle --openings "$TMPD/ops.txt" --nodes 100 "$TMPD/w.txt"
expect_match "match --openings --games: the openings in turn" '^games 3 wins 1 losses 2 draws 0 score 0\.333$' \
    "$TENGEN" tune match --rule freestyle --openings "$TMPD/ops.txt" --games 3 --nodes 100 "$TMPD/w.txt"
printf 'h8 h9\nh8 h9 zz\n' > "$TMPD/badops.txt"
expect_fail "match --openings: a bad move named" 2 "badops.txt: line 2, move 3 'zz'" \
    "$TENGEN" tune match --rule freestyle --openings "$TMPD/badops.txt" "$TMPD/w.txt"
printf '# nothing\n' > "$TMPD/noops.txt"
expect_fail "match --openings: an empty file" 2 "noops.txt: no openings" \
    "$TENGEN" tune match --rule freestyle --openings "$TMPD/noops.txt" "$TMPD/w.txt"
expect_fail "match: openings or a seed" 2 "needs --games and --seed \\(or --openings\\)" \
    "$TENGEN" tune match --rule freestyle "$TMPD/w.txt"
expect_fail "gen: --openings is for match" 2 "for match only" \
    "$TENGEN" tune gen --rule freestyle --games 1 --seed 1 --openings "$TMPD/ops.txt" "$TMPD/x.txt"

expect_match "order: losses and first-rank shares" '^first before 0\.[0-9]+ after [01]\.[0-9]+ \(class-and-worth order [01]\.[0-9]+\)$' \
    "$TENGEN" tune order --rule freestyle --epochs 2 "$TMPD/m.txt" --out "$TMPD/o.txt"
if grep -q '^att [A-Z0-9]' "$TMPD/o.txt" && printf '%s' "$OUT" | grep -q '\[RULE_FREESTYLE\] = {.own = true'; then
    ok "order: order file and table"
else not_ok "order: order file and table" "$OUT"; fi
run "$TENGEN" tune order --rule freestyle --epochs 0 --order "$TMPD/o.txt" "$TMPD/m.txt"
after=$(printf '%s' "$OUT" | sed -n 's/^loss before \([0-9.]*\) after \([0-9.]*\)$/\1 \2/p')
if [ "$RC" -eq 0 ] && [ -n "$after" ] && [ "${after% *}" = "${after#* }" ] && ! printf '%s' "$OUT" | grep -q RULE_; then
    ok "order --epochs 0: measures the file, changes nothing"
else not_ok "order --epochs 0: measures the file, changes nothing" "status $RC" "$OUT" "$ERR"; fi
order_positions() { "$TENGEN" tune order --rule freestyle --epochs 0 "$@" "$TMPD/m.txt" | sed -n 's/^games [0-9]* positions \([0-9]*\)$/\1/p'; }
all=$(order_positions); nb=$(order_positions --to-move black); nw=$(order_positions --to-move white)
if [ -n "$all" ] && [ "$nb" -gt 0 ] && [ "$nw" -gt 0 ] && [ $((nb + nw)) -eq "$all" ]; then
    ok "order --to-move: the positions split by side to move"
else not_ok "order --to-move: the positions split by side to move" "all '$all' black '$nb' white '$nw'"; fi
printf 'att F3 F3 B1\n' >"$TMPD/bado.txt"
expect_fail "order: bad order file" 2 "bado.txt:1:13: missing pattern 4 of 4" \
    "$TENGEN" tune order --rule freestyle --order "$TMPD/bado.txt" "$TMPD/m.txt"
expect_match "match --order: a table against the class order" '^games 2 wins [0-2] losses [0-2] draws [0-2] score ' \
    "$TENGEN" tune match --rule freestyle --games 2 --seed 1 --nodes 100 --order "$TMPD/o.txt" \
    --base-order classes "$TMPD/w.txt"
expect_fail "match --base-order: bad file" 2 "bado.txt:1:13" \
    "$TENGEN" tune match --rule freestyle --games 2 --seed 1 --base-order "$TMPD/bado.txt" "$TMPD/w.txt"
expect_fail "order: bad --scale" 2 "argument 5 '0'" "$TENGEN" tune order --rule renju --scale 0 x
expect_fail "order: bad --epochs" 2 "argument 5 'many'" "$TENGEN" tune order --rule renju --epochs many x
expect_fail "order: bad --rate" 2 "argument 5 '-1'" "$TENGEN" tune order --rule renju --rate -1 x
expect_fail "unknown step" 2 "'learn'" "$TENGEN" tune learn
expect_fail "bad rule" 2 "argument 3 'gomoku'" "$TENGEN" tune gen --rule gomoku --games 1 --seed 1 x
expect_fail "bad games" 2 "argument 5 '-3'" "$TENGEN" tune gen --rule renju --games -3 --seed 1 x
expect_fail "bad seed" 2 "argument 7 'abc'" "$TENGEN" tune gen --rule renju --games 1 --seed abc x
expect_fail "bad nodes" 2 "argument 9 '0'" "$TENGEN" tune gen --rule renju --games 1 --seed 1 --nodes 0 x
expect_fail "unknown option" 2 "argument 2 '--fast'" "$TENGEN" tune fit --fast x
expect_fail "missing --rule" 2 "needs --rule" "$TENGEN" tune fit x
expect_fail "missing file" 2 "needs a file" "$TENGEN" tune fit --rule renju
expect_fail "two files" 2 "argument 5 'y'" "$TENGEN" tune fit --rule renju x y
printf '1-0 4 h8,h9,i9,q1,j9\n' >"$TMPD/bad.txt"
expect_fail "bad move: line and column" 2 "bad.txt:1:16: bad move 'q1'" \
    "$TENGEN" tune fit --rule freestyle "$TMPD/bad.txt"
printf 'line 1 2\n' >"$TMPD/badw.txt"
expect_fail "short weights line" 2 "badw.txt:1:9: missing weight 3 of 11" \
    "$TENGEN" tune match --rule renju --games 1 --seed 1 "$TMPD/badw.txt"
expect_fail "unreadable data" 2 "nowhere.txt" "$TENGEN" tune fit --rule renju "$TMPD/nowhere.txt"
if [ ! -e x ]; then ok "no output file on errors"; else not_ok "no output file on errors"; fi
