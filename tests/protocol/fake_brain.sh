#!/usr/bin/env bash
# A tiny pbrain engine for testing the match referee. It plays the first empty
# point in reading order, or misbehaves as told by $1:
#   good      plays correctly
#   crash     exits when asked for its first move
#   garbage   answers its first move with a word
#   sleep     never answers its first move
#   illegal   answers its first move with an occupied (or off-board) point
#   nostart   refuses START
#   chatty    sends MESSAGE and DEBUG lines before every move (still legal)
#   errors    sends an ERROR line (a late answer to an INFO) before every move
#   busy      still busy for 150 ms after each answer: a TURN arriving then is
#             dropped and its coordinates read as a command (as Rapfi 0.43 does)
# and answers SWAP2BOARD as told by $2 (its name then ends in -$2): with no
# stones the first three empty points; with three or five stones
#   swap      SWAP
#   move      one point (taking white)
#   two       two points with three stones (moves 4 and 5), one with five
#   garbage   a word
#   none      ERROR, as an engine without swap2
# and tengen's TGOPENING the same way: `none` and `garbage` as above, `off`
# puts the opener's three stones in a corner (which RIF refuses), `swap`
# answers every colour choice SWAP, `huge` declares 99999999999, the others
# answer NOSWAP and declare 2; three stones on the centre line (place3) or
# the first empty points (free3), the first empty points as proposals, the
# first proposal, the first empty point of the central square (balance) or of
# the 9x9 square (offer: PLACE).
mode=${1:-good}
swap2=${2:-move}
name="fake-$mode${2:+-$2}"
size=15
declare -A taken
me_first=1
answered=0 # when the last answer was given, in microseconds
now_us() { local t=${EPOCHREALTIME/[.,]/}; echo "$t"; }

move() {
    case $mode in
    crash) exit 3 ;;
    garbage) echo "hello there"; return ;;
    sleep) exec sleep 600 ;;
    illegal)
        echo "$size,0"
        return
        ;;
    chatty) echo "MESSAGE thinking hard"; echo "DEBUG nothing to see" ;;
    errors) echo "ERROR Unknown command: TIME_LEFT" ;;
    esac
    for ((y = 0; y < size; y++)); do
        for ((x = 0; x < size; x++)); do
            if [ -z "${taken[$x,$y]}" ]; then
                taken[$x,$y]=1
                echo "$x,$y"
                answered=$(now_us)
                return
            fi
        done
    done
}

# Reads the stone lines of a block up to DONE: marks them taken, counts them.
read_block() {
    stones=0
    while IFS= read -r l; do
        l=${l%$'\r'}
        [ "$l" = DONE ] && break
        IFS=, read -r bx by _ <<<"$l"
        taken[$bx,$by]=1
        stones=$((stones + 1))
    done
}

while IFS= read -r line; do
    line=${line%$'\r'}
    case $line in
    START*)
        if [ "$mode" = nostart ]; then echo "ERROR no thanks"; else
            size=${line#START }
            echo OK
        fi
        ;;
    ABOUT) echo "name=\"$name\", version=\"1\"" ;;
    INFO*) ;;
    BEGIN) move ;;
    TURN*)
        if [ "$mode" = busy ] && (($(now_us) - answered < 150000)); then
            echo "ERROR Unknown command: ${line#TURN }"
            continue
        fi
        xy=${line#TURN }
        taken[$xy]=1
        move
        ;;
    BOARD)
        read_block
        move
        ;;
    SWAP2BOARD)
        read_block
        if [ "$swap2" = none ]; then echo "ERROR Unknown command: SWAP2BOARD"; continue; fi
        if [ "$swap2" = garbage ]; then echo "maybe"; continue; fi
        want=1
        [ "$stones" -eq 0 ] && want=3
        [ "$stones" -eq 3 ] && [ "$swap2" = two ] && want=2
        if [ "$stones" -gt 0 ] && [ "$swap2" = swap ]; then echo SWAP; continue; fi
        pts=()
        for ((y = 0; y < size && ${#pts[@]} < want; y++)); do
            for ((x = 0; x < size && ${#pts[@]} < want; x++)); do
                [ -z "${taken[$x,$y]}" ] && taken[$x,$y]=1 && pts+=("$x,$y")
            done
        done
        echo "${pts[*]}"
        ;;
    TGOPENING*)
        read -r _ step arg rest <<<"$line"
        read_block
        if [ "$swap2" = none ]; then echo "ERROR Unknown command: TGOPENING"; continue; fi
        if [ "$swap2" = garbage ]; then echo "maybe"; continue; fi
        c=$((size / 2)) r=$((size / 2)) want=1
        case $step in
        place3)
            if [ "$swap2" = off ]; then echo "0,0 1,0 2,0"; else echo "$c,$c $c,$((c - 1)) $c,$((c - 2))"; fi
            continue
            ;;
        swap) if [ "$swap2" = swap ]; then echo SWAP; else echo NOSWAP; fi; continue ;;
        declare) if [ "$swap2" = huge ]; then echo 99999999999; else echo 2; fi; continue ;;
        choose) echo "$arg"; continue ;;
        free3) want=3 ;;
        propose) want=$arg ;;
        balance) r=$arg ;;
        offer) r=4; printf 'PLACE ' ;;
        esac
        pts=()
        for ((y = c - r; y <= c + r && ${#pts[@]} < want; y++)); do
            for ((x = c - r; x <= c + r && ${#pts[@]} < want; x++)); do
                ((x >= 0 && y >= 0 && x < size && y < size)) || continue
                [ -z "${taken[$x,$y]}" ] && taken[$x,$y]=1 && pts+=("$x,$y")
            done
        done
        echo "${pts[*]}"
        ;;
    END) exit 0 ;;
    esac
done
