/* action.h — one step of a game as players and records see it. The game state
 * machine (game.h) decides whether an action is legal now; records (record.h)
 * only read and write them. */
#ifndef TENGEN_ACTION_H
#define TENGEN_ACTION_H

#include "tengen/board.h"

#define ACTION_MAX_POINTS 16

typedef enum {
    ACT_PLACE,   /* a stone on `point` (board 0 or 1 in the dual-board variant) */
    ACT_PASS,
    ACT_SWAP,    /* answers a colour choice: take the other colour / swap2: take black */
    ACT_NOSWAP,  /* answers a colour choice: keep colours / swap2: take white */
    ACT_DECLARE, /* declares n (Yamaguchi, Soosorv: number of 5th moves) */
    ACT_PROPOSE, /* offers the 5th moves in points[0..npoints) */
    ACT_CHOOSE,  /* picks one offered 5th move: `point` */
    ACT_CLAIM,   /* claims black's forbidden move */
    ACT_RESIGN,
    ACT_DRAW,    /* offers a draw, or accepts the other side's offer */
    ACT_COUNT
} ActionType;

typedef struct {
    ActionType type;
    int board; /* 0, or 1 for the second board of the dual-board variant */
    Point point;
    int n;
    int npoints;
    Point points[ACTION_MAX_POINTS];
} Action;

#endif
