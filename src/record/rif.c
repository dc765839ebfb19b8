/* rif.c — RenjuNet database files (.rif): XML holding tables of players,
 * tournaments, rules and openings, and the games as
 *     <games><game id="..." rule="..." opening="..." ...><move>h8 i9 j10 ...</move></game></games>
 * with the stones in renju notation on 15x15. Only the stones are kept: the
 * record reads as `opening free` with the stones in order (the attributes that
 * describe proposals and swaps, alt and swap, are not kept). The N-th <game>
 * of the file, in file order, is read. Writing gives a minimal database with
 * one game of the stones actually placed. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "record_internal.h"
#include "tengen/coord.h"

#define RIF_SIZE 15
#define NAME_MAX_LEN 32

typedef struct {
    Cursor c;
    TgError *err;
} Xml;

typedef struct {
    Cursor at;
    bool closing, empty; /* </name>, <name/> */
    char name[NAME_MAX_LEN];
} Tag;

static bool xml_fail(Xml *x, const Cursor *at, const char *msg)
{
    tg_error_set(x->err, at->line, at->col, "%s", msg);
    return false;
}

static bool starts(const Cursor *c, const char *s)
{
    return strncmp(c->s + c->pos, s, strlen(s)) == 0;
}

/* Skips up to and including the terminator `end`. */
static bool skip_past(Xml *x, const char *end, const char *what)
{
    Cursor at = x->c;
    while (cur_peek(&x->c) && !starts(&x->c, end))
        cur_advance(&x->c);
    if (!cur_peek(&x->c)) {
        char msg[96];
        snprintf(msg, sizeof msg, "unterminated %s: no closing '%s'", what, end);
        return xml_fail(x, &at, msg);
    }
    for (size_t i = 0; i < strlen(end); i++)
        cur_advance(&x->c);
    return true;
}

/* Skips the attributes of a tag up to its '>' (quoted values may hold '>'). */
static bool skip_attributes(Xml *x, Tag *t)
{
    for (;;) {
        char ch = cur_peek(&x->c);
        if (ch == '\0')
            return xml_fail(x, &t->at, "unterminated tag: no closing '>'");
        if (ch == '"' || ch == '\'') {
            Cursor q = x->c;
            cur_advance(&x->c);
            while (cur_peek(&x->c) && cur_peek(&x->c) != ch)
                cur_advance(&x->c);
            if (!cur_peek(&x->c))
                return xml_fail(x, &q, "unterminated attribute value");
        } else if (ch == '/' && x->c.s[x->c.pos + 1] == '>') {
            t->empty = true;
        } else if (ch == '>') {
            cur_advance(&x->c);
            return true;
        }
        cur_advance(&x->c);
    }
}

/* Moves past the next element tag, skipping text, comments, declarations and
 * CDATA. False at the end of input (err untouched) or on an error (err set,
 * *bad true). */
static bool next_tag(Xml *x, Tag *t, bool *bad)
{
    *bad = false;
    for (;;) {
        while (cur_peek(&x->c) && cur_peek(&x->c) != '<')
            cur_advance(&x->c);
        if (!cur_peek(&x->c))
            return false;
        bool ok = true;
        if (starts(&x->c, "<!--"))
            ok = skip_past(x, "-->", "comment");
        else if (starts(&x->c, "<![CDATA["))
            ok = skip_past(x, "]]>", "CDATA section");
        else if (starts(&x->c, "<?"))
            ok = skip_past(x, "?>", "declaration");
        else if (starts(&x->c, "<!"))
            ok = skip_past(x, ">", "declaration");
        else
            break;
        if (!ok) {
            *bad = true;
            return false;
        }
    }
    memset(t, 0, sizeof *t);
    t->at = x->c;
    cur_advance(&x->c);
    if (cur_peek(&x->c) == '/') {
        t->closing = true;
        cur_advance(&x->c);
    }
    size_t n = 0;
    while (isalnum((unsigned char)cur_peek(&x->c)) || cur_peek(&x->c) == '_' ||
           cur_peek(&x->c) == '-' || cur_peek(&x->c) == ':' || cur_peek(&x->c) == '.') {
        if (n + 1 < NAME_MAX_LEN)
            t->name[n++] = (char)tolower((unsigned char)cur_peek(&x->c));
        cur_advance(&x->c);
    }
    if (n == 0) {
        *bad = true;
        return xml_fail(x, &t->at, "'<' not followed by an element name");
    }
    if (!skip_attributes(x, t)) {
        *bad = true;
        return false;
    }
    return true;
}

/* The stones of a <move> text: renju points separated by white space or
 * commas (or written together, h8i9). */
static bool parse_moves(Xml *x, Cursor end, Record *r)
{
    while (x->c.pos < end.pos) {
        char ch = cur_peek(&x->c);
        if (isspace((unsigned char)ch) || ch == ',') {
            cur_advance(&x->c);
            continue;
        }
        Cursor at = x->c;
        char tok[8];
        size_t n = 0;
        if (isalpha((unsigned char)ch)) {
            tok[n++] = ch;
            cur_advance(&x->c);
            while (x->c.pos < end.pos && isdigit((unsigned char)cur_peek(&x->c)) && n < 4) {
                tok[n++] = cur_peek(&x->c);
                cur_advance(&x->c);
            }
        }
        tok[n] = '\0';
        Point p;
        TgError perr;
        if (n < 2) {
            char q[QUOTE_BUF], msg[160];
            const char *s = at.s + at.pos;
            size_t len = 0;
            while (at.pos + len < end.pos && !isspace((unsigned char)s[len]) && len < 16)
                len++;
            snprintf(msg, sizeof msg, "'%s' in <move> is not a point (expected e.g. h8)",
                     rec_quote(s, len ? len : 1, q));
            return xml_fail(x, &at, msg);
        }
        if (!coord_parse(tok, RIF_SIZE, &p, &perr))
            return xml_fail(x, &at, perr.msg);
        Action a;
        record_action(&a, ACT_PLACE);
        a.point = p;
        if (!record_append(r, &a, at.line, at.col))
            return xml_fail(x, &at, "out of memory");
    }
    return true;
}

/* Reads the game whose start tag was just read, up to its </game>. */
static bool read_game(Xml *x, const Tag *game, Record *r)
{
    r->config.size = RIF_SIZE;
    r->config.opening = OPENING_FREE;
    r->has = REC_HAS_SIZE; /* the opening is implied, not stated */
    if (game->empty)
        return true;
    bool moves_seen = false, bad;
    Tag t;
    while (next_tag(x, &t, &bad)) {
        if (t.closing && strcmp(t.name, "game") == 0)
            return true;
        if (t.closing || strcmp(t.name, "move") != 0 || t.empty)
            continue;
        if (moves_seen)
            return xml_fail(x, &t.at, "a <game> with two <move> elements");
        moves_seen = true;
        Cursor text = x->c;
        Tag close;
        if (!next_tag(x, &close, &bad) || !close.closing || strcmp(close.name, "move") != 0)
            return bad ? false : xml_fail(x, &t.at, "<move> is not closed by </move>");
        Cursor after = x->c;
        x->c = text;
        if (!parse_moves(x, close.at, r))
            return false;
        x->c = after;
    }
    return bad ? false : xml_fail(x, &game->at, "<game> is not closed by </game>");
}

bool rif_parse(const char *text, int game, Record *r, TgError *err)
{
    Xml x = {{text, 0, 1, 1}, err};
    Tag t;
    bool bad;
    int seen = 0;
    while (next_tag(&x, &t, &bad)) {
        if (t.closing || strcmp(t.name, "game") != 0)
            continue;
        if (++seen == game)
            return read_game(&x, &t, r);
    }
    if (bad)
        return false;
    if (seen == 0)
        tg_error_set(err, x.c.line, x.c.col, "no <game> element: not a RenjuNet database");
    else
        tg_error_set(err, x.c.line, x.c.col, "game %d: the file holds only %d game%s", game, seen,
                     seen == 1 ? "" : "s");
    return false;
}

char *rif_write(const Record *r, TgError *err)
{
    if (!rec_check(r, err))
        return NULL;
    if (r->config.size != RIF_SIZE) {
        tg_error_set(err, 0, 0, "RenjuNet games are 15x15, not %dx%d", r->config.size,
                     r->config.size);
        return NULL;
    }
    Point stones[BOARD_MAX_MOVES];
    int n = rec_stones(r, stones, "a RenjuNet database", err);
    if (n < 0)
        return NULL;
    StrBuf b = {0};
    strbuf_addf(
        &b,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<database>\n<games>\n<game id=\"1\">\n<move>");
    char buf[COORD_BUF];
    for (int i = 0; i < n; i++)
        strbuf_addf(&b, "%s%s", i ? " " : "", coord_format(stones[i], RIF_SIZE, buf));
    strbuf_addf(&b, "</move>\n</game>\n</games>\n</database>\n");
    return strbuf_finish(&b, err);
}
