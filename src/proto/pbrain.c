/* pbrain.c — the Gomocup brain protocol: parse, fill limits, call the engine. */
#include "tengen/pbrain.h"

#include "tengen/pattern.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "tengen/coord.h"
#include "tengen/forbid.h"
#include "tengen/opening_ai.h"
#include "tengen/rules.h"

#include "proc.h"

#define PB_LINE 4096
#define UNLIMITED_MS 2147483647LL
#define DEFAULT_TURN_MS 5000
#define MEMORY_RESERVE_MB 24 /* kept out of max_memory for everything but the hash */
#define MAX_BLOCK BOARD_MAX_MOVES
#define MAX_PROPOSALS 16

typedef enum {
    JOB_MOVE,     /* TURN, BEGIN, BOARD: play the best move */
    JOB_NBEST,    /* YXNBEST n */
    JOB_BALANCE1, /* YXBALANCEONE bias */
    JOB_BALANCE2, /* YXBALANCETWO bias */
    JOB_DEFEND,   /* YXSEARCHDEFEND */
    JOB_SWAP2,    /* SWAP2BOARD with 3 or 5 stones */
    JOB_OPENING,  /* TGOPENING */
} JobKind;

typedef enum {
    OP_PLACE3,  /* opener: one of the 26 openings (RIF, Yamaguchi, Soosorv, swap after 3); N: an offer ahead */
    OP_FREE3,   /* opener of a free swap2 (SWAP2BOARD outside renju), swap after 3: book or searched stones */
    OP_SWAP,    /* colour choice: SWAP = take black */
    OP_DECLARE, /* Yamaguchi / Soosorv: how many 5th moves */
    OP_PROPOSE, /* black proposes n 5th moves */
    OP_CHOOSE,  /* white picks one of the proposals */
    OP_BALANCE, /* place a balanced stone in the central (2r+1)^2 square (Taraguchi) */
    OP_OFFER,   /* Taraguchi after 4: offer n 5th moves or place the 5th */
} OpeningStep;

typedef struct {
    JobKind kind;
    int64_t received_us; /* when the command arrived: the clock runs from there */
    int n, bias;
    OpeningStep step;
    int npoints;
    Point points[MAX_PROPOSALS];
} Job;

struct Pbrain {
    PbrainConfig cfg;
    FILE *in, *out;
    pthread_mutex_t out_lock;
    Engine *engine;
    EngineOptions eopt;
    bool eopt_dirty;

    Board board;
    bool started;
    Color me;
    Rule rule;

    int64_t timeout_turn, timeout_match, time_left;
    int max_depth;
    uint64_t max_nodes;
    int nblock;
    Point block[MAX_BLOCK];

    pthread_t prefault; /* maps the hash's pages while the brain waits */
    bool prefaulting;
    atomic_bool prefault_cancel;
    atomic_bool hash_mapped; /* every page of the hash is mapped */
    bool hash_used; /* a search ran since the hash was last cleared */
    int hash_mb;    /* the engine's table size now */

    pthread_t worker;
    bool busy;
    atomic_int cancel;
    Job job;
    int64_t received_us; /* arrival of the command being served */
    bool quit;
};

/* ---- output --------------------------------------------------------------- */

static void say(Pbrain *pb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(Pbrain *pb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&pb->out_lock);
    vfprintf(pb->out, fmt, ap);
    fputc('\n', pb->out);
    fflush(pb->out);
    pthread_mutex_unlock(&pb->out_lock);
    va_end(ap);
}

static const char *xy(Point p, char *buf)
{
    return coord_format_xy(p, buf);
}

/* ---- set-up --------------------------------------------------------------- */

void pbrain_config_default(PbrainConfig *c, const char *version)
{
    c->name = "tengen";
    c->version = version;
    c->author = "tengen developers";
    c->country = "-";
    c->www = "-";
    engine_options_default(&c->engine);
}

Rule pbrain_rule_from_info(int v)
{
    if (v == 2 || (v & 4))
        return RULE_RENJU;
    if (v & 8)
        return RULE_CARO;
    if (v & 1)
        return RULE_STANDARD;
    return RULE_FREESTYLE;
}

/* Maps the rest of the hash's pages unless cancelled. */
static void map_hash(Pbrain *pb)
{
    if (!atomic_load(&pb->hash_mapped) && engine_prefault_hash(pb->engine, &pb->prefault_cancel))
        atomic_store(&pb->hash_mapped, true);
}

static void *prefault_main(void *arg)
{
    map_hash(arg);
    return NULL;
}

/* The hash is allocated untouched; mapping its pages (about 0.2 s for 64 MB)
 * is done while the brain is idle, so that START does not wait for it and no
 * search competes with it for a core: by a spare thread from start-up until
 * the first search, then by the search thread after each answer, until all
 * pages are mapped. A new command cancels it at once (clearing or resizing
 * the hash must not run meanwhile); a search pays only for pages not yet
 * mapped that it touches. */
static void prefault_start(Pbrain *pb)
{
    if (pb->prefaulting || atomic_load(&pb->hash_mapped))
        return;
    atomic_store(&pb->prefault_cancel, false);
    pb->prefaulting = pthread_create(&pb->prefault, NULL, prefault_main, pb) == 0;
}

static void prefault_stop(Pbrain *pb)
{
    if (!pb->prefaulting)
        return;
    atomic_store(&pb->prefault_cancel, true);
    pthread_join(pb->prefault, NULL);
    pb->prefaulting = false;
}

/* A hash no search has written is empty already: nothing to wait for. */
static void clear_hash(Pbrain *pb)
{
    if (!pb->hash_used)
        return;
    prefault_stop(pb);
    engine_clear_hash(pb->engine);
    pb->hash_used = false;
}

Pbrain *pbrain_new(const PbrainConfig *c, FILE *in, FILE *out, TgError *err)
{
    Pbrain *pb = calloc(1, sizeof *pb);
    if (!pb) {
        tg_error_set(err, 0, 0, "out of memory");
        return NULL;
    }
    pb->cfg = *c;
    pb->in = in;
    pb->out = out;
    pb->eopt = c->engine;
    pb->engine = engine_new(&pb->eopt, err);
    if (!pb->engine) {
        free(pb);
        return NULL;
    }
    pthread_mutex_init(&pb->out_lock, NULL);
    atomic_init(&pb->prefault_cancel, false);
    atomic_init(&pb->hash_mapped, false);
    pb->hash_mb = pb->eopt.hash_mb;
    pb->rule = RULE_FREESTYLE;
    pb->me = BLACK;
    pb->timeout_turn = DEFAULT_TURN_MS;
    pb->time_left = UNLIMITED_MS;
    board_init(&pb->board, BOARD_DEFAULT_SIZE, pb->rule);
    /* A manager may switch rules with INFO right before a timed TURN: build
     * every rule set's tables now, while no clock runs (about 50 ms). */
    for (int r = 0; r < RULE_COUNT; r++)
        pattern_init((Rule)r);
    pattern_renju_info();
    prefault_start(pb);
    return pb;
}

void pbrain_free(Pbrain *pb)
{
    if (!pb)
        return;
    prefault_stop(pb);
    engine_free(pb->engine);
    pthread_mutex_destroy(&pb->out_lock);
    free(pb);
}

/* ---- the search worker ------------------------------------------------------ */

static int64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Takes the time already spent since the command arrived (thread start,
 * position set-up) off the limits, so the answer leaves on time. */
static void charge_elapsed(const Job *job, SearchLimits *l)
{
    int64_t spent = (now_us() - job->received_us) / 1000;
    if (spent <= 0)
        return;
    if (l->turn_ms > 0)
        l->turn_ms = l->turn_ms > spent + 1 ? l->turn_ms - spent : 1;
    if (l->match_left_ms > 0)
        l->match_left_ms = l->match_left_ms > spent + 1 ? l->match_left_ms - spent : 1;
}

static void limits_for_move(const Pbrain *pb, SearchLimits *l)
{
    search_limits_init(l);
    /* timeout_turn 0 means "play as fast as possible"; the engine's 0 means no limit. */
    l->turn_ms = pb->timeout_turn > 0 ? pb->timeout_turn : 1;
    if (pb->timeout_match > 0 && pb->time_left < UNLIMITED_MS)
        l->match_left_ms = pb->time_left > 1 ? pb->time_left : 1;
    l->depth = pb->max_depth;
    l->nodes = pb->max_nodes;
}

static void on_progress(const SearchInfo *info, void *user)
{
    Pbrain *pb = user;
    /* A STOP that came before the search started was not heard by the engine. */
    if (atomic_load(&pb->cancel))
        engine_stop(pb->engine);
    char pv[ENGINE_MAX_PV * 5 + 1] = "";
    size_t n = 0;
    for (int i = 0; i < info->line.pvlen && n + 6 < sizeof pv; i++) {
        char buf[COORD_BUF];
        n += (size_t)snprintf(pv + n, sizeof pv - n, "%s%s", i ? " " : "",
                              coord_format(info->line.pv[i], pb->board.size, buf));
    }
    char ev[32];
    if (info->line.mate)
        snprintf(ev, sizeof ev, "%s%d", info->line.mate > 0 ? "+M" : "-M", abs(info->line.mate));
    else
        snprintf(ev, sizeof ev, "%d", info->line.score);
    if (info->line_index > 0)
        say(pb, "MESSAGE nbest %d depth %d-%d ev %s nodes %llu nps %llu time %lld pv %s",
            info->line_index + 1, info->depth, info->seldepth, ev,
            (unsigned long long)info->nodes, (unsigned long long)info->nps,
            (long long)info->time_ms, pv);
    else
        say(pb, "MESSAGE depth %d-%d ev %s nodes %llu nps %llu time %lld pv %s", info->depth,
            info->seldepth, ev, (unsigned long long)info->nodes, (unsigned long long)info->nps,
            (long long)info->time_ms, pv);
}

/* Root moves when YXBLOCK excluded some points. */
static void apply_block(const Pbrain *pb, SearchLimits *l)
{
    if (pb->nblock == 0)
        return;
    l->nroot = 0;
    for (int y = 0; y < pb->board.size; y++)
        for (int x = 0; x < pb->board.size; x++) {
            Point p = point_make(x, y);
            bool blocked = false;
            for (int i = 0; i < pb->nblock && !blocked; i++)
                blocked = pb->block[i] == p;
            if (pb->board.cell[p] == EMPTY && !blocked)
                l->root[l->nroot++] = p;
        }
}

static void play_and_say(Pbrain *pb, Point p)
{
    char buf[COORD_BUF];
    board_play(&pb->board, p, pb->me);
    say(pb, "%s", xy(p, buf));
}

static void opening_ai_for(Pbrain *pb, OpeningAI *ai)
{
    opening_ai_init(ai, pb->engine);
    SearchLimits l;
    limits_for_move(pb, &l);
    ai->limits.turn_ms = l.turn_ms;
    ai->limits.match_left_ms = l.match_left_ms;
    ai->limits.depth = l.depth;
    ai->limits.nodes = l.nodes;
    ai->cancel = &pb->cancel;
    /* Book openings vary from game to game, as a tournament opener's should. */
    ai->seed = (uint64_t)proc_now_ms() ^ (uint64_t)getpid() << 32;
}

static void say_points(Pbrain *pb, const Point *p, int n)
{
    char line[PB_LINE] = "";
    size_t len = 0;
    for (int i = 0; i < n && len + 16 < sizeof line; i++) {
        char buf[COORD_BUF];
        len += (size_t)snprintf(line + len, sizeof line - len, "%s%s", i ? " " : "", xy(p[i], buf));
    }
    say(pb, "%s", line);
}

static void run_opening(Pbrain *pb, const Job *job)
{
    OpeningAI ai;
    opening_ai_for(pb, &ai);
    Board *b = &pb->board;
    Point pts[MAX_PROPOSALS];
    switch (job->step) {
    case OP_PLACE3:
        if (opening_ai_pick_opening_offer(&ai, b->size, b->rule, job->n, pts))
            say_points(pb, pts, 3);
        else
            say(pb, "ERROR the board is too small for the standard openings");
        return;
    case OP_FREE3:
        if (opening_ai_free_three(&ai, b->size, b->rule, pts))
            say_points(pb, pts, 3);
        else
            say(pb, "ERROR the board is too small for a swap2 opening");
        return;
    case OP_SWAP: {
        int s = 0;
        bool black = opening_ai_take_black_offer(&ai, b, job->n, &s);
        say(pb, "MESSAGE black score %d", s);
        say(pb, "%s", black ? "SWAP" : "NOSWAP");
        return;
    }
    case OP_DECLARE:
        say(pb, "%d", opening_ai_declare(&ai, b, job->n));
        return;
    case OP_PROPOSE: {
        int n = opening_ai_propose(&ai, b, job->n, pts);
        say_points(pb, pts, n);
        return;
    }
    case OP_CHOOSE: {
        char buf[COORD_BUF];
        say(pb, "%s", xy(opening_ai_choose(&ai, b, job->points, job->npoints), buf));
        return;
    }
    case OP_BALANCE: {
        /* r = 0: the candidates are the points near the stones */
        Point region[BOARD_MAX_MOVES];
        int nr = job->n > 0 ? opening_ai_region(b, job->n, region) : 0;
        Point p;
        if ((job->n == 0 || nr > 0) &&
            opening_ai_balanced(&ai, b, board_side_to_move(b), region, nr, 0, &p, NULL, 1) == 1)
            say_points(pb, &p, 1);
        else if (job->n == 0)
            say(pb, "ERROR no empty point near the stones");
        else
            say(pb, "ERROR no empty point in the %dx%d centre", 2 * job->n + 1, 2 * job->n + 1);
        return;
    }
    case OP_OFFER: {
        int n = 0;
        Point place;
        char line[PB_LINE] = "";
        size_t len = 0;
        bool offer = opening_ai_taraguchi_offer(&ai, b, job->n, pts, &n, &place);
        if (!offer) {
            pts[0] = place;
            n = 1;
        }
        len = (size_t)snprintf(line, sizeof line, "%s", offer ? "OFFER" : "PLACE");
        for (int i = 0; i < n && len + 16 < sizeof line; i++) {
            char buf[COORD_BUF];
            len += (size_t)snprintf(line + len, sizeof line - len, " %s", xy(pts[i], buf));
        }
        say(pb, "%s", line);
        return;
    }
    }
}

static void run_swap2(Pbrain *pb)
{
    OpeningAI ai;
    opening_ai_for(pb, &ai);
    Board *b = &pb->board;
    Point move, two[2];
    if (b->count == 3) {
        Swap2Choice c = opening_ai_swap2(&ai, b, &move, two);
        if (c == SWAP2_TAKE_BLACK) {
            say(pb, "SWAP");
        } else if (c == SWAP2_TAKE_WHITE) {
            pb->me = WHITE;
            play_and_say(pb, move);
        } else {
            board_play(b, two[0], WHITE);
            board_play(b, two[1], BLACK);
            say_points(pb, two, 2);
        }
        return;
    }
    if (opening_ai_swap2_final(&ai, b, &move)) {
        say(pb, "SWAP");
        return;
    }
    pb->me = WHITE;
    play_and_say(pb, move);
}

static void run_balance(Pbrain *pb, int stones, int bias)
{
    OpeningAI ai;
    opening_ai_for(pb, &ai);
    opening_ai_split(&ai, stones);
    Board *b = &pb->board;
    Point p[2];
    for (int i = 0; i < stones; i++) {
        Color c = board_side_to_move(b);
        /* bias is for the side to move at the start; the target is black's score */
        int target = pb->me == BLACK ? bias : -bias;
        if (opening_ai_balanced(&ai, b, c, NULL, 0, target, &p[i], NULL, 1) != 1) {
            say(pb, "ERROR no move to balance the position");
            return;
        }
        board_play(b, p[i], c);
    }
    say_points(pb, p, stones);
}

static void run_search(Pbrain *pb, const Job *job)
{
    SearchLimits *l = malloc(sizeof *l);
    SearchResult *res = malloc(sizeof *res);
    if (!l || !res) {
        say(pb, "ERROR out of memory");
        goto done;
    }
    limits_for_move(pb, l);
    apply_block(pb, l);
    if (job->kind == JOB_NBEST)
        l->nbest = job->n < ENGINE_MAX_NBEST ? job->n : ENGINE_MAX_NBEST;
    if (job->kind == JOB_DEFEND)
        l->nbest = ENGINE_MAX_NBEST;
    TgError err;
    if (!engine_set_position(pb->engine, &pb->board, pb->me, &err)) {
        say(pb, "ERROR %s", err.msg);
        goto done;
    }
    charge_elapsed(job, l);
    if (atomic_load(&pb->cancel))
        l->depth = 1; /* stopped already: answer at once */
    if (!engine_think(pb->engine, l, on_progress, pb, res) || res->best < 0) {
        say(pb, "ERROR no legal move");
        goto done;
    }
    if (job->kind == JOB_DEFEND) {
        char line[PB_LINE] = "MESSAGE defences";
        size_t n = strlen(line);
        for (int i = 0; i < res->nlines && n + 16 < sizeof line; i++) {
            char buf[COORD_BUF];
            if (res->lines[i].mate < 0)
                continue; /* loses by force: no defence */
            n += (size_t)snprintf(line + n, sizeof line - n, " %s",
                                  coord_format(res->lines[i].move, pb->board.size, buf));
        }
        say(pb, "%s", line);
    }
    play_and_say(pb, res->best);
done:
    free(l);
    free(res);
}

static void *worker_main(void *arg)
{
    Pbrain *pb = arg;
    const Job *job = &pb->job;
    switch (job->kind) {
    case JOB_MOVE:
    case JOB_NBEST:
    case JOB_DEFEND: run_search(pb, job); break;
    case JOB_BALANCE1: run_balance(pb, 1, job->bias); break;
    case JOB_BALANCE2: run_balance(pb, 2, job->bias); break;
    case JOB_SWAP2: run_swap2(pb); break;
    case JOB_OPENING: run_opening(pb, job); break;
    }
    map_hash(pb); /* the answer is out: the brain is idle now */
    return NULL;
}

/* Waits for the running search (stopping it first when asked). */
static void finish_search(Pbrain *pb, bool stop)
{
    if (!pb->busy)
        return;
    if (stop) {
        atomic_store(&pb->cancel, 1);
        engine_stop(pb->engine);
    }
    atomic_store(&pb->prefault_cancel, true);
    pthread_join(pb->worker, NULL);
    pb->busy = false;
}

static void apply_engine_options(Pbrain *pb)
{
    if (!pb->eopt_dirty)
        return;
    prefault_stop(pb);
    TgError err;
    if (!engine_set_options(pb->engine, &pb->eopt, &err)) {
        say(pb, "ERROR %s", err.msg);
    } else if (pb->eopt.hash_mb != pb->hash_mb) {
        pb->hash_mb = pb->eopt.hash_mb;
        pb->hash_used = false; /* a new, empty, unmapped table */
        atomic_store(&pb->hash_mapped, false);
    }
    pb->eopt_dirty = false;
    prefault_start(pb);
}

static void start_job(Pbrain *pb, const Job *job)
{
    finish_search(pb, true);
    apply_engine_options(pb);
    prefault_stop(pb);
    pb->job = *job;
    pb->hash_used = true;
    if (!pb->job.received_us)
        pb->job.received_us = pb->received_us;
    atomic_store(&pb->cancel, 0);
    atomic_store(&pb->prefault_cancel, false);
    if (pthread_create(&pb->worker, NULL, worker_main, pb) != 0) {
        worker_main(pb); /* no thread: think in the reader (STOP is then not heard) */
        return;
    }
    pb->busy = true;
}

static void think(Pbrain *pb, JobKind kind)
{
    Job job = {.kind = kind};
    start_job(pb, &job);
}

/* ---- parsing helpers ---------------------------------------------------------- */

static bool parse_long(const char *s, long long lo, long long hi, long long *out)
{
    while (isspace((unsigned char)*s))
        s++;
    if (!*s)
        return false;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    while (isspace((unsigned char)*end))
        end++;
    if (*end || errno || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

/* "x,y" on this board; fills why on failure. */
static bool parse_point(const Pbrain *pb, const char *s, Point *p, char *why, size_t cap)
{
    int x, y, n = 0;
    if (sscanf(s, " %d , %d %n", &x, &y, &n) != 2 || s[n] != '\0') {
        snprintf(why, cap, "'%s' is not a point x,y", s);
        return false;
    }
    if (x < 0 || y < 0 || x >= pb->board.size || y >= pb->board.size) {
        snprintf(why, cap, "%d,%d is off the %dx%d board", x, y, pb->board.size, pb->board.size);
        return false;
    }
    *p = point_make(x, y);
    return true;
}

static bool read_line(Pbrain *pb, char *line, size_t cap)
{
    if (!fgets(line, (int)cap, pb->in))
        return false;
    size_t n = strlen(line);
    if (n == cap - 1 && line[n - 1] != '\n') { /* overlong: drop the rest */
        int ch;
        while ((ch = fgetc(pb->in)) != EOF && ch != '\n')
            ;
    }
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
        line[--n] = '\0';
    return true;
}

static bool is_done(const char *line)
{
    while (isspace((unsigned char)*line))
        line++;
    return strncasecmp(line, "DONE", 4) == 0 && (line[4] == '\0' || isspace((unsigned char)line[4]));
}

/* The lines "x,y[,field]" of a BOARD-style block, up to DONE. */
typedef struct {
    Point pts[BOARD_MAX_MOVES];
    int fields[BOARD_MAX_MOVES]; /* 0 when the line has none */
    int n;
} PointBlock;

/* Reads a block up to DONE; each bad line is answered with its own ERROR.
 * Returns the number of bad lines, or -1 at end of input. */
static int read_points(Pbrain *pb, const char *cmd, PointBlock *blk)
{
    char line[PB_LINE];
    blk->n = 0;
    int lineno = 0, bad = 0;
    for (;;) {
        if (!read_line(pb, line, sizeof line)) {
            say(pb, "ERROR %s: input ended before DONE", cmd);
            return -1;
        }
        lineno++;
        if (is_done(line))
            return bad;
        if (line[0] == '\0')
            continue;
        bad++; /* until the line proves good */
        int x, y, f = 0, k = 0;
        int got = sscanf(line, " %d , %d %n", &x, &y, &k);
        const char *rest = line + k;
        if (got == 2 && *rest == ',') {
            int k2 = 0;
            if (sscanf(rest + 1, " %d %n", &f, &k2) != 1)
                got = 0;
            rest += 1 + k2;
        }
        if (got != 2 || *rest != '\0') {
            say(pb, "ERROR %s line %d: '%.80s' is not x,y or x,y,field", cmd, lineno, line);
            continue;
        }
        if (x < 0 || y < 0 || x >= pb->board.size || y >= pb->board.size) {
            say(pb, "ERROR %s line %d: %d,%d is off the %dx%d board", cmd, lineno, x, y,
                pb->board.size, pb->board.size);
            continue;
        }
        if (f < 0 || f > 3) {
            say(pb, "ERROR %s line %d: field %d must be 1 (own), 2 (opponent) or 3", cmd, lineno, f);
            continue;
        }
        Point p = point_make(x, y);
        bool dup = false;
        for (int i = 0; i < blk->n && !dup; i++)
            dup = blk->pts[i] == p;
        if (dup || blk->n >= BOARD_MAX_MOVES) {
            say(pb, "ERROR %s line %d: %d,%d %s", cmd, lineno, x, y,
                dup ? "is given twice" : "is one point too many");
            continue;
        }
        blk->pts[blk->n] = p;
        blk->fields[blk->n] = f;
        blk->n++;
        bad--;
    }
}

/* Reads a block and says whether the command may use it. A block with a bad
 * line is refused whole: acting on the rest could put the brain on a position
 * the manager never meant. */
static bool take_points(Pbrain *pb, const char *cmd, PointBlock *blk)
{
    int bad = read_points(pb, cmd, blk);
    if (bad < 0) {
        pb->quit = true;
        return false;
    }
    if (bad > 0) {
        say(pb, "ERROR %s refused: %d bad line%s, nothing changed", cmd, bad, bad == 1 ? "" : "s");
        return false;
    }
    return true;
}

static void reset_board(Pbrain *pb, int size)
{
    board_init(&pb->board, size, pb->rule);
    pb->me = BLACK;
}

/* ---- commands ------------------------------------------------------------------ */

typedef void (*Handler)(Pbrain *pb, char *args);

static void cmd_start(Pbrain *pb, char *args)
{
    long long n;
    if (!parse_long(args, LLONG_MIN, LLONG_MAX, &n)) {
        say(pb, "ERROR START needs a board size, got '%.40s'", args);
        return;
    }
    if (n < BOARD_MIN_SIZE || n > BOARD_MAX_SIZE) {
        say(pb, "ERROR unsupported board size %lld (%d..%d)", n, BOARD_MIN_SIZE, BOARD_MAX_SIZE);
        return;
    }
    reset_board(pb, (int)n);
    pb->nblock = 0;
    clear_hash(pb);
    pb->started = true;
    say(pb, "OK");
}

static void cmd_rectstart(Pbrain *pb, char *args)
{
    int w, h, k = 0;
    if (sscanf(args, " %d , %d %n", &w, &h, &k) != 2 || args[k] != '\0') {
        say(pb, "ERROR RECTSTART needs width,height, got '%.40s'", args);
        return;
    }
    if (w != h) {
        say(pb, "ERROR rectangular boards (%dx%d) are not supported", w, h);
        return;
    }
    char size[16];
    snprintf(size, sizeof size, "%d", w);
    cmd_start(pb, size);
}

static void cmd_restart(Pbrain *pb, char *args)
{
    (void)args;
    reset_board(pb, pb->board.size);
    pb->nblock = 0;
    clear_hash(pb);
    say(pb, "OK");
}

static bool position_ok(Pbrain *pb)
{
    if (rules_has_win(&pb->board, BLACK) || rules_has_win(&pb->board, WHITE)) {
        say(pb, "ERROR the game is over: a side has five");
        return false;
    }
    if (pb->board.count >= board_area(&pb->board)) {
        say(pb, "ERROR the board is full");
        return false;
    }
    return true;
}

static void cmd_begin(Pbrain *pb, char *args)
{
    (void)args;
    if (pb->board.count != 0) {
        say(pb, "ERROR BEGIN needs an empty board (%d stones)", pb->board.count);
        return;
    }
    pb->me = BLACK;
    think(pb, JOB_MOVE);
}

static void cmd_turn(Pbrain *pb, char *args)
{
    Point p;
    char why[128];
    if (!parse_point(pb, args, &p, why, sizeof why)) {
        say(pb, "ERROR TURN: %s", why);
        return;
    }
    if (pb->board.cell[p] != EMPTY) {
        say(pb, "ERROR TURN: %s is already taken", args);
        return;
    }
    if (pb->board.count == 0)
        pb->me = WHITE;
    board_play(&pb->board, p, color_other(pb->me));
    if (position_ok(pb))
        think(pb, JOB_MOVE);
}

/* Places BOARD-style stones: the first stone decides our colour (it is black). */
static void load_position(Pbrain *pb, const PointBlock *blk, bool alternate)
{
    const Point *pts = blk->pts;
    const int *fields = blk->fields;
    int n = blk->n;
    reset_board(pb, pb->board.size);
    if (!alternate && n > 0)
        pb->me = fields[0] == 2 ? WHITE : BLACK;
    for (int i = 0; i < n; i++) {
        Color c;
        if (alternate || fields[i] == 0)
            c = i % 2 ? WHITE : BLACK;
        else if (fields[i] == 3)
            continue; /* continuous-game marks: not a stone */
        else
            c = fields[i] == 1 ? pb->me : color_other(pb->me);
        board_play(&pb->board, pts[i], c);
    }
    if (alternate)
        pb->me = board_side_to_move(&pb->board);
}

static void board_command(Pbrain *pb, const char *name, bool go)
{
    PointBlock blk;
    if (!take_points(pb, name, &blk))
        return;
    load_position(pb, &blk, false);
    if (go && position_ok(pb))
        think(pb, JOB_MOVE);
}

static void cmd_board(Pbrain *pb, char *args)
{
    (void)args;
    board_command(pb, "BOARD", true);
}

static void cmd_yxboard(Pbrain *pb, char *args)
{
    (void)args;
    board_command(pb, "YXBOARD", false);
}

static void cmd_takeback(Pbrain *pb, char *args)
{
    Point p;
    char why[128];
    if (!parse_point(pb, args, &p, why, sizeof why)) {
        say(pb, "ERROR TAKEBACK: %s", why);
        return;
    }
    if (pb->board.cell[p] == EMPTY) {
        say(pb, "ERROR TAKEBACK: no stone on %s", args);
        return;
    }
    board_remove(&pb->board, p);
    say(pb, "OK");
}

static void cmd_play(Pbrain *pb, char *args)
{
    Point p;
    char why[128];
    if (!parse_point(pb, args, &p, why, sizeof why)) {
        say(pb, "ERROR PLAY: %s", why);
        return;
    }
    if (pb->board.cell[p] != EMPTY) {
        say(pb, "ERROR PLAY: %s is already taken", args);
        return;
    }
    play_and_say(pb, p);
}

static void set_rule(Pbrain *pb, Rule r)
{
    if (r == pb->rule)
        return;
    pb->rule = r;
    Board old = pb->board;
    board_init(&pb->board, old.size, r);
    for (int i = 0; i < old.count; i++)
        board_play(&pb->board, old.history[i], old.cell[old.history[i]]);
    clear_hash(pb);
}

static void set_memory(Pbrain *pb, long long bytes)
{
    if (bytes <= 0)
        return; /* no limit: keep the configured hash */
    long long mb = (bytes >> 20) - MEMORY_RESERVE_MB;
    mb = mb * 3 / 4; /* the table is one part of the process; leave room for the rest */
    if (mb < 1)
        mb = 1;
    if (mb > ENGINE_MAX_HASH_MB)
        mb = ENGINE_MAX_HASH_MB;
    if (mb != pb->eopt.hash_mb) {
        pb->eopt.hash_mb = (int)mb;
        pb->eopt_dirty = true;
    }
}

static void cmd_info(Pbrain *pb, char *args)
{
    char key[64];
    int k = 0;
    if (sscanf(args, " %63s %n", key, &k) != 1) {
        say(pb, "ERROR INFO needs a key and a value");
        return;
    }
    const char *val = args + k;
    for (char *s = key; *s; s++)
        *s = (char)tolower((unsigned char)*s);
    static const char *const TEXT_KEYS[] = {"folder", "evaluate"};
    for (size_t i = 0; i < sizeof TEXT_KEYS / sizeof *TEXT_KEYS; i++)
        if (!strcmp(key, TEXT_KEYS[i]))
            return; /* no persistent files; the cursor position needs no answer */
    long long v;
    if (!parse_long(val, LLONG_MIN, LLONG_MAX, &v)) {
        say(pb, "ERROR INFO %s: '%.40s' is not a number", key, val);
        return;
    }
    /* Only time_left may go below zero (a side over its clock); a negative
     * limit or size is a manager's mistake, and guessing a meaning for it
     * would hide that. */
    static const char *const NON_NEGATIVE[] = {
        "timeout_turn", "timeout_match", "max_depth", "max_node",
        "max_memory",   "hash_size",     "thread_num",
    };
    for (size_t i = 0; i < sizeof NON_NEGATIVE / sizeof *NON_NEGATIVE; i++)
        if (v < 0 && !strcmp(key, NON_NEGATIVE[i])) {
            say(pb, "ERROR INFO %s: %lld is negative; the value stays as it was", key, v);
            return;
        }
    if (!strcmp(key, "timeout_turn"))
        pb->timeout_turn = v;
    else if (!strcmp(key, "timeout_match"))
        pb->timeout_match = v;
    else if (!strcmp(key, "time_left"))
        pb->time_left = v;
    else if (!strcmp(key, "max_depth"))
        pb->max_depth = v <= 0 ? 0 : v > ENGINE_MAX_DEPTH ? ENGINE_MAX_DEPTH : (int)v;
    else if (!strcmp(key, "max_node"))
        pb->max_nodes = v <= 0 ? 0 : (uint64_t)v;
    else if (!strcmp(key, "max_memory")) {
        finish_search(pb, false);
        set_memory(pb, v);
        apply_engine_options(pb);
    } else if (!strcmp(key, "hash_size")) { /* Yixin-Board: KB */
        finish_search(pb, false);
        long long mb = v >> 10;
        pb->eopt.hash_mb = mb < 1 ? 1 : mb > ENGINE_MAX_HASH_MB ? ENGINE_MAX_HASH_MB : (int)mb;
        pb->eopt_dirty = true;
        apply_engine_options(pb);
    } else if (!strcmp(key, "thread_num")) {
        finish_search(pb, false);
        pb->eopt.threads = v < 1 ? 1 : v > ENGINE_MAX_THREADS ? ENGINE_MAX_THREADS : (int)v;
        pb->eopt_dirty = true;
        apply_engine_options(pb);
    } else if (!strcmp(key, "rule")) {
        finish_search(pb, false);
        set_rule(pb, pbrain_rule_from_info((int)v));
    } else {
        /* Accepted and ignored: they do not change how tengen searches. */
        static const char *const IGNORED[] = {
            "game_type",     "start_depth", "show_detail", "time_increment", "caution_factor",
            "thread_split_depth", "pondering", "checkmate", "nbestsym", "vcthread",
            "usedatabase", "database_readonly", "swapable", "strength", "max_moves",
            "draw_result",
        };
        for (size_t i = 0; i < sizeof IGNORED / sizeof *IGNORED; i++)
            if (!strcmp(key, IGNORED[i]))
                return;
        say(pb, "MESSAGE INFO %s is not used by tengen", key);
    }
}

static void cmd_about(Pbrain *pb, char *args)
{
    (void)args;
    const PbrainConfig *c = &pb->cfg;
    say(pb, "name=\"%s\", version=\"%s\", author=\"%s\", country=\"%s\", www=\"%s\"", c->name,
        c->version, c->author, c->country, c->www);
}

static void cmd_end(Pbrain *pb, char *args)
{
    (void)args;
    finish_search(pb, true);
    pb->quit = true;
}

static void cmd_stop(Pbrain *pb, char *args)
{
    (void)args;
    if (pb->busy) {
        atomic_store(&pb->cancel, 1);
        engine_stop(pb->engine);
    }
}

static void cmd_nbest(Pbrain *pb, char *args)
{
    long long n;
    if (!parse_long(args, 1, BOARD_MAX_MOVES, &n)) {
        say(pb, "ERROR YXNBEST needs a count 1..%d, got '%.40s'", BOARD_MAX_MOVES, args);
        return;
    }
    if (!position_ok(pb))
        return;
    Job job = {.kind = JOB_NBEST, .n = (int)n};
    start_job(pb, &job);
}

static void cmd_defend(Pbrain *pb, char *args)
{
    (void)args;
    if (position_ok(pb))
        think(pb, JOB_DEFEND);
}

static void balance_command(Pbrain *pb, char *args, JobKind kind)
{
    long long bias = 0;
    if (*args && !parse_long(args, -ENGINE_SCORE_WIN, ENGINE_SCORE_WIN, &bias)) {
        say(pb, "ERROR %s needs a bias (a score), got '%.40s'",
            kind == JOB_BALANCE1 ? "YXBALANCEONE" : "YXBALANCETWO", args);
        return;
    }
    if (!position_ok(pb))
        return;
    pb->me = board_side_to_move(&pb->board);
    Job job = {.kind = kind, .bias = (int)bias};
    start_job(pb, &job);
}

static void cmd_balance1(Pbrain *pb, char *args) { balance_command(pb, args, JOB_BALANCE1); }
static void cmd_balance2(Pbrain *pb, char *args) { balance_command(pb, args, JOB_BALANCE2); }

static void cmd_showforbid(Pbrain *pb, char *args)
{
    (void)args;
    char line[PB_LINE] = "FORBID ";
    size_t n = strlen(line);
    if (pb->board.rule == RULE_RENJU && board_side_to_move(&pb->board) == BLACK) {
        Point pts[BOARD_MAX_MOVES];
        int k = forbid_list(&pb->board, pts, NULL);
        for (int i = 0; i < k && n + 6 < sizeof line; i++)
            n += (size_t)snprintf(line + n, sizeof line - n, "%02d%02d", point_x(pts[i]),
                                  point_y(pts[i]));
    }
    say(pb, "%s.", line);
}

/* Yixin-Board offers a draw with YXDRAW; the answer is a MESSAGE line. The
 * brain accepts unless its static evaluation says it stands better. */
static void cmd_yxdraw(Pbrain *pb, char *args)
{
    (void)args;
    Color to_move = board_side_to_move(&pb->board);
    int score = 0;
    if (engine_set_position(pb->engine, &pb->board, to_move, NULL))
        score = engine_evaluate(pb->engine);
    if (to_move != pb->me)
        score = -score;
    say(pb, "MESSAGE DRAW %s", score > 0 ? "REJECT" : "ACCEPT");
}

static void cmd_hashclear(Pbrain *pb, char *args)
{
    (void)args;
    clear_hash(pb);
    say(pb, "MESSAGE hash cleared");
}

static void cmd_showinfo(Pbrain *pb, char *args)
{
    (void)args;
    say(pb, "MESSAGE %s %s", pb->cfg.name, pb->cfg.version);
    say(pb, "MESSAGE INFO MAX_THREAD_NUM %d", ENGINE_MAX_THREADS);
    say(pb, "MESSAGE INFO MAX_HASH_SIZE %d", 26); /* 2^26 KB */
}

static void block_command(Pbrain *pb, const char *name, bool add)
{
    PointBlock blk;
    if (!take_points(pb, name, &blk))
        return;
    for (int i = 0; i < blk.n; i++) {
        int at = -1;
        for (int j = 0; j < pb->nblock; j++)
            if (pb->block[j] == blk.pts[i])
                at = j;
        if (add && at < 0 && pb->nblock < MAX_BLOCK)
            pb->block[pb->nblock++] = blk.pts[i];
        if (!add && at >= 0)
            pb->block[at] = pb->block[--pb->nblock];
    }
}

static void cmd_block(Pbrain *pb, char *args)
{
    (void)args;
    block_command(pb, "YXBLOCK", true);
}

static void cmd_blockundo(Pbrain *pb, char *args)
{
    (void)args;
    block_command(pb, "YXBLOCKUNDO", false);
}

static void cmd_blockreset(Pbrain *pb, char *args)
{
    (void)args;
    pb->nblock = 0;
}

/* No opening database: the position is read and nothing is reported. */
static void cmd_querydb(Pbrain *pb, char *args)
{
    (void)args;
    PointBlock blk;
    take_points(pb, "YXQUERYDATABASE", &blk);
}

static void cmd_swap2board(Pbrain *pb, char *args)
{
    (void)args;
    PointBlock blk;
    if (!take_points(pb, "SWAP2BOARD", &blk))
        return;
    load_position(pb, &blk, true);
    int n = blk.n;
    if (n == 0) {
        /* Renju's swap2 keeps to the 26 openings, balanced by the forbidden
         * points; elsewhere they all favour black. */
        Job job = {.kind = JOB_OPENING, .step = pb->rule == RULE_RENJU ? OP_PLACE3 : OP_FREE3};
        start_job(pb, &job);
        return;
    }
    if (n != 3 && n != 5) {
        say(pb, "ERROR SWAP2BOARD needs 0, 3 or 5 stones, got %d", n);
        return;
    }
    if (position_ok(pb))
        think(pb, JOB_SWAP2);
}

/* TGOPENING STEP [N | x,y ...] then the stones (x,y, black first) up to DONE. */
static void cmd_tgopening(Pbrain *pb, char *args)
{
    static const struct {
        const char *name;
        OpeningStep step;
    } STEPS[] = {
        {"place3", OP_PLACE3},   {"free3", OP_FREE3},   {"swap", OP_SWAP},
        {"declare", OP_DECLARE}, {"propose", OP_PROPOSE}, {"choose", OP_CHOOSE},
        {"balance", OP_BALANCE}, {"offer", OP_OFFER},
    };
    char word[32];
    int k = 0;
    Job job = {.kind = JOB_OPENING};
    bool known = false;
    if (sscanf(args, " %31s %n", word, &k) == 1)
        for (size_t i = 0; i < sizeof STEPS / sizeof *STEPS; i++)
            if (!strcasecmp(word, STEPS[i].name)) {
                job.step = STEPS[i].step;
                known = true;
            }
    char *rest = args + k;
    char why[128] = "";
    bool ok = known;
    if (!known)
        snprintf(why, sizeof why, "unknown step '%.31s' (place3 free3 swap declare propose choose balance offer)", args);
    long long n = 0;
    /* swap [N], place3 [N]: black offers N 5th moves later */
    bool optional = job.step == OP_SWAP || job.step == OP_PLACE3;
    if (ok && optional) {
        char tail;
        optional = sscanf(rest, " %c", &tail) == 1;
    }
    if (ok && (job.step == OP_DECLARE || job.step == OP_PROPOSE || job.step == OP_OFFER ||
               job.step == OP_BALANCE || optional)) {
        /* balance 0: anywhere near the stones */
        ok = parse_long(rest, job.step == OP_BALANCE || optional ? 0 : 1,
                        job.step == OP_BALANCE ? BOARD_MAX_SIZE / 2 : MAX_PROPOSALS,
                        &n);
        if (!ok)
            snprintf(why, sizeof why, "%s needs a number, got '%.40s'", word, rest);
        job.n = (int)n;
    }
    if (ok && job.step == OP_CHOOSE) {
        char *save = NULL;
        for (char *tok = strtok_r(rest, " ", &save); tok && ok; tok = strtok_r(NULL, " ", &save)) {
            if (job.npoints >= MAX_PROPOSALS) {
                ok = false;
                snprintf(why, sizeof why, "too many proposals");
            } else
                ok = parse_point(pb, tok, &job.points[job.npoints++], why, sizeof why);
        }
        if (ok && job.npoints == 0) {
            ok = false;
            snprintf(why, sizeof why, "choose needs the proposals x,y x,y ...");
        }
    }
    PointBlock blk;
    if (!take_points(pb, "TGOPENING", &blk))
        return;
    if (!ok) {
        say(pb, "ERROR TGOPENING: %s", why);
        return;
    }
    load_position(pb, &blk, true);
    for (int i = 0; i < job.npoints; i++)
        if (pb->board.cell[job.points[i]] != EMPTY) {
            say(pb, "ERROR TGOPENING choose: proposal %d is on a stone", i + 1);
            return;
        }
    if (job.step != OP_PLACE3 && job.step != OP_FREE3 && !position_ok(pb))
        return;
    start_job(pb, &job);
}

typedef struct {
    const char *name;
    Handler run;
    bool needs_start;
    bool while_thinking; /* answered at once, without stopping the search */
    bool reads_block;    /* followed by lines up to DONE */
} Command;

static const Command COMMANDS[] = {
    {"START", cmd_start, false, false, false},
    {"RECTSTART", cmd_rectstart, false, false, false},
    {"RESTART", cmd_restart, true, false, false},
    {"BEGIN", cmd_begin, true, false, false},
    {"TURN", cmd_turn, true, false, false},
    {"BOARD", cmd_board, true, false, true},
    {"TAKEBACK", cmd_takeback, true, false, false},
    {"PLAY", cmd_play, true, false, false},
    {"INFO", cmd_info, false, true, false},
    {"END", cmd_end, false, true, false},
    {"ABOUT", cmd_about, false, true, false},
    {"STOP", cmd_stop, false, true, false},
    {"SWAP2BOARD", cmd_swap2board, true, false, true},
    {"YXBOARD", cmd_yxboard, true, false, true},
    {"YXSTOP", cmd_stop, false, true, false},
    {"YXNBEST", cmd_nbest, true, false, false},
    {"YXSEARCHDEFEND", cmd_defend, true, false, false},
    {"YXBALANCEONE", cmd_balance1, true, false, false},
    {"YXBALANCETWO", cmd_balance2, true, false, false},
    {"YXSHOWFORBID", cmd_showforbid, true, false, false},
    {"YXHASHCLEAR", cmd_hashclear, false, false, false},
    {"YXDRAW", cmd_yxdraw, true, false, false},
    {"YXSHOWINFO", cmd_showinfo, false, true, false},
    {"YXBLOCK", cmd_block, true, false, true},
    {"YXBLOCKUNDO", cmd_blockundo, true, false, true},
    {"YXBLOCKRESET", cmd_blockreset, true, false, false},
    {"YXQUERYDATABASEALL", cmd_querydb, true, false, true},
    {"YXQUERYDATABASEONE", cmd_querydb, true, false, true},
    {"YXQUERYDATABASETEXT", cmd_querydb, true, false, true},
    {"YXQUERYDATABASEALLT", cmd_querydb, true, false, true},
    {"TGOPENING", cmd_tgopening, true, false, true},
};

static void dispatch(Pbrain *pb, char *line)
{
    char *s = line;
    while (isspace((unsigned char)*s))
        s++;
    if (!*s)
        return;
    char *args = s + strcspn(s, " \t");
    if (*args)
        *args++ = '\0';
    while (isspace((unsigned char)*args))
        args++;
    for (size_t i = 0; i < sizeof COMMANDS / sizeof *COMMANDS; i++) {
        const Command *c = &COMMANDS[i];
        if (strcasecmp(s, c->name) != 0)
            continue;
        if (!c->while_thinking)
            finish_search(pb, true);
        if (c->needs_start && !pb->started) {
            say(pb, "ERROR %s before START", c->name);
            PointBlock blk;
            if (c->reads_block && read_points(pb, c->name, &blk) < 0)
                pb->quit = true;
            return;
        }
        c->run(pb, args);
        return;
    }
    say(pb, "ERROR unknown command '%.60s'", s);
}

void pbrain_run(Pbrain *pb)
{
    char line[PB_LINE];
    while (!pb->quit && read_line(pb, line, sizeof line)) {
        pb->received_us = now_us();
        dispatch(pb, line);
    }
    finish_search(pb, false);
}
