#include "tengen/engine.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "eval_params.h"
#include "order_params.h"
#include "search.h"
#include "tengen/pattern.h"
#include "tengen/rules.h"

int64_t engine_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

int64_t engine_elapsed_ms(const Engine *e) { return (engine_now_us() - e->start_us) / 1000; }

void engine_options_default(EngineOptions *o)
{
    o->threads = 1;
    o->hash_mb = 64;
    o->margin_ms = 30;
}

void search_limits_init(SearchLimits *lim) { memset(lim, 0, sizeof *lim); }

int engine_mate_plies(int score)
{
    if (score > ENGINE_SCORE_WIN_MIN)
        return ENGINE_SCORE_WIN - score + 1;
    if (score < -ENGINE_SCORE_WIN_MIN)
        return -(ENGINE_SCORE_WIN + score + 1);
    return 0;
}

static bool check_options(const EngineOptions *o, TgError *err)
{
    if (o->threads < 1 || o->threads > ENGINE_MAX_THREADS) {
        tg_error_set(err, 0, 0, "threads %d out of range 1..%d", o->threads, ENGINE_MAX_THREADS);
        return false;
    }
    if (o->hash_mb < 1 || o->hash_mb > ENGINE_MAX_HASH_MB) {
        tg_error_set(err, 0, 0, "hash %d MB out of range 1..%d", o->hash_mb, ENGINE_MAX_HASH_MB);
        return false;
    }
    if (o->margin_ms < 0) {
        tg_error_set(err, 0, 0, "time margin %d ms is negative", o->margin_ms);
        return false;
    }
    return true;
}

static void free_workers(Worker *w, int n)
{
    for (int i = 0; w && i < n; i++)
        solver_free(w[i].solver);
    free(w);
}

static bool make_workers(Engine *e, int n)
{
    Worker *w = calloc((size_t)n, sizeof *w);
    if (!w)
        return false;
    for (int i = 0; i < n; i++)
        if (!(w[i].solver = solver_new(SEARCH_SOLVER_BYTES))) {
            free_workers(w, n);
            return false;
        }
    free_workers(e->workers, e->nworkers);
    e->workers = w;
    e->nworkers = n;
    return true;
}

Engine *engine_new(const EngineOptions *o, TgError *err)
{
    EngineOptions def;
    if (!o) {
        engine_options_default(&def);
        o = &def;
    }
    if (!check_options(o, err))
        return NULL;
    Engine *e = calloc(1, sizeof *e);
    if (!e || !tt_alloc(&e->tt, (size_t)o->hash_mb) || !make_workers(e, o->threads)) {
        if (e)
            tt_free(&e->tt);
        free(e);
        tg_error_set(err, 0, 0, "out of memory for a %d MB hash", o->hash_mb);
        return NULL;
    }
    e->opt = *o;
    for (int r = 0; r < RULE_COUNT; r++)
        for (int c = BLACK; c <= WHITE; c++)
            engine_default_weights((Rule)r, (Color)c, &e->weights[r][c - 1]);
    for (int r = 0; r < RULE_COUNT; r++)
        for (int c = BLACK; c <= WHITE; c++)
            e->has_order[r][c - 1] = engine_default_order((Rule)r, (Color)c, &e->order[r][c - 1]);
    search_init_lmr(e);
    atomic_init(&e->stop, false);
    atomic_init(&e->running, false);
    atomic_init(&e->nodes_total, 0);
    return e;
}

void engine_free(Engine *e)
{
    if (!e)
        return;
    tt_free(&e->tt);
    free_workers(e->workers, e->nworkers);
    free(e);
}

bool engine_set_options(Engine *e, const EngineOptions *o, TgError *err)
{
    if (!check_options(o, err))
        return false;
    if (o->hash_mb != e->opt.hash_mb) {
        TransTable t;
        if (!tt_alloc(&t, (size_t)o->hash_mb)) {
            tg_error_set(err, 0, 0, "out of memory for a %d MB hash", o->hash_mb);
            return false;
        }
        tt_free(&e->tt);
        e->tt = t;
    }
    if (o->threads != e->nworkers && !make_workers(e, o->threads)) {
        tg_error_set(err, 0, 0, "out of memory for %d threads", o->threads);
        return false;
    }
    e->opt = *o;
    return true;
}

void engine_clear_hash(Engine *e)
{
    /* The solvers' tables are written only by searches, as the TT is; a
     * cached "no VCF within the budget" would make the next search differ. */
    if (e->tt.dirty)
        for (int i = 0; i < e->nworkers; i++)
            solver_clear(e->workers[i].solver);
    tt_clear(&e->tt);
}

bool engine_prefault_hash(Engine *e, const _Atomic bool *cancel) { return tt_touch(&e->tt, cancel); }

bool engine_set_position(Engine *e, const Board *b, Color to_move, TgError *err)
{
    if (to_move != BLACK && to_move != WHITE) {
        tg_error_set(err, 0, 0, "the side to move must be black or white");
        return false;
    }
    if (rules_has_win(b, BLACK) || rules_has_win(b, WHITE)) {
        tg_error_set(err, 0, 0, "the game is over: %s has a five",
                     rules_has_win(b, BLACK) ? "black" : "white");
        return false;
    }
    /* Build the line tables now, outside any timed search. */
    pattern_init(b->rule);
    if (b->rule == RULE_RENJU)
        pattern_renju_info();
    e->board = *b;
    e->to_move = to_move;
    e->has_position = true;
    return true;
}

void engine_default_weights(Rule r, Color mover, EvalWeights *w)
{
    /* A rule without its own white-to-move table (own 0) uses one for both. */
    *w = mover == WHITE && EVAL_WEIGHTS_WHITE[r].own ? EVAL_WEIGHTS_WHITE[r] : EVAL_WEIGHTS[r];
}

int engine_pcode(int p0, int p1, int p2, int p3)
{
    const unsigned n = ENGINE_EPATS;
    if ((unsigned)p0 >= n || (unsigned)p1 >= n || (unsigned)p2 >= n || (unsigned)p3 >= n)
        return -1;
    return spos_pcode(p0, p1, p2, p3);
}

void engine_pcode_patterns(int code, int pat[4])
{
    for (int a = 0; a < ENGINE_EPATS; a++)
        for (int b = 0; b <= a; b++)
            for (int c = 0; c <= b; c++)
                for (int d = 0; d <= c; d++)
                    if (spos_pcode(a, b, c, d) == code) {
                        pat[0] = a, pat[1] = b, pat[2] = c, pat[3] = d;
                        return;
                    }
    pat[0] = pat[1] = pat[2] = pat[3] = -1;
}

bool engine_weights_check(const EvalWeights *w, TgError *err)
{
    for (int i = 0; i < PAT_COUNT; i++)
        if (w->line[i] < 0 || w->line[i] > ENGINE_WEIGHT_MAX) {
            tg_error_set(err, 0, 0, "line weight %d is %d, not in 0..%d", i, w->line[i], ENGINE_WEIGHT_MAX);
            return false;
        }
    for (int i = 0; i < ENGINE_EVAL_CLASSES; i++)
        if (w->cls[i] < 0 || w->cls[i] > ENGINE_WEIGHT_MAX) {
            tg_error_set(err, 0, 0, "class weight %d is %d, not in 0..%d", i, w->cls[i], ENGINE_WEIGHT_MAX);
            return false;
        }
    for (int i = 0; i < PAT_COUNT; i++)
        if (w->line_opp[i] < 0 || w->line_opp[i] > ENGINE_WEIGHT_MAX) {
            tg_error_set(err, 0, 0, "opponent line weight %d is %d, not in 0..%d", i, w->line_opp[i],
                         ENGINE_WEIGHT_MAX);
            return false;
        }
    for (int i = 0; i < ENGINE_EVAL_CLASSES; i++)
        if (w->cls_opp[i] < 0 || w->cls_opp[i] > ENGINE_WEIGHT_MAX) {
            tg_error_set(err, 0, 0, "opponent class weight %d is %d, not in 0..%d", i, w->cls_opp[i],
                         ENGINE_WEIGHT_MAX);
            return false;
        }
    for (int i = 0; i < ENGINE_THREAT_MASKS; i++)
        if (w->threat[i] < -ENGINE_WEIGHT_MAX || w->threat[i] > ENGINE_WEIGHT_MAX) {
            tg_error_set(err, 0, 0, "threat weight %d is %d, not in -%d..%d", i, w->threat[i],
                         ENGINE_WEIGHT_MAX, ENGINE_WEIGHT_MAX);
            return false;
        }
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < ENGINE_PCODES; i++)
            if (w->combo[k][i] < -ENGINE_WEIGHT_MAX || w->combo[k][i] > ENGINE_WEIGHT_MAX) {
                tg_error_set(err, 0, 0, "combination weight %d/%d is %d, not in -%d..%d", k, i, w->combo[k][i],
                             ENGINE_WEIGHT_MAX, ENGINE_WEIGHT_MAX);
                return false;
            }
    if (w->own < 1 || w->own > ENGINE_SCALE_MAX || w->opp < 1 || w->opp > ENGINE_SCALE_MAX) {
        tg_error_set(err, 0, 0, "own/opp %d/%d not in 1..%d", w->own, w->opp, ENGINE_SCALE_MAX);
        return false;
    }
    if (w->smooth != 0 && w->smooth != 1) {
        tg_error_set(err, 0, 0, "smooth is %d, not 0 or 1", w->smooth);
        return false;
    }
    return true;
}

/* A rule set and a side to move (BLACK, WHITE, or EMPTY for both) that exist. */
static bool check_rule_mover(Rule r, Color mover, TgError *err)
{
    if ((unsigned)r >= RULE_COUNT) {
        tg_error_set(err, 0, 0, "no rule set %d", (int)r);
        return false;
    }
    if (mover != EMPTY && mover != BLACK && mover != WHITE) {
        tg_error_set(err, 0, 0, "the side to move must be black, white or both");
        return false;
    }
    return true;
}

bool engine_set_weights(Engine *e, Rule r, Color mover, const EvalWeights *w, TgError *err)
{
    if (!check_rule_mover(r, mover, err))
        return false;
    if (!engine_weights_check(w, err))
        return false;
    if (mover != WHITE)
        e->weights[r][0] = *w;
    if (mover != BLACK)
        e->weights[r][1] = *w;
    return true;
}

bool engine_default_order(Rule r, Color mover, OrderWeights *w)
{
    if ((unsigned)r >= RULE_COUNT)
        return false;
    /* A rule without its own white-to-move table uses one for both. */
    const OrderParams *p =
        mover == WHITE && ORDER_PARAMS_WHITE[r].own ? &ORDER_PARAMS_WHITE[r] : &ORDER_PARAMS[r];
    if (!p->own)
        return false;
    *w = p->w;
    return true;
}

bool engine_order_check(const OrderWeights *w, TgError *err)
{
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < ENGINE_ORDER_CODES; i++) {
            int v = k ? w->def[i] : w->att[i];
            if (v < -ENGINE_ORDER_MAX || v > ENGINE_ORDER_MAX) {
                tg_error_set(err, 0, 0, "%s weight %d is %d, not in -%d..%d", k ? "def" : "att", i, v,
                             ENGINE_ORDER_MAX, ENGINE_ORDER_MAX);
                return false;
            }
        }
    return true;
}

bool engine_set_order(Engine *e, Rule r, Color mover, const OrderWeights *w, TgError *err)
{
    if (!check_rule_mover(r, mover, err))
        return false;
    if (w && !engine_order_check(w, err))
        return false;
    for (int c = BLACK; c <= WHITE; c++) {
        if (mover != EMPTY && mover != c)
            continue;
        e->has_order[r][c - 1] = w != NULL;
        if (w)
            e->order[r][c - 1] = *w;
    }
    return true;
}

int engine_evaluate(Engine *e)
{
    if (!e->has_position)
        return 0;
    SPos *s = &e->workers[0].pos;
    spos_init(s, &e->board, e->to_move, e->weights[e->board.rule]);
    return spos_evaluate(s);
}

/* Hard and soft time budgets from the limits (<= 0: none). */
static void plan_time(Engine *e)
{
    const SearchLimits *l = &e->lim;
    int64_t margin = e->opt.margin_ms, hard = 0, soft = 0;
    if (l->turn_ms > 0) {
        int64_t m = margin < l->turn_ms / 2 ? margin : l->turn_ms / 2;
        hard = l->turn_ms - m;
        /* Time not used on this move is lost, and an iteration cut short
         * still counts (its first move is the previous best), so start new
         * iterations until late in the turn. */
        soft = hard * SEARCH_TURN_SOFT_PERCENT / 100;
    }
    if (l->match_left_ms > 0) {
        int64_t left = l->match_left_ms - margin;
        if (left < 2)
            left = 2;
        int64_t h = left / 5 > 0 ? left / 5 : 1, s = left / 25 > 0 ? left / 25 : 1;
        if (!hard || h < hard)
            hard = h;
        if (!soft || s < soft)
            soft = s;
    }
    if (soft > hard)
        soft = hard;
    e->hard_ms = hard;
    e->soft_ms = soft;
}

/* A search on the clock uses only the mapped part of the table; before it
 * starts, an eighth of its time at most goes to mapping more, so that a
 * table nobody mapped ahead (a first move, a new size) still grows to full
 * use over a few moves without one search paying for all its page faults. */
static void map_hash_on_clock(Engine *e)
{
    if (e->hard_ms <= 0)
        return;
    /* 2 MB at a time: one huge page */
    const size_t chunk = HUGEMEM_PAGE / (TT_BUCKET * sizeof(TtEntry));
    while ((engine_now_us() - e->start_us) * 8 < e->hard_ms * 1000 && tt_touch_some(&e->tt, chunk))
        ;
}

static void *worker_main(void *arg)
{
    search_worker_run(arg);
    return NULL;
}

bool engine_think(Engine *e, const SearchLimits *lim, SearchCallback cb, void *user, SearchResult *out)
{
    memset(out, 0, sizeof *out);
    out->best = POINT_NONE;
    if (!e->has_position)
        return false;
    e->start_us = engine_now_us();
    atomic_store(&e->stop, false);
    atomic_store(&e->running, true);
    atomic_store(&e->nodes_total, 0);
    e->lim = *lim;
    if (e->lim.depth > ENGINE_MAX_DEPTH)
        e->lim.depth = ENGINE_MAX_DEPTH;
    e->nbest = lim->nbest < 1 ? 1 : lim->nbest > ENGINE_MAX_NBEST ? ENGINE_MAX_NBEST : lim->nbest;
    e->cb = cb;
    e->user = user;
    plan_time(e);
    map_hash_on_clock(e);
    tt_new_search(&e->tt, e->hard_ms > 0);
    memset(&e->result, 0, sizeof e->result);
    e->result.best = POINT_NONE;

    for (int i = 0; i < e->nworkers; i++) {
        Worker *w = &e->workers[i];
        w->e = e;
        w->id = i;
        w->nodes = w->flushed = w->next_check = 0;
        w->seldepth = w->completed = 0;
        memset(w->killer, 0xff, sizeof w->killer);
        memset(w->excluded, 0xff, sizeof w->excluded);
        memset(w->history, 0, sizeof w->history);
        memset(w->counter, 0xff, sizeof w->counter);
        w->double_ext = 0;
        spos_init(&w->pos, &e->board, e->to_move, e->weights[e->board.rule]);
        for (int c = 0; c < 2; c++)
            if (e->has_order[e->board.rule][c])
                w->pos.ord[c] = &e->order[e->board.rule][c];
        search_root_moves(w);
    }
    int started = 1;
    for (int i = 1; i < e->nworkers; i++) {
        if (pthread_create(&e->workers[i].thread, NULL, worker_main, &e->workers[i]) != 0)
            break;
        started++;
    }
    search_worker_run(&e->workers[0]);
    atomic_store(&e->stop, true);
    for (int i = 1; i < started; i++)
        pthread_join(e->workers[i].thread, NULL);
#if SEARCH_SMP_ADOPT
    search_adopt_deeper(e, started);
#endif
    uint64_t nodes = 0;
    for (int i = 0; i < e->nworkers; i++)
        nodes += e->workers[i].nodes;

    *out = e->result;
    out->nodes = nodes;
    out->time_ms = engine_elapsed_ms(e);
    if (e->workers[0].nroot == 0)
        out->best = POINT_NONE;
    atomic_store(&e->running, false);
    return true;
}

void engine_stop(Engine *e)
{
    if (atomic_load(&e->running))
        atomic_store(&e->stop, true);
}
