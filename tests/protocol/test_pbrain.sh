#!/usr/bin/env bash
# pbrain protocol transcripts: each transcripts/NAME.in is fed to the brain and
# its replies are compared with NAME.out line by line. Search progress
# (MESSAGE depth ... / MESSAGE nbest ...) is left out of the comparison; an
# expected line starting with `~` is an extended regular expression that must
# match the whole reply line. Then the things a transcript cannot show:
# progress messages, STOP and END while thinking.
. "$(dirname "$0")/../cli/lib.sh"
: "${PBRAIN:=build/pbrain-tengen}"
DIR=$(dirname "$0")/transcripts

# compare NAME FILE_GOT FILE_WANT
compare() {
    local name=$1 got=$2 want=$3 i=0 g w
    local -a G W
    mapfile -t G < <(grep -Ev '^MESSAGE (depth|nbest) ' "$got")
    mapfile -t W <"$want"
    if [ "${#G[@]}" -ne "${#W[@]}" ]; then
        not_ok "$name" "got ${#G[@]} lines, want ${#W[@]}" "got:" "${G[@]}"
        return
    fi
    for ((i = 0; i < ${#W[@]}; i++)); do
        g=${G[$i]} w=${W[$i]}
        if [ "${w:0:1}" = "~" ]; then
            printf '%s\n' "$g" | grep -Eqx -- "${w:1}" && continue
        else
            [ "$g" = "$w" ] && continue
        fi
        not_ok "$name" "line $((i + 1)): got '$g'" "want '$w'"
        return
    done
    ok "$name"
}

for t in "$DIR"/*.in; do
    name=$(basename "$t" .in)
    timeout 60 "$PBRAIN" <"$t" >"$TMPD/$name.got" 2>"$TMPD/$name.err"
    rc=$?
    if [ "$rc" -ne 0 ]; then
        not_ok "transcript $name" "status $rc" "$(cat "$TMPD/$name.err")"
        continue
    fi
    compare "transcript $name" "$TMPD/$name.got" "${t%.in}.out"
done

# START is answered at once while the hash's pages are still being mapped on
# a spare thread; END right after must still exit cleanly (the thread is
# cancelled). transcripts/start_lifecycle covers clears, rule changes and
# hash resizes around searches.
got=$(printf 'START 15\nEND\n' | timeout 20 "$PBRAIN" 2>&1)
rc=$?
if [ "$rc" -eq 0 ] && [ "$got" = "OK" ]; then ok "START replies OK, END right after exits 0"
else not_ok "START replies OK, END right after exits 0" "status $rc" "$got"; fi

# `tengen pbrain` is the same brain.
timeout 20 "$TENGEN" pbrain <"$DIR/start.in" >"$TMPD/sub.got" 2>&1
compare "tengen pbrain serves the protocol too" "$TMPD/sub.got" "$DIR/start.out"

# feed_then_end INPUT PATTERN OUT: sends INPUT (printf format), then END once
# OUT holds a line matching PATTERN (at most 15 s). END stops a search at once,
# so sending it with the input races the search on a loaded machine.
feed_then_end() {
    rm -f "$3"
    {
        printf "$1"
        for _ in $(seq 150); do
            grep -Eq -- "$2" "$3" 2>/dev/null && break
            sleep 0.1
        done
        printf 'END\n'
    } | timeout 20 "$PBRAIN" >"$3" 2>&1
}

# A move comes with progress messages: depth, score and the best line.
feed_then_end 'START 15\nINFO timeout_turn 500\nINFO max_depth 3\nBEGIN\nTURN 8,8\n' \
    '^[0-9]+,[0-9]+$' "$TMPD/progress"
if grep -Eq '^MESSAGE depth [0-9]+-[0-9]+ ev -?[0-9M+]+ nodes [0-9]+ nps [0-9]+ time [0-9]+ pv [a-o][0-9]+' "$TMPD/progress"; then
    ok "progress messages report depth, score and the best line"
else not_ok "progress messages report depth, score and the best line" "$(cat "$TMPD/progress")"; fi

feed_then_end 'START 15\nINFO max_depth 3\nINFO timeout_turn 2000\nBOARD\n7,7,1\n8,8,2\nDONE\nYXNBEST 3\n' \
    '^MESSAGE nbest 3 ' "$TMPD/nbest"
if grep -q '^MESSAGE nbest 3 ' "$TMPD/nbest"; then ok "YXNBEST 3 reports three lines"
else not_ok "YXNBEST 3 reports three lines" "$(cat "$TMPD/nbest")"; fi

# A middle-game position searched with a minute per move: STOP must bring the
# answer at once, END must end the brain at once.
POS='BOARD\n7,7,1\n8,8,2\n8,6,1\n6,8,2\n9,7,1\n7,9,2\n5,5,1\n10,10,2\nDONE\n'
start=$(date +%s%N)
{ printf "START 15\nINFO timeout_turn 60000\nINFO timeout_match 0\n$POS"; sleep 0.5; printf 'STOP\n'; sleep 0.5; printf 'END\n'; } |
    timeout 30 "$PBRAIN" >"$TMPD/stop" 2>&1
ms=$((($(date +%s%N) - start) / 1000000))
if [ "$(grep -Ec '^[0-9]+,[0-9]+$' "$TMPD/stop")" -eq 1 ] && [ "$ms" -lt 10000 ]; then
    ok "STOP while thinking answers at once (${ms} ms)"
else not_ok "STOP while thinking answers at once" "took $ms ms" "$(cat "$TMPD/stop")"; fi

start=$(date +%s%N)
{ printf "START 15\nINFO timeout_turn 60000\n$POS"; sleep 0.3; printf 'YXSTOP\n'; sleep 0.3; printf 'END\n'; } |
    timeout 30 "$PBRAIN" >"$TMPD/yxstop" 2>&1
ms=$((($(date +%s%N) - start) / 1000000))
if [ "$(grep -Ec '^[0-9]+,[0-9]+$' "$TMPD/yxstop")" -eq 1 ] && [ "$ms" -lt 10000 ]; then
    ok "YXSTOP while thinking answers at once (${ms} ms)"
else not_ok "YXSTOP while thinking answers at once" "took $ms ms" "$(cat "$TMPD/yxstop")"; fi

# END while thinking, with the input kept open: the brain must exit by itself.
coproc ENDER { "$PBRAIN" >/dev/null 2>&1; }
printf "START 15\nINFO timeout_turn 60000\n$POS" >&"${ENDER[1]}"
sleep 0.3
printf 'END\n' >&"${ENDER[1]}"
for _ in $(seq 100); do kill -0 "$ENDER_PID" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$ENDER_PID" 2>/dev/null; then
    not_ok "END while thinking ends the brain" "still running after 10 s"
    kill "$ENDER_PID" 2>/dev/null
else ok "END while thinking ends the brain"; fi
wait "$ENDER_PID" 2>/dev/null

# A STOP sent the instant the search starts must not be lost.
start=$(date +%s%N)
printf "START 15\nINFO timeout_turn 60000\n${POS}STOP\nEND\n" | timeout 30 "$PBRAIN" >"$TMPD/early" 2>&1
ms=$((($(date +%s%N) - start) / 1000000))
if [ "$(grep -Ec '^[0-9]+,[0-9]+$' "$TMPD/early")" -eq 1 ] && [ "$ms" -lt 10000 ]; then
    ok "a STOP right behind the command is heard (${ms} ms)"
else not_ok "a STOP right behind the command is heard" "took $ms ms" "$(cat "$TMPD/early")"; fi

# The time limit holds: 300 ms a move, answered within 300 ms plus overhead
# (timed from the command, after START has been answered). A loaded machine
# can hold the process off the CPU past any margin, so the brain gets three
# tries: one that ignores the limit is slow in every one of them.
timed_turn() { # [COMMANDS [TURN_MS]]: the position by default, 300 ms
    local cmds=${1:-$POS} turn=${2:-300}
    coproc BRAIN { "$PBRAIN" 2>/dev/null; }
    printf 'START 15\nINFO timeout_turn %s\n' "$turn" >&"${BRAIN[1]}"
    read -r -t 30 reply <&"${BRAIN[0]}"
    local start
    start=$(date +%s%N)
    printf "$cmds" >&"${BRAIN[1]}"
    move=
    while read -r -t 30 reply <&"${BRAIN[0]}"; do
        case $reply in [0-9]*,[0-9]* | SWAP) move=$reply; break ;; esac
    done
    ms=$((($(date +%s%N) - start) / 1000000))
    printf 'END\n' >&"${BRAIN[1]}"
    wait "$BRAIN_PID" 2>/dev/null
}
tries=
for _ in 1 2 3; do
    timed_turn
    tries="$tries ${ms}"
    [ -n "$move" ] && [ "$ms" -lt 700 ] && break
done
if [ -n "$move" ] && [ "$ms" -lt 700 ]; then
    ok "timeout_turn 300 is kept (${ms} ms)"
else not_ok "timeout_turn 300 is kept" "took$tries ms, move '$move'"; fi
# An opening decision is one turn too, however many searches it makes: swap2's
# three stones (one search per white 2nd stone), and the second player's
# choice (the colours' score, then stones 4 and 5), within 600 ms.
for ask in 'SWAP2BOARD\nDONE\n' 'SWAP2BOARD\n11,7\n10,6\n13,5\nDONE\n'; do
    tries=
    for _ in 1 2 3; do
        timed_turn "$ask" 600
        tries="$tries ${ms}"
        [ -n "$move" ] && [ "$ms" -lt 1000 ] && break
    done
    if [ -n "$move" ] && [ "$ms" -lt 1000 ]; then
        ok "timeout_turn 600 is kept by $(printf "$ask" | grep -c ,) stones' SWAP2BOARD (${ms} ms)"
    else not_ok "timeout_turn 600 is kept by SWAP2BOARD" "took$tries ms, answer '$move'"; fi
done
