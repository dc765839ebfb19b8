/* tengen openings — generate balanced openings for `tengen match`. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tengen/coord.h"
#include "tengen/engine.h"
#include "tengen/forbid.h"
#include "tengen/pattern.h"
#include "tengen/rng.h"
#include "tengen/rules.h"

static const char USAGE[] =
    "usage: tengen openings [--rule R] [--size N] [--count N] [--seed S] [--stones K]\n"
    "                       [--radius R] [--depth D | --nodes N] [--margin M]\n"
    "                       [--playout NODES] [--tries N] [--out FILE]\n"
    "Generates random openings of K stones (default 5; black first, alternating)\n"
    "within R lines of the centre (default 4) and keeps those the engine scores\n"
    "near equal for the side to move: one search thread, a 16 MB hash cleared\n"
    "before each search, depth D (default 10) or N nodes, and the scores of both\n"
    "of the last two completed depths within +-M (default 60). Positions with a\n"
    "four or a five, a forbidden black stone (renju) or a symmetric twin of a kept\n"
    "opening are skipped. With --playout, a kept opening must also survive two\n"
    "self-play games from it (NODES and 2*NODES a move): one colour winning both\n"
    "rejects it. Writes --count openings (default 8) in the\n"
    "`tengen match --openings` format, each with its two scores, to FILE\n"
    "(atomically) or stdout; fails after --tries candidates (default 100 per\n"
    "opening). The same options and engine give the same file.\n";

#define HASH_MB 16

typedef struct {
    Rule rule;
    int size, count, stones, radius, depth, margin, tries;
    uint64_t seed, nodes, playout;
} GenOptions;

typedef struct {
    int npoints;
    Point p[BOARD_MAX_MOVES];
    int score[2];  /* the last two completed depths' scores, earlier first */
    Color result[2]; /* self-play winners (--playout), EMPTY for a draw */
} Opening;

/* The eight symmetries of the square board, as point transforms. */
static Point transform(Point p, int sym, int size)
{
    int x = point_x(p), y = point_y(p), n = size - 1;
    if (sym & 1)
        x = n - x;
    if (sym & 2)
        y = n - y;
    if (sym & 4) {
        int t = x;
        x = y;
        y = t;
    }
    return point_make(x, y);
}

/* Zobrist-style fingerprint of the stones after symmetry sym; the minimum over
 * the eight is the same for every symmetric twin. */
static uint64_t fingerprint(const Opening *o, int sym, int size)
{
    uint64_t h = 0;
    for (int i = 0; i < o->npoints; i++) {
        uint64_t v = (uint64_t)transform(o->p[i], sym, size) * 2 + (uint64_t)(i % 2);
        v = (v + 0x9E3779B97F4A7C15ull) * 0xBF58476D1CE4E5B9ull;
        v ^= v >> 31;
        h += v * 0x94D049BB133111EBull; /* a sum: the order of the stones does not matter */
    }
    return h;
}

static uint64_t canonical(const Opening *o, int size)
{
    uint64_t best = UINT64_MAX;
    for (int s = 0; s < 8; s++) {
        uint64_t h = fingerprint(o, s, size);
        if (h < best)
            best = h;
    }
    return best;
}

/* True when c can make five at once on some empty cell (an existing four). */
static bool has_four(const Board *b, Color c)
{
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            Point p = point_make(x, y);
            if (b->cell[p] != EMPTY)
                continue;
            for (int d = 0; d < 4; d++)
                if (board_pattern(b, p, d, c) == PAT_F5)
                    return true;
        }
    return false;
}

/* A random opening in the central square, or false when this draw is unusable. */
static bool draw_opening(Rng *r, const GenOptions *g, Board *b, Opening *o)
{
    board_init(b, g->size, g->rule);
    o->npoints = 0;
    int c = g->size / 2, lo = c - g->radius, span = 2 * g->radius + 1;
    if (lo < 0) {
        lo = 0;
        span = g->size;
    }
    for (int i = 0; i < g->stones; i++) {
        Color col = i % 2 ? WHITE : BLACK;
        Point p = POINT_NONE;
        for (int attempt = 0; attempt < 100 && p == POINT_NONE; attempt++) {
            Point q = rng_point(r, lo, span);
            if (b->cell[q] != EMPTY)
                continue;
            if (g->rule == RULE_RENJU && col == BLACK && forbid_is_forbidden(forbid_check(b, q)))
                continue;
            p = q;
        }
        if (p == POINT_NONE)
            return false;
        board_play(b, p, col);
        o->p[o->npoints++] = p;
    }
    return !rules_has_win(b, BLACK) && !rules_has_win(b, WHITE) && !has_four(b, BLACK) &&
           !has_four(b, WHITE);
}

typedef struct {
    int n;
    int score[ENGINE_MAX_DEPTH + 2];
    bool forced[ENGINE_MAX_DEPTH + 2];
} DepthScores;

static void on_info(const SearchInfo *info, void *user)
{
    DepthScores *s = user;
    if (info->line_index != 0 || s->n >= ENGINE_MAX_DEPTH + 2)
        return;
    s->score[s->n] = info->line.score;
    s->forced[s->n] = info->line.mate != 0;
    s->n++;
}

/* Searches the opening; true when the last two completed depths both score
 * within the margin for the side to move. */
static bool balanced(Engine *e, const GenOptions *g, const Board *b, Opening *o)
{
    engine_clear_hash(e);
    Color to_move = o->npoints % 2 ? WHITE : BLACK;
    if (!engine_set_position(e, b, to_move, NULL))
        return false;
    SearchLimits lim;
    search_limits_init(&lim);
    lim.depth = g->depth;
    lim.nodes = g->nodes;
    DepthScores s = {0};
    SearchResult res;
    engine_think(e, &lim, on_info, &s, &res);
    if (s.n < 2)
        return false;
    for (int k = s.n - 2; k < s.n; k++) {
        if (s.forced[k] || abs(s.score[k]) > g->margin)
            return false;
        o->score[k - (s.n - 2)] = s.score[k];
    }
    return true;
}

/* Self-play from the opening at `nodes` a move: the winner, or EMPTY for a
 * draw (full board, no legal move). */
static Color playout(Engine *e, const Board *start, Color to_move, uint64_t nodes)
{
    Board b = *start;
    while (b.count < board_area(&b)) {
        engine_clear_hash(e);
        SearchLimits lim;
        search_limits_init(&lim);
        lim.nodes = nodes;
        SearchResult res;
        if (!engine_set_position(e, &b, to_move, NULL) || !engine_think(e, &lim, NULL, NULL, &res) ||
            res.best == POINT_NONE)
            return EMPTY;
        board_play(&b, res.best, to_move);
        if (rules_has_win(&b, to_move))
            return to_move;
        to_move = to_move == BLACK ? WHITE : BLACK;
    }
    return EMPTY;
}

/* Two self-play games at different strengths; false when one colour wins both. */
static bool survives_playout(Engine *e, const GenOptions *g, const Board *b, Opening *o)
{
    Color to_move = o->npoints % 2 ? WHITE : BLACK;
    Color w1 = playout(e, b, to_move, g->playout);
    Color w2 = playout(e, b, to_move, 2 * g->playout);
    o->result[0] = w1;
    o->result[1] = w2;
    return w1 == EMPTY || w1 != w2;
}

static const char *result_name(Color c)
{
    return c == BLACK ? "1-0" : c == WHITE ? "0-1" : "draw";
}

static char *format_file(const GenOptions *g, const Opening *list, int n, const char *cmdline)
{
    size_t cap = 4096 + (size_t)n * (size_t)(g->stones * 5 + 40);
    char *s = malloc(cap);
    if (!s)
        return NULL;
    size_t len = (size_t)snprintf(
        s, cap,
        "# Balanced %s openings for `tengen match --rule %s --size %d`, black first.\n"
        "# Made by: %s\n"
        "# Each was kept when tengen's search (1 thread, %d MB hash) scored it within\n"
        "# +-%d for the side to move at both of the last two completed depths (shown)%s.\n",
        rule_name(g->rule), rule_name(g->rule), g->size, cmdline, HASH_MB, g->margin,
        g->playout ? ",\n# and two self-play games from it did not both go to one colour" : "");
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < list[i].npoints; k++) {
            char buf[COORD_BUF];
            len += (size_t)snprintf(s + len, cap - len, "%s%s", k ? " " : "",
                                    coord_format(list[i].p[k], g->size, buf));
        }
        len += (size_t)snprintf(s + len, cap - len, "  # %d %d", list[i].score[0],
                                list[i].score[1]);
        if (g->playout)
            len += (size_t)snprintf(s + len, cap - len, " self-play %s %s",
                                    result_name(list[i].result[0]),
                                    result_name(list[i].result[1]));
        len += (size_t)snprintf(s + len, cap - len, "\n");
    }
    return s;
}

static int generate(const GenOptions *g, const char *out, const char *cmdline)
{
    EngineOptions eo;
    engine_options_default(&eo);
    eo.threads = 1;
    eo.hash_mb = HASH_MB;
    TgError err;
    Engine *e = engine_new(&eo, &err);
    Opening *kept = calloc((size_t)g->count, sizeof *kept);
    uint64_t *seen = calloc((size_t)g->count, sizeof *seen);
    Board *b = malloc(sizeof *b);
    if (!e || !kept || !seen || !b) {
        cli_error("openings", "%s", e ? "out of memory" : err.msg);
        engine_free(e);
        free(kept);
        free(seen);
        free(b);
        return EXIT_USAGE;
    }
    Rng r;
    rng_seed(&r, g->seed);
    int n = 0, tried = 0;
    for (int64_t draws = 0; n < g->count && tried < g->tries && draws < 100LL * g->tries; draws++) {
        Opening o;
        if (!draw_opening(&r, g, b, &o))
            continue; /* not a candidate (a four, say): no search, no try */
        tried++;
        uint64_t key = canonical(&o, g->size);
        bool twin = false;
        for (int i = 0; i < n && !twin; i++)
            twin = seen[i] == key;
        /* The self-play games (cheap at a few thousand nodes) go first. */
        if (twin || (g->playout && !survives_playout(e, g, b, &o)) || !balanced(e, g, b, &o))
            continue;
        seen[n] = key;
        kept[n++] = o;
        fprintf(stderr, "openings: %d kept of %d tried\n", n, tried);
    }
    int rc = EXIT_OK;
    if (n < g->count) {
        cli_error("openings", "only %d of %d openings balanced within +-%d after %d tries", n,
                  g->count, g->margin, tried);
        rc = EXIT_ILLEGAL;
    } else {
        char *text = format_file(g, kept, n, cmdline);
        if (!text) {
            cli_error("openings", "out of memory");
            rc = EXIT_USAGE;
        } else if (out) {
            if (!cli_write_file(out, text, strlen(text), &err)) {
                cli_error("openings", "%s", err.msg);
                rc = EXIT_USAGE;
            }
        } else {
            fputs(text, stdout);
        }
        free(text);
    }
    engine_free(e);
    free(kept);
    free(seen);
    free(b);
    return rc;
}

int cmd_openings(int argc, char **argv)
{
    static const struct option LONG[] = {
        {"rule", required_argument, NULL, 'r'},   {"size", required_argument, NULL, 's'},
        {"count", required_argument, NULL, 'c'},  {"seed", required_argument, NULL, 'S'},
        {"stones", required_argument, NULL, 'k'}, {"radius", required_argument, NULL, 'R'},
        {"depth", required_argument, NULL, 'd'},  {"nodes", required_argument, NULL, 'n'},
        {"margin", required_argument, NULL, 'm'}, {"tries", required_argument, NULL, 't'},
        {"out", required_argument, NULL, 'o'},    {"help", no_argument, NULL, 'h'},
        {"playout", required_argument, NULL, 'p'},
        {0, 0, 0, 0},
    };
    GenOptions g = {RULE_FREESTYLE, 15, 8, 5, 4, 10, 60, 0, 1, 0, 0};
    const char *out = NULL;
    bool depth_set = false;
    /* The command line, for the file's header. */
    char cmdline[1024] = "tengen openings";
    for (int i = 1; i < argc; i++) {
        size_t len = strlen(cmdline);
        snprintf(cmdline + len, sizeof cmdline - len, " %s", argv[i]);
    }
    optind = 1;
    opterr = 0;
    int ch;
    while ((ch = getopt_long(argc, argv, "h", LONG, NULL)) != -1) {
        bool ok = true;
        const char *want = "";
        int v = 0;
        switch (ch) {
        case 'r':
            ok = rule_parse(optarg, &g.rule);
            want = "the rule must be freestyle, standard, renju or caro";
            break;
        case 's':
            ok = cli_int(optarg, BOARD_MIN_SIZE, BOARD_MAX_SIZE, &g.size);
            want = "--size must be 5..22";
            break;
        case 'c':
            ok = cli_int(optarg, 1, 10000, &g.count);
            want = "--count must be 1..10000";
            break;
        case 'S':
            ok = cli_int(optarg, 0, 2147483647, &v);
            g.seed = (uint64_t)v;
            want = "--seed must be 0..2147483647";
            break;
        case 'k':
            ok = cli_int(optarg, 1, 40, &g.stones);
            want = "--stones must be 1..40";
            break;
        case 'R':
            ok = cli_int(optarg, 1, 11, &g.radius);
            want = "--radius must be 1..11";
            break;
        case 'd':
            ok = cli_int(optarg, 2, ENGINE_MAX_DEPTH, &g.depth);
            depth_set = true;
            want = "--depth must be 2..60";
            break;
        case 'n':
            ok = cli_int(optarg, 1, 2000000000, &v);
            g.nodes = (uint64_t)v;
            want = "--nodes must be 1..2000000000";
            break;
        case 'm':
            ok = cli_int(optarg, 0, 10000, &g.margin);
            want = "--margin must be 0..10000";
            break;
        case 't':
            ok = cli_int(optarg, 1, 100000000, &g.tries);
            want = "--tries must be 1..100000000";
            break;
        case 'p':
            ok = cli_int(optarg, 1, 100000000, &v);
            g.playout = (uint64_t)v;
            want = "--playout must be 1..100000000";
            break;
        case 'o': out = optarg; break;
        case 'h': fputs(USAGE, stdout); return EXIT_OK;
        default:
            cli_error("openings", "unknown option '%s' (see tengen openings --help)",
                      argv[optind - 1]);
            return EXIT_USAGE;
        }
        if (!ok) {
            cli_error("openings", "%s, got '%s'", want, optarg);
            return EXIT_USAGE;
        }
    }
    if (optind < argc) {
        cli_error("openings", "unexpected argument '%s'", argv[optind]);
        return EXIT_USAGE;
    }
    if (g.nodes && !depth_set)
        g.depth = ENGINE_MAX_DEPTH; /* --nodes alone limits the search */
    int area = (2 * g.radius + 1) * (2 * g.radius + 1);
    if (g.stones > area / 2) {
        cli_error("openings", "%d stones do not fit in radius %d", g.stones, g.radius);
        return EXIT_USAGE;
    }
    if (!g.tries)
        g.tries = 100 * g.count;
    return generate(&g, out, cmdline);
}
