/* pbrain-tengen — tengen as a Gomocup brain (the `tengen pbrain` command alone,
 * for managers that run a program named pbrain-*). */
#include <stdio.h>

#include "cli.h"
#include "tengen/pbrain.h"

int main(void)
{
    PbrainConfig cfg;
    pbrain_config_default(&cfg, TENGEN_VERSION);
    TgError err;
    Pbrain *pb = pbrain_new(&cfg, stdin, stdout, &err);
    if (!pb) {
        fprintf(stderr, "pbrain-tengen: %s\n", err.msg);
        return EXIT_USAGE;
    }
    pbrain_run(pb);
    pbrain_free(pb);
    return EXIT_OK;
}
