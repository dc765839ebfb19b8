#include "tt.h"

#include <stdatomic.h>
#include <string.h>

#include "tengen/hugemem.h"

/* data bits: move 0-10 (Point + 1, 0 = none), score 11-26 (+32768), eval 27-42,
 * depth 43-50 and 60-61 (its low and high bits), bound 51-52, generation
 * 53-58, on a PV 59. */
static uint64_t pack(Point move, int score, int eval, int depth, int bound, int gen, bool pv)
{
    uint64_t m = (uint64_t)(move < 0 ? 0 : move + 1) & 0x7ff;
    return m | (uint64_t)((score + 32768) & 0xffff) << 11 | (uint64_t)((eval + 32768) & 0xffff) << 27 |
           (uint64_t)(depth & 0xff) << 43 | (uint64_t)(bound & 3) << 51 | (uint64_t)(gen & 63) << 53 |
           (uint64_t)pv << 59 | (uint64_t)(depth >> 8 & 3) << 60;
}

static int data_depth(uint64_t d) { return (int)(d >> 43 & 0xff) | (int)(d >> 60 & 3) << 8; }
static int data_gen(uint64_t d) { return (int)(d >> 53 & 63); }

/* mapped only grows: two threads may touch at once. */
static void raise_mapped(TransTable *t, size_t to)
{
    size_t cur = atomic_load(&t->mapped);
    while (cur < to && !atomic_compare_exchange_weak(&t->mapped, &cur, to))
        ;
}

bool tt_alloc(TransTable *t, size_t mb)
{
    size_t bytes = mb << 20, buckets = 1;
    while (buckets * 2 * TT_BUCKET * sizeof(TtEntry) <= bytes)
        buckets *= 2;
    /* Nearly every probe misses the cache; on huge pages it misses no TLB
     * on top. The memory is left untouched (tt_touch maps it off the clock). */
    TtEntry *e = hugemem_alloc(buckets * TT_BUCKET * sizeof(TtEntry), &t->mem);
    if (!e)
        return false;
    t->entry = e;
    t->nbuckets = t->active = buckets;
    t->dirty = 0;
    atomic_init(&t->mapped, 0);
    t->gen = 0;
    return true;
}

void tt_free(TransTable *t)
{
    hugemem_free(&t->mem);
    t->entry = NULL;
    t->nbuckets = t->active = t->dirty = 0;
    atomic_store(&t->mapped, 0);
}

void tt_clear(TransTable *t)
{
    t->gen = 0;
    if (!t->dirty)
        return;
    /* Only the part searches used can hold entries: the rest stays unmapped.
     * All-zero words read back as check == key ^ data only for key 0: harmless. */
    memset((void *)t->entry, 0, t->dirty * TT_BUCKET * sizeof(TtEntry));
    raise_mapped(t, t->dirty);
    t->dirty = 0;
}

/* Buckets in one 4 KB page: the unit pages are mapped in. */
#define PAGE_BUCKETS (4096 / (TT_BUCKET * sizeof(TtEntry)))

/* Writes to one word of every page in buckets [from, to) without changing it. */
static void touch_range(TransTable *t, size_t from, size_t to)
{
    for (size_t b = from; b < to; b += PAGE_BUCKETS)
        atomic_fetch_or_explicit(&t->entry[b * TT_BUCKET].data, 0, memory_order_relaxed);
}

bool tt_touch_some(TransTable *t, size_t buckets)
{
    size_t from = tt_mapped(t), to = from + (buckets < PAGE_BUCKETS ? PAGE_BUCKETS : buckets);
    if (to > t->nbuckets)
        to = t->nbuckets;
    touch_range(t, from, to);
    raise_mapped(t, to);
    return to < t->nbuckets;
}

bool tt_touch(TransTable *t, const _Atomic bool *cancel)
{
    for (;;) {
        if (atomic_load_explicit(cancel, memory_order_relaxed))
            return tt_mapped(t) >= t->nbuckets;
        if (!tt_touch_some(t, PAGE_BUCKETS))
            return true;
    }
}

void tt_new_search(TransTable *t, bool mapped_only)
{
    t->gen = (uint8_t)((t->gen + 1) & 63);
    size_t a = t->nbuckets;
    if (mapped_only) {
        size_t m = tt_mapped(t);
        a = PAGE_BUCKETS < t->nbuckets ? PAGE_BUCKETS : t->nbuckets;
        while (a * 2 <= m && a * 2 <= t->nbuckets)
            a *= 2;
    }
    t->active = a;
    if (a > t->dirty)
        t->dirty = a;
}

static TtEntry *bucket(const TransTable *t, uint64_t key)
{
    return &t->entry[(key & (t->active - 1)) * TT_BUCKET];
}

bool tt_probe(const TransTable *t, uint64_t key, TtHit *hit)
{
    TtEntry *e = bucket(t, key);
    for (int i = 0; i < TT_BUCKET; i++) {
        uint64_t d = atomic_load_explicit(&e[i].data, memory_order_relaxed);
        uint64_t c = atomic_load_explicit(&e[i].check, memory_order_relaxed);
        if ((c ^ d) != key || d == 0)
            continue;
        int m = (int)(d & 0x7ff);
        hit->move = m ? m - 1 : POINT_NONE;
        hit->score = (int)(d >> 11 & 0xffff) - 32768;
        hit->eval = (int)(d >> 27 & 0xffff) - 32768;
        hit->depth = data_depth(d);
        hit->bound = (int)(d >> 51 & 3);
        hit->pv = d >> 59 & 1;
        return true;
    }
    return false;
}

void tt_store(TransTable *t, uint64_t key, Point move, int score, int eval, int depth, int bound,
              bool pv)
{
    TtEntry *e = bucket(t, key);
    TtEntry *victim = NULL;
    int worst = 1 << 30;
    for (int i = 0; i < TT_BUCKET; i++) {
        uint64_t d = atomic_load_explicit(&e[i].data, memory_order_relaxed);
        uint64_t c = atomic_load_explicit(&e[i].check, memory_order_relaxed);
        if ((c ^ d) == key && d != 0) {
            /* Keep a known best move when the new result has none, and a deeper
             * bound from this search over a shallow non-exact one. */
            if (move == POINT_NONE && (d & 0x7ff))
                move = (int)(d & 0x7ff) - 1;
            if (bound != BOUND_EXACT && data_depth(d) > depth + 2 * TT_PLY && data_gen(d) == t->gen)
                return;
            victim = &e[i];
            break;
        }
        int age = (t->gen - data_gen(d)) & 63;
        int value = d == 0 ? -1000 * TT_PLY : data_depth(d) - 4 * TT_PLY * age;
        if (value < worst) {
            worst = value;
            victim = &e[i];
        }
    }
    if (depth < 0)
        depth = 0;
    if (depth > TT_DEPTH_MAX)
        depth = TT_DEPTH_MAX;
    uint64_t d = pack(move, score, eval, depth, bound, t->gen, pv);
    atomic_store_explicit(&victim->data, d, memory_order_relaxed);
    atomic_store_explicit(&victim->check, key ^ d, memory_order_relaxed);
}
