/* cli_config.h — the game options of the commands that replay a record
 * (check, analyze). Kept apart from cli.h, which does not need game.h. */
#ifndef TENGEN_CLI_CONFIG_H
#define TENGEN_CLI_CONFIG_H

#include <stdbool.h>

#include "tengen/error.h"
#include "tengen/game.h"

/* --rule, --opening, --forbidden and --designated as given (NULL: not given). */
typedef struct {
    const char *rule, *opening, *forbidden, *designated;
} CliConfigOptions;

/* The game configuration a replayed record gets: the record's own, `rec`,
 * with the options given overriding its header. False with err set on an
 * unknown value, or when --rule changes the dual-board variant of a record
 * that already holds points (`nactions` > 0). */
bool cli_config_override(const CliConfigOptions *o, const GameConfig *rec, int nactions,
                         GameConfig *out, TgError *err);

#endif
