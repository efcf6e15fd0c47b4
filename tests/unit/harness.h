/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Test support: run the same test under either executor; pktbuf checks.
 *
 * A test built with tern_test_both() is compiled twice, with HARNESS_THREADED
 * 0 (event loop, real clock, POSIX wake-up so other threads may post) and 1
 * (threaded executor, real clock). Tests use only the functions below and the
 * executor interface, so the same code runs under both.
 */
#ifndef HARNESS_H
#define HARNESS_H

#include <stdbool.h>

#include "tern/executor.h"
#include "tern/pktbuf.h"

#ifndef HARNESS_THREADED
#define HARNESS_THREADED 0
#endif

/**
 * Set up the executor selected by @p threaded (fresh state) and return it.
 * harness.c is compiled once into a library shared by both builds of a test,
 * so the choice is made at run time by harness_exec_start() below.
 */
tern_executor_t *harness_exec_start_kind(bool threaded);

/** "loop" or "threaded": the executor of this build. */
static inline const char *harness_executor_name(void)
{
    return HARNESS_THREADED ? "threaded" : "loop";
}

/** Set up the selected executor (fresh state) and return it. */
static inline tern_executor_t *harness_exec_start(void)
{
    return harness_exec_start_kind(HARNESS_THREADED != 0);
}

/** Stop the executor (joins threads) and detach every module. */
void harness_exec_stop(void);

/** Run until no module has work left (asserts success). */
void harness_run_until_idle(void);

/** Assert (cmocka) that @p pb is consistent and empty: for every teardown. */
void harness_assert_pktbuf_clean(tern_pktbuf_t *pb);

#endif /* HARNESS_H */
