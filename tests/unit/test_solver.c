/* Threat solver: the puzzle set, lines replayed through the rules library, an
 * independent brute-force VCF, renju forbidden points, caro, and the limits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../support/solver_check.h"
#include "tengen/coord.h"
#include "tengen/forbid.h"
#include "tengen/rng.h"
#include "tengen/rules.h"
#include "tengen/solver.h"

#ifdef TENGEN_DEBUG
#define PUZZLE_NODE_CAP 3000 /* the debug board re-verifies itself after every stone */
#define NAIVE_POSITIONS 6
#else
#define PUZZLE_NODE_CAP 100000000
#define NAIVE_POSITIONS 120
#endif

static Solver *S;

static Point pt(const char *s, int size)
{
    Point p = POINT_NONE;
    TgError err;
    assert_true(coord_parse(s, size, &p, &err));
    return p;
}

static void setup_board(Board *b, int size, Rule rule, const char *black, const char *white)
{
    assert_true(board_init(b, size, rule));
    char buf[512];
    const char *lists[2] = {black, white};
    for (int c = 0; c < 2; c++) {
        snprintf(buf, sizeof buf, "%s", lists[c]);
        char *save = NULL;
        for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save))
            board_play(b, pt(t, size), c ? WHITE : BLACK);
    }
}

static SolveStatus solve(Board *b, Color att, bool vct, int depth, long long nodes, SolverResult *r)
{
    solver_clear(S);
    SolverLimits lim = {depth, nodes, 0, NULL};
    uint64_t hash = b->hash;
    int count = b->count;
    SolveStatus st = vct ? vct_solve(S, b, att, &lim, r) : vcf_solve(S, b, att, &lim, r);
    assert_true(b->hash == hash);
    assert_int_equal(b->count, count);
    return st;
}

static const char *puzzle_path(void)
{
    static char path[1024];
    const char *dir = getenv("TESTDATA");
    snprintf(path, sizeof path, "%s/puzzles/solver.txt", dir ? dir : "tests/data");
    return path;
}

static void test_puzzles(void **state)
{
    (void)state;
    Puzzle *pz;
    int n = puzzle_load(puzzle_path(), &pz);
    assert_true(n >= 100);
    int rules[RULE_COUNT] = {0}, wins = 0, none = 0, fblock = 0, ffour = 0, run = 0;
    static SolverResult r;
    for (int i = 0; i < n; i++) {
        Puzzle *p = &pz[i];
        rules[p->board.rule]++;
        fblock += !strcmp(p->tag, "forbidden-block");
        ffour += !strcmp(p->tag, "forbidden-four");
        if (p->nodes > PUZZLE_NODE_CAP)
            continue;
        run++;
        SolveStatus st = solve(&p->board, p->side, p->vct, 0, p->nodes, &r);
        if (!p->win) {
            none++;
            if (st != SOLVE_NO_WIN)
                fail_msg("line %d: expected no win, got %s", p->line_no, solve_status_name(st));
            continue;
        }
        wins++;
        if (st != SOLVE_WIN)
            fail_msg("line %d: expected a win, got %s", p->line_no, solve_status_name(st));
        char why[200];
        if (!solver_check_line(&p->board, p->side, !p->vct, &r, why, sizeof why))
            fail_msg("line %d: the reported line does not win: %s", p->line_no, why);
        if (!strcmp(p->tag, "forbidden-block") && r.forbidden == POINT_NONE && !p->vct)
            fail_msg("line %d: expected a win on a forbidden block", p->line_no);
        /* The shortest win: one attacker move less finds nothing. */
        if (p->plies > 1 && solve(&p->board, p->side, p->vct, p->plies - 1, p->nodes, &r) != SOLVE_NO_WIN)
            fail_msg("line %d: a win shorter than %d attacker moves", p->line_no, p->plies);
        if (solve(&p->board, p->side, p->vct, p->plies, p->nodes, &r) != SOLVE_WIN)
            fail_msg("line %d: no win within %d attacker moves", p->line_no, p->plies);
    }
    for (int rule = 0; rule < RULE_COUNT; rule++)
        assert_true(rules[rule] >= 10);
    assert_true(fblock >= 3 && ffour >= 3);
    assert_true(run > 0 && wins > 0 && none > 0);
    free(pz);
}

/* After the first attacker move of a VCT, every legal defender reply still
 * loses: checks that the defences the solver ignores really lose. */
static void test_vct_ignored_defences_lose(void **state)
{
    (void)state;
    Puzzle *pz;
    int n = puzzle_load(puzzle_path(), &pz);
    assert_true(n > 0);
    static SolverResult r, r2;
    int checked = 0;
#ifdef TENGEN_DEBUG
    const int want = 1;
#else
    const int want = 6;
#endif
    for (int i = 0; i < n && checked < want; i++) {
        Puzzle *p = &pz[i];
        if (!p->vct || !p->win || p->nodes > 20000 || p->board.size > 15)
            continue;
        Board *b = &p->board;
        assert_int_equal(solve(b, p->side, true, 0, p->nodes, &r), SOLVE_WIN);
        if (r.len < 3)
            continue;
        checked++;
        Color def = color_other(p->side);
        board_play(b, r.line[0], p->side);
        for (int y = 0; y < b->size; y++)
            for (int x = 0; x < b->size; x++) {
                Point q = point_make(x, y);
                if (b->cell[q] != EMPTY ||
                    (b->rule == RULE_RENJU && def == BLACK && forbid_is_forbidden(forbid_check(b, q))))
                    continue;
                assert_false(rules_is_win(b, q, def, NULL, NULL));
                board_play(b, q, def);
                SolveStatus st = solve(b, p->side, true, 0, 50 * p->nodes, &r2);
                char buf[COORD_BUF];
                if (st != SOLVE_WIN)
                    fail_msg("line %d: the defence %s holds (%s)", p->line_no,
                             coord_format(q, b->size, buf), solve_status_name(st));
                board_undo(b);
            }
        board_undo(b);
    }
    assert_true(checked == want);
    free(pz);
}

/* Brute force from the rules library alone: every point is tried for the
 * attacker, every defender move that stops all the fives is tried. */
static bool naive_vcf(Board *b, Color att, int depth)
{
    if (depth == 0)
        return false;
    Color def = color_other(att);
    Point df[BOARD_MAX_MOVES], af[BOARD_MAX_MOVES];
    int ndf = check_five_points(b, def, df);
    bool renju_black = b->rule == RULE_RENJU && att == BLACK;
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            Point m = point_make(x, y);
            if (b->cell[m] != EMPTY)
                continue;
            if (rules_is_win(b, m, att, NULL, NULL))
                return true;
            if (renju_black && forbid_is_forbidden(forbid_check(b, m)))
                continue;
            board_play(b, m, att);
            bool def_five = false;
            for (int i = 0; i < ndf && !def_five; i++)
                def_five = b->cell[df[i]] == EMPTY && rules_is_win(b, df[i], def, NULL, NULL);
            int naf = def_five ? 0 : check_five_points(b, att, af);
            bool win = naf > 0;
            bool any_answer = false;
            for (int yy = 0; yy < b->size && win; yy++)
                for (int xx = 0; xx < b->size && win; xx++) {
                    Point q = point_make(xx, yy);
                    if (b->cell[q] != EMPTY)
                        continue;
                    bool near = false;
                    for (int i = 0; i < naf && !near; i++)
                        near = abs(point_x(q) - point_x(af[i])) <= 5 &&
                               abs(point_y(q) - point_y(af[i])) <= 5;
                    if (!near || (b->rule == RULE_RENJU && def == BLACK &&
                                  forbid_is_forbidden(forbid_check(b, q))))
                        continue;
                    board_play(b, q, def);
                    bool stopped = true;
                    for (int i = 0; i < naf && stopped; i++)
                        stopped = b->cell[af[i]] != EMPTY || !rules_is_win(b, af[i], att, NULL, NULL);
                    if (stopped) {
                        any_answer = true;
                        win = naive_vcf(b, att, depth - 1);
                    }
                    board_undo(b);
                }
            board_undo(b);
            if (win && (any_answer || naf > 0))
                return true;
        }
    return false;
}

static void test_vcf_matches_brute_force(void **state)
{
    (void)state;
    Rng rng;
    rng_seed(&rng, 77);
    int agree_win = 0, agree_none = 0;
    static SolverResult r;
    for (int i = 0; i < NAIVE_POSITIONS; i++) {
        Board b;
        Rule rule = (Rule)(i % RULE_COUNT);
        int size = 7 + i % 3;
        board_init(&b, size, rule);
        rng_clustered_position(&rng, &b, 8 + rng_below(&rng, 12));
        Color att = board_side_to_move(&b);
        Point f[BOARD_MAX_MOVES];
        if (rules_has_win(&b, BLACK) || rules_has_win(&b, WHITE) || check_five_points(&b, att, f)) {
            i--;
            continue;
        }
        bool naive = naive_vcf(&b, att, 3);
        SolveStatus st = solve(&b, att, false, 3, 0, &r);
        char why[200];
        if (naive != (st == SOLVE_WIN))
            fail_msg("position %d (%s %d): brute force %d, solver %s", i, rule_name(rule), size,
                     naive, solve_status_name(st));
        if (st == SOLVE_WIN && !solver_check_line(&b, att, true, &r, why, sizeof why))
            fail_msg("position %d: %s", i, why);
        naive ? agree_win++ : agree_none++;
    }
    assert_true(agree_win > 0 && agree_none > 0);
}

static void test_renju_forbidden_block(void **state)
{
    (void)state;
    Board b;
    /* h8 is a double three for black; white's four e5-f6-g7-i9 can only be blocked there. */
    setup_board(&b, 15, RULE_RENJU, "h9 g8 i8 h7 d4", "e5 f6 g7 a1 a15");
    static SolverResult r;
    assert_true(forbid_is_forbidden(forbid_check(&b, pt("h8", 15))));
    assert_int_equal(solve(&b, WHITE, false, 0, 0, &r), SOLVE_WIN);
    assert_int_equal(r.len, 1);
    assert_int_equal(r.line[0], pt("i9", 15));
    assert_int_equal(r.forbidden, pt("h8", 15));
    char why[200];
    assert_true(solver_check_line(&b, WHITE, true, &r, why, sizeof why));
    /* Without forbidden points black simply blocks at h8. */
    setup_board(&b, 15, RULE_STANDARD, "h9 g8 i8 h7 d4", "e5 f6 g7 a1 a15");
    assert_int_equal(solve(&b, WHITE, false, 1, 0, &r), SOLVE_NO_WIN);
}

/* Black must stop white's five at h8 but may not play there: whatever fours
 * black has, white wins; without forbidden points the block is an answer. */
static void test_renju_attacker_cannot_block(void **state)
{
    (void)state;
    Board b;
    static SolverResult r;
    const char *black = "h9 g8 i8 h7 d4 c12 d12 e12", *white = "e5 f6 g7 i9 a1 a15 n1 n3";
    setup_board(&b, 15, RULE_RENJU, black, white);
    assert_int_equal(solve(&b, BLACK, false, 0, 0, &r), SOLVE_NO_WIN);
    assert_int_equal(solve(&b, BLACK, true, 0, 200000, &r), SOLVE_NO_WIN);
    setup_board(&b, 15, RULE_FREESTYLE, black, white);
    assert_int_equal(solve(&b, BLACK, true, 0, 200000, &r), SOLVE_WIN);
    char why[200];
    assert_int_equal(r.line[0], pt("h8", 15));
    assert_true(solver_check_line(&b, BLACK, false, &r, why, sizeof why));
}

static void test_renju_forbidden_fours(void **state)
{
    (void)state;
    Board b;
    static SolverResult r;
    /* g8 would be an overline for black: a five only where overlines win. */
    setup_board(&b, 15, RULE_FREESTYLE, "d8 e8 f8 h8 i8", "a1 a3 c1 n14 n12");
    assert_int_equal(solve(&b, BLACK, false, 0, 0, &r), SOLVE_WIN);
    assert_int_equal(r.line[0], pt("g8", 15));
    setup_board(&b, 15, RULE_RENJU, "d8 e8 f8 h8 i8", "a1 a3 c1 n14 n12");
    if (solve(&b, BLACK, false, 0, 0, &r) == SOLVE_WIN) {
        char why[200];
        assert_int_not_equal(r.line[0], pt("g8", 15));
        assert_true(solver_check_line(&b, BLACK, true, &r, why, sizeof why));
    }
    /* h8 makes two fours: a win in freestyle, forbidden in renju. */
    const char *black = "e8 f8 g8 h9 h10 h11", *white = "c8 i8 h12 a3 c1 n14";
    setup_board(&b, 15, RULE_FREESTYLE, black, white);
    assert_int_equal(solve(&b, BLACK, false, 1, 0, &r), SOLVE_WIN);
    assert_int_equal(r.line[0], pt("h8", 15));
    setup_board(&b, 15, RULE_RENJU, black, white);
    assert_int_equal(forbid_check(&b, pt("h8", 15)), FORBID_DOUBLE_FOUR);
    assert_int_equal(solve(&b, BLACK, false, 1, 0, &r), SOLVE_NO_WIN);
    assert_int_equal(solve(&b, BLACK, true, 2, 0, &r) == SOLVE_WIN && r.line[0] == pt("h8", 15), 0);
}

static void test_defender_four_must_be_blocked(void **state)
{
    (void)state;
    Board b;
    static SolverResult r;
    /* White threatens a five at m8; black's own four-three elsewhere must wait. */
    setup_board(&b, 15, RULE_FREESTYLE, "d4 e4 f4 d6 d7 i8", "j8 k8 l8 n8 a1 a3");
    assert_int_equal(solve(&b, BLACK, false, 0, 0, &r), SOLVE_NO_WIN);
    board_play(&b, pt("m8", 15), BLACK);
    board_play(&b, pt("a5", 15), WHITE);
    assert_int_equal(solve(&b, BLACK, false, 0, 0, &r), SOLVE_WIN);
    char why[200];
    assert_true(solver_check_line(&b, BLACK, true, &r, why, sizeof why));
}

static void test_limits(void **state)
{
    (void)state;
    Puzzle *pz;
    int n = puzzle_load(puzzle_path(), &pz);
    assert_true(n > 0);
    Puzzle *big = NULL;
    for (int i = 0; i < n; i++)
        if (pz[i].vct && pz[i].win && pz[i].nodes > 3000 && (!big || pz[i].nodes < big->nodes))
            big = &pz[i];
    assert_non_null(big);
    static SolverResult r;
    assert_int_equal(solve(&big->board, big->side, true, 0, 50, &r), SOLVE_UNKNOWN);
    assert_true(r.nodes >= 50 && r.nodes <= 50 + SOLVER_NODE_SLACK);
    atomic_int stop = 1;
    solver_clear(S);
    SolverLimits lim = {0, 0, 0, &stop};
    assert_int_equal(vct_solve(S, &big->board, big->side, &lim, &r), SOLVE_UNKNOWN);
    solver_clear(S);
    SolverLimits past = {0, 0, solver_now() - 1, NULL};
    assert_int_equal(vct_solve(S, &big->board, big->side, &past, &r), SOLVE_UNKNOWN);
    free(pz);
}

static void test_hash_reuse_is_consistent(void **state)
{
    (void)state;
    Puzzle *pz;
    int n = puzzle_load(puzzle_path(), &pz);
    assert_true(n > 0);
    /* Solving every puzzle twice without clearing the table gives the same verdicts. */
    Solver *s = solver_new(1 << 20);
    static SolverResult r;
    for (int i = 0, done = 0; i < n && done < 20; i++) {
        Puzzle *p = &pz[i];
        if (p->nodes > 5000)
            continue;
        done++;
        SolverLimits lim = {0, 4 * p->nodes, 0, NULL};
        for (int rep = 0; rep < 2; rep++) {
            SolveStatus st = p->vct ? vct_solve(s, &p->board, p->side, &lim, &r)
                                    : vcf_solve(s, &p->board, p->side, &lim, &r);
            assert_int_equal(st, p->win ? SOLVE_WIN : SOLVE_NO_WIN);
        }
    }
    solver_free(s);
    free(pz);
}

int main(void)
{
    S = solver_new(4u << 20);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_renju_forbidden_block),
        cmocka_unit_test(test_renju_forbidden_fours),
        cmocka_unit_test(test_renju_attacker_cannot_block),
        cmocka_unit_test(test_defender_four_must_be_blocked),
        cmocka_unit_test(test_vcf_matches_brute_force),
        cmocka_unit_test(test_puzzles),
        cmocka_unit_test(test_vct_ignored_defences_lose),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_hash_reuse_is_consistent),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    solver_free(S);
    return rc;
}
