/* match.h — a referee that plays two Gomocup (pbrain) engines against each other.
 *
 * Each game starts both engines afresh as child processes connected by pipes
 * and talks the Gomocup protocol to them: START, INFO (time and memory limits,
 * rule), BOARD with the stones so far the first time an engine is to move, TURN
 * afterwards, INFO time_left before every move. Reads never block: every answer
 * has a deadline (the engine's turn and match time plus a tolerance for process
 * overhead), so an engine that hangs, crashes, answers garbage, plays an illegal
 * or (renju, black) forbidden move, or runs out of time loses that game and the
 * reason is recorded. The referee is the rules library (rules_is_win,
 * forbid_check). The caller must ignore SIGPIPE (a dead engine's pipe).
 *
 * Statistics: score, Elo difference with a 95% interval (a trinomial score
 * interval: finite on the other side even at 0% or 100%), and a sequential
 * probability ratio test (SPRT) on the Elo difference (normal approximation;
 * the variance of a game score is floored so that a sweep still decides).
 */
#ifndef TENGEN_MATCH_H
#define TENGEN_MATCH_H

#include <stdbool.h>
#include <stdint.h>

#include "tengen/action.h"
#include "tengen/board.h"
#include "tengen/error.h"
#include "tengen/variant.h"

typedef struct {
    int size;
    Rule rule;
    int timeout_turn_ms;  /* per move; 0 = no per-move limit */
    int timeout_match_ms; /* per game and engine; 0 = unlimited */
    int tolerance_ms;     /* allowance over the limits for process overhead */
    int start_timeout_ms; /* time for START and ABOUT answers */
    int64_t max_memory;   /* bytes, sent as INFO max_memory (0 = no limit) */
    int max_moves;        /* draw when this many stones are on the board; 0 = full board */
    int move_delay_ms;    /* wait before each move request (for engines that drop a command
                             arriving just after their answer); not on the clock */
    Opening opening;      /* OPENING_FREE: the given opening stones, if any; OPENING_SWAP2:
                             the engines settle the opening through Gomocup's SWAP2BOARD;
                             CENTER, SWAP3, SWAP1, RIF, YAMAGUCHI, SOOSORV8, TARAGUCHI10:
                             the game library runs the opening and asks the engines
                             through TGOPENING (below). No opening stones but with FREE. */
} MatchRules;

/* Defaults for a rule set, Gomocup's where they fit: 15x15 (20x20 freestyle),
 * 5 s a move, 180 s a game, 1 s tolerance, 30 s to start, renju drawn at move
 * 200; memory 128 MB (Gomocup allows 350 MB, but matches run several engines
 * at once). */
void match_rules_default(MatchRules *r, Rule rule);

/* The Gomocup INFO rule value for a rule set (0 freestyle, 1 standard, 4 renju,
 * 8 caro). */
int match_gomocup_rule(Rule rule);

typedef enum {
    END_NONE,
    END_FIVE,          /* the winner made five */
    END_FORBIDDEN,     /* black played a forbidden move (renju) */
    END_ILLEGAL,       /* off the board or on a stone */
    END_TIMEOUT,       /* no answer within the turn or match time */
    END_CRASH,         /* the engine exited or closed its output */
    END_GARBAGE,       /* an answer that is not a move (or ERROR, UNKNOWN) */
    END_START_FAILED,  /* START was refused or the engine could not be run */
    END_DRAW_FULL,     /* no empty point left */
    END_DRAW_MOVES,    /* the move limit was reached */
    END_COUNT
} MatchEnd;

const char *match_end_name(MatchEnd e);

#define MATCH_OPENING_ACTIONS 32

typedef struct {
    Color winner;   /* BLACK, WHITE or EMPTY (draw) */
    MatchEnd end;
    Color culprit;  /* the side whose fault ended the game (EMPTY for fives/draws) */
    char reason[256];
    int count;      /* stones placed, the opening included */
    int opening;    /* how many of them came from the opening */
    Point moves[BOARD_MAX_MOVES];
    int ms[BOARD_MAX_MOVES];      /* thinking time of each move (0 for opening stones) */
    int used_ms[2];               /* total thinking time of black [0] and white [1] */
    char name[2][64];             /* engine names from ABOUT (black, white) */
    /* Swap2: the first player (black_cmd) ended up white; the colour choices
     * as the game library writes them (a swap or a keep after `after` stones). */
    bool swapped;
    int nchoices;
    struct {
        int after;
        bool swap;
    } choice[2];
    /* Openings the game library runs: the opening's actions in order (the
     * stones they place are the first ones of moves[]). */
    int nactions;
    Action actions[MATCH_OPENING_ACTIONS];
} MatchGame;

/* Plays one game: black_cmd and white_cmd are shell command lines, the opening
 * stones are placed first (black first, alternating). Fills game; returns false
 * only when the game could not be set up at all (err says why).
 *
 * With an opening rule, black_cmd is the first player (player 0 of game.h)
 * and white_cmd the second; game->swapped tells who ended up black.
 *
 * OPENING_SWAP2: black_cmd is the first player and white_cmd the second, and
 * the opening is swap2 as Gomocup's manager asks it (SWAP2BOARD, the stones as
 * `x,y,field` lines, black first, fields as BOARD's for the colour the engine
 * holds so far, then DONE; each answer timed as a move): the first
 * player answers three stones `x,y x,y x,y`; the second `SWAP` (it takes
 * black and the first plays 4), one stone (it takes white: move 4) or two
 * (moves 4 and 5); after two, the first player `SWAP` (it keeps black) or one
 * stone (it takes white: move 6). A malformed or illegal answer loses the game
 * for that engine like a bad move.
 *
 * The other opening rules: the game library (game.h) says who acts and how;
 * each decision is one tengen TGOPENING request (docs/pbrain.md), with the
 * stones so far as `x,y` lines (black first, alternating), timed as a move:
 * the opener's three stones `place3` (`place3 2` for RIF, `free3` for swap
 * after 3 and swap1 outside renju), a colour choice `swap` (`swap N` when
 * black will offer N 5th moves later: game_offer_ahead; SWAP takes black),
 * `declare N`, `propose N`, `choose x,y ...`, a stone in a central square
 * `balance R` (Taraguchi; `balance 0`, near the stones, for Soosorv's 4th),
 * Taraguchi's `offer N`.
 * A stone with only one legal point is placed without asking; RIF's and
 * Yamaguchi's 4th move is an ordinary move. An answer that does not parse, or
 * that the game refuses (the game's reason is quoted), loses like a bad move. */
bool match_play_game(const MatchRules *r, const char *black_cmd, const char *white_cmd,
                     const Point *opening, int nopening, MatchGame *game, TgError *err);

/* The game as a Piskvork PSQ record with thinking times and engine names
 * (malloc'd). */
char *match_game_psq(const MatchGame *game, int size);

/* The game as a native .tgn record (record.h), preceded by comment lines naming
 * the engines and the result (malloc'd; NULL and err on failure). */
char *match_game_tgn(const MatchGame *game, const MatchRules *r, TgError *err);

/* Results from engine A's point of view. */
typedef struct {
    int wins, losses, draws;
} MatchScore;

typedef struct {
    double score;    /* (wins + draws/2) / games */
    double elo;      /* Elo difference A - B; +-INFINITY at 100% / 0% */
    double lo, hi;   /* 95% interval of the Elo difference; hi is INFINITY only at
                        100%, lo -INFINITY only at 0% (both when no games) */
} MatchElo;

/* Score, Elo difference and its 95% interval: the scores p whose Rao score
 * statistic n (m - p)^2 / var(p) stays within 1.96^2, where m is the mean game
 * score and var(p) = p (1 - p) - d/4 uses the draw rate d that best fits the
 * results among those with expected score p (Wilson's interval when there are
 * no draws), each end mapped to Elo by -400 log10(1/p - 1). */
void match_elo(const MatchScore *s, MatchElo *out);

typedef struct {
    double elo0, elo1;  /* H0: A is elo0 better; H1: elo1 better */
    double alpha, beta; /* error rates */
} MatchSprt;

typedef enum { SPRT_CONTINUE, SPRT_H0, SPRT_H1 } SprtVerdict;

/* Log-likelihood ratio of the results (normal approximation of the game
 * scores) and the verdict against the bounds log(beta/(1-alpha)) and
 * log((1-beta)/alpha). */
SprtVerdict match_sprt(const MatchSprt *t, const MatchScore *s, double *llr, double *lower,
                       double *upper);

/* Reads an openings file: one opening a line, moves in renju notation
 * separated by spaces ("h8 h9 j10"), `#` starts a comment, blank lines are
 * skipped. Each opening must be legal (no stone twice, no five). Fills a malloc'd
 * array of openings (each MATCH_OPENING_MAX points, lengths in *lens). */
#define MATCH_OPENING_MAX 32
typedef struct {
    int len;
    Point p[MATCH_OPENING_MAX];
} MatchOpening;

bool match_read_openings(const char *text, int size, Rule rule, MatchOpening **out, int *count,
                         TgError *err);

#endif
