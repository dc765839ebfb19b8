/* test_web.c — the web API in-process: a server on port 0 and plain HTTP
 * requests over a socket. */
#include <arpa/inet.h>
#include <jansson.h>
#include <netinet/in.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "tengen/coord.h"
#include "tengen/forbid.h"
#include "tengen/record.h"
#include "tengen/web.h"

typedef struct {
    int status;
    char *body; /* malloc'd */
    json_t *json; /* NULL when the body is not JSON */
} Reply;

static int g_port;

static void reply_free(Reply *r)
{
    free(r->body);
    json_decref(r->json);
    memset(r, 0, sizeof *r);
}

static Reply request(const char *method, const char *path, const char *body)
{
    Reply r = {0};
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    assert_true(fd >= 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)g_port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
    size_t blen = body ? strlen(body) : 0;
    char head[512];
    int hl = snprintf(head, sizeof head,
                      "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                      "Content-Length: %zu\r\nConnection: close\r\n\r\n",
                      method, path, blen);
    assert_int_equal(write(fd, head, (size_t)hl), hl);
    if (blen)
        assert_int_equal(write(fd, body, blen), (ssize_t)blen);
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (n + 1 >= cap)
            buf = realloc(buf, cap *= 2);
        ssize_t k = read(fd, buf + n, cap - 1 - n);
        if (k <= 0)
            break;
        n += (size_t)k;
    }
    buf[n] = '\0';
    close(fd);
    assert_true(sscanf(buf, "HTTP/1.1 %d", &r.status) == 1);
    char *sep = strstr(buf, "\r\n\r\n");
    assert_non_null(sep);
    r.body = strdup(sep + 4);
    free(buf);
    r.json = json_loads(r.body, 0, NULL);
    return r;
}

static Reply post(const char *path, const char *body)
{
    return request("POST", path, body);
}

static Reply get(const char *path)
{
    return request("GET", path, NULL);
}

static const char *error_of(const Reply *r)
{
    const char *e = json_string_value(json_object_get(r->json, "error"));
    return e ? e : "";
}

static int new_game(const char *config)
{
    Reply r = post("/api/games", config);
    assert_int_equal(r.status, 201);
    int id = (int)json_integer_value(json_object_get(r.json, "id"));
    assert_true(id > 0);
    reply_free(&r);
    return id;
}

static void act(int id, const char *token, int want_status)
{
    char path[64], body[128];
    snprintf(path, sizeof path, "/api/games/%d/actions", id);
    snprintf(body, sizeof body, "{\"action\": \"%s\"}", token);
    Reply r = post(path, body);
    if (r.status != want_status)
        fail_msg("action %s: status %d, body %s", token, r.status, r.body);
    reply_free(&r);
}

static json_t *state(int id)
{
    char path[64];
    snprintf(path, sizeof path, "/api/games/%d", id);
    Reply r = get(path);
    assert_int_equal(r.status, 200);
    json_t *j = json_incref(r.json);
    reply_free(&r);
    return j;
}

static size_t stone_count(json_t *st, int board)
{
    return json_array_size(json_object_get(json_array_get(json_object_get(st, "boards"), (size_t)board), "stones"));
}

static const char *step_of(json_t *st)
{
    return json_string_value(json_object_get(json_object_get(st, "turn"), "step"));
}

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Polls until pred holds or ~30 s pass; returns the last state (caller frees). */
static json_t *wait_for(int id, bool (*pred)(json_t *st, void *arg), void *arg)
{
    for (int i = 0; i < 600; i++) {
        json_t *st = state(id);
        if (pred(st, arg))
            return st;
        json_decref(st);
        sleep_ms(50);
    }
    fail_msg("game %d: condition not reached in time", id);
    return NULL;
}

static const char *const DOUBLE_THREE[] = {"f8", "a1", "g8", "a3", "h6", "a5", "h7", "a7"};

/* ---- tests ---------------------------------------------------------------- */

static void test_port_and_errors(void **s)
{
    (void)s;
    assert_true(g_port > 0);
    Reply r = get("/api/nothing");
    assert_int_equal(r.status, 404);
    assert_non_null(strstr(error_of(&r), "/api/nothing"));
    reply_free(&r);

    r = get("/api/games/999999");
    assert_int_equal(r.status, 404);
    assert_non_null(strstr(error_of(&r), "999999"));
    reply_free(&r);

    r = post("/api/games", "{\"rule\": ");
    assert_int_equal(r.status, 400);
    assert_non_null(strstr(error_of(&r), "not JSON"));
    reply_free(&r);

    r = post("/api/games", "{\"rule\": \"chess\"}");
    assert_int_equal(r.status, 400);
    assert_non_null(strstr(error_of(&r), "'rule'"));
    reply_free(&r);

    r = post("/api/games", "{\"size\": 4}");
    assert_int_equal(r.status, 400);
    assert_non_null(strstr(error_of(&r), "'size'"));
    reply_free(&r);

    r = post("/api/games", "{\"colour\": \"black\"}");
    assert_int_equal(r.status, 400);
    assert_non_null(strstr(error_of(&r), "'colour'"));
    reply_free(&r);

    r = post("/api/games", "{\"white\": \"robot\"}");
    assert_int_equal(r.status, 400);
    assert_non_null(strstr(error_of(&r), "'white'"));
    reply_free(&r);

    r = request("PUT", "/api/games", "{}");
    assert_int_equal(r.status, 405);
    reply_free(&r);
}

static void test_meta(void **s)
{
    (void)s;
    Reply r = get("/api/meta");
    assert_int_equal(r.status, 200);
    assert_int_equal(json_array_size(json_object_get(r.json, "openings")), OPENING_COUNT);
    assert_int_equal(json_array_size(json_object_get(r.json, "designated")), 26);
    reply_free(&r);
}

/* The forbidden points the API reports agree with forbid_check on the same stones. */
static void test_forbidden_points(void **s)
{
    (void)s;
    int id = new_game("{\"rule\": \"renju\", \"opening\": \"free\"}");
    Board b;
    board_init(&b, 15, RULE_RENJU);
    for (int i = 0; i < 8; i++) {
        act(id, DOUBLE_THREE[i], 200);
        Point p;
        assert_true(coord_parse(DOUBLE_THREE[i], 15, &p, NULL));
        board_play(&b, p, i % 2 ? WHITE : BLACK);
    }
    Point pts[BOARD_MAX_MOVES];
    ForbidKind kinds[BOARD_MAX_MOVES];
    int n = forbid_list(&b, pts, kinds);
    assert_true(n >= 1);

    json_t *st = state(id);
    json_t *forb = json_object_get(st, "forbidden");
    assert_int_equal(json_array_size(forb), (size_t)n);
    for (int i = 0; i < n; i++) {
        char buf[COORD_BUF];
        json_t *f = json_array_get(forb, (size_t)i);
        assert_string_equal(json_string_value(json_object_get(f, "point")), coord_format(pts[i], 15, buf));
        assert_string_equal(json_string_value(json_object_get(f, "kind")), forbid_kind_name(kinds[i]));
    }
    assert_int_equal(stone_count(st, 0), 8);
    json_t *stones = json_object_get(json_array_get(json_object_get(st, "boards"), 0), "stones");
    assert_int_equal(json_integer_value(json_object_get(json_array_get(stones, 2), "move")), 3);
    assert_string_equal(json_string_value(json_object_get(json_array_get(stones, 2), "color")), "black");
    json_decref(st);

    char path[96];
    snprintf(path, sizeof path, "/api/games/%d/explain?point=h8", id);
    Reply r = get(path);
    assert_int_equal(r.status, 200);
    assert_string_equal(json_string_value(json_object_get(r.json, "kind")), "double-three");
    assert_true(json_is_true(json_object_get(r.json, "forbidden")));
    assert_non_null(strstr(json_string_value(json_object_get(r.json, "text")), "h8"));
    assert_true(json_is_object(json_object_get(r.json, "tree")) || json_is_array(json_object_get(r.json, "tree")));
    reply_free(&r);

    snprintf(path, sizeof path, "/api/games/%d/explain?point=z99", id);
    r = get(path);
    assert_int_equal(r.status, 400);
    assert_non_null(strstr(error_of(&r), "z99"));
    reply_free(&r);

    snprintf(path, sizeof path, "/api/games/%d/explain?point=f8", id);
    r = get(path);
    assert_int_equal(r.status, 400);
    assert_non_null(strstr(error_of(&r), "occupied"));
    reply_free(&r);

    /* Black plays the forbidden point: in auto mode white wins. */
    act(id, "h8", 200);
    st = state(id);
    json_t *res = json_object_get(st, "result");
    assert_string_equal(json_string_value(json_object_get(res, "result")), "white");
    assert_string_equal(json_string_value(json_object_get(res, "reason")), "forbidden");
    assert_string_equal(step_of(st), "over");
    json_decref(st);
    act(id, "i9", 409);
}

static void test_actions_and_undo(void **s)
{
    (void)s;
    int id = new_game("{\"rule\": \"freestyle\", \"opening\": \"free\", \"size\": 9}");
    act(id, "zz", 400);
    act(id, "j10", 400); /* off the 9x9 board */
    act(id, "e5", 200);
    act(id, "e5", 409); /* occupied */
    act(id, "2:e6", 400); /* a board prefix outside the dual-board variant */

    char path[64];
    snprintf(path, sizeof path, "/api/games/%d/actions", id);
    Reply r = post(path, "{\"type\": \"place\", \"point\": \"d4\"}");
    assert_int_equal(r.status, 200);
    reply_free(&r);
    r = post(path, "{\"type\": \"teleport\"}");
    assert_int_equal(r.status, 400);
    assert_non_null(strstr(error_of(&r), "teleport"));
    reply_free(&r);
    r = post(path, "{\"type\": \"place\"}");
    assert_int_equal(r.status, 400);
    assert_non_null(strstr(error_of(&r), "'point'"));
    reply_free(&r);
    r = post(path, "[1, 2]");
    assert_int_equal(r.status, 400);
    reply_free(&r);

    json_t *st = state(id);
    assert_int_equal(stone_count(st, 0), 2);
    json_int_t v = json_integer_value(json_object_get(st, "version"));
    json_decref(st);

    snprintf(path, sizeof path, "/api/games/%d/undo", id);
    r = post(path, NULL);
    assert_int_equal(r.status, 200);
    assert_int_equal(stone_count(r.json, 0), 1);
    assert_true(json_integer_value(json_object_get(r.json, "version")) > v);
    assert_int_equal(json_integer_value(json_object_get(r.json, "redo")), 1);
    reply_free(&r);
    snprintf(path, sizeof path, "/api/games/%d/redo", id);
    r = post(path, NULL);
    assert_int_equal(r.status, 200);
    assert_int_equal(stone_count(r.json, 0), 2);
    reply_free(&r);
    r = post(path, NULL);
    assert_int_equal(r.status, 409);
    assert_non_null(strstr(error_of(&r), "redo"));
    reply_free(&r);
}

static void test_records(void **s)
{
    (void)s;
    int id = new_game("{\"rule\": \"renju\", \"opening\": \"free\"}");
    for (int i = 0; i < 4; i++)
        act(id, DOUBLE_THREE[i], 200);
    char path[96];
    snprintf(path, sizeof path, "/api/games/%d/record?format=tgn", id);
    Reply r = get(path);
    assert_int_equal(r.status, 200);
    Record rec;
    TgError err;
    assert_true(record_parse(FORMAT_TGN, r.body, &rec, &err));
    assert_int_equal(rec.count, 4);
    assert_int_equal(rec.config.rule, RULE_RENJU);
    assert_int_equal(rec.config.opening, OPENING_FREE);
    Point p;
    assert_true(coord_parse("g8", 15, &p, NULL));
    assert_int_equal(rec.actions[2].action.point, p);
    record_free(&rec);

    /* The text loads into another game and gives the same stones. */
    int id2 = new_game("{}");
    json_t *body = json_pack("{s:s}", "text", r.body);
    char *bs = json_dumps(body, 0);
    snprintf(path, sizeof path, "/api/games/%d/record", id2);
    Reply r2 = post(path, bs);
    assert_int_equal(r2.status, 200);
    assert_int_equal(stone_count(r2.json, 0), 4);
    reply_free(&r2);
    free(bs);
    json_decref(body);
    reply_free(&r);

    snprintf(path, sizeof path, "/api/games/%d/record?format=sgf", id);
    r = get(path);
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.body, "GM[4]"));
    reply_free(&r);
    snprintf(path, sizeof path, "/api/games/%d/record?format=doc", id);
    r = get(path);
    assert_int_equal(r.status, 400);
    assert_non_null(strstr(error_of(&r), "format"));
    reply_free(&r);

    /* A file name without a known extension: the text says what it is. */
    int id3 = new_game("{}");
    snprintf(path, sizeof path, "/api/games/%d/record", id3);
    r = post(path, "{\"text\": \"Piskvorky 15x15, 11:11, 0\\n8,8,0\\n9,8,0\\n8,9,0\\n\", "
                   "\"filename\": \"download\"}");
    assert_int_equal(r.status, 200);
    assert_int_equal(stone_count(r.json, 0), 3);
    reply_free(&r);

    /* An illegal record names the action and where it is. */
    snprintf(path, sizeof path, "/api/games/%d/record", id2);
    r = post(path, "{\"text\": \"opening free\\nh8 h8\"}");
    assert_int_equal(r.status, 400);
    assert_non_null(strstr(error_of(&r), "action 2 'h8'"));
    reply_free(&r);
    r = post(path, "{\"text\": \"opening free\\nh8 q99\"}");
    assert_int_equal(r.status, 400);
    assert_non_null(strstr(error_of(&r), "q99"));
    reply_free(&r);
    /* The failed loads left the game as it was. */
    json_t *st = state(id2);
    assert_int_equal(stone_count(st, 0), 4);
    json_decref(st);
}

static bool has_stones(json_t *st, void *arg)
{
    return stone_count(st, 0) >= (size_t)(intptr_t)arg &&
           !json_is_true(json_object_get(json_object_get(st, "engine"), "thinking"));
}

static void test_engine_answers(void **s)
{
    (void)s;
    int id = new_game("{\"rule\": \"renju\", \"opening\": \"free\", \"white\": \"engine\", \"engine_ms\": 100}");
    act(id, "h8", 200);
    json_t *st = wait_for(id, has_stones, (void *)(intptr_t)2);
    json_t *stones = json_object_get(json_array_get(json_object_get(st, "boards"), 0), "stones");
    assert_string_equal(json_string_value(json_object_get(json_array_get(stones, 1), "color")), "white");
    json_t *info = json_object_get(json_object_get(st, "engine"), "info");
    assert_true(json_integer_value(json_object_get(info, "depth")) >= 1);
    assert_true(json_array_size(json_object_get(info, "pv")) >= 1);
    assert_true(json_is_true(json_object_get(json_object_get(st, "turn"), "human")));
    json_decref(st);

    /* Humans cannot act for the engine's side. */
    char path[64];
    snprintf(path, sizeof path, "/api/games/%d/actions", id);
    Reply r = post(path, "{\"action\": \"resign\", \"player\": 1}");
    assert_int_equal(r.status, 409);
    assert_non_null(strstr(error_of(&r), "engine"));
    reply_free(&r);

    /* Undo goes back to the human's move: both stones leave. */
    snprintf(path, sizeof path, "/api/games/%d/undo", id);
    r = post(path, NULL);
    assert_int_equal(r.status, 200);
    assert_int_equal(stone_count(r.json, 0), 0);
    reply_free(&r);

    /* The human resigns while the engine thinks: the game ends, the search stops. */
    int id2 = new_game("{\"opening\": \"free\", \"white\": \"engine\", \"engine_ms\": 20000}");
    act(id2, "h8", 200);
    snprintf(path, sizeof path, "/api/games/%d/actions", id2);
    r = post(path, "{\"action\": \"resign\", \"player\": 0}");
    assert_int_equal(r.status, 200);
    json_t *res = json_object_get(r.json, "result");
    assert_string_equal(json_string_value(json_object_get(res, "result")), "white");
    assert_string_equal(json_string_value(json_object_get(res, "reason")), "resign");
    reply_free(&r);
    st = wait_for(id2, has_stones, (void *)(intptr_t)1);
    assert_int_equal(stone_count(st, 0), 1);
    json_decref(st);
}

static bool in_play(json_t *st, void *arg)
{
    (void)arg;
    const char *step = step_of(st);
    json_t *err = json_object_get(json_object_get(st, "engine"), "error");
    if (json_is_string(err))
        fail_msg("engine error: %s", json_string_value(err));
    return !strcmp(step, "play") || !strcmp(step, "over");
}

/* Two engines through the RIF opening: swaps, the 5th-move proposals and the
 * choice are all made, and the games run side by side. */
static void test_engine_opening(void **s)
{
    (void)s;
    const char *cfg = "{\"rule\": \"renju\", \"opening\": \"rif\", \"black\": \"engine\", "
                      "\"white\": \"engine\", \"engine_ms\": 60}";
    int a = new_game(cfg);
    int b = new_game("{\"rule\": \"renju\", \"opening\": \"swap2\", \"black\": \"engine\", "
                     "\"white\": \"engine\", \"engine_ms\": 60}");
    json_t *st = wait_for(a, in_play, NULL);
    assert_true(stone_count(st, 0) >= 5);
    json_decref(st);
    st = wait_for(b, in_play, NULL);
    assert_true(stone_count(st, 0) >= 3); /* taking black at once leaves 3 stones */
    assert_true(json_array_size(json_object_get(st, "history")) >= 4);
    json_decref(st);

    /* Deleting a game while its engine thinks is clean. */
    char path[64];
    snprintf(path, sizeof path, "/api/games/%d", a);
    Reply r = request("DELETE", path, NULL);
    assert_int_equal(r.status, 200);
    reply_free(&r);
    r = get(path);
    assert_int_equal(r.status, 404);
    reply_free(&r);
}

static bool human_after_stones(json_t *st, void *arg)
{
    json_t *err = json_object_get(json_object_get(st, "engine"), "error");
    if (json_is_string(err))
        fail_msg("engine error: %s", json_string_value(err));
    return stone_count(st, 0) + stone_count(st, 1) >= (size_t)(intptr_t)arg &&
           json_is_true(json_object_get(json_object_get(st, "turn"), "human"));
}

/* The dual-board variant with the engine: it answers a human's stone with a
 * whole turn (two stones, on either board), and a game made dual-board by a
 * record, or turned over to the engine, goes on. */
static void test_engine_dualboard(void **s)
{
    (void)s;
    int id = new_game("{\"rule\": \"dualboard\", \"white\": \"engine\", \"engine_ms\": 60}");
    act(id, "1:h8", 200);
    json_t *st = wait_for(id, human_after_stones, (void *)(intptr_t)3);
    assert_int_equal(stone_count(st, 0) + stone_count(st, 1), 3);
    assert_string_equal(json_string_value(json_object_get(json_object_get(st, "turn"), "color")), "black");
    json_t *info = json_object_get(json_object_get(st, "engine"), "info");
    assert_int_equal(json_integer_value(json_object_get(info, "depth")), 2);
    assert_true(json_array_size(json_object_get(info, "pv")) >= 1);
    json_decref(st);
    act(id, "2:a15", 200);
    act(id, "2:b15", 200);
    st = wait_for(id, human_after_stones, (void *)(intptr_t)7);
    assert_int_equal(stone_count(st, 0) + stone_count(st, 1), 7);
    json_decref(st);

    /* A dual-board record loaded into a game with an engine side. */
    int id2 = new_game("{\"black\": \"engine\", \"white\": \"human\", \"engine_ms\": 60}");
    char path[64];
    snprintf(path, sizeof path, "/api/games/%d/record", id2);
    Reply r = post(path, "{\"text\": \"rule dualboard\\n1:h8 2:h8 2:g7\"}");
    assert_int_equal(r.status, 200);
    reply_free(&r);
    st = wait_for(id2, human_after_stones, (void *)(intptr_t)5);
    assert_int_equal(stone_count(st, 0) + stone_count(st, 1), 5);
    json_decref(st);
}

int main(void)
{
    WebOptions o;
    web_options_default(&o);
    o.port = 0;
    o.engine_hash_mb = 4;
    TgError err;
    WebServer *srv = web_server_start(&o, &err);
    if (!srv) {
        fprintf(stderr, "cannot start the server: %s\n", err.msg);
        return 1;
    }
    g_port = web_server_port(srv);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_port_and_errors), cmocka_unit_test(test_meta),
        cmocka_unit_test(test_forbidden_points), cmocka_unit_test(test_actions_and_undo),
        cmocka_unit_test(test_records),          cmocka_unit_test(test_engine_answers),
        cmocka_unit_test(test_engine_opening),   cmocka_unit_test(test_engine_dualboard),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    web_server_stop(srv);
    return rc;
}
