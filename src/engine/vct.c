/* vct.c — victory by continuous threats: the attacker plays fours and moves
 * that threaten a winning next move (an open three, a double-four point, ...);
 * the defender answers a four with its block and a threat with every counter
 * four and every move that kills all the winning next moves. Iterative
 * deepening on attacker moves; failures are kept in the hash table, marked
 * exhaustive when no line of the subtree reached the depth limit.
 *
 * Why the defender's answers are complete: a winning next move w is a legal
 * attacker move after which the defender has no five and cannot stop the
 * attacker's fives. Only a stone within five cells of w on a line where w makes
 * a four can change that (the five holds w, so its ends lie within five
 * cells), or, for a white four whose only block is a forbidden point f, a
 * stone on f's lines; so any other move that is not a four loses to w. Renju
 * forbidden points are not monotonic in the stones, so a black w counts only
 * when its verdict cannot change (at most one three candidate), and a white w
 * only when f is forbidden by a double four or an overline, which only a black
 * stone on f's lines can undo (counted among the stops) or a black five (a
 * counter four).
 */
#include "tengen/solver.h"

#include "solver_core.h"
#include "tengen/forbid.h"

#define VCT_MODE 2
#define VCT_MAX_THREATS 64
#define VCT_DEPTH_ALL 1000  /* a failure that holds at every depth */
#define VCT_MAX_KILLERS 128 /* cells within five of a threat on its lines */

typedef struct {
    Point w; /* the winning next move */
    Point f; /* renju, white: the forbidden only block; else POINT_NONE */
} Threat;

static bool attack(SolverSearch *ss, int depth, const Point *dfive, int ndf);

static bool is_four_pat(Pattern p) { return p >= PAT_B4 && p <= PAT_F5; }

/* A black winning move whose legality no stone of the defender can change. */
static bool black_stable(const SolverSearch *ss, Point w)
{
    const uint16_t *info = pattern_renju_info();
    int threes = 0;
    for (int d = 0; d < DIR_COUNT; d++)
        threes += (info[ss->b->key[d][w]] & LINE_THREE) != 0;
    return threes <= 1;
}

/* Whether the attacker's move w (empty) wins next: it makes five points the
 * defender cannot all stop. Fills t. */
static bool wins_next(SolverSearch *ss, Point w, Threat *t)
{
    if (ss->aborted || !solver_legal(ss, w, ss->att))
        return false;
    t->w = w;
    t->f = POINT_NONE;
    if (!ss->caro) {
        /* Outside caro only a stone on a five point stops it, so two five
         * points (a straight four, or fours on two lines) always win. */
        int fours = 0;
        bool straight = false;
        for (int d = 0; d < DIR_COUNT; d++) {
            Pattern pat = solver_pat(ss, w, d, ss->att);
            fours += is_four_pat(pat);
            straight |= pat == PAT_F4;
        }
        if (straight || fours >= 2)
            return true;
        if (!(ss->renju && ss->att == WHITE && fours == 1))
            return false;
    }
    board_play(ss->b, w, ss->att);
    solver_count(ss);
    Point af[SOLVER_MAX_FIVES], ans[SOLVER_MAX_MOVES];
    int naf = solver_fives_near(ss, w, ss->att, af, SOLVER_MAX_FIVES);
    bool win = naf > 0 && solver_answers(ss, ss->att, af, naf, ans) == 0;
    if (win && naf == 1 && !ss->caro) {
        ForbidKind k = forbid_check(ss->b, af[0]);
        win = k == FORBID_DOUBLE_FOUR || k == FORBID_OVERLINE;
        t->f = af[0];
    }
    board_undo(ss->b);
    return win;
}

static int winning_moves(SolverSearch *ss, Threat *out)
{
    int n = 0;
    const uint8_t *t = ss->tab[ss->att];
    bool renju_white = ss->renju && ss->att == WHITE;
    for (int y = ss->y0; y <= ss->y1; y++)
        for (int x = ss->x0; x <= ss->x1; x++) {
            Point p = point_make(x, y);
            if (ss->b->cell[p] != EMPTY)
                continue;
            int fours = 0;
            bool straight = false;
            for (int d = 0; d < DIR_COUNT; d++) {
                Pattern pat = (Pattern)t[ss->b->key[d][p]];
                fours += is_four_pat(pat);
                straight |= pat == PAT_F4;
            }
            if (!straight && fours < 2 && !(renju_white && fours == 1))
                continue;
            if (ss->renju && ss->att == BLACK && !black_stable(ss, p))
                continue;
            if (n < VCT_MAX_THREATS && wins_next(ss, p, &out[n]))
                n++;
        }
    return n;
}

static bool on_line_within(Point q, Point c, int d)
{
    for (int k = -5; k <= 5; k++)
        if (q == c + k * DIR[d])
            return true;
    return false;
}

/* A superset of the stones of the defender that can stop the threat t. */
static bool can_kill(const SolverSearch *ss, const Threat *t, Point q)
{
    if (q == t->w)
        return true;
    for (int d = 0; d < DIR_COUNT; d++) {
        if (is_four_pat(solver_pat(ss, t->w, d, ss->att)) && on_line_within(q, t->w, d))
            return true;
        if (t->f != POINT_NONE && on_line_within(q, t->f, d))
            return true;
    }
    return false;
}

static bool still_wins(SolverSearch *ss, const Threat *th, int n)
{
    for (int i = 0; i < n; i++) {
        Threat t;
        if (ss->b->cell[th[i].w] == EMPTY && wins_next(ss, th[i].w, &t))
            return true;
    }
    return false;
}

/* The defender's candidate stops of every threat: cells that can stop the
 * first one and all the others, W cells first. */
static int killers(SolverSearch *ss, const Threat *th, int nt, Point *out)
{
    Point cand[VCT_MAX_KILLERS];
    int nc = 0;
    const Threat *t0 = &th[0];
    cand[nc++] = t0->w;
    for (int d = 0; d < DIR_COUNT; d++)
        for (int k = -5; k <= 5; k++) {
            Point lines[2] = {t0->w, t0->f};
            for (int j = 0; j < 2; j++) {
                if (lines[j] == POINT_NONE)
                    continue;
                if (j == 0 && !is_four_pat(solver_pat(ss, t0->w, d, ss->att)))
                    continue;
                Point q = lines[j] + k * DIR[d];
                if (ss->b->cell[q] == EMPTY && !solver_contains(cand, nc, q))
                    cand[nc++] = q;
            }
        }
    int n = 0;
    for (int i = 0; i < nc; i++) {
        bool all = true;
        for (int j = 1; j < nt && all; j++)
            all = can_kill(ss, &th[j], cand[i]);
        if (all)
            out[n++] = cand[i];
    }
    return n;
}

/* No defence exists: show one try and the win that follows, for the line. */
static void demo_threat_win(SolverSearch *ss, const Threat *th, int nt)
{
    Point k[VCT_MAX_KILLERS];
    int nk = killers(ss, th, 1, k);
    Point q = POINT_NONE;
    for (int i = 0; i < nk && q == POINT_NONE; i++)
        if (solver_legal(ss, k[i], ss->def))
            q = k[i];
    if (q == POINT_NONE) {
        solver_record_win(ss, th[0].w);
        return;
    }
    solver_push(ss, q, ss->def);
    for (int i = 0; i < nt; i++) {
        Threat t;
        if (ss->b->cell[th[i].w] != EMPTY || !wins_next(ss, th[i].w, &t))
            continue;
        solver_push(ss, t.w, ss->att);
        Point af[SOLVER_MAX_FIVES];
        int naf = solver_fives_near(ss, t.w, ss->att, af, SOLVER_MAX_FIVES);
        solver_finish_four(ss, af, naf);
        solver_pop(ss);
        break;
    }
    solver_pop(ss);
}

/* Every defender move in `moves` must lose. */
static bool all_lose(SolverSearch *ss, const Point *moves, int n, int depth)
{
    for (int i = 0; i < n; i++) {
        Point df[SOLVER_MAX_FIVES];
        solver_push(ss, moves[i], ss->def);
        int ndf = solver_fives_near(ss, moves[i], ss->def, df, SOLVER_MAX_FIVES);
        bool win = !ss->aborted && attack(ss, depth - 1, df, ndf);
        solver_pop(ss);
        if (!win)
            return false;
    }
    return true;
}

/* The attacker has just played m, which made no five point: a threat or nothing. */
static bool defend_threat(SolverSearch *ss, int depth)
{
    Threat th[VCT_MAX_THREATS];
    int nt = winning_moves(ss, th);
    if (nt == 0 || ss->aborted)
        return false;
    /* Direct stops first (they refute most often), then the counter fours. */
    Point moves[SOLVER_MAX_MOVES + VCT_MAX_KILLERS], k[VCT_MAX_KILLERS];
    int nk = killers(ss, th, nt, k), n = 0;
    for (int i = 0; i < nk && !ss->aborted; i++) {
        if (!solver_legal(ss, k[i], ss->def))
            continue;
        board_play(ss->b, k[i], ss->def);
        solver_count(ss);
        /* A counter four is never refuted by the threats alone. */
        Point df[SOLVER_MAX_FIVES];
        bool refuted = solver_fives_near(ss, k[i], ss->def, df, SOLVER_MAX_FIVES) == 0 &&
                       still_wins(ss, th, nt);
        board_undo(ss->b);
        if (!refuted)
            moves[n++] = k[i];
    }
    int nstops = n;
    Point fours[SOLVER_MAX_MOVES];
    int nf = solver_fours(ss, ss->def, fours);
    solver_order(ss, ss->def, fours, nf, POINT_NONE);
    for (int i = 0; i < nf; i++)
        if (!solver_contains(moves, nstops, fours[i]))
            moves[n++] = fours[i];
    if (n == 0) {
        demo_threat_win(ss, th, nt);
        return true;
    }
    return all_lose(ss, moves, n, depth);
}

/* The attacker has just played m. */
static bool defend(SolverSearch *ss, Point m, int depth)
{
    Point af[SOLVER_MAX_FIVES], ans[SOLVER_MAX_MOVES];
    int naf = solver_fives_near(ss, m, ss->att, af, SOLVER_MAX_FIVES);
    if (naf == 0)
        return defend_threat(ss, depth);
    int na = solver_answers(ss, ss->att, af, naf, ans);
    if (na == 0) {
        solver_finish_four(ss, af, naf);
        return true;
    }
    return all_lose(ss, ans, na, depth);
}

/* Empty cells where the attacker makes a four or a threat-like shape. */
static int attack_moves(SolverSearch *ss, Point *out)
{
    int n = 0;
    const uint8_t *t = ss->tab[ss->att];
    for (int y = ss->y0; y <= ss->y1; y++)
        for (int x = ss->x0; x <= ss->x1; x++) {
            Point p = point_make(x, y);
            if (ss->b->cell[p] != EMPTY)
                continue;
            int threes = 0;
            bool take = false;
            for (int d = 0; d < DIR_COUNT && !take; d++) {
                Pattern pat = (Pattern)t[ss->b->key[d][p]];
                take = is_four_pat(pat) || pat == PAT_F3;
                threes += pat == PAT_B3;
            }
            if ((take || threes >= 2) && solver_legal(ss, p, ss->att))
                out[n++] = p;
        }
    return n;
}

static bool attack(SolverSearch *ss, int depth, const Point *dfive, int ndf)
{
    if (ss->aborted)
        return false;
    if (depth <= 0) {
        ss->cut = true;
        return false;
    }
    uint64_t key = ss->b->hash ^ ss->salt;
    SolverEntry *e = solver_probe(ss->s, key);
    Point hint = POINT_NONE;
    if (e && e->flag == SOLVER_FAIL && e->depth >= depth) {
        ss->cut |= e->depth < VCT_DEPTH_ALL;
        return false;
    }
    if (e && e->flag == SOLVER_PROVEN)
        hint = e->move;
    Point moves[SOLVER_MAX_MOVES];
    int n = ndf ? solver_answers(ss, ss->def, dfive, ndf, moves) : attack_moves(ss, moves);
    solver_order(ss, ss->att, moves, n, hint);
    bool outer_cut = ss->cut;
    ss->cut = false;
    for (int i = 0; i < n; i++) {
        solver_push(ss, moves[i], ss->att);
        bool win = defend(ss, moves[i], depth);
        solver_pop(ss);
        if (win) {
            ss->cut = outer_cut;
            solver_store(ss->s, key, depth, SOLVER_PROVEN, moves[i]);
            return true;
        }
        if (ss->aborted)
            return false;
    }
    bool cut = ss->cut;
    ss->cut = outer_cut || cut;
    solver_store(ss->s, key, cut ? depth : VCT_DEPTH_ALL, SOLVER_FAIL, POINT_NONE);
    return false;
}

SolveStatus vct_solve(Solver *s, Board *b, Color attacker, const SolverLimits *lim,
                      SolverResult *out)
{
    SolverSearch ss;
    solver_search_init(&ss, s, b, attacker, lim, VCT_MODE);
    int max = lim && lim->max_depth > 0 && lim->max_depth < SOLVER_MAX_DEPTH ? lim->max_depth
                                                                           : SOLVER_MAX_DEPTH;
    Point f[SOLVER_MAX_MOVES];
    if (!ss.aborted && solver_fives_all(&ss, attacker, f, 1)) {
        ss.path[0] = f[0];
        ss.plen = 1;
        solver_record_win(&ss, POINT_NONE);
        solver_fill_result(&ss, SOLVE_WIN, 1, out);
        return SOLVE_WIN;
    }
    int ndf = solver_fives_all(&ss, ss.def, f, SOLVER_MAX_MOVES);
    int done = 0;
    for (int depth = 1; depth <= max; depth++) {
        ss.cut = false;
        if (attack(&ss, depth, f, ndf)) {
            solver_fill_result(&ss, SOLVE_WIN, depth, out);
            return SOLVE_WIN;
        }
        if (ss.aborted)
            break;
        done = depth;
        if (!ss.cut)
            break; /* nothing stopped at the depth limit: deeper cannot win either */
    }
    SolveStatus st = ss.aborted ? SOLVE_UNKNOWN : SOLVE_NO_WIN;
    solver_fill_result(&ss, st, done, out);
    return st;
}
