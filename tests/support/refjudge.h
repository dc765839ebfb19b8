/* refjudge.h — a deliberately plain renju judge, written straight from the
 * definitions in docs/rules.md with no pattern tables and no shared code with
 * src/rules: the differential test compares forbid_check() against it. */
#ifndef TENGEN_REFJUDGE_H
#define TENGEN_REFJUDGE_H

#define REF_MAX 22

typedef struct {
    int size;
    int c[REF_MAX][REF_MAX]; /* [x][y], y from the top; 0 empty, 1 black, 2 white */
} RefBoard;

/* Same values as ForbidKind: 0 legal, 1 five, 2 double-three, 3 double-four, 4 overline. */
int ref_forbid(RefBoard *b, int x, int y);

#endif
