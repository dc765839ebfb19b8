/* sgf.c — SGF FF[4] records of Gomoku/Renju (GM[4]).
 *
 * Points are two letters, column then row, "aa" the top-left corner (the
 * usual SGF orientation, which renju editors share): h8 on 15x15 is "hh", a1
 * is "ao". B[] and W[] (and B[tt] on boards up to 19) are passes. The root
 * gives SZ and RU (freestyle, standard, renju, caro; "gomoku" reads as
 * freestyle). Stones must alternate black and white as the game plays them.
 *
 * tengen's own properties keep what plain SGF has no word for:
 *   TGO[rif]  opening rule      TGF[claim] forbidden-move mode
 *   TGD[4D]   designated opening
 *   TGA[...]  one non-stone action in .tgn syntax on a node of its own
 *             (swap, noswap, declare 2, propose j9,k10, claim, resign, draw);
 *             on a B/W node, TGA[choose] marks the stone as the chosen 5th move.
 * Reading takes the main line (the first variation at every branch) of the
 * requested game tree, skips comments and other properties, and rejects set-up
 * stones (AB, AW, AE) and dual-board games, which SGF cannot hold. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "record_internal.h"

#define VALUE_MAX 256
#define IDENT_MAX 16
#define NODES_PER_LINE 10

typedef struct {
    const char *s; /* raw, still escaped */
    size_t n;
    int line, col;
} Value;

typedef struct {
    Cursor c;
    Record *r;
    TgError *err;
    Color to_move;
} Sgf;

static bool fail_at(Sgf *p, int line, int col, const char *fmt, const char *what)
{
    tg_error_set(p->err, line, col, fmt, what);
    return false;
}

static bool fail_value(Sgf *p, const char *ident, const Value *v, const char *what)
{
    char q[QUOTE_BUF], msg[200];
    snprintf(msg, sizeof msg, "%s[%s]: %s", ident, rec_quote(v->s, v->n, q), what);
    return fail_at(p, v->line, v->col, "%s", msg);
}

/* Reads one [value]; the cursor is on '['. */
static bool read_value(Sgf *p, Value *v)
{
    Cursor open = p->c;
    cur_advance(&p->c);
    v->s = p->c.s + p->c.pos;
    v->line = p->c.line;
    v->col = p->c.col;
    for (;;) {
        char ch = cur_peek(&p->c);
        if (ch == '\0')
            return fail_at(p, open.line, open.col, "%s",
                           "unterminated property value '[': no closing ']'");
        if (ch == ']')
            break;
        if (ch == '\\') {
            cur_advance(&p->c);
            if (cur_peek(&p->c) == '\0')
                continue;
        }
        cur_advance(&p->c);
    }
    v->n = (size_t)(p->c.s + p->c.pos - v->s);
    cur_advance(&p->c);
    return true;
}

/* Unescaped copy of a short value; false when it does not fit. */
static bool value_text(const Value *v, char *buf, size_t cap)
{
    size_t o = 0;
    for (size_t i = 0; i < v->n; i++) {
        if (v->s[i] == '\\' && i + 1 < v->n)
            i++;
        if (o + 1 >= cap)
            return false;
        buf[o++] = v->s[i];
    }
    buf[o] = '\0';
    return true;
}

/* A short value, trimmed and lower-cased, for names. */
static bool value_word(const Value *v, char *buf, size_t cap)
{
    if (!value_text(v, buf, cap))
        return false;
    size_t a = 0, n = strlen(buf);
    while (a < n && isspace((unsigned char)buf[a]))
        a++;
    while (n > a && isspace((unsigned char)buf[n - 1]))
        n--;
    memmove(buf, buf + a, n - a);
    buf[n - a] = '\0';
    for (char *s = buf; *s; s++)
        *s = (char)tolower((unsigned char)*s);
    return true;
}

/* ---- the set-up properties ---- */

static bool set_rule(Sgf *p, const Value *v)
{
    char w[IDENT_MAX + 16];
    GameConfig *cfg = &p->r->config;
    if (!value_word(v, w, sizeof w))
        return fail_value(p, "RU", v, "unknown rule");
    if (strcmp(w, "gomoku") == 0)
        strcpy(w, "freestyle");
    if (strcmp(w, "dualboard") == 0)
        return fail_value(p, "RU", v, "SGF cannot hold a dual-board game");
    if (!variant_rule_parse(w, cfg))
        return fail_value(p, "RU", v, "unknown rule (freestyle, standard, renju, caro)");
    p->r->has |= REC_HAS_RULE;
    return true;
}

static bool set_size(Sgf *p, const Value *v)
{
    char w[IDENT_MAX];
    int size = 0, other = 0;
    char *colon = NULL;
    bool ok = value_word(v, w, sizeof w);
    if (ok && (colon = strchr(w, ':')) != NULL) {
        *colon = '\0';
        ok = rec_int(colon + 1, strlen(colon + 1), BOARD_MIN_SIZE, BOARD_MAX_SIZE, &other);
    }
    ok = ok && rec_int(w, strlen(w), BOARD_MIN_SIZE, BOARD_MAX_SIZE, &size);
    if (!ok || (colon && other != size))
        return fail_value(p, "SZ", v, "the board must be square, 5..22 lines");
    p->r->config.size = size;
    p->r->has |= REC_HAS_SIZE;
    return true;
}

static bool set_game(Sgf *p, const Value *v)
{
    char w[IDENT_MAX];
    if (!value_word(v, w, sizeof w) || strcmp(w, "4") != 0)
        return fail_value(p, "GM", v, "not a Gomoku/Renju record (GM[4])");
    return true;
}

static bool set_tengen(Sgf *p, const char *ident, const Value *v)
{
    char w[IDENT_MAX + 16];
    GameConfig *cfg = &p->r->config;
    bool ok = value_word(v, w, sizeof w);
    if (strcmp(ident, "TGO") == 0) {
        if (!ok || !opening_parse(w, &cfg->opening))
            return fail_value(p, ident, v, "unknown opening");
        p->r->has |= REC_HAS_OPENING;
    } else if (strcmp(ident, "TGF") == 0) {
        if (!ok || !forbid_mode_parse(w, &cfg->forbidden))
            return fail_value(p, ident, v, "unknown forbidden-move mode (auto, claim)");
        p->r->has |= REC_HAS_FORBIDDEN;
    } else {
        if (!ok || !record_designated_parse(w, &cfg->designated))
            return fail_value(p, ident, v, "unknown designated opening");
        p->r->has |= REC_HAS_DESIGNATED;
    }
    return true;
}

/* ---- nodes ---- */

typedef struct {
    bool has_move, has_action;
    Color color;
    Value move, action;
    char ident[IDENT_MAX];
} Node;

static bool append(Sgf *p, const Action *a, int line, int col)
{
    if (record_append(p->r, a, line, col))
        return true;
    return fail_at(p, line, col, "%s", "out of memory");
}

static bool sgf_point(Sgf *p, const Node *nd, Point *out, bool *pass)
{
    const Value *v = &nd->move;
    int size = p->r->config.size;
    *pass = v->n == 0 || (size <= 19 && v->n == 2 && v->s[0] == 't' && v->s[1] == 't');
    if (*pass)
        return true;
    if (v->n != 2 || !islower((unsigned char)v->s[0]) || !islower((unsigned char)v->s[1]))
        return fail_value(p, nd->ident, v, "not a point (two letters, aa = top-left)");
    int x = v->s[0] - 'a', y = v->s[1] - 'a';
    if (x >= size || y >= size) {
        char msg[64];
        snprintf(msg, sizeof msg, "off the %dx%d board", size, size);
        return fail_value(p, nd->ident, v, msg);
    }
    *out = point_make(x, y);
    return true;
}

static bool finish_move(Sgf *p, const Node *nd)
{
    const Value *v = &nd->move;
    if (nd->color != p->to_move)
        return fail_value(
            p, nd->ident, v,
            nd->color == BLACK
                ? "black stone where white is to move (stones alternate; a pass is W[])"
                : "white stone where black is to move (stones alternate; a pass is B[])");
    Point pt = POINT_NONE;
    bool pass;
    if (!sgf_point(p, nd, &pt, &pass))
        return false;
    Action a;
    if (nd->has_action) {
        char w[IDENT_MAX];
        if (!value_word(&nd->action, w, sizeof w) || strcmp(w, "choose") != 0 || pass)
            return fail_value(p, "TGA", &nd->action,
                              "on a stone node only TGA[choose] (the chosen 5th move) is allowed");
        record_action(&a, ACT_CHOOSE);
    } else {
        record_action(&a, pass ? ACT_PASS : ACT_PLACE);
    }
    a.point = pass ? POINT_NONE : pt;
    p->to_move = color_other(p->to_move);
    return append(p, &a, v->line, v->col);
}

static bool finish_action(Sgf *p, const Node *nd)
{
    char text[VALUE_MAX];
    const Value *v = &nd->action;
    if (!value_text(v, text, sizeof text))
        return fail_value(p, "TGA", v, "value too long");
    Action a;
    if (!tgn_parse_action(text, &p->r->config, v->line, v->col, &a, p->err))
        return false;
    if (a.type == ACT_PLACE || a.type == ACT_CHOOSE)
        return fail_value(p, "TGA", v, "a stone is written B[..] or W[..], not TGA");
    if (a.type == ACT_PASS)
        p->to_move = color_other(p->to_move);
    return append(p, &a, v->line, v->col);
}

static bool property(Sgf *p, Node *nd, const char *ident, const Value *first, int nvalues)
{
    bool setup = !strcmp(ident, "SZ") || !strcmp(ident, "RU") || !strcmp(ident, "GM") ||
                 !strcmp(ident, "TGO") || !strcmp(ident, "TGF") || !strcmp(ident, "TGD");
    if (setup && p->r->count > 0)
        return fail_value(p, ident, first, "a set-up property must come before the first move");
    if (!strcmp(ident, "B") || !strcmp(ident, "W")) {
        if (nd->has_move || nvalues != 1)
            return fail_value(p, ident, first, "one stone a node");
        nd->has_move = true;
        nd->color = ident[0] == 'B' ? BLACK : WHITE;
        nd->move = *first;
        strcpy(nd->ident, ident);
    } else if (!strcmp(ident, "TGA")) {
        if (nd->has_action || nvalues != 1)
            return fail_value(p, ident, first, "one action a node");
        nd->has_action = true;
        nd->action = *first;
    } else if (!strcmp(ident, "AB") || !strcmp(ident, "AW") || !strcmp(ident, "AE")) {
        return fail_value(p, ident, first, "set-up stones are not supported (play them as moves)");
    } else if (!strcmp(ident, "SZ")) {
        return set_size(p, first);
    } else if (!strcmp(ident, "RU")) {
        return set_rule(p, first);
    } else if (!strcmp(ident, "GM")) {
        return set_game(p, first);
    } else if (!strcmp(ident, "TGO") || !strcmp(ident, "TGF") || !strcmp(ident, "TGD")) {
        return set_tengen(p, ident, first);
    }
    return true; /* comments, names, dates, PL and the rest carry nothing we keep */
}

/* Reads a property identifier: upper-case letters (lower-case letters, which
 * old SGF versions allowed inside names, are dropped). */
static bool read_ident(Sgf *p, char *ident)
{
    Cursor at = p->c;
    size_t n = 0;
    while (isalpha((unsigned char)cur_peek(&p->c))) {
        char ch = cur_peek(&p->c);
        if (isupper((unsigned char)ch)) {
            if (n + 1 >= IDENT_MAX)
                return fail_at(p, at.line, at.col, "%s", "property name too long");
            ident[n++] = ch;
        }
        cur_advance(&p->c);
    }
    ident[n] = '\0';
    if (n == 0)
        return fail_at(p, at.line, at.col, "%s", "expected a property name (upper-case letters)");
    return true;
}

/* One node; the cursor is on ';'. */
static bool read_node(Sgf *p)
{
    Node nd;
    memset(&nd, 0, sizeof nd);
    cur_advance(&p->c);
    for (;;) {
        cur_skip_space(&p->c);
        char ch = cur_peek(&p->c);
        if (!isalpha((unsigned char)ch))
            break;
        char ident[IDENT_MAX];
        Cursor at = p->c;
        if (!read_ident(p, ident))
            return false;
        cur_skip_space(&p->c);
        if (cur_peek(&p->c) != '[')
            return fail_at(p, at.line, at.col, "property '%s' has no [value]", ident);
        Value first, v;
        int nvalues = 0;
        while (cur_peek(&p->c) == '[') {
            if (!read_value(p, nvalues ? &v : &first))
                return false;
            nvalues++;
            cur_skip_space(&p->c);
        }
        if (!property(p, &nd, ident, &first, nvalues))
            return false;
    }
    if (nd.has_move)
        return finish_move(p, &nd);
    if (nd.has_action)
        return finish_action(p, &nd);
    return true;
}

/* Skips a whole game tree; the cursor is on its '('. */
static bool skip_tree(Sgf *p)
{
    Cursor open = p->c;
    long depth = 0;
    do {
        char ch = cur_peek(&p->c);
        if (ch == '\0')
            return fail_at(p, open.line, open.col, "%s",
                           "unterminated game tree '(': no closing ')'");
        if (ch == '[') {
            Value v;
            if (!read_value(p, &v))
                return false;
            continue;
        }
        if (ch == '(')
            depth++;
        else if (ch == ')')
            depth--;
        cur_advance(&p->c);
    } while (depth > 0);
    return true;
}

static bool unexpected(Sgf *p, const char *want)
{
    char ch = cur_peek(&p->c);
    char q[QUOTE_BUF];
    if (ch == '\0')
        return fail_at(p, p->c.line, p->c.col, "unexpected end of input: expected %s", want);
    char msg[160];
    snprintf(msg, sizeof msg, "'%s': expected %s", rec_quote(&p->c.s[p->c.pos], 1, q), want);
    return fail_at(p, p->c.line, p->c.col, "%s", msg);
}

/* Reads the main line of the tree at the cursor (on '('): its nodes, then the
 * first variation's, and so on; the other variations are skipped. */
static bool read_main_line(Sgf *p)
{
    long depth = 1;
    cur_advance(&p->c);
    for (;;) {
        cur_skip_space(&p->c);
        char ch = cur_peek(&p->c);
        if (ch == ';') {
            if (!read_node(p))
                return false;
        } else if (ch == '(') {
            cur_advance(&p->c);
            depth++;
        } else if (ch == ')') {
            break;
        } else {
            return unexpected(p, "';' (a node), '(' or ')'");
        }
    }
    /* Close the innermost tree, then skip the other variations of each level. */
    while (depth > 0) {
        cur_skip_space(&p->c);
        char ch = cur_peek(&p->c);
        if (ch == ')') {
            cur_advance(&p->c);
            depth--;
        } else if (ch == '(') {
            if (!skip_tree(p))
                return false;
        } else {
            return unexpected(p, "'(' or ')' after a variation");
        }
    }
    return true;
}

bool sgf_parse(const char *text, int game, Record *r, TgError *err)
{
    Sgf p = {{text, 0, 1, 1}, r, err, BLACK};
    if (strncmp(text, "\xef\xbb\xbf", 3) == 0)
        p.c.pos = 3;
    for (int i = 1;; i++) {
        cur_skip_space(&p.c);
        if (cur_peek(&p.c) != '(') {
            if (cur_peek(&p.c) == '\0' && i > 1) {
                tg_error_set(err, p.c.line, p.c.col, "game %d: the file holds only %d game%s", game,
                             i - 1, i == 2 ? "" : "s");
                return false;
            }
            return unexpected(&p, "'(' starting a game tree");
        }
        if (i == game)
            break;
        if (!skip_tree(&p))
            return false;
    }
    if (!read_main_line(&p))
        return false;
    /* Later game trees are only checked to be well formed. */
    for (;;) {
        cur_skip_space(&p.c);
        if (cur_peek(&p.c) == '\0')
            return true;
        if (cur_peek(&p.c) != '(')
            return unexpected(&p, "'(' or the end of the file");
        if (!skip_tree(&p))
            return false;
    }
}

/* ---- writer ---- */

static void write_point(StrBuf *b, Point pt)
{
    strbuf_addf(b, "%c%c", 'a' + point_x(pt), 'a' + point_y(pt));
}

char *sgf_write(const Record *r, TgError *err)
{
    if (!rec_check(r, err))
        return NULL;
    const GameConfig *cfg = &r->config;
    if (cfg->dualboard) {
        tg_error_set(err, 0, 0, "SGF cannot hold a dual-board game");
        return NULL;
    }
    GameConfig def;
    variant_default(&def);
    StrBuf b = {0};
    strbuf_addf(&b, "(;FF[4]GM[4]CA[UTF-8]AP[tengen]SZ[%d]RU[%s]", cfg->size, variant_rule_name(cfg));
    if ((r->has & REC_HAS_OPENING) || cfg->opening != def.opening)
        strbuf_addf(&b, "TGO[%s]", opening_name(cfg->opening));
    if ((r->has & REC_HAS_FORBIDDEN) || cfg->forbidden != def.forbidden)
        strbuf_addf(&b, "TGF[%s]", forbid_mode_name(cfg->forbidden));
    if (cfg->designated >= 0)
        strbuf_addf(&b, "TGD[%s]", record_designated_name(cfg->designated));
    Color c = BLACK;
    for (int i = 0; i < r->count; i++) {
        const Action *a = &r->actions[i].action;
        strbuf_addf(&b, i % NODES_PER_LINE == 0 ? "\n;" : ";");
        switch (a->type) {
        case ACT_PLACE:
        case ACT_CHOOSE:
        case ACT_PASS:
            strbuf_addf(&b, "%s[", c == BLACK ? "B" : "W");
            if (a->type != ACT_PASS)
                write_point(&b, a->point);
            strbuf_addf(&b, a->type == ACT_CHOOSE ? "]TGA[choose]" : "]");
            c = color_other(c);
            break;
        default:
            strbuf_addf(&b, "TGA[");
            tgn_write_action(&b, cfg, a);
            strbuf_addf(&b, "]");
            break;
        }
    }
    strbuf_addf(&b, ")\n");
    return strbuf_finish(&b, err);
}
