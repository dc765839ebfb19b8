#include "tengen/hugemem.h"

#include <stdint.h>
#include <stdlib.h>

static void *align_up(void *p, size_t a)
{
    return (void *)(((uintptr_t)p + a - 1) & ~(uintptr_t)(a - 1));
}

void *hugemem_alloc(size_t bytes, HugeMem *h)
{
    h->base = NULL;
    h->len = 0;
#if HUGEMEM_MAPS
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
#if HUGEMEM_MAPS
    if (h->len)
        munmap(h->base, h->len);
    else
#endif
        free(h->base);
    h->base = NULL;
    h->len = 0;
}
