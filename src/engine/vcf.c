/* vcf.c — victory by continuous fours: depth-first over the attacker's fours,
 * each answered by every move that stops it (one, except in caro), with the
 * failed positions kept in the solver's hash table.
 *
 * The points where the attacker's shapes make a four are carried down the
 * search: a defender stone never creates one, and an attacker stone only on
 * its own lines, so each node updates its parent's list instead of scanning
 * the board. Legality (renju) is judged afresh at each node, because a
 * forbidden point can become legal or forbidden through stones far away. */
#include "tengen/solver.h"

#include "solver_core.h"

#define VCF_MODE 1

static bool attack(SolverSearch *ss, int depth, const Point *dfive, int ndf, const Point *cand,
                   int ncand);

static bool is_four(const SolverSearch *ss, Point p, Color c)
{
    for (int d = 0; d < DIR_COUNT; d++) {
        Pattern pat = solver_pat(ss, p, d, c);
        if (pat >= PAT_B4 && pat <= PAT_F5)
            return true;
    }
    return false;
}

/* The four points after the attacker's m and the defender's answer. */
static int update_fours(const SolverSearch *ss, const Point *cand, int ncand, Point m, Point *out)
{
    int n = 0;
    for (int i = 0; i < ncand; i++)
        if (ss->b->cell[cand[i]] == EMPTY && is_four(ss, cand[i], ss->att))
            out[n++] = cand[i];
    int kept = n;
    for (int d = 0; d < DIR_COUNT; d++)
        for (int k = -5; k <= 5; k++) {
            Point q = m + k * DIR[d];
            if (k && ss->b->cell[q] == EMPTY && is_four(ss, q, ss->att) && !solver_contains(out, kept, q))
                out[n++] = q;
        }
    return n;
}

/* The attacker has just played the four m: every answer must lose. */
static bool defend(SolverSearch *ss, Point m, int depth, const Point *cand, int ncand)
{
    Point af[SOLVER_MAX_FIVES], ans[SOLVER_MAX_MOVES], df[SOLVER_MAX_FIVES];
    int naf = solver_fives_near(ss, m, ss->att, af, SOLVER_MAX_FIVES);
    if (naf == 0)
        return false;
    int na = solver_answers(ss, ss->att, af, naf, ans);
    if (na == 0) {
        solver_finish_four(ss, af, naf);
        return true;
    }
    for (int i = 0; i < na; i++) {
        solver_push(ss, ans[i], ss->def);
        int ndf = solver_fives_near(ss, ans[i], ss->def, df, SOLVER_MAX_FIVES);
        bool win = false;
        if (!ss->aborted && depth > 1) {
            Point next[SOLVER_MAX_MOVES];
            int nnext = update_fours(ss, cand, ncand, m, next);
            win = attack(ss, depth - 1, df, ndf, next, nnext);
        }
        solver_pop(ss);
        if (!win)
            return false;
    }
    return true;
}

/* cand: every point where the attacker's shapes make a four. */
static bool attack(SolverSearch *ss, int depth, const Point *dfive, int ndf, const Point *cand,
                   int ncand)
{
    if (depth <= 0 || ss->aborted)
        return false;
    uint64_t key = ss->b->hash ^ ss->salt;
    SolverEntry *e = solver_probe(ss->s, key);
    Point hint = POINT_NONE;
    if (e && e->flag == SOLVER_FAIL && e->depth >= depth)
        return false;
    if (e && e->flag == SOLVER_PROVEN)
        hint = e->move;
    Point moves[SOLVER_MAX_MOVES];
    int n = 0;
    if (ndf) {
        /* The defender threatens a five: only answers that are fours go on. */
        Point ans[SOLVER_MAX_MOVES];
        int na = solver_answers(ss, ss->def, dfive, ndf, ans);
        for (int i = 0; i < na; i++)
            if (is_four(ss, ans[i], ss->att))
                moves[n++] = ans[i];
    } else {
        for (int i = 0; i < ncand; i++)
            if (solver_legal(ss, cand[i], ss->att))
                moves[n++] = cand[i];
    }
    solver_order(ss, ss->att, moves, n, hint);
    for (int i = 0; i < n; i++) {
        solver_push(ss, moves[i], ss->att);
        bool win = defend(ss, moves[i], depth, cand, ncand);
        solver_pop(ss);
        if (win) {
            solver_store(ss->s, key, depth, SOLVER_PROVEN, moves[i]);
            return true;
        }
        if (ss->aborted)
            return false;
    }
    solver_store(ss->s, key, depth, SOLVER_FAIL, POINT_NONE);
    return false;
}

static int vcf_depth(const SolverLimits *lim)
{
    return lim && lim->max_depth > 0 && lim->max_depth < SOLVER_MAX_DEPTH ? lim->max_depth
                                                                          : SOLVER_MAX_DEPTH;
}

SolveStatus vcf_solve(Solver *s, Board *b, Color attacker, const SolverLimits *lim,
                      SolverResult *out)
{
    SolverSearch ss;
    solver_search_init(&ss, s, b, attacker, lim, VCF_MODE);
    int depth = vcf_depth(lim);
    Point five, df[SOLVER_MAX_MOVES], fours[SOLVER_MAX_MOVES];
    int ndf, nfours = solver_root_scan(&ss, &five, df, &ndf, fours);
    if (five != POINT_NONE && !ss.aborted) {
        ss.path[0] = five;
        ss.plen = 1;
        solver_record_win(&ss, POINT_NONE);
        solver_fill_result(&ss, SOLVE_WIN, 1, out);
        return SOLVE_WIN;
    }
    bool win = attack(&ss, depth, df, ndf, fours, nfours);
    SolveStatus st = win ? SOLVE_WIN : ss.aborted ? SOLVE_UNKNOWN : SOLVE_NO_WIN;
    solver_fill_result(&ss, st, depth, out);
    return st;
}

SolveStatus vcf_solve_fours(Solver *s, Board *b, Color attacker, const SolverLimits *lim,
                            const Point *fours, int nfours, SolverResult *out)
{
    SolverSearch ss;
    solver_search_init(&ss, s, b, attacker, lim, VCF_MODE);
    int depth = vcf_depth(lim);
    bool win = attack(&ss, depth, NULL, 0, fours, nfours);
    SolveStatus st = win ? SOLVE_WIN : ss.aborted ? SOLVE_UNKNOWN : SOLVE_NO_WIN;
    solver_fill_result(&ss, st, depth, out);
    return st;
}
