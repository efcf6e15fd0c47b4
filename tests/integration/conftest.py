# SPDX-License-Identifier: BSD-3-Clause
"""Shared fixtures: where the tern-node binary is."""
import os
import pathlib

import pytest

from tapnode import TAP, Node, _ns_counter, run

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def tern_node():
    """Path of tern-node: $TERN_NODE, else the gcc-debug build of scripts/test."""
    path = pathlib.Path(os.environ.get("TERN_NODE", ROOT / "build/gcc-debug/tools/tern-node/tern-node"))
    if not path.is_file():
        pytest.skip(f"tern-node not built at {path} (run ./scripts/test or set TERN_NODE)")
    return path


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
    nodes = []

    def start(*args):
        node = Node(tern_node, netns, *args)
        nodes.append(node)
        return node

    yield start
    for node in nodes:
        node.kill()
