/* game_internal.h — shared between the game module's files; not public. */
#ifndef TENGEN_GAME_INTERNAL_H
#define TENGEN_GAME_INTERNAL_H

#include "tengen/game.h"

#define SCRIPT_END 100 /* step index meaning "ordinary play" */

/* Who acts in a script step: a fixed player, or whoever holds a colour then. */
typedef enum { ACTOR_P0, ACTOR_P1, ACTOR_BLACK, ACTOR_WHITE } Actor;

/* One step of an opening procedure. */
typedef struct {
    GameStep kind;
    Actor actor;
    int area;   /* STEP_PLACE/STEP_FIFTH: central square width, 0 anywhere, -1 designated */
    int count;  /* STEP_PROPOSE/STEP_FIFTH: 5th moves to propose, 0 = the declared number */
    int lo, hi; /* STEP_DECLARE range */
    int alt;    /* STEP_SWAP2 answers / STEP_FIFTH proposal: where to continue */
    int next;   /* where to continue normally, 0 = the following step */
} ScriptStep;

/* How an action will be carried out. */
typedef struct {
    int player;     /* who acts */
    bool forward;   /* a colour choice answered "keep" by acting at once */
    int view_index; /* step index the action is carried out in (SCRIPT_END: play) */
    GameStep kind;
} Plan;

const ScriptStep *game_script(const Game *g, int *len);
int game_player_of(const GameState *st, Color c);
bool game_plan(const Game *g, int as, const Action *a, Plan *pl, TgError *err);
bool game_check_proposals(const Game *g, const Action *a, int want, TgError *err);

/* Words for what a step asks of its player. */
void game_describe_view(const Game *g, GameStep kind, int player, const ScriptStep *s, char *buf,
                        size_t len);
void game_describe_now(const Game *g, char *buf, size_t len);

#endif
