/* pattern.h — line patterns: what a stone placed on a cell makes along one line.
 *
 * A line key (board.h) describes the ten cells around a cell on one line. For
 * each rule set and colour a table, built once from the rule definitions by
 * trying stones in the window, maps every key to a Pattern: the shape the line
 * would have if that colour played on the cell. The classes are recursive:
 * a four (B4) has five points one opponent stone can stop, a straight four (F4)
 * two or more that it cannot (in caro a stone beyond one end may stop two); a
 * three is one stone from a four (F3 from a straight four), and so on down.
 *
 * A second table serves the renju referee: for black on an empty cell it says
 * whether the line gives a five, an overline, how many fours, and where the
 * points are that would turn a three into a true straight four.
 */
#ifndef TENGEN_PATTERN_H
#define TENGEN_PATTERN_H

#include <stdint.h>

#include "tengen/board.h"

typedef enum {
    PAT_DEAD, /* no five can ever be made through this cell on this line */
    PAT_B1,
    PAT_F1,
    PAT_B2,
    PAT_F2,
    PAT_B3,
    PAT_F3,
    PAT_B4,
    PAT_F4,
    PAT_F5, /* a winning five */
    PAT_OL, /* an overline that does not win (exact-five rules) */
    PAT_COUNT
} Pattern;

/* Renju line info for black, packed in 16 bits. */
#define LINE_FIVE 0x1u     /* the stone makes exactly five */
#define LINE_OVERLINE 0x2u /* the stone makes six or more */
#define LINE_FOURS_SHIFT 2 /* bits 2-3: number of fours the stone makes */
#define LINE_THREE 0x10u   /* a three candidate: no four, some straight-four point */
#define LINE_SF_SHIFT 8    /* bits 8-13: straight-four points at offsets -3..-1, 1..3 */

static inline int line_fours(unsigned info) { return (info >> LINE_FOURS_SHIFT) & 3; }
static inline int line_sf_offset(int bit) { return bit < 3 ? bit - 3 : bit - 2; }

/* Builds the tables for a rule set; safe to call from many threads, cheap after
 * the first call. board_init() calls it. */
void pattern_init(Rule rule);

/* Table for rule r and colour c (BLACK or WHITE); pattern_init(r) must have run. */
const uint8_t *pattern_table(Rule r, Color c);

/* Renju black line info table indexed by line key. */
const uint16_t *pattern_renju_info(void);

static inline Pattern board_pattern(const Board *b, Point p, int d, Color c)
{
    return (Pattern)pattern_table(b->rule, c)[b->key[d][p]];
}

const char *pattern_name(Pattern p);

#endif
