# SPDX-License-Identifier: BSD-3-Clause
"""Shared by the tests that put tern-node on a TAP device inside a network namespace."""
import itertools
import os
import queue
import re
import shutil
import subprocess
import sys
import threading
import time

import pytest

EXECUTORS = ["loop", "threaded"]
TAP = "tap0"
NODE_MAC = "02:00:5e:00:53:01"
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



def run(*args, check=True, timeout=20):
    return subprocess.run(list(args), capture_output=True, text=True, timeout=timeout, check=check)


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
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def expect(self, pattern, timeout=10.0):
        """Read output until a line matches PATTERN; return the match."""
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no line matching {pattern!r}; output:\n{''.join(self.output)}")
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                raise AssertionError(f"node exited before {pattern!r}; output:\n{''.join(self.output)}")
            self.output.append(line)
            m = re.search(pattern, line)
            if m:
                return m

    def run(self, command, timeout=10.0):
        """Run COMMAND and return its whole output. An unknown command after it marks the end."""
        self._marks = getattr(self, "_marks", 0) + 1
        mark = f"end-of-output-{self._marks}"
        self.send(command)
        self.send(mark)
        start = len(self.output)
        self.expect(rf"unknown command '{mark}'", timeout)
        return "".join(self.output[start:-1])

    def counter(self, command, pattern):
        """Run COMMAND; return the integer PATTERN captures from its output."""
        out = self.run(command)
        m = re.search(pattern, out, re.M)
        assert m, f"{pattern!r} not in:\n{out}"
        return int(m.group(1))

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

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)
        for f in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                f.close()
            except (OSError, ValueError):
                pass


