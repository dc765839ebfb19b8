#include "tengen/rng.h"

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

void rng_seed(Rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++) {
        uint64_t z = (seed += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        r->s[i] = z ^ (z >> 31);
    }
}

uint64_t rng_next(Rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

int rng_below(Rng *r, int n)
{
    return (int)((rng_next(r) >> 33) % (uint64_t)n);
}

Point rng_point(Rng *r, int lo, int span)
{
    int y = rng_below(r, span);
    int x = rng_below(r, span);
    return point_make(lo + x, lo + y);
}

void rng_clustered_position(Rng *r, Board *b, int stones)
{
    int limit = board_area(b) - b->count;
    if (stones > limit)
        stones = limit;
    int c = b->size / 2;
    for (int placed = 0, tries = 0; placed < stones && tries < 100000; tries++) {
        int x, y;
        if (b->count == 0 || tries > 50000) {
            x = b->count == 0 ? c + rng_below(r, 3) - 1 : rng_below(r, b->size);
            y = b->count == 0 ? c + rng_below(r, 3) - 1 : rng_below(r, b->size);
        } else {
            Point from = b->history[rng_below(r, b->count)];
            x = point_x(from) + rng_below(r, 5) - 2;
            y = point_y(from) + rng_below(r, 5) - 2;
        }
        Point p = point_make(x, y);
        if (x < 0 || y < 0 || x >= b->size || y >= b->size || b->cell[p] != EMPTY)
            continue;
        board_play(b, p, board_side_to_move(b));
        placed++;
    }
}
