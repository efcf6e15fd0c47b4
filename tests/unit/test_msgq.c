/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Module set-up and the bounded message queue.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <errno.h>

#include <cmocka.h>

#include "tern/module.h"

static int handler_nop(tern_module_t *self, tern_msg_t *msg)
{
    (void)self;
    (void)msg;
    return 0;
}

static tern_msg_t msg_of(uintptr_t value)
{
    tern_msg_t msg = { .type = TERN_MSG_USER, .sender = NULL };
    msg.content.value = value;
    return msg;
}

static void test_tern_module_init__valid(void **state)
{
    (void)state;
    tern_module_t m;
    tern_msg_t slots[8];
    int ctx;
    assert_int_equal(tern_module_init(&m, "m", 3, handler_nop, &ctx, slots, 8), 0);
    assert_string_equal(m.name, "m");
    assert_int_equal(m.priority, 3);
    assert_ptr_equal(m.context, &ctx);
    assert_ptr_equal(m.handle, handler_nop);
    assert_null(m.exec);
    assert_null(m.next);
    assert_int_equal(m.queue.capacity, 8);
    assert_int_equal(m.queue.count, 0);
    assert_int_equal(m.queue.high_water, 0);
    assert_int_equal(m.queue_full, 0);
}

static void test_tern_module_init__bad_arguments(void **state)
{
    (void)state;
    tern_module_t m;
    tern_msg_t slots[64];
    assert_int_equal(tern_module_init(NULL, "m", 0, handler_nop, NULL, slots, 8), -EINVAL);
    assert_int_equal(tern_module_init(&m, NULL, 0, handler_nop, NULL, slots, 8), -EINVAL);
    assert_int_equal(tern_module_init(&m, "m", 0, NULL, NULL, slots, 8), -EINVAL);
    assert_int_equal(tern_module_init(&m, "m", 0, handler_nop, NULL, NULL, 8), -EINVAL);
    assert_int_equal(tern_module_init(&m, "m", 0, handler_nop, NULL, slots, 0), -EINVAL);
    assert_int_equal(tern_module_init(&m, "m", 0, handler_nop, NULL, slots, 1), -EINVAL);
    assert_int_equal(tern_module_init(&m, "m", 0, handler_nop, NULL, slots, 6), -EINVAL);
    assert_int_equal(tern_module_init(&m, "m", 0, handler_nop, NULL, slots, 65536), -EINVAL);
    assert_int_equal(tern_module_init(&m, "m", 0, handler_nop, NULL, slots, 2), 0);
    assert_int_equal(tern_module_init(&m, "m", 0, handler_nop, NULL, slots, 64), 0);
}

static void test_tern_module_init__capacity_max(void **state)
{
    (void)state;
    static tern_msg_t slots[32768];
    tern_module_t m;
    assert_int_equal(tern_module_init(&m, "m", 0, handler_nop, NULL, slots, 32768), 0);
    for (uintptr_t i = 0; i < 32768; i++) {
        tern_msg_t msg = msg_of(i);
        assert_int_equal(tern_msgq_put(&m.queue, &msg), 0);
    }
    tern_msg_t extra = msg_of(0);
    assert_int_equal(tern_msgq_put(&m.queue, &extra), -ENOBUFS);
    assert_int_equal(m.queue.high_water, 32768);
    tern_msg_t out;
    for (uintptr_t i = 0; i < 32768; i++) {
        assert_true(tern_msgq_get(&m.queue, &out));
        assert_int_equal(out.content.value, i);
    }
    assert_false(tern_msgq_get(&m.queue, &out));
}

static void test_tern_msgq_get__empty(void **state)
{
    (void)state;
    tern_module_t m;
    tern_msg_t slots[4];
    assert_int_equal(tern_module_init(&m, "m", 0, handler_nop, NULL, slots, 4), 0);
    tern_msg_t out = msg_of(77);
    assert_false(tern_msgq_get(&m.queue, &out));
    assert_int_equal(out.content.value, 77); /* untouched */
}

static void test_tern_msgq_put__full(void **state)
{
    (void)state;
    tern_module_t m;
    tern_msg_t slots[4];
    assert_int_equal(tern_module_init(&m, "m", 0, handler_nop, NULL, slots, 4), 0);
    for (uintptr_t i = 0; i < 4; i++) {
        tern_msg_t msg = msg_of(i);
        assert_int_equal(tern_msgq_put(&m.queue, &msg), 0);
    }
    tern_msg_t msg = msg_of(99);
    assert_int_equal(tern_msgq_put(&m.queue, &msg), -ENOBUFS);
    assert_int_equal(m.queue.count, 4);
    /* The refused message did not overwrite anything. */
    tern_msg_t out;
    for (uintptr_t i = 0; i < 4; i++) {
        assert_true(tern_msgq_get(&m.queue, &out));
        assert_int_equal(out.content.value, i);
    }
    assert_false(tern_msgq_get(&m.queue, &out));
}

static void test_tern_msgq_put__wraps_in_fifo_order(void **state)
{
    (void)state;
    tern_module_t m;
    tern_msg_t slots[4];
    assert_int_equal(tern_module_init(&m, "m", 0, handler_nop, NULL, slots, 4), 0);
    uintptr_t next_in = 0;
    uintptr_t next_out = 0;
    /* Keep 1..3 messages queued while head goes around the ring many times. */
    for (int round = 0; round < 100; round++) {
        unsigned fill = 1u + (unsigned)round % 3u;
        while (m.queue.count < fill) {
            tern_msg_t msg = msg_of(next_in++);
            assert_int_equal(tern_msgq_put(&m.queue, &msg), 0);
        }
        tern_msg_t out;
        assert_true(tern_msgq_get(&m.queue, &out));
        assert_int_equal(out.content.value, next_out++);
        assert_true(m.queue.head < 4);
    }
    tern_msg_t out;
    while (tern_msgq_get(&m.queue, &out)) {
        assert_int_equal(out.content.value, next_out++);
    }
    assert_int_equal(next_in, next_out);
    assert_int_equal(m.queue.high_water, 3);
}

static void test_tern_msgq_put__high_water(void **state)
{
    (void)state;
    tern_module_t m;
    tern_msg_t slots[8];
    assert_int_equal(tern_module_init(&m, "m", 0, handler_nop, NULL, slots, 8), 0);
    tern_msg_t msg = msg_of(1);
    tern_msg_t out;
    for (int i = 0; i < 5; i++) {
        assert_int_equal(tern_msgq_put(&m.queue, &msg), 0);
    }
    assert_int_equal(m.queue.high_water, 5);
    for (int i = 0; i < 5; i++) {
        assert_true(tern_msgq_get(&m.queue, &out));
    }
    assert_int_equal(m.queue.high_water, 5); /* a maximum, not the current count */
    for (int i = 0; i < 3; i++) {
        assert_int_equal(tern_msgq_put(&m.queue, &msg), 0);
    }
    assert_int_equal(m.queue.high_water, 5);
    for (int i = 0; i < 5; i++) {
        assert_int_equal(tern_msgq_put(&m.queue, &msg), 0);
    }
    assert_int_equal(m.queue.high_water, 8);
    assert_int_equal(tern_msgq_put(&m.queue, &msg), -ENOBUFS);
    assert_int_equal(m.queue.high_water, 8);
}

static void test_tern_msgq_get__copies_whole_message(void **state)
{
    (void)state;
    tern_module_t m;
    tern_module_t sender;
    tern_msg_t slots[2];
    assert_int_equal(tern_module_init(&m, "m", 0, handler_nop, NULL, slots, 2), 0);
    int target;
    tern_msg_t msg = { .type = TERN_MSG_GET, .sender = &sender };
    msg.content.ptr = &target;
    assert_int_equal(tern_msgq_put(&m.queue, &msg), 0);
    msg.type = 0; /* queued by value */
    tern_msg_t out;
    assert_true(tern_msgq_get(&m.queue, &out));
    assert_int_equal(out.type, TERN_MSG_GET);
    assert_ptr_equal(out.sender, &sender);
    assert_ptr_equal(out.content.ptr, &target);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tern_module_init__valid),
        cmocka_unit_test(test_tern_module_init__bad_arguments),
        cmocka_unit_test(test_tern_module_init__capacity_max),
        cmocka_unit_test(test_tern_msgq_get__empty),
        cmocka_unit_test(test_tern_msgq_put__full),
        cmocka_unit_test(test_tern_msgq_put__wraps_in_fifo_order),
        cmocka_unit_test(test_tern_msgq_put__high_water),
        cmocka_unit_test(test_tern_msgq_get__copies_whole_message),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
