/* autoplay.h — the engine as a player: whatever the game asks of the player
 * who must act (a stone, a colour choice, swap2's options, a declaration, 5th
 * moves to propose or to choose, a claim), decided with the engine and the
 * opening decisions of opening_ai.h. Boards and servers call this; none of
 * them holds decision logic of its own. */
#ifndef TENGEN_AUTOPLAY_H
#define TENGEN_AUTOPLAY_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "tengen/engine.h"
#include "tengen/error.h"
#include "tengen/game.h"

#define AUTOPLAY_MS_MIN 25 /* no search gets less than this */

typedef struct {
    Engine *engine;
    int64_t ms;               /* budget of one decision, split over its searches */
    const atomic_int *cancel; /* optional: non-zero abandons the decision */
    SearchCallback progress;  /* optional: every search reports here */
    void *user;
    uint64_t seed;            /* varies the book openings an opener draws (any value) */
} Autoplay;

/* Decides the action for the player who must act in g (not over; the
 * dual-board variant goes to dualplay.h, one stone per call). False (and err)
 * when no decision could be made or it was cancelled. The action is legal in
 * g unless g changed meanwhile. */
bool autoplay_decide(const Autoplay *ap, const Game *g, Action *out, TgError *err);

#endif
