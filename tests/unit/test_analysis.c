/* Judging moves and 5th-move choices: the flags for blunders, missed wins,
 * forbidden points and lost games, consistent scores, and the tally's first
 * forced loss. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "tengen/analysis.h"
#include "tengen/coord.h"

static Point pt(const char *s, int size)
{
    Point p = POINT_NONE;
    TgError err;
    assert_true(coord_parse(s, size, &p, &err));
    return p;
}

/* Plays space-separated moves alternately, black first. */
static void setup(Board *b, Rule rule, const char *moves)
{
    assert_true(board_init(b, 15, rule));
    char buf[256];
    strncpy(buf, moves, sizeof buf - 1);
    buf[sizeof buf - 1] = 0;
    Color c = BLACK;
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) {
        board_play(b, pt(t, b->size), c);
        c = color_other(c);
    }
}

static Engine *new_engine(void)
{
    EngineOptions o;
    engine_options_default(&o);
    o.hash_mb = 4;
    TgError err;
    Engine *e = engine_new(&o, &err);
    assert_non_null(e);
    return e;
}

/* Limits of a search to a fixed depth. */
static SearchLimits depth_limit(int depth)
{
    SearchLimits lim;
    search_limits_init(&lim);
    lim.depth = depth;
    return lim;
}

static void judge(Engine *e, const Board *b, Color c, const char *move, MoveJudgement *j)
{
    SearchLimits lim = depth_limit(4);
    TgError err;
    Point p = pt(move, b->size);
    assert_true(analysis_judge(e, &lim, b, c, p, ANALYSIS_DEFAULT_BLUNDER, j, &err));
}

static void test_expected_score(void **state)
{
    (void)state;
    assert_true(analysis_expected(0) > 0.499 && analysis_expected(0) < 0.501);
    assert_true(analysis_expected(-ANALYSIS_SCORE_SCALE) < 0.3);
    assert_true(analysis_expected(ANALYSIS_SCORE_SCALE) > 0.7);
    assert_true(analysis_expected(ENGINE_SCORE_WIN - 2) == 1.0);
    assert_true(analysis_expected(-(ENGINE_SCORE_WIN - 2)) == 0.0);
    for (int s = -3000; s < 3000; s += 100)
        assert_true(analysis_expected(s) < analysis_expected(s + 100));
}

/* Black's open three in the h column against white's in i: black to move
 * wins with h5 or h9; anything else lets white's open four in first. */
#define RACE "h8 i8 h7 i7 h6 i6"

static void test_best_move_is_not_flagged(void **state)
{
    (void)state;
    Engine *e = new_engine();
    Board b;
    setup(&b, RULE_FREESTYLE, RACE);
    MoveJudgement j;
    judge(e, &b, BLACK, "h9", &j);
    assert_true(j.best.mate > 0);
    assert_int_equal(j.played.mate, j.best.mate);
    assert_int_equal(j.played.score, j.best.score);
    assert_int_equal(j.flags, 0);
    engine_free(e);
}

static void test_missed_win_is_a_blunder(void **state)
{
    (void)state;
    Engine *e = new_engine();
    Board b;
    setup(&b, RULE_FREESTYLE, RACE);
    MoveJudgement j;
    judge(e, &b, BLACK, "a1", &j);
    assert_true(j.best.move == pt("h5", 15) || j.best.move == pt("h9", 15));
    assert_true(j.best.mate > 0);
    assert_true(j.played.mate < 0);
    assert_int_equal(j.flags, JUDGE_MISSED_WIN | JUDGE_BLUNDER);
    /* The lines: black's win from its choice, white's from a1. */
    assert_int_equal(j.best.pv[0], j.best.move);
    assert_true(j.best.pvlen >= j.best.mate);
    assert_int_equal(j.played.pv[0], pt("a1", 15));
    assert_true(j.played.pvlen >= -j.played.mate);
    engine_free(e);
}

/* White to move after black's open four: every move loses, none is blamed. */
static void test_lost_game_has_no_blunder(void **state)
{
    (void)state;
    Engine *e = new_engine();
    Board b;
    setup(&b, RULE_FREESTYLE, "h8 a1 h7 a3 h6 a5 h5");
    MoveJudgement j;
    judge(e, &b, WHITE, "o15", &j);
    assert_true(j.best.mate < 0);
    assert_true(j.played.mate < 0);
    assert_int_equal(j.flags, 0);
    engine_free(e);
}

/* Renju: h8 would make two open threes (i8 j8 in the row, h9 h10 in the
 * column) in an even game: forbidden, and a blunder. */
static void test_forbidden_point(void **state)
{
    (void)state;
    Engine *e = new_engine();
    Board b;
    setup(&b, RULE_RENJU, "i8 a1 j8 a3 h9 o1 h10 o3");
    MoveJudgement j;
    judge(e, &b, BLACK, "h8", &j);
    assert_int_equal(j.forbid, FORBID_DOUBLE_THREE);
    assert_true(j.flags & JUDGE_FORBIDDEN);
    assert_true(j.flags & JUDGE_BLUNDER);
    assert_true(j.best.move != POINT_NONE && j.best.move != pt("h8", 15));
    assert_int_equal(j.played.pvlen, 1);
    assert_int_equal(j.played.score, 0);
    /* All the expected score of the choice is given up. */
    assert_true(analysis_given_up(&j) > 100.0 * analysis_expected(j.best.score) - 1e-9);
    /* The same point is fine for white. */
    Board w;
    setup(&w, RULE_RENJU, "a1 i8 a3 j8 o1 h9 o3 h10 o5");
    judge(e, &w, WHITE, "h8", &j);
    assert_int_equal(j.forbid, FORBID_NONE);
    assert_false(j.flags & (JUDGE_FORBIDDEN | JUDGE_BLUNDER));
    engine_free(e);
}

/* A move far from the fight loses some expected score but is no forced
 * loss: the threshold decides. */
static void test_threshold(void **state)
{
    (void)state;
    Engine *e = new_engine();
    Board b;
    setup(&b, RULE_FREESTYLE, "h8 i9 h9");
    SearchLimits lim = depth_limit(4);
    MoveJudgement j;
    TgError err;
    assert_true(analysis_judge(e, &lim, &b, WHITE, pt("a15", 15), 1, &j, &err));
    assert_int_equal(j.played.mate, 0);
    assert_true(j.best.score > j.played.score);
    assert_true(j.flags & JUDGE_BLUNDER);
    assert_true(analysis_judge(e, &lim, &b, WHITE, pt("a15", 15), 100, &j, &err));
    assert_false(j.flags & JUDGE_BLUNDER);
    engine_free(e);
}

/* Over the moves of a game the move played never scores above the engine's
 * choice, and when it is the choice the two scores are the same. */
static void test_scores_are_consistent(void **state)
{
    (void)state;
    static const char *const game[] = {"i10", "g8",  "h5",  "h8",  "i8",
                                       "g9",  "g10", "h10", "h11", "i7"};
    Engine *e = new_engine();
    Board b;
    assert_true(board_init(&b, 15, RULE_STANDARD));
    Color c = BLACK;
    for (size_t i = 0; i < sizeof game / sizeof game[0]; i++) {
        MoveJudgement j;
        judge(e, &b, c, game[i], &j);
        if (!(j.flags & JUDGE_FORBIDDEN))
            assert_true(j.best.score >= j.played.score);
        if (j.best.move == j.played.move)
            assert_int_equal(j.best.score, j.played.score);
        board_play(&b, pt(game[i], 15), c);
        c = color_other(c);
    }
    engine_free(e);
}

/* On an empty board the engine's centre is searched as deep as the move
 * played, not taken at two plies. */
static void test_first_move(void **state)
{
    (void)state;
    Engine *e = new_engine();
    Board b;
    setup(&b, RULE_FREESTYLE, "");
    MoveJudgement j;
    judge(e, &b, BLACK, "h8", &j);
    assert_int_equal(j.best.move, pt("h8", 15));
    assert_true(j.best.pvlen >= 3);
    judge(e, &b, BLACK, "i10", &j);
    assert_true(j.best.pvlen >= 3);
    assert_true(j.best.score >= j.played.score);
    engine_free(e);
}

/* White picks one of black's two 5th moves: each is searched for white. */
static void test_choice(void **state)
{
    (void)state;
    Engine *e = new_engine();
    Board b;
    setup(&b, RULE_RENJU, "h8 h9 h7 h6");
    SearchLimits lim = depth_limit(4);
    Point offered[2] = {pt("g8", 15), pt("j8", 15)};
    MoveJudgement j;
    TgError err = {0};
    assert_true(analysis_judge_choice(e, &lim, &b, BLACK, offered, 2, offered[1], 20, &j, &err));
    assert_int_equal(j.played.move, offered[1]);
    assert_int_equal(j.played.pv[0], offered[1]);
    assert_true(j.played.pvlen >= 2);
    assert_true(j.best.move == offered[0] || j.best.move == offered[1]);
    assert_true(j.best.score >= j.played.score);
    if (j.best.move == j.played.move)
        assert_int_equal(j.flags, 0);
    assert_false(analysis_judge_choice(e, &lim, &b, BLACK, offered, 1, offered[1], 20, &j, &err));
    assert_non_null(strstr(err.msg, "not one of those offered"));
    engine_free(e);
}

/* A colour choice in RACE, black to move: black wins by force, so taking
 * black is right and taking white misses the win and walks into a loss. */
static void test_colour_choice(void **state)
{
    (void)state;
    Engine *e = new_engine();
    Board b;
    setup(&b, RULE_FREESTYLE, RACE);
    SearchLimits lim = depth_limit(4);
    MoveJudgement j;
    TgError err = {0};
    assert_true(analysis_judge_colour(e, &lim, &b, BLACK, BLACK, 20, &j, &err));
    assert_int_equal(j.played_colour, BLACK);
    assert_int_equal(j.best_colour, BLACK);
    assert_true(j.played.mate > 0);
    assert_int_equal(j.flags, 0);
    assert_true(j.played.pvlen >= 1);
    assert_true(analysis_judge_colour(e, &lim, &b, BLACK, WHITE, 20, &j, &err));
    assert_int_equal(j.played_colour, WHITE);
    assert_int_equal(j.best_colour, BLACK);
    assert_true(j.played.mate < 0);
    assert_int_equal(j.played.mate, -j.best.mate);
    assert_int_equal(j.played.score, -j.best.score);
    assert_int_equal(j.flags, JUDGE_BLUNDER | JUDGE_MISSED_WIN);
    /* The same position with white to move: white wins, the choice turns over. */
    assert_true(analysis_judge_colour(e, &lim, &b, WHITE, BLACK, 20, &j, &err));
    assert_int_equal(j.best_colour, WHITE);
    assert_true(j.best.mate > 0 && j.played.mate < 0);
    /* A five already on the board: nothing to search. */
    setup(&b, RULE_FREESTYLE, "h8 i8 h7 i7 h6 i6 h5 i5 h4");
    assert_false(analysis_judge_colour(e, &lim, &b, WHITE, WHITE, 20, &j, &err));
    engine_free(e);
}

static void test_occupied_point_is_an_error(void **state)
{
    (void)state;
    Engine *e = new_engine();
    Board b;
    setup(&b, RULE_FREESTYLE, RACE);
    SearchLimits lim = depth_limit(2);
    MoveJudgement j;
    TgError err = {0};
    assert_false(analysis_judge(e, &lim, &b, BLACK, pt("h8", 15), 20, &j, &err));
    assert_non_null(strstr(err.msg, "not an empty point"));
    engine_free(e);
}

static void test_tally_marks_first_forced_loss(void **state)
{
    (void)state;
    AnalysisTally t;
    analysis_tally_init(&t);
    MoveJudgement j = {.played = {.mate = -5, .score = -(ENGINE_SCORE_WIN - 4)},
                       .best = {.mate = 3, .score = ENGINE_SCORE_WIN - 2}};
    j.flags = JUDGE_BLUNDER | JUDGE_MISSED_WIN;
    analysis_tally(&t, BLACK, 7, &j);
    assert_true(j.flags & JUDGE_FORCED_LOSS);
    MoveJudgement k = {.played = {.mate = -3, .score = -(ENGINE_SCORE_WIN - 2)},
                       .best = {.mate = -3, .score = -(ENGINE_SCORE_WIN - 2)}};
    analysis_tally(&t, BLACK, 9, &k);
    assert_false(k.flags & JUDGE_FORCED_LOSS);
    MoveJudgement w = {.played = {.mate = 4, .score = ENGINE_SCORE_WIN - 3},
                       .best = {.mate = 4, .score = ENGINE_SCORE_WIN - 3}};
    analysis_tally(&t, WHITE, 8, &w);
    assert_int_equal(w.flags, 0);
    assert_int_equal(t.lost_from[0], 7);
    assert_int_equal(t.lost_from[1], 0);
    assert_int_equal(t.blunders[0], 1);
    assert_int_equal(t.missed_wins[0], 1);
    assert_int_equal(t.blunders[1] + t.missed_wins[1], 0);
    /* A win kept gives up nothing; a win let go into a loss gives up all. */
    assert_int_equal(t.judged[0], 2);
    assert_int_equal(t.judged[1], 1);
    assert_true(t.given_up[1] == 0.0);
    assert_true(t.given_up[0] > 99.9 && t.given_up[0] < 100.1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_expected_score),
        cmocka_unit_test(test_best_move_is_not_flagged),
        cmocka_unit_test(test_missed_win_is_a_blunder),
        cmocka_unit_test(test_lost_game_has_no_blunder),
        cmocka_unit_test(test_forbidden_point),
        cmocka_unit_test(test_threshold),
        cmocka_unit_test(test_scores_are_consistent),
        cmocka_unit_test(test_first_move),
        cmocka_unit_test(test_choice),
        cmocka_unit_test(test_colour_choice),
        cmocka_unit_test(test_occupied_point_is_an_error),
        cmocka_unit_test(test_tally_marks_first_forced_loss),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
