/* label.c — scores tuning positions with a pbrain engine (label.h). */
#include "tengen/label.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tengen/coord.h"
#include "tengen/match.h"
#include "tengen/rules.h"
#include "tengen/strbuf.h"

#include "proc.h"

#define START_TIMEOUT_MS 30000
#define SYNC_FIRST_MS 10      /* the first ABOUT's wait; it doubles up to SYNC_WAIT_MS */
#define SYNC_WAIT_MS 200
#define SYNC_GIVE_UP_MS 20000 /* 20 s of silence: the engine is stuck */
#define ANSWER_SLACK_MS 2000  /* beyond twice the turn time: process overhead, slow machines */
#define LABEL_MAX_JOBS 64

/* ---- reading evaluations ---- */

static bool parse_value(const char *tok, int n, int *score)
{
    int sign = 1, i = 0;
    if (i < n && (tok[i] == '+' || tok[i] == '-'))
        sign = tok[i++] == '-' ? -1 : 1;
    bool mate = i < n && (tok[i] == 'M' || tok[i] == 'm');
    if (mate)
        i++;
    if (i >= n)
        return false;
    long v = 0;
    for (; i < n; i++) {
        if (!isdigit((unsigned char)tok[i]))
            return false;
        if (v < 1000000)
            v = v * 10 + (tok[i] - '0');
    }
    if (mate) {
        *score = sign * TUNE_SCORE_MAX;
        return true;
    }
    /* Only a mate may reach the cap: a huge score is still not a proof. */
    v = v > TUNE_SCORE_MAX - 1 ? TUNE_SCORE_MAX - 1 : v;
    *score = sign * (int)v;
    return true;
}

/* The next token of line at *p (spaces and '|' separate); its length, 0 at the end. */
static int next_token(const char **p)
{
    const char *s = *p;
    while (*s == ' ' || *s == '\t' || *s == '|')
        s++;
    *p = s;
    int n = 0;
    while (s[n] && s[n] != ' ' && s[n] != '\t' && s[n] != '|')
        n++;
    return n;
}

static bool token_is(const char *tok, int n, const char *word)
{
    int w = (int)strlen(word);
    if (n > 0 && tok[n - 1] == ':')
        n--;
    return n == w && !strncasecmp(tok, word, (size_t)w);
}

bool label_parse_eval(const char *line, int *score)
{
    if (strncmp(line, "MESSAGE", 7) || (line[7] != ' ' && line[7] != '\t'))
        return false;
    const char *p = line + 7;
    bool found = false;
    int value = 0;
    for (int n; (n = next_token(&p)) > 0; p += n) {
        const char *tok = p;
        if (token_is(tok, n, "nbest")) {
            /* A second-best line of a multi-PV search is not the position's value. */
            p += n;
            int m = next_token(&p);
            if (m != 1 || *p != '1')
                return false;
            n = m;
            continue;
        }
        if (!found && (token_is(tok, n, "ev") || token_is(tok, n, "eval"))) {
            p += n;
            int m = next_token(&p);
            found = m > 0 && parse_value(p, m, &value);
            n = m;
        }
    }
    if (found)
        *score = value;
    return found;
}

/* ---- one engine ---- */

typedef struct {
    const TuneData *d;
    const LabelConfig *c;
    int worker;
    int *scores;    /* [nmoves of all games]: per game, from its opening on */
    int *offset;    /* [games]: where each game's scores start */
    pthread_mutex_t *lock;
    int *done;      /* games finished, under lock */
    bool *stop;     /* set by a failing worker, under lock */
    bool ok;
    TgError err;
} Worker;

static bool stopped(Worker *w)
{
    pthread_mutex_lock(w->lock);
    bool s = *w->stop;
    pthread_mutex_unlock(w->lock);
    return s;
}

static bool fail(Worker *w, const char *fmt, const char *a, int game, int stones)
{
    char what[160], arg[100];
    snprintf(arg, sizeof arg, "%.*s", (int)sizeof arg - 1, a); /* engine lines and commands can be long */
    snprintf(what, sizeof what, fmt, arg);
    if (game >= 0)
        tg_error_set(&w->err, 0, 0, "game %d, position of %d stones: %.160s", game + 1, stones,
                     what);
    else
        tg_error_set(&w->err, 0, 0, "%.160s", what);
    w->ok = false;
    pthread_mutex_lock(w->lock);
    *w->stop = true;
    pthread_mutex_unlock(w->lock);
    return false;
}

static bool start(Worker *w, Proc *p)
{
    TgError e = {0};
    if (!proc_spawn(p, w->c->engine, &e))
        return fail(w, "cannot start the engine: %s", e.msg, -1, 0);
    char line[PROC_LINE_MAX];
    if (!proc_send(p, "START %d", TUNE_BOARD_SIZE))
        return fail(w, "%s exited before START", w->c->engine, -1, 0);
    int64_t deadline = proc_now_ms() + START_TIMEOUT_MS;
    for (;;) {
        ReadResult r = proc_read_line(p, deadline, line, sizeof line);
        if (r == READ_EOF)
            return fail(w, "%s exited before answering START", w->c->engine, -1, 0);
        if (r == READ_TIMEOUT)
            return fail(w, "%s did not answer START", w->c->engine, -1, 0);
        if (!strncmp(line, "MESSAGE", 7) || !strncmp(line, "DEBUG", 5) || !line[0])
            continue;
        if (strcmp(line, "OK"))
            return fail(w, "START refused: '%s'", line, -1, 0);
        break;
    }
    Board b;
    tune_data_game(w->d, 0, &b, &(int){0});
    bool ok = proc_send(p, "INFO timeout_turn %d", w->c->turn_ms) &&
              proc_send(p, "INFO timeout_match 0") &&
              proc_send(p, "INFO rule %d", match_gomocup_rule(b.rule));
    if (ok && w->c->nodes)
        ok = proc_send(p, "INFO max_node %llu", (unsigned long long)w->c->nodes);
    if (ok && w->c->max_memory)
        ok = proc_send(p, "INFO max_memory %lld", (long long)w->c->max_memory);
    return ok || fail(w, "%s exited during set-up", w->c->engine, -1, 0);
}

/* Some engines drop a command that arrives just after their move; ABOUT is
 * harmless to repeat, and its answer shows the engine is listening again.
 * The waits start short and grow: Rapfi drops about every other first ABOUT
 * but answers a repeat sent soon after, and a flat 200 ms wait cost more
 * time than its 40,000-node searches. */
static bool sync_engine(Worker *w, Proc *p, int game, int stones)
{
    char line[PROC_LINE_MAX];
    int64_t give_up = proc_now_ms() + SYNC_GIVE_UP_MS;
    for (int wait = SYNC_FIRST_MS; proc_now_ms() < give_up;
         wait = wait * 2 > SYNC_WAIT_MS ? SYNC_WAIT_MS : wait * 2) {
        if (!proc_send(p, "ABOUT"))
            return fail(w, "%s exited", w->c->engine, game, stones);
        int64_t deadline = proc_now_ms() + wait;
        for (;;) {
            ReadResult r = proc_read_line(p, deadline, line, sizeof line);
            if (r == READ_EOF)
                return fail(w, "%s exited", w->c->engine, game, stones);
            if (r == READ_TIMEOUT)
                break;
            if (!strncmp(line, "name=", 5) || !strncmp(line, "name =", 6))
                return true;
        }
    }
    return fail(w, "%s does not answer ABOUT", w->c->engine, game, stones);
}

static bool is_move(const char *line)
{
    int x, y, n = 0;
    return sscanf(line, " %d , %d %n", &x, &y, &n) == 2 && line[n] == '\0';
}

/* The side to move can complete five. */
static bool can_five(const Board *b)
{
    Color c = board_side_to_move(b);
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            Point q = point_make(x, y);
            if (board_at(b, q) == EMPTY && rules_is_win(b, q, c, NULL, NULL))
                return true;
        }
    return false;
}

static bool score_position(Worker *w, Proc *p, const Board *b, int game, int *out)
{
    if (!sync_engine(w, p, game, b->count))
        return false;
    /* Each position from an empty hash, so that its score does not hang on
     * the positions scored before it (and so on --jobs and the data's order).
     * An engine without the command may answer ERROR: the next ABOUT round
     * reads past whatever comes back. */
    if (!proc_send(p, "YXHASHCLEAR"))
        return fail(w, "%s exited", w->c->engine, game, b->count);
    if (!sync_engine(w, p, game, b->count))
        return false;
    Color mover = board_side_to_move(b);
    bool ok = proc_send(p, "BOARD");
    for (int i = 0; ok && i < b->count; i++) {
        Point q = b->history[i];
        ok = proc_send(p, "%d,%d,%d", point_x(q), point_y(q), b->cell[q] == mover ? 1 : 2);
    }
    if (!ok || !proc_send(p, "DONE"))
        return fail(w, "%s exited", w->c->engine, game, b->count);
    char line[PROC_LINE_MAX];
    int64_t deadline = proc_now_ms() + 2 * (int64_t)w->c->turn_ms + ANSWER_SLACK_MS;
    bool have = false;
    for (;;) {
        ReadResult r = proc_read_line(p, deadline, line, sizeof line);
        if (r == READ_EOF)
            return fail(w, "%s exited", w->c->engine, game, b->count);
        if (r == READ_TIMEOUT)
            return fail(w, "%s gave no move in time", w->c->engine, game, b->count);
        if (!strncmp(line, "ERROR", 5) || !strncmp(line, "UNKNOWN", 7))
            return fail(w, "the engine answered '%s'", line, game, b->count);
        int v;
        if (label_parse_eval(line, &v)) {
            *out = v;
            have = true;
        }
        if (is_move(line))
            break;
    }
    if (have)
        return true;
    /* Engines play a five or a forced block at once, without a word. */
    if (can_five(b)) {
        *out = TUNE_SCORE_MAX;
        return true;
    }
    if (!tune_position_used(b)) {
        *out = 0; /* the fit takes no score from a position that threats decide */
        return true;
    }
    return fail(w, "%s reported no evaluation (ev N or Eval N in a MESSAGE)", w->c->engine, game,
                b->count);
}

static void *run_worker(void *arg)
{
    Worker *w = arg;
    Proc p = {.pid = -1, .to = -1, .from = -1};
    w->ok = true;
    int games = tune_data_games(w->d);
    if (!start(w, &p)) {
        proc_close(&p);
        return NULL;
    }
    for (int g = w->worker; g < games && w->ok; g += w->c->jobs) {
        if (stopped(w))
            break;
        Board end, b;
        int opening;
        tune_data_game(w->d, g, &end, &opening);
        board_init(&b, end.size, end.rule);
        int *s = w->scores + w->offset[g];
        for (int i = 0; i < end.count - 1 && w->ok; i++) {
            board_play(&b, end.history[i], board_side_to_move(&b));
            if (b.count >= opening)
                score_position(w, &p, &b, g, &s[b.count - opening]);
        }
        if (!w->ok)
            break;
        pthread_mutex_lock(w->lock);
        int done = ++*w->done;
        if (w->c->progress)
            w->c->progress(done, games, w->c->user);
        pthread_mutex_unlock(w->lock);
    }
    proc_close(&p);
    return NULL;
}

/* ---- the whole data ---- */

static char *write_games(const TuneData *d, const LabelConfig *c, const int *scores,
                         const int *offset, TgError *err)
{
    StrBuf t = {0};
    int games = tune_data_games(d);
    Board b;
    int opening;
    tune_data_game(d, 0, &b, &opening);
    strbuf_addf(&t, "# tengen tune data 2\n# rule %s games %d labelled by: %s\n", rule_name(b.rule),
             games, c->engine);
    if (c->nodes)
        strbuf_addf(&t, "# nodes %llu a position\n", (unsigned long long)c->nodes);
    else
        strbuf_addf(&t, "# %d ms a position\n", c->turn_ms);
    for (int g = 0; g < games; g++) {
        tune_data_game(d, g, &b, &opening);
        strbuf_addf(&t, "%s %d ", tune_data_result(d, g), opening);
        for (int i = 0; i < b.count; i++) {
            char buf[COORD_BUF];
            strbuf_addf(&t, "%s%s", i ? "," : "", coord_format(b.history[i], b.size, buf));
        }
        for (int i = 0; i < b.count - opening; i++)
            strbuf_addf(&t, "%c%d", i ? ',' : ' ', scores[offset[g] + i]);
        strbuf_addf(&t, "\n");
    }
    return strbuf_finish(&t, err);
}

char *label_games(const TuneData *d, const LabelConfig *c, TgError *err)
{
    int games = tune_data_games(d);
    if (games < 1) {
        tg_error_set(err, 0, 0, "no games to label");
        return NULL;
    }
    if (!c->engine || !*c->engine || c->jobs < 1 || c->jobs > LABEL_MAX_JOBS || c->turn_ms < 1) {
        tg_error_set(err, 0, 0, "bad label settings (engine, 1..%d jobs, turn time > 0)",
                     LABEL_MAX_JOBS);
        return NULL;
    }
    int *offset = malloc(sizeof *offset * (size_t)games);
    size_t total = 0;
    for (int g = 0; offset && g < games; g++) {
        Board b;
        int opening;
        tune_data_game(d, g, &b, &opening);
        offset[g] = (int)total;
        total += (size_t)(b.count - opening);
    }
    int *scores = offset ? calloc(total ? total : 1, sizeof *scores) : NULL;
    Worker *ws = scores ? calloc((size_t)c->jobs, sizeof *ws) : NULL;
    pthread_t *th = ws ? calloc((size_t)c->jobs, sizeof *th) : NULL;
    if (!th) {
        free(offset);
        free(scores);
        free(ws);
        tg_error_set(err, 0, 0, "out of memory");
        return NULL;
    }
    pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    int done = 0;
    bool stop = false;
    int started = 0;
    for (int i = 0; i < c->jobs; i++) {
        ws[i] = (Worker){.d = d, .c = c, .worker = i, .scores = scores, .offset = offset,
                         .lock = &lock, .done = &done, .stop = &stop, .ok = true};
        if (pthread_create(&th[i], NULL, run_worker, &ws[i]) != 0) {
            ws[i].ok = false;
            tg_error_set(&ws[i].err, 0, 0, "cannot start a thread");
            pthread_mutex_lock(&lock);
            stop = true;
            pthread_mutex_unlock(&lock);
            break;
        }
        started++;
    }
    for (int i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    char *text = NULL;
    const Worker *bad = NULL;
    for (int i = 0; i < c->jobs && !bad; i++)
        if (!ws[i].ok)
            bad = &ws[i];
    if (bad)
        *err = bad->err;
    else
        text = write_games(d, c, scores, offset, err);
    free(offset);
    free(scores);
    free(ws);
    free(th);
    return text;
}
