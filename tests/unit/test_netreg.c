/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief netreg: registration, lookup by (type, context), ALL context.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "harness.h"
#include "sink.h"
#include "tern/netreg.h"
#include "tern/stack.h"

static tern_stack_t stack;
static sink_t m1, m2, m3;
static tern_netreg_entry_t e1, e2, e3;

static int setup(void **state)
{
    (void)state;
    assert_int_equal(tern_stack_init(&stack, "t", harness_exec_start()), 0);
    sink_add(&stack, &m1, "m1", 5, 8, false);
    sink_add(&stack, &m2, "m2", 5, 8, false);
    sink_add(&stack, &m3, "m3", 5, 8, false);
    tern_netreg_entry_init(&e1, 80, &m1.module);
    tern_netreg_entry_init(&e2, 443, &m2.module);
    tern_netreg_entry_init(&e3, TERN_NETREG_DEMUX_CTX_ALL, &m3.module);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    harness_run_until_idle();
    harness_exec_stop();
    harness_assert_pktbuf_clean(&stack.pktbuf);
    return 0;
}

static void test_tern_netreg_lookup__empty_registry(void **state)
{
    (void)state;
    assert_null(tern_netreg_lookup(&stack.netreg, TERN_NETTYPE_UDP, 80, NULL));
    assert_int_equal(tern_netreg_num(&stack.netreg, TERN_NETTYPE_UDP, 80), 0);
}

static void test_tern_netreg_lookup__context_and_all(void **state)
{
    (void)state;
    assert_int_equal(tern_netreg_register(&stack.netreg, TERN_NETTYPE_UDP, &e1), 0);
    assert_int_equal(tern_netreg_register(&stack.netreg, TERN_NETTYPE_UDP, &e2), 0);
    assert_int_equal(tern_netreg_register(&stack.netreg, TERN_NETTYPE_UDP, &e3), 0);

    tern_netreg_entry_t *e = tern_netreg_lookup(&stack.netreg, TERN_NETTYPE_UDP, 80, NULL);
    assert_ptr_equal(e, &e1);
    e = tern_netreg_lookup(&stack.netreg, TERN_NETTYPE_UDP, 80, e);
    assert_ptr_equal(e, &e3); /* ALL matches every context */
    assert_null(tern_netreg_lookup(&stack.netreg, TERN_NETTYPE_UDP, 80, e));

    assert_int_equal(tern_netreg_num(&stack.netreg, TERN_NETTYPE_UDP, 443), 2);
    assert_int_equal(tern_netreg_num(&stack.netreg, TERN_NETTYPE_UDP, 7), 1);
    /* Looking up ALL finds the ALL entries only. */
    assert_int_equal(tern_netreg_num(&stack.netreg, TERN_NETTYPE_UDP, TERN_NETREG_DEMUX_CTX_ALL), 1);
    /* Other types are separate. */
    assert_int_equal(tern_netreg_num(&stack.netreg, TERN_NETTYPE_TCP, 80), 0);
}

static void test_tern_netreg_collect__copies_in_registration_order(void **state)
{
    (void)state;
    assert_int_equal(tern_netreg_register(&stack.netreg, TERN_NETTYPE_IPV6, &e3), 0);
    assert_int_equal(tern_netreg_register(&stack.netreg, TERN_NETTYPE_IPV6, &e1), 0);
    tern_module_t *out[1];
    assert_int_equal(tern_netreg_collect(&stack.netreg, TERN_NETTYPE_IPV6, 80, out, 1), 2);
    assert_ptr_equal(out[0], &m3.module);
    tern_module_t *out2[4];
    assert_int_equal(tern_netreg_collect(&stack.netreg, TERN_NETTYPE_IPV6, 80, out2, 4), 2);
    assert_ptr_equal(out2[1], &m1.module);
}

static void test_tern_netreg_collect_exact__without_all_entries(void **state)
{
    (void)state;
    tern_netreg_entry_t e4;
    tern_netreg_entry_init(&e4, 80, &m2.module);
    assert_int_equal(tern_netreg_register(&stack.netreg, TERN_NETTYPE_UDP, &e1), 0);
    assert_int_equal(tern_netreg_register(&stack.netreg, TERN_NETTYPE_UDP, &e3), 0);
    assert_int_equal(tern_netreg_register(&stack.netreg, TERN_NETTYPE_UDP, &e2), 0);
    assert_int_equal(tern_netreg_register(&stack.netreg, TERN_NETTYPE_UDP, &e4), 0);
    tern_module_t *out[4] = { NULL };
    /* e1 and e4 in registration order; the ALL entry e3 is left out */
    assert_int_equal(tern_netreg_collect_exact(&stack.netreg, TERN_NETTYPE_UDP, 80, out, 4), 2);
    assert_ptr_equal(out[0], &m1.module);
    assert_ptr_equal(out[1], &m2.module);
    assert_null(out[2]);
    /* the count goes beyond max; NULL out counts only */
    assert_int_equal(tern_netreg_collect_exact(&stack.netreg, TERN_NETTYPE_UDP, 80, out, 1), 2);
    assert_int_equal(tern_netreg_collect_exact(&stack.netreg, TERN_NETTYPE_UDP, 443, NULL, 4), 1);
    assert_int_equal(tern_netreg_collect_exact(&stack.netreg, TERN_NETTYPE_UDP, 7, out, 4), 0);
    assert_int_equal(tern_netreg_collect_exact(&stack.netreg, TERN_NETTYPE_UDP, TERN_NETREG_DEMUX_CTX_ALL, out, 4),
                     1);
    assert_ptr_equal(out[0], &m3.module);
    assert_int_equal(tern_netreg_collect_exact(&stack.netreg, TERN_NETTYPE_NUMOF, 80, out, 4), 0);
    assert_int_equal(tern_netreg_collect_exact(NULL, TERN_NETTYPE_UDP, 80, out, 4), 0);
    assert_int_equal(tern_netreg_unregister(&stack.netreg, TERN_NETTYPE_UDP, &e4), 0);
}

static unsigned lock_calls;

static void count_lock_call(void *ctx)
{
    (void)ctx;
    lock_calls++;
}

static void test_tern_netreg_sole__one_matching_entry_and_no_lock(void **state)
{
    (void)state;
    tern_netreg_t reg;
    tern_netreg_init(&reg, NULL);
    assert_null(tern_netreg_sole(&reg, TERN_NETTYPE_UDP, 80)); /* empty */
    assert_int_equal(tern_netreg_register(&reg, TERN_NETTYPE_UDP, &e1), 0);
    assert_ptr_equal(tern_netreg_sole(&reg, TERN_NETTYPE_UDP, 80), &m1.module);
    assert_null(tern_netreg_sole(&reg, TERN_NETTYPE_UDP, 443)); /* does not match */
    assert_null(tern_netreg_sole(&reg, TERN_NETTYPE_UDP, TERN_NETREG_DEMUX_CTX_ALL)); /* ALL finds ALL only */
    assert_int_equal(tern_netreg_register(&reg, TERN_NETTYPE_UDP, &e2), 0);
    assert_null(tern_netreg_sole(&reg, TERN_NETTYPE_UDP, 80)); /* not the only entry */
    assert_int_equal(tern_netreg_register(&reg, TERN_NETTYPE_IPV6, &e3), 0);
    assert_ptr_equal(tern_netreg_sole(&reg, TERN_NETTYPE_IPV6, 7), &m3.module);
    assert_ptr_equal(tern_netreg_sole(&reg, TERN_NETTYPE_IPV6, TERN_NETREG_DEMUX_CTX_ALL), &m3.module);

    /* A lock without functions is none; one with functions sends the caller
     * to tern_netreg_collect(), which takes it. */
    const tern_lock_t noop = { NULL, NULL, NULL };
    reg.lock = &noop;
    assert_true(tern_lock_is_noop(&noop));
    assert_ptr_equal(tern_netreg_sole(&reg, TERN_NETTYPE_IPV6, 7), &m3.module);
    const tern_lock_t real = { count_lock_call, count_lock_call, NULL };
    reg.lock = &real;
    assert_false(tern_lock_is_noop(&real));
    lock_calls = 0;
    assert_null(tern_netreg_sole(&reg, TERN_NETTYPE_IPV6, 7));
    assert_int_equal(lock_calls, 0);
    tern_module_t *out[2];
    assert_int_equal(tern_netreg_collect(&reg, TERN_NETTYPE_IPV6, 7, out, 2), 1);
    assert_ptr_equal(out[0], &m3.module);
    assert_int_equal(lock_calls, 2);
    reg.lock = NULL;
    assert_int_equal(tern_netreg_collect(&reg, TERN_NETTYPE_UDP, 80, out, 2), 1);
    assert_int_equal(lock_calls, 2);
}

static void test_tern_netreg_register__twice_is_refused(void **state)
{
    (void)state;
    assert_int_equal(tern_netreg_register(&stack.netreg, TERN_NETTYPE_UDP, &e1), 0);
    assert_int_equal(tern_netreg_register(&stack.netreg, TERN_NETTYPE_UDP, &e1), -EALREADY);
    assert_int_equal(tern_netreg_register(&stack.netreg, TERN_NETTYPE_TCP, &e1), -EALREADY);
    assert_int_equal(tern_netreg_num(&stack.netreg, TERN_NETTYPE_UDP, 80), 1);
}

static void test_tern_netreg_register__invalid_arguments(void **state)
{
    (void)state;
    tern_netreg_entry_t no_module;
    tern_netreg_entry_init(&no_module, 1, NULL);
    assert_int_equal(tern_netreg_register(&stack.netreg, TERN_NETTYPE_UDP, &no_module), -EINVAL);
    assert_int_equal(tern_netreg_register(&stack.netreg, TERN_NETTYPE_NUMOF, &e1), -EINVAL);
    assert_int_equal(tern_netreg_register(NULL, TERN_NETTYPE_UDP, &e1), -EINVAL);
    assert_int_equal(tern_netreg_register(&stack.netreg, TERN_NETTYPE_UDP, NULL), -EINVAL);
    assert_null(tern_netreg_lookup(&stack.netreg, TERN_NETTYPE_NUMOF, 1, NULL));
}

static void test_tern_netreg_unregister__removes_only_that_entry(void **state)
{
    (void)state;
    assert_int_equal(tern_netreg_register(&stack.netreg, TERN_NETTYPE_UDP, &e1), 0);
    assert_int_equal(tern_netreg_register(&stack.netreg, TERN_NETTYPE_UDP, &e2), 0);
    assert_int_equal(tern_netreg_unregister(&stack.netreg, TERN_NETTYPE_UDP, &e1), 0);
    assert_int_equal(tern_netreg_num(&stack.netreg, TERN_NETTYPE_UDP, 80), 0);
    assert_int_equal(tern_netreg_num(&stack.netreg, TERN_NETTYPE_UDP, 443), 1);
    assert_int_equal(tern_netreg_unregister(&stack.netreg, TERN_NETTYPE_UDP, &e1), -ENOENT);
    assert_int_equal(tern_netreg_unregister(&stack.netreg, TERN_NETTYPE_TCP, &e2), -ENOENT);
    /* Unregistered entries can be registered again. */
    assert_int_equal(tern_netreg_register(&stack.netreg, TERN_NETTYPE_TCP, &e1), 0);
}

/* tern_stack_init() relies on it: only the lock set on a zeroed registry. */
static void test_tern_netreg_init__zero_but_the_lock(void **state)
{
    (void)state;
    tern_netreg_t reg;
    tern_netreg_t zero;
    memset(&reg, 0xa5, sizeof(reg));
    memset(&zero, 0, sizeof(zero));
    tern_netreg_init(&reg, NULL);
    assert_memory_equal(&reg, &zero, sizeof(reg));
    assert_ptr_equal(stack.netreg.lock, &stack.exec->lock); /* set by tern_stack_init() in setup */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_tern_netreg_init__zero_but_the_lock, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_netreg_lookup__empty_registry, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_netreg_lookup__context_and_all, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_netreg_collect__copies_in_registration_order, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_netreg_collect_exact__without_all_entries, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_netreg_sole__one_matching_entry_and_no_lock, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_netreg_register__twice_is_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_netreg_register__invalid_arguments, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_netreg_unregister__removes_only_that_entry, setup, teardown),
    };
    cmocka_set_message_output(CM_OUTPUT_STDOUT);
    return cmocka_run_group_tests_name(harness_executor_name(), tests, NULL, NULL);
}
