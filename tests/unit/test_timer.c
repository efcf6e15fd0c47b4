/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Timer list, timers and timer firing, over a fake executor with a
 *        virtual clock, a recording post operation and a checking lock.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <errno.h>
#include <string.h>

#include <cmocka.h>

#include "tern/executor.h"

#define FAKE_MAX_POSTS 64

/** One recorded post. */
typedef struct {
    tern_module_t *to;
    tern_msg_t msg;
    uint64_t at; /**< virtual time of the post */
} fake_post_t;

/** A fake executor: records posts and checks the lock discipline. */
typedef struct {
    tern_executor_t base;
    tern_vclock_t clock;
    fake_post_t posts[FAKE_MAX_POSTS];
    size_t post_count;
    bool refuse_posts;     /**< answer -ENOBUFS */
    unsigned lock_depth;   /**< the lock is held now */
    unsigned lock_taken;   /**< times the lock was taken */
    unsigned changed;      /**< timers_changed() calls */
} fake_exec_t;

static void fake_acquire(void *ctx)
{
    fake_exec_t *fx = ctx;
    assert_int_equal(fx->lock_depth, 0); /* not recursive */
    fx->lock_depth++;
    fx->lock_taken++;
}

static void fake_release(void *ctx)
{
    fake_exec_t *fx = ctx;
    assert_int_equal(fx->lock_depth, 1);
    fx->lock_depth--;
}

static int fake_post(tern_executor_t *ex, tern_module_t *to, const tern_msg_t *msg)
{
    fake_exec_t *fx = (fake_exec_t *)(void *)ex;
    assert_int_equal(fx->lock_depth, 0); /* never post under the lock */
    if (fx->refuse_posts) {
        to->queue_full++;
        return -ENOBUFS;
    }
    assert_true(fx->post_count < FAKE_MAX_POSTS);
    fx->posts[fx->post_count].to = to;
    fx->posts[fx->post_count].msg = *msg;
    fx->posts[fx->post_count].at = fx->clock.now;
    fx->post_count++;
    return 0;
}

static void fake_timers_changed(tern_executor_t *ex)
{
    fake_exec_t *fx = (fake_exec_t *)(void *)ex;
    assert_int_equal(fx->lock_depth, 0); /* told after the lock is released */
    fx->changed++;
}

static const tern_executor_ops_t fake_ops = {
    .post = fake_post,
    .timers_changed = fake_timers_changed,
};

static fake_exec_t fx;
static tern_module_t mod;
static tern_msg_t mod_slots[8];

static int handler_nop(tern_module_t *self, tern_msg_t *msg)
{
    (void)self;
    (void)msg;
    return 0;
}

static int setup(void **state)
{
    (void)state;
    memset(&fx, 0, sizeof(fx));
    tern_vclock_init(&fx.clock, 1000);
    fx.base.ops = &fake_ops;
    fx.base.clock = &fx.clock.base;
    fx.base.lock.acquire = fake_acquire;
    fx.base.lock.release = fake_release;
    fx.base.lock.ctx = &fx;
    fx.base.name = "fake";
    assert_int_equal(tern_module_init(&mod, "mod", 0, handler_nop, NULL, mod_slots, 8), 0);
    mod.exec = &fx.base; /* attached, as far as timers care */
    return 0;
}

/** Deadlines of the list, in order, into @p out; returns the count. */
static size_t list_deadlines(const tern_timerq_t *q, uint64_t *out, size_t max)
{
    size_t n = 0;
    for (const tern_timer_t *t = q->head; t != NULL && n < max; t = t->next) {
        out[n++] = t->deadline_us;
    }
    return n;
}

static void arm_raw(tern_timerq_t *q, tern_timer_t *t, uint64_t deadline, uintptr_t value)
{
    tern_timer_init(t, &mod, TERN_MSG_TIMER, value);
    t->deadline_us = deadline;
    tern_timerq_insert(q, t);
}

static void test_tern_timerq_insert__sorted_by_deadline(void **state)
{
    (void)state;
    tern_timerq_t q = { 0 };
    tern_timer_t t[5];
    const uint64_t deadlines[5] = { 50, 10, 40, 20, 30 };
    for (size_t i = 0; i < 5; i++) {
        arm_raw(&q, &t[i], deadlines[i], i);
        assert_true(t[i].armed);
    }
    uint64_t got[8];
    assert_int_equal(list_deadlines(&q, got, 8), 5);
    for (size_t i = 0; i < 5; i++) {
        assert_int_equal(got[i], 10u * (i + 1u));
    }
    assert_int_equal(tern_timerq_next(&q), 10);
}

static void test_tern_timerq_insert__equal_deadlines_fifo(void **state)
{
    (void)state;
    tern_timerq_t q = { 0 };
    tern_timer_t t[6];
    arm_raw(&q, &t[0], 100, 0);
    arm_raw(&q, &t[1], 50, 1);
    arm_raw(&q, &t[2], 100, 2);
    arm_raw(&q, &t[3], 100, 3);
    arm_raw(&q, &t[4], 50, 4);
    arm_raw(&q, &t[5], 200, 5);
    const uintptr_t order[6] = { 1, 4, 0, 2, 3, 5 };
    for (size_t i = 0; i < 6; i++) {
        tern_timer_t *p = tern_timerq_pop_expired(&q, UINT64_MAX);
        assert_non_null(p);
        assert_int_equal(p->value, order[i]);
        assert_false(p->armed);
    }
    assert_null(q.head);
}

static void test_tern_timerq_next__empty(void **state)
{
    (void)state;
    tern_timerq_t q = { 0 };
    assert_int_equal(tern_timerq_next(&q), UINT64_MAX);
    assert_null(tern_timerq_pop_expired(&q, UINT64_MAX));
}

static void test_tern_timerq_remove__head_middle_tail_absent(void **state)
{
    (void)state;
    tern_timerq_t q = { 0 };
    tern_timer_t t[4];
    tern_timer_t other;
    for (size_t i = 0; i < 4; i++) {
        arm_raw(&q, &t[i], 10u * (i + 1u), i);
    }
    tern_timerq_remove(&q, &t[1]); /* middle */
    tern_timerq_remove(&q, &t[0]); /* head */
    tern_timerq_remove(&q, &t[3]); /* tail */
    tern_timer_init(&other, &mod, TERN_MSG_TIMER, 9);
    tern_timerq_remove(&q, &other); /* absent: no effect */
    assert_false(t[0].armed);
    assert_false(t[1].armed);
    assert_false(t[3].armed);
    assert_true(t[2].armed);
    assert_ptr_equal(q.head, &t[2]);
    assert_null(t[2].next);
    tern_timerq_remove(&q, &t[2]);
    assert_null(q.head);
    assert_int_equal(tern_timerq_next(&q), UINT64_MAX);
}

static void test_tern_timerq_pop_expired__only_due(void **state)
{
    (void)state;
    tern_timerq_t q = { 0 };
    tern_timer_t t[3];
    arm_raw(&q, &t[0], 10, 0);
    arm_raw(&q, &t[1], 20, 1);
    arm_raw(&q, &t[2], 30, 2);
    assert_null(tern_timerq_pop_expired(&q, 9));
    assert_ptr_equal(tern_timerq_pop_expired(&q, 20), &t[0]);
    assert_ptr_equal(tern_timerq_pop_expired(&q, 20), &t[1]); /* deadline == now is due */
    assert_null(tern_timerq_pop_expired(&q, 20));
    assert_int_equal(tern_timerq_next(&q), 30);
}

static void test_tern_timer_set__relative_to_clock(void **state)
{
    (void)state;
    tern_timer_t t;
    tern_timer_init(&t, &mod, TERN_MSG_TIMER, 7);
    assert_false(tern_timer_is_armed(&t));
    assert_int_equal(tern_timer_set(&t, 500), 0);
    assert_true(tern_timer_is_armed(&t));
    assert_int_equal(t.deadline_us, 1500);
    assert_int_equal(tern_timerq_next(&fx.base.timers), 1500);
    assert_int_equal(fx.changed, 1);
    assert_true(fx.lock_taken >= 1);
    assert_int_equal(fx.lock_depth, 0);
}

static void test_tern_timer_set__saturates(void **state)
{
    (void)state;
    tern_timer_t t;
    tern_timer_init(&t, &mod, TERN_MSG_TIMER, 0);
    assert_int_equal(tern_timer_set(&t, UINT64_MAX - 10), 0);
    assert_int_equal(t.deadline_us, UINT64_MAX);
}

static void test_tern_timer_set__not_attached(void **state)
{
    (void)state;
    tern_module_t lone;
    tern_msg_t slots[2];
    assert_int_equal(tern_module_init(&lone, "lone", 0, handler_nop, NULL, slots, 2), 0);
    tern_timer_t t;
    tern_timer_init(&t, &lone, TERN_MSG_TIMER, 0);
    assert_int_equal(tern_timer_set(&t, 10), -EINVAL);
    assert_int_equal(tern_timer_set_absolute(&t, 10), -EINVAL);
    assert_false(tern_timer_is_armed(&t));
    assert_int_equal(tern_timer_set(NULL, 10), -EINVAL);
    tern_timer_init(&t, NULL, TERN_MSG_TIMER, 0);
    assert_int_equal(tern_timer_set(&t, 10), -EINVAL);
    tern_timer_cancel(&t);   /* harmless */
    tern_timer_cancel(NULL); /* harmless */
    assert_false(tern_timer_is_armed(NULL));
}

static void test_tern_timer_set__rearm_moves(void **state)
{
    (void)state;
    tern_timer_t a;
    tern_timer_t b;
    tern_timer_init(&a, &mod, TERN_MSG_TIMER, 1);
    tern_timer_init(&b, &mod, TERN_MSG_TIMER, 2);
    assert_int_equal(tern_timer_set_absolute(&a, 2000), 0);
    assert_int_equal(tern_timer_set_absolute(&b, 3000), 0);
    assert_int_equal(tern_timer_set_absolute(&a, 4000), 0); /* move behind b */
    uint64_t got[4];
    assert_int_equal(list_deadlines(&fx.base.timers, got, 4), 2); /* not duplicated */
    assert_ptr_equal(fx.base.timers.head, &b);
    assert_ptr_equal(b.next, &a);
    assert_int_equal(tern_timer_set_absolute(&a, 1500), 0); /* and back in front */
    assert_ptr_equal(fx.base.timers.head, &a);
    assert_ptr_equal(a.next, &b);
    assert_null(b.next);
    assert_int_equal(fx.changed, 4);
}

static void test_tern_timer_cancel__disarms(void **state)
{
    (void)state;
    tern_timer_t a;
    tern_timer_t b;
    tern_timer_init(&a, &mod, TERN_MSG_TIMER, 1);
    tern_timer_init(&b, &mod, TERN_MSG_TIMER, 2);
    assert_int_equal(tern_timer_set(&a, 10), 0);
    assert_int_equal(tern_timer_set(&b, 20), 0);
    tern_timer_cancel(&a);
    assert_false(tern_timer_is_armed(&a));
    assert_true(tern_timer_is_armed(&b));
    assert_ptr_equal(fx.base.timers.head, &b);
    unsigned changed = fx.changed;
    tern_timer_cancel(&a); /* not armed: nothing happens */
    assert_int_equal(fx.changed, changed);
    tern_timer_cancel(&b);
    assert_null(fx.base.timers.head);
    assert_int_equal(tern_executor_fire_timers(&fx.base, UINT64_MAX), 0);
    assert_int_equal(fx.post_count, 0);
}

static void test_tern_executor_fire_timers__posts_due_in_order(void **state)
{
    (void)state;
    tern_timer_t t[4];
    for (uintptr_t i = 0; i < 4; i++) {
        tern_timer_init(&t[i], &mod, (uint16_t)(TERN_MSG_USER + i), 100 + i);
    }
    assert_int_equal(tern_timer_set(&t[2], 30), 0);
    assert_int_equal(tern_timer_set(&t[0], 10), 0);
    assert_int_equal(tern_timer_set(&t[3], 40), 0);
    assert_int_equal(tern_timer_set(&t[1], 10), 0);
    assert_int_equal(tern_executor_fire_timers(&fx.base, 1009), 0);
    assert_int_equal(tern_executor_fire_timers(&fx.base, 1030), 3);
    assert_int_equal(fx.post_count, 3);
    const uintptr_t order[3] = { 0, 1, 2 };
    for (size_t i = 0; i < 3; i++) {
        assert_ptr_equal(fx.posts[i].to, &mod);
        assert_int_equal(fx.posts[i].msg.type, TERN_MSG_USER + order[i]);
        assert_int_equal(fx.posts[i].msg.content.value, 100 + order[i]);
        assert_null(fx.posts[i].msg.sender); /* a timer's message has no sender */
        assert_false(t[order[i]].armed);
    }
    assert_true(tern_timer_is_armed(&t[3]));
    assert_int_equal(fx.base.timers.lost, 0);
}

static void test_tern_executor_fire_timers__full_queue_counts_lost(void **state)
{
    (void)state;
    tern_timer_t t[2];
    tern_timer_init(&t[0], &mod, TERN_MSG_TIMER, 0);
    tern_timer_init(&t[1], &mod, TERN_MSG_TIMER, 1);
    assert_int_equal(tern_timer_set(&t[0], 0), 0);
    assert_int_equal(tern_timer_set(&t[1], 0), 0);
    fx.refuse_posts = true;
    assert_int_equal(tern_executor_fire_timers(&fx.base, 1000), 2);
    assert_int_equal(fx.base.timers.lost, 2);
    assert_int_equal(mod.queue_full, 2);
    assert_false(tern_timer_is_armed(&t[0]));
    assert_null(fx.base.timers.head);
}

static void test_tern_executor_fire_timers__rearm_from_list_after_fire(void **state)
{
    (void)state;
    /* A periodic timer re-armed after each expiry fires once per period. */
    tern_timer_t t;
    tern_timer_init(&t, &mod, TERN_MSG_TIMER, 5);
    assert_int_equal(tern_timer_set(&t, 100), 0);
    for (int i = 0; i < 10; i++) {
        uint64_t next = tern_timerq_next(&fx.base.timers);
        tern_vclock_advance_to(&fx.clock, next);
        assert_int_equal(tern_executor_fire_timers(&fx.base, fx.clock.now), 1);
        assert_int_equal(tern_timer_set(&t, 100), 0);
    }
    assert_int_equal(fx.post_count, 10);
    for (size_t i = 0; i < 10; i++) {
        assert_int_equal(fx.posts[i].at, 1000u + 100u * (i + 1u));
    }
}

static void test_tern_vclock_advance_to__never_goes_back(void **state)
{
    (void)state;
    tern_vclock_t c;
    tern_vclock_init(&c, 42);
    assert_true(c.base.is_virtual);
    assert_int_equal(tern_clock_now(&c.base), 42);
    tern_vclock_advance_to(&c, 100);
    assert_int_equal(tern_clock_now(&c.base), 100);
    tern_vclock_advance_to(&c, 50);
    assert_int_equal(tern_clock_now(&c.base), 100);
    tern_vclock_advance_to(&c, UINT64_MAX);
    assert_int_equal(tern_clock_now(&c.base), UINT64_MAX);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_tern_timerq_insert__sorted_by_deadline, setup),
        cmocka_unit_test_setup(test_tern_timerq_insert__equal_deadlines_fifo, setup),
        cmocka_unit_test_setup(test_tern_timerq_next__empty, setup),
        cmocka_unit_test_setup(test_tern_timerq_remove__head_middle_tail_absent, setup),
        cmocka_unit_test_setup(test_tern_timerq_pop_expired__only_due, setup),
        cmocka_unit_test_setup(test_tern_timer_set__relative_to_clock, setup),
        cmocka_unit_test_setup(test_tern_timer_set__saturates, setup),
        cmocka_unit_test_setup(test_tern_timer_set__not_attached, setup),
        cmocka_unit_test_setup(test_tern_timer_set__rearm_moves, setup),
        cmocka_unit_test_setup(test_tern_timer_cancel__disarms, setup),
        cmocka_unit_test_setup(test_tern_executor_fire_timers__posts_due_in_order, setup),
        cmocka_unit_test_setup(test_tern_executor_fire_timers__full_queue_counts_lost, setup),
        cmocka_unit_test_setup(test_tern_executor_fire_timers__rearm_from_list_after_fire, setup),
        cmocka_unit_test_setup(test_tern_vclock_advance_to__never_goes_back, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
