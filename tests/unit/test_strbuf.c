/* The growing string every writer of the library builds its output in. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tengen/strbuf.h"

static void test_empty_is_a_string(void **state)
{
    (void)state;
    StrBuf b = {0};
    TgError err = {0};
    char *s = strbuf_finish(&b, &err);
    assert_non_null(s);
    assert_string_equal(s, "");
    free(s);
}

static void test_pieces_join(void **state)
{
    (void)state;
    StrBuf b = {0};
    strbuf_addf(&b, "%s %d", "h8", 15);
    strbuf_add(&b, ",i9xyz", 3);
    strbuf_addf(&b, "%c", '!');
    assert_int_equal(b.len, strlen("h8 15,i9!"));
    TgError err = {0};
    char *s = strbuf_finish(&b, &err);
    assert_string_equal(s, "h8 15,i9!");
    assert_null(b.s); /* handed over: the buffer no longer owns it */
    free(s);
}

/* Pieces longer than the stack buffer and many small ones, past several growths. */
static void test_long_text(void **state)
{
    (void)state;
    char piece[1001];
    memset(piece, 'a', 1000);
    piece[1000] = '\0';
    StrBuf b = {0};
    strbuf_addf(&b, "<%s>", piece);
    for (int i = 0; i < 5000; i++)
        strbuf_addf(&b, "%d,", i % 10);
    char *s = strbuf_finish(&b, NULL);
    assert_non_null(s);
    size_t n = strlen(s);
    assert_int_equal(n, 1002 + 10000);
    assert_int_equal(s[0], '<');
    assert_int_equal(s[1000], 'a');
    assert_int_equal(s[1001], '>');
    assert_memory_equal(s + 1002, "0,1,2,", 6);
    assert_memory_equal(s + n - 4, "8,9,", 4);
    free(s);
}

/* Once an append fails, later ones are ignored and finish reports it. */
static void test_failure_latches(void **state)
{
    (void)state;
    StrBuf b = {0};
    strbuf_addf(&b, "kept so far");
    b.failed = true;
    strbuf_addf(&b, "more");
    assert_int_equal(b.len, strlen("kept so far"));
    TgError err = {0};
    assert_null(strbuf_finish(&b, &err));
    assert_string_equal(err.msg, "out of memory");
    assert_null(b.s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty_is_a_string),
        cmocka_unit_test(test_pieces_join),
        cmocka_unit_test(test_long_text),
        cmocka_unit_test(test_failure_latches),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
