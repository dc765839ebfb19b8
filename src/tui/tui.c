/* The terminal board. One screen: the board (two in the dual-board variant) on
 * the left, the game's status, the engine's progress and the keys on the right.
 * The engine thinks in a thread of its own so the keyboard stays live. */
#include "tengen/tui.h"

#include <ctype.h>
#include <locale.h>
#include <ncurses.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tengen/coord.h"
#include "tengen/autoplay.h"
#include "tengen/engine.h"
#include "tengen/fileio.h"
#include "tengen/forbid.h"
#include "tengen/game.h"
#include "tengen/record.h"

enum { PAIR_BLACK = 1, PAIR_WHITE, PAIR_FORBID, PAIR_LAST, PAIR_MARK, PAIR_TITLE };

typedef struct {
    Game game;
    TuiOptions opt;
    Engine *engine;
    pthread_t thread;
    bool thinking;
    bool paused; /* after an undo the engine waits for `g` */
    atomic_bool done;
    pthread_mutex_t lock;
    SearchInfo info; /* latest progress, under lock */
    bool have_info;
    Game snapshot;     /* the game the running decision is about */
    atomic_int cancel; /* abandons the running decision */
    Action decision;
    bool decided;
    TgError decide_err;
    int cx, cy, cboard;
    bool show_forbidden;
    int nprop;
    Point prop[GAME_MAX_PROPOSALS];
    char message[256];
    bool quit;
} Tui;

static const char *const STEP_TEXT[] = {
    [STEP_PLACE] = "place an opening stone",
    [STEP_DECLARE] = "declare the number of 5th moves (d)",
    [STEP_COLOR] = "swap colours (s) or keep them (n)",
    [STEP_SWAP2] = "take black (s), take white (n), or place two more stones",
    [STEP_FIFTH] = "swap (s), place the 5th stone, or propose 5th moves (Enter marks, p sends)",
    [STEP_PROPOSE] = "mark the 5th-move proposals with Enter, send them with p",
    [STEP_CHOOSE] = "choose one of the proposed 5th moves (Enter on it)",
    [STEP_PLAY] = "place a stone",
    [STEP_OVER] = "game over",
};

static void say(Tui *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(Tui *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->message, sizeof t->message, fmt, ap);
    va_end(ap);
}

static const Board *cur_board(const Tui *t) { return game_board(&t->game, t->cboard); }

static int nboards(const Tui *t) { return t->game.config.dualboard ? 2 : 1; }

/* ---- engine ---------------------------------------------------------------- */

static void on_info(const SearchInfo *info, void *user)
{
    Tui *t = user;
    if (info->line_index != 0)
        return;
    pthread_mutex_lock(&t->lock);
    t->info = *info;
    t->have_info = true;
    pthread_mutex_unlock(&t->lock);
}

static void *think_main(void *arg)
{
    Tui *t = arg;
    Autoplay ap = {.engine = t->engine, .ms = (int64_t)(t->opt.engine_time * 1000),
                   .cancel = &t->cancel, .progress = on_info, .user = t,
                   .seed = (uint64_t)time(NULL)};
    t->decided = autoplay_decide(&ap, &t->snapshot, &t->decision, &t->decide_err);
    atomic_store(&t->done, true);
    return NULL;
}

/* The engine plays every step of every opening rule and the dual-board
 * variant, one stone per decision there (autoplay.h). */
static bool engine_may_act(const Tui *t, const GameTurn *turn)
{
    return t->engine && t->opt.engine[turn->player] && !t->paused;
}

static void start_thinking(Tui *t)
{
    if (!game_copy(&t->snapshot, &t->game)) {
        say(t, "engine: out of memory");
        t->paused = true;
        return;
    }
    t->have_info = false;
    atomic_store(&t->cancel, 0);
    atomic_store(&t->done, false);
    if (pthread_create(&t->thread, NULL, think_main, t) != 0) {
        game_free(&t->snapshot);
        say(t, "engine: cannot start a thread");
        t->paused = true;
        return;
    }
    t->thinking = true;
}

static void finish_thinking(Tui *t, bool apply)
{
    pthread_join(t->thread, NULL);
    t->thinking = false;
    game_free(&t->snapshot);
    if (!apply)
        return;
    if (!t->decided) {
        say(t, "engine: %s", t->decide_err.msg);
        t->paused = true;
        return;
    }
    char text[160];
    game_action_text(&t->decision, t->game.config.size, t->game.config.dualboard, text,
                     sizeof text);
    TgError err;
    if (!game_apply(&t->game, &t->decision, &err)) {
        say(t, "engine action %s refused: %s", text, err.msg);
        t->paused = true;
        return;
    }
    say(t, "engine played %s", text);
}

static void stop_thinking(Tui *t)
{
    if (!t->thinking)
        return;
    atomic_store(&t->cancel, 1);
    engine_stop(t->engine);
    finish_thinking(t, false);
}

/* ---- drawing --------------------------------------------------------------- */

static bool is_proposal(const Tui *t, Point p)
{
    for (int i = 0; i < t->nprop; i++)
        if (t->prop[i] == p)
            return true;
    return false;
}

static Point last_stone(const Tui *t, int board)
{
    const Board *b = game_board(&t->game, board);
    return b->count ? b->history[b->count - 1] : POINT_NONE;
}

static void draw_board(Tui *t, int board, int top, int left, const GameTurn *turn)
{
    Board *b = (Board *)game_board(&t->game, board);
    int n = b->size;
    bool marks = t->show_forbidden && b->rule == RULE_RENJU && turn->stone == BLACK &&
                 !game_over(&t->game);
    Point last = last_stone(t, board);
    if (t->game.config.dualboard)
        mvprintw(top - 1, left + 4, "board %d", board + 1);
    for (int x = 0; x < n; x++) {
        mvaddch(top, left + 4 + 2 * x, 'a' + x);
        mvaddch(top + n + 1, left + 4 + 2 * x, 'a' + x);
    }
    for (int y = 0; y < n; y++) {
        int row = top + 1 + y;
        mvprintw(row, left, "%3d", n - y);
        mvprintw(row, left + 4 + 2 * n, "%d", n - y);
        for (int x = 0; x < n; x++) {
            Point p = point_make(x, y);
            int c = b->cell[p];
            chtype ch = '.';
            attr_t attr = 0;
            if (c == BLACK) {
                ch = 'X';
                attr = COLOR_PAIR(PAIR_BLACK) | A_BOLD;
            } else if (c == WHITE) {
                ch = 'O';
                attr = COLOR_PAIR(PAIR_WHITE) | A_BOLD;
            } else if (is_proposal(t, p) || (turn->step == STEP_CHOOSE && board == 0 &&
                                             game_is_legal(&t->game,
                                                           &(Action){.type = ACT_CHOOSE, .point = p},
                                                           NULL))) {
                ch = '*';
                attr = COLOR_PAIR(PAIR_MARK) | A_BOLD;
            } else if (marks && forbid_is_forbidden(forbid_check(b, p))) {
                ch = 'x';
                attr = COLOR_PAIR(PAIR_FORBID);
            }
            if (p == last)
                attr |= A_UNDERLINE;
            if (board == t->cboard && x == t->cx && y == t->cy)
                attr |= A_REVERSE;
            attron(attr);
            mvaddch(row, left + 4 + 2 * x, ch);
            attroff(attr);
        }
    }
}

static void draw_panel(Tui *t, int left, const GameTurn *turn)
{
    char status[256], buf[COORD_BUF];
    int row = 1;
    const Board *b = cur_board(t);
    attron(COLOR_PAIR(PAIR_TITLE) | A_BOLD);
    mvprintw(row++, left, "tengen  %s, %s opening, %dx%d%s", variant_rule_name(&t->game.config),
             opening_name(t->game.config.opening), b->size, b->size,
             t->game.config.forbidden == FORBID_MODE_CLAIM ? ", claim mode" : "");
    attroff(COLOR_PAIR(PAIR_TITLE) | A_BOLD);
    row++;
    game_status_text(&t->game, status, sizeof status);
    mvprintw(row++, left, "%.*s", COLS - left - 1, status);
    if (!game_over(&t->game)) {
        mvprintw(row++, left, "player %d (%s, %s): %s", turn->player + 1,
                 turn->color == BLACK ? "black" : "white",
                 t->opt.engine[turn->player] ? "engine" : "you", STEP_TEXT[turn->step]);
        if (turn->claimable != POINT_NONE)
            mvprintw(row++, left, "white may claim black's forbidden move at %s (c)",
                     coord_format(turn->claimable, b->size, buf));
        if (turn->draw_offer >= 0)
            mvprintw(row++, left, "player %d offers a draw (D accepts)", turn->draw_offer + 1);
    }
    mvprintw(row++, left, "cursor %s", coord_format(point_make(t->cx, t->cy), b->size, buf));
    row++;
    if (t->thinking || t->have_info) {
        pthread_mutex_lock(&t->lock);
        SearchInfo in = t->info;
        bool have = t->have_info;
        pthread_mutex_unlock(&t->lock);
        if (t->thinking)
            mvprintw(row++, left, "engine thinking...  (Esc: play now)");
        if (have) {
            mvprintw(row++, left, "depth %d  score %d  nodes %llu  %llu n/s", in.depth,
                     in.line.score, (unsigned long long)in.nodes, (unsigned long long)in.nps);
            move(row++, left);
            printw("pv");
            for (int i = 0; i < in.line.pvlen && i < 12; i++)
                printw(" %s", coord_format(in.line.pv[i], b->size, buf));
        }
    }
    row++;
    static const char *const keys[] = {
        "arrows/hjkl move    Enter place/mark/choose",
        "s swap  n keep  d declare  p propose  c claim",
        "P pass  r resign  D draw  u undo  U redo",
        "? why forbidden  f forbidden marks  g engine go",
        "e engine plays this side  : type actions",
        "w write record  Tab other board  q quit",
    };
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        mvprintw(row++, left, "%s", keys[i]);
    row++;
    if (t->message[0])
        mvprintw(row, left, "%.*s", COLS - left - 1, t->message);
}

static void draw(Tui *t)
{
    GameTurn turn;
    game_turn(&t->game, &turn);
    erase();
    int n = cur_board(t)->size;
    int width = 6 + 2 * n;
    for (int i = 0; i < nboards(t); i++)
        draw_board(t, i, 2, 1 + i * (width + 2), &turn);
    draw_panel(t, 2 + nboards(t) * (width + 2), &turn);
    refresh();
}

/* ---- prompts and pop-ups --------------------------------------------------- */

static bool prompt(Tui *t, const char *question, char *out, size_t len)
{
    (void)t;
    int row = LINES - 1;
    move(row, 0);
    clrtoeol();
    mvprintw(row, 0, "%s", question);
    echo();
    curs_set(1);
    timeout(-1);
    int rc = getnstr(out, (int)len - 1);
    noecho();
    curs_set(0);
    timeout(100);
    return rc == OK;
}

static bool confirm(Tui *t, const char *question)
{
    char ans[8] = "";
    return prompt(t, question, ans, sizeof ans) && (ans[0] == 'y' || ans[0] == 'Y');
}

/* Shows long text one screen at a time. */
static void pager(const char *text)
{
    int top = 0, total = 0;
    for (const char *s = text; *s; s++)
        total += *s == '\n';
    timeout(-1);
    for (;;) {
        erase();
        int line = 0, row = 0;
        const char *s = text;
        while (*s && row < LINES - 1) {
            const char *e = strchr(s, '\n');
            int len = e ? (int)(e - s) : (int)strlen(s);
            if (line >= top)
                mvprintw(row++, 0, "%.*s", len < COLS ? len : COLS - 1, s);
            line++;
            s = e ? e + 1 : s + len;
        }
        attron(A_REVERSE);
        mvprintw(LINES - 1, 0, " lines %d-%d of %d   arrows/space scroll, q back ", top + 1,
                 top + row, total);
        attroff(A_REVERSE);
        refresh();
        int ch = getch();
        if (ch == 'q' || ch == 27 || ch == '\n')
            break;
        if ((ch == KEY_DOWN || ch == 'j') && top + LINES - 1 < total)
            top++;
        else if ((ch == KEY_UP || ch == 'k') && top > 0)
            top--;
        else if (ch == ' ' || ch == KEY_NPAGE)
            top = top + LINES - 2 < total ? top + LINES - 2 : top;
        else if (ch == KEY_PPAGE)
            top = top > LINES - 2 ? top - (LINES - 2) : 0;
    }
    timeout(100);
}

/* ---- actions --------------------------------------------------------------- */

static bool apply(Tui *t, const Action *a)
{
    TgError err;
    if (!game_apply(&t->game, a, &err)) {
        say(t, "%s", err.msg);
        return false;
    }
    t->message[0] = 0;
    return true;
}

static void act_at_cursor(Tui *t)
{
    GameTurn turn;
    game_turn(&t->game, &turn);
    Point p = point_make(t->cx, t->cy);
    char buf[COORD_BUF];
    if (turn.step == STEP_PROPOSE || (turn.step == STEP_FIFTH && is_proposal(t, p))) {
        for (int i = 0; i < t->nprop; i++)
            if (t->prop[i] == p) {
                t->prop[i] = t->prop[--t->nprop];
                return;
            }
        if (t->nprop < GAME_MAX_PROPOSALS && cur_board(t)->cell[p] == EMPTY)
            t->prop[t->nprop++] = p;
        return;
    }
    if (turn.step == STEP_CHOOSE) {
        apply(t, &(Action){.type = ACT_CHOOSE, .point = p});
        return;
    }
    Board *b = (Board *)cur_board(t);
    if (b->cell[p] == EMPTY && b->rule == RULE_RENJU && turn.stone == BLACK &&
        t->game.config.forbidden == FORBID_MODE_AUTO) {
        ForbidKind k = forbid_check(b, p);
        if (forbid_is_forbidden(k)) {
            char q[128];
            snprintf(q, sizeof q, "%s is forbidden (%s): black loses. Play it? (y/n) ",
                     coord_format(p, b->size, buf), forbid_kind_name(k));
            if (!confirm(t, q))
                return;
        }
    }
    apply(t, &(Action){.type = ACT_PLACE, .board = t->cboard, .point = p});
}

static void propose(Tui *t)
{
    Action a = {.type = ACT_PROPOSE, .npoints = t->nprop};
    memcpy(a.points, t->prop, sizeof(Point) * (size_t)t->nprop);
    if (apply(t, &a))
        t->nprop = 0;
}

static void declare(Tui *t)
{
    char in[16];
    int n;
    if (!prompt(t, "number of 5th moves: ", in, sizeof in))
        return;
    if (sscanf(in, "%d", &n) != 1) {
        say(t, "'%s' is not a number", in);
        return;
    }
    apply(t, &(Action){.type = ACT_DECLARE, .n = n});
}

static void explain(Tui *t)
{
    Board *b = (Board *)cur_board(t);
    Point p = point_make(t->cx, t->cy);
    if (b->cell[p] != EMPTY) {
        say(t, "that point is occupied");
        return;
    }
    ForbidTree tree;
    if (!forbid_explain(b, p, &tree)) {
        forbid_tree_free(&tree);
        say(t, "out of memory");
        return;
    }
    char *text = forbid_tree_text(&tree, b->size);
    forbid_tree_free(&tree);
    if (text)
        pager(text);
    free(text);
}

/* Typed actions use the record syntax: "h8", "swap", "propose j9,k10", ... */
static void typed(Tui *t)
{
    char in[200], text[300];
    if (!prompt(t, "actions: ", in, sizeof in) || !in[0])
        return;
    snprintf(text, sizeof text, "size %d\nrule %s\n%s\n", cur_board(t)->size,
             variant_rule_name(&t->game.config), in);
    Record r;
    record_init(&r);
    TgError err;
    if (!record_parse(FORMAT_TGN, text, &r, &err)) {
        say(t, "column %d: %s", err.col, err.msg);
        record_free(&r);
        return;
    }
    for (int i = 0; i < r.count; i++)
        if (!apply(t, &r.actions[i].action))
            break;
    record_free(&r);
}

static void save(Tui *t)
{
    char path[1024];
    if (!prompt(t, "write record to (.tgn .psq .sgf): ", path, sizeof path) || !path[0])
        return;
    RecordFormat f;
    if (!record_format_from_path(path, &f))
        f = FORMAT_TGN;
    Record r;
    record_init(&r);
    r.config = t->game.config;
    r.has = REC_HAS_SIZE | REC_HAS_RULE | REC_HAS_OPENING | REC_HAS_FORBIDDEN;
    for (int i = 0; i < game_history_count(&t->game); i++)
        record_append(&r, game_history(&t->game, i, NULL), 0, 0);
    TgError err;
    char *text = record_write(f, &r, &err);
    record_free(&r);
    if (!text) {
        say(t, "%s", err.msg);
        return;
    }
    if (file_write_atomic(path, text, strlen(text), &err))
        say(t, "wrote %s", path);
    else
        say(t, "%s", err.msg);
    free(text);
}

static void move_cursor(Tui *t, int dx, int dy)
{
    int n = cur_board(t)->size;
    t->cx = (t->cx + dx + n) % n;
    t->cy = (t->cy + dy + n) % n;
}

static void handle_key(Tui *t, int ch)
{
    GameTurn turn;
    game_turn(&t->game, &turn);
    if (t->thinking) {
        if (ch == 27 || ch == 'g') {
            engine_stop(t->engine);
        } else if (ch == 'q') {
            stop_thinking(t);
            t->quit = true;
        } else if (ch == 'u') {
            stop_thinking(t);
            t->paused = true;
            game_undo(&t->game);
        }
        return;
    }
    switch (ch) {
    case KEY_LEFT: case 'h': move_cursor(t, -1, 0); break;
    case KEY_RIGHT: case 'l': move_cursor(t, 1, 0); break;
    case KEY_UP: case 'k': move_cursor(t, 0, -1); break;
    case KEY_DOWN: case 'j': move_cursor(t, 0, 1); break;
    case '\t': t->cboard = (t->cboard + 1) % nboards(t); break;
    case '\n': case ' ': case KEY_ENTER: act_at_cursor(t); break;
    case 's': apply(t, &(Action){.type = ACT_SWAP}); break;
    case 'n': apply(t, &(Action){.type = ACT_NOSWAP}); break;
    case 'd': declare(t); break;
    case 'p': propose(t); break;
    case 'c': apply(t, &(Action){.type = ACT_CLAIM}); break;
    case 'P': apply(t, &(Action){.type = ACT_PASS}); break;
    case 'r':
        if (confirm(t, "resign? (y/n) "))
            apply(t, &(Action){.type = ACT_RESIGN});
        break;
    case 'D': apply(t, &(Action){.type = ACT_DRAW}); break;
    case 'u':
        t->paused = true;
        if (!game_undo(&t->game))
            say(t, "nothing to undo");
        break;
    case 'U':
        if (!game_redo(&t->game))
            say(t, "nothing to redo");
        break;
    case 'f': t->show_forbidden = !t->show_forbidden; break;
    case '?': explain(t); break;
    case 'g':
        t->paused = false;
        if (!t->engine) {
            say(t, "no engine in this session");
        } else if (!t->opt.engine[turn.player]) {
            t->opt.engine[turn.player] = true; /* one move, then back to the person */
            if (engine_may_act(t, &turn))
                start_thinking(t);
            t->opt.engine[turn.player] = false;
        }
        break;
    case 'e':
        t->opt.engine[turn.player] = !t->opt.engine[turn.player];
        t->paused = false;
        say(t, "player %d is now %s", turn.player + 1,
            t->opt.engine[turn.player] ? "the engine" : "you");
        break;
    case ':': typed(t); break;
    case 'w': save(t); break;
    case 'q':
        t->quit = confirm(t, "quit? (y/n) ");
        break;
    default: break;
    }
}

/* ---- set-up ---------------------------------------------------------------- */

static bool load_record(Tui *t, const char *path, TgError *err)
{
    char *text = file_read_text(path, err);
    if (!text)
        return false;
    Record r;
    record_init(&r);
    bool ok = record_parse(record_format_detect(path, text), text, &r, err);
    free(text);
    if (ok) {
        game_free(&t->game);
        ok = game_init(&t->game, &r.config, err);
        for (int i = 0; ok && i < r.count; i++) {
            TgError e2;
            if (!game_apply(&t->game, &r.actions[i].action, &e2)) {
                tg_error_set(err, r.actions[i].line, r.actions[i].col, "%s: action %d: %s", path,
                             i + 1, e2.msg);
                ok = false;
            }
        }
    }
    record_free(&r);
    return ok;
}

bool tui_run(const TuiOptions *o, TgError *err)
{
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
        tg_error_set(err, 0, 0, "the terminal board needs a terminal (stdin and stdout)");
        return false;
    }
    Tui *t = calloc(1, sizeof *t);
    if (!t) {
        tg_error_set(err, 0, 0, "out of memory");
        return false;
    }
    t->opt = *o;
    t->show_forbidden = true;
    pthread_mutex_init(&t->lock, NULL);
    bool ok = game_init(&t->game, &o->config, err);
    if (ok && o->load)
        ok = load_record(t, o->load, err);
    if (ok) {
        EngineOptions eo;
        engine_options_default(&eo);
        if (o->threads > 0)
            eo.threads = o->threads;
        if (o->hash_mb > 0)
            eo.hash_mb = o->hash_mb;
        t->engine = engine_new(&eo, err);
        ok = t->engine != NULL;
    }
    if (!ok) {
        game_free(&t->game);
        free(t);
        return false;
    }
    t->cx = t->cy = cur_board(t)->size / 2;

    setlocale(LC_ALL, "");
    initscr();
    cbreak();
    noecho();
    keypad(stdscr, TRUE);
    curs_set(0);
    timeout(100);
    if (has_colors()) {
        start_color();
        use_default_colors();
        init_pair(PAIR_BLACK, COLOR_YELLOW, -1);
        init_pair(PAIR_WHITE, COLOR_CYAN, -1);
        init_pair(PAIR_FORBID, COLOR_RED, -1);
        init_pair(PAIR_LAST, COLOR_GREEN, -1);
        init_pair(PAIR_MARK, COLOR_MAGENTA, -1);
        init_pair(PAIR_TITLE, COLOR_GREEN, -1);
    }
    while (!t->quit) {
        GameTurn turn;
        game_turn(&t->game, &turn);
        if (t->thinking && atomic_load(&t->done))
            finish_thinking(t, true);
        else if (!t->thinking && !game_over(&t->game) && engine_may_act(t, &turn))
            start_thinking(t);
        draw(t);
        int ch = getch();
        if (ch != ERR)
            handle_key(t, ch);
    }
    stop_thinking(t);
    endwin();
    engine_free(t->engine);
    game_free(&t->game);
    pthread_mutex_destroy(&t->lock);
    free(t);
    return true;
}
