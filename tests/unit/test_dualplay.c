/* The dual-board player (dualplay.h, reached through autoplay_decide): it
 * takes a two-board win, never makes a lone five, fills the opponent's five
 * points before they win, and plays whole games to a legal end. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "tengen/autoplay.h"
#include "tengen/coord.h"
#include "tengen/dualplay.h"
#include "tengen/openings.h"
#include "tengen/rng.h"
#include "tengen/rules.h"
#include "tengen/variant.h"

#include "../support/play_script.h"

#ifdef TENGEN_DEBUG
#define SELFPLAY_GAMES 1
#else
#define SELFPLAY_GAMES 4
#endif
#define DECISION_MS 40

static Engine *engine;

static int setup(void **state)
{
    (void)state;
    EngineOptions o;
    engine_options_default(&o);
    o.hash_mb = 4;
    engine = engine_new(&o, NULL);
    return engine ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    engine_free(engine);
    return 0;
}

static void dual_game(Game *g, int size)
{
    GameConfig cfg;
    variant_default(&cfg);
    assert_true(variant_rule_parse("dualboard", &cfg));
    if (size > 0)
        cfg.size = size;
    assert_true(game_init(g, &cfg, NULL));
}

static void play(Game *g, const char *script)
{
    TgError err = {0};
    int bad = test_play(g, script, &err);
    if (bad)
        fail_msg("action %d of '%s' refused: %s", bad, script, err.msg);
}

static void count_reports(const SearchInfo *info, void *user)
{
    assert_true(info->line.pvlen >= 1 && info->line.pvlen <= 2);
    ++*(int *)user;
}

/* Asks the player for one stone, checks it is legal and applies it. */
static Action decide_and_apply_counted(Game *g, int *reports)
{
    int unused = 0;
    Autoplay ap = {.engine = engine,
                   .ms = DECISION_MS,
                   .progress = count_reports,
                   .user = reports ? reports : &unused};
    Action a;
    TgError err = {0};
    if (!autoplay_decide(&ap, g, &a, &err))
        fail_msg("no decision: %s", err.msg);
    assert_int_equal(a.type, ACT_PLACE);
    if (!game_apply(g, &a, &err))
        fail_msg("decision refused: %s", err.msg);
    return a;
}

static Action decide_and_apply(Game *g)
{
    return decide_and_apply_counted(g, NULL);
}

/* Plays the rest of the current turn of the player to move. */
static void play_turn(Game *g)
{
    GameTurn t;
    game_turn(g, &t);
    Color c = t.stone;
    while (!game_over(g)) {
        decide_and_apply(g);
        game_turn(g, &t);
        if (t.stone != c)
            break;
    }
}

static int five_points(const Board *b, Color c)
{
    int n = 0;
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            Point p = point_make(x, y);
            if (board_at(b, p) != EMPTY)
                continue;
            board_play((Board *)b, p, c);
            n += rules_is_win(b, p, c, NULL, NULL);
            board_undo((Board *)b);
        }
    return n;
}

/* Black: h8-k8 on both boards, open on board 2 (g8, l8 free); on board 1
 * white holds g8 when `blocked`. White's stones on board 2's row 1 never make
 * a five. White to move. */
static void black_fours(Game *g, bool blocked)
{
    dual_game(g, 0);
    play(g, blocked ? "1:h8 1:g8 2:a1" : "1:h8 2:a3 2:a1");
    play(g, "1:i8 1:j8 2:c1 2:e1 1:k8 2:h8 2:g1 2:i1 2:i8 2:j8 2:k1 2:m1 2:k8 2:a15");
    assert_false(game_over(g));
}

static void test_takes_two_board_win(void **state)
{
    (void)state;
    Game g;
    black_fours(&g, false);
    play(&g, "2:c3 2:e3"); /* white ignores the threat */
    play_turn(&g);
    const GameResult *r = game_result(&g);
    assert_int_equal(r->reason, REASON_DUAL_FIVES);
    assert_int_equal(r->winner, BLACK);
    game_free(&g);
}

/* White must fill black's five points on one board: l8 alone on board 1, or
 * both of board 2's. */
static void test_blocks_two_board_win(void **state)
{
    (void)state;
    for (int blocked = 0; blocked < 2; blocked++) {
        Game g;
        black_fours(&g, blocked);
        play_turn(&g);
        assert_false(game_over(&g));
        int f0 = five_points(game_board(&g, 0), BLACK);
        int f1 = five_points(game_board(&g, 1), BLACK);
        assert_true(f0 == 0 || f1 == 0);
        play_turn(&g);
        assert_true(!game_over(&g) || game_result(&g)->winner != BLACK);
        game_free(&g);
    }
}

/* Black has a four on board 1 only: completing it would lose. */
static void test_no_lone_five(void **state)
{
    (void)state;
    Game g;
    dual_game(&g, 0);
    play(&g, "1:h8 2:a1 2:c1 1:i8 1:j8 2:e1 2:g1 1:k8 2:h8 2:i1 2:k1 2:i8 2:j8 2:m1 2:o1");
    int reports = 0;
    for (int stone = 0; stone < 2; stone++) {
        Action a = decide_and_apply_counted(&g, &reports);
        assert_false(game_over(&g));
        assert_false(a.board == 0 && (a.point == point_make(6, 7) || a.point == point_make(11, 7)));
    }
    assert_int_equal(reports, 2); /* both stones were planned and reported */
    game_free(&g);
}

/* Whole games engine against engine from random starts: every decision is
 * legal, nobody ever loses by a lone five, and the game ends. */
static void test_selfplay(void **state)
{
    (void)state;
    Rng rng;
    rng_seed(&rng, 20261129);
    for (int game = 0; game < SELFPLAY_GAMES; game++) {
        Game g;
        dual_game(&g, 9 + 2 * (game % 2));
        /* A random first round and reply: different games. */
        for (int i = 0; i < 3; i++) {
            int size = g.config.size;
            Action a =
                game_action_place(rng_below(&rng, 2), point_make(2 + rng_below(&rng, size - 4),
                                                                 2 + rng_below(&rng, size - 4)));
            game_apply(&g, &a, NULL);
        }
        int stones = 0;
        while (!game_over(&g)) {
            decide_and_apply(&g);
            assert_true(++stones <= 2 * 11 * 11);
        }
        const GameResult *r = game_result(&g);
        assert_true(r->reason == REASON_DUAL_FIVES || r->reason == REASON_NO_FIVE ||
                    r->reason == REASON_FULL_BOARD);
        if (r->reason == REASON_DUAL_FIVES)
            assert_true(rules_has_win(game_board(&g, 0), r->winner) &&
                        rules_has_win(game_board(&g, 1), r->winner));
        game_free(&g);
    }
}

/* The first stone of a game goes on the centre the game's opening rules
 * name: on an even board the lower-left of the middle four. */
static void test_first_stone_centre(void **state)
{
    (void)state;
    for (int size = 9; size <= 10; size++) {
        Game g;
        dual_game(&g, size);
        Action a = decide_and_apply(&g);
        assert_int_equal(a.point, opening_center(size));
        game_free(&g);
    }
}

/* Against a player that drops its stones anywhere at random, the engine wins
 * every game, with either colour. */
static void test_beats_random(void **state)
{
    (void)state;
    Rng rng;
    rng_seed(&rng, 7);
    for (int game = 0; game < 2; game++) {
        Game g;
        dual_game(&g, 11);
        Color engine_colour = game % 2 ? WHITE : BLACK;
        while (!game_over(&g)) {
            GameTurn t;
            game_turn(&g, &t);
            if (t.stone == engine_colour) {
                decide_and_apply(&g);
                continue;
            }
            Point pts[BOARD_MAX_MOVES];
            int bi = rng_below(&rng, 2);
            int n = game_legal_points(&g, bi, pts);
            if (n == 0)
                n = game_legal_points(&g, bi = 1 - bi, pts);
            Action a = game_action_place(bi, pts[rng_below(&rng, n)]);
            assert_true(game_apply(&g, &a, NULL));
        }
        assert_int_equal(game_result(&g)->winner, engine_colour);
        game_free(&g);
    }
}

static void test_refuses_when_not_asked(void **state)
{
    (void)state;
    Game g;
    Autoplay ap = {.engine = engine, .ms = DECISION_MS};
    Action a;
    TgError err = {0};
    test_game(&g, RULE_FREESTYLE, OPENING_FREE, 0);
    assert_false(dualplay_decide(&ap, &g, &a, &err));
    game_free(&g);
    black_fours(&g, false);
    play(&g, "2:c3 2:e3 1:g8 2:g8");
    assert_true(game_over(&g));
    assert_false(dualplay_decide(&ap, &g, &a, &err));
    game_free(&g);
}

/* ---- judging a turn (dualplay_judge) ---- */

/* One stone "B:pt" (B 1 or 2) of a turn. */
static void turn_stone(DualTurn *t, int bi, const char *pt)
{
    Point p;
    assert_true(coord_parse(pt, 15, &p, NULL));
    t->board[t->n] = bi - 1;
    t->p[t->n++] = p;
}

static DualJudgement judge_turn(const Game *g, const DualTurn *t)
{
    Autoplay ap = {.engine = engine, .ms = 200};
    DualJudgement j;
    TgError err = {0};
    if (!dualplay_judge(&ap, g, t, 20, &j, &err))
        fail_msg("no judgement: %s", err.msg);
    assert_true(j.best.score >= j.played.score);
    return j;
}

/* Puts n stones (board[i], p[i]) down in g; each must be accepted. */
static void place_stones(Game *g, int n, const int board[2], const Point p[2])
{
    for (int i = 0; i < n; i++) {
        Action a = game_action_place(board[i], p[i]);
        assert_true(game_apply(g, &a, NULL));
    }
}

/* Plays a judged option's stones (or its reply's) on a copy of g and says how the game ends. */
static GameReason outcome(const Game *g, int n, const int board[2], const Point p[2], Color *winner)
{
    Game c;
    assert_true(game_copy(&c, g));
    place_stones(&c, n, board, p);
    GameReason r = game_result(&c)->reason;
    *winner = game_result(&c)->winner;
    game_free(&c);
    return r;
}

/* Black holds five points on both boards and plays elsewhere: a missed win,
 * and the choice is the two-board win. */
static void test_judge_missed_win(void **state)
{
    (void)state;
    Game g;
    black_fours(&g, false);
    play(&g, "2:c3 2:e3");
    DualTurn t = {0};
    turn_stone(&t, 1, "a15");
    turn_stone(&t, 1, "c15");
    DualJudgement j = judge_turn(&g, &t);
    assert_int_equal(j.best.mate, 1);
    assert_true(j.flags & JUDGE_MISSED_WIN);
    assert_true(j.played.mate <= 0);
    Color w;
    assert_int_equal(outcome(&g, j.best.n, j.best.board, j.best.p, &w), REASON_DUAL_FIVES);
    assert_int_equal(w, BLACK);
    game_free(&g);
}

/* White leaves black five points on both boards: lost at turn 2, a blunder,
 * and the reply shown is black's win; filling one board is not lost. */
static void test_judge_loss_next_turn(void **state)
{
    (void)state;
    Game g;
    black_fours(&g, false);
    DualTurn t = {0};
    turn_stone(&t, 2, "c3");
    turn_stone(&t, 2, "e3");
    DualJudgement j = judge_turn(&g, &t);
    assert_int_equal(j.played.mate, -2);
    assert_true(j.flags & JUDGE_BLUNDER);
    assert_false(j.flags & JUDGE_MISSED_WIN);
    assert_true(j.best.mate >= 0);
    place_stones(&g, t.n, t.board, t.p);
    Color w;
    assert_int_equal(outcome(&g, j.played.reply.n, j.played.reply.board, j.played.reply.p, &w),
                     REASON_DUAL_FIVES);
    assert_int_equal(w, BLACK);
    game_free(&g);
}

/* A five on one board only: the turn itself loses. */
static void test_judge_lone_five(void **state)
{
    (void)state;
    Game g;
    dual_game(&g, 0);
    play(&g, "1:h8 2:a1 2:c1 1:i8 1:j8 2:e1 2:g1 1:k8 2:h8 2:i1 2:k1 2:i8 2:j8 2:m1 2:o1");
    DualTurn t = {0};
    turn_stone(&t, 1, "l8");
    turn_stone(&t, 2, "a15");
    DualJudgement j = judge_turn(&g, &t);
    assert_int_equal(j.played.mate, -1);
    assert_true(j.flags & JUDGE_BLUNDER);
    assert_true(j.best.mate >= 0);
    Color w;
    assert_int_equal(outcome(&g, t.n, t.board, t.p, &w), REASON_DUAL_ONE_BOARD);
    assert_int_equal(w, WHITE);
    game_free(&g);
}

/* Black's turn leaves it four five points on each board: white can fill at
 * most two, so black wins at turn 3. */
static void test_judge_win_in_three(void **state)
{
    (void)state;
    Game g;
    dual_game(&g, 0);
    /* Board 1: black's open four h8-k8 and m10-m12; board 2: e8-g8 and h5-h7.
     * White's stones two apart on the edges never line up. */
    play(&g, "1:h8 2:a1 2:c1 1:i8 1:j8 2:e1 2:g1 1:k8 1:m10 2:i1 2:k1 1:m11 1:m12 2:m1 2:o1 "
             "2:e8 2:f8 2:a15 2:c15 2:g8 2:h5 2:e15 2:g15 2:h6 2:h7 1:a1 1:c1");
    assert_false(game_over(&g));
    DualTurn t = {0};
    turn_stone(&t, 1, "m13");
    turn_stone(&t, 2, "h8");
    DualJudgement j = judge_turn(&g, &t);
    assert_int_equal(j.played.mate, 3);
    assert_false(j.flags & (JUDGE_BLUNDER | JUDGE_MISSED_WIN));
    game_free(&g);
}

/* Stones that do not fit the turn, or a turn already begun, are refused. */
static void test_judge_refuses(void **state)
{
    (void)state;
    Game g;
    black_fours(&g, false);
    Autoplay ap = {.engine = engine, .ms = 50};
    DualJudgement j;
    TgError err = {0};
    DualTurn t = {0};
    turn_stone(&t, 2, "c3");
    assert_false(dualplay_judge(&ap, &g, &t, 20, &j, &err)); /* one stone of two */
    turn_stone(&t, 2, "c3");
    assert_false(dualplay_judge(&ap, &g, &t, 20, &j, &err)); /* the same point twice */
    t = (DualTurn){0};
    turn_stone(&t, 1, "h8");
    turn_stone(&t, 2, "c3");
    assert_false(dualplay_judge(&ap, &g, &t, 20, &j, &err)); /* h8 is taken */
    play(&g, "2:c3");
    t = (DualTurn){0};
    turn_stone(&t, 2, "e3");
    assert_false(dualplay_judge(&ap, &g, &t, 20, &j, &err)); /* the turn has begun */
    game_free(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_takes_two_board_win), cmocka_unit_test(test_blocks_two_board_win),
        cmocka_unit_test(test_no_lone_five),        cmocka_unit_test(test_selfplay),
        cmocka_unit_test(test_beats_random),        cmocka_unit_test(test_refuses_when_not_asked),
        cmocka_unit_test(test_judge_missed_win),    cmocka_unit_test(test_judge_loss_next_turn),
        cmocka_unit_test(test_judge_lone_five),     cmocka_unit_test(test_judge_win_in_three),
        cmocka_unit_test(test_judge_refuses),
        cmocka_unit_test(test_first_stone_centre),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
