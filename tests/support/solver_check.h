/* solver_check.h — test support for the threat solver: puzzle files and an
 * independent replay of winning lines through the rules library only. */
#ifndef TENGEN_TEST_SOLVER_CHECK_H
#define TENGEN_TEST_SOLVER_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "tengen/board.h"
#include "tengen/solver.h"

typedef struct {
    Board board;
    Color side;      /* the attacker, to move */
    bool vct;        /* mode */
    bool win;        /* expected result */
    int plies;       /* expected: shortest win, attacker moves (0 for no win) */
    long long nodes; /* node budget */
    char tag[32];    /* "", "forbidden-four", "forbidden-block" */
    int line_no;
} Puzzle;

/* Parses one puzzle line (see tests/data/puzzles/README.md). */
bool puzzle_parse(const char *line, Puzzle *pz, char *why, size_t n);

/* Reads every puzzle of a file into a malloc'd array; returns the count or -1. */
int puzzle_load(const char *path, Puzzle **out);

/* Writes a puzzle line (no newline) into buf. */
void puzzle_format(const Puzzle *pz, char *buf, size_t n);

/* Replays r's line on b (restored afterwards) using only board_play, rules_is_win
 * and forbid_check, and checks that it is a forced win for att: attacker moves
 * legal; in VCF each one a four; the defender never has a five; every defender
 * answer to a four is a move that stops it (the only one outside caro); the
 * line ends in a five or in a four whose only block is forbidden for black. */
bool solver_check_line(Board *b, Color att, bool vcf, const SolverResult *r, char *why, size_t n);

/* Five points of c on b (empty points where c would win), by rules_is_win. */
int check_five_points(const Board *b, Color c, Point *out);

#endif
