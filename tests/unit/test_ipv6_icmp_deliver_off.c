/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The IPv6 module built without ICMPv6 delivery to other modules
 *        (TERN_CONF_ICMPV6_DELIVER 0), as the 6LoWPAN host footprint image
 *        has it: echo replies and other informational types are counted as
 *        icmp_unhandled, not looked up for a listener, even with one
 *        registered; echo requests are still answered (RFC 4443 §4.2). The
 *        vnode fixture over the library built again with the switch
 *        (tests/unit/CMakeLists.txt).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "vnode.h"
#include "tern/ipv6/ipv6.h"
#include "tern/module.h"
#include "tern/netapi.h"
#include "tern/netreg.h"
#include "tern/wire/icmpv6.h"
#include "tern/wire/ndp.h"

_Static_assert(!TERN_CONF_ICMPV6_DELIVER, "built without ICMPv6 delivery (tests/unit/CMakeLists.txt)");

static int setup(void **state)
{
    (void)state;
    vnode_setup(1500);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    vnode_teardown();
    return 0;
}

/* A module that would take ICMPv6 messages: counts what it gets. Static: the
 * stack keeps it until the fixture's teardown. */
static unsigned listener_got;
static tern_module_t listener;
static tern_msg_t listener_queue[4];
static tern_netreg_entry_t by_id;
static tern_netreg_entry_t by_type;

static int listener_handle(tern_module_t *self, tern_msg_t *msg)
{
    if (msg->type == TERN_MSG_RCV) {
        listener_got++;
        tern_pktbuf_release(&self->stack->pktbuf, msg->content.pkt);
    }
    return 0;
}

static void test_icmp_deliver_off__replies_and_types_unhandled_requests_answered(void **state)
{
    (void)state;
    settle();
    assert_int_equal(tern_module_init(&listener, "listener", 5, listener_handle, NULL, listener_queue, 4), 0);
    assert_int_equal(tern_stack_add_module(&stack, &listener), 0);
    tern_netreg_entry_init(&by_id, 0x1234, &listener); /* ping's registration: the echo identifier */
    tern_netreg_entry_init(&by_type, TERN_IPV6_ICMPV6_TYPE_DEMUX(200u), &listener);
    assert_int_equal(tern_netreg_register(&stack.netreg, TERN_NETTYPE_ICMPV6, &by_id), 0);
    assert_int_equal(tern_netreg_register(&stack.netreg, TERN_NETTYPE_ICMPV6, &by_type), 0);

    uint8_t pkt[256];
    uint8_t msg[64];
    static const uint8_t data[4] = "ping";
    tern_icmpv6_echo_repr_t reply = { .type = TERN_ICMPV6_ECHO_REPLY, .identifier = 0x1234, .sequence = 1,
                                      .data = data, .data_len = sizeof(data) };
    int n = tern_icmpv6_echo_emit(&reply, msg, sizeof(msg));
    assert_true(n > 0);
    receive(pkt, build_icmp(pkt, PEER_LL, NODE_LL, 64, msg, (size_t)n));
    const uint8_t other[8] = { 200, 0, 0, 0, 1, 2, 3, 4 }; /* an informational type with a listener */
    receive(pkt, build_icmp(pkt, PEER_LL, NODE_LL, 64, other, sizeof(other)));
    assert_int_equal(listener_got, 0);
    assert_int_equal(counter(TERN_IPV6_ICMP_UNHANDLED), 2);
    assert_int_equal(counter(TERN_IPV6_ICMP_NO_LISTENER), 0);

    /* The module's own answers are not deliveries: an echo request is answered
     * (once the peer is resolved: its NS first, test_ipv6_module). */
    receive(pkt, build_echo(pkt, PEER_LL, NODE_LL, 7));
    assert_int_equal(counter(TERN_IPV6_ICMP_ECHO_IN), 1);
    receive(pkt, build_na(pkt, PEER_LL, NODE_LL, PEER_LL, TERN_NDP_NA_FLAG_SOLICITED | TERN_NDP_NA_FLAG_OVERRIDE));
    tern_ipv6_repr_t h;
    assert_int_equal(nsent, 2);
    assert_int_equal(sent_icmp(0, &h), TERN_ICMPV6_NEIGHBOR_SOLICIT);
    assert_int_equal(sent_icmp(1, &h), TERN_ICMPV6_ECHO_REPLY);
    assert_int_equal(listener_got, 0);

    assert_int_equal(tern_netreg_unregister(&stack.netreg, TERN_NETTYPE_ICMPV6, &by_id), 0);
    assert_int_equal(tern_netreg_unregister(&stack.netreg, TERN_NETTYPE_ICMPV6, &by_type), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_icmp_deliver_off__replies_and_types_unhandled_requests_answered, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
