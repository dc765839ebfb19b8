#include "tt.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

/* data bits: move 0-10 (Point + 1, 0 = none), score 11-26 (+32768), eval 27-42,
 * depth 43-50, bound 51-52, generation 53-58, on a PV 59. */
static uint64_t pack(Point move, int score, int eval, int depth, int bound, int gen, bool pv)
{
    uint64_t m = (uint64_t)(move < 0 ? 0 : move + 1) & 0x7ff;
    return m | (uint64_t)((score + 32768) & 0xffff) << 11 | (uint64_t)((eval + 32768) & 0xffff) << 27 |
           (uint64_t)(depth & 0xff) << 43 | (uint64_t)(bound & 3) << 51 | (uint64_t)(gen & 63) << 53 |
           (uint64_t)pv << 59;
}

static int data_depth(uint64_t d) { return (int)(d >> 43 & 0xff); }
static int data_gen(uint64_t d) { return (int)(d >> 53 & 63); }

#define HUGE_PAGE ((size_t)2 << 20)

/* A table of 2 MB or more on Linux: anonymous pages (zeroed, mapped on first
 * touch) aligned to 2 MB and offered to the kernel as huge pages, since
 * nearly every probe misses the cache and, with 4 KB pages, the TLB too.
 * Returns NULL where that is not available. */
static void *map_table(size_t bytes, size_t *len)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (bytes < HUGE_PAGE)
        return NULL;
    size_t n = bytes + HUGE_PAGE;
    void *m = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    void *aligned = (void *)(((uintptr_t)m + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
    madvise(aligned, bytes, MADV_HUGEPAGE); /* a hint: without it the table still works */
    *len = n;
    return m;
#else
    (void)bytes;
    (void)len;
    return NULL;
#endif
}

bool tt_alloc(TransTable *t, size_t mb)
{
    size_t bytes = mb << 20, buckets = 1;
    while (buckets * 2 * TT_BUCKET * sizeof(TtEntry) <= bytes)
        buckets *= 2;
    size_t table = buckets * TT_BUCKET * sizeof(TtEntry), len = 0;
    void *mem = map_table(table, &len);
    size_t align = mem ? HUGE_PAGE : 64;
    /* Otherwise calloc rather than aligned_alloc + memset: a large block
     * comes straight from the kernel, zeroed and unmapped, so no time goes
     * into touching it up front (tt_touch can map it later, off the clock). */
    if (!mem)
        mem = calloc(table + 63, 1);
    if (!mem)
        return false;
    t->mem = mem;
    t->mem_len = len;
    t->entry = (TtEntry *)(((uintptr_t)mem + align - 1) & ~(uintptr_t)(align - 1));
    t->nbuckets = buckets;
    t->gen = 0;
    t->used = false;
    return true;
}

void tt_free(TransTable *t)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (t->mem_len)
        munmap(t->mem, t->mem_len);
    else
        free(t->mem);
#else
    free(t->mem);
#endif
    t->mem_len = 0;
    t->mem = NULL;
    t->entry = NULL;
    t->nbuckets = 0;
}

void tt_clear(TransTable *t)
{
    t->gen = 0;
    if (!t->used)
        return;
    /* All-zero words read back as check == key ^ data only for key 0: harmless. */
    memset((void *)t->entry, 0, t->nbuckets * TT_BUCKET * sizeof(TtEntry));
    t->used = false;
}

bool tt_touch(TransTable *t, const _Atomic bool *cancel)
{
    const size_t stride = 4096 / sizeof(TtEntry), n = t->nbuckets * TT_BUCKET;
    for (size_t i = 0; i < n; i += stride) {
        if (atomic_load_explicit(cancel, memory_order_relaxed))
            return false;
        atomic_fetch_or_explicit(&t->entry[i].data, 0, memory_order_relaxed);
    }
    if (n)
        atomic_fetch_or_explicit(&t->entry[n - 1].data, 0, memory_order_relaxed);
    return true;
}

static TtEntry *bucket(const TransTable *t, uint64_t key)
{
    return &t->entry[(key & (t->nbuckets - 1)) * TT_BUCKET];
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
            if (bound != BOUND_EXACT && data_depth(d) > depth + 2 && data_gen(d) == t->gen)
                return;
            victim = &e[i];
            break;
        }
        int age = (t->gen - data_gen(d)) & 63;
        int value = d == 0 ? -1000 : data_depth(d) - 4 * age;
        if (value < worst) {
            worst = value;
            victim = &e[i];
        }
    }
    if (depth < 0)
        depth = 0;
    uint64_t d = pack(move, score, eval, depth, bound, t->gen, pv);
    atomic_store_explicit(&victim->data, d, memory_order_relaxed);
    atomic_store_explicit(&victim->check, key ^ d, memory_order_relaxed);
}
