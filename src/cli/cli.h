/* cli.h — the `tengen` subcommands and the helpers they share. Front end only:
 * every rule question goes to the library. */
#ifndef TENGEN_CLI_H
#define TENGEN_CLI_H

#include <stdbool.h>

#include "tengen/board.h"
#include "tengen/error.h"

#define TENGEN_VERSION "0.1.0"

/* Exit codes shared by all subcommands. */
enum { EXIT_OK = 0, EXIT_ILLEGAL = 1, EXIT_USAGE = 2 };

/* Each subcommand gets argv with argv[0] = the subcommand name. */
int cmd_forbid(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_solve(int argc, char **argv);
int cmd_match(int argc, char **argv);
int cmd_pbrain(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_play(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_think(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_tune(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_openings(int argc, char **argv);
int cmd_match(int argc, char **argv);
int cmd_pbrain(int argc, char **argv);

/* A position given on the command line: either a move list (black first,
 * alternating, `pass` skips a turn) or explicit --black / --white lists. */
typedef struct {
    Board board;
    Color to_move;
} CliPosition;

/* Builds a position. `moves` are the positional arguments (their indices in the
 * original command line in `argpos`); black/white are the option strings or NULL.
 * On error fills err naming the token and where it was. */
bool cli_position(CliPosition *pos, int size, Rule rule, char **moves, const int *argpos,
                  int nmoves, const char *black, const char *white, TgError *err);

/* Calls fn on each token of a list separated by spaces, tabs or commas (index
 * from 1) until it returns false; false then, or when out of memory (err set). */
typedef bool (*CliTokenFn)(const char *tok, int index, void *user, TgError *err);
bool cli_tokens(const char *list, CliTokenFn fn, void *user, TgError *err);

/* Prints "tengen SUB: message" on stderr. */
void cli_error(const char *sub, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Parses a decimal integer in [lo, hi]; false on anything else. */
bool cli_int(const char *s, int lo, int hi, int *out);

/* Writes data to path atomically (temp file in the same folder, then rename). */
bool cli_write_file(const char *path, const char *data, size_t len, TgError *err);

#endif
