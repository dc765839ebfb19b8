#include "tengen/fileio.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define INPUT_MAX (64L << 20) /* larger inputs are refused, not read */

/* Reads the whole of f; NULL with err on failure or a NUL byte. */
static char *read_all(FILE *f, const char *name, TgError *err)
{
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (len + 1 == cap) {
            if ((long)cap >= INPUT_MAX) {
                tg_error_set(err, 0, 0, "'%s' is larger than %ld MB", name, INPUT_MAX >> 20);
                free(buf);
                return NULL;
            }
            char *grown = realloc(buf, cap * 2);
            if (!grown)
                break;
            buf = grown;
            cap *= 2;
        }
        size_t got = fread(buf + len, 1, cap - 1 - len, f);
        len += got;
        if (got == 0)
            break;
    }
    if (!buf) {
        tg_error_set(err, 0, 0, "out of memory reading '%s'", name);
        return NULL;
    }
    if (ferror(f)) {
        tg_error_set(err, 0, 0, "cannot read '%s': %s", name, strerror(errno));
        free(buf);
        return NULL;
    }
    buf[len] = '\0';
    const char *nul = memchr(buf, '\0', len);
    if (nul) {
        int line = 1, col = 1;
        for (const char *s = buf; s < nul; s++, col++)
            if (*s == '\n')
                line++, col = 0;
        tg_error_set(err, line, col, "a NUL byte: not a text file");
        free(buf);
        return NULL;
    }
    return buf;
}

char *file_read_text(const char *path, TgError *err)
{
    if (strcmp(path, "-") == 0)
        return read_all(stdin, "standard input", err);
    FILE *f = fopen(path, "rb");
    if (!f) {
        tg_error_set(err, 0, 0, "cannot open '%s': %s", path, strerror(errno));
        return NULL;
    }
    char *text = read_all(f, path, err);
    fclose(f);
    return text;
}

bool file_write_atomic(const char *path, const char *data, size_t len, TgError *err)
{
    size_t n = strlen(path) + 32;
    char *tmp = malloc(n);
    if (!tmp) {
        tg_error_set(err, 0, 0, "out of memory");
        return false;
    }
    snprintf(tmp, n, "%s.%ld.tmp", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    bool ok = f && fwrite(data, 1, len, f) == len;
    if (f && fclose(f) != 0)
        ok = false;
    if (ok && rename(tmp, path) != 0)
        ok = false;
    if (!ok) {
        tg_error_set(err, 0, 0, "cannot write '%s': %s", path, strerror(errno));
        remove(tmp);
    }
    free(tmp);
    return ok;
}
