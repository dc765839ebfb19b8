/* Fitting the move-ordering table (OrderWeights) to the moves of games:
 * softmax regression of "which candidate was played" on the pattern codes of
 * the mover and the opponent at each candidate, minimised with Adam. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "search.h"
#include "spos.h"
#include "tengen/tune.h"

#define NPARAM (2 * ENGINE_ORDER_CODES) /* att, then def */
#define BATCH 64                        /* positions per Adam step */

typedef struct {
    int n;      /* candidates */
    int played; /* index of the move played */
    uint16_t att[BOARD_MAX_MOVES], def[BOARD_MAX_MOVES]; /* parameter indices */
    int base[BOARD_MAX_MOVES];                           /* class-and-worth order score */
    Point p[BOARD_MAX_MOVES];
} Cands;

/* The candidates of s and which one is `played`; false when the position
 * does not count (a five to make or to stop, or the move is not a candidate). */
static bool collect(SPos *s, Point played, bool with_base, Cands *c)
{
    int me = s->stm - 1;
    if (s->count[me][CL_FIVE] || s->count[1 - me][CL_FIVE])
        return false;
    c->n = 0;
    c->played = -1;
    for (Point p = s->lo; p <= s->hi; p++) {
        if (!s->near[p] || s->b.cell[p] != EMPTY || !spos_legal(s, p, s->stm))
            continue;
        if (p == played)
            c->played = c->n;
        c->p[c->n] = p;
        c->att[c->n] = s->code[me][p];
        c->def[c->n] = (uint16_t)(ENGINE_ORDER_CODES + s->code[1 - me][p]);
        c->base[c->n] = with_base ? search_order_score(s, p) : 0;
        c->n++;
    }
    return c->played >= 0;
}

/* The move played ranks first under scores sc (ties go to the lower point,
 * as the search picks them). */
static bool ranks_first(const Cands *c, const double *sc)
{
    int t = c->played;
    for (int i = 0; i < c->n; i++)
        if (i != t && (sc[i] > sc[t] || (sc[i] == sc[t] && c->p[i] < c->p[t])))
            return false;
    return true;
}

typedef struct {
    double *x;          /* parameters, in logits */
    double *g, *m, *v;  /* batch gradient, Adam moments */
    long steps;
    int inbatch;
    const TuneOrderOptions *o;
    bool learn;
    /* measured over one pass */
    int positions, top1, top1_base;
    double loss;
} Fit;

static void adam_step(Fit *f)
{
    const double b1 = 0.9, b2 = 0.999, eps = 1e-8;
    f->steps++;
    double c1 = 1 - pow(b1, (double)f->steps), c2 = 1 - pow(b2, (double)f->steps);
    for (int i = 0; i < NPARAM; i++) {
        double g = f->g[i] / f->inbatch + f->o->l2 * f->x[i];
        f->m[i] = b1 * f->m[i] + (1 - b1) * g;
        f->v[i] = b2 * f->v[i] + (1 - b2) * g * g;
        f->x[i] -= f->o->rate * (f->m[i] / c1) / (sqrt(f->v[i] / c2) + eps);
        f->g[i] = 0;
    }
    f->inbatch = 0;
}

static void visit(Fit *f, const Cands *c)
{
    double z[BOARD_MAX_MOVES] = {0}, zmax = -1e300, sum = 0;
    for (int i = 0; i < c->n; i++) {
        z[i] = f->x[c->att[i]] + f->x[c->def[i]];
        if (z[i] > zmax)
            zmax = z[i];
    }
    for (int i = 0; i < c->n; i++)
        sum += exp(z[i] - zmax);
    f->positions++;
    f->loss += log(sum) + zmax - z[c->played];
    f->top1 += ranks_first(c, z);
    if (!f->learn) {
        double base[BOARD_MAX_MOVES];
        for (int i = 0; i < c->n; i++)
            base[i] = c->base[i];
        f->top1_base += ranks_first(c, base);
        return;
    }
    for (int i = 0; i < c->n; i++) {
        double gi = exp(z[i] - zmax) / sum - (i == c->played);
        f->g[c->att[i]] += gi;
        f->g[c->def[i]] += gi;
    }
    if (++f->inbatch == BATCH)
        adam_step(f);
}

/* One pass over every counted position of d, learning when f->learn. */
static void pass(const TuneData *d, SPos *s, Cands *c, Fit *f)
{
    EvalWeights w[2]; /* only for the class-and-worth order */
    f->positions = f->top1 = f->top1_base = 0;
    f->loss = 0;
    Board end, b;
    int opening;
    for (int g = 0; tune_data_game(d, g, &end, &opening); g++) {
        engine_default_weights(end.rule, BLACK, &w[0]);
        engine_default_weights(end.rule, WHITE, &w[1]);
        board_init(&b, end.size, end.rule);
        for (int i = 0; i < opening; i++)
            board_play(&b, end.history[i], board_side_to_move(&b));
        spos_init(s, &b, board_side_to_move(&b), w);
        for (int i = opening; i < end.count; i++) {
            if ((f->o->mover == EMPTY || s->stm == f->o->mover) && collect(s, end.history[i], !f->learn, c))
                visit(f, c);
            if (s->depth == SPOS_MAX_STACK)
                spos_init(s, &s->b, s->stm, w); /* long games outgrow the undo stack */
            spos_play(s, end.history[i]);
        }
    }
    if (f->learn && f->inbatch)
        adam_step(f);
}

static int to_weight(double x, double scale)
{
    double v = round(x * scale);
    return v > ENGINE_ORDER_MAX ? ENGINE_ORDER_MAX : v < -ENGINE_ORDER_MAX ? -ENGINE_ORDER_MAX : (int)v;
}

/* Loss and first-rank share of the rounded table in f->x. */
static void measure(const TuneData *d, SPos *s, Cands *c, Fit *f, double *loss, double *top1)
{
    double keep[NPARAM];
    memcpy(keep, f->x, sizeof keep);
    for (int i = 0; i < NPARAM; i++)
        f->x[i] = to_weight(f->x[i], f->o->scale) / f->o->scale;
    f->learn = false;
    pass(d, s, c, f);
    memcpy(f->x, keep, sizeof keep);
    *loss = f->loss / f->positions;
    *top1 = (double)f->top1 / f->positions;
}

bool tune_order_fit(const TuneData *d, const OrderWeights *start, const TuneOrderOptions *o,
                    TuneOrderFit *out, TgError *err)
{
    if (o->epochs < 0 || !(o->rate > 0) || !(o->l2 >= 0) || !(o->scale > 0)) {
        tg_error_set(err, 0, 0, "order fit: epochs >= 0, rate > 0, l2 >= 0 and scale > 0");
        return false;
    }
    Fit f = {.o = o};
    f.x = calloc(4 * NPARAM, sizeof *f.x);
    SPos *s = malloc(sizeof *s);
    Cands *c = malloc(sizeof *c);
    if (!f.x || !s || !c) {
        free(f.x);
        free(s);
        free(c);
        tg_error_set(err, 0, 0, "out of memory");
        return false;
    }
    f.g = f.x + NPARAM;
    f.m = f.g + NPARAM;
    f.v = f.m + NPARAM;
    for (int i = 0; start && i < ENGINE_ORDER_CODES; i++) {
        f.x[i] = start->att[i] / o->scale;
        f.x[ENGINE_ORDER_CODES + i] = start->def[i] / o->scale;
    }
    measure(d, s, c, &f, &out->loss_before, &out->top1_before);
    bool ok = f.positions > 0;
    if (!ok)
        tg_error_set(err, 0, 0, "no position to fit (every game too short or forced)");
    out->positions = f.positions;
    out->top1_base = ok ? (double)f.top1_base / f.positions : 0;
    for (int e = 0; ok && e < o->epochs; e++) {
        f.learn = true;
        pass(d, s, c, &f);
    }
    if (ok) {
        measure(d, s, c, &f, &out->loss_after, &out->top1_after);
        for (int i = 0; i < ENGINE_ORDER_CODES; i++) {
            out->w.att[i] = to_weight(f.x[i], o->scale);
            out->w.def[i] = to_weight(f.x[ENGINE_ORDER_CODES + i], o->scale);
        }
    }
    free(f.x);
    free(s);
    free(c);
    return ok;
}
