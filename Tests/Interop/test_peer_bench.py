"""`passkey bench --compare-peer` measures soft-webauthn (Tests/Interop/peer_bench.py, from this
virtual environment) beside SoftPasskey's in-memory ceremonies in one run, and prints the ratio
to it, so the comparison issue 13 asks for is reproducible."""

import json
import sys

from conftest import ROOT


def test_the_peer_is_measured_beside_our_ceremonies(passkey):
    result = passkey(
        "bench", "--compare-peer", "--python", sys.executable, "--peer-script",
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
        assert ours["target"] == 1.5


def test_a_missing_peer_is_a_clear_error(passkey, tmp_path):
    result = passkey(
        "bench", "--compare-peer", "--python", sys.executable, "--peer-script", str(tmp_path / "missing.py"),
        "--only", "memory-get-vs-peer", "--seconds", "0.05", "--rounds", "1", "--store-size", "0",
    )
    assert result.returncode != 0
    assert b"missing.py" in result.stderr
