/* psq.c — Piskvork game files (Gomocup's archive format): a header line
 * "Piskvorky 15x15, 11:11, 0", then one stone a line as "x,y,time" with x the
 * column from the left and y the row from the top, both 1-based, black first.
 * Whatever follows the stones (engine names, "-1", a result line) is ignored.
 * A PSQ file holds stones only, so a record written as PSQ keeps the stones
 * actually placed, in order; it cannot hold a pass or a dual-board game. */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "record_internal.h"

#define PSQ_MAGIC "Piskvorky"

static bool is_hspace(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

static void skip_hspace(Cursor *c)
{
    while (is_hspace(cur_peek(c)))
        cur_advance(c);
}

static void skip_line(Cursor *c)
{
    while (cur_peek(c) && cur_peek(c) != '\n')
        cur_advance(c);
    cur_advance(c);
}

/* Digits at the cursor: their span, consumed. */
static size_t take_digits(Cursor *c, const char **start)
{
    *start = c->s + c->pos;
    size_t n = 0;
    while (isdigit((unsigned char)cur_peek(c))) {
        cur_advance(c);
        n++;
    }
    return n;
}

static size_t line_length(const Cursor *c)
{
    const char *s = c->s + c->pos;
    const char *nl = strchr(s, '\n');
    size_t n = nl ? (size_t)(nl - s) : strlen(s);
    while (n > 0 && is_hspace(s[n - 1]))
        n--;
    return n;
}

static bool header_fail(const Cursor *c, TgError *err)
{
    char q[QUOTE_BUF];
    tg_error_set(err, c->line, c->col,
                 "'%s': expected the PSQ header 'Piskvorky WIDTHxHEIGHT, ...' (e.g. Piskvorky "
                 "15x15, 11:11, 0)",
                 rec_quote(c->s + c->pos, line_length(c), q));
    return false;
}

static bool parse_header(Cursor *c, Record *r, TgError *err)
{
    if (strncmp(c->s, "\xef\xbb\xbf", 3) == 0) /* a UTF-8 byte-order mark */
        c->pos += 3;
    Cursor start = *c;
    if (strncasecmp(c->s + c->pos, PSQ_MAGIC, strlen(PSQ_MAGIC)) != 0)
        return header_fail(&start, err);
    for (size_t i = 0; i < strlen(PSQ_MAGIC); i++)
        cur_advance(c);
    skip_hspace(c);
    Cursor at = *c;
    const char *w, *h;
    size_t nw = take_digits(c, &w);
    if (nw == 0 || (cur_peek(c) != 'x' && cur_peek(c) != 'X'))
        return header_fail(&start, err);
    cur_advance(c);
    size_t nh = take_digits(c, &h);
    if (nh == 0)
        return header_fail(&start, err);
    char q[QUOTE_BUF];
    size_t n = (size_t)(c->s + c->pos - w);
    int width, height;
    if (!rec_int(w, nw, BOARD_MIN_SIZE, BOARD_MAX_SIZE, &width) ||
        !rec_int(h, nh, BOARD_MIN_SIZE, BOARD_MAX_SIZE, &height) || width != height) {
        tg_error_set(err, at.line, at.col, "'%s': the board must be square, %d..%d lines",
                     rec_quote(w, n, q), BOARD_MIN_SIZE, BOARD_MAX_SIZE);
        return false;
    }
    r->config.size = width;
    r->config.opening = OPENING_FREE;
    r->has = REC_HAS_SIZE; /* the opening is implied, not stated */
    skip_line(c);
    return true;
}

/* One number of a move line, 1..size. */
static bool coordinate(Cursor *c, int size, const Cursor *line_start, int *out, TgError *err)
{
    skip_hspace(c);
    Cursor at = *c;
    const char *d;
    size_t n = take_digits(c, &d);
    char q[QUOTE_BUF];
    if (n == 0) {
        tg_error_set(err, at.line, at.col, "'%s': expected a move 'x,y,time'",
                     rec_quote(line_start->s + line_start->pos, line_length(line_start), q));
        return false;
    }
    if (!rec_int(d, n, 1, size, out)) {
        tg_error_set(err, at.line, at.col, "'%s' is off the %dx%d board (PSQ counts from 1)",
                     rec_quote(d, n, q), size, size);
        return false;
    }
    skip_hspace(c);
    return true;
}

/* A line that starts "digits," is a move and must be well formed; any other
 * line ends the moves. */
static bool looks_like_move(const Cursor *c)
{
    const char *s = c->s + c->pos;
    if (!isdigit((unsigned char)*s))
        return false;
    while (isdigit((unsigned char)*s))
        s++;
    while (is_hspace(*s))
        s++;
    if (*s != ',')
        return false;
    s++;
    while (is_hspace(*s))
        s++;
    return isdigit((unsigned char)*s);
}

static bool parse_move(Cursor *c, Record *r, TgError *err)
{
    Cursor start = *c;
    int size = r->config.size, x, y;
    if (!coordinate(c, size, &start, &x, err))
        return false;
    cur_advance(c); /* the comma looks_like_move saw */
    if (!coordinate(c, size, &start, &y, err))
        return false;
    if (cur_peek(c) == ',') {
        cur_advance(c);
        skip_hspace(c);
        if (cur_peek(c) == '-')
            cur_advance(c);
        const char *d;
        take_digits(c, &d);
        skip_hspace(c);
    }
    if (cur_peek(c) != '\n' && cur_peek(c) != '\0') {
        char q[QUOTE_BUF], q2[QUOTE_BUF];
        tg_error_set(err, c->line, c->col, "'%s': unexpected text in the move '%s'",
                     rec_quote(c->s + c->pos, line_length(c), q),
                     rec_quote(start.s + start.pos, line_length(&start), q2));
        return false;
    }
    Action a;
    record_action(&a, ACT_PLACE);
    a.point = point_make(x - 1, y - 1);
    if (!record_append(r, &a, start.line, start.col)) {
        tg_error_set(err, start.line, start.col, "out of memory");
        return false;
    }
    skip_line(c);
    return true;
}

bool psq_parse(const char *text, Record *r, TgError *err)
{
    Cursor c = {text, 0, 1, 1};
    if (!parse_header(&c, r, err))
        return false;
    for (;;) {
        skip_hspace(&c);
        if (cur_peek(&c) == '\n') {
            cur_advance(&c);
            continue;
        }
        if (!looks_like_move(&c))
            return true;
        if (!parse_move(&c, r, err))
            return false;
    }
}

char *psq_write(const Record *r, TgError *err)
{
    if (!rec_check(r, err))
        return NULL;
    Point stones[BOARD_MAX_MOVES];
    int n = rec_stones(r, stones, "PSQ", err);
    if (n < 0)
        return NULL;
    StrBuf b = {0};
    strbuf_addf(&b, "%s %dx%d, 11:11, 0\n", PSQ_MAGIC, r->config.size, r->config.size);
    for (int i = 0; i < n; i++)
        strbuf_addf(&b, "%d,%d,0\n", point_x(stones[i]) + 1, point_y(stones[i]) + 1);
    return strbuf_finish(&b, err);
}
