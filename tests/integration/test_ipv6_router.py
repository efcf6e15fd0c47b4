# SPDX-License-Identifier: BSD-3-Clause
"""Router discovery of tern-node against Linux over TAP (RFC 4861 §6, RFC 4862 §5.5.3).

(a) The node as router: Linux learns a prefix, an address and a default route from its Router
    Advertisements and pings the node's global address.
(b) The node as host: radvd in the namespace advertises a prefix; the node forms an address
    (SLAAC) and installs a default route.
"""
import re
import shutil
import subprocess

import pytest

from tapnode import NODE_LL, TAP, linux_link_local, needs_ping, needs_tap, ns_run, poll

pytestmark = needs_tap


@needs_ping
def test_node_as_router_configures_linux(tap_node, netns):
    # Linux as a host that takes RAs (accept_ra=2 even if forwarding were on).
    ns_run(netns, "sysctl", "-qw", f"net.ipv6.conf.{TAP}.forwarding=0")
    ns_run(netns, "sysctl", "-qw", f"net.ipv6.conf.{TAP}.accept_ra=2")
    node = tap_node("--router", ready=False)
    assert node.run(f"ifconfig {TAP} add 2001:db8:1::1/64").strip() == ""
    assert "router" in node.run(f"ifconfig {TAP}")

    def linux_global():
        out = ns_run(netns, "ip", "-6", "addr", "show", "dev", TAP).stdout
        return re.search(r"inet6 (2001:db8:1:0:[0-9a-f:]+)/64 scope global dynamic", out)

    # The first RA goes once the node's link-local address is preferred (< 2 s); the one with
    # the prefix when 2001:db8:1::1 is (1 s of DAD), at least 3 s after the previous one.
    m = poll("a SLAAC address on Linux", linux_global, 25)
    linux_addr = m.group(1)

    def default_route():
        out = ns_run(netns, "ip", "-6", "route", "show", "default").stdout
        return re.search(rf"default via {re.escape(NODE_LL)} dev {TAP} proto ra", out)

    poll("a default route via the node", default_route, 10)
    result = ns_run(netns, "ping", "-6", "-n", "-c", "3", "-i", "0.2", "-W", "2", "2001:db8:1::1",
                    check=False)
    assert " 3 received" in result.stdout, result.stdout + result.stderr
    # Linux still holds the node as its router (the node's NAs carry R, RFC 4861 §7.2.5).
    assert default_route(), ns_run(netns, "ip", "-6", "route").stdout
    assert node.counter("stats ipv6", r"^ipv6\s+ra_sent\s+(\d+)") >= 1
    assert node.counter("stats ipv6", r"^ipv6\s+rs_sent\s+(\d+)") == 0
    assert linux_addr.startswith("2001:db8:1:")
    node.finish_clean()


RADVD_CONF = """interface tap0 {
    AdvSendAdvert on;
    MinRtrAdvInterval 3;
    MaxRtrAdvInterval 4;
    AdvDefaultLifetime 600;
    prefix 2001:db8:2::/64 {
        AdvOnLink on;
        AdvAutonomous on;
    };
};
"""


@pytest.fixture
def radvd(netns, tmp_path):
    """radvd advertising 2001:db8:2::/64 on tap0 of the namespace; stopped afterwards."""
    binary = shutil.which("radvd") or shutil.which("radvd", path="/usr/sbin:/sbin")
    if binary is None:
        pytest.skip("radvd not installed (scripts/deps.sh test installs it)")
    conf = tmp_path / "radvd.conf"
    conf.write_text(RADVD_CONF)
    # radvd wants forwarding on to act as a router.
    ns_run(netns, "sysctl", "-qw", "net.ipv6.conf.all.forwarding=1")
    proc = subprocess.Popen(["ip", "netns", "exec", netns, binary, "-n", "-C", str(conf),
                             "-p", str(tmp_path / "radvd.pid"), "-m", "stderr", "-u", "root"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)


def test_node_as_host_autoconfigures_from_radvd(tap_node, netns, radvd):
    node = tap_node(ready=False)
    slaac = "2001:db8:2::5eff:fe00:5301"

    def configured():
        out = node.run(f"ifconfig {TAP}")
        return re.search(rf"inet6 {re.escape(slaac)}/64  scope: global  preferred  autoconf", out)

    try:
        poll("the SLAAC address", configured, 20)
    except AssertionError:
        radvd.terminate()
        raise AssertionError("no autoconf address:\n" + node.run(f"ifconfig {TAP}") + radvd.communicate()[1])
    linux_ll = linux_link_local(netns)
    routes = node.run("nib route")
    assert re.search(rf"^::/0\s+via {re.escape(linux_ll)}\s+dev {TAP}\s+ra\s+expires \d+s", routes, re.M), routes
    prefixes = node.run("nib prefix")
    assert re.search(rf"^2001:db8:2::/64\s+dev {TAP}\s+valid \d+s", prefixes, re.M), prefixes
    assert node.counter("stats ipv6", r"^ipv6\s+ra_received\s+(\d+)") >= 1
    assert node.counter("stats ipv6", r"^ipv6\s+ndp_invalid\s+(\d+)") == 0
    # Linux, with an address of its own on the prefix, reaches the node's new address.
    ns_run(netns, "ip", "-6", "addr", "add", "2001:db8:2::1/64", "dev", TAP, "nodad")
    result = ns_run(netns, "ping", "-6", "-n", "-c", "2", "-i", "0.2", "-W", "2", slaac, check=False)
    assert " 2 received" in result.stdout, result.stdout + result.stderr
    node.finish_clean()
