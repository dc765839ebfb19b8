/* Reading text inputs and atomic writes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tengen/fileio.h"

static char dir[64];

static int files_in_dir(void)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

static void test_write_then_read(void **state)
{
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s/game.tgn", dir);
    TgError err;
    assert_true(file_write_atomic(path, "h8 h9\n", 6, &err));
    assert_true(file_write_atomic(path, "i9\n", 3, &err));
    char *text = file_read_text(path, &err);
    assert_non_null(text);
    assert_string_equal(text, "i9\n");
    free(text);
    assert_int_equal(files_in_dir(), 1); /* no temporary file left behind */
    unlink(path);
}

static void test_write_failure_keeps_nothing(void **state)
{
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s/missing/game.tgn", dir);
    TgError err;
    assert_false(file_write_atomic(path, "x", 1, &err));
    assert_non_null(strstr(err.msg, "missing/game.tgn"));
    assert_int_equal(files_in_dir(), 0);
}

static void test_read_errors(void **state)
{
    (void)state;
    char path[128];
    TgError err;
    snprintf(path, sizeof path, "%s/none.tgn", dir);
    assert_null(file_read_text(path, &err));
    assert_non_null(strstr(err.msg, "none.tgn"));
    snprintf(path, sizeof path, "%s/bin", dir);
    assert_true(file_write_atomic(path, "h8\nh9 \0x", 8, &err));
    assert_null(file_read_text(path, &err));
    assert_int_equal(err.line, 2);
    assert_int_equal(err.col, 4);
    unlink(path);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/tengen-fileio-XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_write_then_read),
        cmocka_unit_test(test_write_failure_keeps_nothing),
        cmocka_unit_test(test_read_errors),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    rmdir(dir);
    return rc;
}
