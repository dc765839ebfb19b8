#!/usr/bin/env bash
# tengen analyze: one line per stone, scores for the move played and the engine's choice.
. "$(dirname "$0")/lib.sh"

REC="$TESTDATA/records/gomocup.psq" # h8 i8 h7 i7 h6 i6 h5: black's open four in the h column

run "$TENGEN" analyze --depth 3 "$REC"
n=$(printf '%s\n' "$OUT" | grep -c '^[0-9]* \(black\|white\) [a-o][0-9]* score ')
if [ "$RC" -eq 0 ] && [ "$n" -eq 7 ]; then ok "one line per stone"; else not_ok "one line per stone" "$OUT" "$ERR"; fi
# White's i6 ignores the open three: black's open four, then five at ply 4.
if printf '%s\n' "$OUT" | grep -Eq '^6 white i6 score loss 4 best (h9|h5) score -?[0-9]+$'; then
    ok "ignoring an open three loses; blocking does not"
else
    not_ok "ignoring an open three loses; blocking does not" "$OUT"
fi
if printf '%s\n' "$OUT" | grep -Eq '^7 black h5 score win 3 best (h5|h9) score win 3$'; then
    ok "the open four wins in three plies"
else
    not_ok "the open four wins in three plies" "$OUT"
fi

expect_fail "missing file" 2 "nosuch" "$TENGEN" analyze --depth 2 "$TMPD/nosuch.psq"
expect_fail "unknown --from" 2 "--from 'xyz': unknown format" "$TENGEN" analyze --depth 2 --from xyz "$REC"
# Without a known extension the text says what the record is.
cp "$REC" "$TMPD/game.xyz"
run "$TENGEN" analyze --depth 3 "$TMPD/game.xyz"
n=$(printf '%s\n' "$OUT" | grep -c '^[0-9]* \(black\|white\) [a-o][0-9]* score ')
if [ "$RC" -eq 0 ] && [ "$n" -eq 7 ]; then ok "a PSQ without its extension"; else not_ok "a PSQ without its extension" "$OUT" "$ERR"; fi
expect_fail "bad depth" 2 "--depth 'x'" "$TENGEN" analyze --depth x "$REC"
expect_fail "no record" 2 "one RECORD" "$TENGEN" analyze --depth 2
