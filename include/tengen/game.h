/* game.h — one game from set-up to result: the opening procedure, turns,
 * forbidden moves, passes, draws, claims and results, with undo and redo.
 *
 * Players. Player 0 is the first player (the opener: provisionally black, the
 * one who places the first stones); player 1 is the other. Swaps exchange the
 * colours the players hold; stones keep their colour. Nigiri (game_nigiri)
 * decides which person is player 0.
 *
 * Acting. At every moment exactly one player must act (game_turn says who, what
 * kind of action and with what limits). game_apply() attributes an action to
 * that player, with three exceptions that any record can express: a `claim` is
 * always white's, a `draw` that answers a pending offer is the accepting
 * side's, and game_apply_as() lets either player resign or offer a draw out of
 * turn.
 *
 * Colour choices. ACT_SWAP means "the chooser takes the other colour", i.e. the
 * players exchange colours; ACT_NOSWAP means "keep". Where keeping leaves the
 * chooser to act next (every "the other player may swap" step), the chooser may
 * skip the answer and act at once: that counts as ACT_NOSWAP. In swap2's first
 * choice ACT_SWAP = take black, ACT_NOSWAP = take white and play 4, ACT_PLACE =
 * place stones 4 and 5 (then the opener chooses with ACT_SWAP/ACT_NOSWAP).
 *
 * Copying. A Game owns a heap history; copy it with game_copy, never by
 * assignment. Two games never share state: the module has no globals.
 */
#ifndef TENGEN_GAME_H
#define TENGEN_GAME_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "tengen/action.h"
#include "tengen/board.h"
#include "tengen/error.h"
#include "tengen/forbid.h"
#include "tengen/rng.h"
#include "tengen/variant.h"

#define GAME_MAX_PROPOSALS ACTION_MAX_POINTS
#define GAME_YAMAGUCHI_MAX 10 /* largest N a Yamaguchi opener may declare */
#define GAME_SOOSORV_MAX 8
#define GAME_TARAGUCHI_N 10

typedef enum { GAME_OPENING, GAME_PLAY, GAME_OVER } GamePhase;

/* What the acting player is asked to do. */
typedef enum {
    STEP_PLACE,   /* place an opening stone (see GameTurn.area) */
    STEP_DECLARE, /* declare the number of 5th moves */
    STEP_COLOR,   /* swap or keep colours */
    STEP_SWAP2,   /* swap2: take black, take white, or place 4 and 5 */
    STEP_FIFTH,   /* Taraguchi after 4: swap, place 5 in 9x9, or propose */
    STEP_PROPOSE, /* propose the 5th moves */
    STEP_CHOOSE,  /* choose one proposed 5th move */
    STEP_PLAY,    /* ordinary play */
    STEP_OVER,
} GameStep;

typedef enum {
    REASON_NONE,
    REASON_FIVE,           /* five (or winning overline) at result.point */
    REASON_FORBIDDEN,      /* auto mode: black's forbidden move */
    REASON_CLAIM,          /* claim mode: white claimed black's last move */
    REASON_OVERLINE_CLAIM, /* claim mode: white claimed an earlier overline */
    REASON_RESIGN,
    REASON_TIMEOUT,
    REASON_STONE_REMOVAL,
    REASON_FULL_BOARD,    /* draw */
    REASON_NO_FIVE,       /* draw: neither side can make a winning five any more */
    REASON_TWO_PASSES,    /* draw */
    REASON_AGREEMENT,     /* draw */
    REASON_DUAL_FIVES,    /* dual-board: fives on both boards in one round */
    REASON_DUAL_ONE_BOARD /* dual-board: a five on one board only in a round: loses */
} GameReason;

typedef struct {
    GameReason reason; /* REASON_NONE while the game goes on */
    Color winner;      /* BLACK, WHITE or EMPTY (a draw) */
    int winner_player; /* 0 or 1; -1 for a draw */
    Color loser;       /* EMPTY for a draw */
    int board;         /* board of result.point */
    Point point;       /* the deciding stone (five, forbidden move), else POINT_NONE */
    ForbidKind kind;   /* forbidden kind for REASON_FORBIDDEN / _CLAIM / _OVERLINE_CLAIM */
    int move;          /* stone number (1-based) of result.point; else stones on the board */
    int round;         /* dual-board round */
    int nstones;       /* the five's stones (first five for the dual-board win) */
    Point stones[BOARD_MAX_SIZE];
} GameResult;

typedef struct {
    GamePhase phase;
    GameStep step;
    int player;       /* who must act: 0 or 1 */
    Color color;      /* the colour that player holds */
    unsigned allowed; /* bit (1u << ActionType) for each action type legal now */
    Color stone;      /* colour a place puts down */
    int move;         /* number the next stone gets (board count + 1; dual: both boards') */
    int area;         /* STEP_PLACE/STEP_FIFTH: central area width (1 = centre, 0 = anywhere) */
    int opening;      /* designated opening the stones must form, -1 if any */
    int stones_left;  /* dual-board: stones still to place this turn */
    int declare_min, declare_max; /* STEP_DECLARE */
    int propose;                  /* STEP_PROPOSE / STEP_FIFTH: how many 5th moves to propose */
    int nproposals;               /* STEP_CHOOSE: the offered points */
    Point proposals[GAME_MAX_PROPOSALS];
    int draw_offer;  /* player whose draw offer is pending, -1 none */
    Point claimable; /* black's forbidden move white may claim now, POINT_NONE if none */
} GameTurn;

/* Small state restored by undo (internal, exposed for sizing only). */
typedef struct {
    int step;            /* index into the opening script; -1 in play, -2 over */
    int color_of[2];     /* colour each player holds */
    Color to_move;       /* colour of the next stone in play */
    int stones_left;     /* dual-board */
    int round;           /* dual-board: current round (1-based) */
    unsigned turn_fives; /* dual-board: bit b set when the mover made a five on board b this turn */
    Point turn_five_at[2];
    int passes;   /* consecutive passes */
    int declared; /* declared number of 5th moves, 0 if none */
    int nproposals;
    Point proposals[GAME_MAX_PROPOSALS];
    int draw_offer;    /* player, -1 none */
    Point claim_point; /* pending immediate claim */
    int claim_board;
    ForbidKind claim_kind;
    int claim_move;
    GameResult result;
} GameState;

typedef struct {
    Action action;
    int player;         /* who acted */
    GameReason forfeit; /* REASON_TIMEOUT etc. for game_forfeit entries, else REASON_NONE */
    bool placed;        /* the action put one stone on board action.board */
    bool overline;      /* claim mode: that stone is a black overline */
    int move;           /* number of the stone placed (board count after it) */
    GameState before;
} GameEntry;

typedef struct {
    GameConfig config;
    Board board[2]; /* board[1] only for the dual-board variant */
    GameState st;
    GameEntry *hist; /* actions applied: [0, nhist); redoable: [nhist, hist_len) */
    int nhist, hist_len, hist_cap;
    int live_hint[2][2]; /* [board][colour-1]: where the last "a five is still possible" scan
                          * succeeded; a cache only */
} Game;

/* Sets up a new game. False (and err) when the configuration is invalid (size out
 * of range, designated opening unknown). The dual-board variant ignores the
 * opening rule (its first round is its opening). */
bool game_init(Game *g, const GameConfig *cfg, TgError *err);
void game_free(Game *g);

/* Deep copy: dst becomes an independent game equal to src (dst must not hold a
 * game, or must have been freed). False when memory runs out. */
bool game_copy(Game *dst, const Game *src);

/* Who must act and how. */
void game_turn(const Game *g, GameTurn *t);
GamePhase game_phase(const Game *g);

/* The board (0, or 1 for the dual-board variant's second board). */
const Board *game_board(const Game *g, int board);

/* Applies an action for the player who must act (see the header comment for the
 * exceptions). False (and err naming the reason) when the action is illegal now;
 * the game is unchanged then. A successful action clears the redo list. */
bool game_apply(Game *g, const Action *a, TgError *err);

/* As game_apply, by a given player (0 or 1): any action by the player who must
 * act; ACT_RESIGN or ACT_DRAW by the other one too; ACT_CLAIM by white's holder. */
bool game_apply_as(Game *g, int player, const Action *a, TgError *err);

/* Same legality test as game_apply without changing anything. */
bool game_is_legal(const Game *g, const Action *a, TgError *err);

/* Ends the game by an event outside the board: REASON_TIMEOUT,
 * REASON_STONE_REMOVAL or REASON_RESIGN; `loser` is a colour. Undoable. */
bool game_forfeit(Game *g, Color loser, GameReason reason, TgError *err);

/* Undo/redo one action; false when there is nothing to undo/redo. */
bool game_undo(Game *g);
bool game_redo(Game *g);

/* Actions applied so far (index 0 first) and who made them. */
int game_history_count(const Game *g);
const Action *game_history(const Game *g, int i, int *player);

/* Points where a place is legal now on the given board (empty, inside the
 * required area, matching the designated opening); returns their count. */
int game_legal_points(const Game *g, int board, Point *out);

/* During an opening: how many 5th moves black will offer later (white then
 * takes one of them): RIF's 2, Yamaguchi's and Soosorv's number once
 * declared; 0 when no proposal lies ahead or its number is not declared yet.
 * What a colour choice before the offer weighs. */
int game_offer_ahead(const Game *g);

/* During an opening: whether a colour choice (a swap, swap2's options,
 * Taraguchi's 5th step) comes after the current step. A stone with none
 * after it is an ordinary move (RIF's and Yamaguchi's 4th): its player
 * wants the best one, not a balanced one. */
bool game_choice_ahead(const Game *g);

const GameResult *game_result(const Game *g);
bool game_over(const Game *g);

/* One line for people. Finished: "black wins: five h4-h8 (move 23)",
 * "white wins: black's double-three at j9 (move 17)", "draw: ...".
 * Ongoing: "ongoing: white (second player) to choose one of the 5th moves j9, k10". */
void game_status_text(const Game *g, char *buf, size_t len);

/* The same as JSON: {"result": "black"|"white"|"draw"|"ongoing", "reason": ...,
 * "text": ..., plus the details}. */
json_t *game_status_json(const Game *g);

/* An action as a record token: "h8", "2:h8", "pass", "swap", "noswap",
 * "declare 3", "propose j9,k10", "choose j9", "claim", "resign", "draw". */
void game_action_text(const Action *a, int size, bool dualboard, char *buf, size_t len);

/* Short names used in text and JSON: "five", "forbidden", "claim", ... */
const char *game_reason_name(GameReason r);

/* Nigiri: player 0 grabs black stones, player 1 white stones (1..grab_max each);
 * an odd difference exchanges the provisional colours. */
typedef struct {
    int grab[2];
    bool exchange;
    int black; /* the player who takes black: 0, or 1 after an exchange */
} Nigiri;
void game_nigiri(Rng *r, int grab_max, Nigiri *out);

/* Convenience constructors: a stone on `p` of `board`; an action without data. */
Action game_action_place(int board, Point p);
Action game_action(ActionType type);

#endif
