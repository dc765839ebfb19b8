/* tengen tune — self-play data and logistic (Texel) tuning of the evaluation. */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tengen/fileio.h"
#include "tengen/label.h"
#include "tengen/match.h"
#include "tengen/rules.h"
#include "tengen/tune.h"

static const char USAGE[] =
    "usage: tengen tune gen --rule R --games N --seed S [--nodes K] [--opening M]\n"
    "                       [--balance B [--edge]] [--scores] OUT\n"
    "       tengen tune fit --rule R [--iterations N] [--weights FILE] [--no-combo]\n"
    "                       [--combo-l2 X] [--combo-anchor] [--to-move black|white]\n"
    "                       [--k K] [--lambda L] [--score-k KS|auto] [--smooth]\n"
    "                       [--tie-colours]\n"
    "                       DATA [--out FILE]\n"
    "       tengen tune match --rule R (--games N --seed S [--opening M] |\n"
    "                         --openings FILE [--games N]) [--nodes K]\n"
    "                         [--white FILE] [--base FILE] [--base-white FILE]\n"
    "                         [--order FILE|classes] [--base-order FILE|classes]\n"
    "                         WEIGHTS\n"
    "       tengen tune order --rule R [--epochs N] [--rate X] [--l2 X] [--scale S]\n"
    "                         [--to-move black|white] [--order FILE] DATA\n"
    "                         [--out FILE]\n"
    "       tengen tune label --rule R --engine CMD [--nodes N] [--turn MS]\n"
    "                         [--jobs J] DATA --out FILE\n"
    "gen plays self-play games (single thread, K nodes per move, default 3000, after\n"
    "M random opening moves, default 4, drawn from the seed) and writes them to OUT:\n"
    "one game a line, `RESULT OPENING MOVES` (1-0, 0-1 or 1/2; moves h8,i9,...).\n"
    "With --balance B the opening stones fall anywhere within four lines of the\n"
    "centre and an opening is kept only when a search of 4*K nodes scores it within\n"
    "+-B for the side to move; with --edge they fall within three lines of a cell\n"
    "at least four lines from the centre. --scores adds a fourth field: the search score of\n"
    "each move from the opening on, for the mover (a forced result as +-10000).\n"
    "fit fits the sigmoid scale K to the weights (default: built in), then tunes the\n"
    "weights by coordinate descent on the mean squared error between sigmoid(eval/K)\n"
    "and the game result over the quiet positions; prints both errors and the weights\n"
    "as an eval_params.h entry, and writes a weights file with --out. It also fits\n"
    "the threat-situation weights and, unless --no-combo, the pattern-combination\n"
    "weights, each pulled towards 0 by X times its square (default 1e-9), or with\n"
    "--combo-anchor towards its starting value by X times the squared change. With\n"
    "--to-move it fits only the positions with that side to move, starting from the\n"
    "built-in weights for that side (the engine keeps one set per side to move).\n"
    "--k K uses the sigmoid scale K instead of fitting it (two sets, one scale).\n"
    "--lambda L (0..1, default 1) fits to L * result + (1 - L) * sigmoid(score/KS)\n"
    "where the data has scores; K is fitted to the game results first (or --k), and\n"
    "KS is K, or --score-k KS, or with --score-k auto the scale at which the scores\n"
    "themselves predict the results best (for scores from a deeper search or\n"
    "another engine, e.g. written by `tune label`).\n"
    "--smooth (or a --weights file with `smooth 1`) fits a smoothed evaluation: the\n"
    "cell totals are the mean of the position's and the previous position's.\n"
    "--tie-colours fits one threat-situation weight for both colours to move\n"
    "(starting from the mean of the two), as suits rules that treat both alike.\n"
    "match plays WEIGHTS against the built-in weights (or --base), colours\n"
    "alternating, and prints wins, losses and draws for WEIGHTS; --white and\n"
    "--base-white give separate weights for white to move (default: the same file\n"
    "for both sides); --order and --base-order give each a move-ordering table\n"
    "(default: built in; `classes`: by threat classes and worths, without a table).\n"
    "The openings are random (M stones from the seed) unless --openings FILE gives\n"
    "them (as for `tengen match`: one a line, e.g. `h8 h9 j10`), each played with\n"
    "both colours, N games (default: two per opening). Random openings mostly\n"
    "decide the game by colour and hide differences that balanced ones show.\n"
    "order fits the move-ordering table (att/def weight per pattern code of the mover\n"
    "and of the opponent at a candidate) so that the move played in DATA's games is\n"
    "ordered first: N passes (default 4) of softmax regression, Adam step X (default\n"
    "0.02), S ordering units a logit (default 300), starting from --order FILE or 0;\n"
    "prints the mean -ln p(move played) and how often it comes first, before and\n"
    "after (and for the class-and-worth order), the table as an order_params.h entry\n"
    "(N > 0), and writes an order file with --out. --epochs 0 only measures FILE;\n"
    "--to-move uses only the positions with that side to move.\n"
    "label has a pbrain engine (shell command CMD, e.g. another engine) score every\n"
    "position of DATA's games from the opening on, N nodes (INFO max_node) or MS\n"
    "milliseconds a position (default 1000; 60000 as a cap with --nodes), J engines\n"
    "at once (default 1), and writes the games with those scores (format 2, in the\n"
    "engine's units: fit them with --score-k auto). The score is the last `ev N` or\n"
    "`Eval N` of the engine's MESSAGE lines before its move; mates (+M5, -M4) count\n"
    "as +-10000. Each position is searched from an empty hash (YXHASHCLEAR).\n";

typedef struct {
    Rule rule;
    bool has_rule;
    int games, iterations, opening, balance;
    long long seed, nodes;
    bool no_combo, combo_anchor, smooth, tie_colours;
    double combo_l2, k, lambda;
    double score_k; /* fit: scale of the data's scores; 0: K, -1: fitted to the results */
    bool scores, edge;
    int epochs;                 /* order */
    double rate, l2, scale;
    const char *order, *base_order;
    Color mover; /* fit: only positions with this colour to move (EMPTY: all) */
    bool has_seed, has_nodes;
    const char *engine; /* label */
    int turn_ms, jobs;
    const char *out, *weights, *base, *white, *base_white;
    const char *openings; /* match */
} TuneOptions;

/* Index of the command-line word that holds arg (also for --opt=value). */
static int original_index(char **orig, int argc, const char *arg)
{
    for (int i = 0; i < argc; i++)
        if (arg >= orig[i] && arg <= orig[i] + strlen(orig[i]))
            return i;
    return 0;
}

static bool parse_ll(const char *s, long long lo, long long hi, long long *out)
{
    char *end;
    long long v = s && *s ? strtoll(s, &end, 10) : 0;
    if (!s || !*s || *end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

/* A whole-string number in lo..hi (NaN is not). */
static bool parse_double(const char *s, double lo, double hi, double *out)
{
    char *end = NULL;
    double x = strtod(s, &end);
    if (!*s || *end || !(x >= lo && x <= hi))
        return false;
    *out = x;
    return true;
}

/* Returns -1 to go on, else an exit code. */
static int take_option(int c, int at, const char *arg, TuneOptions *o)
{
    long long v;
    switch (c) {
    case 'r':
        if (!rule_parse(optarg, &o->rule)) {
            cli_error("tune", "argument %d '%s': the rule must be freestyle, standard, renju or caro",
                      at, optarg);
            return EXIT_USAGE;
        }
        o->has_rule = true;
        return -1;
    case 'g':
        if (!cli_int(optarg, 1, 1000000, &o->games)) {
            cli_error("tune", "argument %d '%s': the number of games must be 1..1000000", at, optarg);
            return EXIT_USAGE;
        }
        return -1;
    case 's':
        if (!parse_ll(optarg, 0, (long long)1 << 62, &v)) {
            cli_error("tune", "argument %d '%s': the seed must be a non-negative integer", at, optarg);
            return EXIT_USAGE;
        }
        o->seed = v;
        o->has_seed = true;
        return -1;
    case 'n':
        if (!parse_ll(optarg, 1, 2000000000, &o->nodes)) {
            cli_error("tune", "argument %d '%s': the node budget must be 1..2000000000", at, optarg);
            return EXIT_USAGE;
        }
        o->has_nodes = true;
        return -1;
    case 'e': o->engine = optarg; return -1;
    case 'F': o->openings = optarg; return -1;
    case 'T':
        if (!cli_int(optarg, 1, 3600000, &o->turn_ms)) {
            cli_error("tune", "argument %d '%s': --turn must be 1..3600000 milliseconds", at, optarg);
            return EXIT_USAGE;
        }
        return -1;
    case 'j':
        if (!cli_int(optarg, 1, 64, &o->jobs)) {
            cli_error("tune", "argument %d '%s': --jobs must be 1..64", at, optarg);
            return EXIT_USAGE;
        }
        return -1;
    case 'm':
        if (!cli_int(optarg, 1, TUNE_MAX_OPENING, &o->opening)) {
            cli_error("tune", "argument %d '%s': the opening length must be 1..%d", at, optarg,
                      TUNE_MAX_OPENING);
            return EXIT_USAGE;
        }
        return -1;
    case 'A':
        if (!cli_int(optarg, 1, 100000, &o->balance)) {
            cli_error("tune", "argument %d '%s': the balance margin must be 1..100000", at, optarg);
            return EXIT_USAGE;
        }
        return -1;
    case 'i':
        if (!cli_int(optarg, 0, 100000, &o->iterations)) {
            cli_error("tune", "argument %d '%s': the iterations must be 0..100000", at, optarg);
            return EXIT_USAGE;
        }
        return -1;
    case 'C': o->no_combo = true; return -1;
    case 'N': o->combo_anchor = true; return -1;
    case 'M': o->smooth = true; return -1;
    case 'Y': o->tie_colours = true; return -1;
    case 'x': o->scores = true; return -1;
    case 'D': o->edge = true; return -1;
    case 'l':
        if (!parse_double(optarg, 0, 1, &o->lambda)) {
            cli_error("tune", "argument %d '%s': --lambda must be a number in 0..1", at, optarg);
            return EXIT_USAGE;
        }
        return -1;
    case 't':
        if (strcmp(optarg, "black") && strcmp(optarg, "white")) {
            cli_error("tune", "argument %d '%s': --to-move must be black or white", at, optarg);
            return EXIT_USAGE;
        }
        o->mover = optarg[0] == 'b' ? BLACK : WHITE;
        return -1;
    case 'L':
        if (!parse_double(optarg, 0, 1, &o->combo_l2)) {
            cli_error("tune", "argument %d '%s': the combination pull must be a number in 0..1", at, optarg);
            return EXIT_USAGE;
        }
        return -1;
    case 'o': o->out = optarg; return -1;
    case 'w': o->weights = optarg; return -1;
    case 'b': o->base = optarg; return -1;
    case 'W': o->white = optarg; return -1;
    case 'K':
        if (!parse_double(optarg, 1, 100000, &o->k)) {
            cli_error("tune", "argument %d '%s': the scale K must be a number in 1..100000", at, optarg);
            return EXIT_USAGE;
        }
        return -1;
    case 'k':
        if (!strcmp(optarg, "auto")) {
            o->score_k = -1;
            return -1;
        }
        if (!parse_double(optarg, 1, 100000, &o->score_k)) {
            cli_error("tune", "argument %d '%s': --score-k must be auto or a number in 1..100000",
                      at, optarg);
            return EXIT_USAGE;
        }
        return -1;
    case 'B': o->base_white = optarg; return -1;
    case 'E':
        if (!cli_int(optarg, 0, 10000, &o->epochs)) {
            cli_error("tune", "argument %d '%s': the epochs must be 0..10000", at, optarg);
            return EXIT_USAGE;
        }
        return -1;
    case 'R':
        if (!parse_double(optarg, 1e-6, 10, &o->rate)) {
            cli_error("tune", "argument %d '%s': the rate must be a number in 0.000001..10", at, optarg);
            return EXIT_USAGE;
        }
        return -1;
    case '2':
        if (!parse_double(optarg, 0, 1, &o->l2)) {
            cli_error("tune", "argument %d '%s': the pull --l2 must be a number in 0..1", at, optarg);
            return EXIT_USAGE;
        }
        return -1;
    case 'S':
        if (!parse_double(optarg, 1, 10000, &o->scale)) {
            cli_error("tune", "argument %d '%s': the scale must be a number in 1..10000", at, optarg);
            return EXIT_USAGE;
        }
        return -1;
    case 'O': o->order = optarg; return -1;
    case 'P': o->base_order = optarg; return -1;
    case 'h': fputs(USAGE, stdout); return EXIT_OK;
    case ':':
        cli_error("tune", "argument %d '%s': needs a value", at, arg);
        return EXIT_USAGE;
    default:
        cli_error("tune", "argument %d '%s': unknown option", at, arg);
        return EXIT_USAGE;
    }
}

static bool load_weights(const char *path, EvalWeights *w)
{
    TgError err = {0};
    char *text = file_read_text(path, &err);
    if (!text) {
        cli_error("tune", "%s: %s", path, err.msg);
        return false;
    }
    bool ok = tune_weights_parse(text, w, &err);
    free(text);
    if (!ok)
        cli_error("tune", "%s:%d:%d: %s", path, err.line, err.col, err.msg);
    return ok;
}

static bool load_order(const char *path, OrderWeights *w)
{
    TgError err = {0};
    char *text = file_read_text(path, &err);
    bool ok = text && tune_order_parse(text, w, &err);
    free(text);
    if (!ok)
        cli_error("tune", "%s:%d:%d: %s", path, err.line, err.col, err.msg);
    return ok;
}

static int run_gen(const TuneOptions *o, const char *out)
{
    TuneGenConfig c = {o->rule,     o->games,   (uint64_t)o->seed, (uint64_t)o->nodes,
                       o->opening, o->balance, o->edge,    o->scores};
    TgError err = {0};
    char *text = tune_generate(&c, NULL, &err);
    if (!text) {
        cli_error("tune", "%s", err.msg);
        return EXIT_USAGE;
    }
    bool ok = cli_write_file(out, text, strlen(text), &err);
    free(text);
    if (!ok) {
        cli_error("tune", "%s: %s", out, err.msg);
        return EXIT_USAGE;
    }
    printf("wrote %d games to %s\n", o->games, out);
    return EXIT_OK;
}

/* The games of path as tune data, or NULL after an error message. */
static TuneData *load_data(const char *path, Rule r, bool smooth)
{
    TgError err = {0};
    char *text = file_read_text(path, &err);
    if (!text) {
        cli_error("tune", "%s: %s", path, err.msg);
        return NULL;
    }
    TuneData *d = tune_data_parse(text, r, smooth, &err);
    free(text);
    if (!d)
        cli_error("tune", "%s:%d:%d: %s", path, err.line, err.col, err.msg);
    return d;
}

static bool write_text(const char *path, char *text)
{
    TgError err = {0};
    bool ok = text && cli_write_file(path, text, strlen(text), &err);
    if (!ok)
        cli_error("tune", "%s: %s", path, text ? err.msg : "out of memory");
    free(text);
    return ok;
}

static int run_fit(const TuneOptions *o, const char *path)
{
    EvalWeights start;
    engine_default_weights(o->rule, o->mover == WHITE ? WHITE : BLACK, &start);
    if (o->weights && !load_weights(o->weights, &start))
        return EXIT_USAGE;
    if (o->smooth)
        start.smooth = 1;
    TuneData *d = load_data(path, o->rule, start.smooth);
    if (!d)
        return EXIT_USAGE;
    TgError err = {0};
    if (o->mover != EMPTY)
        tune_data_keep_mover(d, o->mover);
    TuneFitOptions fo = {
        .iterations = o->iterations, .combos = !o->no_combo, .combo_l2 = o->combo_l2,
        .combo_anchor = o->combo_anchor, .k = o->k,
        .tie_colours = o->tie_colours};
    int scored = -1;
    double score_k = o->score_k;
    if (o->lambda < 1) {
        /* The scale comes from the game results; by default it also converts the scores. */
        if (fo.k <= 0 && tune_data_positions(d))
            fo.k = tune_fit_scale(d, &start);
        if (score_k < 0)
            score_k = tune_fit_score_scale(d);
        if (score_k < 0) {
            tune_data_free(d);
            cli_error("tune", "%s: --score-k auto needs scores that are not all forced results",
                      path);
            return EXIT_USAGE;
        }
        if (score_k == 0)
            score_k = fo.k;
        scored = tune_data_blend(d, o->lambda, score_k);
    }
    TuneFit fit;
    bool ok = tune_fit(d, &start, &fo, &fit, &err);
    int games = tune_data_games(d);
    tune_data_free(d);
    if (!ok) {
        cli_error("tune", "%s: %s", path, err.msg);
        return EXIT_USAGE;
    }
    printf("games %d positions %d K %.1f passes %d\n", games, fit.positions, fit.k, fit.passes);
    if (scored >= 0 && o->score_k)
        printf("lambda %.3f scored positions %d score K %.1f\n", o->lambda, scored, score_k);
    else if (scored >= 0)
        printf("lambda %.3f scored positions %d\n", o->lambda, scored);
    printf("error before %.6f after %.6f\n", fit.err_before, fit.err_after);
    char *c = tune_weights_c(&fit.w, o->rule);
    if (c)
        fputs(c, stdout);
    free(c);
    return !o->out || write_text(o->out, tune_weights_write(&fit.w)) ? EXIT_OK : EXIT_USAGE;
}

/* The openings of an openings file as positions of the tuning board. */
static bool load_openings(const char *path, Rule rule, Board **out, int *count)
{
    TgError err = {0};
    char *text = file_read_text(path, &err);
    MatchOpening *ops = NULL;
    int n = 0;
    bool ok = text && match_read_openings(text, TUNE_BOARD_SIZE, rule, &ops, &n, &err);
    free(text);
    if (!ok) {
        cli_error("tune", "%s: %s", path, err.msg); /* the message names the line and move */
        free(ops);
        return false;
    }
    if (n == 0) {
        cli_error("tune", "%s: no openings in the file", path);
        free(ops);
        return false;
    }
    Board *b = malloc((size_t)n * sizeof *b);
    if (!b) {
        cli_error("tune", "out of memory");
        free(ops);
        return false;
    }
    for (int k = 0; k < n; k++) {
        board_init(&b[k], TUNE_BOARD_SIZE, rule);
        for (int i = 0; i < ops[k].len; i++)
            board_play(&b[k], ops[k].p[i], board_side_to_move(&b[k]));
    }
    free(ops);
    *out = b;
    *count = n;
    return true;
}

static int run_match(const TuneOptions *o, const char *path)
{
    EvalWeights a[2], b[2];
    engine_default_weights(o->rule, BLACK, &b[0]);
    engine_default_weights(o->rule, WHITE, &b[1]);
    if (!load_weights(path, &a[0]) || (o->base && !load_weights(o->base, &b[0])))
        return EXIT_USAGE;
    a[1] = a[0];
    if (o->base)
        b[1] = b[0];
    if ((o->white && !load_weights(o->white, &a[1])) ||
        (o->base_white && !load_weights(o->base_white, &b[1])))
        return EXIT_USAGE;
    Board *openings = NULL;
    int nopenings = 0;
    if (o->openings && !load_openings(o->openings, o->rule, &openings, &nopenings))
        return EXIT_USAGE;
    int games = o->games ? o->games : 2 * nopenings;
    TuneMatch m;
    TgError err = {0};
    OrderWeights *tables = malloc(2 * sizeof *tables);
    TuneOrdering ord[2] = {{0}, {0}};
    const char *files[2] = {o->order, o->base_order};
    bool loaded = tables != NULL;
    for (int k = 0; loaded && k < 2; k++) {
        if (files[k] && !strcmp(files[k], "classes"))
            ord[k].classes = true;
        else if (files[k] && (loaded = load_order(files[k], &tables[k])))
            ord[k].table = &tables[k];
    }
    if (!loaded) {
        if (!tables)
            cli_error("tune", "out of memory");
        free(tables);
        free(openings);
        return EXIT_USAGE;
    }
    bool played = tune_match(o->rule, a, b, ord, games, (uint64_t)o->seed, (uint64_t)o->nodes,
                             o->opening, openings, nopenings, &m, &err);
    free(tables);
    free(openings);
    if (!played) {
        cli_error("tune", "%s", err.msg);
        return EXIT_USAGE;
    }
    double score = (m.wins + 0.5 * m.draws) / (double)games;
    printf("games %d wins %d losses %d draws %d score %.3f\n", games, m.wins, m.losses, m.draws,
           score);
    return EXIT_OK;
}

static void label_progress(int done, int games, void *user)
{
    (void)user;
    if (done % 50 == 0 || done == games)
        fprintf(stderr, "tengen tune: labelled %d of %d games\n", done, games);
}

static int run_label(const TuneOptions *o, const char *path)
{
    if (!o->engine || !o->out) {
        cli_error("tune", "label needs --engine and --out");
        return EXIT_USAGE;
    }
    TuneData *d = load_data(path, o->rule, false);
    if (!d)
        return EXIT_USAGE;
    /* With a node budget the turn time is only a safety net. */
    int turn = o->turn_ms ? o->turn_ms : o->has_nodes ? 60000 : 1000;
    LabelConfig c = {.engine = o->engine, .nodes = o->has_nodes ? (uint64_t)o->nodes : 0,
                     .turn_ms = turn, .jobs = o->jobs, .progress = label_progress};
    signal(SIGPIPE, SIG_IGN); /* a dead engine's pipe must not kill us */
    TgError err = {0};
    char *text = label_games(d, &c, &err);
    tune_data_free(d);
    if (!text) {
        cli_error("tune", "%s: %s", path, err.msg);
        return EXIT_USAGE;
    }
    return write_text(o->out, text) ? EXIT_OK : EXIT_USAGE;
}

static int run_order(const TuneOptions *o, const char *path)
{
    OrderWeights start;
    bool has_start = o->order != NULL;
    if (has_start && !load_order(o->order, &start))
        return EXIT_USAGE;
    TuneData *d = load_data(path, o->rule, false);
    if (!d)
        return EXIT_USAGE;
    TuneOrderOptions oo = {
        .epochs = o->epochs, .rate = o->rate, .l2 = o->l2, .scale = o->scale, .mover = o->mover};
    TuneOrderFit *fit = malloc(sizeof *fit);
    TgError err = {0};
    bool ok = fit && tune_order_fit(d, has_start ? &start : NULL, &oo, fit, &err);
    int games = tune_data_games(d);
    tune_data_free(d);
    if (!ok) {
        cli_error("tune", "%s: %s", path, fit ? err.msg : "out of memory");
        free(fit);
        return EXIT_USAGE;
    }
    printf("games %d positions %d\n", games, fit->positions);
    printf("loss before %.4f after %.4f\n", fit->loss_before, fit->loss_after);
    printf("first before %.4f after %.4f (class-and-worth order %.4f)\n", fit->top1_before,
           fit->top1_after, fit->top1_base);
    if (o->epochs > 0) {
        char *c = tune_order_c(&fit->w, o->rule);
        if (c)
            fputs(c, stdout);
        free(c);
    }
    ok = !o->out || write_text(o->out, tune_order_write(&fit->w));
    free(fit);
    return ok ? EXIT_OK : EXIT_USAGE;
}

int cmd_tune(int argc, char **argv)
{
    static const struct option LONG[] = {
        {"rule", required_argument, NULL, 'r'},  {"games", required_argument, NULL, 'g'},
        {"seed", required_argument, NULL, 's'},  {"nodes", required_argument, NULL, 'n'},
        {"opening", required_argument, NULL, 'm'}, {"iterations", required_argument, NULL, 'i'},
        {"out", required_argument, NULL, 'o'},   {"weights", required_argument, NULL, 'w'},
        {"base", required_argument, NULL, 'b'},  {"help", no_argument, NULL, 'h'},
        {"no-combo", no_argument, NULL, 'C'},    {"combo-l2", required_argument, NULL, 'L'},
        {"combo-anchor", no_argument, NULL, 'N'}, {"tie-colours", no_argument, NULL, 'Y'},
        {"to-move", required_argument, NULL, 't'}, {"white", required_argument, NULL, 'W'},
        {"base-white", required_argument, NULL, 'B'}, {"k", required_argument, NULL, 'K'},
        {"epochs", required_argument, NULL, 'E'}, {"rate", required_argument, NULL, 'R'},
        {"l2", required_argument, NULL, '2'},     {"scale", required_argument, NULL, 'S'},
        {"order", required_argument, NULL, 'O'},  {"base-order", required_argument, NULL, 'P'},
        {"balance", required_argument, NULL, 'A'}, {"scores", no_argument, NULL, 'x'},
        {"edge", no_argument, NULL, 'D'},
        {"lambda", required_argument, NULL, 'l'}, {"smooth", no_argument, NULL, 'M'},
        {"score-k", required_argument, NULL, 'k'}, {"engine", required_argument, NULL, 'e'},
        {"turn", required_argument, NULL, 'T'},   {"jobs", required_argument, NULL, 'j'},
        {"openings", required_argument, NULL, 'F'},
        {NULL, 0, NULL, 0},
    };
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fputs(USAGE, argc < 2 ? stderr : stdout);
        return argc < 2 ? EXIT_USAGE : EXIT_OK;
    }
    const char *sub = argv[1];
    bool gen = !strcmp(sub, "gen"), fit = !strcmp(sub, "fit"), match = !strcmp(sub, "match"),
         order = !strcmp(sub, "order"), label = !strcmp(sub, "label");
    if (!gen && !fit && !match && !order && !label) {
        cli_error("tune", "argument 1 '%s': unknown step (gen, fit, match, order or label)", sub);
        return EXIT_USAGE;
    }
    TuneOptions o = {.iterations = 50, .opening = 4, .nodes = 3000, .combo_l2 = TUNE_COMBO_L2,
                     .epochs = 4, .rate = 0.02, .l2 = 1e-6, .scale = 300, .lambda = 1,
                     .jobs = 1};
    char *orig[256];
    int n = argc < 256 ? argc : 256;
    for (int i = 0; i < n; i++)
        orig[i] = argv[i];
    int sargc = argc - 1;
    char **sargv = argv + 1;
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(sargc, sargv, ":", LONG, NULL)) != -1) {
        const char *arg = sargv[optind - 1];
        int r = take_option(c, original_index(orig, n, arg), arg, &o);
        if (r >= 0)
            return r;
    }
    if (!o.has_rule) {
        cli_error("tune", "%s needs --rule", sub);
        return EXIT_USAGE;
    }
    if (o.openings && !match) {
        cli_error("tune", "--openings is for match only");
        return EXIT_USAGE;
    }
    if ((gen || match) && !o.openings && (!o.games || !o.has_seed)) {
        cli_error("tune", "%s needs --games and --seed%s", sub, match ? " (or --openings)" : "");
        return EXIT_USAGE;
    }
    if (sargc - optind != 1) {
        if (sargc - optind > 1)
            cli_error("tune", "argument %d '%s': one file only", original_index(orig, n, sargv[optind + 1]),
                      sargv[optind + 1]);
        else
            cli_error("tune", "%s needs a file", sub);
        return EXIT_USAGE;
    }
    const char *file = sargv[optind];
    if (order)
        return run_order(&o, file);
    if (label)
        return run_label(&o, file);
    return gen ? run_gen(&o, file) : fit ? run_fit(&o, file) : run_match(&o, file);
}
