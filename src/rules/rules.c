#include "tengen/rules.h"

#include <string.h>

static bool run_wins(const Board *b, Color c, int len, Point lo, Point hi, int d)
{
    if (len < 5)
        return false;
    bool exact = b->rule == RULE_STANDARD || b->rule == RULE_CARO ||
                 (b->rule == RULE_RENJU && c == BLACK);
    if (exact && len > 5)
        return false;
    if (b->rule == RULE_CARO) {
        Color o = color_other(c);
        if (b->cell[lo - DIR[d]] == o && b->cell[hi + DIR[d]] == o)
            return false;
    }
    return true;
}

bool rules_is_win(const Board *b, Point p, Color c, Point *stones, int *n)
{
    for (int d = 0; d < DIR_COUNT; d++) {
        Point lo = p, hi = p;
        while (b->cell[lo - DIR[d]] == c)
            lo -= DIR[d];
        while (b->cell[hi + DIR[d]] == c)
            hi += DIR[d];
        int len = (hi - lo) / DIR[d] + 1;
        if (!run_wins(b, c, len, lo, hi, d))
            continue;
        if (stones) {
            int k = 0;
            for (Point q = lo; k < len; q += DIR[d])
                stones[k++] = q;
            *n = len;
        }
        return true;
    }
    return false;
}

bool rules_has_win(const Board *b, Color c)
{
    for (int i = 0; i < b->count; i++) {
        Point p = b->history[i];
        if (b->cell[p] == c && rules_is_win(b, p, c, NULL, NULL))
            return true;
    }
    return false;
}

static const char *const NAMES[RULE_COUNT] = {"freestyle", "standard", "renju", "caro"};

const char *rule_name(Rule r)
{
    return (unsigned)r < RULE_COUNT ? NAMES[r] : "?";
}

bool rule_parse(const char *name, Rule *out)
{
    for (int r = 0; r < RULE_COUNT; r++)
        if (strcmp(name, NAMES[r]) == 0) {
            *out = (Rule)r;
            return true;
        }
    return false;
}
