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
    parse_fails(FORMAT_TGN, "propose a1,a2,a3,a4,a5,a6,a7,a8,a9,a10,a11,a12,a13,a14,a15,b1,b2", 1,
                63, "more than 16");
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

/* A record using every kind of action, as the game helper would make it. */
static Record rich_record(void)
{
    Record r = parse_ok(FORMAT_TGN, "opening yamaguchi\nforbidden claim\n"
                                    "h8 h9 h10 declare 2 swap i9 propose j9,k10 choose k10\n"
                                    "j11 pass g7 claim draw draw\n");
    assert_int_equal(r.count, 14);
    return r;
}

/* The stones rich_record() leaves on the board, in order. */
static const char *const RICH_STONES[] = {"h8", "h9", "h10", "i9", "k10", "j11", "g7"};

static void assert_stones(const Record *r, const char *const *stones, int n)
{
    assert_int_equal(r->count, n);
    for (int i = 0; i < n; i++) {
        assert_int_equal(r->actions[i].action.type, ACT_PLACE);
        assert_int_equal(r->actions[i].action.point, pt(stones[i], r->config.size));
    }
}

/* ---- psq ---- */

static void test_psq_parse(void **state)
{
    (void)state;
    /* A Gomocup file: 1-based x from the left, y from the top; trailer ignored. */
    const char *text = "Piskvorky 15x15, 11:11, 0\r\n8,8,0\r\n9,7,1520\r\n1,1,3\r\n 15 , 15 ,0\r\n"
                       "pbrain-a.zip\r\npbrain-b.zip\r\n-1\r\n0,Freestyle15_1\r\n";
    Record r = parse_ok(FORMAT_PSQ, text);
    assert_int_equal(r.config.size, 15);
    assert_int_equal(r.config.opening, OPENING_FREE);
    assert_int_equal(r.has, REC_HAS_SIZE);
    const char *want[] = {"h8", "i9", "a15", "o1"};
    assert_stones(&r, want, 4);
    assert_int_equal(r.actions[1].line, 3);
    record_free(&r);

    Record big = parse_ok(FORMAT_PSQ, "Piskvorky 20x20, 11:11, 0\n10,10,0\n20,1\n");
    assert_int_equal(big.config.size, 20);
    assert_int_equal(big.actions[1].action.point, point_make(19, 0));
    record_free(&big);
}

static void test_psq_write_and_round_trip(void **state)
{
    (void)state;
    Record r = rich_record();
    TgError err;
    char *text = record_write(FORMAT_PSQ, &r, &err);
    assert_null(text); /* the pass cannot be written */
    assert_string_equal(err.msg, "PSQ cannot hold a pass (action 10)");
    assert_int_equal(err.line, 4);
    record_free(&r);

    /* Without the pass: the stones, the chosen 5th move in its place. */
    r = parse_ok(FORMAT_TGN, "opening yamaguchi\nh8 h9 h10 declare 2 swap i9 propose j9,k10 "
                             "choose k10 j11 g7 resign");
    text = record_write(FORMAT_PSQ, &r, &err);
    assert_non_null(text);
    assert_string_equal(text, "Piskvorky 15x15, 11:11, 0\n8,8,0\n8,7,0\n8,6,0\n9,7,0\n"
                              "11,6,0\n10,5,0\n7,9,0\n");
    Record back = parse_ok(FORMAT_PSQ, text);
    assert_stones(&back, RICH_STONES, 7);
    free(text);
    record_free(&back);
    record_free(&r);

    Record dual = parse_ok(FORMAT_TGN, "rule dualboard\n1:h8");
    assert_null(record_write(FORMAT_PSQ, &dual, &err));
    assert_non_null(strstr(err.msg, "dual-board"));
    record_free(&dual);

    Record plain = parse_ok(FORMAT_PSQ, "Piskvorky 9x9, 11:11, 0\n5,5,0\n1,9,0\n");
    free(round_trip(FORMAT_PSQ, &plain));
    record_free(&plain);
}

static void test_psq_errors(void **state)
{
    (void)state;
    parse_fails(FORMAT_PSQ, "", 1, 1, "expected the PSQ header");
    parse_fails(FORMAT_PSQ, "8,8,0\n", 1, 1, "'8,8,0': expected the PSQ header");
    parse_fails(FORMAT_PSQ, "Piskvorky 15x14, 11:11, 0\n", 1, 11,
                "'15x14': the board must be square");
    parse_fails(FORMAT_PSQ, "Piskvorky 99999999999999999999x99999999999999999999\n", 1, 11,
                "square");
    parse_fails(FORMAT_PSQ, "Piskvorky 15x15, 11:11, 0\n8,8,0\n16,3,0\n", 3, 1,
                "'16' is off the 15x15");
    parse_fails(FORMAT_PSQ, "Piskvorky 15x15, 11:11, 0\n8,0,0\n", 2, 3, "'0' is off");
    parse_fails(FORMAT_PSQ, "Piskvorky 15x15, 11:11, 0\n8,8,0\n 9,9,x\n", 3, 6,
                "'x': unexpected text");
    parse_fails(FORMAT_PSQ, "Piskvorky 15x15, 11:11, 0\n8,8,0,0\n", 2, 6, "unexpected text");
}

/* ---- sgf ---- */

static void test_sgf_parse(void **state)
{
    (void)state;
    /* aa is the top-left corner: hh = h8, ao = a1, oa = o15 on 15x15. */
    const char *text = "(;FF[4]GM[4]SZ[15]RU[Renju]PB[Black \\] player]C[a comment (with parens]\n"
                       "PL[B];B[hh];W[ao]C[x];B[oa](;W[]C[pass];B[tt])(;W[cc]))";
    Record r = parse_ok(FORMAT_SGF, text);
    assert_int_equal(r.config.size, 15);
    assert_int_equal(r.config.rule, RULE_RENJU);
    assert_int_equal(r.has, REC_HAS_SIZE | REC_HAS_RULE);
    assert_int_equal(r.count, 5);
    assert_int_equal(act(&r, 0)->point, pt("h8", 15));
    assert_int_equal(act(&r, 1)->point, pt("a1", 15));
    assert_int_equal(act(&r, 2)->point, pt("o15", 15));
    assert_int_equal(act(&r, 3)->type, ACT_PASS);
    assert_int_equal(act(&r, 4)->type, ACT_PASS); /* B[tt] */
    assert_int_equal(r.actions[1].line, 2);
    assert_int_equal(r.actions[1].col, 15);
    record_free(&r);

    /* The second game of a collection, and a 19x19 gomoku record. */
    Record g = parse_ok(FORMAT_SGF, "(;GM[4];B[aa])\n(;SZ[19]RU[gomoku];B[jj];W[ss])");
    assert_int_equal(g.count, 1);
    record_free(&g);
    TgError err;
    assert_true(record_parse_game(FORMAT_SGF, "(;GM[4];B[aa])\n(;SZ[19]RU[gomoku];B[jj];W[ss])", 2,
                                  &g, &err));
    assert_int_equal(g.config.size, 19);
    assert_int_equal(g.config.rule, RULE_FREESTYLE);
    assert_int_equal(act(&g, 0)->point, pt("j10", 19));
    assert_int_equal(act(&g, 1)->point, pt("s1", 19));
    record_free(&g);
    assert_false(record_parse_game(FORMAT_SGF, "(;B[aa])(;B[bb])", 3, &g, &err));
    assert_non_null(strstr(err.msg, "holds only 2 games"));
}

static void test_sgf_write_and_round_trip(void **state)
{
    (void)state;
    Record r = rich_record();
    char *text = round_trip(FORMAT_SGF, &r);
    assert_string_equal(text,
                        "(;FF[4]GM[4]CA[UTF-8]AP[tengen]SZ[15]RU[renju]TGO[yamaguchi]TGF[claim]\n"
                        ";B[hh];W[hg];B[hf];TGA[declare 2];TGA[swap];W[ig];"
                        "TGA[propose j9,k10];B[kf]TGA[choose];W[je];B[]\n"
                        ";W[gi];TGA[claim];TGA[draw];TGA[draw])\n");
    free(text);
    record_free(&r);

    Record small = parse_ok(FORMAT_TGN, "size 7 rule caro opening free designated 13i\na1 g7 d4");
    text = round_trip(FORMAT_SGF, &small);
    assert_non_null(strstr(text, "SZ[7]RU[caro]TGO[free]TGD[13I]\n;B[ag];W[ga];B[dd])"));
    free(text);
    record_free(&small);

    Record dual = parse_ok(FORMAT_TGN, "rule dualboard\n1:h8");
    TgError err;
    assert_null(record_write(FORMAT_SGF, &dual, &err));
    record_free(&dual);
}

static void test_sgf_errors(void **state)
{
    (void)state;
    parse_fails(FORMAT_SGF, "", 1, 1, "end of input: expected '('");
    parse_fails(FORMAT_SGF, "  x", 1, 3, "'x': expected '('");
    parse_fails(FORMAT_SGF, "(;GM[1];B[aa])", 1, 6, "GM[1]: not a Gomoku/Renju record");
    parse_fails(FORMAT_SGF, "(;SZ[15:13])", 1, 6, "must be square");
    parse_fails(FORMAT_SGF, "(;SZ[40])", 1, 6, "SZ[40]");
    parse_fails(FORMAT_SGF, "(;RU[Japanese])", 1, 6, "RU[Japanese]: unknown rule");
    parse_fails(FORMAT_SGF, "(;RU[dualboard])", 1, 6, "dual-board");
    parse_fails(FORMAT_SGF, "(;SZ[9]\n;B[aj])", 2, 4, "B[aj]: off the 9x9 board");
    parse_fails(FORMAT_SGF, "(;B[hh];B[ii])", 1, 11, "black stone where white is to move");
    parse_fails(FORMAT_SGF, "(;W[hh])", 1, 5, "white stone where black");
    parse_fails(FORMAT_SGF, "(;B[h])", 1, 5, "not a point");
    parse_fails(FORMAT_SGF, "(;B[HH])", 1, 5, "not a point");
    parse_fails(FORMAT_SGF, "(;AB[aa][bb])", 1, 6, "set-up stones");
    parse_fails(FORMAT_SGF, "(;B[aa]W[bb])", 1, 10, "one stone a node");
    parse_fails(FORMAT_SGF, "(;B[aa];SZ[9])", 1, 12, "before the first move");
    parse_fails(FORMAT_SGF, "(;B[aa];TGA[frob])", 1, 13, "'frob': unknown word");
    parse_fails(FORMAT_SGF, "(;B[aa];TGA[swap swap])", 1, 18, "single action");
    parse_fails(FORMAT_SGF, "(;B[aa];TGA[h8])", 1, 13, "not TGA");
    parse_fails(FORMAT_SGF, "(;B[aa]TGA[swap])", 1, 12, "only TGA[choose]");
    parse_fails(FORMAT_SGF, "(;B[aa];TGA[propose z1])", 1, 21, "'z1'");
    parse_fails(FORMAT_SGF, "(;B[aa]", 1, 8, "end of input");
    parse_fails(FORMAT_SGF, "(;C[never closed", 1, 4, "unterminated property value");
    parse_fails(FORMAT_SGF, "(;B[aa](;W[bb]", 1, 15, "end of input");
    parse_fails(FORMAT_SGF, "(;B[aa])(;W[bb]", 1, 9, "unterminated game tree");
    parse_fails(FORMAT_SGF, "(;B[aa])x", 1, 9, "'x'");
    parse_fails(FORMAT_SGF, "(;B [aa] ; 5)", 1, 12, "'5'");
    parse_fails(FORMAT_SGF, "(;B)", 1, 3, "has no [value]");
}

/* ---- rif ---- */

static const char RIF_DB[] =
    "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
    "<!-- RenjuNet database -->\n"
    "<database version=\"1.0\">\n"
    "<rules><rule id=\"1\" name=\"RIF\"><info>RIF 1996 <b>rule</b></info></rule></rules>\n"
    "<players><player id=\"3\" name=\"A &amp; B\" surname=\"x > y\"/></players>\n"
    "<games>\n"
    "<game id=\"10\" rule=\"1\" black=\"3\" white=\"3\" bresult=\"1\" opening=\"4\" alt=\"j10\">\n"
    "  <move>h8 h9 i9 j8 i10</move>\n"
    "  <info><![CDATA[first <game> note]]></info>\n"
    "</game>\n"
    "<game id=\"11\" rule=\"1\"><move>\n h8 i9\n o15  a1 </move></game>\n"
    "<game id=\"12\"/>\n"
    "</games>\n"
    "</database>\n";

static void test_rif_parse(void **state)
{
    (void)state;
    Record r = parse_ok(FORMAT_RIF, RIF_DB);
    assert_int_equal(r.config.size, 15);
    assert_int_equal(r.config.opening, OPENING_FREE);
    const char *want[] = {"h8", "h9", "i9", "j8", "i10"};
    assert_stones(&r, want, 5);
    assert_int_equal(r.actions[1].line, 8);
    assert_int_equal(r.actions[1].col, 12);
    record_free(&r);
    TgError err;
    assert_true(record_parse_game(FORMAT_RIF, RIF_DB, 2, &r, &err));
    const char *want2[] = {"h8", "i9", "o15", "a1"};
    assert_stones(&r, want2, 4);
    assert_int_equal(r.actions[2].line, 13);
    record_free(&r);
    assert_true(record_parse_game(FORMAT_RIF, RIF_DB, 3, &r, &err));
    assert_int_equal(r.count, 0);
    assert_false(record_parse_game(FORMAT_RIF, RIF_DB, 4, &r, &err));
    assert_string_equal(err.msg, "game 4: the file holds only 3 games");
    assert_false(record_parse_game(FORMAT_RIF, RIF_DB, 0, &r, &err));
}

static void test_rif_write_and_round_trip(void **state)
{
    (void)state;
    Record r = parse_ok(FORMAT_TGN, "opening yamaguchi\nh8 h9 h10 declare 2 swap i9 propose "
                                    "j9,k10 choose k10 j11 g7 resign");
    TgError err;
    char *text = record_write(FORMAT_RIF, &r, &err);
    assert_non_null(text);
    assert_non_null(strstr(text, "<move>h8 h9 h10 i9 k10 j11 g7</move>"));
    Record back = parse_ok(FORMAT_RIF, text);
    assert_stones(&back, RICH_STONES, 7);
    free(round_trip(FORMAT_RIF, &back));
    free(text);
    record_free(&back);
    record_free(&r);

    Record small = parse_ok(FORMAT_TGN, "size 9 e5");
    assert_null(record_write(FORMAT_RIF, &small, &err));
    assert_non_null(strstr(err.msg, "15x15"));
    record_free(&small);
}

static void test_rif_errors(void **state)
{
    (void)state;
    parse_fails(FORMAT_RIF, "", 1, 1, "no <game> element");
    parse_fails(FORMAT_RIF, "hello", 1, 6, "no <game> element");
    parse_fails(FORMAT_RIF, "<games><game><move>h8 z9</move></game></games>", 1, 23,
                "'z9' is off the 15x15 board");
    parse_fails(FORMAT_RIF, "<game>\n<move>h8 h16</move></game>", 2, 10, "off the 15x15");
    parse_fails(FORMAT_RIF, "<game><move>h8 ?! i9</move></game>", 1, 16,
                "'?!' in <move> is not a point");
    parse_fails(FORMAT_RIF, "<game><move>h8", 1, 7, "not closed by </move>");
    parse_fails(FORMAT_RIF, "<game><move>h8</move>", 1, 1, "not closed by </game>");
    parse_fails(FORMAT_RIF, "<game><move>h8</move><move>h9</move></game>", 1, 22, "two <move>");
    parse_fails(FORMAT_RIF, "<!-- open", 1, 1, "unterminated comment");
    parse_fails(FORMAT_RIF, "<game id=\"1>", 1, 10, "unterminated attribute");
    parse_fails(FORMAT_RIF, "< game>", 1, 1, "element name");
}

/* Every format: truncated files, flipped bytes and random bytes parse or fail
 * with a position, never crash (this runs under ASan in `make test`). */
static void test_all_formats_never_crash(void **state)
{
    (void)state;
    Record rich = rich_record();
    TgError err;
    char *samples[FORMAT_COUNT];
    samples[FORMAT_TGN] = record_write(FORMAT_TGN, &rich, &err);
    samples[FORMAT_SGF] = record_write(FORMAT_SGF, &rich, &err);
    samples[FORMAT_PSQ] = strdup("Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,120\n10,10,7\nx.zip\n-1\n");
    samples[FORMAT_RIF] = strdup(RIF_DB);
    record_free(&rich);
    unsigned seed = 777;
    for (int f = 0; f < FORMAT_COUNT; f++) {
        const char *text = samples[f];
        assert_non_null(text);
        size_t n = strlen(text);
        char *buf = malloc(n + 1);
        assert_non_null(buf);
        for (size_t k = 0; k <= n; k++) { /* every prefix */
            memcpy(buf, text, k);
            buf[k] = '\0';
            Record r;
            if (record_parse((RecordFormat)f, buf, &r, &err))
                record_free(&r);
            else
                assert_true(err.line >= 1 && err.col >= 1);
        }
        for (int round = 0; round < 400; round++) { /* a few bytes replaced */
            memcpy(buf, text, n + 1);
            for (int j = 0; j < 3; j++) {
                seed = seed * 1103515245u + 12345u;
                size_t at = (seed >> 8) % n;
                seed = seed * 1103515245u + 12345u;
                buf[at] = (char)(1 + (seed >> 16) % 255);
            }
            Record r;
            if (record_parse((RecordFormat)f, buf, &r, &err))
                record_free(&r);
            else
                assert_true(err.line >= 1 && err.col >= 1);
        }
        free(buf);
        free(samples[f]);
    }
    /* Deep nesting and long runs must not exhaust the stack or overflow. */
    size_t deep = 200000;
    char *nest = malloc(deep + 8);
    assert_non_null(nest);
    memset(nest, '(', deep);
    strcpy(nest + deep, ";B[aa]");
    Record r;
    assert_false(record_parse(FORMAT_SGF, nest, &r, &err));
    memset(nest, '9', deep);
    nest[deep] = '\0';
    memcpy(nest, "size ", 5);
    assert_false(record_parse(FORMAT_TGN, nest, &r, &err));
    assert_false(record_parse(FORMAT_PSQ, nest, &r, &err));
    memcpy(nest, "Piskvorky 15x15\n", 16);
    memcpy(nest + deep - 2, ",1", 2); /* a move line with a huge x */
    assert_false(record_parse(FORMAT_PSQ, nest, &r, &err));
    free(nest);
    assert_false(record_parse(FORMAT_TGN, NULL, &r, &err));
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
}

static void test_formats_by_text(void **state)
{
    (void)state;
    assert_int_equal(record_format_guess("\n  (;GM[4]SZ[15];B[hh])"), FORMAT_SGF);
    assert_int_equal(record_format_guess("\xef\xbb\xbf\r\n<?xml version=\"1.0\"?>"), FORMAT_RIF);
    assert_int_equal(record_format_guess("Piskvorky 15x15, 11:11, 0\n8,8,0\n"), FORMAT_PSQ);
    assert_int_equal(record_format_guess("size 15\nh8 h9\n"), FORMAT_TGN);
    assert_int_equal(record_format_guess(""), FORMAT_TGN);
    /* A known extension wins over the text; an unknown one or none defers to it. */
    assert_int_equal(record_format_detect("a.psq", "(;GM[4])"), FORMAT_PSQ);
    assert_int_equal(record_format_detect("a.txt", "(;GM[4])"), FORMAT_SGF);
    assert_int_equal(record_format_detect("download", "Piskvorky 15x15, 1:1, 0\n"), FORMAT_PSQ);
    assert_int_equal(record_format_detect(NULL, "<database>"), FORMAT_RIF);
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
        cmocka_unit_test(test_psq_parse),
        cmocka_unit_test(test_psq_write_and_round_trip),
        cmocka_unit_test(test_psq_errors),
        cmocka_unit_test(test_sgf_parse),
        cmocka_unit_test(test_sgf_write_and_round_trip),
        cmocka_unit_test(test_sgf_errors),
        cmocka_unit_test(test_rif_parse),
        cmocka_unit_test(test_rif_write_and_round_trip),
        cmocka_unit_test(test_rif_errors),
        cmocka_unit_test(test_all_formats_never_crash),
        cmocka_unit_test(test_formats_by_name),
        cmocka_unit_test(test_formats_by_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
