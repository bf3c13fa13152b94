#!/usr/bin/env python3
"""Write WebAuthn L3 options JSON produced by the real py_webauthn into Vectors/pywebauthn-options/.

The Swift tests decode each file as PublicKeyCredentialCreationOptionsJSON or
PublicKeyCredentialRequestOptionsJSON (by the file name's `registration-` / `authentication-`
prefix), re-encode it, and compare the two as JSON values. Challenges and user ids are fixed so
that re-running the script gives the same files.

Usage (outside the repository's tree for the virtual environment):
    python3 -m venv /tmp/venv-json && /tmp/venv-json/bin/pip install webauthn
    /tmp/venv-json/bin/python Tests/Interop/generate_options_fixtures.py
"""

import pathlib
from importlib.metadata import version

from webauthn import generate_authentication_options, generate_registration_options, options_to_json
from webauthn.helpers.cose import COSEAlgorithmIdentifier
from webauthn.helpers.structs import (
    AttestationConveyancePreference,
    AuthenticatorAttachment,
    AuthenticatorSelectionCriteria,
    AuthenticatorTransport,
    PublicKeyCredentialDescriptor,
    PublicKeyCredentialHint,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

ROOT = pathlib.Path(__file__).resolve().parents[2]
OUT = ROOT / "Vectors" / "pywebauthn-options"

CHALLENGE = bytes(range(32))
USER_ID = b"user-0001-\xff\xfe"
CREDENTIAL_A = bytes.fromhex("f91f391db4c9b2fde0ea70189cba3fb63f579ba6122b33ad94ff3ec330084be4")
CREDENTIAL_B = b"\x00" * 15 + b"\x01"

FIXTURES = {
    "registration-minimal": generate_registration_options(
        rp_id="example.org", rp_name="Example", user_name="alice", user_id=USER_ID, challenge=CHALLENGE
    ),
    "registration-full": generate_registration_options(
        rp_id="example.org",
        rp_name="Example Corp",
        user_name="alice@example.org",
        user_id=USER_ID,
        user_display_name="Alice Liddell",
        challenge=CHALLENGE,
        timeout=120000,
        attestation=AttestationConveyancePreference.DIRECT,
        authenticator_selection=AuthenticatorSelectionCriteria(
            authenticator_attachment=AuthenticatorAttachment.PLATFORM,
            resident_key=ResidentKeyRequirement.REQUIRED,
            require_resident_key=True,
            user_verification=UserVerificationRequirement.REQUIRED,
        ),
        exclude_credentials=[
            PublicKeyCredentialDescriptor(
                id=CREDENTIAL_A, transports=[AuthenticatorTransport.INTERNAL, AuthenticatorTransport.HYBRID]
            ),
            PublicKeyCredentialDescriptor(id=CREDENTIAL_B),
        ],
        supported_pub_key_algs=[COSEAlgorithmIdentifier.ECDSA_SHA_256, COSEAlgorithmIdentifier.EDDSA],
        hints=[PublicKeyCredentialHint.CLIENT_DEVICE, PublicKeyCredentialHint.HYBRID],
    ),
    "registration-security-key": generate_registration_options(
        rp_id="login.example.com",
        rp_name="Login",
        user_name="bob",
        user_id=b"\x01\x02\x03",
        challenge=CHALLENGE,
        timeout=30000,
        attestation=AttestationConveyancePreference.ENTERPRISE,
        authenticator_selection=AuthenticatorSelectionCriteria(
            authenticator_attachment=AuthenticatorAttachment.CROSS_PLATFORM,
            resident_key=ResidentKeyRequirement.DISCOURAGED,
            user_verification=UserVerificationRequirement.DISCOURAGED,
        ),
        exclude_credentials=[
            PublicKeyCredentialDescriptor(
                id=CREDENTIAL_B,
                transports=[AuthenticatorTransport.USB, AuthenticatorTransport.NFC, AuthenticatorTransport.BLE],
            ),
        ],
        supported_pub_key_algs=[COSEAlgorithmIdentifier.RSASSA_PKCS1_v1_5_SHA_256],
        hints=[PublicKeyCredentialHint.SECURITY_KEY],
    ),
    "authentication-minimal": generate_authentication_options(rp_id="example.org", challenge=CHALLENGE),
    "authentication-allow-credentials": generate_authentication_options(
        rp_id="example.org",
        challenge=CHALLENGE,
        timeout=90000,
        allow_credentials=[
            PublicKeyCredentialDescriptor(
                id=CREDENTIAL_A,
                transports=[AuthenticatorTransport.INTERNAL, AuthenticatorTransport.SMART_CARD],
            ),
            PublicKeyCredentialDescriptor(id=CREDENTIAL_B, transports=[AuthenticatorTransport.USB]),
        ],
        user_verification=UserVerificationRequirement.REQUIRED,
    ),
    "authentication-discouraged": generate_authentication_options(
        rp_id="sub.example.org",
        challenge=b"\x00",
        timeout=1,
        user_verification=UserVerificationRequirement.DISCOURAGED,
    ),
}


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, options in FIXTURES.items():
        (OUT / f"{name}.json").write_text(options_to_json(options) + "\n")
    print(f"wrote {len(FIXTURES)} fixtures with py_webauthn {version('webauthn')} to {OUT}")


if __name__ == "__main__":
    main()
