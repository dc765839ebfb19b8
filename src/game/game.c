#include "tengen/game.h"

#include <stdlib.h>
#include <string.h>

#include "game_internal.h"
#include "tengen/coord.h"
#include "tengen/openings.h"
#include "tengen/pattern.h"
#include "tengen/rules.h"

/* ---- opening scripts --------------------------------------------------- */

#define AREA_DESIGNATED (-1)

static const ScriptStep S_CENTER[] = {{STEP_PLACE, ACTOR_BLACK, 1, 0, 0, 0, 0, 0}};
static const ScriptStep S_SWAP3[] = {
    {STEP_PLACE, ACTOR_P0, 0, 0, 0, 0, 0, 0},
    {STEP_PLACE, ACTOR_P0, 0, 0, 0, 0, 0, 0},
    {STEP_PLACE, ACTOR_P0, 0, 0, 0, 0, 0, 0},
    {STEP_COLOR, ACTOR_P1, 0, 0, 0, 0, 0, 0},
};
static const ScriptStep S_DESIGNATED[] = {
    {STEP_PLACE, ACTOR_BLACK, AREA_DESIGNATED, 0, 0, 0, 0, 0},
    {STEP_PLACE, ACTOR_WHITE, AREA_DESIGNATED, 0, 0, 0, 0, 0},
    {STEP_PLACE, ACTOR_BLACK, AREA_DESIGNATED, 0, 0, 0, 0, 0},
};
static const ScriptStep S_RIF[] = {
    {STEP_PLACE, ACTOR_P0, 1, 0, 0, 0, 0, 0},     {STEP_PLACE, ACTOR_P0, 3, 0, 0, 0, 0, 0},
    {STEP_PLACE, ACTOR_P0, 5, 0, 0, 0, 0, 0},     {STEP_COLOR, ACTOR_WHITE, 0, 0, 0, 0, 0, 0},
    {STEP_PLACE, ACTOR_WHITE, 0, 0, 0, 0, 0, 0},  {STEP_PROPOSE, ACTOR_BLACK, 0, 2, 0, 0, 0, 0},
    {STEP_CHOOSE, ACTOR_WHITE, 0, 0, 0, 0, 0, 0},
};
static const ScriptStep S_YAMAGUCHI[] = {
    {STEP_PLACE, ACTOR_P0, 1, 0, 0, 0, 0, 0},
    {STEP_PLACE, ACTOR_P0, 3, 0, 0, 0, 0, 0},
    {STEP_PLACE, ACTOR_P0, 5, 0, 0, 0, 0, 0},
    {STEP_DECLARE, ACTOR_P0, 0, 0, 1, GAME_YAMAGUCHI_MAX, 0, 0},
    {STEP_COLOR, ACTOR_WHITE, 0, 0, 0, 0, 0, 0},
    {STEP_PLACE, ACTOR_WHITE, 0, 0, 0, 0, 0, 0},
    {STEP_PROPOSE, ACTOR_BLACK, 0, 0, 0, 0, 0, 0},
    {STEP_CHOOSE, ACTOR_WHITE, 0, 0, 0, 0, 0, 0},
};
static const ScriptStep S_SWAP2[] = {
    {STEP_PLACE, ACTOR_P0, 0, 0, 0, 0, 0, 0}, {STEP_PLACE, ACTOR_P0, 0, 0, 0, 0, 0, 0},
    {STEP_PLACE, ACTOR_P0, 0, 0, 0, 0, 0, 0}, {STEP_SWAP2, ACTOR_P1, 0, 0, 0, 0, SCRIPT_END, 0},
    {STEP_PLACE, ACTOR_P1, 0, 0, 0, 0, 0, 0}, {STEP_PLACE, ACTOR_P1, 0, 0, 0, 0, 0, 0},
    {STEP_COLOR, ACTOR_P0, 0, 0, 0, 0, 0, 0},
};
static const ScriptStep S_SOOSORV[] = {
    {STEP_PLACE, ACTOR_P0, 1, 0, 0, 0, 0, 0},
    {STEP_PLACE, ACTOR_P0, 3, 0, 0, 0, 0, 0},
    {STEP_PLACE, ACTOR_P0, 5, 0, 0, 0, 0, 0},
    {STEP_COLOR, ACTOR_WHITE, 0, 0, 0, 0, 0, 0},
    {STEP_PLACE, ACTOR_WHITE, 0, 0, 0, 0, 0, 0},
    {STEP_DECLARE, ACTOR_WHITE, 0, 0, 1, GAME_SOOSORV_MAX, 0, 0},
    {STEP_COLOR, ACTOR_BLACK, 0, 0, 0, 0, 0, 0},
    {STEP_PROPOSE, ACTOR_BLACK, 0, 0, 0, 0, 0, 0},
    {STEP_CHOOSE, ACTOR_WHITE, 0, 0, 0, 0, 0, 0},
};
static const ScriptStep S_TARAGUCHI[] = {
    {STEP_PLACE, ACTOR_BLACK, 1, 0, 0, 0, 0, 0},
    {STEP_COLOR, ACTOR_WHITE, 0, 0, 0, 0, 0, 0},
    {STEP_PLACE, ACTOR_WHITE, 3, 0, 0, 0, 0, 0},
    {STEP_COLOR, ACTOR_BLACK, 0, 0, 0, 0, 0, 0},
    {STEP_PLACE, ACTOR_BLACK, 5, 0, 0, 0, 0, 0},
    {STEP_COLOR, ACTOR_WHITE, 0, 0, 0, 0, 0, 0},
    {STEP_PLACE, ACTOR_WHITE, 7, 0, 0, 0, 0, 0},
    {STEP_FIFTH, ACTOR_BLACK, 9, GAME_TARAGUCHI_N, 0, 0, 10, 0},
    {STEP_PLACE, ACTOR_BLACK, 9, 0, 0, 0, 0, 0},
    {STEP_COLOR, ACTOR_WHITE, 0, 0, 0, 0, 0, SCRIPT_END},
    {STEP_CHOOSE, ACTOR_WHITE, 0, 0, 0, 0, 0, 0},
};

const ScriptStep *game_script(const Game *g, int *len)
{
    if (g->config.dualboard) {
        *len = 0;
        return NULL;
    }
    switch (g->config.opening) {
    case OPENING_CENTER:
        *len = (int)(sizeof S_CENTER / sizeof S_CENTER[0]);
        return S_CENTER;
    case OPENING_SWAP3:
    case OPENING_SWAP1:
        *len = (int)(sizeof S_SWAP3 / sizeof S_SWAP3[0]);
        return S_SWAP3;
    case OPENING_DESIGNATED:
        *len = (int)(sizeof S_DESIGNATED / sizeof S_DESIGNATED[0]);
        return S_DESIGNATED;
    case OPENING_RIF:
        *len = (int)(sizeof S_RIF / sizeof S_RIF[0]);
        return S_RIF;
    case OPENING_YAMAGUCHI:
        *len = (int)(sizeof S_YAMAGUCHI / sizeof S_YAMAGUCHI[0]);
        return S_YAMAGUCHI;
    case OPENING_SWAP2:
        *len = (int)(sizeof S_SWAP2 / sizeof S_SWAP2[0]);
        return S_SWAP2;
    case OPENING_SOOSORV8:
        *len = (int)(sizeof S_SOOSORV / sizeof S_SOOSORV[0]);
        return S_SOOSORV;
    case OPENING_TARAGUCHI10:
        *len = (int)(sizeof S_TARAGUCHI / sizeof S_TARAGUCHI[0]);
        return S_TARAGUCHI;
    default:
        *len = 0;
        return NULL;
    }
}

/* The step after step i when the script goes on normally. */
static int script_next(const Game *g, int i)
{
    int len;
    const ScriptStep *s = game_script(g, &len);
    int n = s[i].next ? s[i].next : i + 1;
    return n >= len ? SCRIPT_END : n;
}

int game_player_of(const GameState *st, Color c)
{
    return st->color_of[0] == c ? 0 : 1;
}

static int actor_player(const GameState *st, Actor a)
{
    switch (a) {
    case ACTOR_P0:
        return 0;
    case ACTOR_P1:
        return 1;
    case ACTOR_BLACK:
        return game_player_of(st, BLACK);
    default:
        return game_player_of(st, WHITE);
    }
}

/* Colour of the next stone when play starts after the opening or the stones so far. */
static Color parity_color(const Game *g)
{
    return board_side_to_move(&g->board[0]);
}

/* The situation a step index describes: the step kind and its actor, where
 * SCRIPT_END means ordinary play with colours alternating by stone count. */
typedef struct {
    int index; /* script index, or SCRIPT_END for play */
    GameStep kind;
    int player;
    const ScriptStep *s; /* NULL in play */
} View;

static View view_at(const Game *g, int index)
{
    View v = {index, STEP_PLAY, 0, NULL};
    if (g->st.result.reason != REASON_NONE) {
        v.kind = STEP_OVER;
        v.player = -1;
        return v;
    }
    if (index == SCRIPT_END) {
        v.player = game_player_of(&g->st, g->st.to_move);
        return v;
    }
    int len;
    v.s = &game_script(g, &len)[index];
    v.kind = v.s->kind;
    v.player = actor_player(&g->st, v.s->actor);
    return v;
}

/* The view of the current step; in play the colour is st.to_move. */
static View view_now(const Game *g)
{
    return view_at(g, g->st.step < 0 ? SCRIPT_END : g->st.step);
}

/* When the current step is a colour choice the chooser may skip by acting at
 * once (keeping colours): the view that action is judged in, or kind STEP_OVER. */
static View view_forward(const Game *g, const View *v)
{
    View none = {0, STEP_OVER, -1, NULL};
    if (v->kind != STEP_COLOR && v->kind != STEP_SWAP2 && v->kind != STEP_FIFTH)
        return none;
    View n = view_at(g, script_next(g, v->index));
    if (n.kind == STEP_PLAY)
        n.player = game_player_of(&g->st, parity_color(g));
    return n.player == v->player ? n : none;
}

/* ---- set-up, copy ------------------------------------------------------ */

static void state_reset(Game *g)
{
    GameState *st = &g->st;
    memset(st, 0, sizeof *st);
    st->color_of[0] = BLACK;
    st->color_of[1] = WHITE;
    st->to_move = BLACK;
    st->draw_offer = -1;
    st->claim_point = POINT_NONE;
    st->result.point = POINT_NONE;
    st->result.winner_player = -1;
    st->round = 1;
    st->stones_left = 1;
    st->turn_five_at[0] = st->turn_five_at[1] = POINT_NONE;
    int len;
    game_script(g, &len);
    st->step = len > 0 ? 0 : SCRIPT_END;
}

bool game_init(Game *g, const GameConfig *cfg, TgError *err)
{
    memset(g, 0, sizeof *g);
    if (cfg->size < BOARD_MIN_SIZE || cfg->size > BOARD_MAX_SIZE) {
        tg_error_set(err, 0, 0, "board size %d is out of range (%d..%d)", cfg->size, BOARD_MIN_SIZE,
                     BOARD_MAX_SIZE);
        return false;
    }
    if ((unsigned)cfg->rule >= RULE_COUNT || (unsigned)cfg->opening >= OPENING_COUNT) {
        tg_error_set(err, 0, 0, "unknown rule set or opening rule");
        return false;
    }
    if (!cfg->dualboard && cfg->opening == OPENING_DESIGNATED &&
        (cfg->designated < -1 || cfg->designated >= OPENINGS_COUNT)) {
        tg_error_set(err, 0, 0, "designated opening %d is not one of the 26", cfg->designated);
        return false;
    }
    g->config = *cfg;
    Rule rule = cfg->dualboard ? RULE_FREESTYLE : cfg->rule;
    g->config.rule = rule;
    board_init(&g->board[0], cfg->size, rule);
    board_init(&g->board[1], cfg->size, rule);
    state_reset(g);
    return true;
}

void game_free(Game *g)
{
    free(g->hist);
    g->hist = NULL;
    g->nhist = g->hist_len = g->hist_cap = 0;
}

bool game_copy(Game *dst, const Game *src)
{
    GameEntry *h = NULL;
    if (src->hist_len > 0) {
        h = malloc((size_t)src->hist_len * sizeof *h);
        if (!h)
            return false;
        memcpy(h, src->hist, (size_t)src->hist_len * sizeof *h);
    }
    *dst = *src;
    dst->hist = h;
    dst->hist_cap = src->hist_len;
    return true;
}

const Board *game_board(const Game *g, int board)
{
    return &g->board[board == 1 && g->config.dualboard ? 1 : 0];
}

const GameResult *game_result(const Game *g)
{
    return &g->st.result;
}

bool game_over(const Game *g)
{
    return g->st.result.reason != REASON_NONE;
}

GamePhase game_phase(const Game *g)
{
    if (game_over(g))
        return GAME_OVER;
    return g->st.step >= 0 ? GAME_OPENING : GAME_PLAY;
}

int game_history_count(const Game *g)
{
    return g->nhist;
}

const Action *game_history(const Game *g, int i, int *player)
{
    if (i < 0 || i >= g->nhist)
        return NULL;
    if (player)
        *player = g->hist[i].player;
    return &g->hist[i].action;
}

/* ---- legality ---------------------------------------------------------- */

static bool rif_type(Opening o)
{
    return o == OPENING_RIF || o == OPENING_YAMAGUCHI || o == OPENING_SOOSORV8 ||
           o == OPENING_TARAGUCHI10;
}

/* A stone on board `bi` at p: on the board and empty. */
static bool check_point(const Game *g, int bi, Point p, TgError *err)
{
    char buf[COORD_BUF];
    if (bi != 0 && !(bi == 1 && g->config.dualboard)) {
        tg_error_set(err, 0, 0, "there is no board %d in this game", bi + 1);
        return false;
    }
    const Board *b = &g->board[bi];
    if (p < 0 || p >= BOARD_CELLS || !board_on(b, p)) {
        tg_error_set(err, 0, 0, "the point is off the %dx%d board", b->size, b->size);
        return false;
    }
    if (board_at(b, p) != EMPTY) {
        tg_error_set(err, 0, 0, "%s is occupied", coord_format(p, b->size, buf));
        return false;
    }
    return true;
}

/* The designated-opening constraint for the next opening stone. */
static bool check_designated(const Game *g, Point p, TgError *err)
{
    const Board *b = &g->board[0];
    int want = g->config.designated;
    char buf[COORD_BUF];
    const char *ps = coord_format(p, b->size, buf);
    switch (b->count) {
    case 0:
        if (p != opening_center(b->size)) {
            tg_error_set(err, 0, 0, "move 1 of an opening goes on the centre, not %s", ps);
            return false;
        }
        return true;
    case 1: {
        if (!opening_in_center(b->size, p, 3)) {
            tg_error_set(err, 0, 0, "move 2 of an opening goes next to move 1, not %s", ps);
            return false;
        }
        Point c = b->history[0];
        bool diagonal = point_x(p) != point_x(c) && point_y(p) != point_y(c);
        if (want >= 0 && diagonal != (want >= 13)) {
            const OpeningInfo *o = opening_info(want);
            tg_error_set(err, 0, 0,
                         "%s does not fit the designated opening %s (%s): white 2 goes %s", ps,
                         o->japanese, o->code, want >= 13 ? "diagonally" : "orthogonally");
            return false;
        }
        return true;
    }
    default: {
        int got = opening_identify(b->history[0], b->history[1], p);
        if (want < 0 ? got < 0 : got != want) {
            if (want < 0)
                tg_error_set(err, 0, 0, "%s does not make one of the 26 openings", ps);
            else
                tg_error_set(err, 0, 0, "%s does not make the designated opening %s (%s)", ps,
                             opening_info(want)->japanese, opening_info(want)->code);
            return false;
        }
        return true;
    }
    }
}

static bool check_place_area(const Game *g, int area, Point p, TgError *err)
{
    const Board *b = &g->board[0];
    char buf[COORD_BUF], centre[COORD_BUF];
    if (area == AREA_DESIGNATED)
        return check_designated(g, p, err);
    if (area == 1 && p != opening_center(b->size)) {
        tg_error_set(err, 0, 0, "move %d goes on the centre (%s), not %s", b->count + 1,
                     coord_format(opening_center(b->size), b->size, centre),
                     coord_format(p, b->size, buf));
        return false;
    }
    if (area > 1 && !opening_in_center(b->size, p, area)) {
        tg_error_set(err, 0, 0, "move %d must lie within the central %dx%d square; %s does not",
                     b->count + 1, area, area, coord_format(p, b->size, buf));
        return false;
    }
    return true;
}

/* Number of 5th moves a propose step asks for. */
static int propose_count(const Game *g, const ScriptStep *s)
{
    return s->count ? s->count : g->st.declared;
}

int game_offer_ahead(const Game *g)
{
    int len;
    const ScriptStep *s = game_script(g, &len);
    if (game_over(g) || g->st.step < 0 || !s)
        return 0;
    for (int i = g->st.step; i < len; i = script_next(g, i))
        if (s[i].kind == STEP_PROPOSE)
            return propose_count(g, &s[i]);
    return 0;
}

bool game_choice_ahead(const Game *g)
{
    int len;
    const ScriptStep *s = game_script(g, &len);
    if (game_over(g) || g->st.step < 0 || g->st.step >= len || !s)
        return false;
    for (int i = script_next(g, g->st.step); i < len; i = script_next(g, i))
        if (s[i].kind == STEP_COLOR || s[i].kind == STEP_SWAP2 || s[i].kind == STEP_FIFTH)
            return true;
    return false;
}

bool game_check_proposals(const Game *g, const Action *a, int want, TgError *err)
{
    const Board *b = &g->board[0];
    char x[COORD_BUF], y[COORD_BUF];
    if (a->npoints != want) {
        tg_error_set(err, 0, 0, "%d 5th moves must be proposed, not %d", want, a->npoints);
        return false;
    }
    for (int i = 0; i < a->npoints; i++) {
        if (!check_point(g, 0, a->points[i], err))
            return false;
        for (int j = 0; j < i; j++)
            if (a->points[j] == a->points[i]) {
                tg_error_set(err, 0, 0, "5th move %s is proposed twice",
                             coord_format(a->points[i], b->size, x));
                return false;
            }
    }
    Point stones[BOARD_MAX_MOVES];
    Color colors[BOARD_MAX_MOVES];
    for (int i = 0; i < b->count; i++) {
        stones[i] = b->history[i];
        colors[i] = board_at(b, stones[i]);
    }
    for (int i = 0; i < a->npoints; i++)
        for (int j = i + 1; j < a->npoints; j++) {
            Isometry iso;
            if (!opening_symmetric(stones, colors, b->count, a->points[i], a->points[j], &iso))
                continue;
            char how[128];
            opening_isometry_text(&iso, b->size, how, sizeof how);
            coord_format(a->points[i], b->size, x);
            coord_format(a->points[j], b->size, y);
            tg_error_set(err, 0, 0,
                         "5th moves %s and %s are symmetric: %s maps the %d stones onto "
                         "themselves and %s onto %s",
                         x, y, how, b->count, x, y);
            return false;
        }
    return true;
}

static bool pass_allowed(const Game *g, TgError *err)
{
    if (g->config.dualboard) {
        tg_error_set(err, 0, 0, "the dual-board variant has no passes");
        return false;
    }
    if (g->config.no_pass) {
        tg_error_set(err, 0, 0, "passes are not allowed in this game");
        return false;
    }
    if (rif_type(g->config.opening) && g->board[0].count < 6) {
        tg_error_set(err, 0, 0, "no pass during the opening (before the 6th stone)");
        return false;
    }
    return true;
}

/* An unclaimed black overline in the history, or -1. */
static int find_overline(const Game *g)
{
    for (int i = 0; i < g->nhist; i++)
        if (g->hist[i].overline)
            return i;
    return -1;
}

static bool claim_mode(const Game *g)
{
    return g->config.rule == RULE_RENJU && !g->config.dualboard &&
           g->config.forbidden == FORBID_MODE_CLAIM;
}

static bool check_claim(const Game *g, TgError *err)
{
    if (g->config.rule != RULE_RENJU || g->config.dualboard) {
        tg_error_set(err, 0, 0, "there are no forbidden moves to claim under %s rules",
                     variant_rule_name(&g->config));
        return false;
    }
    if (!claim_mode(g)) {
        tg_error_set(err, 0, 0,
                     "forbidden moves are judged at once (forbidden auto); there is nothing "
                     "to claim");
        return false;
    }
    if (g->st.claim_point == POINT_NONE && find_overline(g) < 0) {
        tg_error_set(err, 0, 0,
                     "nothing to claim: black's last move is not forbidden and no black "
                     "overline stands");
        return false;
    }
    return true;
}

static const char *step_expect(const Game *g, const View *v, char *buf, size_t len);
static unsigned allowed_in(const Game *g, const View *v);

/* Is action a legal in view v (no forwarding)? */
static bool check_in_view(const Game *g, const View *v, const Action *a, TgError *err)
{
    char buf[160];
    const ScriptStep *s = v->s;
    switch (v->kind) {
    case STEP_PLACE:
        if (a->type != ACT_PLACE)
            break;
        return check_point(g, a->board, a->point, err) &&
               check_place_area(g, s->area, a->point, err);
    case STEP_DECLARE:
        if (a->type != ACT_DECLARE)
            break;
        if (a->n < s->lo || a->n > s->hi) {
            tg_error_set(err, 0, 0, "the number of 5th moves must be %d..%d, not %d", s->lo, s->hi,
                         a->n);
            return false;
        }
        return true;
    case STEP_COLOR:
    case STEP_SWAP2:
        if (a->type == ACT_SWAP || a->type == ACT_NOSWAP)
            return true;
        break;
    case STEP_FIFTH:
        if (a->type == ACT_SWAP || a->type == ACT_NOSWAP)
            return true;
        if (a->type == ACT_PROPOSE)
            return game_check_proposals(g, a, s->count, err);
        break;
    case STEP_PROPOSE:
        if (a->type == ACT_PROPOSE)
            return game_check_proposals(g, a, propose_count(g, s), err);
        if (a->type == ACT_PLACE && propose_count(g, s) == 1)
            return check_point(g, a->board, a->point, err);
        break;
    case STEP_CHOOSE:
        if (a->type != ACT_CHOOSE)
            break;
        for (int i = 0; i < g->st.nproposals; i++)
            if (g->st.proposals[i] == a->point)
                return true;
        tg_error_set(err, 0, 0, "%s", step_expect(g, v, buf, sizeof buf));
        return false;
    case STEP_PLAY:
        if (a->type == ACT_PLACE)
            return check_point(g, a->board, a->point, err);
        if (a->type == ACT_PASS)
            return pass_allowed(g, err);
        break;
    case STEP_OVER:
        break;
    }
    tg_error_set(err, 0, 0, "%s", step_expect(g, v, buf, sizeof buf));
    return false;
}

/* Works out who does what: fills *pl or err. */
bool game_plan(const Game *g, int as, const Action *a, Plan *pl, TgError *err)
{
    if ((unsigned)a->type >= ACT_COUNT) {
        tg_error_set(err, 0, 0, "unknown action");
        return false;
    }
    if (game_over(g)) {
        char buf[200];
        game_status_text(g, buf, sizeof buf);
        tg_error_set(err, 0, 0, "the game is over (%s)", buf);
        return false;
    }
    View v = view_now(g);
    pl->forward = false;
    pl->view_index = v.index;
    pl->kind = v.kind;
    switch (a->type) {
    case ACT_CLAIM:
        pl->player = game_player_of(&g->st, WHITE);
        if (as >= 0 && as != pl->player) {
            tg_error_set(err, 0, 0, "only white can claim a forbidden move");
            return false;
        }
        return check_claim(g, err);
    case ACT_RESIGN:
        pl->player = as >= 0 ? as : v.player;
        return true;
    case ACT_DRAW:
        if (g->st.draw_offer >= 0) {
            pl->player = 1 - g->st.draw_offer;
            if (as >= 0 && as != pl->player) {
                tg_error_set(err, 0, 0, "a draw offer of yours is already pending");
                return false;
            }
        } else
            pl->player = as >= 0 ? as : v.player;
        return true;
    default:
        break;
    }
    pl->player = v.player;
    if (as >= 0 && as != v.player) {
        tg_error_set(err, 0, 0, "it is the %s player's turn", v.player == 0 ? "first" : "second");
        return false;
    }
    TgError first;
    if (check_in_view(g, &v, a, &first))
        return true;
    View f = view_forward(g, &v);
    if (f.kind != STEP_OVER && a->type != ACT_SWAP && a->type != ACT_NOSWAP &&
        !(v.kind == STEP_FIFTH && a->type == ACT_PROPOSE)) {
        TgError second;
        if (check_in_view(g, &f, a, &second)) {
            pl->forward = true;
            pl->view_index = f.index;
            pl->kind = f.kind;
            return true;
        }
        /* The forwarded step explains a failure better when it takes that action type. */
        if (allowed_in(g, &f) & 1u << a->type) {
            if (err)
                *err = second;
            return false;
        }
    }
    if (err)
        *err = first;
    return false;
}

bool game_is_legal(const Game *g, const Action *a, TgError *err)
{
    Plan pl;
    return game_plan(g, -1, a, &pl, err);
}

int game_legal_points(const Game *g, int board, Point *out)
{
    const Board *b = game_board(g, board);
    int n = 0;
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            Action a = game_action_place(board, point_make(x, y));
            if (game_is_legal(g, &a, NULL))
                out[n++] = a.point;
        }
    return n;
}

/* ---- applying ---------------------------------------------------------- */

static void set_result(Game *g, Color winner, GameReason reason)
{
    GameResult *r = &g->st.result;
    r->reason = reason;
    r->winner = winner;
    r->loser = winner == EMPTY ? EMPTY : color_other(winner);
    r->winner_player = winner == EMPTY ? -1 : game_player_of(&g->st, winner);
    r->round = g->st.round;
    if (r->point == POINT_NONE)
        r->move = g->board[0].count + (g->config.dualboard ? g->board[1].count : 0);
    g->st.step = SCRIPT_END;
}

/* Can colour c still make a winning five anywhere on board bi? Scans from where
 * the last scan succeeded, so play usually costs one lookup. */
static bool five_possible(Game *g, int bi, Color c)
{
    const Board *b = &g->board[bi];
    int area = b->size * b->size;
    int *hint = &g->live_hint[bi][c - 1];
    for (int k = 0; k < area; k++) {
        int i = (*hint + k) % area;
        Point p = point_make(i % b->size, i / b->size);
        if (board_at(b, p) != EMPTY)
            continue;
        for (int d = 0; d < DIR_COUNT; d++)
            if (board_pattern(b, p, d, c) != PAT_DEAD) {
                *hint = i;
                return true;
            }
    }
    return false;
}

static bool board_full(const Board *b)
{
    return b->count >= board_area(b);
}

/* Draws that follow a stone: a full board, or no five left for either side. */
static void check_draws(Game *g)
{
    if (g->config.dualboard) {
        if (board_full(&g->board[0]) && board_full(&g->board[1])) {
            set_result(g, EMPTY, REASON_FULL_BOARD);
            return;
        }
        bool live = false;
        for (Color c = BLACK; c <= WHITE && !live; c++)
            live = five_possible(g, 0, c) && five_possible(g, 1, c);
        if (!live)
            set_result(g, EMPTY, REASON_NO_FIVE);
        return;
    }
    if (board_full(&g->board[0]))
        set_result(g, EMPTY, REASON_FULL_BOARD);
    else if (!five_possible(g, 0, BLACK) && !five_possible(g, 0, WHITE))
        set_result(g, EMPTY, REASON_NO_FIVE);
}

/* Puts a stone down and judges it: five, forbidden move (auto: loses; claim:
 * claimable), draws. */
static void place_stone(Game *g, GameEntry *e, int bi, Point p, Color c)
{
    Board *b = &g->board[bi];
    GameResult *r = &g->st.result;
    ForbidKind k = FORBID_NONE;
    bool renju_black = c == BLACK && b->rule == RULE_RENJU;
    if (renju_black)
        k = forbid_check(b, p);
    board_play(b, p, c);
    e->placed = true;
    e->action.board = bi;
    e->move = b->count;
    if (forbid_is_forbidden(k)) {
        if (!claim_mode(g)) {
            r->point = p;
            r->board = bi;
            r->kind = k;
            r->move = b->count;
            set_result(g, WHITE, REASON_FORBIDDEN);
            return;
        }
        g->st.claim_point = p;
        g->st.claim_board = bi;
        g->st.claim_kind = k;
        g->st.claim_move = b->count;
        e->overline = k == FORBID_OVERLINE;
    }
    bool win = renju_black ? k == FORBID_FIVE : rules_is_win(b, p, c, NULL, NULL);
    if (win && !g->config.dualboard) {
        rules_is_win(b, p, c, r->stones, &r->nstones);
        r->point = p;
        r->board = bi;
        r->move = b->count;
        set_result(g, c, REASON_FIVE);
        return;
    }
    if (win && !(g->st.turn_fives & (1u << bi))) {
        g->st.turn_fives |= 1u << bi;
        g->st.turn_five_at[bi] = p;
    }
    if (!g->config.dualboard)
        check_draws(g);
}

static void enter_play(Game *g)
{
    g->st.step = SCRIPT_END;
    g->st.to_move = parity_color(g);
}

static void go_to(Game *g, int index)
{
    if (index == SCRIPT_END)
        enter_play(g);
    else
        g->st.step = index;
}

static void exchange_colors(GameState *st)
{
    int t = st->color_of[0];
    st->color_of[0] = st->color_of[1];
    st->color_of[1] = t;
}

/* The end of a dual-board turn: fives on both boards win, on one board lose. */
static void dual_end_turn(Game *g, Color c)
{
    GameState *st = &g->st;
    GameResult *r = &st->result;
    if (st->turn_fives) {
        int bi = st->turn_five_at[0] != POINT_NONE ? 0 : 1;
        r->board = bi;
        r->point = st->turn_five_at[bi];
        rules_is_win(&g->board[bi], r->point, c, r->stones, &r->nstones);
        r->move = g->board[0].count + g->board[1].count;
        set_result(g, st->turn_fives == 3 ? c : color_other(c),
                   st->turn_fives == 3 ? REASON_DUAL_FIVES : REASON_DUAL_ONE_BOARD);
        return;
    }
    check_draws(g);
    if (game_over(g))
        return;
    st->to_move = color_other(c);
    st->stones_left = 2;
    if (st->to_move == BLACK)
        st->round++;
}

static void play_place(Game *g, GameEntry *e, const Action *a)
{
    GameState *st = &g->st;
    Color c = st->to_move;
    st->passes = 0;
    if (!g->config.dualboard) {
        place_stone(g, e, 0, a->point, c);
        st->to_move = color_other(c);
        return;
    }
    place_stone(g, e, a->board, a->point, c);
    st->stones_left--;
    bool no_room = board_full(&g->board[0]) && board_full(&g->board[1]);
    if (st->stones_left == 0 || no_room)
        dual_end_turn(g, c);
}

static void claim(Game *g)
{
    GameState *st = &g->st;
    GameResult *r = &st->result;
    if (st->claim_point != POINT_NONE) {
        r->point = st->claim_point;
        r->board = st->claim_board;
        r->kind = st->claim_kind;
        r->move = st->claim_move;
        set_result(g, WHITE, REASON_CLAIM);
        return;
    }
    const GameEntry *e = &g->hist[find_overline(g)];
    r->point =
        e->action.type == ACT_CHOOSE || e->action.type == ACT_PLACE ? e->action.point : POINT_NONE;
    r->board = e->action.board;
    r->kind = FORBID_OVERLINE;
    r->move = e->move;
    set_result(g, WHITE, REASON_OVERLINE_CLAIM);
}

/* Makes room for one history entry at nhist. */
static GameEntry *push_entry(Game *g, int player, const Action *a, bool keep_redo)
{
    if (g->nhist >= g->hist_cap) {
        int cap = g->hist_cap ? 2 * g->hist_cap : 64;
        GameEntry *h = realloc(g->hist, (size_t)cap * sizeof *h);
        if (!h)
            return NULL;
        g->hist = h;
        g->hist_cap = cap;
    }
    GameEntry *e = &g->hist[g->nhist];
    memset(e, 0, sizeof *e);
    e->action = *a;
    e->player = player;
    e->before = g->st;
    g->nhist++;
    if (!keep_redo || g->hist_len < g->nhist)
        g->hist_len = g->nhist;
    return e;
}

static void commit(Game *g, const Plan *pl, GameEntry *e, const Action *a)
{
    GameState *st = &g->st;
    if (a->type != ACT_DRAW && st->draw_offer >= 0 && pl->player != st->draw_offer)
        st->draw_offer = -1;
    /* White's claim must be its very next action; black's out-of-turn draw offer
     * does not take it away. */
    if (a->type != ACT_CLAIM && pl->player == game_player_of(st, WHITE))
        st->claim_point = POINT_NONE;
    switch (a->type) {
    case ACT_RESIGN:
        set_result(g, color_other((Color)st->color_of[pl->player]), REASON_RESIGN);
        return;
    case ACT_DRAW:
        if (st->draw_offer >= 0)
            set_result(g, EMPTY, REASON_AGREEMENT);
        else
            st->draw_offer = pl->player;
        return;
    case ACT_CLAIM:
        claim(g);
        return;
    default:
        break;
    }
    if (pl->forward)
        go_to(g, pl->view_index);
    int len;
    const ScriptStep *script = game_script(g, &len);
    int i = pl->view_index;
    switch (pl->kind) {
    case STEP_PLACE:
        place_stone(g, e, 0, a->point, parity_color(g));
        if (!game_over(g))
            go_to(g, script_next(g, i));
        return;
    case STEP_DECLARE:
        st->declared = a->n;
        go_to(g, script_next(g, i));
        return;
    case STEP_COLOR:
        if (a->type == ACT_SWAP)
            exchange_colors(st);
        go_to(g, script_next(g, i));
        return;
    case STEP_SWAP2:
        if (a->type == ACT_SWAP)
            exchange_colors(st);
        go_to(g, script[i].alt);
        return;
    case STEP_FIFTH:
        if (a->type == ACT_PROPOSE) {
            st->nproposals = a->npoints;
            memcpy(st->proposals, a->points, sizeof a->points);
            go_to(g, script[i].alt);
            return;
        }
        if (a->type == ACT_SWAP)
            exchange_colors(st);
        go_to(g, script_next(g, i));
        return;
    case STEP_PROPOSE:
        if (a->type == ACT_PLACE) { /* a single 5th move needs no choice */
            place_stone(g, e, 0, a->point, BLACK);
            if (!game_over(g))
                go_to(g, script_next(g, script_next(g, i))); /* past the choice */
            return;
        }
        st->nproposals = a->npoints;
        memcpy(st->proposals, a->points, sizeof a->points);
        go_to(g, script_next(g, i));
        return;
    case STEP_CHOOSE:
        st->nproposals = 0;
        place_stone(g, e, 0, a->point, parity_color(g));
        if (!game_over(g))
            go_to(g, script_next(g, i));
        return;
    case STEP_PLAY:
        if (a->type == ACT_PASS) {
            st->to_move = color_other(st->to_move);
            if (++st->passes >= 2)
                set_result(g, EMPTY, REASON_TWO_PASSES);
            return;
        }
        play_place(g, e, a);
        return;
    case STEP_OVER:
        return;
    }
}

static bool apply_as(Game *g, int as, const Action *a, bool keep_redo, TgError *err)
{
    Plan pl;
    if (!game_plan(g, as, a, &pl, err))
        return false;
    GameEntry *e = push_entry(g, pl.player, a, keep_redo);
    if (!e) {
        tg_error_set(err, 0, 0, "out of memory");
        return false;
    }
    commit(g, &pl, e, a);
    return true;
}

bool game_apply_as(Game *g, int player, const Action *a, TgError *err)
{
    if (player != -1 && player != 0 && player != 1) {
        tg_error_set(err, 0, 0, "player must be 0 or 1");
        return false;
    }
    return apply_as(g, player, a, false, err);
}

bool game_apply(Game *g, const Action *a, TgError *err)
{
    return apply_as(g, -1, a, false, err);
}

static bool forfeit(Game *g, Color loser, GameReason reason, bool keep_redo, TgError *err)
{
    if (reason != REASON_TIMEOUT && reason != REASON_STONE_REMOVAL && reason != REASON_RESIGN) {
        tg_error_set(err, 0, 0,
                     "a game can only be forfeited by timeout, stone removal or resignation");
        return false;
    }
    if (loser != BLACK && loser != WHITE) {
        tg_error_set(err, 0, 0, "the loser must be black or white");
        return false;
    }
    if (game_over(g)) {
        tg_error_set(err, 0, 0, "the game is over");
        return false;
    }
    Action a = game_action(ACT_RESIGN);
    GameEntry *e = push_entry(g, game_player_of(&g->st, loser), &a, keep_redo);
    if (!e) {
        tg_error_set(err, 0, 0, "out of memory");
        return false;
    }
    e->forfeit = reason;
    set_result(g, color_other(loser), reason);
    return true;
}

bool game_forfeit(Game *g, Color loser, GameReason reason, TgError *err)
{
    return forfeit(g, loser, reason, false, err);
}

bool game_undo(Game *g)
{
    if (g->nhist == 0)
        return false;
    GameEntry *e = &g->hist[--g->nhist];
    if (e->placed)
        board_undo(&g->board[e->action.board]);
    g->st = e->before;
    return true;
}

bool game_redo(Game *g)
{
    if (g->nhist >= g->hist_len)
        return false;
    GameEntry e = g->hist[g->nhist];
    if (e.forfeit != REASON_NONE)
        return forfeit(g, (Color)e.before.color_of[e.player], e.forfeit, true, NULL);
    return apply_as(g, e.player, &e.action, true, NULL);
}

Action game_action_place(int board, Point p)
{
    Action a;
    memset(&a, 0, sizeof a);
    a.type = ACT_PLACE;
    a.board = board;
    a.point = p;
    return a;
}

Action game_action(ActionType type)
{
    Action a;
    memset(&a, 0, sizeof a);
    a.type = type;
    a.point = POINT_NONE;
    return a;
}

/* ---- turn description -------------------------------------------------- */

static unsigned allowed_in(const Game *g, const View *v)
{
    const ScriptStep *s = v->s;
    switch (v->kind) {
    case STEP_PLACE:
        return 1u << ACT_PLACE;
    case STEP_DECLARE:
        return 1u << ACT_DECLARE;
    case STEP_COLOR:
    case STEP_SWAP2:
        return 1u << ACT_SWAP | 1u << ACT_NOSWAP;
    case STEP_FIFTH:
        return 1u << ACT_SWAP | 1u << ACT_NOSWAP | 1u << ACT_PROPOSE;
    case STEP_PROPOSE:
        return 1u << ACT_PROPOSE | (propose_count(g, s) == 1 ? 1u << ACT_PLACE : 0);
    case STEP_CHOOSE:
        return 1u << ACT_CHOOSE;
    case STEP_PLAY:
        return 1u << ACT_PLACE | (pass_allowed(g, NULL) ? 1u << ACT_PASS : 0);
    case STEP_OVER:
        return 0;
    }
    return 0;
}

void game_turn(const Game *g, GameTurn *t)
{
    memset(t, 0, sizeof *t);
    View v = view_now(g);
    t->phase = game_phase(g);
    t->step = v.kind;
    t->player = v.player;
    t->draw_offer = g->st.draw_offer;
    t->claimable = g->st.claim_point;
    t->opening = -1;
    if (v.kind == STEP_OVER)
        return;
    t->color = (Color)g->st.color_of[v.player];
    t->allowed = allowed_in(g, &v) | 1u << ACT_RESIGN | 1u << ACT_DRAW;
    View f = view_forward(g, &v);
    if (f.kind != STEP_OVER)
        t->allowed |= allowed_in(g, &f) & ~(1u << ACT_SWAP | 1u << ACT_NOSWAP);
    if (check_claim(g, NULL))
        t->allowed |= 1u << ACT_CLAIM;
    t->stone = v.kind == STEP_PLAY ? g->st.to_move : parity_color(g);
    if (v.kind == STEP_PROPOSE || v.kind == STEP_FIFTH)
        t->stone = BLACK;
    t->move = g->board[0].count + 1;
    if (g->config.dualboard) {
        t->move = g->board[0].count + g->board[1].count + 1;
        t->stones_left = g->st.stones_left;
    }
    if (v.s) {
        t->area = v.s->area > 0 ? v.s->area : 0;
        if (v.s->area == AREA_DESIGNATED)
            t->opening = g->config.designated;
        t->declare_min = v.s->lo;
        t->declare_max = v.s->hi;
        if (v.kind == STEP_PROPOSE || v.kind == STEP_FIFTH)
            t->propose = propose_count(g, v.s);
    }
    t->nproposals = g->st.nproposals;
    memcpy(t->proposals, g->st.proposals, sizeof t->proposals);
}

/* What the step asks for, as words ("white (second player) to ..."). */
static const char *step_expect(const Game *g, const View *v, char *buf, size_t len)
{
    game_describe_view(g, v->kind, v->player, v->s, buf, len);
    return buf;
}

void game_describe_now(const Game *g, char *buf, size_t len)
{
    View v = view_now(g);
    game_describe_view(g, v.kind, v.player, v.s, buf, len);
}
