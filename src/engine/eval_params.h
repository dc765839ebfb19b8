/* eval_params.h — every tunable number of the engine's evaluation and move
 * ordering, in one place. Values are in evaluation units (engine.h). */
#ifndef TENGEN_EVAL_PARAMS_H
#define TENGEN_EVAL_PARAMS_H

#include "spos.h"
#include "tengen/engine.h"
#include "tengen/pattern.h"

/* Evaluation weights per rule set (EvalWeights in engine.h): .line is the
 * worth of one line pattern a stone on an empty cell would make, for the side
 * to move (indexed by Pattern); .cls the extra worth of a cell by its combined
 * class, a double threat counting more than its lines (indexed by CellClass);
 * .line_opp and .cls_opp the same for the other side's cells; the evaluation
 * is (own cells * .own - opponent cells * .opp) / 16. Every rule set's table
 * comes from `tengen tune fit` on 600 self-play games (docs/tuning.md has the
 * commands, the errors and the match results; tests/data/tune/ the weights
 * files, base-weights.txt the hand-set start). `tengen tune fit` prints
 * tables in this shape. */
/* clang-format off */
static const EvalWeights EVAL_WEIGHTS[RULE_COUNT] = {
    [RULE_FREESTYLE] = {
        .line = {[PAT_DEAD] = 0, [PAT_B1] = 3, [PAT_F1] = 2, [PAT_B2] = 3, [PAT_F2] = 14,
                 [PAT_B3] = 28, [PAT_F3] = 60, [PAT_B4] = 112, [PAT_F4] = 125, [PAT_F5] = 900,
                 [PAT_OL] = 0},
        .cls = {[CL_NONE] = 0, [CL_THREE] = 6, [CL_B4] = 10, [CL_33] = 4, [CL_43] = 259,
                [CL_44] = 0, [CL_F4] = 155, [CL_FIVE] = 0},
        .line_opp = {[PAT_DEAD] = 0, [PAT_B1] = 3, [PAT_F1] = 2, [PAT_B2] = 3, [PAT_F2] = 14,
                     [PAT_B3] = 28, [PAT_F3] = 60, [PAT_B4] = 112, [PAT_F4] = 125, [PAT_F5] = 900,
                     [PAT_OL] = 0},
        .cls_opp = {[CL_NONE] = 0, [CL_THREE] = 6, [CL_B4] = 10, [CL_33] = 4, [CL_43] = 259,
                    [CL_44] = 0, [CL_F4] = 155, [CL_FIVE] = 0},
        .own = 18,
        .opp = 16,
    },
    [RULE_STANDARD] = {
        .line = {[PAT_DEAD] = 0, [PAT_B1] = 1, [PAT_F1] = 3, [PAT_B2] = 4, [PAT_F2] = 9,
                 [PAT_B3] = 35, [PAT_F3] = 57, [PAT_B4] = 150, [PAT_F4] = 132, [PAT_F5] = 900,
                 [PAT_OL] = 0},
        .cls = {[CL_NONE] = 0, [CL_THREE] = 12, [CL_B4] = 18, [CL_33] = 0, [CL_43] = 307,
                [CL_44] = 0, [CL_F4] = 172, [CL_FIVE] = 0},
        .line_opp = {[PAT_DEAD] = 0, [PAT_B1] = 1, [PAT_F1] = 3, [PAT_B2] = 4, [PAT_F2] = 9,
                     [PAT_B3] = 35, [PAT_F3] = 57, [PAT_B4] = 150, [PAT_F4] = 132, [PAT_F5] = 900,
                     [PAT_OL] = 0},
        .cls_opp = {[CL_NONE] = 0, [CL_THREE] = 12, [CL_B4] = 18, [CL_33] = 0, [CL_43] = 307,
                    [CL_44] = 0, [CL_F4] = 172, [CL_FIVE] = 0},
        .own = 18,
        .opp = 16,
    },
    [RULE_RENJU] = {
        .line = {[PAT_DEAD] = 0, [PAT_B1] = 1, [PAT_F1] = 3, [PAT_B2] = 2, [PAT_F2] = 8,
                 [PAT_B3] = 32, [PAT_F3] = 47, [PAT_B4] = 178, [PAT_F4] = 78, [PAT_F5] = 900,
                 [PAT_OL] = 0},
        .cls = {[CL_NONE] = 0, [CL_THREE] = 21, [CL_B4] = 19, [CL_33] = 0, [CL_43] = 254,
                [CL_44] = 0, [CL_F4] = 207, [CL_FIVE] = 0},
        .line_opp = {[PAT_DEAD] = 0, [PAT_B1] = 1, [PAT_F1] = 3, [PAT_B2] = 2, [PAT_F2] = 8,
                     [PAT_B3] = 32, [PAT_F3] = 47, [PAT_B4] = 178, [PAT_F4] = 78, [PAT_F5] = 900,
                     [PAT_OL] = 0},
        .cls_opp = {[CL_NONE] = 0, [CL_THREE] = 21, [CL_B4] = 19, [CL_33] = 0, [CL_43] = 254,
                    [CL_44] = 0, [CL_F4] = 207, [CL_FIVE] = 0},
        .own = 18,
        .opp = 16,
    },
    [RULE_CARO] = {
        .line = {[PAT_DEAD] = 0, [PAT_B1] = 3, [PAT_F1] = 2, [PAT_B2] = 0, [PAT_F2] = 14,
                 [PAT_B3] = 27, [PAT_F3] = 70, [PAT_B4] = 119, [PAT_F4] = 196, [PAT_F5] = 900,
                 [PAT_OL] = 0},
        .cls = {[CL_NONE] = 0, [CL_THREE] = 6, [CL_B4] = 8, [CL_33] = 10, [CL_43] = 265,
                [CL_44] = 0, [CL_F4] = 136, [CL_FIVE] = 0},
        .line_opp = {[PAT_DEAD] = 0, [PAT_B1] = 3, [PAT_F1] = 2, [PAT_B2] = 0, [PAT_F2] = 14,
                     [PAT_B3] = 27, [PAT_F3] = 70, [PAT_B4] = 119, [PAT_F4] = 196, [PAT_F5] = 900,
                     [PAT_OL] = 0},
        .cls_opp = {[CL_NONE] = 0, [CL_THREE] = 6, [CL_B4] = 8, [CL_33] = 10, [CL_43] = 265,
                    [CL_44] = 0, [CL_F4] = 136, [CL_FIVE] = 0},
        .own = 18,
        .opp = 16,
    },
};
/* clang-format on */

/* Move ordering: attack and defence bonus by class (for the mover, for the opponent). */
static const int ORDER_ATTACK[CL_COUNT] = {
    [CL_NONE] = 0,  [CL_THREE] = 400, [CL_B4] = 300,  [CL_33] = 3000,
    [CL_43] = 6000, [CL_44] = 6500,   [CL_F4] = 8000, [CL_FIVE] = 100000,
};
static const int ORDER_DEFEND[CL_COUNT] = {
    [CL_NONE] = 0,  [CL_THREE] = 200, [CL_B4] = 150,  [CL_33] = 1500,
    [CL_43] = 3000, [CL_44] = 3200,   [CL_F4] = 5000, [CL_FIVE] = 50000,
};

/* Search shape. Each can be set with -D for an A/B build (docs/engine.md). */
#ifndef SEARCH_LMR_MIN_DEPTH
#define SEARCH_LMR_MIN_DEPTH 3 /* late-move reductions from this depth */
#endif
#ifndef SEARCH_LMR_MIN_INDEX
#define SEARCH_LMR_MIN_INDEX 3 /* ... after this many moves */
#endif
#ifndef SEARCH_LMR_BASE
#define SEARCH_LMR_BASE 0.4    /* reduction: BASE + ln(depth) * ln(index) / DIVISOR, */
#endif
#ifndef SEARCH_LMR_DIVISOR
#define SEARCH_LMR_DIVISOR 1.2 /* at least 1, one less at PV nodes */
#endif
#ifndef SEARCH_LMP_BASE
#define SEARCH_LMP_BASE 6      /* non-PV nodes at depth d search at most BASE + d*d quiet moves */
#endif
#ifndef SEARCH_LMP_DEPTH
#define SEARCH_LMP_DEPTH 8 /* ... up to this depth */
#endif
#ifndef SEARCH_LMR_HIST_DIV
#define SEARCH_LMR_HIST_DIV 1500 /* reductions shrink by history / this */
#endif
#define SEARCH_HIST_MAX 4000 /* history scores stay within +-this */
#ifndef SEARCH_FUTILITY_MARGIN
#define SEARCH_FUTILITY_MARGIN 120 /* per ply of remaining depth */
#endif
#ifndef SEARCH_FUTILITY_DEPTH
#define SEARCH_FUTILITY_DEPTH 4
#endif
#ifndef SEARCH_ASP_MIN_DEPTH
#define SEARCH_ASP_MIN_DEPTH 5 /* aspiration windows from this depth */
#endif
#ifndef SEARCH_ASP_WINDOW
#define SEARCH_ASP_WINDOW 60   /* first half-width; doubles on each failure */
#endif
#ifndef SEARCH_TURN_SOFT_PERCENT
#define SEARCH_TURN_SOFT_PERCENT 85 /* per-move limit: no new iteration after this share */
#endif
#define SEARCH_SOLVER_BYTES (1 << 20) /* VCF table per search thread */
#ifndef SEARCH_LEAF_VCF_NODES
#define SEARCH_LEAF_VCF_NODES 100     /* stones a VCF probe at a leaf may play */
#endif
#ifndef SEARCH_ROOT_VCF_NODES
#define SEARCH_ROOT_VCF_NODES 200000  /* ... and at the root, before the search */
#endif

#endif
