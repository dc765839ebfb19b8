#include "tengen/record.h"

#include "tengen/openings.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record_internal.h"

static const char *const FORMAT_NAMES[FORMAT_COUNT] = {"tgn", "psq", "sgf", "rif"};

void record_init(Record *r)
{
    variant_default(&r->config);
    r->has = 0;
    r->count = r->cap = 0;
    r->actions = NULL;
}

void record_free(Record *r)
{
    free(r->actions);
    record_init(r);
}

bool record_append(Record *r, const Action *a, int line, int col)
{
    if (r->count == r->cap) {
        int cap = r->cap ? r->cap * 2 : 64;
        RecordAction *grown = realloc(r->actions, (size_t)cap * sizeof *grown);
        if (!grown)
            return false;
        r->actions = grown;
        r->cap = cap;
    }
    RecordAction *ra = &r->actions[r->count++];
    ra->action = *a;
    ra->line = line;
    ra->col = col;
    return true;
}

void record_action(Action *a, ActionType type)
{
    memset(a, 0, sizeof *a);
    a->type = type;
    a->point = POINT_NONE;
}

bool record_action_equal(const Action *a, const Action *b)
{
    if (a->type != b->type)
        return false;
    switch (a->type) {
    case ACT_PLACE:
        return a->board == b->board && a->point == b->point;
    case ACT_CHOOSE:
        return a->point == b->point;
    case ACT_DECLARE:
        return a->n == b->n;
    case ACT_PROPOSE:
        if (a->npoints != b->npoints)
            return false;
        for (int i = 0; i < a->npoints; i++)
            if (a->points[i] != b->points[i])
                return false;
        return true;
    default:
        return true;
    }
}

bool record_equal(const Record *a, const Record *b)
{
    const GameConfig *x = &a->config, *y = &b->config;
    if (x->size != y->size || x->dualboard != y->dualboard || x->opening != y->opening ||
        x->forbidden != y->forbidden || x->designated != y->designated)
        return false;
    if (!x->dualboard && x->rule != y->rule)
        return false;
    if (a->count != b->count)
        return false;
    for (int i = 0; i < a->count; i++)
        if (!record_action_equal(&a->actions[i].action, &b->actions[i].action))
            return false;
    return true;
}

bool record_parse_game(RecordFormat f, const char *text, int game, Record *r, TgError *err)
{
    record_init(r);
    if (!text) {
        tg_error_set(err, 0, 0, "no input");
        return false;
    }
    bool ok = false;
    if (game < 1 || (game > 1 && f != FORMAT_RIF && f != FORMAT_SGF)) {
        tg_error_set(err, 0, 0, "game %d: a %s file holds one game", game, record_format_name(f));
        return false;
    }
    switch (f) {
    case FORMAT_TGN:
        ok = tgn_parse(text, r, err);
        break;
    case FORMAT_PSQ:
        ok = psq_parse(text, r, err);
        break;
    case FORMAT_SGF:
        ok = sgf_parse(text, game, r, err);
        break;
    case FORMAT_RIF:
        ok = rif_parse(text, game, r, err);
        break;
    default:
        tg_error_set(err, 0, 0, "unknown record format %d", (int)f);
        break;
    }
    if (!ok)
        record_free(r);
    return ok;
}

bool record_parse(RecordFormat f, const char *text, Record *r, TgError *err)
{
    return record_parse_game(f, text, 1, r, err);
}

char *record_write(RecordFormat f, const Record *r, TgError *err)
{
    switch (f) {
    case FORMAT_TGN:
        return tgn_write(r, err);
    case FORMAT_PSQ:
        return psq_write(r, err);
    case FORMAT_SGF:
        return sgf_write(r, err);
    case FORMAT_RIF:
        return rif_write(r, err);
    default:
        tg_error_set(err, 0, 0, "unknown record format %d", (int)f);
        return NULL;
    }
}

bool record_format_parse(const char *name, RecordFormat *out)
{
    for (int i = 0; i < FORMAT_COUNT; i++)
        if (strcasecmp(name, FORMAT_NAMES[i]) == 0) {
            *out = (RecordFormat)i;
            return true;
        }
    return false;
}

bool record_format_from_path(const char *path, RecordFormat *out)
{
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(slash ? slash + 1 : path, '.');
    return dot && dot[1] && record_format_parse(dot + 1, out);
}

RecordFormat record_format_guess(const char *text)
{
    text += strspn(text, " \t\r\n");
    if (strncmp(text, "\xef\xbb\xbf", 3) == 0)
        text += 3 + strspn(text + 3, " \t\r\n");
    if (*text == '(')
        return FORMAT_SGF;
    if (*text == '<')
        return FORMAT_RIF;
    if (strncmp(text, "Piskvorky", 9) == 0)
        return FORMAT_PSQ;
    return FORMAT_TGN;
}

RecordFormat record_format_detect(const char *path, const char *text)
{
    RecordFormat f;
    return path && record_format_from_path(path, &f) ? f : record_format_guess(text);
}

const char *record_format_name(RecordFormat f)
{
    return (unsigned)f < FORMAT_COUNT ? FORMAT_NAMES[f] : "?";
}

/* The openings table is the game module's; records only name its entries. */
const char *record_designated_name(int index)
{
    const OpeningInfo *o = opening_info(index);
    return o ? o->code : NULL;
}

bool record_designated_parse(const char *name, int *index)
{
    int i = opening_lookup(name);
    if (i < 0)
        return false;
    *index = i;
    return true;
}

/* ---- shared by the format files ---- */

void cur_advance(Cursor *c)
{
    char ch = c->s[c->pos];
    if (ch == '\0')
        return;
    if (ch == '\n') {
        c->line++;
        c->col = 1;
    } else {
        c->col++;
    }
    c->pos++;
}

void cur_skip_space(Cursor *c)
{
    while (isspace((unsigned char)cur_peek(c)))
        cur_advance(c);
}

const char *rec_quote(const char *s, size_t n, char *buf)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (o + 8 >= QUOTE_BUF) {
            memcpy(buf + o, "...", 3);
            o += 3;
            break;
        }
        if (c >= 0x20 && c < 0x7f && c != '\'')
            buf[o++] = (char)c;
        else
            o += (size_t)snprintf(buf + o, QUOTE_BUF - o, "\\x%02x", c);
    }
    buf[o] = '\0';
    return buf;
}

bool rec_int(const char *s, size_t n, int lo, int hi, int *out)
{
    if (n == 0)
        return false;
    long v = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isdigit((unsigned char)s[i]))
            return false;
        v = v * 10 + (s[i] - '0');
        if (v > hi)
            return false;
    }
    if (v < lo)
        return false;
    *out = (int)v;
    return true;
}

int rec_stones(const Record *r, Point *out, const char *format, TgError *err)
{
    if (r->config.dualboard) {
        tg_error_set(err, 0, 0, "%s cannot hold a dual-board game", format);
        return -1;
    }
    int n = 0;
    for (int i = 0; i < r->count; i++) {
        const Action *a = &r->actions[i].action;
        if (a->type == ACT_PASS) {
            tg_error_set(err, r->actions[i].line, r->actions[i].col,
                         "%s cannot hold a pass (action %d)", format, i + 1);
            return -1;
        }
        if (a->type != ACT_PLACE && a->type != ACT_CHOOSE)
            continue;
        if (n == BOARD_MAX_MOVES) {
            tg_error_set(err, 0, 0, "more stones than the board holds (action %d)", i + 1);
            return -1;
        }
        out[n++] = a->point;
    }
    return n;
}

static bool point_ok(Point p, int size)
{
    int x = point_x(p), y = point_y(p);
    return p >= 0 && x >= 0 && y >= 0 && x < size && y < size;
}

static bool action_ok(const Action *a, const GameConfig *cfg)
{
    int size = cfg->size;
    switch (a->type) {
    case ACT_PLACE:
        return point_ok(a->point, size) &&
               (cfg->dualboard ? a->board == 0 || a->board == 1 : a->board == 0);
    case ACT_CHOOSE:
        return point_ok(a->point, size) && (a->board == 0 || (cfg->dualboard && a->board == 1));
    case ACT_DECLARE:
        return a->n >= 1 && a->n <= ACTION_MAX_POINTS;
    case ACT_PROPOSE:
        if (a->npoints < 1 || a->npoints > ACTION_MAX_POINTS)
            return false;
        for (int i = 0; i < a->npoints; i++)
            if (!point_ok(a->points[i], size))
                return false;
        return a->board == 0 || (cfg->dualboard && a->board == 1);
    default:
        return (unsigned)a->type < ACT_COUNT;
    }
}

bool rec_check(const Record *r, TgError *err)
{
    const GameConfig *cfg = &r->config;
    if (cfg->size < BOARD_MIN_SIZE || cfg->size > BOARD_MAX_SIZE) {
        tg_error_set(err, 0, 0, "board size %d is not %d..%d", cfg->size, BOARD_MIN_SIZE,
                     BOARD_MAX_SIZE);
        return false;
    }
    if ((unsigned)cfg->rule >= RULE_COUNT || (unsigned)cfg->opening >= OPENING_COUNT ||
        (cfg->designated != -1 && !record_designated_name(cfg->designated))) {
        tg_error_set(err, 0, 0, "the record's set-up is out of range");
        return false;
    }
    for (int i = 0; i < r->count; i++)
        if (!action_ok(&r->actions[i].action, cfg)) {
            tg_error_set(err, r->actions[i].line, r->actions[i].col,
                         "action %d cannot be written (type %d, point or count out of range)",
                         i + 1, (int)r->actions[i].action.type);
            return false;
        }
    return true;
}
