/* board.h — the position: stones, rule set, hash and incremental line keys.
 *
 * Layout. Cells live on a padded 32 x 32 grid: a margin of BOARD_PAD wall
 * cells surrounds the playable square (size 5..22), so walking a line with
 * p + DIR[d] never needs a bounds check within BOARD_PAD steps of a playable
 * cell. A Point is an index into that grid.
 *
 * Line keys. For every cell c and direction d, key[d][c] holds the ten cells
 * around c on that line (offsets -5..-1 and 1..5), two bits each (EMPTY,
 * BLACK, WHITE, WALL). Playing or undoing a stone updates the 40 keys within
 * reach, so the line pattern at any cell is one table lookup (pattern.h).
 *
 * Internal coordinates: x = column from the left, y = row from the TOP, both
 * 0-based (the Gomocup convention); coord.h converts to renju notation.
 */
#ifndef TENGEN_BOARD_H
#define TENGEN_BOARD_H

#include <stdbool.h>
#include <stdint.h>

#define BOARD_MIN_SIZE 5
#define BOARD_MAX_SIZE 22
#define BOARD_DEFAULT_SIZE 15
#define BOARD_PAD 5
#define BOARD_STRIDE 32
#define BOARD_CELLS (BOARD_STRIDE * BOARD_STRIDE)
#define BOARD_MAX_MOVES (BOARD_MAX_SIZE * BOARD_MAX_SIZE)

typedef int Point;
#define POINT_NONE (-1)
#define POINT_PASS (-2)

enum { EMPTY, BLACK, WHITE, WALL }; /* BLACK ^ WHITE == 3: flips colour */
typedef int Color;

/* Directions: row (x+1), column (y+1), diagonal "\" and diagonal "/". */
enum { DIR_ROW, DIR_COL, DIR_DIAG, DIR_ANTI, DIR_COUNT };
/* Point offset of one step along each direction; DIR[d] holds the same
 * values for loops, these for code that wants them folded as constants. */
enum {
    STEP_ROW = 1,
    STEP_COL = BOARD_STRIDE,
    STEP_DIAG = BOARD_STRIDE + 1,
    STEP_ANTI = 1 - BOARD_STRIDE,
};
extern const int DIR[DIR_COUNT];

typedef enum { RULE_FREESTYLE, RULE_STANDARD, RULE_RENJU, RULE_CARO, RULE_COUNT } Rule;

typedef struct {
    int size;
    Rule rule;
    int count;     /* stones on the board (== entries in history) */
    uint64_t hash; /* Zobrist hash of the stones only */
    uint8_t cell[BOARD_CELLS];
    uint32_t key[DIR_COUNT][BOARD_CELLS];
    Point history[BOARD_MAX_MOVES];
} Board;

/* Bit position in a line key of the neighbour at offset k (k in -5..-1, 1..5). */
static inline int board_key_shift(int k) { return 2 * (k < 0 ? k + 5 : k + 4); }

static inline Color color_other(Color c) { return c ^ 3; }

static inline Point point_make(int x, int y)
{
    return (y + BOARD_PAD) * BOARD_STRIDE + (x + BOARD_PAD);
}
static inline int point_x(Point p) { return p % BOARD_STRIDE - BOARD_PAD; }
static inline int point_y(Point p) { return p / BOARD_STRIDE - BOARD_PAD; }

/* Clears b to an empty board of the given size (5..22) and rule set. Returns false
 * (and leaves b untouched) when the size is out of range. */
bool board_init(Board *b, int size, Rule rule);

/* True when p is a playable point of this board (on the square, any content). */
bool board_on(const Board *b, Point p);

/* Places a stone of colour c on the empty playable point p. */
void board_play(Board *b, Point p, Color c);

/* Removes the last stone played. Requires b->count > 0. */
void board_undo(Board *b);

/* Removes the stone on p wherever it was in the history (for set-up editing). */
void board_remove(Board *b, Point p);

static inline Color board_at(const Board *b, Point p) { return b->cell[p]; }

/* Colour to move if stones alternated from black: BLACK when the count is even. */
static inline Color board_side_to_move(const Board *b) { return b->count % 2 ? WHITE : BLACK; }

/* Number of playable points (size * size). */
static inline int board_area(const Board *b) { return b->size * b->size; }

/* Recomputes hash and every line key from the stones and compares: the
 * debug-build invariant checked after each play/undo. */
bool board_is_consistent(const Board *b);

/* Zobrist key of a stone of colour c on p; the side-to-move key for the engine. */
uint64_t board_zobrist(Color c, Point p);
uint64_t board_zobrist_side(void);

/* Length of the unbroken run of colour c through p along direction d, counting p
 * as colour c whatever it holds. */
int board_run(const Board *b, Point p, int d, Color c);

#endif
