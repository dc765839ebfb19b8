/* The search position (src/engine/spos.c, internal): its list of four points
 * against a scan of the line patterns, and the VCF probe that takes that list
 * against the solver's own board scan. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>

#include "../../src/engine/spos.h"
#include "tengen/pattern.h"
#include "tengen/rng.h"
#include "tengen/solver.h"

#ifdef TENGEN_DEBUG
#define POSITIONS 40
#else
#define POSITIONS 400
#endif

static const EvalWeights ZERO_WEIGHTS;

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
        spos_init(s, &b, b.count % 2 ? WHITE : BLACK, &ZERO_WEIGHTS);
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
        spos_init(s, &b, me, &ZERO_WEIGHTS);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_four_cells_match_scan),
        cmocka_unit_test(test_vcf_from_four_list_equals_scan),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
