#include "solver_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tengen/coord.h"
#include "tengen/forbid.h"
#include "tengen/rules.h"

int check_five_points(const Board *b, Color c, Point *out)
{
    int n = 0;
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            Point p = point_make(x, y);
            if (b->cell[p] == EMPTY && rules_is_win(b, p, c, NULL, NULL))
                out[n++] = p;
        }
    return n;
}

static bool legal(Board *b, Point p, Color c)
{
    return b->cell[p] == EMPTY && board_on(b, p) &&
           !(b->rule == RULE_RENJU && c == BLACK && forbid_is_forbidden(forbid_check(b, p)));
}

/* Legal moves of `mover` after which `c` has none of its five points left. */
static int stops(Board *b, Color c, Color mover, Point *out)
{
    int n = 0;
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            Point p = point_make(x, y);
            if (!legal(b, p, mover))
                continue;
            board_play(b, p, mover);
            Point f[BOARD_MAX_MOVES];
            if (check_five_points(b, c, f) == 0)
                out[n++] = p;
            board_undo(b);
        }
    return n;
}

static bool fail(char *why, size_t n, const Board *b, int ply, const char *msg)
{
    char buf[COORD_BUF];
    Point p = ply < b->count ? b->history[b->count - 1] : POINT_NONE;
    snprintf(why, n, "ply %d%s%s: %s", ply + 1, p != POINT_NONE ? " after " : "",
             p != POINT_NONE ? coord_format(p, b->size, buf) : "", msg);
    return false;
}

static bool check(Board *b, Color att, bool vcf, const SolverResult *r, char *why, size_t n)
{
    Color def = color_other(att);
    Point f[BOARD_MAX_MOVES], s[BOARD_MAX_MOVES];
    if (r->status != SOLVE_WIN || r->len < 1)
        return fail(why, n, b, 0, "no winning line");
    for (int i = 0; i < r->len; i++) {
        Point m = r->line[i];
        bool attacker = i % 2 == 0;
        Color c = attacker ? att : def;
        if (!board_on(b, m) || !legal(b, m, c))
            return fail(why, n, b, i, "move not legal");
        if (!attacker) {
            if (check_five_points(b, def, f) > 0)
                return fail(why, n, b, i, "the defender had a five of his own");
            int nf = check_five_points(b, att, f);
            if (nf == 0 && vcf)
                return fail(why, n, b, i, "VCF: the defender was not under a four");
            if (nf > 0) {
                int ns = stops(b, att, def, s);
                bool found = false;
                for (int k = 0; k < ns; k++)
                    found |= s[k] == m;
                if (ns > 0 && !found)
                    return fail(why, n, b, i, "the defender's move does not stop the four");
                if (ns > 1 && b->rule != RULE_CARO)
                    return fail(why, n, b, i, "the four had more than one stop");
            }
        }
        board_play(b, m, c);
        if (attacker && rules_is_win(b, m, att, NULL, NULL))
            return i == r->len - 1 && r->forbidden == POINT_NONE
                       ? true
                       : fail(why, n, b, i, "a five before the end of the line");
        if (attacker) {
            /* Whatever the attacker plays, the defender must not be left with a five. */
            if (check_five_points(b, def, f) > 0)
                return fail(why, n, b, i, "the attacker left the defender a five");
            if (vcf && check_five_points(b, att, f) == 0)
                return fail(why, n, b, i, "VCF: the attacker's move is not a four");
        }
    }
    if (r->forbidden == POINT_NONE)
        return fail(why, n, b, r->len - 1, "the line does not end in a five");
    if (r->len % 2 == 0 || b->rule != RULE_RENJU || att != WHITE)
        return fail(why, n, b, r->len - 1, "a forbidden-block ending needs white to attack in renju");
    int nf = check_five_points(b, att, f);
    if (nf != 1 || f[0] != r->forbidden)
        return fail(why, n, b, r->len - 1, "the forbidden point is not white's only five point");
    if (check_five_points(b, def, s) > 0)
        return fail(why, n, b, r->len - 1, "black has a five of his own");
    if (!forbid_is_forbidden(forbid_check(b, r->forbidden)))
        return fail(why, n, b, r->len - 1, "the block is not forbidden for black");
    return true;
}

bool solver_check_line(Board *b, Color att, bool vcf, const SolverResult *r, char *why, size_t n)
{
    int count = b->count;
    bool ok = check(b, att, vcf, r, why, n);
    while (b->count > count)
        board_undo(b);
    return ok;
}

static bool parse_list(Board *b, char *list, Color c, char *why, size_t n)
{
    char *save = NULL;
    for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        Point p;
        TgError err;
        if (!coord_parse(t, b->size, &p, &err) || b->cell[p] != EMPTY) {
            snprintf(why, n, "bad point '%s'", t);
            return false;
        }
        board_play(b, p, c);
    }
    return true;
}

bool puzzle_parse(const char *line, Puzzle *pz, char *why, size_t n)
{
    char rule[16] = "", side[8] = "", mode[8] = "", expect[8] = "", tag[32] = "";
    char black[2048] = "", white[2048] = "";
    int size = 0, plies = -1;
    long long nodes = 0;
    char copy[4400];
    snprintf(copy, sizeof copy, "%s", line);
    char *save = NULL;
    for (char *t = strtok_r(copy, " \t\r\n", &save); t; t = strtok_r(NULL, " \t\r\n", &save)) {
        char *eq = strchr(t, '=');
        if (!eq) {
            snprintf(why, n, "token '%s' is not key=value", t);
            return false;
        }
        *eq = 0;
        const char *k = t, *v = eq + 1;
        if (!strcmp(k, "rule"))
            snprintf(rule, sizeof rule, "%s", v);
        else if (!strcmp(k, "size"))
            size = atoi(v);
        else if (!strcmp(k, "side"))
            snprintf(side, sizeof side, "%s", v);
        else if (!strcmp(k, "mode"))
            snprintf(mode, sizeof mode, "%s", v);
        else if (!strcmp(k, "expect"))
            snprintf(expect, sizeof expect, "%s", v);
        else if (!strcmp(k, "depth"))
            plies = atoi(v);
        else if (!strcmp(k, "nodes"))
            nodes = atoll(v);
        else if (!strcmp(k, "tag"))
            snprintf(tag, sizeof tag, "%s", v);
        else if (!strcmp(k, "black"))
            snprintf(black, sizeof black, "%s", v);
        else if (!strcmp(k, "white"))
            snprintf(white, sizeof white, "%s", v);
        else {
            snprintf(why, n, "unknown key '%s'", k);
            return false;
        }
    }
    Rule r;
    if (!rule_parse(rule, &r) || !board_init(&pz->board, size, r)) {
        snprintf(why, n, "bad rule or size");
        return false;
    }
    if ((strcmp(side, "black") && strcmp(side, "white")) ||
        (strcmp(mode, "vcf") && strcmp(mode, "vct")) ||
        (strcmp(expect, "win") && strcmp(expect, "none")) || plies < 0 || nodes <= 0) {
        snprintf(why, n, "bad side, mode, expect, depth or nodes");
        return false;
    }
    pz->side = strcmp(side, "black") ? WHITE : BLACK;
    pz->vct = !strcmp(mode, "vct");
    pz->win = !strcmp(expect, "win");
    pz->plies = plies;
    pz->nodes = nodes;
    snprintf(pz->tag, sizeof pz->tag, "%s", tag);
    return parse_list(&pz->board, black, BLACK, why, n) &&
           parse_list(&pz->board, white, WHITE, why, n);
}

int puzzle_load(const char *path, Puzzle **out)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    int n = 0, cap = 0;
    Puzzle *list = NULL;
    char line[4400];
    int line_no = 0;
    while (fgets(line, sizeof line, f)) {
        line_no++;
        if (line[0] == '#' || line[strspn(line, " \t\r\n")] == 0)
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            Puzzle *grown = realloc(list, (size_t)cap * sizeof *list);
            if (!grown)
                break;
            list = grown;
        }
        char why[128];
        if (!puzzle_parse(line, &list[n], why, sizeof why)) {
            fprintf(stderr, "%s:%d: %s\n", path, line_no, why);
            free(list);
            fclose(f);
            return -1;
        }
        list[n++].line_no = line_no;
    }
    fclose(f);
    *out = list;
    return n;
}

static size_t append_list(const Board *b, Color c, char *buf, size_t at, size_t n)
{
    char p[COORD_BUF];
    bool first = true;
    for (int i = 0; i < b->count && at < n; i++) {
        if (b->cell[b->history[i]] != c)
            continue;
        at += (size_t)snprintf(buf + at, n - at, "%s%s", first ? "" : ",",
                               coord_format(b->history[i], b->size, p));
        first = false;
    }
    return at;
}

void puzzle_format(const Puzzle *pz, char *buf, size_t n)
{
    size_t at = (size_t)snprintf(buf, n, "rule=%s size=%d side=%s mode=%s expect=%s depth=%d nodes=%lld",
                                 rule_name(pz->board.rule), pz->board.size,
                                 pz->side == BLACK ? "black" : "white", pz->vct ? "vct" : "vcf",
                                 pz->win ? "win" : "none", pz->plies, pz->nodes);
    if (pz->tag[0] && at < n)
        at += (size_t)snprintf(buf + at, n - at, " tag=%s", pz->tag);
    if (at < n)
        at += (size_t)snprintf(buf + at, n - at, " black=");
    at = append_list(&pz->board, BLACK, buf, at, n);
    if (at < n)
        at += (size_t)snprintf(buf + at, n - at, " white=");
    append_list(&pz->board, WHITE, buf, at, n);
}
