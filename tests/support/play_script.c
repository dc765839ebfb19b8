#include "play_script.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tengen/coord.h"

bool test_parse_action(const char *tok, const char *arg, int size, Action *a)
{
    memset(a, 0, sizeof *a);
    a->point = POINT_NONE;
    static const char *const SIMPLE[] = {"pass", "swap", "noswap", "claim", "resign", "draw"};
    static const ActionType TYPES[] = {ACT_PASS,  ACT_SWAP,   ACT_NOSWAP,
                                       ACT_CLAIM, ACT_RESIGN, ACT_DRAW};
    for (int i = 0; i < 6; i++)
        if (!strcmp(tok, SIMPLE[i])) {
            a->type = TYPES[i];
            return true;
        }
    if (!strcmp(tok, "declare")) {
        a->type = ACT_DECLARE;
        a->n = arg ? atoi(arg) : -1;
        return arg != NULL;
    }
    if (!strcmp(tok, "choose")) {
        a->type = ACT_CHOOSE;
        return arg && coord_parse(arg, size, &a->point, NULL);
    }
    if (!strcmp(tok, "propose")) {
        a->type = ACT_PROPOSE;
        if (!arg)
            return false;
        char buf[256];
        snprintf(buf, sizeof buf, "%s", arg);
        for (char *s = strtok(buf, ","); s; s = strtok(NULL, ","))
            if (a->npoints >= ACTION_MAX_POINTS ||
                !coord_parse(s, size, &a->points[a->npoints++], NULL))
                return false;
        return true;
    }
    a->type = ACT_PLACE;
    if ((tok[0] == '1' || tok[0] == '2') && tok[1] == ':') {
        a->board = tok[0] - '1';
        tok += 2;
    }
    return coord_parse(tok, size, &a->point, NULL);
}

int test_play(Game *g, const char *script, TgError *err)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", script);
    char *save = NULL;
    int n = 0;
    for (char *t = strtok_r(buf, " \n", &save); t; t = strtok_r(NULL, " \n", &save)) {
        const char *arg = NULL;
        if (!strcmp(t, "declare") || !strcmp(t, "propose") || !strcmp(t, "choose"))
            arg = strtok_r(NULL, " \n", &save);
        n++;
        Action a;
        if (!test_parse_action(t, arg, g->config.size, &a)) {
            tg_error_set(err, 0, 0, "test script: bad token '%s'", t);
            return n;
        }
        if (!game_apply(g, &a, err))
            return n;
    }
    return 0;
}

void test_game(Game *g, Rule rule, Opening opening, int size)
{
    GameConfig cfg;
    variant_default(&cfg);
    cfg.rule = rule;
    cfg.opening = opening;
    if (size > 0)
        cfg.size = size;
    if (!game_init(g, &cfg, NULL))
        abort();
}
