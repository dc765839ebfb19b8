/* opening_ai.c — opening-rule decisions from engine scores. */
#include "tengen/opening_ai.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "tengen/forbid.h"

#define SCORE_NONE INT_MIN
#define DECLARE_UNIT 120 /* black advantage worth one more 5th-move proposal */
#define MIN_SEARCH_MS 20

/* The 26 standard openings as offsets from the centre (dx right, dy up):
 * white 2 at (0,1) for direct openings and (1,1) for indirect ones. */
static const signed char OPENING3[26][2] = {
    {0, 2},  {1, 2},  {2, 2},  {1, 1},  {2, 1},   {1, 0},   {2, 0},  {0, -1}, {1, -1},
    {2, -1}, {0, -2}, {1, -2}, {2, -2}, {2, 2},   {2, 1},   {2, 0},  {2, -1}, {2, -2},
    {1, 0},  {1, -1}, {1, -2}, {0, -1}, {0, -2},  {-1, -1}, {-1, -2}, {-2, -2},
};
#define DIRECT_OPENINGS 13

void opening_ai_init(OpeningAI *ai, Engine *e)
{
    memset(ai, 0, sizeof *ai);
    ai->engine = e;
    search_limits_init(&ai->limits);
    ai->limits.turn_ms = 1000;
    ai->limits.depth = 8;
    ai->balanced_margin = 60;
}

static bool cancelled(const OpeningAI *ai) { return ai->cancel && atomic_load(ai->cancel); }

/* Limits for one of `parts` searches of a decision. */
static SearchLimits part_limits(const OpeningAI *ai, int parts)
{
    SearchLimits l;
    search_limits_init(&l);
    l.depth = ai->limits.depth;
    l.nodes = ai->limits.nodes / (uint64_t)(parts > 0 ? parts : 1);
    int64_t budget = ai->limits.turn_ms;
    if (ai->limits.match_left_ms > 0 && (budget == 0 || ai->limits.match_left_ms / 4 < budget))
        budget = ai->limits.match_left_ms / 4;
    if (budget > 0) {
        l.turn_ms = budget / (parts > 0 ? parts : 1);
        if (l.turn_ms < MIN_SEARCH_MS)
            l.turn_ms = MIN_SEARCH_MS;
    }
    return l;
}

/* Forwards progress and turns a cancel that came before the search started
 * (which the engine did not hear) into a stop. */
static void relay(const SearchInfo *info, void *user)
{
    OpeningAI *ai = user;
    if (cancelled(ai))
        engine_stop(ai->engine);
    if (ai->progress)
        ai->progress(info, ai->user);
}

static bool search(OpeningAI *ai, const Board *b, Color to_move, SearchLimits *l, SearchResult *res)
{
    if (!engine_set_position(ai->engine, b, to_move, NULL))
        return false;
    if (cancelled(ai)) { /* stopped: still answer, from the shallowest search */
        l->depth = 1;
        l->nodes = 0;
    }
    return engine_think(ai->engine, l, relay, ai, res) && res->best >= 0;
}

static int black_view(Color mover, int score) { return mover == BLACK ? score : -score; }

bool opening_ai_black_score(OpeningAI *ai, const Board *b, Color to_move, int *score, Point *best)
{
    SearchLimits l = part_limits(ai, 1);
    SearchResult res;
    if (!search(ai, b, to_move, &l, &res))
        return false;
    *score = black_view(to_move, res.score);
    if (best)
        *best = res.best;
    return true;
}

bool opening_ai_take_black(OpeningAI *ai, const Board *b, Color to_move, int *black_score)
{
    int s = 0;
    if (!opening_ai_black_score(ai, b, to_move, &s, NULL))
        s = 0;
    if (black_score)
        *black_score = s;
    return s > 0;
}

/* Empty points within two lines of a stone (the centre on an empty board),
 * without black's forbidden points when black is to move under renju. */
static int near_points(const Board *b, Color to_move, Point *out)
{
    Board scratch = *b;
    int n = 0;
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            Point p = point_make(x, y);
            if (b->cell[p] != EMPTY)
                continue;
            bool near = b->count == 0 && x == b->size / 2 && y == b->size / 2;
            for (int dy = -2; dy <= 2 && !near; dy++)
                for (int dx = -2; dx <= 2 && !near; dx++) {
                    int qx = x + dx, qy = y + dy;
                    near = qx >= 0 && qy >= 0 && qx < b->size && qy < b->size &&
                           (b->cell[point_make(qx, qy)] == BLACK ||
                            b->cell[point_make(qx, qy)] == WHITE);
                }
            if (!near)
                continue;
            if (b->rule == RULE_RENJU && to_move == BLACK &&
                forbid_is_forbidden(forbid_check(&scratch, p)))
                continue;
            out[n++] = p;
        }
    return n;
}

/* Black's score after each candidate move (SCORE_NONE if the engine dropped
 * it), by root-restricted N-best searches of up to ENGINE_MAX_NBEST moves. */
static void score_moves(OpeningAI *ai, const Board *b, Color to_move, const Point *cand, int n,
                        int *scores)
{
    for (int i = 0; i < n; i++)
        scores[i] = SCORE_NONE;
    int batches = (n + ENGINE_MAX_NBEST - 1) / ENGINE_MAX_NBEST;
    SearchResult *res = malloc(sizeof *res);
    SearchLimits *l = malloc(sizeof *l);
    if (!res || !l) {
        free(res);
        free(l);
        return;
    }
    for (int start = 0; start < n; start += ENGINE_MAX_NBEST) {
        int k = n - start < ENGINE_MAX_NBEST ? n - start : ENGINE_MAX_NBEST;
        *l = part_limits(ai, batches);
        l->nroot = k;
        memcpy(l->root, cand + start, (size_t)k * sizeof *cand);
        l->nbest = k;
        if (!search(ai, b, to_move, l, res))
            break;
        for (int j = 0; j < res->nlines; j++)
            for (int i = start; i < start + k; i++)
                if (cand[i] == res->lines[j].move)
                    scores[i] = black_view(to_move, res->lines[j].score);
    }
    free(res);
    free(l);
}

typedef struct {
    Point p;
    int key, score;
} Ranked;

static int by_key(const void *x, const void *y)
{
    const Ranked *a = x, *b = y;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return a->p - b->p; /* ties by point: never depend on qsort's order */
}

int opening_ai_balanced(OpeningAI *ai, const Board *b, Color to_move, const Point *cand,
                           int ncand, int target, Point *out, int *scores, int n)
{
    Point *own = malloc(BOARD_MAX_MOVES * sizeof *own);
    int *sc = malloc(BOARD_MAX_MOVES * sizeof *sc);
    Ranked *r = malloc(BOARD_MAX_MOVES * sizeof *r);
    int found = 0;
    if (!own || !sc || !r)
        goto done;
    if (ncand == 0) {
        ncand = near_points(b, to_move, own);
        cand = own;
    }
    score_moves(ai, b, to_move, cand, ncand, sc);
    int m = 0;
    for (int i = 0; i < ncand; i++)
        if (sc[i] != SCORE_NONE)
            r[m++] = (Ranked){cand[i], abs(sc[i] - target), sc[i]};
    qsort(r, (size_t)m, sizeof *r, by_key);
    for (; found < n && found < m; found++) {
        out[found] = r[found].p;
        if (scores)
            scores[found] = r[found].score;
    }
done:
    free(own);
    free(sc);
    free(r);
    return found;
}

/* The 8 linear isometries of the grid. */
static void iso(int k, int x, int y, int *ox, int *oy)
{
    static const int M[8][4] = {{1, 0, 0, 1},  {0, -1, 1, 0}, {-1, 0, 0, -1}, {0, 1, -1, 0},
                                {-1, 0, 0, 1}, {1, 0, 0, -1}, {0, 1, 1, 0},   {0, -1, -1, 0}};
    *ox = M[k][0] * x + M[k][1] * y;
    *oy = M[k][2] * x + M[k][3] * y;
}

bool opening_ai_symmetric(const Board *b, Point a, Point c)
{
    if (a == c)
        return true;
    int n = b->count;
    for (int k = 1; k < 8; k++) {
        long sx = 0, sy = 0, mx = 0, my = 0;
        for (int i = 0; i < n; i++) {
            int x, y;
            iso(k, point_x(b->history[i]), point_y(b->history[i]), &x, &y);
            sx += point_x(b->history[i]);
            sy += point_y(b->history[i]);
            mx += x;
            my += y;
        }
        int tx = 0, ty = 0;
        if (n > 0) {
            if ((sx - mx) % n || (sy - my) % n)
                continue;
            tx = (int)((sx - mx) / n);
            ty = (int)((sy - my) / n);
        } else {
            int ax, ay;
            iso(k, point_x(a), point_y(a), &ax, &ay);
            tx = point_x(c) - ax; /* no stones: any translation maps the set onto itself */
            ty = point_y(c) - ay;
        }
        bool maps = true;
        for (int i = 0; i < n && maps; i++) {
            Point s = b->history[i];
            int x, y;
            iso(k, point_x(s), point_y(s), &x, &y);
            x += tx;
            y += ty;
            maps = x >= 0 && y >= 0 && x < b->size && y < b->size &&
                   b->cell[point_make(x, y)] == b->cell[s];
        }
        if (!maps)
            continue;
        int ax, ay;
        iso(k, point_x(a), point_y(a), &ax, &ay);
        if (ax + tx == point_x(c) && ay + ty == point_y(c))
            return true;
    }
    return false;
}

/* Adds p to the proposals unless it is symmetric to one of them. */
static bool add_distinct(const Board *b, Point *props, int *n, Point p)
{
    for (int i = 0; i < *n; i++)
        if (opening_ai_symmetric(b, props[i], p))
            return false;
    props[(*n)++] = p;
    return true;
}

int opening_ai_propose(OpeningAI *ai, const Board *b, int n, Point *out)
{
    Point *cand = malloc(BOARD_MAX_MOVES * sizeof *cand);
    int *sc = malloc(BOARD_MAX_MOVES * sizeof *sc);
    Ranked *r = malloc(BOARD_MAX_MOVES * sizeof *r);
    int found = 0;
    if (!cand || !sc || !r)
        goto done;
    int ncand = near_points(b, BLACK, cand);
    score_moves(ai, b, BLACK, cand, ncand, sc);
    int m = 0;
    for (int i = 0; i < ncand; i++)
        r[m++] = (Ranked){cand[i], sc[i] == SCORE_NONE ? INT_MAX : -sc[i], sc[i]};
    qsort(r, (size_t)m, sizeof *r, by_key); /* black's best first, unscored last */
    for (int i = 0; i < m && found < n; i++)
        add_distinct(b, out, &found, r[i].p);
    /* Too few near the stones: take any empty non-symmetric point. */
    for (int y = 0; y < b->size && found < n; y++)
        for (int x = 0; x < b->size && found < n; x++) {
            Point p = point_make(x, y);
            if (b->cell[p] == EMPTY)
                add_distinct(b, out, &found, p);
        }
done:
    free(cand);
    free(sc);
    free(r);
    return found;
}

Point opening_ai_choose(OpeningAI *ai, const Board *b, const Point *props, int n)
{
    if (n <= 0)
        return POINT_NONE;
    int *sc = malloc((size_t)n * sizeof *sc);
    if (!sc)
        return props[0];
    score_moves(ai, b, BLACK, props, n, sc);
    Point best = props[0];
    int low = INT_MAX;
    for (int i = 0; i < n; i++)
        if (sc[i] != SCORE_NONE && (sc[i] < low || (sc[i] == low && props[i] < best))) {
            low = sc[i];
            best = props[i];
        }
    free(sc);
    return best;
}

int opening_ai_declare(OpeningAI *ai, const Board *b, int nmax)
{
    int s = 0;
    if (!opening_ai_black_score(ai, b, board_side_to_move(b), &s, NULL))
        s = 0;
    int n = 1 + (s > 0 ? s / DECLARE_UNIT : 0);
    return n > nmax ? nmax : n < 1 ? 1 : n;
}

bool opening_ai_pick_opening(OpeningAI *ai, int size, Rule rule, Point out[3])
{
    Board b;
    if (!board_init(&b, size, rule) || size < 7)
        return false;
    int c = size / 2;
    Point centre = point_make(c, c);
    int best_key = INT_MAX;
    bool any = false;
    for (int kind = 0; kind < 2; kind++) {
        Point second = kind == 0 ? point_make(c, c - 1) : point_make(c + 1, c - 1);
        board_init(&b, size, rule);
        board_play(&b, centre, BLACK);
        board_play(&b, second, WHITE);
        Point third[DIRECT_OPENINGS];
        int sc[DIRECT_OPENINGS];
        for (int i = 0; i < DIRECT_OPENINGS; i++) {
            const signed char *d = OPENING3[kind * DIRECT_OPENINGS + i];
            third[i] = point_make(c + d[0], c - d[1]);
        }
        score_moves(ai, &b, BLACK, third, DIRECT_OPENINGS, sc);
        for (int i = 0; i < DIRECT_OPENINGS; i++) {
            if (sc[i] == SCORE_NONE || abs(sc[i]) >= best_key)
                continue;
            best_key = abs(sc[i]);
            out[0] = centre;
            out[1] = second;
            out[2] = third[i];
            any = true;
        }
    }
    if (!any) { /* no search ran: Sosei, close to even under the old RIF rule */
        out[0] = centre;
        out[1] = point_make(c, c - 1);
        out[2] = point_make(c + 2, c - 2);
    }
    return true;
}

int opening_ai_region(const Board *b, int r, Point *out)
{
    int c = b->size / 2, n = 0;
    for (int y = c - r; y <= c + r; y++)
        for (int x = c - r; x <= c + r; x++)
            if (x >= 0 && y >= 0 && x < b->size && y < b->size &&
                b->cell[point_make(x, y)] == EMPTY)
                out[n++] = point_make(x, y);
    return n;
}

Swap2Choice opening_ai_swap2(OpeningAI *ai, const Board *b, Point *move, Point two[2])
{
    int s = 0;
    Point best = POINT_NONE;
    if (!opening_ai_black_score(ai, b, WHITE, &s, &best))
        s = 0;
    *move = best;
    if (s > ai->balanced_margin)
        return SWAP2_TAKE_BLACK;
    if (s < -ai->balanced_margin && best >= 0)
        return SWAP2_TAKE_WHITE;
    Board next = *b;
    int sc;
    if (opening_ai_balanced(ai, &next, WHITE, NULL, 0, 0, &two[0], &sc, 1) != 1)
        return best >= 0 ? SWAP2_TAKE_WHITE : SWAP2_TAKE_BLACK;
    board_play(&next, two[0], WHITE);
    if (opening_ai_balanced(ai, &next, BLACK, NULL, 0, 0, &two[1], &sc, 1) != 1)
        return best >= 0 ? SWAP2_TAKE_WHITE : SWAP2_TAKE_BLACK;
    return SWAP2_PUT_TWO;
}

bool opening_ai_swap2_final(OpeningAI *ai, const Board *b, Point *move)
{
    int s = 0;
    Point best = POINT_NONE;
    if (!opening_ai_black_score(ai, b, WHITE, &s, &best))
        s = 0;
    *move = best;
    return s > 0 || best < 0;
}

bool opening_ai_taraguchi_offer(OpeningAI *ai, const Board *b, int n, Point *props, int *nprops,
                             Point *place)
{
    *nprops = opening_ai_propose(ai, b, n, props);
    Point region[81];
    int nregion = opening_ai_region(b, 4, region);
    int sc = 0;
    *place = POINT_NONE;
    int placed = opening_ai_balanced(ai, b, BLACK, region, nregion, 0, place, &sc, 1);
    if (placed == 0)
        return *nprops > 0;
    if (*nprops == 0)
        return false;
    /* Offering: white takes the worst proposal for black. Placing: the opponent
     * takes the better colour, leaving black's player -|score|. */
    int *ps = malloc((size_t)*nprops * sizeof *ps);
    if (!ps)
        return false;
    score_moves(ai, b, BLACK, props, *nprops, ps);
    int worst = INT_MAX;
    for (int i = 0; i < *nprops; i++)
        if (ps[i] != SCORE_NONE && ps[i] < worst)
            worst = ps[i];
    free(ps);
    return worst != INT_MAX && worst > -abs(sc);
}
