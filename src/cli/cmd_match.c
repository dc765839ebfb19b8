/* tengen match — plays two pbrain engines against each other. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "tengen/fileio.h"
#include "tengen/match.h"
#include "tengen/rules.h"

static const char USAGE[] =
    "usage: tengen match [OPTIONS] ENGINE_A ENGINE_B\n"
    "Plays two Gomocup (pbrain) engines against each other. Each ENGINE is a shell\n"
    "command line; every game starts both afresh. Games come in pairs with the\n"
    "colours reversed; an engine that crashes, hangs, answers garbage, plays an\n"
    "illegal or forbidden move or runs out of time loses that game.\n\n"
    "  --rule R          freestyle, standard, renju (default) or caro\n"
    "  --size N          board size (default 15, freestyle 20)\n"
    "  --turn MS         time per move (default 5000; 0 = no per-move limit)\n"
    "  --time MS         time per game and engine (default 180000; 0 = unlimited)\n"
    "  --tolerance MS    allowance over the limits for process overhead\n"
    "                    (default 1000)\n"
    "  --memory MB       INFO max_memory (default 128)\n"
    "  --max-moves N     draw when N stones are on the board (default: renju 200,\n"
    "                    others the full board)\n"
    "  --move-delay MS   wait MS before each move request, off the clock (default 0;\n"
    "                    for engines that drop a command arriving just after\n"
    "                    their answer)\n"
    "  --openings FILE   one opening a line in renju notation (\"h8 h9 j10\")\n"
    "  --opening RULE    the engines settle each opening by an opening rule; A is\n"
    "                    the first player in odd games, B in even ones (default:\n"
    "                    free, or the --openings stones). swap2: through Gomocup's\n"
    "                    SWAP2BOARD (the first player puts three stones, the\n"
    "                    second swaps, plays 4 or puts 4 and 5, then the first\n"
    "                    chooses). center, swap3, swap1, rif, yamaguchi, soosorv8,\n"
    "                    taraguchi10: the rule's decisions through tengen's\n"
    "                    TGOPENING (docs/pbrain.md)\n"
    "  --games N         games to play (default: two per opening, or 2)\n"
    "  -j, --concurrency N  games at once (default 1)\n"
    "  --out DIR         save every game as DIR/NNNN.psq and DIR/NNNN.tgn\n"
    "  --sprt E0,E1[,ALPHA,BETA]  stop when the SPRT decides (default 0.05,0.05)\n"
    "  -q, --quiet       no line per game\n";

typedef struct {
    MatchRules rules;
    const char *engine[2];
    MatchOpening *openings;
    int nopenings;
    int games;
    const char *out;
    bool quiet;
    bool sprt_on;
    MatchSprt sprt;

    pthread_mutex_t lock;
    int next;
    bool stop;
    SprtVerdict verdict;
    MatchScore score;
    MatchScore as_color[2]; /* engine A's results as black [0] and as white [1] */
    signed char *points;    /* per game: engine A's half-points (0..2), -1 until played */
    int ends[END_COUNT][2]; /* game endings caused by engine A [0] / B [1] */
    int played;
    int64_t failures;
    char name[2][64]; /* engine names from their first game */
} Tournament;

/* Writes game i as OUT/NNNN.psq or .tgn. */
static bool save_game(const Tournament *t, const MatchGame *g, int i, const char *ext)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%04d.%s", t->out, i + 1, ext);
    TgError err = {0};
    char *text = strcmp(ext, "psq") == 0 ? match_game_psq(g, t->rules.size)
                                          : match_game_tgn(g, &t->rules, &err);
    bool ok = text && cli_write_file(path, text, strlen(text), &err);
    if (!ok)
        fprintf(stderr, "tengen match: %s: %s\n", path, err.msg[0] ? err.msg : "out of memory");
    free(text);
    return ok;
}

/* Game i: opening i/2, engine A black (under an opening rule: the first
 * player) in even games. */
static void play_one(Tournament *t, int i)
{
    MatchGame *g = malloc(sizeof *g);
    if (!g)
        return;
    int a_first = i % 2 == 0;
    const MatchOpening *o = t->nopenings ? &t->openings[(i / 2) % t->nopenings] : NULL;
    TgError err;
    bool ok = match_play_game(&t->rules, t->engine[a_first ? 0 : 1], t->engine[a_first ? 1 : 0],
                              o ? o->p : NULL, o ? o->len : 0, g, &err);
    pthread_mutex_lock(&t->lock);
    if (!ok) {
        fprintf(stderr, "tengen match: game %d: %s\n", i + 1, err.msg);
        t->failures++;
        t->stop = true;
        pthread_mutex_unlock(&t->lock);
        free(g);
        return;
    }
    t->played++;
    int a_black = a_first != g->swapped;
    Color a_color = a_black ? BLACK : WHITE;
    if (!t->name[0][0]) {
        snprintf(t->name[0], sizeof t->name[0], "%s", g->name[a_black ? 0 : 1]);
        snprintf(t->name[1], sizeof t->name[1], "%s", g->name[a_black ? 1 : 0]);
    }
    MatchScore *by_color = &t->as_color[a_black ? 0 : 1];
    if (g->winner == EMPTY) {
        t->score.draws++;
        by_color->draws++;
    } else if (g->winner == a_color) {
        t->score.wins++;
        by_color->wins++;
    } else {
        t->score.losses++;
        by_color->losses++;
    }
    t->points[i] = (signed char)(g->winner == EMPTY ? 1 : g->winner == a_color ? 2 : 0);
    if (g->culprit != EMPTY)
        t->ends[g->end][g->culprit == a_color ? 0 : 1]++;
    else
        t->ends[g->end][0]++;
    if (!t->quiet) {
        const char *res = g->winner == BLACK ? "1-0" : g->winner == WHITE ? "0-1" : "1/2";
        printf("game %d: %s (black) - %s (white) %s, %s: %s\n", i + 1, g->name[0], g->name[1],
               res, match_end_name(g->end), g->reason);
        fflush(stdout);
    }
    if (t->out && !(save_game(t, g, i, "psq") && save_game(t, g, i, "tgn")))
        t->stop = true;
    if (t->sprt_on) {
        double llr, lo, hi;
        t->verdict = match_sprt(&t->sprt, &t->score, &llr, &lo, &hi);
        if (t->verdict != SPRT_CONTINUE)
            t->stop = true;
    }
    pthread_mutex_unlock(&t->lock);
    free(g);
}

static void *worker(void *arg)
{
    Tournament *t = arg;
    for (;;) {
        pthread_mutex_lock(&t->lock);
        int i = t->stop || t->next >= t->games ? -1 : t->next++;
        pthread_mutex_unlock(&t->lock);
        if (i < 0)
            return NULL;
        play_one(t, i);
    }
}

/* Signed Elo with one decimal, never "-0.0". */
static void print_elo(double v)
{
    printf("%+.1f", v + 0.0 == 0 ? 0.0 : v);
}

/* "+190.8 (95%: +60.2 to +350.1)"; a side the results cannot bound (a sweep)
 * is left out: ">= +7.0 (95%; A scored 100%)". */
static void print_elo_interval(const MatchElo *e, int games)
{
    if (games == 0) {
        printf("0.0 (no games)\n");
    } else if (isinf(e->hi)) {
        printf(">= ");
        print_elo(e->lo);
        printf(" (95%%; A scored 100%%)\n");
    } else if (isinf(e->lo)) {
        printf("<= ");
        print_elo(e->hi);
        printf(" (95%%; A scored 0%%)\n");
    } else {
        print_elo(e->elo);
        printf(" (95%%: ");
        print_elo(e->lo);
        printf(" to ");
        print_elo(e->hi);
        printf(")\n");
    }
}

static void report(const Tournament *t)
{
    const MatchScore *s = &t->score;
    MatchElo e;
    match_elo(s, &e);
    int n = s->wins + s->losses + s->draws;
    printf("\n%-24s %6s %6s %6s %6s %7s\n", "engine", "games", "wins", "losses", "draws", "score");
    printf("A %-22.22s %6d %6d %6d %6d %6.1f%%\n", t->name[0], n, s->wins, s->losses, s->draws,
           100 * e.score);
    printf("B %-22.22s %6d %6d %6d %6d %6.1f%%\n", t->name[1], n, s->losses, s->wins, s->draws,
           n ? 100 * (1 - e.score) : 50.0);
    printf("Elo difference (A - B): ");
    print_elo_interval(&e, n);
    const MatchScore *ab = &t->as_color[0], *aw = &t->as_color[1];
    printf("A as black: %d - %d - %d; as white: %d - %d - %d\n", ab->wins, ab->losses, ab->draws,
           aw->wins, aw->losses, aw->draws);
    /* The two games of an opening (colours reversed) together: an engine that
     * wins both colours of openings more often is the stronger one even when
     * the openings favour a colour. */
    int pairs[5] = {0}, npairs = 0;
    for (int i = 0; i + 1 < t->games; i += 2)
        if (t->points[i] >= 0 && t->points[i + 1] >= 0) {
            pairs[t->points[i] + t->points[i + 1]]++;
            npairs++;
        }
    if (npairs > 0)
        printf("pairs by A's points of 2: 0: %d, 0.5: %d, 1: %d, 1.5: %d, 2: %d\n", pairs[0], pairs[1],
               pairs[2], pairs[3], pairs[4]);
    printf("endings (caused by A / B):");
    for (int k = END_FIVE; k < END_COUNT; k++) {
        int a = t->ends[k][0], b = t->ends[k][1];
        if (a + b == 0)
            continue;
        if (k == END_FIVE || k == END_DRAW_FULL || k == END_DRAW_MOVES)
            printf(" %s %d;", match_end_name(k), a + b);
        else
            printf(" %s %d/%d;", match_end_name(k), a, b);
    }
    printf("\n");
    if (t->sprt_on) {
        double llr, lo, hi;
        SprtVerdict v = match_sprt(&t->sprt, s, &llr, &lo, &hi);
        printf("SPRT elo0 %.1f elo1 %.1f: LLR %.2f [%.2f, %.2f] %s\n", t->sprt.elo0, t->sprt.elo1,
               llr, lo, hi, v == SPRT_H1 ? "H1 accepted" : v == SPRT_H0 ? "H0 accepted" : "continue");
    }
}

static bool parse_sprt(const char *s, MatchSprt *out)
{
    double v[4] = {0, 0, 0.05, 0.05};
    int n = sscanf(s, "%lf,%lf,%lf,%lf", &v[0], &v[1], &v[2], &v[3]);
    if ((n != 2 && n != 4) || v[0] >= v[1] || v[2] <= 0 || v[2] >= 0.5 || v[3] <= 0 ||
        v[3] >= 0.5)
        return false;
    *out = (MatchSprt){v[0], v[1], v[2], v[3]};
    return true;
}

int cmd_match(int argc, char **argv)
{
    static const struct option opts[] = {
        {"rule", required_argument, NULL, 'r'},      {"size", required_argument, NULL, 's'},
        {"turn", required_argument, NULL, 't'},      {"time", required_argument, NULL, 'T'},
        {"tolerance", required_argument, NULL, 'o'}, {"memory", required_argument, NULL, 'm'},
        {"max-moves", required_argument, NULL, 'M'}, {"openings", required_argument, NULL, 'O'},
        {"games", required_argument, NULL, 'g'},     {"concurrency", required_argument, NULL, 'j'},
        {"out", required_argument, NULL, 'd'},       {"sprt", required_argument, NULL, 'S'},
        {"quiet", no_argument, NULL, 'q'},           {"help", no_argument, NULL, 'h'},
        {"move-delay", required_argument, NULL, 'D'}, {"opening", required_argument, NULL, 'P'},
        {NULL, 0, NULL, 0},
    };
    Tournament *t = calloc(1, sizeof *t);
    if (!t)
        return EXIT_USAGE;
    Rule rule = RULE_RENJU;
    int size = 0, turn = -1, time = -1, tol = -1, mem = -1, maxmoves = -1, jobs = 1, games = 0, delay = 0;
    const char *openings = NULL;
    Opening opening = OPENING_FREE;
    int rc = EXIT_USAGE, c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":j:q", opts, NULL)) != -1) {
        const char *arg = optarg;
        bool ok = true;
        switch (c) {
        case 'r': ok = rule_parse(arg, &rule); break;
        case 's': ok = cli_int(arg, BOARD_MIN_SIZE, BOARD_MAX_SIZE, &size); break;
        case 't': ok = cli_int(arg, 0, 100000000, &turn); break;
        case 'T': ok = cli_int(arg, 0, 2000000000, &time); break;
        case 'o': ok = cli_int(arg, 0, 100000, &tol); break;
        case 'm': ok = cli_int(arg, 0, 1000000, &mem); break;
        case 'M': ok = cli_int(arg, 0, BOARD_MAX_MOVES, &maxmoves); break;
        case 'O': openings = arg; break;
        case 'D': ok = cli_int(arg, 0, 10000, &delay); break;
        case 'P':
            ok = opening_parse(arg, &opening) && opening != OPENING_DESIGNATED;
            break;
        case 'g': ok = cli_int(arg, 1, 1000000, &games); break;
        case 'j': ok = cli_int(arg, 1, 256, &jobs); break;
        case 'd': t->out = arg; break;
        case 'S':
            ok = parse_sprt(arg, &t->sprt);
            t->sprt_on = true;
            break;
        case 'q': t->quiet = true; break;
        case 'h':
            fputs(USAGE, stdout);
            rc = EXIT_OK;
            goto done;
        case ':': cli_error("match", "'%s' needs a value", argv[optind - 1]); goto done;
        default: cli_error("match", "unknown option '%s'", argv[optind - 1]); goto done;
        }
        if (!ok) {
            const char *name = "?";
            for (int k = 0; opts[k].name; k++)
                if (opts[k].val == c)
                    name = opts[k].name;
            cli_error("match", "--%s: bad value '%s'", name, arg);
            goto done;
        }
    }
    if (argc - optind != 2) {
        cli_error("match", "give exactly two engine command lines (got %d)", argc - optind);
        goto done;
    }
    t->engine[0] = argv[optind];
    t->engine[1] = argv[optind + 1];
    match_rules_default(&t->rules, rule);
    if (size)
        t->rules.size = size;
    if (turn >= 0)
        t->rules.timeout_turn_ms = turn;
    if (time >= 0)
        t->rules.timeout_match_ms = time;
    if (tol >= 0)
        t->rules.tolerance_ms = tol;
    if (mem >= 0)
        t->rules.max_memory = (int64_t)mem << 20;
    if (maxmoves >= 0)
        t->rules.max_moves = maxmoves;
    t->rules.move_delay_ms = delay;
    t->rules.opening = opening;
    if (opening != OPENING_FREE && openings) {
        cli_error("match", "--opening %s and --openings exclude each other: %s makes its own openings",
                  opening_name(opening), opening_name(opening));
        goto done;
    }
    if (openings) {
        TgError err;
        char *text = file_read_text(openings, &err);
        if (!text || !match_read_openings(text, t->rules.size, rule, &t->openings, &t->nopenings,
                                          &err)) {
            if (text)
                cli_error("match", "%s: %s", openings, err.msg);
            else if (err.line > 0)
                cli_error("match", "%s: line %d, column %d: %s", openings, err.line, err.col,
                          err.msg);
            else
                cli_error("match", "%s", err.msg);
            free(text);
            goto done;
        }
        free(text);
        if (t->nopenings == 0) {
            cli_error("match", "%s: no openings in the file", openings);
            goto done;
        }
    }
    if (t->out && mkdir(t->out, 0777) != 0 && errno != EEXIST) {
        cli_error("match", "--out '%s': %s", t->out, strerror(errno));
        goto done;
    }
    t->games = games ? games : t->nopenings ? 2 * t->nopenings : 2;
    t->points = malloc((size_t)t->games);
    if (!t->points) {
        cli_error("match", "out of memory");
        goto done;
    }
    memset(t->points, -1, (size_t)t->games);
    signal(SIGPIPE, SIG_IGN); /* a dead engine's pipe must not kill the referee */
    pthread_mutex_init(&t->lock, NULL);
    if (jobs > t->games)
        jobs = t->games;
    pthread_t tid[256];
    int started = 0;
    for (int i = 0; i < jobs; i++)
        if (pthread_create(&tid[started], NULL, worker, t) == 0)
            started++;
    if (started == 0)
        worker(t);
    for (int i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    pthread_mutex_destroy(&t->lock);
    report(t);
    rc = t->failures ? EXIT_USAGE : EXIT_OK;
done:
    free(t->points);
    free(t->openings);
    free(t);
    return rc;
}
