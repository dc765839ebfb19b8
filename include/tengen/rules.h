/* rules.h — what wins under each rule set, and the rule sets' names. */
#ifndef TENGEN_RULES_H
#define TENGEN_RULES_H

#include <stdbool.h>

#include "tengen/board.h"

/* True when a stone of colour c on p (placed there, or assumed there if p is
 * empty) makes a winning five under b->rule. When stones is not NULL, the five's
 * stones are written there (5 points, or the whole run for a winning overline,
 * at most BOARD_MAX_SIZE) and their count returned through *n. */
bool rules_is_win(const Board *b, Point p, Color c, Point *stones, int *n);

/* True when colour c has a five (as the rule set counts it) anywhere on the board. */
bool rules_has_win(const Board *b, Color c);

/* Names: freestyle, standard, renju, caro. */
const char *rule_name(Rule r);
bool rule_parse(const char *name, Rule *out);

#endif
