#include "tengen/board.h"

#include <assert.h>
#include <string.h>

#include "tengen/pattern.h"

const int DIR[DIR_COUNT] = {STEP_ROW, STEP_COL, STEP_DIAG, STEP_ANTI};

/* A pure mixing function stands in for a random table: no start-up cost and no
 * global state, and every process agrees on the keys. */
static uint64_t mix64(uint64_t z)
{
    z += 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

uint64_t board_zobrist(Color c, Point p)
{
    return mix64(((uint64_t)p << 2) | (uint64_t)c);
}

uint64_t board_zobrist_side(void)
{
    return mix64(0xFFFFFFFFULL);
}

bool board_on(const Board *b, Point p)
{
    if (p < 0 || p >= BOARD_CELLS)
        return false;
    int x = point_x(p), y = point_y(p);
    return x >= 0 && y >= 0 && x < b->size && y < b->size;
}

static uint32_t compute_key(const Board *b, Point c, int d)
{
    uint32_t key = 0;
    for (int k = -BOARD_PAD; k <= BOARD_PAD; k++) {
        if (k == 0)
            continue;
        int q = c + k * DIR[d];
        uint32_t v = (q >= 0 && q < BOARD_CELLS) ? b->cell[q] : WALL;
        key |= v << board_key_shift(k);
    }
    return key;
}

bool board_init(Board *b, int size, Rule rule)
{
    if (size < BOARD_MIN_SIZE || size > BOARD_MAX_SIZE || rule < 0 || rule >= RULE_COUNT)
        return false;
    memset(b, 0, sizeof *b);
    b->size = size;
    b->rule = rule;
    pattern_init(rule);
    for (Point p = 0; p < BOARD_CELLS; p++)
        b->cell[p] = board_on(b, p) ? EMPTY : WALL;
    for (int d = 0; d < DIR_COUNT; d++)
        for (Point p = 0; p < BOARD_CELLS; p++)
            b->key[d][p] = compute_key(b, p, d);
    return true;
}

/* Both play and undo only touch keys of cells that can be reached from a playable
 * point within BOARD_PAD steps: all inside the padded grid by construction.
 * EMPTY is 0, so placing or removing colour c flips the same two bits. The ten
 * neighbours are written out so that every offset and shift is a constant: as
 * loops, their bookkeeping cost about as much as the flips (callgrind). */
static inline void flip_line(uint32_t *key, Point p, int step, uint32_t color)
{
    key[p + 1 * step] ^= color << board_key_shift(-1);
    key[p + 2 * step] ^= color << board_key_shift(-2);
    key[p + 3 * step] ^= color << board_key_shift(-3);
    key[p + 4 * step] ^= color << board_key_shift(-4);
    key[p + 5 * step] ^= color << board_key_shift(-5);
    key[p - 1 * step] ^= color << board_key_shift(1);
    key[p - 2 * step] ^= color << board_key_shift(2);
    key[p - 3 * step] ^= color << board_key_shift(3);
    key[p - 4 * step] ^= color << board_key_shift(4);
    key[p - 5 * step] ^= color << board_key_shift(5);
}

static inline void flip_neighbour_keys(Board *b, Point p, uint32_t color)
{
    _Static_assert(BOARD_PAD == 5, "flip_line writes out five neighbours a side");
    flip_line(b->key[DIR_ROW], p, STEP_ROW, color);
    flip_line(b->key[DIR_COL], p, STEP_COL, color);
    flip_line(b->key[DIR_DIAG], p, STEP_DIAG, color);
    flip_line(b->key[DIR_ANTI], p, STEP_ANTI, color);
}

void board_play(Board *b, Point p, Color c)
{
    assert(board_on(b, p) && b->cell[p] == EMPTY && (c == BLACK || c == WHITE));
    b->cell[p] = (uint8_t)c;
    b->hash ^= board_zobrist(c, p);
    b->history[b->count++] = p;
    flip_neighbour_keys(b, p, (uint32_t)c);
#ifdef TENGEN_DEBUG
    assert(board_is_consistent(b));
#endif
}

void board_undo(Board *b)
{
    assert(b->count > 0);
    Point p = b->history[--b->count];
    b->hash ^= board_zobrist(b->cell[p], p);
    flip_neighbour_keys(b, p, b->cell[p]);
    b->cell[p] = EMPTY;
#ifdef TENGEN_DEBUG
    assert(board_is_consistent(b));
#endif
}

void board_remove(Board *b, Point p)
{
    int i = 0;
    while (i < b->count && b->history[i] != p)
        i++;
    if (i == b->count)
        return;
    memmove(&b->history[i], &b->history[i + 1], (size_t)(b->count - i - 1) * sizeof(Point));
    b->count--;
    b->hash ^= board_zobrist(b->cell[p], p);
    flip_neighbour_keys(b, p, b->cell[p]);
    b->cell[p] = EMPTY;
}

bool board_is_consistent(const Board *b)
{
    uint64_t h = 0;
    int stones = 0;
    for (Point p = 0; p < BOARD_CELLS; p++) {
        int c = b->cell[p];
        if (board_on(b, p) != (c != WALL))
            return false;
        if (c == BLACK || c == WHITE) {
            h ^= board_zobrist(c, p);
            stones++;
        }
    }
    if (h != b->hash || stones != b->count)
        return false;
    for (int i = 0; i < b->count; i++)
        if (!board_on(b, b->history[i]) || b->cell[b->history[i]] == EMPTY)
            return false;
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++)
            for (int d = 0; d < DIR_COUNT; d++) {
                Point p = point_make(x, y);
                if (b->key[d][p] != compute_key(b, p, d))
                    return false;
            }
    return true;
}

int board_run(const Board *b, Point p, int d, Color c)
{
    int n = 1;
    for (Point q = p + DIR[d]; b->cell[q] == c; q += DIR[d])
        n++;
    for (Point q = p - DIR[d]; b->cell[q] == c; q -= DIR[d])
        n++;
    return n;
}
