"""The Python verifier `passkey-bench --compare-verifiers` measures beside SoftPasskey's relying
party: py_webauthn 3 (https://pypi.org/project/webauthn/, pinned in requirements.txt), the
verifier most Python relying parties use.

    verifier_peer_bench.py check FIXTURE          verifies once: exit 0, or 1 with the reason
    verifier_peer_bench.py rate FIXTURE SECONDS   prints py_webauthn's verifications per second

FIXTURE is the JSON file the bench writes: `response` (an AuthenticationResponseJSON, what
`PublicKeyCredential.toJSON()` gives), `challenge`, `credentialPublicKey` (COSE) in base64url,
`rpId`, `origin` and `signCount`. Each operation is the library's own per-assertion call,
`webauthn.verify_authentication_response`, on the response's JSON text: it parses the JSON,
checks the client data (type, challenge, origin), the RP ID hash, the flags, the signature with
the COSE key and the counter, as SoftPasskey's `RelyingParty.verifyAuthentication` does from the
same text. Nothing is cached between operations except what the library itself caches.
"""

import base64
import json
import sys
import time

from webauthn import verify_authentication_response


def decode(text):
    """Bytes of unpadded base64url."""
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def verifier(fixture):
    """One verification of the fixture's assertion, as a callable that raises on refusal."""
    response = json.dumps(fixture["response"])
    challenge = decode(fixture["challenge"])
    public_key = decode(fixture["credentialPublicKey"])

    def verify():
        return verify_authentication_response(
            credential=response,
            expected_challenge=challenge,
            expected_rp_id=fixture["rpId"],
            expected_origin=fixture["origin"],
            credential_public_key=public_key,
            credential_current_sign_count=fixture["signCount"],
            require_user_verification=False,
        )

    return verify


def rate(operation, seconds):
    """Operations per second of `operation` over `seconds`, after a short warm-up."""
    for _ in range(3):
        operation()
    count = 0
    start = time.perf_counter()
    while count == 0 or time.perf_counter() - start < seconds:
        operation()
        count += 1
    return count / (time.perf_counter() - start)


def main():
    arguments = sys.argv[1:]
    if not (arguments[:1] == ["check"] and len(arguments) == 2) and not (
        arguments[:1] == ["rate"] and len(arguments) == 3
    ):
        sys.exit("usage: verifier_peer_bench.py check FIXTURE | rate FIXTURE SECONDS")
    with open(arguments[1], encoding="utf-8") as file:
        verify = verifier(json.load(file))
    if arguments[0] == "check":
        try:
            verify()
        except Exception as error:  # the library's refusals are several exception types
            sys.exit(f"rejected: {type(error).__name__}: {error}")
        print("accepted")
    else:
        print(f"{rate(verify, float(arguments[2])):.1f}")


if __name__ == "__main__":
    main()
