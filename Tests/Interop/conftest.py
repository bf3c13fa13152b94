"""Shared helpers for the interop suite: the built `passkey` binary and the project's vectors."""

import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
VECTORS = ROOT / "Vectors"


def passkey_binary() -> str:
    binary = os.environ.get("PASSKEY_BIN")
    if not binary:
        binary = subprocess.run(
            ["swift", "build", "--show-bin-path"], cwd=ROOT, check=True, capture_output=True, text=True
        ).stdout.strip() + "/passkey"
    return binary


@pytest.fixture(scope="session")
def passkey():
    """Runs the CLI: passkey(*args, input=bytes) -> CompletedProcess (text output)."""
    binary = passkey_binary()

    def run(*args, input=None):
        return subprocess.run(
            [binary, *args], input=input, capture_output=True, timeout=60
        )

    return run


def load(family: str, name: str) -> dict:
    return json.loads((VECTORS / family / name).read_text())


def names(family: str, exclude=()) -> list:
    return sorted(p.name for p in (VECTORS / family).glob("*.json") if p.name not in exclude)
