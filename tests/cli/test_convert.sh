#!/usr/bin/env bash
# tengen convert: every format in and out, round trips, stdin/stdout, errors.
. "$(dirname "$0")/lib.sh"

R="$TESTDATA/records"
YAMA_TGN="size 15
rule renju
opening yamaguchi
h8 h9 i9 declare 2 swap i10 propose j10,g8 choose g8 g10 f9
pass e10 claim"

expect_out "tgn to canonical tgn" "$YAMA_TGN" "$TENGEN" convert "$R/yamaguchi.tgn" -

# tgn -> sgf -> tgn keeps every action.
run "$TENGEN" convert "$R/yamaguchi.tgn" "$TMPD/y.sgf"
if [ "$RC" -eq 0 ] && [ -z "$OUT" ] && grep -q 'TGA\[propose j10,g8\];B\[gh\]TGA\[choose\]' "$TMPD/y.sgf" &&
    grep -q ';W\[\];' "$TMPD/y.sgf"; then ok "tgn to sgf"; else
    not_ok "tgn to sgf" "status $RC" "$(cat "$TMPD/y.sgf" 2>/dev/null)" "$ERR"; fi
expect_out "sgf back to tgn is the same game" "$YAMA_TGN" "$TENGEN" convert "$TMPD/y.sgf" -

# PSQ: 1-based x,y with y from the top; the trailer is ignored.
expect_out "psq to tgn" "size 15
opening free
h8 i8 h7 i7 h6 i6 h5" "$TENGEN" convert "$R/gomocup.psq" -
expect_out "psq to psq" "Piskvorky 15x15, 11:11, 0
8,8,0
9,8,0
8,9,0
9,9,0
8,10,0
9,10,0
8,11,0" "$TENGEN" convert "$R/gomocup.psq" --to psq -
expect_out "--rule fills in what psq leaves unsaid" "size 15
rule freestyle
opening free
h8 i8 h7 i7 h6 i6 h5" "$TENGEN" convert --rule freestyle "$R/gomocup.psq" -

# Swaps and proposals are dropped, the chosen 5th move stays a stone.
printf 'opening rif\nh8 h9 i9 swap i10 propose j10,g8 choose g8 g10 resign\n' >"$TMPD/rif.tgn"
run "$TENGEN" convert "$TMPD/rif.tgn" "$TMPD/out.psq"
if [ "$RC" -eq 0 ] && [ "$(sed -n '2,$p' "$TMPD/out.psq" | tr '\n' ' ')" = "8,8,0 8,7,0 9,7,0 9,6,0 7,8,0 7,6,0 " ]; then
    ok "tgn to psq keeps the stones placed"; else
    not_ok "tgn to psq keeps the stones placed" "status $RC" "$(cat "$TMPD/out.psq" 2>/dev/null)" "$ERR"; fi
expect_out "psq back to tgn" "size 15
opening free
h8 h9 i9 i10 g8 g10" "$TENGEN" convert "$TMPD/out.psq" -

# SGF main line (first variation), comments skipped.
expect_out "sgf main line to tgn" "size 15
rule renju
h8 h9 i9 j10 g7" "$TENGEN" convert "$R/game.sgf" -

# RenjuNet database: first game by default, --game picks another.
expect_out "rif first game" "size 15
opening free
h8 h9 i9 i10 g8 g10 f9" "$TENGEN" convert "$R/renjunet.rif" -
expect_out "rif --game 2" "size 15
opening free
h8 h9 h7 g8 i8 j9" "$TENGEN" convert --game 2 "$R/renjunet.rif" -
run "$TENGEN" convert --game 2 "$R/renjunet.rif" "$TMPD/g2.rif"
expect_out "rif round trip" "size 15
opening free
h8 h9 h7 g8 i8 j9" "$TENGEN" convert "$TMPD/g2.rif" -

# Standard input: the format is guessed from the text unless --from says it.
run sh -c "cat '$R/gomocup.psq' | '$TENGEN' convert - -"
if [ "$RC" -eq 0 ] && printf '%s' "$OUT" | grep -q '^h8 i8 h7'; then ok "stdin psq is recognised"; else
    not_ok "stdin psq is recognised" "status $RC" "$OUT" "$ERR"; fi
run sh -c "printf 'h8 h9\n' | '$TENGEN' convert --to sgf - -"
if [ "$RC" -eq 0 ] && [ "$OUT" = "(;FF[4]GM[4]CA[UTF-8]AP[tengen]SZ[15]RU[renju]
;B[hh];W[hg])" ]; then ok "stdin tgn to sgf on stdout"; else
    not_ok "stdin tgn to sgf on stdout" "status $RC" "$OUT" "$ERR"; fi

# A file without a known extension is read as what its text looks like.
cp "$R/game.sgf" "$TMPD/download"
expect_out "sgf without its extension" "size 15
rule renju
h8 h9 i9 j10 g7" "$TENGEN" convert "$TMPD/download" -
cp "$R/renjunet.rif" "$TMPD/games.xml"
expect_out "rif named .xml" "size 15
opening free
h8 h9 h7 g8 i8 j9" "$TENGEN" convert --game 2 "$TMPD/games.xml" -

# Output is written atomically: a good run leaves only the file.
run "$TENGEN" convert "$R/game.sgf" "$TMPD/atomic.tgn"
left=$(ls "$TMPD" | grep -c 'atomic.tgn.*tmp')
if [ "$RC" -eq 0 ] && [ "$left" -eq 0 ] && grep -q '^h8 h9 i9 j10 g7$' "$TMPD/atomic.tgn"; then
    ok "file output"; else not_ok "file output" "status $RC" "$ERR"; fi

# Errors: line and column, exit 2, nothing written.
printf 'size 15\nh8 h9\n  h10 q4\n' >"$TMPD/bad.tgn"
echo "keep me" >"$TMPD/keep.sgf"
expect_fail "bad point names line and column" 2 "bad.tgn:3:7: 'q4' is off the 15x15 board" \
    "$TENGEN" convert "$TMPD/bad.tgn" "$TMPD/keep.sgf"
if [ "$(cat "$TMPD/keep.sgf")" = "keep me" ]; then ok "failed run leaves the output alone"; else
    not_ok "failed run leaves the output alone" "$(cat "$TMPD/keep.sgf")"; fi
expect_fail "header after an action" 2 "2:1: 'rule': a header must come before" \
    sh -c "printf 'h8\nrule caro\n' | '$TENGEN' convert - -"
expect_fail "pass cannot go to psq" 2 "yamaguchi.tgn:11:8: PSQ cannot hold a pass" \
    "$TENGEN" convert "$R/yamaguchi.tgn" "$TMPD/no.psq"
[ -e "$TMPD/no.psq" ] && not_ok "nothing written on error" || ok "nothing written on error"
printf 'Piskvorky 15x15, 11:11, 0\n8,8,0\n16,1,0\n' >"$TMPD/bad.psq"
expect_fail "psq off-board move" 2 "bad.psq:3:1: '16' is off the 15x15 board" \
    "$TENGEN" convert "$TMPD/bad.psq" -
printf '(;GM[4];B[hh]\n;B[ii])' >"$TMPD/bad.sgf"
expect_fail "sgf colours must alternate" 2 "bad.sgf:2:4: B\[ii\]: black stone where white is to move" \
    "$TENGEN" convert "$TMPD/bad.sgf" -
expect_fail "rif game out of range" 2 "game 3: the file holds only 2 games" \
    "$TENGEN" convert --game 3 "$R/renjunet.rif" -
expect_fail "game number not a number" 2 "argument 2 'x': the game number" \
    "$TENGEN" convert --game x "$R/renjunet.rif" -
expect_fail "unknown output extension" 2 "cannot tell the format of '$TMPD/notes.txt'" \
    "$TENGEN" convert "$R/game.sgf" "$TMPD/notes.txt"
expect_fail "missing file without an extension" 2 "cannot open '$TMPD/none'" "$TENGEN" convert "$TMPD/none" -
expect_fail "unknown --to" 2 "--to 'pgn': unknown format" \
    "$TENGEN" convert --to pgn "$R/game.sgf" -
expect_fail "missing file" 2 "cannot open '$TMPD/none.tgn'" "$TENGEN" convert "$TMPD/none.tgn" -
expect_fail "one argument" 2 "expected IN and OUT, got 1 argument" "$TENGEN" convert "$R/game.sgf"
expect_fail "unknown option" 2 "argument 1 '--frob': unknown option" "$TENGEN" convert --frob a b
expect_fail "--rule contradicts the record" 2 "--rule caro: the record says rule renju" \
    "$TENGEN" convert --rule caro "$R/yamaguchi.tgn" -
printf 'h8 h9\ni9\0j10\n' >"$TMPD/nul.tgn"
expect_fail "NUL byte" 2 "nul.tgn:2:3: a NUL byte" "$TENGEN" convert "$TMPD/nul.tgn" -
: >"$TMPD/empty.psq"
expect_fail "empty psq" 2 "empty.psq:1:1: '': expected the PSQ header" "$TENGEN" convert "$TMPD/empty.psq" -
expect_out "empty tgn is an empty game" "" "$TENGEN" convert --from tgn /dev/null -
head -c 3000 /dev/urandom >"$TMPD/junk.sgf"
run "$TENGEN" convert "$TMPD/junk.sgf" -
if [ "$RC" -eq 2 ] && [ -z "$OUT" ]; then ok "random bytes are rejected"; else
    not_ok "random bytes are rejected" "status $RC" "$ERR"; fi
expect_out "--opening replaces the implied free opening of psq" "size 15
opening swap2
h8 i8 h7 i7 h6 i6 h5" "$TENGEN" convert --opening swap2 "$R/gomocup.psq" -
expect_fail "--opening contradicts the record" 2 "--opening free: the record says opening yamaguchi" \
    "$TENGEN" convert --opening free "$R/yamaguchi.tgn" -
expect_fail "--opening unknown" 2 "--opening 'swap9': unknown opening" \
    "$TENGEN" convert --opening swap9 "$R/gomocup.psq" -
