"""Makes the FIDO Metadata Service v3 test BLOB of Vectors/mds/ (FIDO MDS 3.0 §3.1.7): a JWS
signed by a test signer certified by a test root, with entries for three W3C vectors' AAGUIDs.
The private keys live only while this runs. Run from the repository root with the test venv:
    .venv/bin/python Vectors/mds/make_blob.py"""

import base64
import datetime
import json
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature
from cryptography.x509.oid import NameOID

HERE = Path(__file__).parent
W3C_ROOT = json.loads((HERE.parent / "w3c" / "attestation-root-cert.json").read_text())["derived"][
    "attestation_ca_cert_pem"]
NOT_BEFORE = datetime.datetime(2025, 1, 1, tzinfo=datetime.timezone.utc)
NOT_AFTER = datetime.datetime(2036, 1, 1, tzinfo=datetime.timezone.utc)


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def certificate(subject: str, key, issuer: str, issuer_key, ca: bool) -> x509.Certificate:
    name = lambda cn: x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "SoftPasskey Tests"),  # noqa: E731
                                 x509.NameAttribute(NameOID.COMMON_NAME, cn)])
    return (x509.CertificateBuilder().subject_name(name(subject)).issuer_name(name(issuer))
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(NOT_BEFORE).not_valid_after(NOT_AFTER)
            .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
            .sign(issuer_key, hashes.SHA256()))


def entry(aaguid: str, description: str, roots: list[str], statuses: list[tuple[str, str]]) -> dict:
    return {
        "aaguid": aaguid,
        "metadataStatement": {
            "aaguid": aaguid, "description": description, "schema": 3, "protocolFamily": "fido2",
            "attestationTypes": ["basic_full"],
            "attestationRootCertificates": [
                base64.b64encode(x509.load_pem_x509_certificate(pem.encode()).public_bytes(
                    serialization.Encoding.DER)).decode() for pem in roots],
        },
        "statusReports": [{"status": status, "effectiveDate": date} for status, date in statuses],
        "timeOfLastStatusChange": statuses[-1][1],
    }


def main():
    root_key = ec.generate_private_key(ec.SECP256R1())
    signer_key = ec.generate_private_key(ec.SECP256R1())
    root = certificate("SoftPasskey Test MDS Root", root_key, "SoftPasskey Test MDS Root", root_key, True)
    signer = certificate("SoftPasskey Test MDS Signer", signer_key, "SoftPasskey Test MDS Root", root_key, False)
    payload = {
        "legalHeader": "Test data for SoftPasskey; not the FIDO Alliance's metadata.",
        "no": 7, "nextUpdate": "2026-12-01",
        "entries": [
            entry("876ca4f5-2071-c3e9-b255-09ef2cdf7ed6", "W3C packed-es256 test authenticator", [W3C_ROOT],
                  [("FIDO_CERTIFIED", "2025-02-01"), ("FIDO_CERTIFIED_L1", "2025-03-01")]),
            entry("4b92a377-fc5f-6107-c4c8-5c190adbfd99", "W3C tpm-es256 test authenticator, revoked", [W3C_ROOT],
                  [("FIDO_CERTIFIED", "2025-02-01"), ("REVOKED", "2025-06-01")]),
            entry("afb3c2ef-c054-df42-5013-d5c88e79c3c1", "W3C fido-u2f-es256 test authenticator, key leaked",
                  [W3C_ROOT], [("ATTESTATION_KEY_COMPROMISE", "2025-04-01"), ("FIDO_CERTIFIED", "2025-01-15")]),
        ],
    }
    header = {"alg": "ES256", "typ": "JWT",
              "x5c": [base64.b64encode(signer.public_bytes(serialization.Encoding.DER)).decode()]}
    signing_input = b64url(json.dumps(header).encode()) + "." + b64url(json.dumps(payload).encode())
    r, s = decode_dss_signature(signer_key.sign(signing_input.encode(), ec.ECDSA(hashes.SHA256())))
    signature = r.to_bytes(32, "big") + s.to_bytes(32, "big")
    (HERE / "blob.jwt").write_text(signing_input + "." + b64url(signature) + "\n")
    (HERE / "root.pem").write_bytes(root.public_bytes(serialization.Encoding.PEM))


if __name__ == "__main__":
    main()
