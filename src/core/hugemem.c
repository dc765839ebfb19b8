#include "tengen/hugemem.h"

#include <stdint.h>
#include <stdlib.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

/* Under AddressSanitizer the tables come from calloc, so reads past their
 * ends are still caught. */
#if defined(__SANITIZE_ADDRESS__)
#define HUGEMEM_MAP 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HUGEMEM_MAP 0
#endif
#endif
#if !defined(HUGEMEM_MAP) && defined(__linux__) && defined(MADV_HUGEPAGE)
#define HUGEMEM_MAP 1
#endif
#ifndef HUGEMEM_MAP
#define HUGEMEM_MAP 0
#endif

static void *align_up(void *p, size_t a)
{
    return (void *)(((uintptr_t)p + a - 1) & ~(uintptr_t)(a - 1));
}

void *hugemem_alloc(size_t bytes, HugeMem *h)
{
    h->base = NULL;
    h->len = 0;
#if HUGEMEM_MAP
    if (bytes >= HUGEMEM_PAGE / 2) {
        /* Whole 2 MB pages inside the mapping: the kernel backs a huge page
         * only where the aligned 2 MB range lies wholly in it. */
        size_t span = (bytes + HUGEMEM_PAGE - 1) & ~(HUGEMEM_PAGE - 1), n = span + HUGEMEM_PAGE;
        void *m = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m != MAP_FAILED) {
            void *p = align_up(m, HUGEMEM_PAGE);
            madvise(p, span, MADV_HUGEPAGE); /* a hint: refused, the pages are small */
            h->base = m;
            h->len = n;
            return p;
        }
    }
#endif
    /* calloc rather than aligned_alloc + memset: a large block comes straight
     * from the kernel, zeroed and unmapped, so nothing is touched up front. */
    h->base = calloc(bytes + 63, 1);
    return h->base ? align_up(h->base, 64) : NULL;
}

void hugemem_free(HugeMem *h)
{
#if HUGEMEM_MAP
    if (h->len) {
        munmap(h->base, h->len);
        h->base = NULL;
        h->len = 0;
        return;
    }
#endif
    free(h->base);
    h->base = NULL;
    h->len = 0;
}
