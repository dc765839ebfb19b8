#!/usr/bin/env bash
# tengen match: a short tengen-vs-tengen match at a tight time control (no
# time losses, no illegal moves, every game saved), and a referee that
# survives engines that crash, answer garbage, hang, play off the board or
# refuse to start.
. "$(dirname "$0")/../cli/lib.sh"
: "${PBRAIN:=build/pbrain-tengen}"
FAKE="$(cd "$(dirname "$0")" && pwd)/fake_brain.sh"

# Four games (two openings, colours reversed), 100 ms a move, 40 stones at most.
# The tolerance covers process start-up and the sanitizer build, where the
# engine runs about ten times slower and overshoots short limits.
grep -v '^#' "$TESTDATA/openings/renju.txt" | head -n 2 >"$TMPD/two.txt"
run "$TENGEN" match --rule renju --turn 100 --time 6000 --tolerance 3000 --max-moves 40 --memory 40 \
    --openings "$TMPD/two.txt" -j 2 --out "$TMPD/games" "$PBRAIN" "$TENGEN pbrain"
games=$(grep -c '^game [0-9]*: ' <<<"$OUT")
bad=$(grep -Ec '^game [0-9]*: .*, (timeout|illegal move|garbage|crash|start failed|forbidden move):' <<<"$OUT")
if [ "$RC" -eq 0 ] && [ "$games" -eq 4 ] && [ "$bad" -eq 0 ] &&
    grep -Eq '^Elo difference \(A - B\): ' <<<"$OUT"; then
    ok "tengen vs tengen: 4 games, no time losses, no illegal moves"
else not_ok "tengen vs tengen: 4 games, no time losses, no illegal moves" "status $RC" "$OUT" "$ERR"; fi

nsaved=$(ls "$TMPD/games"/*.psq 2>/dev/null | wc -l)
ntgn=$(grep -l '^rule renju$' "$TMPD/games"/*.tgn 2>/dev/null | wc -l)
first=$(head -n 1 "$TMPD/games/0001.psq" 2>/dev/null)
opening=$(sed -n '2,6p' "$TMPD/games/0001.psq" 2>/dev/null | tr '\n' ' ')
# i9 k7 g7 g5 g6 in PSQ's 1-based x,y (y from the top): 9,7 11,9 7,9 7,11 7,10.
if [ "$nsaved" -eq 4 ] && [ "$ntgn" -eq 4 ] && [ "$first" = "Piskvorky 15x15, 11:11, 0" ] &&
    [ "$opening" = "9,7,0 11,9,0 7,9,0 7,11,0 7,10,0 " ]; then
    ok "every game is saved as PSQ and .tgn, opening first"
else not_ok "every game is saved as PSQ and .tgn, opening first" "$nsaved files" "$first" "$opening"; fi

# Broken engines lose, the runner says which and why, and the match goes on.
expect_ending() { # NAME MODE PATTERN
    local name=$1 mode=$2 pat=$3
    run "$TENGEN" match --rule freestyle --size 15 --turn 300 --time 5000 --tolerance 300 \
        "$FAKE good" "$FAKE $mode"
    local lost
    lost=$(grep -Ec "$pat" <<<"$OUT")
    if [ "$RC" -eq 0 ] && [ "$lost" -eq 2 ] && grep -Eq '^A fake-good +2 +2 +0 +0' <<<"$OUT"; then
        ok "$name"
    else not_ok "$name" "status $RC" "$OUT" "$ERR"; fi
}
expect_ending "a crashing engine loses both games" crash \
    '^game [12]: .*, crash: (black|white) \(fake-crash\) exited'
expect_ending "an engine answering garbage loses both games" garbage \
    "^game [12]: .*, garbage: (black|white) \(fake-garbage\) answered 'hello there'"
expect_ending "a hanging engine loses on time, both games" sleep \
    '^game [12]: .*, timeout: (black|white) \(fake-sleep\) did not answer'
expect_ending "an engine playing off the board loses both games" illegal \
    '^game [12]: .*, illegal move: (black|white) \(fake-illegal\) played 15,0: off the board'
expect_ending "an engine refusing START loses both games" nostart \
    '^game [12]: .*, start failed: (black|white) \(fake_brain.sh\) refused START 15'

# The report's lines for A by colour and by opening pair.
expect_report() { # NAME MODE COLOURS PAIRS
    local name=$1 mode=$2 colours=$3 pairs=$4
    run "$TENGEN" match --rule freestyle --size 15 --turn 300 --time 5000 --tolerance 300 \
        "$FAKE good" "$FAKE $mode"
    if [ "$RC" -eq 0 ] && grep -Fxq "A as black: $colours" <<<"$OUT" &&
        grep -Fxq "pairs by A's points of 2: $pairs" <<<"$OUT"; then
        ok "$name"
    else not_ok "$name" "status $RC" "$OUT" "$ERR"; fi
}
# Two identical engines: black wins both games, so A wins as black and loses
# as white, and the opening's pair is split.
expect_report "the report splits A's results by colour and by opening pair" good \
    '1 - 0 - 0; as white: 0 - 1 - 0' '0: 0, 0.5: 0, 1: 1, 1.5: 0, 2: 0'
expect_report "an opening won with both colours is a pair of 2" crash \
    '1 - 0 - 0; as white: 1 - 0 - 0' '0: 0, 0.5: 0, 1: 0, 1.5: 0, 2: 1'

# An engine that drops a move sent right after its own answer loses on time
# against an instant opponent; --move-delay gives it the time it needs.
run "$TENGEN" match --rule freestyle --size 15 --turn 300 --time 5000 --tolerance 300 \
    "$FAKE good" "$FAKE busy"
if [ "$RC" -eq 0 ] && [ "$(grep -Ec '^game [12]: .*, timeout: (black|white) \(fake-busy\)' <<<"$OUT")" -eq 2 ]; then
    ok "a command-dropping engine loses on time without a delay"
else not_ok "a command-dropping engine loses on time without a delay" "status $RC" "$OUT" "$ERR"; fi
run "$TENGEN" match --rule freestyle --size 15 --turn 300 --time 5000 --tolerance 300 --move-delay 200 --max-moves 16 \
    "$FAKE good" "$FAKE busy"
if [ "$RC" -eq 0 ] && [ "$(grep -c '^game [12]: ' <<<"$OUT")" -eq 2 ] && ! grep -q 'timeout' <<<"$OUT"; then
    ok "--move-delay lets it play every move"
else not_ok "--move-delay lets it play every move" "status $RC" "$OUT" "$ERR"; fi
run "$TENGEN" match --move-delay -5 "$FAKE good" "$FAKE good"
if [ "$RC" -eq 2 ] && grep -q "move-delay: bad value '-5'" <<<"$ERR"; then
    ok "--move-delay rejects a negative delay"
else not_ok "--move-delay rejects a negative delay" "status $RC" "$OUT" "$ERR"; fi

# A 2-0 sweep: no upper bound, and the lower one is Wilson's 2 / (2 + 1.96^2)
# = 0.3424, -400 log10(1/0.3424 - 1) = -113.4 Elo (worked out by hand).
run "$TENGEN" match --rule freestyle --size 15 --turn 300 --time 5000 --tolerance 300 \
    "$FAKE good" "$FAKE crash"
if [ "$RC" -eq 0 ] && grep -Fxq 'Elo difference (A - B): >= -113.4 (95%; A scored 100%)' <<<"$OUT"; then
    ok "a sweep prints the bounded side of the Elo interval"
else not_ok "a sweep prints the bounded side of the Elo interval" "$OUT" "$ERR"; fi

run "$TENGEN" match --rule freestyle --size 15 --turn 300 --time 5000 "$FAKE good" "$FAKE chatty"
if [ "$RC" -eq 0 ] && grep -Eq '^game 1: .*, five: ' <<<"$OUT" && grep -Eq '^game 2: .*, five: ' <<<"$OUT"; then
    ok "MESSAGE and DEBUG lines are not moves"
else not_ok "MESSAGE and DEBUG lines are not moves" "$OUT" "$ERR"; fi

run "$TENGEN" match --rule freestyle --size 15 --turn 300 --time 5000 "$FAKE good" "$FAKE errors"
if [ "$RC" -eq 0 ] && grep -Eq '^game 1: .*, five: ' <<<"$OUT" && grep -Eq '^game 2: .*, five: ' <<<"$OUT"; then
    ok "a late ERROR line while a move is awaited is not a forfeit"
else not_ok "a late ERROR line while a move is awaited is not a forfeit" "$OUT" "$ERR"; fi

run "$TENGEN" match --rule freestyle --size 15 --turn 300 --time 5000 \
    "$FAKE good" "$TENGEN no-such-command"
if [ "$RC" -eq 0 ] && [ "$(grep -Ec '^game [12]: .*(crash|start failed)' <<<"$OUT")" -eq 2 ]; then
    ok "an engine that cannot run loses"
else not_ok "an engine that cannot run loses" "$OUT" "$ERR"; fi

# SPRT: a sweep decides long before 40 games.
run "$TENGEN" match --rule freestyle --size 15 --turn 300 --games 40 --sprt 0,50 -q \
    "$FAKE good" "$FAKE crash"
if [ "$RC" -eq 0 ] && grep -q 'H1 accepted' <<<"$OUT" && ! grep -Eq '^A fake-good +40 ' <<<"$OUT"; then
    ok "SPRT stops the match when it decides"
else not_ok "SPRT stops the match when it decides" "$OUT" "$ERR"; fi

# Swap2 through SWAP2BOARD: A is the first player in game 1, B in game 2. Each
# pair below leaves the same engine black in both games, by a different road;
# every record replays under `opening swap2` to the same result.
swap2_pair() { # NAME A-STYLE B-STYLE BLACK-NAME TOKEN-PATTERN
    local name=$1 a=$2 b=$3 black=$4 pat=$5
    rm -rf "$TMPD/swap2"
    run "$TENGEN" match --opening swap2 --rule freestyle --size 15 --turn 300 --time 5000 \
        --tolerance 300 --out "$TMPD/swap2" "$FAKE good $a" "$FAKE good $b"
    local fine=1 f
    for f in "$TMPD/swap2/0001.tgn" "$TMPD/swap2/0002.tgn"; do
        grep -qx 'opening swap2' "$f" 2>/dev/null || fine=0
        [ "$("$TENGEN" check "$f" 2>&1 | tail -n 1)" = "result: black wins: five a11-e15 (move 61 at a11)" ] || fine=0
    done
    if [ "$RC" -eq 0 ] && [ "$fine" -eq 1 ] &&
        [ "$(grep -c "^game [12]: fake-good-$black (black) - .*, five: " <<<"$OUT")" -eq 2 ] &&
        grep -Eq "$pat" "$TMPD/swap2/0002.tgn"; then
        ok "swap2: $name"
    else not_ok "swap2: $name" "status $RC" "$OUT" "$ERR" "$(cat "$TMPD"/swap2/*.tgn 2>/dev/null)"; fi
}
# Game 2: B puts three, A swaps (takes black), B plays 4 as white.
swap2_pair "SWAP takes black" swap move swap '^a15 b15 c15 swap d15 '
# Game 2: A puts 4 and 5, B keeps black with SWAP, A plays 6.
swap2_pair "after two more stones, SWAP keeps black" two swap swap '^a15 b15 c15 d15 e15 noswap f15 '
# Game 2: A puts 4 and 5, B takes white with move 6.
swap2_pair "after two more stones, a move takes white" two move two '^a15 b15 c15 d15 e15 swap f15 '
run "$TENGEN" match --opening swap2 --rule freestyle --size 15 --turn 300 --time 5000 --tolerance 300 \
    "$FAKE good move" "$FAKE good garbage"
if [ "$RC" -eq 0 ] &&
    grep -Eq "^game 1: .* 1-0, garbage: white \(fake-good-garbage\) answered 'maybe' to SWAP2BOARD instead of SWAP or one or two stones$" <<<"$OUT" &&
    grep -Eq "^game 2: .* 0-1, garbage: black \(fake-good-garbage\) answered 'maybe' to SWAP2BOARD instead of three stones$" <<<"$OUT" &&
    grep -Eq '^A fake-good-move +2 +2 +0 +0' <<<"$OUT"; then
    ok "swap2: a garbage answer loses, either player"
else not_ok "swap2: a garbage answer loses, either player" "status $RC" "$OUT" "$ERR"; fi
run "$TENGEN" match --opening swap2 --rule freestyle --size 15 --turn 300 --time 5000 --tolerance 300 \
    "$FAKE good move" "$FAKE good none"
if [ "$RC" -eq 0 ] && [ "$(grep -c "answered 'ERROR Unknown command: SWAP2BOARD' to SWAP2BOARD" <<<"$OUT")" -eq 2 ] &&
    grep -Eq '^A fake-good-move +2 +2 +0 +0' <<<"$OUT"; then
    ok "swap2: an engine without SWAP2BOARD loses"
else not_ok "swap2: an engine without SWAP2BOARD loses" "status $RC" "$OUT" "$ERR"; fi
# tengen against itself under swap2 (renju): legal answers in time, records that replay.
rm -rf "$TMPD/swap2"
run "$TENGEN" match --opening swap2 --rule renju --turn 100 --time 6000 --tolerance 3000 --max-moves 40 \
    --memory 40 -j 2 --out "$TMPD/swap2" "$PBRAIN" "$TENGEN pbrain"
bad=$(grep -Ec '^game [0-9]*: .*, (timeout|illegal move|garbage|crash|start failed|forbidden move):' <<<"$OUT")
replay=0
for f in "$TMPD"/swap2/*.tgn; do "$TENGEN" check "$f" >/dev/null 2>&1 && replay=$((replay + 1)); done
if [ "$RC" -eq 0 ] && [ "$(grep -c '^game [12]: ' <<<"$OUT")" -eq 2 ] && [ "$bad" -eq 0 ] && [ "$replay" -eq 2 ] &&
    [ "$(grep -lx 'opening swap2' "$TMPD"/swap2/*.tgn | wc -l)" -eq 2 ]; then
    ok "swap2: tengen against tengen"
else not_ok "swap2: tengen against tengen" "status $RC" "$OUT" "$ERR"; fi
expect_fail "--opening swap2 takes no opening file" 2 "--opening swap2 and --openings exclude each other" \
    "$TENGEN" match --opening swap2 --openings "$TESTDATA/openings/renju.txt" a b
expect_fail "an unknown --opening" 2 "--opening: bad value 'nigiri'" "$TENGEN" match --opening nigiri a b
expect_fail "a designated opening is given as opening stones" 2 "--opening: bad value 'designated'" \
    "$TENGEN" match --opening designated a b
expect_fail "--opening rif takes no opening file" 2 "--opening rif and --openings exclude each other" \
    "$TENGEN" match --opening rif --openings "$TESTDATA/openings/renju.txt" a b

# The opening rules the game library runs, each decision asked through
# TGOPENING: tengen against itself under each (swap1 in freestyle: the free
# opener), no faults, and every record replays under its rule with the
# rule's steps in order.
opening_steps() { # RULE OPENING PATTERN
    local rule=$1 o=$2 pat=$3 name="$2: tengen against tengen"
    rm -rf "$TMPD/op"
    run "$TENGEN" match --opening "$o" --rule "$rule" --size 15 --turn 100 --time 6000 --tolerance 3000 \
        --max-moves 14 --memory 40 -j 2 --out "$TMPD/op" "$PBRAIN" "$TENGEN pbrain"
    local bad replay=0 shaped=0
    bad=$(grep -Ec '^game [0-9]*: .*, (timeout|illegal move|garbage|crash|start failed|forbidden move):' <<<"$OUT")
    for f in "$TMPD"/op/*.tgn; do
        "$TENGEN" check "$f" >/dev/null 2>&1 && replay=$((replay + 1))
        grep -v '^#' "$f" | tr '\n' ' ' | grep -Eq "^size 15 rule $rule opening $o $pat" && shaped=$((shaped + 1))
    done
    if [ "$RC" -eq 0 ] && [ "$(grep -c '^game [12]: ' <<<"$OUT")" -eq 2 ] && [ "$bad" -eq 0 ] &&
        [ "$replay" -eq 2 ] && [ "$shaped" -eq 2 ]; then
        ok "$name"
    else not_ok "$name" "status $RC, $replay replayed, $shaped shaped" "$OUT" "$ERR" "$(cat "$TMPD"/op/*.tgn 2>/dev/null)"; fi
}
S='[a-o][0-9]+' C='(swap|noswap)'
opening_steps renju rif "h8 $S $S $C $S propose $S,$S choose $S "
opening_steps renju yamaguchi "h8 $S $S declare [0-9]+ $C $S propose $S(,$S)* choose $S "
opening_steps renju soosorv8 "h8 $S $S $C $S declare [0-9]+ $C propose $S(,$S)* choose $S "
opening_steps renju taraguchi10 "h8 $C $S $C $S $C $S ($S $C|propose $S(,$S){9} choose $S) "
opening_steps freestyle swap1 "$S $S $S $C $S "
# An even board, whose centre the game puts at the lower left of the middle four.
run "$TENGEN" match --opening taraguchi10 --rule renju --size 16 --turn 100 --time 6000 --tolerance 3000 \
    --max-moves 10 --memory 40 -j 2 "$PBRAIN" "$TENGEN pbrain"
if [ "$RC" -eq 0 ] && [ "$(grep -c '^game [12]: .*, draw (move limit): ' <<<"$OUT")" -eq 2 ]; then
    ok "taraguchi10 on 16x16: every stone in the game's central squares"
else not_ok "taraguchi10 on 16x16: every stone in the game's central squares" "status $RC" "$OUT" "$ERR"; fi

# Broken or refused TGOPENING answers lose for the engine that gave them, in
# either seat; the slots follow every colour choice.
rm -rf "$TMPD/op"
run "$TENGEN" match --opening rif --rule renju --size 15 --turn 300 --time 5000 --tolerance 300 \
    "$FAKE good none" "$FAKE good move"
if [ "$RC" -eq 0 ] &&
    grep -Eq "^game 1: .* 0-1, garbage: black \(fake-good-none\) answered 'ERROR Unknown command: TGOPENING' to TGOPENING place3 2 instead of three stones$" <<<"$OUT" &&
    grep -Eq "^game 2: .* 1-0, garbage: white \(fake-good-none\) answered 'ERROR Unknown command: TGOPENING' to TGOPENING swap 2 instead of SWAP or NOSWAP$" <<<"$OUT" &&
    grep -Eq '^A fake-good-none +2 +0 +2 +0' <<<"$OUT"; then
    ok "TGOPENING: an engine without it loses, either player"
else not_ok "TGOPENING: an engine without it loses, either player" "status $RC" "$OUT" "$ERR"; fi
run "$TENGEN" match --opening rif --rule renju --size 15 --turn 300 --time 5000 --tolerance 300 --games 1 \
    "$FAKE good off" "$FAKE good move"
if [ "$RC" -eq 0 ] &&
    grep -Eq "^game 1: .* 0-1, illegal move: black \(fake-good-off\) answered '0,0 1,0 2,0' to TGOPENING place3 2: move 1 goes on the centre \(h8\), not a15$" <<<"$OUT"; then
    ok "TGOPENING: an answer the opening rule refuses loses, with the rule's reason"
else not_ok "TGOPENING: an answer the opening rule refuses loses, with the rule's reason" "status $RC" "$OUT" "$ERR"; fi
run "$TENGEN" match --opening yamaguchi --rule renju --size 15 --turn 300 --time 5000 --tolerance 300 \
    --games 1 "$FAKE good huge" "$FAKE good move"
if [ "$RC" -eq 0 ] &&
    grep -Eq "^game 1: .* 0-1, garbage: black \(fake-good-huge\) answered '99999999999' to TGOPENING declare 10 instead of a number$" <<<"$OUT"; then
    ok "TGOPENING: a number out of range is garbage"
else not_ok "TGOPENING: a number out of range is garbage" "status $RC" "$OUT" "$ERR"; fi
run "$TENGEN" match --opening rif --rule renju --size 15 --turn 300 --time 5000 --tolerance 300 \
    --out "$TMPD/op" "$FAKE good move" "$FAKE good swap"
if [ "$RC" -eq 0 ] && [ "$(grep -c '^game [12]: fake-good-swap (black) - fake-good-move (white) ' <<<"$OUT")" -eq 2 ] &&
    grep -q '^A as black: 0 - 0 - 0; as white: 2 - 0 - 0$' <<<"$OUT" &&
    grep -Eq '^h8 h9 h10 swap a15 propose b15,c15 choose b15 ' "$TMPD/op/0001.tgn" &&
    grep -Eq '^h8 h9 h10 noswap a15 propose b15,c15 choose b15 ' "$TMPD/op/0002.tgn"; then
    ok "TGOPENING: the engines change seats with the colours"
else not_ok "TGOPENING: the engines change seats with the colours" "status $RC" "$OUT" "$ERR" "$(cat "$TMPD"/op/*.tgn 2>/dev/null)"; fi

expect_fail "one engine is not a match" 2 'give exactly two engine command lines' \
    "$TENGEN" match "$FAKE good"
expect_fail "bad rule" 2 "--rule: bad value 'gomoku'" "$TENGEN" match --rule gomoku a b
expect_fail "bad SPRT bounds" 2 "--sprt: bad value '5,0'" "$TENGEN" match --sprt 5,0 a b
printf 'h8 h9\nh8 q99\n' >"$TMPD/bad.txt"
expect_fail "bad opening file names line and move" 2 'bad.txt: line 2, move 2 .q99.' \
    "$TENGEN" match --openings "$TMPD/bad.txt" a b
expect_fail "a missing opening file is named" 2 "cannot open '$TMPD/none.txt'" \
    "$TENGEN" match --openings "$TMPD/none.txt" a b
printf 'h8 h9\n\0\n' >"$TMPD/nul.txt"
expect_fail "a binary opening file is refused" 2 'line 2, column 1: a NUL byte' \
    "$TENGEN" match --openings "$TMPD/nul.txt" a b
