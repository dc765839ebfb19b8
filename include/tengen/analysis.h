/* analysis.h — judging the moves of a game with the engine.
 *
 * For a move played, the engine searches the position twice: for its own
 * choice, and with the root restricted to the move played. The two results
 * are made consistent (the move played is never scored above the engine's
 * choice: if its own search finds it better, it becomes the choice) and the
 * move is flagged:
 *   blunder     it gives up at least the threshold of expected score (from
 *               the score, on a logistic scale of ANALYSIS_SCORE_SCALE), or
 *               walks into a forced loss the engine's choice avoids, or is a
 *               forbidden point while the game was not lost;
 *   missed-win  a forced win was there and the move lets it go.
 * A blunder needs a game not yet lost: where every move loses by force, none
 * is flagged. A tally over a game marks forced-loss on the first move of each
 * side after which that side loses by force (its own blunder or not).
 */
#ifndef TENGEN_ANALYSIS_H
#define TENGEN_ANALYSIS_H

#include <stdbool.h>

#include "tengen/board.h"
#include "tengen/engine.h"
#include "tengen/error.h"
#include "tengen/forbid.h"

/* Score units a logit of expected score: 0 is even, ANALYSIS_SCORE_SCALE
 * about 73%. The fitted evaluations put a logit at 200..700 units. */
#define ANALYSIS_SCORE_SCALE 400
#define ANALYSIS_DEFAULT_BLUNDER 20 /* percentage points of expected score */
#define ANALYSIS_LINE_NODES 200000   /* a search that continues a forced line */

enum {
    JUDGE_BLUNDER = 1 << 0,
    JUDGE_MISSED_WIN = 1 << 1,
    JUDGE_FORCED_LOSS = 1 << 2, /* set by analysis_tally: the first move into a forced loss */
    JUDGE_FORBIDDEN = 1 << 3,   /* renju: black played a forbidden point (kind in `forbid`) */
};

/* Scores are for the mover, as engine.h gives them. The lines start with
 * their move, and a forced one is played out to its end where the engine
 * finds the moves; a forbidden move played has score 0 and a line of its own
 * move only; best.move is POINT_NONE when the mover has no legal move. */
typedef struct {
    SearchLine played, best;
    ForbidKind forbid; /* the played point's verdict (FORBID_NONE unless renju black) */
    unsigned flags;    /* JUDGE_* */
    /* A colour choice (analysis_judge_colour): the colour taken and the one
     * better for the chooser; EMPTY for a move or a 5th-move choice. */
    Color played_colour, best_colour;
} MoveJudgement;

/* Per side of a game: how many blunders and missed wins, the number of the
 * move from which the side was lost by force (0: never), and the expected
 * score its judged moves gave up (percentage points, summed) over how many. */
typedef struct {
    int blunders[2], missed_wins[2];
    int lost_from[2];
    double given_up[2];
    int judged[2];
} AnalysisTally;

/* Expected score (percentage points) the move gave up against the engine's
 * choice: 0 when it is as good, the whole of the choice's for a forbidden one. */
double analysis_given_up(const MoveJudgement *j);

/* The flags that follow from j's two (consistent) results and its verdict:
 * JUDGE_FORBIDDEN, JUDGE_MISSED_WIN and JUDGE_BLUNDER as above. */
unsigned analysis_flags(const MoveJudgement *j, int blunder_pct);

/* Expected score (0..1) of the side a score is for; forced results give 0 or 1. */
double analysis_expected(int score);

/* Judges colour c's move p on b (an empty point of the board; the side to
 * move must be c) with two searches under lim; blunder_pct is the blunder
 * threshold in percentage points (1..100). False with err set when the
 * engine cannot take the position (a five already on the board, say). */
bool analysis_judge(Engine *e, const SearchLimits *lim, const Board *b, Color c, Point p,
                    int blunder_pct, MoveJudgement *out, TgError *err);

/* Judges a choice among offered points (a 5th move picked from those
 * proposed): each offered stone of colour `stone` is put on b and the
 * chooser, the other colour, searched to move. played is the line of the
 * point chosen, best the line best for the chooser; each starts with the
 * offered point and its score and mate are the chooser's from there. False
 * with err set when `chosen` was not offered or a point is taken. */
bool analysis_judge_choice(Engine *e, const SearchLimits *lim, const Board *b, Color stone,
                           const Point *offered, int n, Point chosen, int blunder_pct,
                           MoveJudgement *out, TgError *err);

/* Judges a colour choice (swap or keep; swap2's take black or take white):
 * b is searched once with `to_move`, the colour of the next stone, to move,
 * and the chooser who took colour `took` is compared with taking the other.
 * Both lines are the engine's from b; their scores are for the colour each
 * names. Only the two colours are compared (not swap2's option of placing
 * two more stones). False with err set when the engine cannot take b. */
bool analysis_judge_colour(Engine *e, const SearchLimits *lim, const Board *b, Color to_move,
                           Color took, int blunder_pct, MoveJudgement *out, TgError *err);

void analysis_tally_init(AnalysisTally *t);

/* Counts j, move `number` of colour c, into t; marks JUDGE_FORCED_LOSS on
 * the side's first move that loses by force or is forbidden. */
void analysis_tally(AnalysisTally *t, Color c, int number, MoveJudgement *j);

#endif
