/* tt.h — the transposition table shared by all search threads.
 *
 * Layout: buckets of four 16-byte entries (one 64-byte cache line). An entry
 * is two 64-bit words, `check` and `data`, with check = key ^ data: a reader
 * that sees a torn write (one word from each of two writers) gets a mismatch
 * and treats the entry as empty, so no locks are needed. data packs the move,
 * score, static eval, depth, bound and the search generation.
 *
 * Replacement inside a bucket: the same key is always overwritten; otherwise
 * the entry with the lowest (depth - 4 plies * age) goes, so deep results
 * from the current search survive; a shallower bound (by more than two plies)
 * from the same search does not overwrite its own key's deeper one.
 */
#ifndef TENGEN_TT_H
#define TENGEN_TT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tengen/board.h"
#include "tengen/hugemem.h"

enum { BOUND_NONE, BOUND_UPPER, BOUND_LOWER, BOUND_EXACT };

typedef struct {
    _Atomic uint64_t check;
    _Atomic uint64_t data;
} TtEntry;

typedef struct {
    TtEntry *entry;  /* inside mem: zeroed, mapped on first touch */
    HugeMem mem;
    size_t nbuckets; /* power of two: the whole table */
    size_t active;   /* the buckets the current search uses, from the start: a power of two */
    size_t dirty;    /* buckets from the start a search may have written since the last
                      * clear: 0 when none ran (the table is all zero) */
    _Atomic size_t mapped; /* buckets from the start known to be mapped (touched in order) */
    uint8_t gen;
} TransTable;

typedef struct {
    Point move;
    int score, eval, depth, bound;
    bool pv; /* stored from a PV node, or from a node that had been on one */
} TtHit;

#define TT_BUCKET 4
/* Depths are stored in units of a 16th of a ply (the search's unit), up to
 * TT_DEPTH_MAX. */
#define TT_PLY 16
#define TT_DEPTH_MAX 1023

/* Allocates about mb megabytes (rounded down to a power of two of buckets),
 * all empty, without touching the memory. */
bool tt_alloc(TransTable *t, size_t mb);
void tt_free(TransTable *t);
/* Empties the table; free when no search ran since the last clear. */
void tt_clear(TransTable *t);
/* Maps every page of the table by writing to it without changing it: safe
 * while searches run, not while tt_clear or tt_free does. Returns false when
 * *cancel was set before the end. */
bool tt_touch(TransTable *t, const _Atomic bool *cancel);
/* Maps about `buckets` more of the table after the part already mapped;
 * false when all of it is mapped. */
bool tt_touch_some(TransTable *t, size_t buckets);
/* Buckets mapped so far, from the start of the table. */
static inline size_t tt_mapped(const TransTable *t) { return atomic_load(&t->mapped); }

/* Starts a search. A search on the clock (mapped_only) uses only the part of
 * the table already mapped, rounded down to a power of two: a first touch of
 * a page costs a page fault that zeroes it (a 2 MB huge page: up to a few ms),
 * and a short search that wrote all over a new table would pay for every page
 * of it before it could look at the clock again. Other searches use it all. */
void tt_new_search(TransTable *t, bool mapped_only);

bool tt_probe(const TransTable *t, uint64_t key, TtHit *hit);
/* Starts loading key's bucket into the cache ahead of a probe. */
static inline void tt_prefetch(const TransTable *t, uint64_t key)
{
    __builtin_prefetch(&t->entry[(key & (t->active - 1)) * TT_BUCKET]);
}
/* Stores a search result; pv marks a node that is or was on a principal variation. */
void tt_store(TransTable *t, uint64_t key, Point move, int score, int eval, int depth, int bound,
              bool pv);

#endif
