/* Every text parser of the library that reads files people hand it (tuning
 * data, weights, ordering tables, match openings), fed cut, altered and random
 * text: each either reads it or fails with a message, at a line of the text
 * (or line 0 for what the whole file lacks), and never reads out of bounds
 * (the sanitizer build checks that).
 * The record formats have their own such test in test_record.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tengen/engine.h"
#include "tengen/match.h"
#include "tengen/rng.h"
#include "tengen/tune.h"

typedef enum { P_DATA, P_DATA_SMOOTH, P_WEIGHTS, P_ORDER, P_OPENINGS } Parser;

static int count_lines(const char *s)
{
    int n = 1;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* Runs one parser on text; a failure must say what and where (in *errp, unless NULL). */
static bool parse_one(Parser p, const char *text, TgError *errp)
{
    TgError err = {0};
    bool ok = false;
    switch (p) {
    case P_DATA:
    case P_DATA_SMOOTH: {
        TuneData *d = tune_data_parse(text, RULE_RENJU, p == P_DATA_SMOOTH, &err);
        ok = d != NULL;
        tune_data_free(d);
        break;
    }
    case P_WEIGHTS: {
        EvalWeights w;
        ok = tune_weights_parse(text, &w, &err);
        break;
    }
    case P_ORDER: {
        OrderWeights w;
        ok = tune_order_parse(text, &w, &err);
        break;
    }
    case P_OPENINGS: {
        MatchOpening *o = NULL;
        int n = -1;
        ok = match_read_openings(text, 15, RULE_RENJU, &o, &n, &err);
        if (ok)
            assert_true(n >= 0);
        else
            assert_null(o);
        free(o);
        break;
    }
    }
    if (errp)
        *errp = err;
    if (ok)
        return true;
    if (!err.msg[0])
        fail_msg("parser %d failed without a message on:\n%s", (int)p, text);
    if (err.line < 0 || err.line > count_lines(text))
        fail_msg("parser %d: line %d outside the text (%d lines): %s", (int)p, err.line,
                 count_lines(text), err.msg);
    return false;
}

static void torture(Parser p, const char *good, uint64_t seed)
{
    size_t n = strlen(good);
    char *t = malloc(n + 1);
    assert_non_null(t);
    /* Every prefix. */
    for (size_t i = 0; i <= n; i++) {
        memcpy(t, good, i);
        t[i] = '\0';
        parse_one(p, t, NULL);
    }
    /* Each byte replaced by a few that mean something to the formats. */
    static const char SUBST[] = {' ', '\n', ',', '-', '9', 'z', '#', (char)0xff};
    Rng rng;
    rng_seed(&rng, seed);
    for (size_t i = 0; i < n; i++) {
        memcpy(t, good, n + 1);
        t[i] = SUBST[rng_below(&rng, (int)sizeof SUBST)];
        parse_one(p, t, NULL);
    }
    free(t);
    /* Random text from the formats' own tokens. */
    static const char *const TOK[] = {"h8", "a1", "o15", "p16", "z", ",", " ", "\n", "#", "-",
                                      "1-0", "0-1", "1/2", "4", "99999999999", "-10000", "line",
                                      "class", "own", "opp", "threat", "combo", "att", "def",
                                      "F4", "B3", "DEAD", "THREE", "\t", "\r", "\xc3\xa9"};
    char buf[512];
    for (int k = 0; k < 400; k++) {
        size_t len = 0;
        int m = (int)rng_below(&rng, 40);
        for (int j = 0; j < m; j++) {
            const char *s = TOK[rng_below(&rng, (int)(sizeof TOK / sizeof *TOK))];
            size_t l = strlen(s);
            if (len + l >= sizeof buf)
                break;
            memcpy(buf + len, s, l);
            len += l;
        }
        buf[len] = '\0';
        parse_one(p, buf, NULL);
    }
}

static void test_tune_data(void **state)
{
    (void)state;
    const char *good = "# tengen tune data 2\n# rule renju\n"
                       "1-0 3 h8,h9,i9,i8,j10,g8,k11,l12,g7 10,-20,30,-10000,10000,0\n"
                       "0-1 2 h8,i9,j10,g7 5,-5\n"
                       "1/2 3 h8,h9,i8,i9\n";
    TgError err = {0};
    TuneData *d = tune_data_parse(good, RULE_RENJU, false, &err);
    if (!d)
        fail_msg("%d:%d %s", err.line, err.col, err.msg);
    assert_int_equal(tune_data_games(d), 3);
    tune_data_free(d);
    torture(P_DATA, good, 1);
    torture(P_DATA_SMOOTH, good, 2);
}

static void test_weights(void **state)
{
    (void)state;
    EvalWeights w;
    engine_default_weights(RULE_RENJU, BLACK, &w);
    char *good = tune_weights_write(&w);
    assert_non_null(good);
    /* Keep the run short: the head of the file has every kind of line but combo. */
    char *cut = strstr(good, "combo");
    if (cut) {
        char *more = cut;
        for (int i = 0; i < 3 && more; i++)
            more = strchr(more + 1, '\n');
        if (more)
            more[1] = '\0';
    }
    TgError err = {0};
    if (!parse_one(P_WEIGHTS, good, &err))
        fail_msg("%d:%d %s", err.line, err.col, err.msg);
    torture(P_WEIGHTS, good, 3);
    free(good);
}

static void test_order(void **state)
{
    (void)state;
    const char *good = "# tengen order 1\n"
                       "att DEAD DEAD DEAD DEAD -1503\n"
                       "def B1 DEAD DEAD DEAD 12\n"
                       "att F4 B1 DEAD DEAD 900\n";
    TgError err = {0};
    if (!parse_one(P_ORDER, good, &err))
        fail_msg("%d:%d %s", err.line, err.col, err.msg);
    torture(P_ORDER, good, 4);
}

static void test_openings(void **state)
{
    (void)state;
    const char *good = "# openings\nh8 h9 j10\n\n  i9 k7 # tail\nh8,i9,j8\n";
    MatchOpening *o;
    int n;
    TgError err = {0};
    assert_true(match_read_openings(good, 15, RULE_RENJU, &o, &n, &err));
    assert_int_equal(n, 3);
    free(o);
    torture(P_OPENINGS, good, 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tune_data),
        cmocka_unit_test(test_weights),
        cmocka_unit_test(test_order),
        cmocka_unit_test(test_openings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
