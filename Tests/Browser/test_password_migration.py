"""Issue 41's migration story in a browser: the local tenant's login page offers a password beside the
passkey, as Universal Login does with both enabled. Chromium, through the page bridge with a SoftPasskey
authenticator, signs a person up with the page's password form and logs them in with it; the app, with the
session's refresh token, enrolls a passkey on that authenticator through My Account; the person then logs in
on the same page with the passkey, and with the password again: one user (`auth0|…`) throughout."""

import json
import time
import urllib.parse

import requests

from test_web_auth import (  # noqa: F401  (the module's fixtures, used by name)
    CHROMIUM, BridgeUser, callbacks, email, listener, log_in, redeemed, tenant)
from web_auth_app import AuthorizationRequest

PASSWORD = "Correct-Horse-9-staple"

# Fills the page's identifier and password fields, then presses a password button (it navigates away:
# answer first).
PASSWORD_FORM = """(() => {
  const fields = {identifier: %s, password: %s}, button = document.querySelector(%s);
  for (const [id, value] of Object.entries(fields)) {
    const field = document.querySelector("#" + id);
    if (!field) return false;
    field.value = value;
    field.dispatchEvent(new Event("input", {bubbles: true}));
  }
  if (!button) return false;
  setTimeout(() => button.click(), 0);
  return true;
})()"""


def with_password(user, tenant, callbacks, button, address, **parameters):
    """An authorization request whose page the person answers with the password form's `button`."""
    request = AuthorizationRequest(tenant, callbacks.redirect_uri, **parameters)
    user.goto(request.url)
    assert user.tab.run(PASSWORD_FORM % (json.dumps(address), json.dumps(PASSWORD), json.dumps(button))), \
        f"no password form on the page: {user.describe()}"
    return redeemed(user, tenant, callbacks, request)


def enroll_passkey(tenant, authenticator, refresh_token):
    """What the app does with the session: a My Account token from the refresh token, the enrollment
    challenge, a passkey made on `authenticator` with the native origin https://RP_ID, and its verification."""
    token = tenant.post("/oauth/token", {
        "grant_type": "refresh_token", "client_id": tenant.client_id, "refresh_token": refresh_token,
        "audience": tenant.issuer + "me/", "scope": "create:me:authentication_methods"})
    assert token.status_code == 200, token.text
    bearer = {"Authorization": "Bearer " + token.json()["access_token"]}
    challenge = requests.post(tenant.url + "/me/v1/authentication-methods", json={"type": "passkey"},
                              headers=bearer, timeout=30)
    assert challenge.status_code == 202, challenge.text
    method_id = challenge.headers["Location"].rstrip("/").split("/")[-1]
    options = challenge.json()["authn_params_public_key"]
    created = authenticator.create("https://" + options["rp"]["id"], options)
    verified = requests.post(
        tenant.url + f"/me/v1/authentication-methods/{urllib.parse.quote(urllib.parse.unquote(method_id), safe='')}"
        "/verify", json={"auth_session": challenge.json()["auth_session"], "authn_response": created},
        headers=bearer, timeout=30)
    assert verified.status_code == 201, verified.text
    return created


@CHROMIUM
def test_the_password_form_then_a_passkey_on_the_same_page(engine, open_tab, authenticator, tenant, callbacks):
    user = BridgeUser(open_tab, authenticator, tenant)
    address = email("password")

    signed_up = with_password(user, tenant, callbacks, "#password-signup", address, screen_hint="signup")
    sub = signed_up.claims["sub"]
    assert sub.startswith("auth0|") and authenticator.credentials() == []
    by_password = with_password(user, tenant, callbacks, "#password-login", address, prompt="login")
    assert by_password.claims["sub"] == sub

    created = enroll_passkey(tenant, authenticator, by_password.tokens["refresh_token"])
    [credential] = authenticator.credentials()
    assert credential["rpId"] == "localhost"

    by_passkey = log_in(user, tenant, callbacks)
    assert by_passkey.claims["sub"] == sub
    assert authenticator.credentials()[0]["signCount"] >= credential["signCount"] and created["id"]

    again = with_password(user, tenant, callbacks, "#password-login", address, prompt="login")
    assert again.claims["sub"] == sub
    # Issue 41 `users`: the user's metadata and a linked identity go on from `again.tokens`.


@CHROMIUM
def test_a_wrong_password_is_shown_on_the_page(engine, open_tab, authenticator, tenant, callbacks):
    user = BridgeUser(open_tab, authenticator, tenant)
    request = AuthorizationRequest(tenant, callbacks.redirect_uri, prompt="login")
    user.goto(request.url)
    assert user.tab.run(PASSWORD_FORM % (json.dumps(email("nobody")), json.dumps(PASSWORD),
                                         json.dumps("#password-login")))
    shown = None
    for _ in range(100):
        shown = user.describe().get("error")
        if shown:
            break
        time.sleep(0.1)
    assert shown and "Wrong email or password" in shown, user.describe()
