/* search.h — the engine's internals shared by engine.c (API, threads, time)
 * and search.c (the alpha-beta search itself). Not a public header. */
#ifndef TENGEN_SEARCH_H
#define TENGEN_SEARCH_H

#include <pthread.h>
#include <stdatomic.h>

#include "spos.h"
#include "tengen/engine.h"
#include "tengen/solver.h"
#include "tt.h"

#define MAX_PLY 128
#define LMR_SIZE 64 /* late-move reduction table: depth x move index */

typedef struct {
    Point move;
    int score;      /* this iteration's score, -ENGINE_SCORE_INF until searched */
    int prev_score; /* last completed iteration's score */
    int order;      /* static ordering score */
    int pvlen;
    Point pv[ENGINE_MAX_PV];
} RootMove;

typedef struct Worker {
    struct Engine *e;
    int id;
    pthread_t thread;
    SPos pos;
    Solver *solver; /* VCF probes at the leaves; its table lives across searches */
    uint64_t nodes;    /* counted since the search began */
    uint64_t flushed;  /* part of nodes already added to the engine total */
    uint64_t next_check; /* nodes at which the limits are looked at next */
    int seldepth;
    int completed;     /* last fully completed depth */
    RootMove done;     /* its best move (one-line searches) */
    Point killer[MAX_PLY][2];
    Point excluded[MAX_PLY]; /* the move a singular test search leaves out */
    int seval[MAX_PLY];      /* static evaluation at each ply of the current line */
    int root_depth;
    int double_ext; /* double singular extensions on the current line */
    bool played_four[MAX_PLY]; /* the move searched at each ply made a four */
    bool tt_pv[MAX_PLY];       /* each ply's node is or was on a PV */
    int32_t history[2][BOARD_CELLS];
    Point counter[2][BOARD_CELLS]; /* [mover][opponent's last move]: the quiet move that refuted it */
    Point pv[MAX_PLY][MAX_PLY];
    int pvlen[MAX_PLY];
    int nroot;
    RootMove root[BOARD_MAX_MOVES];
} Worker;

struct Engine {
    EngineOptions opt;
    EvalWeights weights[RULE_COUNT][2]; /* evaluation per rule set and side to move (black, white) */
    OrderWeights order[RULE_COUNT][2];  /* move ordering per side to move, where has_order */
    bool has_order[RULE_COUNT][2];
    TransTable tt;
    Board board;
    Color to_move;
    bool has_position;
    atomic_int stop; /* an int so the solver can watch it too */
    atomic_bool running;
    _Atomic uint64_t nodes_total;
    SearchLimits lim;
    int64_t start_us;
    int64_t soft_ms, hard_ms; /* <= 0: none */
    int nbest;
    SearchCallback cb;
    void *user;
    int nworkers;
    Worker *workers;
    SearchResult result; /* filled by the main worker */
    int16_t lmr[RULE_COUNT][LMR_SIZE][LMR_SIZE]; /* per rule, in 16ths of a ply: the divisor may differ */
    int16_t lmp[LMR_SIZE]; /* late-move pruning: quiet moves searched at a depth */
};

int64_t engine_now_us(void);
int64_t engine_elapsed_ms(const struct Engine *e);

/* Fills e->lmr: plies a late quiet move is reduced by, growing with the
 * logarithms of depth and move index. */
void search_init_lmr(struct Engine *e);

/* Builds w's root move list from the engine's position and limits. */
void search_root_moves(Worker *w);

/* Runs iterative deepening on w until a limit or stop; the main worker (id 0)
 * reports and fills e->result. */
void search_worker_run(Worker *w);

/* Lazy SMP: when a helper completed a deeper iteration than the main worker
 * and the main worker's answer is not a proven result, its best move becomes
 * e->result (one-line searches without a root restriction only). */
void search_adopt_deeper(struct Engine *e, int nworkers);

/* Ordering score of a move for the side to move (no TT/killers). */
int search_order_score(const SPos *s, Point p);

#endif
