/* dualplay.h — the engine as a player of the dual-board variant.
 *
 * The variant (game.h): two boards, two stones a turn (one in round 1), each
 * on either board; fives on both boards in one turn win, a five on one board
 * only loses. So what counts is a side's five points (empty cells where its
 * stone makes a five) on each board: a side holding five points on both
 * boards at the start of its turn wins; the other side stops that only by
 * filling every five point of one board, two stones at most.
 *
 * The player decides one stone at a time, as the game asks for them, and
 * re-plans the turn for each stone. In order: complete the second five of a
 * turn it started; take a two-board win; otherwise plan the turn's stones
 * (never a lone five) by a two-turn look-ahead over candidate cells of both
 * boards. A plan's static value weighs the five points each side holds and can
 * add (what the opponent needs to win next turn, what it must block now),
 * each side's material on its weaker board (a win needs both) and the
 * engine's static evaluation of each board (engine_evaluate). */
#ifndef TENGEN_DUALPLAY_H
#define TENGEN_DUALPLAY_H

#include <stdbool.h>

#include "tengen/analysis.h"
#include "tengen/autoplay.h"

/* Decides the next stone for the player who must act in the dual-board game g
 * within ap->ms (ap->engine may be NULL: then the five points and material
 * alone decide). A planned stone is reported once to ap->progress: depth 2,
 * the turn's stones as the line (points without boards), its value. False
 * (and err) when g is not a dual-board game waiting for a stone, or the
 * decision was cancelled. The action is a legal place in g. */
bool dualplay_decide(const Autoplay *ap, const Game *g, Action *out, TgError *err);

/* One side's stones of a turn (n: 1 or 2; 0 for none) with its worth for
 * that side. score is the planner's value, or a forced result scored as
 * engine.h scores one with N counted in turns; mate is N > 0 for a win at
 * turn N (this turn is 1), -N for a loss at turn N (-1: the turn itself
 * loses, by a lone five), 0 when neither is proven. reply is the opponent's
 * best answer found (n 0 when none was looked for or the game ends). */
typedef struct {
    int n;
    int board[2];
    Point p[2];
    int score, mate;
    struct {
        int n;
        int board[2];
        Point p[2];
    } reply;
} DualTurn;

typedef struct {
    DualTurn played, best;
    unsigned flags; /* JUDGE_BLUNDER, JUDGE_MISSED_WIN (analysis.h) */
} DualJudgement;

/* Judges the stones `played` (n, board, p) of the side that must play a
 * whole turn in the dual-board game g, against the planner's choice, within
 * ap->ms. Forced results are claimed only where proven: fives on both boards
 * made (win at turn 1) or held at the start (a missed one), a lone five (loss
 * at 1), the opponent holding five points on both boards after the turn
 * (loss at 2), the mover holding more than two on each (win at 3), the
 * opponent's best answer found doing so (loss at 4). The played turn is
 * never scored above the choice. blunder_pct as in analysis.h. False (and
 * err) when g is not at the start of a turn, a stone is not an empty point of
 * its board, or the count does not fit the turn. */
bool dualplay_judge(const Autoplay *ap, const Game *g, const DualTurn *played, int blunder_pct,
                    DualJudgement *out, TgError *err);

#endif
