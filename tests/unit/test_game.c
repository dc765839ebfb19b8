/* The game state machine: every opening rule played through, with the wrong
 * actions each must refuse; forbidden modes; every result reason; undo/redo. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "../support/play_script.h"
#include "tengen/coord.h"
#include "tengen/game.h"
#include "tengen/openings.h"

static Point pt(const char *s)
{
    Point p = POINT_NONE;
    assert_true(coord_parse(s, 15, &p, NULL));
    return p;
}

/* Plays a script that must be legal throughout. */
static void ok(Game *g, const char *script)
{
    TgError err = {0};
    int bad = test_play(g, script, &err);
    if (bad)
        fail_msg("action %d of \"%s\" refused: %s", bad, script, err.msg);
}

/* The one action must be refused with a message containing `why`; nothing changes. */
static void refused(Game *g, const char *token, const char *why)
{
    TgError err = {0};
    int before = game_history_count(g);
    int count = g->board[0].count;
    if (test_play(g, token, &err) != 1)
        fail_msg("'%s' was accepted", token);
    if (!strstr(err.msg, why))
        fail_msg("'%s' refused with \"%s\", expected \"%s\"", token, err.msg, why);
    assert_int_equal(game_history_count(g), before);
    assert_int_equal(g->board[0].count, count);
}

static void expect_status(const Game *g, const char *want)
{
    char buf[320];
    game_status_text(g, buf, sizeof buf);
    if (strcmp(buf, want) != 0)
        fail_msg("status \"%s\", expected \"%s\"", buf, want);
}

static void expect_turn(const Game *g, int player, Color color, GameStep step)
{
    GameTurn t;
    game_turn(g, &t);
    assert_int_equal(t.player, player);
    assert_int_equal(t.color, color);
    assert_int_equal(t.step, step);
}

/* ---- openings table ---- */

static void test_openings_table(void **state)
{
    (void)state;
    assert_int_equal(opening_lookup("4D"), 3);
    assert_int_equal(opening_lookup("kagetsu"), 3);
    assert_int_equal(opening_lookup("Flower Moon"), 3);
    assert_int_equal(opening_lookup("flower-moon"), 3);
    assert_int_equal(opening_lookup("花月"), 3);
    assert_int_equal(opening_lookup("Cold Star"), 0);
    assert_int_equal(opening_lookup("7I"), 19);
    assert_int_equal(opening_lookup("Hogetsu"), 19);
    assert_int_equal(opening_lookup("13i"), 25);
    assert_int_equal(opening_lookup("nonsense"), -1);
    assert_string_equal(opening_info(0)->english, "Cold Star");
    assert_null(opening_info(26));
    /* Every opening is recognised at its own coordinates, and names are unique. */
    for (int i = 0; i < OPENINGS_COUNT; i++) {
        Point p[3];
        assert_true(opening_points(i, 15, p));
        assert_int_equal(opening_identify(p[0], p[1], p[2]), i);
        for (int j = 0; j < i; j++)
            assert_string_not_equal(opening_info(i)->english, opening_info(j)->english);
    }
}

/* All 23 third moves after a direct or indirect start name some opening, and
 * each of the 13 of that kind is reached. */
static void test_openings_cover_5x5(void **state)
{
    (void)state;
    const char *second[2] = {"h9", "i9"};
    for (int k = 0; k < 2; k++) {
        int seen[OPENINGS_COUNT] = {0};
        for (int dx = -2; dx <= 2; dx++)
            for (int dy = -2; dy <= 2; dy++) {
                Point p3 = point_make(7 + dx, 7 - dy);
                if (p3 == pt("h8") || p3 == pt(second[k]))
                    continue;
                int i = opening_identify(pt("h8"), pt(second[k]), p3);
                assert_true(i >= 13 * k && i < 13 * k + 13);
                seen[i]++;
            }
        for (int i = 13 * k; i < 13 * k + 13; i++)
            assert_true(seen[i] >= 1 && seen[i] <= 2);
    }
    /* Outside the 5x5 square: no opening. */
    assert_int_equal(opening_identify(pt("h8"), pt("h9"), pt("h11")), -1);
}

/* The same opening turned and moved anywhere is still that opening. */
static void test_openings_symmetries(void **state)
{
    (void)state;
    /* Kagetsu h8 h9 i9, turned a quarter: h8 g8 g9; mirrored: h8 h9 g9; moved to c3. */
    assert_int_equal(opening_identify(pt("h8"), pt("g8"), pt("g9")), 3);
    assert_int_equal(opening_identify(pt("h8"), pt("h9"), pt("g9")), 3);
    assert_int_equal(opening_identify(pt("h8"), pt("h7"), pt("g7")), 3);
    assert_int_equal(opening_identify(pt("c3"), pt("c4"), pt("d4")), 3);
    /* Uragetsu h8 i9 i7 mirrored in the / diagonal: h8 i9 g9. */
    assert_int_equal(opening_identify(pt("h8"), pt("i9"), pt("g9")), 19);
    assert_int_equal(opening_identify(pt("h8"), pt("g7"), pt("g9")), 19);
}

/* ---- symmetric 5th moves ---- */

static void test_fifth_symmetry(void **state)
{
    (void)state;
    Point st[4] = {pt("h8"), pt("h9"), pt("h7"), pt("h6")};
    Color co[4] = {BLACK, WHITE, BLACK, WHITE};
    const char *sym[4] = {"g8", "i8", "g7", "i7"};
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            if (i != j)
                assert_true(opening_symmetric(st, co, 4, pt(sym[i]), pt(sym[j]), NULL));
    assert_false(opening_symmetric(st, co, 4, pt("g8"), pt("j8"), NULL));
    assert_false(opening_symmetric(st, co, 4, pt("g8"), pt("h10"), NULL));
    assert_true(opening_symmetric(st, co, 4, pt("h10"), pt("h5"), NULL));
    /* Colour matters: with h6 black the row mirror no longer works. */
    Color co2[4] = {BLACK, WHITE, BLACK, BLACK};
    assert_false(opening_symmetric(st, co2, 4, pt("g8"), pt("g7"), NULL));
    assert_true(opening_symmetric(st, co2, 4, pt("g8"), pt("i8"), NULL));

    Isometry iso;
    char buf[128];
    assert_true(opening_symmetric(st, co, 4, pt("g8"), pt("i8"), &iso));
    opening_isometry_text(&iso, 15, buf, sizeof buf);
    assert_string_equal(buf, "a mirror in column h");
    assert_true(opening_symmetric(st, co, 4, pt("g8"), pt("g7"), &iso));
    opening_isometry_text(&iso, 15, buf, sizeof buf);
    assert_string_equal(buf, "a mirror between rows 7 and 8");
    assert_true(opening_symmetric(st, co, 4, pt("g8"), pt("i7"), &iso));
    opening_isometry_text(&iso, 15, buf, sizeof buf);
    assert_string_equal(buf, "a half turn about the middle of h7 and h8");
    /* A square of four stones, black on one diagonal: a half turn and two
     * diagonal mirrors, but no quarter turn. */
    Point sq[4] = {pt("h8"), pt("i8"), pt("i9"), pt("h9")};
    Color sc[4] = {BLACK, WHITE, BLACK, WHITE};
    assert_false(opening_symmetric(sq, sc, 4, pt("h10"), pt("g8"), NULL));
    assert_true(opening_symmetric(sq, sc, 4, pt("h10"), pt("i7"), &iso));
    assert_int_equal(iso.linear, 3);
    assert_true(opening_symmetric(sq, sc, 4, pt("h10"), pt("j8"), &iso));
    opening_isometry_text(&iso, 15, buf, sizeof buf);
    assert_string_equal(buf, "a mirror in the / diagonal through h8");
    assert_true(opening_symmetric(sq, sc, 4, pt("h10"), pt("g9"), &iso));
    opening_isometry_text(&iso, 15, buf, sizeof buf);
    assert_string_equal(buf, "a mirror in the \\ diagonal through h9");
    /* All black: the quarter turn about the square's centre appears. */
    Color same[4] = {BLACK, BLACK, BLACK, BLACK};
    assert_true(opening_symmetric(sq, same, 4, pt("h10"), pt("g8"), &iso));
    opening_isometry_text(&iso, 15, buf, sizeof buf);
    assert_string_equal(buf, "a quarter turn anticlockwise about the centre of the square h8-i9");
}

/* ---- free and centre ---- */

static void test_free_five(void **state)
{
    (void)state;
    Game g;
    test_game(&g, RULE_RENJU, OPENING_FREE, 0);
    expect_status(&g, "ongoing: black (first player) to play move 1");
    ok(&g, "a1 h9 b2 h10 c3 h11 d4 h12");
    refused(&g, "swap", "black (first player) to play move 9");
    refused(&g, "h9", "h9 is occupied");
    refused(&g, "propose a5,a6", "to play move 9");
    refused(&g, "2:e5", "no board 2");
    ok(&g, "e5");
    const GameResult *r = game_result(&g);
    assert_int_equal(r->reason, REASON_FIVE);
    assert_int_equal(r->winner, BLACK);
    assert_int_equal(r->nstones, 5);
    expect_status(&g, "black wins: five a1-e5 (move 9 at e5)");
    refused(&g, "f6", "the game is over");
    game_free(&g);
}

static void test_center_opening(void **state)
{
    (void)state;
    Game g;
    test_game(&g, RULE_FREESTYLE, OPENING_CENTER, 0);
    expect_status(&g, "ongoing: black (first player) to place move 1 (black) on the centre h8");
    refused(&g, "a1", "move 1 goes on the centre (h8), not a1");
    refused(&g, "pass", "on the centre");
    ok(&g, "h8 a1 pass");
    expect_turn(&g, 1, WHITE, STEP_PLAY);
    game_free(&g);
}

/* ---- swap after 3 / swap1 ---- */

static void test_swap3(void **state)
{
    (void)state;
    Opening kinds[2] = {OPENING_SWAP3, OPENING_SWAP1};
    for (int k = 0; k < 2; k++) {
        Game g;
        test_game(&g, RULE_RENJU, kinds[k], 0);
        ok(&g, "a1 b2");
        expect_turn(&g, 0, BLACK, STEP_PLACE); /* the opener places white 2 as well */
        refused(&g, "swap", "to place move 3");
        ok(&g, "o15");
        expect_turn(&g, 1, WHITE, STEP_COLOR);
        expect_status(&g, "ongoing: white (second player) to choose colours: swap or noswap");
        refused(&g, "declare 2", "swap or noswap");
        ok(&g, "swap");
        /* The opener now holds white and plays 4. */
        expect_turn(&g, 0, WHITE, STEP_PLAY);
        refused(&g, "swap", "to play move 4");
        ok(&g, "h8");
        expect_turn(&g, 1, BLACK, STEP_PLAY);
        game_free(&g);
    }
    /* Playing on keeps the colours. */
    Game g;
    test_game(&g, RULE_RENJU, OPENING_SWAP3, 0);
    ok(&g, "a1 b2 o15 h8");
    expect_turn(&g, 0, BLACK, STEP_PLAY);
    game_free(&g);
}

/* ---- designated ---- */

static void test_designated(void **state)
{
    (void)state;
    GameConfig cfg;
    variant_default(&cfg);
    cfg.opening = OPENING_DESIGNATED;
    cfg.designated = opening_lookup("Kagetsu");
    Game g;
    assert_true(game_init(&g, &cfg, NULL));
    expect_status(&g, "ongoing: black (first player) to place move 1 (black) of the designated "
                      "opening Kagetsu (4D)");
    refused(&g, "h9", "move 1 of an opening goes on the centre, not h9");
    ok(&g, "h8");
    expect_turn(&g, 1, WHITE, STEP_PLACE);
    refused(&g, "i9", "white 2 goes orthogonally");
    refused(&g, "h10", "next to move 1");
    ok(&g, "g8");
    refused(&g, "h9", "does not make the designated opening Kagetsu (4D)");
    refused(&g, "swap", "designated opening");
    ok(&g, "g9"); /* Kagetsu turned a quarter */
    expect_turn(&g, 1, WHITE, STEP_PLAY);
    game_free(&g);

    cfg.designated = 99;
    TgError err;
    assert_false(game_init(&g, &cfg, &err));
    assert_non_null(strstr(err.msg, "not one of the 26"));
    /* No opening named: any of the 26. */
    cfg.designated = -1;
    assert_true(game_init(&g, &cfg, NULL));
    ok(&g, "h8 i9");
    refused(&g, "k8", "does not make one of the 26 openings");
    ok(&g, "f6 a1");
    game_free(&g);
}

/* ---- RIF ---- */

static void test_rif(void **state)
{
    (void)state;
    Game g;
    test_game(&g, RULE_RENJU, OPENING_RIF, 0);
    refused(&g, "a1", "move 1 goes on the centre (h8), not a1");
    refused(&g, "swap", "to place move 1");
    refused(&g, "pass", "to place move 1");
    ok(&g, "h8");
    refused(&g, "h10", "within the central 3x3 square; h10 does not");
    ok(&g, "h9");
    expect_turn(&g, 0, BLACK, STEP_PLACE);
    refused(&g, "h5", "within the central 5x5 square; h5 does not");
    refused(&g, "h9", "h9 is occupied");
    ok(&g, "h7");
    expect_turn(&g, 1, WHITE, STEP_COLOR);
    refused(&g, "propose g8,j8", "swap or noswap");
    refused(&g, "declare 2", "swap or noswap");
    ok(&g, "noswap");
    expect_turn(&g, 1, WHITE, STEP_PLACE);
    refused(&g, "noswap", "to place move 4");
    ok(&g, "h6");
    expect_turn(&g, 0, BLACK, STEP_PROPOSE);
    expect_status(&g, "ongoing: black (first player) to propose 2 5th moves");
    refused(&g, "j8", "propose 2 5th moves");
    refused(&g, "propose j8", "2 5th moves must be proposed, not 1");
    refused(&g, "propose j8,h9", "h9 is occupied");
    refused(&g, "propose j8,j8", "proposed twice");
    refused(&g, "propose g8,i8",
            "5th moves g8 and i8 are symmetric: a mirror in column h maps the 4 stones onto "
            "themselves and g8 onto i8");
    refused(&g, "propose g8,i7", "a half turn about the middle of h7 and h8");
    refused(&g, "pass", "propose 2 5th moves");
    ok(&g, "propose g8,j8");
    expect_turn(&g, 1, WHITE, STEP_CHOOSE);
    expect_status(&g, "ongoing: white (second player) to choose one of the 5th moves g8, j8");
    refused(&g, "g8", "choose one of the 5th moves g8, j8");
    refused(&g, "choose i8", "choose one of the 5th moves g8, j8");
    ok(&g, "choose j8");
    assert_int_equal(board_at(&g.board[0], pt("j8")), BLACK);
    assert_int_equal(board_at(&g.board[0], pt("g8")), EMPTY);
    expect_turn(&g, 1, WHITE, STEP_PLAY);
    refused(&g, "pass", "no pass during the opening (before the 6th stone)");
    ok(&g, "a1 pass");
    expect_turn(&g, 1, WHITE, STEP_PLAY);
    game_free(&g);

    /* With a swap the opener plays white 4. */
    test_game(&g, RULE_RENJU, OPENING_RIF, 0);
    ok(&g, "h8 i9 j8 swap");
    expect_turn(&g, 0, WHITE, STEP_PLACE);
    ok(&g, "a15");
    expect_turn(&g, 1, BLACK, STEP_PROPOSE);
    game_free(&g);
}

/* ---- Yamaguchi ---- */

static void test_yamaguchi(void **state)
{
    (void)state;
    Game g;
    test_game(&g, RULE_RENJU, OPENING_YAMAGUCHI, 0);
    ok(&g, "h8 h9 h7");
    expect_turn(&g, 0, BLACK, STEP_DECLARE);
    refused(&g, "swap", "declare the number of 5th moves (1..10)");
    refused(&g, "h6", "declare the number");
    refused(&g, "declare 0", "must be 1..10, not 0");
    refused(&g, "declare 11", "must be 1..10, not 11");
    ok(&g, "declare 3");
    expect_turn(&g, 1, WHITE, STEP_COLOR);
    ok(&g, "h6"); /* keeps colours by playing on */
    refused(&g, "propose g8,j8", "3 5th moves must be proposed, not 2");
    refused(&g, "propose g8,j8,i7", "g8 and i7 are symmetric");
    ok(&g, "propose g8,j8,h10 choose h10");
    expect_turn(&g, 1, WHITE, STEP_PLAY);
    assert_int_equal(board_at(&g.board[0], pt("h10")), BLACK);
    game_free(&g);

    /* One declared 5th move may simply be placed. */
    test_game(&g, RULE_RENJU, OPENING_YAMAGUCHI, 0);
    ok(&g, "h8 h9 h7 declare 1 swap h6");
    expect_turn(&g, 1, BLACK, STEP_PROPOSE);
    ok(&g, "j8");
    expect_turn(&g, 0, WHITE, STEP_PLAY);
    game_free(&g);
}

/* The 5th-move offer a colour choice weighs: known from the script (RIF)
 * or once declared (Yamaguchi, Soosorv), none after it or elsewhere. */
static void test_offer_ahead(void **state)
{
    (void)state;
    static const struct {
        Opening opening;
        const char *script;
        int want;
    } cases[] = {
        {OPENING_RIF, "", 2},
        {OPENING_RIF, "h8 h9 h7", 2},
        {OPENING_RIF, "h8 h9 h7 swap h6", 2},
        {OPENING_RIF, "h8 h9 h7 swap h6 propose g8,j8", 0},
        {OPENING_YAMAGUCHI, "h8 h9 h7", 0},
        {OPENING_YAMAGUCHI, "h8 h9 h7 declare 3", 3},
        {OPENING_SOOSORV8, "h8 h9 h7", 0},
        {OPENING_SOOSORV8, "h8 h9 h7 noswap h6 declare 5", 5},
        {OPENING_TARAGUCHI10, "h8", 0},
        {OPENING_SWAP3, "h8 h9 h7", 0},
        {OPENING_SWAP2, "h8 h9 h7", 0},
        {OPENING_FREE, "h8", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Game g;
        TgError err = {0};
        test_game(&g, RULE_RENJU, cases[i].opening, 0);
        assert_int_equal(test_play(&g, cases[i].script, &err), 0);
        if (game_offer_ahead(&g) != cases[i].want)
            fail_msg("%s after '%s': offer %d, want %d", opening_name(cases[i].opening),
                     cases[i].script, game_offer_ahead(&g), cases[i].want);
        game_free(&g);
    }
}

/* Whether a colour choice still follows the current step: a stone placed
 * with none after it is an ordinary move. */
static void test_choice_ahead(void **state)
{
    (void)state;
    static const struct {
        Opening opening;
        const char *script;
        bool want;
    } cases[] = {
        {OPENING_RIF, "h8 h9", true},
        {OPENING_RIF, "h8 h9 h7 swap", false}, /* the 4th */
        {OPENING_YAMAGUCHI, "h8 h9 h7 declare 3 noswap", false},
        {OPENING_SOOSORV8, "h8 h9 h7 noswap", true}, /* the 4th: a swap follows */
        {OPENING_SOOSORV8, "h8 h9 h7 noswap h6 declare 2 swap", false},
        {OPENING_TARAGUCHI10, "h8 noswap i9 noswap h10 noswap", true},
        {OPENING_SWAP3, "h8 h9", true},
        {OPENING_SWAP3, "h8 h9 h7 noswap", false},
        {OPENING_SWAP2, "h8 h9 h7", true},
        {OPENING_DESIGNATED, "", false},
        {OPENING_CENTER, "", false},
        {OPENING_FREE, "h8", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Game g;
        TgError err = {0};
        test_game(&g, RULE_RENJU, cases[i].opening, 0);
        assert_int_equal(test_play(&g, cases[i].script, &err), 0);
        if (game_choice_ahead(&g) != cases[i].want)
            fail_msg("%s after '%s': choice ahead %d, want %d", opening_name(cases[i].opening),
                     cases[i].script, game_choice_ahead(&g), cases[i].want);
        game_free(&g);
    }
}

/* ---- swap2 ---- */

static void test_swap2(void **state)
{
    (void)state;
    Game g;
    /* Take black: the opener becomes white and plays 4. */
    test_game(&g, RULE_FREESTYLE, OPENING_SWAP2, 0);
    ok(&g, "a1 a2 a3");
    expect_turn(&g, 1, WHITE, STEP_SWAP2);
    refused(&g, "declare 2", "swap (take black), noswap (take white and play move 4) or place");
    ok(&g, "swap");
    expect_turn(&g, 0, WHITE, STEP_PLAY);
    game_free(&g);
    /* Take white and play 4. */
    test_game(&g, RULE_FREESTYLE, OPENING_SWAP2, 0);
    ok(&g, "a1 a2 a3 noswap");
    expect_turn(&g, 1, WHITE, STEP_PLAY);
    ok(&g, "o15");
    expect_turn(&g, 0, BLACK, STEP_PLAY);
    game_free(&g);
    /* Place two more: the opener chooses. */
    test_game(&g, RULE_FREESTYLE, OPENING_SWAP2, 0);
    ok(&g, "a1 a2 a3 o15");
    expect_turn(&g, 1, WHITE, STEP_PLACE);
    refused(&g, "swap", "to place move 5 (black)");
    ok(&g, "o14");
    expect_turn(&g, 0, BLACK, STEP_COLOR);
    refused(&g, "h8", "swap or noswap");
    Game copy;
    assert_true(game_copy(&copy, &g));
    ok(&g, "noswap");
    expect_turn(&g, 1, WHITE, STEP_PLAY);
    ok(&copy, "swap");
    expect_turn(&copy, 0, WHITE, STEP_PLAY);
    game_free(&copy);
    game_free(&g);
}

/* ---- Soosorv-8 ---- */

static void test_soosorv(void **state)
{
    (void)state;
    Game g;
    test_game(&g, RULE_RENJU, OPENING_SOOSORV8, 0);
    refused(&g, "i9", "on the centre");
    ok(&g, "h8 h9");
    refused(&g, "h11", "central 5x5");
    ok(&g, "h7");
    expect_turn(&g, 1, WHITE, STEP_COLOR);
    ok(&g, "noswap h6");
    expect_turn(&g, 1, WHITE, STEP_DECLARE);
    refused(&g, "propose g8,j8", "declare the number of 5th moves (1..8)");
    refused(&g, "declare 9", "must be 1..8, not 9");
    ok(&g, "declare 3");
    expect_turn(&g, 0, BLACK, STEP_COLOR); /* the second swap */
    ok(&g, "swap");
    expect_turn(&g, 1, BLACK, STEP_PROPOSE);
    refused(&g, "propose g8,j8,i8", "g8 and i8 are symmetric");
    ok(&g, "propose g8,j8,h10");
    expect_turn(&g, 0, WHITE, STEP_CHOOSE);
    ok(&g, "choose g8 k12");
    expect_turn(&g, 1, BLACK, STEP_PLAY);
    game_free(&g);

    /* Black may answer the second swap by proposing at once. */
    test_game(&g, RULE_RENJU, OPENING_SOOSORV8, 0);
    ok(&g, "h8 i9 i7 h6 declare 2 propose a1,o15 choose o15");
    expect_turn(&g, 1, WHITE, STEP_PLAY);
    game_free(&g);
}

/* ---- Taraguchi-10 ---- */

static void test_taraguchi(void **state)
{
    (void)state;
    Game g;
    test_game(&g, RULE_RENJU, OPENING_TARAGUCHI10, 0);
    refused(&g, "g8", "on the centre");
    ok(&g, "h8");
    expect_turn(&g, 1, WHITE, STEP_COLOR);
    ok(&g, "swap");
    expect_turn(&g, 0, WHITE, STEP_PLACE);
    refused(&g, "j10", "central 3x3");
    ok(&g, "i9");
    expect_turn(&g, 1, BLACK, STEP_COLOR);
    refused(&g, "k11", "central 5x5");
    ok(&g, "j10"); /* keep, place 3 */
    expect_turn(&g, 0, WHITE, STEP_COLOR);
    ok(&g, "noswap");
    refused(&g, "l8", "central 7x7");
    ok(&g, "k11");
    expect_turn(&g, 1, BLACK, STEP_FIFTH);
    expect_status(&g, "ongoing: black (second player) to choose: swap, place move 5 within the "
                      "central 9x9 square, or propose 10 5th moves");
    Game alt;
    assert_true(game_copy(&alt, &g));
    /* Choice 2: ten non-symmetric 5th moves anywhere. */
    refused(&g, "propose i8,j8,k8,l8,m8,j9,k9,l9,k10,h10",
            "j8 and h10 are symmetric: a mirror in the / diagonal through h8");
    refused(&g, "propose i8,j8", "10 5th moves must be proposed, not 2");
    ok(&g, "propose i8,j8,k8,l8,m8,j9,k9,l9,k10,a1");
    expect_turn(&g, 0, WHITE, STEP_CHOOSE);
    ok(&g, "choose a1");
    expect_turn(&g, 0, WHITE, STEP_PLAY);
    game_free(&g);
    /* Choice 1: swap, then the new black places 5 within 9x9, then a last swap. */
    ok(&alt, "swap");
    expect_turn(&alt, 0, BLACK, STEP_PLACE);
    refused(&alt, "propose i8,j8,k8,l8,m8,j9,k9,l9,k10,a1", "to place move 5");
    refused(&alt, "m8", "central 9x9");
    ok(&alt, "l8");
    expect_turn(&alt, 1, WHITE, STEP_COLOR);
    ok(&alt, "swap");
    expect_turn(&alt, 0, WHITE, STEP_PLAY);
    ok(&alt, "a1");
    game_free(&alt);
}

/* ---- forbidden moves ---- */

static void test_forbidden_auto(void **state)
{
    (void)state;
    Game g;
    test_game(&g, RULE_RENJU, OPENING_FREE, 0);
    ok(&g, "h9 a1 g8 a3 i8 a5 h7 a7");
    refused(&g, "claim", "judged at once (forbidden auto)");
    ok(&g, "h8");
    const GameResult *r = game_result(&g);
    assert_int_equal(r->reason, REASON_FORBIDDEN);
    assert_int_equal(r->kind, FORBID_DOUBLE_THREE);
    assert_int_equal(r->point, pt("h8"));
    expect_status(&g, "white wins: black's double-three at h8 (move 9)");
    game_free(&g);
}

static void claim_game(Game *g)
{
    GameConfig cfg;
    variant_default(&cfg);
    cfg.opening = OPENING_FREE;
    cfg.forbidden = FORBID_MODE_CLAIM;
    assert_true(game_init(g, &cfg, NULL));
}

static void test_forbidden_claim(void **state)
{
    (void)state;
    Game g;
    claim_game(&g);
    ok(&g, "h9 a1 g8 a3 i8 a5 h7 a7");
    refused(&g, "claim", "nothing to claim");
    ok(&g, "h8");
    expect_status(&g, "ongoing: white (second player) to claim black's double-three at h8 or play "
                      "move 10");
    ok(&g, "claim");
    expect_status(&g, "white wins: claimed black's double-three at h8 (move 9)");
    assert_int_equal(game_result(&g)->reason, REASON_CLAIM);
    game_undo(&g);
    /* Black offering a draw meanwhile does not take the claim away. */
    Action d = game_action(ACT_DRAW);
    assert_true(game_apply_as(&g, 0, &d, NULL));
    assert_int_equal(g.st.claim_point, pt("h8"));
    game_undo(&g);
    /* A missed claim is gone. */
    ok(&g, "a9");
    refused(&g, "claim", "nothing to claim");
    ok(&g, "b1");
    refused(&g, "claim", "nothing to claim");
    game_free(&g);
}

static void test_overline_claim(void **state)
{
    (void)state;
    Game g;
    claim_game(&g);
    ok(&g, "f8 a1 g8 a3 i8 a5 j8 a7 k8 a9 h8");
    assert_false(game_over(&g));
    ok(&g, "a11 b1"); /* white played on, black too */
    ok(&g, "claim");
    const GameResult *r = game_result(&g);
    assert_int_equal(r->reason, REASON_OVERLINE_CLAIM);
    assert_int_equal(r->winner, WHITE);
    assert_int_equal(r->point, pt("h8"));
    expect_status(&g, "white wins: claimed black's earlier overline at h8 (move 11)");
    game_undo(&g);
    /* Also while black is to move. */
    ok(&g, "b3");
    TgError err;
    Action c = game_action(ACT_CLAIM);
    assert_false(game_apply_as(&g, 0, &c, &err));
    assert_true(game_apply_as(&g, 1, &c, &err));
    assert_int_equal(game_result(&g)->reason, REASON_OVERLINE_CLAIM);
    game_free(&g);
}

/* Five beats a forbidden shape made by the same stone. */
static void test_five_beats_forbidden(void **state)
{
    (void)state;
    Game g;
    test_game(&g, RULE_RENJU, OPENING_FREE, 0);
    /* h8 completes d8-h8 and also makes the threes h8-h11 (column) and h8-k11 (diagonal). */
    ok(&g, "d8 a1 e8 a3 f8 a5 g8 a7 h10 a9 h11 a11 j10 a13 k11 o1");
    /* Without d8 the same stone would be a four-three-three: forbidden. */
    Board b = g.board[0];
    board_remove(&b, pt("d8"));
    assert_int_equal(forbid_check(&b, pt("h8")), FORBID_DOUBLE_THREE);
    ok(&g, "h8");
    assert_int_equal(game_result(&g)->reason, REASON_FIVE);
    assert_int_equal(game_result(&g)->winner, BLACK);
    game_free(&g);
}

/* ---- other results ---- */

static void test_resign_draw_timeout(void **state)
{
    (void)state;
    Game g;
    test_game(&g, RULE_RENJU, OPENING_FREE, 0);
    ok(&g, "h8 resign");
    expect_status(&g, "black wins: white resigned");
    assert_int_equal(game_result(&g)->winner_player, 0);
    game_undo(&g);
    /* Offer then immediate acceptance. */
    ok(&g, "draw draw");
    expect_status(&g, "draw: agreed by both players");
    assert_int_equal(game_result(&g)->reason, REASON_AGREEMENT);
    game_undo(&g);
    game_undo(&g);
    /* Offer with a move, accepted on the reply. */
    ok(&g, "draw");
    expect_status(
        &g, "ongoing: white (second player) to play move 2; the second player offered a draw");
    ok(&g, "h9 draw");
    assert_int_equal(game_result(&g)->reason, REASON_AGREEMENT);
    game_undo(&g);
    game_undo(&g);
    game_undo(&g);
    /* An offer lapses when the other side plays on. */
    ok(&g, "draw h9 h10 draw");
    assert_false(game_over(&g));
    assert_int_equal(g.st.draw_offer, 1); /* white's new offer */

    TgError err;
    assert_true(game_forfeit(&g, BLACK, REASON_TIMEOUT, &err));
    expect_status(&g, "white wins: black ran out of time");
    assert_false(game_forfeit(&g, BLACK, REASON_TIMEOUT, &err));
    game_undo(&g);
    assert_true(game_forfeit(&g, WHITE, REASON_STONE_REMOVAL, &err));
    expect_status(&g, "black wins: white removed a stone");
    game_undo(&g);
    assert_false(game_forfeit(&g, WHITE, REASON_FIVE, &err));
    /* Either player may resign out of turn. */
    Action r = game_action(ACT_RESIGN);
    assert_true(game_apply_as(&g, 1, &r, &err));
    expect_status(&g, "black wins: white resigned");
    game_free(&g);
}

/* Wrong actions common to all rules. */
static void test_misc_refusals(void **state)
{
    (void)state;
    Game g;
    test_game(&g, RULE_FREESTYLE, OPENING_FREE, 0);
    refused(&g, "claim", "no forbidden moves to claim under freestyle rules");
    refused(&g, "choose h8", "to play move 1");
    refused(&g, "declare 2", "to play move 1");
    refused(&g, "noswap", "to play move 1");
    TgError err;
    Action h8 = game_action_place(0, pt("h8"));
    assert_false(game_apply_as(&g, 1, &h8, &err));
    assert_non_null(strstr(err.msg, "the first player's turn"));
    Action d = game_action(ACT_DRAW);
    assert_true(game_apply_as(&g, 0, &d, &err));
    assert_false(game_apply_as(&g, 0, &d, &err));
    assert_non_null(strstr(err.msg, "already pending"));
    ok(&g, "h8 resign");
    refused(&g, "h9", "the game is over (black wins: white resigned)");
    refused(&g, "resign", "the game is over");
    refused(&g, "draw", "the game is over");
    game_free(&g);

    GameConfig cfg;
    variant_default(&cfg);
    cfg.size = 4;
    assert_false(game_init(&g, &cfg, &err));
    assert_non_null(strstr(err.msg, "board size 4 is out of range"));
}

static void test_two_passes(void **state)
{
    (void)state;
    Game g;
    test_game(&g, RULE_RENJU, OPENING_FREE, 0);
    ok(&g, "h8 pass h9 pass");
    assert_false(game_over(&g));
    ok(&g, "pass");
    expect_status(&g, "draw: both players passed in a row");
    game_free(&g);

    GameConfig cfg;
    variant_default(&cfg);
    cfg.opening = OPENING_FREE;
    cfg.no_pass = true;
    assert_true(game_init(&g, &cfg, NULL));
    refused(&g, "pass", "passes are not allowed");
    game_free(&g);
}

/* 5x5 freestyle: the lines only fill up at the very last stone. */
static const char *FULL_5X5 = "a4 a5 b4 b5 d4 c5 e4 d5 b3 c4 c3 a3 e3 d3 a2 b2 c2 e2 d2 b1 a1 c1 "
                              "d1 e1";

static void test_full_board(void **state)
{
    (void)state;
    Game g;
    test_game(&g, RULE_FREESTYLE, OPENING_FREE, 5);
    ok(&g, FULL_5X5);
    assert_false(game_over(&g)); /* white's a5-d5 still needs e5 */
    ok(&g, "e5");
    expect_status(&g, "draw: the board is full");
    assert_int_equal(game_result(&g)->reason, REASON_FULL_BOARD);
    game_free(&g);
}

/* Does every row, column and long diagonal of a 5x5 board hold both colours? */
static bool all_lines_mixed(const Board *b)
{
    static const int lines[12][2][2] = {
        {{0, 0}, {1, 0}}, {{0, 1}, {1, 0}}, {{0, 2}, {1, 0}}, {{0, 3}, {1, 0}},
        {{0, 4}, {1, 0}}, {{0, 0}, {0, 1}}, {{1, 0}, {0, 1}}, {{2, 0}, {0, 1}},
        {{3, 0}, {0, 1}}, {{4, 0}, {0, 1}}, {{0, 0}, {1, 1}}, {{4, 0}, {-1, 1}},
    };
    for (int l = 0; l < 12; l++) {
        unsigned seen = 0;
        for (int k = 0; k < 5; k++)
            seen |= 1u << board_at(b, point_make(lines[l][0][0] + k * lines[l][1][0],
                                                 lines[l][0][1] + k * lines[l][1][1]));
        if ((seen & (1u << BLACK | 1u << WHITE)) != (1u << BLACK | 1u << WHITE))
            return false;
    }
    return true;
}

static void test_no_five_left(void **state)
{
    (void)state;
    Game g;
    test_game(&g, RULE_FREESTYLE, OPENING_FREE, 5);
    /* The full-board layout, but black starts on e5, blocking white's top row. */
    const char *black[] = {"e5", "a4", "b4", "d4", "e4", "b3", "c3",
                           "e3", "a2", "c2", "d2", "a1", "d1"};
    const char *white[] = {"a5", "b5", "c5", "d5", "c4", "a3", "d3", "b2", "e2", "b1", "c1", "e1"};
    for (int i = 0; i < 25 && !game_over(&g); i++) {
        assert_false(all_lines_mixed(&g.board[0]));
        ok(&g, i % 2 ? white[i / 2] : black[i / 2]);
    }
    expect_status(&g, "draw: neither side can make a five any more");
    assert_true(all_lines_mixed(&g.board[0]));
    assert_true(g.board[0].count < 25);
    game_free(&g);
}

/* ---- dual-board ---- */

static void dual_game(Game *g)
{
    GameConfig cfg;
    variant_default(&cfg);
    assert_true(variant_rule_parse("dualboard", &cfg));
    assert_true(game_init(g, &cfg, NULL));
}

static const char *DUAL_4S = "1:h8 2:a1 2:c1 1:i8 1:j8 2:e1 2:g1 1:k8 2:h8 2:i1 2:k1 2:i8 2:j8 "
                             "2:m1 2:o1";

static void test_dual_win(void **state)
{
    (void)state;
    Game g;
    dual_game(&g);
    expect_status(&g, "ongoing: black (first player) to place stone 1 of 1 in round 1 (1:point or "
                      "2:point)");
    refused(&g, "pass", "no passes");
    ok(&g, "1:h8");
    expect_turn(&g, 1, WHITE, STEP_PLAY);
    ok(&g, "2:a1");
    expect_turn(&g, 1, WHITE, STEP_PLAY); /* white's second stone */
    refused(&g, "1:h8", "h8 is occupied");
    ok(&g, "2:c1 1:i8 1:j8 2:e1 2:g1 1:k8 2:h8 2:i1 2:k1 2:i8 2:j8 2:m1 2:o1");
    ok(&g, "2:k8 2:a15 2:a3 2:c3");
    ok(&g, "1:l8");
    assert_false(game_over(&g)); /* the second five may still come this round */
    ok(&g, "2:l8");
    const GameResult *r = game_result(&g);
    assert_int_equal(r->reason, REASON_DUAL_FIVES);
    assert_int_equal(r->winner, BLACK);
    assert_int_equal(r->round, 6);
    expect_status(&g, "black wins: fives on both boards in round 6 (1:l8, 2:l8)");
    game_free(&g);
}

static void test_dual_one_board(void **state)
{
    (void)state;
    Game g;
    dual_game(&g);
    ok(&g, DUAL_4S);
    ok(&g, "2:k8 1:l8");
    const GameResult *r = game_result(&g);
    assert_int_equal(r->reason, REASON_DUAL_ONE_BOARD);
    assert_int_equal(r->winner, WHITE);
    assert_int_equal(r->round, 5);
    expect_status(&g, "white wins: black made a five on board 1 only in round 5 (1:h8-l8); a win "
                      "needs fives on both boards in the same round");
    game_free(&g);
}

/* ---- undo, redo, copy, nigiri ---- */

static void test_undo_redo(void **state)
{
    (void)state;
    Game g, fresh;
    test_game(&g, RULE_RENJU, OPENING_RIF, 0);
    test_game(&fresh, RULE_RENJU, OPENING_RIF, 0);
    ok(&g, "h8 h9 h7 swap h6 propose g8,j8 choose j8 a1 b1 c1");
    char end[320], buf[320];
    game_status_text(&g, end, sizeof end);
    uint64_t hash = g.board[0].hash;
    int n = game_history_count(&g);
    assert_int_equal(n, 10);
    while (game_undo(&g))
        ;
    assert_int_equal(g.board[0].count, 0);
    assert_int_equal(g.st.step, fresh.st.step);
    assert_int_equal(g.st.color_of[0], BLACK);
    assert_int_equal(g.st.nproposals, 0);
    assert_int_equal(g.st.result.reason, REASON_NONE);
    expect_status(&g, "ongoing: black (first player) to place move 1 (black) on the centre h8");
    assert_true(board_is_consistent(&g.board[0]));
    while (game_redo(&g))
        ;
    assert_int_equal(game_history_count(&g), n);
    assert_true(g.board[0].hash == hash);
    game_status_text(&g, buf, sizeof buf);
    assert_string_equal(buf, end);
    /* A new action drops what could be redone. */
    game_undo(&g);
    game_undo(&g);
    ok(&g, "o15");
    assert_false(game_redo(&g));
    int player;
    const Action *a = game_history(&g, 3, &player);
    assert_int_equal(a->type, ACT_SWAP);
    assert_int_equal(player, 1);
    game_free(&g);
    game_free(&fresh);
}

static void test_copy_independent(void **state)
{
    (void)state;
    Game g, c;
    test_game(&g, RULE_RENJU, OPENING_FREE, 0);
    ok(&g, "h8 h9");
    assert_true(game_copy(&c, &g));
    ok(&c, "h10 h11");
    assert_int_equal(g.board[0].count, 2);
    assert_int_equal(c.board[0].count, 4);
    game_undo(&c);
    game_undo(&c);
    game_undo(&c);
    assert_int_equal(game_history_count(&g), 2);
    assert_int_equal(board_at(&g.board[0], pt("h9")), WHITE);
    game_free(&c);
    game_free(&g);
}

static void test_nigiri(void **state)
{
    (void)state;
    Rng r1, r2;
    rng_seed(&r1, 42);
    rng_seed(&r2, 42);
    int exchanges = 0;
    for (int i = 0; i < 200; i++) {
        Nigiri a, b;
        game_nigiri(&r1, 20, &a);
        game_nigiri(&r2, 20, &b);
        assert_int_equal(a.grab[0], b.grab[0]);
        assert_int_equal(a.grab[1], b.grab[1]);
        assert_int_equal(a.exchange, b.exchange);
        assert_true(a.grab[0] >= 1 && a.grab[0] <= 20 && a.grab[1] >= 1 && a.grab[1] <= 20);
        int diff = a.grab[0] > a.grab[1] ? a.grab[0] - a.grab[1] : a.grab[1] - a.grab[0];
        assert_int_equal(a.exchange, diff % 2 == 1);
        assert_int_equal(a.black, a.exchange ? 1 : 0);
        exchanges += a.exchange;
    }
    assert_true(exchanges > 50 && exchanges < 150);
}

static void test_turn_and_json(void **state)
{
    (void)state;
    Game g;
    test_game(&g, RULE_RENJU, OPENING_RIF, 0);
    ok(&g, "h8 h9 h7");
    GameTurn t;
    game_turn(&g, &t);
    assert_true(t.allowed & 1u << ACT_SWAP);
    assert_true(t.allowed & 1u << ACT_NOSWAP);
    assert_true(t.allowed & 1u << ACT_PLACE); /* keeping by playing on */
    assert_false(t.allowed & 1u << ACT_PASS);
    assert_false(t.allowed & 1u << ACT_CLAIM);
    Point pts[BOARD_MAX_MOVES];
    assert_int_equal(game_legal_points(&g, 0, pts), 225 - 3);
    game_free(&g);

    test_game(&g, RULE_RENJU, OPENING_RIF, 0);
    Point legal[BOARD_MAX_MOVES];
    assert_int_equal(game_legal_points(&g, 0, legal), 1);
    assert_int_equal(legal[0], pt("h8"));
    ok(&g, "h8");
    assert_int_equal(game_legal_points(&g, 0, legal), 8);
    ok(&g, "h9 h7 h6 propose g8,j8 choose g8 a1 b1 c1 b2 c2 b3 c3 b4");
    ok(&g, "c4 b5");
    json_t *j = game_status_json(&g);
    assert_string_equal(json_string_value(json_object_get(j, "result")), "black");
    assert_string_equal(json_string_value(json_object_get(j, "reason")), "five");
    assert_int_equal(json_array_size(json_object_get(j, "five")), 5);
    json_decref(j);
    char tok[64];
    Action a;
    assert_true(test_parse_action("propose", "g8,j8", 15, &a));
    game_action_text(&a, 15, false, tok, sizeof tok);
    assert_string_equal(tok, "propose g8,j8");
    a = game_action_place(1, pt("h8"));
    game_action_text(&a, 15, true, tok, sizeof tok);
    assert_string_equal(tok, "2:h8");
    game_free(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_openings_table),
        cmocka_unit_test(test_openings_cover_5x5),
        cmocka_unit_test(test_openings_symmetries),
        cmocka_unit_test(test_fifth_symmetry),
        cmocka_unit_test(test_free_five),
        cmocka_unit_test(test_center_opening),
        cmocka_unit_test(test_swap3),
        cmocka_unit_test(test_designated),
        cmocka_unit_test(test_rif),
        cmocka_unit_test(test_yamaguchi),
        cmocka_unit_test(test_offer_ahead),
        cmocka_unit_test(test_choice_ahead),
        cmocka_unit_test(test_swap2),
        cmocka_unit_test(test_soosorv),
        cmocka_unit_test(test_taraguchi),
        cmocka_unit_test(test_forbidden_auto),
        cmocka_unit_test(test_forbidden_claim),
        cmocka_unit_test(test_overline_claim),
        cmocka_unit_test(test_five_beats_forbidden),
        cmocka_unit_test(test_resign_draw_timeout),
        cmocka_unit_test(test_misc_refusals),
        cmocka_unit_test(test_two_passes),
        cmocka_unit_test(test_full_board),
        cmocka_unit_test(test_no_five_left),
        cmocka_unit_test(test_dual_win),
        cmocka_unit_test(test_dual_one_board),
        cmocka_unit_test(test_undo_redo),
        cmocka_unit_test(test_copy_independent),
        cmocka_unit_test(test_nigiri),
        cmocka_unit_test(test_turn_and_json),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
