/* solver.h — threat solving: VCF (victory by continuous fours) and VCT (by
 * continuous threes and fours), exact under every rule set.
 *
 * The attacker moves first. In VCF every attacker move makes a four and the
 * defender's answers are the moves that stop it (the five point; in caro also
 * the far end that leaves the five blocked at both ends). In VCT the attacker
 * may also play a threat of a winning next move (an open three, a move
 * preparing a double four, ...); the defender's answers are then every counter
 * four and every move that kills all of the attacker's winning next moves.
 * A defender who can make a five is never forced. Renju: black's moves must not
 * be forbidden (forbid_check), and white wins at once with a four whose only
 * block is forbidden for black.
 *
 * A Solver owns a hash table of proven positions (keyed by Board.hash, the
 * attacker and the mode), sized by the caller; results stay valid between calls
 * on any board, so one Solver per thread serves a whole game.
 */
#ifndef TENGEN_SOLVER_H
#define TENGEN_SOLVER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "tengen/board.h"

#define SOLVER_MAX_DEPTH 60                      /* attacker moves */
#define SOLVER_MAX_LINE (2 * SOLVER_MAX_DEPTH + 4) /* plies in a reported line */

typedef enum {
    SOLVE_WIN,     /* a forced win was found; the result holds one winning line */
    SOLVE_NO_WIN,  /* proven: no win of this kind within max_depth */
    SOLVE_UNKNOWN, /* a limit (nodes, time, stop flag) cut the search short */
} SolveStatus;

/* A search stopped by max_nodes may play this many stones more while it unwinds. */
#define SOLVER_NODE_SLACK 8

typedef struct {
    int max_depth;          /* attacker moves (0: SOLVER_MAX_DEPTH) */
    long long max_nodes;    /* stones played in the search (0: no limit) */
    double deadline;        /* solver_now() value to stop at (0: none) */
    const atomic_int *stop; /* when not NULL and non-zero, stop at once */
} SolverLimits;

typedef struct {
    SolveStatus status;
    /* Attacker and defender moves alternating, attacker first. The line ends with
     * the attacker's five, or, when forbidden != POINT_NONE, with a white four
     * whose only block (forbidden) is a forbidden point for black. */
    int len;
    Point line[SOLVER_MAX_LINE];
    Point forbidden;
    long long nodes; /* stones played */
    int depth;       /* VCT: the deepest iteration completed (attacker moves) */
} SolverResult;

typedef struct Solver Solver;

/* A solver with a hash table of about hash_bytes (at least a few KB is used).
 * NULL when memory runs out. */
Solver *solver_new(size_t hash_bytes);
void solver_free(Solver *s);

/* Forgets every stored result. */
void solver_clear(Solver *s);

/* Monotonic clock in seconds, the time base of SolverLimits.deadline. */
double solver_now(void);

/* Searches for a VCF for `attacker`, who is to move on b. b is scratch space and
 * is restored before returning. out may be NULL. */
SolveStatus vcf_solve(Solver *s, Board *b, Color attacker, const SolverLimits *lim,
                      SolverResult *out);
/* As vcf_solve, for a caller that knows neither side has a five point and
 * where the attacker's four points are (fours[0..nfours-1], every one of
 * them): the board is not scanned. */
SolveStatus vcf_solve_fours(Solver *s, Board *b, Color attacker, const SolverLimits *lim,
                            const Point *fours, int nfours, SolverResult *out);

/* As vcf_solve, for a VCT, deepening one attacker move at a time, so a win
 * found is among the shortest within the iterations completed. */
SolveStatus vct_solve(Solver *s, Board *b, Color attacker, const SolverLimits *lim,
                      SolverResult *out);

const char *solve_status_name(SolveStatus st);

#endif
