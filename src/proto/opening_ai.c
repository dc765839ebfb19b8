/* opening_ai.c — opening-rule decisions from engine scores. */
#include "tengen/opening_ai.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tengen/coord.h"
#include "tengen/forbid.h"
#include "tengen/openings.h"
#include "tengen/rng.h"

#include "opening_book.h"
#include "proc.h"

#define SCORE_NONE INT_MIN
#define MIN_SEARCH_MS 20
#define OFFER_OPENINGS 3 /* openings whose 5th-move offer the RIF opener weighs */
#define DECISION_RESERVE_MS 20 /* kept back from a decision for the work between its searches */

void opening_ai_init(OpeningAI *ai, Engine *e)
{
    memset(ai, 0, sizeof *ai);
    ai->engine = e;
    search_limits_init(&ai->limits);
    ai->limits.turn_ms = 1000;
    ai->limits.depth = 8;
    ai->balanced_margin = 60;
    ai->phases = 1;
}

static bool cancelled(const OpeningAI *ai) { return ai->cancel && atomic_load(ai->cancel); }

/* Limits for one of `parts` searches of the current phase of a decision:
 * its share of the decision's budget, never past what is left of it. Once
 * the budget is spent, the rest answer from the shallowest search. */
static SearchLimits part_limits(OpeningAI *ai, int parts)
{
    SearchLimits l;
    search_limits_init(&l);
    int64_t split = (int64_t)(parts > 0 ? parts : 1) * (ai->phases > 0 ? ai->phases : 1);
    l.depth = ai->limits.depth;
    l.nodes = ai->limits.nodes / (uint64_t)split;
    int64_t budget = ai->limits.turn_ms;
    if (ai->limits.match_left_ms > 0 && (budget == 0 || ai->limits.match_left_ms / 4 < budget))
        budget = ai->limits.match_left_ms / 4;
    if (budget > 0) {
        int64_t now = proc_now_ms();
        if (!ai->started_ms)
            ai->started_ms = now;
        int64_t left = budget - DECISION_RESERVE_MS - (now - ai->started_ms);
        int64_t share = ai->tail > 0 ? left / ai->tail : budget / split;
        if (share < MIN_SEARCH_MS)
            share = MIN_SEARCH_MS;
        l.turn_ms = share < left ? share : left;
        if (left < MIN_SEARCH_MS) {
            l.turn_ms = MIN_SEARCH_MS;
            l.depth = 1;
            l.nodes = 0;
        }
    }
    return l;
}

/* Splits the decision's time over n more sequential phases until the matching
 * phases_end (returns the old count to give it). */
static int phases_begin(OpeningAI *ai, int n)
{
    int old = ai->phases;
    ai->phases = (old > 0 ? old : 1) * (n > 0 ? n : 1);
    return old;
}

static void phases_end(OpeningAI *ai, int old) { ai->phases = old; }

void opening_ai_split(OpeningAI *ai, int n) { phases_begin(ai, n); }

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

/* What black's first move is worth that the engine's score does not show, per
 * rule: the score after three stones (white to move) at which tengen's
 * self-play games at 300 ms a move come out even, fitted on 160 to 200 games
 * a rule (docs/pbrain.md, "Black's edge"). Renju's and caro's came out
 * level. */
static const int BLACK_EDGE[RULE_COUNT] = {
    [RULE_FREESTYLE] = 50,
    [RULE_STANDARD] = 150,
    [RULE_RENJU] = 0,
    [RULE_CARO] = 0,
};

int opening_ai_black_edge(Rule rule)
{
    return rule >= 0 && rule < RULE_COUNT ? BLACK_EDGE[rule] : 0;
}

/* The decisions' score for black: the search's, with black's edge; a forced
 * result stays as it is. */
static int black_view(const Board *b, Color mover, int score)
{
    int s = mover == BLACK ? score : -score;
    if (s >= ENGINE_SCORE_WIN_MIN || s <= -ENGINE_SCORE_WIN_MIN)
        return s;
    return s + opening_ai_black_edge(b->rule);
}

bool opening_ai_black_score(OpeningAI *ai, const Board *b, Color to_move, int *score, Point *best)
{
    SearchLimits l = part_limits(ai, 1);
    SearchResult res;
    if (!search(ai, b, to_move, &l, &res))
        return false;
    *score = black_view(b, to_move, res.score);
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
            bool near = b->count == 0 && p == opening_center(b->size);
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
                    scores[i] = black_view(b, to_move, res->lines[j].score);
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

bool opening_ai_symmetric(const Board *b, Point a, Point c)
{
    Point stones[BOARD_MAX_MOVES];
    Color colors[BOARD_MAX_MOVES];
    for (int i = 0; i < b->count; i++) {
        stones[i] = b->history[i];
        colors[i] = b->cell[b->history[i]];
    }
    return opening_symmetric(stones, colors, b->count, a, c, NULL);
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

/* Black's score after an offer of k 5th moves for k = 1..n, white taking
 * the worst: the k-th best of black's pairwise non-symmetric 5th moves,
 * after white's best 4th when white is to move. Returns how many it found
 * (values[0..found)). */
static int offer_values(OpeningAI *ai, const Board *b, int n, int *values)
{
    Board pos = *b;
    bool fourth = board_side_to_move(b) == WHITE;
    int old = phases_begin(ai, fourth ? 2 : 1), found = 0;
    Point *cand = malloc(BOARD_MAX_MOVES * sizeof *cand);
    int *sc = malloc(BOARD_MAX_MOVES * sizeof *sc);
    Ranked *r = malloc(BOARD_MAX_MOVES * sizeof *r);
    SearchResult *res = malloc(sizeof *res);
    if (!cand || !sc || !r || !res)
        goto done;
    if (fourth) {
        SearchLimits l = part_limits(ai, 1);
        if (!search(ai, &pos, WHITE, &l, res) || pos.cell[res->best] != EMPTY)
            goto done;
        board_play(&pos, res->best, WHITE);
    }
    int ncand = near_points(&pos, BLACK, cand), m = 0;
    score_moves(ai, &pos, BLACK, cand, ncand, sc);
    for (int i = 0; i < ncand; i++)
        if (sc[i] != SCORE_NONE)
            r[m++] = (Ranked){cand[i], -sc[i], sc[i]};
    qsort(r, (size_t)m, sizeof *r, by_key); /* black's best first */
    Point props[BOARD_MAX_MOVES];
    for (int i = 0; i < m && found < n; i++)
        if (add_distinct(&pos, props, &found, r[i].p))
            values[found - 1] = r[i].score;
done:
    phases_end(ai, old);
    free(cand);
    free(sc);
    free(r);
    free(res);
    return found;
}

bool opening_ai_take_black_offer(OpeningAI *ai, const Board *b, int n, int *black_score)
{
    if (n <= 0)
        return opening_ai_take_black(ai, b, board_side_to_move(b), black_score);
    int values[BOARD_MAX_MOVES];
    int found = offer_values(ai, b, n < BOARD_MAX_MOVES ? n : BOARD_MAX_MOVES, values);
    /* Fewer distinct moves near the stones than the offer: white takes the
     * worst of them, or a far one, no better for black. */
    int s = found > 0 ? values[found - 1] : 0;
    if (black_score)
        *black_score = s;
    return s > 0;
}

int opening_ai_declare(OpeningAI *ai, const Board *b, int nmax)
{
    int values[BOARD_MAX_MOVES];
    int found = offer_values(ai, b, nmax < BOARD_MAX_MOVES ? nmax : BOARD_MAX_MOVES, values);
    /* The number that leaves black nearest level: the other side's colour
     * choice then gains least. */
    int best = 1;
    for (int k = 2; k <= found; k++)
        if (abs(values[k - 1]) < abs(values[best - 1]))
            best = k;
    return best;
}

/* True when opening i's first stones are the stones of `so_far`. */
static bool opening_extends(const Point all[3], const Board *so_far)
{
    for (int j = 0; j < so_far->count; j++)
        if (j >= 3 || all[j] != so_far->history[j])
            return false;
    return true;
}

/* Black's score (white to move) of each of the 26 openings that extend the
 * stones of so_far, SCORE_NONE for the others and where no search ran: one
 * root-restricted search per white 2nd stone ranks all its third moves.
 * False when an opening does not fit the board. */
static bool opening_scores(OpeningAI *ai, const Board *so_far, Point all[][3], int *sc)
{
    for (int i = 0; i < OPENINGS_COUNT; i++) {
        sc[i] = SCORE_NONE;
        if (!opening_points(i, so_far->size, all[i]))
            return false;
    }
    int groups = 0;
    for (int i = 0; i < OPENINGS_COUNT; i++)
        groups += (i == 0 || all[i][1] != all[i - 1][1]) && opening_extends(all[i], so_far);
    int old = phases_begin(ai, groups);
    for (int first = 0; first < OPENINGS_COUNT;) {
        int last = first;
        while (last < OPENINGS_COUNT && all[last][1] == all[first][1])
            last++;
        Board b;
        board_init(&b, so_far->size, so_far->rule);
        board_play(&b, all[first][0], BLACK);
        board_play(&b, all[first][1], WHITE);
        Point third[OPENINGS_COUNT];
        int idx[OPENINGS_COUNT], k = 0, part[OPENINGS_COUNT];
        for (int i = first; i < last; i++)
            if (opening_extends(all[i], so_far)) {
                idx[k] = i;
                third[k++] = all[i][2];
            }
        if (k > 0) {
            score_moves(ai, &b, BLACK, third, k, part);
            for (int j = 0; j < k; j++)
                sc[idx[j]] = part[j];
        }
        first = last;
    }
    phases_end(ai, old);
    return true;
}

/* The opening whose score is nearest target, none of those in skip. */
static int nearest_opening(const int *sc, int target, const bool *skip)
{
    int best = -1;
    for (int i = 0; i < OPENINGS_COUNT; i++)
        if (sc[i] != SCORE_NONE && !skip[i] &&
            (best < 0 || abs(sc[i] - target) < abs(sc[best] - target)))
            best = i;
    return best;
}

bool opening_ai_pick_opening(OpeningAI *ai, int size, Rule rule, Point out[3])
{
    return opening_ai_pick_opening_offer(ai, size, rule, 0, out);
}

bool opening_ai_pick_opening_offer(OpeningAI *ai, int size, Rule rule, int n, Point out[3])
{
    Board empty;
    if (!board_init(&empty, size, rule))
        return false;
    return opening_ai_pick_opening_from(ai, &empty, n, out);
}

bool opening_ai_pick_opening_from(OpeningAI *ai, const Board *so_far, int n, Point out[3])
{
    Point all[OPENINGS_COUNT][3];
    int sc[OPENINGS_COUNT];
    bool tried[OPENINGS_COUNT] = {false};
    int size = so_far->size;
    Rule rule = so_far->rule;
    bool any = false;
    int old = phases_begin(ai, n > 0 ? 2 : 1);
    if (!opening_scores(ai, so_far, all, sc)) {
        phases_end(ai, old);
        return false;
    }
    for (int i = 0; i < OPENINGS_COUNT; i++)
        any = any || opening_extends(all[i], so_far);
    if (!any) {
        phases_end(ai, old);
        return false;
    }
    int best = nearest_opening(sc, 0, tried);
    if (n > 0 && best >= 0) {
        /* The offer costs black a margin the scores after 3 stones do not
         * show: measure it on the most level opening, then try those whose
         * score is that margin above level. */
        int inner = phases_begin(ai, OFFER_OPENINGS);
        int best_value = INT_MAX, target = 0;
        for (int k = 0, pick = best; k < OFFER_OPENINGS && pick >= 0; k++) {
            Board b;
            board_init(&b, size, rule);
            for (int j = 0; j < 3; j++)
                board_play(&b, all[pick][j], j == 1 ? WHITE : BLACK);
            int values[BOARD_MAX_MOVES];
            int found = offer_values(ai, &b, n < BOARD_MAX_MOVES ? n : BOARD_MAX_MOVES, values);
            tried[pick] = true;
            if (found > 0) {
                int v = values[found - 1];
                if (abs(v) < abs(best_value)) {
                    best_value = v;
                    best = pick;
                }
                if (k == 0)
                    target = sc[pick] - v;
            }
            pick = nearest_opening(sc, target, tried);
        }
        phases_end(ai, inner);
    }
    phases_end(ai, old);
    /* No search ran: 3D Sosei (close to even under the old RIF rule), or
     * the first opening after it that extends the stones. */
    if (best < 0)
        for (int i = 0; i < OPENINGS_COUNT && best < 0; i++)
            if (opening_extends(all[(i + 2) % OPENINGS_COUNT], so_far))
                best = (i + 2) % OPENINGS_COUNT;
    memcpy(out, all[best], 3 * sizeof *out);
    return true;
}

/* Candidates per white 2nd stone that free_three verifies with a search of
 * their own: the multi-line search that ranks the third stones is shallow. */
#define FREE3_VERIFY 2
#define BOOK_DRAWS 4 /* book openings searched for the most balanced */

/* Book opening i moved from 15x15 to the centre of a size board; false when
 * it does not fit. */
static bool book_opening(int i, int size, Point out[3])
{
    char buf[32];
    snprintf(buf, sizeof buf, "%s", OPENING_BOOK_FREE[i]);
    int shift = size / 2 - 7, n = 0;
    char *save = NULL;
    for (char *tok = strtok_r(buf, " ", &save); tok && n < 3; tok = strtok_r(NULL, " ", &save)) {
        Point p;
        if (!coord_parse(tok, 15, &p, NULL))
            return false;
        int x = point_x(p) + shift, y = point_y(p) + shift;
        if (x < 0 || y < 0 || x >= size || y >= size)
            return false;
        out[n++] = point_make(x, y);
    }
    return n == 3;
}

/* The most balanced, by a search each, of `n` openings (black white black);
 * -1 when no search ran. The decision's last phase: the searches share what
 * is left of its time, however much the phases before left over. */
static int most_balanced(OpeningAI *ai, int size, Rule rule, Point (*cand)[3], int n)
{
    int best = -1, best_key = INT_MAX;
    for (int k = 0; k < n; k++) {
        Board b;
        board_init(&b, size, rule);
        for (int j = 0; j < 3; j++)
            board_play(&b, cand[k][j], j == 1 ? WHITE : BLACK);
        int sc;
        ai->tail = n - k;
        bool ok = opening_ai_black_score(ai, &b, WHITE, &sc, NULL);
        ai->tail = 0;
        if (ok && abs(sc) < best_key) {
            best_key = abs(sc);
            best = k;
        }
    }
    return best;
}

/* A few openings drawn from the book, the most balanced of them. */
static bool book_three(OpeningAI *ai, int size, Rule rule, Point out[3])
{
    Point cand[BOOK_DRAWS][3];
    int n = 0;
    Rng rng;
    rng_seed(&rng, ai->seed);
    /* Draw without repeats from the openings that fit the board. */
    enum { ORDER_MAX = 128 };
    int order[ORDER_MAX], m = 0;
    for (int i = 0; i < OPENING_BOOK_FREE_COUNT && m < ORDER_MAX; i++) {
        Point p[3];
        if (book_opening(i, size, p))
            order[m++] = i;
    }
    for (; n < BOOK_DRAWS && m > 0; n++) {
        int k = rng_below(&rng, m);
        book_opening(order[k], size, cand[n]);
        order[k] = order[--m];
    }
    if (n == 0)
        return false;
    int best = most_balanced(ai, size, rule, cand, n);
    memcpy(out, cand[best >= 0 ? best : 0], 3 * sizeof *out);
    return true;
}

bool opening_ai_book_stone(const Board *b, uint64_t seed, Point *out)
{
    if ((b->rule != RULE_FREESTYLE && b->rule != RULE_STANDARD) || b->count >= 3)
        return false;
    int match[OPENING_BOOK_FREE_COUNT > 0 ? OPENING_BOOK_FREE_COUNT : 1], m = 0;
    for (int i = 0; i < OPENING_BOOK_FREE_COUNT; i++) {
        Point p[3];
        if (!book_opening(i, b->size, p))
            continue;
        bool same = true;
        for (int j = 0; j < b->count && same; j++)
            same = b->history[j] == p[j];
        if (same && b->cell[p[b->count]] == EMPTY)
            match[m++] = i;
    }
    if (m == 0)
        return false;
    Rng rng;
    rng_seed(&rng, seed);
    Point p[3];
    book_opening(match[rng_below(&rng, m)], b->size, p);
    *out = p[b->count];
    return true;
}

bool opening_ai_free_three(OpeningAI *ai, int size, Rule rule, Point out[3])
{
    if ((rule == RULE_FREESTYLE || rule == RULE_STANDARD) && book_three(ai, size, rule, out))
        return true;
    /* White 2 beside, diagonal to, a knight's move and two away from black 1:
     * the shapes of the usual swap2 openings, one of each up to symmetry. */
    static const int WHITE2[][2] = {{1, 0}, {1, 1}, {2, 1}, {2, 0}};
    enum { SHAPES = sizeof WHITE2 / sizeof WHITE2[0] };
    int c = size / 2;
    if (c < 4 || c + 4 >= size)
        return false;
    Point cand[SHAPES * FREE3_VERIFY][3];
    int ncand = 0;
    int outer = phases_begin(ai, 2); /* rank the third stones, then verify */
    int inner = phases_begin(ai, SHAPES);
    for (int i = 0; i < SHAPES; i++) {
        Board b;
        board_init(&b, size, rule);
        Point p1 = point_make(c, c), p2 = point_make(c + WHITE2[i][0], c - WHITE2[i][1]);
        board_play(&b, p1, BLACK);
        board_play(&b, p2, WHITE);
        Point region[81], p3[FREE3_VERIFY];
        int n = opening_ai_region(&b, 4, region);
        int got = opening_ai_balanced(ai, &b, BLACK, region, n, 0, p3, NULL, FREE3_VERIFY);
        for (int k = 0; k < got; k++) {
            cand[ncand][0] = p1;
            cand[ncand][1] = p2;
            cand[ncand++][2] = p3[k];
        }
    }
    phases_end(ai, inner);
    int best = most_balanced(ai, size, rule, cand, ncand);
    phases_end(ai, outer);
    if (best >= 0) {
        memcpy(out, cand[best], 3 * sizeof *out);
    } else { /* no search ran: the first shape, black 3 beside black 1 */
        out[0] = point_make(c, c);
        out[1] = point_make(c + 1, c);
        out[2] = point_make(c, c - 1);
    }
    return true;
}

int opening_ai_region(const Board *b, int r, Point *out)
{
    /* The game's central square (on an even board its centre is the
     * lower-left of the middle four). */
    int n = 0;
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            Point p = point_make(x, y);
            if (b->cell[p] == EMPTY && opening_in_center(b->size, p, 2 * r + 1))
                out[n++] = p;
        }
    return n;
}

static Swap2Choice swap2_decide(OpeningAI *ai, const Board *b, Point *move, Point two[2])
{
    int s = 0;
    Point best = POINT_NONE;
    if (!opening_ai_black_score(ai, b, WHITE, &s, &best))
        s = 0;
    if (abs(s) > ai->balanced_margin) {
        /* Settled in half the turn: the other half deepens the same search
         * (the table keeps the first) before the choice is made. */
        int deeper;
        Point again = POINT_NONE;
        ai->tail = 1;
        if (opening_ai_black_score(ai, b, WHITE, &deeper, &again)) {
            s = deeper;
            best = again;
        }
        ai->tail = 0;
    }
    *move = best;
    if (s > ai->balanced_margin)
        return SWAP2_TAKE_BLACK;
    if (s < -ai->balanced_margin && best >= 0)
        return SWAP2_TAKE_WHITE;
    /* Close to even: two more stones, if they leave it even; else the colour
     * the score prefers, however slightly. */
    Swap2Choice colour = s >= 0 || best < 0 ? SWAP2_TAKE_BLACK : SWAP2_TAKE_WHITE;
    /* The other half: stones 4 and 5 a third each, their check what is left. */
    int thirds = phases_begin(ai, 3);
    Board next = *b;
    int sc;
    bool placed = opening_ai_balanced(ai, &next, WHITE, NULL, 0, 0, &two[0], &sc, 1) == 1;
    if (placed) {
        board_play(&next, two[0], WHITE);
        placed = opening_ai_balanced(ai, &next, BLACK, NULL, 0, 0, &two[1], &sc, 1) == 1;
    }
    phases_end(ai, thirds);
    if (!placed)
        return colour;
    /* The balancing searches rank many points at once, shallowly: the
     * opener will search the result on its own. */
    board_play(&next, two[1], BLACK);
    int v;
    ai->tail = 1;
    bool checked = opening_ai_black_score(ai, &next, WHITE, &v, NULL);
    ai->tail = 0;
    if (!checked || abs(v) > ai->balanced_margin)
        return colour;
    return SWAP2_PUT_TWO;
}

Swap2Choice opening_ai_swap2(OpeningAI *ai, const Board *b, Point *move, Point two[2])
{
    int old = phases_begin(ai, 2); /* the colours' score half the time, two more stones half */
    Swap2Choice c = swap2_decide(ai, b, move, two);
    phases_end(ai, old);
    return c;
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

static bool taraguchi_offer(OpeningAI *ai, const Board *b, int n, Point *props, int *nprops,
                            Point *place);

bool opening_ai_taraguchi_offer(OpeningAI *ai, const Board *b, int n, Point *props, int *nprops,
                             Point *place)
{
    int old = phases_begin(ai, 3); /* the proposals, the placed stone, the proposals' worst */
    bool offer = taraguchi_offer(ai, b, n, props, nprops, place);
    phases_end(ai, old);
    return offer;
}

static bool taraguchi_offer(OpeningAI *ai, const Board *b, int n, Point *props, int *nprops,
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
