/* spos.h — the engine's search position: a Board plus, for every empty cell
 * and both colours, the combined threat class and worth of a stone there,
 * kept up to date incrementally.
 *
 * A stone changes the line keys of the 40 cells within five steps on its four
 * lines, so play/undo recompute exactly those cells. Running sums of the cell
 * worths and counts of each class per colour make "can the mover make a five?"
 * and the evaluation O(1). Renju black cells the line tables flag as possibly
 * forbidden (overline, two fours, two three candidates, without a five) are
 * marked; only those are given to the exact forbid_check(), and only when a
 * move there is actually considered (its verdict can depend on far stones).
 */
#ifndef TENGEN_SPOS_H
#define TENGEN_SPOS_H

#include <stdbool.h>
#include <stdint.h>

#include "tengen/board.h"
#include "tengen/engine.h"
#include "tengen/pattern.h"

typedef enum {
    CL_NONE,  /* nothing forcing */
    CL_THREE, /* makes a flex three */
    CL_B4,    /* makes one blocked four */
    CL_33,    /* makes two flex threes */
    CL_43,    /* makes a four and a flex three */
    CL_44,    /* makes two fours (two five points) */
    CL_F4,    /* makes a flex four */
    CL_FIVE,  /* makes a winning five */
    CL_COUNT
} CellClass;

_Static_assert(CL_COUNT == ENGINE_EVAL_CLASSES, "EvalWeights.cls matches CellClass");

#ifndef SPOS_MAX_NEAR
#define SPOS_MAX_NEAR 2 /* candidates: empty cells within this Chebyshev distance of a stone */
#endif
#ifndef SPOS_NEAR_LINE
#define SPOS_NEAR_LINE SPOS_MAX_NEAR /* ... and on its eight lines up to this distance (at most BOARD_PAD - 1) */
#endif
_Static_assert(SPOS_NEAR_LINE >= SPOS_MAX_NEAR && SPOS_NEAR_LINE < BOARD_PAD, "the candidate area stays in the margin");
#define SPOS_MAX_STACK 192 /* plays that can be undone (search plies) */
#define SPOS_TOUCHED (1 + DIR_COUNT * 10)

/* What a play overwrote, so that undo restores instead of recomputing. */
typedef struct {
    Point cell;
    uint8_t cls[2];
    uint8_t pforbid;
    uint16_t code[2];
    int16_t worth[2], worth_opp[2];
} SPosSaved;

typedef struct {
    int n;
    int32_t sum[2], sum_opp[2];
    int16_t count[2][CL_COUNT];
    SPosSaved cell[SPOS_TOUCHED];
} SPosUndo;

typedef struct {
    Board b;
    Color stm;
    uint8_t cls[2][BOARD_CELLS];  /* [colour-1][cell] CellClass, empty cells only */
    uint8_t pforbid[BOARD_CELLS]; /* renju: black stone here may be forbidden */
    int16_t worth[2][BOARD_CELLS];     /* with the mover's weights (also orders moves) */
    int16_t worth_opp[2][BOARD_CELLS]; /* with the weights of the side not to move */
    /* Pattern code of a stone there (ENGINE_PCODES: renju black, maybe forbidden). */
    uint16_t code[2][BOARD_CELLS];
    uint8_t near[BOARD_CELLS];    /* stones whose candidate area holds the cell */
    int32_t sum[2], sum_opp[2];   /* sums of worth, worth_opp over empty cells */
    int16_t count[2][CL_COUNT];   /* empty cells of each class */
    /* sum, sum_opp of the position before the last stone on the board given
     * to spos_init (for a smoothed evaluation at the root); has_prev false
     * when there is none or no weight set smooths. */
    int32_t prev_sum[2], prev_sum_opp[2];
    bool has_prev;
    bool renju;
    int lo, hi;                   /* first and last playable Point */
    const uint8_t *tab[2];        /* line pattern tables for black, white */
    const uint8_t *pair;          /* both colours' evaluation patterns per line key */
    const uint16_t *rinfo;        /* renju black line info */
    const EvalWeights *w;         /* w[0] black to move, w[1] white to move (kept alive by the caller) */
    const OrderWeights *ord[2];   /* move ordering by side to move (NULL, as after spos_init:
                                   * by classes and worths) */
    /* A cell's worth by colour and pattern code: [c-1][0] with the weights of
     * c to move (its own cells), [c-1][1] with those of c's opponent to move. */
    int16_t val[2][2][ENGINE_PCODES];
    int depth;                    /* entries on the undo stack */
    SPosUndo undo[SPOS_MAX_STACK];
} SPos;

/* Builds the derived state from b with `stm` to move, evaluating with the
 * two weight sets w[0] (black to move) and w[1] (white to move), which must
 * outlive s's use. */
void spos_init(SPos *s, const Board *b, Color stm, const EvalWeights w[2]);

/* Plays p for the side to move and flips the side; undo reverses the last play.
 * At most SPOS_MAX_STACK plays can be outstanding. */
void spos_play(SPos *s, Point p);
void spos_undo(SPos *s);

/* Hash of stones and side to move. */
static inline uint64_t spos_key(const SPos *s)
{
    return s->stm == WHITE ? s->b.hash ^ board_zobrist_side() : s->b.hash;
}

/* The key spos_key() will give once the side to move has played p. */
static inline uint64_t spos_key_after(const SPos *s, Point p)
{
    uint64_t h = s->b.hash ^ board_zobrist(s->stm, p);
    return s->stm == BLACK ? h ^ board_zobrist_side() : h; /* white is to move then */
}

static inline CellClass spos_class(const SPos *s, Point p, Color c)
{
    return (CellClass)s->cls[c - 1][p];
}

/* The class colour c would have at the empty p if line d's key there were
 * `key` (the other three lines as they are); no renju forbidden check. */
CellClass spos_class_if(const SPos *s, Point p, Color c, int d, uint32_t key);

/* True when colour c may play the empty point p (renju black: not forbidden). */
bool spos_legal(SPos *s, Point p, Color c);

/* Multiset code of four evaluation patterns (0..ENGINE_EPATS-1): sorted
 * a >= b >= c >= d, the code is C(a+3,4) + C(b+2,3) + C(c+1,2) + d, dense in
 * 0..ENGINE_PCODES-1. */
static const int16_t SPOS_C4[ENGINE_EPATS] = {0,   1,   5,   15,  35,   70,   126,
                                              210, 330, 495, 715, 1001, 1365, 1820};
static const int16_t SPOS_C3[ENGINE_EPATS] = {0,  1,  4,   10,  20,  35,  56,
                                              84, 120, 165, 220, 286, 364, 455};
static const int16_t SPOS_C2[ENGINE_EPATS] = {0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 78, 91};

static inline int spos_pcode(int a, int b, int c, int d)
{
    int t;
#define SPOS_ORDER(x, y) \
    if (x < y) {         \
        t = x;           \
        x = y;           \
        y = t;           \
    }
    SPOS_ORDER(a, b)
    SPOS_ORDER(c, d)
    SPOS_ORDER(a, c)
    SPOS_ORDER(b, d)
    SPOS_ORDER(b, c)
#undef SPOS_ORDER
    return SPOS_C4[a] + SPOS_C3[b] + SPOS_C2[c] + d;
}

/* The threat situation for the side to move, as EvalWeights.threat indexes it. */
static inline int spos_threat_mask(const SPos *s)
{
    const int16_t *m = s->count[s->stm - 1], *o = s->count[2 - s->stm];
    return (m[CL_THREE] > 0) | (m[CL_B4] + m[CL_43] + m[CL_44] + m[CL_F4] > 0) << 1 |
           (m[CL_33] > 0) << 2 | (o[CL_THREE] > 0) << 3 | (o[CL_B4] > 0) << 4 | (o[CL_33] > 0) << 5 |
           (o[CL_F4] > 0) << 6 | (o[CL_43] + o[CL_44] > 0) << 7 | (s->stm == WHITE) << 8;
}

/* The evaluation pattern (0..ENGINE_EPATS-1) of key for colour c under rule r. */
int spos_eval_pattern(Rule r, Color c, uint32_t key);

/* The Pattern an evaluation pattern refines. */
static inline Pattern spos_coarse(int ep)
{
    return ep == ENGINE_PAT_F3S ? PAT_F3 : ep >= PAT_COUNT ? PAT_F2 : (Pattern)ep;
}

/* Static evaluation for the side to move. */
int spos_evaluate(const SPos *s);

/* The evaluation's inputs for colour c: over the empty cells that count for c,
 * how many lines of each Pattern and cells of each class (so that the sum of
 * worths is the dot product with the weights). */
void spos_features(const SPos *s, Color c, int line[PAT_COUNT], int cls[CL_COUNT]);

/* Counts, per pattern code (spos_pcode), the empty cells that count for c. */
void spos_pcode_counts(const SPos *s, Color c, int counts[ENGINE_PCODES]);

/* Fills out with the empty cells where colour c has class cl (at most cap). */
int spos_cells_of_class(const SPos *s, Color c, CellClass cl, Point *out, int cap);

/* Fills out with every empty cell where colour c makes a four (classes B4,
 * 43, 44, F4); c must have no five point. Returns how many. */
int spos_four_cells(const SPos *s, Color c, Point *out);

#endif
