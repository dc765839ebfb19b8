/* engine.h — the search engine: pick a move for a position under limits.
 *
 * An Engine owns a transposition table and a pool of search threads (Lazy
 * SMP: every thread searches the same root with a shared table). It keeps no
 * global state and never prints, so two engines in one process work; every
 * report goes through the caller's callback.
 *
 * Use: engine_new() once, engine_set_position() before each move, then
 * engine_think(), which blocks until a limit is reached or engine_stop() is
 * called from another thread, and fills a SearchResult. The engine never
 * returns an illegal move: for renju black it never returns a forbidden point,
 * and on a full board (or no legal move) it returns best = POINT_NONE.
 *
 * Scores are from the side to move's view, in evaluation units (a flex three
 * is worth about 100 to 200). A forced win whose five is the Nth ply from now
 * (N = 1: the side to move makes five at once) scores ENGINE_SCORE_WIN + 1 - N,
 * a forced loss -(ENGINE_SCORE_WIN + 1 - N); the `mate` fields give N (negative
 * for a loss).
 */
#ifndef TENGEN_ENGINE_H
#define TENGEN_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

#include "tengen/board.h"
#include "tengen/error.h"
#include "tengen/pattern.h"

#define ENGINE_MAX_THREADS 64
#define ENGINE_MAX_HASH_MB 65536
#define ENGINE_MAX_PV 64
#define ENGINE_MAX_NBEST 16
#define ENGINE_MAX_DEPTH 60
#define ENGINE_SCORE_WIN 30000
#define ENGINE_SCORE_WIN_MIN (ENGINE_SCORE_WIN - 1000) /* |score| above this: forced result */
#define ENGINE_SCORE_INF 32000

typedef struct Engine Engine;

#define ENGINE_EVAL_CLASSES 8 /* combined cell classes: none, three, four, 33, 43, 44, flex four, five */
#define ENGINE_WEIGHT_MAX 4000 /* bounds of one line or class weight (0..max) */
#define ENGINE_SCALE_MAX 64    /* bounds of own/opp (1..max) */
#define ENGINE_THREAT_MASKS 512 /* threat situations the evaluation tells apart (below) */
/* The evaluation tells line patterns apart more finely than Pattern: the
 * PAT_COUNT Patterns, then ENGINE_PAT_F2A and ENGINE_PAT_F2B (a flex two with
 * three, or four and more, cells that make it a flex three; PAT_F2 is left with
 * one or two) and ENGINE_PAT_F3S (a flex three with two or more cells that make
 * it a straight four). */
#define ENGINE_PAT_F2A PAT_COUNT
#define ENGINE_PAT_F2B (PAT_COUNT + 1)
#define ENGINE_PAT_F3S (PAT_COUNT + 2)
#define ENGINE_EPATS (PAT_COUNT + 3)
/* Multisets of four evaluation patterns: C(ENGINE_EPATS + 3, 4). Those of the
 * PAT_COUNT Patterns alone come first (codes 0..1000). */
#define ENGINE_PCODES 2380

/* The evaluation's weights for one rule set. Every empty cell is worth, for
 * the side to move, the sum of line[] over the line patterns a stone there
 * would make plus cls[] of its combined class; for the other side the same
 * with line_opp[] and cls_opp[] (a cell the mover can use now is not worth
 * what the opponent's same cell is). Renju black: 0 on a possibly forbidden
 * cell. The evaluation is (own * mover's total - opp * the opponent's total) / 16
 * plus threat[] of the position's threat situation, a bit set of: the mover
 * can make a flex three (bit 0), a four (1), a double three (2); the opponent
 * can make a flex three (3), a blocked four (4), a double three (5), a flex
 * four (6), a four-three or double four (7); the mover is white (8). On top
 * of its line and class weights a cell gets combo[0][code] (mover) or
 * combo[1][code] (other side) of the multiset of its four line patterns
 * (engine_pcode), for what the lines are worth together beyond their sum.
 * Threat and combo weights may be negative (-ENGINE_WEIGHT_MAX..ENGINE_WEIGHT_MAX).
 * With smooth 1 the two totals are the mean of this position's and those of
 * the position before the last stone (both read with the mover's weights),
 * which damps the swing of a pattern sum from one ply to the next; the
 * threat term stays this position's. The engine holds one set per rule and
 * side to move (engine_set_weights). */
typedef struct {
    int line[PAT_COUNT];
    int cls[ENGINE_EVAL_CLASSES];
    int line_opp[PAT_COUNT];
    int cls_opp[ENGINE_EVAL_CLASSES];
    int own, opp;
    int threat[ENGINE_THREAT_MASKS];
    int combo[2][ENGINE_PCODES];
    int smooth; /* 0 or 1 */
} EvalWeights;

/* Ordering codes: the pattern codes, then "renju black's maybe-forbidden point". */
#define ENGINE_ORDER_CODES (ENGINE_PCODES + 1)
#define ENGINE_ORDER_MAX 30000                 /* bounds of one move-ordering weight (+-) */

/* Move-ordering weights for one rule set: a candidate move's static order is
 * att[the mover's code there] + def[the opponent's code there] (codes as in
 * engine_pcode; ENGINE_PCODES for a cell that may be forbidden to renju
 * black), before the table move, killers and history. The engine holds one
 * per rule set and side to move; without one it orders by threat classes and
 * evaluation worths. */
typedef struct {
    int att[ENGINE_ORDER_CODES];
    int def[ENGINE_ORDER_CODES];
} OrderWeights;

typedef struct {
    int threads;   /* search threads, 1..ENGINE_MAX_THREADS (default 1) */
    int hash_mb;   /* transposition table size in MB, 1..ENGINE_MAX_HASH_MB (default 64) */
    int margin_ms; /* kept in reserve on every timed move (default 30) */
} EngineOptions;

/* Limits for one engine_think() call; 0 means "no limit" for each field.
 * With no limit at all the search runs until engine_stop() (or the maximum
 * depth, or a proven result). */
typedef struct {
    int64_t turn_ms;       /* hard cap for this move (Gomocup timeout_turn) */
    int64_t match_left_ms; /* time left in the whole match (Gomocup time_left) */
    int depth;             /* nominal depth limit, 1..ENGINE_MAX_DEPTH */
    uint64_t nodes;        /* node limit (summed over threads; checked often, may overshoot a little) */
    int nbest;             /* how many best moves to rank (N-best / multi-PV); 0 or 1 = one */
    /* When nroot > 0, only these moves are considered at the root (balanced-move
     * and opening decisions); illegal or forbidden ones are dropped. */
    int nroot;
    Point root[BOARD_MAX_MOVES];
} SearchLimits;

/* One ranked root move. */
typedef struct {
    Point move;
    int score;
    int mate;  /* 0: no forced result; N > 0: the side to move's five is ply N; -N: the opponent's */
    int pvlen; /* pv[0] == move */
    Point pv[ENGINE_MAX_PV];
} SearchLine;

/* Progress report, sent after each completed iteration (and for each N-best line). */
typedef struct {
    int depth;    /* completed nominal depth */
    int seldepth; /* deepest ply reached */
    int64_t time_ms;
    uint64_t nodes; /* over all threads */
    uint64_t nps;
    int line_index; /* 0 = best; < nlines for N-best */
    SearchLine line;
} SearchInfo;

typedef void (*SearchCallback)(const SearchInfo *info, void *user);

typedef struct {
    Point best; /* POINT_NONE when there is no legal move (board full, or nothing legal) */
    int score;
    int mate;
    int depth;
    uint64_t nodes;
    int64_t time_ms;
    int nlines; /* ranked lines, best first (1 unless nbest > 1) */
    SearchLine lines[ENGINE_MAX_NBEST];
} SearchResult;

/* Default options: 1 thread, 64 MB, 30 ms margin. */
void engine_options_default(EngineOptions *o);

/* Creates an engine; NULL (with err filled) on bad options or no memory. */
Engine *engine_new(const EngineOptions *o, TgError *err);
void engine_free(Engine *e);

/* Changes threads / hash size / margin between searches; resizing the hash
 * clears it. False (engine unchanged) on bad options or no memory. */
bool engine_set_options(Engine *e, const EngineOptions *o, TgError *err);

/* Empties the transposition table and the threat solvers' tables (new game):
 * the next search costs what it costs on a fresh engine. Free until a search
 * has run. */
void engine_clear_hash(Engine *e);

/* The table is allocated untouched. A search on the clock uses only the part
 * mapped so far (mapping a little more first, within an eighth of its time);
 * others map the pages they write. This maps them all in advance (from a
 * spare thread while idle, say): safe while a search runs, not during
 * engine_clear_hash, engine_set_options or engine_free. Stops early,
 * returning false, once *cancel is set. */
bool engine_prefault_hash(Engine *e, const _Atomic bool *cancel);

/* Sets the position to search: the stones and rule set of b, and the colour to
 * move. False when a side already has a five or to_move is not BLACK/WHITE. */
bool engine_set_position(Engine *e, const Board *b, Color to_move, TgError *err);

/* Searches the current position under lim, calling cb (may be NULL) after each
 * iteration, and fills out. Blocks; returns false only when no position is set. */
bool engine_think(Engine *e, const SearchLimits *lim, SearchCallback cb, void *user,
                  SearchResult *out);

/* Asks a running engine_think() to return as soon as possible (any thread;
 * async-signal-safe). A stop sent when no search runs is ignored. */
void engine_stop(Engine *e);

/* The built-in weights for rule r with `mover` (BLACK or WHITE) to move
 * (src/engine/eval_params.h). */
void engine_default_weights(Rule r, Color mover, EvalWeights *w);

/* The code (0..ENGINE_PCODES-1) of a cell's four evaluation patterns
 * (0..ENGINE_EPATS-1), in any order, or -1; engine_pcode_patterns gives them
 * back, highest first. */
int engine_pcode(int p0, int p1, int p2, int p3);
void engine_pcode_patterns(int code, int pat[4]);

/* Checks that every weight is in range; false with err naming the first bad one. */
bool engine_weights_check(const EvalWeights *w, TgError *err);

/* Makes the engine evaluate positions of rule r with `mover` to move (BLACK,
 * WHITE, or EMPTY for both) with w, from the next search on. False (engine
 * unchanged) when a weight is out of range. */
bool engine_set_weights(Engine *e, Rule r, Color mover, const EvalWeights *w, TgError *err);

/* The built-in move-ordering table of rule r with `mover` (BLACK or WHITE)
 * to move into w; false (w untouched) when it orders by classes and worths. */
bool engine_default_order(Rule r, Color mover, OrderWeights *w);

/* Checks that every ordering weight is in range; false with err naming it. */
bool engine_order_check(const OrderWeights *w, TgError *err);

/* Orders the moves of rule r with `mover` to move (BLACK, WHITE, or EMPTY
 * for both) by w from the next search on (NULL: by classes and worths).
 * False (engine unchanged) when a weight is out of range. */
bool engine_set_order(Engine *e, Rule r, Color mover, const OrderWeights *w, TgError *err);

/* Static evaluation of the current position for the side to move (no search). */
int engine_evaluate(Engine *e);

/* Zeroed limits (no limit). */
void search_limits_init(SearchLimits *lim);

/* N for a forced score (see above; negative for a loss), 0 otherwise. */
int engine_mate_plies(int score);

#endif
