/* label.h — scoring the positions of tuning data with another engine.
 *
 * `tune fit --lambda` can fit the evaluation to search scores instead of (or
 * blended with) game results. label asks any Gomocup (pbrain) engine for
 * those scores: every position of every game, from the opening to the last
 * but one, is sent as BOARD with the engine's stones for the side to move,
 * and the evaluation the engine reports in its MESSAGE lines is kept (the
 * last one before its move). Engines report it as `ev N` (tengen) or
 * `Eval N` (Rapfi and others); `+M5` / `-M4` style mates become
 * +-TUNE_SCORE_MAX. An engine that reports nothing has failed, except
 * where the mover has a five (+TUNE_SCORE_MAX) or in a position that fit
 * does not use (tune_position_used: 0). The result is tune data format 2 in
 * the engine's own units; `tune fit --score-k auto` finds their scale.
 */
#ifndef TENGEN_LABEL_H
#define TENGEN_LABEL_H

#include <stdbool.h>
#include <stdint.h>

#include "tengen/error.h"
#include "tengen/tune.h"

typedef struct {
    const char *engine;  /* shell command line of the engine */
    uint64_t nodes;      /* > 0: INFO max_node */
    int turn_ms;         /* INFO timeout_turn, > 0; an engine that has not moved
                          * after twice this and 2 s more has failed */
    int jobs;            /* engine processes at once, 1..64; game g goes to
                          * process g % jobs, so the output does not depend
                          * on timing when the engine is deterministic */
    int64_t max_memory;  /* INFO max_memory in bytes (0: not sent) */
    /* Called after each game (from the worker threads, one at a time). */
    void (*progress)(int done, int games, void *user);
    void *user;
} LabelConfig;

/* Scores the positions of d's games (15x15, d's rule) with the engine and
 * returns the games as data format 2 text (caller frees); NULL with err
 * naming the game (1-based, in data order) and position when the engine
 * fails, hangs or reports no evaluation. */
char *label_games(const TuneData *d, const LabelConfig *c, TgError *err);

/* The evaluation in one engine output line, if it has one (a MESSAGE with
 * `ev` or `Eval` and a number or mate, not a second-best line of a
 * multi-PV search); mates as +-TUNE_SCORE_MAX, other values clamped within. */
bool label_parse_eval(const char *line, int *score);

#endif
