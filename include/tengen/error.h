/* error.h — errors are values: library functions fill a TgError, front ends print. */
#ifndef TENGEN_ERROR_H
#define TENGEN_ERROR_H

typedef struct {
    int line; /* 1-based line of the input, 0 when not applicable */
    int col;  /* 1-based column (or token index), 0 when not applicable */
    char msg[240];
} TgError;

/* Fills e (when not NULL) with a formatted message and a position. */
void tg_error_set(TgError *e, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
