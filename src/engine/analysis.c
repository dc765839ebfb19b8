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

double analysis_given_up(const MoveJudgement *j)
{
    double played = forbid_is_forbidden(j->forbid) ? 0.0 : analysis_expected(j->played.score);
    double d = analysis_expected(j->best.score) - played;
    return d > 0 ? 100.0 * d : 0.0;
}

unsigned analysis_flags(const MoveJudgement *j, int blunder_pct)
{
    unsigned f = forbid_is_forbidden(j->forbid) ? JUDGE_FORBIDDEN : 0;
    bool played_wins = !(f & JUDGE_FORBIDDEN) && j->played.mate > 0;
    if (j->best.mate > 0 && !played_wins)
        f |= JUDGE_MISSED_WIN;
    if (j->best.mate < 0)
        return f; /* lost whatever the move: nothing to blame it for */
    if ((f & JUDGE_FORBIDDEN) || j->played.mate < 0)
        return f | JUDGE_BLUNDER;
    if (analysis_given_up(j) >= blunder_pct)
        f |= JUDGE_BLUNDER;
    return f;
}

/* r's first line, or a line of the move p alone when r has none. */
static SearchLine line_of(const SearchResult *r, Point p)
{
    if (r->best != POINT_NONE && r->nlines > 0)
        return r->lines[0];
    SearchLine l = {.move = p, .pvlen = p == POINT_NONE ? 0 : 1};
    l.pv[0] = p;
    return l;
}

/* A forced line the search cut short (a threat it scores without playing it
 * out) is continued move by move, each from a small search of the position
 * at its end, until it is as long as the forced result says or a five ends it. */
static void complete_line(Engine *e, const Board *b, Color c, SearchLine *l)
{
    int plies = l->mate < 0 ? -l->mate : l->mate;
    if (!plies || l->pvlen >= plies)
        return;
    Board w = *b;
    for (int i = 0; i < l->pvlen; i++) {
        if (!board_on(&w, l->pv[i]) || w.cell[l->pv[i]] != EMPTY)
            return;
        board_play(&w, l->pv[i], i % 2 ? color_other(c) : c);
    }
    int goal = plies < ENGINE_MAX_PV ? plies : ENGINE_MAX_PV;
    for (int tries = 0; l->pvlen < goal && tries < ENGINE_MAX_PV; tries++) {
        Color mover = l->pvlen % 2 ? color_other(c) : c;
        if (!engine_set_position(e, &w, mover, NULL))
            return; /* a five ends the line */
        SearchLimits x;
        search_limits_init(&x);
        x.depth = plies - l->pvlen + 1;
        x.nodes = ANALYSIS_LINE_NODES;
        SearchResult r;
        engine_think(e, &x, NULL, NULL, &r);
        if (r.best == POINT_NONE || r.nlines < 1)
            return;
        const SearchLine *more = &r.lines[0];
        for (int i = 0; i < more->pvlen && l->pvlen < ENGINE_MAX_PV; i++) {
            Color who = l->pvlen % 2 ? color_other(c) : c;
            if (!board_on(&w, more->pv[i]) || w.cell[more->pv[i]] != EMPTY)
                return;
            board_play(&w, more->pv[i], who);
            l->pv[l->pvlen++] = more->pv[i];
        }
    }
}

bool analysis_judge(Engine *e, const SearchLimits *lim, const Board *b, Color c, Point p,
                    int blunder_pct, MoveJudgement *out, TgError *err)
{
    memset(out, 0, sizeof *out);
    out->played.move = out->played.pv[0] = p;
    out->played.pvlen = 1;
    out->best.move = POINT_NONE;
    if (!board_on(b, p) || b->cell[p] != EMPTY) {
        tg_error_set(err, 0, 0, "the move played is not an empty point of the board");
        return false;
    }
    if (!engine_set_position(e, b, c, err))
        return false;
    out->forbid = forbid_verdict(b, c, p);
    SearchResult res;
    SearchLimits first = *lim;
    if (b->count == 0 && lim->nroot == 0) {
        /* On an empty board the engine takes the centre without searching
         * deeper than two plies; scored as a move asked for, it is searched
         * as deep as the move played will be. */
        first.nroot = 1;
        first.root[0] = point_make(b->size / 2, b->size / 2);
    }
    engine_think(e, &first, NULL, NULL, &res);
    out->best = line_of(&res, POINT_NONE);
    if (out->best.move == p) {
        out->played = out->best;
    } else if (!forbid_is_forbidden(out->forbid)) {
        SearchLimits one = *lim;
        one.nroot = 1;
        one.root[0] = p;
        one.nbest = 1;
        engine_think(e, &one, NULL, NULL, &res);
        out->played = line_of(&res, p);
        /* Two searches can disagree; if the move played came out better,
         * the engine's choice is that move. */
        if (out->best.move == POINT_NONE || out->played.score > out->best.score)
            out->best = out->played;
    }
    if (out->best.move == POINT_NONE) {
        /* No legal move but a forbidden one: nothing better was there. */
        out->best.score = out->played.score;
        out->best.mate = out->played.mate;
    }
    out->flags = analysis_flags(out, blunder_pct);
    if (out->best.move != POINT_NONE)
        complete_line(e, b, c, &out->best);
    if (out->best.move == p)
        out->played = out->best;
    else if (!(out->flags & JUDGE_FORBIDDEN))
        complete_line(e, b, c, &out->played);
    return true;
}

bool analysis_judge_choice(Engine *e, const SearchLimits *lim, const Board *b, Color stone,
                           const Point *offered, int n, Point chosen, int blunder_pct,
                           MoveJudgement *out, TgError *err)
{
    memset(out, 0, sizeof *out);
    out->best.move = POINT_NONE;
    bool found = false;
    for (int i = 0; i < n; i++)
        found |= offered[i] == chosen;
    if (!found) {
        tg_error_set(err, 0, 0, "the point chosen is not one of those offered");
        return false;
    }
    for (int i = 0; i < n; i++) {
        Point q = offered[i];
        if (!board_on(b, q) || b->cell[q] != EMPTY) {
            tg_error_set(err, 0, 0, "an offered point is not an empty point of the board");
            return false;
        }
        Board w = *b;
        board_play(&w, q, stone);
        if (!engine_set_position(e, &w, color_other(stone), err))
            return false;
        SearchResult res;
        engine_think(e, lim, NULL, NULL, &res);
        SearchLine after = line_of(&res, POINT_NONE);
        complete_line(e, &w, color_other(stone), &after);
        /* The chooser's line: the offered stone, then its own search. */
        SearchLine l = {.move = q, .score = after.score, .mate = after.mate, .pvlen = 1};
        l.pv[0] = q;
        for (int k = 0; k < after.pvlen && l.pvlen < ENGINE_MAX_PV; k++)
            l.pv[l.pvlen++] = after.pv[k];
        if (q == chosen)
            out->played = l;
        if (out->best.move == POINT_NONE || l.score > out->best.score)
            out->best = l;
    }
    out->flags = analysis_flags(out, blunder_pct);
    return true;
}

bool analysis_judge_colour(Engine *e, const SearchLimits *lim, const Board *b, Color to_move,
                           Color took, int blunder_pct, MoveJudgement *out, TgError *err)
{
    memset(out, 0, sizeof *out);
    out->played.move = out->best.move = POINT_NONE;
    if (!engine_set_position(e, b, to_move, err))
        return false;
    SearchResult res;
    engine_think(e, lim, NULL, NULL, &res);
    SearchLine mover = line_of(&res, POINT_NONE);
    complete_line(e, b, to_move, &mover);
    /* The same line seen by the colour that waits for it. */
    SearchLine waiter = mover;
    waiter.score = -mover.score;
    waiter.mate = -mover.mate;
    Color other = color_other(took);
    out->played = took == to_move ? mover : waiter;
    SearchLine alt = took == to_move ? waiter : mover;
    out->played_colour = out->best_colour = took;
    out->best = out->played;
    if (alt.score > out->played.score) {
        out->best = alt;
        out->best_colour = other;
    }
    out->flags = analysis_flags(out, blunder_pct);
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
    t->given_up[s] += analysis_given_up(j);
    t->judged[s]++;
    if (!t->lost_from[s] && ((j->flags & JUDGE_FORBIDDEN) || j->played.mate < 0)) {
        t->lost_from[s] = number;
        j->flags |= JUDGE_FORCED_LOSS;
    }
}
