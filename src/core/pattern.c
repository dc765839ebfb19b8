#include "tengen/pattern.h"

#include "tengen/hugemem.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define KEYS (1u << 20)
#define W 11 /* window: offsets -5..5, centre at index 5 */
#define C 5

/* Window cell states seen from the player who moves. */
enum { W_EMPTY, W_OWN, W_OPP, W_WALL };

/* How a rule set judges a run for one colour. */
typedef struct {
    bool exact;          /* exactly five wins; six or more is an overline */
    bool caro;           /* a five blocked by the opponent at both ends does not win */
    bool walls_distinct; /* walls differ from opponent stones (caro) */
} Judge;

static Judge judge_for(Rule r, Color c)
{
    Judge j = {false, false, false};
    if (r == RULE_STANDARD || r == RULE_CARO || (r == RULE_RENJU && c == BLACK))
        j.exact = true;
    if (r == RULE_CARO)
        j.caro = j.walls_distinct = true;
    return j;
}

static inline int key_shift(int k) { return 2 * (k < 0 ? k + 5 : k + 4); }

/* Run through the centre (which is own): returns length, fills both end cells. */
static int centre_run(const uint8_t *w, int *lo, int *hi)
{
    int a = C, b = C;
    while (a > 0 && w[a - 1] == W_OWN)
        a--;
    while (b < W - 1 && w[b + 1] == W_OWN)
        b++;
    *lo = a;
    *hi = b;
    return b - a + 1;
}

static bool run_wins(const Judge *j, const uint8_t *w, int len, int lo, int hi)
{
    if (len < 5)
        return false;
    if (j->exact && len > 5)
        return false;
    if (j->caro) {
        bool left = lo > 0 && w[lo - 1] == W_OPP;
        bool right = hi < W - 1 && w[hi + 1] == W_OPP;
        if (left && right)
            return false;
    }
    return true;
}

static bool wins(const Judge *j, const uint8_t *w)
{
    int lo, hi;
    int len = centre_run(w, &lo, &hi);
    return run_wins(j, w, len, lo, hi);
}

static uint32_t encode(const uint8_t *w)
{
    uint32_t key = 0;
    for (int k = -5; k <= 5; k++)
        if (k)
            key |= (uint32_t)w[C + k] << key_shift(k);
    return key;
}

static void decode(uint32_t key, uint8_t *w)
{
    for (int k = -5; k <= 5; k++)
        w[C + k] = k ? (key >> key_shift(k)) & 3 : W_OWN;
}

/* Five points on the line: empty cells that give a winning five through the centre. */
static int five_points(const Judge *j, uint8_t *w, int *where)
{
    int n = 0;
    for (int q = 1; q < W - 1; q++) {
        if (w[q] != W_EMPTY)
            continue;
        w[q] = W_OWN;
        if (wins(j, w))
            where[n++] = q;
        w[q] = W_EMPTY;
    }
    return n;
}

/* A board cell's state (EMPTY, BLACK, WHITE, WALL) seen by colour c. */
static int cell_view(int v, Color c, bool walls_distinct)
{
    if (v == EMPTY)
        return W_EMPTY;
    if (v == (int)c)
        return W_OWN;
    return v == WALL && walls_distinct ? W_WALL : W_OPP;
}

/* The raw key holds absolute colours; the mover's view of it is
 * view[0][raw & 1023] | view[1][raw >> 10], one table per half of the window
 * (each cell maps on its own). A cell beyond the first opponent stone or wall,
 * seen from the centre, can never join a run through the centre, so it reads
 * as that blocker: keys that differ only there share one view, and a view has
 * a compact index (at most 94 halves a side), so the classes are computed and
 * memoised for a few thousand views instead of a million keys. */
#define HALF 1024
#define NO_ID 0xFFFF
typedef struct {
    uint32_t view[2][HALF]; /* raw half -> view half, in its place in the key */
    uint16_t id[2][HALF];   /* view half (shifted down) -> index, NO_ID if none */
    int nid[2];
} ViewMap;

static uint32_t half_view(uint32_t bits, int side, Color c, bool walls_distinct)
{
    uint32_t key = 0;
    int block = -1;
    for (int i = 1; i <= 5; i++) {
        int k = side * i, shift = key_shift(k);
        int v = cell_view((bits >> (side < 0 ? shift : shift - 10)) & 3, c, walls_distinct);
        if (block >= 0)
            v = block;
        else if (v == W_OPP || v == W_WALL)
            block = v;
        key |= (uint32_t)v << shift;
    }
    return key;
}

static void view_map_init(ViewMap *m, Color c, bool walls_distinct)
{
    for (int s = 0; s < 2; s++) {
        m->nid[s] = 0;
        for (uint32_t bits = 0; bits < HALF; bits++)
            m->id[s][bits] = NO_ID;
        for (uint32_t bits = 0; bits < HALF; bits++) {
            uint32_t v = half_view(bits, s ? 1 : -1, c, walls_distinct);
            uint32_t h = s ? v >> 10 : v;
            m->view[s][bits] = v;
            if (m->id[s][h] == NO_ID)
                m->id[s][h] = (uint16_t)m->nid[s]++;
        }
    }
}

static inline uint32_t view_key(const ViewMap *m, uint32_t raw)
{
    return m->view[0][raw & (HALF - 1)] | m->view[1][raw >> 10];
}

/* Memo index of a view key (every key built from views has one). */
static inline size_t view_index(const ViewMap *m, uint32_t key)
{
    return (size_t)m->id[0][key & (HALF - 1)] * (size_t)m->nid[1] + m->id[1][key >> 10];
}

static size_t view_count(const ViewMap *m)
{
    return (size_t)m->nid[0] * (size_t)m->nid[1];
}

typedef struct {
    Judge judge;
    const ViewMap *map;
    uint8_t *memo; /* by view index; 0xFF: not yet known */
} Builder;

/* Whether one opponent stone can leave the line with no five point: outside
 * caro only by taking the last one, in caro also by closing the far end of a
 * run so that its five would be blocked at both ends. */
static bool four_stoppable(const Judge *j, uint8_t *w)
{
    int where[W];
    for (int q = 0; q < W; q++) {
        if (w[q] != W_EMPTY)
            continue;
        w[q] = W_OPP;
        int n = five_points(j, w, where);
        w[q] = W_EMPTY;
        if (n == 0)
            return true;
    }
    return false;
}

static uint8_t classify(Builder *bl, uint8_t *w)
{
    size_t key = view_index(bl->map, encode(w));
    if (bl->memo[key] != 0xFF)
        return bl->memo[key];
    const Judge *j = &bl->judge;
    int lo, hi, where[W];
    int len = centre_run(w, &lo, &hi);
    uint8_t result = PAT_DEAD;
    if (run_wins(j, w, len, lo, hi)) {
        result = PAT_F5;
    } else if (j->exact && len > 5) {
        result = PAT_OL;
    } else {
        int n = five_points(j, w, where);
        if (n >= 2 && !(j->caro && four_stoppable(j, w))) {
            result = PAT_F4;
        } else if (n >= 1) {
            result = PAT_B4;
        } else {
            /* One stone short of the next class up: F4->F3, B4->B3, ... */
            static const uint8_t down[PAT_COUNT] = {
                [PAT_F4] = PAT_F3, [PAT_B4] = PAT_B3, [PAT_F3] = PAT_F2,
                [PAT_B3] = PAT_B2, [PAT_F2] = PAT_F1, [PAT_B2] = PAT_B1,
            };
            for (int q = 1; q < W - 1; q++) {
                if (w[q] != W_EMPTY)
                    continue;
                w[q] = W_OWN;
                uint8_t sub = classify(bl, w);
                w[q] = W_EMPTY;
                if (down[sub] > result)
                    result = down[sub];
            }
        }
    }
    bl->memo[key] = result;
    return result;
}

static uint8_t *tables[RULE_COUNT][2];
static uint16_t *renju_info;
static pthread_once_t once[RULE_COUNT] = {PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT,
                                          PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT};
static pthread_once_t renju_once = PTHREAD_ONCE_INIT;

static uint8_t *build_table(Rule r, Color c)
{
    Judge j = judge_for(r, c);
    ViewMap *m = malloc(sizeof *m);
    HugeMem h; /* read at random by every forbidden-point check: huge pages */
    uint8_t *tab = hugemem_alloc(KEYS, &h);
    if (!m || !tab)
        abort();
    view_map_init(m, c, j.walls_distinct);
    Builder bl = {j, m, malloc(view_count(m))};
    if (!bl.memo)
        abort();
    memset(bl.memo, 0xFF, view_count(m));
    uint8_t w[W];
    for (uint32_t raw = 0; raw < KEYS; raw++) {
        uint32_t v = view_key(m, raw);
        size_t i = view_index(m, v);
        if (bl.memo[i] == 0xFF) {
            decode(v, w);
            classify(&bl, w);
        }
        tab[raw] = bl.memo[i];
    }
    free(bl.memo);
    free(m);
    return tab;
}

/* Renju black: straight four through the centre after the extra stone, i.e. a
 * run of exactly four with both ends empty and each end an exact five point. */
static bool straight_four(const Judge *j, uint8_t *w)
{
    int lo, hi;
    if (centre_run(w, &lo, &hi) != 4 || lo == 0 || hi == W - 1)
        return false;
    if (w[lo - 1] != W_EMPTY || w[hi + 1] != W_EMPTY)
        return false;
    bool ok = true;
    w[lo - 1] = W_OWN;
    ok = ok && wins(j, w);
    w[lo - 1] = W_EMPTY;
    w[hi + 1] = W_OWN;
    ok = ok && wins(j, w);
    w[hi + 1] = W_EMPTY;
    return ok;
}

static uint16_t renju_line(const Judge *j, uint8_t *w)
{
    int lo, hi, where[W];
    int len = centre_run(w, &lo, &hi);
    if (len == 5)
        return LINE_FIVE;
    if (len > 5)
        return LINE_OVERLINE;
    int n = five_points(j, w, where);
    /* Two five points that close the same run of four are one straight four. */
    if (n == 2 && where[1] - where[0] == 5)
        n = 1;
    if (n > 3)
        n = 3;
    if (n)
        return (uint16_t)(n << LINE_FOURS_SHIFT);
    uint16_t info = 0;
    for (int bit = 0; bit < 6; bit++) {
        int q = C + line_sf_offset(bit);
        if (w[q] != W_EMPTY)
            continue;
        w[q] = W_OWN;
        if (straight_four(j, w))
            info |= (uint16_t)(1u << (LINE_SF_SHIFT + bit));
        w[q] = W_EMPTY;
    }
    if (info)
        info |= LINE_THREE;
    return info;
}

static void build_renju_info(void)
{
    Judge j = judge_for(RULE_RENJU, BLACK);
    ViewMap *m = malloc(sizeof *m);
    HugeMem h;
    uint16_t *tab = hugemem_alloc(KEYS * sizeof *tab, &h);
    if (!m || !tab)
        abort();
    view_map_init(m, BLACK, false);
    uint16_t *memo = malloc(view_count(m) * sizeof *memo);
    if (!memo)
        abort();
    memset(memo, 0xFF, view_count(m) * sizeof *memo);
    uint8_t w[W];
    for (uint32_t raw = 0; raw < KEYS; raw++) {
        uint32_t v = view_key(m, raw);
        size_t i = view_index(m, v);
        if (memo[i] == 0xFFFF) {
            decode(v, w);
            memo[i] = renju_line(&j, w);
        }
        tab[raw] = memo[i];
    }
    free(memo);
    free(m);
    renju_info = tab;
}

#define DEFINE_INIT(R)                                                                             \
    static void init_##R(void)                                                                     \
    {                                                                                              \
        tables[R][0] = build_table(R, BLACK);                                                      \
        tables[R][1] = build_table(R, WHITE);                                                      \
    }
DEFINE_INIT(RULE_FREESTYLE)
DEFINE_INIT(RULE_STANDARD)
DEFINE_INIT(RULE_RENJU)
DEFINE_INIT(RULE_CARO)

void pattern_init(Rule rule)
{
    static void (*const init[RULE_COUNT])(void) = {init_RULE_FREESTYLE, init_RULE_STANDARD,
                                                   init_RULE_RENJU, init_RULE_CARO};
    pthread_once(&once[rule], init[rule]);
    if (rule == RULE_RENJU)
        pthread_once(&renju_once, build_renju_info);
}

const uint8_t *pattern_table(Rule r, Color c)
{
    return tables[r][c - 1];
}

const uint16_t *pattern_renju_info(void)
{
    pthread_once(&renju_once, build_renju_info);
    return renju_info;
}

const char *pattern_name(Pattern p)
{
    static const char *names[PAT_COUNT] = {"dead", "B1", "F1", "B2", "F2", "B3",
                                           "F3",   "B4", "F4", "F5", "overline"};
    return (unsigned)p < PAT_COUNT ? names[p] : "?";
}
