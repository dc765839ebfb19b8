/* openings.h — the 26 standard renju openings and the symmetry questions the
 * opening rules ask.
 *
 * An opening is three stones: black 1, white 2 next to it, black 3 within two
 * lines of black 1. The table holds them with black 1 on h8 and white 2 on h9
 * (direct, "D") or i9 (indirect, "I"). Any placement is recognised in all 8
 * orientations: translate move 1 to h8, then try the symmetries that bring
 * move 2 to h9 or i9 and look move 3 up.
 *
 * Symmetric 5th moves: two proposals are symmetric when an isometry of the grid
 * (one of the 8 rotations/reflections followed by a translation, so mirror lines
 * and centres may fall between lines) maps the stones on the board onto
 * themselves colour for colour and one proposal onto the other. Board edges are
 * ignored.
 */
#ifndef TENGEN_OPENINGS_H
#define TENGEN_OPENINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "tengen/board.h"

#define OPENINGS_COUNT 26

typedef struct {
    const char *code;     /* "1D".."13D", "1I".."13I" */
    const char *chinese;  /* e.g. "花月" */
    const char *japanese; /* romaji, e.g. "Kagetsu" */
    const char *english;  /* e.g. "Flower Moon" */
    const char *moves[3]; /* with black 1 on h8, e.g. {"h8", "h9", "i9"} */
    const char *verdict;  /* assessment under the old RIF rule */
} OpeningInfo;

/* The i-th opening (0..25: 1D..13D then 1I..13I); NULL when out of range. */
const OpeningInfo *opening_info(int i);

/* Index of an opening named by code ("4D", "4d"), romaji ("kagetsu"), English
 * ("flower moon", "flower-moon") or Chinese ("花月"); -1 when unknown. */
int opening_lookup(const char *name);

/* Which of the 26 openings three stones (black, white, black) form, in any
 * orientation and anywhere on the board; -1 when none. */
int opening_identify(Point m1, Point m2, Point m3);

/* The three stones of opening i on a board of the given size, black 1 on the
 * centre. False when i is out of range or the board is too small. */
bool opening_points(int i, int size, Point out[3]);

/* Centre point of a board of the given size (h8 on 15x15). */
Point opening_center(int size);

/* True when p lies in the central width x width square (width odd). */
bool opening_in_center(int size, Point p, int width);

/* One isometry found between two proposals. */
typedef struct {
    int linear; /* 0..7: identity, mirror |, mirror -, half turn, mirror /,
                 * quarter turn left, quarter turn right, mirror \ */
    int tx, ty; /* translation after the linear part (x right, y up) */
} Isometry;

/* True when an isometry maps the n stones (points and colours) onto themselves
 * and a onto b; *how (may be NULL) receives one such isometry. */
bool opening_symmetric(const Point *stones, const Color *colors, int n, Point a, Point b,
                       Isometry *how);

/* Describes an isometry for people, e.g. "a mirror in column h" or "a half turn
 * about the middle of h7 and h8". */
void opening_isometry_text(const Isometry *iso, int size, char *buf, size_t len);

#endif
