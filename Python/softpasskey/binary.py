"""The `passkey` binary this package runs: the one a release wheel carries, or one named by the user.

A wheel built by `make dist` carries `softpasskey/bin/passkey` (its shared libraries vendored by
auditwheel in `softpasskey.libs/`), so `pip install softpasskey-….whl` is the whole installation.
From the repository no binary is bundled and `PASSKEY_BIN` (or an explicit path) names one.
"""

import os
import sys
from pathlib import Path

BUNDLED = Path(__file__).resolve().parent / "bin" / "passkey"


def bundled():
    """The binary inside this installed wheel, or None when this package was installed from source."""
    return str(BUNDLED) if os.access(BUNDLED, os.X_OK) else None


def locate(binary=None):
    """The binary to run: `binary` if given, else `$PASSKEY_BIN`, else the bundled one, else
    `passkey` on the PATH."""
    return binary or os.environ.get("PASSKEY_BIN") or bundled() or "passkey"


def main():
    """The `passkey` console script of a release wheel: the bundled binary, with this process's
    arguments, in this process (so signals and the exit status are the binary's own)."""
    binary = bundled()
    if binary is None:
        sys.exit("passkey: this softpasskey installation carries no binary (it was installed from source)")
    os.execv(binary, [binary, *sys.argv[1:]])
