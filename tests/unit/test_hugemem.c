/* hugemem: every size comes back zeroed, writable end to end and aligned (2 MB
 * from 1 MB up when huge pages were asked for), and is released; under ASan a
 * write past the end would be caught here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tengen/hugemem.h"

static void test_sizes(void **state)
{
    (void)state;
    const size_t sizes[] = {1, 4096, (1u << 20) - 1, 1u << 20, (1u << 20) + 1, 3u << 20, (5u << 20) + 7};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        HugeMem h;
        unsigned char *p = hugemem_alloc(sizes[i], &h);
        assert_non_null(p);
        assert_non_null(h.base);
        assert_int_equal((uintptr_t)p % 64, 0);
        if (h.len) {
            assert_true(sizes[i] >= HUGEMEM_PAGE / 2);
            assert_int_equal((uintptr_t)p % HUGEMEM_PAGE, 0);
            assert_true((unsigned char *)p + sizes[i] <= (unsigned char *)h.base + h.len);
        }
        size_t nonzero = 0;
        for (size_t k = 0; k < sizes[i]; k += 509)
            nonzero += p[k] != 0;
        nonzero += p[sizes[i] - 1] != 0;
        assert_int_equal(nonzero, 0);
        memset(p, 0xA5, sizes[i]);
        assert_int_equal(p[sizes[i] - 1], 0xA5);
        hugemem_free(&h);
        assert_null(h.base);
        assert_int_equal(h.len, 0);
        hugemem_free(&h); /* twice is harmless */
    }
}

/* 1 MB or more: mapped for huge pages on Linux, except under ASan, where it
 * must be calloc so that the sanitizer sees the table's ends. */
static void test_large_layout(void **state)
{
    (void)state;
    HugeMem h;
    void *p = hugemem_alloc(3u << 20, &h);
    assert_non_null(p);
#if HUGEMEM_MAPS
    assert_true(h.len >= (3u << 20) + HUGEMEM_PAGE);
#else
    assert_int_equal(h.len, 0);
#endif
    hugemem_free(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_large_layout),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
