/* proc.c — engine child processes on pipes, with deadlines on every read. */
#define _GNU_SOURCE /* pipe2 with O_CLOEXEC: other threads may fork at any moment */
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define EXIT_GRACE_MS 300


int64_t proc_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Runs `sh -c "exec CMD"` in its own process group with pipes on stdin and
 * stdout and stderr discarded. Between fork and exec only async-signal-safe
 * calls are made, so other threads holding locks cannot deadlock the child. */
bool proc_spawn(Proc *p, const char *cmd, TgError *err)
{
    p->len = 0;
    p->eof = p->synced = false;
    p->pid = -1;
    p->to = p->from = -1;
    size_t n = strlen(cmd) + 8;
    char *line = malloc(n);
    if (!line) {
        tg_error_set(err, 0, 0, "out of memory");
        return false;
    }
    snprintf(line, n, "exec %s", cmd);
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) != 0) {
        tg_error_set(err, 0, 0, "pipe: %s", strerror(errno));
        free(line);
        return false;
    }
    if (pipe2(out, O_CLOEXEC) != 0) {
        tg_error_set(err, 0, 0, "pipe: %s", strerror(errno));
        close(in[0]);
        close(in[1]);
        free(line);
        return false;
    }
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        int null = open("/dev/null", O_WRONLY);
        dup2(in[0], 0);
        dup2(out[1], 1);
        if (null >= 0)
            dup2(null, 2);
        execl("/bin/sh", "sh", "-c", line, (char *)NULL);
        _exit(127);
    }
    free(line);
    close(in[0]);
    close(out[1]);
    if (pid < 0) {
        tg_error_set(err, 0, 0, "fork: %s", strerror(errno));
        close(in[1]);
        close(out[0]);
        return false;
    }
    setpgid(pid, pid); /* both sides set it: no race with an early kill */
    p->pid = pid;
    p->to = in[1];
    p->from = out[0];
    fcntl(p->from, F_SETFL, fcntl(p->from, F_GETFL) | O_NONBLOCK);
    return true;
}

bool proc_send(Proc *p, const char *fmt, ...)
{
    char line[PROC_LINE_MAX];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0)
        return false;
    if (n > (int)sizeof line - 2)
        n = (int)sizeof line - 2;
    line[n++] = '\n';
    for (int off = 0; off < n;) {
        ssize_t w = write(p->to, line + off, (size_t)(n - off));
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        off += (int)w;
    }
    return true;
}

/* Takes one complete line out of the buffer (CR/LF stripped). */
static bool proc_take_line(Proc *p, char *out, size_t cap)
{
    for (int i = 0; i < p->len; i++) {
        if (p->buf[i] != '\n')
            continue;
        int n = i;
        if (n > 0 && p->buf[n - 1] == '\r')
            n--;
        if ((size_t)n >= cap)
            n = (int)cap - 1;
        memcpy(out, p->buf, (size_t)n);
        out[n] = '\0';
        memmove(p->buf, p->buf + i + 1, (size_t)(p->len - i - 1));
        p->len -= i + 1;
        return true;
    }
    if (p->len == (int)sizeof p->buf) { /* an overlong line: cut it */
        memcpy(out, p->buf, cap - 1);
        out[cap - 1] = '\0';
        p->len = 0;
        return true;
    }
    return false;
}

/* Waits for one line until the monotonic deadline. */
ReadResult proc_read_line(Proc *p, int64_t deadline, char *out, size_t cap)
{
    for (;;) {
        if (proc_take_line(p, out, cap))
            return READ_LINE;
        if (p->eof)
            return READ_EOF;
        int64_t left = deadline - proc_now_ms();
        if (left <= 0)
            return READ_TIMEOUT;
        struct pollfd pf = {.fd = p->from, .events = POLLIN};
        int r = poll(&pf, 1, left > 1000000 ? 1000000 : (int)left);
        if (r < 0 && errno != EINTR)
            return READ_EOF;
        if (r <= 0)
            continue;
        ssize_t got = read(p->from, p->buf + p->len, sizeof p->buf - (size_t)p->len);
        if (got > 0)
            p->len += (int)got;
        else if (got == 0 || (errno != EAGAIN && errno != EINTR))
            p->eof = true;
    }
}

/* Asks the engine to end, then makes sure the whole process group is gone. */
void proc_close(Proc *p)
{
    if (p->pid <= 0)
        return;
    if (p->to >= 0) {
        proc_send(p, "END");
        close(p->to);
        p->to = -1;
    }
    int64_t deadline = proc_now_ms() + EXIT_GRACE_MS;
    for (;;) {
        siginfo_t si;
        memset(&si, 0, sizeof si);
        /* WNOWAIT keeps the zombie, so the group id cannot be reused before the kill. */
        if (waitid(P_PID, (id_t)p->pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == p->pid)
            break;
        if (proc_now_ms() >= deadline)
            break;
        struct timespec ts = {0, 10 * 1000000};
        nanosleep(&ts, NULL);
    }
    kill(-p->pid, SIGKILL);
    waitpid(p->pid, NULL, 0);
    if (p->from >= 0)
        close(p->from);
    p->from = -1;
    p->pid = -1;
}
