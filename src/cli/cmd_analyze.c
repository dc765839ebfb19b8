/* tengen analyze — replay a record and let the engine judge every move. */
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli.h"
#include "cli_config.h"
#include "tengen/analysis.h"
#include "tengen/coord.h"
#include "tengen/dualplay.h"
#include "tengen/engine.h"
#include "tengen/fileio.h"
#include "tengen/game.h"
#include "tengen/record.h"

static const char USAGE[] =
    "usage: tengen analyze [--time SECONDS] [--depth N] [--blunder PCT] [--pv]\n"
    "                      [--json] [--from tgn|psq|sgf|rif] [--threads N]\n"
    "                      [--rule R] [--opening O] [--forbidden auto|claim]\n"
    "                      [--designated NAME] RECORD\n"
    "Replays the record's game and, for every stone placed (opening stones too),\n"
    "prints `MOVE COLOUR PLAYED score S best POINT score S [FLAGS]`: the engine's\n"
    "score of the move played and its own choice, both for the side that moved\n"
    "(`win N` / `loss N` in plies when forced; `forbidden KIND` for a renju\n"
    "forbidden point). Flags: `blunder` (gives up PCT points of expected score,\n"
    "default 20, or walks into a forced loss, in a game not yet lost),\n"
    "`missed-win` (a forced win was there), `forced-loss` (the side's first move\n"
    "after which it loses by force). A 5th move picked from those offered is\n"
    "the chooser's: `MOVE COLOUR chooses POINT score S best POINT score S`, each\n"
    "offered point searched for the chooser. A colour taken (swap or keep,\n"
    "swap2's take black or white, also a keep by acting at once) is\n"
    "`MOVE COLOUR chooses COLOUR score S best COLOUR score S`, COLOUR the one\n"
    "taken: the position searched once, with the next stone's colour to move,\n"
    "and the two colours compared. --pv adds the engine's line after the move\n"
    "played (`  played MOVES`) and after its choice (`  best MOVES`; for a\n"
    "colour, `  line MOVES`).\n"
    "Then one line a colour: `COLOUR blunders B missed-wins M forced-loss\n"
    "MOVE|- mean-loss P` (P: expected score its moves gave up, points a move).\n"
    "--json prints all of it as one object (scores as numbers, `mate`\n"
    "N: a win at ply N, -N a loss, 0 neither; the lines as `pv` and `best_pv`;\n"
    "`kind` \"move\", \"choice\" or \"colour\").\n"
    "Default: 1 second per search. The format comes from --from, else the\n"
    "extension, else what the text looks like. --rule, --opening, --forbidden\n"
    "and --designated override the record's header (a PSQ file states none: it\n"
    "is read as renju unless --rule says otherwise).\n"
    "The dual-board variant is judged a whole turn at a time by the dual-board\n"
    "player's planner: `ROUND COLOUR STONES score S best STONES score S [FLAGS]`\n"
    "(stones as `1:h8 2:g7`; forced results `win N` / `loss N` in turns, this\n"
    "turn 1: a lone five loses at 1, the opponent's five points on both boards\n"
    "at 2); --pv adds each option's stones with the opponent's best answer found\n"
    "(`reply`), --json gives `kind` \"turn\" with `reply` and `best_reply`. A\n"
    "turn the record leaves unfinished is not judged; --time (default 1 s) is\n"
    "the planner's budget a turn.\n";

typedef struct {
    SearchLimits lim;
    EngineOptions eo;
    CliConfigOptions cfg;
    const char *from;
    int blunder;
    bool json, pv;
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

static const char *colour_name(Color c) { return c == BLACK ? "black" : "white"; }

static const struct {
    unsigned flag;
    const char *name;
} FLAGS[] = {{JUDGE_BLUNDER, "blunder"},
             {JUDGE_MISSED_WIN, "missed-win"},
             {JUDGE_FORCED_LOSS, "forced-loss"}};

static void print_pv(const char *label, const SearchLine *l, int size)
{
    char buf[COORD_BUF];
    printf("  %s", label);
    for (int i = 0; i < l->pvlen; i++)
        printf(" %s", coord_format(l->pv[i], size, buf));
    putchar('\n');
}

/* What a judgement is about: a stone, a 5th move picked from those offered,
 * or a colour taken. */
typedef enum { LINE_MOVE, LINE_CHOICE, LINE_COLOUR } LineKind;

static const char *KIND_NAMES[] = {"move", "choice", "colour"};

/* The played or best option as text: a point, or a colour for a colour choice. */
static const char *option_text(const MoveJudgement *j, bool best, LineKind k, int size,
                               char buf[COORD_BUF])
{
    if (k == LINE_COLOUR)
        return colour_name(best ? j->best_colour : j->played_colour);
    Point p = best ? j->best.move : j->played.move;
    return p == POINT_NONE ? NULL : coord_format(p, size, buf);
}

static void print_line(const MoveJudgement *j, Color c, int number, int size, bool pv, LineKind k)
{
    char pb[COORD_BUF], bb[COORD_BUF], ps[48], bs[32];
    if (j->flags & JUDGE_FORBIDDEN)
        snprintf(ps, sizeof ps, "forbidden %s", forbid_kind_name(j->forbid));
    else
        score_text(j->played.score, j->played.mate, ps, sizeof ps);
    score_text(j->best.score, j->best.mate, bs, sizeof bs);
    const char *best = option_text(j, true, k, size, bb);
    printf("%d %s %s%s score %s best %s score %s", number, colour_name(c),
           k != LINE_MOVE ? "chooses " : "", option_text(j, false, k, size, pb), ps,
           best ? best : "none", bs);
    for (size_t i = 0; i < sizeof FLAGS / sizeof FLAGS[0]; i++)
        if (j->flags & FLAGS[i].flag)
            printf(" %s", FLAGS[i].name);
    putchar('\n');
    if (pv && k == LINE_COLOUR) {
        print_pv("line", &j->played, size); /* one line, seen by either colour */
    } else if (pv) {
        print_pv("played", &j->played, size);
        if (j->best.move != POINT_NONE)
            print_pv("best", &j->best, size);
    }
    fflush(stdout);
}

static json_t *pv_json(const SearchLine *l, int size)
{
    char buf[COORD_BUF];
    json_t *a = json_array();
    for (int i = 0; i < l->pvlen; i++)
        json_array_append_new(a, json_string(coord_format(l->pv[i], size, buf)));
    return a;
}

/* Scores as the engine gives them, with `mate` N > 0 a win at ply N, -N a
 * loss, 0 neither; a forbidden move has a null score and its kind. `kind`
 * is "choice" for a 5th move picked from those offered, "colour" for a
 * colour taken (`played` and `best` are then colours). */
static json_t *line_json(const MoveJudgement *j, Color c, int number, int size, LineKind k)
{
    char pb[COORD_BUF], bb[COORD_BUF];
    const char *best = option_text(j, true, k, size, bb);
    json_t *flags = json_array();
    for (size_t i = 0; i < sizeof FLAGS / sizeof FLAGS[0]; i++)
        if (j->flags & FLAGS[i].flag)
            json_array_append_new(flags, json_string(FLAGS[i].name));
    bool forbidden = j->flags & JUDGE_FORBIDDEN;
    json_t *o = json_pack("{s:i, s:s, s:s, s:s, s:o, s:i}", "number", number, "colour",
                          colour_name(c), "kind", KIND_NAMES[k], "played",
                          option_text(j, false, k, size, pb), "score",
                          forbidden ? json_null() : json_integer(j->played.score), "mate",
                          j->played.mate);
    if (forbidden)
        json_object_set_new(o, "forbidden", json_string(forbid_kind_name(j->forbid)));
    json_object_set_new(o, "best", best ? json_string(best) : json_null());
    json_object_set_new(o, "best_score", json_integer(j->best.score));
    json_object_set_new(o, "best_mate", json_integer(j->best.mate));
    json_object_set_new(o, "pv", pv_json(&j->played, size));
    json_object_set_new(o, "best_pv", pv_json(&j->best, size));
    json_object_set_new(o, "flags", flags);
    return o;
}

/* The mean expected score a side's judged moves gave up, in points to one decimal. */
static double mean_loss(const AnalysisTally *t, int s)
{
    return t->judged[s] ? floor(10.0 * t->given_up[s] / t->judged[s] + 0.5) / 10.0 : 0.0;
}

static void print_tally(const AnalysisTally *t)
{
    for (Color c = BLACK; c <= WHITE; c++) {
        int s = c - 1;
        printf("%s blunders %d missed-wins %d forced-loss ", colour_name(c), t->blunders[s],
               t->missed_wins[s]);
        if (t->lost_from[s])
            printf("%d", t->lost_from[s]);
        else
            putchar('-');
        printf(" mean-loss %.1f\n", mean_loss(t, s));
    }
}

static json_t *tally_json(const AnalysisTally *t)
{
    json_t *o = json_object();
    for (Color c = BLACK; c <= WHITE; c++) {
        int s = c - 1;
        json_object_set_new(
            o, colour_name(c),
            json_pack("{s:i, s:i, s:o, s:f}", "blunders", t->blunders[s], "missed_wins",
                      t->missed_wins[s], "forced_loss",
                      t->lost_from[s] ? json_integer(t->lost_from[s]) : json_null(), "mean_loss",
                      mean_loss(t, s)));
    }
    return o;
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

/* Counts a judgement of colour c into the tally and prints it (or keeps it for --json). */
static void report_line(AnalysisTally *tally, json_t *lines, const AnalyzeOptions *o,
                        MoveJudgement *j, Color c, int number, int size, LineKind k)
{
    analysis_tally(tally, c, number, j);
    if (lines)
        json_array_append_new(lines, line_json(j, c, number, size, k));
    else
        print_line(j, c, number, size, o->pv, k);
}

/* Stones of a turn as record tokens ("1:h8 2:g7"), or "none". */
static void stones_text(int n, const int board[2], const Point p[2], int size, char *buf,
                        size_t len)
{
    snprintf(buf, len, "%s", n ? "" : "none");
    for (int i = 0; i < n; i++) {
        char tok[COORD_BUF + 4];
        Action a = game_action_place(board[i], p[i]);
        game_action_text(&a, size, true, tok, sizeof tok);
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, "%s%s", i ? " " : "", tok);
    }
}

static void turn_text(const DualTurn *t, int size, char *buf, size_t len)
{
    stones_text(t->n, t->board, t->p, size, buf, len);
}

static void reply_text(const DualTurn *t, int size, char *buf, size_t len)
{
    stones_text(t->reply.n, t->reply.board, t->reply.p, size, buf, len);
}

/* A dual-board turn: `ROUND COLOUR STONES score S best STONES score S FLAGS`,
 * with --pv each option's stones and the opponent's best answer found. */
static void print_turn(const DualJudgement *j, Color c, int round, int size, bool pv)
{
    char pt[64], bt[64], ps[32], bs[32];
    turn_text(&j->played, size, pt, sizeof pt);
    turn_text(&j->best, size, bt, sizeof bt);
    score_text(j->played.score, j->played.mate, ps, sizeof ps);
    score_text(j->best.score, j->best.mate, bs, sizeof bs);
    printf("%d %s %s score %s best %s score %s", round, colour_name(c), pt, ps, bt, bs);
    for (size_t i = 0; i < sizeof FLAGS / sizeof FLAGS[0]; i++)
        if (j->flags & FLAGS[i].flag)
            printf(" %s", FLAGS[i].name);
    putchar('\n');
    if (pv) {
        char rt[64];
        reply_text(&j->played, size, rt, sizeof rt);
        printf("  played %s reply %s\n", pt, rt);
        reply_text(&j->best, size, rt, sizeof rt);
        printf("  best %s reply %s\n", bt, rt);
    }
    fflush(stdout);
}

/* As line_json, kind "turn": the options are stone lists, `reply` and
 * `best_reply` the opponent's best answers found. */
static json_t *turn_json(const DualJudgement *j, Color c, int round, int size)
{
    char pt[64], bt[64], pr[64], br[64];
    turn_text(&j->played, size, pt, sizeof pt);
    turn_text(&j->best, size, bt, sizeof bt);
    reply_text(&j->played, size, pr, sizeof pr);
    reply_text(&j->best, size, br, sizeof br);
    json_t *flags = json_array();
    for (size_t i = 0; i < sizeof FLAGS / sizeof FLAGS[0]; i++)
        if (j->flags & FLAGS[i].flag)
            json_array_append_new(flags, json_string(FLAGS[i].name));
    return json_pack("{s:i, s:s, s:s, s:s, s:i, s:i, s:s, s:i, s:i, s:s, s:s, s:o}", "number",
                     round, "colour", colour_name(c), "kind", "turn", "played", pt, "score",
                     j->played.score, "mate", j->played.mate, "best", bt, "best_score",
                     j->best.score, "best_mate", j->best.mate, "reply", pr, "best_reply", br,
                     "flags", flags);
}

/* The turn's stones from actions[i..]: true when the record has them all. */
static bool turn_from_record(const Record *r, int i, int stones, DualTurn *t)
{
    memset(t, 0, sizeof *t);
    for (int k = 0; k < stones; k++) {
        if (i + k >= r->count || r->actions[i + k].action.type != ACT_PLACE)
            return false;
        t->board[k] = r->actions[i + k].action.board;
        t->p[k] = r->actions[i + k].action.point;
    }
    t->n = stones;
    return true;
}

/* The dual-board variant: one judgement a whole turn, by the dual-board
 * player's planner (dualplay.h); a turn the record leaves unfinished is
 * played without one. */
static int analyze_dual(const AnalyzeOptions *o, const char *path, const Record *r, Game *g,
                        Engine *e, AnalysisTally *tally, json_t *lines)
{
    Autoplay ap = {.engine = e, .ms = o->lim.turn_ms ? o->lim.turn_ms : 1000};
    TgError err = {0};
    for (int i = 0; i < r->count && !game_over(g); i++) {
        GameTurn t;
        game_turn(g, &t);
        /* t.move counts the stones of both boards: one in round 1, then two a turn. */
        int placed = t.move - 1, turn = (placed + 1) / 2 + 1, round = (turn + 1) / 2;
        int stones = placed == 0 ? 1 : 2;
        DualTurn played;
        DualJudgement j;
        /* What the planner cannot judge is left for game_apply to refuse. */
        if (t.stones_left == stones && turn_from_record(r, i, stones, &played) &&
            dualplay_judge(&ap, g, &played, o->blunder, &j, &err)) {
            MoveJudgement mj;
            memset(&mj, 0, sizeof mj);
            mj.played.score = j.played.score;
            mj.played.mate = j.played.mate;
            mj.best.score = j.best.score;
            mj.best.mate = j.best.mate;
            mj.flags = j.flags;
            analysis_tally(tally, t.stone, round, &mj);
            j.flags = mj.flags;
            if (lines)
                json_array_append_new(lines, turn_json(&j, t.stone, round, g->config.size));
            else
                print_turn(&j, t.stone, round, g->config.size, o->pv);
        }
        const RecordAction *ra = &r->actions[i];
        if (!game_apply(g, &ra->action, &err)) {
            cli_error("analyze", "%s:%d:%d: %s", path, ra->line, ra->col, err.msg);
            return EXIT_USAGE;
        }
    }
    return EXIT_OK;
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
    GameConfig cfg;
    if (!cli_config_override(&o->cfg, &r.config, r.count, &cfg, &err)) {
        cli_error("analyze", "%s", err.msg);
        record_free(&r);
        return EXIT_USAGE;
    }
    Game *g = malloc(sizeof *g);
    Engine *e = engine_new(&o->eo, &err);
    int rc = EXIT_OK;
    if (!g || !e || !game_init(g, &cfg, &err)) {
        cli_error("analyze", "%s", e ? err.msg : "out of memory");
        free(g);
        engine_free(e);
        record_free(&r);
        return EXIT_USAGE;
    }
    AnalysisTally tally;
    analysis_tally_init(&tally);
    json_t *lines = o->json ? json_array() : NULL;
    if (cfg.dualboard)
        rc = analyze_dual(o, path, &r, g, e, &tally, lines);
    for (int i = 0; i < r.count && !cfg.dualboard && !game_over(g); i++) {
        const RecordAction *ra = &r.actions[i];
        ActionType type = ra->action.type;
        GameTurn t;
        game_turn(g, &t);
        bool colour_step = t.step == STEP_COLOR || t.step == STEP_SWAP2 || t.step == STEP_FIFTH;
        /* Acting at once where colours could be swapped keeps them (game.h);
         * swap2's place and Taraguchi's proposal are options of their own. */
        bool forward = (t.step == STEP_COLOR &&
                        (type == ACT_PLACE || type == ACT_DECLARE || type == ACT_PROPOSE)) ||
                       (t.step == STEP_FIFTH && type == ACT_PLACE);
        MoveJudgement j;
        if (colour_step && (type == ACT_SWAP || type == ACT_NOSWAP || forward)) {
            const Board *b = game_board(g, 0);
            /* ACT_SWAP takes the other colour (swap2's first choice: black). The
             * position is searched with the next stone's colour (t.stone) to move. */
            Color took = type == ACT_SWAP ? color_other(t.color) : t.color;
            if (analysis_judge_colour(e, &o->lim, b, t.stone, took, o->blunder, &j, &err))
                report_line(&tally, lines, o, &j, took, t.move, b->size, LINE_COLOUR);
        }
        if (forward) {
            Action keep = {.type = ACT_NOSWAP};
            if (game_apply(g, &keep, &err))
                game_turn(g, &t);
        }
        const Board *b = game_board(g, 0);
        /* Stones come in play, in the opening, as swap2's 4th and 5th, and as
         * a single 5th move that needs no choice. */
        bool stone = type == ACT_PLACE && (t.step == STEP_PLAY || t.step == STEP_PLACE ||
                                           t.step == STEP_SWAP2 || t.step == STEP_PROPOSE);
        bool choice = type == ACT_CHOOSE && t.step == STEP_CHOOSE;
        /* What the engine cannot judge (a five already on the board, a
         * point not offered) is left for game_apply to accept or refuse. */
        bool judged =
            stone ? analysis_judge(e, &o->lim, b, t.stone, ra->action.point, o->blunder, &j, &err)
            : choice ? analysis_judge_choice(e, &o->lim, b, t.stone, t.proposals, t.nproposals,
                                             ra->action.point, o->blunder, &j, &err)
                     : false;
        /* A choice is the chooser's: its colour is the one acting. */
        if (judged)
            report_line(&tally, lines, o, &j, choice ? t.color : t.stone, t.move, b->size,
                        choice ? LINE_CHOICE : LINE_MOVE);
        if (!game_apply(g, &ra->action, &err)) {
            cli_error("analyze", "%s:%d:%d: %s", path, ra->line, ra->col, err.msg);
            rc = EXIT_USAGE;
            break;
        }
    }
    if (rc == EXIT_OK && lines) {
        json_t *doc = json_pack("{s:o, s:o}", "moves", lines, "summary", tally_json(&tally));
        char *dump = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        if (dump)
            puts(dump);
        free(dump);
        json_decref(doc);
    } else if (rc == EXIT_OK) {
        print_tally(&tally);
    } else {
        json_decref(lines);
    }
    game_free(g);
    free(g);
    engine_free(e);
    record_free(&r);
    return rc;
}

int cmd_analyze(int argc, char **argv)
{
    static const struct option opts[] = {
        {"time", required_argument, NULL, 't'},    {"depth", required_argument, NULL, 'd'},
        {"from", required_argument, NULL, 'f'},    {"threads", required_argument, NULL, 'T'},
        {"blunder", required_argument, NULL, 'b'}, {"json", no_argument, NULL, 'j'},
        {"pv", no_argument, NULL, 'p'},            {"rule", required_argument, NULL, 'r'},
        {"opening", required_argument, NULL, 'o'}, {"forbidden", required_argument, NULL, 'F'},
        {"designated", required_argument, NULL, 'D'},
        {"help", no_argument, NULL, 'h'},          {NULL, 0, NULL, 0},
    };
    AnalyzeOptions o;
    memset(&o, 0, sizeof o);
    search_limits_init(&o.lim);
    engine_options_default(&o.eo);
    o.eo.hash_mb = 32;
    o.blunder = ANALYSIS_DEFAULT_BLUNDER;
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
        case 'b':
            if (!cli_int(optarg, 1, 100, &o.blunder)) {
                cli_error("analyze", "--blunder '%s': the threshold must be 1..100 points", optarg);
                return EXIT_USAGE;
            }
            break;
        case 'f': o.from = optarg; break;
        case 'j': o.json = true; break;
        case 'p': o.pv = true; break;
        case 'r': o.cfg.rule = optarg; break;
        case 'o': o.cfg.opening = optarg; break;
        case 'F': o.cfg.forbidden = optarg; break;
        case 'D': o.cfg.designated = optarg; break;
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
