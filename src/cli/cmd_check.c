/* tengen check — the referee: replays a record and says how the game stands. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_config.h"
#include "tengen/fileio.h"
#include "tengen/game.h"
#include "tengen/record.h"


static const char USAGE[] =
    "usage: tengen check [--rule R] [--opening O] [--forbidden auto|claim]\n"
    "                    [--designated NAME] [--json] RECORD\n"
    "Replays a game record (.tgn, .psq, .sgf, .rif by extension, else by what the\n"
    "text looks like; `-` reads standard input) under the rules and prints one line:\n"
    "  result: black wins: ... | result: white wins: ... | result: draw: ...\n"
    "  result: ongoing: <who> to <what>\n"
    "Options override the record's header. Exit 0 for a finished or ongoing game,\n"
    "1 when an action is illegal (its number, token and reason on stderr), 2 for a\n"
    "malformed record or bad options.\n";

typedef struct {
    CliConfigOptions cfg;
    bool json;
} CheckOptions;

static void print_result(const Game *g, bool json)
{
    if (json) {
        json_t *j = game_status_json(g);
        json_object_set_new(j, "actions", json_integer(game_history_count(g)));
        char *s = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        if (s)
            printf("%s\n", s);
        free(s);
        json_decref(j);
        return;
    }
    char buf[400];
    game_status_text(g, buf, sizeof buf);
    printf("result: %s\n", buf);
}

/* Replays the record; exit status as the usage says. */
static int replay(const Record *r, const GameConfig *cfg, bool json)
{
    Game g;
    TgError err = {0};
    if (!game_init(&g, cfg, &err)) {
        cli_error("check", "%s", err.msg);
        return EXIT_USAGE;
    }
    for (int i = 0; i < r->count; i++) {
        const RecordAction *ra = &r->actions[i];
        if (game_apply(&g, &ra->action, &err))
            continue;
        char tok[200];
        game_action_text(&ra->action, cfg->size, cfg->dualboard, tok, sizeof tok);
        if (ra->line > 0)
            cli_error("check", "action %d '%s' (line %d, column %d): %s", i + 1, tok, ra->line,
                      ra->col, err.msg);
        else
            cli_error("check", "action %d '%s': %s", i + 1, tok, err.msg);
        game_free(&g);
        return EXIT_ILLEGAL;
    }
    print_result(&g, json);
    game_free(&g);
    return EXIT_OK;
}

static int check(const CheckOptions *o, const char *path)
{
    TgError err = {0};
    char *text = file_read_text(path, &err);
    if (!text) {
        if (err.line > 0)
            cli_error("check", "%s:%d:%d: %s", path, err.line, err.col, err.msg);
        else
            cli_error("check", "%s", err.msg);
        return EXIT_USAGE;
    }
    RecordFormat fmt = record_format_detect(strcmp(path, "-") == 0 ? NULL : path, text);
    Record r;
    bool ok = record_parse(fmt, text, &r, &err);
    free(text);
    const char *name = strcmp(path, "-") == 0 ? "<stdin>" : path;
    if (!ok) {
        if (err.line > 0)
            cli_error("check", "%s:%d:%d: %s", name, err.line, err.col, err.msg);
        else
            cli_error("check", "%s: %s", name, err.msg);
        return EXIT_USAGE;
    }
    GameConfig cfg;
    int rc;
    if (!cli_config_override(&o->cfg, &r.config, r.count, &cfg, &err)) {
        cli_error("check", "%s", err.msg);
        rc = EXIT_USAGE;
    } else
        rc = replay(&r, &cfg, o->json);
    record_free(&r);
    return rc;
}

int cmd_check(int argc, char **argv)
{
    static const struct option opts[] = {
        {"rule", required_argument, NULL, 'r'},
        {"opening", required_argument, NULL, 'o'},
        {"forbidden", required_argument, NULL, 'f'},
        {"designated", required_argument, NULL, 'd'},
        {"json", no_argument, NULL, 'j'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    CheckOptions o = {{NULL, NULL, NULL, NULL}, false};
    int c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
        switch (c) {
        case 'r':
            o.cfg.rule = optarg;
            break;
        case 'o':
            o.cfg.opening = optarg;
            break;
        case 'f':
            o.cfg.forbidden = optarg;
            break;
        case 'd':
            o.cfg.designated = optarg;
            break;
        case 'j':
            o.json = true;
            break;
        case 'h':
            fputs(USAGE, stdout);
            return EXIT_OK;
        case ':':
            cli_error("check", "option '%s' needs a value", argv[optind - 1]);
            return EXIT_USAGE;
        default:
            cli_error("check", "unknown option '%s' (try --help)", argv[optind - 1]);
            return EXIT_USAGE;
        }
    }
    if (argc - optind != 1) {
        cli_error("check", "expected one RECORD argument (a .tgn file or - for standard input)");
        return EXIT_USAGE;
    }
    return check(&o, argv[optind]);
}
