"""The relying party the browser suite signs up and logs in at: Flask and py_webauthn, state in memory.

It is an ordinary web app: its page (`static/index.html`) runs its own JavaScript (`static/rp.js`),
which calls `navigator.credentials.create/get` with the options this app generates, parsed by
`PublicKeyCredential.parseCreationOptionsFromJSON/parseRequestOptionsFromJSON`, and posts
`credential.toJSON()` back. Nothing here knows about SoftPasskey: whatever answers the page's
ceremonies (a browser's own authenticator or the page bridge) must satisfy py_webauthn.

Every response is verified (WebAuthn L3 §7.1 and §7.2, by py_webauthn): challenge, origin, RP ID
`localhost`, UP (waived only for a conditional create, L3 §5.1.3 with `mediation: "conditional"`),
UV when the options required it, the signature and the counter, and for `direct` attestation the
x5c chain to the trust roots given with `--trust-root` or `POST /api/config` (L3 §8.2). The client
data's `crossOrigin` and `topOrigin` (L3 §5.8.1) are checked here, as py_webauthn does not: a
ceremony run in a cross-origin iframe is refused unless its top origin is allowed.

Routes (JSON):
    GET  /                        the page; `?auto=signup-login&username=NAME` registers NAME and then
                                  logs in with a discoverable credential as soon as the page loads
    GET  /frame?src=URL           a page that embeds URL in an iframe (cross-origin tests)
    POST /api/register/options    {username, algorithms?, attestation?, userVerification?, residentKey?,
                                   extensions?, mediation?, exclude?} -> creation options JSON
    POST /api/register/verify     RegistrationResponseJSON -> {verified: {...}} or 4xx {error}
    POST /api/login/options       {username?, userVerification?, extensions?, mediation?} -> request options JSON
    POST /api/login/verify        AuthenticationResponseJSON -> {verified: {...}} or 4xx {error}
    GET  /api/users/NAME          {userId, credentialIds} (what the signals need)
    DELETE /api/credentials/ID    the RP forgets a credential (then signalAllAcceptedCredentials)
    GET  /api/state               users, registrations, authentications, refusals, auto
    POST /api/config              {allowedTopOrigins?: [...], trustRoots?: [PEM], origins?: [...]}
    POST /api/reset               forget everything but the configuration

    python rp_app.py [--host 127.0.0.1] [--port 5000] [--trust-root ROOT.pem]
"""

import argparse
import json
import logging
import os
import secrets
import threading

from flask import Flask, jsonify, request, send_from_directory
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url, decode_credential_public_key
from webauthn.helpers.exceptions import InvalidAuthenticationResponse, InvalidRegistrationResponse
from webauthn.helpers.structs import (
    AttestationConveyancePreference,
    AttestationFormat,
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)
from werkzeug.serving import make_server

RP_ID = "localhost"
STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")


class Refused(Exception):
    """The RP refuses a response: 400 {error} and a line in the state's refusals."""


class RelyingParty:
    """The app's memory: users, credentials, pending challenges and what it verified."""

    def __init__(self, port, trust_roots=()):
        self.lock = threading.Lock()
        self.origins = [f"http://localhost:{port}"]
        self.allowed_top_origins = []
        self.trust_roots = list(trust_roots)
        self.reset()

    def reset(self):
        self.users = {}  # name -> {"id": bytes, "credentials": [credential id b64url]}
        self.credentials = {}  # credential id -> {"username", "public_key", "sign_count", "alg"}
        self.pending = {}  # challenge b64url -> what the options asked
        self.registrations, self.authentications, self.refusals = [], [], []
        self.auto = None

    def state(self):
        return {
            "users": {name: {"userId": bytes_to_base64url(user["id"]), "credentialIds": list(user["credentials"])}
                      for name, user in self.users.items()},
            "registrations": self.registrations, "authentications": self.authentications,
            "refusals": self.refusals, "auto": self.auto,
            "config": {"origins": self.origins, "allowedTopOrigins": self.allowed_top_origins,
                       "trustRoots": len(self.trust_roots)},
        }

    # Client data (L3 §5.8.1): read here for the pending challenge and crossOrigin/topOrigin.
    def client_data(self, credential):
        try:
            data = json.loads(base64url_to_bytes(credential["response"]["clientDataJSON"]))
            pending = self.pending.pop(data["challenge"])
        except (KeyError, TypeError, ValueError) as error:
            raise Refused(f"no pending challenge for this response ({type(error).__name__})") from error
        if data.get("crossOrigin"):
            top = data.get("topOrigin")
            if top not in self.allowed_top_origins:
                raise Refused(f"cross-origin ceremony under top origin {top!r} is not allowed")
        return data, pending

    def registration_options(self, body):
        username = body["username"]
        user = self.users.setdefault(username, {"id": secrets.token_bytes(16), "credentials": []})
        excluded = user["credentials"] if body.get("exclude", True) else []
        options = generate_registration_options(
            rp_id=RP_ID, rp_name="SoftPasskey test RP", user_name=username, user_id=user["id"],
            user_display_name=body.get("displayName", username),
            attestation=AttestationConveyancePreference(body.get("attestation", "none")),
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement(body.get("residentKey", "required")),
                user_verification=UserVerificationRequirement(body.get("userVerification", "required")),
            ),
            exclude_credentials=[PublicKeyCredentialDescriptor(id=base64url_to_bytes(c)) for c in excluded],
            supported_pub_key_algs=body.get("algorithms") or None,
        )
        return self.issue(options, body, "create", username, attestation=body.get("attestation", "none"))

    def issue(self, options, body, kind, username, **more):
        """The options as JSON with the asked extensions; what they asked is kept by challenge."""
        answer = json.loads(options_to_json(options))
        if body.get("extensions"):
            answer["extensions"] = body["extensions"]
        self.pending[answer["challenge"]] = dict(
            more, kind=kind, username=username, uv=body.get("userVerification", "required") == "required",
            conditional=body.get("mediation") == "conditional")
        return answer

    def answering(self, credential, kind):
        """The response's client data and the options it answers (issued for a ceremony of `kind`)."""
        data, pending = self.client_data(credential)
        if pending["kind"] != kind:
            raise Refused(f"the challenge was not issued for a {kind}")
        return data, pending

    def verify_registration(self, credential):
        data, pending = self.answering(credential, "create")
        roots = None
        if pending["attestation"] == "direct" and self.trust_roots:
            roots = {AttestationFormat.PACKED: [root.encode() for root in self.trust_roots]}
        try:
            verified = verify_registration_response(
                credential=credential, expected_challenge=base64url_to_bytes(data["challenge"]),
                expected_rp_id=RP_ID, expected_origin=self.origins,
                require_user_presence=not pending["conditional"],
                require_user_verification=pending["uv"] and not pending["conditional"],
                pem_root_certs_bytes_by_fmt=roots,
            )
        except InvalidRegistrationResponse as error:
            raise Refused(str(error)) from error
        if roots is not None and verified.fmt == AttestationFormat.NONE:
            raise Refused("direct attestation was asked for and none came")
        credential_id = bytes_to_base64url(verified.credential_id)
        alg = decode_credential_public_key(verified.credential_public_key).alg
        self.credentials[credential_id] = {
            "username": pending["username"], "public_key": verified.credential_public_key,
            "sign_count": verified.sign_count, "alg": int(alg),
        }
        self.users[pending["username"]]["credentials"].append(credential_id)
        record = {
            "username": pending["username"], "credentialId": credential_id, "alg": int(alg),
            "fmt": str(getattr(verified.fmt, "value", verified.fmt)), "attestationTrusted": roots is not None, "aaguid": verified.aaguid,
            "signCount": verified.sign_count, "userVerified": verified.user_verified,
            "conditional": pending["conditional"], "origin": data["origin"],
            "crossOrigin": bool(data.get("crossOrigin")), "topOrigin": data.get("topOrigin"),
            "backedUp": verified.credential_backed_up, "transports": credential["response"].get("transports"),
            "clientExtensionResults": credential.get("clientExtensionResults", {}),
        }
        self.registrations.append(record)
        return record

    def authentication_options(self, body):
        username = body.get("username")
        allowed = []
        if username:
            if username not in self.users:
                raise Refused(f"no user {username}")
            allowed = [PublicKeyCredentialDescriptor(id=base64url_to_bytes(c))
                       for c in self.users[username]["credentials"]]
        options = generate_authentication_options(
            rp_id=RP_ID, allow_credentials=allowed,
            user_verification=UserVerificationRequirement(body.get("userVerification", "required")),
        )
        return self.issue(options, body, "get", username)

    def verify_authentication(self, credential):
        data, pending = self.answering(credential, "get")
        stored = self.credentials.get(credential.get("rawId"))
        if stored is None:
            raise Refused("unknown credential")
        if pending["username"] and stored["username"] != pending["username"]:
            raise Refused("the credential is not one of the user's")
        user_handle = credential["response"].get("userHandle")
        if user_handle and base64url_to_bytes(user_handle) != self.users[stored["username"]]["id"]:
            raise Refused("the user handle is not the credential's user")
        try:
            verified = verify_authentication_response(
                credential=credential, expected_challenge=base64url_to_bytes(data["challenge"]),
                expected_rp_id=RP_ID, expected_origin=self.origins, credential_public_key=stored["public_key"],
                credential_current_sign_count=stored["sign_count"], require_user_verification=pending["uv"],
            )
        except InvalidAuthenticationResponse as error:
            raise Refused(str(error)) from error
        stored["sign_count"] = verified.new_sign_count
        record = {
            "username": stored["username"], "credentialId": credential["rawId"], "alg": stored["alg"],
            "signCount": verified.new_sign_count, "userVerified": verified.user_verified,
            "userHandle": user_handle, "conditional": pending["conditional"], "origin": data["origin"],
            "crossOrigin": bool(data.get("crossOrigin")), "topOrigin": data.get("topOrigin"),
            "clientExtensionResults": credential.get("clientExtensionResults", {}),
        }
        self.authentications.append(record)
        return record


def create_app(port, trust_roots=()):
    """The Flask app of a relying party whose page is served at http://localhost:PORT."""
    app = Flask(__name__, static_folder=None)
    rp = RelyingParty(port, trust_roots)
    app.config["rp"] = rp

    def refused(error, status=400):
        rp.refusals.append({"path": request.path, "error": str(error)})
        return jsonify(error=str(error)), status

    def guarded(handler, name):
        def run():
            body = request.get_json(silent=True)
            if not isinstance(body, dict):
                return refused("a JSON object is required")
            with rp.lock:
                try:
                    return jsonify(handler(body))
                except Refused as error:
                    return refused(error)
                except (KeyError, TypeError, ValueError) as error:
                    return refused(f"malformed request: {type(error).__name__} {error}")
        run.__name__ = name
        return run

    @app.get("/")
    def index():
        return send_from_directory(STATIC, "index.html")

    @app.get("/frame")
    def frame():
        return send_from_directory(STATIC, "frame.html")

    @app.get("/static/<path:name>")
    def static_file(name):
        return send_from_directory(STATIC, name)

    app.post("/api/register/options")(guarded(rp.registration_options, "register_options"))
    app.post("/api/login/options")(guarded(rp.authentication_options, "login_options"))
    app.post("/api/register/verify")(
        guarded(lambda body: {"verified": rp.verify_registration(body)}, "register_verify"))
    app.post("/api/login/verify")(guarded(lambda body: {"verified": rp.verify_authentication(body)}, "login_verify"))

    @app.get("/api/users/<name>")
    def user(name):
        with rp.lock:
            if name not in rp.users:
                return jsonify(error=f"no user {name}"), 404
            return jsonify(rp.state()["users"][name])

    @app.delete("/api/credentials/<credential_id>")
    def forget(credential_id):
        with rp.lock:
            stored = rp.credentials.pop(credential_id, None)
            if stored is None:
                return jsonify(error="unknown credential"), 404
            rp.users[stored["username"]]["credentials"].remove(credential_id)
            return jsonify(forgotten=credential_id)

    @app.get("/api/state")
    def state():
        with rp.lock:
            return jsonify(rp.state())

    @app.post("/api/auto")
    def auto():
        with rp.lock:
            rp.auto = request.get_json(silent=True)
            return jsonify(recorded=True)

    @app.post("/api/config")
    def config():
        body = request.get_json(silent=True) or {}
        with rp.lock:
            if "allowedTopOrigins" in body:
                rp.allowed_top_origins = list(body["allowedTopOrigins"])
            if "trustRoots" in body:
                rp.trust_roots = list(body["trustRoots"])
            if "origins" in body:
                rp.origins = list(body["origins"])
            return jsonify(rp.state()["config"])

    @app.post("/api/reset")
    def reset():
        with rp.lock:
            rp.reset()
            return jsonify(reset=True)

    @app.after_request
    def no_store(response):
        response.headers["Cache-Control"] = "no-store"
        return response

    return app


class RelyingPartyServer:
    """The app served in a thread of this process (werkzeug), for pytest fixtures."""

    def __init__(self, port=0, host="127.0.0.1", trust_roots=()):
        logging.getLogger("werkzeug").setLevel(logging.WARNING)
        # Bind first to learn the port, then build the app that knows its origin.
        self.server = make_server(host, port, Flask(__name__), threaded=True)
        self.port = self.server.server_port
        self.app = create_app(self.port, trust_roots)
        self.server.app = self.app
        self.rp = self.app.config["rp"]
        self.origin = f"http://localhost:{self.port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self):
        self.server.shutdown()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=5000)
    parser.add_argument("--trust-root", action="append", default=[], help="a PEM root for direct attestation")
    arguments = parser.parse_args()
    roots = [open(path).read() for path in arguments.trust_root]
    server = RelyingPartyServer(arguments.port, arguments.host, roots)
    print(json.dumps({"url": server.origin, "port": server.port}), flush=True)
    server.thread.join()


if __name__ == "__main__":
    main()
