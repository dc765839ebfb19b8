/* opening_ai.h — opening-rule decisions (swaps, 5th-move proposals, swap2)
 * built on the engine's evaluation and N-best search.
 *
 * Every decision rests on one quantity: the engine's score of a position for
 * BLACK, plus the edge of black's first move that the score misses
 * (opening_ai_black_edge). A colour choice takes the side the score
 * favours; a "balanced" move is one after which that score is closest to a
 * target (0, or a bias), so that the opponent's colour choice gains nothing;
 * a 5th-move proposal offers black's best moves that are pairwise
 * non-symmetric, and the chooser takes the proposal that is worst for black.
 * Candidate moves are scored in batches with a root-restricted N-best
 * search, so one search ranks up to ENGINE_MAX_NBEST moves.
 *
 * The budget in OpeningAI.limits is for a whole decision and is split over
 * its searches. Functions return false only when no search could run (no
 * legal move, or a position the engine refuses).
 */
#ifndef TENGEN_OPENING_AI_H
#define TENGEN_OPENING_AI_H

#include <stdatomic.h>
#include <stdbool.h>

#include "tengen/board.h"
#include "tengen/engine.h"

typedef struct {
    Engine *engine;
    SearchLimits limits;       /* budget of one decision (time, depth, nodes); root and nbest are ignored */
    int balanced_margin;       /* |black score| up to this counts as balanced */
    const atomic_int *cancel;  /* optional: non-zero stops the search and makes the rest depth 1 */
    SearchCallback progress;   /* optional: called from every search */
    void *user;
    uint64_t seed;             /* varies the openings drawn from a book (0 by default) */
    /* Internal: the decision's clock starts with its first search, and its
     * time is shared by `phases` sequential parts; no search runs past it. */
    int64_t started_ms;
    int phases;
    int tail; /* > 0: the decision's last searches, each an equal part of what is left */
} OpeningAI;

/* Defaults: 1 s and depth 8 per decision, balanced within 60. An OpeningAI
 * serves one decision: the time limit covers all of its searches. */
void opening_ai_init(OpeningAI *ai, Engine *e);

/* Shares the decision's time among n sequential calls of the functions below
 * (a caller that makes several, e.g. two balancing stones). */
void opening_ai_split(OpeningAI *ai, int n);

/* Black's edge the engine's score misses, per rule (0 where none was
 * measured): every decision below adds it to the engine's score for black,
 * so that a decision's "level" is where self-play games come out even. */
int opening_ai_black_edge(Rule rule);

/* The engine's score for black of b with to_move to play, black's edge
 * added (a forced result as it is), and its best move. */
bool opening_ai_black_score(OpeningAI *ai, const Board *b, Color to_move, int *score, Point *best);

/* Colour choice (swap after 3, RIF/Yamaguchi/Soosorv swaps, swap1, Taraguchi
 * swaps): true when the chooser should take black. */
bool opening_ai_take_black(OpeningAI *ai, const Board *b, Color to_move, int *black_score);

/* Up to n moves for to_move among cand (all empty points within two lines of a
 * stone, or the centre on an empty board, when ncand == 0), ordered by how close
 * black's score after them is to target. Writes the scores when scores != NULL;
 * returns how many. Forbidden points for black are never offered. */
int opening_ai_balanced(OpeningAI *ai, const Board *b, Color to_move, const Point *cand,
                           int ncand, int target, Point *out, int *scores, int n);

/* True when the distinct points a and c are symmetric 5th moves: some
 * isometry of the grid (rotation/reflection plus translation; board edges
 * ignored) maps the stones of b onto themselves colour for colour and a onto c
 * (the game module's opening_symmetric on b's stones). */
bool opening_ai_symmetric(const Board *b, Point a, Point c);

/* Colour choice before black offers n 5th moves of which white takes the
 * worst (RIF: 2; Yamaguchi, Soosorv: the number declared; game_offer_ahead):
 * true when black's score after white's best 4th (when white is to move)
 * and that choice is positive (*black_score). n <= 0: opening_ai_take_black. */
bool opening_ai_take_black_offer(OpeningAI *ai, const Board *b, int n, int *black_score);

/* Black (to move) proposes n pairwise non-symmetric 5th moves, its best ones;
 * returns how many were found (fewer only when the board has too few). */
int opening_ai_propose(OpeningAI *ai, const Board *b, int n, Point *out);

/* White picks the proposal that is worst for black (b has black to move). */
Point opening_ai_choose(OpeningAI *ai, const Board *b, const Point *props, int n);

/* Yamaguchi / Soosorv: how many 5th moves to declare (1..nmax): the number
 * after which black's score (as in opening_ai_take_black_offer) is nearest
 * level, so that the colour choice that follows gains least. b is the
 * position when the number is declared (white's best 4th is searched when
 * white is to move). */
int opening_ai_declare(OpeningAI *ai, const Board *b, int nmax);

/* The opener's opening: the most balanced of the 26 standard openings (black
 * 1 on the centre). Writes 3 points. */
bool opening_ai_pick_opening(OpeningAI *ai, int size, Rule rule, Point out[3]);

/* The same when black will offer n 5th moves later and white take the worst
 * (RIF: 2): balanced as opening_ai_take_black_offer scores it, among a few
 * openings the scores after 3 stones put that offer's cost above level.
 * n <= 0: opening_ai_pick_opening. */
bool opening_ai_pick_opening_offer(OpeningAI *ai, int size, Rule rule, int n, Point out[3]);

/* The same among the openings whose first stones are those of so_far (its
 * size and rule; 0..2 stones, black first): the opener placing stone by
 * stone. False when none of the 26 starts with them. */
bool opening_ai_pick_opening_from(OpeningAI *ai, const Board *so_far, int n, Point out[3]);

/* The opener's three stones where they may go anywhere (swap2 outside
 * renju, where every one of the 26 openings leaves black well ahead). In
 * freestyle and standard: a few openings drawn (by ai->seed) from a book of
 * openings balanced offline, the one a search finds most balanced. Otherwise
 * (or when none fits the board): black 1 on the centre, white 2 at one of a
 * few distances from it, black 3 the point of the central 9x9 square that
 * leaves the position most balanced; the most balanced of these. Writes 3
 * points; false if the board is too small for either. */
bool opening_ai_free_three(OpeningAI *ai, int size, Rule rule, Point out[3]);

/* One stone at a time of a book opening (freestyle, standard; b holds the
 * opener's first stones, fewer than three): among the book's openings, moved
 * to b's centre, whose first stones are b's, the next stone of the one `seed`
 * picks. Stone by stone this always ends on a book opening. False when none
 * matches (another rule, a board it does not fit, other stones). */
bool opening_ai_book_stone(const Board *b, uint64_t seed, Point *out);

/* Points of the central (2r+1) x (2r+1) square that are empty (Taraguchi
 * regions: r = 1 for 3x3 ... 4 for 9x9). Returns how many. */
int opening_ai_region(const Board *b, int r, Point *out);

typedef enum { SWAP2_TAKE_BLACK, SWAP2_TAKE_WHITE, SWAP2_PUT_TWO } Swap2Choice;

/* Swap2 after the opener's 3 stones (white to move): take black, take white
 * and play *move, or put two more stones (two[0] white, two[1] black). */
Swap2Choice opening_ai_swap2(OpeningAI *ai, const Board *b, Point *move, Point two[2]);

/* Swap2 after 5 stones (white to move), the opener chooses: true = take black;
 * false = take white and play *move. */
bool opening_ai_swap2_final(OpeningAI *ai, const Board *b, Point *move);

/* Taraguchi-10 after 4 stones (black to move): true = offer the n 5th moves in
 * props (anywhere, non-symmetric); false = place *place within the 9x9 square
 * and leave the opponent the swap. */
bool opening_ai_taraguchi_offer(OpeningAI *ai, const Board *b, int n, Point *props, int *nprops,
                             Point *place);

#endif
