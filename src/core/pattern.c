#include "tengen/pattern.h"

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

typedef struct {
    Judge judge;
    uint8_t *memo; /* 0xFF: not yet known */
} Builder;

static uint8_t classify(Builder *bl, uint8_t *w)
{
    uint32_t key = encode(w);
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
        if (n >= 2) {
            result = PAT_F4;
        } else if (n == 1) {
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

/* The raw key holds absolute colours; turn it into the mover's view. */
static void view(uint32_t raw, Color c, bool walls_distinct, uint8_t *w)
{
    decode(raw, w);
    for (int i = 0; i < W; i++) {
        if (i == C)
            continue;
        int v = w[i];
        if (v == EMPTY)
            w[i] = W_EMPTY;
        else if (v == (int)c)
            w[i] = W_OWN;
        else if (v == WALL)
            w[i] = walls_distinct ? W_WALL : W_OPP;
        else
            w[i] = W_OPP;
    }
}

static uint8_t *tables[RULE_COUNT][2];
static uint16_t *renju_info;
static pthread_once_t once[RULE_COUNT] = {PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT,
                                          PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT};
static pthread_once_t renju_once = PTHREAD_ONCE_INIT;

static uint8_t *build_table(Rule r, Color c)
{
    Builder bl = {judge_for(r, c), malloc(KEYS)};
    uint8_t *tab = malloc(KEYS);
    if (!bl.memo || !tab)
        abort();
    memset(bl.memo, 0xFF, KEYS);
    uint8_t w[W];
    for (uint32_t raw = 0; raw < KEYS; raw++) {
        view(raw, c, bl.judge.walls_distinct, w);
        tab[raw] = classify(&bl, w);
    }
    free(bl.memo);
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
    uint16_t *tab = malloc(KEYS * sizeof *tab);
    uint16_t *memo = malloc(KEYS * sizeof *memo);
    if (!tab || !memo)
        abort();
    memset(memo, 0xFF, KEYS * sizeof *memo);
    uint8_t w[W];
    for (uint32_t raw = 0; raw < KEYS; raw++) {
        view(raw, BLACK, false, w);
        uint32_t k = encode(w);
        if (memo[k] == 0xFFFF)
            memo[k] = renju_line(&j, w);
        tab[raw] = memo[k];
    }
    free(memo);
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
