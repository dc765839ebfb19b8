/* analysis.c — judging the moves of a game with the engine. */
#include "tengen/analysis.h"

#include <math.h>
#include <string.h>

double analysis_expected(int score)
{
    int mate = engine_mate_plies(score);
    if (mate)
        return mate > 0 ? 1.0 : 0.0;
    return 1.0 / (1.0 + exp(-(double)score / ANALYSIS_SCORE_SCALE));
}

static ForbidKind forbid_verdict(const Board *b, Color c, Point p)
{
    if (b->rule != RULE_RENJU || c != BLACK)
        return FORBID_NONE;
    Board copy = *b; /* forbid_check plays stones on the board it checks */
    return forbid_check(&copy, p);
}

/* The flags that follow from the two (consistent) results. */
static unsigned judge_flags(const MoveJudgement *j, int blunder_pct)
{
    unsigned f = j->forbid != FORBID_NONE && forbid_is_forbidden(j->forbid) ? JUDGE_FORBIDDEN : 0;
    bool played_wins = !(f & JUDGE_FORBIDDEN) && j->played_mate > 0;
    if (j->best_mate > 0 && !played_wins)
        f |= JUDGE_MISSED_WIN;
    if (j->best_mate < 0)
        return f; /* lost whatever the move: nothing to blame it for */
    if ((f & JUDGE_FORBIDDEN) || j->played_mate < 0)
        return f | JUDGE_BLUNDER;
    double drop = analysis_expected(j->best_score) - analysis_expected(j->played_score);
    if (drop * 100.0 >= blunder_pct)
        f |= JUDGE_BLUNDER;
    return f;
}

bool analysis_judge(Engine *e, const SearchLimits *lim, const Board *b, Color c, Point p,
                    int blunder_pct, MoveJudgement *out, TgError *err)
{
    memset(out, 0, sizeof *out);
    out->played = p;
    out->best = POINT_NONE;
    if (!board_on(b, p) || b->cell[p] != EMPTY) {
        tg_error_set(err, 0, 0, "the move played is not an empty point of the board");
        return false;
    }
    if (!engine_set_position(e, b, c, err))
        return false;
    out->forbid = forbid_verdict(b, c, p);
    SearchResult res[2];
    SearchResult *best = &res[0], *played = &res[1];
    engine_think(e, lim, NULL, NULL, best);
    out->best = best->best;
    out->best_score = best->score;
    out->best_mate = best->mate;
    if (forbid_is_forbidden(out->forbid)) {
        out->played_score = out->played_mate = 0;
    } else if (best->best == p) {
        out->played_score = best->score;
        out->played_mate = best->mate;
    } else {
        SearchLimits one = *lim;
        one.nroot = 1;
        one.root[0] = p;
        one.nbest = 1;
        engine_think(e, &one, NULL, NULL, played);
        out->played_score = played->score;
        out->played_mate = played->mate;
        /* Two searches can disagree; if the move played came out better,
         * the engine's choice is that move. */
        if (best->best == POINT_NONE || played->score > best->score) {
            out->best = p;
            out->best_score = played->score;
            out->best_mate = played->mate;
        }
    }
    if (out->best == POINT_NONE) {
        /* No legal move but a forbidden one: nothing better was there. */
        out->best_score = out->played_score;
        out->best_mate = out->played_mate;
    }
    out->flags = judge_flags(out, blunder_pct);
    return true;
}

void analysis_tally_init(AnalysisTally *t)
{
    memset(t, 0, sizeof *t);
}

void analysis_tally(AnalysisTally *t, Color c, int number, MoveJudgement *j)
{
    int s = c - 1;
    t->blunders[s] += (j->flags & JUDGE_BLUNDER) != 0;
    t->missed_wins[s] += (j->flags & JUDGE_MISSED_WIN) != 0;
    if (!t->lost_from[s] && ((j->flags & JUDGE_FORBIDDEN) || j->played_mate < 0)) {
        t->lost_from[s] = number;
        j->flags |= JUDGE_FORCED_LOSS;
    }
}
