/* The pbrain protocol driven through memory streams, the opening decisions'
 * symmetry test, and the match referee's statistics and openings reader. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tengen/autoplay.h"
#include "tengen/coord.h"
#include "tengen/match.h"
#include "tengen/opening_ai.h"
#include "tengen/openings.h"
#include "tengen/pbrain.h"
#include "tengen/rng.h"

#include "../support/play_script.h"

#include "../../src/proto/opening_book.h"

static Point pt(const char *s, int size)
{
    Point p = POINT_NONE;
    TgError err;
    assert_true(coord_parse(s, size, &p, &err));
    return p;
}

static void play_list(Board *b, const char *moves)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", moves);
    Color c = BLACK;
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) {
        board_play(b, pt(t, b->size), c);
        c = color_other(c);
    }
}

/* Runs a brain on `input` and returns everything it wrote (malloc'd). */
static char *converse(const char *input)
{
    FILE *in = fmemopen((void *)input, strlen(input), "r");
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_non_null(in);
    assert_non_null(out);
    PbrainConfig cfg;
    pbrain_config_default(&cfg, "test");
    cfg.engine.hash_mb = 4;
    TgError err;
    Pbrain *pb = pbrain_new(&cfg, in, out, &err);
    assert_non_null(pb);
    pbrain_run(pb);
    pbrain_free(pb);
    fclose(in);
    fclose(out);
    return text;
}

static void test_rule_bits(void **state)
{
    (void)state;
    assert_int_equal(pbrain_rule_from_info(0), RULE_FREESTYLE);
    assert_int_equal(pbrain_rule_from_info(1), RULE_STANDARD);
    assert_int_equal(pbrain_rule_from_info(2), RULE_RENJU); /* Yixin-Board */
    assert_int_equal(pbrain_rule_from_info(3), RULE_STANDARD); /* exact five + continuous */
    assert_int_equal(pbrain_rule_from_info(4), RULE_RENJU);
    assert_int_equal(pbrain_rule_from_info(5), RULE_RENJU);
    assert_int_equal(pbrain_rule_from_info(8), RULE_CARO);
    assert_int_equal(pbrain_rule_from_info(9), RULE_CARO);
    assert_int_equal(match_gomocup_rule(RULE_FREESTYLE), 0);
    assert_int_equal(match_gomocup_rule(RULE_STANDARD), 1);
    assert_int_equal(match_gomocup_rule(RULE_RENJU), 4);
    assert_int_equal(match_gomocup_rule(RULE_CARO), 8);
    for (Rule r = 0; r < RULE_COUNT; r++)
        assert_int_equal(pbrain_rule_from_info(match_gomocup_rule(r)), r);
}

/* The brain works on any stream pair: a renju game where black must not
 * complete a double-three, and the protocol keeps going after errors. */
static void test_streams(void **state)
{
    (void)state;
    /* BOARD's first stone is black and the opponent's, so the brain is white:
     * its four 3..6,11 is blocked by black on 2,11 and completes on 7,11. */
    char *out = converse("START 15\nINFO max_depth 3\nINFO timeout_turn 3000\n"
                         "BOARD\n2,11,2\n3,11,1\n10,2,2\n4,11,1\n12,2,2\n5,11,1\n13,5,2\n"
                         "6,11,1\n0,0,2\nDONE\nNONSENSE\nEND\n");
    assert_non_null(out);
    assert_non_null(strstr(out, "OK\n"));
    assert_non_null(strstr(out, "\n7,11\n")); /* white's five */
    assert_non_null(strstr(out, "ERROR unknown command 'NONSENSE'"));
    free(out);
}

/* rules.md: after h8 h9 h7 with white 4 on h6, g8 i8 g7 i7 are symmetric. */
static void test_symmetry(void **state)
{
    (void)state;
    Board b;
    board_init(&b, 15, RULE_RENJU);
    play_list(&b, "h8 h9 h7 h6");
    const char *cls[] = {"g8", "i8", "g7", "i7"};
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            if (i != j)
                assert_true(opening_ai_symmetric(&b, pt(cls[i], 15), pt(cls[j], 15)));
    assert_false(opening_ai_symmetric(&b, pt("g8", 15), pt("g9", 15)));
    /* The column h6 h7 h8 h9 (W B B W) is its own mirror across row 7.5. */
    assert_true(opening_ai_symmetric(&b, pt("h10", 15), pt("h5", 15)));
    assert_false(opening_ai_symmetric(&b, pt("h10", 15), pt("h4", 15)));
    /* Mirror line between two lines of the board: black h8 i8, white h9 i9;
     * g8 and j8 are mirror images, g8 and k8 are not. */
    board_init(&b, 15, RULE_RENJU);
    play_list(&b, "h8 h9 i8 i9");
    assert_true(opening_ai_symmetric(&b, pt("g8", 15), pt("j8", 15)));
    assert_false(opening_ai_symmetric(&b, pt("g8", 15), pt("k8", 15)));
    /* Colour matters: a lone black h8 and white j8 map only by the reflection
     * through their line: h9 ~ h7, not h9 ~ j9. */
    board_init(&b, 15, RULE_RENJU);
    board_play(&b, pt("h8", 15), BLACK);
    board_play(&b, pt("j8", 15), WHITE);
    assert_true(opening_ai_symmetric(&b, pt("h9", 15), pt("h7", 15)));
    assert_false(opening_ai_symmetric(&b, pt("h9", 15), pt("j9", 15)));
}

/* A one-thread engine with a small hash for the opening tests. */
static Engine *small_engine(void)
{
    EngineOptions o;
    engine_options_default(&o);
    o.hash_mb = 4;
    Engine *e = engine_new(&o, NULL);
    assert_non_null(e);
    return e;
}

/* n opening stones, each one autoplay decision of ms (seeds seed, seed + 1, ...). */
static void autoplay_stones(Engine *e, Game *g, int n, int ms, uint64_t seed)
{
    for (int i = 0; i < n; i++) {
        Autoplay ap = {.engine = e, .ms = ms, .seed = seed + (uint64_t)i};
        Action a;
        TgError err = {0};
        assert_true(autoplay_decide(&ap, g, &a, &err));
        assert_int_equal(a.type, ACT_PLACE);
        assert_true(game_apply(g, &a, &err));
    }
}

/* A fresh decision on e searched to `depth` without a time limit. */
static void fixed_depth(OpeningAI *ai, Engine *e, int depth)
{
    opening_ai_init(ai, e);
    ai->limits.depth = depth;
    ai->limits.turn_ms = 0;
}

/* b's three stones, moved back by `shift` to 15x15, must be a line of the book. */
static void assert_book_opening(const Board *b, int shift)
{
    char text[3][COORD_BUF], line[64];
    for (int i = 0; i < 3; i++) {
        Point h = b->history[i];
        coord_format(point_make(point_x(h) - shift, point_y(h) - shift), 15, text[i]);
    }
    snprintf(line, sizeof line, "%s %s %s", text[0], text[1], text[2]);
    for (int i = 0; i < OPENING_BOOK_FREE_COUNT; i++)
        if (!strcmp(OPENING_BOOK_FREE[i], line))
            return;
    fail_msg("%s is not a book opening", line);
}

static void test_proposals_distinct(void **state)
{
    (void)state;
    Engine *e = small_engine();
    OpeningAI ai;
    opening_ai_init(&ai, e);
    ai.limits.depth = 2;
    ai.limits.turn_ms = 2000;
    Board b;
    board_init(&b, 15, RULE_RENJU);
    play_list(&b, "h8 h9 h7 h6");
    Point props[10];
    int n = opening_ai_propose(&ai, &b, 10, props);
    assert_int_equal(n, 10);
    for (int i = 0; i < n; i++) {
        assert_int_equal(b.cell[props[i]], EMPTY);
        for (int j = i + 1; j < n; j++)
            assert_false(opening_ai_symmetric(&b, props[i], props[j]));
    }
    Point c = opening_ai_choose(&ai, &b, props, 2);
    assert_true(c == props[0] || c == props[1]);
    int d = opening_ai_declare(&ai, &b, 8);
    assert_true(d >= 1 && d <= 8);
    Point o3[3];
    assert_true(opening_ai_pick_opening(&ai, 15, RULE_RENJU, o3));
    assert_int_equal(o3[0], pt("h8", 15));
    assert_true(o3[1] == pt("h9", 15) || o3[1] == pt("i9", 15));
    opening_ai_init(&ai, e);
    ai.limits.depth = 2;
    ai.limits.turn_ms = 2000;
    assert_true(opening_ai_pick_opening_offer(&ai, 15, RULE_RENJU, 2, o3));
    assert_int_equal(o3[0], pt("h8", 15));
    assert_true(o3[1] == pt("h9", 15) || o3[1] == pt("i9", 15));
    assert_true(o3[2] != o3[0] && o3[2] != o3[1] && board_on(&b, o3[2]));
    engine_free(e);
}

/* Taraguchi's regions are the game's central squares, on even boards too
 * (whose centre is the lower-left of the middle four). */
static void test_region_matches_game(void **state)
{
    (void)state;
    for (int size = 6; size <= 21; size += 5) {
        Board b;
        board_init(&b, size, RULE_RENJU);
        board_play(&b, opening_center(size), BLACK);
        for (int r = 1; 2 * r + 1 <= size; r++) {
            Point out[BOARD_MAX_MOVES];
            int n = opening_ai_region(&b, r, out), want = (2 * r + 1) * (2 * r + 1) - 1;
            for (int i = 0; i < n; i++)
                if (!opening_in_center(size, out[i], 2 * r + 1) || b.cell[out[i]] != EMPTY)
                    fail_msg("size %d, r %d: point %d is outside the game's square", size, r, i);
            if (n != want)
                fail_msg("size %d, r %d: %d points, want %d", size, r, n, want);
        }
    }
}

/* The engine as RIF's opener (the boards' autoplay) puts down one of the
 * 26 openings stone by stone, the one it picks whole. */
static void test_autoplay_rif_opener(void **state)
{
    (void)state;
    Engine *e = small_engine();
    Game g;
    test_game(&g, RULE_RENJU, OPENING_RIF, 15);
    autoplay_stones(e, &g, 3, 60, 0);
    const Board *b = game_board(&g, 0);
    assert_int_equal(b->count, 3);
    int id = opening_identify(b->history[0], b->history[1], b->history[2]);
    assert_true(id >= 0);
    Point canon[3];
    assert_true(opening_points(id, 15, canon));
    assert_memory_equal(canon, b->history, sizeof canon); /* not a rotation: the table's own */
    game_free(&g);
    engine_free(e);
}

/* The number of 5th moves declared leaves black nearest level: many when
 * black is far ahead (white takes the worst of them), one when black is
 * behind; a colour choice before an offer takes the side that offer favours. */
static void test_offer_decisions(void **state)
{
    (void)state;
    Engine *e = small_engine();
    OpeningAI ai;
    Board ahead, behind;
    board_init(&ahead, 15, RULE_RENJU);
    play_list(&ahead, "h8 a1 i9 o15"); /* black's pair in the centre, white far out */
    board_init(&behind, 15, RULE_RENJU);
    play_list(&behind, "a1 h8 o15 i9"); /* the other way round */
    int s_ahead = 0, s_behind = 0;
    fixed_depth(&ai, e, 4);
    int d_ahead = opening_ai_declare(&ai, &ahead, 8);
    fixed_depth(&ai, e, 4);
    int d_behind = opening_ai_declare(&ai, &behind, 8);
    fixed_depth(&ai, e, 4);
    bool black_ahead = opening_ai_take_black_offer(&ai, &ahead, 2, &s_ahead);
    fixed_depth(&ai, e, 4);
    bool black_behind = opening_ai_take_black_offer(&ai, &behind, 2, &s_behind);
    if (d_ahead < 4 || d_behind != 1 || !black_ahead || black_behind)
        fail_msg("declare %d (ahead) and %d (behind); take black %d (%d) and %d (%d)", d_ahead,
                 d_behind, black_ahead, s_ahead, black_behind, s_behind);
    engine_free(e);
}

/* Black's score, white to move, of the opening p (black white black) on an
 * empty 15x15 board, by a search to `depth`. */
static int opening_score(Engine *e, Rule rule, const Point p[3], int depth)
{
    OpeningAI ai;
    Board b;
    board_init(&b, 15, rule);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(b.cell[p[i]], EMPTY);
        board_play(&b, p[i], i == 1 ? WHITE : BLACK);
    }
    fixed_depth(&ai, e, depth);
    int s = 0;
    assert_true(opening_ai_black_score(&ai, &b, WHITE, &s, NULL));
    return s;
}

/* The colour choice counts black's edge (opening_ai_black_edge): in
 * standard, over the book's openings, the chooser's score is the search's
 * plus the edge, it takes black exactly when that is above level, and so
 * takes black after an opening the search alone puts below level. */
static void test_black_edge(void **state)
{
    (void)state;
    assert_true(opening_ai_black_edge(RULE_STANDARD) > 0);
    assert_int_equal(opening_ai_black_edge(RULE_RENJU), 0);
    Engine *e = small_engine();
    int flipped = 0;
    for (int i = 0; i < OPENING_BOOK_FREE_COUNT; i++) {
        Board b;
        board_init(&b, 15, RULE_STANDARD);
        play_list(&b, OPENING_BOOK_FREE[i]);
        SearchLimits l;
        search_limits_init(&l);
        l.depth = 4;
        SearchResult r;
        engine_clear_hash(e);
        assert_true(engine_set_position(e, &b, WHITE, NULL));
        assert_true(engine_think(e, &l, NULL, NULL, &r));
        int raw = -r.score, s = 0;
        OpeningAI ai;
        fixed_depth(&ai, e, 4);
        engine_clear_hash(e);
        bool black = opening_ai_take_black(&ai, &b, WHITE, &s);
        assert_int_equal(s, raw + opening_ai_black_edge(RULE_STANDARD));
        assert_int_equal(black, s > 0);
        flipped += black && raw <= 0;
    }
    assert_true(flipped > 0);
    engine_free(e);
}

static int int_cmp(const void *a, const void *b)
{
    return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

/* Freestyle swap2: the 26 renju openings mostly leave black well ahead, so
 * the opener's free three stones (from the book) must come out more balanced
 * than a typical one of them: over a few seeds, by the same fixed-depth
 * search, their mean distance from even below the median of the 26. (One
 * comparison with the single most balanced of the 26 was too shallow a test:
 * a change of evaluation flipped it.) */
static void test_free_three_balanced(void **state)
{
    (void)state;
    Engine *e = small_engine();
    OpeningAI ai;
    enum { DEPTH = 7, SEEDS = 4 };
    Point free3[3];
    int std_abs[OPENINGS_COUNT];
    for (int i = 0; i < OPENINGS_COUNT; i++) {
        Point p[3];
        assert_true(opening_points(i, 15, p));
        std_abs[i] = abs(opening_score(e, RULE_FREESTYLE, p, DEPTH));
    }
    qsort(std_abs, OPENINGS_COUNT, sizeof *std_abs, int_cmp);
    int median = (std_abs[OPENINGS_COUNT / 2 - 1] + std_abs[OPENINGS_COUNT / 2]) / 2, sum = 0;
    for (uint64_t seed = 1; seed <= SEEDS; seed++) {
        fixed_depth(&ai, e, 5);
        ai.seed = seed;
        assert_true(opening_ai_free_three(&ai, 15, RULE_FREESTYLE, free3));
        sum += abs(opening_score(e, RULE_FREESTYLE, free3, DEPTH));
    }
    if (sum >= median * SEEDS)
        fail_msg("free openings score %d from even on average, the median of the 26 %d",
                 sum / SEEDS, median);
    /* Drawn from the book by the seed, moved to the centre of a 20x20 board:
     * on the board, and not the same opening every game. Caro has no book:
     * its opener searches from the centre. */
    int differ = 0;
    Point first[3];
    for (uint64_t seed = 1; seed <= 6; seed++) {
        fixed_depth(&ai, e, 1);
        ai.seed = seed;
        Point p[3];
        assert_true(opening_ai_free_three(&ai, 20, RULE_STANDARD, p));
        Board b;
        board_init(&b, 20, RULE_STANDARD);
        for (int i = 0; i < 3; i++) {
            assert_true(board_on(&b, p[i]) && b.cell[p[i]] == EMPTY);
            assert_true(abs(point_x(p[i]) - 10) <= 5 && abs(point_y(p[i]) - 10) <= 5);
            board_play(&b, p[i], i == 1 ? WHITE : BLACK);
        }
        if (seed == 1)
            memcpy(first, p, sizeof first);
        else
            differ += memcmp(first, p, sizeof first) != 0;
    }
    assert_true(differ > 0);
    fixed_depth(&ai, e, 1);
    assert_true(opening_ai_free_three(&ai, 15, RULE_CARO, free3));
    assert_int_equal(free3[0], pt("h8", 15));
    engine_free(e);
}

/* Stone by stone, whatever seed each stone gets, the book opener ends on one
 * of the book's openings (moved to the board's centre); it has nothing for
 * renju or for stones off the book. */
static void test_book_stones(void **state)
{
    (void)state;
    for (uint64_t seed = 0; seed < 12; seed++) {
        int size = seed % 2 ? 20 : 15, shift = size / 2 - 7;
        Board b;
        board_init(&b, size, seed % 3 ? RULE_FREESTYLE : RULE_STANDARD);
        for (int i = 0; i < 3; i++) {
            Point p;
            assert_true(opening_ai_book_stone(&b, seed * 7 + (uint64_t)i, &p));
            assert_true(board_on(&b, p) && b.cell[p] == EMPTY);
            board_play(&b, p, i == 1 ? WHITE : BLACK);
        }
        Point q;
        assert_false(opening_ai_book_stone(&b, seed, &q)); /* three is all */
        assert_book_opening(&b, shift);
    }
    Board b;
    Point q;
    board_init(&b, 15, RULE_RENJU);
    assert_false(opening_ai_book_stone(&b, 1, &q));
    board_init(&b, 15, RULE_FREESTYLE);
    board_play(&b, pt("a1", 15), BLACK);
    assert_false(opening_ai_book_stone(&b, 1, &q));
}

/* The engine as the opener of a freestyle swap2 game (the boards' autoplay)
 * puts down a book opening, one decision a stone. */
static void test_autoplay_opener_uses_book(void **state)
{
    (void)state;
    Engine *e = small_engine();
    Game g;
    test_game(&g, RULE_FREESTYLE, OPENING_SWAP2, 15);
    autoplay_stones(e, &g, 3, 50, 1000);
    const Board *b = game_board(&g, 0);
    assert_int_equal(b->count, 3);
    assert_book_opening(b, 0);
    game_free(&g);
    engine_free(e);
}

/* A first stone that may go anywhere (renju and caro have no book) goes on
 * the game's centre, the one its centre rules name: on an even board the
 * lower-left of the middle four, not the point above and right of it. */
static void test_autoplay_first_stone_centre(void **state)
{
    (void)state;
    Engine *e = small_engine();
    const struct {
        Rule rule;
        Opening opening;
        int size;
    } cases[] = {{RULE_RENJU, OPENING_SWAP2, 16},
                 {RULE_CARO, OPENING_SWAP3, 20},
                 {RULE_RENJU, OPENING_SWAP1, 15}};
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        Game g;
        test_game(&g, cases[k].rule, cases[k].opening, cases[k].size);
        autoplay_stones(e, &g, 1, 20, 7);
        const Board *b = game_board(&g, 0);
        assert_int_equal(b->count, 1);
        assert_int_equal(b->history[0], opening_center(cases[k].size));
        game_free(&g);
    }
    engine_free(e);
}

/* What an autoplay decision's searches reported: how many reports, how many
 * of them for N-best lines after the first, the last best move. */
typedef struct {
    int reports, nbest_reports;
    Point last;
} Reports;

static void count_reports(const SearchInfo *info, void *user)
{
    Reports *r = user;
    r->reports++;
    if (info->line_index > 0)
        r->nbest_reports++;
    else
        r->last = info->line.move;
}

/* RIF's and Yamaguchi's 4th has no colour choice after it: the engine plays
 * its best move (one ordinary search, its best move played), not a
 * balanced stone (N-best searches); Soosorv's 4th, which a swap follows,
 * stays balanced. */
static void test_autoplay_fourth_is_a_move(void **state)
{
    (void)state;
    Engine *e = small_engine();
    static const struct {
        Opening opening;
        const char *script;
        bool balanced;
    } cases[] = {
        {OPENING_RIF, "h8 i9 f6 noswap", false},
        {OPENING_YAMAGUCHI, "h8 i9 f6 declare 2 noswap", false},
        {OPENING_SOOSORV8, "h8 i9 f6 noswap", true},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        Game g;
        TgError err = {0};
        test_game(&g, RULE_RENJU, cases[k].opening, 15);
        assert_int_equal(test_play(&g, cases[k].script, &err), 0);
        assert_int_equal(game_board(&g, 0)->count, 3);
        Reports r = {0, 0, POINT_NONE};
        Autoplay ap = {.engine = e, .ms = 60, .progress = count_reports, .user = &r};
        Action a;
        assert_true(autoplay_decide(&ap, &g, &a, &err));
        assert_int_equal(a.type, ACT_PLACE);
        assert_true(r.reports > 0);
        if (cases[k].balanced != (r.nbest_reports > 0))
            fail_msg("%s: %d N-best reports for the 4th", opening_name(cases[k].opening), r.nbest_reports);
        if (!cases[k].balanced)
            assert_int_equal(a.point, r.last);
        assert_true(game_apply(&g, &a, &err));
        game_free(&g);
    }
    engine_free(e);
}

/* A designated opening's stones follow no colour choice: the engine puts
 * them down as moves, each one the designated shape allows. */
static void test_autoplay_designated(void **state)
{
    (void)state;
    Engine *e = small_engine();
    for (int k = 0; k < OPENINGS_COUNT; k += 5) {
        GameConfig cfg;
        variant_default(&cfg);
        cfg.rule = RULE_RENJU;
        cfg.opening = OPENING_DESIGNATED;
        cfg.designated = k;
        Game g;
        assert_true(game_init(&g, &cfg, NULL));
        assert_false(game_choice_ahead(&g));
        autoplay_stones(e, &g, 3, 40, 1);
        GameTurn t;
        game_turn(&g, &t);
        assert_int_equal(t.step, STEP_PLAY);
        assert_int_equal(game_board(&g, 0)->count, 3);
        game_free(&g);
    }
    engine_free(e);
}

/* A stone that may go anywhere (Soosorv's 4th, balanced; RIF's, an
 * ordinary move) is chosen near the stones, never far out where only a
 * shallow search calls it balanced. */
static void test_autoplay_fourth_near_stones(void **state)
{
    (void)state;
    Engine *e = small_engine();
    const Opening rules[] = {OPENING_SOOSORV8, OPENING_RIF};
    for (int k = 0; k < 2; k++) {
        Game g;
        test_game(&g, RULE_RENJU, rules[k], 15);
        TgError err = {0};
        const char *three[] = {"h8", "i9", "f6"};
        for (int i = 0; i < 3; i++) {
            Action a = game_action_place(0, pt(three[i], 15));
            assert_true(game_apply(&g, &a, &err));
        }
        Action keep = game_action(ACT_NOSWAP);
        assert_true(game_apply(&g, &keep, &err));
        Autoplay ap = {.engine = e, .ms = 60};
        Action a;
        assert_true(autoplay_decide(&ap, &g, &a, &err));
        assert_int_equal(a.type, ACT_PLACE);
        const Board *b = game_board(&g, 0);
        int dist = 99;
        for (int i = 0; i < b->count; i++) {
            int dx = abs(point_x(a.point) - point_x(b->history[i]));
            int dy = abs(point_y(a.point) - point_y(b->history[i]));
            int d = dx > dy ? dx : dy;
            dist = d < dist ? d : dist;
        }
        if (dist > 2)
            fail_msg("%s: the 4th stone is %d lines from the nearest stone", opening_name(rules[k]),
                     dist);
        assert_true(game_apply(&g, &a, &err));
        game_free(&g);
    }
    engine_free(e);
}

static void assert_near(double got, double want, double tol)
{
    if (fabs(got - want) > tol)
        fail_msg("got %.4f, want %.4f +- %.4f", got, want, tol);
}

/* Expected intervals were computed independently in python3: Wilson's closed
 * form (p + z^2/2n -+ z sqrt(p(1-p)/n + z^2/4n^2)) / (1 + z^2/n) with
 * z = 1.959964 when there are no draws; with draws, a scan over p of
 * n (m - p)^2 / (p (1 - p) - d/4), the draw rate d maximising the trinomial
 * likelihood found by ternary search, ends refined by bisection. */
static void test_elo(void **state)
{
    (void)state;
    MatchElo e;
    MatchScore even = {10, 10, 0}; /* Wilson: 0.2993..0.7007 */
    match_elo(&even, &e);
    assert_true(fabs(e.elo) < 1e-9);
    assert_near(e.lo, -147.772, 0.01);
    assert_near(e.hi, 147.772, 0.01);
    /* 75% is 400*log10(3) = 190.8 Elo; Wilson 0.5313..0.8881. */
    MatchScore s75 = {15, 5, 0};
    match_elo(&s75, &e);
    assert_near(e.elo, 190.849, 0.01);
    assert_near(e.lo, 21.777, 0.01);
    assert_near(e.hi, 359.920, 0.01);
    /* A sweep: no upper bound, but the lower one is n / (n + z^2). */
    MatchScore all = {4, 0, 0};
    match_elo(&all, &e);
    assert_true(isinf(e.elo) && e.elo > 0 && isinf(e.hi) && e.hi > 0);
    assert_near(e.lo, 7.026, 0.01);
    MatchScore all40 = {40, 0, 0};
    match_elo(&all40, &e);
    assert_near(e.lo, 407.026, 0.01);
    MatchScore none = {0, 4, 0};
    match_elo(&none, &e);
    assert_true(isinf(e.elo) && e.elo < 0 && isinf(e.lo) && e.lo < 0);
    assert_near(e.hi, -7.026, 0.01);
    /* All draws: d = 2 (1 - p) above 1/2, so the upper end solves
     * n (p - 1/2) / (1 - p) = z^2: p = 0.695167. */
    MatchScore draws = {0, 0, 6};
    match_elo(&draws, &e);
    assert_true(fabs(e.score - 0.5) < 1e-9);
    assert_near(e.lo, -143.211, 0.01);
    assert_near(e.hi, 143.211, 0.01);
    /* Draws narrow the interval against Wilson's on the same score. */
    MatchScore mixed = {30, 20, 10}; /* wins, losses, draws */
    match_elo(&mixed, &e);
    assert_near(e.elo, 58.451, 0.01);
    assert_near(e.lo, -22.319, 0.01);
    assert_near(e.hi, 138.731, 0.01);
    MatchScore lopsided = {12, 0, 3}; /* no losses, yet both ends finite */
    match_elo(&lopsided, &e);
    assert_near(e.elo, 381.697, 0.01);
    assert_near(e.lo, 161.070, 0.01);
    assert_near(e.hi, 574.965, 0.01);
    MatchScore empty = {0, 0, 0};
    match_elo(&empty, &e);
    assert_true(e.elo == 0 && isinf(e.lo) && isinf(e.hi));
}

static void test_sprt(void **state)
{
    (void)state;
    MatchSprt t = {0, 50, 0.05, 0.05};
    double llr, lo, hi;
    MatchScore few = {3, 2, 1};
    assert_int_equal(match_sprt(&t, &few, &llr, &lo, &hi), SPRT_CONTINUE);
    assert_true(fabs(lo + 2.944) < 0.01 && fabs(hi - 2.944) < 0.01);
    MatchScore strong = {300, 100, 50};
    assert_int_equal(match_sprt(&t, &strong, &llr, &lo, &hi), SPRT_H1);
    MatchScore weak = {100, 300, 50};
    assert_int_equal(match_sprt(&t, &weak, &llr, &lo, &hi), SPRT_H0);
    MatchScore sweep = {40, 0, 0}; /* no variance at all must still decide */
    assert_int_equal(match_sprt(&t, &sweep, &llr, &lo, &hi), SPRT_H1);
}

static void test_openings_reader(void **state)
{
    (void)state;
    MatchOpening *o;
    int n;
    TgError err;
    assert_true(match_read_openings("# comment\nh8 h9 j10\n\n  i9 k7 # tail\n", 15, RULE_RENJU, &o,
                                    &n, &err));
    assert_int_equal(n, 2);
    assert_int_equal(o[0].len, 3);
    assert_int_equal(o[0].p[2], pt("j10", 15));
    assert_int_equal(o[1].len, 2);
    free(o);
    assert_false(match_read_openings("h8 h9\nh8 z99\n", 15, RULE_RENJU, &o, &n, &err));
    assert_int_equal(err.line, 2);
    assert_int_equal(err.col, 2);
    assert_false(match_read_openings("h8 h8\n", 15, RULE_RENJU, &o, &n, &err));
    assert_non_null(strstr(err.msg, "taken"));
    assert_false(match_read_openings("a1 b1 a2 b2 a3 b3 a4 b4 a5\n", 15, RULE_RENJU, &o, &n, &err));
    assert_non_null(strstr(err.msg, "five"));
    /* A line too long to read whole is refused, not cut short. */
    char longline[1200];
    int k = snprintf(longline, sizeof longline, "h8 h9\nh8");
    memset(longline + k, ' ', 1100);
    strcpy(longline + k + 1100, "i9\n");
    assert_false(match_read_openings(longline, 15, RULE_RENJU, &o, &n, &err));
    assert_int_equal(err.line, 2);
    assert_non_null(strstr(err.msg, "longer than"));
    longline[k + 1010] = '\0';
    strcat(longline, "i9\n");
    assert_true(match_read_openings(longline, 15, RULE_RENJU, &o, &n, &err));
    assert_int_equal(n, 2);
    assert_int_equal(o[1].len, 2);
    free(o);
}

static void test_psq(void **state)
{
    (void)state;
    MatchGame *g = calloc(1, sizeof *g);
    assert_non_null(g);
    g->count = 2;
    g->opening = 1;
    g->moves[0] = point_make(7, 7);
    g->moves[1] = point_make(0, 14);
    g->ms[1] = 42;
    snprintf(g->name[0], sizeof g->name[0], "one");
    snprintf(g->name[1], sizeof g->name[1], "two");
    char *s = match_game_psq(g, 15);
    assert_string_equal(s, "Piskvorky 15x15, 11:11, 0\n8,8,0\n1,15,42\none\ntwo\n-1\n");
    free(s);
    free(g);
}

/* A reply line has one of the protocol's shapes: a status word, a tagged
 * line, a count, or points x,y on the largest board. */
static bool reply_ok(const char *line)
{
    static const char *const TAGS[] = {"ERROR ", "MESSAGE ", "DEBUG ", "FORBID ", "name=\"",
                                       "OFFER ", "PLACE "};
    static const char *const WORDS[] = {"OK", "SWAP", "NOSWAP"};
    for (size_t i = 0; i < sizeof TAGS / sizeof *TAGS; i++)
        if (!strncmp(line, TAGS[i], strlen(TAGS[i])))
            return true;
    for (size_t i = 0; i < sizeof WORDS / sizeof *WORDS; i++)
        if (!strcmp(line, WORDS[i]))
            return true;
    const char *p = line;
    int count, k = 0;
    if (sscanf(p, "%d%n", &count, &k) == 1 && p[k] == '\0')
        return count > 0;
    int points = 0;
    while (*p) {
        int x, y;
        k = 0;
        if (!isdigit((unsigned char)*p) || sscanf(p, "%d,%d%n", &x, &y, &k) != 2 || x < 0 || y < 0 || x >= BOARD_MAX_SIZE ||
            y >= BOARD_MAX_SIZE)
            return false;
        p += k;
        points++;
        if (*p == ' ')
            p++;
        else if (*p)
            return false;
    }
    return points > 0;
}

/* Appends a random command (and its block) to buf: valid ones, bad values,
 * bad lines inside blocks, unknown words. */
static void soup_command(Rng *r, char *buf, size_t cap)
{
    static const char *const PLAIN[] = {
        "BEGIN",        "RESTART",     "ABOUT",          "END",          "STOP",
        "YXSTOP",       "YXNBEST 2",   "YXNBEST 0",      "YXSEARCHDEFEND", "YXBALANCEONE 0",
        "YXBALANCETWO 5", "YXSHOWFORBID", "YXHASHCLEAR", "YXDRAW",       "YXSHOWINFO",
        "YXBLOCKRESET", "TAKEBACK",    "PLAY",           "TURN",         "TURN 3",
        "RECTSTART 15,15", "RECTSTART 15,9", "START 15",  "START 20",     "START 9",
        "START 4",      "START x",     "INFO rule 0",    "INFO rule 1",  "INFO rule 4",
        "INFO rule 8",  "INFO rule x", "INFO thread_num 2", "INFO thread_num 1",
        "INFO hash_size 2048", "INFO max_memory 41943040", "INFO time_left -3",
        "INFO max_node -5", "INFO bogus 1", "INFO", "NONSENSE 1 2", "",
    };
    static const char *const BLOCKS[] = {"BOARD",         "YXBOARD",    "SWAP2BOARD",
                                         "YXBLOCK",       "YXBLOCKUNDO", "YXQUERYDATABASEALL",
                                         "TGOPENING place3", "TGOPENING swap", "TGOPENING declare 3",
                                         "TGOPENING propose 2", "TGOPENING balance 2",
                                         "TGOPENING offer 2", "TGOPENING choose 7,7 8,8",
                                         "TGOPENING nope"};
    size_t n = strlen(buf);
    int kind = rng_below(r, 10);
    if (kind < 4) {
        snprintf(buf + n, cap - n, "%s\n", PLAIN[rng_below(r, (int)(sizeof PLAIN / sizeof *PLAIN))]);
        return;
    }
    if (kind < 6) {
        static const char *const MOVE[] = {"TURN", "PLAY", "TAKEBACK"};
        snprintf(buf + n, cap - n, "%s %d,%d\n", MOVE[rng_below(r, 3)], rng_below(r, 24) - 1,
                 rng_below(r, 24) - 1);
        return;
    }
    n += (size_t)snprintf(buf + n, cap - n, "%s\n",
                          BLOCKS[rng_below(r, (int)(sizeof BLOCKS / sizeof *BLOCKS))]);
    int lines = rng_below(r, 9);
    for (int i = 0; i < lines && n < cap; i++) {
        int x = 5 + rng_below(r, 7), y = 5 + rng_below(r, 7);
        switch (rng_below(r, 24)) {
        case 0:
            n += (size_t)snprintf(buf + n, cap - n, "%d,%d,%d\n", x + 20, y, 1);
            break;
        case 1:
            n += (size_t)snprintf(buf + n, cap - n, "x%d\n", x);
            break;
        default:
            n += (size_t)snprintf(buf + n, cap - n, "%d,%d,%d\n", x, y, 1 + rng_below(r, 3));
        }
    }
    if (n < cap)
        snprintf(buf + n, cap - n, "%s", rng_below(r, 20) ? "DONE\n" : "");
}

/* Random command soup under tight limits: the brain must come through every
 * session (no crash, hang or stray output), answering in the protocol's shapes. */
static void test_command_soup(void **state)
{
    (void)state;
    Rng r;
    rng_seed(&r, 2026);
    static char input[16384];
    for (int session = 0; session < 60; session++) {
        snprintf(input, sizeof input, "START 15\nINFO max_node 300\nINFO timeout_turn 40\n");
        int commands = 5 + rng_below(&r, 30);
        for (int c = 0; c < commands && strlen(input) + 512 < sizeof input; c++)
            soup_command(&r, input, sizeof input);
        char *out = converse(input);
        assert_non_null(out);
        char *save = NULL;
        for (char *line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
            if (!reply_ok(line))
                fail_msg("session %d: stray reply '%s' to:\n%s", session, line, input);
        free(out);
    }
}

static void test_reply_shapes(void **state)
{
    (void)state;
    assert_true(reply_ok("OK"));
    assert_true(reply_ok("7,7"));
    assert_true(reply_ok("7,7 8,8 21,0"));
    assert_true(reply_ok("3"));
    assert_true(reply_ok("ERROR x"));
    assert_false(reply_ok("7,7,"));
    assert_false(reply_ok("22,1"));
    assert_false(reply_ok("7,7  8,8"));
    assert_false(reply_ok("0"));
    assert_false(reply_ok("hello"));
    assert_false(reply_ok(""));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rule_bits),     cmocka_unit_test(test_streams),
        cmocka_unit_test(test_symmetry),      cmocka_unit_test(test_proposals_distinct), cmocka_unit_test(test_free_three_balanced), cmocka_unit_test(test_book_stones), cmocka_unit_test(test_autoplay_opener_uses_book),
        cmocka_unit_test(test_autoplay_fourth_near_stones),
        cmocka_unit_test(test_autoplay_fourth_is_a_move),
        cmocka_unit_test(test_autoplay_designated),
        cmocka_unit_test(test_autoplay_first_stone_centre),
        cmocka_unit_test(test_black_edge),
        cmocka_unit_test(test_offer_decisions),
        cmocka_unit_test(test_autoplay_rif_opener),
        cmocka_unit_test(test_region_matches_game),
        cmocka_unit_test(test_elo),           cmocka_unit_test(test_sprt),
        cmocka_unit_test(test_openings_reader), cmocka_unit_test(test_psq),
        cmocka_unit_test(test_reply_shapes), cmocka_unit_test(test_command_soup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
