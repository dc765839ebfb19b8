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

#include "tengen/autoplay.h"

/* Decides the next stone for the player who must act in the dual-board game g
 * within ap->ms (ap->engine may be NULL: then the five points and material
 * alone decide). A planned stone is reported once to ap->progress: depth 2,
 * the turn's stones as the line (points without boards), its value. False
 * (and err) when g is not a dual-board game waiting for a stone, or the
 * decision was cancelled. The action is a legal place in g. */
bool dualplay_decide(const Autoplay *ap, const Game *g, Action *out, TgError *err);

#endif
