/* Lazy SMP answer selection (src/engine/search.c, internal): a helper's deeper
 * completed iteration answers, unless the main worker's answer is proven. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "../../src/engine/search.h"

/* Main worker: completed depth 6, best h8 scoring main_score; helper: depth 7,
 * best j9 scoring 40. */
static Engine *two_workers(int main_score, int helper_depth)
{
    EngineOptions o;
    engine_options_default(&o);
    o.threads = 2;
    o.hash_mb = 1;
    TgError err = {0};
    Engine *e = engine_new(&o, &err);
    assert_non_null(e);
    e->nbest = 1;
    Worker *m = &e->workers[0], *h = &e->workers[1];
    m->completed = 6;
    h->completed = helper_depth;
    memset(&e->result, 0, sizeof e->result);
    e->result.nlines = 1;
    e->result.depth = 6;
    e->result.best = e->result.lines[0].move = point_make(7, 7);
    e->result.score = e->result.lines[0].score = main_score;
    h->done = (RootMove){.move = point_make(8, 6), .score = 40, .pvlen = 2};
    h->done.pv[0] = point_make(8, 6);
    h->done.pv[1] = point_make(9, 6);
    return e;
}

static void test_deeper_helper_answers(void **state)
{
    (void)state;
    Engine *e = two_workers(10, 7);
    search_adopt_deeper(e, 2);
    assert_int_equal(e->result.best, point_make(8, 6));
    assert_int_equal(e->result.score, 40);
    assert_int_equal(e->result.depth, 7);
    assert_int_equal(e->result.lines[0].pvlen, 2);
    assert_int_equal(e->result.lines[0].pv[1], point_make(9, 6));
    engine_free(e);
}

static void test_main_kept(void **state)
{
    (void)state;
    /* The helper is not deeper. */
    Engine *e = two_workers(10, 6);
    search_adopt_deeper(e, 2);
    assert_int_equal(e->result.best, point_make(7, 7));
    engine_free(e);
    /* The main worker proved a win: a deeper guess does not replace it. */
    e = two_workers(ENGINE_SCORE_WIN - 5, 9);
    search_adopt_deeper(e, 2);
    assert_int_equal(e->result.best, point_make(7, 7));
    engine_free(e);
    /* The helper was not started. */
    e = two_workers(10, 7);
    search_adopt_deeper(e, 1);
    assert_int_equal(e->result.best, point_make(7, 7));
    engine_free(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_deeper_helper_answers),
        cmocka_unit_test(test_main_kept),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
