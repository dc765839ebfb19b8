/* coord.h — points as text: renju notation ("h8": column a.. from the left, row
 * 1.. from the bottom) and Gomocup "x,y" (0-based, y from the top). */
#ifndef TENGEN_COORD_H
#define TENGEN_COORD_H

#include <stdbool.h>

#include "tengen/board.h"
#include "tengen/error.h"

#define COORD_BUF 16

/* Parses renju notation (case-insensitive) for a board of the given size. On
 * failure fills err with a message naming the token and returns false. */
bool coord_parse(const char *tok, int size, Point *out, TgError *err);

/* Writes p in renju notation into buf (COORD_BUF bytes); returns buf. */
const char *coord_format(Point p, int size, char *buf);

/* Parses Gomocup "x,y" (spaces around the numbers allowed). */
bool coord_parse_xy(const char *tok, int size, Point *out, TgError *err);

/* Writes p as Gomocup "x,y" into buf (COORD_BUF bytes); returns buf. */
const char *coord_format_xy(Point p, char *buf);

#endif
