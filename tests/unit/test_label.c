/* Reading an engine's evaluation from its MESSAGE lines for `tune label`
 * (the engine dialogue itself is tested in tests/protocol/test_label.sh). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tengen/label.h"

static int eval_of(const char *line)
{
    int v = 12345;
    return label_parse_eval(line, &v) ? v : 12345;
}

static void test_styles(void **state)
{
    (void)state;
    assert_int_equal(eval_of("MESSAGE depth 14-33 ev 244 nodes 1855889 nps 624878 time 2970 pv i6"), 244);
    assert_int_equal(eval_of("MESSAGE depth 3-5 ev -57 nodes 10 nps 10 time 1 pv h8"), -57);
    assert_int_equal(eval_of("MESSAGE Speed 766K | Depth 23-41 | Eval 151 | Node 2277K | Time 2971ms"),
                     151);
    assert_int_equal(eval_of("MESSAGE Speed 811K | Depth 12-22 | Eval -284 | Node 30K | Time 37ms"), -284);
    assert_int_equal(eval_of("MESSAGE eval: 33"), 33);
    assert_int_equal(eval_of("MESSAGE\tEv\t+12"), 12);
}

static void test_mates_and_caps(void **state)
{
    (void)state;
    assert_int_equal(eval_of("MESSAGE Speed 10000 | Depth 6-2 | Eval +M3 | Node 10 | Time 0ms"),
                     TUNE_SCORE_MAX);
    assert_int_equal(eval_of("MESSAGE Depth 8-2 | Eval -M2 | Node 14"), -TUNE_SCORE_MAX);
    assert_int_equal(eval_of("MESSAGE depth 10-17 ev +M15 nodes 28987"), TUNE_SCORE_MAX);
    assert_int_equal(eval_of("MESSAGE depth 10-17 ev M7 nodes 1"), TUNE_SCORE_MAX);
    /* A large score is not a proof: it stays below the mate value. */
    assert_int_equal(eval_of("MESSAGE ev 250000"), TUNE_SCORE_MAX - 1);
    assert_int_equal(eval_of("MESSAGE ev -99999999999999999999"), -(TUNE_SCORE_MAX - 1));
}

static void test_not_an_evaluation(void **state)
{
    (void)state;
    const char *lines[] = {
        "MESSAGE thinking hard",
        "MESSAGE depth 3 ev",
        "MESSAGE ev abc nodes 3",
        "MESSAGE ev 12x",
        "MESSAGE ev + nodes 3",
        "MESSAGE ev -M nodes 3",
        "DEBUG ev 5",
        "ev 5",
        "MESSAGEev 5",
        "7,7",
        "",
        /* the second-best line of a multi-PV search is not the position's value */
        "MESSAGE nbest 2 depth 3-5 ev -1 nodes 10 nps 10 time 1 pv h9",
    };
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
        int v = 777;
        if (label_parse_eval(lines[i], &v))
            fail_msg("'%s' read as %d", lines[i], v);
        assert_int_equal(v, 777);
    }
    assert_int_equal(eval_of("MESSAGE nbest 1 depth 3-5 ev 40 nodes 10"), 40);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_styles),
        cmocka_unit_test(test_mates_and_caps),
        cmocka_unit_test(test_not_an_evaluation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
