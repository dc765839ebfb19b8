/* tui.h — the terminal board: a game under any rule set and opening rule,
 * played by people at the keyboard, by the engine, or both. All rules come from
 * the game module; the board only shows and asks. */
#ifndef TENGEN_TUI_H
#define TENGEN_TUI_H

#include <stdbool.h>

#include "tengen/error.h"
#include "tengen/variant.h"

typedef struct {
    GameConfig config;
    bool engine[2];      /* player 0 (the opener, black before any swap) and player 1 */
    double engine_time;  /* seconds per engine move */
    int threads, hash_mb;
    const char *load;    /* a .tgn record to start from, or NULL */
} TuiOptions;

/* Runs the board on the controlling terminal until the user quits. False (and
 * err) when it cannot start: no terminal, bad record, engine start-up failure. */
bool tui_run(const TuiOptions *o, TgError *err);

#endif
