/* solver_core.h — what VCF and VCT share: the search state, the hash table, and
 * the threat questions answered from the line patterns. Private to src/engine.
 *
 * Invariants at an attacker node: the attacker has no five point (else the
 * search has already won), and the defender's five points, if any, were all
 * made by his last stone, so they are found on that stone's lines.
 */
#ifndef TENGEN_SOLVER_CORE_H
#define TENGEN_SOLVER_CORE_H

#include <stdint.h>

#include "tengen/pattern.h"
#include "tengen/solver.h"

#define SOLVER_MAX_FIVES 16 /* five points tracked after one move */
#define SOLVER_MAX_MOVES 256

enum { SOLVER_FAIL = 1, SOLVER_PROVEN = 2 };

typedef struct {
    uint64_t key;
    int16_t depth; /* FAIL: no win within depth; PROVEN: a win within depth */
    uint8_t flag;
    uint8_t pad;
    int32_t move; /* PROVEN: the winning move */
} SolverEntry;

struct Solver {
    SolverEntry *table;
    size_t mask;
};

typedef struct {
    Board *b;
    Solver *s;
    Color att, def;
    const uint8_t *tab[3]; /* pattern table per colour, index BLACK / WHITE */
    bool renju, caro;
    int x0, y0, x1, y1; /* the box of cells worth scanning (grows as stones are added) */
    long long nodes, max_nodes;
    double deadline;
    const atomic_int *stop;
    bool aborted;
    bool cut; /* some line of the current subtree stopped at the depth limit */
    uint64_t salt;
    int plen;
    Point path[SOLVER_MAX_LINE];
    int wlen;
    Point win[SOLVER_MAX_LINE];
    Point win_forbidden;
} SolverSearch;

void solver_search_init(SolverSearch *ss, Solver *s, Board *b, Color att,
                        const SolverLimits *lim, uint64_t mode);

/* Plays / undoes a stone on the board and the path; counts a node and checks the
 * limits now and then (setting ss->aborted). */
void solver_count(SolverSearch *ss);
void solver_push(SolverSearch *ss, Point p, Color c);
void solver_pop(SolverSearch *ss);

/* Copies the current path as the winning line. */
void solver_record_win(SolverSearch *ss, Point forbidden);

static inline Pattern solver_pat(const SolverSearch *ss, Point p, int d, Color c)
{
    return (Pattern)ss->tab[c][ss->b->key[d][p]];
}

/* A stone of colour c on the empty p is allowed (renju: not forbidden for black). */
bool solver_legal(SolverSearch *ss, Point p, Color c);

/* Five points of c on the lines through p (at most `cap`). */
int solver_fives_near(const SolverSearch *ss, Point p, Color c, Point *out, int cap);

/* Every five point of c in the box. */
int solver_fives_all(const SolverSearch *ss, Color c, Point *out, int cap);

/* The moves of the other colour that leave c without any of the five points
 * `fives` (all of c's five points), legal ones only. */
int solver_answers(SolverSearch *ss, Color c, const Point *fives, int nf, Point *out);

/* Empty cells where c makes a four (or five), legal ones only, best first. */
int solver_fours(SolverSearch *ss, Color c, Point *out);

/* One pass over the box at the root: the attacker's first five point (*five,
 * else POINT_NONE), the defender's five points, and the points where the
 * attacker's line shapes make a four, legal or not (returned count). */
int solver_root_scan(SolverSearch *ss, Point *five, Point *dfive, int *ndf, Point *fours);

/* Orders moves best first by their line shapes for c (stable on the point). */
void solver_order(const SolverSearch *ss, Color c, Point *moves, int n, Point first);

SolverEntry *solver_probe(Solver *s, uint64_t key);
void solver_store(Solver *s, uint64_t key, int depth, int flag, Point move);

/* After an attacker move with five points `af` and no answer: completes the
 * recorded line (a block and the five, or the forbidden block). */
void solver_finish_four(SolverSearch *ss, const Point *af, int naf);

static inline bool solver_contains(const Point *list, int n, Point p)
{
    for (int i = 0; i < n; i++)
        if (list[i] == p)
            return true;
    return false;
}

/* Fills out (when not NULL) from the search. */
void solver_fill_result(const SolverSearch *ss, SolveStatus st, int depth, SolverResult *out);

#endif
