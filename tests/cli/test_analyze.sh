#!/usr/bin/env bash
# tengen analyze: one line per stone, scores for the move played and the engine's choice,
# flags for blunders, missed wins and forced losses, and a line a colour.
. "$(dirname "$0")/lib.sh"

REC="$TESTDATA/records/gomocup.psq" # h8 i8 h7 i7 h6 i6 h5: black's open four in the h column

run "$TENGEN" analyze --depth 3 "$REC"
n=$(printf '%s\n' "$OUT" | grep -c '^[0-9]* \(black\|white\) [a-o][0-9]* score ')
if [ "$RC" -eq 0 ] && [ "$n" -eq 7 ]; then ok "one line per stone"; else not_ok "one line per stone" "$OUT" "$ERR"; fi
# White's i6 ignores the open three: black's open four, then five at ply 4.
if printf '%s\n' "$OUT" | grep -Eq '^6 white i6 score loss 4 best (h9|h5) score -?[0-9]+ blunder forced-loss$'; then
    ok "ignoring an open three loses; blocking does not"
else
    not_ok "ignoring an open three loses; blocking does not" "$OUT"
fi
if printf '%s\n' "$OUT" | grep -Eqx 'white blunders 1 missed-wins 0 forced-loss 6 mean-loss [0-9]+\.[0-9]' &&
    printf '%s\n' "$OUT" | grep -Eqx 'black blunders 0 missed-wins 0 forced-loss - mean-loss [0-9]+\.[0-9]'; then
    ok "a line a colour"
else
    not_ok "a line a colour" "$OUT"
fi
if printf '%s\n' "$OUT" | grep -Eq '^7 black h5 score win 3 best (h5|h9) score win 3$'; then
    ok "the open four wins in three plies"
else
    not_ok "the open four wins in three plies" "$OUT"
fi

# White's i6 lets black's open three become a four; black lets that win go
# (a1) and walks into white's.
printf 'size 15\nrule freestyle\nopening free\nh8 i8 h7 i7 h6 i6 a1 i9\n' > "$TMPD/missed.tgn"
run "$TENGEN" analyze --depth 4 "$TMPD/missed.tgn"
if [ "$RC" -eq 0 ] && printf '%s\n' "$OUT" | grep -Eq '^7 black a1 score loss [0-9]+ best (h5|h9) score win 3 blunder missed-win forced-loss$' &&
    printf '%s\n' "$OUT" | grep -Eqx 'black blunders 1 missed-wins 1 forced-loss 7 mean-loss [0-9]+\.[0-9]' &&
    printf '%s\n' "$OUT" | grep -Eqx 'white blunders 1 missed-wins 0 forced-loss 6 mean-loss [0-9]+\.[0-9]'; then
    ok "a missed win"
else
    not_ok "a missed win" "$OUT" "$ERR"
fi
# The refutation, played out to white's five.
run "$TENGEN" analyze --depth 4 --pv "$TMPD/missed.tgn"
if [ "$RC" -eq 0 ] && printf '%s\n' "$OUT" | grep -A2 '^7 black a1 ' | grep -Eqx '  played a1 i9 i(10 i5|5 i10)' &&
    printf '%s\n' "$OUT" | grep -A2 '^7 black a1 ' | grep -Eqx '  best h[59] [a-o][0-9]+ h[0-9]+'; then
    ok "--pv"
else
    not_ok "--pv" "$OUT" "$ERR"
fi
run "$TENGEN" analyze --depth 4 --json "$TMPD/missed.tgn"
if [ "$RC" -eq 0 ] && printf '%s\n' "$OUT" | tr -d ' \n' | grep -q '"number":7,"colour":"black","kind":"move","played":"a1","score":-[0-9]*,"mate":-[0-9]*,"best":"h[59]","best_score":[0-9]*,"best_mate":3,"pv":\["a1","i9","i[0-9]*","i[0-9]*"\],"best_pv":\["h[59]","[a-o][0-9]*","h[0-9]*"\],"flags":\["blunder","missed-win","forced-loss"\]' &&
    printf '%s\n' "$OUT" | tr -d ' \n' | grep -q '"black":{"blunders":1,"missed_wins":1,"forced_loss":7,"mean_loss":[0-9.]*},"white":{"blunders":1,"missed_wins":0,"forced_loss":6,"mean_loss":[0-9.]*}'; then
    ok "--json"
else
    not_ok "--json" "$OUT" "$ERR"
fi
# Renju: black's double-three at h8 ends the game; the analysis says so.
printf 'size 15\nrule renju\nopening free\ni8 a1 j8 a3 h9 o1 h10 o3 h8\n' > "$TMPD/forbidden.tgn"
run "$TENGEN" analyze --depth 3 "$TMPD/forbidden.tgn"
if [ "$RC" -eq 0 ] && printf '%s\n' "$OUT" | grep -Eq '^9 black h8 score forbidden double-three best [a-o][0-9]+ score .* blunder forced-loss$'; then
    ok "a forbidden point"
else
    not_ok "a forbidden point" "$OUT" "$ERR"
fi
# RIF: white's pick among black's two 5th moves is judged as white's.
run "$TENGEN" analyze --depth 3 "$TESTDATA/games/rif_black_five.tgn"
if [ "$RC" -eq 0 ] && printf '%s\n' "$OUT" | grep -Eq '^5 white chooses j8 score -?[0-9]+ best (g8|j8) score -?[0-9]+' &&
    printf '%s\n' "$OUT" | grep -Eq '^6 white a1 score '; then
    ok "a 5th-move choice"
else
    not_ok "a 5th-move choice" "$OUT" "$ERR"
fi
run "$TENGEN" analyze --depth 3 --json "$TESTDATA/games/rif_black_five.tgn"
if [ "$RC" -eq 0 ] && printf '%s\n' "$OUT" | tr -d ' \n' | grep -q '"number":5,"colour":"white","kind":"choice","played":"j8","score":-\{0,1\}[0-9]*,"mate":0,"best":"[gj]8"' &&
    printf '%s\n' "$OUT" | tr -d ' \n' | grep -q '"number":6,"colour":"white","kind":"move","played":"a1"'; then
    ok "a 5th-move choice in JSON"
else
    not_ok "a 5th-move choice in JSON" "$OUT" "$ERR"
fi
# Colour choices: RIF's swap after 3, kept by playing 4 at once (no `noswap`),
# is judged as white's, then the stone; scores of the two colours mirror.
printf 'size 15\nrule renju\nopening rif\nh8 h9 h7 h6\npropose g8,j8\nchoose j8\n' > "$TMPD/keep.tgn"
run "$TENGEN" analyze --depth 3 "$TMPD/keep.tgn"
line=$(printf '%s\n' "$OUT" | grep -E '^4 white chooses white score -?[0-9]+ best (white|black) score -?[0-9]+')
# Keeping white is best exactly when white's score is not below zero.
mirror=$(printf '%s\n' "$line" | awk '$8 == "white" ? $6 == $10 && $6 >= 0 : $6 == -$10 && $6 < 0 {print "yes"}')
if [ "$RC" -eq 0 ] && [ "$mirror" = yes ] && printf '%s\n' "$OUT" | grep -Eq '^4 white h6 score '; then
    ok "a colour kept by playing on"
else
    not_ok "a colour kept by playing on" "$OUT" "$ERR"
fi
# Soosorv-8: the second player swaps to black, later keeps it.
run "$TENGEN" analyze --depth 3 --json "$TESTDATA/games/soosorv8.tgn"
if [ "$RC" -eq 0 ] && printf '%s\n' "$OUT" | tr -d ' \n' | grep -q '"number":4,"colour":"black","kind":"colour","played":"black","score":-\{0,1\}[0-9]*,"mate":0,"best":"\(black\|white\)"' &&
    printf '%s\n' "$OUT" | tr -d ' \n' | grep -q '"number":5,"colour":"black","kind":"colour","played":"black"'; then
    ok "colour choices in JSON"
else
    not_ok "colour choices in JSON" "$OUT" "$ERR"
fi
# Swap2: the second player's 4th and 5th stones are judged as stones.
run "$TENGEN" analyze --depth 3 "$TESTDATA/games/swap2.tgn"
if [ "$RC" -eq 0 ] && printf '%s\n' "$OUT" | grep -Eq '^4 white j10 score ' &&
    printf '%s\n' "$OUT" | grep -Eq '^5 black g7 score ' && ! printf '%s\n' "$OUT" | grep -q chooses; then
    ok "swap2's placed stones"
else
    not_ok "swap2's placed stones" "$OUT" "$ERR"
fi
# --rule overrides the header: under freestyle the same h8 is no forbidden
# point but a winning double three; a PSQ (which states no rule) takes it too.
run "$TENGEN" analyze --depth 3 --rule freestyle "$TMPD/forbidden.tgn"
if [ "$RC" -eq 0 ] && printf '%s\n' "$OUT" | grep -Eq '^9 black h8 score win [0-9]+ best ' &&
    ! printf '%s\n' "$OUT" | grep -q forbidden; then
    ok "--rule overrides the header"
else
    not_ok "--rule overrides the header" "$OUT" "$ERR"
fi
"$TENGEN" convert "$TMPD/forbidden.tgn" "$TMPD/forbidden.psq"
run "$TENGEN" analyze --depth 3 --rule freestyle "$TMPD/forbidden.psq"
if [ "$RC" -eq 0 ] && printf '%s\n' "$OUT" | grep -Eq '^9 black h8 score win [0-9]+ best '; then
    ok "--rule for a PSQ"
else
    not_ok "--rule for a PSQ" "$OUT" "$ERR"
fi
# The dual-board variant: one line a whole turn. White's round-5 stones leave
# black five points on both boards (lost at turn 2); black's round 6 wins.
run "$TENGEN" analyze --time 0.2 "$TESTDATA/games/dual_fives.tgn"
n=$(printf '%s\n' "$OUT" | grep -c '^[0-9]* \(black\|white\) [12]:[a-o][0-9]*\( [12]:[a-o][0-9]*\)\{0,1\} score ')
if [ "$RC" -eq 0 ] && [ "$n" -eq 11 ] &&
    printf '%s\n' "$OUT" | grep -Eq '^5 white 2:a3 2:c3 score loss 2 best [12]:[a-o][0-9]+ [12]:[a-o][0-9]+ score -?[0-9]+ blunder forced-loss$' &&
    printf '%s\n' "$OUT" | grep -Eq '^6 black 1:l8 2:l8 score win 1 best [12]:[gl]8 [12]:[gl]8 score win 1$' &&
    printf '%s\n' "$OUT" | grep -Eq '^white blunders [1-9][0-9]* missed-wins 0 forced-loss 5 mean-loss '; then
    ok "dual-board: a line a turn, a loss at turn 2, a win"
else
    not_ok "dual-board: a line a turn, a loss at turn 2, a win" "$OUT" "$ERR"
fi
# Black lets the two-board win go (a15 c15): a missed win (no blunder: white
# must still fill a board), shown with --pv and in JSON; the record's last
# stone, a turn left unfinished, is not judged.
sed -e '$d' "$TESTDATA/games/dual_fives.tgn" > "$TMPD/dual_missed.tgn"
printf '1:a15 1:c15  2:l8 1:g8\n1:b15\n' >> "$TMPD/dual_missed.tgn"
run "$TENGEN" analyze --time 0.2 --pv "$TMPD/dual_missed.tgn"
if [ "$RC" -eq 0 ] && printf '%s\n' "$OUT" | grep -Eq '^6 black 1:a15 1:c15 score -?[0-9]+ best [12]:[gl]8 [12]:[gl]8 score win 1 missed-win$' &&
    printf '%s\n' "$OUT" | grep -A2 '^6 black ' | grep -Eq '^  best [12]:[gl]8 [12]:[gl]8 reply none$' &&
    ! printf '%s\n' "$OUT" | grep -q '^7 black'; then
    ok "dual-board: a missed win"
else
    not_ok "dual-board: a missed win" "$OUT" "$ERR"
fi
run "$TENGEN" analyze --time 0.2 --json "$TMPD/dual_missed.tgn"
if [ "$RC" -eq 0 ] && printf '%s\n' "$OUT" | tr -d ' \n' | grep -q '"number":6,"colour":"black","kind":"turn","played":"1:a151:c15","score":-\{0,1\}[0-9]*,"mate":[-0-9]*,"best":"[12]:[gl]8[12]:[gl]8","best_score":30000,"best_mate":1,"reply":"[12:a-o0-9]*","best_reply":"none","flags":\["missed-win"\]'; then
    ok "dual-board: JSON"
else
    not_ok "dual-board: JSON" "$OUT" "$ERR"
fi
# A stone on a taken point in a dual-board turn is refused where it stands.
printf 'rule dualboard\n1:h8  2:a1 1:h8\n' > "$TMPD/dual_bad.tgn"
run "$TENGEN" analyze --time 0.1 "$TMPD/dual_bad.tgn"
if [ "$RC" -eq 2 ] && printf '%s\n' "$ERR" | grep -q 'dual_bad.tgn:2:12: h8 is occupied' &&
    ! printf '%s\n' "$OUT" | grep -q 'blunders'; then
    ok "dual-board: a taken point is named by line and column"
else
    not_ok "dual-board: a taken point is named by line and column" "status $RC" "$OUT" "$ERR"
fi
expect_fail "bad --rule" 2 "--rule 'bogus': unknown rule" "$TENGEN" analyze --depth 2 --rule bogus "$REC"
expect_fail "bad --blunder" 2 "--blunder '0'" "$TENGEN" analyze --blunder 0 "$REC"

expect_fail "missing file" 2 "nosuch" "$TENGEN" analyze --depth 2 "$TMPD/nosuch.psq"
expect_fail "unknown --from" 2 "--from 'xyz': unknown format" "$TENGEN" analyze --depth 2 --from xyz "$REC"
# Without a known extension the text says what the record is.
cp "$REC" "$TMPD/game.xyz"
run "$TENGEN" analyze --depth 3 "$TMPD/game.xyz"
n=$(printf '%s\n' "$OUT" | grep -c '^[0-9]* \(black\|white\) [a-o][0-9]* score ')
if [ "$RC" -eq 0 ] && [ "$n" -eq 7 ]; then ok "a PSQ without its extension"; else not_ok "a PSQ without its extension" "$OUT" "$ERR"; fi
expect_fail "bad depth" 2 "--depth 'x'" "$TENGEN" analyze --depth x "$REC"
expect_fail "no record" 2 "one RECORD" "$TENGEN" analyze --depth 2
