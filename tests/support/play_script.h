/* play_script.h — test helper: drives a Game with record-like tokens
 * ("h8", "2:h8", "pass", "swap", "noswap", "declare 3", "propose g8,j8",
 * "choose j8", "claim", "resign", "draw"). */
#ifndef TENGEN_TEST_PLAY_SCRIPT_H
#define TENGEN_TEST_PLAY_SCRIPT_H

#include "tengen/game.h"

/* Parses one token (and its argument for declare/propose/choose) into a. */
bool test_parse_action(const char *tok, const char *arg, int size, Action *a);

/* Applies the tokens in order; returns 0 when all were legal, else the 1-based
 * number of the first refused action (err says why). */
int test_play(Game *g, const char *script, TgError *err);

/* A game with the given rule and opening, size 15 unless size > 0. */
void test_game(Game *g, Rule rule, Opening opening, int size);

#endif
