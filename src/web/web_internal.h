/* web_internal.h — the game table behind the HTTP API (src/web only). */
#ifndef TENGEN_WEB_INTERNAL_H
#define TENGEN_WEB_INTERNAL_H

#include <jansson.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "tengen/engine.h"
#include "tengen/game.h"
#include "tengen/web.h"

#define WEB_ENGINE_MS_MIN 50
#define WEB_ENGINE_MS_MAX 60000
#define WEB_ENGINE_MS_DEFAULT 1000

typedef enum { WEB_HUMAN, WEB_ENGINE } WebPlayerKind;

/* The last progress report of the engine, kept for the page. */
typedef struct {
    bool valid;
    int depth, seldepth, score, mate;
    int64_t time_ms;
    uint64_t nodes, nps;
    int pvlen;
    Point pv[ENGINE_MAX_PV];
    Color side; /* colour the score is for */
} WebEngineInfo;

/* One game of the table. Everything below `lock` is guarded by it; the worker
 * thread takes it only to snapshot the game and to apply its answer. */
typedef struct {
    int id;
    pthread_mutex_t lock;
    Game game;
    WebPlayerKind player[2]; /* by game player (0 = the opener) */
    int engine_ms;           /* time per engine decision */
    Engine *engine;          /* created when first needed */
    atomic_uint version;     /* bumped on every change; a worker's answer for an old version is dropped */
    atomic_int cancel;       /* set with every change: the opening decisions in flight give up */
    bool stopping;           /* the game is being deleted: the worker must return */
    bool worker_running;
    bool worker_joinable;
    pthread_t worker;
    bool thinking;
    WebEngineInfo info;
    char engine_error[240]; /* why the engine could not act, "" if fine */
    uint64_t last_used;
    int engine_threads, engine_hash_mb;
} WebGame;

/* Creates a game from a JSON config (see web_game_config); NULL and err on a bad one. */
WebGame *web_game_new(int id, json_t *config, const WebOptions *o, TgError *err);
/* Stops the worker (joins it) and frees everything. */
void web_game_free(WebGame *w);

/* All under w->lock held by the caller. */
json_t *web_game_state(WebGame *w);
/* 0 when applied, else the HTTP status (400 malformed, 409 illegal now). */
int web_game_act(WebGame *w, json_t *body, TgError *err);
bool web_game_undo(WebGame *w, TgError *err);
bool web_game_redo(WebGame *w, TgError *err);
bool web_game_set_players(WebGame *w, json_t *body, TgError *err);
json_t *web_game_explain(WebGame *w, const char *point, const char *board, TgError *err);
char *web_game_record(WebGame *w, const char *format, TgError *err);
bool web_game_load(WebGame *w, json_t *body, TgError *err);

/* Starts the worker when an engine must act and none runs (lock held). */
void web_engine_kick(WebGame *w);
/* Asks a running search to stop, e.g. after undo (lock held). */
void web_engine_interrupt(WebGame *w);
/* True when the acting player is the engine and the game goes on. */
bool web_engine_to_act(const WebGame *w);
/* Stops and joins the worker; call WITHOUT the lock. */
void web_engine_join(WebGame *w);

#endif
