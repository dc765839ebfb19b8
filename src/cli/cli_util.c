#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_config.h"
#include "tengen/coord.h"
#include "tengen/fileio.h"
#include "tengen/record.h"
#include "tengen/variant.h"

void cli_error(const char *sub, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "tengen %s: ", sub);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

bool cli_int(const char *s, int lo, int hi, int *out)
{
    if (!s || !*s)
        return false;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (*end || errno || v < lo || v > hi)
        return false;
    *out = (int)v;
    return true;
}

static bool place(CliPosition *pos, const char *tok, Color c, const char *where, TgError *err)
{
    Point p;
    TgError perr;
    int size = pos->board.size;
    if (!coord_parse(tok, size, &p, &perr)) {
        tg_error_set(err, 0, 0, "%s '%s': %s", where, tok, perr.msg);
        return false;
    }
    if (pos->board.cell[p] != EMPTY) {
        tg_error_set(err, 0, 0, "%s '%s': %s is already occupied", where, tok, tok);
        return false;
    }
    board_play(&pos->board, p, c);
    return true;
}

bool cli_tokens(const char *list, CliTokenFn fn, void *user, TgError *err)
{
    char *copy = strdup(list);
    if (!copy) {
        tg_error_set(err, 0, 0, "out of memory");
        return false;
    }
    bool ok = true;
    int index = 0;
    char *save = NULL;
    for (char *tok = strtok_r(copy, " \t,", &save); tok && ok; tok = strtok_r(NULL, " \t,", &save))
        ok = fn(tok, ++index, user, err);
    free(copy);
    return ok;
}

typedef struct {
    CliPosition *pos;
    Color c;
    const char *opt;
} PlaceList;

static bool place_token(const char *tok, int index, void *user, TgError *err)
{
    const PlaceList *pl = user;
    char where[64];
    snprintf(where, sizeof where, "%s token %d", pl->opt, index);
    return place(pl->pos, tok, pl->c, where, err);
}

static bool place_list(CliPosition *pos, const char *list, Color c, const char *opt, TgError *err)
{
    PlaceList pl = {pos, c, opt};
    return cli_tokens(list, place_token, &pl, err);
}

bool cli_position(CliPosition *pos, int size, Rule rule, char **moves, const int *argpos,
                  int nmoves, const char *black, const char *white, TgError *err)
{
    if (!board_init(&pos->board, size, rule)) {
        tg_error_set(err, 0, 0, "--size %d: the board size must be 5..22", size);
        return false;
    }
    pos->to_move = BLACK;
    if (nmoves > 0 && (black || white)) {
        tg_error_set(err, 0, 0, "argument %d '%s': give either a move list or --black/--white, not both",
                     argpos[0], moves[0]);
        return false;
    }
    if (black && !place_list(pos, black, BLACK, "--black", err))
        return false;
    if (white && !place_list(pos, white, WHITE, "--white", err))
        return false;
    if (black || white) {
        int nb = 0, nw = 0;
        for (int i = 0; i < pos->board.count; i++)
            pos->board.cell[pos->board.history[i]] == BLACK ? nb++ : nw++;
        pos->to_move = nb == nw + 1 ? WHITE : BLACK;
        return true;
    }
    Color c = BLACK;
    for (int i = 0; i < nmoves; i++) {
        char where[32];
        snprintf(where, sizeof where, "argument %d", argpos[i]);
        if (strcmp(moves[i], "pass") == 0) {
            c = color_other(c);
            continue;
        }
        if (!place(pos, moves[i], c, where, err))
            return false;
        c = color_other(c);
    }
    pos->to_move = c;
    return true;
}

bool cli_write_file(const char *path, const char *data, size_t len, TgError *err)
{
    return file_write_atomic(path, data, len, err);
}

bool cli_config_override(const CliConfigOptions *o, const GameConfig *rec, int nactions,
                         GameConfig *out, TgError *err)
{
    *out = *rec;
    if (o->rule && !variant_rule_parse(o->rule, out)) {
        tg_error_set(err, 0, 0,
                     "--rule '%s': unknown rule (freestyle, standard, renju, caro, dualboard)",
                     o->rule);
        return false;
    }
    if (o->opening && !opening_parse(o->opening, &out->opening)) {
        tg_error_set(err, 0, 0,
                     "--opening '%s': unknown opening (free, center, swap3, designated, rif, "
                     "yamaguchi, swap1, swap2, soosorv8, taraguchi10)",
                     o->opening);
        return false;
    }
    if (o->forbidden && !forbid_mode_parse(o->forbidden, &out->forbidden)) {
        tg_error_set(err, 0, 0, "--forbidden '%s': expected auto or claim", o->forbidden);
        return false;
    }
    if (o->designated && !record_designated_parse(o->designated, &out->designated)) {
        tg_error_set(err, 0, 0, "--designated '%s': not one of the 26 openings", o->designated);
        return false;
    }
    if (out->dualboard != rec->dualboard && nactions > 0) {
        tg_error_set(err, 0, 0, "--rule %s: the record's points were not written for it", o->rule);
        return false;
    }
    return true;
}
