/* strbuf.h — a growing, always NUL-terminated string for the library's writers
 * (records, tuning data, weights). Out of memory latches instead of failing each
 * call, so a writer appends freely and checks once at the end. */
#ifndef TENGEN_STRBUF_H
#define TENGEN_STRBUF_H

#include <stdbool.h>
#include <stddef.h>

#include "tengen/error.h"

/* Zero-initialise to start: StrBuf b = {0}. */
typedef struct {
    char *s;
    size_t len, cap;
    bool failed;
} StrBuf;

/* Appends the n bytes at s. */
void strbuf_add(StrBuf *b, const char *s, size_t n);
/* Appends printf-formatted text, of any length. */
void strbuf_addf(StrBuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Hands over the malloc'd string ("" when nothing was added), or frees it and
 * returns NULL with err "out of memory" when an append failed. */
char *strbuf_finish(StrBuf *b, TgError *err);

#endif
