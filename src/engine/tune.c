#include "tengen/tune.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spos.h"
#include "tengen/coord.h"
#include "tengen/forbid.h"
#include "tengen/rng.h"
#include "tengen/rules.h"
#include "tengen/strbuf.h"

/* ---- playing games ---- */

enum { RES_WHITE = 0, RES_DRAW = 1, RES_BLACK = 2 };

static bool legal_for(Board *b, Point p, Color c)
{
    if (!board_on(b, p) || b->cell[p] != EMPTY)
        return false;
    if (c == BLACK && b->rule == RULE_RENJU && forbid_is_forbidden(forbid_check(b, p)))
        return false;
    return !rules_is_win(b, p, c, NULL, NULL);
}

/* Legal stones at random cells within radius of the centre until b holds count. */
static void random_stones(Board *b, Rng *r, int radius, int count)
{
    int mid = TUNE_BOARD_SIZE / 2, span = 2 * radius + 1;
    while (b->count < count) {
        Point p = rng_point(r, mid - radius, span);
        Color col = board_side_to_move(b);
        if (legal_for(b, p, col))
            board_play(b, p, col);
    }
}

/* Legal stones within three lines of a cell drawn at least TUNE_EDGE_MIN lines
 * from the centre, until b holds count: the evaluation meets stones by the
 * edge in play but seldom in games opened near the centre. */
static void edge_stones(Board *b, Rng *r, int count)
{
    int mid = TUNE_BOARD_SIZE / 2, cx, cy;
    do {
        cx = rng_below(r, TUNE_BOARD_SIZE);
        cy = rng_below(r, TUNE_BOARD_SIZE);
    } while (abs(cx - mid) < TUNE_EDGE_MIN && abs(cy - mid) < TUNE_EDGE_MIN);
    while (b->count < count) {
        int x = cx - 3 + rng_below(r, 7), y = cy - 3 + rng_below(r, 7);
        if (x < 0 || y < 0 || x >= TUNE_BOARD_SIZE || y >= TUNE_BOARD_SIZE)
            continue;
        Point p = point_make(x, y);
        if (legal_for(b, p, board_side_to_move(b)))
            board_play(b, p, board_side_to_move(b));
    }
}

/* The random opening: h8 (the centre), then cells within three of it. */
static void play_opening(Board *b, Rng *r, int opening)
{
    int c = TUNE_BOARD_SIZE / 2;
    board_play(b, point_make(c, c), BLACK);
    random_stones(b, r, 3, opening);
}

/* A balanced opening: stones anywhere within TUNE_BALANCE_RADIUS of the
 * centre, redrawn until a search of 4 * c->nodes scores the position within
 * +-c->balance for the side to move. Self-play from random openings goes to
 * black nine times in ten, so most positions would tell the fit little. */
static bool balanced_opening(Board *b, Rng *r, Engine *e, const TuneGenConfig *c, TgError *err)
{
    SearchLimits lim;
    search_limits_init(&lim);
    lim.nodes = c->nodes * 4;
    for (int t = 0; t < TUNE_BALANCE_TRIES; t++) {
        board_init(b, TUNE_BOARD_SIZE, c->rule);
        if (c->edge)
            edge_stones(b, r, c->opening);
        else
            random_stones(b, r, TUNE_BALANCE_RADIUS, c->opening);
        Color mover = board_side_to_move(b);
        SearchResult res;
        engine_clear_hash(e);
        if (!engine_set_position(e, b, mover, err) || !engine_think(e, &lim, NULL, NULL, &res))
            return false;
        if (res.mate == 0 && res.score >= -c->balance && res.score <= c->balance)
            return true;
    }
    tg_error_set(err, 0, 0, "no opening within +-%d after %d draws", c->balance, TUNE_BALANCE_TRIES);
    return false;
}

/* A search result as a data score: the mover's view, forced results at the cap. */
static int data_score(const SearchResult *res)
{
    if (res->mate)
        return res->mate > 0 ? TUNE_SCORE_MAX : -TUNE_SCORE_MAX;
    return res->score > TUNE_SCORE_MAX ? TUNE_SCORE_MAX
           : res->score < -TUNE_SCORE_MAX ? -TUNE_SCORE_MAX
                                          : res->score;
}

/* Plays the game on from b's opening with eng[0] as black and eng[1] as white;
 * scores (NULL: not kept) gets each move's search score at its move index. */
static int play_out(Board *b, Engine *eng[2], uint64_t nodes, int *scores, TgError *err)
{
    SearchLimits lim;
    search_limits_init(&lim);
    lim.nodes = nodes;
    engine_clear_hash(eng[0]);
    engine_clear_hash(eng[1]);
    while (b->count < board_area(b)) {
        Color c = board_side_to_move(b);
        Engine *e = eng[c == BLACK ? 0 : 1];
        SearchResult res;
        if (!engine_set_position(e, b, c, err) || !engine_think(e, &lim, NULL, NULL, &res))
            return -1;
        if (res.best == POINT_NONE)
            return RES_DRAW;
        if (scores)
            scores[b->count] = data_score(&res);
        bool win = rules_is_win(b, res.best, c, NULL, NULL);
        board_play(b, res.best, c);
        if (win)
            return c == BLACK ? RES_BLACK : RES_WHITE;
    }
    return RES_DRAW;
}

static const char *RESULT_TEXT[3] = {"0-1", "1/2", "1-0"};

/* An engine with w[0] for black to move and w[1] for white (NULL: built in). */
static Engine *tune_engine(Rule r, const EvalWeights w[2], const TuneOrdering *ord, TgError *err)
{
    EngineOptions o;
    engine_options_default(&o);
    o.hash_mb = 8;
    Engine *e = engine_new(&o, err);
    bool ok = e != NULL;
    if (ok && w)
        ok = engine_set_weights(e, r, BLACK, &w[0], err) && engine_set_weights(e, r, WHITE, &w[1], err);
    if (ok && ord && (ord->classes || ord->table))
        ok = engine_set_order(e, r, EMPTY, ord->classes ? NULL : ord->table, err);
    if (!ok) {
        engine_free(e);
        return NULL;
    }
    return e;
}

static bool check_common(Rule r, int games, uint64_t nodes, int opening, TgError *err)
{
    if ((unsigned)r >= RULE_COUNT || games < 1 || nodes < 1 || opening < 1 ||
        opening > TUNE_MAX_OPENING) {
        tg_error_set(err, 0, 0, "bad tuning settings (games >= 1, nodes >= 1, opening 1..%d)",
                     TUNE_MAX_OPENING);
        return false;
    }
    return true;
}

char *tune_generate(const TuneGenConfig *c, const EvalWeights w[2], TgError *err)
{
    if (!check_common(c->rule, c->games, c->nodes, c->opening, err))
        return NULL;
    if (c->balance < 0) {
        tg_error_set(err, 0, 0, "bad balance margin %d (0: off)", c->balance);
        return NULL;
    }
    if (c->edge && !c->balance) {
        tg_error_set(err, 0, 0, "edge openings need a balance margin");
        return NULL;
    }
    Engine *e = tune_engine(c->rule, w, NULL, err);
    if (!e)
        return NULL;
    StrBuf out = {0};
    strbuf_addf(&out, "# tengen tune data %d\n# rule %s games %d seed %llu nodes %llu opening %d",
               c->scores ? 2 : 1, rule_name(c->rule), c->games, (unsigned long long)c->seed,
               (unsigned long long)c->nodes, c->opening);
    if (c->balance)
        strbuf_addf(&out, " balance %d", c->balance);
    if (c->edge)
        strbuf_addf(&out, " edge");
    strbuf_addf(&out, "\n");
    Engine *eng[2] = {e, e};
    for (int g = 0; g < c->games; g++) {
        Rng rng;
        rng_seed(&rng, c->seed * 1000003u + (uint64_t)g);
        Board b;
        board_init(&b, TUNE_BOARD_SIZE, c->rule);
        bool opened = true;
        if (c->balance)
            opened = balanced_opening(&b, &rng, e, c, err);
        else
            play_opening(&b, &rng, c->opening);
        int scores[BOARD_MAX_MOVES];
        int res = opened ? play_out(&b, eng, c->nodes, c->scores ? scores : NULL, err) : -1;
        if (res < 0) {
            engine_free(e);
            free(out.s);
            return NULL;
        }
        strbuf_addf(&out, "%s %d ", RESULT_TEXT[res], c->opening);
        for (int i = 0; i < b.count; i++) {
            char tok[8];
            strbuf_addf(&out, "%s%s", i ? "," : "", coord_format(b.history[i], b.size, tok));
        }
        for (int i = c->opening; c->scores && i < b.count; i++)
            strbuf_addf(&out, "%c%d", i == c->opening ? ' ' : ',', scores[i]);
        strbuf_addf(&out, "\n");
    }
    engine_free(e);
    return strbuf_finish(&out, err);
}

bool tune_match(Rule r, const EvalWeights a[2], const EvalWeights b[2], const TuneOrdering ord[2],
                int games, uint64_t seed, uint64_t nodes, int opening, const Board *openings,
                int nopenings, TuneMatch *out, TgError *err)
{
    memset(out, 0, sizeof *out);
    if (!check_common(r, games, nodes, opening, err))
        return false;
    for (int k = 0; k < nopenings; k++)
        if (openings[k].size != TUNE_BOARD_SIZE || openings[k].rule != r) {
            tg_error_set(err, 0, 0, "opening %d is not a %dx%d %s position", k + 1, TUNE_BOARD_SIZE,
                         TUNE_BOARD_SIZE, rule_name(r));
            return false;
        }
    Engine *ea = tune_engine(r, a, ord ? &ord[0] : NULL, err);
    Engine *eb = ea ? tune_engine(r, b, ord ? &ord[1] : NULL, err) : NULL;
    bool ok = ea && eb;
    for (int g = 0; ok && g < games; g++) {
        Rng rng;
        rng_seed(&rng, seed * 1000003u + (uint64_t)(g / 2));
        Board bd;
        if (nopenings > 0) {
            bd = openings[(g / 2) % nopenings];
        } else {
            board_init(&bd, TUNE_BOARD_SIZE, r);
            play_opening(&bd, &rng, opening);
        }
        bool a_black = g % 2 == 0;
        Engine *eng[2] = {a_black ? ea : eb, a_black ? eb : ea};
        int res = play_out(&bd, eng, nodes, NULL, err);
        if (res < 0)
            ok = false;
        else if (res == RES_DRAW)
            out->draws++;
        else if ((res == RES_BLACK) == a_black)
            out->wins++;
        else
            out->losses++;
    }
    engine_free(ea);
    engine_free(eb);
    return ok;
}

/* ---- data ---- */

#define NFEAT (PAT_COUNT + CL_COUNT)

typedef struct {
    uint16_t code, cells;
} TuneCombo;

typedef struct {
    int16_t f[2][NFEAT]; /* [0] side to move, [1] opponent: line counts, then class counts */
    uint16_t mask;       /* threat situation (spos_threat_mask) */
    uint16_t ncombo[2];  /* pattern codes present, for each side */
    int32_t combo;       /* ... their first entry in TuneData.combo */
    float result;        /* the fit's target for the side to move (tune_data_blend) */
    float game;          /* the game's result for the side to move: 1, 0.5, 0 */
    int16_t score;       /* the search score of the move played from here, if scored */
    bool scored;
    uint8_t mover;       /* Color to move */
} TunePos;

struct TuneData {
    Rule rule;
    bool smooth;      /* features summed over each position and the one before */
    int games;
    int n, cap;
    TunePos *pos;
    int ncombo, combo_cap;
    TuneCombo *combo; /* (code, cells) pairs of every position, side to move first */
    int nmoves, moves_cap;
    Point *moves;     /* every game's moves, one game after another */
    int *gstart;      /* [games + 1]: where each game's moves begin */
    uint8_t *gopen;   /* [games]: opening length */
    uint8_t *gres;    /* [games]: RES_BLACK, RES_WHITE or RES_DRAW */
};

int tune_data_games(const TuneData *d) { return d->games; }

void tune_data_free(TuneData *d)
{
    if (!d)
        return;
    free(d->pos);
    free(d->combo);
    free(d->moves);
    free(d->gstart);
    free(d->gopen);
    free(d->gres);
    free(d);
}

/* Positions where a side can make five, or the mover has a winning four, are
 * decided by tactics, not by the evaluation. */
static bool is_quiet(const SPos *s)
{
    int me = s->stm - 1;
    if (s->count[0][CL_FIVE] || s->count[1][CL_FIVE])
        return false;
    return !s->count[me][CL_F4] && !s->count[me][CL_44] && !s->count[me][CL_43];
}

bool tune_position_used(const Board *b)
{
    SPos *s = malloc(sizeof *s);
    if (!s)
        return true;
    EvalWeights w[2];
    engine_default_weights(b->rule, BLACK, &w[0]);
    engine_default_weights(b->rule, WHITE, &w[1]);
    spos_init(s, b, board_side_to_move(b), w);
    bool quiet = is_quiet(s);
    free(s);
    return quiet;
}

/* prev (NULL: none) is the position before s, whose features are added to
 * s's, each colour's to its own, for a smoothed evaluation. */
static bool add_position(TuneData *d, const SPos *s, const SPos *prev, int res, const int *score)
{
    if (d->n == d->cap) {
        int cap = d->cap ? d->cap * 2 : 1024;
        TunePos *p = realloc(d->pos, sizeof *p * (size_t)cap);
        if (!p)
            return false;
        d->pos = p;
        d->cap = cap;
    }
    TunePos *t = &d->pos[d->n++];
    t->mover = (uint8_t)s->stm;
    const SPos *from[2] = {s, prev};
    int nfrom = prev ? 2 : 1;
    memset(t->f, 0, sizeof t->f);
    for (int k = 0; k < 2; k++) {
        Color c = k == 0 ? s->stm : color_other(s->stm);
        for (int j = 0; j < nfrom; j++) {
            int line[PAT_COUNT], cls[CL_COUNT];
            spos_features(from[j], c, line, cls);
            for (int i = 0; i < PAT_COUNT; i++)
                t->f[k][i] = (int16_t)(t->f[k][i] + line[i]);
            for (int i = 0; i < CL_COUNT; i++)
                t->f[k][PAT_COUNT + i] = (int16_t)(t->f[k][PAT_COUNT + i] + cls[i]);
        }
    }
    t->mask = (uint16_t)spos_threat_mask(s);
    t->combo = d->ncombo;
    for (int k = 0; k < 2; k++) {
        int counts[ENGINE_PCODES] = {0}, used = 0;
        Color c = k == 0 ? s->stm : color_other(s->stm);
        for (int j = 0; j < nfrom; j++) {
            int more[ENGINE_PCODES];
            spos_pcode_counts(from[j], c, more);
            for (int code = 0; code < ENGINE_PCODES; code++)
                counts[code] += more[code];
        }
        for (int code = 0; code < ENGINE_PCODES; code++)
            used += counts[code] > 0;
        if (d->ncombo + used > d->combo_cap) {
            int cap = d->combo_cap ? d->combo_cap * 2 : 1 << 16;
            while (cap < d->ncombo + used)
                cap *= 2;
            TuneCombo *cb = realloc(d->combo, sizeof *cb * (size_t)cap);
            if (!cb)
                return false;
            d->combo = cb;
            d->combo_cap = cap;
        }
        for (int code = 0; code < ENGINE_PCODES; code++)
            if (counts[code])
                d->combo[d->ncombo++] = (TuneCombo){(uint16_t)code, (uint16_t)counts[code]};
        t->ncombo[k] = (uint16_t)used;
    }
    float black = res == RES_BLACK ? 1.0f : res == RES_DRAW ? 0.5f : 0.0f;
    t->game = s->stm == BLACK ? black : 1.0f - black;
    t->result = t->game;
    t->scored = score != NULL;
    t->score = (int16_t)(score ? *score : 0);
    return true;
}

/* Keeps the game's moves (for tune_data_game); games is not yet counted. */
static bool keep_moves(TuneData *d, const Board *end, int opening, int res)
{
    if (d->nmoves + end->count > d->moves_cap) {
        int cap = d->moves_cap ? d->moves_cap * 2 : 1 << 14;
        while (cap < d->nmoves + end->count)
            cap *= 2;
        Point *m = realloc(d->moves, sizeof *m * (size_t)cap);
        if (!m)
            return false;
        d->moves = m;
        d->moves_cap = cap;
    }
    if ((d->games & (d->games - 1)) == 0 || !d->gstart) {
        size_t cap = d->games ? (size_t)d->games * 2 : 1;
        int *gs = realloc(d->gstart, sizeof *gs * (cap + 1));
        if (gs)
            d->gstart = gs;
        uint8_t *go = gs ? realloc(d->gopen, cap) : NULL;
        if (go)
            d->gopen = go;
        uint8_t *gr = go ? realloc(d->gres, cap) : NULL;
        if (!gr)
            return false;
        d->gres = gr;
    }
    d->gstart[d->games] = d->nmoves;
    d->gopen[d->games] = (uint8_t)opening;
    d->gres[d->games] = (uint8_t)res;
    memcpy(d->moves + d->nmoves, end->history, sizeof *d->moves * (size_t)end->count);
    d->nmoves += end->count;
    d->gstart[d->games + 1] = d->nmoves;
    return true;
}

bool tune_data_game(const TuneData *d, int g, Board *b, int *opening)
{
    if (g < 0 || g >= d->games)
        return false;
    board_init(b, TUNE_BOARD_SIZE, d->rule);
    for (int i = d->gstart[g]; i < d->gstart[g + 1]; i++)
        board_play(b, d->moves[i], board_side_to_move(b));
    *opening = d->gopen[g];
    return true;
}

/* Takes the quiet positions of one finished game; scores (NULL: none) holds
 * the search score of each move from the opening on. s and s2 are work
 * space; with d->smooth each position is taken with the one before it. */
static bool add_game(TuneData *d, SPos *s, SPos *s2, const Board *end, int opening, int res,
                     const int *scores, const EvalWeights w[2])
{
    Board b;
    board_init(&b, end->size, end->rule);
    SPos *cur = s, *prev = s2;
    if (d->smooth && opening <= 1)
        spos_init(prev, &b, BLACK, w); /* the first position's predecessor is the empty board */
    for (int i = 0; i < end->count - 1; i++) {
        board_play(&b, end->history[i], i % 2 ? WHITE : BLACK);
        if (i + 1 < opening - (d->smooth ? 1 : 0))
            continue;
        spos_init(cur, &b, board_side_to_move(&b), w);
        /* The position before the opening's end only serves as a predecessor. */
        if (i + 1 >= opening && is_quiet(cur) &&
            !add_position(d, cur, d->smooth ? prev : NULL, res,
                          scores ? &scores[i + 1 - opening] : NULL))
            return false;
        SPos *t = cur;
        cur = prev;
        prev = t;
    }
    return true;
}

static int token_len(const char *p)
{
    int n = 0;
    while (p[n] && !isspace((unsigned char)p[n]))
        n++;
    return n;
}

/* p past spaces, tabs and carriage returns. */
static const char *skip_blank(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\r')
        p++;
    return p;
}

/* True when only blanks are left on the line; otherwise an error at the token. */
static bool expect_line_end(const char *p, const char *line0, int lineno, TgError *err)
{
    p = skip_blank(p);
    if (!*p || *p == '\n')
        return true;
    tg_error_set(err, lineno, (int)(p - line0) + 1, "unexpected '%.*s'",
                 token_len(p) > 20 ? 20 : token_len(p), p);
    return false;
}

/* The optional scores field at *p: signed integers within +-TUNE_SCORE_MAX,
 * comma-separated; advances *p past it. */
static bool parse_scores(const char **pp, int lineno, const char *line0, int *scores, int *n,
                         TgError *err)
{
    const char *p = *pp;
    *n = 0;
    bool more = *p && !isspace((unsigned char)*p);
    while (more) {
        int col = (int)(p - line0) + 1, m = 0;
        while (p[m] && p[m] != ',' && !isspace((unsigned char)p[m]))
            m++;
        char tok[16];
        snprintf(tok, sizeof tok, "%.*s", m > 15 ? 15 : m, p);
        char *end = NULL;
        long v = m && m <= 15 ? strtol(tok, &end, 10) : 0;
        if (!m || m > 15 || *end || v < -TUNE_SCORE_MAX || v > TUNE_SCORE_MAX) {
            tg_error_set(err, lineno, col, "bad score '%s' (an integer within +-%d)", tok,
                         TUNE_SCORE_MAX);
            return false;
        }
        if (*n == BOARD_MAX_MOVES) {
            tg_error_set(err, lineno, col, "more scores than moves");
            return false;
        }
        scores[(*n)++] = (int)v;
        p += m;
        more = *p == ',';
        p += more;
    }
    *pp = p;
    return true;
}

static bool parse_line(const char *p, int lineno, const char *line0, Board *b, int *opening,
                       int *res, int *scores, int *nscores, TgError *err)
{
    int n = token_len(p);
    int col = (int)(p - line0) + 1;
    int r = -1;
    for (int i = 0; i < 3; i++)
        if ((int)strlen(RESULT_TEXT[i]) == n && !strncmp(p, RESULT_TEXT[i], (size_t)n))
            r = i;
    if (r < 0) {
        tg_error_set(err, lineno, col, "bad result '%.*s' (1-0, 0-1 or 1/2)", n > 20 ? 20 : n, p);
        return false;
    }
    *res = r;
    p += n;
    while (*p == ' ' || *p == '\t')
        p++;
    col = (int)(p - line0) + 1;
    n = token_len(p);
    char num[16];
    char *end = NULL;
    snprintf(num, sizeof num, "%.*s", n > 15 ? 15 : n, p);
    long op = n ? strtol(num, &end, 10) : -1;
    if (!n || n > 15 || *end || op < 1 || op > TUNE_MAX_OPENING) {
        tg_error_set(err, lineno, col, "bad opening length '%.*s' (1..%d)", n > 20 ? 20 : n, p,
                     TUNE_MAX_OPENING);
        return false;
    }
    *opening = (int)op;
    p += n;
    while (*p == ' ' || *p == '\t')
        p++;
    while (*p && !isspace((unsigned char)*p)) {
        col = (int)(p - line0) + 1;
        int m = 0;
        while (p[m] && p[m] != ',' && !isspace((unsigned char)p[m]))
            m++;
        char tok[16];
        snprintf(tok, sizeof tok, "%.*s", m > 15 ? 15 : m, p);
        Point pt;
        TgError e2;
        Color c = board_side_to_move(b);
        if (m == 0 || m > 15 || !coord_parse(tok, b->size, &pt, &e2) || b->cell[pt] != EMPTY) {
            tg_error_set(err, lineno, col, "bad move '%s'", tok);
            return false;
        }
        if (rules_has_win(b, BLACK) || rules_has_win(b, WHITE)) {
            tg_error_set(err, lineno, col, "move '%s' after the game was won", tok);
            return false;
        }
        board_play(b, pt, c);
        p += m;
        if (*p == ',')
            p++;
    }
    p = skip_blank(p);
    const char *field = p;
    if (!parse_scores(&p, lineno, line0, scores, nscores, err) ||
        !expect_line_end(p, line0, lineno, err))
        return false;
    if (b->count < *opening + 1) {
        tg_error_set(err, lineno, 1, "game has %d moves, fewer than its opening %d + 1", b->count,
                     *opening);
        return false;
    }
    if (*nscores && *nscores != b->count - *opening) {
        tg_error_set(err, lineno, (int)(field - line0) + 1,
                     "%d scores for the %d moves after the opening", *nscores, b->count - *opening);
        return false;
    }
    return true;
}

TuneData *tune_data_parse(const char *text, Rule r, bool smooth, TgError *err)
{
    TuneData *d = calloc(1, sizeof *d);
    SPos *s = malloc(2 * sizeof *s);
    int *scores = malloc(sizeof *scores * BOARD_MAX_MOVES);
    EvalWeights w[2];
    engine_default_weights(r, BLACK, &w[0]);
    engine_default_weights(r, WHITE, &w[1]);
    bool ok = d && s && scores;
    if (!ok)
        tg_error_set(err, 0, 0, "out of memory");
    if (ok) {
        d->rule = r;
        d->smooth = smooth;
    }
    int lineno = 0;
    for (const char *line = text; ok && *line;) {
        lineno++;
        const char *nl = strchr(line, '\n');
        const char *p = skip_blank(line);
        if (*p && *p != '#' && *p != '\n') {
            Board b;
            board_init(&b, TUNE_BOARD_SIZE, r);
            int opening, res, nscores;
            ok = parse_line(p, lineno, line, &b, &opening, &res, scores, &nscores, err);
            if (ok && (!keep_moves(d, &b, opening, res) ||
                       !add_game(d, s, s + 1, &b, opening, res, nscores ? scores : NULL, w))) {
                tg_error_set(err, 0, 0, "out of memory");
                ok = false;
            }
            if (ok)
                d->games++;
        }
        line = nl ? nl + 1 : line + strlen(line);
    }
    free(s);
    free(scores);
    if (!ok) {
        tune_data_free(d);
        return NULL;
    }
    return d;
}

/* ---- fitting ---- */

/* What the cell totals are divided by: smoothed data sums two positions. */
static int cells_divisor(const TuneData *d) { return d->smooth ? 32 : 16; }

/* The evaluation without the threat term. */
static int eval_cells(const TuneData *d, int i, const EvalWeights *w)
{
    const TunePos *t = &d->pos[i];
    const TuneCombo *c = &d->combo[t->combo];
    int sum[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
        const int *line = k ? w->line_opp : w->line, *cls = k ? w->cls_opp : w->cls;
        for (int j = 0; j < PAT_COUNT; j++)
            sum[k] += t->f[k][j] * line[j];
        for (int j = 0; j < CL_COUNT; j++)
            sum[k] += t->f[k][PAT_COUNT + j] * cls[j];
        for (int j = 0; j < t->ncombo[k]; j++, c++)
            sum[k] += c->cells * w->combo[k][c->code];
    }
    return (sum[0] * w->own - sum[1] * w->opp) / cells_divisor(d);
}

static int eval_pos(const TuneData *d, int i, const EvalWeights *w)
{
    return eval_cells(d, i, w) + w->threat[d->pos[i].mask];
}

int tune_data_positions(const TuneData *d) { return d->n; }

const char *tune_data_result(const TuneData *d, int g)
{
    return g < 0 || g >= d->games ? NULL : RESULT_TEXT[d->gres[g]];
}

int tune_data_keep_mover(TuneData *d, Color c)
{
    int n = 0;
    for (int i = 0; i < d->n; i++)
        if (d->pos[i].mover == c)
            d->pos[n++] = d->pos[i];
    d->n = n;
    return n;
}

int tune_data_eval(const TuneData *d, int i, const EvalWeights *w) { return eval_pos(d, i, w); }

static double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

int tune_data_blend(TuneData *d, double lambda, double score_k)
{
    int n = 0;
    for (int i = 0; i < d->n; i++) {
        TunePos *t = &d->pos[i];
        t->result = t->game;
        if (!t->scored)
            continue;
        t->result = (float)(lambda * t->game + (1 - lambda) * sigmoid(t->score / score_k));
        n++;
    }
    return n;
}

double tune_error(const TuneData *d, const EvalWeights *w, double k)
{
    if (!d->n)
        return -1;
    double e = 0;
    for (int i = 0; i < d->n; i++) {
        double q = 1.0 / (1.0 + exp(-eval_pos(d, i, w) / k));
        e += (d->pos[i].result - q) * (d->pos[i].result - q);
    }
    return e / d->n;
}

/* Golden-section search for the K that fits w best, on log K in [1, 10000]. */
/* The k in 1..10000 that minimises f(ctx, k), by golden-section search on ln k. */
static double golden_scale(double (*f)(const void *, double), const void *ctx)
{
    const double g = 0.6180339887498949;
    double a = 0, b = log(10000.0);
    double x1 = b - g * (b - a), x2 = a + g * (b - a);
    double f1 = f(ctx, exp(x1)), f2 = f(ctx, exp(x2));
    for (int i = 0; i < 60; i++) {
        if (f1 < f2) {
            b = x2;
            x2 = x1;
            f2 = f1;
            x1 = b - g * (b - a);
            f1 = f(ctx, exp(x1));
        } else {
            a = x1;
            x1 = x2;
            f1 = f2;
            x2 = a + g * (b - a);
            f2 = f(ctx, exp(x2));
        }
    }
    return exp((a + b) / 2);
}

typedef struct {
    const TuneData *d;
    const EvalWeights *w;
} ScaleCtx;

static double eval_error_at(const void *ctx, double k)
{
    const ScaleCtx *c = ctx;
    return tune_error(c->d, c->w, k);
}

double tune_fit_scale(const TuneData *d, const EvalWeights *w)
{
    ScaleCtx c = {d, w};
    return golden_scale(eval_error_at, &c);
}

/* Mean (game result - sigmoid(score / k))^2 over the scored positions whose
 * score is not a forced result; -1 when there is none. */
static double score_error_at(const void *ctx, double k)
{
    const TuneData *d = ctx;
    double e = 0;
    int n = 0;
    for (int i = 0; i < d->n; i++) {
        const TunePos *t = &d->pos[i];
        if (!t->scored || t->score >= TUNE_SCORE_MAX || t->score <= -TUNE_SCORE_MAX)
            continue;
        double q = t->game - sigmoid(t->score / k);
        e += q * q;
        n++;
    }
    return n ? e / n : -1;
}

double tune_fit_score_scale(const TuneData *d)
{
    if (score_error_at(d, 1) < 0)
        return -1;
    return golden_scale(score_error_at, d);
}

double tune_score_error(const TuneData *d, double k) { return score_error_at(d, k); }

/* The tuned parameters: line and class weights that can matter in a quiet
 * position, for the mover and for the opponent, and `own` (opp stays the
 * scale's anchor). */
static int *param_ref(EvalWeights *w, int i)
{
    static const int LINES[] = {PAT_B1, PAT_F1, PAT_B2, PAT_F2, PAT_B3, PAT_F3, PAT_B4, PAT_F4};
    static const int CLASSES[] = {CL_THREE, CL_B4, CL_33, CL_43, CL_44, CL_F4};
    int nl = (int)(sizeof LINES / sizeof *LINES), nc = (int)(sizeof CLASSES / sizeof *CLASSES);
    int side = nl + nc;
    if (i >= 2 * side)
        return i == 2 * side ? &w->own : NULL;
    int *line = i < side ? w->line : w->line_opp, *cls = i < side ? w->cls : w->cls_opp;
    i %= side;
    return i < nl ? &line[LINES[i]] : &cls[CLASSES[i - nl]];
}

/* Threat weights: a situation seen in fewer positions keeps its weight, and
 * each is pulled towards 0 as if THREAT_PRIOR more of its positions had been
 * drawn with an even evaluation. */
#define THREAT_MIN_POSITIONS 30
#define THREAT_PRIOR 4.0

/* Positions sorted by threat situation: first[m]..first[m + 1] index pos. */
typedef struct {
    int first[ENGINE_THREAT_MASKS + 1];
    int *pos;
    double *base; /* eval_cells of each position, refreshed each pass */
} ThreatGroups;

/* The colour to move is the top bit of a threat mask: masks from here on are
 * white's. */
#define WHITE_MASKS (ENGINE_THREAT_MASKS / 2)

/* The threat weight a position reads; with tied colours, the black half. */
static int group_of(const TuneData *d, int i, bool tie)
{
    return tie ? d->pos[i].mask & (WHITE_MASKS - 1) : d->pos[i].mask;
}

static bool groups_build(const TuneData *d, ThreatGroups *g, bool tie)
{
    g->pos = malloc(sizeof *g->pos * (size_t)d->n);
    g->base = malloc(sizeof *g->base * (size_t)d->n);
    if (!g->pos || !g->base) {
        free(g->pos);
        free(g->base);
        return false;
    }
    int fill[ENGINE_THREAT_MASKS + 1] = {0};
    for (int i = 0; i < d->n; i++)
        fill[group_of(d, i, tie) + 1]++;
    for (int m = 0; m < ENGINE_THREAT_MASKS; m++)
        fill[m + 1] += fill[m];
    memcpy(g->first, fill, sizeof g->first);
    for (int i = 0; i < d->n; i++)
        g->pos[fill[group_of(d, i, tie)]++] = i;
    return true;
}

/* One situation's error with threat weight t, prior included. */
static double group_error(const TuneData *d, const ThreatGroups *g, int m, double t, double k)
{
    double q = sigmoid(t / k) - 0.5, e = THREAT_PRIOR * q * q;
    for (int j = g->first[m]; j < g->first[m + 1]; j++) {
        int i = g->pos[j];
        double r = d->pos[i].result - sigmoid((g->base[i] + t) / k);
        e += r * r;
    }
    return e;
}

/* Sets each well-sampled threat weight to its best value given the cell
 * weights (golden-section search; the error is unimodal in practice).
 * True when a weight changed. */
static bool fit_threats(const TuneData *d, ThreatGroups *g, EvalWeights *w, double k, bool tie)
{
    const double gr = 0.6180339887498949;
    bool moved = false;
    for (int i = 0; i < d->n; i++)
        g->base[i] = eval_cells(d, i, w);
    for (int m = 0; m < ENGINE_THREAT_MASKS; m++) {
        if (g->first[m + 1] - g->first[m] < THREAT_MIN_POSITIONS)
            continue;
        double a = -ENGINE_WEIGHT_MAX, b = ENGINE_WEIGHT_MAX;
        double x1 = b - gr * (b - a), x2 = a + gr * (b - a);
        double f1 = group_error(d, g, m, x1, k), f2 = group_error(d, g, m, x2, k);
        while (b - a > 1) {
            if (f1 < f2) {
                b = x2;
                x2 = x1;
                f2 = f1;
                x1 = b - gr * (b - a);
                f1 = group_error(d, g, m, x1, k);
            } else {
                a = x1;
                x1 = x2;
                f1 = f2;
                x2 = a + gr * (b - a);
                f2 = group_error(d, g, m, x2, k);
            }
        }
        int t = (int)lround((a + b) / 2);
        if (t != w->threat[m] && group_error(d, g, m, t, k) < group_error(d, g, m, w->threat[m], k)) {
            w->threat[m] = t;
            moved = true;
        }
    }
    if (tie)
        memcpy(&w->threat[WHITE_MASKS], w->threat, WHITE_MASKS * sizeof w->threat[0]);
    return moved;
}

/* Combination weights: gradient descent (Adam) on a real-valued shadow of
 * the codes seen in at least COMBO_MIN_POSITIONS positions, with an L2 pull
 * towards 0; COMBO_EPOCHS steps a pass. */
#define COMBO_MIN_POSITIONS 50
#define COMBO_EPOCHS 10
#define COMBO_RATE 2.0

typedef struct {
    double v[2][ENGINE_PCODES], m[2][ENGINE_PCODES], s[2][ENGINE_PCODES], g[2][ENGINE_PCODES];
    bool tuned[2][ENGINE_PCODES];
    double anchor[2][ENGINE_PCODES]; /* where the pull goes: 0 or the start */
    int steps;
    double l2;
} ComboFit;

static void combo_init(ComboFit *cf, const TuneData *d, const EvalWeights *w, const TuneFitOptions *opt)
{
    memset(cf, 0, sizeof *cf);
    cf->l2 = opt->combo_l2;
    double (*seen)[ENGINE_PCODES] = cf->g; /* positions each code is in */
    for (int i = 0; i < d->n; i++) {
        const TuneCombo *c = &d->combo[d->pos[i].combo];
        for (int k = 0; k < 2; k++)
            for (int j = 0; j < d->pos[i].ncombo[k]; j++, c++)
                seen[k][c->code]++;
    }
    for (int k = 0; k < 2; k++)
        for (int j = 0; j < ENGINE_PCODES; j++) {
            cf->tuned[k][j] = opt->combos && seen[k][j] >= COMBO_MIN_POSITIONS;
            cf->v[k][j] = w->combo[k][j];
            cf->anchor[k][j] = opt->combo_anchor ? w->combo[k][j] : 0;
        }
}

/* COMBO_EPOCHS full-batch steps; true when a weight changed. */
static bool fit_combos(const TuneData *d, ComboFit *cf, EvalWeights *w, double k)
{
    bool moved = false;
    for (int epoch = 0; epoch < COMBO_EPOCHS; epoch++) {
        memset(cf->g, 0, sizeof cf->g);
        for (int i = 0; i < d->n; i++) {
            double q = sigmoid(eval_pos(d, i, w) / k);
            double g = 2 * (q - d->pos[i].result) * q * (1 - q) / k / d->n / cells_divisor(d);
            const TuneCombo *c = &d->combo[d->pos[i].combo];
            for (int side = 0; side < 2; side++) {
                double gs = side ? -g * w->opp : g * w->own;
                for (int j = 0; j < d->pos[i].ncombo[side]; j++, c++)
                    cf->g[side][c->code] += gs * c->cells;
            }
        }
        cf->steps++;
        double b1 = 0.9, b2 = 0.999;
        double c1 = 1 - pow(b1, cf->steps), c2 = 1 - pow(b2, cf->steps);
        for (int side = 0; side < 2; side++)
            for (int j = 0; j < ENGINE_PCODES; j++) {
                if (!cf->tuned[side][j])
                    continue;
                double g = cf->g[side][j] + 2 * cf->l2 * (cf->v[side][j] - cf->anchor[side][j]);
                cf->m[side][j] = b1 * cf->m[side][j] + (1 - b1) * g;
                cf->s[side][j] = b2 * cf->s[side][j] + (1 - b2) * g * g;
                cf->v[side][j] -= COMBO_RATE * (cf->m[side][j] / c1) / (sqrt(cf->s[side][j] / c2) + 1e-12);
                if (cf->v[side][j] > ENGINE_WEIGHT_MAX)
                    cf->v[side][j] = ENGINE_WEIGHT_MAX;
                if (cf->v[side][j] < -ENGINE_WEIGHT_MAX)
                    cf->v[side][j] = -ENGINE_WEIGHT_MAX;
                int nv = (int)lround(cf->v[side][j]);
                moved |= nv != w->combo[side][j];
                w->combo[side][j] = nv;
            }
    }
    return moved;
}

bool tune_fit(const TuneData *d, const EvalWeights *start, const TuneFitOptions *opt, TuneFit *out,
              TgError *err)
{
    int iterations = opt->iterations;
    memset(out, 0, sizeof *out);
    out->positions = d->n;
    if (!d->n) {
        tg_error_set(err, 0, 0, "no quiet position in the data");
        return false;
    }
    if (!engine_weights_check(start, err))
        return false;
    EvalWeights w = *start;
    w.smooth = d->smooth;
    if (opt->tie_colours)
        for (int m = 0; m < WHITE_MASKS; m++)
            w.threat[m] = w.threat[m + WHITE_MASKS] = (w.threat[m] + w.threat[m + WHITE_MASKS]) / 2;
    double k = opt->k > 0 ? opt->k : tune_fit_scale(d, &w);
    double best = tune_error(d, &w, k);
    out->k = k;
    out->err_before = best;
    int step[32];
    int np = 0;
    while (param_ref(&w, np))
        np++;
    for (int i = 0; i < np; i++)
        step[i] = *param_ref(&w, i) / 8 > 1 ? *param_ref(&w, i) / 8 : 1;
    ThreatGroups g;
    if (!groups_build(d, &g, opt->tie_colours)) {
        tg_error_set(err, 0, 0, "out of memory");
        return false;
    }
    ComboFit *cf = malloc(sizeof *cf);
    if (!cf) {
        free(g.pos);
        free(g.base);
        tg_error_set(err, 0, 0, "out of memory");
        return false;
    }
    combo_init(cf, d, &w, opt);
    for (int pass = 0; pass < iterations; pass++) {
        bool moved = fit_threats(d, &g, &w, k, opt->tie_colours), fine = true;
        if (opt->combos)
            moved |= fit_combos(d, cf, &w, k);
        if (moved)
            best = tune_error(d, &w, k);
        for (int i = 0; i < np; i++) {
            int *v = param_ref(&w, i), old = *v;
            int hi = i == np - 1 ? ENGINE_SCALE_MAX : ENGINE_WEIGHT_MAX, lo = i == np - 1 ? 1 : 0;
            bool improved = false;
            for (int sgn = 1; sgn >= -1 && !improved; sgn -= 2) {
                int nv = old + sgn * step[i];
                if (nv < lo || nv > hi)
                    continue;
                *v = nv;
                double e = tune_error(d, &w, k);
                if (e < best) {
                    best = e;
                    improved = true;
                } else {
                    *v = old;
                }
            }
            if (improved)
                moved = true;
            else if (step[i] > 1)
                step[i] /= 2;
            fine &= step[i] == 1;
        }
        out->passes = pass + 1;
        if (!moved && fine)
            break;
    }
    free(cf);
    free(g.pos);
    free(g.base);
    out->err_after = tune_error(d, &w, k);
    out->w = w;
    return true;
}

/* ---- weights text ---- */

/* The evaluation patterns' names (line weights use the first PAT_COUNT). */
static const char *PAT_NAMES[ENGINE_EPATS] = {"DEAD", "B1", "F1", "B2", "F2", "B3", "F3",
                                              "B4",   "F4", "F5", "OL", "F2A", "F2B", "F3S"};
static const char *CL_NAMES[CL_COUNT] = {"NONE", "THREE", "B4", "33", "43", "44", "F4", "FIVE"};

static const char *RULE_ENUM[RULE_COUNT] = {"RULE_FREESTYLE", "RULE_STANDARD", "RULE_RENJU",
                                            "RULE_CARO"};

char *tune_weights_c(const EvalWeights *w, Rule r)
{
    StrBuf b = {0};
    strbuf_addf(&b, "    [%s] = {\n        .line = {", RULE_ENUM[r]);
    for (int i = 0; i < PAT_COUNT; i++)
        strbuf_addf(&b, "%s[PAT_%s] = %d", i ? ", " : "", PAT_NAMES[i], w->line[i]);
    strbuf_addf(&b, "},\n        .cls = {");
    for (int i = 0; i < CL_COUNT; i++)
        strbuf_addf(&b, "%s[CL_%s] = %d", i ? ", " : "", CL_NAMES[i], w->cls[i]);
    strbuf_addf(&b, "},\n        .line_opp = {");
    for (int i = 0; i < PAT_COUNT; i++)
        strbuf_addf(&b, "%s[PAT_%s] = %d", i ? ", " : "", PAT_NAMES[i], w->line_opp[i]);
    strbuf_addf(&b, "},\n        .cls_opp = {");
    for (int i = 0; i < CL_COUNT; i++)
        strbuf_addf(&b, "%s[CL_%s] = %d", i ? ", " : "", CL_NAMES[i], w->cls_opp[i]);
    strbuf_addf(&b, "},\n        .own = %d,\n        .opp = %d,\n", w->own, w->opp);
    if (w->smooth)
        strbuf_addf(&b, "        .smooth = 1,\n");
    int shown = 0;
    for (int m = 0; m < ENGINE_THREAT_MASKS; m++) {
        if (!w->threat[m])
            continue;
        strbuf_addf(&b, "%s[%d] = %d", !shown ? "        .threat = {" : shown % 8 ? ", " : ",\n                    ",
                   m, w->threat[m]);
        shown++;
    }
    if (shown)
        strbuf_addf(&b, "},\n");
    for (int k = 0; k < 2; k++) {
        shown = 0;
        for (int code = 0; code < ENGINE_PCODES; code++) {
            if (!w->combo[k][code])
                continue;
            strbuf_addf(&b, "%s[%d] = %d", !shown ? (k ? "        .combo[1] = {" : "        .combo[0] = {")
                                          : shown % 8 ? ", " : ",\n                      ",
                       code, w->combo[k][code]);
            shown++;
        }
        if (shown)
            strbuf_addf(&b, "},\n");
    }
    strbuf_addf(&b, "    },\n");
    return strbuf_finish(&b, NULL);
}

char *tune_weights_write(const EvalWeights *w)
{
    StrBuf b = {0};
    strbuf_addf(&b, "# tengen weights 1\nline");
    for (int i = 0; i < PAT_COUNT; i++)
        strbuf_addf(&b, " %d", w->line[i]);
    strbuf_addf(&b, "\nclass");
    for (int i = 0; i < CL_COUNT; i++)
        strbuf_addf(&b, " %d", w->cls[i]);
    strbuf_addf(&b, "\nline_opp");
    for (int i = 0; i < PAT_COUNT; i++)
        strbuf_addf(&b, " %d", w->line_opp[i]);
    strbuf_addf(&b, "\nclass_opp");
    for (int i = 0; i < CL_COUNT; i++)
        strbuf_addf(&b, " %d", w->cls_opp[i]);
    strbuf_addf(&b, "\nown %d\nopp %d\n", w->own, w->opp);
    if (w->smooth)
        strbuf_addf(&b, "smooth 1\n");
    for (int m = 0; m < ENGINE_THREAT_MASKS; m++)
        if (w->threat[m])
            strbuf_addf(&b, "threat %d %d\n", m, w->threat[m]);
    for (int k = 0; k < 2; k++)
        for (int code = 0; code < ENGINE_PCODES; code++) {
            if (!w->combo[k][code])
                continue;
            int pat[4];
            engine_pcode_patterns(code, pat);
            strbuf_addf(&b, "combo %s %s %s %s %s %d\n", k ? "opp" : "own", PAT_NAMES[pat[0]], PAT_NAMES[pat[1]],
                       PAT_NAMES[pat[2]], PAT_NAMES[pat[3]], w->combo[k][code]);
        }
    return strbuf_finish(&b, NULL);
}

/* Reads one integer in lo..hi at *p (after blanks) and moves *p past it; the
 * errors call it `what` ("missing weight 2 of 11", "bad weight 'x' (0..9)"),
 * with `missing` the text for an absent number. */
static bool read_number(const char **p, const char *line0, int lineno, long lo, long hi,
                        const char *what, const char *missing, long *out, TgError *err)
{
    while (**p == ' ' || **p == '\t')
        (*p)++;
    int n = token_len(*p);
    char num[16], *end = NULL;
    snprintf(num, sizeof num, "%.*s", n > 15 ? 15 : n, *p);
    if (!n) {
        tg_error_set(err, lineno, (int)(*p - line0) + 1, "missing %s", missing);
        return false;
    }
    *out = strtol(num, &end, 10);
    if (n > 15 || *end || *out < lo || *out > hi) {
        tg_error_set(err, lineno, (int)(*p - line0) + 1, "bad %s '%.*s' (%ld..%ld)", what, n > 20 ? 20 : n,
                     *p, lo, hi);
        return false;
    }
    *p += n;
    return true;
}

/* Reads `want` integers after the keyword on one line. */
static bool read_ints(const char *p, const char *line0, int lineno, int *out, int want,
                      TgError *err)
{
    for (int i = 0; i < want; i++) {
        char missing[48];
        snprintf(missing, sizeof missing, "weight %d of %d", i + 1, want);
        long v;
        if (!read_number(&p, line0, lineno, 0, ENGINE_WEIGHT_MAX, "weight", missing, &v, err))
            return false;
        out[i] = (int)v;
    }
    return expect_line_end(p, line0, lineno, err);
}

/* "threat MASK VALUE": one threat weight, each mask at most once. */
static bool read_threat(const char *p, const char *line0, int lineno, EvalWeights *w, bool *given,
                        TgError *err)
{
    long m, v;
    const char *mask_at = p + strspn(p, " \t");
    if (!read_number(&p, line0, lineno, 0, ENGINE_THREAT_MASKS - 1, "threat mask", "threat mask", &m, err))
        return false;
    if (given[m]) {
        tg_error_set(err, lineno, (int)(mask_at - line0) + 1, "threat mask %ld given twice", m);
        return false;
    }
    if (!read_number(&p, line0, lineno, -ENGINE_WEIGHT_MAX, ENGINE_WEIGHT_MAX, "threat weight", "threat weight",
                     &v, err) ||
        !expect_line_end(p, line0, lineno, err))
        return false;
    given[m] = true;
    w->threat[m] = (int)v;
    return true;
}

static bool parse_weights_lines(const char *text, EvalWeights *w, bool *seen, bool *given,
                                bool (*cgiven)[ENGINE_PCODES], TgError *err);

/* Reads four pattern names (any order) at *p and gives their code; with
 * `forbid` the word FORBID instead stands for ENGINE_PCODES. */
static bool read_code(const char **p, const char *line0, int lineno, bool forbid, int *code,
                      TgError *err)
{
    int pat[4];
    for (int i = 0; i < 4; i++) {
        while (**p == ' ' || **p == '\t')
            (*p)++;
        int n = token_len(*p);
        int col = (int)(*p - line0) + 1;
        if (!n) {
            tg_error_set(err, lineno, col, "missing pattern %d of 4", i + 1);
            return false;
        }
        if (forbid && i == 0 && n == 6 && !strncmp(*p, "FORBID", 6)) {
            *p += n;
            *code = ENGINE_PCODES;
            return true;
        }
        pat[i] = -1;
        for (int k = 0; k < ENGINE_EPATS; k++)
            if ((int)strlen(PAT_NAMES[k]) == n && !strncmp(*p, PAT_NAMES[k], (size_t)n))
                pat[i] = k;
        if (pat[i] < 0) {
            tg_error_set(err, lineno, col,
                         "bad pattern '%.*s' (DEAD B1 F1 B2 F2 F2A F2B B3 F3 F3S B4 F4 F5 OL%s)",
                         n > 20 ? 20 : n, *p, forbid ? ", or FORBID" : "");
            return false;
        }
        *p += n;
    }
    *code = engine_pcode(pat[0], pat[1], pat[2], pat[3]);
    return true;
}

/* "combo own|opp P P P P VALUE": one combination weight (patterns by name,
 * in any order), each at most once. */
static bool read_combo(const char *p, const char *line0, int lineno, EvalWeights *w,
                       bool given[2][ENGINE_PCODES], TgError *err)
{
    while (*p == ' ' || *p == '\t')
        p++;
    int n = token_len(p);
    int side = n == 3 && !strncmp(p, "own", 3) ? 0 : n == 3 && !strncmp(p, "opp", 3) ? 1 : -1;
    if (side < 0) {
        tg_error_set(err, lineno, (int)(p - line0) + 1,
                     n ? "bad side '%.*s' (own or opp)" : "missing side (own or opp)", n > 20 ? 20 : n, p);
        return false;
    }
    p += n;
    int code;
    if (!read_code(&p, line0, lineno, false, &code, err))
        return false;
    const char *value_at = p + strspn(p, " \t");
    long v;
    if (!read_number(&p, line0, lineno, -ENGINE_WEIGHT_MAX, ENGINE_WEIGHT_MAX, "combination weight",
                     "combination weight", &v, err))
        return false;
    if (given[side][code]) {
        tg_error_set(err, lineno, (int)(value_at - line0) + 1, "combination given twice");
        return false;
    }
    if (!expect_line_end(p, line0, lineno, err))
        return false;
    given[side][code] = true;
    w->combo[side][code] = (int)v;
    return true;
}

bool tune_weights_parse(const char *text, EvalWeights *w, TgError *err)
{
    bool seen[8] = {false}, given[ENGINE_THREAT_MASKS] = {false};
    bool (*cgiven)[ENGINE_PCODES] = calloc(2, sizeof *cgiven);
    if (!cgiven) {
        tg_error_set(err, 0, 0, "out of memory");
        return false;
    }
    memset(w->threat, 0, sizeof w->threat);
    memset(w->combo, 0, sizeof w->combo);
    w->smooth = 0;
    bool ok = parse_weights_lines(text, w, seen, given, cgiven, err);
    free(cgiven);
    return ok && engine_weights_check(w, err);
}

static bool parse_weights_lines(const char *text, EvalWeights *w, bool *seen, bool *given,
                                bool (*cgiven)[ENGINE_PCODES], TgError *err)
{
    enum { NKEYS = 9 };
    static const char *KEYS[NKEYS] = {"line",      "class",  "own",   "opp",   "line_opp",
                                      "class_opp", "threat", "combo", "smooth"};
    int lineno = 0;
    for (const char *line = text; *line;) {
        lineno++;
        const char *nl = strchr(line, '\n');
        const char *p = skip_blank(line);
        if (*p && *p != '#' && *p != '\n') {
            int n = token_len(p), k = -1;
            for (int i = 0; i < NKEYS; i++)
                if ((int)strlen(KEYS[i]) == n && !strncmp(p, KEYS[i], (size_t)n))
                    k = i;
            if (k < 0) {
                tg_error_set(err, lineno, (int)(p - line) + 1,
                             "unknown key '%.*s' (line, class, line_opp, class_opp, own, opp, threat, combo, "
                             "smooth)",
                             n > 20 ? 20 : n, p);
                return false;
            }
            if (k == 8) {
                const char *q = p + n;
                long v;
                if (!read_number(&q, line, lineno, 0, 1, "smooth", "smooth (0 or 1)", &v, err) ||
                    !expect_line_end(q, line, lineno, err))
                    return false;
                w->smooth = (int)v;
                line = nl ? nl + 1 : line + strlen(line);
                continue;
            }
            if (k >= 6) {
                if (k == 6 ? !read_threat(p + n, line, lineno, w, given, err)
                           : !read_combo(p + n, line, lineno, w, cgiven, err))
                    return false;
                line = nl ? nl + 1 : line + strlen(line);
                continue;
            }
            int *const DST[6] = {w->line, w->cls, &w->own, &w->opp, w->line_opp, w->cls_opp};
            static const int WANT[6] = {PAT_COUNT, CL_COUNT, 1, 1, PAT_COUNT, CL_COUNT};
            int *dst = DST[k];
            int want = WANT[k];
            if (!read_ints(p + n, line, lineno, dst, want, err))
                return false;
            seen[k] = true;
        }
        line = nl ? nl + 1 : line + strlen(line);
    }
    for (int i = 0; i < 4; i++)
        if (!seen[i]) {
            tg_error_set(err, lineno, 0, "missing '%s'", KEYS[i]);
            return false;
        }
    /* Files from before the split give both sides the same weights. */
    if (!seen[4])
        memcpy(w->line_opp, w->line, sizeof w->line_opp);
    if (!seen[5])
        memcpy(w->cls_opp, w->cls, sizeof w->cls_opp);
    return true;
}

/* ---- move-ordering text ---- */

/* The patterns of code (or FORBID) as words, into buf. */
static const char *code_words(int code, char *buf, size_t size)
{
    if (code == ENGINE_PCODES)
        return "FORBID";
    int pat[4];
    engine_pcode_patterns(code, pat);
    snprintf(buf, size, "%s %s %s %s", PAT_NAMES[pat[0]], PAT_NAMES[pat[1]], PAT_NAMES[pat[2]],
             PAT_NAMES[pat[3]]);
    return buf;
}

char *tune_order_write(const OrderWeights *w)
{
    StrBuf b = {0};
    strbuf_addf(&b, "# tengen order 1\n");
    for (int k = 0; k < 2; k++)
        for (int code = 0; code < ENGINE_ORDER_CODES; code++) {
            int v = k ? w->def[code] : w->att[code];
            char words[64];
            if (v)
                strbuf_addf(&b, "%s %s %d\n", k ? "def" : "att",
                           code_words(code, words, sizeof words), v);
        }
    return strbuf_finish(&b, NULL);
}

/* "att|def P P P P VALUE" or "att|def FORBID VALUE", each code at most once. */
static bool read_order_line(const char *p, const char *line0, int lineno, OrderWeights *w,
                            bool given[2][ENGINE_ORDER_CODES], TgError *err)
{
    int n = token_len(p);
    int side = n == 3 && !strncmp(p, "att", 3) ? 0 : n == 3 && !strncmp(p, "def", 3) ? 1 : -1;
    if (side < 0) {
        tg_error_set(err, lineno, (int)(p - line0) + 1, "unknown key '%.*s' (att or def)",
                     n > 20 ? 20 : n, p);
        return false;
    }
    p += n;
    int code;
    if (!read_code(&p, line0, lineno, true, &code, err))
        return false;
    const char *value_at = p + strspn(p, " \t");
    long v;
    if (!read_number(&p, line0, lineno, -ENGINE_ORDER_MAX, ENGINE_ORDER_MAX, "ordering weight",
                     "ordering weight", &v, err) ||
        !expect_line_end(p, line0, lineno, err))
        return false;
    if (given[side][code]) {
        tg_error_set(err, lineno, (int)(value_at - line0) + 1, "%s weight given twice",
                     side ? "def" : "att");
        return false;
    }
    given[side][code] = true;
    (side ? w->def : w->att)[code] = (int)v;
    return true;
}

bool tune_order_parse(const char *text, OrderWeights *w, TgError *err)
{
    bool (*given)[ENGINE_ORDER_CODES] = calloc(2, sizeof *given);
    if (!given) {
        tg_error_set(err, 0, 0, "out of memory");
        return false;
    }
    memset(w, 0, sizeof *w);
    bool ok = true;
    int lineno = 0;
    for (const char *line = text; ok && *line;) {
        lineno++;
        const char *nl = strchr(line, '\n');
        const char *p = skip_blank(line);
        if (*p && *p != '#' && *p != '\n')
            ok = read_order_line(p, line, lineno, w, given, err);
        line = nl ? nl + 1 : line + strlen(line);
    }
    free(given);
    return ok;
}

char *tune_order_c(const OrderWeights *w, Rule r)
{
    StrBuf b = {0};
    strbuf_addf(&b, "    [%s] = {.own = true, .w = {\n", RULE_ENUM[r]);
    for (int k = 0; k < 2; k++) {
        int shown = 0;
        for (int code = 0; code < ENGINE_ORDER_CODES; code++) {
            int v = k ? w->def[code] : w->att[code];
            if (!v)
                continue;
            strbuf_addf(&b, "%s[%d] = %d", !shown ? (k ? "        .def = {" : "        .att = {")
                                          : shown % 8 ? ", " : ",\n                ",
                       code, v);
            shown++;
        }
        if (shown)
            strbuf_addf(&b, "},\n");
    }
    strbuf_addf(&b, "    }},\n");
    return strbuf_finish(&b, NULL);
}
