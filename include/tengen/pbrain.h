/* pbrain.h — the Gomocup (Piskvork) brain protocol with the Yixin-Board
 * extensions, on any pair of streams.
 *
 * The reader (pbrain_run's caller thread) parses one command a line and
 * dispatches through a table. Searches run in a worker thread so that STOP,
 * YXSTOP, END and INFO are answered while the engine thinks; any other command
 * first stops the search and waits for its answer. Every line written goes
 * through one lock and is flushed at once. Search limits come from INFO
 * (timeout_turn, timeout_match, time_left, max_memory, thread_num, max_depth,
 * max_node); the engine keeps a safety margin below them.
 *
 * Commands: START RECTSTART RESTART BEGIN TURN BOARD TAKEBACK PLAY INFO END
 * ABOUT STOP SWAP2BOARD, the Yixin-Board set YXBOARD YXSTOP YXNBEST
 * YXSHOWFORBID YXHASHCLEAR YXSHOWINFO YXBALANCEONE YXBALANCETWO YXSEARCHDEFEND
 * YXBLOCK YXBLOCKUNDO YXBLOCKRESET YXSHOWHASHUSAGE YXQUERYDATABASE* (no
 * database: consumed silently), and tengen's opening-rule decisions TGOPENING.
 * Malformed or unknown commands get `ERROR <reason>` and the brain carries on.
 */
#ifndef TENGEN_PBRAIN_H
#define TENGEN_PBRAIN_H

#include <stdbool.h>
#include <stdio.h>

#include "tengen/engine.h"
#include "tengen/error.h"

typedef struct {
    const char *name, *version, *author, *country, *www; /* the ABOUT answer */
    EngineOptions engine;
} PbrainConfig;

/* name "tengen", version from the caller, default engine options. */
void pbrain_config_default(PbrainConfig *c, const char *version);

typedef struct Pbrain Pbrain;

/* A brain reading commands from in and answering on out (neither is closed). */
Pbrain *pbrain_new(const PbrainConfig *c, FILE *in, FILE *out, TgError *err);
void pbrain_free(Pbrain *pb);

/* Serves commands until END or end of input; waits for a running search. */
void pbrain_run(Pbrain *pb);

/* Gomocup INFO rule value -> rule set: bit 4 renju, bit 8 caro, bit 1 exactly
 * five, otherwise freestyle (bit 2, continuous game, does not change the rule;
 * the exact value 2 is Yixin-Board's renju). */
Rule pbrain_rule_from_info(int value);

#endif
