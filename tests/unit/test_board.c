/* Board, coordinates and win detection. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "tengen/board.h"
#include "tengen/coord.h"
#include "tengen/pattern.h"
#include "tengen/rng.h"
#include "tengen/rules.h"

static Point pt(const char *s, int size)
{
    Point p = POINT_NONE;
    TgError err;
    assert_true(coord_parse(s, size, &p, &err));
    return p;
}

static void test_init_sizes(void **state)
{
    (void)state;
    Board b;
    assert_false(board_init(&b, 4, RULE_RENJU));
    assert_false(board_init(&b, 23, RULE_RENJU));
    for (int n = BOARD_MIN_SIZE; n <= BOARD_MAX_SIZE; n++) {
        assert_true(board_init(&b, n, RULE_FREESTYLE));
        int on = 0;
        for (Point p = 0; p < BOARD_CELLS; p++)
            on += board_on(&b, p);
        assert_int_equal(on, n * n);
        assert_true(board_is_consistent(&b));
    }
}

static void test_play_undo_restores(void **state)
{
    (void)state;
    Board b, empty;
    board_init(&b, 15, RULE_RENJU);
    empty = b;
    Rng r;
    rng_seed(&r, 1);
    rng_clustered_position(&r, &b, 120);
    assert_int_equal(b.count, 120);
    assert_true(board_is_consistent(&b));
    assert_int_not_equal(b.hash, 0);
    while (b.count)
        board_undo(&b);
    assert_int_equal(b.count, 0);
    assert_true(b.hash == empty.hash);
    assert_memory_equal(b.cell, empty.cell, sizeof b.cell);
    assert_memory_equal(b.key, empty.key, sizeof b.key);
}

static void test_hash_order_independent(void **state)
{
    (void)state;
    Board a, b;
    board_init(&a, 15, RULE_RENJU);
    board_init(&b, 15, RULE_RENJU);
    board_play(&a, pt("h8", 15), BLACK);
    board_play(&a, pt("h9", 15), WHITE);
    board_play(&a, pt("i9", 15), BLACK);
    board_play(&b, pt("i9", 15), BLACK);
    board_play(&b, pt("h9", 15), WHITE);
    board_play(&b, pt("h8", 15), BLACK);
    assert_true(a.hash == b.hash);
    board_undo(&b);
    assert_false(a.hash == b.hash);
    board_remove(&a, pt("h8", 15));
    assert_true(a.hash == b.hash);
    assert_true(board_is_consistent(&a));
}

static void test_consistency_detects_damage(void **state)
{
    (void)state;
    Board b;
    board_init(&b, 9, RULE_RENJU);
    board_play(&b, pt("e5", 9), BLACK);
    board_play(&b, pt("f6", 9), WHITE);
    assert_true(board_is_consistent(&b));
    Board bad = b;
    bad.key[DIR_DIAG][pt("g7", 9)] ^= 1u << 2;
    assert_false(board_is_consistent(&bad));
    bad = b;
    bad.hash ^= 1;
    assert_false(board_is_consistent(&bad));
    bad = b;
    bad.cell[pt("a1", 9)] = BLACK;
    assert_false(board_is_consistent(&bad));
}

static void test_edges_wall(void **state)
{
    (void)state;
    Board b;
    board_init(&b, 5, RULE_FREESTYLE);
    Point corner = pt("a1", 5);
    assert_int_equal(b.cell[corner - DIR[DIR_ROW]], WALL);
    assert_int_equal(b.cell[corner + DIR[DIR_COL]], WALL);
    board_play(&b, corner, BLACK);
    assert_true(board_is_consistent(&b));
}

static void test_coord_roundtrip(void **state)
{
    (void)state;
    char buf[COORD_BUF];
    for (int n = BOARD_MIN_SIZE; n <= BOARD_MAX_SIZE; n++)
        for (int x = 0; x < n; x++)
            for (int y = 0; y < n; y++) {
                Point p = point_make(x, y), q;
                TgError err;
                assert_true(coord_parse(coord_format(p, n, buf), n, &q, &err));
                assert_int_equal(p, q);
                assert_true(coord_parse_xy(coord_format_xy(p, buf), n, &q, &err));
                assert_int_equal(p, q);
            }
    Point p;
    assert_int_equal(pt("h8", 15), point_make(7, 7));
    assert_int_equal(pt("a15", 15), point_make(0, 0));
    assert_int_equal(pt("A1", 15), point_make(0, 14));
    assert_string_equal(coord_format_xy(pt("a15", 15), buf), "0,0");
    TgError err;
    assert_false(coord_parse("p8", 15, &p, &err));
    assert_non_null(strstr(err.msg, "'p8'"));
    assert_false(coord_parse("h16", 15, &p, &err));
    assert_false(coord_parse("h0", 15, &p, &err));
    assert_false(coord_parse("h", 15, &p, &err));
    assert_false(coord_parse("8h", 15, &p, &err));
    assert_false(coord_parse("h8x", 15, &p, &err));
    assert_false(coord_parse("", 15, &p, &err));
    assert_false(coord_parse_xy("15,0", 15, &p, &err));
    assert_false(coord_parse_xy("1;2", 15, &p, &err));
    assert_false(coord_parse_xy("-1,2", 15, &p, &err));
}

static void line(Board *b, const char *const *pts, int n, Color c)
{
    for (int i = 0; i < n; i++)
        board_play(b, pt(pts[i], b->size), c);
}

static void test_wins_per_rule(void **state)
{
    (void)state;
    static const char *const four[] = {"c3", "d3", "e3", "f3"};
    static const char *const five_over[] = {"c3", "d3", "e3", "f3", "h3"};
    Board b;
    Point g3 = pt("g3", 15);
    for (int r = 0; r < RULE_COUNT; r++) {
        board_init(&b, 15, (Rule)r);
        line(&b, four, 4, BLACK);
        assert_true(rules_is_win(&b, g3, BLACK, NULL, NULL));
        board_init(&b, 15, (Rule)r);
        line(&b, five_over, 5, BLACK);
        bool over_wins = r == RULE_FREESTYLE;
        assert_int_equal(rules_is_win(&b, g3, BLACK, NULL, NULL), over_wins);
        board_init(&b, 15, (Rule)r);
        line(&b, five_over, 5, WHITE);
        assert_int_equal(rules_is_win(&b, g3, WHITE, NULL, NULL),
                         r == RULE_FREESTYLE || r == RULE_RENJU);
    }
    /* caro: blocked at both ends by the opponent does not win; by the wall it does */
    board_init(&b, 15, RULE_CARO);
    line(&b, four, 4, BLACK);
    board_play(&b, pt("b3", 15), WHITE);
    board_play(&b, pt("h3", 15), WHITE);
    assert_false(rules_is_win(&b, g3, BLACK, NULL, NULL));
    board_undo(&b);
    assert_true(rules_is_win(&b, g3, BLACK, NULL, NULL));
    static const char *const edge[] = {"a3", "b3", "c3", "d3"};
    board_init(&b, 15, RULE_CARO);
    line(&b, edge, 4, BLACK);
    board_play(&b, pt("f3", 15), WHITE);
    Point stones[BOARD_MAX_SIZE];
    int n = 0;
    assert_true(rules_is_win(&b, pt("e3", 15), BLACK, stones, &n));
    assert_int_equal(n, 5);
    assert_int_equal(stones[0], pt("a3", 15));
}

/* The engine asks forbid_check only about cells whose line classes show an
 * overline, a straight four, two fours or two threes and no five (spos.c);
 * that is sound only if every renju info fact implies its line class. */
static void test_renju_info_implies_classes(void **state)
{
    (void)state;
    pattern_init(RULE_RENJU);
    const uint8_t *tab = pattern_table(RULE_RENJU, BLACK);
    const uint16_t *info = pattern_renju_info();
    long bad = 0, threes = 0, fours = 0;
    for (uint32_t k = 0; k < (1u << 20); k++) {
        unsigned i = info[k];
        int p = tab[k];
        bad += ((i & LINE_FIVE) != 0) != (p == PAT_F5);
        bad += (i & LINE_OVERLINE) && p != PAT_OL;
        bad += line_fours(i) >= 1 && p != PAT_B4 && p != PAT_F4;
        bad += line_fours(i) >= 2 && p != PAT_F4;
        bad += (i & LINE_THREE) && p != PAT_F3;
        threes += (i & LINE_THREE) != 0;
        fours += line_fours(i) >= 2;
    }
    assert_int_equal(bad, 0);
    /* The facts are not vacuous. */
    assert_true(threes > 1000);
    assert_true(fours > 10);
}

static void test_patterns(void **state)
{
    (void)state;
    Board b;
    board_init(&b, 15, RULE_FREESTYLE);
    static const char *const three[] = {"e8", "f8", "g8"};
    line(&b, three, 3, BLACK);
    assert_int_equal(board_pattern(&b, pt("h8", 15), DIR_ROW, BLACK), PAT_F4);
    assert_int_equal(board_pattern(&b, pt("h8", 15), DIR_COL, BLACK), PAT_F1);
    assert_int_equal(board_pattern(&b, pt("i8", 15), DIR_ROW, BLACK), PAT_B4);
    assert_int_equal(board_pattern(&b, pt("f9", 15), DIR_COL, BLACK), PAT_F2);
    board_play(&b, pt("d8", 15), WHITE);
    assert_int_equal(board_pattern(&b, pt("h8", 15), DIR_ROW, BLACK), PAT_B4);
    assert_int_equal(board_pattern(&b, pt("h8", 15), DIR_ROW, WHITE), PAT_B1);
    assert_int_equal(board_pattern(&b, pt("c8", 15), DIR_ROW, WHITE), PAT_DEAD);
    board_play(&b, pt("h8", 15), BLACK);
    assert_int_equal(board_pattern(&b, pt("i8", 15), DIR_ROW, BLACK), PAT_F5);
    /* standard: the overline point is no win */
    board_init(&b, 15, RULE_STANDARD);
    static const char *const split[] = {"c8", "d8", "e8", "f8", "h8"};
    line(&b, split, 5, BLACK);
    assert_int_equal(board_pattern(&b, pt("g8", 15), DIR_ROW, BLACK), PAT_OL);
}

/* Five points of c on line d whose five runs through p (a stone of c). */
static int line_fives(const Board *b, Point p, int d, Color c)
{
    int n = 0;
    for (int side = -1; side <= 1; side += 2) {
        Point q = p + side * DIR[d];
        while (b->cell[q] == c)
            q += side * DIR[d];
        /* the five's one new stone is the first gap on one side of p's run */
        n += b->cell[q] == EMPTY && board_pattern(b, q, d, c) == PAT_F5;
    }
    return n;
}

/* Whether one stone of the opponent on line d near p leaves c no five point there. */
static bool one_stone_stops(Board *b, Point p, int d, Color c)
{
    for (int k = -5; k <= 5; k++) {
        Point q = p + k * DIR[d];
        if (b->cell[q] != EMPTY)
            continue;
        board_play(b, q, color_other(c));
        int left = line_fives(b, p, d, c);
        board_undo(b);
        if (left == 0)
            return true;
    }
    return false;
}

/* A four (B4) is one that a single opponent stone stops, a straight four (F4)
 * one that it cannot; checked against the five points themselves on random
 * positions of every rule set (caro: a stone beyond one end can stop two). */
static void test_four_classes_match_defence(void **state)
{
    (void)state;
    long checked[RULE_COUNT][2] = {{0}};
    for (int r = 0; r < RULE_COUNT; r++) {
        Rng rng;
        rng_seed(&rng, 77 + (uint64_t)r);
        for (int game = 0; game < 60; game++) {
            Board b;
            board_init(&b, 15, (Rule)r);
            rng_clustered_position(&rng, &b, 20 + rng_below(&rng, 40));
            for (int y = 0; y < b.size; y++)
                for (int x = 0; x < b.size; x++) {
                    Point p = point_make(x, y);
                    if (b.cell[p] != EMPTY)
                        continue;
                    for (int d = 0; d < DIR_COUNT; d++)
                        for (Color c = BLACK; c <= WHITE; c++) {
                            Pattern pat = board_pattern(&b, p, d, c);
                            if (pat != PAT_B4 && pat != PAT_F4)
                                continue;
                            board_play(&b, p, c);
                            assert_true(line_fives(&b, p, d, c) >= 1);
                            assert_int_equal(one_stone_stops(&b, p, d, c), pat == PAT_B4);
                            board_undo(&b);
                            checked[r][pat == PAT_F4]++;
                        }
                }
        }
    }
    for (int r = 0; r < RULE_COUNT; r++)
        assert_true(checked[r][0] > 100 && checked[r][1] > 100);
}

/* Caro: black's i8 makes .XXXX. with white on d8; white j8 leaves the e8 five
 * blocked at both ends, so it is a four, and h8 before it no three. */
static void test_caro_four_blocked_beyond(void **state)
{
    (void)state;
    static const char *const three[] = {"f8", "g8", "h8"};
    for (int r = RULE_FREESTYLE; r <= RULE_CARO; r += RULE_CARO - RULE_FREESTYLE) {
        Board b;
        board_init(&b, 15, (Rule)r);
        board_play(&b, pt("d8", 15), WHITE);
        line(&b, three, 2, BLACK);
        bool caro = r == RULE_CARO;
        assert_int_equal(board_pattern(&b, pt("h8", 15), DIR_ROW, BLACK), caro ? PAT_B3 : PAT_F3);
        board_play(&b, pt("h8", 15), BLACK);
        assert_int_equal(board_pattern(&b, pt("i8", 15), DIR_ROW, BLACK), caro ? PAT_B4 : PAT_F4);
        /* one cell further away, white's d8 no longer stops both ends */
        board_remove(&b, pt("d8", 15));
        board_play(&b, pt("c8", 15), WHITE);
        assert_int_equal(board_pattern(&b, pt("i8", 15), DIR_ROW, BLACK), PAT_F4);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_init_sizes),         cmocka_unit_test(test_play_undo_restores),
        cmocka_unit_test(test_hash_order_independent), cmocka_unit_test(test_edges_wall),
        cmocka_unit_test(test_consistency_detects_damage),
        cmocka_unit_test(test_coord_roundtrip),    cmocka_unit_test(test_wins_per_rule),
        cmocka_unit_test(test_patterns),
        cmocka_unit_test(test_renju_info_implies_classes),
        cmocka_unit_test(test_four_classes_match_defence),
        cmocka_unit_test(test_caro_four_blocked_beyond),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
