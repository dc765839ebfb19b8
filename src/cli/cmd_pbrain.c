/* tengen pbrain — the Gomocup brain protocol on stdin/stdout. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "tengen/pbrain.h"

int cmd_pbrain(int argc, char **argv)
{
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        printf("usage: tengen pbrain\nServes the Gomocup (Piskvork) brain protocol with the "
               "Yixin-Board\nextensions on stdin/stdout; the same as pbrain-tengen.\n");
        return EXIT_OK;
    }
    if (argc > 1) {
        cli_error("pbrain", "argument 1 '%s': takes no arguments", argv[1]);
        return EXIT_USAGE;
    }
    PbrainConfig cfg;
    pbrain_config_default(&cfg, TENGEN_VERSION);
    TgError err;
    Pbrain *pb = pbrain_new(&cfg, stdin, stdout, &err);
    if (!pb) {
        cli_error("pbrain", "%s", err.msg);
        return EXIT_USAGE;
    }
    pbrain_run(pb);
    pbrain_free(pb);
    return EXIT_OK;
}
