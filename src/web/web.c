/* web.c — the HTTP side of the browser board: CivetWeb set-up, routing, the
 * game table and JSON responses. Rules live in the game module; this file
 * only translates requests. */
#include "tengen/web.h"

#include <civetweb.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tengen/record.h"
#include "tengen/variant.h"
#include "web_internal.h"

#define BODY_MAX (1 << 20)

/* A game of the table with a reference count, so a request can use it while
 * another deletes it: the last user frees it. Guarded by WebServer.lock. */
typedef struct {
    WebGame *game;
    int refs;
    bool removed;
} Slot;

struct WebServer {
    struct mg_context *ctx;
    WebOptions opt;
    char host[128];
    char static_dir[PATH_MAX];
    int port;
    pthread_mutex_t lock;
    Slot *slot[WEB_MAX_GAMES];
    int next_id;
    uint64_t clock;
};

void web_options_default(WebOptions *o)
{
    o->host = "127.0.0.1";
    o->port = 8080;
    o->static_dir = NULL;
    o->engine_threads = 1;
    o->engine_hash_mb = 16;
    o->max_games = WEB_MAX_GAMES;
}

/* --- responses ---------------------------------------------------------- */

static const char *status_text(int status)
{
    switch (status) {
    case 200: return "OK";
    case 201: return "Created";
    case 400: return "Bad Request";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 409: return "Conflict";
    case 413: return "Payload Too Large";
    case 500: return "Internal Server Error";
    case 503: return "Service Unavailable";
    default: return "Error";
    }
}

static void send_body(struct mg_connection *c, int status, const char *type, const char *extra,
                      const char *body, size_t len)
{
    mg_printf(c,
              "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
              "Cache-Control: no-store\r\nConnection: close\r\n%s\r\n",
              status, status_text(status), type, len, extra ? extra : "");
    mg_write(c, body, len);
}

/* Sends j (and takes it over); returns the status for CivetWeb. */
static int send_json(struct mg_connection *c, int status, json_t *j)
{
    char *s = j ? json_dumps(j, JSON_COMPACT) : NULL;
    json_decref(j);
    if (!s) {
        static const char OOM[] = "{\"error\":\"out of memory\"}";
        send_body(c, 500, "application/json", NULL, OOM, sizeof OOM - 1);
        return 500;
    }
    send_body(c, status, "application/json", NULL, s, strlen(s));
    free(s);
    return status;
}

static int send_error(struct mg_connection *c, int status, const char *msg)
{
    json_t *j = json_object();
    json_object_set_new(j, "error", json_string(msg));
    return send_json(c, status, j);
}

/* --- requests ----------------------------------------------------------- */

/* The request body as a NUL-terminated string; NULL when it is too long. */
static char *read_body(struct mg_connection *c, size_t *len)
{
    const struct mg_request_info *ri = mg_get_request_info(c);
    if (ri->content_length > BODY_MAX)
        return NULL;
    size_t cap = ri->content_length > 0 ? (size_t)ri->content_length + 1 : 4096;
    size_t n = 0;
    char *buf = malloc(cap);
    if (!buf)
        return NULL;
    for (;;) {
        if (n + 1 >= cap) {
            if (cap > BODY_MAX) {
                free(buf);
                return NULL;
            }
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                return NULL;
            }
            buf = nb;
            cap *= 2;
        }
        int r = mg_read(c, buf + n, cap - 1 - n);
        if (r <= 0)
            break;
        n += (size_t)r;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* Parses the body as JSON; on failure sends the error and returns NULL. An
 * empty body is an empty object. */
static json_t *body_json(struct mg_connection *c)
{
    size_t len = 0;
    char *s = read_body(c, &len);
    if (!s) {
        send_error(c, 413, "request body too large (at most 1 MB)");
        return NULL;
    }
    if (len == 0) {
        free(s);
        return json_object();
    }
    json_error_t je;
    json_t *j = json_loadb(s, len, 0, &je);
    free(s);
    if (!j) {
        char msg[300];
        snprintf(msg, sizeof msg, "body is not JSON: %s (line %d, column %d)", je.text, je.line,
                 je.column);
        send_error(c, 400, msg);
    }
    return j;
}

static bool query_var(const struct mg_request_info *ri, const char *name, char *buf, size_t len)
{
    if (!ri->query_string)
        return false;
    return mg_get_var(ri->query_string, strlen(ri->query_string), name, buf, len) >= 0;
}

/* --- the game table ----------------------------------------------------- */

static WebGame *table_get(WebServer *s, int id)
{
    WebGame *w = NULL;
    pthread_mutex_lock(&s->lock);
    for (int i = 0; i < s->opt.max_games; i++)
        if (s->slot[i] && !s->slot[i]->removed && s->slot[i]->game->id == id) {
            s->slot[i]->refs++;
            w = s->slot[i]->game;
            w->last_used = ++s->clock;
            break;
        }
    pthread_mutex_unlock(&s->lock);
    return w;
}

static void table_put(WebServer *s, WebGame *w)
{
    WebGame *dead = NULL;
    pthread_mutex_lock(&s->lock);
    for (int i = 0; i < s->opt.max_games; i++)
        if (s->slot[i] && s->slot[i]->game == w) {
            Slot *sl = s->slot[i];
            if (--sl->refs == 0 && sl->removed) {
                dead = sl->game;
                free(sl);
                s->slot[i] = NULL;
            }
            break;
        }
    pthread_mutex_unlock(&s->lock);
    web_game_free(dead);
}

/* Marks a game removed; it is freed by its last user (now, if none). */
static bool table_remove(WebServer *s, int id)
{
    bool found = false;
    WebGame *dead = NULL;
    pthread_mutex_lock(&s->lock);
    for (int i = 0; i < s->opt.max_games; i++) {
        Slot *sl = s->slot[i];
        if (sl && !sl->removed && sl->game->id == id) {
            found = true;
            sl->removed = true;
            if (sl->refs == 0) {
                dead = sl->game;
                free(sl);
                s->slot[i] = NULL;
            }
            break;
        }
    }
    pthread_mutex_unlock(&s->lock);
    web_game_free(dead);
    return found;
}

/* Adds w; when the table is full the least recently used idle game goes. */
static bool table_add(WebServer *s, WebGame *w)
{
    Slot *sl = calloc(1, sizeof *sl);
    if (!sl)
        return false;
    sl->game = w;
    WebGame *dead = NULL;
    int free_i = -1, lru = -1;
    pthread_mutex_lock(&s->lock);
    for (int i = 0; i < s->opt.max_games; i++) {
        if (!s->slot[i]) {
            if (free_i < 0)
                free_i = i;
        } else if (s->slot[i]->refs == 0 &&
                   (lru < 0 || s->slot[i]->game->last_used < s->slot[lru]->game->last_used)) {
            lru = i;
        }
    }
    if (free_i < 0 && lru >= 0) {
        dead = s->slot[lru]->game;
        free(s->slot[lru]);
        s->slot[lru] = NULL;
        free_i = lru;
    }
    if (free_i >= 0) {
        w->last_used = ++s->clock;
        s->slot[free_i] = sl;
    }
    pthread_mutex_unlock(&s->lock);
    web_game_free(dead);
    if (free_i < 0)
        free(sl);
    return free_i >= 0;
}

static int new_id(WebServer *s)
{
    pthread_mutex_lock(&s->lock);
    int id = ++s->next_id;
    pthread_mutex_unlock(&s->lock);
    return id;
}

/* --- handlers ----------------------------------------------------------- */

static int list_games(WebServer *s, struct mg_connection *c)
{
    int ids[WEB_MAX_GAMES], n = 0;
    pthread_mutex_lock(&s->lock);
    for (int i = 0; i < s->opt.max_games; i++)
        if (s->slot[i] && !s->slot[i]->removed)
            ids[n++] = s->slot[i]->game->id;
    pthread_mutex_unlock(&s->lock);
    json_t *arr = json_array();
    for (int i = 0; i < n; i++) {
        WebGame *w = table_get(s, ids[i]);
        if (!w)
            continue;
        char text[320];
        pthread_mutex_lock(&w->lock);
        game_status_text(&w->game, text, sizeof text);
        json_t *o = json_object();
        json_object_set_new(o, "id", json_integer(w->id));
        json_object_set_new(o, "rule", json_string(variant_rule_name(&w->game.config)));
        json_object_set_new(o, "status", json_string(text));
        pthread_mutex_unlock(&w->lock);
        table_put(s, w);
        json_array_append_new(arr, o);
    }
    json_t *o = json_object();
    json_object_set_new(o, "games", arr);
    return send_json(c, 200, o);
}

static int create_game(WebServer *s, struct mg_connection *c)
{
    json_t *cfg = body_json(c);
    if (!cfg)
        return 400;
    TgError err;
    WebGame *w = web_game_new(new_id(s), cfg, &s->opt, &err);
    json_decref(cfg);
    if (!w)
        return send_error(c, 400, err.msg);
    int id = w->id;
    if (!table_add(s, w)) {
        web_game_free(w);
        return send_error(c, 503, "too many games in use; delete one first");
    }
    w = table_get(s, id);
    if (!w)
        return send_error(c, 404, "the new game was removed at once");
    pthread_mutex_lock(&w->lock);
    web_engine_kick(w);
    json_t *state = web_game_state(w);
    pthread_mutex_unlock(&w->lock);
    table_put(s, w);
    return send_json(c, 201, state);
}

static json_t *meta_json(void)
{
    json_t *o = json_object();
    static const char *const RULES[] = {"renju", "freestyle", "standard", "caro", "dualboard"};
    json_t *a = json_array();
    for (size_t i = 0; i < sizeof RULES / sizeof RULES[0]; i++)
        json_array_append_new(a, json_string(RULES[i]));
    json_object_set_new(o, "rules", a);
    a = json_array();
    for (int i = 0; i < OPENING_COUNT; i++)
        json_array_append_new(a, json_string(opening_name((Opening)i)));
    json_object_set_new(o, "openings", a);
    a = json_array();
    json_array_append_new(a, json_string(forbid_mode_name(FORBID_MODE_AUTO)));
    json_array_append_new(a, json_string(forbid_mode_name(FORBID_MODE_CLAIM)));
    json_object_set_new(o, "forbidden", a);
    a = json_array();
    for (int i = 0; i < 26; i++)
        json_array_append_new(a, json_string(record_designated_name(i)));
    json_object_set_new(o, "designated", a);
    json_object_set_new(o, "size_min", json_integer(BOARD_MIN_SIZE));
    json_object_set_new(o, "size_max", json_integer(BOARD_MAX_SIZE));
    json_object_set_new(o, "engine_ms_min", json_integer(WEB_ENGINE_MS_MIN));
    json_object_set_new(o, "engine_ms_max", json_integer(WEB_ENGINE_MS_MAX));
    return o;
}

static int send_record(struct mg_connection *c, WebGame *w, const char *format)
{
    TgError err;
    char *text = web_game_record(w, format, &err);
    if (!text)
        return send_error(c, 400, err.msg);
    char extra[160];
    snprintf(extra, sizeof extra, "Content-Disposition: attachment; filename=\"tengen-%d.%s\"\r\n",
             w->id, format ? format : "tgn");
    send_body(c, 200, "text/plain; charset=utf-8", extra, text, strlen(text));
    free(text);
    return 200;
}

/* Requests on one game: sub is "" or the part after /api/games/{id}/. Runs
 * with the game's lock held. */
static int game_request(struct mg_connection *c, WebGame *w, const char *method, const char *sub)
{
    const struct mg_request_info *ri = mg_get_request_info(c);
    bool get = !strcmp(method, "GET"), post = !strcmp(method, "POST");
    TgError err;
    if (!*sub) {
        if (!get)
            return send_error(c, 405, "use GET (or DELETE) on a game");
        return send_json(c, 200, web_game_state(w));
    }
    if (!strcmp(sub, "explain")) {
        if (!get)
            return send_error(c, 405, "use GET on explain");
        char point[32], board[8];
        bool hp = query_var(ri, "point", point, sizeof point);
        bool hb = query_var(ri, "board", board, sizeof board);
        json_t *j = web_game_explain(w, hp ? point : NULL, hb ? board : NULL, &err);
        return j ? send_json(c, 200, j) : send_error(c, 400, err.msg);
    }
    if (!strcmp(sub, "record") && get) {
        char fmt[16];
        return send_record(c, w, query_var(ri, "format", fmt, sizeof fmt) ? fmt : NULL);
    }
    if (!post)
        return send_error(c, 405, "use POST here");
    bool known = !strcmp(sub, "actions") || !strcmp(sub, "undo") || !strcmp(sub, "redo") ||
                 !strcmp(sub, "players") || !strcmp(sub, "record");
    if (!known) {
        char msg[160];
        snprintf(msg, sizeof msg, "no such request '%.60s' on a game", sub);
        return send_error(c, 404, msg);
    }
    json_t *body = body_json(c);
    if (!body)
        return 400;
    int status = 0;
    if (!strcmp(sub, "actions"))
        status = web_game_act(w, body, &err);
    else if (!strcmp(sub, "undo"))
        status = web_game_undo(w, &err) ? 0 : 409;
    else if (!strcmp(sub, "redo"))
        status = web_game_redo(w, &err) ? 0 : 409;
    else if (!strcmp(sub, "players"))
        status = web_game_set_players(w, body, &err) ? 0 : 400;
    else
        status = web_game_load(w, body, &err) ? 0 : 400;
    json_decref(body);
    if (status)
        return send_error(c, status, err.msg);
    return send_json(c, 200, web_game_state(w));
}

/* Parses "{id}" or "{id}/sub" after /api/games/. */
static bool parse_game_path(const char *p, int *id, const char **sub)
{
    char *end;
    long v = strtol(p, &end, 10);
    if (end == p || v <= 0 || v > INT_MAX || (*end && *end != '/'))
        return false;
    *id = (int)v;
    *sub = *end ? end + 1 : end;
    return true;
}

static int api_handler(struct mg_connection *c, void *cbdata)
{
    WebServer *s = cbdata;
    const struct mg_request_info *ri = mg_get_request_info(c);
    const char *uri = ri->local_uri ? ri->local_uri : "";
    const char *method = ri->request_method;
    if (!strcmp(uri, "/api/meta")) {
        if (strcmp(method, "GET"))
            return send_error(c, 405, "use GET on /api/meta");
        return send_json(c, 200, meta_json());
    }
    if (!strcmp(uri, "/api/games") || !strcmp(uri, "/api/games/")) {
        if (!strcmp(method, "GET"))
            return list_games(s, c);
        if (!strcmp(method, "POST"))
            return create_game(s, c);
        return send_error(c, 405, "use GET or POST on /api/games");
    }
    int id;
    const char *sub;
    if (strncmp(uri, "/api/games/", 11) || !parse_game_path(uri + 11, &id, &sub)) {
        char msg[200];
        snprintf(msg, sizeof msg, "no such API path '%.120s'", uri);
        return send_error(c, 404, msg);
    }
    if (!*sub && !strcmp(method, "DELETE")) {
        if (!table_remove(s, id))
            return send_error(c, 404, "no such game");
        json_t *o = json_object();
        json_object_set_new(o, "deleted", json_integer(id));
        return send_json(c, 200, o);
    }
    WebGame *w = table_get(s, id);
    if (!w) {
        char msg[80];
        snprintf(msg, sizeof msg, "no game with id %d", id);
        return send_error(c, 404, msg);
    }
    pthread_mutex_lock(&w->lock);
    int status = game_request(c, w, method, sub);
    pthread_mutex_unlock(&w->lock);
    table_put(s, w);
    return status;
}

static int quiet_log(const struct mg_connection *c, const char *message)
{
    (void)c;
    (void)message;
    return 1; /* the library prints nothing; errors come back from start */
}

WebServer *web_server_start(const WebOptions *o, TgError *err)
{
    WebOptions def;
    web_options_default(&def);
    if (!o)
        o = &def;
    if (o->port < 0 || o->port > 65535) {
        tg_error_set(err, 0, 0, "port %d is out of range (0..65535)", o->port);
        return NULL;
    }
    if (o->max_games < 1 || o->max_games > WEB_MAX_GAMES) {
        tg_error_set(err, 0, 0, "max_games must be 1..%d", WEB_MAX_GAMES);
        return NULL;
    }
    WebServer *s = calloc(1, sizeof *s);
    if (!s) {
        tg_error_set(err, 0, 0, "out of memory");
        return NULL;
    }
    s->opt = *o;
    const char *host = o->host ? o->host : "127.0.0.1";
    snprintf(s->host, sizeof s->host, "%s", host);
    if (o->static_dir)
        snprintf(s->static_dir, sizeof s->static_dir, "%s", o->static_dir);
    s->opt.host = s->host;
    s->opt.static_dir = o->static_dir ? s->static_dir : NULL;
    pthread_mutex_init(&s->lock, NULL);

    char ports[200];
    if (strchr(host, ':'))
        snprintf(ports, sizeof ports, "[%s]:%d", host, o->port);
    else
        snprintf(ports, sizeof ports, "%s:%d", host, o->port);
    const char *opts[16];
    int n = 0;
    opts[n++] = "listening_ports";
    opts[n++] = ports;
    opts[n++] = "num_threads";
    opts[n++] = "8";
    opts[n++] = "enable_directory_listing";
    opts[n++] = "no";
    opts[n++] = "request_timeout_ms";
    opts[n++] = "15000";
    if (s->opt.static_dir) {
        opts[n++] = "document_root";
        opts[n++] = s->static_dir;
        opts[n++] = "static_file_max_age";
        opts[n++] = "0";
    }
    opts[n] = NULL;

    struct mg_callbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.log_message = quiet_log;
    char etext[256] = "";
    unsigned ecode = 0;
    struct mg_error_data ed = {.code = &ecode, .text = etext, .text_buffer_size = sizeof etext};
    struct mg_init_data init = {.callbacks = &cb, .user_data = s, .configuration_options = opts};
    s->ctx = mg_start2(&init, &ed);
    if (!s->ctx) {
        tg_error_set(err, 0, 0, "cannot serve on %s: %s", ports, etext[0] ? etext : "start failed");
        pthread_mutex_destroy(&s->lock);
        free(s);
        return NULL;
    }
    struct mg_server_port sp[4];
    int np = mg_get_server_ports(s->ctx, 4, sp);
    s->port = np > 0 ? sp[0].port : o->port;
    mg_set_request_handler(s->ctx, "/api", api_handler, s);
    return s;
}

int web_server_port(const WebServer *s)
{
    return s->port;
}

void web_server_stop(WebServer *s)
{
    if (!s)
        return;
    mg_stop(s->ctx); /* waits for the handlers in flight */
    for (int i = 0; i < WEB_MAX_GAMES; i++)
        if (s->slot[i]) {
            web_game_free(s->slot[i]->game);
            free(s->slot[i]);
        }
    pthread_mutex_destroy(&s->lock);
    free(s);
}
