#include "refjudge.h"

enum { LEGAL, FIVE, DOUBLE_THREE, DOUBLE_FOUR, OVERLINE };

static const int DX[4] = {1, 0, 1, 1};
static const int DY[4] = {0, 1, 1, -1};

static int on(const RefBoard *b, int x, int y)
{
    return x >= 0 && y >= 0 && x < b->size && y < b->size;
}

static int black(const RefBoard *b, int x, int y)
{
    return on(b, x, y) && b->c[x][y] == 1;
}

/* Length of the black run through (x,y) along d, and its first cell (as steps from x,y). */
static int run(const RefBoard *b, int x, int y, int d, int *first)
{
    int lo = 0, hi = 0;
    while (black(b, x + (lo - 1) * DX[d], y + (lo - 1) * DY[d]))
        lo--;
    while (black(b, x + (hi + 1) * DX[d], y + (hi + 1) * DY[d]))
        hi++;
    *first = lo;
    return hi - lo + 1;
}

/* A five through (x,y) lies within four steps of it, and so does every point
 * that completes one: the scans below look no further. */

/* A four is identified by its four stones: the five that a five point makes,
 * minus the five point. For the line d through (x,y) (black) this collects every
 * five point whose five contains (x,y), with the set of four stones it completes
 * (a bit per step along the line). */
typedef struct {
    int n;
    int point[64];
    unsigned long long four[64];
} Fives;

static unsigned long long bit(int step) { return 1ULL << (step + REF_MAX); }

static void fives(RefBoard *b, int x, int y, int d, Fives *f)
{
    f->n = 0;
    for (int k = -4; k <= 4; k++) {
        int qx = x + k * DX[d], qy = y + k * DY[d];
        if (k == 0 || !on(b, qx, qy) || b->c[qx][qy] != 0)
            continue;
        b->c[qx][qy] = 1;
        int first;
        int len = run(b, x, y, d, &first);
        b->c[qx][qy] = 0;
        /* exactly five, and q in the same run as (x,y) */
        if (len != 5 || k < first || k > first + 4)
            continue;
        unsigned long long set = 0;
        for (int s = first; s <= first + 4; s++)
            if (s != k)
                set |= bit(s);
        f->point[f->n] = k;
        f->four[f->n] = set;
        f->n++;
    }
}

/* Distinct fours on the line (five points completing the same four stones are
 * one four: a straight four has two). */
static int count_fours(const Fives *f)
{
    int n = 0;
    for (int i = 0; i < f->n; i++) {
        int seen = 0;
        for (int j = 0; j < i; j++)
            seen |= f->four[j] == f->four[i];
        n += !seen;
    }
    return n;
}

static int is_forbidden(int v) { return v >= DOUBLE_THREE; }

/* Is the line a three for the black stone at (x,y) (placed)? Returns 1 when some
 * empty point q on the line makes a straight four (a four with two five points)
 * containing (x,y) and q, and q itself is not forbidden. *candidate reports
 * whether any straight-four point exists at all. */
static int real_three(RefBoard *b, int x, int y, int d, int *candidate)
{
    *candidate = 0;
    for (int k = -4; k <= 4; k++) {
        int qx = x + k * DX[d], qy = y + k * DY[d];
        if (k == 0 || !on(b, qx, qy) || b->c[qx][qy] != 0)
            continue;
        b->c[qx][qy] = 1;
        Fives f;
        fives(b, x, y, d, &f);
        /* a straight four: one four with two five points, q among its stones */
        int straight = 0;
        for (int i = 0; i < f.n; i++)
            for (int j = i + 1; j < f.n; j++)
                straight |= f.four[i] == f.four[j] && (f.four[i] & bit(k)) != 0;
        b->c[qx][qy] = 0;
        if (!straight)
            continue;
        *candidate = 1;
        if (!is_forbidden(ref_forbid(b, qx, qy)))
            return 1;
    }
    return 0;
}

int ref_forbid(RefBoard *b, int x, int y)
{
    b->c[x][y] = 1;
    int five = 0, overline = 0, fours = 0, first;
    int has_four[4];
    for (int d = 0; d < 4; d++) {
        int len = run(b, x, y, d, &first);
        five |= len == 5;
        overline |= len > 5;
        Fives f;
        fives(b, x, y, d, &f);
        has_four[d] = count_fours(&f);
        fours += has_four[d];
    }
    int verdict = LEGAL;
    if (five)
        verdict = FIVE;
    else if (overline)
        verdict = OVERLINE;
    else if (fours >= 2)
        verdict = DOUBLE_FOUR;
    else {
        int threes = 0;
        for (int d = 0; d < 4; d++) {
            if (has_four[d])
                continue;
            int cand;
            threes += real_three(b, x, y, d, &cand);
        }
        if (threes >= 2)
            verdict = DOUBLE_THREE;
    }
    b->c[x][y] = 0;
    return verdict;
}
