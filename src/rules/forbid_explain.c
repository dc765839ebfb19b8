/* The reasoning behind a forbidden-point verdict, as a tree. It follows the
 * same definitions as forbid_check() but looks at every straight-four point of
 * every three instead of stopping at the first that settles the verdict, so a
 * reader sees why each three is real or false. */
#include "tengen/forbid.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tengen/coord.h"
#include "tengen/pattern.h"

static int new_node(ForbidTree *t)
{
    if (t->count == t->cap) {
        int cap = t->cap ? t->cap * 2 : 16;
        ForbidNode *n = realloc(t->node, (size_t)cap * sizeof *n);
        if (!n)
            return -1;
        t->node = n;
        t->cap = cap;
    }
    memset(&t->node[t->count], 0, sizeof t->node[0]);
    return t->count++;
}

static int expand(Board *b, Point p, ForbidTree *t, int parent, int depth, bool *oom)
{
    const uint16_t *tab = pattern_renju_info();
    int me = new_node(t);
    if (me < 0) {
        *oom = true;
        return -1;
    }
    ForbidNode *n = &t->node[me];
    n->p = p;
    n->parent = parent;
    n->depth = depth;
    int fours = 0, threes = 0;
    bool five = false, overline = false;
    for (int d = 0; d < DIR_COUNT; d++) {
        unsigned info = tab[b->key[d][p]];
        if (!(info & (LINE_FIVE | LINE_OVERLINE | LINE_THREE)) && !line_fours(info))
            continue;
        ForbidLineNote *l = &n->lines[n->nlines++];
        l->dir = d;
        l->info = info;
        five |= (info & LINE_FIVE) != 0;
        overline |= (info & LINE_OVERLINE) != 0;
        fours += line_fours(info);
        if (info & LINE_THREE) {
            threes++;
            for (int bit = 0; bit < 6; bit++)
                if ((info >> (LINE_SF_SHIFT + bit)) & 1) {
                    l->sf[l->nsf] = p + line_sf_offset(bit) * DIR[d];
                    l->sf_node[l->nsf++] = -1;
                }
        }
    }
    if (five || overline || fours >= 2) {
        n->verdict = five ? FORBID_FIVE : overline ? FORBID_OVERLINE : FORBID_DOUBLE_FOUR;
        return me;
    }
    /* Below the root one three cannot change a verdict, so it is not expanded. */
    if (threes == 0 || (threes < 2 && depth > 0)) {
        n->verdict = FORBID_NONE;
        return me;
    }
    board_play(b, p, BLACK);
    int nlines = n->nlines, real = 0;
    for (int i = 0; i < nlines; i++) {
        if (!(t->node[me].lines[i].info & LINE_THREE))
            continue;
        for (int j = 0; j < t->node[me].lines[i].nsf; j++) {
            Point q = t->node[me].lines[i].sf[j];
            int child = -1;
            ForbidKind v;
            if (t->count < FORBID_EXPLAIN_MAX_NODES && !*oom) {
                child = expand(b, q, t, me, depth + 1, oom);
            } else {
                t->truncated = true;
            }
            v = child >= 0 ? t->node[child].verdict : forbid_check(b, q);
            ForbidLineNote *l = &t->node[me].lines[i];
            l->sf_node[j] = child;
            l->sf_verdict[j] = v;
            l->judged = true;
            if (!forbid_is_forbidden(v))
                l->real = true;
        }
        real += t->node[me].lines[i].real;
    }
    board_undo(b);
    n = &t->node[me];
    n->real_threes = real;
    n->verdict = real >= 2 ? FORBID_DOUBLE_THREE : FORBID_NONE;
    return me;
}

bool forbid_explain(Board *b, Point p, ForbidTree *t)
{
    memset(t, 0, sizeof *t);
    bool oom = false;
    expand(b, p, t, -1, 0, &oom);
    return !oom;
}

void forbid_tree_free(ForbidTree *t)
{
    free(t->node);
    memset(t, 0, sizeof *t);
}

/* Stones assumed at a node: its ancestors, root first, then itself. */
static int assumed(const ForbidTree *t, int idx, Point *out)
{
    int n = 0;
    for (int i = idx; i >= 0; i = t->node[i].parent)
        n++;
    int k = n;
    for (int i = idx; i >= 0; i = t->node[i].parent)
        out[--k] = t->node[i].p;
    return n;
}

static void print_line_shape(FILE *f, const ForbidLineNote *l, int size)
{
    char buf[COORD_BUF];
    if (l->info & LINE_FIVE) {
        fprintf(f, "five");
        return;
    }
    if (l->info & LINE_OVERLINE) {
        fprintf(f, "overline");
        return;
    }
    int fours = line_fours(l->info);
    if (fours) {
        fprintf(f, "%d four%s", fours, fours > 1 ? "s (in one line)" : "");
        return;
    }
    fprintf(f, "three, straight-four point%s", l->nsf > 1 ? "s" : "");
    for (int j = 0; j < l->nsf; j++)
        fprintf(f, " %s", coord_format(l->sf[j], size, buf));
}

static void print_node(FILE *f, const ForbidTree *t, int idx, int size, int indent)
{
    const ForbidNode *n = &t->node[idx];
    char buf[COORD_BUF];
    Point path[BOARD_MAX_MOVES];
    fprintf(f, "%*s%s -> %s", indent, "", coord_format(n->p, size, buf),
            forbid_kind_name(n->verdict));
    if (n->depth > 0) {
        int np = assumed(t, idx, path);
        fprintf(f, "   (with");
        for (int i = 0; i < np; i++)
            fprintf(f, " %s", coord_format(path[i], size, buf));
        fprintf(f, " on the board)");
    }
    fprintf(f, "\n");
    for (int i = 0; i < n->nlines; i++) {
        const ForbidLineNote *l = &n->lines[i];
        fprintf(f, "%*s%s: ", indent + 2, "", forbid_dir_name(l->dir));
        print_line_shape(f, l, size);
        bool expanded = l->judged;
        if ((l->info & LINE_THREE) && expanded)
            fprintf(f, " -> %s", l->real ? "real three" : "false three");
        fprintf(f, "\n");
        for (int j = 0; j < l->nsf; j++) {
            if (l->sf_node[j] >= 0)
                print_node(f, t, l->sf_node[j], size, indent + 4);
            else if (expanded)
                fprintf(f, "%*s%s -> %s   (not expanded)\n", indent + 4, "",
                        coord_format(l->sf[j], size, buf), forbid_kind_name(l->sf_verdict[j]));
        }
    }
}

/* One sentence per three at the root: why it is real or false. */
static void print_three_reasons(FILE *f, const ForbidNode *n, int size)
{
    char buf[COORD_BUF], root[COORD_BUF];
    coord_format(n->p, size, root);
    for (int i = 0; i < n->nlines; i++) {
        const ForbidLineNote *l = &n->lines[i];
        if (!(l->info & LINE_THREE) || !l->judged)
            continue;
        fprintf(f, "  - the %s three is %s: ", forbid_dir_name(l->dir), l->real ? "real" : "false");
        if (l->real) {
            for (int j = 0; j < l->nsf; j++)
                if (!forbid_is_forbidden(l->sf_verdict[j])) {
                    fprintf(f, "%s makes it a straight four and %s is not forbidden",
                            coord_format(l->sf[j], size, buf), buf);
                    break;
                }
        } else {
            fprintf(f, "%s straight-four point", l->nsf > 1 ? "every" : "its only");
            for (int j = 0; j < l->nsf; j++)
                fprintf(f, "%s %s (%s)", j ? "," : "", coord_format(l->sf[j], size, buf),
                        forbid_kind_name(l->sf_verdict[j]));
            fprintf(f, " is forbidden once %s is on the board", root);
        }
        fprintf(f, "\n");
    }
}

static void print_summary(FILE *f, const ForbidTree *t, int size)
{
    const ForbidNode *n = &t->node[0];
    char buf[COORD_BUF];
    int fours = 0, threes = 0;
    for (int i = 0; i < n->nlines; i++) {
        fours += line_fours(n->lines[i].info);
        threes += (n->lines[i].info & LINE_THREE) != 0;
    }
    const char *pt = coord_format(n->p, size, buf);
    switch (n->verdict) {
    case FORBID_FIVE:
        fprintf(f, "verdict: %s makes five, which wins even if it also makes a forbidden shape\n", pt);
        return;
    case FORBID_OVERLINE:
        fprintf(f, "verdict: %s is forbidden: it makes an overline (six or more)\n", pt);
        return;
    case FORBID_DOUBLE_FOUR:
        fprintf(f, "verdict: %s is forbidden: it makes %d fours at once (double-four)\n", pt, fours);
        return;
    case FORBID_DOUBLE_THREE:
        fprintf(f, "verdict: %s is forbidden: %d of its %d threes are real (%s)\n", pt,
                n->real_threes, threes, fours ? "four-three-three" : "double-three");
        break;
    default:
        if (threes)
            fprintf(f, "verdict: %s is legal: %d of its %d three%s %s real%s\n", pt,
                    n->real_threes, threes, threes > 1 ? "s" : "",
                    n->real_threes == 1 ? "is" : "are",
                    fours ? " (four-three is allowed)" : "");
        else
            fprintf(f, "verdict: %s is legal: %s\n", pt,
                    fours ? "a single four" : "no five, no four pair, no three pair, no overline");
    }
    print_three_reasons(f, n, size);
}

char *forbid_tree_text(const ForbidTree *t, int size)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    if (t->count > 0) {
        print_node(f, t, 0, size, 0);
        print_summary(f, t, size);
        if (t->truncated)
            fprintf(f, "(the tree was cut at %d nodes; deeper verdicts were computed but not shown)\n",
                    FORBID_EXPLAIN_MAX_NODES);
    }
    fclose(f);
    return text;
}

static json_t *node_json(const ForbidTree *t, int idx, int size)
{
    const ForbidNode *n = &t->node[idx];
    char buf[COORD_BUF];
    Point path[BOARD_MAX_MOVES];
    json_t *o = json_object();
    json_object_set_new(o, "point", json_string(coord_format(n->p, size, buf)));
    json_object_set_new(o, "verdict", json_string(forbid_kind_name(n->verdict)));
    json_t *as = json_array();
    int np = assumed(t, idx, path);
    for (int i = 0; i < np; i++)
        json_array_append_new(as, json_string(coord_format(path[i], size, buf)));
    json_object_set_new(o, "assumed", as);
    json_t *lines = json_array();
    for (int i = 0; i < n->nlines; i++) {
        const ForbidLineNote *l = &n->lines[i];
        json_t *lo = json_object();
        json_object_set_new(lo, "direction", json_string(forbid_dir_name(l->dir)));
        const char *shape = (l->info & LINE_FIVE)       ? "five"
                            : (l->info & LINE_OVERLINE) ? "overline"
                            : line_fours(l->info)       ? "four"
                                                        : "three";
        json_object_set_new(lo, "shape", json_string(shape));
        if (line_fours(l->info))
            json_object_set_new(lo, "fours", json_integer(line_fours(l->info)));
        if (l->info & LINE_THREE) {
            json_t *sf = json_array();
            for (int j = 0; j < l->nsf; j++) {
                json_t *so = json_object();
                json_object_set_new(so, "point", json_string(coord_format(l->sf[j], size, buf)));
                if (l->judged)
                    json_object_set_new(so, "verdict",
                                        json_string(forbid_kind_name(l->sf_verdict[j])));
                if (l->sf_node[j] >= 0)
                    json_object_set_new(so, "reason", node_json(t, l->sf_node[j], size));
                json_array_append_new(sf, so);
            }
            json_object_set_new(lo, "straight_four_points", sf);
            if (l->judged)
                json_object_set_new(lo, "real", json_boolean(l->real));
        }
        json_array_append_new(lines, lo);
    }
    json_object_set_new(o, "lines", lines);
    return o;
}

json_t *forbid_tree_json(const ForbidTree *t, int size)
{
    if (t->count == 0)
        return json_null();
    json_t *o = node_json(t, 0, size);
    json_object_set_new(o, "truncated", json_boolean(t->truncated));
    return o;
}
