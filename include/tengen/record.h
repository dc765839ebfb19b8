/* record.h — game records: the native .tgn text format, PSQ (Piskvork), SGF
 * (GM[4]) and RenjuNet .rif import. A Record is syntax only: a set-up and the
 * actions in order, each with the line and column it came from. Whether the
 * actions are legal is the game state machine's question (game.h).
 *
 * The .tgn format (the grammar is spelled out in docs/records.md):
 *
 *     # comment to the end of the line
 *     size 15             header lines, each optional, before the first action
 *     rule renju
 *     opening rif
 *     forbidden auto
 *     designated 4D       (a code 1D..13D 1I..13I or a name such as kagetsu)
 *     h8 i9 j10 swap k9   actions separated by white space, any number a line
 *     declare 2  propose j9,k10  choose k10  pass  claim  resign  draw
 *     1:h8 2:g7           dual-board points carry their board
 *
 * What each other format can hold: PSQ and RenjuNet hold only the stones on the
 * board in order (a chosen 5th move is a stone; proposals, swaps, declarations
 * and the end of game are dropped; a pass or a dual-board game cannot be written).
 * SGF holds stones, passes and the set-up, and keeps the other actions in
 * tengen-specific properties. */
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
enum {
    REC_HAS_SIZE = 1,
    REC_HAS_RULE = 2,
    REC_HAS_OPENING = 4,
    REC_HAS_FORBIDDEN = 8,
    REC_HAS_DESIGNATED = 16
};

typedef struct {
    GameConfig config;
    unsigned has;
    int count, cap;
    RecordAction *actions;
} Record;

typedef enum { FORMAT_TGN, FORMAT_PSQ, FORMAT_SGF, FORMAT_RIF, FORMAT_COUNT } RecordFormat;

/* An empty record with the default set-up (variant_default); allocates nothing. */
void record_init(Record *r);
/* Frees the actions and leaves r as record_init does. */
void record_free(Record *r);
/* Appends a copy of a; false when memory runs out (r unchanged). */
bool record_append(Record *r, const Action *a, int line, int col);

/* Clears a to an action of the given type (point POINT_NONE, board 0, no points). */
void record_action(Action *a, ActionType type);

/* Same action: compares only the fields the type uses. */
bool record_action_equal(const Action *a, const Action *b);
/* Same set-up (size, rule, dual-board, opening, forbidden mode, designated
 * opening) and the same actions; ignores `has` and source positions. */
bool record_equal(const Record *a, const Record *b);

/* Parses text in the given format. r is output only: it is (re)initialised
 * first, so a record holding actions must be freed before. On error fills err
 * with line, column and a message naming the token, and leaves r empty. */
bool record_parse(RecordFormat f, const char *text, Record *r, TgError *err);
/* As record_parse, taking the game-th game (1-based) of a file holding several
 * (RenjuNet databases); other formats hold one game and require game == 1. */
bool record_parse_game(RecordFormat f, const char *text, int game, Record *r, TgError *err);

/* Writes r in the given format as a malloc'd string; NULL (and err) when the
 * format cannot hold the record (a pass in PSQ, a dual-board game outside tgn)
 * or memory runs out. */
char *record_write(RecordFormat f, const Record *r, TgError *err);

/* Format from a file name's extension (.tgn .psq .sgf .rif, any case) or a name
 * (tgn, psq, sgf, rif). */
bool record_format_from_path(const char *path, RecordFormat *out);
bool record_format_parse(const char *name, RecordFormat *out);

/* The format a record's text looks like: SGF from '(', RenjuNet from '<', PSQ
 * from its "Piskvorky" header, otherwise tgn (leading blanks and a UTF-8 byte
 * order mark skipped). */
RecordFormat record_format_guess(const char *text);

/* The format of a file read from path: its extension when known (see
 * record_format_from_path), else what its text looks like. */
RecordFormat record_format_detect(const char *path, const char *text);

const char *record_format_name(RecordFormat f);

/* The 26 designated openings as GameConfig.designated indexes them, in the order
 * of testdata/openings.txt: 1D..13D are 0..12, 1I..13I are 13..25. The name is
 * the code ("4D"); parsing accepts the code or the romaji name, any case. */
const char *record_designated_name(int index);
bool record_designated_parse(const char *name, int *index);

#endif
