# SPDX-License-Identifier: BSD-3-Clause
"""Shared fixtures: the tern-node binary, a namespace with a TAP device, nodes on it, executors."""
import os
import pathlib

import pytest

from tapnode import EXECUTORS, NODE_MAC, TAP, Node, _ns_counter, run, wait_address

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def tern_node():
    """Path of tern-node: $TERN_NODE, else the gcc-debug build of scripts/test."""
    path = pathlib.Path(os.environ.get("TERN_NODE", ROOT / "build/gcc-debug/tools/tern-node/tern-node"))
    if not path.is_file():
        pytest.skip(f"tern-node not built at {path} (run ./scripts/test or set TERN_NODE)")
    return path


@pytest.fixture(scope="session")
def tern_sim():
    """Path of tern-sim: $TERN_SIM, else the gcc-debug build of scripts/test."""
    path = pathlib.Path(os.environ.get("TERN_SIM", ROOT / "build/gcc-debug/tools/tern-sim/tern-sim"))
    if not path.is_file():
        pytest.skip(f"tern-sim not built at {path} (run ./scripts/test or set TERN_SIM)")
    return path


@pytest.fixture(params=EXECUTORS)
def executor(request):
    """Each test that takes it runs once per executor (ids [loop], [threaded])."""
    return request.param


@pytest.fixture
def netns():
    """A fresh namespace with lo up and TAP device tap0 up; deleted afterwards, always."""
    name = f"tern-{os.getpid()}-{next(_ns_counter)}"
    run("ip", "netns", "add", name)
    try:
        run("ip", "netns", "exec", name, "ip", "link", "set", "lo", "up")
        run("ip", "netns", "exec", name, "ip", "tuntap", "add", "dev", TAP, "mode", "tap")
        # No DAD delay: Linux's link-local address is usable at once.
        run("ip", "netns", "exec", name, "sysctl", "-qw", f"net.ipv6.conf.{TAP}.accept_dad=0")
        run("ip", "netns", "exec", name, "ip", "link", "set", TAP, "up")
        yield name
    finally:
        run("ip", "netns", "del", name, check=False)


@pytest.fixture
def start_node(tern_node, netns):
    """start_node(*ARGS): tern-node with ARGS in the namespace; killed afterwards if still running."""
    nodes = []

    def start(*args):
        node = Node(tern_node, netns, *args)
        nodes.append(node)
        return node

    yield start
    for node in nodes:
        node.kill()


@pytest.fixture
def tap_node(start_node, executor):
    """tap_node(*ARGS, ready=True): tern-node on tap0 with NODE_MAC under the test's executor,
    with ARGS; with READY, returned once its link-local address is preferred."""

    def start(*args, ready=True):
        node = start_node("--mac", NODE_MAC, "--tap", TAP, "--executor", executor, *args)
        if ready:
            wait_address(node)
        return node

    return start
