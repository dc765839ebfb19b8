/* The dual-board player: a two-turn look-ahead over stone pairs, judged by
 * five points and the engine's static evaluation (dualplay.h). */
#define _POSIX_C_SOURCE 200809L
#include "tengen/dualplay.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tengen/openings.h"
#include "tengen/rules.h"

/* ---- tunables ---------------------------------------------------------- */

#define DUAL_WIN 1000000     /* a game won (or lost) for sure */
#define DUAL_DOOMED 200000   /* the opponent can next turn hold 3+ five points on both boards */
#define DUAL_PER_THREAT 300  /* per five point the opponent can hold on its weaker board */
#define DUAL_PER_FORCED 400  /* per stone the opponent must spend filling our five points */
#define DUAL_PER_REACH 100   /* per five point we could hold on our weaker board */
#define DUAL_EVAL_SHARE 2    /* the engine's evaluation counts 1/this */
#define DUAL_MATERIAL 3      /* weight of the material on each side's weaker board */
#define DUAL_ROOT_CELLS 12   /* candidate cells per board for a two-stone turn */
#define DUAL_SINGLE_CELLS 24 /* ... for a single stone */
#define DUAL_REPLY_CELLS 8   /* ... for the opponent's reply in the look-ahead */
#define DUAL_ROOT_SAME 8     /* best cells per board tried as a same-board pair */
#define DUAL_REPLY_SAME 5
#define DUAL_MAX_REFINE 24 /* plans searched one turn deeper, best static value first */
#define DUAL_MAX_CELLS 32
#define DUAL_MAX_PLANS (DUAL_MAX_CELLS * DUAL_MAX_CELLS + 2 * DUAL_MAX_CELLS * DUAL_MAX_CELLS)

/* Ordering weight of a cell for each line pattern a stone there makes (own
 * and the opponent's alike; the opponent's five points come first). */
static const int RANK[PAT_COUNT] = {
    [PAT_DEAD] = 0, [PAT_B1] = 1,  [PAT_F1] = 2,   [PAT_B2] = 3,    [PAT_F2] = 8, [PAT_B3] = 12,
    [PAT_F3] = 40,  [PAT_B4] = 45, [PAT_F4] = 150, [PAT_F5] = 5000, [PAT_OL] = 0,
};

/* A side's material on a board: for each empty cell, what a stone there would
 * make on each line. Only the weaker board's material counts: a win needs
 * fives on both. */
static const int MATERIAL[PAT_COUNT] = {
    [PAT_DEAD] = 0, [PAT_B1] = 1,  [PAT_F1] = 2,  [PAT_B2] = 3, [PAT_F2] = 10, [PAT_B3] = 16,
    [PAT_F3] = 40,  [PAT_B4] = 50, [PAT_F4] = 90, [PAT_F5] = 0, [PAT_OL] = 0,
};

/* ---- types ------------------------------------------------------------- */

/* One colour's five points on one board. */
typedef struct {
    int fives; /* empty cells where a stone of this colour makes a five */
    int gain1; /* most five points one more stone adds */
    int gain2; /* most five points two more stones add (estimate) */
    int material;
} Threats;

/* One board as a side that has just played sees it. */
typedef struct {
    Threats t[2]; /* [colour - 1] */
    int eval;     /* the engine's static value for that side, the other to move */
} Summary;

/* A turn's stones (n = 1 or 2) and their value for the side playing them. */
typedef struct {
    int n;
    int board[2];
    Point p[2];
    int score;
} Plan;

typedef struct {
    int board;
    Point p;
    int rank;
} Cell;

typedef struct {
    const Autoplay *ap;
    Board b[2];
    int64_t start, deadline;
    uint64_t judged; /* boards summarized: the "nodes" of a progress report */
    bool cancelled;
} Dual;

/* ---- five points ------------------------------------------------------- */

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static bool five_point(const Board *b, Point p, Color c)
{
    if (board_at(b, p) != EMPTY)
        return false;
    for (int d = 0; d < DIR_COUNT; d++)
        if (board_pattern(b, p, d, c) == PAT_F5)
            return true;
    return false;
}

/* The first five point of colour c on b, or POINT_NONE. */
static Point first_five_point(const Board *b, Color c)
{
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++)
            if (five_point(b, point_make(x, y), c))
                return point_make(x, y);
    return POINT_NONE;
}

static int imin(int a, int b)
{
    return a < b ? a : b;
}
static int imax(int a, int b)
{
    return a > b ? a : b;
}

/* Colour c's five points, and what one or two more stones could add, on b. */
static void threats_scan(const Board *b, Color c, Threats *t)
{
    memset(t, 0, sizeof *t);
    if (b->count == 0)
        return;
    int top1 = 0, top2 = 0;
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            Point p = point_make(x, y);
            if (board_at(b, p) != EMPTY)
                continue;
            int gain = 0, three = 0;
            bool five = false;
            for (int d = 0; d < DIR_COUNT; d++) {
                Pattern pat = board_pattern(b, p, d, c);
                t->material += MATERIAL[pat];
                five = five || pat == PAT_F5;
                gain += pat == PAT_F4 ? 2 : pat == PAT_B4 ? 1 : 0;
                three = imax(three, pat == PAT_F3 ? 2 : pat == PAT_B3 ? 1 : 0);
            }
            if (five) {
                t->fives++;
                continue;
            }
            if (gain > top1) {
                top2 = top1;
                top1 = gain;
            } else if (gain > top2) {
                top2 = gain;
            }
            /* A second stone can turn one of the three lines into a four. */
            t->gain2 = imax(t->gain2, gain + three);
        }
    t->gain1 = top1;
    t->gain2 = imax(t->gain2, top1 + top2);
}

/* The most five points a side can hold on its weaker board after `stones`
 * more stones, if nobody interferes. */
static int reach(const Threats *a, const Threats *b, int stones)
{
    if (stones <= 0)
        return imin(a->fives, b->fives);
    if (stones == 1)
        return imax(imin(a->fives + a->gain1, b->fives), imin(a->fives, b->fives + b->gain1));
    int split = imin(a->fives + a->gain1, b->fives + b->gain1);
    int on_a = imin(a->fives + a->gain2, b->fives);
    int on_b = imin(a->fives, b->fives + b->gain2);
    return imax(split, imax(on_a, on_b));
}

static void summarize(Dual *d, int bi, Color mover, Summary *s)
{
    const Board *b = &d->b[bi];
    d->judged++;
    threats_scan(b, BLACK, &s->t[0]);
    threats_scan(b, WHITE, &s->t[1]);
    s->eval = 0;
    Engine *e = d->ap->engine;
    if (e && b->count > 0 && engine_set_position(e, b, color_other(mover), NULL))
        s->eval = -engine_evaluate(e);
}

/* The value, for x who has just finished a turn, of the boards summarized by
 * s0 and s1 (x's view), the opponent y to move with two stones. */
static int judge(const Summary *s0, const Summary *s1, Color x)
{
    Color y = color_other(x);
    const Threats *x0 = &s0->t[x - 1], *x1 = &s1->t[x - 1];
    const Threats *y0 = &s0->t[y - 1], *y1 = &s1->t[y - 1];
    if (y0->fives > 0 && y1->fives > 0)
        return -DUAL_WIN;
    /* y must fill every five point of one of x's boards. */
    int forced = imin(x0->fives, x1->fives);
    if (forced > 2)
        return DUAL_WIN;
    int threat = reach(y0, y1, 2 - forced);
    int mine = reach(x0, x1, 2);
    int balance =
        DUAL_MATERIAL * (imin(x0->material, x1->material) - imin(y0->material, y1->material));
    int score = (s0->eval + s1->eval) / DUAL_EVAL_SHARE + balance + forced * DUAL_PER_FORCED +
                imin(mine, 3) * DUAL_PER_REACH;
    if (threat >= 3)
        return score - DUAL_DOOMED;
    return score - threat * DUAL_PER_THREAT;
}

/* ---- candidates -------------------------------------------------------- */

static bool near_stone(const Board *b, Point p)
{
    for (int dy = -2; dy <= 2; dy++)
        for (int dx = -2; dx <= 2; dx++) {
            Color c = board_at(b, p + dy * BOARD_STRIDE + dx);
            if (c == BLACK || c == WHITE)
                return true;
        }
    return false;
}

static int cell_rank(const Board *b, Point p, Color x)
{
    int r = 0;
    for (int d = 0; d < DIR_COUNT; d++)
        r += RANK[board_pattern(b, p, d, x)] + RANK[board_pattern(b, p, d, color_other(x))];
    return r;
}

static int cell_cmp(const void *pa, const void *pb)
{
    const Cell *a = pa, *b = pb;
    /* Tie-break by point so results never depend on qsort's order. */
    return a->rank != b->rank ? b->rank - a->rank : a->p - b->p;
}

/* The best `cap` cells of board bi for x, best first: near the stones (the
 * centre on an empty board), never one where x would make a (lone) five. */
static int candidates(const Board *b, int bi, Color x, Cell *out, int cap)
{
    Cell all[BOARD_MAX_MOVES];
    int n = 0;
    if (b->count == 0 && cap > 0) {
        out[0] = (Cell){bi, opening_center(b->size), 0};
        return 1;
    }
    for (int y = 0; y < b->size; y++)
        for (int xx = 0; xx < b->size; xx++) {
            Point p = point_make(xx, y);
            if (board_at(b, p) != EMPTY || !near_stone(b, p) || five_point(b, p, x))
                continue;
            all[n++] = (Cell){bi, p, cell_rank(b, p, x)};
        }
    qsort(all, (size_t)n, sizeof *all, cell_cmp);
    n = imin(n, cap);
    memcpy(out, all, sizeof *all * (size_t)n);
    return n;
}

/* ---- planning ---------------------------------------------------------- */

static bool out_of_time(Dual *d)
{
    if (d->ap->cancel && atomic_load(d->ap->cancel) != 0)
        d->cancelled = true;
    return d->cancelled || now_ms() >= d->deadline;
}

static int plan_cmp(const void *pa, const void *pb)
{
    const Plan *a = pa, *b = pb;
    if (a->score != b->score)
        return a->score < b->score ? 1 : -1;
    if (a->board[0] != b->board[0])
        return a->board[0] - b->board[0];
    if (a->p[0] != b->p[0])
        return a->p[0] - b->p[0];
    return a->n > 1 && b->n > 1 ? a->p[1] - b->p[1] : a->n - b->n;
}

static void plan_apply(Dual *d, const Plan *pl, Color x)
{
    for (int i = 0; i < pl->n; i++)
        board_play(&d->b[pl->board[i]], pl->p[i], x);
}

static void plan_undo(Dual *d, const Plan *pl)
{
    for (int i = pl->n - 1; i >= 0; i--)
        board_undo(&d->b[pl->board[i]]);
}

typedef struct {
    int cells;  /* candidates per board */
    int same;   /* of which tried as same-board pairs */
    int stones; /* 1 or 2 */
} Width;

/* Every plan of x's turn with its static value; returns how many (plans has
 * room for DUAL_MAX_PLANS). */
static int plans_static(Dual *d, Color x, Width w, Plan *plans)
{
    Summary base[2];
    summarize(d, 0, x, &base[0]);
    summarize(d, 1, x, &base[1]);
    Cell cell[2][DUAL_MAX_CELLS];
    Summary one[2][DUAL_MAX_CELLS];
    int nc[2];
    for (int bi = 0; bi < 2; bi++) {
        nc[bi] = candidates(&d->b[bi], bi, x, cell[bi], w.cells);
        for (int i = 0; i < nc[bi]; i++) {
            board_play(&d->b[bi], cell[bi][i].p, x);
            summarize(d, bi, x, &one[bi][i]);
            board_undo(&d->b[bi]);
        }
    }
    int n = 0;
    if (w.stones == 1) {
        for (int bi = 0; bi < 2; bi++)
            for (int i = 0; i < nc[bi]; i++) {
                const Summary *s0 = bi == 0 ? &one[0][i] : &base[0];
                const Summary *s1 = bi == 1 ? &one[1][i] : &base[1];
                plans[n++] = (Plan){1, {bi, bi}, {cell[bi][i].p, POINT_NONE}, judge(s0, s1, x)};
            }
        return n;
    }
    for (int i = 0; i < nc[0]; i++)
        for (int j = 0; j < nc[1]; j++)
            plans[n++] =
                (Plan){2, {0, 1}, {cell[0][i].p, cell[1][j].p}, judge(&one[0][i], &one[1][j], x)};
    for (int bi = 0; bi < 2; bi++) {
        Board *b = &d->b[bi];
        int m = imin(nc[bi], w.same);
        for (int i = 0; i < m; i++) {
            board_play(b, cell[bi][i].p, x);
            for (int j = i + 1; j < m; j++) {
                /* The pair would make a five on this board alone. */
                if (five_point(b, cell[bi][j].p, x))
                    continue;
                board_play(b, cell[bi][j].p, x);
                Summary s;
                summarize(d, bi, x, &s);
                board_undo(b);
                int v = bi == 0 ? judge(&s, &base[1], x) : judge(&base[0], &s, x);
                plans[n++] = (Plan){2, {bi, bi}, {cell[bi][i].p, cell[bi][j].p}, v};
            }
            board_undo(b);
        }
    }
    return n;
}

/* x's best plan for its turn (w.stones stones) with `depth` turns of
 * look-ahead (1 or 2). False when x has no plan (no cell that does not make
 * a lone five) or the decision was cancelled. */
static bool plan_turn(Dual *d, Color x, Width w, int depth, Plan *best)
{
    Plan *plans = malloc(sizeof *plans * DUAL_MAX_PLANS);
    if (!plans)
        return false;
    int n = plans_static(d, x, w, plans);
    if (n == 0) {
        free(plans);
        return false;
    }
    qsort(plans, (size_t)n, sizeof *plans, plan_cmp);
    *best = plans[0];
    bool decided = plans[0].score >= DUAL_WIN / 2 || plans[0].score <= -DUAL_WIN / 2;
    if (depth > 1 && !decided) {
        Width reply = {DUAL_REPLY_CELLS, DUAL_REPLY_SAME, 2};
        int limit = imin(n, DUAL_MAX_REFINE);
        bool any = false;
        for (int i = 0; i < limit && !out_of_time(d); i++) {
            if (plans[i].score <= -DUAL_WIN / 2)
                break;
            plan_apply(d, &plans[i], x);
            Plan r;
            bool found = plan_turn(d, color_other(x), reply, depth - 1, &r);
            plan_undo(d, &plans[i]);
            int v = found ? -r.score : plans[i].score;
            if (!any || v > best->score) {
                *best = plans[i];
                best->score = v;
            }
            any = true;
        }
    }
    free(plans);
    return !d->cancelled;
}

/* ---- the decision ------------------------------------------------------ */

/* Tells ap->progress about the chosen plan: its stones as the line (without
 * their boards), its value clamped below the engine's forced-result scores. */
static void report(const Dual *d, const Plan *pl)
{
    if (!d->ap->progress)
        return;
    SearchInfo in;
    memset(&in, 0, sizeof in);
    in.depth = in.seldepth = 2;
    in.time_ms = now_ms() - d->start;
    in.nodes = d->judged;
    in.nps = in.time_ms > 0 ? d->judged * 1000 / (uint64_t)in.time_ms : d->judged;
    int cap = ENGINE_SCORE_WIN_MIN - 1;
    in.line.score = pl->score > cap ? cap : pl->score < -cap ? -cap : pl->score;
    in.line.move = pl->p[0];
    in.line.pvlen = pl->n;
    memcpy(in.line.pv, pl->p, sizeof(Point) * (size_t)pl->n);
    d->ap->progress(&in, d->ap->user);
}

/* A legal stone when no plan exists: one that makes no lone five if there is
 * one, else any. */
static bool any_stone(const Game *g, Color x, Action *out, TgError *err)
{
    Point pts[BOARD_MAX_MOVES];
    bool found = false;
    for (int bi = 0; bi < 2; bi++) {
        int n = game_legal_points(g, bi, pts);
        for (int i = 0; i < n; i++) {
            if (!found || !five_point(game_board(g, bi), pts[i], x)) {
                *out = game_action_place(bi, pts[i]);
                found = true;
            }
            if (!five_point(game_board(g, bi), pts[i], x))
                return true;
        }
    }
    if (!found)
        tg_error_set(err, 0, 0, "no legal point on either board");
    return found;
}

bool dualplay_decide(const Autoplay *ap, const Game *g, Action *out, TgError *err)
{
    if (!g->config.dualboard || game_over(g)) {
        tg_error_set(err, 0, 0, "not a dual-board game in progress");
        return false;
    }
    GameTurn t;
    game_turn(g, &t);
    if (!(t.allowed & 1u << ACT_PLACE)) {
        tg_error_set(err, 0, 0, "the dual-board game does not ask for a stone");
        return false;
    }
    Color x = t.stone == BLACK || t.stone == WHITE ? t.stone : t.color;
    Color y = color_other(x);
    Dual *d = malloc(sizeof *d);
    if (!d) {
        tg_error_set(err, 0, 0, "out of memory");
        return false;
    }
    d->ap = ap;
    d->b[0] = *game_board(g, 0);
    d->b[1] = *game_board(g, 1);
    d->cancelled = false;
    d->judged = 0;
    int64_t budget = ap->ms > AUTOPLAY_MS_MIN ? ap->ms : AUTOPLAY_MS_MIN;
    d->start = now_ms();
    d->deadline = d->start + budget * 3 / 4;

    Point f0 = first_five_point(&d->b[0], x), f1 = first_five_point(&d->b[1], x);
    bool ok = true;
    if (rules_has_win(&d->b[0], x) || rules_has_win(&d->b[1], x)) {
        /* A five made by this turn's first stone: the second must match it. */
        int other = rules_has_win(&d->b[0], x) ? 1 : 0;
        Point f = other ? f1 : f0;
        if (f != POINT_NONE)
            *out = game_action_place(other, f);
        else
            ok = any_stone(g, x, out, err);
    } else if (t.stones_left >= 2 && f0 != POINT_NONE && f1 != POINT_NONE) {
        *out = game_action_place(0, f0);
    } else {
        Width w = t.stones_left >= 2 ? (Width){DUAL_ROOT_CELLS, DUAL_ROOT_SAME, 2}
                                     : (Width){DUAL_SINGLE_CELLS, 0, 1};
        Plan best;
        if (plan_turn(d, x, w, 2, &best)) {
            /* Fill the opponent's five point first, in case the turn is cut short. */
            int k = best.n == 2 && five_point(&d->b[best.board[1]], best.p[1], y) &&
                            !five_point(&d->b[best.board[0]], best.p[0], y)
                        ? 1
                        : 0;
            *out = game_action_place(best.board[k], best.p[k]);
            report(d, &best);
        } else if (d->cancelled) {
            tg_error_set(err, 0, 0, "the decision was cancelled");
            ok = false;
        } else {
            ok = any_stone(g, x, out, err);
        }
    }
    free(d);
    return ok;
}

/* ---- judging a turn ---------------------------------------------------- */

/* A value as an engine score: a forced result by its turn (as engine.h counts
 * plies), anything else kept below the forced range. */
static int turn_score(int value, int mate)
{
    if (mate > 0)
        return ENGINE_SCORE_WIN + 1 - mate;
    if (mate < 0)
        return -(ENGINE_SCORE_WIN + 1 + mate);
    int cap = ENGINE_SCORE_WIN_MIN - 1;
    return value > cap ? cap : value < -cap ? -cap : value;
}

static void set_reply(DualTurn *t, const Plan *r)
{
    t->reply.n = r->n;
    for (int i = 0; i < r->n; i++) {
        t->reply.board[i] = r->board[i];
        t->reply.p[i] = r->p[i];
    }
}

/* x's worth of the boards in d, which hold x's finished turn, y to move: a
 * five made, then the static judgement, then y's best answer among the reply
 * candidates. Those always hold every five point of x's that y may fill (they
 * rank first), so a reply that still leaves x five points on both boards
 * proves the win, and one that leaves y more than two on each proves the loss. */
static void after_turn(Dual *d, Color x, DualTurn *t)
{
    Color y = color_other(x);
    bool five0 = rules_has_win(&d->b[0], x), five1 = rules_has_win(&d->b[1], x);
    t->reply.n = 0;
    t->mate = five0 && five1 ? 1 : five0 || five1 ? -1 : 0;
    if (t->mate) {
        t->score = turn_score(0, t->mate);
        return;
    }
    Summary s0, s1;
    summarize(d, 0, x, &s0);
    summarize(d, 1, x, &s1);
    int value = judge(&s0, &s1, x);
    if (s0.t[y - 1].fives > 0 && s1.t[y - 1].fives > 0) {
        t->mate = -2;
        Plan win = {2, {0, 1}, {first_five_point(&d->b[0], y), first_five_point(&d->b[1], y)}, 0};
        set_reply(t, &win);
    } else if (imin(s0.t[x - 1].fives, s1.t[x - 1].fives) > 2) {
        t->mate = 3;
    } else {
        Plan r;
        Width reply = {DUAL_REPLY_CELLS, DUAL_REPLY_SAME, 2};
        if (plan_turn(d, y, reply, 1, &r)) {
            set_reply(t, &r);
            value = -r.score;
            t->mate = r.score <= -DUAL_WIN / 2 ? 3 : r.score >= DUAL_WIN / 2 ? -4 : 0;
        }
    }
    t->score = turn_score(value, t->mate);
}

/* Plays t's stones on d's boards, judges them for x and takes them back. */
static void judge_turn(Dual *d, Color x, DualTurn *t)
{
    Plan pl = {t->n, {t->board[0], t->board[1]}, {t->p[0], t->p[1]}, 0};
    plan_apply(d, &pl, x);
    after_turn(d, x, t);
    plan_undo(d, &pl);
}

/* The stones fit the turn: as many as it asks for, each on an empty point of
 * its board, no point twice. */
static bool turn_fits(const Dual *d, const DualTurn *t, int stones, TgError *err)
{
    if (t->n != stones) {
        tg_error_set(err, 0, 0, "the turn is %d stone%s, not %d", stones, stones == 1 ? "" : "s",
                     t->n);
        return false;
    }
    for (int i = 0; i < t->n; i++) {
        int bi = t->board[i];
        if (bi < 0 || bi > 1 || !board_on(&d->b[bi], t->p[i]) ||
            board_at(&d->b[bi], t->p[i]) != EMPTY) {
            tg_error_set(err, 0, 0, "stone %d of the turn is not an empty point of its board", i + 1);
            return false;
        }
        if (i == 1 && bi == t->board[0] && t->p[1] == t->p[0]) {
            tg_error_set(err, 0, 0, "the turn puts two stones on one point");
            return false;
        }
    }
    return true;
}

/* The planner's turn for x, judged as a played one would be; n 0 when x has
 * no stone that avoids a lone five (or the planner was cancelled). */
static void best_turn(Dual *d, Color x, int stones, DualTurn *best)
{
    memset(best, 0, sizeof *best);
    Point f0 = first_five_point(&d->b[0], x), f1 = first_five_point(&d->b[1], x);
    if (stones == 2 && f0 != POINT_NONE && f1 != POINT_NONE) {
        *best = (DualTurn){.n = 2, .board = {0, 1}, .p = {f0, f1}};
    } else {
        Width w = stones == 2 ? (Width){DUAL_ROOT_CELLS, DUAL_ROOT_SAME, 2}
                              : (Width){DUAL_SINGLE_CELLS, 0, 1};
        Plan pl;
        if (!plan_turn(d, x, w, 2, &pl))
            return;
        *best = (DualTurn){.n = pl.n, .board = {pl.board[0], pl.board[1]}, .p = {pl.p[0], pl.p[1]}};
    }
    judge_turn(d, x, best);
}

bool dualplay_judge(const Autoplay *ap, const Game *g, const DualTurn *played, int blunder_pct,
                    DualJudgement *out, TgError *err)
{
    memset(out, 0, sizeof *out);
    if (!g->config.dualboard || game_over(g)) {
        tg_error_set(err, 0, 0, "not a dual-board game in progress");
        return false;
    }
    GameTurn t;
    game_turn(g, &t);
    int stones = t.move <= 1 ? 1 : 2; /* t.move counts the stones: one in round 1 */
    if (!(t.allowed & 1u << ACT_PLACE) || t.stones_left != stones) {
        tg_error_set(err, 0, 0, "the dual-board game is not at the start of a turn");
        return false;
    }
    Color x = t.stone == BLACK || t.stone == WHITE ? t.stone : t.color;
    Dual *d = malloc(sizeof *d);
    if (!d) {
        tg_error_set(err, 0, 0, "out of memory");
        return false;
    }
    *d = (Dual){.ap = ap, .b = {*game_board(g, 0), *game_board(g, 1)}};
    bool ok = turn_fits(d, played, stones, err);
    if (ok) {
        int64_t budget = ap->ms > AUTOPLAY_MS_MIN ? ap->ms : AUTOPLAY_MS_MIN;
        d->start = now_ms();
        d->deadline = d->start + budget * 3 / 4;
        out->played = *played;
        judge_turn(d, x, &out->played);
        best_turn(d, x, stones, &out->best);
        if (d->cancelled) {
            tg_error_set(err, 0, 0, "the judgement was cancelled");
            ok = false;
        }
    }
    if (ok) {
        if (out->best.n == 0 || out->played.score > out->best.score)
            out->best = out->played;
        MoveJudgement mj;
        memset(&mj, 0, sizeof mj);
        mj.played.score = out->played.score;
        mj.played.mate = out->played.mate;
        mj.best.score = out->best.score;
        mj.best.mate = out->best.mate;
        out->flags = analysis_flags(&mj, blunder_pct);
    }
    free(d);
    return ok;
}
