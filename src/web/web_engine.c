/* web_engine.c — the engine's side of a web game: one worker thread per game
 * that decides while the engine must act, on a snapshot of the game, and
 * applies its answer only if nothing changed meanwhile. */
#include "web_internal.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "tengen/coord.h"
#include "tengen/autoplay.h"

bool web_engine_to_act(const WebGame *w)
{
    if (game_over(&w->game))
        return false;
    GameTurn t;
    game_turn(&w->game, &t);
    return w->player[t.player] == WEB_ENGINE;
}

void web_engine_interrupt(WebGame *w)
{
    atomic_store(&w->cancel, 1);
    if (w->engine && w->thinking)
        engine_stop(w->engine);
}

/* One decision in progress: what the worker needs without the lock. */
typedef struct {
    WebGame *w;
    Engine *e;
    unsigned version; /* the game version the decision is for */
    int64_t ms;       /* budget for the whole decision */
    Color side;       /* colour being searched, for the progress report */
} Decision;

static bool stale(const Decision *d)
{
    return atomic_load(&d->w->version) != d->version;
}

static void on_progress(const SearchInfo *info, void *user)
{
    Decision *d = user;
    if (stale(d)) {
        atomic_store(&d->w->cancel, 1);
        engine_stop(d->e);
        return;
    }
    if (info->line_index != 0)
        return;
    WebGame *w = d->w;
    pthread_mutex_lock(&w->lock);
    WebEngineInfo *i = &w->info;
    i->valid = true;
    i->side = d->side;
    i->depth = info->depth;
    i->seldepth = info->seldepth;
    i->score = info->line.score;
    i->mate = info->line.mate;
    i->time_ms = info->time_ms;
    i->nodes = info->nodes;
    i->nps = info->nps;
    i->pvlen = info->line.pvlen;
    memcpy(i->pv, info->line.pv, sizeof(Point) * (size_t)info->line.pvlen);
    pthread_mutex_unlock(&w->lock);
}

/* What the engine does now, on a snapshot g of the game: the library decides;
 * this file only keeps the decision in step with the game the page sees. */
static bool decide(Decision *d, const Game *g, Action *a, TgError *err)
{
    GameTurn t;
    game_turn(g, &t);
    const Board *b = game_board(g, 0);
    d->side = t.stone == BLACK || t.stone == WHITE ? t.stone : board_side_to_move(b);
    Autoplay ap = {.engine = d->e, .ms = d->ms, .cancel = &d->w->cancel,
                   .progress = on_progress, .user = d, .seed = (uint64_t)time(NULL)};
    return autoplay_decide(&ap, g, a, err);
}

static void *worker_main(void *arg)
{
    WebGame *w = arg;
    for (;;) {
        pthread_mutex_lock(&w->lock);
        if (w->stopping || w->engine_error[0] || !web_engine_to_act(w)) {
            w->worker_running = false;
            w->thinking = false;
            pthread_mutex_unlock(&w->lock);
            return NULL;
        }
        Decision d = {.w = w, .e = w->engine, .version = atomic_load(&w->version),
                      .ms = w->engine_ms, .side = EMPTY};
        atomic_store(&w->cancel, 0);
        Game snap;
        bool copied = game_copy(&snap, &w->game);
        if (!copied) {
            snprintf(w->engine_error, sizeof w->engine_error, "out of memory");
            pthread_mutex_unlock(&w->lock);
            continue;
        }
        w->thinking = true;
        w->info.valid = false;
        pthread_mutex_unlock(&w->lock);

        Action a;
        TgError err;
        bool ok = decide(&d, &snap, &a, &err);

        pthread_mutex_lock(&w->lock);
        w->thinking = false;
        if (!stale(&d) && !w->stopping) {
            TgError gerr;
            if (!ok) {
                snprintf(w->engine_error, sizeof w->engine_error, "%s", err.msg);
            } else if (!game_apply(&w->game, &a, &gerr)) {
                char tok[160];
                game_action_text(&a, snap.config.size, snap.config.dualboard, tok, sizeof tok);
                snprintf(w->engine_error, sizeof w->engine_error, "engine action '%.60s' refused: %.140s",
                         tok, gerr.msg);
            } else {
                atomic_fetch_add(&w->version, 1);
            }
        }
        pthread_mutex_unlock(&w->lock);
        game_free(&snap);
    }
}

void web_engine_kick(WebGame *w)
{
    if (w->stopping || w->worker_running || w->engine_error[0] || !web_engine_to_act(w))
        return;
    if (w->worker_joinable) {
        /* The previous worker has released the lock for good: joining is quick. */
        pthread_join(w->worker, NULL);
        w->worker_joinable = false;
    }
    if (!w->engine) {
        EngineOptions eo;
        engine_options_default(&eo);
        eo.threads = w->engine_threads;
        eo.hash_mb = w->engine_hash_mb;
        TgError err;
        w->engine = engine_new(&eo, &err);
        if (!w->engine) {
            snprintf(w->engine_error, sizeof w->engine_error, "%s", err.msg);
            return;
        }
    }
    if (pthread_create(&w->worker, NULL, worker_main, w) != 0) {
        snprintf(w->engine_error, sizeof w->engine_error, "cannot start the engine thread");
        return;
    }
    w->worker_running = true;
    w->worker_joinable = true;
}

void web_engine_join(WebGame *w)
{
    pthread_mutex_lock(&w->lock);
    w->stopping = true;
    atomic_fetch_add(&w->version, 1);
    atomic_store(&w->cancel, 1);
    if (w->engine)
        engine_stop(w->engine);
    bool join = w->worker_joinable;
    w->worker_joinable = false;
    pthread_mutex_unlock(&w->lock);
    if (join)
        pthread_join(w->worker, NULL);
}
