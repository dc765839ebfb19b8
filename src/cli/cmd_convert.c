/* tengen convert — reads a game record in one format and writes it in another. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tengen/fileio.h"
#include "tengen/record.h"


static const char USAGE[] =
    "usage: tengen convert [--from F] [--to T] [--game N] [--rule R] [--opening O]\n"
    "                      IN OUT\n"
    "Converts a game record. Formats: tgn (tengen), psq (Piskvork), sgf (GM[4]) and\n"
    "rif (RenjuNet database), picked by --from/--to or the file extension. An input\n"
    "without a known extension, or `-` for standard input, is read as what its text\n"
    "looks like; OUT may be `-` for standard output (tgn unless --to says otherwise).\n"
    "--game N reads the N-th game of a RenjuNet database or SGF collection.\n"
    "--rule and --opening fill in what the source does not state (PSQ and RenjuNet\n"
    "files give only stones); contradicting the source is an error.\n"
    "PSQ and RenjuNet hold only stones: swaps, proposals and the like are dropped and\n"
    "the stones actually placed are written in order.\n";

typedef struct {
    const char *from, *to, *rule, *opening;
    int game;
} ConvertOptions;

static int original_index(char **orig, int argc, const char *arg)
{
    for (int i = 0; i < argc; i++)
        if (orig[i] == arg)
            return i;
    return 0;
}

/* The format --from/--to names, else the one the file name gives; an input
 * may leave it to its text (record_format_detect). */
static bool pick_format(const char *opt, const char *path, bool input, RecordFormat *f,
                        TgError *err)
{
    if (opt) {
        if (record_format_parse(opt, f))
            return true;
        tg_error_set(err, 0, 0, "%s '%s': unknown format (tgn, psq, sgf, rif)",
                     input ? "--from" : "--to", opt);
        return false;
    }
    /* An input's format can still come from its text once read. */
    if (input || strcmp(path, "-") == 0 || record_format_from_path(path, f))
        return true;
    tg_error_set(err, 0, 0, "cannot tell the format of '%s' from its name (use --to tgn|psq|sgf|rif)",
                 path);
    return false;
}

/* Applies --rule/--opening where the record is silent; an explicit, different
 * value in the record is a contradiction. */
static bool apply_overrides(const ConvertOptions *o, Record *r, TgError *err)
{
    if (o->rule) {
        GameConfig cfg = r->config;
        if (!variant_rule_parse(o->rule, &cfg)) {
            tg_error_set(err, 0, 0,
                         "--rule '%s': unknown rule (freestyle, standard, renju, caro, dualboard)",
                         o->rule);
            return false;
        }
        if ((r->has & REC_HAS_RULE) &&
            strcmp(variant_rule_name(&cfg), variant_rule_name(&r->config)) != 0) {
            tg_error_set(err, 0, 0, "--rule %s: the record says rule %s", o->rule,
                         variant_rule_name(&r->config));
            return false;
        }
        if (cfg.dualboard != r->config.dualboard && r->count > 0) {
            tg_error_set(err, 0, 0, "--rule %s: the record's points were not written for it",
                         o->rule);
            return false;
        }
        r->config = cfg;
        r->has |= REC_HAS_RULE;
    }
    if (o->opening) {
        Opening op;
        if (!opening_parse(o->opening, &op)) {
            tg_error_set(err, 0, 0, "--opening '%s': unknown opening", o->opening);
            return false;
        }
        if ((r->has & REC_HAS_OPENING) && op != r->config.opening) {
            tg_error_set(err, 0, 0, "--opening %s: the record says opening %s", o->opening,
                         opening_name(r->config.opening));
            return false;
        }
        r->config.opening = op;
        r->has |= REC_HAS_OPENING;
    }
    return true;
}

static bool write_output(const char *path, const char *text, TgError *err)
{
    size_t len = strlen(text);
    if (strcmp(path, "-") != 0)
        return cli_write_file(path, text, len, err);
    if (fwrite(text, 1, len, stdout) != len || fflush(stdout) != 0) {
        tg_error_set(err, 0, 0, "cannot write standard output: %s", strerror(errno));
        return false;
    }
    return true;
}

static int report(const char *in, const TgError *err)
{
    const char *name = strcmp(in, "-") == 0 ? "<stdin>" : in;
    if (err->line > 0)
        cli_error("convert", "%s:%d:%d: %s", name, err->line, err->col, err->msg);
    else
        cli_error("convert", "%s", err->msg);
    return EXIT_USAGE;
}

static int convert(const ConvertOptions *o, const char *in, const char *out)
{
    TgError err = {0};
    RecordFormat from, to;
    if (!pick_format(o->from, in, true, &from, &err) ||
        !pick_format(o->to, out, false, &to, &err)) {
        cli_error("convert", "%s", err.msg);
        return EXIT_USAGE;
    }
    char *text = file_read_text(in, &err);
    if (!text)
        return report(in, &err);
    if (!o->from)
        from = record_format_detect(strcmp(in, "-") == 0 ? NULL : in, text);
    if (!o->to && strcmp(out, "-") == 0)
        to = FORMAT_TGN;
    Record r;
    bool ok = record_parse_game(from, text, o->game, &r, &err);
    free(text);
    if (!ok)
        return report(in, &err);
    char *result = NULL;
    ok = apply_overrides(o, &r, &err) && (result = record_write(to, &r, &err)) != NULL;
    record_free(&r);
    if (!ok) {
        /* Positions in err (if any) point into the input. */
        return report(in, &err);
    }
    ok = write_output(out, result, &err);
    free(result);
    if (!ok) {
        cli_error("convert", "%s", err.msg);
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

int cmd_convert(int argc, char **argv)
{
    static const struct option opts[] = {
        {"from", required_argument, NULL, 'f'},
        {"to", required_argument, NULL, 't'},
        {"game", required_argument, NULL, 'g'},
        {"rule", required_argument, NULL, 'r'},
        {"opening", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    char **orig = malloc((size_t)argc * sizeof *orig);
    if (!orig)
        return EXIT_USAGE;
    memcpy(orig, argv, (size_t)argc * sizeof *orig);
    ConvertOptions o = {NULL, NULL, NULL, NULL, 1};
    int rc = EXIT_USAGE, c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
        int at = original_index(orig, argc, argv[optind - 1]);
        switch (c) {
        case 'f':
            o.from = optarg;
            break;
        case 't':
            o.to = optarg;
            break;
        case 'r':
            o.rule = optarg;
            break;
        case 'o':
            o.opening = optarg;
            break;
        case 'g':
            if (!cli_int(optarg, 1, 1000000000, &o.game)) {
                cli_error("convert", "argument %d '%s': the game number must be 1 or more", at,
                          optarg);
                goto done;
            }
            break;
        case 'h':
            fputs(USAGE, stdout);
            rc = EXIT_OK;
            goto done;
        case ':':
            cli_error("convert", "argument %d '%s': needs a value", at, orig[at]);
            goto done;
        default:
            cli_error("convert", "argument %d '%s': unknown option", at, orig[at]);
            goto done;
        }
    }
    if (argc - optind != 2) {
        cli_error("convert", "expected IN and OUT, got %d argument%s (try --help)", argc - optind,
                  argc - optind == 1 ? "" : "s");
        goto done;
    }
    rc = convert(&o, argv[optind], argv[optind + 1]);
done:
    free(orig);
    return rc;
}
