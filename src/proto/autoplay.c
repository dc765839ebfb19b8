#include "tengen/autoplay.h"

#include <string.h>

#include "tengen/dualplay.h"
#include "tengen/opening_ai.h"
#include "tengen/openings.h"

#include "proc.h"

/* One decision in progress. */
typedef struct {
    const Autoplay *ap;
    OpeningAI ai;
    int64_t started_ms;
} AutoplayRun;

static bool cancelled(const AutoplayRun *d)
{
    return d->ap->cancel && atomic_load(d->ap->cancel) != 0;
}

/* Searches b for `side` under the decision's budget (scaled by share/8, and
 * no more than is left of it: a fallback after an opening decision gets
 * what that left), restricted to root[0..nroot) when nroot > 0. */
static bool search(AutoplayRun *d, const Board *b, Color side, const Point *root, int nroot, int nbest,
                   int share, SearchResult *out, TgError *err)
{
    if (cancelled(d)) {
        tg_error_set(err, 0, 0, "the decision was cancelled");
        return false;
    }
    if (!engine_set_position(d->ap->engine, b, side, err))
        return false;
    SearchLimits lim;
    search_limits_init(&lim);
    lim.turn_ms = d->ap->ms * share / 8;
    int64_t left = d->ap->ms - (proc_now_ms() - d->started_ms);
    if (lim.turn_ms > left)
        lim.turn_ms = left;
    if (lim.turn_ms < AUTOPLAY_MS_MIN)
        lim.turn_ms = AUTOPLAY_MS_MIN;
    lim.nbest = nbest;
    if (nroot > 0) {
        lim.nroot = nroot < BOARD_MAX_MOVES ? nroot : BOARD_MAX_MOVES;
        memcpy(lim.root, root, sizeof(Point) * (size_t)lim.nroot);
    }
    if (!engine_think(d->ap->engine, &lim, d->ap->progress, d->ap->user, out)) {
        tg_error_set(err, 0, 0, "the engine has no position");
        return false;
    }
    return true;
}

static bool allowed(const GameTurn *t, ActionType a)
{
    return (t->allowed & 1u << a) != 0;
}

static Color stone_to_move(const Board *b, const GameTurn *t)
{
    return t->stone == BLACK || t->stone == WHITE ? t->stone : board_side_to_move(b);
}

static bool place_stone(AutoplayRun *d, const Game *g, const GameTurn *t, Action *a, TgError *err)
{
    const Board *b = game_board(g, 0);
    Point legal[BOARD_MAX_MOVES];
    int n = game_legal_points(g, 0, legal);
    if (n == 0) {
        if (allowed(t, ACT_PASS)) {
            *a = game_action(ACT_PASS);
            return true;
        }
        tg_error_set(err, 0, 0, "no legal point to place a stone");
        return false;
    }
    if (n == 1) { /* no choice: nothing to search */
        *a = game_action_place(0, legal[0]);
        return true;
    }
    /* Opening placements may be restricted (area, designated shapes). */
    bool limited = n < board_area(b) - b->count;
    SearchResult r;
    if (!search(d, b, stone_to_move(b, t), legal, limited ? n : 0, 1, 8, &r, err))
        return false;
    if (r.best == POINT_NONE) {
        if (allowed(t, ACT_PASS)) {
            *a = game_action(ACT_PASS);
            return true;
        }
        r.best = legal[0];
    }
    *a = game_action_place(0, r.best);
    return true;
}

/* An opening stone after which the opponent's colour choice gains little:
 * in freestyle and standard the next stone of a book opening (opening_ai.h)
 * where one fits; else the most balanced legal point (the centre on an empty
 * board). A stone no colour choice follows (RIF's and Yamaguchi's 4th, a
 * designated opening's) is the best move among the legal points. */
static bool place_opening(AutoplayRun *d, const Game *g, const GameTurn *t, Action *a, TgError *err)
{
    if (!game_choice_ahead(g))
        return place_stone(d, g, t, a, err);
    const Board *b = game_board(g, 0);
    Point legal[BOARD_MAX_MOVES];
    int n = game_legal_points(g, 0, legal);
    if (n == 0) {
        tg_error_set(err, 0, 0, "no legal point for the opening stone");
        return false;
    }
    Point centre = opening_center(b->size), book;
    Point pick = legal[0];
    bool centre_legal = false, book_legal = false;
    bool from_book = opening_ai_book_stone(b, d->ap->seed, &book);
    for (int i = 0; i < n; i++) {
        centre_legal = centre_legal || legal[i] == centre;
        book_legal = book_legal || (from_book && legal[i] == book);
    }
    /* A stone that may go anywhere is looked for near the others: far ones
     * only look balanced to a shallow search, and fewer candidates are
     * searched deeper (opening_ai_balanced's own candidates). */
    bool anywhere = t->area == 0 && t->opening < 0 && n == board_area(b) - b->count;
    /* The opener of RIF, Yamaguchi or Soosorv puts down one of the 26
     * openings: the next stone of the one it would pick whole (weighing
     * RIF's 5th-move offer), not the most level stone by stone. */
    Opening o = g->config.opening;
    Point three[3];
    bool standard_opening = (o == OPENING_RIF || o == OPENING_YAMAGUCHI || o == OPENING_SOOSORV8) &&
                            (b->count == 1 || b->count == 2) &&
                            opening_ai_pick_opening_from(&d->ai, b, game_offer_ahead(g), three);
    for (int i = 0; standard_opening && i < n; i++)
        if (legal[i] == three[b->count]) {
            book = three[b->count];
            book_legal = true;
        }
    if (book_legal)
        pick = book;
    else if (b->count == 0 && centre_legal)
        pick = centre;
    else if (n > 1 && opening_ai_balanced(&d->ai, b, stone_to_move(b, t), anywhere ? NULL : legal,
                                          anywhere ? 0 : n, 0, &pick, NULL, 1) != 1)
        pick = legal[0];
    if (cancelled(d)) {
        tg_error_set(err, 0, 0, "the decision was cancelled");
        return false;
    }
    *a = game_action_place(0, pick);
    return true;
}

/* Taraguchi-10 after four stones: offer the 5th moves or place one in the
 * 9x9 square. */
static bool taraguchi_fifth(AutoplayRun *d, const Game *g, const GameTurn *t, Action *a, TgError *err)
{
    Point props[GAME_MAX_PROPOSALS], place = POINT_NONE;
    int np = 0;
    if (t->propose > 0 && (t->allowed & 1u << ACT_PROPOSE) &&
        opening_ai_taraguchi_offer(&d->ai, game_board(g, 0), t->propose, props, &np, &place) &&
        np == t->propose) {
        *a = game_action(ACT_PROPOSE);
        a->npoints = np;
        memcpy(a->points, props, sizeof(Point) * (size_t)np);
        if (game_is_legal(g, a, NULL))
            return true;
    }
    if (place >= 0) {
        *a = game_action_place(0, place);
        if (game_is_legal(g, a, NULL))
            return true;
    }
    return place_opening(d, g, t, a, err);
}

/* Swap2 after the opener's three stones: take black, take white, or put two
 * more stones (the second of them is placed at the next step). */
static bool swap2_first(AutoplayRun *d, const Game *g, const GameTurn *t, Action *a, TgError *err)
{
    const Board *b = game_board(g, 0);
    Point move, two[2];
    Swap2Choice c = opening_ai_swap2(&d->ai, b, &move, two);
    if (cancelled(d)) {
        tg_error_set(err, 0, 0, "the decision was cancelled");
        return false;
    }
    if (c == SWAP2_PUT_TWO && (t->allowed & 1u << ACT_PLACE) && two[0] >= 0) {
        *a = game_action_place(0, two[0]);
        return true;
    }
    *a = game_action(c == SWAP2_TAKE_BLACK ? ACT_SWAP : ACT_NOSWAP);
    return true;
}

/* Colour choice: take the colour the opening decisions (or the engine's score)
 * favour. */
static bool choose_color(AutoplayRun *d, const Game *g, const GameTurn *t, Action *a, TgError *err)
{
    const Board *b = game_board(g, 0);
    if (t->step == STEP_SWAP2 && b->count == 3)
        return swap2_first(d, g, t, a, err);
    Color want;
    if (g->config.opening == OPENING_SWAP2 && b->count == 5 && board_side_to_move(b) == WHITE) {
        Point move;
        want = opening_ai_swap2_final(&d->ai, b, &move) ? BLACK : WHITE;
    } else {
        /* Before a 5th-move offer the choice weighs what white takes of it. */
        int s, offer = game_offer_ahead(g);
        if (offer > 0)
            want = opening_ai_take_black_offer(&d->ai, b, offer, &s) ? BLACK : WHITE;
        else
            want = opening_ai_take_black(&d->ai, b, stone_to_move(b, t), &s) ? BLACK : WHITE;
    }
    if (cancelled(d)) {
        tg_error_set(err, 0, 0, "the decision was cancelled");
        return false;
    }
    if (t->step == STEP_SWAP2) {
        *a = game_action(want == BLACK ? ACT_SWAP : ACT_NOSWAP);
        return true;
    }
    ActionType type = want == t->color ? ACT_NOSWAP : ACT_SWAP;
    if (!allowed(t, type))
        type = allowed(t, ACT_NOSWAP) ? ACT_NOSWAP : ACT_SWAP;
    *a = game_action(type);
    return true;
}

/* White picks the offered 5th move that leaves black worst off. */
static bool choose_fifth(AutoplayRun *d, const Game *g, const GameTurn *t, Action *a, TgError *err)
{
    Point p = opening_ai_choose(&d->ai, game_board(g, 0), t->proposals, t->nproposals);
    if (p >= 0) {
        *a = game_action(ACT_CHOOSE);
        a->point = p;
        if (game_is_legal(g, a, NULL))
            return true;
    }
    SearchResult r;
    int nbest = t->nproposals < ENGINE_MAX_NBEST ? t->nproposals : ENGINE_MAX_NBEST;
    if (!search(d, game_board(g, 0), BLACK, t->proposals, t->nproposals, nbest, 8, &r, err))
        return false;
    Point pick = t->proposals[0];
    int worst = ENGINE_SCORE_INF;
    for (int i = 0; i < r.nlines; i++)
        if (r.lines[i].score < worst) {
            worst = r.lines[i].score;
            pick = r.lines[i].move;
        }
    *a = game_action(ACT_CHOOSE);
    a->point = pick;
    return true;
}

/* Empty points within two lines of a stone: where 5th moves are worth offering. */
static int near_points(const Board *b, Point *out)
{
    int n = 0;
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            Point p = point_make(x, y);
            if (board_at(b, p) != EMPTY)
                continue;
            bool near = false;
            for (int dy = -2; dy <= 2 && !near; dy++)
                for (int dx = -2; dx <= 2 && !near; dx++) {
                    Point q = point_make(x + dx, y + dy);
                    Color c = board_at(b, q);
                    near = c == BLACK || c == WHITE;
                }
            if (near)
                out[n++] = p;
        }
    return n;
}

/* Tries combinations of the ranked candidates, best first, until the game
 * accepts one as a proposal (no two symmetric, none forbidden). */
static bool first_legal_set(const Game *g, const Point *cand, int ncand, int want, Action *a,
                            int budget)
{
    int idx[GAME_MAX_PROPOSALS];
    for (int i = 0; i < want; i++)
        idx[i] = i;
    while (budget-- > 0) {
        *a = game_action(ACT_PROPOSE);
        a->npoints = want;
        for (int i = 0; i < want; i++)
            a->points[i] = cand[idx[i]];
        if (game_is_legal(g, a, NULL))
            return true;
        int k = want - 1;
        while (k >= 0 && idx[k] == ncand - want + k)
            k--;
        if (k < 0)
            return false;
        idx[k]++;
        for (int i = k + 1; i < want; i++)
            idx[i] = idx[i - 1] + 1;
    }
    return false;
}

static bool propose(AutoplayRun *d, const Game *g, const GameTurn *t, Action *a, TgError *err)
{
    const Board *b = game_board(g, 0);
    int want = t->propose;
    if (want < 1 || want > GAME_MAX_PROPOSALS) {
        tg_error_set(err, 0, 0, "cannot propose %d moves", want);
        return false;
    }
    Point offer[GAME_MAX_PROPOSALS];
    if (opening_ai_propose(&d->ai, b, want, offer) == want) {
        *a = game_action(ACT_PROPOSE);
        a->npoints = want;
        memcpy(a->points, offer, sizeof(Point) * (size_t)want);
        if (game_is_legal(g, a, NULL))
            return true;
    }
    /* The game refused them: the best-ranked set it accepts. */
    Point near[BOARD_MAX_MOVES];
    int nnear = near_points(b, near);
    SearchResult r;
    if (!search(d, b, BLACK, near, nnear, ENGINE_MAX_NBEST, 8, &r, err))
        return false;
    /* Ranked lines first, then the other near points, as candidates. */
    Point cand[BOARD_MAX_MOVES];
    int ncand = 0;
    for (int i = 0; i < r.nlines; i++)
        cand[ncand++] = r.lines[i].move;
    for (int i = 0; i < nnear; i++) {
        bool seen = false;
        for (int j = 0; j < r.nlines; j++)
            seen = seen || near[i] == r.lines[j].move;
        if (!seen)
            cand[ncand++] = near[i];
    }
    if (ncand >= want && first_legal_set(g, cand, ncand, want, a, 20000))
        return true;
    tg_error_set(err, 0, 0, "found no set of %d non-symmetric 5th moves to propose", want);
    return false;
}

static bool decide(AutoplayRun *d, const Game *g, Action *a, TgError *err)
{
    GameTurn t;
    game_turn(g, &t);
    if (t.claimable != POINT_NONE && allowed(&t, ACT_CLAIM)) {
        *a = game_action(ACT_CLAIM);
        return true;
    }
    switch (t.step) {
    case STEP_PLACE:
        return place_opening(d, g, &t, a, err);
    case STEP_FIFTH:
        return taraguchi_fifth(d, g, &t, a, err);
    case STEP_PLAY:
        return place_stone(d, g, &t, a, err);
    case STEP_COLOR:
    case STEP_SWAP2:
        return choose_color(d, g, &t, a, err);
    case STEP_DECLARE: {
        int n = opening_ai_declare(&d->ai, game_board(g, 0), t.declare_max);
        *a = game_action(ACT_DECLARE);
        a->n = n < t.declare_min ? t.declare_min : n > t.declare_max ? t.declare_max : n;
        return true;
    }
    case STEP_PROPOSE:
        return propose(d, g, &t, a, err);
    case STEP_CHOOSE:
        return choose_fifth(d, g, &t, a, err);
    case STEP_OVER:
        break;
    }
    tg_error_set(err, 0, 0, "the game is over");
    return false;
}

bool autoplay_decide(const Autoplay *ap, const Game *g, Action *out, TgError *err)
{
    if (game_over(g)) {
        tg_error_set(err, 0, 0, "the game is over");
        return false;
    }
    if (g->config.dualboard)
        return dualplay_decide(ap, g, out, err);
    AutoplayRun d = {.ap = ap, .started_ms = proc_now_ms()};
    opening_ai_init(&d.ai, ap->engine);
    d.ai.started_ms = d.started_ms; /* one clock for the whole decision */
    d.ai.limits.turn_ms = ap->ms;
    d.ai.cancel = ap->cancel;
    d.ai.progress = ap->progress;
    d.ai.user = ap->user;
    return decide(&d, g, out, err);
}
