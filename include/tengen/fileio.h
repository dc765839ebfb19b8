/* fileio.h — reading text inputs and writing outputs safely, for every front end. */
#ifndef TENGEN_FILEIO_H
#define TENGEN_FILEIO_H

#include <stdbool.h>
#include <stddef.h>

#include "tengen/error.h"

/* Reads a whole text file ("-" is standard input) into a malloc'd, NUL-terminated
 * string. Fails (err names the file, or the line and column of a NUL byte) on a
 * missing or unreadable file and on binary content. */
char *file_read_text(const char *path, TgError *err);

/* Writes data to path atomically: a temporary file in the same folder, then a
 * rename, so readers see the old file or the whole new one, never a part. */
bool file_write_atomic(const char *path, const char *data, size_t len, TgError *err);

#endif
