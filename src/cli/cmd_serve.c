/* tengen serve — the browser board: serves the page and the game API until
 * SIGINT or SIGTERM. */
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "tengen/web.h"

static const char USAGE[] =
    "usage: tengen serve [--host H] [--port N] [--static DIR] [--threads N]\n"
    "                    [--hash MB]\n"
    "Serves the browser board on http://H:N/ (default 127.0.0.1:8080; --port 0\n"
    "picks a free port) and prints the URL; stops on Ctrl-C (SIGINT) or SIGTERM.\n"
    "--static is the folder with index.html (default: web/static next to the\n"
    "binary's build folder, ../share/tengen/static after `make install`, or\n"
    "./web/static).\n"
    "--threads and --hash set each game's engine (default 1 thread, 16 MB).\n";

static bool has_index(const char *dir)
{
    char path[PATH_MAX];
    struct stat st;
    if (snprintf(path, sizeof path, "%s/index.html", dir) >= (int)sizeof path)
        return false;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Finds the page: relative to the executable (build/, build/san/, bin/), then
 * to the working directory. */
static bool find_static(char *out, size_t len)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash)
            *slash = '\0';
        static const char *const REL[] = {"/../web/static", "/../../web/static",
                                          "/../share/tengen/static"};
        for (size_t i = 0; i < sizeof REL / sizeof REL[0]; i++) {
            snprintf(out, len, "%s%s", exe, REL[i]);
            if (has_index(out)) {
                char real[PATH_MAX];
                if (realpath(out, real))
                    snprintf(out, len, "%s", real);
                return true;
            }
        }
    }
    snprintf(out, len, "web/static");
    return has_index(out);
}

int cmd_serve(int argc, char **argv)
{
    static const struct option LONG[] = {
        {"host", required_argument, NULL, 'H'},  {"port", required_argument, NULL, 'p'},
        {"static", required_argument, NULL, 's'}, {"threads", required_argument, NULL, 't'},
        {"hash", required_argument, NULL, 'm'},  {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    WebOptions o;
    web_options_default(&o);
    const char *static_dir = NULL;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "H:p:s:h", LONG, NULL)) != -1) {
        switch (c) {
        case 'H': o.host = optarg; break;
        case 'p':
            if (!cli_int(optarg, 0, 65535, &o.port)) {
                cli_error("serve", "--port '%s': expected 0..65535", optarg);
                return EXIT_USAGE;
            }
            break;
        case 's': static_dir = optarg; break;
        case 't':
            if (!cli_int(optarg, 1, 64, &o.engine_threads)) {
                cli_error("serve", "--threads '%s': expected 1..64", optarg);
                return EXIT_USAGE;
            }
            break;
        case 'm':
            if (!cli_int(optarg, 1, 4096, &o.engine_hash_mb)) {
                cli_error("serve", "--hash '%s': expected 1..4096 (MB)", optarg);
                return EXIT_USAGE;
            }
            break;
        case 'h': fputs(USAGE, stdout); return EXIT_OK;
        default:
            cli_error("serve", "unknown option '%s'\n%s", argv[optind - 1], USAGE);
            return EXIT_USAGE;
        }
    }
    if (optind < argc) {
        cli_error("serve", "unexpected argument '%s'", argv[optind]);
        return EXIT_USAGE;
    }
    char found[PATH_MAX];
    if (static_dir) {
        if (!has_index(static_dir)) {
            cli_error("serve", "--static '%s': no index.html there", static_dir);
            return EXIT_USAGE;
        }
        o.static_dir = static_dir;
    } else if (find_static(found, sizeof found)) {
        o.static_dir = found;
    } else {
        cli_error("serve", "cannot find the page (web/static/index.html); give --static DIR");
        return EXIT_USAGE;
    }

    /* Signals are taken by sigwait here; the server threads inherit the mask. */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, NULL);

    TgError err;
    WebServer *s = web_server_start(&o, &err);
    if (!s) {
        cli_error("serve", "%s", err.msg);
        return EXIT_USAGE;
    }
    const char *host = strcmp(o.host, "0.0.0.0") ? o.host : "127.0.0.1";
    printf(strchr(host, ':') ? "tengen: serving http://[%s]:%d/\n" : "tengen: serving http://%s:%d/\n",
           host, web_server_port(s));
    fflush(stdout);
    int sig = 0;
    sigwait(&set, &sig);
    web_server_stop(s);
    fprintf(stderr, "tengen: stopped (%s)\n", sig == SIGINT ? "SIGINT" : "SIGTERM");
    return EXIT_OK;
}
