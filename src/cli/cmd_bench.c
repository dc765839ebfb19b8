/* tengen bench — speed and signatures. Each bench runs fixed work from a fixed
 * seed, so its checksum or node count changes only when behaviour does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <inttypes.h>

#include "cli.h"
#include "tengen/coord.h"
#include "tengen/engine.h"
#include "tengen/forbid.h"
#include "tengen/pattern.h"
#include "tengen/rng.h"
#include "tengen/rules.h"
#include "tengen/solver.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#define FORBID_POSITIONS 1000
#define FORBID_PASSES 20

static int bench_forbid(void)
{
    Board *boards = malloc(FORBID_POSITIONS * sizeof *boards);
    if (!boards)
        return EXIT_USAGE;
    Rng r;
    rng_seed(&r, 20261129);
    for (int i = 0; i < FORBID_POSITIONS; i++) {
        board_init(&boards[i], 15, RULE_RENJU);
        rng_clustered_position(&r, &boards[i], 10 + rng_below(&r, 70));
    }
    pattern_init(RULE_RENJU);
    long checks = 0, forbidden = 0;
    uint64_t sum = 1469598103934665603ULL;
    double t0 = now();
    /* Several passes over the same positions: long enough to time, same verdicts. */
    for (int pass = 0; pass < FORBID_PASSES; pass++)
        for (int i = 0; i < FORBID_POSITIONS; i++) {
            Board *b = &boards[i];
            for (int y = 0; y < b->size; y++)
                for (int x = 0; x < b->size; x++) {
                    Point p = point_make(x, y);
                    if (b->cell[p] != EMPTY)
                        continue;
                    ForbidKind k = forbid_check(b, p);
                    checks++;
                    if (pass > 0)
                        continue;
                    forbidden += forbid_is_forbidden(k);
                    sum = (sum ^ (uint64_t)(k + 1) * (uint64_t)(p + 1)) * 1099511628211ULL;
                }
        }
    double dt = now() - t0;
    printf("forbid: positions %d checks %ld forbidden %ld checksum %016llx\n", FORBID_POSITIONS,
           checks / FORBID_PASSES, forbidden, (unsigned long long)sum);
    printf("forbid: %.3f s, %.2f M checks/s\n", dt, (double)checks / dt / 1e6);
    free(boards);
    return EXIT_OK;
}

static int bench_board(void)
{
    Board b;
    board_init(&b, 15, RULE_RENJU);
    Rng r;
    rng_seed(&r, 7);
    Point moves[100];
    int n = 0;
    while (n < 100) {
        Point p = rng_point(&r, 0, 15);
        if (b.cell[p] == EMPTY) {
            board_play(&b, p, board_side_to_move(&b));
            moves[n++] = p;
        }
    }
    while (b.count)
        board_undo(&b);
    long ops = 0;
    double t0 = now();
    for (int rep = 0; rep < 20000; rep++) {
        for (int i = 0; i < n; i++)
            board_play(&b, moves[i], i % 2 ? WHITE : BLACK);
        for (int i = 0; i < n; i++)
            board_undo(&b);
        ops += n;
    }
    double dt = now() - t0;
    printf("board: hash %016llx, %.2f M play+undo/s\n", (unsigned long long)b.hash,
           (double)ops / dt / 1e6);
    return EXIT_OK;
}

/* The puzzle set of tests/data/puzzles (TENGEN_PUZZLES overrides the path),
 * each solved at its own node budget with a cleared hash table. */
#define SOLVER_PUZZLES "tests/data/puzzles/solver.txt"
#define SOLVER_HASH_BYTES (16u << 20)

typedef struct {
    CliPosition pos;
    Color side;
    bool vct, win;
    long long nodes;
} BenchPuzzle;

static bool bench_puzzle_parse(char *line, BenchPuzzle *bp)
{
    const char *black = NULL, *white = NULL, *rule = "", *side = "", *mode = "", *expect = "";
    int size = 0;
    bp->nodes = 0;
    char *save = NULL;
    for (char *t = strtok_r(line, " \t\r\n", &save); t; t = strtok_r(NULL, " \t\r\n", &save)) {
        char *v = strchr(t, '=');
        if (!v)
            return false;
        *v++ = 0;
        if (!strcmp(t, "rule")) rule = v;
        else if (!strcmp(t, "size")) size = atoi(v);
        else if (!strcmp(t, "side")) side = v;
        else if (!strcmp(t, "mode")) mode = v;
        else if (!strcmp(t, "expect")) expect = v;
        else if (!strcmp(t, "nodes")) bp->nodes = atoll(v);
        else if (!strcmp(t, "black")) black = v;
        else if (!strcmp(t, "white")) white = v;
    }
    Rule r;
    TgError err;
    if (!rule_parse(rule, &r) || bp->nodes <= 0 ||
        !cli_position(&bp->pos, size, r, NULL, NULL, 0, black ? black : "", white ? white : "", &err))
        return false;
    bp->side = strcmp(side, "white") ? BLACK : WHITE;
    bp->vct = !strcmp(mode, "vct");
    bp->win = !strcmp(expect, "win");
    return true;
}

/* VCF as a search leaf probe: many random middle-game positions, small budget,
 * each copied to one working board first (a search probes a board in cache). */
#define PROBE_POSITIONS 2000
#define PROBE_NODES 2000

static void bench_vcf_probe(void)
{
    Board *boards = malloc(PROBE_POSITIONS * sizeof *boards);
    Solver *s = solver_new(SOLVER_HASH_BYTES);
    if (!boards || !s) {
        free(boards);
        solver_free(s);
        return;
    }
    Rng r;
    rng_seed(&r, 4242);
    for (int i = 0; i < PROBE_POSITIONS; i++) {
        board_init(&boards[i], 15, (Rule)(i % RULE_COUNT));
        rng_clustered_position(&r, &boards[i], 10 + rng_below(&r, 50));
    }
    long long nodes = 0;
    int wins = 0;
    double dt = 0;
    static Board work;
    for (int i = 0; i < PROBE_POSITIONS; i++) {
        SolverLimits lim = {0, PROBE_NODES, 0, NULL};
        SolverResult res;
        work = boards[i];
        double t0 = now();
        wins += vcf_solve(s, &work, board_side_to_move(&work), &lim, &res) == SOLVE_WIN;
        dt += now() - t0;
        nodes += res.nodes;
    }
    printf("solver: vcf probe: positions %d wins %d nodes %lld, %.0f k probes/s\n", PROBE_POSITIONS,
           wins, nodes, PROBE_POSITIONS / dt / 1e3);
    solver_free(s);
    free(boards);
}

/* A data file of the project (relative to the top folder), from the working
 * directory or else next to the binary's build folder. */
static FILE *open_project_file(const char *rel)
{
    FILE *f = fopen(rel, "r");
    if (f)
        return f;
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 512);
    if (n <= 0)
        return NULL;
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (!slash)
        return NULL;
    snprintf(slash, sizeof exe - (size_t)(slash - exe), "/../%s", rel);
    return fopen(exe, "r");
}

/* The puzzle file: $TENGEN_PUZZLES, else from the working directory, else next
 * to the binary's build folder. */
static FILE *open_puzzles(const char **path)
{
    const char *env = getenv("TENGEN_PUZZLES");
    *path = env ? env : SOLVER_PUZZLES;
    return env ? fopen(env, "r") : open_project_file(SOLVER_PUZZLES);
}

static int bench_solver(void)
{
    const char *path;
    FILE *f = open_puzzles(&path);
    Solver *s = solver_new(SOLVER_HASH_BYTES);
    BenchPuzzle *bp = malloc(sizeof *bp);
    if (!f || !s || !bp) {
        cli_error("bench", "solver: cannot read %s", path);
        if (f)
            fclose(f);
        solver_free(s);
        free(bp);
        return EXIT_USAGE;
    }
    char line[8192];
    int n = 0, right = 0, quick = 0, line_no = 0;
    long long nodes = 0;
    double total = 0;
    int rc = EXIT_OK;
    while (fgets(line, sizeof line, f)) {
        line_no++;
        if (line[0] == '#' || line[strspn(line, " \t\r\n")] == 0)
            continue;
        if (!bench_puzzle_parse(line, bp)) {
            cli_error("bench", "%s:%d: not a puzzle line", path, line_no);
            rc = EXIT_USAGE;
            break;
        }
        solver_clear(s);
        SolverLimits lim = {0, bp->nodes, 0, NULL};
        SolverResult *r = malloc(sizeof *r);
        if (!r)
            break;
        double t0 = now();
        SolveStatus st = bp->vct ? vct_solve(s, &bp->pos.board, bp->side, &lim, r)
                                 : vcf_solve(s, &bp->pos.board, bp->side, &lim, r);
        double dt = now() - t0;
        bool ok = st == (bp->win ? SOLVE_WIN : SOLVE_NO_WIN);
        n++;
        right += ok;
        quick += ok && dt <= 1.0;
        nodes += r->nodes;
        total += dt;
        free(r);
    }
    fclose(f);
    solver_free(s);
    free(bp);
    if (rc != EXIT_OK)
        return rc;
    printf("solver: puzzles %d solved %d nodes %lld\n", n, right, nodes);
    printf("solver: %.3f s, %.2f M nodes/s, %.1f%% solved within 1 s each\n", total,
           total > 0 ? (double)nodes / total / 1e6 : 0.0, n ? 100.0 * quick / n : 0.0);
    bench_vcf_probe();
    return right == n ? EXIT_OK : EXIT_ILLEGAL;
}

#define SEARCH_BENCH_DEPTH 8
#define SEARCH_BENCH_FILE "bench/search.txt"


/* Parses "RULE SIZE MOVE..." into a board; false on any bad token. */
static bool parse_bench_line(char *line, Board *b, int lineno)
{
    char *tok = strtok(line, " \t\r\n");
    Rule rule;
    int size;
    if (!tok || !rule_parse(tok, &rule)) {
        cli_error("bench", "%s line %d: bad rule '%s'", SEARCH_BENCH_FILE, lineno, tok ? tok : "");
        return false;
    }
    tok = strtok(NULL, " \t\r\n");
    if (!tok || !cli_int(tok, BOARD_MIN_SIZE, BOARD_MAX_SIZE, &size)) {
        cli_error("bench", "%s line %d: bad size '%s'", SEARCH_BENCH_FILE, lineno, tok ? tok : "");
        return false;
    }
    board_init(b, size, rule);
    while ((tok = strtok(NULL, " \t\r\n"))) {
        Point p;
        TgError err;
        if (!coord_parse(tok, size, &p, &err) || b->cell[p] != EMPTY) {
            cli_error("bench", "%s line %d: bad move '%s'", SEARCH_BENCH_FILE, lineno, tok);
            return false;
        }
        board_play(b, p, board_side_to_move(b));
    }
    return true;
}

static int bench_search(void)
{
    FILE *f = open_project_file(SEARCH_BENCH_FILE);
    if (!f) {
        cli_error("bench", "cannot open %s", SEARCH_BENCH_FILE);
        return EXIT_USAGE;
    }
    EngineOptions o;
    engine_options_default(&o);
    o.hash_mb = 16;
    TgError err;
    Engine *e = engine_new(&o, &err);
    Board *b = malloc(sizeof *b);
    SearchResult *res = malloc(sizeof *res);
    if (!e || !b || !res) {
        engine_free(e);
        free(b);
        free(res);
        fclose(f);
        return EXIT_USAGE;
    }
    SearchLimits lim;
    search_limits_init(&lim);
    lim.depth = SEARCH_BENCH_DEPTH;
    char line[4096];
    int lineno = 0, positions = 0, rc = EXIT_OK;
    uint64_t nodes = 0;
    double t0 = now();
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        if (!parse_bench_line(line, b, lineno) ||
            !engine_set_position(e, b, board_side_to_move(b), &err)) {
            rc = EXIT_USAGE;
            break;
        }
        engine_clear_hash(e);
        engine_think(e, &lim, NULL, NULL, res);
        char buf[COORD_BUF];
        printf("search: %-9s %2d  bestmove %-4s score %6d nodes %" PRIu64 "\n", rule_name(b->rule), b->size,
               res->best == POINT_NONE ? "none" : coord_format(res->best, b->size, buf), res->score,
               res->nodes);
        nodes += res->nodes;
        positions++;
    }
    double dt = now() - t0;
    fclose(f);
    if (rc == EXIT_OK) {
        printf("search: positions %d depth %d\n", positions, SEARCH_BENCH_DEPTH);
        printf("nodes %" PRIu64 "\n", nodes);
        printf("search: %.3f s, %.0f nodes/s\n", dt, (double)nodes / dt);
    }
    engine_free(e);
    free(b);
    free(res);
    return rc;
}

typedef struct {
    const char *name;
    int (*run)(void);
} Bench;

static const Bench BENCHES[] = {
    {"forbid", bench_forbid},
    {"board", bench_board},
    {"solver", bench_solver},
    {"search", bench_search},
};
#define NBENCHES (int)(sizeof BENCHES / sizeof BENCHES[0])

int cmd_bench(int argc, char **argv)
{
    if (argc > 2 || (argc == 2 && !strcmp(argv[1], "--help"))) {
        printf("usage: tengen bench [");
        for (int i = 0; i < NBENCHES; i++)
            printf("%s%s", i ? "|" : "", BENCHES[i].name);
        printf("]\n");
        return argc > 2 ? EXIT_USAGE : EXIT_OK;
    }
    int rc = EXIT_OK, ran = 0;
    for (int i = 0; i < NBENCHES; i++) {
        if (argc == 2 && strcmp(argv[1], BENCHES[i].name))
            continue;
        rc |= BENCHES[i].run();
        ran++;
    }
    if (!ran) {
        cli_error("bench", "argument 1 '%s': no such bench", argv[1]);
        return EXIT_USAGE;
    }
    return rc;
}
