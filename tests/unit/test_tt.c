/* The transposition table (src/engine/tt.c, internal): what is stored comes
 * back field by field, a result without a move keeps the known move, and a
 * shallow bound does not push out a deeper one of the same search; every size
 * is laid out and emptied whole; a search on the clock stays in the mapped
 * part. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../src/engine/tt.h"

static void test_round_trip(void **state)
{
    (void)state;
    TransTable t;
    assert_true(tt_alloc(&t, 1));
    tt_new_search(&t, false);
    const struct {
        uint64_t key;
        Point move;
        int score, eval, depth, bound;
        bool pv;
    } cases[] = {
        {0x123456789abcdef1ull, 0, 0, 0, 1, BOUND_EXACT, false},
        {0x0fedcba987654321ull, 440, -29990, 31000, 60, BOUND_LOWER, true},
        {0xdeadbeef00c0ffeeull, 123, 29990, -31000, 255, BOUND_UPPER, true},
        /* Depths past a byte: the search counts 16ths of a ply. */
        {0x7777000011112222ull, 7, 5, -5, 256, BOUND_LOWER, false},
        {0x0000ffff0000ffffull, 8, 6, -6, TT_DEPTH_MAX, BOUND_EXACT, true},
        {0x1234123412341234ull, 9, 7, -7, 60 * TT_PLY + 5, BOUND_UPPER, false},
        {0x5555aaaa5555aaaaull, POINT_NONE, -1, 1, 7, BOUND_UPPER, false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        tt_store(&t, cases[i].key, cases[i].move, cases[i].score, cases[i].eval, cases[i].depth,
                 cases[i].bound, cases[i].pv);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        TtHit h;
        assert_true(tt_probe(&t, cases[i].key, &h));
        assert_int_equal(h.move, cases[i].move);
        assert_int_equal(h.score, cases[i].score);
        assert_int_equal(h.eval, cases[i].eval);
        assert_int_equal(h.depth, cases[i].depth);
        assert_int_equal(h.bound, cases[i].bound);
        assert_int_equal(h.pv, cases[i].pv);
    }
    TtHit h;
    assert_false(tt_probe(&t, 0x1111222233334444ull, &h));
    /* Deeper than the field holds: kept as deep as it can be. */
    tt_store(&t, 0x4444333322221111ull, 10, 0, 0, TT_DEPTH_MAX + 100, BOUND_EXACT, false);
    assert_true(tt_probe(&t, 0x4444333322221111ull, &h));
    assert_int_equal(h.depth, TT_DEPTH_MAX);
    tt_free(&t);
}

static void test_keeps_move_and_depth(void **state)
{
    (void)state;
    TransTable t;
    assert_true(tt_alloc(&t, 1));
    tt_new_search(&t, false);
    uint64_t key = 0x0123456789abcdefull;
    TtHit h;
    tt_store(&t, key, 100, 50, 40, 10 * TT_PLY, BOUND_LOWER, true);
    /* A shallow non-exact bound of the same search leaves the deep one. */
    tt_store(&t, key, 101, -70, 40, 3 * TT_PLY, BOUND_UPPER, false);
    assert_true(tt_probe(&t, key, &h));
    assert_int_equal(h.move, 100);
    assert_int_equal(h.depth, 10 * TT_PLY);
    assert_true(h.pv);
    /* A result without a move keeps the move it knew. */
    tt_store(&t, key, POINT_NONE, 20, 40, 12 * TT_PLY, BOUND_UPPER, false);
    assert_true(tt_probe(&t, key, &h));
    assert_int_equal(h.move, 100);
    assert_int_equal(h.depth, 12 * TT_PLY);
    assert_int_equal(h.score, 20);
    assert_false(h.pv);
    tt_free(&t);
}

/* Every size starts empty from end to end, keeps what is stored in its first
 * and last bucket, and survives touch, clear and free; from 2 MB on Linux the
 * table is laid on 2 MB boundaries for huge pages (not under ASan, which
 * needs calloc to see overruns). */
static void test_sizes_and_layout(void **state)
{
    (void)state;
    const size_t sizes[] = {1, 3, 16};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        TransTable t;
        assert_true(tt_alloc(&t, sizes[i]));
        size_t bytes = t.nbuckets * TT_BUCKET * sizeof(TtEntry);
        assert_true(bytes <= sizes[i] << 20 && bytes * 2 > sizes[i] << 20);
        assert_int_equal((uintptr_t)t.entry % 64, 0);
#if HUGEMEM_MAPS
        if (bytes >= (size_t)2 << 20) {
            assert_true(t.mem.len > 0);
            assert_int_equal((uintptr_t)t.entry % ((uintptr_t)2 << 20), 0);
        }
#endif
        const uint64_t keys[] = {0x7700000000000000ull, 0x7700000000000000ull | (t.nbuckets - 1)};
        TtHit h;
        for (int k = 0; k < 2; k++)
            assert_false(tt_probe(&t, keys[k], &h));
        _Atomic bool cancel = false;
        assert_true(tt_touch(&t, &cancel));
        tt_new_search(&t, false);
        for (int k = 0; k < 2; k++)
            tt_store(&t, keys[k], 10 + k, 5 * k, 0, 4, BOUND_EXACT, false);
        for (int k = 0; k < 2; k++) {
            assert_true(tt_probe(&t, keys[k], &h));
            assert_int_equal(h.move, 10 + k);
        }
        tt_clear(&t);
        for (int k = 0; k < 2; k++)
            assert_false(tt_probe(&t, keys[k], &h));
        tt_free(&t);
        assert_null(t.mem.base);
    }
}

/* A search that uses the mapped part only writes no bucket past it, finds
 * what it stored, and uses the whole table once it is all mapped. */
static void test_mapped_part(void **state)
{
    (void)state;
    TransTable t;
    assert_true(tt_alloc(&t, 8));
    const size_t page = 4096 / (TT_BUCKET * sizeof(TtEntry));
    tt_new_search(&t, true);
    assert_int_equal(t.active, page); /* nothing mapped yet: one page */
    assert_true(tt_touch_some(&t, t.nbuckets / 4 + 5));
    assert_true(tt_mapped(&t) >= t.nbuckets / 4 + 5 && tt_mapped(&t) < t.nbuckets / 2);
    tt_new_search(&t, true);
    assert_int_equal(t.active, t.nbuckets / 4);
    uint64_t key = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 20000; i++) {
        key = key * 6364136223846793005ull + 1442695040888963407ull;
        tt_store(&t, key, i % 200, 0, 0, 4, BOUND_EXACT, false);
    }
    TtHit h;
    assert_true(tt_probe(&t, key, &h));
    assert_int_equal(h.move, 19999 % 200);
    size_t past = 0;
    for (size_t i = t.nbuckets / 4 * TT_BUCKET; i < t.nbuckets * TT_BUCKET; i++)
        past += atomic_load(&t.entry[i].data) != 0;
    assert_int_equal(past, 0);
    tt_new_search(&t, false);
    assert_int_equal(t.active, t.nbuckets);
    _Atomic bool cancel = false;
    assert_true(tt_touch(&t, &cancel));
    assert_int_equal(tt_mapped(&t), t.nbuckets);
    tt_new_search(&t, true);
    assert_int_equal(t.active, t.nbuckets);
    tt_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_keeps_move_and_depth),
        cmocka_unit_test(test_sizes_and_layout),
        cmocka_unit_test(test_mapped_part),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
