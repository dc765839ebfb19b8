#include "search.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "eval_params.h"
#include "tengen/pattern.h"

#define WIN ENGINE_SCORE_WIN
#define INF ENGINE_SCORE_INF
#define MAX_MOVES BOARD_MAX_MOVES
/* Depths inside the search are in units of a 16th of a ply, so extensions and
 * reductions can be fractions; the table keeps them so. */
#define ONE_PLY TT_PLY

/* Remaining depth the reverse-futility margin counts: a ply less when the
 * evaluation improves, never below nothing (a fraction of a ply can remain). */
static inline int futility_plies(int depth, bool improving)
{
    int d = depth - improving * ONE_PLY;
    return d > 0 ? d : 0;
}

/* Whole plies of d, or d itself when the search keeps fractions. */
static inline int ply_floor(int d) { return SEARCH_FRAC ? d : d / ONE_PLY * ONE_PLY; }

static int win_in(int ply) { return WIN - ply; }
static int loss_in(int ply) { return -(WIN - ply); }

static int score_to_tt(int s, int ply)
{
    return s > ENGINE_SCORE_WIN_MIN ? s + ply : s < -ENGINE_SCORE_WIN_MIN ? s - ply : s;
}

static int score_from_tt(int s, int ply)
{
    return s > ENGINE_SCORE_WIN_MIN ? s - ply : s < -ENGINE_SCORE_WIN_MIN ? s + ply : s;
}

static bool stopped(const Worker *w) { return atomic_load_explicit(&w->e->stop, memory_order_relaxed); }

/* Adds this worker's new nodes to the shared total and stops the search when
 * the clock or the node budget says so. */
static void check_limits(Worker *w)
{
    Engine *e = w->e;
    /* Probes add many nodes at once, so the next look is a count to reach,
     * not a multiple to hit; small node budgets are looked at more often. */
    uint64_t every = e->lim.nodes && e->lim.nodes < 16 * 1024 ? e->lim.nodes / 16 + 1 : 1024;
    w->next_check = w->nodes + every;
    uint64_t add = w->nodes - w->flushed;
    w->flushed = w->nodes;
    uint64_t total = atomic_fetch_add(&e->nodes_total, add) + add;
    if (e->lim.nodes && total >= e->lim.nodes)
        atomic_store(&e->stop, true);
    if (e->hard_ms > 0 && engine_elapsed_ms(e) >= e->hard_ms)
        atomic_store(&e->stop, true);
}

/* First legal cell of class cl for colour c, or POINT_NONE. */
static Point legal_of_class(SPos *s, Color c, CellClass cl)
{
    int left = s->count[c - 1][cl]; /* cells of the class not yet looked at */
    for (Point p = s->lo; p <= s->hi && left > 0; p++) {
        if (s->cls[c - 1][p] != cl || s->b.cell[p] != EMPTY)
            continue;
        if (spos_legal(s, p, c))
            return p;
        left--;
    }
    return POINT_NONE;
}

/* Colour c can make a flex four (or two fours) with a legal move: a sure win
 * next move. Not used in caro: its flex fours are sure since the fifty-first
 * session's tables, but taking them as a win here measured worse there (45.2%
 * of 115 games at 50,000 nodes), so caro searches them out. */
static bool has_open_threat(SPos *s, Color c)
{
    if (s->b.rule == RULE_CARO)
        return false;
    return legal_of_class(s, c, CL_F4) != POINT_NONE || legal_of_class(s, c, CL_44) != POINT_NONE;
}

/* Some line through p would give colour c at least a four. */
static bool line_four_point(const SPos *s, Point p, Color c)
{
    const uint8_t *tab = pattern_table(s->b.rule, c);
    for (int d = 0; d < DIR_COUNT; d++)
        if (tab[s->b.key[d][p]] >= PAT_B4 && tab[s->b.key[d][p]] != PAT_OL)
            return true;
    return false;
}

int search_order_score(const SPos *s, Point p)
{
    int me = s->stm - 1;
    const OrderWeights *o = s->ord[me];
    if (o)
        return o->att[s->code[me][p]] + o->def[s->code[1 - me][p]];
    return ORDER_ATTACK[s->cls[me][p]] + ORDER_DEFEND[s->cls[1 - me][p]] + s->worth[me][p] +
           s->worth[1 - me][p];
}

/* Chebyshev distance, -1 when either point is missing. */
static int point_dist(Point a, Point b)
{
    if (a == POINT_NONE || b == POINT_NONE)
        return -1;
    int dx = abs(point_x(a) - point_x(b)), dy = abs(point_y(a) - point_y(b));
    return dx > dy ? dx : dy;
}

/* A stone of the class's colour there makes a four or better. */
static bool makes_four(CellClass cl)
{
    return cl == CL_B4 || cl == CL_43 || cl == CL_44 || cl == CL_F4 || cl == CL_FIVE;
}

/* Caro: marks the cells on the lines through the opponent's flex-four and
 * double-four points; only those (and own fours) can answer them. */
static void caro_threat_lines(const SPos *s, Color opp, uint8_t *mark)
{
    memset(mark, 0, BOARD_CELLS);
    for (Point p = s->lo; p <= s->hi; p++) {
        CellClass cl = spos_class(s, p, opp);
        if (s->b.cell[p] != EMPTY || (cl != CL_F4 && cl != CL_44))
            continue;
        for (int d = 0; d < DIR_COUNT; d++)
            for (int k = -5; k <= 5; k++)
                mark[p + k * DIR[d]] = 1;
    }
}

/* The opponent's four-three points (a four and a flex three in one stone)
 * win unless answered: counts in mark, per cell, how many of them (up to 8) a
 * stone of the mover there leaves without a four-three, a double three or
 * more. Returns how many points were counted; 0 where the test does not apply
 * (caro, whose fours can be blocked beyond the five; renju black, whose three
 * may be false). The mover's own fours and threes stay beside these: a three
 * can win the tempo back when the block of the coming four makes a four of
 * its own (test_four_three_answered_by_three). */
static int defend_43_marks(const SPos *s, uint8_t *mark)
{
    Color me = s->stm, opp = color_other(me);
    if (!SEARCH_DEFEND_43 || !s->count[opp - 1][CL_43] || s->b.rule == RULE_CARO ||
        (s->renju && opp == BLACK))
        return 0;
    Point pts[8];
    int np = spos_cells_of_class(s, opp, CL_43, pts, 8);
    memset(mark, 0, BOARD_CELLS);
    for (int i = 0; i < np; i++) {
        Point p = pts[i];
        mark[p]++;
        for (int d = 0; d < DIR_COUNT; d++)
            for (int k = -5; k <= 5; k++) {
                Point q = p + k * DIR[d];
                if (k == 0 || s->b.cell[q] != EMPTY)
                    continue;
                uint32_t key = s->b.key[d][p] | (uint32_t)me << board_key_shift(k);
                CellClass cl = spos_class_if(s, p, opp, d, key);
                if (cl == CL_NONE || cl == CL_THREE || cl == CL_B4)
                    mark[q]++;
            }
    }
    return np;
}

/* Candidates near the stones, legal for the mover; with `threat` only own
 * fours and the points on the opponent's lines (mark, in caro), and with
 * need > 0 only own fours and threes and cells that mark counts need times. */
static int collect_moves(Worker *w, Point *mv, int *sc, bool threat, const uint8_t *mark, int need)
{
    SPos *s = &w->pos;
    Color me = s->stm, opp = color_other(me);
    bool caro = threat && s->b.rule == RULE_CARO;
    int n = 0;
    for (Point p = s->lo; p <= s->hi; p++) {
        if (!(p & 7)) { /* eight cells at a time where no stone is near: most of the board */
            uint64_t near8;
            memcpy(&near8, &s->near[p], sizeof near8);
            if (!near8) {
                p += 7;
                continue;
            }
        }
        if (!s->near[p] || s->b.cell[p] != EMPTY)
            continue;
        /* The class is only read where a filter applies: this is the hot path. */
        CellClass cl = threat || need ? spos_class(s, p, me) : CL_NONE;
        bool four = makes_four(cl);
        if (threat && !four && (caro ? !mark[p] : !line_four_point(s, p, opp)))
            continue;
        if (need && !four && mark[p] < need &&
            !(SEARCH_DEFEND_43_THREES && (cl == CL_THREE || cl == CL_33)))
            continue;
        if (!spos_legal(s, p, me))
            continue;
        mv[n] = p;
        sc[n] = search_order_score(s, p) + w->history[me - 1][p];
        n++;
    }
    return n;
}

static int gen_moves(Worker *w, Point *mv, int *sc, bool threat)
{
    SPos *s = &w->pos;
    uint8_t mark[BOARD_CELLS];
    if (threat && s->b.rule == RULE_CARO)
        caro_threat_lines(s, color_other(s->stm), mark);
    int need = threat ? 0 : defend_43_marks(s, mark);
    int n = collect_moves(w, mv, sc, threat, mark, need);
    /* Nothing answers every four-three: all moves lose, let the search show it. */
    if (n == 0 && need)
        n = collect_moves(w, mv, sc, threat, mark, 0);
    return n;
}

/* Every legal empty cell (when no cell near the stones is legal). */
static int gen_all(SPos *s, Point *mv, int *sc)
{
    int n = 0;
    for (Point p = s->lo; p <= s->hi; p++)
        if (s->b.cell[p] == EMPTY && spos_legal(s, p, s->stm)) {
            mv[n] = p;
            sc[n++] = 0;
        }
    return n;
}

static void pick_next(Point *mv, int *sc, int i, int n)
{
    int best = i;
    for (int j = i + 1; j < n; j++)
        if (sc[j] > sc[best] || (sc[j] == sc[best] && mv[j] < mv[best]))
            best = j;
    Point tp = mv[i];
    mv[i] = mv[best];
    mv[best] = tp;
    int ts = sc[i];
    sc[i] = sc[best];
    sc[best] = ts;
}

static void update_pv(Worker *w, int ply, Point m)
{
    w->pv[ply][ply] = m;
    int len = w->pvlen[ply + 1];
    for (int i = ply + 1; i < len; i++)
        w->pv[ply][i] = w->pv[ply + 1][i];
    w->pvlen[ply] = len > ply + 1 ? len : ply + 1;
}

/* Probes for a VCF of colour c (as if c were to move; neither side may have a
 * five point); true with *r filled when one is found. */
static bool probe_vcf(Worker *w, Color c, long long nodes, SolverResult *r)
{
    SPos *s = &w->pos;
    if (!s->count[c - 1][CL_B4] && !s->count[c - 1][CL_43] && !s->count[c - 1][CL_44])
        return false;
    /* The position's classes already say where the fours are. */
    Point fours[MAX_MOVES];
    int nf = spos_four_cells(s, c, fours);
    SolverLimits sl = {.max_nodes = nodes};
    if (vcf_solve_fours(w->solver, &s->b, c, &sl, fours, nf, r) != SOLVE_WIN)
        return false;
    w->nodes += (uint64_t)r->nodes;
    return true;
}

/* Probes for a VCF of the side to move; true with *score = the win's score. */
static bool leaf_vcf(Worker *w, int ply, long long nodes, int *score)
{
    /* Neither side has a five point here: both were handled before the leaf. */
    SolverResult r;
    if (!probe_vcf(w, w->pos.stm, nodes, &r))
        return false;
    /* The five is ply len - 1 from here; a four whose block is forbidden wins two plies later. */
    int at = ply + r.len - 1 + (r.forbidden != POINT_NONE ? 2 : 0);
    *score = win_in(at);
    return true;
}

/* A node judged without searching on: the mover's VCF if the probe finds one,
 * else the evaluation. */
static int leaf_score(Worker *w, int ply, int eval)
{
    int vs;
    return leaf_vcf(w, ply, SEARCH_LEAF_VCF_NODES, &vs) ? vs : eval;
}

/* The opponent threatens five at exactly one point: the reply is forced (and
 * searched without using up depth). Returns true with *score set when the
 * node is decided here. */
static bool forced_reply(Worker *w, int alpha, int beta, int depth, int ply, bool pv_node,
                         bool cut_node, int *score);


/* Moves a history score toward +-SEARCH_HIST_MAX by bonus, less the closer it is. */
static inline void history_update(int32_t *h, int bonus)
{
    int ab = bonus < 0 ? -bonus : bonus;
    *h += bonus - *h * ab / SEARCH_HIST_MAX;
}

/* Extra plies of reduction for a move whose static order score is gap below
 * the best candidate's: -1 near the top, up to 2 far below it. */
static int policy_reduction(int gap)
{
    if (!SEARCH_LMR_POLICY)
        return 0;
    if (gap < SEARCH_LMR_POLICY_NEAR)
        return -1;
    /* The guard only keeps the compiler quiet when the switch is 0 (unreachable then). */
    int r = (gap - SEARCH_LMR_POLICY_NEAR) / (SEARCH_LMR_POLICY ? SEARCH_LMR_POLICY : 1);
    return r > 2 ? 2 : r;
}

void search_init_lmr(Engine *e)
{
    static const double divisor[RULE_COUNT] = {
        [RULE_FREESTYLE] = SEARCH_LMR_DIVISOR,
        [RULE_STANDARD] = SEARCH_LMR_DIVISOR_STANDARD,
        [RULE_RENJU] = SEARCH_LMR_DIVISOR_RENJU,
        [RULE_CARO] = SEARCH_LMR_DIVISOR,
    };
    for (int rule = 0; rule < RULE_COUNT; rule++)
        for (int d = 0; d < LMR_SIZE; d++)
            for (int i = 0; i < LMR_SIZE; i++) {
                double r = d && i ? SEARCH_LMR_BASE + log((double)d) * log((double)i) / divisor[rule] : 0;
                r = r < 1 ? 1 : r;
                e->lmr[rule][d][i] = (int16_t)(SEARCH_FRAC ? lround(r * ONE_PLY) : (long)r * ONE_PLY);
            }
    for (int d = 0; d < LMR_SIZE; d++) {
        /* Without SEARCH_LMP_POW the count grows with depth squared and
         * stops at SEARCH_LMP_DEPTH; with it, it grows slower and never stops. */
        double c = SEARCH_LMP_POW ? SEARCH_LMP_BASE + pow((double)d, SEARCH_LMP_POW / 100.0)
                   : d <= SEARCH_LMP_DEPTH ? SEARCH_LMP_BASE + d * d
                                           : 32767;
        e->lmp[d] = (int16_t)(c > 32767 ? 32767 : c);
    }
}

/* cut_node: a non-PV node expected to fail high (a zero-window child of a
 * reduced search, or the first child of an expected all-node). */
static int search(Worker *w, int alpha, int beta, int depth, int ply, bool pv_node, bool cut_node)
{
    SPos *s = &w->pos;
    Color me = s->stm, opp = color_other(me);
    w->pvlen[ply] = ply;
    if (ply > w->seldepth)
        w->seldepth = ply;
    if (++w->nodes >= w->next_check)
        check_limits(w);
    if (stopped(w))
        return 0;

    if (s->count[me - 1][CL_FIVE])
        return win_in(ply);
    if (s->b.count >= board_area(&s->b))
        return 0;
    if (ply >= MAX_PLY - 4)
        return spos_evaluate(s);

    /* Mate distance pruning. */
    if (alpha < loss_in(ply))
        alpha = loss_in(ply);
    if (beta > win_in(ply + 1))
        beta = win_in(ply + 1);
    if (alpha >= beta)
        return alpha;

    /* Where the reply is forced, the eval is taken as the last one's negation. */
    w->seval[ply] = ply ? -w->seval[ply - 1] : 0;
    int fscore;
    if (forced_reply(w, alpha, beta, depth, ply, pv_node, cut_node, &fscore))
        return fscore;
    if (has_open_threat(s, me))
        return win_in(ply + 2);

    uint64_t key = spos_key(s);
    TtHit hit = {.move = POINT_NONE};
    Point tt_move = POINT_NONE, excluded = w->excluded[ply];
    int tt_score = 0;
    bool tt_hit = false;
    /* A singular test search leaves the table alone: it sees a different move list. */
    if (excluded == POINT_NONE && tt_probe(&w->e->tt, key, &hit)) {
        tt_hit = true;
        tt_move = hit.move;
        tt_score = score_from_tt(hit.score, ply);
        if (!pv_node && hit.depth >= depth &&
            (hit.bound == BOUND_EXACT || (hit.bound == BOUND_LOWER && tt_score >= beta) ||
             (hit.bound == BOUND_UPPER && tt_score <= alpha)))
            return tt_score;
    }

    /* On the PV now or once: such nodes are reduced less. A singular test
     * search keeps the flag of its node. */
    bool tt_pv = excluded != POINT_NONE ? w->tt_pv[ply] : pv_node || hit.pv;
    w->tt_pv[ply] = tt_pv;
    int eval = spos_evaluate(s);
    w->seval[ply] = eval;
    bool improving = ply < 2 || eval > w->seval[ply - 2];
    /* A table score that bounds the static one from the right side is the
     * better guess of the node's worth for pruning (not for "improving"). */
    if (SEARCH_TT_EVAL && tt_hit &&
        tt_score > -ENGINE_SCORE_WIN_MIN && tt_score < ENGINE_SCORE_WIN_MIN &&
        (hit.bound == BOUND_EXACT || (hit.bound == BOUND_LOWER && tt_score > eval) ||
         (hit.bound == BOUND_UPPER && tt_score < eval)))
        eval = tt_score;
    bool caro = s->b.rule == RULE_CARO;
    bool threat = caro ? s->count[opp - 1][CL_F4] || s->count[opp - 1][CL_44] : has_open_threat(s, opp);
    /* In caro keeping the pruning on measured better (switching it off scored
     * 33.1% of 160 games at 50,000 nodes, fifty-first session). */
    bool sure_threat = threat && !caro;
    SolverResult vr;
    if (depth <= 0) {
        /* At or above beta the probe could only confirm the cutoff, unless the
         * opponent wins by fours: then the mover's answers get a ply, less a
         * hair so that the nodes below them do not extend again. */
        if (!SEARCH_LEAF_STANDPAT || eval < beta)
            return leaf_score(w, ply, eval);
        if (!SEARCH_LEAF_OPP_VCF || depth < 0 || !probe_vcf(w, opp, SEARCH_LEAF_OPP_VCF, &vr))
            return eval;
        depth = ONE_PLY - 1;
    }

    /* Reverse futility: far above beta with nothing to answer (the opponent's
     * open threes and four-three points are seen; a VCF is probed for). */
    int margin =
        SEARCH_FUTILITY_MARGIN * futility_plies(depth, SEARCH_IMPROVING && improving) / ONE_PLY;
    int rfp_vcf = s->b.rule == RULE_STANDARD ? SEARCH_RFP_VCF_NODES_STANDARD
                  : s->b.rule == RULE_RENJU  ? SEARCH_RFP_VCF_NODES_RENJU
                                             : SEARCH_RFP_VCF_NODES;
    if (!pv_node && !sure_threat && depth <= SEARCH_FUTILITY_DEPTH * ONE_PLY &&
        eval - margin >= beta && !s->count[opp - 1][CL_43] &&
        !(rfp_vcf && probe_vcf(w, opp, rfp_vcf, &vr)))
        return eval;

    /* Razoring: far below alpha a shallow node is judged as a leaf (a VCF
     * of the mover's could still save it). */
    if (SEARCH_RAZOR_MARGIN && !pv_node && !sure_threat && depth <= 2 * ONE_PLY &&
        eval + SEARCH_RAZOR_MARGIN * depth / ONE_PLY < alpha && !s->count[opp - 1][CL_43] &&
        alpha > -ENGINE_SCORE_WIN_MIN)
        return leaf_score(w, ply, eval);

    /* A PV node whose table move comes from a much shallower search is
     * probably a new line: it gets part of the depth until it proves itself. */
    if (SEARCH_PV_TT_REDUCE && pv_node && ply > 0 && tt_move != POINT_NONE && hit.depth < depth) {
        int r = (depth - hit.depth) * SEARCH_PV_TT_REDUCE / 100;
        depth -= r > 3 * ONE_PLY ? 3 * ONE_PLY : r;
    }

    int dp = depth / ONE_PLY; /* whole plies, for the tables */
    Point mv[MAX_MOVES];
    int sc[MAX_MOVES];
    int n = gen_moves(w, mv, sc, threat);
    if (n == 0 && !threat)
        n = gen_all(s, mv, sc);
    if (n == 0)
        return threat ? loss_in(ply + 3) : 0;
    Point prev = s->b.count ? s->b.history[s->b.count - 1] : POINT_NONE;
    Point prev2 = s->b.count > 1 ? s->b.history[s->b.count - 2] : POINT_NONE;
    Point counter = SEARCH_COUNTER && prev != POINT_NONE ? w->counter[me - 1][prev] : POINT_NONE;
    for (int i = 0; i < n; i++) {
        if (mv[i] == tt_move)
            sc[i] += 1 << 24;
        else if (mv[i] == w->killer[ply][0])
            sc[i] += 1 << 20;
        else if (mv[i] == w->killer[ply][1])
            sc[i] += 1 << 19;
        else if (mv[i] == counter)
            sc[i] += 1 << 18;
    }

    /* The best static order score here, for reductions by the table's softmax. */
    int order_top = INT_MIN;
    if (SEARCH_LMR_POLICY && s->ord[me - 1] && depth >= SEARCH_LMR_MIN_DEPTH * ONE_PLY && !sure_threat)
        for (int i = 0; i < n; i++) {
            int o = search_order_score(s, mv[i]);
            order_top = o > order_top ? o : order_top;
        }
    int best = -INF, old_alpha = alpha;
    Point best_move = POINT_NONE;
    int searched = 0, nquiet = 0;
    int free_answers = s->b.rule == RULE_RENJU      ? SEARCH_THREAT_FREE_RENJU
                       : s->b.rule == RULE_STANDARD ? SEARCH_THREAT_FREE_STANDARD
                                                    : SEARCH_THREAT_FREE;
    Point quiet[64]; /* quiet moves that failed low, for the history malus */
    /* An expected cut node far above beta: anything but a four is searched a
     * ply shallower (two fours in a row a ply deeper: an attack in progress). */
    bool likely_fh = SEARCH_FH_MARGIN && !pv_node && cut_node && excluded == POINT_NONE &&
                     eval >= beta + SEARCH_FH_MARGIN * depth / ONE_PLY + (threat ? 170 : 0) &&
                     beta < ENGINE_SCORE_WIN_MIN;
    for (int i = 0; i < n; i++) {
        pick_next(mv, sc, i, n);
        Point m = mv[i];
        if (m == excluded)
            continue;
        bool tactical = s->cls[me - 1][m] >= CL_B4 || s->cls[opp - 1][m] >= CL_THREE;
        bool own_three =
            SEARCH_LMR_OWN_THREE && (s->cls[me - 1][m] == CL_THREE || s->cls[me - 1][m] == CL_33);
        int lmp = w->e->lmp[dp < LMR_SIZE ? dp : LMR_SIZE - 1];
        if (SEARCH_IMPROVING && !improving)
            lmp /= 2;
        if (!pv_node && !sure_threat && !tactical && searched >= lmp && best > -ENGINE_SCORE_WIN_MIN)
            break;
        /* A stone that makes nothing for either side rarely matters near the leaves.
         * Codes are ordered by their largest pattern: below C4[F2], all are B2 or less. */
        if (SEARCH_TRIVIAL_DEPTH && !pv_node && !sure_threat && depth <= SEARCH_TRIVIAL_DEPTH * ONE_PLY &&
            searched > 0 && best > -ENGINE_SCORE_WIN_MIN && s->code[0][m] < SPOS_C4[PAT_F2] &&
            s->code[1][m] < SPOS_C4[PAT_F2])
            continue;
        /* Against an open three, a stone that does not block it (an own four) far from
         * the last stones mostly delays the loss. */
        bool useless = (SEARCH_USELESS_OPP || SEARCH_DISTRACT_DEPTH) && sure_threat &&
                       !makes_four(s->cls[opp - 1][m]);
        int dopp = useless ? point_dist(m, prev) : 0, dself = useless ? point_dist(m, prev2) : 0;
        if (SEARCH_DISTRACT_DEPTH && useless && ply > 0 && searched > 0 && depth < SEARCH_DISTRACT_DEPTH &&
            best > -ENGINE_SCORE_WIN_MIN && dopp > 4 && dself > (s->b.rule == RULE_RENJU ? 5 : 4))
            continue;
        int ext = 0;
        /* Singular extension: when every other move stays well below the
         * table move's score, the table move is searched one ply deeper. */
        if (SEARCH_SE_DEPTH && m == tt_move && ply > 0 && depth >= SEARCH_SE_DEPTH * ONE_PLY &&
            (hit.bound == BOUND_LOWER || hit.bound == BOUND_EXACT) && hit.depth >= depth - 3 * ONE_PLY &&
            tt_score > -ENGINE_SCORE_WIN_MIN && tt_score < ENGINE_SCORE_WIN_MIN && ply < 2 * w->root_depth) {
            int sb = tt_score - SEARCH_SE_MARGIN * depth / ONE_PLY;
            w->excluded[ply] = m;
            int v = search(w, sb - 1, sb, ply_floor((depth - ONE_PLY) / 2), ply, false, cut_node);
            w->excluded[ply] = POINT_NONE;
            w->pvlen[ply] = ply;
            if (stopped(w))
                return 0;
            if (v < sb)
                ext = SEARCH_SE_DOUBLE && !pv_node && v < sb - SEARCH_SE_DOUBLE && w->double_ext < 6
                          ? 2
                          : 1;
            else if (sb >= beta)
                return sb; /* multi-cut: even without it the node fails high */
            else if (SEARCH_SE_NEG && tt_score >= beta)
                ext = -1; /* others come close and it should cut anyway: save depth */
        }
        if (SEARCH_FH_MARGIN) {
            bool four = makes_four(s->cls[me - 1][m]);
            if (likely_fh)
                ext += !four ? -1 : ply >= 2 && w->played_four[ply - 2] ? 1 : 0;
            w->played_four[ply] = four;
        }
        /* Read before the play: the order score is the mover's view of the empty cell. */
        int m_order = order_top != INT_MIN ? search_order_score(s, m) : 0;
        /* Fetched before the play, so the stone's pattern updates hide the miss. */
        tt_prefetch(&w->e->tt, spos_key_after(s, m));
        spos_play(s, m);
        int score;
        int nd = depth - ONE_PLY + ext * ONE_PLY;
        /* The table move, searched without a singular extension, a little deeper. */
        if (m == tt_move && ext == 0)
            nd += pv_node ? SEARCH_TTM_EXT_PV : SEARCH_TTM_EXT_NONPV;
        /* A narrow answer to an open three costs no depth, so a threat
         * sequence costs one ply a threat and deep VCTs stay in sight. */
        if (sure_threat && n <= free_answers)
            nd = depth;
        w->double_ext += ext == 2;
        if (searched == 0) {
            score = -search(w, -beta, -alpha, nd, ply + 1, pv_node, !pv_node && !cut_node);
        } else {
            int r = 0;
            if (depth >= SEARCH_LMR_MIN_DEPTH * ONE_PLY && searched >= SEARCH_LMR_MIN_INDEX &&
                (SEARCH_LMR_THREAT || !sure_threat) && (SEARCH_LMR_ALL || !tactical))
                r = w->e->lmr[s->b.rule][dp < LMR_SIZE ? dp : LMR_SIZE - 1]
                             [searched < LMR_SIZE ? searched : LMR_SIZE - 1] -
                    (SEARCH_TTPV ? tt_pv : pv_node) * ONE_PLY;
            if (SEARCH_USELESS_OPP && useless && depth >= 2 * ONE_PLY)
                r += (dopp > 4 ? SEARCH_USELESS_OPP : 0) + (dself > 4 ? SEARCH_USELESS_SELF : 0);
            if (SEARCH_LMR_WORSE && !pv_node && !improving && r > ONE_PLY)
                r += SEARCH_LMR_WORSE;
            /* At an expected cut node a move other than the killers is unlikely to be the cut. */
            if (SEARCH_CUT_LMR && r && cut_node && m != w->killer[ply][0] && m != w->killer[ply][1])
                r += SEARCH_CUT_LMR * ONE_PLY;
            if (r && order_top != INT_MIN)
                r += policy_reduction(order_top - m_order) * ONE_PLY;
            /* Moves that often refute elsewhere are reduced less, those that fail more. */
            if (r) {
                r -= SEARCH_FRAC ? w->history[me - 1][m] * ONE_PLY / SEARCH_LMR_HIST_DIV
                                 : w->history[me - 1][m] / SEARCH_LMR_HIST_DIV * ONE_PLY;
                r = r < 0 ? 0 : r;
            }
            if (own_three && r)
                r = r > SEARCH_LMR_OWN_THREE * ONE_PLY ? r - SEARCH_LMR_OWN_THREE * ONE_PLY : 0;
            if (r > nd - ONE_PLY)
                r = nd > ONE_PLY ? nd - ONE_PLY : 0;
            score = -search(w, -alpha - 1, -alpha, nd - r, ply + 1, false, r ? true : !cut_node);
            if (score > alpha && r) {
                /* Far above alpha after a reduction: the move deserves more than full depth. */
                if (SEARCH_LMR_DEEPER && score > alpha + SEARCH_LMR_DEEPER + 20 * r / ONE_PLY &&
                    ply < 2 * w->root_depth && score < ENGINE_SCORE_WIN_MIN)
                    nd += ONE_PLY;
                score = -search(w, -alpha - 1, -alpha, nd, ply + 1, false, !cut_node);
            }
            if (score > alpha && score < beta && pv_node)
                score = -search(w, -beta, -alpha, nd, ply + 1, true, false);
        }
        spos_undo(s);
        w->double_ext -= ext == 2;
        searched++;
        if (stopped(w))
            return 0;
        bool learns = SEARCH_HIST_ALL || !tactical;
        if (learns && score <= alpha && nquiet < (int)(sizeof quiet / sizeof *quiet))
            quiet[nquiet++] = m;
        if (score > best) {
            best = score;
            best_move = m;
            if (score > alpha) {
                alpha = score;
                update_pv(w, ply, m);
                /* With a good move in hand, the later ones need to prove less. */
                if (SEARCH_ALPHA_RED && score < beta && depth > 2 * ONE_PLY && depth < 12 * ONE_PLY &&
                    score > -2000 && score < 2000) {
                    depth -= SEARCH_ALPHA_RED;
                    dp = depth / ONE_PLY;
                }
                if (score >= beta) {
                    if (learns) {
                        if (w->killer[ply][0] != m) {
                            w->killer[ply][1] = w->killer[ply][0];
                            w->killer[ply][0] = m;
                        }
                        if (SEARCH_COUNTER && prev != POINT_NONE)
                            w->counter[me - 1][prev] = m;
                        int bonus = dp > 1 ? dp * dp : 1;
                        history_update(&w->history[me - 1][m], bonus);
                        for (int q = 0; q < nquiet; q++)
                            history_update(&w->history[me - 1][quiet[q]], -bonus);
                    }
                    break;
                }
            }
        }
    }
    if (excluded != POINT_NONE)
        return best == -INF ? alpha : best;
    int bound = best >= beta ? BOUND_LOWER : alpha > old_alpha ? BOUND_EXACT : BOUND_UPPER;
    tt_store(&w->e->tt, key, best_move, score_to_tt(best, ply), eval, depth, bound, tt_pv);
    return best;
}

/* The moves that leave the opponent without a five point. Elsewhere that is
 * the single five point itself; in caro a stone beyond the five point can also
 * leave the five blocked at both ends, so candidates on its lines are tried. */
static int defences(SPos *s, Point *out)
{
    Color me = s->stm, opp = color_other(me);
    Point fives[8];
    int nf = spos_cells_of_class(s, opp, CL_FIVE, fives, 8);
    if (s->b.rule != RULE_CARO) {
        if (nf != 1 || !spos_legal(s, fives[0], me))
            return 0;
        out[0] = fives[0];
        return 1;
    }
    /* Candidates: each five point, and the cells just beyond the five it makes. */
    Point cand[8 * (1 + 2 * DIR_COUNT)];
    int nc = 0;
    for (int f = 0; f < nf; f++) {
        cand[nc++] = fives[f];
        for (int d = 0; d < DIR_COUNT; d++) {
            if (board_pattern(&s->b, fives[f], d, opp) != PAT_F5)
                continue;
            Point a = fives[f], z = fives[f];
            while (s->b.cell[a - DIR[d]] == opp)
                a -= DIR[d];
            while (s->b.cell[z + DIR[d]] == opp)
                z += DIR[d];
            cand[nc++] = a - DIR[d];
            cand[nc++] = z + DIR[d];
        }
    }
    int n = 0;
    for (int i = 0; i < nc; i++) {
        Point q = cand[i];
        bool dup = false;
        for (int j = 0; j < n; j++)
            dup |= out[j] == q;
        if (dup || s->b.cell[q] != EMPTY || !spos_legal(s, q, me))
            continue;
        spos_play(s, q);
        bool ok = s->count[opp - 1][CL_FIVE] == 0;
        spos_undo(s);
        if (ok)
            out[n++] = q;
    }
    return n;
}

static bool forced_reply(Worker *w, int alpha, int beta, int depth, int ply, bool pv_node,
                         bool cut_node, int *score)
{
    SPos *s = &w->pos;
    Color opp = color_other(s->stm);
    if (!s->count[opp - 1][CL_FIVE])
        return false;
    Point mv[DIR_COUNT * 11 * 8];
    int n = defences(s, mv);
    int best = loss_in(ply + 1);
    for (int i = 0; i < n; i++) {
        tt_prefetch(&w->e->tt, spos_key_after(s, mv[i]));
        spos_play(s, mv[i]);
        bool first_pv = pv_node && i == 0;
        int nd = depth - ONE_PLY + SEARCH_FORCED_EXT;
        int sc = -search(w, -beta, -alpha, nd, ply + 1, first_pv, !first_pv && !cut_node);
        if (i > 0 && sc > alpha && sc < beta && pv_node)
            sc = -search(w, -beta, -alpha, nd, ply + 1, true, false);
        spos_undo(s);
        if (stopped(w))
            break;
        if (sc > best) {
            best = sc;
            if (sc > alpha) {
                alpha = sc;
                update_pv(w, ply, mv[i]);
                if (sc >= beta)
                    break;
            }
        }
    }
    *score = best;
    return true;
}

void search_root_moves(Worker *w)
{
    Engine *e = w->e;
    SPos *s = &w->pos;
    Color me = s->stm, opp = color_other(me);
    Point mv[MAX_MOVES];
    int sc[MAX_MOVES];
    int n = 0;
    if (s->b.count == 0) {
        mv[0] = point_make(s->b.size / 2, s->b.size / 2);
        sc[0] = 0;
        n = 1;
    } else {
        Point five = legal_of_class(s, me, CL_FIVE);
        if (five != POINT_NONE) {
            mv[0] = five;
            sc[0] = 0;
            n = 1;
        } else if (s->count[opp - 1][CL_FIVE] && (n = defences(s, mv)) > 0) {
            for (int i = 0; i < n; i++)
                sc[i] = search_order_score(s, mv[i]);
        } else {
            bool threat = s->b.rule == RULE_CARO
                              ? s->count[opp - 1][CL_F4] || s->count[opp - 1][CL_44]
                              : has_open_threat(s, opp);
            n = gen_moves(w, mv, sc, threat);
            if (n == 0)
                n = gen_all(s, mv, sc);
        }
    }
    if (e->lim.nroot > 0) {
        /* Only the caller's moves, if legal; forced replies do not override them. */
        n = 0;
        for (int i = 0; i < e->lim.nroot && n < MAX_MOVES; i++) {
            Point p = e->lim.root[i];
            bool dup = false;
            for (int j = 0; j < n; j++)
                dup |= mv[j] == p;
            if (!dup && board_on(&s->b, p) && spos_legal(s, p, me)) {
                mv[n] = p;
                sc[n++] = search_order_score(s, p);
            }
        }
    }
    for (int i = 0; i < n; i++)
        pick_next(mv, sc, i, n);
    w->nroot = n;
    for (int i = 0; i < n; i++) {
        RootMove *r = &w->root[i];
        r->move = mv[i];
        r->score = r->prev_score = -INF;
        r->order = sc[i];
        r->pvlen = 1;
        r->pv[0] = mv[i];
    }
}

/* Searches root moves first..nroot-1 and moves the best to `first`. */
static int search_root(Worker *w, int depth, int first, int alpha, int beta)
{
    SPos *s = &w->pos;
    int best = -INF;
    w->pvlen[0] = 0;
    for (int i = first; i < w->nroot; i++) {
        RootMove *r = &w->root[i];
        spos_play(s, r->move);
        w->nodes++;
        int score;
        if (i == first) {
            score = -search(w, -beta, -alpha, (depth - 1) * ONE_PLY, 1, true, false);
        } else {
            score = -search(w, -alpha - 1, -alpha, (depth - 1) * ONE_PLY, 1, false, true);
            if (score > alpha && score < beta)
                score = -search(w, -beta, -alpha, (depth - 1) * ONE_PLY, 1, true, false);
        }
        spos_undo(s);
        if (stopped(w))
            break;
        r->score = score;
        if (score > best) {
            best = score;
            if (score > alpha) {
                alpha = score;
                r->pv[0] = r->move;
                int len = w->pvlen[1] > 1 ? w->pvlen[1] : 1;
                if (len > ENGINE_MAX_PV)
                    len = ENGINE_MAX_PV;
                for (int k = 1; k < len; k++)
                    r->pv[k] = w->pv[1][k];
                r->pvlen = len;
                /* Keep the best of this iteration at `first`. */
                RootMove t = *r;
                memmove(&w->root[first + 1], &w->root[first], (size_t)(i - first) * sizeof *r);
                w->root[first] = t;
            } else {
                r->pvlen = 1;
            }
            if (score >= beta)
                break;
        }
    }
    return best;
}

static void fill_line(SearchLine *l, const RootMove *r, int score)
{
    l->move = r->move;
    l->score = score;
    l->mate = engine_mate_plies(score);
    l->pvlen = r->pvlen;
    memcpy(l->pv, r->pv, (size_t)r->pvlen * sizeof(Point));
}

static void report(Worker *w, int depth, int nlines)
{
    Engine *e = w->e;
    SearchResult *res = &e->result;
    res->depth = depth;
    res->nlines = nlines;
    for (int i = 0; i < nlines; i++)
        fill_line(&res->lines[i], &w->root[i], w->root[i].score);
    res->best = res->lines[0].move;
    res->score = res->lines[0].score;
    res->mate = res->lines[0].mate;
    if (!e->cb || depth == 0)
        return;
    SearchInfo info;
    check_limits(w);
    info.depth = depth;
    info.seldepth = w->seldepth;
    info.time_ms = engine_elapsed_ms(e);
    info.nodes = atomic_load(&e->nodes_total);
    info.nps = info.time_ms > 0 ? info.nodes * 1000 / (uint64_t)info.time_ms : info.nodes * 1000;
    for (int i = 0; i < nlines; i++) {
        info.line_index = i;
        info.line = res->lines[i];
        e->cb(&info, e->user);
    }
}

/* A VCF for the side to move, found before the search, is played at once. */
static bool root_vcf(Worker *w)
{
    Engine *e = w->e;
    SPos *s = &w->pos;
    if (e->nbest > 1 || e->lim.nroot > 0)
        return false;
    SolverLimits sl = {.max_nodes = SEARCH_ROOT_VCF_NODES, .stop = &e->stop};
    /* A node-limited search gives the probe a quarter of its nodes. */
    if (e->lim.nodes && (uint64_t)sl.max_nodes > e->lim.nodes / 4)
        sl.max_nodes = (long long)(e->lim.nodes / 4) + 1;
    if (e->hard_ms > 0)
        sl.deadline = solver_now() + (double)(e->hard_ms - engine_elapsed_ms(e)) * 0.3 / 1000.0;
    SolverResult r;
    SolveStatus st = vcf_solve(w->solver, &s->b, s->stm, &sl, &r);
    w->nodes += (uint64_t)r.nodes;
    if (st != SOLVE_WIN || r.len < 1)
        return false;
    int i = 0;
    while (i < w->nroot && w->root[i].move != r.line[0])
        i++;
    if (i == w->nroot)
        return false;
    RootMove t = w->root[i];
    memmove(&w->root[1], &w->root[0], (size_t)i * sizeof t);
    t.score = win_in(r.len - 1 + (r.forbidden != POINT_NONE ? 2 : 0));
    t.pvlen = r.len < ENGINE_MAX_PV ? r.len : ENGINE_MAX_PV;
    memcpy(t.pv, r.line, (size_t)t.pvlen * sizeof(Point));
    w->root[0] = t;
    report(w, 1, 1);
    return true;
}


static bool decided(int score) { return score <= -ENGINE_SCORE_WIN_MIN || score >= ENGINE_SCORE_WIN_MIN; }

/* One iteration in a window around the last score, widened on each side that
 * fails; 1 when it completed, 0 when stopped. */
static int search_aspiration(Worker *w, int depth)
{
    int delta = SEARCH_ASP_WINDOW, prev = w->root[0].prev_score;
    int alpha = prev - delta, beta = prev + delta;
    for (;;) {
        int v = search_root(w, depth, 0, alpha, beta);
        if (stopped(w))
            return 0;
        if (v > alpha && v < beta)
            return 1;
        delta *= 2;
        if (v <= alpha)
            alpha = decided(alpha - delta) ? -INF : alpha - delta;
        else
            beta = decided(beta + delta) ? INF : beta + delta;
        for (int i = 0; i < w->nroot; i++)
            w->root[i].score = -INF;
    }
}

void search_worker_run(Worker *w)
{
    Engine *e = w->e;
    int maxd = e->lim.depth > 0 ? e->lim.depth : ENGINE_MAX_DEPTH;
    int nbest = e->nbest < w->nroot ? e->nbest : w->nroot;
    if (w->nroot == 0)
        return;
    if (w->id == 0) {
        /* A usable answer before any search. */
        w->root[0].score = 0;
        report(w, 0, 1);
        e->result.nlines = 1;
    }
    if (spos_class(&w->pos, w->root[0].move, w->pos.stm) == CL_FIVE) {
        w->root[0].score = WIN;
        if (w->id == 0)
            report(w, 1, 1);
        w->completed = 1;
        return;
    }
    if (w->id == 0 && root_vcf(w)) {
        w->completed = 1;
        atomic_store(&e->stop, true);
        return;
    }
    int wins = 0; /* completed iterations in a row that found a win */
    for (int depth = 1 + (w->id & 1); depth <= maxd; depth++) {
        w->root_depth = depth;
        for (int i = 0; i < w->nroot; i++)
            w->root[i].score = -INF;
        int done = 0;
        if (nbest == 1 && depth >= SEARCH_ASP_MIN_DEPTH && !decided(w->root[0].prev_score)) {
            done = search_aspiration(w, depth);
        } else {
            for (int k = 0; k < nbest; k++) {
                search_root(w, depth, k, -INF, INF);
                if (stopped(w))
                    break;
                done++;
            }
        }
        if (done == nbest) {
            /* Separate searches of the lines can disagree a little: rank them. */
            for (int i = 1; i < nbest; i++)
                for (int j = i; j > 0 && w->root[j].score > w->root[j - 1].score; j--) {
                    RootMove t = w->root[j];
                    w->root[j] = w->root[j - 1];
                    w->root[j - 1] = t;
                }
            for (int i = 0; i < w->nroot; i++)
                w->root[i].prev_score = w->root[i].score;
            w->completed = depth;
            if (nbest == 1)
                w->done = w->root[0];
            if (w->id == 0)
                report(w, depth, nbest);
        } else if (w->id == 0 && nbest == 1 && w->root[0].score > -INF && depth > 1) {
            /* The stopped iteration searched the previous best first, so any
             * move ahead of it now is proven better. */
            report(w, depth - 1, 1);
        }
        if (stopped(w))
            break;
        if (w->id != 0)
            continue;
        int best = w->root[0].score;
        /* A forced move needs no depth, but a move the caller asked to have
         * scored (a restricted root) gets the full search. */
        if (w->nroot == 1 && nbest == 1 && depth >= 2 && e->lim.nroot == 0)
            break;
        if (best > ENGINE_SCORE_WIN_MIN && WIN - best < depth)
            break;
        /* Under a clock a win that held for two iterations is played: more
         * depth only looks for a shorter one. */
        wins = best > ENGINE_SCORE_WIN_MIN ? wins + 1 : 0;
        if (wins >= 2 && e->soft_ms > 0)
            break;
        if (e->soft_ms > 0 && engine_elapsed_ms(e) >= e->soft_ms)
            break;
    }
    if (w->id == 0)
        atomic_store(&e->stop, true);
}

void search_adopt_deeper(Engine *e, int nworkers)
{
    const Worker *main = &e->workers[0], *best = main;
    SearchResult *res = &e->result;
    if (e->nbest != 1 || res->nlines < 1 || decided(res->score) || main->completed < 1)
        return;
    for (int i = 1; i < nworkers; i++) {
        const Worker *h = &e->workers[i];
        if (h->completed > best->completed && h->done.score > -INF && h->done.pvlen > 0)
            best = h;
    }
    if (best == main)
        return;
    fill_line(&res->lines[0], &best->done, best->done.score);
    res->depth = best->completed;
    res->best = res->lines[0].move;
    res->score = res->lines[0].score;
    res->mate = res->lines[0].mate;
}
