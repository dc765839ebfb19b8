/* tengen solve — a forced win by fours (VCF) or by threes and fours (VCT). */
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tengen/coord.h"
#include "tengen/rules.h"
#include "tengen/solver.h"

static const char USAGE[] =
    "usage: tengen solve [--rule R] [--size N] [--vcf | --vct] [--time SECONDS]\n"
    "                    [--nodes N] [--depth N] [--to-move black|white] [--json]\n"
    "                    MOVE...\n"
    "       tengen solve [options] --black \"h8 i9 ...\" --white \"h9 ...\"\n"
    "Searches a forced win for the side to move (by default the side whose turn it\n"
    "is after the moves; black first, `pass` skips a turn): continuous fours with\n"
    "--vcf, threes and fours with --vct (the default). Prints the winning line,\n"
    "attacker and defender alternating, or `no win found`. A line that ends with\n"
    "`(P forbidden)` wins because black's only block P is a forbidden point.\n";

#define SOLVE_HASH_BYTES (64u << 20)

typedef struct {
    Rule rule;
    int size, depth;
    bool vcf, json;
    double seconds;
    long long nodes;
    Color to_move; /* EMPTY: from the position */
    const char *black, *white;
} SolveOptions;

static int original_index(char **orig, int argc, const char *arg)
{
    for (int i = 0; i < argc; i++)
        if (orig[i] == arg)
            return i;
    return 0;
}

static bool parse_seconds(const char *s, double *out)
{
    char *end;
    double v = s && *s ? strtod(s, &end) : -1;
    if (!s || !*s || *end || !(v > 0) || v > 1e6)
        return false;
    *out = v;
    return true;
}

static void print_text(const SolverResult *r, int size)
{
    char buf[COORD_BUF];
    if (r->status != SOLVE_WIN) {
        printf("no win found\n");
        return;
    }
    for (int i = 0; i < r->len; i++)
        printf("%s%s", i ? " " : "", coord_format(r->line[i], size, buf));
    if (r->forbidden != POINT_NONE)
        printf(" (%s forbidden)", coord_format(r->forbidden, size, buf));
    printf("\n");
}

static void print_json(const SolverResult *r, const SolveOptions *o, Color attacker, double secs)
{
    char buf[COORD_BUF];
    json_t *line = json_array();
    for (int i = 0; r->status == SOLVE_WIN && i < r->len; i++)
        json_array_append_new(line, json_string(coord_format(r->line[i], o->size, buf)));
    json_t *obj = json_pack("{s:s, s:i, s:s, s:s, s:s, s:o, s:I, s:f}", "rule", rule_name(o->rule),
                            "size", o->size, "mode", o->vcf ? "vcf" : "vct", "attacker",
                            attacker == BLACK ? "black" : "white", "status",
                            solve_status_name(r->status), "line", line, "nodes",
                            (json_int_t)r->nodes, "seconds", secs);
    json_object_set_new(obj, "depth", json_integer(r->depth));
    json_object_set_new(obj, "forbidden",
                        r->status == SOLVE_WIN && r->forbidden != POINT_NONE
                            ? json_string(coord_format(r->forbidden, o->size, buf))
                            : json_null());
    char *s = json_dumps(obj, JSON_INDENT(2));
    printf("%s\n", s);
    free(s);
    json_decref(obj);
}

static int solve(CliPosition *pos, const SolveOptions *o)
{
    Color attacker = o->to_move != EMPTY ? o->to_move : pos->to_move;
    if (rules_has_win(&pos->board, BLACK) || rules_has_win(&pos->board, WHITE)) {
        cli_error("solve", "the position already has a five");
        return EXIT_USAGE;
    }
    Solver *s = solver_new(SOLVE_HASH_BYTES);
    if (!s) {
        cli_error("solve", "out of memory");
        return EXIT_USAGE;
    }
    double t0 = solver_now();
    SolverLimits lim = {o->depth, o->nodes, t0 + o->seconds, NULL};
    SolverResult *r = malloc(sizeof *r);
    if (!r) {
        solver_free(s);
        cli_error("solve", "out of memory");
        return EXIT_USAGE;
    }
    if (o->vcf)
        vcf_solve(s, &pos->board, attacker, &lim, r);
    else
        vct_solve(s, &pos->board, attacker, &lim, r);
    double secs = solver_now() - t0;
    if (o->json)
        print_json(r, o, attacker, secs);
    else
        print_text(r, o->size);
    free(r);
    solver_free(s);
    return EXIT_OK;
}

/* Parses one option; returns -1 to go on, else the exit code. */
static int take_option(int c, int at, char **orig, SolveOptions *o)
{
    switch (c) {
    case 'r':
        if (!rule_parse(optarg, &o->rule)) {
            cli_error("solve", "argument %d '%s': the rule must be freestyle, standard, renju or caro",
                      at, optarg);
            return EXIT_USAGE;
        }
        return -1;
    case 's':
        if (!cli_int(optarg, BOARD_MIN_SIZE, BOARD_MAX_SIZE, &o->size)) {
            cli_error("solve", "argument %d '%s': the board size must be %d..%d", at, optarg,
                      BOARD_MIN_SIZE, BOARD_MAX_SIZE);
            return EXIT_USAGE;
        }
        return -1;
    case 't':
        if (!parse_seconds(optarg, &o->seconds)) {
            cli_error("solve", "argument %d '%s': the time must be a positive number of seconds",
                      at, optarg);
            return EXIT_USAGE;
        }
        return -1;
    case 'n': {
        int v;
        if (!cli_int(optarg, 1, 2000000000, &v)) {
            cli_error("solve", "argument %d '%s': the node limit must be 1..2000000000", at, optarg);
            return EXIT_USAGE;
        }
        o->nodes = v;
        return -1;
    }
    case 'd':
        if (!cli_int(optarg, 1, SOLVER_MAX_DEPTH, &o->depth)) {
            cli_error("solve", "argument %d '%s': the depth must be 1..%d", at, optarg,
                      SOLVER_MAX_DEPTH);
            return EXIT_USAGE;
        }
        return -1;
    case 'm':
        if (strcmp(optarg, "black") && strcmp(optarg, "white")) {
            cli_error("solve", "argument %d '%s': the side must be black or white", at, optarg);
            return EXIT_USAGE;
        }
        o->to_move = strcmp(optarg, "black") ? WHITE : BLACK;
        return -1;
    case 'f': o->vcf = true; return -1;
    case 'v': o->vcf = false; return -1;
    case 'b': o->black = optarg; return -1;
    case 'w': o->white = optarg; return -1;
    case 'j': o->json = true; return -1;
    case 'h': fputs(USAGE, stdout); return EXIT_OK;
    case ':':
        cli_error("solve", "argument %d '%s': needs a value", at, orig[at]);
        return EXIT_USAGE;
    default:
        cli_error("solve", "argument %d '%s': unknown option", at, orig[at]);
        return EXIT_USAGE;
    }
}

int cmd_solve(int argc, char **argv)
{
    static const struct option opts[] = {
        {"rule", required_argument, NULL, 'r'},    {"size", required_argument, NULL, 's'},
        {"time", required_argument, NULL, 't'},    {"nodes", required_argument, NULL, 'n'},
        {"depth", required_argument, NULL, 'd'},   {"to-move", required_argument, NULL, 'm'},
        {"vcf", no_argument, NULL, 'f'},           {"vct", no_argument, NULL, 'v'},
        {"black", required_argument, NULL, 'b'},   {"white", required_argument, NULL, 'w'},
        {"json", no_argument, NULL, 'j'},          {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    char **orig = malloc((size_t)argc * sizeof *orig);
    int *argpos = malloc((size_t)argc * sizeof *argpos);
    CliPosition *pos = malloc(sizeof *pos);
    int rc = EXIT_USAGE;
    if (!orig || !argpos || !pos)
        goto done;
    memcpy(orig, argv, (size_t)argc * sizeof *orig);
    SolveOptions o = {RULE_RENJU, BOARD_DEFAULT_SIZE, 0, false, false, 10.0, 0, EMPTY, NULL, NULL};
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
        int r = take_option(c, original_index(orig, argc, argv[optind - 1]), orig, &o);
        if (r >= 0) {
            rc = r;
            goto done;
        }
    }
    int nmoves = argc - optind;
    for (int i = 0; i < nmoves; i++)
        argpos[i] = original_index(orig, argc, argv[optind + i]);
    TgError err;
    if (!cli_position(pos, o.size, o.rule, argv + optind, argpos, nmoves, o.black, o.white, &err))
        cli_error("solve", "%s", err.msg);
    else
        rc = solve(pos, &o);
done:
    free(orig);
    free(argpos);
    free(pos);
    return rc;
}
