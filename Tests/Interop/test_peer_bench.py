"""`passkey-bench --compare-peer` measures soft-webauthn (Tests/Interop/peer_bench.py, from this
virtual environment) beside SoftPasskey's in-memory ceremonies in one run, and prints the ratio
to it, so the comparison issue 13 asks for is reproducible."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, passkey_binary


@pytest.fixture(scope="session")
def bench():
    """Runs `passkey-bench`, built beside `passkey`: bench(*args) -> CompletedProcess."""
    binary = Path(passkey_binary()).with_name("passkey-bench")

    def run(*args):
        return subprocess.run([binary, *args], capture_output=True, timeout=60)

    return run


def test_the_peer_is_measured_beside_our_ceremonies(bench):
    result = bench(
        "--compare-peer", "--python", sys.executable, "--peer-script",
        str(ROOT / "Tests/Interop/peer_bench.py"), "--only", "memory-", "--seconds", "0.05", "--rounds", "1",
        "--store-size", "0", "--json",
    )
    assert result.returncode == 0, result.stderr.decode()
    figures = {figure["name"]: figure for figure in json.loads(result.stdout)}
    for operation in ("get", "create"):
        peer = figures[f"soft-webauthn-{operation}"]
        ours = figures[f"memory-{operation}-vs-peer"]
        assert peer["value"] > 0 and peer["unit"] == "ops/s"
        assert ours["baseline"] == f"soft-webauthn-{operation}"
        assert abs(ours["ratio"] - ours["value"] / peer["value"]) < 1e-9
        assert ours["target"] == 1.3
    floor = figures["memory-create-vs-keygen-seal"]
    assert figures["raw-es256-keygen-seal"]["value"] > 0
    assert floor["baseline"] == "raw-es256-keygen-seal" and floor["target"] == 0.5


def test_a_missing_peer_is_a_clear_error(bench, tmp_path):
    result = bench(
        "--compare-peer", "--python", sys.executable, "--peer-script", str(tmp_path / "missing.py"),
        "--only", "memory-get-vs-peer", "--seconds", "0.05", "--rounds", "1", "--store-size", "0",
    )
    assert result.returncode != 0
    assert b"missing.py" in result.stderr
