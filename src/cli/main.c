/* tengen — one binary, many subcommands; main only picks one. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

typedef struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} Command;

static int cmd_help(int argc, char **argv);
static int cmd_version(int argc, char **argv);

static const Command COMMANDS[] = {
    {"play", cmd_play, "the terminal board: play people or the engine"},
    {"forbid", cmd_forbid, "renju forbidden points for black, with --explain"},
    {"solve", cmd_solve, "forced win by fours (VCF) or threes and fours (VCT)"},
    {"analyze", cmd_analyze, "replay a record and judge every move with the engine"},
    {"think", cmd_think, "search a position and print the best move"},
    {"tune", cmd_tune, "self-play data and logistic tuning of the evaluation weights"},
    {"bench", cmd_bench, "speed and node-count signatures"},
    {"match", cmd_match, "play two pbrain engines against each other"},
    {"openings", cmd_openings, "generate balanced openings for match from a seed"},
    {"pbrain", cmd_pbrain, "run as a Gomocup (pbrain) engine on stdin/stdout"},
    {"convert", cmd_convert, "convert game records between tgn, psq, sgf and rif"},
    {"serve", cmd_serve, "serve the browser board (and its JSON API) over HTTP"},
    {"check", cmd_check, "referee: replay a record and print its result"},
    {"version", cmd_version, "print the version"},
    {"help", cmd_help, "list the subcommands"},
};
#define NCOMMANDS (int)(sizeof COMMANDS / sizeof COMMANDS[0])

static int cmd_help(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    printf("usage: tengen COMMAND [OPTIONS] [ARGS]\n\ncommands:\n");
    for (int i = 0; i < NCOMMANDS; i++)
        printf("  %-10s %s\n", COMMANDS[i].name, COMMANDS[i].summary);
    printf("\n`tengen COMMAND --help` describes one command.\n");
    return EXIT_OK;
}

static int cmd_version(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    printf("tengen %s\n", TENGEN_VERSION);
    return EXIT_OK;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        cmd_help(0, NULL);
        return EXIT_USAGE;
    }
    const char *name = argv[1];
    if (!strcmp(name, "--help") || !strcmp(name, "-h"))
        return cmd_help(0, NULL);
    if (!strcmp(name, "--version"))
        return cmd_version(0, NULL);
    for (int i = 0; i < NCOMMANDS; i++)
        if (!strcmp(name, COMMANDS[i].name))
            return COMMANDS[i].run(argc - 1, argv + 1);
    fprintf(stderr, "tengen: unknown command '%s' (try `tengen help`)\n", name);
    return EXIT_USAGE;
}
