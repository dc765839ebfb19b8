#include "tengen/openings.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* Moves as testdata/openings.txt lists them; English names are the usual
 * translations of the Japanese/Chinese names. */
static const OpeningInfo OPENINGS[OPENINGS_COUNT] = {
    {"1D", "寒星", "Kansei", "Cold Star", {"h8", "h9", "h10"}, "black wins"},
    {"2D", "溪月", "Keigetsu", "Valley Moon", {"h8", "h9", "i10"}, "black wins"},
    {"3D", "疏星", "Sosei", "Sparse Star", {"h8", "h9", "j10"}, "even (white slightly better)"},
    {"4D", "花月", "Kagetsu", "Flower Moon", {"h8", "h9", "i9"}, "black wins"},
    {"5D", "残月", "Zangetsu", "Waning Moon", {"h8", "h9", "j9"}, "black better"},
    {"6D", "雨月", "Ugetsu", "Rain Moon", {"h8", "h9", "i8"}, "black wins"},
    {"7D", "金星", "Kinsei", "Gold Star", {"h8", "h9", "j8"}, "black wins"},
    {"8D", "松月", "Shogetsu", "Pine Moon", {"h8", "h9", "h7"}, "black slightly better"},
    {"9D", "丘月", "Kyugetsu", "Hill Moon", {"h8", "h9", "i7"}, "black slightly better"},
    {"10D", "新月", "Shingetsu", "New Moon", {"h8", "h9", "j7"}, "black better"},
    {"11D", "瑞星", "Zuisei", "Lucky Star", {"h8", "h9", "h6"}, "even (black slightly better)"},
    {"12D", "山月", "Sangetsu", "Mountain Moon", {"h8", "h9", "i6"}, "black better"},
    {"13D", "游星", "Yusei", "Wandering Star", {"h8", "h9", "j6"}, "white wins"},
    {"1I", "长星", "Chosei", "Long Star", {"h8", "i9", "j10"}, "even (white slightly better)"},
    {"2I", "峡月", "Kyogetsu", "Gorge Moon", {"h8", "i9", "j9"}, "black wins"},
    {"3I", "恒星", "Kosei", "Fixed Star", {"h8", "i9", "j8"}, "black wins"},
    {"4I", "水月", "Suigetsu", "Water Moon", {"h8", "i9", "j7"}, "black wins"},
    {"5I", "流星", "Ryusei", "Shooting Star", {"h8", "i9", "j6"}, "white slightly better"},
    {"6I", "云月", "Ungetsu", "Cloud Moon", {"h8", "i9", "i8"}, "black wins"},
    {"7I", "浦月", "Uragetsu", "Bay Moon", {"h8", "i9", "i7"}, "black wins"},
    {"8I", "岚月", "Rangetsu", "Storm Moon", {"h8", "i9", "i6"}, "black wins"},
    {"9I", "银月", "Gingetsu", "Silver Moon", {"h8", "i9", "h7"}, "black better"},
    {"10I", "明星", "Myojo", "Morning Star", {"h8", "i9", "h6"}, "black wins"},
    {"11I", "斜月", "Shagetsu", "Slanting Moon", {"h8", "i9", "g7"}, "black slightly better"},
    {"12I", "名月", "Meigetsu", "Harvest Moon", {"h8", "i9", "g6"}, "black better"},
    {"13I", "彗星", "Suisei", "Comet", {"h8", "i9", "f6"}, "white wins"},
};

/* Other spellings met in the literature: romaji variants and traditional
 * characters. */
static const struct {
    const char *name;
    int index;
} ALIASES[] = {
    {"Hogetsu", 19}, {"Ura", 19},    {"Myoujou", 22},   {"渓月", 1},      {"疎星", 2},
    {"殘月", 4},     {"長星", 13},   {"峽月", 14},      {"恆星", 15},     {"雲月", 18},
    {"嵐月", 20},    {"銀月", 21},   {"Kyougetsu", 14}, {"Shougetsu", 7}, {"Kyuugetsu", 8},
    {"Chousei", 13}, {"Kousei", 15}, {"Ryuusei", 17},
};

const OpeningInfo *opening_info(int i)
{
    return i >= 0 && i < OPENINGS_COUNT ? &OPENINGS[i] : NULL;
}

/* Case-insensitive comparison treating '-', '_' and ' ' alike. */
static bool name_equal(const char *a, const char *b)
{
    for (;; a++, b++) {
        int ca = tolower((unsigned char)*a), cb = tolower((unsigned char)*b);
        if (ca == '-' || ca == '_')
            ca = ' ';
        if (cb == '-' || cb == '_')
            cb = ' ';
        if (ca != cb)
            return false;
        if (ca == '\0')
            return true;
    }
}

int opening_lookup(const char *name)
{
    for (int i = 0; i < OPENINGS_COUNT; i++) {
        const OpeningInfo *o = &OPENINGS[i];
        if (name_equal(name, o->code) || name_equal(name, o->japanese) ||
            name_equal(name, o->english) || strcmp(name, o->chinese) == 0)
            return i;
    }
    for (size_t i = 0; i < sizeof ALIASES / sizeof ALIASES[0]; i++)
        if (name_equal(name, ALIASES[i].name))
            return ALIASES[i].index;
    return -1;
}

/* Offsets from h8 in the table: x right, y up. */
static void table_offset(const char *move, int *dx, int *dy)
{
    *dx = move[0] - 'h';
    int row = 0;
    for (const char *s = move + 1; *s; s++)
        row = row * 10 + (*s - '0');
    *dy = row - 8;
}

/* Grid coordinates with y pointing up, so that the symmetries read as drawn. */
static int gx(Point p)
{
    return point_x(p);
}
static int gy(Point p)
{
    return -point_y(p);
}

static void apply_linear(int l, int x, int y, int *ox, int *oy)
{
    static const int M[8][4] = {
        {1, 0, 0, 1}, {-1, 0, 0, 1}, {1, 0, 0, -1}, {-1, 0, 0, -1},
        {0, 1, 1, 0}, {0, -1, 1, 0}, {0, 1, -1, 0}, {0, -1, -1, 0},
    };
    *ox = M[l][0] * x + M[l][1] * y;
    *oy = M[l][2] * x + M[l][3] * y;
}

int opening_identify(Point m1, Point m2, Point m3)
{
    int d2x = gx(m2) - gx(m1), d2y = gy(m2) - gy(m1);
    int d3x = gx(m3) - gx(m1), d3y = gy(m3) - gy(m1);
    for (int l = 0; l < 8; l++) {
        int ax, ay, bx, by;
        apply_linear(l, d2x, d2y, &ax, &ay);
        apply_linear(l, d3x, d3y, &bx, &by);
        bool direct = ax == 0 && ay == 1, indirect = ax == 1 && ay == 1;
        if (!direct && !indirect)
            continue;
        for (int i = direct ? 0 : 13, end = i + 13; i < end; i++) {
            int tx, ty;
            table_offset(OPENINGS[i].moves[2], &tx, &ty);
            if (tx == bx && ty == by)
                return i;
        }
    }
    return -1;
}

Point opening_center(int size)
{
    return point_make((size - 1) / 2, (size - 1) / 2);
}

bool opening_in_center(int size, Point p, int width)
{
    Point c = opening_center(size);
    int r = width / 2;
    int dx = point_x(p) - point_x(c), dy = point_y(p) - point_y(c);
    return dx >= -r && dx <= r && dy >= -r && dy <= r;
}

bool opening_points(int i, int size, Point out[3])
{
    if (i < 0 || i >= OPENINGS_COUNT || size < 5)
        return false;
    Point c = opening_center(size);
    for (int k = 0; k < 3; k++) {
        int dx, dy;
        table_offset(OPENINGS[i].moves[k], &dx, &dy);
        out[k] = point_make(point_x(c) + dx, point_y(c) - dy);
    }
    return true;
}

/* Does x -> L x + t map every stone onto a stone of the same colour? */
static bool maps_onto_itself(const Point *stones, const Color *colors, int n, int l, int tx, int ty)
{
    for (int i = 0; i < n; i++) {
        int x, y;
        apply_linear(l, gx(stones[i]), gy(stones[i]), &x, &y);
        x += tx;
        y += ty;
        bool hit = false;
        for (int j = 0; j < n && !hit; j++)
            hit = gx(stones[j]) == x && gy(stones[j]) == y && colors[j] == colors[i];
        if (!hit)
            return false;
    }
    return true;
}

bool opening_symmetric(const Point *stones, const Color *colors, int n, Point a, Point b,
                       Isometry *how)
{
    if (a == b)
        return false;
    for (int l = 0; l < 8; l++) {
        int ax, ay;
        apply_linear(l, gx(a), gy(a), &ax, &ay);
        int tx = gx(b) - ax, ty = gy(b) - ay;
        if (n > 0 && !maps_onto_itself(stones, colors, n, l, tx, ty))
            continue;
        if (how) {
            how->linear = l;
            how->tx = tx;
            how->ty = ty;
        }
        return true;
    }
    return false;
}

/* A point given in doubled coordinates (x right, y up, y = -row index from the
 * top), which can fall between lines. */
static void half_point_text(int x2, int y2, int size, char *buf, size_t len)
{
    int row2 = 2 * size + y2; /* doubled renju row number */
    char c0 = (char)('a' + (x2 >> 1));
    if (x2 % 2 == 0 && row2 % 2 == 0)
        snprintf(buf, len, "%c%d", c0, row2 / 2);
    else if (row2 % 2 == 0)
        snprintf(buf, len, "the middle of %c%d and %c%d", c0, row2 / 2, c0 + 1, row2 / 2);
    else if (x2 % 2 == 0)
        snprintf(buf, len, "the middle of %c%d and %c%d", c0, row2 >> 1, c0, (row2 >> 1) + 1);
    else
        snprintf(buf, len, "the centre of the square %c%d-%c%d", c0, row2 >> 1, c0 + 1,
                 (row2 >> 1) + 1);
}

void opening_isometry_text(const Isometry *iso, int size, char *buf, size_t len)
{
    char at[64];
    int tx = iso->tx, ty = iso->ty;
    switch (iso->linear) {
    case 1: /* x -> -x + tx: the mirror is the column x = tx / 2 */
        if (tx % 2 == 0)
            snprintf(buf, len, "a mirror in column %c", 'a' + tx / 2);
        else
            snprintf(buf, len, "a mirror between columns %c and %c", 'a' + (tx - 1) / 2,
                     'a' + (tx + 1) / 2);
        break;
    case 2: { /* y -> -y + ty: the mirror is the row y = ty / 2 */
        int row2 = 2 * size + ty;
        if (row2 % 2 == 0)
            snprintf(buf, len, "a mirror in row %d", row2 / 2);
        else
            snprintf(buf, len, "a mirror between rows %d and %d", row2 >> 1, (row2 >> 1) + 1);
        break;
    }
    case 3:
        half_point_text(tx, ty, size, at, sizeof at);
        snprintf(buf, len, "a half turn about %s", at);
        break;
    case 4: /* (x, y) -> (y + tx, x + ty), ty = -tx: the line x - y = tx */
    case 7: /* (x, y) -> (-y + tx, -x + ty), tx = ty: the line x + y = tx */
    {
        /* Name the lattice point of the line nearest the board's centre. */
        int cx = (size - 1) / 2, cy = -((size - 1) / 2);
        int x, y;
        if (iso->linear == 4) {
            y = (cx + cy - tx) / 2;
            x = y + tx;
        } else {
            y = (cy - cx + tx) / 2;
            x = tx - y;
        }
        half_point_text(2 * x, 2 * y, size, at, sizeof at);
        snprintf(buf, len, "a mirror in the %s diagonal through %s", iso->linear == 4 ? "/" : "\\",
                 at);
        break;
    }
    case 5: /* (x, y) -> (-y + tx, x + ty): centre ((tx - ty) / 2, (tx + ty) / 2) */
    case 6: /* (x, y) -> (y + tx, -x + ty): centre ((tx + ty) / 2, (ty - tx) / 2) */
        if (iso->linear == 5)
            half_point_text(tx - ty, tx + ty, size, at, sizeof at);
        else
            half_point_text(tx + ty, ty - tx, size, at, sizeof at);
        snprintf(buf, len, "a quarter turn %s about %s",
                 iso->linear == 5 ? "anticlockwise" : "clockwise", at);
        break;
    default:
        snprintf(buf, len, "a translation");
        break;
    }
}
