#!/usr/bin/env bash
# A pbrain engine for testing `tengen tune label`. For every BOARD it reports
# `Eval 100 * OWN + OPP` (its stones and the opponent's) in a Rapfi-style
# MESSAGE line, then a move. $1 changes that:
#   good     as above
#   memory   adds 1000 for every BOARD since the last YXHASHCLEAR (a hash
#            that carries over)
#   tengen   the same value in tengen's style (`ev N`), plus a second-best
#            line (`nbest 2 ... ev -1`) that must not count
#   mate     reports `Eval +M3` when OWN is even and `Eval -M2` when odd
#   busy     drops every command that arrives within 150 ms of a move (as
#            Rapfi 0.43 now and then does)
#   silent   no MESSAGE at all
#   hang     never answers a BOARD
#   crash    exits at the first BOARD
mode=${1:-good}
answered=0
seen=0
now_us() { local t=${EPOCHREALTIME/[.,]/}; echo "$t"; }
while IFS= read -r line; do
    line=${line%$'\r'}
    if [ "$mode" = busy ] && (($(now_us) - answered < 150000)); then
        continue
    fi
    case $line in
    START*) echo OK ;;
    ABOUT) echo "name=\"label-$mode\", version=\"1\"" ;;
    YXHASHCLEAR) seen=0 ;;
    BOARD)
        own=0 opp=0
        while IFS= read -r l; do
            l=${l%$'\r'}
            [ "$l" = DONE ] && break
            case ${l##*,} in 1) own=$((own + 1)) ;; 2) opp=$((opp + 1)) ;; esac
        done
        v=$((100 * own + opp))
        [ "$mode" = memory ] && v=$((v + 1000 * seen))
        seen=$((seen + 1))
        case $mode in
        crash) exit 3 ;;
        hang) exec sleep 600 ;;
        silent) ;;
        tengen)
            echo "MESSAGE depth 3-5 ev $v nodes 10 nps 10 time 1 pv h8"
            echo "MESSAGE nbest 2 depth 3-5 ev -1 nodes 10 nps 10 time 1 pv h9"
            ;;
        mate) if ((own % 2)); then echo "MESSAGE Depth 1-1 | Eval -M2 | Node 1"; else
            echo "MESSAGE Depth 1-1 | Eval +M3 | Node 1"; fi ;;
        *) echo "MESSAGE Speed 1K | Depth 4-7 | Eval $v | Node 1K | Time 1ms" ;;
        esac
        echo "7,7"
        answered=$(now_us)
        ;;
    END) exit 0 ;;
    esac
done
