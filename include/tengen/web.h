/* web.h — the browser board: an HTTP server (CivetWeb) that serves the static
 * page and a JSON API over games held in memory. Every rule question goes to
 * the game state machine; the page only draws and forwards clicks.
 *
 * The API (all bodies JSON; errors are {"error": "..."} with a 4xx status):
 *   POST   /api/games                  new game from a config -> the game's state
 *   GET    /api/games                  the games held: [{id, status}]
 *   GET    /api/games/{id}             state: boards, turn, forbidden points, result, engine
 *   DELETE /api/games/{id}
 *   POST   /api/games/{id}/actions     {"action": "h8"} (.tgn token) or {"type": ..., ...}
 *   POST   /api/games/{id}/undo        back to the last human decision
 *   POST   /api/games/{id}/redo
 *   POST   /api/games/{id}/players     change who plays each side, engine time
 *   GET    /api/games/{id}/explain?point=e5[&board=1]   forbid tree as JSON and text
 *   GET    /api/games/{id}/record?format=tgn|psq|sgf    download
 *   POST   /api/games/{id}/record      {"text": ..., "format": "tgn"} replaces the game
 * Engine moves run on one background thread per game; the page polls the
 * state (its `version` changes on every move, `engine.thinking` while it runs).
 *
 * No globals: all state lives in the WebServer, so two servers can run in one
 * process.
 */
#ifndef TENGEN_WEB_H
#define TENGEN_WEB_H

#include <stdbool.h>

#include "tengen/error.h"

#define WEB_MAX_GAMES 64

typedef struct WebServer WebServer;

typedef struct {
    const char *host;       /* address to bind (default "127.0.0.1") */
    int port;               /* 0 picks a free port */
    const char *static_dir; /* folder holding index.html, app.js, style.css; NULL: API only */
    int engine_threads;     /* search threads per engine (default 1) */
    int engine_hash_mb;     /* transposition table per game's engine (default 16) */
    int max_games;          /* games held at once, 1..WEB_MAX_GAMES (default WEB_MAX_GAMES) */
} WebOptions;

/* Defaults: 127.0.0.1, port 8080, no static folder, 1 thread, 16 MB, 64 games. */
void web_options_default(WebOptions *o);

/* Starts serving on background threads; NULL (and err) when the port cannot be
 * bound or an option is out of range. */
WebServer *web_server_start(const WebOptions *o, TgError *err);

/* The port actually bound (the chosen one when the options asked for 0). */
int web_server_port(const WebServer *s);

/* Stops the engines, closes the listener, frees every game. NULL is ignored. */
void web_server_stop(WebServer *s);

#endif
