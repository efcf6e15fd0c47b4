/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Test support: one event loop (with POSIX wake-up) or one threaded
 *        executor, over the real clock; pktbuf checks for teardowns.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>

#include <cmocka.h>

#include "harness.h"
#include "tern/port/posix.h"

static tern_loop_t harness_loop;
static tern_posix_loop_sync_t harness_sync;
static tern_threaded_t harness_threaded;
/** The executor started last, or NULL. */
static tern_executor_t *harness_active;

tern_executor_t *harness_exec_start_kind(bool threaded)
{
    assert_null(harness_active);
    if (threaded) {
        memset(&harness_threaded, 0, sizeof(harness_threaded));
        assert_int_equal(tern_threaded_init(&harness_threaded, tern_posix_clock()), 0);
        harness_active = &harness_threaded.base;
    } else {
        memset(&harness_loop, 0, sizeof(harness_loop));
        memset(&harness_sync, 0, sizeof(harness_sync));
        tern_loop_init(&harness_loop, tern_posix_clock());
        assert_int_equal(tern_posix_loop_bind(&harness_loop, &harness_sync), 0);
        harness_active = &harness_loop.base;
    }
    return harness_active;
}

void harness_exec_stop(void)
{
    tern_executor_t *ex = harness_active;
    if (ex == NULL) {
        return;
    }
    harness_active = NULL; /* a failure below must not fail every later setup */
    tern_executor_stop(ex);
    if (ex == &harness_loop.base) {
        tern_posix_loop_sync_destroy(&harness_sync);
    }
}

void harness_run_until_idle(void)
{
    assert_non_null(harness_active);
    assert_int_equal(tern_executor_run_until_idle(harness_active), 0);
}

void harness_assert_pktbuf_clean(tern_pktbuf_t *pb)
{
    assert_int_equal(tern_pktbuf_check(pb), 0);
    assert_true(tern_pktbuf_is_empty(pb));
}
