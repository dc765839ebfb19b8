/* match.c — plays two pbrain engines against each other as child processes. */
#include "tengen/match.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tengen/coord.h"
#include "tengen/forbid.h"
#include "tengen/game.h"
#include "tengen/record.h"
#include "tengen/rules.h"

#include "proc.h"

#define NO_LIMIT_MS 2147483647
#define HANG_LIMIT_MS 600000 /* when neither turn nor match time is limited */
#define SPRT_MIN_VARIANCE 0.0475
/* Two-sided 95% normal quantile. */
#define ELO_Z95 1.959964

static const char *const END_NAMES[END_COUNT] = {
    "none",    "five",    "forbidden move", "illegal move", "timeout",
    "crash",   "garbage", "start failed",   "draw (full board)", "draw (move limit)",
};

const char *match_end_name(MatchEnd e) { return e >= 0 && e < END_COUNT ? END_NAMES[e] : "?"; }

void match_rules_default(MatchRules *r, Rule rule)
{
    r->size = rule == RULE_FREESTYLE ? 20 : 15;
    r->rule = rule;
    r->timeout_turn_ms = 5000;
    r->timeout_match_ms = 180000;
    r->tolerance_ms = 1000;
    r->start_timeout_ms = 30000;
    r->max_memory = 128LL << 20;
    r->max_moves = rule == RULE_RENJU ? 200 : 0;
}

int match_gomocup_rule(Rule rule)
{
    switch (rule) {
    case RULE_STANDARD: return 1;
    case RULE_RENJU: return 4;
    case RULE_CARO: return 8;
    default: return 0;
    }
}

/* ---- the game ----------------------------------------------------------- */

static bool is_chatter(const char *line)
{
    return !strncmp(line, "MESSAGE", 7) || !strncmp(line, "DEBUG", 5) || line[0] == '\0';
}

/* Parses "x,y" (spaces allowed around the numbers); nothing else on the line. */
static bool parse_move(const char *line, int size, Point *out)
{
    int x, y, n = 0;
    if (sscanf(line, " %d , %d %n", &x, &y, &n) != 2 || line[n] != '\0')
        return false;
    if (x < 0 || y < 0 || x >= size || y >= size) {
        *out = POINT_NONE;
        return true;
    }
    *out = point_make(x, y);
    return true;
}

typedef struct {
    const MatchRules *r;
    MatchGame *g;
    Board board;
    Proc proc[2]; /* black, white */
    Game game;    /* the opening rule's referee (openings run by the game library) */
    bool has_game;
} GameCtx;

static int side_index(Color c) { return c == BLACK ? 0 : 1; }

static void finish(GameCtx *ctx, MatchEnd end, Color culprit, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void finish(GameCtx *ctx, MatchEnd end, Color culprit, const char *fmt, ...)
{
    MatchGame *g = ctx->g;
    g->end = end;
    g->winner = end == END_DRAW_FULL || end == END_DRAW_MOVES ? EMPTY : color_other(culprit);
    g->culprit = end == END_FIVE ? EMPTY : culprit; /* for a five, culprit names the loser */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->reason, sizeof g->reason, fmt, ap);
    va_end(ap);
}

static const char *side_name(Color c) { return c == BLACK ? "black" : "white"; }

/* While a move is awaited, ERROR/UNKNOWN lines answer an earlier command (an
 * INFO the engine could not read, or one that crossed its last move): like
 * Piskvork, report-only, not a move and not a forfeit. */
static bool is_late_error(const char *line)
{
    return !strncmp(line, "ERROR", 5) || !strncmp(line, "UNKNOWN", 7);
}

/* Reads answer lines until one that is not chatter (nor, for a move, a late
 * error); fails the game (and returns false) on timeout or EOF. */
static bool await_line(GameCtx *ctx, Color c, int64_t deadline, const char *what, bool move,
                       char *line, size_t cap)
{
    Proc *p = &ctx->proc[side_index(c)];
    for (;;) {
        ReadResult rr = proc_read_line(p, deadline, line, cap);
        if (rr == READ_TIMEOUT) {
            finish(ctx, END_TIMEOUT, c, "%s (%s) did not answer %s in time", side_name(c),
                   p->name, what);
            return false;
        }
        if (rr == READ_EOF) {
            finish(ctx, END_CRASH, c, "%s (%s) exited or closed its output during %s",
                   side_name(c), p->name, what);
            return false;
        }
        if (!is_chatter(line) && !(move && is_late_error(line)))
            return true;
    }
}

static void default_name(Proc *p, const char *cmd)
{
    const char *start = cmd, *end = cmd + strcspn(cmd, " \t");
    for (const char *s = cmd; s < end; s++)
        if (*s == '/')
            start = s + 1;
    int n = (int)(end - start);
    snprintf(p->name, sizeof p->name, "%.*s", n, start);
}

/* Takes name="..." out of an ABOUT answer. */
static void about_name(Proc *p, const char *line)
{
    const char *s = strstr(line, "name=\"");
    if (!s)
        return;
    s += 6;
    const char *e = strchr(s, '"');
    if (e && e > s)
        snprintf(p->name, sizeof p->name, "%.*s", (int)(e - s), s);
}

static bool start_engine(GameCtx *ctx, Color c, const char *cmd)
{
    const MatchRules *r = ctx->r;
    Proc *p = &ctx->proc[side_index(c)];
    TgError err;
    if (!proc_spawn(p, cmd, &err)) {
        finish(ctx, END_START_FAILED, c, "%s (%s) could not be started: %s", side_name(c),
               p->name, err.msg);
        return false;
    }
    char line[PROC_LINE_MAX];
    int64_t deadline = proc_now_ms() + r->start_timeout_ms;
    if (!proc_send(p, "START %d", r->size)) {
        finish(ctx, END_CRASH, c, "%s (%s) closed its input before START", side_name(c), p->name);
        return false;
    }
    if (!await_line(ctx, c, deadline, "START", false, line, sizeof line))
        return false;
    if (strncmp(line, "OK", 2) != 0) {
        finish(ctx, END_START_FAILED, c, "%s (%s) refused START %d: %.120s", side_name(c),
               p->name, r->size, line);
        return false;
    }
    int turn = r->timeout_turn_ms > 0 ? r->timeout_turn_ms : NO_LIMIT_MS;
    bool ok = proc_send(p, "INFO timeout_turn %d", turn) &&
              proc_send(p, "INFO timeout_match %d", r->timeout_match_ms) &&
              proc_send(p, "INFO max_memory %lld", (long long)r->max_memory) &&
              proc_send(p, "INFO game_type 1") &&
              proc_send(p, "INFO rule %d", match_gomocup_rule(r->rule)) && proc_send(p, "ABOUT");
    if (!ok) {
        finish(ctx, END_CRASH, c, "%s (%s) closed its input during set-up", side_name(c), p->name);
        return false;
    }
    if (!await_line(ctx, c, deadline, "ABOUT", false, line, sizeof line))
        return false;
    about_name(p, line);
    snprintf(ctx->g->name[side_index(c)], sizeof ctx->g->name[0], "%s", p->name);
    return true;
}

/* `cmd`, then b's stones in order as x,y,field (1 for colour c's, 2 for the
 * other's; plain x,y when c is EMPTY), then DONE. */
static bool send_stones(Proc *p, const char *cmd, const Board *b, Color c)
{
    if (!proc_send(p, "%s", cmd))
        return false;
    for (int i = 0; i < b->count; i++) {
        Point q = b->history[i];
        bool ok = c == EMPTY ? proc_send(p, "%d,%d", point_x(q), point_y(q))
                             : proc_send(p, "%d,%d,%d", point_x(q), point_y(q),
                                         b->cell[q] == c ? 1 : 2);
        if (!ok)
            return false;
    }
    return proc_send(p, "DONE");
}

static bool send_position(GameCtx *ctx, Color c)
{
    Proc *p = &ctx->proc[side_index(c)];
    const Board *b = &ctx->board;
    if (p->synced)
        return proc_send(p, "TURN %d,%d", point_x(b->history[b->count - 1]),
                         point_y(b->history[b->count - 1]));
    p->synced = true;
    if (b->count == 0)
        return proc_send(p, "BEGIN");
    return send_stones(p, "BOARD", b, c);
}

/* An opening request (SWAP2BOARD, TGOPENING ...) with the stones so far,
 * black first. */
static bool send_request(GameCtx *ctx, Color c, const char *request)
{
    Proc *p = &ctx->proc[side_index(c)];
    const Board *b = &ctx->board;
    p->synced = false; /* the next move request sends the whole position */
    /* SWAP2BOARD: fields as in BOARD, for the colour the engine holds so far
     * (the first player black): engines that read it like BOARD need them. */
    return send_stones(p, request, b, strcmp(request, "SWAP2BOARD") ? EMPTY : c);
}

/* Sends c's engine the time left and the request (NULL: the position to
 * move on; else an opening request with the stones so far), waits for the
 * answer within the limits and charges its time. False (the game over) on a
 * timeout or crash. */
static bool ask(GameCtx *ctx, Color c, const char *request, char *line, size_t cap, int *ms)
{
    const MatchRules *r = ctx->r;
    MatchGame *g = ctx->g;
    int side = side_index(c);
    Proc *p = &ctx->proc[side];
    int64_t match_left = r->timeout_match_ms > 0 ? r->timeout_match_ms - g->used_ms[side]
                                                 : NO_LIMIT_MS;
    if (r->timeout_match_ms > 0 && !proc_send(p, "INFO time_left %lld", (long long)match_left)) {
        finish(ctx, END_CRASH, c, "%s (%s) closed its input", side_name(c), p->name);
        return false;
    }
    int64_t limit = HANG_LIMIT_MS;
    if (r->timeout_turn_ms > 0)
        limit = r->timeout_turn_ms;
    if (r->timeout_match_ms > 0 && match_left < limit)
        limit = match_left > 0 ? match_left : 0;
    if (r->move_delay_ms > 0)
        nanosleep(&(struct timespec){.tv_sec = r->move_delay_ms / 1000,
                                     .tv_nsec = (long)(r->move_delay_ms % 1000) * 1000000L},
                  NULL);
    if (!(request ? send_request(ctx, c, request) : send_position(ctx, c))) {
        finish(ctx, END_CRASH, c, "%s (%s) closed its input", side_name(c), p->name);
        return false;
    }
    int64_t t0 = proc_now_ms();
    /* An ERROR to an opening request is its answer (an engine without it),
     * not a late one. */
    if (!await_line(ctx, c, t0 + limit + r->tolerance_ms, request ? request : "its move",
                    !request, line, cap))
        return false;
    *ms = (int)(proc_now_ms() - t0);
    g->used_ms[side] += *ms;
    if (r->timeout_turn_ms > 0 && *ms > r->timeout_turn_ms + r->tolerance_ms) {
        finish(ctx, END_TIMEOUT, c, "%s (%s) took %d ms for %s (limit %d)", side_name(c),
               p->name, *ms, request ? request : "a move", r->timeout_turn_ms);
        return false;
    }
    if (r->timeout_match_ms > 0 && g->used_ms[side] > r->timeout_match_ms + r->tolerance_ms) {
        finish(ctx, END_TIMEOUT, c, "%s (%s) used %d ms of its %d ms game time", side_name(c),
               p->name, g->used_ms[side], r->timeout_match_ms);
        return false;
    }
    return true;
}

/* Puts c's stone q (answered as `line`, after ms) on the board as the referee
 * sees it. False when that ends the game. */
static bool place(GameCtx *ctx, Color c, Point q, const char *line, int ms)
{
    const MatchRules *r = ctx->r;
    MatchGame *g = ctx->g;
    Proc *p = &ctx->proc[side_index(c)];
    Board *b = &ctx->board;
    if (q == POINT_NONE || b->cell[q] != EMPTY) {
        finish(ctx, END_ILLEGAL, c, "%s (%s) played %.40s: %s", side_name(c), p->name, line,
               q == POINT_NONE ? "off the board" : "occupied");
        return false;
    }
    g->moves[g->count] = q;
    g->ms[g->count] = ms;
    g->count++;
    char name[COORD_BUF];
    if (rules_is_win(b, q, c, NULL, NULL)) {
        board_play(b, q, c);
        finish(ctx, END_FIVE, color_other(c), "%s made five with %s", side_name(c),
               coord_format(q, r->size, name));
        return false;
    }
    if (r->rule == RULE_RENJU && c == BLACK) {
        ForbidKind k = forbid_check(b, q);
        if (forbid_is_forbidden(k)) {
            board_play(b, q, c);
            finish(ctx, END_FORBIDDEN, c, "black (%s) played %s, a forbidden %s", p->name,
                   coord_format(q, r->size, name), forbid_kind_name(k));
            return false;
        }
    }
    board_play(b, q, c);
    if (b->count >= board_area(b)) {
        finish(ctx, END_DRAW_FULL, EMPTY, "the board is full");
        return false;
    }
    if (r->max_moves > 0 && b->count >= r->max_moves) {
        finish(ctx, END_DRAW_MOVES, EMPTY, "draw at move %d", r->max_moves);
        return false;
    }
    return true;
}

/* One move of colour c. Returns false when the game is over. */
static bool play_move(GameCtx *ctx, Color c)
{
    char line[PROC_LINE_MAX];
    int ms;
    if (!ask(ctx, c, NULL, line, sizeof line, &ms))
        return false;
    Point q;
    if (!parse_move(line, ctx->r->size, &q)) {
        finish(ctx, END_GARBAGE, c, "%s (%s) answered '%.100s' instead of a move", side_name(c),
               ctx->proc[side_index(c)].name, line);
        return false;
    }
    return place(ctx, c, q, line, ms);
}

/* ---- swap2 --------------------------------------------------------------- */

/* True when line is `word` alone, spaces around it allowed. */
static bool is_word(const char *line, const char *word)
{
    int n = 0;
    char tail;
    size_t len = strlen(word);
    while (line[n] == ' ' || line[n] == '\t')
        n++;
    return !strncmp(line + n, word, len) && sscanf(line + n + len, " %c", &tail) != 1;
}

/* 1..max points `x,y` separated by spaces (a point off the board is
 * POINT_NONE, refused when placed). */
static bool parse_points(const char *line, int size, int max, Point *out, int *n)
{
    *n = 0;
    if (parse_move(line, size, &out[0])) { /* one point, spaces allowed: "7, 7" */
        *n = 1;
        return true;
    }
    char buf[PROC_LINE_MAX];
    snprintf(buf, sizeof buf, "%s", line);
    char *save = NULL;
    for (char *tok = strtok_r(buf, " \t\r", &save); tok; tok = strtok_r(NULL, " \t\r", &save)) {
        if (*n == max || !parse_move(tok, size, &out[*n]))
            return false;
        ++*n;
    }
    return *n > 0;
}

/* A SWAP2BOARD answer: SWAP (n 0), or 1..max points. */
static bool parse_swap2(const char *line, int size, int max, Point *out, int *n)
{
    *n = 0;
    return is_word(line, "SWAP") || parse_points(line, size, max, out, n);
}

/* Asks colour c's engine (the player in that slot) for a swap2 decision of
 * one of the counts in `allowed` (bit n: n points; bit 0: SWAP). */
static bool swap2_answer(GameCtx *ctx, Color c, unsigned allowed, const char *what, Point *pts,
                         int *n, int *ms)
{
    char line[PROC_LINE_MAX];
    if (!ask(ctx, c, "SWAP2BOARD", line, sizeof line, ms))
        return false;
    if (!parse_swap2(line, ctx->r->size, 3, pts, n) || !(allowed & 1u << *n)) {
        finish(ctx, END_GARBAGE, c, "%s (%s) answered '%.100s' to SWAP2BOARD instead of %s",
               side_name(c), ctx->proc[side_index(c)].name, line, what);
        return false;
    }
    return true;
}

/* The engines change colours: each keeps its process, time and name. */
static void swap_sides(GameCtx *ctx)
{
    MatchGame *g = ctx->g;
    Proc p = ctx->proc[0];
    ctx->proc[0] = ctx->proc[1];
    ctx->proc[1] = p;
    int ms = g->used_ms[0];
    g->used_ms[0] = g->used_ms[1];
    g->used_ms[1] = ms;
    char name[sizeof g->name[0]];
    memcpy(name, g->name[0], sizeof name);
    memcpy(g->name[0], g->name[1], sizeof name);
    memcpy(g->name[1], name, sizeof name);
    g->swapped = !g->swapped;
}

static void note_choice(MatchGame *g, bool swap)
{
    g->choice[g->nchoices].after = g->count;
    g->choice[g->nchoices++].swap = swap;
}

/* Places stones from pts, colours alternating from the board's side to move. */
static bool place_all(GameCtx *ctx, const Point *pts, int n, int ms)
{
    for (int i = 0; i < n; i++) {
        char text[COORD_BUF];
        coord_format_xy(pts[i], text);
        if (pts[i] == POINT_NONE)
            snprintf(text, sizeof text, "off the board");
        if (!place(ctx, board_side_to_move(&ctx->board), pts[i], text, i ? 0 : ms))
            return false;
    }
    return true;
}

/* The swap2 opening, the first player in the black slot and the second in
 * the white one; they change slots when the first player ends up white.
 * False when the game ended in it. */
static bool swap2_opening(GameCtx *ctx)
{
    MatchGame *g = ctx->g;
    Point pts[3];
    int n, ms;
    if (!swap2_answer(ctx, BLACK, 1u << 3, "three stones", pts, &n, &ms) ||
        !place_all(ctx, pts, n, ms))
        return false;
    /* The second player: take black, take white and play 4, or put 4 and 5. */
    if (!swap2_answer(ctx, WHITE, 1u << 0 | 1u << 1 | 1u << 2, "SWAP or one or two stones", pts,
                      &n, &ms))
        return false;
    if (n == 0) {
        note_choice(g, true);
        swap_sides(ctx);
        return true;
    }
    if (n == 1) {
        note_choice(g, false);
        return place_all(ctx, pts, 1, ms);
    }
    if (!place_all(ctx, pts, 2, ms))
        return false;
    /* The first player: keep black, or take white and play 6. */
    if (!swap2_answer(ctx, BLACK, 1u << 0 | 1u << 1, "SWAP or one stone", pts, &n, &ms))
        return false;
    note_choice(g, n == 1);
    if (n == 0)
        return true;
    swap_sides(ctx);
    return place_all(ctx, pts, 1, ms);
}

/* ---- openings run by the game library (TGOPENING) ------------------------ */

static bool scripted(Opening o) { return o != OPENING_FREE && o != OPENING_SWAP2; }

/* Keeps the slots in step with the game: the first player (player 0) sits
 * in the slot of the colour it holds now. */
static void follow_colours(GameCtx *ctx, const GameTurn *t)
{
    Color first = t->player == 0 ? t->color : color_other(t->color);
    if ((first == WHITE) != ctx->g->swapped)
        swap_sides(ctx);
}

/* Applies colour c's answer `line` to `request` as action a: the game
 * refusing it loses the game for c; a stone it places goes on the referee's
 * board too (with the answer's time). False when the game is over. */
static bool apply_answer(GameCtx *ctx, Color c, const Action *a, const char *request,
                         const char *line, int ms)
{
    MatchGame *g = ctx->g;
    TgError err;
    if (!game_apply(&ctx->game, a, &err)) {
        finish(ctx, END_ILLEGAL, c, "%s (%s) answered '%.80s' to %s: %s", side_name(c),
               ctx->proc[side_index(c)].name, line, request, err.msg);
        return false;
    }
    /* The longest opening script (Taraguchi-10) takes 12 actions. */
    if (g->nactions < MATCH_OPENING_ACTIONS)
        g->actions[g->nactions++] = *a;
    if (a->type != ACT_PLACE && a->type != ACT_CHOOSE)
        return true;
    Color stone = board_at(game_board(&ctx->game, 0), a->point);
    return place(ctx, stone, a->point, line, ms);
}

static bool garbage(GameCtx *ctx, Color c, const char *line, const char *request,
                    const char *wanted)
{
    finish(ctx, END_GARBAGE, c, "%s (%s) answered '%.100s' to %s instead of %s", side_name(c),
           ctx->proc[side_index(c)].name, line, request, wanted);
    return false;
}

/* The opener's three stones, as one answer. */
static bool opening_three(GameCtx *ctx, Color c)
{
    const MatchRules *r = ctx->r;
    Opening o = r->opening;
    /* Swap after 3 and swap1 put the stones anywhere; renju keeps to the 26
     * openings, which the forbidden points balance. */
    bool anywhere = (o == OPENING_SWAP3 || o == OPENING_SWAP1) && r->rule != RULE_RENJU;
    /* place3 N: RIF's opener weighs the 5th-move offer to come */
    int offer = game_offer_ahead(&ctx->game);
    char request[64], line[PROC_LINE_MAX];
    if (anywhere)
        snprintf(request, sizeof request, "TGOPENING free3");
    else if (offer > 0)
        snprintf(request, sizeof request, "TGOPENING place3 %d", offer);
    else
        snprintf(request, sizeof request, "TGOPENING place3");
    Point pts[3];
    int n, ms;
    if (!ask(ctx, c, request, line, sizeof line, &ms))
        return false;
    if (!parse_points(line, r->size, 3, pts, &n) || n != 3)
        return garbage(ctx, c, line, request, "three stones");
    for (int i = 0; i < 3; i++) {
        Action a = game_action_place(0, pts[i]);
        if (!apply_answer(ctx, c, &a, request, line, i ? 0 : ms))
            return false;
    }
    return true;
}

/* An opening stone: forced where only one point is legal, an ordinary move
 * for RIF's and Yamaguchi's 4th (no colour choice follows it), else a
 * balanced stone in the central square the step allows (Soosorv's 4th: near
 * the stones). */
static bool opening_stone(GameCtx *ctx, const GameTurn *t)
{
    const MatchRules *r = ctx->r;
    const Board *b = game_board(&ctx->game, 0);
    Color c = t->color;
    Opening o = r->opening;
    if (b->count == 0 && (o == OPENING_RIF || o == OPENING_YAMAGUCHI || o == OPENING_SOOSORV8 ||
                          o == OPENING_SWAP3 || o == OPENING_SWAP1))
        return opening_three(ctx, c);
    Point legal[BOARD_MAX_MOVES];
    if (game_legal_points(&ctx->game, 0, legal) == 1) {
        Action a = game_action_place(0, legal[0]);
        return apply_answer(ctx, c, &a, "the only legal point", "-", 0);
    }
    char request[64], line[PROC_LINE_MAX];
    int ms, n;
    Point q;
    if (t->area == 0 && !game_choice_ahead(&ctx->game)) {
        if (!ask(ctx, c, NULL, line, sizeof line, &ms))
            return false;
        if (!parse_move(line, r->size, &q))
            return garbage(ctx, c, line, "its move", "a move");
        Action a = game_action_place(0, q);
        return apply_answer(ctx, c, &a, "its move", line, ms);
    }
    /* Soosorv's 4th (area 0): a balanced stone near the others. */
    snprintf(request, sizeof request, "TGOPENING balance %d", t->area > 0 ? (t->area - 1) / 2 : 0);
    if (!ask(ctx, c, request, line, sizeof line, &ms))
        return false;
    if (!parse_points(line, r->size, 1, &q, &n))
        return garbage(ctx, c, line, request, "one stone");
    Action a = game_action_place(0, q);
    return apply_answer(ctx, c, &a, request, line, ms);
}

/* One decision of the player to act (t), asked through TGOPENING. */
static bool opening_decision(GameCtx *ctx, const GameTurn *t)
{
    const MatchRules *r = ctx->r;
    Color c = t->color;
    char request[PROC_LINE_MAX], line[PROC_LINE_MAX];
    Point pts[GAME_MAX_PROPOSALS];
    int n, ms;
    Action a;
    switch (t->step) {
    case STEP_PLACE:
        return opening_stone(ctx, t);
    case STEP_COLOR: {
        /* swap N: black offers N 5th moves later, white taking one */
        int offer = game_offer_ahead(&ctx->game);
        if (offer > 0)
            snprintf(request, sizeof request, "TGOPENING swap %d", offer);
        else
            snprintf(request, sizeof request, "TGOPENING swap");
        if (!ask(ctx, c, request, line, sizeof line, &ms))
            return false;
        if (!is_word(line, "SWAP") && !is_word(line, "NOSWAP"))
            return garbage(ctx, c, line, request, "SWAP or NOSWAP");
        /* SWAP takes black: an exchange only for white's holder. */
        a = game_action(is_word(line, "SWAP") == (c == WHITE) ? ACT_SWAP : ACT_NOSWAP);
        return apply_answer(ctx, c, &a, request, line, ms);
    }
    case STEP_DECLARE: {
        snprintf(request, sizeof request, "TGOPENING declare %d", t->declare_max);
        if (!ask(ctx, c, request, line, sizeof line, &ms))
            return false;
        char *end;
        errno = 0;
        long long v = strtoll(line, &end, 10);
        while (*end == ' ' || *end == '\t')
            end++;
        if (end == line || *end != '\0' || errno == ERANGE || v < INT_MIN || v > INT_MAX)
            return garbage(ctx, c, line, request, "a number");
        a = game_action(ACT_DECLARE);
        a.n = (int)v;
        return apply_answer(ctx, c, &a, request, line, ms);
    }
    case STEP_PROPOSE:
    case STEP_FIFTH: {
        bool fifth = t->step == STEP_FIFTH;
        snprintf(request, sizeof request, "TGOPENING %s %d", fifth ? "offer" : "propose", t->propose);
        if (!ask(ctx, c, request, line, sizeof line, &ms))
            return false;
        const char *list = line;
        if (fifth) {
            int k = 0;
            char word[8] = "";
            if (sscanf(line, " %7s %n", word, &k) != 1 ||
                (strcmp(word, "OFFER") != 0 && strcmp(word, "PLACE") != 0))
                return garbage(ctx, c, line, request, "OFFER or PLACE and the points");
            list = line + k;
            if (!strcmp(word, "PLACE")) {
                Point q;
                if (!parse_points(list, r->size, 1, &q, &n))
                    return garbage(ctx, c, line, request, "PLACE and one point");
                a = game_action_place(0, q);
                return apply_answer(ctx, c, &a, request, line, ms);
            }
        }
        if (!parse_points(list, r->size, GAME_MAX_PROPOSALS, pts, &n))
            return garbage(ctx, c, line, request, "the 5th moves");
        a = game_action(ACT_PROPOSE);
        a.npoints = n;
        memcpy(a.points, pts, sizeof(Point) * (size_t)n);
        return apply_answer(ctx, c, &a, request, line, ms);
    }
    case STEP_CHOOSE: {
        size_t len = (size_t)snprintf(request, sizeof request, "TGOPENING choose");
        for (int i = 0; i < t->nproposals && len + 16 < sizeof request; i++)
            len += (size_t)snprintf(request + len, sizeof request - len, " %d,%d",
                                    point_x(t->proposals[i]), point_y(t->proposals[i]));
        if (!ask(ctx, c, request, line, sizeof line, &ms))
            return false;
        a = game_action(ACT_CHOOSE);
        if (!parse_points(line, r->size, 1, &a.point, &n))
            return garbage(ctx, c, line, "TGOPENING choose", "one of the 5th moves");
        return apply_answer(ctx, c, &a, "TGOPENING choose", line, ms);
    }
    default:
        /* Swap2 goes through SWAP2BOARD; no other step comes before play. */
        finish(ctx, END_GARBAGE, c, "the referee cannot ask for this opening step");
        return false;
    }
}

/* Runs the opening rule until ordinary play starts. False when the game
 * ended in it. */
static bool scripted_opening(GameCtx *ctx)
{
    for (;;) {
        GameTurn t;
        game_turn(&ctx->game, &t);
        if (t.phase == GAME_OVER)
            return true; /* the referee's board has ended it too */
        follow_colours(ctx, &t);
        if (t.step == STEP_PLAY) /* the game may still count a skippable step as opening */
            return true;
        if (!opening_decision(ctx, &t))
            return false;
    }
}

bool match_play_game(const MatchRules *r, const char *black_cmd, const char *white_cmd,
                     const Point *opening, int nopening, MatchGame *game, TgError *err)
{
    GameCtx *ctx = calloc(1, sizeof *ctx);
    if (!ctx) {
        tg_error_set(err, 0, 0, "out of memory");
        return false;
    }
    memset(game, 0, sizeof *game);
    ctx->r = r;
    ctx->g = game;
    ctx->proc[0].pid = ctx->proc[1].pid = -1;
    if (!board_init(&ctx->board, r->size, r->rule)) {
        tg_error_set(err, 0, 0, "board size %d: must be %d..%d", r->size, BOARD_MIN_SIZE,
                     BOARD_MAX_SIZE);
        free(ctx);
        return false;
    }
    if (r->opening != OPENING_FREE && nopening > 0) {
        tg_error_set(err, 0, 0, "a %s game takes no opening stones", opening_name(r->opening));
        free(ctx);
        return false;
    }
    if (r->opening == OPENING_DESIGNATED) {
        tg_error_set(err, 0, 0, "a designated opening is given as opening stones");
        free(ctx);
        return false;
    }
    if (scripted(r->opening)) {
        GameConfig cfg;
        variant_default(&cfg);
        cfg.size = r->size;
        cfg.rule = r->rule;
        cfg.opening = r->opening;
        cfg.forbidden = FORBID_MODE_AUTO;
        cfg.no_pass = true;
        if (!game_init(&ctx->game, &cfg, err)) {
            free(ctx);
            return false;
        }
        ctx->has_game = true;
    }
    for (int i = 0; i < nopening; i++) {
        Point q = opening[i];
        Color c = i % 2 ? WHITE : BLACK;
        if (!board_on(&ctx->board, q) || ctx->board.cell[q] != EMPTY ||
            rules_is_win(&ctx->board, q, c, NULL, NULL)) {
            tg_error_set(err, 0, i + 1, "opening stone %d is off the board, taken or wins", i + 1);
            free(ctx);
            return false;
        }
        board_play(&ctx->board, q, c);
        game->moves[game->count++] = q;
    }
    game->opening = nopening;
    default_name(&ctx->proc[0], black_cmd);
    default_name(&ctx->proc[1], white_cmd);
    bool running = start_engine(ctx, BLACK, black_cmd) && start_engine(ctx, WHITE, white_cmd);
    if (running && r->opening == OPENING_SWAP2)
        running = swap2_opening(ctx);
    else if (running && ctx->has_game)
        running = scripted_opening(ctx);
    if (running && ctx->board.count >= board_area(&ctx->board)) {
        finish(ctx, END_DRAW_FULL, EMPTY, "the board is full");
        running = false;
    }
    while (running)
        running = play_move(ctx, board_side_to_move(&ctx->board));
    for (int s = 0; s < 2; s++) {
        if (!game->name[s][0])
            snprintf(game->name[s], sizeof game->name[s], "%s", ctx->proc[s].name);
        proc_close(&ctx->proc[s]);
    }
    if (ctx->has_game)
        game_free(&ctx->game);
    free(ctx);
    return true;
}

char *match_game_psq(const MatchGame *g, int size)
{
    size_t cap = 256 + (size_t)g->count * 32;
    char *s = malloc(cap);
    if (!s)
        return NULL;
    size_t n = (size_t)snprintf(s, cap, "Piskvorky %dx%d, 11:11, 0\n", size, size);
    for (int i = 0; i < g->count; i++)
        n += (size_t)snprintf(s + n, cap - n, "%d,%d,%d\n", point_x(g->moves[i]) + 1,
                              point_y(g->moves[i]) + 1, i < g->opening ? 0 : g->ms[i]);
    snprintf(s + n, cap - n, "%s\n%s\n-1\n", g->name[0], g->name[1]);
    return s;
}

char *match_game_tgn(const MatchGame *g, const MatchRules *r, TgError *err)
{
    Record rec;
    record_init(&rec);
    rec.config.size = r->size;
    rec.config.rule = r->rule;
    rec.config.opening = r->opening;
    rec.has = REC_HAS_SIZE | REC_HAS_RULE | REC_HAS_OPENING;
    int next = 0, from = 0;
    for (int k = 0; k < g->nactions; k++) {
        if (!record_append(&rec, &g->actions[k], 0, 0)) {
            tg_error_set(err, 0, 0, "out of memory");
            record_free(&rec);
            return NULL;
        }
        from += g->actions[k].type == ACT_PLACE || g->actions[k].type == ACT_CHOOSE;
    }
    for (int i = from; i <= g->count; i++) {
        Action a;
        bool choice = next < g->nchoices && g->choice[next].after == i;
        if (!choice && i == g->count)
            break;
        record_action(&a, choice ? (g->choice[next].swap ? ACT_SWAP : ACT_NOSWAP) : ACT_PLACE);
        if (choice) {
            next++;
            i--; /* the stone at i comes after the choice */
        } else {
            a.point = g->moves[i];
        }
        if (!record_append(&rec, &a, 0, 0)) {
            tg_error_set(err, 0, 0, "out of memory");
            record_free(&rec);
            return NULL;
        }
    }
    char *body = record_write(FORMAT_TGN, &rec, err);
    record_free(&rec);
    if (!body)
        return NULL;
    const char *result = g->winner == BLACK ? "1-0" : g->winner == WHITE ? "0-1" : "1/2-1/2";
    size_t cap = strlen(body) + 512;
    char *s = malloc(cap);
    if (s)
        snprintf(s, cap, "# black: %s\n# white: %s\n# result: %s (%s: %s)\n# opening stones: %d\n%s",
                 g->name[0], g->name[1], result, match_end_name(g->end), g->reason, g->opening,
                 body);
    else
        tg_error_set(err, 0, 0, "out of memory");
    free(body);
    return s;
}

/* ---- statistics --------------------------------------------------------- */

static double elo_of(double score)
{
    if (score <= 0)
        return -INFINITY;
    if (score >= 1)
        return INFINITY;
    return -400.0 * log10(1.0 / score - 1.0);
}

/* Mean and variance of one game's score (1, 1/2, 0). */
static bool score_stats(const MatchScore *s, double *mean, double *var)
{
    int n = s->wins + s->losses + s->draws;
    if (n == 0)
        return false;
    double m = (s->wins + 0.5 * s->draws) / n;
    double v = (s->wins * (1 - m) * (1 - m) + s->draws * (0.5 - m) * (0.5 - m) +
                s->losses * m * m) /
               n;
    *mean = m;
    *var = v;
    return true;
}

/* The draw rate that maximises the likelihood of the results among the
 * (win, draw, loss) probabilities whose expected score is p: w = p - d/2,
 * l = 1 - p - d/2, d in [0, 2 min(p, 1 - p)]. The log-likelihood is concave in
 * d, so its derivative is bisected. */
static double constrained_draw_rate(const MatchScore *s, double p)
{
    double hi = 2 * fmin(p, 1 - p), lo = 0;
    if (s->draws == 0 || hi <= 0)
        return 0;
    for (int i = 0; i < 100; i++) {
        double d = (lo + hi) / 2, slope = s->draws / d;
        if (s->wins)
            slope -= s->wins / (2 * (p - d / 2));
        if (s->losses)
            slope -= s->losses / (2 * (1 - p - d / 2));
        if (slope > 0)
            lo = d;
        else
            hi = d;
    }
    return (lo + hi) / 2;
}

/* Rao's score statistic for "the expected score is p" under the trinomial
 * (win, draw, loss) model: n (m - p)^2 / var, with the game-score variance
 * p (1 - p) - d / 4 taken at the constrained maximum-likelihood draw rate d. */
static double score_statistic(const MatchScore *s, double m, double p)
{
    int n = s->wins + s->losses + s->draws;
    double var = p * (1 - p) - constrained_draw_rate(s, p) / 4;
    if (var <= 0)
        return (m - p) * (m - p) > 0 ? INFINITY : 0;
    return n * (m - p) * (m - p) / var;
}

/* The end of the 95% interval between the score m and the bound b (0 or 1):
 * the statistic is 0 at m and grows towards b, so bisect its crossing. */
static double score_bound(const MatchScore *s, double m, double b)
{
    const double z2 = ELO_Z95 * ELO_Z95;
    if (m == b || score_statistic(s, m, b) <= z2)
        return b;
    double in = m, out = b;
    for (int i = 0; i < 100; i++) {
        double mid = (in + out) / 2;
        if (score_statistic(s, m, mid) <= z2)
            in = mid;
        else
            out = mid;
    }
    return (in + out) / 2;
}

void match_elo(const MatchScore *s, MatchElo *out)
{
    double m, v;
    out->score = 0.5;
    out->elo = 0;
    out->lo = -INFINITY;
    out->hi = INFINITY;
    if (!score_stats(s, &m, &v))
        return;
    out->score = m;
    out->elo = elo_of(m);
    out->lo = elo_of(score_bound(s, m, 0));
    out->hi = elo_of(score_bound(s, m, 1));
}

SprtVerdict match_sprt(const MatchSprt *t, const MatchScore *s, double *llr, double *lower,
                       double *upper)
{
    *lower = log(t->beta / (1 - t->alpha));
    *upper = log((1 - t->beta) / t->alpha);
    *llr = 0;
    double m, v;
    if (!score_stats(s, &m, &v))
        return SPRT_CONTINUE;
    /* A one-sided sweep has no variance; the floor (the variance of a 95% / 5%
     * win-loss split) keeps the ratio finite so the test can still decide. */
    if (v < SPRT_MIN_VARIANCE)
        v = SPRT_MIN_VARIANCE;
    int n = s->wins + s->losses + s->draws;
    double s0 = 1 / (1 + pow(10, -t->elo0 / 400)), s1 = 1 / (1 + pow(10, -t->elo1 / 400));
    *llr = n * (s1 - s0) * (2 * m - s0 - s1) / (2 * v);
    if (*llr >= *upper)
        return SPRT_H1;
    if (*llr <= *lower)
        return SPRT_H0;
    return SPRT_CONTINUE;
}

/* ---- openings ----------------------------------------------------------- */

bool match_read_openings(const char *text, int size, Rule rule, MatchOpening **out, int *count,
                         TgError *err)
{
    *out = NULL;
    *count = 0;
    int cap = 0, lineno = 0;
    MatchOpening *list = NULL;
    Board b;
    for (const char *s = text; *s;) {
        const char *eol = s + strcspn(s, "\n");
        lineno++;
        char line[1024];
        if (eol - s >= (long)sizeof line) {
            // Cutting the line would drop its last moves without a word.
            tg_error_set(err, lineno, 0, "line %d is longer than %d characters", lineno,
                         (int)sizeof line - 1);
            free(list);
            return false;
        }
        int len = (int)(eol - s);
        memcpy(line, s, (size_t)len);
        line[len] = '\0';
        s = *eol ? eol + 1 : eol;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        MatchOpening o = {0};
        board_init(&b, size, rule);
        char *save = NULL;
        int col = 0;
        for (char *tok = strtok_r(line, " \t\r,", &save); tok; tok = strtok_r(NULL, " \t\r,", &save)) {
            col++;
            Point q;
            TgError perr;
            if (!coord_parse(tok, size, &q, &perr)) {
                tg_error_set(err, lineno, col, "line %d, move %d '%s': %s", lineno, col, tok,
                             perr.msg);
                free(list);
                return false;
            }
            Color c = o.len % 2 ? WHITE : BLACK;
            if (b.cell[q] != EMPTY || rules_is_win(&b, q, c, NULL, NULL) ||
                o.len >= MATCH_OPENING_MAX) {
                tg_error_set(err, lineno, col, "line %d, move %d '%s': %s", lineno, col, tok,
                             o.len >= MATCH_OPENING_MAX ? "too many stones"
                             : b.cell[q] != EMPTY  ? "the point is taken"
                                                   : "the stone makes five");
                free(list);
                return false;
            }
            board_play(&b, q, c);
            o.p[o.len++] = q;
        }
        if (o.len == 0)
            continue;
        if (*count == cap) {
            cap = cap ? 2 * cap : 16;
            MatchOpening *grown = realloc(list, (size_t)cap * sizeof *list);
            if (!grown) {
                free(list);
                tg_error_set(err, lineno, 0, "out of memory");
                return false;
            }
            list = grown;
        }
        list[(*count)++] = o;
    }
    *out = list;
    return true;
}
