/* variant.h — how a game is set up: board size, rule set, opening rule and the
 * forbidden-move mode. Shared by the game state machine and the records. */
#ifndef TENGEN_VARIANT_H
#define TENGEN_VARIANT_H

#include <stdbool.h>

#include "tengen/board.h"

typedef enum {
    OPENING_FREE,
    OPENING_CENTER, /* free, but the first stone goes on the centre */
    OPENING_SWAP3,
    OPENING_DESIGNATED,
    OPENING_RIF,
    OPENING_YAMAGUCHI,
    OPENING_SWAP1,
    OPENING_SWAP2,
    OPENING_SOOSORV8,
    OPENING_TARAGUCHI10,
    OPENING_COUNT
} Opening;

typedef enum { FORBID_MODE_AUTO, FORBID_MODE_CLAIM } ForbidMode;

typedef struct {
    int size;            /* 5..22 */
    Rule rule;           /* rule set of each board */
    bool dualboard;      /* the dual-board professional variant (rule name "dualboard") */
    Opening opening;
    ForbidMode forbidden;
    int designated;      /* OPENING_DESIGNATED: index into the 26 openings, -1 if unset */
    bool no_pass;        /* passes refused (e.g. the Gomocup convention); false: allowed */
} GameConfig;

/* size 15, renju, RIF opening, forbidden auto, no designated opening. */
void variant_default(GameConfig *cfg);

/* Names as records write them: rules freestyle, standard, renju, caro, dualboard;
 * openings free, center, swap3, designated, rif, yamaguchi, swap1, swap2,
 * soosorv8, taraguchi10; forbidden modes auto, claim. */
const char *variant_rule_name(const GameConfig *cfg);
bool variant_rule_parse(const char *name, GameConfig *cfg);
const char *opening_name(Opening o);
bool opening_parse(const char *name, Opening *out);
const char *forbid_mode_name(ForbidMode m);
bool forbid_mode_parse(const char *name, ForbidMode *out);

#endif
