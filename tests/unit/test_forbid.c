/* Renju forbidden points: the shared cases, the seed's recursive chain, the
 * explanation tree, and a differential test against the plain reference judge. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../support/refjudge.h"
#include "tengen/board.h"
#include "tengen/coord.h"
#include "tengen/forbid.h"
#include "tengen/rng.h"

static const char *data_dir(void)
{
    const char *d = getenv("TESTDATA");
    return d ? d : "tests/data";
}

static void to_ref(const Board *b, RefBoard *r)
{
    memset(r, 0, sizeof *r);
    r->size = b->size;
    for (int x = 0; x < b->size; x++)
        for (int y = 0; y < b->size; y++)
            r->c[x][y] = b->cell[point_make(x, y)];
}

static ForbidKind kind_parse(const char *s)
{
    for (int k = FORBID_NONE; k <= FORBID_OVERLINE; k++)
        if (!strcmp(s, forbid_kind_name((ForbidKind)k)))
            return (ForbidKind)k;
    fail_msg("unknown verdict '%s'", s);
    return FORBID_NONE;
}

static Point parse_point(const char *tok, int size)
{
    Point p;
    TgError err;
    if (!coord_parse(tok, size, &p, &err))
        fail_msg("bad point in test data: %s", err.msg);
    return p;
}

/* Runs every case of one data file (format: see tests/data/forbidden/seed-diagrams.txt).
 * Returns the number of checks made. */
static int run_case_file(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/forbidden/%s", data_dir(), name);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[2048], casename[128] = "";
    Board b;
    board_init(&b, 15, RULE_RENJU);
    int checks = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = 0;
        char *save = NULL, *word = strtok_r(line, " \t", &save);
        if (!word || word[0] == '#')
            continue;
        if (!strcmp(word, "case")) {
            snprintf(casename, sizeof casename, "%s", strtok_r(NULL, " \t", &save));
            board_init(&b, 15, RULE_RENJU);
        } else if (!strcmp(word, "size")) {
            board_init(&b, atoi(strtok_r(NULL, " \t", &save)), RULE_RENJU);
        } else if (!strcmp(word, "black") || !strcmp(word, "white")) {
            Color c = word[0] == 'b' ? BLACK : WHITE;
            for (char *t; (t = strtok_r(NULL, " \t", &save));)
                board_play(&b, parse_point(t, b.size), c);
        } else if (!strcmp(word, "query")) {
            Point p = parse_point(strtok_r(NULL, " \t", &save), b.size);
            ForbidKind want = kind_parse(strtok_r(NULL, " \t", &save));
            uint64_t hash = b.hash;
            ForbidKind got = forbid_check(&b, p);
            RefBoard r;
            to_ref(&b, &r);
            int ref = ref_forbid(&r, point_x(p), point_y(p));
            if (got != want || ref != (int)want)
                fail_msg("%s: %s: want %s, fast %s, reference %s", name, casename,
                         forbid_kind_name(want), forbid_kind_name(got),
                         forbid_kind_name((ForbidKind)ref));
            assert_true(hash == b.hash);
            checks++;
        } else if (!strcmp(word, "forbidden")) {
            Point want[BOARD_MAX_MOVES], got[BOARD_MAX_MOVES];
            ForbidKind wk[BOARD_MAX_MOVES], gk[BOARD_MAX_MOVES];
            int nw = 0;
            for (char *t; (t = strtok_r(NULL, " \t", &save));) {
                if (!strcmp(t, "-"))
                    break;
                char *colon = strchr(t, ':');
                assert_non_null(colon);
                *colon = 0;
                want[nw] = parse_point(t, b.size);
                wk[nw++] = kind_parse(colon + 1);
            }
            int ng = forbid_list(&b, got, gk);
            assert_int_equal(ng, nw);
            for (int i = 0; i < nw; i++) {
                assert_int_equal(got[i], want[i]);
                assert_int_equal(gk[i], wk[i]);
            }
            checks++;
        } else {
            fail_msg("%s: unknown line '%s'", name, word);
        }
    }
    fclose(f);
    return checks;
}

static void test_seed_diagrams(void **state)
{
    (void)state;
    assert_int_equal(run_case_file("seed-diagrams.txt"), 6);
}

static void test_public_cases(void **state)
{
    (void)state;
    assert_int_equal(run_case_file("public-cases.txt"), 58);
}

static void test_recursive_chain(void **state)
{
    (void)state;
    assert_int_equal(run_case_file("recursive-chain.txt"), 3);
}

static void setup_chain(Board *b)
{
    static const char *const black[] = {"f4", "h4", "c5", "f5", "j5", "e6", "g7", "h7",
                                        "l7", "d8", "e8", "g8", "c9", "d11", "k12", "g15"};
    static const char *const white[] = {"h8", "d10", "e11", "j11", "k11", "f12", "k15"};
    board_init(b, 15, RULE_RENJU);
    for (size_t i = 0; i < sizeof black / sizeof *black; i++)
        board_play(b, parse_point(black[i], 15), BLACK);
    for (size_t i = 0; i < sizeof white / sizeof *white; i++)
        board_play(b, parse_point(white[i], 15), WHITE);
}

static const ForbidNode *child_at(const ForbidTree *t, const ForbidNode *n, const char *pt)
{
    Point p = parse_point(pt, 15);
    for (int i = 0; i < n->nlines; i++)
        for (int j = 0; j < n->lines[i].nsf; j++)
            if (n->lines[i].sf[j] == p && n->lines[i].sf_node[j] >= 0)
                return &t->node[n->lines[i].sf_node[j]];
    fail_msg("no expanded child %s", pt);
    return NULL;
}

/* The seed's X/A/B/C chain: X=e5 is legal because A=e7 is forbidden, because
 * B=f7 is legal, because C=f6 is forbidden once X, A and B are assumed. */
static void test_explain_chain(void **state)
{
    (void)state;
    Board b;
    setup_chain(&b);
    ForbidTree t;
    assert_true(forbid_explain(&b, parse_point("e5", 15), &t));
    const ForbidNode *x = &t.node[0];
    assert_int_equal(x->verdict, FORBID_NONE);
    assert_int_equal(x->real_threes, 1);
    const ForbidNode *a = child_at(&t, x, "e7");
    assert_int_equal(a->verdict, FORBID_DOUBLE_THREE);
    const ForbidNode *bb = child_at(&t, a, "f7");
    assert_int_equal(bb->verdict, FORBID_NONE);
    const ForbidNode *c = child_at(&t, bb, "f6");
    assert_int_equal(c->verdict, FORBID_DOUBLE_FOUR);
    assert_int_equal(c->depth, 3);
    char *text = forbid_tree_text(&t, 15);
    assert_non_null(strstr(text, "f6 -> double-four   (with e5 e7 f7 f6 on the board)"));
    assert_non_null(strstr(text, "column: three, straight-four point e7 -> false three"));
    free(text);
    json_t *j = forbid_tree_json(&t, 15);
    assert_string_equal(json_string_value(json_object_get(j, "verdict")), "legal");
    json_decref(j);
    forbid_tree_free(&t);
    /* C's verdict depends on the stones assumed above it: without A it is legal. */
    setup_chain(&b);
    board_play(&b, parse_point("e5", 15), BLACK);
    board_play(&b, parse_point("f7", 15), BLACK);
    assert_false(forbid_is_forbidden(forbid_check(&b, parse_point("f6", 15))));
    board_play(&b, parse_point("e7", 15), BLACK);
    assert_int_equal(forbid_check(&b, parse_point("f6", 15)), FORBID_DOUBLE_FOUR);
}

/* Every node of an explanation agrees with forbid_check() on the board with the
 * node's assumed stones. */
static void check_tree(Board *b, const ForbidTree *t, int idx)
{
    const ForbidNode *n = &t->node[idx];
    assert_int_equal(forbid_check(b, n->p), n->verdict);
    board_play(b, n->p, BLACK);
    for (int i = 0; i < n->nlines; i++)
        for (int j = 0; j < n->lines[i].nsf; j++)
            if (n->lines[i].sf_node[j] >= 0)
                check_tree(b, t, n->lines[i].sf_node[j]);
    board_undo(b);
}

static void test_explain_matches_check(void **state)
{
    (void)state;
    Rng r;
    rng_seed(&r, 99);
    int trees = 0;
    for (int pos = 0; pos < 300; pos++) {
        Board b;
        board_init(&b, 15, RULE_RENJU);
        rng_clustered_position(&r, &b, 20 + rng_below(&r, 60));
        for (Point p = 0; p < BOARD_CELLS; p++) {
            if (b.cell[p] != EMPTY || forbid_check(&b, p) == FORBID_NONE)
                continue;
            ForbidTree t;
            assert_true(forbid_explain(&b, p, &t));
            check_tree(&b, &t, 0);
            forbid_tree_free(&t);
            trees++;
        }
    }
    assert_true(trees > 100);
}

/* Random clustered positions; black gets more stones in some of them so that
 * forbidden shapes abound. */
static void random_position(Rng *r, Board *b)
{
    int size = rng_below(r, 4) == 0 ? BOARD_MIN_SIZE + rng_below(r, 18) : 15;
    board_init(b, size, RULE_RENJU);
    int stones = 4 + rng_below(r, size * size / 3);
    int black_pct = rng_below(r, 3) == 0 ? 65 : 50;
    int c = size / 2;
    for (int tries = 0; b->count < stones && tries < 4000; tries++) {
        int x, y;
        if (b->count == 0) {
            x = c;
            y = c;
        } else {
            Point from = b->history[rng_below(r, b->count)];
            x = point_x(from) + rng_below(r, 5) - 2;
            y = point_y(from) + rng_below(r, 5) - 2;
        }
        if (x < 0 || y < 0 || x >= size || y >= size || b->cell[point_make(x, y)] != EMPTY)
            continue;
        board_play(b, point_make(x, y), rng_below(r, 100) < black_pct ? BLACK : WHITE);
    }
}

static void test_differential(void **state)
{
    (void)state;
#ifdef TENGEN_DEBUG
    int positions = 3000;
#else
    int positions = 100000;
#endif
    const char *env = getenv("TENGEN_DIFF_POSITIONS");
    if (env)
        positions = atoi(env);
    Rng r;
    rng_seed(&r, 20261129);
    long checks = 0, forbidden = 0, differences = 0;
    static Board b;
    static RefBoard ref;
    for (int pos = 0; pos < positions; pos++) {
        random_position(&r, &b);
        to_ref(&b, &ref);
        for (int y = 0; y < b.size; y++)
            for (int x = 0; x < b.size; x++) {
                Point p = point_make(x, y);
                if (b.cell[p] != EMPTY)
                    continue;
                int fast = forbid_check(&b, p);
                int plain = ref_forbid(&ref, x, y);
                checks++;
                forbidden += forbid_is_forbidden((ForbidKind)fast);
                if (fast != plain && differences++ < 5) {
                    char buf[COORD_BUF];
                    print_error("position %d (size %d, %d stones) at %s: fast %s, reference %s\n",
                                pos, b.size, b.count, coord_format(p, b.size, buf),
                                forbid_kind_name((ForbidKind)fast),
                                forbid_kind_name((ForbidKind)plain));
                }
            }
    }
    print_message("differential: %d positions, %ld checks, %ld forbidden, %ld differences\n",
                  positions, checks, forbidden, differences);
    assert_int_equal(differences, 0);
    assert_true(forbidden > positions / 20);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed_diagrams),   cmocka_unit_test(test_public_cases),
        cmocka_unit_test(test_recursive_chain), cmocka_unit_test(test_explain_chain),
        cmocka_unit_test(test_explain_matches_check), cmocka_unit_test(test_differential),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
