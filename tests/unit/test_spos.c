/* The search position (src/engine/spos.c, internal): its list of four points
 * and its threat situation against scans of the line patterns, and the VCF
 * probe that takes that list against the solver's own board scan. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/engine/search.h"
#include "../../src/engine/spos.h"
#include "tengen/pattern.h"
#include "tengen/rng.h"
#include "tengen/rules.h"
#include "tengen/solver.h"

#ifdef TENGEN_DEBUG
#define POSITIONS 40
#else
#define POSITIONS 400
#endif

static const EvalWeights ZERO_WEIGHTS[2];

/* The evaluation pattern of p on line d for c, by trying stones on a copy of
 * the board: a flex two or three is refined by how many cells of the line
 * raise it one class. */
static int ref_eval_pattern(const Board *b, Point p, int d, Color c)
{
    Pattern pat = board_pattern(b, p, d, c);
    if (pat != PAT_F2 && pat != PAT_F3)
        return pat;
    Pattern up = pat == PAT_F3 ? PAT_F4 : PAT_F3;
    int n = 0;
    for (int k = -5; k <= 5; k++) {
        Point q = p + k * DIR[d];
        if (k == 0 || !board_on(b, q) || b->cell[q] != EMPTY)
            continue;
        Board t = *b;
        board_play(&t, q, c);
        n += board_pattern(&t, p, d, c) == up;
    }
    if (pat == PAT_F3)
        return n >= 2 ? ENGINE_PAT_F3S : PAT_F3;
    return n >= 4 ? ENGINE_PAT_F2B : n == 3 ? ENGINE_PAT_F2A : PAT_F2;
}

/* Two black stones side by side: next to them a flex three with two
 * straight-four points, one gap away a flex three with one; one stone: a flex
 * two with four three-making cells beside it. */
static void test_eval_patterns_of_shapes(void **state)
{
    (void)state;
    Board b;
    assert_true(board_init(&b, 15, RULE_FREESTYLE));
    const Rule fs = RULE_FREESTYLE;
    board_play(&b, point_make(7, 7), BLACK);
    assert_int_equal(spos_eval_pattern(fs, BLACK, b.key[0][point_make(8, 7)]), ENGINE_PAT_F2B);
    assert_int_equal(spos_eval_pattern(fs, WHITE, b.key[0][point_make(8, 7)]), PAT_B1);
    board_play(&b, point_make(8, 7), BLACK);
    assert_int_equal(spos_eval_pattern(fs, BLACK, b.key[0][point_make(6, 7)]), ENGINE_PAT_F3S);
    assert_int_equal(spos_eval_pattern(fs, BLACK, b.key[0][point_make(10, 7)]), PAT_F3);
    assert_int_equal(spos_coarse(ENGINE_PAT_F3S), PAT_F3);
    assert_int_equal(spos_coarse(ENGINE_PAT_F2A), PAT_F2);
    assert_int_equal(spos_coarse(ENGINE_PAT_F2B), PAT_F2);
    assert_int_equal(spos_coarse(PAT_B4), PAT_B4);
    /* A white stone closing one end leaves a blocked three. */
    board_play(&b, point_make(9, 7), WHITE);
    assert_int_equal(spos_eval_pattern(fs, BLACK, b.key[0][point_make(6, 7)]), PAT_B3);
}

/* Empty cells where some line gives c a four or a five. */
static int scan_fours(const Board *b, Color c, Point *out, bool *five)
{
    int n = 0;
    *five = false;
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            Point p = point_make(x, y);
            if (b->cell[p] != EMPTY)
                continue;
            bool four = false;
            for (int d = 0; d < DIR_COUNT; d++) {
                Pattern pat = board_pattern(b, p, d, c);
                *five |= pat == PAT_F5;
                four |= pat == PAT_B4 || pat == PAT_F4;
            }
            if (four)
                out[n++] = p;
        }
    return n;
}

/* Position i of a test: the rules in turn, min_stones to min_stones + 29 stones. */
static void random_position(Rng *r, int i, int size, int min_stones, Board *b)
{
    static const Rule RULES[] = {RULE_FREESTYLE, RULE_STANDARD, RULE_RENJU, RULE_CARO};
    Rule rule = RULES[i % 4];
    assert_true(board_init(b, size, rule));
    pattern_init(rule);
    rng_clustered_position(r, b, min_stones + rng_below(r, 30));
}

static void test_four_cells_match_scan(void **state)
{
    (void)state;
    SPos *s = malloc(sizeof *s);
    assert_non_null(s);
    Rng r;
    rng_seed(&r, 77);
    int checked = 0, nonempty = 0;
    for (int i = 0; i < POSITIONS; i++) {
        Board b;
        random_position(&r, i, i % 3 == 0 ? 20 : 15, 8, &b);
        spos_init(s, &b, b.count % 2 ? WHITE : BLACK, ZERO_WEIGHTS);
        for (Color c = BLACK; c <= WHITE; c++) {
            Point want[BOARD_MAX_MOVES], got[BOARD_MAX_MOVES];
            bool five;
            int nw = scan_fours(&b, c, want, &five);
            if (five)
                continue;
            int ng = spos_four_cells(s, c, got);
            assert_int_equal(ng, nw);
            for (int k = 0; k < nw; k++)
                assert_int_equal(got[k], want[k]);
            checked++;
            nonempty += nw > 0;
        }
    }
    free(s);
    /* The positions must exercise the list, not only its empty case. */
    assert_true(checked > POSITIONS / 2);
    assert_true(nonempty > checked / 4);
}

static void test_vcf_from_four_list_equals_scan(void **state)
{
    (void)state;
    Solver *sv = solver_new(1 << 20);
    SPos *s = malloc(sizeof *s);
    assert_non_null(sv);
    assert_non_null(s);
    Rng r;
    rng_seed(&r, 78);
    int wins = 0, compared = 0;
    for (int i = 0; i < POSITIONS; i++) {
        Board b;
        random_position(&r, i, 15, 10, &b);
        Color me = b.count % 2 ? WHITE : BLACK;
        Point tmp[BOARD_MAX_MOVES];
        bool five_me, five_opp;
        scan_fours(&b, me, tmp, &five_me);
        scan_fours(&b, color_other(me), tmp, &five_opp);
        if (five_me || five_opp)
            continue;
        spos_init(s, &b, me, ZERO_WEIGHTS);
        Point fours[BOARD_MAX_MOVES];
        int nf = spos_four_cells(s, me, fours);
        SolverLimits lim = {.max_nodes = 20000};
        SolverResult a, c;
        solver_clear(sv);
        SolveStatus sa = vcf_solve(sv, &b, me, &lim, &a);
        solver_clear(sv);
        SolveStatus sc = vcf_solve_fours(sv, &b, me, &lim, fours, nf, &c);
        assert_int_equal(sa, sc);
        assert_int_equal(a.nodes, c.nodes);
        assert_int_equal(a.len, c.len);
        compared++;
        wins += sa == SOLVE_WIN;
    }
    free(s);
    solver_free(sv);
    assert_true(compared > POSITIONS / 4);
    assert_true(wins > 0);
}

/* Which kinds of threat colour c can make, from the line patterns alone:
 * bit 0 a flex three, 1 a four of any kind, 2 a double three, 3 a blocked
 * four only, 4 a flex four, 5 a four-three or double four. */
static int scan_threats(const Board *b, Color c)
{
    int kinds = 0;
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            Point p = point_make(x, y);
            if (b->cell[p] != EMPTY)
                continue;
            int n[PAT_COUNT] = {0};
            for (int d = 0; d < DIR_COUNT; d++)
                n[board_pattern(b, p, d, c)]++;
            int fours = n[PAT_B4] + n[PAT_F4];
            if (n[PAT_F5])
                continue;
            if (n[PAT_F4])
                kinds |= 1 << 1 | 1 << 4;
            else if (fours >= 2 || (fours && n[PAT_F3]))
                kinds |= 1 << 1 | 1 << 5;
            else if (n[PAT_F3] >= 2)
                kinds |= 1 << 2;
            else if (fours)
                kinds |= 1 << 1 | 1 << 3;
            else if (n[PAT_F3])
                kinds |= 1 << 0;
        }
    return kinds;
}

/* The threat situation the evaluation reads from its running class counts,
 * against a scan of the board after plays and undos. */
static void test_threat_mask_matches_scan(void **state)
{
    (void)state;
    SPos *s = malloc(sizeof *s);
    assert_non_null(s);
    Rng r;
    rng_seed(&r, 79);
    int seen = 0;
    for (int i = 0; i < POSITIONS; i++) {
        Board b;
        random_position(&r, i, 15, 6, &b);
        spos_init(s, &b, b.count % 2 ? WHITE : BLACK, ZERO_WEIGHTS);
        for (int k = 0; k < 3; k++) {
            Point p;
            do
                p = rng_point(&r, 0, 15);
            while (s->b.cell[p] != EMPTY);
            spos_play(s, p);
        }
        spos_undo(s);
        Color me = s->stm, opp = color_other(me);
        int m = scan_threats(&s->b, me), o = scan_threats(&s->b, opp);
        int want = (m & 1) | (m >> 1 & 1) << 1 | (m >> 2 & 1) << 2 | (o & 1) << 3 | (o >> 3 & 1) << 4 |
                   (o >> 2 & 1) << 5 | (o >> 4 & 1) << 6 | (o >> 5 & 1) << 7 | (me == WHITE) << 8;
        assert_int_equal(spos_threat_mask(s), want);
        seen |= want;
    }
    free(s);
    assert_int_equal(seen, ENGINE_THREAT_MASKS - 1); /* every bit was exercised */
}

/* spos_class_if with a stone added to one line's key gives the class that
 * playing that stone actually leaves, for both colours at the cell. */
static void test_class_if_matches_play(void **state)
{
    (void)state;
    SPos *s = malloc(sizeof *s);
    assert_non_null(s);
    Rng r;
    rng_seed(&r, 80);
    int compared = 0, changed = 0;
    for (int i = 0; i < POSITIONS / 4; i++) {
        Board b;
        random_position(&r, i, 15, 6, &b);
        spos_init(s, &b, b.count % 2 ? WHITE : BLACK, ZERO_WEIGHTS);
        Color mover = s->stm;
        for (int t = 0; t < 8; t++) {
            Point p = rng_point(&r, 0, 15);
            if (s->b.cell[p] != EMPTY)
                continue;
            for (int d = 0; d < DIR_COUNT; d++)
                for (int k = -5; k <= 5; k++) {
                    Point q = p + k * DIR[d];
                    if (k == 0 || s->b.cell[q] != EMPTY)
                        continue;
                    uint32_t key = s->b.key[d][p] | (uint32_t)mover << board_key_shift(k);
                    CellClass want[2] = {spos_class_if(s, p, BLACK, d, key),
                                         spos_class_if(s, p, WHITE, d, key)};
                    CellClass before = spos_class(s, p, BLACK);
                    spos_play(s, q);
                    for (Color c = BLACK; c <= WHITE; c++)
                        assert_int_equal(spos_class(s, p, c), want[c - 1]);
                    changed += spos_class(s, p, BLACK) != before;
                    spos_undo(s);
                    compared++;
                }
        }
    }
    free(s);
    assert_true(compared > 1000);
    assert_true(changed > 0); /* some added stones did change a class */
}

/* Every empty cell's pattern code, for both colours, is the code of the
 * patterns the board shows there (renju black's maybe-forbidden cells: the
 * FORBID code), also after plays and undos; with an ordering table for the
 * side to move a move's order score is its two table entries. */
/* One step of a random walk: mostly a play at a random empty cell (while
 * nobody has a five), sometimes an undo. False when nothing changed. */
static bool random_step(SPos *s, Rng *r, int *plays)
{
    Point q = rng_point(r, 0, s->b.size);
    if (*plays && rng_below(r, 3) == 0) {
        spos_undo(s);
        (*plays)--;
        return true;
    }
    if (s->b.cell[q] != EMPTY || rules_has_win(&s->b, BLACK) || rules_has_win(&s->b, WHITE))
        return false;
    uint64_t want = spos_key_after(s, q); /* the search prefetches the table with it */
    spos_play(s, q);
    assert_true(spos_key(s) == want);
    (*plays)++;
    return true;
}

static void test_codes_and_order_table(void **state)
{
    (void)state;
    SPos *s = malloc(sizeof *s);
    OrderWeights *o = malloc(sizeof *o);
    assert_non_null(s);
    assert_non_null(o);
    Rng r;
    rng_seed(&r, 81);
    for (int i = 0; i < ENGINE_ORDER_CODES; i++) {
        o->att[i] = (int)rng_below(&r, 20001) - 10000;
        o->def[i] = (int)rng_below(&r, 20001) - 10000;
    }
    int checked = 0, forbid = 0;
    for (int i = 0; i < 60; i++) { /* enough renju ones to reach forbidden cells */
        Board b;
        random_position(&r, i, 15, 12, &b);
        spos_init(s, &b, b.count % 2 ? WHITE : BLACK, ZERO_WEIGHTS);
        int plays = 0;
        for (int t = 0; t < 12; t++) {
            for (Point p = s->lo; p <= s->hi; p++) {
                if (s->b.cell[p] != EMPTY)
                    continue;
                for (Color c = BLACK; c <= WHITE; c++) {
                    int pat[DIR_COUNT];
                    for (int d = 0; d < DIR_COUNT; d++)
                        pat[d] = ref_eval_pattern(&s->b, p, d, c);
                    bool fb = c == BLACK && s->renju && s->pforbid[p];
                    int want = fb ? ENGINE_PCODES : engine_pcode(pat[0], pat[1], pat[2], pat[3]);
                    assert_int_equal(s->code[c - 1][p], want);
                    forbid += fb;
                    checked++;
                }
                int me = s->stm - 1;
                int base = search_order_score(s, p);
                s->ord[1 - me] = o; /* the other side's table does not count */
                assert_int_equal(search_order_score(s, p), base);
                s->ord[me] = o;
                s->ord[1 - me] = NULL;
                assert_int_equal(search_order_score(s, p),
                                 o->att[s->code[me][p]] + o->def[s->code[1 - me][p]]);
                s->ord[me] = NULL;
            }
            random_step(s, &r, &plays);
        }
    }
    free(s);
    free(o);
    assert_true(checked > 10000);
    assert_true(forbid > 0); /* the renju positions do reach the FORBID code */
}

/* For each cell, how many stones of b have it in their candidate area: the
 * square of SPOS_MAX_NEAR and the eight lines up to SPOS_NEAR_LINE. */
static void ref_near(const Board *b, int out[BOARD_CELLS])
{
    memset(out, 0, sizeof(int) * BOARD_CELLS);
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            if (b->cell[point_make(x, y)] == EMPTY)
                continue;
            for (int v = y - SPOS_NEAR_LINE; v <= y + SPOS_NEAR_LINE; v++)
                for (int u = x - SPOS_NEAR_LINE; u <= x + SPOS_NEAR_LINE; u++) {
                    int dx = abs(u - x), dy = abs(v - y), cheb = dx > dy ? dx : dy;
                    bool line = dx == 0 || dy == 0 || dx == dy;
                    if (u >= 0 && v >= 0 && u < b->size && v < b->size &&
                        (cheb <= SPOS_MAX_NEAR || (line && cheb <= SPOS_NEAR_LINE)))
                        out[point_make(u, v)]++;
                }
        }
}

/* Every cell's class, code, worths and gate, the class counts and the sums
 * after plays and undos equal those of a position set up afresh on the same
 * stones (a play only re-reads the cells whose patterns changed), and both
 * count the stones whose candidate area holds each cell as ref_near does. */
static void assert_same_state(const SPos *a, const SPos *b)
{
    int near[BOARD_CELLS];
    ref_near(&a->b, near);
    for (Point p = a->lo; p <= a->hi; p++) {
        if (!board_on(&a->b, p))
            continue;
        assert_int_equal(a->near[p], near[p]);
        assert_int_equal(b->near[p], near[p]);
        if (a->b.cell[p] != EMPTY)
            continue;
        for (int c = 0; c < 2; c++) {
            assert_int_equal(a->cls[c][p], b->cls[c][p]);
            assert_int_equal(a->code[c][p], b->code[c][p]);
            assert_int_equal(a->worth[c][p], b->worth[c][p]);
            assert_int_equal(a->worth_opp[c][p], b->worth_opp[c][p]);
        }
        assert_int_equal(a->pforbid[p], b->pforbid[p]);
    }
    for (int c = 0; c < 2; c++) {
        assert_int_equal(a->sum[c], b->sum[c]);
        assert_int_equal(a->sum_opp[c], b->sum_opp[c]);
        for (int k = 0; k < CL_COUNT; k++)
            assert_int_equal(a->count[c][k], b->count[c][k]);
    }
    assert_int_equal(spos_evaluate(a), spos_evaluate(b));
}

static void test_incremental_equals_fresh(void **state)
{
    (void)state;
    SPos *s = malloc(sizeof *s), *f = malloc(sizeof *f);
    assert_non_null(s);
    assert_non_null(f);
    Rng r;
    rng_seed(&r, 83);
    int compared = 0;
    for (int i = 0; i < 80; i++) {
        Board b;
        random_position(&r, i, i % 3 == 0 ? 20 : 15, 4, &b);
        EvalWeights w[2];
        engine_default_weights(b.rule, BLACK, &w[0]);
        engine_default_weights(b.rule, WHITE, &w[1]);
        /* Smoothed, the evaluation after plays reads the undo stack and a
         * fresh one the board without its last stone: the two must agree. */
        w[0].smooth = w[1].smooth = i % 2;
        spos_init(s, &b, b.count % 2 ? WHITE : BLACK, w);
        int plays = 0;
        for (int t = 0; t < 40; t++) {
            if (!random_step(s, &r, &plays))
                continue;
            spos_init(f, &s->b, s->stm, w);
            assert_same_state(s, f);
            compared++;
        }
    }
    free(s);
    free(f);
    assert_true(compared > 1500);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_four_cells_match_scan),
        cmocka_unit_test(test_vcf_from_four_list_equals_scan),
        cmocka_unit_test(test_threat_mask_matches_scan),
        cmocka_unit_test(test_class_if_matches_play),
        cmocka_unit_test(test_codes_and_order_table),
        cmocka_unit_test(test_eval_patterns_of_shapes),
        cmocka_unit_test(test_incremental_equals_fresh),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
