/* Evaluation tuning: reproducible self-play data, the data and weights
 * formats with their errors, the features against the engine's own
 * evaluation, and a fit that lowers the error. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tengen/coord.h"
#include "tengen/engine.h"
#include "tengen/fileio.h"
#include "tengen/rules.h"
#include "tengen/rng.h"
#include "tengen/tune.h"

#ifdef TENGEN_DEBUG /* every play re-verifies the whole board: keep it small */
#define GEN_GAMES 1
#define GEN_NODES 60
#else
#define GEN_GAMES 3
#define GEN_NODES 400
#endif

static char *generate(Rule r, uint64_t seed)
{
    TuneGenConfig c = {r, GEN_GAMES, seed, GEN_NODES, 4, 0, false, false};
    TgError err = {0};
    char *text = tune_generate(&c, NULL, &err);
    if (!text)
        fail_msg("generate: %s", err.msg);
    return text;
}

static int count_lines(const char *s, bool games_only)
{
    int n = 0;
    for (const char *p = s; *p; p++)
        if (*p == '\n' && (!games_only || (p[1] && p[1] != '#')))
            n++;
    return n;
}

static void test_generate_reproducible(void **state)
{
    (void)state;
    for (Rule r = RULE_FREESTYLE; r <= RULE_RENJU; r += RULE_RENJU - RULE_FREESTYLE) {
        char *a = generate(r, 7), *b = generate(r, 7), *c = generate(r, 8);
        assert_string_equal(a, b);
        assert_string_not_equal(a, c);
        /* two header comments, then one line per game */
        assert_int_equal(count_lines(a, false), 2 + GEN_GAMES);
        TgError err = {0};
        TuneData *d = tune_data_parse(a, r, false, &err);
        if (!d)
            fail_msg("own output does not parse: %d:%d %s", err.line, err.col, err.msg);
        assert_int_equal(tune_data_games(d), GEN_GAMES);
        tune_data_free(d);
        free(a);
        free(b);
        free(c);
    }
}

/* Whether the opening's stones fit in a 7x7 window centred on a cell at
 * least TUNE_EDGE_MIN lines from the centre, as --edge draws them. */
static bool near_edge(const Board *b, int opening)
{
    int lo[2] = {TUNE_BOARD_SIZE, TUNE_BOARD_SIZE}, hi[2] = {-1, -1}, mid = TUNE_BOARD_SIZE / 2;
    for (int i = 0; i < opening; i++) {
        int v[2] = {point_x(b->history[i]), point_y(b->history[i])};
        for (int k = 0; k < 2; k++) {
            lo[k] = v[k] < lo[k] ? v[k] : lo[k];
            hi[k] = v[k] > hi[k] ? v[k] : hi[k];
        }
    }
    for (int cx = hi[0] - 3; cx <= lo[0] + 3; cx++)
        for (int cy = hi[1] - 3; cy <= lo[1] + 3; cy++)
            if (cx >= 0 && cy >= 0 && cx < TUNE_BOARD_SIZE && cy < TUNE_BOARD_SIZE &&
                (abs(cx - mid) >= TUNE_EDGE_MIN || abs(cy - mid) >= TUNE_EDGE_MIN))
                return true;
    return false;
}

/* Balanced openings: the header says so, the stones lie within the radius
 * (or, with edge, by an edge), and a search like the one that kept each
 * opening scores it within the margin. */
static void check_balanced(bool edge)
{
    enum { MARGIN = 60, OPENING = 3 };
    TuneGenConfig c = {RULE_FREESTYLE, GEN_GAMES, 5, GEN_NODES, OPENING, MARGIN, edge, false};
    TgError err = {0};
    char *a = tune_generate(&c, NULL, &err), *b = tune_generate(&c, NULL, &err);
    if (!a || !b)
        fail_msg("generate: %s", err.msg);
    assert_string_equal(a, b);
    assert_non_null(strstr(a, edge ? " balance 60 edge\n" : " balance 60\n"));
    TuneData *d = tune_data_parse(a, RULE_FREESTYLE, false, &err);
    if (!d)
        fail_msg("own output does not parse: %d:%d %s", err.line, err.col, err.msg);
    EngineOptions o;
    engine_options_default(&o);
    o.hash_mb = 8;
    Engine *e = engine_new(&o, &err);
    assert_non_null(e);
    int mid = TUNE_BOARD_SIZE / 2;
    for (int g = 0; g < tune_data_games(d); g++) {
        Board full, open;
        int opening;
        assert_true(tune_data_game(d, g, &full, &opening));
        assert_int_equal(opening, OPENING);
        board_init(&open, TUNE_BOARD_SIZE, RULE_FREESTYLE);
        for (int i = 0; i < opening; i++) {
            Point p = full.history[i];
            bool inside = abs(point_x(p) - mid) <= TUNE_BALANCE_RADIUS &&
                          abs(point_y(p) - mid) <= TUNE_BALANCE_RADIUS;
            assert_true(edge || inside);
            board_play(&open, p, board_side_to_move(&open));
        }
        assert_true(!edge || near_edge(&open, opening));
        SearchLimits lim;
        search_limits_init(&lim);
        lim.nodes = 4 * GEN_NODES;
        SearchResult res;
        engine_clear_hash(e);
        assert_true(engine_set_position(e, &open, board_side_to_move(&open), &err));
        assert_true(engine_think(e, &lim, NULL, NULL, &res));
        assert_true(res.score >= -MARGIN && res.score <= MARGIN);
    }
    c.balance = -1;
    assert_null(tune_generate(&c, NULL, &err));
    c.balance = 0;
    c.edge = true;
    assert_null(tune_generate(&c, NULL, &err));
    assert_non_null(strstr(err.msg, "edge"));
    engine_free(e);
    tune_data_free(d);
    free(a);
    free(b);
}

static void test_generate_balanced(void **state)
{
    (void)state;
    check_balanced(false);
}

static void test_generate_edge(void **state)
{
    (void)state;
    check_balanced(true);
    /* Edge openings are not central ones by another name: with every first
     * draw kept (a margin no score exceeds), most stones fall outside the
     * central area. */
    enum { GAMES = 40, OPENING = 3 };
    TuneGenConfig c = {RULE_FREESTYLE, GAMES, 9, 1, OPENING, 100000, true, false};
    TgError err = {0};
    char *text = tune_generate(&c, NULL, &err);
    if (!text)
        fail_msg("generate: %s", err.msg);
    TuneData *d = tune_data_parse(text, RULE_FREESTYLE, false, &err);
    assert_non_null(d);
    int outside = 0, mid = TUNE_BOARD_SIZE / 2;
    for (int g = 0; g < GAMES; g++) {
        Board full;
        int opening;
        assert_true(tune_data_game(d, g, &full, &opening));
        assert_true(near_edge(&full, opening));
        for (int i = 0; i < opening; i++)
            outside += abs(point_x(full.history[i]) - mid) > TUNE_BALANCE_RADIUS ||
                       abs(point_y(full.history[i]) - mid) > TUNE_BALANCE_RADIUS;
    }
    assert_true(outside > GAMES * OPENING / 3);
    tune_data_free(d);
    free(text);
}

/* With scores, gen plays the same games and adds one score per move from
 * the opening on, each within the cap. */
static void test_generate_scores(void **state)
{
    (void)state;
    TuneGenConfig c = {RULE_RENJU, GEN_GAMES, 11, GEN_NODES, 4, 0, false, false};
    TgError err = {0};
    char *plain = tune_generate(&c, NULL, &err);
    c.scores = true;
    char *scored = tune_generate(&c, NULL, &err);
    if (!plain || !scored)
        fail_msg("generate: %s", err.msg);
    assert_true(!strncmp(plain, "# tengen tune data 1\n", 21));
    assert_true(!strncmp(scored, "# tengen tune data 2\n", 21));
    const char *p = strchr(plain, '\n') + 1, *q = strchr(scored, '\n') + 1;
    int games = 0;
    while (*p) {
        size_t n = strcspn(p, "\n");
        assert_true(!strncmp(p, q, n));
        if (*p != '#') {
            assert_int_equal(q[n], ' ');
            int moves = 1, nscores = 0;
            for (size_t i = 0; i < n; i++)
                moves += p[i] == ',';
            char *e = (char *)q + n;
            do {
                const char *t = e + 1;
                long v = strtol(t, &e, 10);
                assert_true(e > t && v >= -TUNE_SCORE_MAX && v <= TUNE_SCORE_MAX);
                nscores++;
            } while (*e == ',');
            assert_int_equal(nscores, moves - 4);
            q = e;
            games++;
        } else {
            q += n;
        }
        p += n + (p[n] == '\n');
        q += *q == '\n';
    }
    assert_int_equal(games, GEN_GAMES);
    TuneData *a = tune_data_parse(plain, RULE_RENJU, false, &err), *b = tune_data_parse(scored, RULE_RENJU, false, &err);
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(tune_data_positions(a), tune_data_positions(b));
    assert_int_equal(tune_data_blend(a, 0.5, 300), 0);
    assert_int_equal(tune_data_blend(b, 0.5, 300), tune_data_positions(b));
    tune_data_free(a);
    tune_data_free(b);
    free(plain);
    free(scored);
}

/* The blended target, position by position: with all weights 0 the error is
 * the mean of (target - 1/2)^2, and the score of move i goes with the
 * position before move i (black to move before the 2nd and 4th scored moves). */
static void test_blend_targets(void **state)
{
    (void)state;
    TgError err = {0};
    TuneData *d = tune_data_parse("1-0 1 h8,h9,i9,g7,j10 0,300,0,-300\n", RULE_FREESTYLE, false, &err);
    assert_non_null(d);
    assert_int_equal(tune_data_positions(d), 4);
    EvalWeights zero;
    memset(&zero, 0, sizeof zero);
    double k = 100, hi = 1 / (1 + exp(-3.0)), lo = 1 - hi;
    assert_int_equal(tune_data_blend(d, 1, k), 4);
    assert_float_equal(tune_error(d, &zero, k), 0.25, 1e-9);
    assert_int_equal(tune_data_blend(d, 0, k), 4);
    assert_float_equal(tune_error(d, &zero, k), (hi - 0.5) * (hi - 0.5) / 2, 1e-6);
    /* white to move: lost games (0) and scores 0; black: won (1) and +-300 */
    assert_int_equal(tune_data_blend(d, 0.5, k), 4);
    double w = 0.25 - 0.5, b1 = 0.5 + 0.5 * hi - 0.5, b2 = 0.5 + 0.5 * lo - 0.5;
    assert_float_equal(tune_error(d, &zero, k), (2 * w * w + b1 * b1 + b2 * b2) / 4, 1e-6);
    assert_int_equal(tune_data_keep_mover(d, BLACK), 2);
    assert_int_equal(tune_data_blend(d, 0, k), 2);
    assert_float_equal(tune_error(d, &zero, k), (hi - 0.5) * (hi - 0.5), 1e-6);
    tune_data_free(d);
}

/* The scores' own scale: three games where the scores name the winner and
 * one where they name the loser, so the best sigmoid(100 / K) is 3/4. Forced
 * results do not count, and data with nothing else has no scale. */
static void test_score_scale(void **state)
{
    (void)state;
    const char *text = "1-0 1 h8,h9,i9,g7,j10 -100,100,-100,100\n"
                       "1-0 1 h8,h9,i9,g7,j10 -100,100,-100,100\n"
                       "1-0 1 h8,h9,i9,g7,j10 -100,100,-100,100\n"
                       "0-1 1 h8,h9,i9,g7,j10 -100,100,-100,100\n"
                       "0-1 1 h8,h9,i9,g7,j10 10000,-10000,10000,-10000\n";
    TgError err = {0};
    TuneData *d = tune_data_parse(text, RULE_FREESTYLE, false, &err);
    assert_non_null(d);
    assert_int_equal(tune_data_positions(d), 20);
    double k = tune_fit_score_scale(d);
    assert_float_equal(k, 100 / log(3.0), 0.05);
    assert_float_equal(tune_score_error(d, k), 0.75 * 0.0625 + 0.25 * 0.5625, 1e-6);
    assert_true(tune_score_error(d, k * 1.2) > tune_score_error(d, k));
    tune_data_free(d);
    d = tune_data_parse("1-0 1 h8,h9,i9,g7,j10 -10000,10000,-10000,10000\n", RULE_FREESTYLE, false,
                        &err);
    assert_non_null(d);
    assert_true(tune_fit_score_scale(d) < 0);
    tune_data_free(d);
}

/* Random weights in range, every kind of weight set. */
static void random_weights(Rng *rng, EvalWeights *w)
{
    for (int i = 0; i < PAT_COUNT; i++)
        w->line[i] = rng_below(rng, 1000);
    for (int i = 0; i < ENGINE_EVAL_CLASSES; i++)
        w->cls[i] = rng_below(rng, 1000);
    for (int i = 0; i < PAT_COUNT; i++)
        w->line_opp[i] = rng_below(rng, 1000);
    for (int i = 0; i < ENGINE_EVAL_CLASSES; i++)
        w->cls_opp[i] = rng_below(rng, 1000);
    w->own = 1 + rng_below(rng, 40);
    w->opp = 1 + rng_below(rng, 40);
    for (int i = 0; i < ENGINE_THREAT_MASKS; i++)
        w->threat[i] = rng_below(rng, 2001) - 1000;
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < ENGINE_PCODES; i++)
            w->combo[k][i] = rng_below(rng, 401) - 200;
}

/* A game whose opening covers all but the last move leaves exactly the
 * position before that move; its features under any weights must give what
 * the engine itself evaluates with those weights for the side to move, whatever
 * its weights for the other side to move. */
static void test_features_match_engine(void **state)
{
    (void)state;
    static const struct {
        Rule rule;
        const char *moves;
    } CASES[] = {
        {RULE_FREESTYLE, "h8,h9,i9,g7,j10,k11,g9,f8,i7"},
        {RULE_RENJU, "h8,i9,h10,g9,h12,h11,j10,a1,i11"},
        {RULE_RENJU, "h8,h9,j8,j9,i10,a1,k10,b2,g8"},
    };
    Rng rng;
    rng_seed(&rng, 99);
    EngineOptions o;
    engine_options_default(&o);
    o.hash_mb = 1;
    TgError err = {0};
    Engine *e = engine_new(&o, &err);
    assert_non_null(e);
    int unsmoothed_differ = 0;
    for (size_t c = 0; c < sizeof CASES / sizeof *CASES; c++) {
        int nmoves = 1;
        for (const char *p = CASES[c].moves; *p; p++)
            nmoves += *p == ',';
        char line[200];
        snprintf(line, sizeof line, "1/2 %d %s\n", nmoves - 1 > 8 ? 8 : nmoves - 1, CASES[c].moves);
        assert_int_equal(nmoves - 1, 8);
        TuneData *d = tune_data_parse(line, CASES[c].rule, false, &err);
        TuneData *ds = tune_data_parse(line, CASES[c].rule, true, &err);
        assert_non_null(d);
        assert_non_null(ds);
        assert_int_equal(tune_data_positions(d), 1);
        assert_int_equal(tune_data_positions(ds), 1);
        Board b;
        board_init(&b, TUNE_BOARD_SIZE, CASES[c].rule);
        char tok[8];
        const char *p = CASES[c].moves;
        for (int i = 0; i < nmoves - 1; i++) {
            size_t n = strcspn(p, ",");
            snprintf(tok, sizeof tok, "%.*s", (int)n, p);
            Point pt;
            assert_true(coord_parse(tok, b.size, &pt, &err));
            board_play(&b, pt, board_side_to_move(&b));
            p += n + 1;
        }
        Color mover = board_side_to_move(&b);
        for (int trial = 0; trial < 20; trial++) {
            EvalWeights w, other;
            engine_default_weights(CASES[c].rule, mover, &w);
            engine_default_weights(CASES[c].rule, color_other(mover), &other);
            if (trial)
                random_weights(&rng, &w);
            /* The other side's set must not count: only the mover's is fitted. */
            if (trial % 2)
                random_weights(&rng, &other);
            assert_true(engine_set_weights(e, CASES[c].rule, mover, &w, &err));
            assert_true(engine_set_weights(e, CASES[c].rule, color_other(mover), &other, &err));
            assert_true(engine_set_position(e, &b, mover, &err));
            assert_int_equal(tune_data_eval(d, 0, &w), engine_evaluate(e));
            /* Smoothed: the mean with the position before the last stone. */
            w.smooth = 1;
            assert_true(engine_set_weights(e, CASES[c].rule, mover, &w, &err));
            assert_true(engine_set_position(e, &b, mover, &err));
            int smoothed = engine_evaluate(e);
            assert_int_equal(tune_data_eval(ds, 0, &w), smoothed);
            unsmoothed_differ += smoothed != tune_data_eval(d, 0, &w);
        }
        tune_data_free(d);
        tune_data_free(ds);
    }
    assert_true(unsmoothed_differ > 30); /* smoothing does change the evaluation */
    engine_free(e);
}

/* Pattern codes: dense, order-free, and invertible. */
static void test_pattern_codes(void **state)
{
    (void)state;
    bool used[ENGINE_PCODES] = {false};
    for (int a = 0; a < ENGINE_EPATS; a++)
        for (int b = 0; b < ENGINE_EPATS; b++)
            for (int c = 0; c < ENGINE_EPATS; c++)
                for (int d = 0; d < ENGINE_EPATS; d++) {
                    int code = engine_pcode(a, b, c, d);
                    assert_in_range(code, 0, ENGINE_PCODES - 1);
                    /* Codes of the rules' Patterns alone come first. */
                    bool coarse = a < PAT_COUNT && b < PAT_COUNT && c < PAT_COUNT && d < PAT_COUNT;
                    assert_int_equal(code < 1001, coarse);
                    assert_int_equal(code, engine_pcode(d, b, a, c));
                    used[code] = true;
                    int pat[4];
                    engine_pcode_patterns(code, pat);
                    assert_true(pat[0] >= pat[1] && pat[1] >= pat[2] && pat[2] >= pat[3]);
                    assert_int_equal(engine_pcode(pat[0], pat[1], pat[2], pat[3]), code);
                    int sa = a + b + c + d, sp = pat[0] + pat[1] + pat[2] + pat[3];
                    assert_int_equal(sa, sp);
                }
    for (int i = 0; i < ENGINE_PCODES; i++)
        assert_true(used[i]);
    assert_int_equal(engine_pcode(ENGINE_EPATS, 0, 0, 0), -1);
}

static void test_fit_lowers_error(void **state)
{
    (void)state;
    char *text = generate(RULE_FREESTYLE, 3);
    TgError err = {0};
    TuneData *d = tune_data_parse(text, RULE_FREESTYLE, false, &err);
    assert_non_null(d);
    assert_true(tune_data_positions(d) > 0);
    /* Start far off: every pattern worth the same. */
    EvalWeights start;
    engine_default_weights(RULE_FREESTYLE, BLACK, &start);
    for (int i = 1; i < PAT_COUNT - 1; i++)
        start.line[i] = 50;
    memset(start.cls, 0, sizeof start.cls);
    TuneFit fit;
    TuneFitOptions opt = {.iterations = 10, .combos = true, .combo_l2 = TUNE_COMBO_L2};
    assert_true(tune_fit(d, &start, &opt, &fit, &err));
    assert_true(fit.err_after < fit.err_before);
    assert_true(fit.err_before == tune_error(d, &start, fit.k));
    assert_true(fit.err_after == tune_error(d, &fit.w, fit.k));
    assert_true(engine_weights_check(&fit.w, &err));
    tune_data_free(d);
    free(text);
}

/* The largest change of a combination weight between two sets. */
static int combo_moved(const EvalWeights *a, const EvalWeights *b)
{
    int most = 0;
    for (int k = 0; k < 2; k++)
        for (int j = 0; j < ENGINE_PCODES; j++) {
            int d = abs(a->combo[k][j] - b->combo[k][j]);
            most = d > most ? d : most;
        }
    return most;
}

static void test_fit_combo_anchor(void **state)
{
    (void)state;
    /* Enough positions in every build for some codes to be fitted (50 each). */
    TuneGenConfig c = {RULE_FREESTYLE, 4, 3, GEN_NODES, 4, 0, false, false};
    TgError err = {0};
    char *text = tune_generate(&c, NULL, &err);
    assert_non_null(text);
    TuneData *d = tune_data_parse(text, RULE_FREESTYLE, false, &err);
    assert_non_null(d);
    EvalWeights start;
    engine_default_weights(RULE_FREESTYLE, BLACK, &start);
    /* A strong pull: towards 0 it empties the combination weights, towards
     * the start it keeps them where they were (Adam's steps are 2 at most). */
    TuneFitOptions opt = {.iterations = 5, .combos = true, .combo_l2 = 1};
    TuneFit zero, anchored;
    assert_true(tune_fit(d, &start, &opt, &zero, &err));
    opt.combo_anchor = true;
    assert_true(tune_fit(d, &start, &opt, &anchored, &err));
    assert_true(combo_moved(&start, &zero.w) > 20);
    assert_true(combo_moved(&start, &anchored.w) <= 3);
    tune_data_free(d);
    free(text);
}

static void test_fit_tie_colours(void **state)
{
    (void)state;
    /* Each game thirty times, every other time with the result reversed:
     * enough positions in a situation for its weight to be fitted, in every
     * build, and an error to lower whatever the games' results. */
    char *one = generate(RULE_FREESTYLE, 3);
    size_t len = strlen(one);
    char *text = malloc(30 * len + 1);
    assert_non_null(text);
    for (int i = 0; i < 30; i++) {
        char *copy = text + i * len;
        memcpy(copy, one, len);
        for (char *l = copy; i % 2 && l < copy + len; l++) {
            if ((l == copy || l[-1] == '\n') && (!strncmp(l, "1-0 ", 4) || !strncmp(l, "0-1 ", 4))) {
                l[0] ^= '0' ^ '1';
                l[2] ^= '0' ^ '1';
            }
        }
    }
    text[30 * len] = '\0';
    free(one);
    TgError err = {0};
    TuneData *d = tune_data_parse(text, RULE_FREESTYLE, false, &err);
    assert_non_null(d);
    EvalWeights start;
    engine_default_weights(RULE_FREESTYLE, BLACK, &start);
    const int half = ENGINE_THREAT_MASKS / 2;
    int differ = 0;
    for (int m = 0; m < half; m++)
        differ += start.threat[m] != start.threat[m + half];
    assert_true(differ > 0); /* else the test shows nothing */
    TuneFitOptions opt = {.iterations = 3, .combos = false, .tie_colours = true};
    TuneFit fit;
    assert_true(tune_fit(d, &start, &opt, &fit, &err));
    int moved = 0;
    for (int m = 0; m < half; m++) {
        assert_int_equal(fit.w.threat[m], fit.w.threat[m + half]);
        moved += fit.w.threat[m] != (start.threat[m] + start.threat[m + half]) / 2;
    }
    assert_true(moved > 0);
    /* The error reported is the tied weights' own. */
    assert_true(fit.err_after == tune_error(d, &fit.w, fit.k));
    tune_data_free(d);
    free(text);
}

/* A bad input and where its error must point. */
typedef struct {
    const char *text;
    int line, col;
    const char *token; /* a part of the message */
} BadCase;

static void check_error(size_t i, const BadCase *c, const TgError *err)
{
    if (err->line != c->line || err->col != c->col || !strstr(err->msg, c->token))
        fail_msg("case %zu: %d:%d %s", i, err->line, err->col, err->msg);
}

static void test_bad_data(void **state)
{
    (void)state;
    static const BadCase CASES[] = {
        {"2-0 4 h8,h9,i9,i8,j9\n", 1, 1, "'2-0'"},
        {"# c\n\n1-0 x h8,h9,i9,i8,j9\n", 3, 5, "'x'"},
        {"1-0 9 h8,h9\n", 1, 5, "'9'"},
        {"1-0 2 h8,h9,z99\n", 1, 13, "'z99'"},
        {"0-1 2 h8,h9,h8\n", 1, 13, "'h8'"},
        {"0-1 2 h8,h9,,i9\n", 1, 13, "''"},
        {"1-0 2 h8,h9,i9 junk\n", 1, 16, "'junk'"},
        {"1-0 2 h8,h9\n", 1, 1, "fewer"},
        {"1-0 1 h8,a1,i8,a3,j8,a5,k8,a7,l8,a9\n", 1, 34, "'a9'"},
        {"1-0 2 h8,h9,i9 5,x\n", 1, 18, "'x'"},
        {"1-0 2 h8,h9,i9 10001\n", 1, 16, "'10001'"},
        {"1-0 2 h8,h9,i9 -3,\n", 1, 19, "''"},
        {"1-0 2 h8,h9,i9,i8 5\n", 1, 19, "1 scores for the 2 moves"},
        {"1-0 2 h8,h9,i9 5 6\n", 1, 18, "'6'"},
    };
    for (size_t i = 0; i < sizeof CASES / sizeof *CASES; i++) {
        TgError err = {0};
        TuneData *d = tune_data_parse(CASES[i].text, RULE_FREESTYLE, false, &err);
        if (d)
            fail_msg("case %zu parsed", i);
        check_error(i, &CASES[i], &err);
    }
}

static void test_weights_file(void **state)
{
    (void)state;
    EvalWeights w, back;
    engine_default_weights(RULE_RENJU, BLACK, &w);
    w.line[PAT_F3] = 77;
    w.cls_opp[4] = 301; /* four-three */
    w.own = 21;
    w.threat[0] = 5;
    w.threat[300] = -1200;
    w.threat[ENGINE_THREAT_MASKS - 1] = ENGINE_WEIGHT_MAX;
    w.combo[0][engine_pcode(PAT_F3, PAT_B3, PAT_DEAD, PAT_F2)] = -37;
    w.combo[1][engine_pcode(PAT_OL, PAT_OL, PAT_OL, PAT_OL)] = ENGINE_WEIGHT_MAX;
    w.combo[1][engine_pcode(ENGINE_PAT_F2A, ENGINE_PAT_F3S, PAT_B1, ENGINE_PAT_F2B)] = 12;
    char *text = tune_weights_write(&w);
    assert_non_null(strstr(text, "threat 300 -1200\n"));
    assert_non_null(strstr(text, "combo own F3 B3 F2 DEAD -37\n"));
    assert_non_null(strstr(text, "combo opp F3S F2B F2A B1 12\n"));
    TgError err = {0};
    assert_true(tune_weights_parse(text, &back, &err));
    assert_memory_equal(&w, &back, sizeof w);
    free(text);
    static const BadCase BAD[] = {
        {"lines 1\n", 1, 1, "'lines'"},
        {"line 0 1 2 3 4 5 6 7 8 9 x\n", 1, 26, "'x'"},
        {"line 0 1 2 3 4 5 6 7 8 9 10 11\n", 1, 29, "'11'"},
        {"line 0 1 2 3 4 5 6 7 8 9 10\nclass 0 0 0 0 0 0 0 99999\n", 2, 21, "'99999'"},
        {"line 0 1 2 3 4 5 6 7 8 9 10\nclass 0 0 0 0 0 0 0 0\nown 3\n", 3, 0, "'opp'"},
        {"threat 512 4\n", 1, 8, "'512'"},
        {"threat 3 -4001\n", 1, 10, "'-4001'"},
        {"threat 3\n", 1, 9, "missing threat weight"},
        {"threat 3 4\nthreat 3 5\n", 2, 8, "given twice"},
        {"threat 3 4 5\n", 1, 12, "'5'"},
        {"combo mine F3 F3 B1 B1 4\n", 1, 7, "'mine'"},
        {"combo own F3 F6 B1 B1 4\n", 1, 14, "'F6'"},
        {"combo own F3 F3 B1\n", 1, 19, "pattern 4 of 4"},
        {"combo opp F3 F3 B1 B1 4001\n", 1, 23, "'4001'"},
        {"combo opp F3 F3 B1 B1\n", 1, 22, "missing combination weight"},
        {"combo opp F3 B1 F3 B1 4\ncombo opp B1 B1 F3 F3 5\n", 2, 23, "twice"},
    };
    for (size_t i = 0; i < sizeof BAD / sizeof *BAD; i++) {
        assert_false(tune_weights_parse(BAD[i].text, &back, &err));
        check_error(i, &BAD[i], &err);
    }
    /* A file from before the split gives the opponent the mover's weights. */
    assert_true(tune_weights_parse("line 0 1 2 3 4 5 6 7 8 9 10\nclass 0 1 2 3 4 5 6 7\nown 3\nopp 16\n",
                                   &back, &err));
    assert_memory_equal(back.line_opp, back.line, sizeof back.line);
    assert_memory_equal(back.cls_opp, back.cls, sizeof back.cls);
    assert_int_equal(back.cls_opp[7], 7);
    w.own = 0;
    assert_false(engine_weights_check(&w, &err));
    w.own = 18;
    w.cls_opp[6] = ENGINE_WEIGHT_MAX + 1; /* flex four */
    assert_false(engine_weights_check(&w, &err));
    w.cls_opp[6] = 0;
    w.threat[7] = -ENGINE_WEIGHT_MAX - 1;
    assert_false(engine_weights_check(&w, &err));
    w.threat[7] = 0;
    w.combo[1][1000] = 0;
    w.combo[1][ENGINE_PCODES - 1] = ENGINE_WEIGHT_MAX + 1;
    assert_false(engine_weights_check(&w, &err));
}

/* The ordering fit learns (the move played becomes likelier than under an
 * all-zero table), is reproducible, and --epochs 0 measures the table it
 * gave back as the fit measured it. */
static void test_order_fit(void **state)
{
    (void)state;
    char *text = generate(RULE_RENJU, 4);
    TgError err = {0};
    TuneData *d = tune_data_parse(text, RULE_RENJU, false, &err);
    assert_non_null(d);
    TuneOrderOptions o = {.epochs = 20, .rate = 0.1, .l2 = 1e-6, .scale = 300};
    TuneOrderFit *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    assert_non_null(a);
    assert_non_null(b);
    assert_true(tune_order_fit(d, NULL, &o, a, &err));
    assert_true(a->positions > 10);
    assert_true(a->loss_after < a->loss_before - 0.1);
    assert_true(a->top1_after > a->top1_before);
    assert_true(a->top1_base > 0 && a->top1_base <= 1);
    assert_true(engine_order_check(&a->w, &err));
    assert_true(tune_order_fit(d, NULL, &o, b, &err));
    assert_memory_equal(&a->w, &b->w, sizeof a->w);
    o.epochs = 0;
    assert_true(tune_order_fit(d, &a->w, &o, b, &err));
    assert_true(b->loss_before == a->loss_after && b->loss_after == a->loss_after);
    assert_true(b->top1_before == a->top1_after);
    assert_memory_equal(&a->w, &b->w, sizeof a->w);
    o.scale = 0;
    assert_false(tune_order_fit(d, NULL, &o, b, &err));
    free(a);
    free(b);
    tune_data_free(d);
    free(text);
}

static void test_order_file(void **state)
{
    (void)state;
    OrderWeights *w = calloc(1, sizeof *w), *back = malloc(sizeof *back);
    assert_non_null(w);
    assert_non_null(back);
    w->att[engine_pcode(PAT_F3, PAT_B3, PAT_DEAD, PAT_F2)] = -37;
    w->def[engine_pcode(PAT_F4, PAT_F4, PAT_F4, PAT_F4)] = ENGINE_ORDER_MAX;
    w->att[ENGINE_PCODES] = 12; /* FORBID */
    char *text = tune_order_write(w);
    assert_non_null(strstr(text, "att F3 B3 F2 DEAD -37\n"));
    assert_non_null(strstr(text, "att FORBID 12\n"));
    TgError err = {0};
    assert_true(tune_order_parse(text, back, &err));
    assert_memory_equal(w, back, sizeof *w);
    free(text);
    static const BadCase BAD[] = {
        {"# c\natk F3 F3 B1 B1 4\n", 2, 1, "'atk'"},
        {"att F3 F6 B1 B1 4\n", 1, 8, "'F6'"},
        {"def F3 F3 B1\n", 1, 13, "pattern 4 of 4"},
        {"att F3 F3 B1 B1 30001\n", 1, 17, "'30001'"},
        {"att FORBID\n", 1, 11, "missing ordering weight"},
        {"def B1 F3 B1 F3 4\ndef F3 F3 B1 B1 5\n", 2, 17, "twice"},
        {"att F3 F3 B1 B1 4 5\n", 1, 19, "'5'"},
    };
    for (size_t i = 0; i < sizeof BAD / sizeof *BAD; i++) {
        assert_false(tune_order_parse(BAD[i].text, back, &err));
        check_error(i, &BAD[i], &err);
    }
    w->def[3] = -ENGINE_ORDER_MAX - 1;
    assert_false(engine_order_check(w, &err));
    EngineOptions eo;
    engine_options_default(&eo);
    eo.hash_mb = 1;
    Engine *e = engine_new(&eo, &err);
    assert_non_null(e);
    assert_false(engine_set_order(e, RULE_RENJU, EMPTY, w, &err));
    assert_non_null(strstr(err.msg, "def weight 3"));
    assert_true(engine_set_order(e, RULE_RENJU, EMPTY, NULL, &err));
    assert_false(engine_set_order(e, RULE_RENJU, (Color)7, NULL, &err));
    engine_free(e);
    free(w);
    free(back);
}

/* The weights built into the engine are the fitted ones kept in
 * tests/data/tune/RULE-weights.txt (black to move, or both sides) and
 * RULE-white-weights.txt (white to move, where the rule has its own), so a
 * refit is adopted in both places. */
/* A position of the tuning board from moves in notation, black first. */
static Board position(Rule r, const char *moves)
{
    Board b;
    board_init(&b, TUNE_BOARD_SIZE, r);
    char buf[256];
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) {
        Point p;
        TgError err = {0};
        if (!coord_parse(t, b.size, &p, &err))
            fail_msg("bad test move '%s': %s", t, err.msg);
        board_play(&b, p, board_side_to_move(&b));
    }
    return b;
}

/* Given openings are played in turn, each with a's black game first, so an
 * opening that one colour wins at once decides the games in that order. */
static void test_match_openings(void **state)
{
    (void)state;
    Board ops[2] = {
        position(RULE_FREESTYLE, "f8 a1 g8 a3 h8 a5 i8 a7"),      /* black to move: a five */
        position(RULE_FREESTYLE, "a1 f8 a3 g8 a5 h8 o15 i8 o13"), /* white to move: a five */
    };
    TuneMatch m;
    TgError err = {0};
    /* black wins, then white wins (a black), then the first again */
    assert_true(tune_match(RULE_FREESTYLE, NULL, NULL, NULL, 3, 1, 100, 4, ops, 2, &m, &err));
    assert_int_equal(m.wins, 1);
    assert_int_equal(m.losses, 2);
    assert_int_equal(m.draws, 0);
    Board rev[2] = {ops[1], ops[0]};
    assert_true(tune_match(RULE_FREESTYLE, NULL, NULL, NULL, 5, 1, 100, 4, rev, 2, &m, &err));
    /* for a: lost as black, won as white, won and lost on the second, lost as black */
    assert_int_equal(m.wins, 2);
    assert_int_equal(m.losses, 3);
    /* an opening of another rule is refused with its number */
    Board other = position(RULE_RENJU, "h8 h9");
    Board mixed[2] = {ops[0], other};
    assert_false(tune_match(RULE_FREESTYLE, NULL, NULL, NULL, 2, 1, 100, 4, mixed, 2, &m, &err));
    assert_non_null(strstr(err.msg, "opening 2"));
}

static void test_builtin_weights_are_the_files(void **state)
{
    (void)state;
    const char *dir = getenv("TESTDATA");
    for (int r = 0; r < RULE_COUNT; r++)
        for (Color mover = BLACK; mover <= WHITE; mover++) {
            char path[1024];
            snprintf(path, sizeof path, "%s/tune/%s-%sweights.txt", dir ? dir : "tests/data",
                     rule_name((Rule)r), mover == WHITE ? "white-" : "");
            TgError err = {0};
            char *text = file_read_text(path, &err);
            if (!text && mover == WHITE) {
                /* No white file: one set for both sides. */
                snprintf(path, sizeof path, "%s/tune/%s-weights.txt", dir ? dir : "tests/data",
                         rule_name((Rule)r));
                text = file_read_text(path, &err);
            }
            if (!text)
                fail_msg("%s: %s", path, err.msg);
            EvalWeights file, builtin;
            if (!tune_weights_parse(text, &file, &err))
                fail_msg("%s: %s", path, err.msg);
            free(text);
            engine_default_weights((Rule)r, mover, &builtin);
            if (memcmp(&file, &builtin, sizeof file) != 0)
                fail_msg("%s differs from the built-in %s weights", path, rule_name((Rule)r));
        }
}

/* A rule's built-in ordering tables are tests/data/tune/RULE-order.txt
 * (black to move, or both) and RULE-white-order.txt (white to move, where
 * the rule has its own); a rule without them orders by classes and worths. */
static void test_builtin_order_is_the_file(void **state)
{
    (void)state;
    const char *dir = getenv("TESTDATA");
    OrderWeights *file = malloc(sizeof *file), *builtin = malloc(sizeof *builtin);
    assert_non_null(file);
    assert_non_null(builtin);
    for (int k = 0; k < 2 * RULE_COUNT; k++) {
        int r = k / 2;
        Color mover = k % 2 ? WHITE : BLACK;
        char path[1024];
        TgError err = {0};
        char *text = NULL;
        for (int own = mover == WHITE; !text && own >= 0; own--) {
            snprintf(path, sizeof path, "%s/tune/%s-%sorder.txt", dir ? dir : "tests/data", rule_name((Rule)r),
                     own ? "white-" : "");
            text = file_read_text(path, &err);
        }
        bool has = engine_default_order((Rule)r, mover, builtin);
        if (!text) {
            if (has)
                fail_msg("%s has a built-in ordering table but no %s", rule_name((Rule)r), path);
            continue;
        }
        if (!has)
            fail_msg("%s exists but %s has no built-in ordering table", path, rule_name((Rule)r));
        if (!tune_order_parse(text, file, &err))
            fail_msg("%s:%d:%d: %s", path, err.line, err.col, err.msg);
        free(text);
        if (memcmp(file, builtin, sizeof *file) != 0)
            fail_msg("%s differs from the built-in %s ordering table", path, rule_name((Rule)r));
    }
    free(file);
    free(builtin);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generate_reproducible),
        cmocka_unit_test(test_generate_balanced),
        cmocka_unit_test(test_generate_edge),
        cmocka_unit_test(test_generate_scores),
        cmocka_unit_test(test_blend_targets),
        cmocka_unit_test(test_score_scale),
        cmocka_unit_test(test_features_match_engine),
        cmocka_unit_test(test_pattern_codes),
        cmocka_unit_test(test_fit_lowers_error),
        cmocka_unit_test(test_fit_combo_anchor),
        cmocka_unit_test(test_fit_tie_colours),
        cmocka_unit_test(test_bad_data),
        cmocka_unit_test(test_weights_file),
        cmocka_unit_test(test_builtin_weights_are_the_files),
        cmocka_unit_test(test_match_openings),
        cmocka_unit_test(test_order_fit),
        cmocka_unit_test(test_order_file),
        cmocka_unit_test(test_builtin_order_is_the_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
