/* tune.h — tuning the evaluation weights from self-play games.
 *
 * Data format (text, one game a line, '#' lines are comments):
 *     RESULT OPENING MOVES
 * RESULT is 1-0 (black won), 0-1 (white won) or 1/2 (draw); OPENING is how
 * many of the moves were the random opening; MOVES are comma-separated
 * renju-notation points (h8,i9,...), black first, alternating. The positions
 * used are every prefix of at least OPENING moves that is not the final one.
 * A header comment records rule, games, seed and node budget.
 */
#ifndef TENGEN_TUNE_H
#define TENGEN_TUNE_H

#include <stdbool.h>
#include <stdint.h>

#include "tengen/board.h"
#include "tengen/engine.h"
#include "tengen/error.h"

#define TUNE_BOARD_SIZE 15
#define TUNE_MAX_OPENING 8

typedef struct {
    Rule rule;
    int games;      /* >= 1 */
    uint64_t seed;  /* the same seed gives the same bytes */
    uint64_t nodes; /* node budget per engine move (single thread) */
    int opening;    /* random opening moves per game, 1..TUNE_MAX_OPENING */
    int balance;    /* > 0: openings drawn anywhere within TUNE_BALANCE_RADIUS of the
                     * centre and kept only when a search of 4 * nodes scores them
                     * within +-balance; 0: h8, then cells within three of it */
    bool edge;      /* with balance: the stones fall within three lines of a cell
                     * drawn at least TUNE_EDGE_MIN lines from the centre */
    bool scores;    /* also record each engine move's search score (data format 2) */
} TuneGenConfig;

/* A data score is the mover's view of the search, clamped to +-TUNE_SCORE_MAX;
 * a forced win or loss is written as the cap. */
#define TUNE_SCORE_MAX 10000

#define TUNE_BALANCE_RADIUS 4
#define TUNE_EDGE_MIN 4
#define TUNE_BALANCE_TRIES 100000 /* draws per game before gen gives up */

/* Plays c->games self-play games with w[0] for black to move and w[1] for
 * white (NULL: the built-in weights) and returns the data text (caller
 * frees); NULL with err on bad config or memory. */
char *tune_generate(const TuneGenConfig *c, const EvalWeights w[2], TgError *err);

typedef struct TuneData TuneData;

/* Parses data text for rule r; NULL with err naming line, column and token.
 * A line is `RESULT OPENING MOVES [SCORES]`: SCORES, when given, has one
 * integer per move from the opening on. With smooth, each position's cell
 * features are those of the position plus those of the one before it, for
 * weights with smooth 1 (EvalWeights); otherwise for weights with smooth 0. */
TuneData *tune_data_parse(const char *text, Rule r, bool smooth, TgError *err);
void tune_data_free(TuneData *d);
int tune_data_games(const TuneData *d);

/* The quiet positions taken from the games, in file order. */
int tune_data_positions(const TuneData *d);

/* Game g (0..games-1) replayed on b (a new board of the data's rule), with
 * its opening length; false when there is no game g. */
bool tune_data_game(const TuneData *d, int g, Board *b, int *opening);

/* Game g's result as written in the data ("1-0", "0-1" or "1/2"); NULL when
 * there is no game g. */
const char *tune_data_result(const TuneData *d, int g);

/* Whether fit uses b (side to move as by the stone count): it is quiet, no
 * side can make five and the mover has no flex four, double four or
 * four-three to make (threats decide those, not the evaluation). */
bool tune_position_used(const Board *b);

/* Keeps only the positions with colour c to move (for weights per side to
 * move); returns how many are left. */
int tune_data_keep_mover(TuneData *d, Color c);

/* Evaluation of quiet position i (side to move's view) under w, as the engine
 * would compute it with those weights (w's smooth taken to be the data's). */
int tune_data_eval(const TuneData *d, int i, const EvalWeights *w);

/* Sets the fit's target of every position whose move has a score to
 * lambda * result + (1 - lambda) * sigmoid(score / score_k), the others to
 * the game's result (lambda 1 restores all); returns how many have a score. */
int tune_data_blend(TuneData *d, double lambda, double score_k);

/* The sigmoid scale K that fits w best to d's current targets. */
double tune_fit_scale(const TuneData *d, const EvalWeights *w);

/* The scale K_s at which sigmoid(score / K_s) predicts the game results best
 * over the scored positions (forced results left out): the scores' own
 * scale, which differs from the evaluation's when they come from a deeper
 * search or another engine. -1 when no position has such a score. */
double tune_fit_score_scale(const TuneData *d);

/* Mean (result - sigmoid(score / k))^2 over those positions (-1 if none). */
double tune_score_error(const TuneData *d, double k);

typedef struct {
    int positions;      /* quiet positions used */
    double k;           /* sigmoid scale fitted to the starting weights */
    double err_before;  /* mean squared error with the starting weights */
    double err_after;
    int passes;         /* coordinate-descent passes run */
    EvalWeights w;      /* the fitted weights */
} TuneFit;

#define TUNE_COMBO_L2 1e-9 /* default pull of each combination weight towards 0 */

typedef struct {
    int iterations;  /* passes at most */
    bool combos;     /* also fit the combination weights (EvalWeights.combo) */
    double combo_l2; /* ... adding combo_l2 * weight^2 to the error for each */
    bool combo_anchor; /* ... or combo_l2 * (weight - its start)^2: a pull
                        * towards the starting weights instead of towards 0 */
    double k;        /* > 0: this sigmoid scale instead of fitting one (so that
                      * sets fitted apart, e.g. per side to move, share a scale) */
    bool tie_colours; /* one threat weight per situation whichever colour is to
                       * move (starting from the mean of the two) */
} TuneFitOptions;

/* Texel tuning: fits K for start, then for at most opt->iterations passes
 * minimises mean (target - sigmoid(eval/K))^2 over the quiet positions: each
 * pass sets every threat weight seen in 30+ positions to its best value,
 * takes gradient steps on the combination weights seen in 50+ positions (when
 * opt->combos) and a coordinate-descent step on the line, class and own
 * weights. False with err when there is no quiet position. */
bool tune_fit(const TuneData *d, const EvalWeights *start, const TuneFitOptions *opt, TuneFit *out,
              TgError *err);

/* Mean squared error of w at scale k over d's quiet positions (-1 if none). */
double tune_error(const TuneData *d, const EvalWeights *w, double k);

/* The weights as a C initialiser for eval_params.h (caller frees). */
char *tune_weights_c(const EvalWeights *w, Rule r);

/* Weights file: "line" + PAT_COUNT numbers, "class" + 8 numbers, "own N",
 * "opp N", optional "line_opp", "class_opp", "threat MASK VALUE" and
 * "combo own|opp P P P P VALUE" lines (evaluation patterns by name; a mask or
 * code not given weighs 0), one a line, '#' comments. Write returns malloc'd text. */
char *tune_weights_write(const EvalWeights *w);
bool tune_weights_parse(const char *text, EvalWeights *w, TgError *err);

typedef struct {
    int wins, losses, draws; /* for weights a */
} TuneMatch;

/* How an engine of tune_match orders its moves. */
typedef struct {
    bool classes;              /* by classes and worths, whatever the built-in table */
    const OrderWeights *table; /* else by this table (NULL: the built-in order) */
} TuneOrdering;

/* Plays `games` games, a vs b (each a pair: black to move, white to move),
 * colours alternating (each opening is played twice, once with each colour),
 * fixed nodes per move; ord[0] and ord[1] are a's and b's move ordering (ord
 * NULL: both built in). The openings are openings[0..nopenings-1] in turn
 * (positions of TUNE_BOARD_SIZE under r), or with nopenings 0 random ones of
 * `opening` stones drawn from the seed. */
bool tune_match(Rule r, const EvalWeights a[2], const EvalWeights b[2], const TuneOrdering ord[2],
                int games, uint64_t seed, uint64_t nodes, int opening, const Board *openings,
                int nopenings, TuneMatch *out, TgError *err);

/* ---- move ordering (src/engine/tune_order.c) ----
 * Fits OrderWeights so that the move played in the data's games comes first:
 * softmax regression over the candidates (empty cells within two of a stone,
 * legal for the mover) of every position from the opening on where neither
 * side has a five to make or to stop; logit = (att + def) / scale. */

typedef struct {
    int epochs;   /* passes over the games; 0 only measures the start */
    double rate;  /* Adam step size, in logits (default 0.02) */
    double l2;    /* pull of each weight towards 0 (in logits^2) per position */
    double scale; /* ordering units per logit, > 0 */
    Color mover;  /* only the positions with this side to move (EMPTY: all) */
} TuneOrderOptions;

typedef struct {
    int positions;
    double loss_before, loss_after; /* mean -ln p(move played) */
    double top1_before, top1_after; /* share of positions where it is ordered first */
    double top1_base;               /* the same for the class-and-worth order */
    OrderWeights w;
} TuneOrderFit;

/* Fits from start (NULL: all 0); false with err when there is no position or
 * an option is out of range. The same data and options give the same table. */
bool tune_order_fit(const TuneData *d, const OrderWeights *start, const TuneOrderOptions *o,
                    TuneOrderFit *out, TgError *err);

/* Order file: "att CODE VALUE" / "def CODE VALUE" lines (a code not given
 * weighs 0), '#' comments. Write returns malloc'd text; parse fills w. */
char *tune_order_write(const OrderWeights *w);
bool tune_order_parse(const char *text, OrderWeights *w, TgError *err);

/* The table as an order_params.h entry for rule r (caller frees). */
char *tune_order_c(const OrderWeights *w, Rule r);

#endif
