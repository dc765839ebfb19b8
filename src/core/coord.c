#include "tengen/coord.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

bool coord_parse(const char *tok, int size, Point *out, TgError *err)
{
    const char *s = tok;
    if (!isalpha((unsigned char)*s)) {
        tg_error_set(err, 0, 0, "'%s' is not a point (expected a column letter and a row number, e.g. h8)", tok);
        return false;
    }
    int x = tolower((unsigned char)*s++) - 'a';
    if (!isdigit((unsigned char)*s)) {
        tg_error_set(err, 0, 0, "'%s' is not a point (expected a row number after the column letter)", tok);
        return false;
    }
    int row = 0, digits = 0;
    while (isdigit((unsigned char)*s) && digits < 3) {
        row = row * 10 + (*s++ - '0');
        digits++;
    }
    if (*s != '\0') {
        tg_error_set(err, 0, 0, "'%s' is not a point (unexpected characters after the row)", tok);
        return false;
    }
    if (x < 0 || x >= size || row < 1 || row > size) {
        tg_error_set(err, 0, 0, "'%s' is off the %dx%d board", tok, size, size);
        return false;
    }
    *out = point_make(x, size - row);
    return true;
}

const char *coord_format(Point p, int size, char *buf)
{
    if (p == POINT_PASS)
        snprintf(buf, COORD_BUF, "pass");
    else if (p < 0)
        snprintf(buf, COORD_BUF, "none");
    else
        snprintf(buf, COORD_BUF, "%c%d", 'a' + point_x(p), size - point_y(p));
    return buf;
}

static bool parse_int(const char **s, int *v)
{
    while (**s == ' ')
        (*s)++;
    if (!isdigit((unsigned char)**s))
        return false;
    long n = 0;
    while (isdigit((unsigned char)**s) && n < 1000)
        n = n * 10 + (*(*s)++ - '0');
    while (**s == ' ')
        (*s)++;
    *v = (int)n;
    return n < 1000;
}

bool coord_parse_xy(const char *tok, int size, Point *out, TgError *err)
{
    const char *s = tok;
    int x, y;
    if (!parse_int(&s, &x) || *s++ != ',' || !parse_int(&s, &y) || *s != '\0') {
        tg_error_set(err, 0, 0, "'%s' is not a point (expected x,y)", tok);
        return false;
    }
    if (x >= size || y >= size) {
        tg_error_set(err, 0, 0, "'%s' is off the %dx%d board", tok, size, size);
        return false;
    }
    *out = point_make(x, y);
    return true;
}

const char *coord_format_xy(Point p, char *buf)
{
    snprintf(buf, COORD_BUF, "%d,%d", point_x(p), point_y(p));
    return buf;
}
