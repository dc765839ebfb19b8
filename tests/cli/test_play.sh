#!/usr/bin/env bash
# tengen play: the terminal board driven through tmux like a person would.
. "$(dirname "$0")/lib.sh"

expect_fail "play needs a terminal" 2 "needs a terminal" "$TENGEN" play --white human
expect_fail "play: bad rule" 2 "bad value 'gomoku' for --rule" "$TENGEN" play --rule gomoku
expect_fail "play: bad size" 2 "bad value '30' for --size" "$TENGEN" play --size 30

if ! command -v tmux >/dev/null; then
    not_ok "tmux is installed (scripts/deps.sh installs it)"
    exit 0
fi
# A private tmux server kept alive by an idle session: when the last session
# of a server is killed the server exits, and a session started right after
# may reach the dying server and be lost (seen in CI).
SOCK="$TMPD/tmux.sock"
tm() { tmux -S "$SOCK" "$@"; }
trap 'tm kill-server 2>/dev/null; rm -rf "$TMPD"' EXIT
# One CI run saw the server exit unexpectedly at its very first session, before
# tengen ran at all: try a few times, and when tmux cannot keep a server up on
# this machine, say so with tmux's own log rather than fail twenty checks that
# never reached the board.
tmux_up() {
    local try
    for try in 1 2 3 4 5; do
        if tm new-session -d -s keepalive -x 80 -y 24 "sleep 3600" 2>"$TMPD/tmux.err" &&
            tm has-session -t keepalive 2>/dev/null; then
            return 0
        fi
        tm kill-server 2>/dev/null
        sleep "$try"
    done
    return 1
}
if ! tmux_up; then
    (cd "$TMPD" && tmux -vv -S "$TMPD/diag.sock" new-session -d -s diag "sleep 1" 2>>"$TMPD/tmux.err")
    echo "ok - terminal board checks # SKIP tmux cannot keep a server up here: $(tr '\n' ' ' <"$TMPD/tmux.err")"
    for f in "$TMPD"/tmux-server-*.log; do [ -f "$f" ] && sed 's/^/#   /' "$f" | tail -20; done
    exit 0
fi
N=0
S=""
# start CMD: a fresh session (a new name each time) running CMD
start() {
    N=$((N + 1))
    S="play-$N"
    tm new-session -d -s "$S" -x 150 -y 45 "$1" || not_ok "tmux starts session $S"
}
screen() { tm capture-pane -p -t "$S"; }
# stones MARK: how many MARK (X black, O white) the board rows show
stones() { screen | grep -E '^ +[0-9]+ ' | grep -o "$1" | wc -l; }
keys() { tm send-keys -t "$S" "$@"; sleep 0.4; }
# wait_for PATTERN: up to 10 s for the screen to show it
wait_for() {
    for _ in $(seq 50); do
        screen | grep -Eq -- "$1" && return 0
        sleep 0.2
    done
    return 1
}
start "$TENGEN play --rule renju --opening free --black human --white human; echo EXITED; sleep 30"

if wait_for "renju, free opening, 15x15"; then ok "board starts"; else not_ok "board starts" "$(screen)"; fi

keys Enter
# h8 is row 8: the stone X sits under column h (the 8th column)
row8=$(screen | grep -E '^ +8 ' | head -1)
if [ "$(printf '%s' "$row8" | cut -c20)" = X ]; then ok "Enter places black on the centre"; else
    not_ok "Enter places black on the centre" "$(screen)"; fi
if wait_for "white \(second player\) to play move 2"; then ok "status names the side to move"; else
    not_ok "status names the side to move" "$(screen)"; fi
keys u
row8=$(screen | grep -E '^ +8 ' | head -1)
if [ "$(printf '%s' "$row8" | cut -c20)" = . ]; then ok "u undoes"; else not_ok "u undoes" "$(screen)"; fi

keys : "h9 a1 g8 a3 i8 a5 h7 a7" Enter
# black to move: h8 is a double-three and is marked x
row8=$(screen | grep -E '^ +8 ' | head -1)
if printf '%s' "$row8" | grep -q 'x'; then ok "forbidden point is marked"; else
    not_ok "forbidden point is marked" "$(screen)"; fi
keys '?'
if wait_for "verdict: h8 is forbidden"; then ok "? explains the point under the cursor"; else
    not_ok "? explains the point under the cursor" "$(screen)"; fi
keys q
keys Enter
if wait_for "forbidden \(double-three\): black loses"; then ok "a forbidden move asks first"; else
    not_ok "a forbidden move asks first" "$(screen)"; fi
keys n Enter
keys q
keys y Enter
if wait_for "^EXITED"; then ok "q quits"; else not_ok "q quits" "$(screen)"; fi

tm kill-session -t "$S" 2>/dev/null
start "$TENGEN play --rule freestyle --opening free --black human --white engine --time 0.3; echo EXITED; sleep 30"
wait_for "freestyle, free opening" >/dev/null
keys Enter
if wait_for "engine played [a-o][0-9]+"; then ok "the engine answers a move"; else
    not_ok "the engine answers a move" "$(screen)"; fi
if [ "$(stones O)" -eq 1 ]; then ok "one white stone after the answer"; else
    not_ok "one white stone after the answer" "$(screen)"; fi
keys q
keys y Enter
if wait_for "^EXITED"; then ok "quit while the engine waits"; else not_ok "quit while the engine waits" "$(screen)"; fi

# The engine plays a whole RIF opening (swap, 5th-move proposals, the choice) on both sides.
tm kill-session -t "$S" 2>/dev/null
start "$TENGEN play --rule renju --opening rif --black engine --white engine --time 0.2 --hash 8; echo EXITED; sleep 60"
ok_rif=1
for _ in $(seq 300); do
    screen | grep -Eq "to play move ([7-9]|[1-9][0-9])|wins|draw" && { ok_rif=0; break; }
    screen | grep -q "engine: \|refused" && break
    sleep 0.2
done
if [ "$ok_rif" -eq 0 ]; then ok "engine against engine through the RIF opening"; else
    not_ok "engine against engine through the RIF opening" "$(screen)"; fi

# The dual-board variant: the engine answers a person's stone with a whole
# turn, then plays both sides to a result.
tm kill-session -t "$S" 2>/dev/null
start "$TENGEN play --rule dualboard --size 9 --black human --white engine --time 0.1; echo EXITED; sleep 60"
wait_for "dualboard" >/dev/null
keys Enter
if wait_for "black \(first player\) to place stone 1 of 2 in round 2"; then ok "dual-board: the engine plays its two stones"; else
    not_ok "dual-board: the engine plays its two stones" "$(screen)"; fi
n=$(stones O)
if [ "$n" -eq 2 ]; then ok "dual-board: two white stones after the answer"; else
    not_ok "dual-board: two white stones after the answer ($n)" "$(screen)"; fi
keys e
ok_dual=1
for _ in $(seq 300); do
    screen | grep -Eq "wins|draw" && { ok_dual=0; break; }
    screen | grep -q "engine: \|refused" && break
    sleep 0.2
done
if [ "$ok_dual" -eq 0 ]; then ok "dual-board: engine against engine to a result"; else
    not_ok "dual-board: engine against engine to a result" "$(screen)"; fi
keys q
keys y Enter
if wait_for "^EXITED"; then ok "dual-board: q quits"; else not_ok "dual-board: q quits" "$(screen)"; fi

# --load reads any record format, by extension or, without one, by its text.
cp "$TESTDATA/records/gomocup.psq" "$TMPD/loaded"
start "$TENGEN play --rule freestyle --black human --white human --load $TMPD/loaded; echo EXITED; sleep 30"
if wait_for "white \(second player\) to play move 8"; then ok "--load: a PSQ without its extension"; else
    not_ok "--load: a PSQ without its extension" "$(screen)"; fi
n=$(stones X)
if [ "$n" -eq 4 ]; then ok "--load: the record's black stones are on the board"; else
    not_ok "--load: the record's black stones are on the board ($n)" "$(screen)"; fi
keys q
keys y Enter
if wait_for "^EXITED"; then ok "--load: q quits"; else not_ok "--load: q quits" "$(screen)"; fi
