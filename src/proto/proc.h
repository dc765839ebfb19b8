/* proc.h — a pbrain engine as a child process (internal to src/proto).
 *
 * The engine runs as `sh -c "exec CMD"` in its own process group, stdin and
 * stdout on pipes, stderr discarded. Reads never block past a deadline, so
 * a hung engine cannot hang the caller; proc_close kills the whole group.
 * The caller must ignore SIGPIPE (a dead engine's pipe).
 */
#ifndef TENGEN_PROTO_PROC_H
#define TENGEN_PROTO_PROC_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "tengen/error.h"

#define PROC_LINE_MAX 4096

typedef struct {
    pid_t pid;
    int to, from; /* engine's stdin (we write), engine's stdout (we read) */
    char buf[PROC_LINE_MAX];
    int len;
    bool eof;
    bool synced; /* has seen the position (BOARD/BEGIN) */
    char name[64];
} Proc;

typedef enum { READ_LINE, READ_TIMEOUT, READ_EOF } ReadResult;

/* Milliseconds on the monotonic clock. */
int64_t proc_now_ms(void);

/* Starts CMD; false with err when the pipes or the fork fail (a command that
 * cannot be run shows as an engine that exits at once). */
bool proc_spawn(Proc *p, const char *cmd, TgError *err);

/* Writes one line (a newline is added); false when the engine is gone. */
bool proc_send(Proc *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Waits for one line until the monotonic deadline (CR/LF stripped, an
 * overlong line cut to cap - 1). */
ReadResult proc_read_line(Proc *p, int64_t deadline, char *out, size_t cap);

/* Asks the engine to END, waits briefly, then kills its process group. */
void proc_close(Proc *p);

#endif
