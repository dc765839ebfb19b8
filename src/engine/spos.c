#include "spos.h"

#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "tengen/forbid.h"
#include "tengen/hugemem.h"
#include "tengen/pattern.h"

/* Per Pattern: fives, flex fours, fours, flex threes as base-16 digits, so four
 * lookups summed give the counts a cell class needs. */
static const int PAT_DIGITS[PAT_COUNT] = {
    [PAT_OL] = 0x10000, [PAT_F5] = 0x1000, [PAT_F4] = 0x100, [PAT_B4] = 0x10, [PAT_F3] = 0x1,
};

/* Both colours' evaluation patterns of a line key in one byte (black in the
 * low nibble), so a cell's update reads one table instead of two. */
#define PAIR_KEYS (1u << 20)
static uint8_t *pair_table[RULE_COUNT]; /* built once per rule, kept for the process */
static pthread_once_t pair_once[RULE_COUNT] = {PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT,
                                               PTHREAD_ONCE_INIT};

/* A flex two or three refined by how many cells raise it a class (a stone of
 * c there, then c on the centre): the more, the harder it is to stop. */
static int refine(const uint8_t *tab, uint32_t key, Color c)
{
    Pattern p = (Pattern)tab[key];
    if (p != PAT_F2 && p != PAT_F3)
        return p;
    Pattern up = p == PAT_F3 ? PAT_F4 : PAT_F3;
    int n = 0;
    for (int k = -5; k <= 5; k++) {
        if (k == 0)
            continue;
        int sh = board_key_shift(k);
        n += !(key >> sh & 3) && tab[key | (uint32_t)c << sh] == up;
    }
    if (p == PAT_F3)
        return n >= 2 ? ENGINE_PAT_F3S : PAT_F3;
    return n >= 4 ? ENGINE_PAT_F2B : n == 3 ? ENGINE_PAT_F2A : PAT_F2;
}

int spos_eval_pattern(Rule r, Color c, uint32_t key)
{
    pattern_init(r);
    return refine(pattern_table(r, c), key & (PAIR_KEYS - 1), c);
}

static void build_pairs(Rule r)
{
    const uint8_t *tb = pattern_table(r, BLACK), *tw = pattern_table(r, WHITE);
    /* Every cell update reads it at random: on huge pages it misses no TLB. */
    HugeMem h;
    uint8_t *t = hugemem_alloc(PAIR_KEYS, &h);
    if (!t)
        abort();
    for (uint32_t k = 0; k < PAIR_KEYS; k++)
        t[k] = (uint8_t)(refine(tb, k, BLACK) | refine(tw, k, WHITE) << 4);
    pair_table[r] = t;
}

static void build_pairs_freestyle(void) { build_pairs(RULE_FREESTYLE); }
static void build_pairs_standard(void) { build_pairs(RULE_STANDARD); }
static void build_pairs_renju(void) { build_pairs(RULE_RENJU); }
static void build_pairs_caro(void) { build_pairs(RULE_CARO); }

static const uint8_t *pairs_for(Rule r)
{
    static void (*const build[RULE_COUNT])(void) = {
        [RULE_FREESTYLE] = build_pairs_freestyle,
        [RULE_STANDARD] = build_pairs_standard,
        [RULE_RENJU] = build_pairs_renju,
        [RULE_CARO] = build_pairs_caro,
    };
    pthread_once(&pair_once[r], build[r]);
    return pair_table[r];
}

/* Renju black: a cell can only be forbidden with an overline, two fours (on one
 * line a straight-four shape) or two threes, and never next to a five; the line
 * tables' classes say so without the renju info table (checked for every key in
 * test_board). */
static bool may_need_forbid_check(int digits)
{
    int fives = digits >> 12 & 15, flex4 = digits >> 8 & 15, fours = digits >> 4 & 15, threes = digits & 15;
    return !fives && (digits >> 16 || flex4 || fours >= 2 || threes >= 2);
}

static CellClass classify(int digits)
{
    int fives = digits >> 12 & 15, flex4 = digits >> 8 & 15, fours = digits >> 4 & 15, threes = digits & 15;
    if (fives)
        return CL_FIVE;
    if (flex4)
        return CL_F4;
    if (fours >= 2)
        return CL_44;
    if (fours && threes)
        return CL_43;
    if (threes >= 2)
        return CL_33;
    if (fours)
        return CL_B4;
    if (threes)
        return CL_THREE;
    return CL_NONE;
}

/* Per ordered quadruple of evaluation patterns (base ENGINE_EPATS digits p0..p3):
 * the pattern code in bits 0-11, the CellClass in bits 12-14 and, in bit 15,
 * whether a renju black stone there may need the exact forbidden check. One
 * lookup replaces counting and sorting in the cell update. */
#define QB ENGINE_EPATS /* base of a quadruple's index */
#define QUAD_KEYS (QB * QB * QB * QB)
#define QUAD_CODE_MASK 4095u
#define QUAD_CLASS_SHIFT 12
#define QUAD_FORBID_BIT (1u << 15)
_Static_assert(ENGINE_PCODES <= QUAD_CODE_MASK + 1, "a pattern code fits its bits");
static uint16_t quad_table[QUAD_KEYS];
static pthread_once_t quad_once = PTHREAD_ONCE_INIT;

static int digits_of(const int pat[4])
{
    int d = 0;
    for (int i = 0; i < 4; i++)
        d += PAT_DIGITS[spos_coarse(pat[i])];
    return d;
}

static void build_quads(void)
{
    for (int k = 0; k < QUAD_KEYS; k++) {
        int pat[4] = {k / (QB * QB * QB), k / (QB * QB) % QB, k / QB % QB, k % QB};
        int digits = digits_of(pat);
        quad_table[k] = (uint16_t)(spos_pcode(pat[0], pat[1], pat[2], pat[3]) |
                                   classify(digits) << QUAD_CLASS_SHIFT |
                                   (may_need_forbid_check(digits) ? QUAD_FORBID_BIT : 0));
    }
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

/* The quad_table entry of four evaluation patterns. */
static inline unsigned quad_of(unsigned p0, unsigned p1, unsigned p2, unsigned p3)
{
    return quad_table[((p0 * QB + p1) * QB + p2) * QB + p3];
}

/* The cell class a quad_table entry holds. */
static inline CellClass quad_class(unsigned quad)
{
    return (CellClass)(quad >> QUAD_CLASS_SHIFT & 7);
}

CellClass spos_class_if(const SPos *s, Point p, Color c, int d, uint32_t key)
{
    const Board *b = &s->b;
    int sh = 4 * (c - 1);
    unsigned q[DIR_COUNT];
    for (int i = 0; i < DIR_COUNT; i++)
        q[i] = (unsigned)s->pair[i == d ? key : b->key[i][p]] >> sh & 15;
    return quad_class(quad_of(q[0], q[1], q[2], q[3]));
}

/* Stores colour c's new class, code and worths at p and moves the totals. */
static inline void set_cell(SPos *s, Point p, int c, CellClass cl, unsigned code, int w, int wo)
{
    s->count[c][s->cls[c][p]]--;
    s->sum[c] += w - s->worth[c][p];
    s->sum_opp[c] += wo - s->worth_opp[c][p];
    s->cls[c][p] = (uint8_t)cl;
    s->worth[c][p] = (int16_t)w;
    s->worth_opp[c][p] = (int16_t)wo;
    s->code[c][p] = (uint16_t)code;
    s->count[c][cl]++;
}

/* Recomputes one empty cell's classes and worths and updates the totals. The
 * two colours are written out rather than looped over: this runs some 25 times
 * a stone, and the loop's bookkeeping and the call were a fifth of its
 * instructions (callgrind). */
static inline void eval_cell(SPos *s, Point p)
{
    const Board *b = &s->b;
    const uint8_t *pair = s->pair;
    unsigned q0 = pair[b->key[0][p]], q1 = pair[b->key[1][p]], q2 = pair[b->key[2][p]],
             q3 = pair[b->key[3][p]];
    unsigned black = quad_of(q0 & 15, q1 & 15, q2 & 15, q3 & 15);
    unsigned white = quad_of(q0 >> 4, q1 >> 4, q2 >> 4, q3 >> 4);
    unsigned bcode = black & QUAD_CODE_MASK, wcode = white & QUAD_CODE_MASK;
    int bw = s->val[0][0][bcode], bwo = s->val[0][1][bcode];
    if (s->renju) {
        s->pforbid[p] = (black & QUAD_FORBID_BIT) && maybe_forbidden(b, p, s->rinfo);
        if (s->pforbid[p]) {
            bw = bwo = 0;
            bcode = ENGINE_PCODES;
        }
    }
    set_cell(s, p, 0, quad_class(black), bcode, bw, bwo);
    set_cell(s, p, 1, quad_class(white), wcode, s->val[1][0][wcode], s->val[1][1][wcode]);
}

/* The worth of a cell whose four line patterns are pat, for each colour c:
 * as the mover's cell under c's weights to move, and as the other side's
 * cell under the weights of c's opponent to move. */
static void set_value(SPos *s, const EvalWeights w[2], const int pat[4])
{
    int code = spos_pcode(pat[0], pat[1], pat[2], pat[3]);
    CellClass cl = classify(digits_of(pat));
    for (int c = 0; c < 2; c++) {
        const EvalWeights *m = &w[c], *o = &w[1 - c];
        int own = m->cls[cl] + m->combo[0][code], opp = o->cls_opp[cl] + o->combo[1][code];
        for (int i = 0; i < 4; i++) {
            own += m->line[spos_coarse(pat[i])];
            opp += o->line_opp[spos_coarse(pat[i])];
        }
        s->val[c][0][code] = (int16_t)own;
        s->val[c][1][code] = (int16_t)opp;
    }
}

/* Every pattern code's worth (each multiset once, highest first). */
static void build_values(SPos *s, const EvalWeights w[2])
{
    for (int a = 0; a < ENGINE_EPATS; a++)
        for (int b = 0; b <= a; b++)
            for (int c = 0; c <= b; c++)
                for (int d = 0; d <= c; d++)
                    set_value(s, w, (const int[4]){a, b, c, d});
}

/* A cell just filled: it no longer counts. */
static void clear_cell(SPos *s, Point p)
{
    set_cell(s, p, 0, CL_NONE, 0, 0, 0);
    set_cell(s, p, 1, CL_NONE, 0, 0, 0);
    s->pforbid[p] = 0;
}

static inline void save_cell(SPosUndo *u, const SPos *s, Point p)
{
    SPosSaved *v = &u->cell[u->n++];
    v->cell = p;
    v->cls[0] = s->cls[0][p];
    v->cls[1] = s->cls[1][p];
    v->pforbid = s->pforbid[p];
    v->worth[0] = s->worth[0][p];
    v->worth[1] = s->worth[1][p];
    v->worth_opp[0] = s->worth_opp[0][p];
    v->worth_opp[1] = s->worth_opp[1][p];
    v->code[0] = s->code[0][p];
    v->code[1] = s->code[1][p];
}

static void add_near(SPos *s, Point p, int delta)
{
    for (int dy = -SPOS_MAX_NEAR; dy <= SPOS_MAX_NEAR; dy++)
        for (int dx = -SPOS_MAX_NEAR; dx <= SPOS_MAX_NEAR; dx++)
            s->near[p + dy * BOARD_STRIDE + dx] = (uint8_t)(s->near[p + dy * BOARD_STRIDE + dx] + delta);
    for (int k = SPOS_MAX_NEAR + 1; k <= SPOS_NEAR_LINE; k++)
        for (int d = 0; d < DIR_COUNT; d++) {
            s->near[p + k * DIR[d]] = (uint8_t)(s->near[p + k * DIR[d]] + delta);
            s->near[p - k * DIR[d]] = (uint8_t)(s->near[p - k * DIR[d]] + delta);
        }
}

/* Sets s up on b from scratch. */
static void init_board(SPos *s, const Board *b, Color stm)
{
    s->b = *b;
    s->stm = stm;
    s->depth = 0;
    memset(s->cls, 0, sizeof s->cls);
    memset(s->pforbid, 0, sizeof s->pforbid);
    memset(s->worth, 0, sizeof s->worth);
    memset(s->worth_opp, 0, sizeof s->worth_opp);
    memset(s->code, 0, sizeof s->code);
    memset(s->near, 0, sizeof s->near);
    memset(s->sum, 0, sizeof s->sum);
    memset(s->sum_opp, 0, sizeof s->sum_opp);
    memset(s->count, 0, sizeof s->count);
    for (Point p = s->lo; p <= s->hi; p++) {
        if (s->b.cell[p] == WALL)
            continue;
        s->count[0][CL_NONE]++;
        s->count[1][CL_NONE]++;
        if (s->b.cell[p] == EMPTY)
            eval_cell(s, p);
        else
            add_near(s, p, 1);
    }
}

void spos_init(SPos *s, const Board *b, Color stm, const EvalWeights w[2])
{
    s->w = w;
    s->ord[0] = s->ord[1] = NULL;
    pthread_once(&quad_once, build_quads);
    build_values(s, w);
    pattern_init(b->rule);
    s->renju = b->rule == RULE_RENJU;
    s->tab[0] = pattern_table(b->rule, BLACK);
    s->tab[1] = pattern_table(b->rule, WHITE);
    s->pair = pairs_for(b->rule);
    s->rinfo = s->renju ? pattern_renju_info() : NULL;
    s->lo = point_make(0, 0);
    s->hi = point_make(b->size - 1, b->size - 1);
    s->has_prev = b->count > 0 && (w[0].smooth || w[1].smooth);
    if (!s->has_prev) {
        init_board(s, b, stm);
        return;
    }
    /* A smoothed evaluation at the root needs the totals from before the
     * last stone: set up without it, keep them, then play it (a play leaves
     * what a fresh set-up would). */
    Board prev = *b;
    board_undo(&prev);
    Point last = b->history[b->count - 1];
    init_board(s, &prev, b->cell[last]);
    memcpy(s->prev_sum, s->sum, sizeof s->prev_sum);
    memcpy(s->prev_sum_opp, s->sum_opp, sizeof s->prev_sum_opp);
    spos_play(s, last);
    s->depth = 0;
    s->stm = stm;
}

/* Re-evaluates the empty cells within five of p on line d (cells `step`
 * apart) after a stone of colour col went to p. Called once a direction with
 * a constant step, so that each offset is folded. */
static inline void touch_line(SPos *s, SPosUndo *u, Point p, int d, int step, uint32_t col)
{
    for (int k = -5; k <= 5; k++) {
        Point q = p + k * step;
        if (k == 0 || s->b.cell[q] != EMPTY)
            continue;
        /* Only this line's key changed at q: where neither colour's
         * evaluation pattern (nor renju black's line info) changed with
         * it, nothing the cell holds can, and it is left alone. */
        uint32_t key = s->b.key[d][q], old = key ^ col << board_key_shift(-k);
        if (s->pair[key] == s->pair[old] && (!s->renju || s->rinfo[key] == s->rinfo[old]))
            continue;
        save_cell(u, s, q);
        eval_cell(s, q);
    }
}

void spos_play(SPos *s, Point p)
{
    assert(s->b.cell[p] == EMPTY && s->depth < SPOS_MAX_STACK);
    SPosUndo *u = &s->undo[s->depth++];
    u->n = 0;
    memcpy(u->sum, s->sum, sizeof u->sum);
    memcpy(u->sum_opp, s->sum_opp, sizeof u->sum_opp);
    memcpy(u->count, s->count, sizeof u->count);
    board_play(&s->b, p, s->stm);
    s->stm = color_other(s->stm);
    add_near(s, p, 1);
    save_cell(u, s, p);
    clear_cell(s, p);
    uint32_t col = s->b.cell[p];
    touch_line(s, u, p, DIR_ROW, STEP_ROW, col);
    touch_line(s, u, p, DIR_COL, STEP_COL, col);
    touch_line(s, u, p, DIR_DIAG, STEP_DIAG, col);
    touch_line(s, u, p, DIR_ANTI, STEP_ANTI, col);
}

void spos_undo(SPos *s)
{
    assert(s->depth > 0);
    SPosUndo *u = &s->undo[--s->depth];
    Point p = s->b.history[s->b.count - 1];
    board_undo(&s->b);
    s->stm = color_other(s->stm);
    add_near(s, p, -1);
    memcpy(s->sum, u->sum, sizeof u->sum);
    memcpy(s->sum_opp, u->sum_opp, sizeof u->sum_opp);
    memcpy(s->count, u->count, sizeof u->count);
    for (int i = 0; i < u->n; i++) {
        const SPosSaved *v = &u->cell[i];
        s->cls[0][v->cell] = v->cls[0];
        s->cls[1][v->cell] = v->cls[1];
        s->pforbid[v->cell] = v->pforbid;
        s->worth[0][v->cell] = v->worth[0];
        s->worth[1][v->cell] = v->worth[1];
        s->worth_opp[0][v->cell] = v->worth_opp[0];
        s->worth_opp[1][v->cell] = v->worth_opp[1];
        s->code[0][v->cell] = v->code[0];
        s->code[1][v->cell] = v->code[1];
    }
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
    const EvalWeights *w = &s->w[me];
    int cells = s->sum[me] * w->own - s->sum_opp[1 - me] * w->opp;
    if (w->smooth && (s->depth > 0 || s->has_prev)) {
        /* The undo entry keeps the totals from before the last play. */
        const int32_t *ps = s->depth ? s->undo[s->depth - 1].sum : s->prev_sum;
        const int32_t *po = s->depth ? s->undo[s->depth - 1].sum_opp : s->prev_sum_opp;
        return (cells + ps[me] * w->own - po[1 - me] * w->opp) / 32 + w->threat[spos_threat_mask(s)];
    }
    return cells / 16 + w->threat[spos_threat_mask(s)];
}

void spos_features(const SPos *s, Color c, int line[PAT_COUNT], int cls[CL_COUNT])
{
    memset(line, 0, sizeof(int) * PAT_COUNT);
    memset(cls, 0, sizeof(int) * CL_COUNT);
    const uint8_t *tab = s->tab[c - 1];
    for (Point p = s->lo; p <= s->hi; p++) {
        if (s->b.cell[p] != EMPTY || (c == BLACK && s->pforbid[p]))
            continue;
        for (int d = 0; d < DIR_COUNT; d++)
            line[tab[s->b.key[d][p]]]++;
        cls[s->cls[c - 1][p]]++;
    }
}

void spos_pcode_counts(const SPos *s, Color c, int counts[ENGINE_PCODES])
{
    memset(counts, 0, sizeof(int) * ENGINE_PCODES);
    for (Point p = s->lo; p <= s->hi; p++)
        if (s->b.cell[p] == EMPTY && !(c == BLACK && s->pforbid[p]))
            counts[s->code[c - 1][p]]++;
}

int spos_cells_of_class(const SPos *s, Color c, CellClass cl, Point *out, int cap)
{
    int n = 0, want = s->count[c - 1][cl];
    if (want > cap)
        want = cap;
    /* The count says how many there are: stop at the last one. */
    for (Point p = s->lo; p <= s->hi && n < want; p++)
        if (s->cls[c - 1][p] == cl && s->b.cell[p] == EMPTY)
            out[n++] = p;
    return n;
}

static bool is_four_class(int cl) { return cl == CL_B4 || cl == CL_43 || cl == CL_44 || cl == CL_F4; }

int spos_four_cells(const SPos *s, Color c, Point *out)
{
    const int16_t *cnt = s->count[c - 1];
    int want = cnt[CL_B4] + cnt[CL_43] + cnt[CL_44] + cnt[CL_F4], n = 0;
    const uint8_t *cls = s->cls[c - 1];
    Point p = s->lo;
    /* Most cells are NONE or THREE (0 and 1): eight at a time are skipped
     * while no byte has a bit above the lowest. */
    while (n < want && p <= s->hi) {
        uint64_t word;
        if (p + 8 <= s->hi + 1) {
            memcpy(&word, cls + p, sizeof word);
            if (!(word & 0xfefefefefefefefeull)) {
                p += 8;
                continue;
            }
        }
        int end = p + 8 <= s->hi + 1 ? p + 8 : s->hi + 1;
        for (; p < end; p++)
            if (is_four_class(cls[p]))
                out[n++] = p;
    }
    return n;
}
