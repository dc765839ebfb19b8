/* tengen analyze — replay a record and let the engine judge every move. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tengen/coord.h"
#include "tengen/engine.h"
#include "tengen/fileio.h"
#include "tengen/game.h"
#include "tengen/record.h"

static const char USAGE[] =
    "usage: tengen analyze [--time SECONDS] [--depth N] [--from tgn|psq|sgf|rif]\n"
    "                      [--threads N] RECORD\n"
    "Replays the record's game and, for every stone placed (opening stones too),\n"
    "prints `MOVE COLOUR PLAYED score S best POINT score S`: the engine's\n"
    "score of the move played and its own choice, both for the side that moved\n"
    "(`win N` / `loss N` in plies when forced). Default: 1 second per search.\n"
    "The format comes from --from, else the extension, else what the text looks like.\n"
    "The dual-board variant is not analysed.\n";

typedef struct {
    SearchLimits lim;
    EngineOptions eo;
    const char *from;
} AnalyzeOptions;

static void score_text(int score, int mate, char *buf, size_t len)
{
    if (mate > 0)
        snprintf(buf, len, "win %d", mate);
    else if (mate < 0)
        snprintf(buf, len, "loss %d", -mate);
    else
        snprintf(buf, len, "%d", score);
}

static bool parse_seconds(const char *s, int64_t *ms)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || !(v > 0) || v > 1e6)
        return false;
    *ms = (int64_t)(v * 1000.0 + 0.5);
    return true;
}

/* Judges the move p of colour c on b: the engine's score for p and its own choice. */
static void judge(Engine *e, const AnalyzeOptions *o, const Board *b, Color c, Point p, int number,
                  SearchLimits *lim)
{
    TgError err;
    if (!engine_set_position(e, b, c, &err))
        return;
    SearchResult best, played;
    *lim = o->lim;
    engine_think(e, lim, NULL, NULL, &best);
    *lim = o->lim;
    lim->nroot = 1;
    lim->root[0] = p;
    engine_think(e, lim, NULL, NULL, &played);
    char pb[COORD_BUF], bb[COORD_BUF], ps[32], bs[32];
    score_text(played.score, played.mate, ps, sizeof ps);
    score_text(best.score, best.mate, bs, sizeof bs);
    printf("%d %s %s score %s best %s score %s\n", number, c == BLACK ? "black" : "white",
           coord_format(p, b->size, pb), ps,
           best.best == POINT_NONE ? "none" : coord_format(best.best, b->size, bb), bs);
    fflush(stdout);
}

static int analyze(const AnalyzeOptions *o, const char *path)
{
    TgError err = {0};
    RecordFormat f;
    if (o->from && !record_format_parse(o->from, &f)) {
        cli_error("analyze", "--from '%s': unknown format (use tgn|psq|sgf|rif)", o->from);
        return EXIT_USAGE;
    }
    char *text = file_read_text(path, &err);
    if (!text) {
        cli_error("analyze", "%s", err.msg);
        return EXIT_USAGE;
    }
    if (!o->from)
        f = record_format_detect(path, text);
    Record r;
    bool ok = record_parse(f, text, &r, &err);
    free(text);
    if (!ok) {
        cli_error("analyze", "%s:%d:%d: %s", path, err.line, err.col, err.msg);
        return EXIT_USAGE;
    }
    if (r.config.dualboard) {
        cli_error("analyze", "%s: the dual-board variant is not analysed", path);
        record_free(&r);
        return EXIT_USAGE;
    }
    Game *g = malloc(sizeof *g);
    SearchLimits *lim = malloc(sizeof *lim);
    Engine *e = engine_new(&o->eo, &err);
    int rc = EXIT_OK;
    if (!g || !lim || !e || !game_init(g, &r.config, &err)) {
        cli_error("analyze", "%s", e ? err.msg : "out of memory");
        free(g);
        free(lim);
        engine_free(e);
        record_free(&r);
        return EXIT_USAGE;
    }
    int number = 0;
    for (int i = 0; i < r.count && !game_over(g); i++) {
        const RecordAction *ra = &r.actions[i];
        GameTurn t;
        game_turn(g, &t);
        bool stone = ra->action.type == ACT_PLACE && (t.step == STEP_PLAY || t.step == STEP_PLACE);
        if (stone)
            judge(e, o, game_board(g, 0), t.stone, ra->action.point, t.move, lim);
        number++;
        if (!game_apply(g, &ra->action, &err)) {
            cli_error("analyze", "%s:%d:%d: %s", path, ra->line, ra->col, err.msg);
            rc = EXIT_USAGE;
            break;
        }
    }
    game_free(g);
    free(g);
    free(lim);
    engine_free(e);
    record_free(&r);
    return rc;
}

int cmd_analyze(int argc, char **argv)
{
    static const struct option opts[] = {
        {"time", required_argument, NULL, 't'},    {"depth", required_argument, NULL, 'd'},
        {"from", required_argument, NULL, 'f'},    {"threads", required_argument, NULL, 'T'},
        {"help", no_argument, NULL, 'h'},          {NULL, 0, NULL, 0},
    };
    AnalyzeOptions o;
    memset(&o, 0, sizeof o);
    search_limits_init(&o.lim);
    engine_options_default(&o.eo);
    o.eo.hash_mb = 32;
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
        const char *arg = argv[optind - 1];
        switch (c) {
        case 't':
            if (!parse_seconds(optarg, &o.lim.turn_ms)) {
                cli_error("analyze", "--time '%s': the time must be a positive number of seconds", optarg);
                return EXIT_USAGE;
            }
            break;
        case 'd':
            if (!cli_int(optarg, 1, ENGINE_MAX_DEPTH, &o.lim.depth)) {
                cli_error("analyze", "--depth '%s': the depth must be 1..%d", optarg, ENGINE_MAX_DEPTH);
                return EXIT_USAGE;
            }
            break;
        case 'f': o.from = optarg; break;
        case 'T':
            if (!cli_int(optarg, 1, ENGINE_MAX_THREADS, &o.eo.threads)) {
                cli_error("analyze", "--threads '%s': threads must be 1..%d", optarg, ENGINE_MAX_THREADS);
                return EXIT_USAGE;
            }
            break;
        case 'h': fputs(USAGE, stdout); return EXIT_OK;
        case ':': cli_error("analyze", "option '%s' needs a value", arg); return EXIT_USAGE;
        default: cli_error("analyze", "unknown option '%s'", arg); return EXIT_USAGE;
        }
    }
    if (argc - optind != 1) {
        cli_error("analyze", "expected one RECORD file (try --help)");
        return EXIT_USAGE;
    }
    if (!o.lim.turn_ms && !o.lim.depth)
        o.lim.turn_ms = 1000;
    return analyze(&o, argv[optind]);
}
