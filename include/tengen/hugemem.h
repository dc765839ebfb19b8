/* hugemem.h — zeroed memory for large lookup tables, laid on 2 MB boundaries
 * and offered to the kernel as huge pages where it can take them (Linux), so
 * random reads across the table miss the TLB less. Pages are mapped on first
 * touch. Under AddressSanitizer it is plain calloc, so overruns are caught. */
#ifndef TENGEN_HUGEMEM_H
#define TENGEN_HUGEMEM_H

#include <stddef.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

#define HUGEMEM_PAGE ((size_t)2 << 20)

/* HUGEMEM_MAPS is 1 where tables of 1 MB and more are mapped for huge pages:
 * Linux, outside AddressSanitizer (which needs calloc to see a table's ends). */
#if defined(__SANITIZE_ADDRESS__)
#define HUGEMEM_MAPS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HUGEMEM_MAPS 0
#endif
#endif
#ifndef HUGEMEM_MAPS
#if defined(__linux__) && defined(MADV_HUGEPAGE)
#define HUGEMEM_MAPS 1
#else
#define HUGEMEM_MAPS 0
#endif
#endif

typedef struct {
    void *base; /* what to release */
    size_t len; /* bytes mapped; 0 when base came from calloc */
} HugeMem;

/* At least `bytes` zeroed bytes, 64-byte aligned; from 1 MB up (Linux) on
 * 2 MB boundaries with huge pages asked for, which h->len != 0 tells. NULL
 * when out of memory. */
void *hugemem_alloc(size_t bytes, HugeMem *h);
/* Releases what hugemem_alloc gave (nothing when h->base is NULL). */
void hugemem_free(HugeMem *h);

#endif
