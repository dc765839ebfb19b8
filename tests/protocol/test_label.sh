#!/usr/bin/env bash
# tengen tune label: scores every position of tuning data with a pbrain engine
# (a scripted one whose answers are known, and tengen's own), survives an
# engine that drops commands, and names the game and position when an engine
# hangs, crashes or reports no evaluation.
. "$(dirname "$0")/../cli/lib.sh"
: "${PBRAIN:=build/pbrain-tengen}"
FAKE="$(cd "$(dirname "$0")" && pwd)/label_brain.sh"

cat >"$TMPD/games.txt" <<'DATA'
# two games, openings of 3 and 2 stones
1-0 3 h8,h9,i9,g7,j10,k11,i7
0-1 2 h8,h9,i9,g7,j10,k11
DATA

# The value the scripted engine gives a position of K stones: 100 * its own
# stones + the opponent's, the mover's stones being the fewer when K is odd.
expected() { # OPENING MOVES
    local op=$1 n=$2 k s=""
    for ((k = op; k < n; k++)); do s="$s,$((100 * (k / 2) + (k + 1) / 2))"; done
    echo "${s#,}"
}
want="1-0 3 h8,h9,i9,g7,j10,k11,i7 $(expected 3 7)
0-1 2 h8,h9,i9,g7,j10,k11 $(expected 2 6)"

label_ok() { # NAME MODE [OPTIONS...]
    local name=$1 mode=$2
    shift 2
    rm -f "$TMPD/out.txt"
    run "$TENGEN" tune label --rule freestyle --engine "$FAKE $mode" "$@" "$TMPD/games.txt" \
        --out "$TMPD/out.txt"
    local got
    got=$(grep -v '^#' "$TMPD/out.txt" 2>/dev/null)
    if [ "$RC" -eq 0 ] && [ "$got" = "$want" ] && head -n 1 "$TMPD/out.txt" | grep -qx '# tengen tune data 2' &&
        grep -q 'labelled 2 of 2 games' <<<"$ERR"; then ok "$name"; else
        not_ok "$name" "status $RC" "want: $want" "got:  $got" "stderr: $ERR"; fi
}
label_ok "label: every position from the opening on, the mover's view (Eval N)" good
label_ok "label: two engines at once give the same file" good --jobs 2
label_ok "label: tengen's ev N is read and a second-best line is not" tengen
label_ok "label: an engine that drops commands after its move is asked again" busy --jobs 2
label_ok "label: every position is scored from an empty hash (YXHASHCLEAR)" memory

want="1-0 3 h8,h9,i9,g7,j10,k11,i7 -10000,10000,10000,-10000
0-1 2 h8,h9,i9,g7,j10,k11 -10000,-10000,10000,10000"
label_ok "label: mates are +-10000 from the mover's view" mate

# The file is tune data: it fits, and --score-k auto finds the scores' own scale.
run "$TENGEN" tune label --rule freestyle --engine "$FAKE good" "$TMPD/games.txt" --out "$TMPD/good.txt"
run "$TENGEN" tune fit --rule freestyle --iterations 0 --lambda 0.5 --score-k auto "$TMPD/good.txt"
if [ "$RC" -eq 0 ] && grep -Eq '^lambda 0\.500 scored positions [0-9]+ score K [0-9.]+$' <<<"$OUT"; then
    ok "label: its output is fitted with --score-k auto"
else not_ok "label: its output is fitted with --score-k auto" "status $RC" "$OUT" "$ERR"; fi

# tengen itself as the labeller, on a game of threats: black to move with an
# open three wins (+), white to move facing an open four loses (-), black to
# move with a four makes five at once (no evaluation needed: +10000).
printf '1-0 5 h8,a1,h9,a2,h10,a3,h11,a4,h12\n' >"$TMPD/threats.txt"
run "$TENGEN" tune label --rule freestyle --engine "$PBRAIN" --nodes 3000 "$TMPD/threats.txt" \
    --out "$TMPD/threats.out"
got=$(grep -v '^#' "$TMPD/threats.out" 2>/dev/null | cut -d' ' -f4)
if [ "$RC" -eq 0 ] && [[ "$got" =~ ^-?[0-9]+,10000,-10000,10000$ ]]; then
    ok "label: tengen's scores have the mover's sign"
else not_ok "label: tengen's scores have the mover's sign" "status $RC" "got: $got" "$ERR"; fi

# Engines that fail: the error names the game and the position, nothing is written.
label_fails() { # NAME MODE PATTERN
    rm -f "$TMPD/bad.txt"
    expect_fail "$1" 2 "$3" "$TENGEN" tune label --rule freestyle --engine "$FAKE $2" --turn 100 \
        "$TMPD/games.txt" --out "$TMPD/bad.txt"
    [ -e "$TMPD/bad.txt" ] && not_ok "$1: no file written" || ok "$1: no file written"
}
label_fails "label: an engine with no evaluation" silent \
    'games.txt: game 1, position of 3 stones: .* reported no evaluation'
label_fails "label: an engine that hangs" hang 'games.txt: game 1, position of 3 stones: .* gave no move in time'
label_fails "label: an engine that crashes" crash 'games.txt: game 1, position of 3 stones: .* exited'
# Silence is allowed where the fit takes no score: black to move with an open
# three (a flex four to make) gets 0; after black plays elsewhere, white to
# move is quiet again.
printf '1-0 6 h8,a1,h9,a2,h10,a3,o15,b1\n' >"$TMPD/open3.txt"
expect_fail "label: a silent engine fails at the first position the fit uses" 2 \
    'open3.txt: game 1, position of 7 stones: .* reported no evaluation' \
    "$TENGEN" tune label --rule freestyle --engine "$FAKE silent" "$TMPD/open3.txt" --out "$TMPD/x.txt"
printf '1-0 6 h8,a1,h9,a2,h10,a3,h11,a4,h12\n' >"$TMPD/fours.txt"
run "$TENGEN" tune label --rule freestyle --engine "$FAKE silent" "$TMPD/fours.txt" --out "$TMPD/fours.out"
got=$(grep -v '^#' "$TMPD/fours.out" 2>/dev/null | cut -d' ' -f4)
if [ "$RC" -eq 0 ] && [ "$got" = "0,0,10000" ]; then
    ok "label: no evaluation needed where threats decide (0, or 10000 for a five)"
else not_ok "label: no evaluation needed where threats decide (0, or 10000 for a five)" "status $RC" "got: $got" "$ERR"; fi
expect_fail "label: an engine that cannot be run" 2 'engine exited before (answering )?START' \
    "$TENGEN" tune label --rule freestyle --engine /nonexistent/engine "$TMPD/games.txt" --out "$TMPD/x.txt"
expect_fail "label: --engine and --out are needed" 2 'label needs --engine and --out' \
    "$TENGEN" tune label --rule freestyle "$TMPD/games.txt"
expect_fail "label: a bad --jobs is named" 2 "argument 7 '0': --jobs must be 1..64" \
    "$TENGEN" tune label --rule freestyle --engine x --jobs 0 "$TMPD/games.txt" --out "$TMPD/x.txt"
printf '1-0 3 h8,h9,zz\n' >"$TMPD/broken.txt"
expect_fail "label: bad data is named by line and column" 2 "broken.txt:1:13: bad move 'zz'" \
    "$TENGEN" tune label --rule freestyle --engine "$FAKE good" "$TMPD/broken.txt" --out "$TMPD/x.txt"
