#include "spos.h"

#include <assert.h>
#include <string.h>

#include "eval_params.h"
#include "tengen/forbid.h"
#include "tengen/pattern.h"

static CellClass classify(const int *np)
{
    if (np[PAT_F5])
        return CL_FIVE;
    if (np[PAT_F4])
        return CL_F4;
    if (np[PAT_B4] >= 2)
        return CL_44;
    if (np[PAT_B4] && np[PAT_F3])
        return CL_43;
    if (np[PAT_F3] >= 2)
        return CL_33;
    if (np[PAT_B4])
        return CL_B4;
    if (np[PAT_F3])
        return CL_THREE;
    return CL_NONE;
}

/* Renju black: can the line tables alone clear this cell of being forbidden? */
static bool maybe_forbidden(const Board *b, Point p, const uint16_t *info)
{
    int fours = 0, threes = 0;
    bool overline = false;
    for (int d = 0; d < DIR_COUNT; d++) {
        unsigned i = info[b->key[d][p]];
        if (i & LINE_FIVE)
            return false;
        overline |= (i & LINE_OVERLINE) != 0;
        fours += line_fours(i);
        threes += (i & LINE_THREE) != 0;
    }
    return overline || fours >= 2 || threes >= 2;
}

static void remove_cell(SPos *s, Point p)
{
    for (int c = 0; c < 2; c++) {
        s->sum[c] -= s->worth[c][p];
        s->count[c][s->cls[c][p]]--;
    }
}

static void add_cell(SPos *s, Point p)
{
    const Board *b = &s->b;
    if (b->cell[p] != EMPTY) {
        for (int c = 0; c < 2; c++) {
            s->cls[c][p] = CL_NONE;
            s->worth[c][p] = 0;
            s->count[c][CL_NONE]++;
        }
        s->pforbid[p] = 0;
        return;
    }
    for (int c = 0; c < 2; c++) {
        const uint8_t *tab = pattern_table(b->rule, (Color)(c + 1));
        int np[PAT_COUNT] = {0};
        int w = 0;
        for (int d = 0; d < DIR_COUNT; d++) {
            int pat = tab[b->key[d][p]];
            np[pat]++;
            w += EVAL_LINE[pat];
        }
        CellClass cl = classify(np);
        w += EVAL_CLASS[cl];
        if (c == 0 && s->renju) {
            s->pforbid[p] = maybe_forbidden(b, p, pattern_renju_info());
            if (s->pforbid[p])
                w = 0;
        }
        s->cls[c][p] = (uint8_t)cl;
        s->worth[c][p] = (int16_t)w;
        s->count[c][cl]++;
        s->sum[c] += w;
    }
}

static void refresh_lines(SPos *s, Point p)
{
    remove_cell(s, p);
    add_cell(s, p);
    for (int d = 0; d < DIR_COUNT; d++)
        for (int k = -5; k <= 5; k++) {
            Point q = p + k * DIR[d];
            if (k == 0 || s->b.cell[q] == WALL)
                continue;
            remove_cell(s, q);
            add_cell(s, q);
        }
}

static void add_near(SPos *s, Point p, int delta)
{
    for (int dy = -SPOS_MAX_NEAR; dy <= SPOS_MAX_NEAR; dy++)
        for (int dx = -SPOS_MAX_NEAR; dx <= SPOS_MAX_NEAR; dx++)
            s->near[p + dy * BOARD_STRIDE + dx] = (uint8_t)(s->near[p + dy * BOARD_STRIDE + dx] + delta);
}

void spos_init(SPos *s, const Board *b, Color stm)
{
    pattern_init(b->rule);
    s->b = *b;
    s->stm = stm;
    s->renju = b->rule == RULE_RENJU;
    memset(s->cls, 0, sizeof s->cls);
    memset(s->pforbid, 0, sizeof s->pforbid);
    memset(s->worth, 0, sizeof s->worth);
    memset(s->near, 0, sizeof s->near);
    memset(s->sum, 0, sizeof s->sum);
    memset(s->count, 0, sizeof s->count);
    s->lo = point_make(0, 0);
    s->hi = point_make(b->size - 1, b->size - 1);
    for (Point p = s->lo; p <= s->hi; p++) {
        if (s->b.cell[p] == WALL)
            continue;
        add_cell(s, p);
        if (s->b.cell[p] != EMPTY)
            add_near(s, p, 1);
    }
}

void spos_play(SPos *s, Point p)
{
    assert(s->b.cell[p] == EMPTY);
    board_play(&s->b, p, s->stm);
    s->stm = color_other(s->stm);
    add_near(s, p, 1);
    refresh_lines(s, p);
}

void spos_undo(SPos *s)
{
    Point p = s->b.history[s->b.count - 1];
    board_undo(&s->b);
    s->stm = color_other(s->stm);
    add_near(s, p, -1);
    refresh_lines(s, p);
}

bool spos_legal(SPos *s, Point p, Color c)
{
    if (s->b.cell[p] != EMPTY)
        return false;
    if (c != BLACK || !s->renju || !s->pforbid[p])
        return true;
    return !forbid_is_forbidden(forbid_check(&s->b, p));
}

int spos_evaluate(const SPos *s)
{
    int me = s->stm - 1;
    return (s->sum[me] * EVAL_OWN - s->sum[1 - me] * EVAL_OPP) / 16;
}

int spos_cells_of_class(const SPos *s, Color c, CellClass cl, Point *out, int cap)
{
    int n = 0;
    if (!s->count[c - 1][cl])
        return 0;
    for (Point p = s->lo; p <= s->hi && n < cap; p++)
        if (s->cls[c - 1][p] == cl && s->b.cell[p] == EMPTY)
            out[n++] = p;
    return n;
}
