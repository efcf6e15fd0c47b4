# SPDX-License-Identifier: BSD-3-Clause
"""Shared by the tests that put tern-node on a TAP device inside a network namespace.

- `Node`: tern-node driven line by line (its output is collected by a thread);
- the Linux side: `ns_run` (a command in the namespace), `ns_socket` (a socket that lives in the
  namespace, used from the test process itself), `linux_link_local`, `linux_mac`, `linux_ping`;
- waiting: `poll`, `wait_ifconfig`, `wait_address`, `add_global_addresses`;
- captures: `assert_capture_clean`, `tshark`;
- the test patterns: `pattern` (what `udp send -s` sends), `escape` and `udp_line` (how
  `udp server` prints a datagram).
"""
import ctypes
import itertools
import os
import queue
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import zlib

import pytest

EXECUTORS = ["loop", "threaded"]
TAP = "tap0"
NODE_MAC = "02:00:5e:00:53:01"
# Modified EUI-64 of NODE_MAC 02:00:5e:00:53:01 (RFC 4291 App. A: U/L bit flipped, ff:fe inserted):
# 00:00:5e:ff:fe:00:53:01.
NODE_LL = "fe80::5eff:fe00:5301"
# Global addresses on the on-link prefix 2001:db8::/64 (RFC 3849 documentation prefix).
NODE_GLOBAL = "2001:db8::6"
LINUX_GLOBAL = "2001:db8::7"
# The largest data of one Ethernet frame: 1500 - 40 (IPv6) - 8 (ICMPv6 echo or UDP header).
FRAME_DATA_MAX = 1452
_ns_counter = itertools.count()


def _skip_reason():
    if not sys.platform.startswith("linux"):
        return "TAP tests need Linux"
    if os.geteuid() != 0:
        return "TAP tests need root (network namespaces, TAP devices)"
    if not os.path.exists("/dev/net/tun"):
        return "TAP tests need /dev/net/tun"
    if shutil.which("ip") is None:
        return "TAP tests need iproute2 ('ip')"
    return None


needs_tap = pytest.mark.skipif(_skip_reason() is not None, reason=_skip_reason() or "")
needs_ping = pytest.mark.skipif(shutil.which("ping") is None, reason="needs ping (iputils-ping)")


def run(*args, check=True, timeout=20):
    return subprocess.run(list(args), capture_output=True, text=True, timeout=timeout, check=check)


def ns_run(ns, *args, check=True, timeout=20):
    """Run ARGS inside namespace NS; return the completed process."""
    return run("ip", "netns", "exec", ns, *args, check=check, timeout=timeout)


class Node:
    """tern-node inside a namespace, driven line by line; output collected by a thread."""

    def __init__(self, binary, ns, *args):
        self.proc = subprocess.Popen(
            ["ip", "netns", "exec", ns, str(binary), *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.lines = queue.Queue()
        self.output = []
        self._marks = 0
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def _tail(self, lines=60):
        """The last LINES lines of output, for failure messages (a sweep prints thousands)."""
        shown = self.output[-lines:]
        cut = len(self.output) - len(shown)
        return (f"[{cut} earlier lines not shown]\n" if cut else "") + "".join(shown)

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def expect(self, pattern, timeout=10.0):
        """Read output until a line matches PATTERN; return the match."""
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no line matching {pattern!r}; output:\n{self._tail()}")
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                raise AssertionError(f"node exited before {pattern!r}; output:\n{self._tail()}")
            self.output.append(line)
            m = re.search(pattern, line)
            if m:
                return m

    def sync(self, start, timeout=10.0):
        """Wait until every command sent so far has run (an unknown command after them marks the
        end); return the output from index START of `output` up to the mark."""
        self._marks += 1
        mark = f"end-of-output-{self._marks}"
        self.send(mark)
        self.expect(rf"unknown command '{mark}'", timeout)
        return "".join(self.output[start:-1])

    def run(self, command, timeout=10.0):
        """Run COMMAND and return its whole output."""
        start = len(self.output)
        self.send(command)
        return self.sync(start, timeout)

    def counter(self, command, pattern):
        """Run COMMAND; return the integer PATTERN captures from its output."""
        out = self.run(command)
        m = re.search(pattern, out, re.M)
        assert m, f"{pattern!r} not in:\n{out}"
        return int(m.group(1))

    def stat(self, group, name):
        """Counter NAME of `stats GROUP`."""
        return self.counter(f"stats {group}", rf"^{re.escape(group)}\s+{re.escape(name)}\s+(\d+)")

    def pktbuf_used(self):
        return self.counter("pktbuf", r"used (\d+) B")

    def wait_counter(self, command, pattern, minimum, timeout=5.0):
        """Repeat COMMAND until PATTERN's value reaches MINIMUM; return it."""
        end = time.monotonic() + timeout
        while True:
            value = self.counter(command, pattern)
            if value >= minimum or time.monotonic() > end:
                return value
            time.sleep(0.1)

    def finish(self, timeout=15):
        """Close stdin (end of input), wait; the node must exit by itself."""
        self.proc.stdin.close()
        self.proc.wait(timeout=timeout)
        self.reader.join(timeout=5)
        while True:
            try:
                line = self.lines.get_nowait()
            except queue.Empty:
                break
            if line is not None:
                self.output.append(line)
        return self.proc.returncode

    def finish_clean(self):
        """End the input and assert that the node exits with 0 (its packet buffer consistent)."""
        assert self.finish() == 0, self.proc.stderr.read()

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)
        for f in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                f.close()
            except (OSError, ValueError):
                pass


# ---------------------------------------------------------------- waiting

def poll(what, check, timeout=6.0, interval=0.2):
    """Call CHECK until it returns a true value; return it, or fail naming WHAT."""
    end = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(interval)


def wait_ifconfig(node, pattern, timeout=6.0):
    """Repeat `ifconfig tap0` until PATTERN shows; return that output."""
    end = time.monotonic() + timeout
    while True:
        out = node.run(f"ifconfig {TAP}")
        if re.search(pattern, out):
            return out
        if time.monotonic() > end:
            raise AssertionError(f"{pattern!r} never showed:\n{out}")
        time.sleep(0.2)


def wait_address(node, address=NODE_LL, state="preferred", timeout=6.0):
    """Wait until the node's ADDRESS on tap0 is in STATE (link-local: DAD takes up to ~2 s)."""
    scope = "link" if address.startswith("fe80:") else "global"
    return wait_ifconfig(node, rf"inet6 {re.escape(address)}/64  scope: {scope}  {state}", timeout)


def add_global_addresses(node, ns, node_addr=NODE_GLOBAL, linux_addr=LINUX_GLOBAL):
    """Linux takes LINUX_ADDR/64 (no DAD), the node NODE_ADDR/64; wait until the node's is preferred."""
    ns_run(ns, "ip", "-6", "addr", "add", f"{linux_addr}/64", "dev", TAP, "nodad")
    assert node.run(f"ifconfig {TAP} add {node_addr}/64").strip() == ""
    wait_address(node, node_addr)


# ---------------------------------------------------------------- the Linux side

def linux_link_local(ns):
    out = ns_run(ns, "ip", "-6", "addr", "show", "dev", TAP, "scope", "link").stdout
    return re.search(r"inet6 (fe80::[0-9a-f:]+)/64", out).group(1)


def linux_mac(ns):
    return ns_run(ns, "cat", f"/sys/class/net/{TAP}/address").stdout.strip()


def ifindex(ns, ifname=TAP):
    """Interface index of IFNAME inside NS (socket.if_nametoindex would look in ours)."""
    return int(ns_run(ns, "cat", f"/sys/class/net/{ifname}/ifindex").stdout)


def linux_ping(ns, dst, size=56, count=3, *extra, timeout=60):
    """iputils' `ping -6` from namespace NS: COUNT requests of SIZE data bytes, 0.2 s apart."""
    return ns_run(ns, "ping", "-6", "-n", "-c", str(count), "-i", "0.2", "-W", "2", "-s", str(size), *extra,
                  dst, check=False, timeout=timeout)


_CLONE_NEWNET = 0x40000000


def ns_socket(ns, family, kind, proto=0):
    """A socket created inside namespace NS, for use in this process.

    A socket stays in the namespace it was created in. It is created by a short-lived thread
    that first joins NS (setns(2) with CLONE_NEWNET changes only the calling thread), so the
    test process itself stays where it is and needs no helper script in the namespace.
    """
    made = {}

    def create():
        try:
            fd = os.open(f"/var/run/netns/{ns}", os.O_RDONLY)
            try:
                if hasattr(os, "setns"):
                    os.setns(fd, _CLONE_NEWNET)
                else:
                    libc = ctypes.CDLL(None, use_errno=True)
                    if libc.setns(fd, _CLONE_NEWNET) != 0:
                        err = ctypes.get_errno()
                        raise OSError(err, f"setns({ns}): {os.strerror(err)}")
            finally:
                os.close(fd)
            made["sock"] = socket.socket(family, kind, proto)
        except OSError as e:
            made["error"] = e

    thread = threading.Thread(target=create)
    thread.start()
    thread.join()
    if "error" in made:
        raise made["error"]
    return made["sock"]


def closed_port_probe(ns, dst, scope=0, port=9):
    """Send one datagram from namespace NS to [DST]:PORT (interface index SCOPE for a link-local
    DST) and say what came back: "refused" (ICMPv6 port unreachable, RFC 4443 §3.1, becomes
    ECONNREFUSED), "answered" or "timeout"."""
    with ns_socket(ns, socket.AF_INET6, socket.SOCK_DGRAM) as sock:
        sock.settimeout(5)
        sock.connect((dst, port, 0, scope))
        sock.send(b"anyone?")
        try:
            sock.recv(100)
            return "answered"
        except ConnectionRefusedError:
            return "refused"
        except socket.timeout:
            return "timeout"


# ---------------------------------------------------------------- captures

def tshark(capture, *args):
    """tshark -n -r CAPTURE ARGS...: its output; skips the test when tshark is missing."""
    binary = shutil.which("tshark")
    if binary is None:
        pytest.skip("tshark not installed (scripts/deps.sh test installs it): capture not checked")
    return run(binary, "-n", "-r", str(capture), *args).stdout


def assert_capture_clean(capture):
    """No malformed frame, no expert error, no bad ICMPv6 checksum in CAPTURE."""
    bad = tshark(capture, "-Y", "_ws.malformed || _ws.expert.severity >= error || icmpv6.checksum.status == 2")
    assert bad.strip() == "", bad


# ---------------------------------------------------------------- data patterns

def pattern(size, shift=0):
    """SIZE printable bytes "abc...zabc..." (byte i: 'a' + (i + SHIFT) % 26): with SHIFT 0, what
    `udp send -s SIZE` sends."""
    return bytes(ord("a") + (i + shift) % 26 for i in range(size))


def escape(data):
    """DATA as `udp server` prints it: printable ASCII as is, other bytes and '\\' as \\xNN."""
    return "".join(chr(b) if 0x20 <= b < 0x7F and b != 0x5C else f"\\x{b:02x}" for b in data)


UDP_PRINT_MAX = 128  # `udp server` prints longer datagrams as their first 128 bytes and a CRC-32


def udp_line(data, src, port):
    """The line `udp server` prints for DATA from [SRC]:PORT (without the newline)."""
    line = f"udp: {len(data)} bytes from [{src}]:{port}: {escape(data[:UDP_PRINT_MAX])}"
    if len(data) > UDP_PRINT_MAX:
        line += f" ... (+{len(data) - UDP_PRINT_MAX} bytes, crc32 {zlib.crc32(data):08x})"
    return line
