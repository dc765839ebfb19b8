/* record.h — game records: the native .tgn text format, PSQ (Piskvork), SGF
 * (GM[4]) and RenjuNet .rif import. A Record is syntax only: a set-up and the
 * actions in order, each with the line and column it came from. Whether the
 * actions are legal is the game state machine's question (game.h). */
#ifndef TENGEN_RECORD_H
#define TENGEN_RECORD_H

#include <stdbool.h>
#include <stddef.h>

#include "tengen/action.h"
#include "tengen/error.h"
#include "tengen/variant.h"

typedef struct {
    Action action;
    int line, col; /* where the action's token starts in the source (1-based), 0 if made */
} RecordAction;

/* Which header lines the source gave explicitly (command-line options override
 * the rest; writers may omit defaults). */
enum { REC_HAS_SIZE = 1, REC_HAS_RULE = 2, REC_HAS_OPENING = 4, REC_HAS_FORBIDDEN = 8 };

typedef struct {
    GameConfig config;
    unsigned has;
    int count, cap;
    RecordAction *actions;
} Record;

typedef enum { FORMAT_TGN, FORMAT_PSQ, FORMAT_SGF, FORMAT_RIF, FORMAT_COUNT } RecordFormat;

void record_init(Record *r);
void record_free(Record *r);
bool record_append(Record *r, const Action *a, int line, int col);

/* Parses text in the given format. On error fills err with line, column and a
 * message naming the token, and leaves r empty. */
bool record_parse(RecordFormat f, const char *text, Record *r, TgError *err);

/* Writes r in the given format as a malloc'd string; NULL (and err) when the
 * format cannot hold the record (e.g. swaps in PSQ) or memory runs out. */
char *record_write(RecordFormat f, const Record *r, TgError *err);

/* Format from a file name's extension (.tgn .psq .sgf .rif) or a name (tgn, psq,
 * sgf, rif). */
bool record_format_from_path(const char *path, RecordFormat *out);
bool record_format_parse(const char *name, RecordFormat *out);
const char *record_format_name(RecordFormat f);

#endif
