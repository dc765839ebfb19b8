/* record_internal.h — what the format files of src/record share: one parser and
 * one writer per format, and a way to quote an arbitrary input token safely in
 * an error message. Not a public header. */
#ifndef TENGEN_RECORD_INTERNAL_H
#define TENGEN_RECORD_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "tengen/record.h"
#include "tengen/strbuf.h"

/* Each parser fills a freshly initialised r; on failure the caller empties it. */
bool tgn_parse(const char *text, Record *r, TgError *err);
bool psq_parse(const char *text, Record *r, TgError *err);
bool sgf_parse(const char *text, int game, Record *r, TgError *err);
bool rif_parse(const char *text, int game, Record *r, TgError *err);
char *tgn_write(const Record *r, TgError *err);
char *psq_write(const Record *r, TgError *err);
char *sgf_write(const Record *r, TgError *err);
char *rif_write(const Record *r, TgError *err);

/* Parses text holding exactly one .tgn action (no header) for the set-up cfg;
 * line/col are where the text starts, for error positions. */
bool tgn_parse_action(const char *text, const GameConfig *cfg, int line, int col, Action *out,
                      TgError *err);

/* Appends one action in .tgn syntax (e.g. "propose j9,k10", "2:h8"). */
void tgn_write_action(StrBuf *b, const GameConfig *cfg, const Action *a);

/* A read position in a NUL-terminated text, with its 1-based line and column. */
typedef struct {
    const char *s;
    size_t pos;
    int line, col;
} Cursor;

static inline char cur_peek(const Cursor *c)
{
    return c->s[c->pos];
}
/* Steps over one byte (not past the end), keeping line and column. */
void cur_advance(Cursor *c);
/* Skips white space (including line breaks). */
void cur_skip_space(Cursor *c);

#define QUOTE_BUF 64
/* Writes the n bytes at s into buf for an error message: printable ASCII as is,
 * other bytes as \xNN, cut with "..." when long. Returns buf. */
const char *rec_quote(const char *s, size_t n, char *buf);

/* Stones actually placed by the record, in order (placements and chosen 5th
 * moves), for formats that hold only stones. Fails naming the first action such
 * a format cannot express (a pass, or any dual-board record). Returns the count. */
int rec_stones(const Record *r, Point *out, const char *format, TgError *err);

/* Sets *out to the value of the decimal digits s[0..n) when it lies in [lo, hi]. */
bool rec_int(const char *s, size_t n, int lo, int hi, int *out);

/* Checks that r could have come from a parser: a board size 5..22, points on
 * the board, board 0/1 only in the dual-board variant (and always given there),
 * declarations 1..ACTION_MAX_POINTS, proposals of 1..ACTION_MAX_POINTS points. */
bool rec_check(const Record *r, TgError *err);

#endif
