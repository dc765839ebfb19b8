#include "tengen/error.h"

#include <stdarg.h>
#include <stdio.h>

void tg_error_set(TgError *e, int line, int col, const char *fmt, ...)
{
    if (!e)
        return;
    e->line = line;
    e->col = col;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
}
