"""`passkey import --pkcs8`: a key made by another library (pyca/cryptography) signs assertions that
py_webauthn verifies against that library's public key."""

import base64
import os

import pytest
import webauthn
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
from fido2 import cbor
from fido2.cose import CoseKey
from webauthn.helpers.cose import COSEAlgorithmIdentifier

from conftest import ceremony, refused, succeeded


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


KEYS = {
    -7: lambda: ec.generate_private_key(ec.SECP256R1()),
    -8: ed25519.Ed25519PrivateKey.generate,
    -257: lambda: rsa.generate_private_key(public_exponent=65537, key_size=2048),
}


@pytest.mark.parametrize("encoding", [serialization.Encoding.PEM, serialization.Encoding.DER])
@pytest.mark.parametrize("alg", sorted(KEYS))
def test_an_imported_key_signs_for_its_public_key(passkey, tmp_path, alg, encoding):
    private = KEYS[alg]()
    key_file = tmp_path / "key"
    key_file.write_bytes(
        private.private_bytes(encoding, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    credential_id = b64url(os.urandom(16))
    result = passkey(
        "import", "--store", str(tmp_path / "store"), "--pkcs8", str(key_file), "--rp-id", "example.org",
        f"--credential-id={credential_id}", "--user-handle", b64url(b"ada"), "--user-name", "ada", "--resident",
        "--sign-count", "7",
    )
    assert result.returncode == 0, result.stderr.decode()
    assert result.stdout.decode().startswith(f"imported {credential_id} for example.org")

    challenge = os.urandom(32)
    response = succeeded(
        ceremony(passkey, "get", {"rpId": "example.org", "challenge": b64url(challenge)}, "https://example.org",
                 tmp_path / "store")
    )
    assert response["id"] == credential_id
    verified = webauthn.verify_authentication_response(
        credential=response, expected_challenge=challenge, expected_rp_id="example.org",
        expected_origin="https://example.org",
        credential_public_key=cbor.encode(CoseKey.for_alg(alg).from_cryptography_key(private.public_key())),
        credential_current_sign_count=7,
    )
    assert verified.new_sign_count == 8


def test_a_key_on_an_unsupported_curve_or_not_a_key_is_refused_and_stores_nothing(passkey, tmp_path):
    for name, data in [
        ("p384", ec.generate_private_key(ec.SECP384R1()).private_bytes(
            serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())),
        ("garbage", b"not a key"),
    ]:
        key_file = tmp_path / name
        key_file.write_bytes(data)
        refused(passkey("import", "--store", str(tmp_path / "store"), "--pkcs8", str(key_file), "--rp-id", "x.org"),
                "SyntaxError", code=2)
    assert passkey("list", "--store", str(tmp_path / "store"), "--json").stdout.count(b"credentialId") == 0


def test_a_credential_id_that_starts_with_a_dash_is_named_after_the_option_terminator(passkey, tmp_path):
    """One credential ID in 64 starts with `-`; after `--` every command that takes one reads it as the ID."""
    key_file = tmp_path / "key"
    key_file.write_bytes(ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    # Without `h`: a bare `-…h…` is a cluster of short options with -h in it, which prints the help
    # and exits 0 (swift-argument-parser), not the usage error this test expects before `--`.
    credential_id = "-" + b64url(os.urandom(16))[1:].replace("h", "H")
    store = str(tmp_path / "store")
    imported = passkey("import", "--store", store, "--pkcs8", str(key_file), "--rp-id", "example.org",
                       f"--credential-id={credential_id}")
    assert imported.returncode == 0, imported.stderr.decode()

    assert passkey("set", "--store", store, "--sign-count", "9", credential_id).returncode == 64  # an option
    changed = passkey("set", "--store", store, "--sign-count", "9", "--", credential_id)
    assert changed.returncode == 0, changed.stderr.decode()
    cloned = passkey("clone", "--store", store, "--to", str(tmp_path / "copy"), "--", credential_id)
    assert cloned.returncode == 0, cloned.stderr.decode()
    deleted = passkey("delete", "--store", store, "--", credential_id)
    assert deleted.returncode == 0 and deleted.stdout.decode() == f"deleted {credential_id}\n", deleted.stderr
