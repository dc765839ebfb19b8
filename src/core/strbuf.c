#include "tengen/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void strbuf_add(StrBuf *b, const char *s, size_t n)
{
    if (b->failed)
        return;
    if (n >= (size_t)-1 - b->len) {
        b->failed = true;
        return;
    }
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (b->len + n + 1 > cap)
            cap *= 2;
        char *grown = realloc(b->s, cap);
        if (!grown) {
            b->failed = true;
            return;
        }
        b->s = grown;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void strbuf_addf(StrBuf *b, const char *fmt, ...)
{
    if (b->failed)
        return;
    // Most pieces are short: format on the stack, and only a long one pays for a
    // second pass into a heap block of the size the first pass reported.
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->failed = true;
        return;
    }
    if ((size_t)n < sizeof small) {
        strbuf_add(b, small, (size_t)n);
        return;
    }
    char *big = malloc((size_t)n + 1);
    if (!big) {
        b->failed = true;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    strbuf_add(b, big, (size_t)n);
    free(big);
}

char *strbuf_finish(StrBuf *b, TgError *err)
{
    if (!b->failed && !b->s)
        strbuf_add(b, "", 0);
    if (b->failed) {
        free(b->s);
        b->s = NULL;
        tg_error_set(err, 0, 0, "out of memory");
        return NULL;
    }
    char *s = b->s;
    *b = (StrBuf){0};
    return s;
}
