"""A relying party whose RP ID is `related.example` and whose sites are on other origins, for Related
Origin Requests (WebAuthn L3 §5.11): its `https://related.example/.well-known/webauthn` lists some
origins of the site server, and the control service's libcurl fetcher reaches it as it would a real
one, over TLS with a certificate of a test root, through an HTTP CONNECT proxy (`https_proxy`) that
stands in for DNS and port 443 (`CONNECT related.example:443` is tunnelled to a loopback TLS server;
any other host is refused).

The site server answers every `http://NAME.localhost:PORT/` (browsers resolve `*.localhost` to
loopback, and such an origin is a secure context): its page signs up and then logs in with
`related.example` on load, and posts each outcome back; py_webauthn verifies both with the page's
origin.

    site = RelatedSite(tmp_path, listed=["shop", "app"])
    env = site.environment(os.environ)         # https_proxy, and no no_proxy
    page = site.origin("shop") + "/"           # the page; site.outcomes(origin) once it ran
"""

import http.server
import importlib.util
import json
import queue
import secrets
import select
import socket
import ssl
import threading
import time
import urllib.parse
from pathlib import Path

from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes
from webauthn.helpers.structs import AuthenticatorSelectionCriteria, ResidentKeyRequirement

RP_ID = "related.example"
INTEROP_CONFTEST = Path(__file__).resolve().parents[1] / "Interop" / "conftest.py"

PAGE = b"""<!doctype html><title>Related origin</title><script>
async function post(path, body) {
  return (await fetch(path, {method: "POST", headers: {"Content-Type": "application/json"},
                             body: JSON.stringify(body)})).json();
}
async function ceremony(kind) {
  const options = await (await fetch("/options/" + kind)).json();
  try {
    const credential = kind === "create"
      ? await navigator.credentials.create({publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options)})
      : await navigator.credentials.get({publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options)});
    return await post("/result/" + kind, credential.toJSON());
  } catch (error) {
    return await post("/result/" + kind, {error: error.name, message: error.message});
  }
}
(async () => { if ((await ceremony("create")).verified) await ceremony("get"); })();
</script>"""


def interop_conftest():
    spec = importlib.util.spec_from_file_location("interop_conftest", INTEROP_CONFTEST)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def certificate_for(directory, name):
    """A test root and a server certificate it issued for `name`: the CA file and an SSL context."""
    import datetime

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    ca_key, ca_certificate = interop_conftest().make_ca("SoftPasskey Related Origins Test Root")
    key = ec.generate_private_key(ec.SECP256R1())
    now = datetime.datetime.now(datetime.timezone.utc)
    certificate = (
        x509.CertificateBuilder().subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)]))
        .issuer_name(ca_certificate.subject).public_key(key.public_key()).serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1)).not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    ca, chain, private = (Path(directory) / file for file in ("ca.pem", "chain.pem", "key.pem"))
    ca_pem = ca_certificate.public_bytes(serialization.Encoding.PEM)
    ca.write_bytes(ca_pem)
    chain.write_bytes(certificate.public_bytes(serialization.Encoding.PEM) + ca_pem)
    private.write_bytes(key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(chain, private)
    return ca, context


class Quiet(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *_):
        pass

    def answer(self, status, body, content_type="application/json"):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)


class RelatedSite:
    """The site server, the RP's `/.well-known/webauthn` over TLS, and the proxy; `listed` names the
    `NAME.localhost` origins the document lists. `fetches` counts the document's requests."""

    def __init__(self, directory, listed):
        self.users = {}
        self.results = queue.Queue()
        self.fetches = 0
        self.ca, context = certificate_for(directory, RP_ID)
        site = self

        class Site(Quiet):
            def origin(self):
                return "http://" + self.headers["Host"]

            def do_GET(self):
                path = urllib.parse.urlsplit(self.path).path
                if path == "/":
                    self.answer(200, PAGE, "text/html; charset=utf-8")
                elif path in ("/options/create", "/options/get"):
                    self.answer(200, site.options(self.origin(), path.rsplit("/", 1)[1]).encode())
                else:
                    self.answer(404, b"{}")

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                kind = self.path.rsplit("/", 1)[1]
                self.answer(200, json.dumps(site.result(self.origin(), kind, body)).encode())

        class WellKnown(Quiet):
            def do_GET(self):
                if self.path != "/.well-known/webauthn":
                    return self.answer(404, b"{}")
                site.fetches += 1
                self.answer(200, json.dumps({"origins": [site.origin(name) for name in listed]}).encode())

        self.site = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Site)
        self.well_known = http.server.ThreadingHTTPServer(("127.0.0.1", 0), WellKnown)
        self.well_known.socket = context.wrap_socket(self.well_known.socket, server_side=True)
        self.proxy = socket.create_server(("127.0.0.1", 0))
        self.port = self.site.server_address[1]
        for target in (self.site.serve_forever, self.well_known.serve_forever, self.tunnel):
            threading.Thread(target=target, daemon=True).start()

    def origin(self, name):
        return f"http://{name}.localhost:{self.port}"

    def environment(self, base):
        """`base` with the proxy for https and no exception to it."""
        env = {key: value for key, value in base.items() if key.lower() not in ("no_proxy", "https_proxy", "all_proxy")}
        env["https_proxy"] = f"http://127.0.0.1:{self.proxy.getsockname()[1]}"
        return env

    def options(self, origin, kind):
        user = self.users.setdefault(origin, {"id": secrets.token_bytes(16), "credentials": {}})
        if kind == "create":
            options = generate_registration_options(
                rp_id=RP_ID, rp_name="Related", user_name="ada", user_id=user["id"],
                authenticator_selection=AuthenticatorSelectionCriteria(resident_key=ResidentKeyRequirement.REQUIRED))
        else:
            options = generate_authentication_options(rp_id=RP_ID)
        user["challenge"] = options.challenge
        return options_to_json(options)

    def result(self, origin, kind, body):
        """Verifies a page's credential (or records its refusal); answers {"verified": bool}."""
        try:
            verified = self.verify(self.users[origin], origin, kind, body)
        except Exception as error:  # noqa: BLE001 - the test reads what went wrong
            self.results.put((origin, kind, f"not verified: {error}", False))
            return {"verified": False}
        self.results.put((origin, kind, body.get("error"), verified))
        return {"verified": verified}

    def verify(self, user, origin, kind, body):
        verified = False
        if "error" not in body:
            if kind == "create":
                registration = verify_registration_response(
                    credential=body, expected_challenge=user["challenge"], expected_rp_id=RP_ID,
                    expected_origin=origin)
                user["credentials"][body["rawId"]] = registration
            else:
                registration = user["credentials"][body["rawId"]]
                verify_authentication_response(
                    credential=body, expected_challenge=user["challenge"], expected_rp_id=RP_ID,
                    expected_origin=origin, credential_public_key=registration.credential_public_key,
                    credential_current_sign_count=registration.sign_count)
            verified = True
        return verified

    def outcomes(self, origin, count, timeout=60):
        """The next `count` outcomes, each (kind, error name or None); they must be `origin`'s."""
        found = []
        deadline = time.monotonic() + timeout
        while len(found) < count:
            page, kind, error, verified = self.results.get(timeout=max(0.1, deadline - time.monotonic()))
            assert page == origin, (page, kind, error)
            assert verified or error, (kind, "not verified")
            found.append((kind, error))
        return found

    def tunnel(self):
        """The proxy: `CONNECT related.example:443` becomes a tunnel to the TLS server."""
        while True:
            try:
                client, _ = self.proxy.accept()
            except OSError:
                return
            threading.Thread(target=self.relay, args=(client,), daemon=True).start()

    def relay(self, client):
        with client:
            request = b""
            while b"\r\n\r\n" not in request:
                chunk = client.recv(4096)
                if not chunk:
                    return
                request += chunk
            if not request.startswith(f"CONNECT {RP_ID}:443 ".encode()):
                client.sendall(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n")
                return
            with socket.create_connection(("127.0.0.1", self.well_known.server_address[1])) as upstream:
                client.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
                ends = [client, upstream]
                while True:
                    readable, _, _ = select.select(ends, [], [], 30)
                    if not readable:
                        return
                    for end in readable:
                        data = end.recv(65536)
                        if not data:
                            return
                        (upstream if end is client else client).sendall(data)

    def stop(self):
        self.site.shutdown()
        self.well_known.shutdown()
        self.proxy.close()
