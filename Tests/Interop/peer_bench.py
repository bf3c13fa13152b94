"""The peer `passkey-bench --compare-peer` measures beside SoftPasskey: soft-webauthn 0.1.4
(https://pypi.org/project/soft-webauthn/), a Python virtual authenticator over python-fido2 and
`cryptography`, the one issue 13 compares with.

    peer_bench.py create|get SECONDS    prints soft-webauthn's operations per second

Each operation is the library's own call on the options as it takes them (a dict with bytes) and
returns its dict: no JSON in or out, no store. `create` makes a new P-256 key each time (the device
keeps one credential); `get` signs with it, as SoftPasskey's in-memory figures do. This is the
peer's best case, so a ratio over it is conservative.
"""

import os
import sys
import time

from soft_webauthn import SoftWebauthnDevice

ORIGIN = "https://bench.example"
CREATION = {
    "publicKey": {
        "rp": {"id": "bench.example", "name": "Bench"},
        "user": {"id": b"user-0", "name": "user0", "displayName": "User 0"},
        "challenge": os.urandom(32),
        "pubKeyCredParams": [{"alg": -7, "type": "public-key"}],
    }
}
REQUEST = {"publicKey": {"challenge": os.urandom(32), "rpId": "bench.example"}}


def rate(operation, seconds):
    """Operations per second of `operation` over `seconds`, after a short warm-up."""
    for _ in range(3):
        operation()
    count = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        operation()
        count += 1
    return count / (time.perf_counter() - start)


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("create", "get"):
        sys.exit("usage: peer_bench.py create|get SECONDS")
    device = SoftWebauthnDevice()
    device.create(CREATION, ORIGIN)
    operations = {
        "create": lambda: device.create(CREATION, ORIGIN),
        "get": lambda: device.get(REQUEST, ORIGIN),
    }
    print(f"{rate(operations[sys.argv[1]], float(sys.argv[2])):.1f}")


if __name__ == "__main__":
    main()
