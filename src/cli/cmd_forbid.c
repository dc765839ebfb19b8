/* tengen forbid — black's forbidden points in a position, or the reasoning for one. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tengen/coord.h"
#include "tengen/forbid.h"

static const char USAGE[] =
    "usage: tengen forbid [--size N] [--json] [--explain POINT] MOVE...\n"
    "       tengen forbid [--size N] [--json] [--explain POINT]\n"
    "                     --black \"h8 i9 ...\" --white \"h9 ...\"\n"
    "Moves alternate black and white from black; `pass` skips a turn. Prints every\n"
    "forbidden point for black as `POINT KIND`, row 1 first; --explain shows why.\n";

static int original_index(char **orig, int argc, const char *arg)
{
    for (int i = 0; i < argc; i++)
        if (orig[i] == arg)
            return i;
    return 0;
}

static int print_list(CliPosition *pos, bool json)
{
    Point pts[BOARD_MAX_MOVES];
    ForbidKind kinds[BOARD_MAX_MOVES];
    int n = forbid_list(&pos->board, pts, kinds);
    char buf[COORD_BUF];
    if (!json) {
        for (int i = 0; i < n; i++)
            printf("%s %s\n", coord_format(pts[i], pos->board.size, buf), forbid_kind_name(kinds[i]));
        return EXIT_OK;
    }
    json_t *arr = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(arr, json_pack("{s:s, s:s}", "point",
                                             coord_format(pts[i], pos->board.size, buf), "kind",
                                             forbid_kind_name(kinds[i])));
    json_t *o = json_pack("{s:i, s:o}", "size", pos->board.size, "forbidden", arr);
    char *s = json_dumps(o, JSON_INDENT(2));
    printf("%s\n", s);
    free(s);
    json_decref(o);
    return EXIT_OK;
}

static int print_explain(CliPosition *pos, const char *tok, int argi, bool json)
{
    Point p;
    TgError err;
    if (!coord_parse(tok, pos->board.size, &p, &err)) {
        cli_error("forbid", "argument %d '%s': %s", argi, tok, err.msg);
        return EXIT_USAGE;
    }
    if (pos->board.cell[p] != EMPTY) {
        cli_error("forbid", "argument %d '%s': %s is occupied", argi, tok, tok);
        return EXIT_USAGE;
    }
    ForbidTree t;
    if (!forbid_explain(&pos->board, p, &t)) {
        cli_error("forbid", "out of memory");
        forbid_tree_free(&t);
        return EXIT_USAGE;
    }
    if (json) {
        json_t *o = forbid_tree_json(&t, pos->board.size);
        char *s = json_dumps(o, JSON_INDENT(2));
        printf("%s\n", s);
        free(s);
        json_decref(o);
    } else {
        char *s = forbid_tree_text(&t, pos->board.size);
        fputs(s ? s : "", stdout);
        free(s);
    }
    forbid_tree_free(&t);
    return EXIT_OK;
}

int cmd_forbid(int argc, char **argv)
{
    static const struct option opts[] = {
        {"size", required_argument, NULL, 's'},  {"black", required_argument, NULL, 'b'},
        {"white", required_argument, NULL, 'w'}, {"explain", required_argument, NULL, 'e'},
        {"json", no_argument, NULL, 'j'},        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    char **orig = malloc((size_t)argc * sizeof *orig);
    int *argpos = malloc((size_t)argc * sizeof *argpos);
    if (!orig || !argpos)
        return EXIT_USAGE;
    memcpy(orig, argv, (size_t)argc * sizeof *orig);
    int size = BOARD_DEFAULT_SIZE, rc = EXIT_USAGE, explain_at = 0;
    const char *black = NULL, *white = NULL, *explain = NULL;
    bool json = false;
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
        int at = original_index(orig, argc, argv[optind - 1]);
        switch (c) {
        case 's':
            if (!cli_int(optarg, BOARD_MIN_SIZE, BOARD_MAX_SIZE, &size)) {
                cli_error("forbid", "argument %d '%s': the board size must be %d..%d", at, optarg,
                          BOARD_MIN_SIZE, BOARD_MAX_SIZE);
                goto done;
            }
            break;
        case 'b': black = optarg; break;
        case 'w': white = optarg; break;
        case 'e':
            explain = optarg;
            explain_at = at;
            break;
        case 'j': json = true; break;
        case 'h':
            fputs(USAGE, stdout);
            rc = EXIT_OK;
            goto done;
        case ':':
            cli_error("forbid", "argument %d '%s': needs a value", at, orig[at]);
            goto done;
        default:
            cli_error("forbid", "argument %d '%s': unknown option", at, orig[at]);
            goto done;
        }
    }
    int nmoves = argc - optind;
    for (int i = 0; i < nmoves; i++)
        argpos[i] = original_index(orig, argc, argv[optind + i]);
    CliPosition *pos = malloc(sizeof *pos);
    if (!pos)
        goto done;
    TgError err;
    if (!cli_position(pos, size, RULE_RENJU, argv + optind, argpos, nmoves, black, white, &err)) {
        cli_error("forbid", "%s", err.msg);
    } else if (explain) {
        rc = print_explain(pos, explain, explain_at, json);
    } else {
        rc = print_list(pos, json);
    }
    free(pos);
done:
    free(orig);
    free(argpos);
    return rc;
}
