/* web_game.c — one game of the web table: set-up from JSON, the state the page
 * draws, actions in JSON or .tgn token syntax, undo/redo, records. */
#include "web_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tengen/coord.h"
#include "tengen/forbid.h"
#include "tengen/record.h"

static const char *const STEP_NAMES[] = {"place", "declare", "color", "swap2", "fifth",
                                         "propose", "choose", "play", "over"};
static const char *const ACTION_NAMES[ACT_COUNT] = {
    "place", "pass", "swap", "noswap", "declare", "propose", "choose", "claim", "resign", "draw",
};
static const char *const PHASE_NAMES[] = {"opening", "play", "over"};

static const char *color_name(Color c)
{
    return c == BLACK ? "black" : c == WHITE ? "white" : "none";
}

static json_t *point_json(Point p, int size)
{
    char buf[COORD_BUF];
    if (p < 0)
        return json_null();
    return json_string(coord_format(p, size, buf));
}

/* --- set-up ------------------------------------------------------------- */

static bool parse_kind(json_t *v, const char *field, WebPlayerKind *out, TgError *err)
{
    const char *s = json_string_value(v);
    if (s && !strcmp(s, "human")) {
        *out = WEB_HUMAN;
        return true;
    }
    if (s && !strcmp(s, "engine")) {
        *out = WEB_ENGINE;
        return true;
    }
    tg_error_set(err, 0, 0, "field '%s': expected \"human\" or \"engine\"", field);
    return false;
}

static bool parse_engine_ms(json_t *v, int *out, TgError *err)
{
    if (!json_is_integer(v) || json_integer_value(v) < WEB_ENGINE_MS_MIN ||
        json_integer_value(v) > WEB_ENGINE_MS_MAX) {
        tg_error_set(err, 0, 0, "field 'engine_ms': expected an integer from %d to %d",
                     WEB_ENGINE_MS_MIN, WEB_ENGINE_MS_MAX);
        return false;
    }
    *out = (int)json_integer_value(v);
    return true;
}

/* Players: "players": ["human", "engine"] (the opener first), or "black" and
 * "white" for the opener and the other player. */
static bool parse_players(json_t *cfg, WebPlayerKind kind[2], TgError *err)
{
    json_t *arr = json_object_get(cfg, "players");
    if (arr) {
        if (!json_is_array(arr) || json_array_size(arr) != 2) {
            tg_error_set(err, 0, 0, "field 'players': expected two entries, \"human\" or \"engine\"");
            return false;
        }
        for (int i = 0; i < 2; i++)
            if (!parse_kind(json_array_get(arr, (size_t)i), "players", &kind[i], err))
                return false;
    }
    static const char *const NAMES[2] = {"black", "white"};
    for (int i = 0; i < 2; i++) {
        json_t *v = json_object_get(cfg, NAMES[i]);
        if (v && !parse_kind(v, NAMES[i], &kind[i], err))
            return false;
    }
    return true;
}

static bool parse_config(json_t *cfg, GameConfig *gc, TgError *err)
{
    variant_default(gc);
    if (!json_is_object(cfg)) {
        tg_error_set(err, 0, 0, "the body must be a JSON object");
        return false;
    }
    const char *known[] = {"rule",  "opening", "size",  "forbidden", "designated", "no_pass",
                           "black", "white",   "players", "engine_ms"};
    const char *key;
    json_t *v;
    json_object_foreach(cfg, key, v)
    {
        bool ok = false;
        for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
            ok = ok || !strcmp(key, known[i]);
        if (!ok) {
            tg_error_set(err, 0, 0, "unknown field '%s'", key);
            return false;
        }
    }
    if ((v = json_object_get(cfg, "rule")) &&
        (!json_is_string(v) || !variant_rule_parse(json_string_value(v), gc))) {
        tg_error_set(err, 0, 0,
                     "field 'rule': expected freestyle, standard, renju, caro or dualboard");
        return false;
    }
    if ((v = json_object_get(cfg, "opening")) &&
        (!json_is_string(v) || !opening_parse(json_string_value(v), &gc->opening))) {
        tg_error_set(err, 0, 0,
                     "field 'opening': expected free, center, swap3, designated, rif, yamaguchi, "
                     "swap1, swap2, soosorv8 or taraguchi10");
        return false;
    }
    if ((v = json_object_get(cfg, "size"))) {
        if (!json_is_integer(v) || json_integer_value(v) < BOARD_MIN_SIZE ||
            json_integer_value(v) > BOARD_MAX_SIZE) {
            tg_error_set(err, 0, 0, "field 'size': expected an integer from %d to %d",
                         BOARD_MIN_SIZE, BOARD_MAX_SIZE);
            return false;
        }
        gc->size = (int)json_integer_value(v);
    }
    if ((v = json_object_get(cfg, "forbidden")) &&
        (!json_is_string(v) || !forbid_mode_parse(json_string_value(v), &gc->forbidden))) {
        tg_error_set(err, 0, 0, "field 'forbidden': expected auto or claim");
        return false;
    }
    if ((v = json_object_get(cfg, "designated")) && !json_is_null(v) &&
        (!json_is_string(v) || !record_designated_parse(json_string_value(v), &gc->designated))) {
        tg_error_set(err, 0, 0, "field 'designated': expected an opening code 1D..13D, 1I..13I or its name");
        return false;
    }
    if ((v = json_object_get(cfg, "no_pass"))) {
        if (!json_is_boolean(v)) {
            tg_error_set(err, 0, 0, "field 'no_pass': expected true or false");
            return false;
        }
        gc->no_pass = json_is_true(v);
    }
    return true;
}

WebGame *web_game_new(int id, json_t *config, const WebOptions *o, TgError *err)
{
    GameConfig gc;
    WebPlayerKind kind[2] = {WEB_HUMAN, WEB_HUMAN};
    int engine_ms = WEB_ENGINE_MS_DEFAULT;
    if (!parse_config(config, &gc, err) || !parse_players(config, kind, err))
        return NULL;
    json_t *ms = json_object_get(config, "engine_ms");
    if (ms && !parse_engine_ms(ms, &engine_ms, err))
        return NULL;
    WebGame *w = calloc(1, sizeof *w);
    if (!w) {
        tg_error_set(err, 0, 0, "out of memory");
        return NULL;
    }
    if (!game_init(&w->game, &gc, err)) {
        free(w);
        return NULL;
    }
    pthread_mutex_init(&w->lock, NULL);
    w->id = id;
    w->player[0] = kind[0];
    w->player[1] = kind[1];
    w->engine_ms = engine_ms;
    w->engine_threads = o->engine_threads;
    w->engine_hash_mb = o->engine_hash_mb;
    atomic_init(&w->version, 1);
    return w;
}

void web_game_free(WebGame *w)
{
    if (!w)
        return;
    web_engine_join(w);
    if (w->engine)
        engine_free(w->engine);
    game_free(&w->game);
    pthread_mutex_destroy(&w->lock);
    free(w);
}

/* A change the worker must not answer for: the search in flight is stopped. */
static void changed(WebGame *w)
{
    atomic_fetch_add(&w->version, 1);
    w->engine_error[0] = '\0';
    web_engine_interrupt(w);
}

/* --- state ------------------------------------------------------------- */

static json_t *config_json(const GameConfig *c)
{
    json_t *o = json_object();
    json_object_set_new(o, "size", json_integer(c->size));
    json_object_set_new(o, "rule", json_string(variant_rule_name(c)));
    json_object_set_new(o, "opening", json_string(opening_name(c->opening)));
    json_object_set_new(o, "forbidden", json_string(forbid_mode_name(c->forbidden)));
    json_object_set_new(o, "dualboard", json_boolean(c->dualboard));
    json_object_set_new(o, "designated", c->designated >= 0
                                             ? json_string(record_designated_name(c->designated))
                                             : json_null());
    json_object_set_new(o, "no_pass", json_boolean(c->no_pass));
    return o;
}

static json_t *board_json(const Board *b)
{
    char buf[COORD_BUF];
    json_t *o = json_object();
    json_t *stones = json_array();
    for (int i = 0; i < b->count; i++) {
        Point p = b->history[i];
        json_t *s = json_object();
        json_object_set_new(s, "point", json_string(coord_format(p, b->size, buf)));
        json_object_set_new(s, "x", json_integer(point_x(p)));
        json_object_set_new(s, "y", json_integer(point_y(p)));
        json_object_set_new(s, "color", json_string(color_name(board_at(b, p))));
        json_object_set_new(s, "move", json_integer(i + 1));
        json_array_append_new(stones, s);
    }
    json_object_set_new(o, "stones", stones);
    json_object_set_new(o, "last", b->count ? point_json(b->history[b->count - 1], b->size)
                                            : json_null());
    return o;
}

static json_t *points_json(const Point *p, int n, int size)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, point_json(p[i], size));
    return a;
}

static bool places_stone(GameStep s)
{
    return s == STEP_PLACE || s == STEP_PLAY || s == STEP_FIFTH;
}

static json_t *turn_json(const WebGame *w, const GameTurn *t)
{
    const Game *g = &w->game;
    int size = g->config.size;
    json_t *o = json_object();
    json_object_set_new(o, "phase", json_string(PHASE_NAMES[t->phase]));
    json_object_set_new(o, "step", json_string(STEP_NAMES[t->step]));
    if (t->step == STEP_OVER)
        return o;
    json_object_set_new(o, "player", json_integer(t->player));
    json_object_set_new(o, "color", json_string(color_name(t->color)));
    json_object_set_new(o, "human", json_boolean(w->player[t->player] == WEB_HUMAN));
    json_object_set_new(o, "stone", json_string(color_name(t->stone)));
    json_object_set_new(o, "move", json_integer(t->move));
    json_t *al = json_array();
    for (int i = 0; i < ACT_COUNT; i++)
        if (t->allowed & 1u << i)
            json_array_append_new(al, json_string(ACTION_NAMES[i]));
    json_object_set_new(o, "allowed", al);
    json_object_set_new(o, "area", json_integer(t->area));
    json_object_set_new(o, "opening", t->opening >= 0 ? json_string(record_designated_name(t->opening))
                                                       : json_null());
    if (g->config.dualboard)
        json_object_set_new(o, "stones_left", json_integer(t->stones_left));
    if (t->step == STEP_DECLARE) {
        json_object_set_new(o, "declare_min", json_integer(t->declare_min));
        json_object_set_new(o, "declare_max", json_integer(t->declare_max));
    }
    if (t->step == STEP_PROPOSE || t->step == STEP_FIFTH)
        json_object_set_new(o, "propose", json_integer(t->propose));
    json_object_set_new(o, "proposals", points_json(t->proposals, t->nproposals, size));
    json_object_set_new(o, "draw_offer", json_integer(t->draw_offer));
    json_object_set_new(o, "claimable", point_json(t->claimable, size));
    /* Opening placements are restricted (area, designated shapes): the page
     * marks where a stone may go. */
    if (t->phase == GAME_OPENING && (t->step == STEP_PLACE || t->step == STEP_FIFTH)) {
        json_t *legal = json_array();
        Point pts[BOARD_MAX_MOVES];
        int boards = g->config.dualboard ? 2 : 1;
        for (int b = 0; b < boards; b++) {
            int n = game_legal_points(g, b, pts);
            json_t *one = points_json(pts, n, size);
            json_array_append_new(legal, one);
        }
        json_object_set_new(o, "legal", legal);
    }
    return o;
}

static json_t *forbidden_json(const Game *g, const GameTurn *t)
{
    json_t *a = json_array();
    if (t->step == STEP_OVER || t->stone != BLACK || !places_stone(t->step))
        return a;
    int boards = g->config.dualboard ? 2 : 1;
    Board *copy = malloc(sizeof *copy);
    Point *pts = malloc(sizeof *pts * BOARD_MAX_MOVES);
    ForbidKind *kinds = malloc(sizeof *kinds * BOARD_MAX_MOVES);
    if (!copy || !pts || !kinds)
        goto done;
    for (int b = 0; b < boards; b++) {
        *copy = *game_board(g, b);
        if (copy->rule != RULE_RENJU)
            continue;
        int n = forbid_list(copy, pts, kinds);
        for (int i = 0; i < n; i++) {
            json_t *f = json_object();
            json_object_set_new(f, "point", point_json(pts[i], copy->size));
            json_object_set_new(f, "x", json_integer(point_x(pts[i])));
            json_object_set_new(f, "y", json_integer(point_y(pts[i])));
            json_object_set_new(f, "kind", json_string(forbid_kind_name(kinds[i])));
            json_object_set_new(f, "board", json_integer(b));
            json_array_append_new(a, f);
        }
    }
done:
    free(copy);
    free(pts);
    free(kinds);
    return a;
}

static json_t *engine_json(const WebGame *w)
{
    int size = w->game.config.size;
    json_t *o = json_object();
    json_object_set_new(o, "thinking", json_boolean(w->thinking));
    json_object_set_new(o, "error", w->engine_error[0] ? json_string(w->engine_error) : json_null());
    json_object_set_new(o, "ms", json_integer(w->engine_ms));
    if (!w->info.valid)
        return o;
    const WebEngineInfo *i = &w->info;
    json_t *info = json_object();
    json_object_set_new(info, "side", json_string(color_name(i->side)));
    json_object_set_new(info, "depth", json_integer(i->depth));
    json_object_set_new(info, "seldepth", json_integer(i->seldepth));
    json_object_set_new(info, "score", json_integer(i->score));
    json_object_set_new(info, "mate", json_integer(i->mate));
    json_object_set_new(info, "nodes", json_integer((json_int_t)i->nodes));
    json_object_set_new(info, "nps", json_integer((json_int_t)i->nps));
    json_object_set_new(info, "time_ms", json_integer(i->time_ms));
    json_object_set_new(info, "pv", points_json(i->pv, i->pvlen, size));
    json_object_set_new(o, "info", info);
    return o;
}

json_t *web_game_state(WebGame *w)
{
    const Game *g = &w->game;
    GameTurn t;
    game_turn(g, &t);
    json_t *o = json_object();
    json_object_set_new(o, "id", json_integer(w->id));
    json_object_set_new(o, "version", json_integer(atomic_load(&w->version)));
    json_object_set_new(o, "config", config_json(&g->config));
    json_t *players = json_array();
    for (int i = 0; i < 2; i++) {
        json_t *p = json_object();
        json_object_set_new(p, "kind", json_string(w->player[i] == WEB_HUMAN ? "human" : "engine"));
        json_object_set_new(p, "color", json_string(color_name(g->st.color_of[i])));
        json_array_append_new(players, p);
    }
    json_object_set_new(o, "players", players);
    json_t *boards = json_array();
    for (int b = 0; b < (g->config.dualboard ? 2 : 1); b++)
        json_array_append_new(boards, board_json(game_board(g, b)));
    json_object_set_new(o, "boards", boards);
    json_object_set_new(o, "turn", turn_json(w, &t));
    json_object_set_new(o, "forbidden", forbidden_json(g, &t));
    json_object_set_new(o, "result", game_status_json(g));
    char text[320];
    game_status_text(g, text, sizeof text);
    json_object_set_new(o, "status", json_string(text));
    json_t *hist = json_array();
    int n = game_history_count(g);
    for (int i = 0; i < n; i++) {
        int player;
        const Action *a = game_history(g, i, &player);
        char buf[160];
        game_action_text(a, g->config.size, g->config.dualboard, buf, sizeof buf);
        json_t *h = json_object();
        json_object_set_new(h, "action", json_string(buf));
        json_object_set_new(h, "player", json_integer(player));
        json_array_append_new(hist, h);
    }
    json_object_set_new(o, "history", hist);
    json_object_set_new(o, "redo", json_integer(g->hist_len - g->nhist));
    json_object_set_new(o, "engine", engine_json(w));
    return o;
}

/* --- actions ------------------------------------------------------------ */

/* One action from its .tgn token, parsed by the record reader for this set-up
 * (so "2:h8" works only in the dual-board variant). */
static bool parse_token(const Game *g, const char *tok, Action *out, TgError *err)
{
    if (strchr(tok, '#') || strchr(tok, '\n') || strlen(tok) > 400) {
        tg_error_set(err, 0, 0, "action '%.60s': not one .tgn action", tok);
        return false;
    }
    char text[512];
    snprintf(text, sizeof text, "size %d\nrule %s\n%s\n", g->config.size,
             variant_rule_name(&g->config), tok);
    Record r;
    record_init(&r);
    TgError perr;
    if (!record_parse(FORMAT_TGN, text, &r, &perr)) {
        tg_error_set(err, 0, 0, "action '%s': %s", tok, perr.msg);
        return false;
    }
    bool ok = r.count == 1;
    if (ok)
        *out = r.actions[0].action;
    else
        tg_error_set(err, 0, 0, "action '%s': expected exactly one action, found %d", tok, r.count);
    record_free(&r);
    return ok;
}

static bool append_text(char *buf, size_t len, const char *s)
{
    size_t n = strlen(buf);
    if (n + strlen(s) + 1 > len)
        return false;
    memcpy(buf + n, s, strlen(s) + 1);
    return true;
}

/* {"type": "place", "point": "h8", "board": 0}, {"type": "declare", "n": 2},
 * {"type": "propose", "points": ["j9", "k10"]}, {"type": "choose", "point": "j9"},
 * {"type": "swap"} ...: written as the .tgn token and parsed as one. */
static bool object_token(json_t *body, char *tok, size_t len, TgError *err)
{
    const char *type = json_string_value(json_object_get(body, "type"));
    if (!type) {
        tg_error_set(err, 0, 0, "field 'action' (a .tgn token) or 'type' is required");
        return false;
    }
    tok[0] = '\0';
    if (!strcmp(type, "place") || !strcmp(type, "choose")) {
        const char *p = json_string_value(json_object_get(body, "point"));
        if (!p) {
            tg_error_set(err, 0, 0, "field 'point': required for '%s', e.g. \"h8\"", type);
            return false;
        }
        json_t *b = json_object_get(body, "board");
        if (b && (!json_is_integer(b) || json_integer_value(b) < 0 || json_integer_value(b) > 1)) {
            tg_error_set(err, 0, 0, "field 'board': expected 0 or 1");
            return false;
        }
        if (!strcmp(type, "choose"))
            append_text(tok, len, "choose ");
        else if (b)
            snprintf(tok, len, "%d:", (int)json_integer_value(b) + 1);
        if (!append_text(tok, len, p)) {
            tg_error_set(err, 0, 0, "field 'point': too long");
            return false;
        }
        return true;
    }
    if (!strcmp(type, "declare")) {
        json_t *n = json_object_get(body, "n");
        if (!json_is_integer(n)) {
            tg_error_set(err, 0, 0, "field 'n': an integer is required for 'declare'");
            return false;
        }
        snprintf(tok, len, "declare %lld", (long long)json_integer_value(n));
        return true;
    }
    if (!strcmp(type, "propose")) {
        json_t *pts = json_object_get(body, "points");
        if (!json_is_array(pts) || json_array_size(pts) == 0) {
            tg_error_set(err, 0, 0, "field 'points': a non-empty array of points is required for 'propose'");
            return false;
        }
        append_text(tok, len, "propose ");
        size_t i;
        json_t *p;
        json_array_foreach(pts, i, p)
        {
            if (!json_is_string(p) || (i && !append_text(tok, len, ",")) ||
                !append_text(tok, len, json_string_value(p))) {
                tg_error_set(err, 0, 0, "field 'points': entry %zu is not a point", i + 1);
                return false;
            }
        }
        return true;
    }
    for (int i = 0; i < ACT_COUNT; i++)
        if (!strcmp(type, ACTION_NAMES[i]))
            return append_text(tok, len, type);
    tg_error_set(err, 0, 0, "field 'type': unknown action '%s'", type);
    return false;
}

int web_game_act(WebGame *w, json_t *body, TgError *err)
{
    if (!json_is_object(body)) {
        tg_error_set(err, 0, 0, "the body must be a JSON object such as {\"action\": \"h8\"}");
        return 400;
    }
    char tok[512];
    json_t *a = json_object_get(body, "action");
    if (a) {
        if (!json_is_string(a)) {
            tg_error_set(err, 0, 0, "field 'action': expected a .tgn token such as \"h8\" or \"swap\"");
            return 400;
        }
        snprintf(tok, sizeof tok, "%s", json_string_value(a));
    } else if (!object_token(body, tok, sizeof tok, err)) {
        return 400;
    }
    Action act;
    if (!parse_token(&w->game, tok, &act, err))
        return 400;
    json_t *pl = json_object_get(body, "player");
    if (pl && (!json_is_integer(pl) || json_integer_value(pl) < 0 || json_integer_value(pl) > 1)) {
        tg_error_set(err, 0, 0, "field 'player': expected 0 or 1");
        return 400;
    }
    if (game_over(&w->game)) {
        tg_error_set(err, 0, 0, "action '%s': the game is over", tok);
        return 409;
    }
    GameTurn t;
    game_turn(&w->game, &t);
    int as = pl ? (int)json_integer_value(pl) : t.player;
    if (w->player[as] == WEB_ENGINE) {
        tg_error_set(err, 0, 0, "action '%s': player %d is the engine; it is not a human's turn", tok, as);
        return 409;
    }
    TgError gerr;
    bool ok = pl ? game_apply_as(&w->game, as, &act, &gerr) : game_apply(&w->game, &act, &gerr);
    if (!ok) {
        tg_error_set(err, 0, 0, "action '%s': %s", tok, gerr.msg);
        return 409;
    }
    changed(w);
    web_engine_kick(w);
    return 0;
}

static bool has_human(const WebGame *w)
{
    return w->player[0] == WEB_HUMAN || w->player[1] == WEB_HUMAN;
}

bool web_game_undo(WebGame *w, TgError *err)
{
    if (!game_undo(&w->game)) {
        tg_error_set(err, 0, 0, "nothing to undo");
        return false;
    }
    /* Back to a human's decision, so one click undoes the engine's answer too. */
    while (has_human(w) && web_engine_to_act(w) && game_undo(&w->game)) {
    }
    changed(w);
    web_engine_kick(w);
    return true;
}

bool web_game_redo(WebGame *w, TgError *err)
{
    if (!game_redo(&w->game)) {
        tg_error_set(err, 0, 0, "nothing to redo");
        return false;
    }
    while (has_human(w) && web_engine_to_act(w) && game_redo(&w->game)) {
    }
    changed(w);
    web_engine_kick(w);
    return true;
}

bool web_game_set_players(WebGame *w, json_t *body, TgError *err)
{
    if (!json_is_object(body)) {
        tg_error_set(err, 0, 0, "the body must be a JSON object");
        return false;
    }
    WebPlayerKind kind[2] = {w->player[0], w->player[1]};
    int ms = w->engine_ms;
    if (!parse_players(body, kind, err))
        return false;
    json_t *v = json_object_get(body, "engine_ms");
    if (v && !parse_engine_ms(v, &ms, err))
        return false;
    w->player[0] = kind[0];
    w->player[1] = kind[1];
    w->engine_ms = ms;
    changed(w);
    web_engine_kick(w);
    return true;
}

/* --- forbidden-point explanations --------------------------------------- */

json_t *web_game_explain(WebGame *w, const char *point, const char *board, TgError *err)
{
    const Game *g = &w->game;
    int bi = 0;
    if (board) {
        if (!strcmp(board, "0") || (g->config.dualboard && !strcmp(board, "1"))) {
            bi = board[0] - '0';
        } else {
            tg_error_set(err, 0, 0, "parameter 'board': expected 0%s", g->config.dualboard ? " or 1" : "");
            return NULL;
        }
    }
    if (!point) {
        tg_error_set(err, 0, 0, "parameter 'point' is required, e.g. ?point=e5");
        return NULL;
    }
    Point p;
    TgError perr;
    if (!coord_parse(point, g->config.size, &p, &perr)) {
        tg_error_set(err, 0, 0, "parameter 'point': %s", perr.msg);
        return NULL;
    }
    const Board *src = game_board(g, bi);
    if (src->rule != RULE_RENJU) {
        tg_error_set(err, 0, 0, "forbidden points exist only in renju (this game: %s)",
                     variant_rule_name(&g->config));
        return NULL;
    }
    if (board_at(src, p) != EMPTY) {
        tg_error_set(err, 0, 0, "parameter 'point': %s is occupied", point);
        return NULL;
    }
    Board *b = malloc(sizeof *b);
    if (!b) {
        tg_error_set(err, 0, 0, "out of memory");
        return NULL;
    }
    *b = *src;
    ForbidKind kind = forbid_check(b, p);
    ForbidTree tree;
    if (!forbid_explain(b, p, &tree)) {
        free(b);
        tg_error_set(err, 0, 0, "out of memory");
        return NULL;
    }
    json_t *o = json_object();
    char buf[COORD_BUF];
    json_object_set_new(o, "point", json_string(coord_format(p, g->config.size, buf)));
    json_object_set_new(o, "board", json_integer(bi));
    json_object_set_new(o, "kind", json_string(forbid_kind_name(kind)));
    json_object_set_new(o, "forbidden", json_boolean(forbid_is_forbidden(kind)));
    char *text = forbid_tree_text(&tree, g->config.size);
    json_object_set_new(o, "text", text ? json_string(text) : json_null());
    free(text);
    json_object_set_new(o, "tree", forbid_tree_json(&tree, g->config.size));
    forbid_tree_free(&tree);
    free(b);
    return o;
}

/* --- records ------------------------------------------------------------ */

char *web_game_record(WebGame *w, const char *format, TgError *err)
{
    RecordFormat f = FORMAT_TGN;
    if (format && (!record_format_parse(format, &f) || f == FORMAT_RIF)) {
        tg_error_set(err, 0, 0, "parameter 'format': expected tgn, psq or sgf");
        return NULL;
    }
    const Game *g = &w->game;
    Record r;
    record_init(&r);
    r.config = g->config;
    r.has = REC_HAS_SIZE | REC_HAS_RULE | REC_HAS_OPENING | REC_HAS_FORBIDDEN;
    if (g->config.designated >= 0)
        r.has |= REC_HAS_DESIGNATED;
    int n = game_history_count(g);
    for (int i = 0; i < n; i++) {
        if (!record_append(&r, game_history(g, i, NULL), 0, 0)) {
            record_free(&r);
            tg_error_set(err, 0, 0, "out of memory");
            return NULL;
        }
    }
    char *text = record_write(f, &r, err);
    record_free(&r);
    return text;
}

/* Replays a record into a fresh game; on an illegal action names it and where. */
static bool replay(const Record *r, Game *g, TgError *err)
{
    if (!game_init(g, &r->config, err))
        return false;
    for (int i = 0; i < r->count; i++) {
        const RecordAction *ra = &r->actions[i];
        TgError gerr;
        if (!game_apply(g, &ra->action, &gerr)) {
            char tok[160];
            game_action_text(&ra->action, r->config.size, r->config.dualboard, tok, sizeof tok);
            tg_error_set(err, ra->line, ra->col, "record action %d '%s' (line %d, column %d): %s",
                         i + 1, tok, ra->line, ra->col, gerr.msg);
            game_free(g);
            return false;
        }
    }
    return true;
}

bool web_game_load(WebGame *w, json_t *body, TgError *err)
{
    const char *text = json_string_value(json_object_get(body, "text"));
    if (!text) {
        tg_error_set(err, 0, 0, "field 'text': the record's text is required");
        return false;
    }
    RecordFormat f;
    const char *fmt = json_string_value(json_object_get(body, "format"));
    const char *name = json_string_value(json_object_get(body, "filename"));
    if (fmt) {
        if (!record_format_parse(fmt, &f)) {
            tg_error_set(err, 0, 0, "field 'format': expected tgn, psq, sgf or rif");
            return false;
        }
    } else {
        f = record_format_detect(name, text);
    }
    Record r;
    record_init(&r);
    TgError perr;
    if (!record_parse(f, text, &r, &perr)) {
        tg_error_set(err, perr.line, perr.col, "record (%s) line %d, column %d: %s",
                     record_format_name(f), perr.line, perr.col, perr.msg);
        return false;
    }
    Game g;
    bool ok = replay(&r, &g, err);
    record_free(&r);
    if (!ok)
        return false;
    game_free(&w->game);
    w->game = g;
    w->info.valid = false;
    changed(w);
    web_engine_kick(w);
    return true;
}
