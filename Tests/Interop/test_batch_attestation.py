"""Batch attestation as two independent relying parties see it: the `cdp` profile's `packed`
attestation carries an x5c chain that py_webauthn and python-fido2 verify to the root that
`passkey attestation-ca` prints (WebAuthn L3 §8.2), and not to another root. A vendor's own chain
and key, given to `passkey attestation-ca`, are used instead."""

import base64
import datetime
import hashlib
import os

import pytest
import webauthn
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from fido2.attestation import AttestationType, PackedAttestation, verify_x509_chain
from fido2.webauthn import AttestationObject
from webauthn.helpers.exceptions import InvalidRegistrationResponse
from webauthn.helpers.structs import AttestationFormat

from conftest import b64url, ceremony, creation_options, make_ca, refused, succeeded

CDP_AAGUID = "01020304-0506-0708-0102-030405060708"
AAGUID_OID = x509.ObjectIdentifier("1.3.6.1.4.1.45724.1.1.4")


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def register(passkey, store, *extra):
    challenge = os.urandom(32)
    options = creation_options(challenge, attestation="direct")
    response = succeeded(ceremony(passkey, "create", options, "https://example.org", store, "--profile", "cdp", *extra))
    return challenge, response


def py_webauthn_verifies(challenge, response, root_pem: bytes):
    return webauthn.verify_registration_response(
        credential=response, expected_challenge=challenge, expected_rp_id="example.org",
        expected_origin="https://example.org", pem_root_certs_bytes_by_fmt={AttestationFormat.PACKED: [root_pem]},
    )


def fido2_trust_path(response, challenge_response_client_data: bytes):
    inner = response["response"]
    attestation = AttestationObject(b64url_decode(inner["attestationObject"]))
    result = PackedAttestation().verify(
        attestation.att_stmt, attestation.auth_data, hashlib.sha256(challenge_response_client_data).digest()
    )
    assert result.attestation_type == AttestationType.BASIC
    return result.trust_path


def issue_batch(ca_key, ca_certificate, aaguid: str):
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([
        x509.NameAttribute(NameOID.COUNTRY_NAME, "SE"), x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Vendor"),
        x509.NameAttribute(NameOID.ORGANIZATIONAL_UNIT_NAME, "Authenticator Attestation"),
        x509.NameAttribute(NameOID.COMMON_NAME, "Vendor Batch"),
    ])
    now = datetime.datetime.now(datetime.timezone.utc)
    aaguid_value = bytes([0x04, 0x10]) + bytes.fromhex(aaguid.replace("-", ""))
    certificate = (
        x509.CertificateBuilder().subject_name(subject).issuer_name(ca_certificate.subject)
        .public_key(key.public_key()).serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1)).not_valid_after(now + datetime.timedelta(days=365))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.UnrecognizedExtension(AAGUID_OID, aaguid_value), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    return key, certificate


def test_the_cdp_profile_chains_to_the_printed_root(passkey, tmp_path):
    store = tmp_path / "store"
    printed = passkey("attestation-ca", "--store", str(store))
    assert printed.returncode == 0, printed.stderr.decode()
    root_pem = printed.stdout
    assert root_pem.startswith(b"-----BEGIN CERTIFICATE-----\n")
    root = x509.load_pem_x509_certificate(root_pem)
    assert root.extensions.get_extension_for_class(x509.BasicConstraints).value.ca

    challenge, response = register(passkey, store)
    verified = py_webauthn_verifies(challenge, response, root_pem)
    assert verified.fmt == AttestationFormat.PACKED
    assert verified.aaguid == CDP_AAGUID
    assert verified.sign_count == 1
    assert b64url_decode(response["rawId"]) == hashlib.sha256(verified.credential_public_key).digest()

    trust_path = fido2_trust_path(response, b64url_decode(response["response"]["clientDataJSON"]))
    leaf = x509.load_der_x509_certificate(trust_path[0])
    assert leaf.version == x509.Version.v3
    assert leaf.extensions.get_extension_for_oid(AAGUID_OID).value.value[2:] == bytes.fromhex(
        CDP_AAGUID.replace("-", ""))
    verify_x509_chain(trust_path + [root.public_bytes(serialization.Encoding.DER)])

    again = passkey("attestation-ca", "--store", str(store))
    assert again.stdout == root_pem, "the CA is made once"


def test_another_root_is_not_trusted(passkey, tmp_path):
    challenge, response = register(passkey, tmp_path / "store")
    _, other = make_ca("Other Root")
    with pytest.raises(InvalidRegistrationResponse):
        py_webauthn_verifies(challenge, response, other.public_bytes(serialization.Encoding.PEM))


def test_a_vendors_chain_and_key_are_used(passkey, tmp_path):
    ca_key, ca = make_ca("Vendor Root")
    key, batch = issue_batch(ca_key, ca, CDP_AAGUID)
    chain = tmp_path / "chain.pem"
    chain.write_bytes(batch.public_bytes(serialization.Encoding.PEM) + ca.public_bytes(serialization.Encoding.PEM))
    key_file = tmp_path / "key.pem"
    key_file.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    store = tmp_path / "store"
    used = passkey("attestation-ca", "--store", str(store), "--certificate", str(chain), "--key", str(key_file))
    assert used.returncode == 0, used.stderr.decode()

    challenge, response = register(passkey, store)
    verified = py_webauthn_verifies(challenge, response, ca.public_bytes(serialization.Encoding.PEM))
    assert verified.aaguid == CDP_AAGUID
    trust_path = fido2_trust_path(response, b64url_decode(response["response"]["clientDataJSON"]))
    assert trust_path[0] == batch.public_bytes(serialization.Encoding.DER)
    for path in store.rglob("*"):
        if path.is_file():
            assert key.private_numbers().private_value.to_bytes(32, "big") not in path.read_bytes()


def test_a_chain_for_another_aaguid_or_key_is_refused(passkey, tmp_path):
    ca_key, ca = make_ca("Vendor Root")
    key, batch = issue_batch(ca_key, ca, "11111111-2222-3333-4444-555555555555")
    chain = tmp_path / "chain.pem"
    chain.write_bytes(batch.public_bytes(serialization.Encoding.PEM))
    key_file = tmp_path / "key.pem"
    key_file.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    store = tmp_path / "store"
    refused(passkey("attestation-ca", "--store", str(store), "--certificate", str(chain), "--key", str(key_file)),
            "NotAllowedError")
    other_key = tmp_path / "other.pem"
    other_key.write_bytes(ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    refused(passkey("attestation-ca", "--store", str(store), "--certificate", str(chain), "--key", str(other_key)),
            "SyntaxError", code=2)
    assert not (store / "attestation.json").exists()


def test_enterprise_attestation_identifies_the_authenticator(passkey, tmp_path):
    def leaf_subject(store, *extra):
        challenge = os.urandom(32)
        options = {
            "rp": {"id": "example.org", "name": "Example"},
            "user": {"id": b64url(os.urandom(8)), "name": "ada", "displayName": "Ada"},
            "challenge": b64url(challenge),
            "pubKeyCredParams": [{"type": "public-key", "alg": -7}],
            "attestation": "enterprise",
        }
        response = succeeded(ceremony(passkey, "create", options, "https://example.org", store, "--profile", "cdp",
                                      *extra))
        root = passkey("attestation-ca", "--store", str(store)).stdout
        py_webauthn_verifies(challenge, response, root)
        trust_path = fido2_trust_path(response, b64url_decode(response["response"]["clientDataJSON"]))
        return x509.load_der_x509_certificate(trust_path[0]).subject.rfc4514_string()

    first = leaf_subject(tmp_path / "a", "--enterprise-rp-id", "example.org")
    assert "Enterprise" in first and "serial" in first
    assert leaf_subject(tmp_path / "a", "--enterprise-rp-id", "example.org") == first
    assert leaf_subject(tmp_path / "b", "--enterprise-rp-id", "example.org") != first
    assert "Batch" in leaf_subject(tmp_path / "a")
