/* forbid.h — renju forbidden points for black, exact and explainable.
 *
 * A black move that makes no five is forbidden when it makes an overline, two
 * or more fours (also two in one line), or two or more real threes. A three is
 * real only if some point that turns it into a true straight four is itself not
 * forbidden, judged with the new stone on the board; so the check recurses, and
 * the depth is bounded by the stones added. The line tables (pattern.h) answer
 * almost every point at once; only points with two or more three candidates
 * place the stone and recurse.
 */
#ifndef TENGEN_FORBID_H
#define TENGEN_FORBID_H

#include <jansson.h>
#include <stdbool.h>

#include "tengen/board.h"

typedef enum {
    FORBID_NONE,         /* legal, no five */
    FORBID_FIVE,         /* makes exactly five: always legal, wins */
    FORBID_DOUBLE_THREE, /* the forbidden kinds, in rising precedence */
    FORBID_DOUBLE_FOUR,
    FORBID_OVERLINE,
} ForbidKind;

static inline bool forbid_is_forbidden(ForbidKind k) { return k >= FORBID_DOUBLE_THREE; }

/* Verdict for a black stone on the empty point p. b is used as scratch space and
 * is restored before returning. */
ForbidKind forbid_check(Board *b, Point p);

/* Fills out with every forbidden point for black in row-major order, row 1 first
 * (bottom row) and columns left to right; returns how many. kinds may be NULL. */
int forbid_list(Board *b, Point *out, ForbidKind *kinds);

/* "legal", "five", "double-three", "double-four", "overline". */
const char *forbid_kind_name(ForbidKind k);

/* Direction names used in explanations: row, column, diagonal \, diagonal /. */
const char *forbid_dir_name(int d);

/* The reasoning for one point, as a tree. Node 0 is the queried point; each
 * node is a black stone judged with its ancestors assumed on the board. */
typedef struct {
    int dir;
    unsigned info;            /* line info bits (pattern.h) */
    int nsf;                  /* straight-four points of a three candidate */
    Point sf[6];
    ForbidKind sf_verdict[6]; /* verdict on each straight-four point */
    int sf_node[6];           /* node index of its reasoning, -1 if not expanded */
    bool judged;              /* the straight-four points were judged */
    bool real;                /* a judged three candidate that is a real three */
} ForbidLineNote;

typedef struct {
    Point p;
    ForbidKind verdict;
    int parent; /* -1 for the root */
    int depth;
    int real_threes;
    int nlines; /* lines that make something: five, overline, fours or a three */
    ForbidLineNote lines[DIR_COUNT];
} ForbidNode;

typedef struct {
    ForbidNode *node;
    int count, cap;
    bool truncated; /* the node budget ran out; deeper verdicts were still computed */
} ForbidTree;

#define FORBID_EXPLAIN_MAX_NODES 2000

/* Builds the reasoning tree for a black stone on the empty point p. Returns
 * false only when memory runs out. Free with forbid_tree_free(). */
bool forbid_explain(Board *b, Point p, ForbidTree *t);
void forbid_tree_free(ForbidTree *t);

/* The tree as indented text for people (malloc'd string) and as JSON. */
char *forbid_tree_text(const ForbidTree *t, int size);
json_t *forbid_tree_json(const ForbidTree *t, int size);

#endif
