/* The search engine: tactics, legality over self-play, limits, stop, and two
 * engines in one process. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../src/engine/search.h"
#include "tengen/coord.h"
#include "tengen/engine.h"
#include "tengen/forbid.h"
#include "tengen/pattern.h"
#include "tengen/rng.h"
#include "tengen/rules.h"
#include "tengen/solver.h"

#ifdef TENGEN_DEBUG /* every play re-verifies the whole board: keep it small */
#define SELFPLAY_NODES 200
#define SELFPLAY_MAX_MOVES 12
#define TACTIC_DEPTH 3
#else
#define TACTIC_DEPTH 5
#define SELFPLAY_NODES 3000
#define SELFPLAY_MAX_MOVES 200
#endif

static Point pt(const char *s, int size)
{
    Point p = POINT_NONE;
    TgError err;
    assert_true(coord_parse(s, size, &p, &err));
    return p;
}

/* Places space-separated stones of one colour. */
static void put(Board *b, Color c, const char *list)
{
    char buf[256];
    strncpy(buf, list, sizeof buf - 1);
    buf[sizeof buf - 1] = 0;
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " "))
        board_play(b, pt(t, b->size), c);
}

static Engine *new_engine(int threads)
{
    EngineOptions o;
    engine_options_default(&o);
    o.threads = threads;
    o.hash_mb = 4;
    TgError err;
    Engine *e = engine_new(&o, &err);
    assert_non_null(e);
    return e;
}

static SearchResult think_depth(Engine *e, const Board *b, Color to_move, int depth)
{
    TgError err;
    assert_true(engine_set_position(e, b, to_move, &err));
    SearchLimits lim;
    search_limits_init(&lim);
    lim.depth = depth;
    SearchResult r;
    assert_true(engine_think(e, &lim, NULL, NULL, &r));
    return r;
}

static void test_five_in_one(void **state)
{
    (void)state;
    for (Rule rule = 0; rule < RULE_COUNT; rule++) {
        Board b;
        board_init(&b, 15, rule);
        put(&b, BLACK, "h8 i8 j8 k8");
        put(&b, WHITE, "g8 a1 a3 c2");
        Engine *e = new_engine(1);
        SearchResult r = think_depth(e, &b, BLACK, 4);
        assert_int_equal(r.best, pt("l8", 15));
        assert_int_equal(r.mate, 1);
        engine_free(e);
    }
}

/* White must stop the four's five, and after its answer black has no winning point. */
static void test_blocks_four(void **state)
{
    (void)state;
    for (Rule rule = 0; rule < RULE_COUNT; rule++) {
        Board b;
        board_init(&b, 15, rule);
        put(&b, BLACK, "h8 i8 j8 k8 c3");
        put(&b, WHITE, "g8 h9 i10 b12");
        Engine *e = new_engine(1);
        SearchResult r = think_depth(e, &b, WHITE, 4);
        /* l8 everywhere; in caro m8 also answers, since a five blocked at
         * both ends does not win there. The rules decide, not the test. */
        if (rule == RULE_CARO)
            assert_true(r.best == pt("l8", 15) || r.best == pt("m8", 15));
        else
            assert_int_equal(r.best, pt("l8", 15));
        board_play(&b, r.best, WHITE);
        for (Point p = 0; p < BOARD_CELLS; p++)
            if (b.cell[p] == EMPTY)
                assert_false(rules_is_win(&b, p, BLACK, NULL, NULL));
        engine_free(e);
    }
}

/* After white's answer black must have no win by fours (and no legal
 * flex-four point). In caro f8 and l8 answer too: after l8, black's g8
 * threatens f8 and k8, but f8 leaves k8's five blocked at both ends (l8
 * likewise for f8). */
static void test_blocks_open_three(void **state)
{
    (void)state;
    for (Rule rule = 0; rule < RULE_COUNT; rule++) {
        Board b;
        board_init(&b, 15, rule);
        put(&b, BLACK, "h8 i8 j8");
        put(&b, WHITE, "h10 c13");
        Engine *e = new_engine(1);
        SearchResult r = think_depth(e, &b, WHITE, TACTIC_DEPTH);
        bool caro_far = rule == RULE_CARO && (r.best == pt("f8", 15) || r.best == pt("l8", 15));
        assert_true(r.best == pt("g8", 15) || r.best == pt("k8", 15) || caro_far);
        board_play(&b, r.best, WHITE);
        /* In caro such a four still has two five points, but not both at once. */
        for (Point p = 0; p < BOARD_CELLS && !caro_far; p++)
            for (int d = 0; d < DIR_COUNT && b.cell[p] == EMPTY; d++)
                assert_int_not_equal(board_pattern(&b, p, d, BLACK), PAT_F4);
        Solver *sv = solver_new(1 << 20);
        SolverLimits sl = {.max_nodes = 200000};
        assert_int_not_equal(vcf_solve(sv, &b, BLACK, &sl, NULL), SOLVE_WIN);
        solver_free(sv);
        engine_free(e);
    }
}

/* The side not to move has a four-three point (h5: a four on row 5 and a flex
 * three on column h); the answer must leave it without a win by fours, and
 * in renju this holds for black answering white's four-three too. */
static void test_answers_four_three(void **state)
{
    (void)state;
    for (Rule rule = 0; rule < RULE_COUNT; rule++) {
        if (rule == RULE_CARO)
            continue; /* a caro four blocked at one end is weaker: another test */
        for (Color att = BLACK; att <= WHITE; att++) {
            Color def = color_other(att);
            Board b;
            board_init(&b, 15, rule);
            put(&b, att, "e5 f5 g5 h6 h7");
            put(&b, def, "d5 a15 o15 b1");
            if (att == WHITE)
                put(&b, def, "n1"); /* black has one stone more */
            Engine *e = new_engine(1);
            SearchResult r = think_depth(e, &b, def, TACTIC_DEPTH);
            board_play(&b, r.best, def);
            Solver *sv = solver_new(1 << 20);
            SolverLimits sl = {.max_nodes = 200000};
            SolverResult res;
            assert_int_not_equal(vcf_solve(sv, &b, att, &sl, &res), SOLVE_WIN);
            solver_free(sv);
            engine_free(e);
        }
    }
}

/* A game of the fifty-sixth session (standard, tengen black against Rapfi):
 * black threatens e5, a four on row 5 and a three on the g3-d6 diagonal.
 * White's e6 is no answer and no four but a three on d5-h9, so that black's
 * e5 is met by d5, a block that makes white's flex four: white wins. A search
 * that answered four-three points only by blocks and fours called this lost
 * for white (loss 22 at depth 10) and played into it as black. */
static void test_four_three_answered_by_three(void **state)
{
    (void)state;
    const char *moves[] = {"k6", "e7", "g7", "f6", "g5", "f8", "d6", "f9",
                           "f5", "g8", "h5", "i5", "g3", "f7", "f10"};
    Rule rules[] = {RULE_STANDARD, RULE_FREESTYLE};
    for (int i = 0; i < 2; i++) {
        Board b;
        board_init(&b, 15, rules[i]);
        for (int k = 0; k < 15; k++)
            board_play(&b, pt(moves[k], 15), k % 2 ? WHITE : BLACK);
        Engine *e = new_engine(1);
        SearchResult r = think_depth(e, &b, WHITE, 10);
        assert_true(r.mate > 0);
        assert_int_equal(r.best, pt("e6", 15));
        engine_free(e);
        /* The idea, by the rules alone: after e6 e5 d5 black has no five
         * point and white has two (c4, h9). */
        board_play(&b, pt("e6", 15), WHITE);
        board_play(&b, pt("e5", 15), BLACK);
        assert_true(rules_is_win(&b, pt("d5", 15), BLACK, NULL, NULL));
        board_play(&b, pt("d5", 15), WHITE);
        int black_fives = 0;
        for (Point p = 0; p < BOARD_CELLS; p++)
            black_fives += b.cell[p] == EMPTY && rules_is_win(&b, p, BLACK, NULL, NULL);
        assert_int_equal(black_fives, 0);
        assert_true(rules_is_win(&b, pt("c4", 15), WHITE, NULL, NULL));
        assert_true(rules_is_win(&b, pt("h9", 15), WHITE, NULL, NULL));
    }
}

/* Standard, black to move (a game against Rapfi): j7 loses to white's e8, a
 * three that black blocks at h11; white's quiet j9 then leaves black no open
 * three to answer but a VCF against it. Black's evaluation there is far above
 * beta, and reverse futility cut the node off, so j7 looked good through
 * depth 15; with the opponent's VCF probed first, the loss shows by depth 10. */
static void test_futility_sees_opponent_vcf(void **state)
{
    (void)state;
    const char *moves[] = {"f10", "g8", "k8", "f8", "h8", "g9", "h10", "h9", "i10", "g10",
                           "g7", "i8", "f11", "g11", "g12", "f9", "i9", "d9", "e9", "j10"};
    Board b;
    board_init(&b, 15, RULE_STANDARD);
    for (int k = 0; k < 20; k++)
        board_play(&b, pt(moves[k], 15), k % 2 ? WHITE : BLACK);
    Engine *e = new_engine(1);
    TgError err;
    assert_true(engine_set_position(e, &b, BLACK, &err));
    SearchLimits lim;
    search_limits_init(&lim);
    lim.depth = 10;
    lim.nroot = 1;
    lim.root[0] = pt("j7", 15);
    SearchResult r;
    assert_true(engine_think(e, &lim, NULL, NULL, &r));
    assert_int_equal(r.best, pt("j7", 15));
    assert_true(r.mate < 0);
    engine_free(e);
    /* The quiet move's threat, by the solver: after j7 e8 h11 j9, white wins by fours. */
    const char *line[] = {"j7", "e8", "h11", "j9"};
    for (int k = 0; k < 4; k++)
        board_play(&b, pt(line[k], 15), k % 2 ? WHITE : BLACK);
    Solver *sv = solver_new(1 << 20);
    assert_non_null(sv);
    SolverResult sr;
    assert_int_equal(vcf_solve(sv, &b, WHITE, NULL, &sr), SOLVE_WIN);
    assert_int_equal(vcf_solve(sv, &b, BLACK, NULL, &sr), SOLVE_NO_WIN);
    solver_free(sv);
}

/* Black: h8 makes a four (column) so white must take h7; then k8 is four-three.
 * Seven plies in all, and every black move before the last is a four or a three. */
static void test_finds_vcf(void **state)
{
    (void)state;
    for (Rule rule = 0; rule < RULE_COUNT; rule++) {
        Board b;
        board_init(&b, 15, rule);
        put(&b, BLACK, "i8 j8 h9 h10 h11 k10 k11");
        put(&b, WHITE, "g8 h12 a1 a15 o1 o15 b14");
        Engine *e = new_engine(1);
        SearchResult r = think_depth(e, &b, BLACK, 8);
        assert_true(r.mate > 0 && r.mate <= 7);
        engine_free(e);
    }
}

/* In freestyle an answer to an open three with few defences costs no depth,
 * so a VCT of three attacker moves (a win in 9 plies) shows at depth 4; with
 * every answer taking a ply it needs depth 5. */
static void test_threat_answers_cost_no_depth(void **state)
{
    (void)state;
    Board b;
    board_init(&b, 15, RULE_FREESTYLE);
    put(&b, BLACK, "h9 g10 h7 f7 h6");
    put(&b, WHITE, "i9 h8 i8 j9");
    Engine *e = new_engine(1);
    SearchResult r = think_depth(e, &b, WHITE, 4);
    assert_int_equal(r.mate, 9);
    engine_free(e);
}

/* Renju: white's four whose only block is a black double-three point wins. */
static void test_white_uses_forbidden_point(void **state)
{
    (void)state;
    Board b;
    board_init(&b, 15, RULE_RENJU);
    put(&b, BLACK, "i8 j8 h9 h10 c3 i9");
    put(&b, WHITE, "e5 f6 g7 a15 o15 o1");
    assert_int_equal(forbid_check(&b, pt("h8", 15)), FORBID_DOUBLE_THREE);
    Engine *e = new_engine(1);
    SearchResult r = think_depth(e, &b, WHITE, 4);
    assert_int_equal(r.best, pt("d4", 15));
    assert_int_equal(r.mate, 3);
    /* Black to move after d4 is lost: it may not block at h8. */
    board_play(&b, pt("d4", 15), WHITE);
    r = think_depth(e, &b, BLACK, 4);
    assert_int_not_equal(r.best, pt("h8", 15));
    assert_true(r.mate < 0);
    engine_free(e);
}

/* Plays a game with the engine on both sides and checks every move. */
static void selfplay(Engine *e, int size, Rule rule, uint64_t seed)
{
    Board b;
    board_init(&b, size, rule);
    Rng rng;
    rng_seed(&rng, seed);
    rng_clustered_position(&rng, &b, size >= 9 ? 2 + rng_below(&rng, 4) : 0);
    if (rules_has_win(&b, BLACK) || rules_has_win(&b, WHITE))
        return;
    Color c = board_side_to_move(&b);
    SearchLimits lim;
    search_limits_init(&lim);
    lim.nodes = SELFPLAY_NODES;
    TgError err;
    for (int i = 0; i < SELFPLAY_MAX_MOVES; i++) {
        assert_true(engine_set_position(e, &b, c, &err));
        SearchResult r;
        assert_true(engine_think(e, &lim, NULL, NULL, &r));
        /* The node budget holds within a check interval and one leaf probe,
         * even though probes add their nodes in bulk. */
        if (r.nodes > lim.nodes + lim.nodes / 16 + 1 + 200)
            fail_msg("%llu nodes searched on a budget of %llu", (unsigned long long)r.nodes,
                     (unsigned long long)lim.nodes);
        if (b.count == board_area(&b)) {
            assert_int_equal(r.best, POINT_NONE);
            return;
        }
        assert_int_not_equal(r.best, POINT_NONE);
        assert_true(board_on(&b, r.best));
        assert_int_equal(b.cell[r.best], EMPTY);
        if (rule == RULE_RENJU && c == BLACK)
            assert_false(forbid_is_forbidden(forbid_check(&b, r.best)));
        bool won = rules_is_win(&b, r.best, c, NULL, NULL);
        board_play(&b, r.best, c);
        if (won)
            return;
        c = color_other(c);
    }
}

static void test_selfplay_legal(void **state)
{
    (void)state;
#ifdef TENGEN_DEBUG
    static const int sizes[] = {5, 9, 15};
#else
    static const int sizes[] = {5, 6, 9, 15, 20, 22};
#endif
    Engine *e = new_engine(1);
    uint64_t seed = 1;
    for (Rule rule = 0; rule < RULE_COUNT; rule++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
            selfplay(e, sizes[i], rule, seed++);
    engine_free(e);
}

static void test_full_board_no_move(void **state)
{
    (void)state;
    Rng r;
    rng_seed(&r, 5);
    Board b;
    for (int tries = 0; tries < 1000; tries++) {
        board_init(&b, 5, RULE_FREESTYLE);
        for (int i = 0; i < 25; i++) {
            Point p;
            do
                p = rng_point(&r, 0, 5);
            while (b.cell[p] != EMPTY);
            board_play(&b, p, i % 2 ? WHITE : BLACK);
        }
        if (!rules_has_win(&b, BLACK) && !rules_has_win(&b, WHITE))
            break;
    }
    assert_int_equal(b.count, 25);
    Engine *e = new_engine(1);
    SearchResult res = think_depth(e, &b, WHITE, 3);
    assert_int_equal(res.best, POINT_NONE);
    engine_free(e);
}

static void test_limits_obeyed(void **state)
{
    (void)state;
    Board b;
    board_init(&b, 15, RULE_FREESTYLE);
    put(&b, BLACK, "h8 i9 j8");
    put(&b, WHITE, "h9 g8");
    Engine *e = new_engine(1);
    TgError err;
    assert_true(engine_set_position(e, &b, WHITE, &err));
    SearchLimits lim;
    search_limits_init(&lim);
    lim.nodes = 5000;
    SearchResult r;
    assert_true(engine_think(e, &lim, NULL, NULL, &r));
    assert_true(r.nodes >= 5000 && r.nodes < 5000 + 2048);
    assert_int_not_equal(r.best, POINT_NONE);
    search_limits_init(&lim);
    lim.depth = 3;
    assert_true(engine_think(e, &lim, NULL, NULL, &r));
    assert_int_equal(r.depth, 3);
    engine_free(e);
}

#ifndef TENGEN_DEBUG
/* Under a clock, a win found by two iterations in a row is played: the
 * search does not deepen until the win's length (13 plies here) is reached. */
static void test_win_ends_timed_search(void **state)
{
    (void)state;
    Board b;
    board_init(&b, 15, RULE_FREESTYLE);
    put(&b, BLACK, "h8 i9 j10 i10");
    put(&b, WHITE, "h9 g7 k11 i11");
    Engine *e = new_engine(1);
    TgError err;
    assert_true(engine_set_position(e, &b, BLACK, &err));
    SearchLimits lim;
    search_limits_init(&lim);
    lim.turn_ms = 120000;
    SearchResult r;
    assert_true(engine_think(e, &lim, NULL, NULL, &r));
    assert_true(r.mate > 0);
    assert_true(r.depth < r.mate);
    assert_true(r.time_ms < 120000);
    engine_free(e);
}
#endif

typedef struct {
    Engine *e;
    SearchResult r;
    volatile int reports;
} ThinkJob;

static void count_report(const SearchInfo *info, void *user)
{
    (void)info;
    ((ThinkJob *)user)->reports++;
}

static void *think_forever(void *arg)
{
    ThinkJob *j = arg;
    SearchLimits lim;
    search_limits_init(&lim);
    engine_think(j->e, &lim, count_report, j, &j->r);
    return NULL;
}

static void test_stop_from_other_thread(void **state)
{
    (void)state;
    Board b;
    board_init(&b, 15, RULE_RENJU);
    put(&b, BLACK, "h8 i9 j8");
    put(&b, WHITE, "h9 g8");
    for (int threads = 1; threads <= 2; threads++) {
        ThinkJob j = {.e = new_engine(threads)};
        TgError err;
        assert_true(engine_set_position(j.e, &b, WHITE, &err));
        pthread_t t;
        assert_int_equal(pthread_create(&t, NULL, think_forever, &j), 0);
        struct timespec ms = {0, 1000000};
        while (!j.reports)
            nanosleep(&ms, NULL);
        engine_stop(j.e);
        pthread_join(t, NULL);
        assert_int_not_equal(j.r.best, POINT_NONE);
        assert_int_equal(b.cell[j.r.best], EMPTY);
        engine_free(j.e);
    }
}

typedef struct {
    Board b;
    Color c;
    SearchResult r;
} Job;

static void *run_job(void *arg)
{
    Job *j = arg;
    Engine *e = new_engine(1);
    j->r = think_depth(e, &j->b, j->c, TACTIC_DEPTH);
    engine_free(e);
    return NULL;
}

/* Two engines searching at once give the same answers as one after the other. */
static void test_two_engines(void **state)
{
    (void)state;
    Job jobs[2];
    board_init(&jobs[0].b, 15, RULE_RENJU);
    put(&jobs[0].b, BLACK, "h8 i9");
    put(&jobs[0].b, WHITE, "h9");
    jobs[0].c = BLACK;
    board_init(&jobs[1].b, 20, RULE_FREESTYLE);
    put(&jobs[1].b, BLACK, "k10 l11 m10");
    put(&jobs[1].b, WHITE, "k11 j10");
    jobs[1].c = WHITE;
    SearchResult seq[2];
    for (int i = 0; i < 2; i++) {
        run_job(&jobs[i]);
        seq[i] = jobs[i].r;
    }
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_create(&t[i], NULL, run_job, &jobs[i]), 0);
    for (int i = 0; i < 2; i++) {
        pthread_join(t[i], NULL);
        assert_int_equal(jobs[i].r.best, seq[i].best);
        assert_int_equal(jobs[i].r.score, seq[i].score);
        assert_true(jobs[i].r.nodes == seq[i].nodes);
    }
}

static void test_nbest_and_root_moves(void **state)
{
    (void)state;
    Board b;
    board_init(&b, 15, RULE_FREESTYLE);
    put(&b, BLACK, "h8 i9");
    put(&b, WHITE, "h9");
    Engine *e = new_engine(1);
    TgError err;
    assert_true(engine_set_position(e, &b, BLACK, &err));
    SearchLimits lim;
    search_limits_init(&lim);
    lim.depth = 3;
    lim.nbest = 4;
    SearchResult r;
    assert_true(engine_think(e, &lim, NULL, NULL, &r));
    assert_int_equal(r.nlines, 4);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(b.cell[r.lines[i].move], EMPTY);
        for (int k = 0; k < i; k++)
            assert_int_not_equal(r.lines[i].move, r.lines[k].move);
        if (i)
            assert_true(r.lines[i].score <= r.lines[i - 1].score);
    }
    /* Restricting the root: only the listed legal moves, occupied ones dropped. */
    search_limits_init(&lim);
    lim.depth = 2;
    lim.nroot = 3;
    lim.root[0] = pt("a1", 15);
    lim.root[1] = pt("h8", 15);
    lim.root[2] = pt("o15", 15);
    assert_true(engine_think(e, &lim, NULL, NULL, &r));
    assert_true(r.best == pt("a1", 15) || r.best == pt("o15", 15));
    /* One move asked to be scored (tengen analyze) is searched to the depth
     * asked for, not cut short like a forced move. */
    search_limits_init(&lim);
    lim.depth = 5;
    lim.nroot = 1;
    lim.root[0] = pt("g7", 15);
    assert_true(engine_think(e, &lim, NULL, NULL, &r));
    assert_int_equal(r.best, pt("g7", 15));
    assert_int_equal(r.depth, 5);
    engine_free(e);
}

/* The table is allocated untouched and a clear skips a table no search wrote,
 * so: a search after a clear costs what it cost on a fresh table (a clear that
 * skipped a written table would make it cheaper), and mapping the pages in
 * advance changes nothing but stops when cancelled. */
static void test_hash_clear_and_prefault(void **state)
{
    (void)state;
    Board b;
    board_init(&b, 15, RULE_FREESTYLE);
    put(&b, BLACK, "h8 i9 j8");
    put(&b, WHITE, "h9 g7");
    Engine *e = new_engine(1);
    engine_clear_hash(e); /* nothing written yet */
    SearchResult fresh = think_depth(e, &b, WHITE, TACTIC_DEPTH);
    SearchResult again = think_depth(e, &b, WHITE, TACTIC_DEPTH);
    assert_true(again.nodes < fresh.nodes);
    engine_clear_hash(e);
    SearchResult cleared = think_depth(e, &b, WHITE, TACTIC_DEPTH);
    assert_int_equal(cleared.best, fresh.best);
    assert_true(cleared.nodes == fresh.nodes);
    engine_clear_hash(e);
    _Atomic bool cancel;
    atomic_init(&cancel, false);
    assert_true(engine_prefault_hash(e, &cancel));
    SearchResult mapped = think_depth(e, &b, WHITE, TACTIC_DEPTH);
    assert_true(mapped.nodes == fresh.nodes);
    engine_free(e);
    /* cancelled before it starts on a new table: not mapped */
    e = new_engine(1);
    atomic_store(&cancel, true);
    assert_false(engine_prefault_hash(e, &cancel));
    assert_int_equal(tt_mapped(&e->tt), 0);
    engine_free(e);
}

#if HUGEMEM_MAPS
/* Whether the page holding p is in memory. */
static bool resident(const void *p)
{
    uintptr_t page = (uintptr_t)p & ~(uintptr_t)4095;
    unsigned char v = 0;
    assert_int_equal(mincore((void *)page, 4096, &v), 0);
    return v & 1;
}
#endif

/* A search on the clock writes only the mapped part of the table (a short one
 * on a new table would otherwise pay a page fault for every page it wrote and
 * overrun its time); a search without a clock uses all of it; mapping grows
 * the part a timed search uses. */
static void test_clock_uses_mapped_hash(void **state)
{
    (void)state;
    Board b;
    board_init(&b, 15, RULE_STANDARD);
    put(&b, BLACK, "h8 i9 j8");
    put(&b, WHITE, "h9 g7");
    EngineOptions o;
    engine_options_default(&o);
    o.hash_mb = 128;
    TgError err;
    Engine *e = engine_new(&o, &err);
    assert_non_null(e);
    const TransTable *t = &e->tt;
    assert_true(engine_set_position(e, &b, WHITE, &err));
    SearchLimits lim;
    search_limits_init(&lim);
    lim.turn_ms = 4;
    SearchResult r;
    assert_true(engine_think(e, &lim, NULL, NULL, &r));
    assert_int_not_equal(r.best, POINT_NONE);
    assert_true(r.nodes > 0);
    assert_true(t->active < t->nbuckets / 4 && t->active <= t->dirty);
    assert_true(t->active <= tt_mapped(t) || t->active == 4096 / (TT_BUCKET * sizeof(TtEntry)));
#if HUGEMEM_MAPS
    assert_false(resident(&t->entry[(t->nbuckets - 1) * TT_BUCKET]));
#endif
    size_t first = t->active;
    /* mapping grows what the next timed search uses */
    assert_true(tt_touch_some(&e->tt, t->nbuckets / 2 - tt_mapped(t)));
    assert_true(engine_think(e, &lim, NULL, NULL, &r));
    assert_true(t->active == t->nbuckets / 2 && t->active > first);
#if HUGEMEM_MAPS
    assert_false(resident(&t->entry[(t->nbuckets - 1) * TT_BUCKET]));
#endif
    /* clearing empties the used part without mapping the rest */
    engine_clear_hash(e);
    assert_int_equal(t->dirty, 0);
#if HUGEMEM_MAPS
    assert_false(resident(&t->entry[(t->nbuckets - 1) * TT_BUCKET]));
#endif
    for (size_t i = 0; i < t->nbuckets / 2 * TT_BUCKET; i += 997)
        assert_true(atomic_load(&t->entry[i].data) == 0);
    SearchResult d = think_depth(e, &b, WHITE, 4);
    assert_int_not_equal(d.best, POINT_NONE);
    assert_true(t->active == t->nbuckets && t->dirty == t->nbuckets);
    engine_free(e);
}

static void test_bad_options_and_positions(void **state)
{
    (void)state;
    EngineOptions o;
    engine_options_default(&o);
    o.threads = 0;
    TgError err;
    assert_null(engine_new(&o, &err));
    engine_options_default(&o);
    o.hash_mb = 0;
    assert_null(engine_new(&o, &err));
    Engine *e = new_engine(1);
    Board b;
    board_init(&b, 15, RULE_FREESTYLE);
    put(&b, BLACK, "h8 i8 j8 k8 l8");
    put(&b, WHITE, "a1 a2 a3 a4");
    assert_false(engine_set_position(e, &b, WHITE, &err));
    board_init(&b, 15, RULE_FREESTYLE);
    assert_false(engine_set_position(e, &b, EMPTY, &err));
    engine_free(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_five_in_one),
        cmocka_unit_test(test_blocks_four),
        cmocka_unit_test(test_blocks_open_three),
        cmocka_unit_test(test_answers_four_three),
        cmocka_unit_test(test_four_three_answered_by_three),
        cmocka_unit_test(test_futility_sees_opponent_vcf),
        cmocka_unit_test(test_finds_vcf),
        cmocka_unit_test(test_threat_answers_cost_no_depth),
        cmocka_unit_test(test_white_uses_forbidden_point),
        cmocka_unit_test(test_selfplay_legal),
        cmocka_unit_test(test_full_board_no_move),
        cmocka_unit_test(test_limits_obeyed),
#ifndef TENGEN_DEBUG
        cmocka_unit_test(test_win_ends_timed_search),
#endif
        cmocka_unit_test(test_stop_from_other_thread),
        cmocka_unit_test(test_two_engines),
        cmocka_unit_test(test_nbest_and_root_moves),
        cmocka_unit_test(test_hash_clear_and_prefault),
        cmocka_unit_test(test_clock_uses_mapped_hash),
        cmocka_unit_test(test_bad_options_and_positions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
