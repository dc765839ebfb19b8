#include "tengen/forbid.h"

#include "tengen/pattern.h"

static ForbidKind check(Board *b, Point p, const uint16_t *tab)
{
    unsigned info[DIR_COUNT];
    int fours = 0, threes = 0;
    bool overline = false;
    for (int d = 0; d < DIR_COUNT; d++) {
        info[d] = tab[b->key[d][p]];
        if (info[d] & LINE_FIVE)
            return FORBID_FIVE;
        overline |= (info[d] & LINE_OVERLINE) != 0;
        fours += line_fours(info[d]);
        threes += (info[d] & LINE_THREE) != 0;
    }
    if (overline)
        return FORBID_OVERLINE;
    if (fours >= 2)
        return FORBID_DOUBLE_FOUR;
    if (threes < 2)
        return FORBID_NONE;

    board_play(b, p, BLACK);
    int real = 0, left = threes;
    for (int d = 0; d < DIR_COUNT && real < 2 && real + left >= 2; d++) {
        if (!(info[d] & LINE_THREE))
            continue;
        left--;
        unsigned mask = info[d] >> LINE_SF_SHIFT;
        for (int bit = 0; bit < 6; bit++) {
            if (!(mask >> bit & 1))
                continue;
            Point q = p + line_sf_offset(bit) * DIR[d];
            if (!forbid_is_forbidden(check(b, q, tab))) {
                real++;
                break;
            }
        }
    }
    board_undo(b);
    return real >= 2 ? FORBID_DOUBLE_THREE : FORBID_NONE;
}

ForbidKind forbid_check(Board *b, Point p)
{
    return check(b, p, pattern_renju_info());
}

int forbid_list(Board *b, Point *out, ForbidKind *kinds)
{
    const uint16_t *tab = pattern_renju_info();
    int n = 0;
    for (int y = b->size - 1; y >= 0; y--)
        for (int x = 0; x < b->size; x++) {
            Point p = point_make(x, y);
            if (b->cell[p] != EMPTY)
                continue;
            ForbidKind k = check(b, p, tab);
            if (!forbid_is_forbidden(k))
                continue;
            if (kinds)
                kinds[n] = k;
            out[n++] = p;
        }
    return n;
}

const char *forbid_kind_name(ForbidKind k)
{
    static const char *const names[] = {"legal", "five", "double-three", "double-four",
                                        "overline"};
    return (unsigned)k <= FORBID_OVERLINE ? names[k] : "?";
}

const char *forbid_dir_name(int d)
{
    static const char *const names[DIR_COUNT] = {"row", "column", "diagonal \\", "diagonal /"};
    return (unsigned)d < DIR_COUNT ? names[d] : "?";
}
