#include "tengen/variant.h"

#include <string.h>

#include "tengen/rules.h"

static const char *const OPENINGS[OPENING_COUNT] = {
    "free", "center", "swap3", "designated", "rif", "yamaguchi", "swap1", "swap2", "soosorv8",
    "taraguchi10",
};

void variant_default(GameConfig *cfg)
{
    cfg->size = BOARD_DEFAULT_SIZE;
    cfg->rule = RULE_RENJU;
    cfg->dualboard = false;
    cfg->opening = OPENING_RIF;
    cfg->forbidden = FORBID_MODE_AUTO;
    cfg->designated = -1;
    cfg->no_pass = false;
}

const char *variant_rule_name(const GameConfig *cfg)
{
    return cfg->dualboard ? "dualboard" : rule_name(cfg->rule);
}

bool variant_rule_parse(const char *name, GameConfig *cfg)
{
    if (strcmp(name, "dualboard") == 0) {
        cfg->dualboard = true;
        cfg->rule = RULE_FREESTYLE;
        return true;
    }
    Rule r;
    if (!rule_parse(name, &r))
        return false;
    cfg->dualboard = false;
    cfg->rule = r;
    return true;
}

const char *opening_name(Opening o)
{
    return (unsigned)o < OPENING_COUNT ? OPENINGS[o] : "?";
}

bool opening_parse(const char *name, Opening *out)
{
    for (int i = 0; i < OPENING_COUNT; i++)
        if (strcmp(name, OPENINGS[i]) == 0) {
            *out = (Opening)i;
            return true;
        }
    return false;
}

const char *forbid_mode_name(ForbidMode m)
{
    return m == FORBID_MODE_CLAIM ? "claim" : "auto";
}

bool forbid_mode_parse(const char *name, ForbidMode *out)
{
    if (strcmp(name, "auto") == 0)
        *out = FORBID_MODE_AUTO;
    else if (strcmp(name, "claim") == 0)
        *out = FORBID_MODE_CLAIM;
    else
        return false;
    return true;
}
