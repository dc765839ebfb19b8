#include <stddef.h>

#include "record_internal.h"

bool psq_parse(const char *text, Record *r, TgError *err)
{
    (void)text, (void)r;
    tg_error_set(err, 0, 0, "psq is not available in this build");
    return false;
}
bool sgf_parse(const char *text, int game, Record *r, TgError *err)
{
    (void)text, (void)r, (void)game;
    tg_error_set(err, 0, 0, "sgf is not available in this build");
    return false;
}
bool rif_parse(const char *text, int game, Record *r, TgError *err)
{
    (void)text, (void)r, (void)game;
    tg_error_set(err, 0, 0, "rif is not available in this build");
    return false;
}
char *psq_write(const Record *r, TgError *err)
{
    (void)r;
    tg_error_set(err, 0, 0, "psq is not available in this build");
    return NULL;
}
char *sgf_write(const Record *r, TgError *err)
{
    (void)r;
    tg_error_set(err, 0, 0, "sgf is not available in this build");
    return NULL;
}
char *rif_write(const Record *r, TgError *err)
{
    (void)r;
    tg_error_set(err, 0, 0, "rif is not available in this build");
    return NULL;
}
