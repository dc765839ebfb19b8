/* tengen think — search a position and print the engine's progress and move. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tengen/coord.h"
#include "tengen/engine.h"
#include "tengen/rules.h"

static const char USAGE[] =
    "usage: tengen think [--rule R] [--size N] [--time SECONDS] [--depth N]\n"
    "                    [--nodes N] [--nbest N] [--threads N] [--hash MB]\n"
    "                    [--only \"POINT ...\"] [--to-move black|white] MOVE...\n"
    "       (or --black \"h8 ...\" --white \"h9 ...\" instead of MOVE...)\n"
    "Searches the position and prints one line per completed depth,\n"
    "`depth D score S nodes N nps R pv MOVES` (S is `win N` / `loss N` in plies when\n"
    "forced), then `bestmove POINT` (`bestmove none` when no move is legal).\n"
    "Rules: freestyle, standard, renju, caro (default renju). Without --time,\n"
    "--depth or --nodes the search takes 2 seconds. --only searches just the\n"
    "given moves at the root (those that are forbidden are dropped).\n";

typedef struct {
    int size;
    int nbest;
} ThinkOut;

static void print_score(int score, int mate)
{
    if (mate > 0)
        printf("score win %d", mate);
    else if (mate < 0)
        printf("score loss %d", -mate);
    else
        printf("score %d", score);
}

static void on_info(const SearchInfo *info, void *user)
{
    const ThinkOut *o = user;
    char buf[COORD_BUF];
    printf("depth %d ", info->depth);
    if (o->nbest > 1)
        printf("line %d ", info->line_index + 1);
    print_score(info->line.score, info->line.mate);
    printf(" nodes %" PRIu64 " nps %" PRIu64 " pv", info->nodes, info->nps);
    for (int i = 0; i < info->line.pvlen; i++)
        printf(" %s", coord_format(info->line.pv[i], o->size, buf));
    printf("\n");
    fflush(stdout);
}

static int original_index(char **orig, int argc, const char *arg)
{
    for (int i = 0; i < argc; i++)
        if (orig[i] == arg)
            return i;
    return 0;
}

static bool parse_seconds(const char *s, int64_t *ms)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || !(v >= 0) || v > 1e7)
        return false;
    *ms = (int64_t)(v * 1000.0 + 0.5);
    return true;
}

typedef struct {
    const Board *b;
    SearchLimits *lim;
} OnlyList;

static bool only_token(const char *tok, int index, void *user, TgError *err)
{
    OnlyList *o = user;
    Point p;
    TgError perr;
    if (!coord_parse(tok, o->b->size, &p, &perr)) {
        tg_error_set(err, 0, 0, "--only token %d '%s': %s", index, tok, perr.msg);
        return false;
    }
    if (o->b->cell[p] != EMPTY) {
        tg_error_set(err, 0, 0, "--only token %d '%s': the point is occupied", index, tok);
        return false;
    }
    if (o->lim->nroot < BOARD_MAX_MOVES)
        o->lim->root[o->lim->nroot++] = p;
    return true;
}

/* Fills the root restriction from a list of empty points ("j7 h13" or "j7,h13"). */
static bool parse_only(const char *list, const Board *b, SearchLimits *lim, TgError *err)
{
    OnlyList o = {b, lim};
    lim->nroot = 0;
    if (!cli_tokens(list, only_token, &o, err))
        return false;
    if (lim->nroot == 0) {
        tg_error_set(err, 0, 0, "--only: no points given");
        return false;
    }
    return true;
}

static int run(CliPosition *pos, const EngineOptions *eo, SearchLimits *lim, int nbest)
{
    TgError err;
    Engine *e = engine_new(eo, &err);
    if (!e) {
        cli_error("think", "%s", err.msg);
        return EXIT_USAGE;
    }
    if (!engine_set_position(e, &pos->board, pos->to_move, &err)) {
        cli_error("think", "%s", err.msg);
        engine_free(e);
        return EXIT_USAGE;
    }
    ThinkOut o = {pos->board.size, nbest};
    SearchResult *res = malloc(sizeof *res);
    if (!res) {
        engine_free(e);
        return EXIT_USAGE;
    }
    engine_think(e, lim, on_info, &o, res);
    char buf[COORD_BUF];
    printf("bestmove %s\n", res->best == POINT_NONE ? "none" : coord_format(res->best, o.size, buf));
    free(res);
    engine_free(e);
    return EXIT_OK;
}

int cmd_think(int argc, char **argv)
{
    static const struct option opts[] = {
        {"size", required_argument, NULL, 's'},    {"rule", required_argument, NULL, 'r'},
        {"time", required_argument, NULL, 't'},    {"depth", required_argument, NULL, 'd'},
        {"nodes", required_argument, NULL, 'n'},   {"nbest", required_argument, NULL, 'N'},
        {"threads", required_argument, NULL, 'T'}, {"hash", required_argument, NULL, 'H'},
        {"to-move", required_argument, NULL, 'm'}, {"black", required_argument, NULL, 'b'},
        {"white", required_argument, NULL, 'w'},   {"only", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    char **orig = malloc((size_t)argc * sizeof *orig);
    int *argpos = malloc((size_t)argc * sizeof *argpos);
    SearchLimits *lim = malloc(sizeof *lim);
    CliPosition *pos = malloc(sizeof *pos);
    int rc = EXIT_USAGE;
    if (!orig || !argpos || !lim || !pos)
        goto done;
    memcpy(orig, argv, (size_t)argc * sizeof *orig);
    search_limits_init(lim);
    EngineOptions eo;
    engine_options_default(&eo);
    eo.hash_mb = 16;
    int size = BOARD_DEFAULT_SIZE, to_move = 0, nbest = 1, nodes = 0;
    Rule rule = RULE_RENJU;
    const char *black = NULL, *white = NULL, *only = NULL;
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
        int at = original_index(orig, argc, argv[optind - 1]);
        bool ok = true;
        const char *want = "";
        switch (c) {
        case 's':
            ok = cli_int(optarg, BOARD_MIN_SIZE, BOARD_MAX_SIZE, &size);
            want = "the board size must be 5..22";
            break;
        case 'r':
            ok = rule_parse(optarg, &rule);
            want = "the rule must be freestyle, standard, renju or caro";
            break;
        case 't':
            ok = parse_seconds(optarg, &lim->turn_ms);
            want = "the time must be a number of seconds";
            break;
        case 'd':
            ok = cli_int(optarg, 1, ENGINE_MAX_DEPTH, &lim->depth);
            want = "the depth must be 1..60";
            break;
        case 'n':
            ok = cli_int(optarg, 1, 2000000000, &nodes);
            lim->nodes = (uint64_t)nodes;
            want = "the node limit must be 1..2000000000";
            break;
        case 'N':
            ok = cli_int(optarg, 1, ENGINE_MAX_NBEST, &nbest);
            lim->nbest = nbest;
            want = "nbest must be 1..16";
            break;
        case 'T':
            ok = cli_int(optarg, 1, ENGINE_MAX_THREADS, &eo.threads);
            want = "threads must be 1..64";
            break;
        case 'H':
            ok = cli_int(optarg, 1, 4096, &eo.hash_mb);
            want = "the hash size must be 1..4096 MB";
            break;
        case 'm':
            to_move = !strcmp(optarg, "black") ? BLACK : !strcmp(optarg, "white") ? WHITE : 0;
            ok = to_move != 0;
            want = "the side to move must be black or white";
            break;
        case 'b': black = optarg; break;
        case 'w': white = optarg; break;
        case 'o': only = optarg; break;
        case 'h':
            fputs(USAGE, stdout);
            rc = EXIT_OK;
            goto done;
        case ':':
            cli_error("think", "argument %d '%s': needs a value", at, orig[at]);
            goto done;
        default:
            cli_error("think", "argument %d '%s': unknown option", at, orig[at]);
            goto done;
        }
        if (!ok) {
            cli_error("think", "argument %d '%s': %s", at, optarg, want);
            goto done;
        }
    }
    if (!lim->turn_ms && !lim->depth && !lim->nodes)
        lim->turn_ms = 2000;
    int nmoves = argc - optind;
    for (int i = 0; i < nmoves; i++)
        argpos[i] = original_index(orig, argc, argv[optind + i]);
    TgError err;
    if (!cli_position(pos, size, rule, argv + optind, argpos, nmoves, black, white, &err)) {
        cli_error("think", "%s", err.msg);
        goto done;
    }
    if (to_move)
        pos->to_move = to_move;
    if (only && !parse_only(only, &pos->board, lim, &err)) {
        cli_error("think", "%s", err.msg);
        goto done;
    }
    rc = run(pos, &eo, lim, nbest);
done:
    free(orig);
    free(argpos);
    free(lim);
    free(pos);
    return rc;
}
