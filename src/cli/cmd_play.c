/* tengen play — the terminal board. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tengen/tui.h"

static const char USAGE[] =
    "usage: tengen play [--rule R] [--opening O] [--size N] [--forbidden auto|claim]\n"
    "                   [--black human|engine] [--white human|engine]\n"
    "                   [--time SECONDS] [--threads N] [--hash MB]\n"
    "                   [--load RECORD]\n"
    "The terminal board. --black/--white say who plays the first and the second\n"
    "player (black and white before any swap). Keys are listed on the screen.\n";

static bool who(const char *s, bool *engine)
{
    if (!strcmp(s, "human"))
        *engine = false;
    else if (!strcmp(s, "engine"))
        *engine = true;
    else
        return false;
    return true;
}

int cmd_play(int argc, char **argv)
{
    static const struct option opts[] = {
        {"rule", required_argument, NULL, 'r'},    {"opening", required_argument, NULL, 'o'},
        {"size", required_argument, NULL, 's'},    {"forbidden", required_argument, NULL, 'f'},
        {"black", required_argument, NULL, 'b'},   {"white", required_argument, NULL, 'w'},
        {"time", required_argument, NULL, 't'},    {"threads", required_argument, NULL, 'T'},
        {"hash", required_argument, NULL, 'H'},    {"load", required_argument, NULL, 'l'},
        {"help", no_argument, NULL, 'h'},          {NULL, 0, NULL, 0},
    };
    TuiOptions o;
    memset(&o, 0, sizeof o);
    variant_default(&o.config);
    o.config.opening = OPENING_FREE;
    o.engine[1] = true;
    o.engine_time = 2.0;
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
        const char *arg = optarg;
        bool ok = true;
        switch (c) {
        case 'r': ok = variant_rule_parse(arg, &o.config); break;
        case 'o': ok = opening_parse(arg, &o.config.opening); break;
        case 's': ok = cli_int(arg, BOARD_MIN_SIZE, BOARD_MAX_SIZE, &o.config.size); break;
        case 'f': ok = forbid_mode_parse(arg, &o.config.forbidden); break;
        case 'b': ok = who(arg, &o.engine[0]); break;
        case 'w': ok = who(arg, &o.engine[1]); break;
        case 't': {
            char *end;
            o.engine_time = strtod(arg, &end);
            ok = *end == 0 && o.engine_time > 0 && o.engine_time <= 3600;
            break;
        }
        case 'T': ok = cli_int(arg, 1, 64, &o.threads); break;
        case 'H': ok = cli_int(arg, 1, 65536, &o.hash_mb); break;
        case 'l': o.load = arg; break;
        case 'h': fputs(USAGE, stdout); return EXIT_OK;
        case ':':
            cli_error("play", "'%s' needs a value", argv[optind - 1]);
            return EXIT_USAGE;
        default:
            cli_error("play", "unknown option '%s'", argv[optind - 1]);
            return EXIT_USAGE;
        }
        if (!ok) {
            const char *name = "?";
            for (int i = 0; opts[i].name; i++)
                if (opts[i].val == c)
                    name = opts[i].name;
            cli_error("play", "bad value '%s' for --%s", arg, name);
            return EXIT_USAGE;
        }
    }
    if (optind < argc) {
        cli_error("play", "unexpected argument '%s'", argv[optind]);
        return EXIT_USAGE;
    }
    TgError err;
    if (!tui_run(&o, &err)) {
        cli_error("play", "%s", err.msg);
        return EXIT_USAGE;
    }
    return EXIT_OK;
}
