/* gen_puzzles — makes the threat-solver puzzle set (tests/data/puzzles/) from
 * clustered random positions with a fixed seed. Keeps a position when the
 * solver's line replays as a win through the rules library and a search one
 * attacker move shallower finds none (or, for "none" puzzles, when the search
 * is exhaustive). Build and run: make tools; build/gen-puzzles > FILE. */
#include <stdio.h>
#include <string.h>

#include "../tests/support/solver_check.h"
#include "tengen/forbid.h"
#include "tengen/pattern.h"
#include "tengen/rng.h"
#include "tengen/rules.h"

#define GEN_HASH (4u << 20)
#define GEN_BUDGET 200000
#define GEN_MAX_TRIES 40000

typedef struct {
    Rule rule;
    int size;
    bool vct, win;
    int count, min_depth;
    const char *tag; /* required tag, or NULL */
} Category;

static const Category CATS[] = {
    {RULE_FREESTYLE, 15, false, true, 6, 6, NULL},  {RULE_FREESTYLE, 20, false, true, 3, 6, NULL},
    {RULE_FREESTYLE, 9, false, true, 3, 3, NULL},   {RULE_FREESTYLE, 15, true, true, 5, 2, NULL},
    {RULE_FREESTYLE, 11, true, true, 2, 2, NULL},   {RULE_FREESTYLE, 15, false, false, 2, 0, NULL},
    {RULE_FREESTYLE, 15, true, false, 2, 0, NULL},  {RULE_STANDARD, 15, false, true, 6, 6, NULL},
    {RULE_STANDARD, 19, false, true, 3, 6, NULL},   {RULE_STANDARD, 7, false, true, 2, 3, NULL},
    {RULE_STANDARD, 15, true, true, 5, 2, NULL},    {RULE_STANDARD, 13, true, true, 2, 2, NULL},
    {RULE_STANDARD, 15, false, false, 2, 0, NULL},  {RULE_STANDARD, 15, true, false, 2, 0, NULL},
    {RULE_RENJU, 15, false, true, 8, 6, NULL},      {RULE_RENJU, 15, true, true, 6, 2, NULL},
    {RULE_RENJU, 15, false, true, 4, 2, "forbidden-block"},
    {RULE_RENJU, 15, true, true, 2, 2, "forbidden-block"},
    {RULE_RENJU, 15, false, true, 3, 3, "forbidden-four"},
    {RULE_RENJU, 15, false, false, 4, 0, "forbidden-four"},
    {RULE_RENJU, 15, false, false, 2, 0, NULL},     {RULE_RENJU, 15, true, false, 2, 0, NULL},
    {RULE_RENJU, 12, false, true, 2, 6, NULL},      {RULE_CARO, 15, false, true, 6, 6, NULL},
    {RULE_CARO, 17, false, true, 3, 6, NULL},       {RULE_CARO, 8, false, true, 2, 3, NULL},
    {RULE_CARO, 15, true, true, 5, 2, NULL},        {RULE_CARO, 22, true, true, 2, 2, NULL},
    {RULE_CARO, 15, false, false, 2, 0, NULL},      {RULE_CARO, 15, true, false, 2, 0, NULL},
    {RULE_FREESTYLE, 22, false, true, 2, 6, NULL},  {RULE_STANDARD, 10, true, true, 2, 2, NULL},
    {RULE_CARO, 7, false, true, 1, 3, NULL},        {RULE_FREESTYLE, 7, false, true, 1, 3, NULL},
};
#define NCATS (int)(sizeof CATS / sizeof CATS[0])

static SolveStatus run(Solver *s, Board *b, Color att, bool vct, int depth, long long nodes,
                       SolverResult *r)
{
    solver_clear(s);
    SolverLimits lim = {depth, nodes, 0, NULL};
    return vct ? vct_solve(s, b, att, &lim, r) : vcf_solve(s, b, att, &lim, r);
}

static int min_depth(Solver *s, Board *b, Color att, bool vct, const SolverResult *found,
                     long long *most);

/* Black, renju: some point where black would make a four is forbidden. */
static bool forbidden_four(Board *b)
{
    const uint8_t *t = pattern_table(RULE_RENJU, BLACK);
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            Point p = point_make(x, y);
            if (b->cell[p] != EMPTY)
                continue;
            for (int d = 0; d < DIR_COUNT; d++) {
                int pat = t[b->key[d][p]];
                if ((pat == PAT_B4 || pat == PAT_F4) && forbid_is_forbidden(forbid_check(b, p)))
                    return true;
            }
        }
    return false;
}

/* The same stones without forbidden points: black wins (a "none" puzzle) or
 * wins sooner (a "win" puzzle), so the forbidden fours change the answer. */
static bool forbidden_matters(Solver *s, Board *b, bool renju_wins)
{
    static Board std;
    std = *b;
    std.rule = RULE_STANDARD;
    pattern_init(RULE_STANDARD);
    static SolverResult r;
    if (run(s, &std, BLACK, false, 0, GEN_BUDGET, &r) != SOLVE_WIN)
        return false;
    if (!renju_wins)
        return true;
    long long unused = 0;
    int d_std = min_depth(s, &std, BLACK, false, &r, &unused);
    int d_renju = min_depth(s, b, BLACK, false, &r, &unused);
    return d_std > 0 && d_std < d_renju;
}

/* The shortest win in attacker moves: the depth that wins while one less is
 * proven to fail (0 when the searches hit the budget). *most is raised to the
 * nodes either search used. */
static int min_depth(Solver *s, Board *b, Color att, bool vct, const SolverResult *found,
                     long long *most)
{
    int d = vct ? found->depth : 1;
    static SolverResult r;
    for (; d <= SOLVER_MAX_DEPTH; d++) {
        SolveStatus st = run(s, b, att, vct, d, GEN_BUDGET, &r);
        if (r.nodes > *most)
            *most = r.nodes;
        if (st == SOLVE_WIN)
            break;
        if (st != SOLVE_NO_WIN)
            return 0;
    }
    if (d > 1) {
        if (run(s, b, att, vct, d - 1, GEN_BUDGET, &r) != SOLVE_NO_WIN)
            return 0;
        if (r.nodes > *most)
            *most = r.nodes;
    }
    return d;
}

static bool try_position(Solver *s, const Category *c, Board *b, Puzzle *pz)
{
    Color att = board_side_to_move(b);
    Point f[BOARD_MAX_MOVES];
    if (rules_has_win(b, BLACK) || rules_has_win(b, WHITE) || check_five_points(b, att, f))
        return false;
    static SolverResult r;
    SolveStatus st = run(s, b, att, c->vct, 0, GEN_BUDGET, &r);
    if (st == SOLVE_UNKNOWN || (st == SOLVE_WIN) != c->win)
        return false;
    const char *tag = "";
    if (c->rule == RULE_RENJU && att == WHITE && st == SOLVE_WIN && r.forbidden != POINT_NONE)
        tag = "forbidden-block";
    else if (c->rule == RULE_RENJU && att == BLACK && forbidden_four(b))
        tag = "forbidden-four";
    if (c->tag && strcmp(c->tag, tag))
        return false;
    if (!c->tag && tag[0] && c->win)
        return false; /* leave tagged positions to their own categories */
    if (!strcmp(tag, "forbidden-four") && !forbidden_matters(s, b, c->win))
        return false;
    long long used = r.nodes;
    if (c->vct && c->win) {
        /* Needs threes: no VCF at all. */
        SolverResult v;
        if (run(s, b, att, false, 0, GEN_BUDGET, &v) != SOLVE_NO_WIN)
            return false;
    }
    int depth = 0;
    if (c->win) {
        char why[200];
        if (!solver_check_line(b, att, !c->vct, &r, why, sizeof why)) {
            fprintf(stderr, "gen: line rejected: %s\n", why);
            return false;
        }
        depth = min_depth(s, b, att, c->vct, &r, &used);
        if (depth < c->min_depth)
            return false;
    } else if (used < 20) {
        return false; /* nothing to search */
    }
    pz->board = *b;
    pz->side = att;
    pz->vct = c->vct;
    pz->win = c->win;
    pz->plies = depth;
    pz->nodes = used * 4 + 2000;
    snprintf(pz->tag, sizeof pz->tag, "%s", tag);
    return true;
}

int main(void)
{
    Solver *s = solver_new(GEN_HASH);
    static Puzzle pz;
    static char line[8192];
    printf("# Threat-solver puzzles made by tools/gen_puzzles.c (seed 20261129).\n");
    for (int ci = 0; ci < NCATS; ci++) {
        const Category *c = &CATS[ci];
        Rng rng;
        rng_seed(&rng, 20261129 + (uint64_t)ci * 7919);
        int got = 0;
        for (int tries = 0; got < c->count && tries < GEN_MAX_TRIES; tries++) {
            static Board b;
            board_init(&b, c->size, c->rule);
            int area = c->size * c->size;
            int hi = area / 4 < 50 ? area / 4 : 50;
            rng_clustered_position(&rng, &b, 6 + rng_below(&rng, hi - 5));
            if (!try_position(s, c, &b, &pz))
                continue;
            puzzle_format(&pz, line, sizeof line);
            printf("%s\n", line);
            fflush(stdout);
            got++;
        }
        if (got < c->count)
            fprintf(stderr, "gen: category %d (%s %d %s %s %s): only %d of %d\n", ci,
                    rule_name(c->rule), c->size, c->vct ? "vct" : "vcf", c->win ? "win" : "none",
                    c->tag ? c->tag : "", got, c->count);
    }
    solver_free(s);
    return 0;
}
