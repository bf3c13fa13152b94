"""A small relying party: Flask and py_webauthn, users and credentials in memory.

POST /register/options {username} -> PublicKeyCredentialCreationOptionsJSON
POST /register/verify  RegistrationResponseJSON
POST /login/options    {username?} -> PublicKeyCredentialRequestOptionsJSON (discoverable without one)
POST /login/verify     AuthenticationResponseJSON -> {username, signCount}
"""

import json

from flask import Flask, jsonify, request, session
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

RP_ID = "localhost"
ORIGIN = "https://localhost"


def create_app():
    app = Flask(__name__)
    app.secret_key = "example only"
    users = {}  # username -> {"id": bytes, "credentials": {credential id: {"public_key", "sign_count"}}}
    owners = {}  # user handle -> username

    @app.post("/register/options")
    def register_options():
        username = request.get_json()["username"]
        user = users.setdefault(username, {"id": None, "credentials": {}})
        options = generate_registration_options(
            rp_id=RP_ID, rp_name="Example", user_name=username, user_id=user["id"],
            exclude_credentials=[PublicKeyCredentialDescriptor(id=base64url_to_bytes(c)) for c in user["credentials"]],
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED, user_verification=UserVerificationRequirement.REQUIRED
            ),
        )
        user["id"] = options.user.id
        owners[options.user.id] = username
        session["challenge"], session["username"] = bytes_to_base64url(options.challenge), username
        return app.response_class(options_to_json(options), mimetype="application/json")

    @app.post("/register/verify")
    def register_verify():
        verified = verify_registration_response(
            credential=request.get_json(), expected_challenge=base64url_to_bytes(session.pop("challenge")),
            expected_rp_id=RP_ID, expected_origin=ORIGIN, require_user_verification=True,
        )
        users[session["username"]]["credentials"][bytes_to_base64url(verified.credential_id)] = {
            "public_key": verified.credential_public_key, "sign_count": verified.sign_count,
        }
        return jsonify(verified=True)

    @app.post("/login/options")
    def login_options():
        username = (request.get_json(silent=True) or {}).get("username")
        allowed = [PublicKeyCredentialDescriptor(id=base64url_to_bytes(c)) for c in users[username]["credentials"]] \
            if username else []
        options = generate_authentication_options(
            rp_id=RP_ID, allow_credentials=allowed, user_verification=UserVerificationRequirement.REQUIRED
        )
        session["challenge"] = bytes_to_base64url(options.challenge)
        return app.response_class(options_to_json(options), mimetype="application/json")

    @app.post("/login/verify")
    def login_verify():
        response = request.get_json()
        username = owners[base64url_to_bytes(response["response"]["userHandle"])]
        stored = users[username]["credentials"][response["rawId"]]
        verified = verify_authentication_response(
            credential=response, expected_challenge=base64url_to_bytes(session.pop("challenge")),
            expected_rp_id=RP_ID, expected_origin=ORIGIN, credential_public_key=stored["public_key"],
            credential_current_sign_count=stored["sign_count"], require_user_verification=True,
        )
        stored["sign_count"] = verified.new_sign_count
        return jsonify(username=username, signCount=verified.new_sign_count)

    return app


if __name__ == "__main__":
    create_app().run(port=5000)
