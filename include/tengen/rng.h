/* rng.h — a small seedable random source (xoshiro256**), one per user: no
 * global state, so results depend only on the seed. */
#ifndef TENGEN_RNG_H
#define TENGEN_RNG_H

#include <stdint.h>

#include "tengen/board.h"

typedef struct {
    uint64_t s[4];
} Rng;

void rng_seed(Rng *r, uint64_t seed);
uint64_t rng_next(Rng *r);
/* Uniform in 0..n-1 (n > 0). */
int rng_below(Rng *r, int n);

/* A cell (lo + x, lo + y) with x and y uniform in 0..span-1; the row is drawn
 * first, so the sequence is the same under every compiler. */
Point rng_point(Rng *r, int lo, int span);

/* Plays `stones` stones on the empty board b, each next to an earlier one (within
 * two lines), colours alternating from black, so that lines and threes abound. */
void rng_clustered_position(Rng *r, Board *b, int stones);

#endif
