# SPDX-License-Identifier: BSD-3-Clause
"""Shared fixtures: where the tern-node binary is."""
import os
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def tern_node():
    """Path of tern-node: $TERN_NODE, else the gcc-debug build of scripts/test."""
    path = pathlib.Path(os.environ.get("TERN_NODE", ROOT / "build/gcc-debug/tools/tern-node/tern-node"))
    if not path.is_file():
        pytest.skip(f"tern-node not built at {path} (run ./scripts/test or set TERN_NODE)")
    return path
