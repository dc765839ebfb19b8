/* tgn.c — the native .tgn text format: optional header lines, then actions
 * separated by white space, `#` comments. See docs/records.md for the grammar. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "record_internal.h"
#include "tengen/coord.h"

#define WORD_MAX 16
#define ACTIONS_PER_LINE 10

typedef struct {
    const char *s;
    size_t pos;
    int line, col;
} Lexer;

typedef struct {
    const char *s;
    size_t n;
    int line, col;
} Token;

typedef struct {
    Lexer lx;
    Record *r;
    TgError *err;
} Parser;

static void lex_advance(Lexer *lx)
{
    if (lx->s[lx->pos] == '\n') {
        lx->line++;
        lx->col = 1;
    } else {
        lx->col++;
    }
    lx->pos++;
}

static bool is_blank(char c)
{
    return isspace((unsigned char)c) != 0;
}

/* Next token (a run of non-blank characters not containing '#'); false at the end. */
static bool lex_next(Lexer *lx, Token *t)
{
    for (;;) {
        char c = lx->s[lx->pos];
        if (c == '\0')
            return false;
        if (c == '#') {
            while (lx->s[lx->pos] && lx->s[lx->pos] != '\n')
                lex_advance(lx);
        } else if (is_blank(c)) {
            lex_advance(lx);
        } else {
            break;
        }
    }
    t->s = lx->s + lx->pos;
    t->line = lx->line;
    t->col = lx->col;
    while (lx->s[lx->pos] && !is_blank(lx->s[lx->pos]) && lx->s[lx->pos] != '#')
        lex_advance(lx);
    t->n = (size_t)(lx->s + lx->pos - t->s);
    return true;
}

/* The next token when it is on the given line, without consuming it. */
static bool lex_peek_on_line(const Lexer *lx, int line, Token *t)
{
    Lexer copy = *lx;
    return lex_next(&copy, t) && t->line == line;
}

/* Lower-case copy of a short token; false (and "") when it is too long to be a word. */
static bool token_word(const Token *t, char *buf)
{
    buf[0] = '\0';
    if (t->n >= WORD_MAX)
        return false;
    for (size_t i = 0; i < t->n; i++)
        buf[i] = (char)tolower((unsigned char)t->s[i]);
    buf[t->n] = '\0';
    return true;
}

static bool fail(Parser *ps, const Token *t, const char *what)
{
    char q[QUOTE_BUF];
    tg_error_set(ps->err, t->line, t->col, "'%s': %s", rec_quote(t->s, t->n, q), what);
    return false;
}

/* The argument of keyword kw, which must follow on the same line. */
static bool take_argument(Parser *ps, const Token *kw, const char *what, Token *arg)
{
    if (!lex_peek_on_line(&ps->lx, kw->line, arg)) {
        char q[QUOTE_BUF], msg[128];
        snprintf(msg, sizeof msg, "missing %s after it on the same line", what);
        tg_error_set(ps->err, kw->line, kw->col, "'%s': %s", rec_quote(kw->s, kw->n, q), msg);
        return false;
    }
    lex_next(&ps->lx, arg);
    return true;
}

/* Parses s[0..n) (part of token t, starting at column col) as a point, with the
 * board prefix "1:" / "2:" that the dual-board variant requires. */
static bool parse_point(Parser *ps, const char *s, size_t n, int line, int col, Point *p,
                        int *board)
{
    Token t = {s, n, line, col};
    bool prefixed = n >= 2 && s[1] == ':' && isdigit((unsigned char)s[0]);
    *board = 0;
    if (ps->r->config.dualboard) {
        if (!prefixed || (s[0] != '1' && s[0] != '2'))
            return fail(ps, &t, "a dual-board point needs its board first: 1:h8 or 2:h8");
        *board = s[0] - '1';
        s += 2;
        n -= 2;
    } else if (prefixed) {
        return fail(ps, &t, "a board prefix is only for the dual-board variant (rule dualboard)");
    }
    char buf[WORD_MAX];
    TgError perr;
    if (n >= WORD_MAX || n == 0)
        return fail(ps, &t, "not a point (expected a column letter and a row number, e.g. h8)");
    memcpy(buf, s, n);
    buf[n] = '\0';
    if (!coord_parse(buf, ps->r->config.size, p, &perr)) {
        tg_error_set(ps->err, line, col, "%s", perr.msg);
        return false;
    }
    return true;
}

static bool append(Parser *ps, const Action *a, const Token *t)
{
    if (record_append(ps->r, a, t->line, t->col))
        return true;
    tg_error_set(ps->err, t->line, t->col, "out of memory");
    return false;
}

/* ---- headers ---- */

static bool header_value(Parser *ps, const char *word, const Token *v)
{
    GameConfig *cfg = &ps->r->config;
    char val[WORD_MAX];
    bool short_word = token_word(v, val);
    if (strcmp(word, "size") == 0) {
        if (!rec_int(v->s, v->n, BOARD_MIN_SIZE, BOARD_MAX_SIZE, &cfg->size))
            return fail(ps, v, "the board size must be a number 5..22");
        ps->r->has |= REC_HAS_SIZE;
    } else if (strcmp(word, "rule") == 0) {
        if (!short_word || !variant_rule_parse(val, cfg))
            return fail(ps, v, "unknown rule (freestyle, standard, renju, caro, dualboard)");
        ps->r->has |= REC_HAS_RULE;
    } else if (strcmp(word, "opening") == 0) {
        if (!short_word || !opening_parse(val, &cfg->opening))
            return fail(ps, v,
                        "unknown opening (free, center, swap3, designated, rif, yamaguchi, swap1, "
                        "swap2, soosorv8, taraguchi10)");
        ps->r->has |= REC_HAS_OPENING;
    } else if (strcmp(word, "forbidden") == 0) {
        if (!short_word || !forbid_mode_parse(val, &cfg->forbidden))
            return fail(ps, v, "unknown forbidden-move mode (auto, claim)");
        ps->r->has |= REC_HAS_FORBIDDEN;
    } else {
        if (!short_word || !record_designated_parse(val, &cfg->designated))
            return fail(ps, v,
                        "unknown designated opening (1D..13D, 1I..13I, or a name such as kagetsu)");
        ps->r->has |= REC_HAS_DESIGNATED;
    }
    return true;
}

static bool parse_header(Parser *ps, const Token *kw, const char *word, unsigned flag)
{
    if (ps->r->count > 0)
        return fail(ps, kw, "a header must come before the first action");
    if (ps->r->has & flag)
        return fail(ps, kw, "this header is given twice");
    Token v;
    return take_argument(ps, kw, "value", &v) && header_value(ps, word, &v);
}

/* ---- actions ---- */

static bool parse_declare(Parser *ps, const Token *kw)
{
    Token v;
    if (!take_argument(ps, kw, "number", &v))
        return false;
    Action a;
    record_action(&a, ACT_DECLARE);
    if (!rec_int(v.s, v.n, 1, ACTION_MAX_POINTS, &a.n))
        return fail(ps, &v, "'declare' needs a number 1..16");
    return append(ps, &a, kw);
}

static bool parse_choose(Parser *ps, const Token *kw)
{
    Token v;
    if (!take_argument(ps, kw, "point", &v))
        return false;
    Action a;
    record_action(&a, ACT_CHOOSE);
    return parse_point(ps, v.s, v.n, v.line, v.col, &a.point, &a.board) && append(ps, &a, kw);
}

/* One token of a proposal list: points separated by commas. *need says whether
 * a point must come next (at the start and after each comma). */
static bool propose_token(Parser *ps, const Token *t, Action *a, bool *need)
{
    size_t i = 0;
    while (i < t->n) {
        if (t->s[i] == ',') {
            if (*need) {
                Token c = {t->s + i, 1, t->line, t->col + (int)i};
                return fail(ps, &c, "expected a point before the comma");
            }
            *need = true;
            i++;
            continue;
        }
        size_t j = i;
        while (j < t->n && t->s[j] != ',')
            j++;
        Token item = {t->s + i, j - i, t->line, t->col + (int)i};
        if (a->npoints == ACTION_MAX_POINTS)
            return fail(ps, &item, "more than 16 proposed points");
        int board;
        if (!parse_point(ps, item.s, item.n, item.line, item.col, &a->points[a->npoints], &board))
            return false;
        if (a->npoints > 0 && board != a->board)
            return fail(ps, &item, "all proposed points must be on the same board");
        a->board = board;
        a->npoints++;
        *need = false;
        i = j;
    }
    return true;
}

/* propose P,P,...: white space is allowed around the commas, not a line break. */
static bool parse_propose(Parser *ps, const Token *kw)
{
    Action a;
    record_action(&a, ACT_PROPOSE);
    bool need = true;
    Token t;
    if (!take_argument(ps, kw, "list of points", &t))
        return false;
    for (;;) {
        if (!propose_token(ps, &t, &a, &need))
            return false;
        Token next;
        bool more = lex_peek_on_line(&ps->lx, kw->line, &next);
        if (need && !more) {
            Token end = {t.s + t.n - 1, 1, t.line, t.col + (int)t.n - 1};
            return fail(ps, &end, "the list of points ends with a comma");
        }
        if (!need && (!more || next.s[0] != ','))
            break;
        lex_next(&ps->lx, &t);
    }
    return append(ps, &a, kw);
}

static const struct {
    const char *word;
    ActionType type;
} SIMPLE[] = {
    {"pass", ACT_PASS},   {"swap", ACT_SWAP},     {"noswap", ACT_NOSWAP},
    {"claim", ACT_CLAIM}, {"resign", ACT_RESIGN}, {"draw", ACT_DRAW},
};

static const struct {
    const char *word;
    unsigned flag;
} HEADERS[] = {
    {"size", REC_HAS_SIZE},
    {"rule", REC_HAS_RULE},
    {"opening", REC_HAS_OPENING},
    {"forbidden", REC_HAS_FORBIDDEN},
    {"designated", REC_HAS_DESIGNATED},
};

#define COUNT(a) (sizeof(a) / sizeof(a)[0])

static bool looks_like_point(const Token *t)
{
    if (t->n >= 2 && t->s[1] == ':' && isdigit((unsigned char)t->s[0]))
        return true;
    return t->n >= 2 && isalpha((unsigned char)t->s[0]) && isdigit((unsigned char)t->s[1]);
}

static bool parse_token(Parser *ps, const Token *t)
{
    char word[WORD_MAX];
    token_word(t, word);
    for (size_t i = 0; i < COUNT(HEADERS); i++)
        if (strcmp(word, HEADERS[i].word) == 0)
            return parse_header(ps, t, word, HEADERS[i].flag);
    for (size_t i = 0; i < COUNT(SIMPLE); i++)
        if (strcmp(word, SIMPLE[i].word) == 0) {
            Action a;
            record_action(&a, SIMPLE[i].type);
            return append(ps, &a, t);
        }
    if (strcmp(word, "declare") == 0)
        return parse_declare(ps, t);
    if (strcmp(word, "propose") == 0)
        return parse_propose(ps, t);
    if (strcmp(word, "choose") == 0)
        return parse_choose(ps, t);
    if (!looks_like_point(t))
        return fail(ps, t, "unknown word (expected a point such as h8, an action or a header)");
    Action a;
    record_action(&a, ACT_PLACE);
    return parse_point(ps, t->s, t->n, t->line, t->col, &a.point, &a.board) && append(ps, &a, t);
}

bool tgn_parse(const char *text, Record *r, TgError *err)
{
    Parser ps = {{text, 0, 1, 1}, r, err};
    Token t;
    while (lex_next(&ps.lx, &t))
        if (!parse_token(&ps, &t))
            return false;
    return true;
}

bool tgn_parse_action(const char *text, const GameConfig *cfg, int line, int col, Action *out,
                      TgError *err)
{
    Record one;
    record_init(&one);
    one.config = *cfg;
    Parser ps = {{text, 0, line, col}, &one, err};
    Token t;
    bool ok = true;
    while (ok && lex_next(&ps.lx, &t)) {
        if (one.count > 0 || one.has) {
            ok = fail(&ps, &t, "expected a single action");
            break;
        }
        ok = parse_token(&ps, &t);
        if (ok && one.has)
            ok = fail(&ps, &t, "a header is not an action");
    }
    if (ok && one.count == 0) {
        tg_error_set(err, line, col, "expected an action");
        ok = false;
    }
    if (ok)
        *out = one.actions[0].action;
    record_free(&one);
    return ok;
}

/* ---- writer ---- */

static void write_point(StrBuf *b, const GameConfig *cfg, int board, Point p)
{
    char buf[COORD_BUF];
    if (cfg->dualboard)
        strbuf_addf(b, "%d:", board + 1);
    strbuf_addf(b, "%s", coord_format(p, cfg->size, buf));
}

void tgn_write_action(StrBuf *b, const GameConfig *cfg, const Action *a)
{
    for (size_t i = 0; i < COUNT(SIMPLE); i++)
        if (SIMPLE[i].type == a->type) {
            strbuf_addf(b, "%s", SIMPLE[i].word);
            return;
        }
    switch (a->type) {
    case ACT_PLACE:
        write_point(b, cfg, a->board, a->point);
        break;
    case ACT_CHOOSE:
        strbuf_addf(b, "choose ");
        write_point(b, cfg, a->board, a->point);
        break;
    case ACT_DECLARE:
        strbuf_addf(b, "declare %d", a->n);
        break;
    case ACT_PROPOSE:
        strbuf_addf(b, "propose ");
        for (int i = 0; i < a->npoints; i++) {
            if (i)
                strbuf_addf(b, ",");
            write_point(b, cfg, a->board, a->points[i]);
        }
        break;
    default:
        break;
    }
}

char *tgn_write(const Record *r, TgError *err)
{
    if (!rec_check(r, err))
        return NULL;
    const GameConfig *cfg = &r->config;
    GameConfig def;
    variant_default(&def);
    StrBuf b = {0};
    if ((r->has & REC_HAS_SIZE) || cfg->size != def.size)
        strbuf_addf(&b, "size %d\n", cfg->size);
    if ((r->has & REC_HAS_RULE) || strcmp(variant_rule_name(cfg), variant_rule_name(&def)) != 0)
        strbuf_addf(&b, "rule %s\n", variant_rule_name(cfg));
    if ((r->has & REC_HAS_OPENING) || cfg->opening != def.opening)
        strbuf_addf(&b, "opening %s\n", opening_name(cfg->opening));
    if ((r->has & REC_HAS_FORBIDDEN) || cfg->forbidden != def.forbidden)
        strbuf_addf(&b, "forbidden %s\n", forbid_mode_name(cfg->forbidden));
    if (cfg->designated >= 0)
        strbuf_addf(&b, "designated %s\n", record_designated_name(cfg->designated));
    for (int i = 0; i < r->count; i++) {
        tgn_write_action(&b, cfg, &r->actions[i].action);
        bool end = i + 1 == r->count || (i + 1) % ACTIONS_PER_LINE == 0;
        strbuf_addf(&b, end ? "\n" : " ");
    }
    return strbuf_finish(&b, err);
}
