/* Words and JSON for game states, results and actions; nigiri. */
#include "tengen/game.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "game_internal.h"
#include "tengen/coord.h"
#include "tengen/openings.h"

static const char *const REASONS[] = {
    "none",       "five",      "forbidden",     "claim",          "overline-claim",
    "resign",     "timeout",   "stone-removal", "full-board",     "no-five",
    "two-passes", "agreement", "dual-fives",    "dual-one-board",
};

const char *game_reason_name(GameReason r)
{
    return (unsigned)r < sizeof REASONS / sizeof REASONS[0] ? REASONS[r] : "?";
}

static const char *cname(Color c)
{
    return c == BLACK ? "black" : "white";
}

static const char *pname(int player)
{
    return player == 0 ? "first player" : "second player";
}

/* Appends formatted text at the end of buf. */
__attribute__((format(printf, 3, 4))) static void add(char *buf, size_t len, const char *fmt, ...)
{
    size_t used = strlen(buf);
    if (used + 1 >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, len - used, fmt, ap);
    va_end(ap);
}

static Color next_stone(const Game *g)
{
    return board_side_to_move(&g->board[0]);
}

void game_describe_view(const Game *g, GameStep kind, int player, const ScriptStep *s, char *buf,
                        size_t len)
{
    const GameState *st = &g->st;
    const Board *b = &g->board[0];
    char p1[COORD_BUF];
    buf[0] = '\0';
    if (kind == STEP_OVER) {
        add(buf, len, "the game is over");
        return;
    }
    add(buf, len, "%s (%s) to ", cname((Color)st->color_of[player]), pname(player));
    switch (kind) {
    case STEP_PLACE:
        add(buf, len, "place move %d (%s)", b->count + 1, cname(next_stone(g)));
        if (s->area == 1)
            add(buf, len, " on the centre %s", coord_format(opening_center(b->size), b->size, p1));
        else if (s->area > 1)
            add(buf, len, " within the central %dx%d square", s->area, s->area);
        else if (s->area < 0 && g->config.designated >= 0)
            add(buf, len, " of the designated opening %s (%s)",
                opening_info(g->config.designated)->japanese,
                opening_info(g->config.designated)->code);
        else if (s->area < 0)
            add(buf, len, " of one of the 26 openings");
        break;
    case STEP_DECLARE:
        add(buf, len, "declare the number of 5th moves (%d..%d)", s->lo, s->hi);
        break;
    case STEP_COLOR:
        add(buf, len, "choose colours: swap or noswap");
        break;
    case STEP_SWAP2:
        add(buf, len,
            "choose: swap (take black), noswap (take white and play move 4) or place moves 4 "
            "and 5");
        break;
    case STEP_FIFTH:
        add(buf, len,
            "choose: swap, place move 5 within the central %dx%d square, or propose %d 5th moves",
            s->area, s->area, s->count);
        break;
    case STEP_PROPOSE: {
        int n = s->count ? s->count : st->declared;
        if (n == 1)
            add(buf, len, "place move 5 (or propose 1 5th move)");
        else
            add(buf, len, "propose %d 5th moves", n);
        break;
    }
    case STEP_CHOOSE:
        add(buf, len, "choose one of the 5th moves");
        for (int i = 0; i < st->nproposals; i++)
            add(buf, len, "%s%s", i ? ", " : " ", coord_format(st->proposals[i], b->size, p1));
        break;
    case STEP_PLAY:
        if (st->claim_point != POINT_NONE)
            add(buf, len, "claim black's %s at %s or ", forbid_kind_name(st->claim_kind),
                coord_format(st->claim_point, b->size, p1));
        if (g->config.dualboard) {
            int total = st->round == 1 && st->to_move == BLACK ? 1 : 2;
            add(buf, len, "place stone %d of %d in round %d (1:point or 2:point)",
                total - st->stones_left + 1, total, st->round);
        } else
            add(buf, len, "play move %d", b->count + 1);
        break;
    case STEP_OVER:
        break;
    }
    if (st->draw_offer >= 0)
        add(buf, len, "; the %s offered a draw", pname(st->draw_offer));
}

/* "h4-h8" for a five's stones. */
static void five_text(const GameResult *r, int size, char *buf, size_t len)
{
    char a[COORD_BUF], z[COORD_BUF];
    if (r->nstones <= 0) {
        snprintf(buf, len, "%s", coord_format(r->point, size, a));
        return;
    }
    snprintf(buf, len, "%s-%s", coord_format(r->stones[0], size, a),
             coord_format(r->stones[r->nstones - 1], size, z));
}

static void result_text(const Game *g, char *buf, size_t len)
{
    const GameResult *r = &g->st.result;
    int size = g->config.size;
    char p[COORD_BUF], five[48];
    buf[0] = '\0';
    if (r->winner == EMPTY)
        add(buf, len, "draw: ");
    else
        add(buf, len, "%s wins: ", cname(r->winner));
    const char *loser = r->loser == EMPTY ? "" : cname(r->loser);
    switch (r->reason) {
    case REASON_FIVE:
        five_text(r, size, five, sizeof five);
        add(buf, len, "%s %s (move %d at %s)", r->nstones > 5 ? "overline" : "five", five, r->move,
            coord_format(r->point, size, p));
        break;
    case REASON_FORBIDDEN:
        add(buf, len, "black's %s at %s (move %d)", forbid_kind_name(r->kind),
            coord_format(r->point, size, p), r->move);
        break;
    case REASON_CLAIM:
        add(buf, len, "claimed black's %s at %s (move %d)", forbid_kind_name(r->kind),
            coord_format(r->point, size, p), r->move);
        break;
    case REASON_OVERLINE_CLAIM:
        add(buf, len, "claimed black's earlier overline at %s (move %d)",
            coord_format(r->point, size, p), r->move);
        break;
    case REASON_RESIGN:
        add(buf, len, "%s resigned", loser);
        break;
    case REASON_TIMEOUT:
        add(buf, len, "%s ran out of time", loser);
        break;
    case REASON_STONE_REMOVAL:
        add(buf, len, "%s removed a stone", loser);
        break;
    case REASON_FULL_BOARD:
        add(buf, len, g->config.dualboard ? "both boards are full" : "the board is full");
        break;
    case REASON_NO_FIVE:
        add(buf, len, "neither side can make a five any more");
        break;
    case REASON_TWO_PASSES:
        add(buf, len, "both players passed in a row");
        break;
    case REASON_AGREEMENT:
        add(buf, len, "agreed by both players");
        break;
    case REASON_DUAL_FIVES: {
        char q[COORD_BUF];
        add(buf, len, "fives on both boards in round %d (1:%s, 2:%s)", r->round,
            coord_format(g->st.turn_five_at[0], size, p),
            coord_format(g->st.turn_five_at[1], size, q));
        break;
    }
    case REASON_DUAL_ONE_BOARD:
        five_text(r, size, five, sizeof five);
        add(buf, len,
            "%s made a five on board %d only in round %d (%d:%s); a win needs fives on both boards "
            "in the same round",
            loser, r->board + 1, r->round, r->board + 1, five);
        break;
    case REASON_NONE:
        break;
    }
}

void game_status_text(const Game *g, char *buf, size_t len)
{
    if (game_over(g)) {
        result_text(g, buf, len);
        return;
    }
    char what[240];
    game_describe_now(g, what, sizeof what);
    snprintf(buf, len, "ongoing: %s", what);
}

static const char *const ACTION_NAMES[ACT_COUNT] = {
    "place", "pass", "swap", "noswap", "declare", "propose", "choose", "claim", "resign", "draw",
};

static const char *const STEP_NAMES[] = {"place",   "declare", "color", "swap2", "fifth",
                                         "propose", "choose",  "play",  "over"};

json_t *game_status_json(const Game *g)
{
    char text[320], p[COORD_BUF];
    int size = g->config.size;
    game_status_text(g, text, sizeof text);
    json_t *o = json_object();
    if (!game_over(g)) {
        GameTurn t;
        game_turn(g, &t);
        json_object_set_new(o, "result", json_string("ongoing"));
        json_object_set_new(o, "to_act", json_string(cname(t.color)));
        json_object_set_new(o, "player", json_integer(t.player));
        json_object_set_new(o, "step", json_string(STEP_NAMES[t.step]));
        json_t *al = json_array();
        for (int i = 0; i < ACT_COUNT; i++)
            if (t.allowed & 1u << i)
                json_array_append_new(al, json_string(ACTION_NAMES[i]));
        json_object_set_new(o, "allowed", al);
        json_object_set_new(o, "move", json_integer(t.move));
        json_object_set_new(o, "text", json_string(text));
        return o;
    }
    const GameResult *r = &g->st.result;
    json_object_set_new(o, "result", json_string(r->winner == EMPTY ? "draw" : cname(r->winner)));
    json_object_set_new(o, "reason", json_string(game_reason_name(r->reason)));
    if (r->point != POINT_NONE) {
        json_object_set_new(o, "point", json_string(coord_format(r->point, size, p)));
        json_object_set_new(o, "move", json_integer(r->move));
    }
    if (g->config.dualboard) {
        json_object_set_new(o, "board", json_integer(r->board + 1));
        json_object_set_new(o, "round", json_integer(r->round));
    }
    if (r->reason == REASON_FORBIDDEN || r->reason == REASON_CLAIM ||
        r->reason == REASON_OVERLINE_CLAIM)
        json_object_set_new(o, "kind", json_string(forbid_kind_name(r->kind)));
    if (r->nstones > 0) {
        json_t *f = json_array();
        for (int i = 0; i < r->nstones; i++)
            json_array_append_new(f, json_string(coord_format(r->stones[i], size, p)));
        json_object_set_new(o, "five", f);
    }
    json_object_set_new(o, "text", json_string(text));
    return o;
}

void game_action_text(const Action *a, int size, bool dualboard, char *buf, size_t len)
{
    char p[COORD_BUF];
    buf[0] = '\0';
    switch (a->type) {
    case ACT_PLACE:
        if (dualboard)
            add(buf, len, "%d:", a->board + 1);
        add(buf, len, "%s", coord_format(a->point, size, p));
        break;
    case ACT_DECLARE:
        add(buf, len, "declare %d", a->n);
        break;
    case ACT_PROPOSE:
        add(buf, len, "propose ");
        for (int i = 0; i < a->npoints; i++)
            add(buf, len, "%s%s", i ? "," : "", coord_format(a->points[i], size, p));
        break;
    case ACT_CHOOSE:
        add(buf, len, "choose %s", coord_format(a->point, size, p));
        break;
    default:
        add(buf, len, "%s", (unsigned)a->type < ACT_COUNT ? ACTION_NAMES[a->type] : "?");
        break;
    }
}

void game_nigiri(Rng *r, int grab_max, Nigiri *out)
{
    if (grab_max < 1)
        grab_max = 1;
    out->grab[0] = 1 + rng_below(r, grab_max);
    out->grab[1] = 1 + rng_below(r, grab_max);
    int diff = out->grab[0] - out->grab[1];
    out->exchange = (diff < 0 ? -diff : diff) % 2 == 1;
    out->black = out->exchange ? 1 : 0;
}
