/* vcf.c — victory by continuous fours: depth-first over the attacker's fours,
 * each answered by every move that stops it (one, except in caro), with the
 * failed positions kept in the solver's hash table. */
#include "tengen/solver.h"

#include <string.h>

#include "solver_core.h"

#define VCF_MODE 1

static bool attack(SolverSearch *ss, int depth, const Point *dfive, int ndf);

static bool is_four(const SolverSearch *ss, Point p, Color c)
{
    for (int d = 0; d < DIR_COUNT; d++) {
        Pattern pat = solver_pat(ss, p, d, c);
        if (pat >= PAT_B4 && pat <= PAT_F5)
            return true;
    }
    return false;
}

/* The attacker has just played the four m: every answer must lose. */
static bool defend(SolverSearch *ss, Point m, int depth)
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
        bool win = !ss->aborted && attack(ss, depth - 1, df, ndf);
        solver_pop(ss);
        if (!win)
            return false;
    }
    return true;
}

static bool attack(SolverSearch *ss, int depth, const Point *dfive, int ndf)
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
        n = solver_fours(ss, ss->att, moves);
    }
    solver_order(ss, ss->att, moves, n, hint);
    for (int i = 0; i < n; i++) {
        solver_push(ss, moves[i], ss->att);
        bool win = defend(ss, moves[i], depth);
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

static void fill_result(const SolverSearch *ss, SolveStatus st, int depth, SolverResult *out)
{
    if (!out)
        return;
    out->status = st;
    out->len = st == SOLVE_WIN ? ss->wlen : 0;
    memcpy(out->line, ss->win, (size_t)out->len * sizeof *out->line);
    out->forbidden = st == SOLVE_WIN ? ss->win_forbidden : POINT_NONE;
    out->nodes = ss->nodes;
    out->depth = depth;
}

SolveStatus vcf_solve(Solver *s, Board *b, Color attacker, const SolverLimits *lim,
                      SolverResult *out)
{
    SolverSearch ss;
    solver_search_init(&ss, s, b, attacker, lim, VCF_MODE);
    int depth = lim && lim->max_depth > 0 && lim->max_depth < SOLVER_MAX_DEPTH ? lim->max_depth
                                                                             : SOLVER_MAX_DEPTH;
    Point f[SOLVER_MAX_MOVES];
    if (solver_fives_all(&ss, attacker, f, 1)) {
        ss.path[0] = f[0];
        ss.plen = 1;
        solver_record_win(&ss, POINT_NONE);
        fill_result(&ss, SOLVE_WIN, 1, out);
        return SOLVE_WIN;
    }
    int ndf = solver_fives_all(&ss, ss.def, f, SOLVER_MAX_MOVES);
    bool win = attack(&ss, depth, f, ndf);
    SolveStatus st = win ? SOLVE_WIN : ss.aborted ? SOLVE_UNKNOWN : SOLVE_NO_WIN;
    fill_result(&ss, st, depth, out);
    return st;
}
