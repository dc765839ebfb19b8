/* solver.c — the state, hash table and threat questions shared by VCF and VCT. */
#include "tengen/solver.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "solver_core.h"
#include "tengen/forbid.h"

#define LIMIT_CHECK_MASK 255 /* look at the clock and the stop flag every 256 nodes */

double solver_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

Solver *solver_new(size_t hash_bytes)
{
    Solver *s = malloc(sizeof *s);
    if (!s)
        return NULL;
    size_t n = 256;
    while (n * 2 * sizeof(SolverEntry) <= hash_bytes)
        n *= 2;
    s->table = calloc(n, sizeof *s->table);
    if (!s->table) {
        free(s);
        return NULL;
    }
    s->mask = n - 1;
    return s;
}

void solver_free(Solver *s)
{
    if (!s)
        return;
    free(s->table);
    free(s);
}

void solver_clear(Solver *s)
{
    memset(s->table, 0, (s->mask + 1) * sizeof *s->table);
}

const char *solve_status_name(SolveStatus st)
{
    static const char *const names[] = {"win", "no win", "unknown"};
    return (unsigned)st <= SOLVE_UNKNOWN ? names[st] : "?";
}

SolverEntry *solver_probe(Solver *s, uint64_t key)
{
    SolverEntry *e = &s->table[key & s->mask];
    return e->key == key ? e : NULL;
}

void solver_store(Solver *s, uint64_t key, int depth, int flag, Point move)
{
    SolverEntry *e = &s->table[key & s->mask];
    /* Keep the deeper proof of the same position; anything else is replaced. */
    if (e->key == key && e->flag == flag && e->depth > depth)
        return;
    e->key = key;
    e->depth = (int16_t)depth;
    e->flag = (uint8_t)flag;
    e->move = move;
}

static void grow_box(SolverSearch *ss, Point p)
{
    int x = point_x(p), y = point_y(p), last = ss->b->size - 1;
    int lo_x = x < 4 ? 0 : x - 4, lo_y = y < 4 ? 0 : y - 4;
    int hi_x = x + 4 > last ? last : x + 4, hi_y = y + 4 > last ? last : y + 4;
    if (ss->x0 > ss->x1) {
        ss->x0 = lo_x, ss->y0 = lo_y, ss->x1 = hi_x, ss->y1 = hi_y;
        return;
    }
    if (lo_x < ss->x0)
        ss->x0 = lo_x;
    if (lo_y < ss->y0)
        ss->y0 = lo_y;
    if (hi_x > ss->x1)
        ss->x1 = hi_x;
    if (hi_y > ss->y1)
        ss->y1 = hi_y;
}

void solver_search_init(SolverSearch *ss, Solver *s, Board *b, Color att,
                        const SolverLimits *lim, uint64_t mode)
{
    ss->b = b;
    ss->s = s;
    ss->att = att;
    ss->def = color_other(att);
    pattern_init(b->rule);
    ss->tab[EMPTY] = NULL;
    ss->tab[BLACK] = pattern_table(b->rule, BLACK);
    ss->tab[WHITE] = pattern_table(b->rule, WHITE);
    ss->renju = b->rule == RULE_RENJU;
    ss->caro = b->rule == RULE_CARO;
    ss->x0 = ss->y0 = 1;
    ss->x1 = ss->y1 = 0;
    for (int i = 0; i < b->count; i++)
        grow_box(ss, b->history[i]);
    ss->nodes = 0;
    ss->max_nodes = lim ? lim->max_nodes : 0;
    ss->deadline = lim ? lim->deadline : 0;
    ss->stop = lim ? lim->stop : NULL;
    /* A stop or a deadline that has already come ends the search before it starts. */
    ss->aborted = (ss->stop && atomic_load_explicit(ss->stop, memory_order_relaxed)) ||
                  (ss->deadline > 0 && solver_now() >= ss->deadline);
    ss->cut = false;
    /* Results depend on the stones, the attacker, the mode, the rule and the size. */
    ss->salt = board_zobrist(att, (Point)(BOARD_CELLS + mode * 1024 + (uint64_t)b->rule * 64 +
                                          (uint64_t)b->size));
    ss->plen = ss->wlen = 0;
    ss->win_forbidden = POINT_NONE;
}

void solver_count(SolverSearch *ss)
{
    ss->nodes++;
    if (ss->max_nodes && ss->nodes >= ss->max_nodes)
        ss->aborted = true;
    if ((ss->nodes & LIMIT_CHECK_MASK) == 0) {
        if (ss->stop && atomic_load_explicit(ss->stop, memory_order_relaxed))
            ss->aborted = true;
        if (ss->deadline > 0 && solver_now() >= ss->deadline)
            ss->aborted = true;
    }
}

void solver_push(SolverSearch *ss, Point p, Color c)
{
    board_play(ss->b, p, c);
    ss->path[ss->plen++] = p;
    grow_box(ss, p);
    solver_count(ss);
}

void solver_pop(SolverSearch *ss)
{
    board_undo(ss->b);
    ss->plen--;
}

void solver_record_win(SolverSearch *ss, Point forbidden)
{
    memcpy(ss->win, ss->path, (size_t)ss->plen * sizeof *ss->path);
    ss->wlen = ss->plen;
    ss->win_forbidden = forbidden;
}

bool solver_legal(SolverSearch *ss, Point p, Color c)
{
    return !(ss->renju && c == BLACK && forbid_is_forbidden(forbid_check(ss->b, p)));
}

static bool is_five_point(const SolverSearch *ss, Point p, Color c)
{
    if (ss->b->cell[p] != EMPTY)
        return false;
    for (int d = 0; d < DIR_COUNT; d++)
        if (solver_pat(ss, p, d, c) == PAT_F5)
            return true;
    return false;
}

int solver_fives_near(const SolverSearch *ss, Point p, Color c, Point *out, int cap)
{
    int n = 0;
    for (int d = 0; d < DIR_COUNT; d++)
        for (int k = -4; k <= 4; k++) {
            Point q = p + k * DIR[d];
            if (k && n < cap && ss->b->cell[q] == EMPTY && solver_pat(ss, q, d, c) == PAT_F5)
                out[n++] = q;
        }
    return n;
}

int solver_fives_all(const SolverSearch *ss, Color c, Point *out, int cap)
{
    int n = 0;
    for (int y = ss->y0; y <= ss->y1; y++)
        for (int x = ss->x0; x <= ss->x1; x++) {
            Point p = point_make(x, y);
            if (n < cap && is_five_point(ss, p, c))
                out[n++] = p;
        }
    return n;
}

/* Caro: a five blocked at both ends does not win, so a stone just beyond the
 * five can stop it as well as one on the five point. */
static int caro_answers(SolverSearch *ss, Color c, const Point *fives, int nf, Point *out)
{
    Point cand[SOLVER_MAX_MOVES];
    int nc = 0;
    for (int i = 0; i < nf; i++)
        for (int d = 0; d < DIR_COUNT; d++) {
            if (solver_pat(ss, fives[i], d, c) != PAT_F5)
                continue;
            for (int k = -5; k <= 5; k++) {
                Point q = fives[i] + k * DIR[d];
                if (ss->b->cell[q] == EMPTY && nc < SOLVER_MAX_MOVES && !solver_contains(cand, nc, q))
                    cand[nc++] = q;
            }
        }
    int n = 0;
    Color o = color_other(c);
    for (int i = 0; i < nc; i++) {
        board_play(ss->b, cand[i], o);
        bool alive = false;
        for (int j = 0; j < nf && !alive; j++)
            alive = is_five_point(ss, fives[j], c);
        board_undo(ss->b);
        if (!alive)
            out[n++] = cand[i];
    }
    return n;
}

int solver_answers(SolverSearch *ss, Color c, const Point *fives, int nf, Point *out)
{
    if (nf == 0)
        return 0;
    if (ss->caro)
        return caro_answers(ss, c, fives, nf, out);
    /* Elsewhere only a stone on the five point stops it. */
    for (int i = 1; i < nf; i++)
        if (fives[i] != fives[0])
            return 0;
    if (!solver_legal(ss, fives[0], color_other(c)))
        return 0;
    out[0] = fives[0];
    return 1;
}

int solver_fours(SolverSearch *ss, Color c, Point *out)
{
    int n = 0;
    const uint8_t *t = ss->tab[c];
    for (int y = ss->y0; y <= ss->y1; y++)
        for (int x = ss->x0; x <= ss->x1; x++) {
            Point p = point_make(x, y);
            if (ss->b->cell[p] != EMPTY)
                continue;
            bool four = false;
            for (int d = 0; d < DIR_COUNT && !four; d++) {
                int pat = t[ss->b->key[d][p]];
                four = pat >= PAT_B4 && pat <= PAT_F5;
            }
            if (four && solver_legal(ss, p, c))
                out[n++] = p;
        }
    return n;
}

int solver_root_scan(SolverSearch *ss, Point *five, Point *dfive, int *ndf, Point *fours)
{
    const uint8_t *ta = ss->tab[ss->att], *td = ss->tab[ss->def];
    int n = 0;
    *five = POINT_NONE;
    *ndf = 0;
    for (int y = ss->y0; y <= ss->y1; y++)
        for (int x = ss->x0; x <= ss->x1; x++) {
            Point p = point_make(x, y);
            if (ss->b->cell[p] != EMPTY)
                continue;
            bool four = false, dfive_here = false;
            for (int d = 0; d < DIR_COUNT; d++) {
                uint32_t key = ss->b->key[d][p];
                int pa = ta[key];
                if (pa == PAT_F5) {
                    *five = p;
                    return 0;
                }
                four |= pa >= PAT_B4 && pa <= PAT_F5;
                dfive_here |= td[key] == PAT_F5;
            }
            if (dfive_here)
                dfive[(*ndf)++] = p;
            if (four)
                fours[n++] = p;
        }
    return n;
}

static const int ORDER_WEIGHT[PAT_COUNT] = {
    [PAT_F1] = 1, [PAT_B2] = 1, [PAT_F2] = 3,    [PAT_B3] = 3,
    [PAT_F3] = 8, [PAT_B4] = 10, [PAT_F4] = 50, [PAT_F5] = 1000,
};

static int order_score(const SolverSearch *ss, Point p, Color c)
{
    int s = 0;
    for (int d = 0; d < DIR_COUNT; d++)
        s += ORDER_WEIGHT[solver_pat(ss, p, d, c)];
    return s;
}

void solver_order(const SolverSearch *ss, Color c, Point *moves, int n, Point first)
{
    int score[SOLVER_MAX_MOVES];
    for (int i = 0; i < n; i++)
        score[i] = moves[i] == first ? 1 << 20 : order_score(ss, moves[i], c);
    /* Insertion sort, ties by point, so the order never depends on the scan. */
    for (int i = 1; i < n; i++) {
        Point m = moves[i];
        int sc = score[i], j = i;
        while (j > 0 && (score[j - 1] < sc || (score[j - 1] == sc && moves[j - 1] > m))) {
            moves[j] = moves[j - 1];
            score[j] = score[j - 1];
            j--;
        }
        moves[j] = m;
        score[j] = sc;
    }
}

static Point any_legal(SolverSearch *ss, Color c)
{
    for (int y = 0; y < ss->b->size; y++)
        for (int x = 0; x < ss->b->size; x++) {
            Point p = point_make(x, y);
            if (ss->b->cell[p] == EMPTY && solver_legal(ss, p, c))
                return p;
        }
    return POINT_NONE;
}

void solver_finish_four(SolverSearch *ss, const Point *af, int naf)
{
    if (naf == 1) {
        /* The only five point cannot be answered: black may not play it. */
        solver_record_win(ss, af[0]);
        return;
    }
    Point q = POINT_NONE;
    for (int i = 0; i < naf && q == POINT_NONE; i++)
        if (solver_legal(ss, af[i], ss->def))
            q = af[i];
    if (q == POINT_NONE)
        q = any_legal(ss, ss->def);
    if (q == POINT_NONE) {
        solver_record_win(ss, af[0]);
        return;
    }
    solver_push(ss, q, ss->def);
    for (int i = 0; i < naf; i++)
        if (is_five_point(ss, af[i], ss->att)) {
            solver_push(ss, af[i], ss->att);
            solver_record_win(ss, POINT_NONE);
            solver_pop(ss);
            break;
        }
    solver_pop(ss);
}

void solver_fill_result(const SolverSearch *ss, SolveStatus st, int depth, SolverResult *out)
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
