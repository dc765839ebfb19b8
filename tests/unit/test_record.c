/* Game records: .tgn, PSQ, SGF and RenjuNet parse, write, round-trip and errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tengen/coord.h"
#include "tengen/record.h"

static Point pt(const char *s, int size)
{
    Point p = POINT_NONE;
    TgError err;
    assert_true(coord_parse(s, size, &p, &err));
    return p;
}

static Record parse_ok(RecordFormat f, const char *text)
{
    Record r;
    TgError err = {0};
    if (!record_parse(f, text, &r, &err))
        fail_msg("parse failed at %d:%d: %s\n--- input:\n%s", err.line, err.col, err.msg, text);
    return r;
}

/* Parsing fails at line:col with a message containing `needle`; r ends up empty. */
static void parse_fails(RecordFormat f, const char *text, int line, int col, const char *needle)
{
    Record r;
    TgError err = {0};
    if (record_parse(f, text, &r, &err))
        fail_msg("parse of '%s' should fail", text);
    if (err.line != line || err.col != col || !strstr(err.msg, needle))
        fail_msg("input '%s': got %d:%d '%s', want %d:%d containing '%s'", text, err.line, err.col,
                 err.msg, line, col, needle);
    assert_int_equal(r.count, 0);
    assert_null(r.actions);
    assert_int_equal(r.config.size, 15);
}

/* Writes r in format f, parses it back and checks equality; returns the text. */
static char *round_trip(RecordFormat f, const Record *r)
{
    TgError err = {0};
    char *text = record_write(f, r, &err);
    if (!text)
        fail_msg("write %s failed: %s", record_format_name(f), err.msg);
    Record back = parse_ok(f, text);
    if (!record_equal(r, &back))
        fail_msg("%s round trip differs:\n%s", record_format_name(f), text);
    record_free(&back);
    return text;
}

static const Action *act(const Record *r, int i)
{
    assert_true(i < r->count);
    return &r->actions[i].action;
}

/* ---- tgn ---- */

static void test_tgn_defaults_and_moves(void **state)
{
    (void)state;
    Record r = parse_ok(FORMAT_TGN, "h8 i9 j10\n");
    assert_int_equal(r.config.size, 15);
    assert_int_equal(r.config.rule, RULE_RENJU);
    assert_int_equal(r.config.opening, OPENING_RIF);
    assert_int_equal(r.config.forbidden, FORBID_MODE_AUTO);
    assert_int_equal(r.config.designated, -1);
    assert_int_equal(r.has, 0);
    assert_int_equal(r.count, 3);
    assert_int_equal(act(&r, 0)->type, ACT_PLACE);
    assert_int_equal(act(&r, 0)->point, point_make(7, 7));
    assert_int_equal(act(&r, 2)->point, point_make(9, 5));
    assert_int_equal(r.actions[1].line, 1);
    assert_int_equal(r.actions[1].col, 4);
    record_free(&r);
}

static void test_tgn_headers_and_all_actions(void **state)
{
    (void)state;
    const char *text = "# a yamaguchi game\n"
                       "size 15   # board\n"
                       "RULE Renju\n"
                       "opening yamaguchi\n"
                       "forbidden claim\n"
                       "designated kagetsu\n"
                       "h8 h9 i9 declare 3 noswap\n"
                       "  j10 propose g7,j7 , k8,\tl9\n"
                       "choose k8 pass swap claim draw resign\n";
    Record r = parse_ok(FORMAT_TGN, text);
    assert_int_equal(r.has, REC_HAS_SIZE | REC_HAS_RULE | REC_HAS_OPENING | REC_HAS_FORBIDDEN |
                                REC_HAS_DESIGNATED);
    assert_int_equal(r.config.opening, OPENING_YAMAGUCHI);
    assert_int_equal(r.config.forbidden, FORBID_MODE_CLAIM);
    assert_int_equal(r.config.designated, 3);
    assert_int_equal(r.count, 13);
    assert_int_equal(act(&r, 3)->type, ACT_DECLARE);
    assert_int_equal(act(&r, 3)->n, 3);
    assert_int_equal(act(&r, 4)->type, ACT_NOSWAP);
    const Action *p = act(&r, 6);
    assert_int_equal(p->type, ACT_PROPOSE);
    assert_int_equal(p->npoints, 4);
    assert_int_equal(p->points[0], pt("g7", 15));
    assert_int_equal(p->points[1], pt("j7", 15));
    assert_int_equal(p->points[2], pt("k8", 15));
    assert_int_equal(p->points[3], pt("l9", 15));
    assert_int_equal(r.actions[6].line, 8);
    assert_int_equal(r.actions[6].col, 7);
    assert_int_equal(act(&r, 7)->type, ACT_CHOOSE);
    assert_int_equal(act(&r, 7)->point, pt("k8", 15));
    ActionType tail[] = {ACT_PASS, ACT_SWAP, ACT_CLAIM, ACT_DRAW, ACT_RESIGN};
    for (int i = 0; i < 5; i++)
        assert_int_equal(act(&r, 8 + i)->type, tail[i]);
    char *out = round_trip(FORMAT_TGN, &r);
    assert_string_equal(out, "size 15\nrule renju\nopening yamaguchi\nforbidden claim\n"
                             "designated 4D\nh8 h9 i9 declare 3 noswap j10 propose g7,j7,k8,l9 "
                             "choose k8 pass swap\nclaim draw resign\n");
    free(out);
    record_free(&r);
}

static void test_tgn_dualboard(void **state)
{
    (void)state;
    Record r = parse_ok(FORMAT_TGN, "rule dualboard\n1:h8 2:h8 2:g7\n");
    assert_true(r.config.dualboard);
    assert_int_equal(r.count, 3);
    assert_int_equal(act(&r, 0)->board, 0);
    assert_int_equal(act(&r, 1)->board, 1);
    assert_int_equal(act(&r, 2)->point, pt("g7", 15));
    char *out = round_trip(FORMAT_TGN, &r);
    assert_string_equal(out, "rule dualboard\n1:h8 2:h8 2:g7\n");
    free(out);
    record_free(&r);
    parse_fails(FORMAT_TGN, "rule dualboard\n1:h8 h9", 2, 6, "needs its board first");
    parse_fails(FORMAT_TGN, "rule dualboard\n3:h8", 2, 1, "needs its board first");
    parse_fails(FORMAT_TGN, "h8 1:h9", 1, 4, "only for the dual-board variant");
    parse_fails(FORMAT_TGN, "rule dualboard\npropose 1:h8,2:h9", 2, 14, "same board");
}

static void test_tgn_sizes_and_canonical_writer(void **state)
{
    (void)state;
    Record r = parse_ok(FORMAT_TGN, "size 19 rule freestyle opening free\ns19 a1 s1\n");
    assert_int_equal(r.config.size, 19);
    assert_int_equal(act(&r, 0)->point, point_make(18, 0));
    assert_int_equal(act(&r, 1)->point, point_make(0, 18));
    assert_int_equal(act(&r, 2)->point, point_make(18, 18));
    record_free(&r);
    parse_fails(FORMAT_TGN, "size 19\nt1", 2, 1, "off the 19x19 board");

    /* Defaults are not written unless given; eleven stones wrap after ten. */
    Record m;
    record_init(&m);
    const char *moves[] = {"h8", "h9", "h10", "i8", "g8", "j8", "f8", "k8", "e8", "a1", "o15"};
    for (int i = 0; i < 11; i++) {
        Action a;
        record_action(&a, ACT_PLACE);
        a.point = pt(moves[i], 15);
        assert_true(record_append(&m, &a, 0, 0));
    }
    char *out = round_trip(FORMAT_TGN, &m);
    assert_string_equal(out, "h8 h9 h10 i8 g8 j8 f8 k8 e8 a1\no15\n");
    free(out);
    m.config.size = 9;
    TgError err;
    assert_null(record_write(FORMAT_TGN, &m, &err)); /* o15 is off a 9x9 board */
    record_free(&m);

    Record e = parse_ok(FORMAT_TGN, "");
    out = round_trip(FORMAT_TGN, &e);
    assert_string_equal(out, "");
    free(out);
    record_free(&e);
}

static void test_tgn_propose_forms(void **state)
{
    (void)state;
    const char *same[] = {"propose j9,k10", "propose j9, k10", "propose j9 ,k10",
                          "propose j9 , k10", "PROPOSE J9,K10"};
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        Record r = parse_ok(FORMAT_TGN, same[i]);
        assert_int_equal(r.count, 1);
        assert_int_equal(act(&r, 0)->npoints, 2);
        assert_int_equal(act(&r, 0)->points[1], pt("k10", 15));
        record_free(&r);
    }
    /* Without a comma the next point is a stone, not part of the list. */
    Record r = parse_ok(FORMAT_TGN, "propose j9 k10");
    assert_int_equal(r.count, 2);
    assert_int_equal(act(&r, 0)->npoints, 1);
    assert_int_equal(act(&r, 1)->type, ACT_PLACE);
    record_free(&r);
    parse_fails(FORMAT_TGN, "propose j9,\nk10", 1, 11, "ends with a comma");
    parse_fails(FORMAT_TGN, "propose ,j9", 1, 9, "before the comma");
    parse_fails(FORMAT_TGN, "propose j9,,k10", 1, 12, "before the comma");
    parse_fails(FORMAT_TGN, "propose\nj9", 1, 1, "missing list of points");
    parse_fails(FORMAT_TGN, "propose j9,zz", 1, 12, "'zz'");
    parse_fails(FORMAT_TGN,
                "propose a1,a2,a3,a4,a5,a6,a7,a8,a9,a10,a11,a12,a13,a14,a15,b1,b2", 1, 63,
                "more than 16");
}

static void test_tgn_errors(void **state)
{
    (void)state;
    parse_fails(FORMAT_TGN, "h8 foo", 1, 4, "'foo': unknown word");
    parse_fails(FORMAT_TGN, "h8\n  h9 p8", 2, 6, "'p8' is off the 15x15 board");
    parse_fails(FORMAT_TGN, "h8 h0", 1, 4, "off the 15x15 board");
    parse_fails(FORMAT_TGN, "h8 h8x", 1, 4, "not a point");
    parse_fails(FORMAT_TGN, "h8\nsize 15", 2, 1, "before the first action");
    parse_fails(FORMAT_TGN, "size 15\nsize 15", 2, 1, "given twice");
    parse_fails(FORMAT_TGN, "size 23", 1, 6, "'23': the board size must be");
    parse_fails(FORMAT_TGN, "size 99999999999999999999999", 1, 6, "board size");
    parse_fails(FORMAT_TGN, "size -5", 1, 6, "board size");
    parse_fails(FORMAT_TGN, "size\n15", 1, 1, "'size': missing value");
    parse_fails(FORMAT_TGN, "rule gomoku", 1, 6, "unknown rule");
    parse_fails(FORMAT_TGN, "opening swap9", 1, 9, "unknown opening");
    parse_fails(FORMAT_TGN, "forbidden never", 1, 11, "forbidden-move mode");
    parse_fails(FORMAT_TGN, "designated 14D", 1, 12, "designated opening");
    parse_fails(FORMAT_TGN, "h8 declare 0", 1, 12, "1..16");
    parse_fails(FORMAT_TGN, "h8 declare 17", 1, 12, "1..16");
    parse_fails(FORMAT_TGN, "h8 declare x", 1, 12, "'x'");
    parse_fails(FORMAT_TGN, "h8 declare # 2\n2", 1, 4, "missing number");
    parse_fails(FORMAT_TGN, "h8 choose", 1, 4, "missing point");
    parse_fails(FORMAT_TGN, "choose pass", 1, 8, "'pass'");
    parse_fails(FORMAT_TGN, "h8 \x01\xff", 1, 4, "'\\x01\\xff'");
    parse_fails(FORMAT_TGN, "\t h8\r\n\r\nh9 x#", 3, 4, "'x'");
}

static void test_tgn_never_crashes(void **state)
{
    (void)state;
    /* Every prefix of a rich record, and random bytes, parse or fail cleanly. */
    const char *text = "size 15\nrule renju\nopening soosorv8\nh8 h9 i9 swap k9 declare 2 noswap "
                       "propose j9, k10 choose j9 pass claim\n";
    size_t n = strlen(text);
    char *buf = malloc(n + 1);
    assert_non_null(buf);
    for (size_t k = 0; k <= n; k++) {
        memcpy(buf, text, k);
        buf[k] = '\0';
        Record r;
        TgError err;
        if (record_parse(FORMAT_TGN, buf, &r, &err))
            record_free(&r);
        else
            assert_true(err.line >= 1 && err.col >= 1);
    }
    free(buf);
    char junk[200];
    unsigned seed = 12345;
    for (int round = 0; round < 300; round++) {
        for (size_t i = 0; i + 1 < sizeof junk; i++) {
            seed = seed * 1103515245u + 12345u;
            junk[i] = (char)(1 + (seed >> 16) % 255);
        }
        junk[sizeof junk - 1] = '\0';
        Record r;
        TgError err;
        if (record_parse(FORMAT_TGN, junk, &r, &err))
            record_free(&r);
    }
}

static void test_formats_by_name(void **state)
{
    (void)state;
    RecordFormat f;
    assert_true(record_format_from_path("games/a.TGN", &f));
    assert_int_equal(f, FORMAT_TGN);
    assert_true(record_format_from_path("x.psq", &f));
    assert_int_equal(f, FORMAT_PSQ);
    assert_true(record_format_from_path("x.sgf", &f));
    assert_int_equal(f, FORMAT_SGF);
    assert_true(record_format_from_path("db.rif", &f));
    assert_int_equal(f, FORMAT_RIF);
    assert_false(record_format_from_path("x.txt", &f));
    assert_false(record_format_from_path("dir.psq/file", &f));
    assert_false(record_format_from_path("noext", &f));
    assert_true(record_format_parse("sgf", &f));
    assert_string_equal(record_format_name(FORMAT_RIF), "rif");
    int idx;
    assert_true(record_designated_parse("13i", &idx));
    assert_int_equal(idx, 25);
    assert_true(record_designated_parse("Uragetsu", &idx));
    assert_int_equal(idx, 19);
    assert_string_equal(record_designated_name(0), "1D");
    assert_null(record_designated_name(26));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tgn_defaults_and_moves),
        cmocka_unit_test(test_tgn_headers_and_all_actions),
        cmocka_unit_test(test_tgn_dualboard),
        cmocka_unit_test(test_tgn_sizes_and_canonical_writer),
        cmocka_unit_test(test_tgn_propose_forms),
        cmocka_unit_test(test_tgn_errors),
        cmocka_unit_test(test_tgn_never_crashes),
        cmocka_unit_test(test_formats_by_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
