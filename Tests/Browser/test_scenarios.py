"""One scenario suite, run in Chromium, Firefox ESR and WebKitGTK: a web app's own JavaScript
(static/rp.js) signs up and logs in at the test RP (rp_app.py, py_webauthn verifies every
response) with a SoftPasskey authenticator brought into the page by the bridge. The page sees what
a browser gives (PublicKeyCredential, toJSON(), ArrayBuffers, DOMExceptions by name), and the
test drives the person's side through `passkey serve` (conditional picks, UV, consent) and
watches the authenticator through Get Credentials and the event stream."""

import base64
import json

import pytest

from conftest import PLATFORM, ChromiumTab

CDP_AAGUID = "01020304-0506-0708-0102-030405060708"


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def register(tab, frame=0, **params):
    return tab.run(f"rp.register({json.dumps(params)})", frame)


def login(tab, frame=0, **params):
    return tab.run(f"rp.login({json.dumps(params)})", frame)


def succeeded(result):
    assert result["ok"], result
    return result["verified"]


def refused(result, name, stage="ceremony"):
    assert not result["ok"], result
    assert (result["stage"], result["name"]) == (stage, name), result
    return result


@pytest.mark.parametrize("alg", [-7, -8], ids=["ES256", "EdDSA"])
def test_register_with_each_algorithm(tab, rp, authenticator, alg):
    result = register(tab, username=f"alg{alg}", algorithms=[alg])
    verified = succeeded(result)
    assert (verified["alg"], verified["fmt"], verified["userVerified"]) == (alg, "none", True)
    seen = result["seen"]
    assert seen["instanceOfPublicKeyCredential"] and seen["responseInterface"] == "AuthenticatorAttestationResponse"
    assert seen["rawIdIsArrayBuffer"] and seen["clientDataJSONIsArrayBuffer"] and seen["attestationObjectIsArrayBuffer"]
    assert seen["authenticatorDataIsArrayBuffer"] and seen["publicKeyIsArrayBuffer"]
    assert (seen["publicKeyAlgorithm"], seen["authenticatorAttachment"]) == (alg, "platform")
    assert "internal" in seen["transports"]
    assert result["credential"]["response"]["publicKeyAlgorithm"] == alg
    assert [c["credentialId"] for c in authenticator.credentials()] == [verified["credentialId"]]


def test_cdp_direct_attestation_chains_to_the_stores_root(open_tab, session, rp, passkey, tmp_path):
    store = tmp_path / "store"
    root = passkey("attestation-ca", "--store", str(store))
    assert root.returncode == 0, root.stderr
    rp.rp.trust_roots = [root.stdout]
    cdp = session.add_authenticator(**{"softpasskey:profile": "cdp", "softpasskey:store": str(store),
                                       "hasUserVerification": True, "isUserVerified": True})
    tab = open_tab(cdp, rp.origin + "/")
    result = register(tab, username="attested", algorithms=[-7], attestation="direct")
    verified = succeeded(result)
    assert (verified["fmt"], verified["attestationTrusted"], verified["aaguid"]) == ("packed", True, CDP_AAGUID)
    assert result["seen"]["authenticatorAttachment"] == "cross-platform"

    rp.rp.trust_roots = [other_root(tmp_path, passkey)]
    refused(register(tab, username="attested-elsewhere", algorithms=[-7], attestation="direct"),
            "RelyingPartyRefused", stage="verify")


def other_root(tmp_path, passkey):
    result = passkey("attestation-ca", "--store", str(tmp_path / "other"))
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_discoverable_login_and_login_with_an_allow_list(tab, rp, authenticator):
    first = succeeded(register(tab, username="ada", algorithms=[-7]))
    result = login(tab)
    discovered = succeeded(result)
    assert (discovered["username"], discovered["credentialId"]) == ("ada", first["credentialId"])
    assert discovered["userHandle"] and discovered["userVerified"]
    seen = result["seen"]
    assert seen["instanceOfPublicKeyCredential"] and seen["responseInterface"] == "AuthenticatorAssertionResponse"
    assert seen["signatureIsArrayBuffer"] and seen["authenticatorDataIsArrayBuffer"] and seen["userHandleIsArrayBuffer"]

    allowed = succeeded(login(tab, username="ada"))
    assert allowed["credentialId"] == first["credentialId"]
    assert allowed["signCount"] > discovered["signCount"], "the counter grows with every assertion"


def test_prf_and_large_blob_outputs(tab, rp, authenticator):
    created = register(tab, username="blob", algorithms=[-7],
                       extensions={"credProps": True, "prf": {}, "largeBlob": {"support": "required"}})
    outputs = succeeded(created)["clientExtensionResults"]
    assert outputs["credProps"] == {"rk": True}
    assert outputs["prf"]["enabled"] is True
    assert outputs["largeBlob"]["supported"] is True

    salt, other = b64url(b"a" * 32), b64url(b"b" * 32)
    first = login(tab, username="blob", extensions={"prf": {"eval": {"first": salt, "second": other}}})
    results = succeeded(first)["clientExtensionResults"]["prf"]["results"]
    assert len(base64.urlsafe_b64decode(results["first"] + "==")) == 32
    assert results["first"] != results["second"]
    assert first["seen"]["clientExtensionResults"]["prf"]["results"]["first"] == {"arrayBuffer": 32}
    again = succeeded(login(tab, username="blob", extensions={"prf": {"eval": {"first": salt}}}))
    assert again["clientExtensionResults"]["prf"]["results"]["first"] == results["first"], "PRF is a function"

    blob = b64url(b"a blob the RP keeps on the authenticator")
    written = succeeded(login(tab, username="blob", extensions={"largeBlob": {"write": blob}}))
    assert written["clientExtensionResults"]["largeBlob"] == {"written": True}
    read = succeeded(login(tab, username="blob", extensions={"largeBlob": {"read": True}}))
    assert read["clientExtensionResults"]["largeBlob"] == {"blob": blob}


def test_an_excluded_re_registration_is_invalid_state(tab, rp, authenticator):
    succeeded(register(tab, username="grace", algorithms=[-7]))
    result = refused(register(tab, username="grace", algorithms=[-7]), "InvalidStateError")
    assert result["isDOMException"]
    assert len(authenticator.credentials()) == 1


def test_a_user_who_does_not_consent_cancels(open_tab, session, rp):
    unwilling = session.add_authenticator(**dict(PLATFORM, isUserConsenting=False))
    tab = open_tab(unwilling, rp.origin + "/")
    assert refused(register(tab, username="nobody"), "NotAllowedError")["isDOMException"]
    assert unwilling.credentials() == [] and rp.rp.registrations == []


def test_a_refused_user_verification_is_not_allowed_when_required(tab, rp, authenticator):
    succeeded(register(tab, username="linus"))
    authenticator.set_user_verified(False)
    refused(login(tab, userVerification="required"), "NotAllowedError")
    assert rp.rp.authentications == []


def test_a_phishing_origin_is_a_security_error(open_tab, authenticator, rp):
    phishing = open_tab(authenticator, f"http://127.0.0.1:{rp.port}/")
    refused(register(phishing, username="eve"), "SecurityError")
    assert authenticator.credentials() == []


def test_an_aborted_request_is_an_abort_error(tab, rp, authenticator):
    succeeded(register(tab, username="abby"))
    refused(login(tab, abort="before"), "AbortError")
    assert tab.run("rp.start('login', {mediation: 'conditional', abort: 'later'})")
    assert tab.run("rp.called")
    tab.run("rp.abort()")
    refused(tab.run("rp.finish()"), "AbortError")
    assert rp.rp.authentications == []
    # That the server then forgets the request (the bridge POSTs /abort) is test_bridge_routes':
    # the page cannot tell when its /abort has arrived.


def test_conditional_login_picked_by_the_test(tab, rp, authenticator):
    succeeded(register(tab, username="first"))
    second = succeeded(register(tab, username="second"))
    capabilities = tab.run("rp.capabilities()")
    assert capabilities["conditionalMediation"] is True

    assert tab.run("rp.start('login', {mediation: 'conditional'})")
    picked = authenticator.conditional(credential_id=second["credentialId"])
    assert (picked["origin"], picked["rpId"]) == (rp.origin, "localhost")
    assert picked["credential"]["id"] == second["credentialId"]
    verified = succeeded(tab.run("rp.finish()"))
    assert (verified["username"], verified["conditional"]) == ("second", True)


def test_conditional_create_without_user_presence(tab, rp, authenticator):
    """As Chrome does: a conditional create (a password manager's upgrade to a passkey) is answered
    at once, without presence or verification, so it refuses `userVerification: "required"`."""
    refused(register(tab, username="upgraded", mediation="conditional"), "NotAllowedError")
    verified = succeeded(register(tab, username="upgraded", mediation="conditional", userVerification="preferred"))
    assert verified["conditional"] and not verified["userVerified"]
    assert len(authenticator.credentials()) == 1


def test_the_three_signals_change_the_authenticators_credentials(tab, rp, authenticator, session):
    events = session.events()
    try:
        unknown = succeeded(register(tab, username="unknown"))["credentialId"]
        renamed = succeeded(register(tab, username="renamed"))["credentialId"]
        dropped = succeeded(register(tab, username="dropped"))["credentialId"]

        assert tab.run(f"rp.signalUnknownCredential({json.dumps(unknown)})") == {"ok": True}
        events.wait_for("credentialDeleted", credentialId=unknown)

        assert tab.run("fetch('/api/credentials/' + %s, {method: 'DELETE'}).then(r => r.status)"
                       % json.dumps(dropped)) == 200
        assert tab.run("rp.signalAllAcceptedCredentials('dropped')") == {"ok": True}
        events.wait_for("credentialDeleted", credentialId=dropped)

        assert tab.run("rp.signalCurrentUserDetails('renamed', 'renamed@example.org', 'Renamed Person')") == \
            {"ok": True}
        events.wait_for("credentialUpdated", credentialId=renamed)
    finally:
        events.close()
    credentials = {c["credentialId"]: c for c in authenticator.credentials()}
    assert set(credentials) == {renamed}
    assert (credentials[renamed].get("userName"), credentials[renamed].get("userDisplayName")) == \
        ("renamed@example.org", "Renamed Person")


def test_events_report_each_ceremony_with_the_pages_origin(tab, rp, authenticator, session):
    events = session.events()
    try:
        created = succeeded(register(tab, username="watched"))
        added = events.wait_for("credentialAdded", credentialId=created["credentialId"])
        assert added["data"]["authenticatorId"] == authenticator.id
        assert (added["data"]["rpId"], added["data"]["origin"]) == ("localhost", rp.origin)
        asserted = succeeded(login(tab))
        event = events.wait_for("credentialAsserted", credentialId=created["credentialId"])
        assert event["data"]["signCount"] == asserted["signCount"]
        assert event["data"]["userHandle"] == asserted["userHandle"]
    finally:
        events.close()


def test_a_cross_origin_iframe_is_refused_by_the_rp_unless_allowed(open_tab, authenticator, rp):
    top = f"http://127.0.0.1:{rp.port}"
    framed = open_tab(authenticator, f"{top}/frame?src={rp.origin}/")
    result = refused(register(framed, frame=1, username="framed"), "RelyingPartyRefused", stage="verify")
    assert "cross-origin" in result["message"]
    client_data = json.loads(base64.urlsafe_b64decode(result["credential"]["response"]["clientDataJSON"] + "=="))
    assert (client_data["origin"], client_data["crossOrigin"], client_data["topOrigin"]) == (rp.origin, True, top)

    rp.rp.allowed_top_origins = [top]
    verified = succeeded(register(framed, frame=1, username="framed-allowed"))
    assert (verified["crossOrigin"], verified["topOrigin"]) == (True, top)
    logged_in = succeeded(login(framed, frame=1, username="framed-allowed"))
    assert (logged_in["crossOrigin"], logged_in["topOrigin"]) == (True, top)


def test_the_client_reports_what_it_and_the_authenticator_can_do(tab):
    capabilities = tab.run("rp.capabilities()")
    assert capabilities["defined"] and capabilities["credentialsDefined"]
    assert capabilities["userVerifyingPlatformAuthenticator"] is True
    assert (capabilities["parseCreationOptionsFromJSON"], capabilities["parseRequestOptionsFromJSON"]) == \
        ("function", "function")
    reported = capabilities["clientCapabilities"]
    for capability in ("conditionalGet", "passkeyPlatformAuthenticator", "userVerifyingPlatformAuthenticator",
                       "signalUnknownCredential", "signalAllAcceptedCredentials", "signalCurrentUserDetails",
                       "extension:prf", "extension:largeBlob"):
        assert reported.get(capability) is True, (capability, reported)


def test_the_auto_mode_signs_up_and_logs_in_on_load(open_tab, authenticator, rp):
    """What `passkey browser` drives: the page itself registers and logs in as it loads (in WebKitGTK
    it waits for the bridge, evaluated after load)."""
    tab = open_tab(authenticator, rp.origin + "/?auto=signup-login&username=auto-user")
    outcome = tab.run("rp.autoDone")
    assert outcome["ok"], outcome
    assert rp.rp.auto["ok"] and rp.rp.auto["username"] == "auto-user"
    (registered,), (logged_in,) = rp.rp.registrations, rp.rp.authentications
    assert registered["username"] == logged_in["username"] == "auto-user"
    assert logged_in["credentialId"] == registered["credentialId"]
    assert tab.run("document.title") == "auto: done"


def test_the_driver_installs_the_bridge_in_every_frame(open_tab, authenticator, rp, engine):
    """Playwright's init script and BiDi's preload script run before the page's scripts, in the top
    document and in a cross-origin iframe; WebKitGTK's Selenium evaluation comes after load."""
    framed = open_tab(authenticator, f"http://127.0.0.1:{rp.port}/frame?src={rp.origin}/")
    before = engine.name != "webkit"
    assert framed.run("window.bridgeBeforePageScripts", frame=1) is before
    for frame in (0, 1):
        assert framed.run("Object.prototype.hasOwnProperty.call(globalThis, Symbol.for('softpasskey.bridge'))",
                          frame=frame) is True


def test_a_script_restricted_to_the_rps_origin_answers_no_other_page(open_tab, authenticator, rp):
    elsewhere = open_tab(authenticator, f"http://127.0.0.1:{rp.port}/", origins=[rp.origin])
    refused(register(elsewhere, username="elsewhere"), "NotAllowedError")
    own = open_tab(authenticator, rp.origin + "/", origins=[rp.origin])
    succeeded(register(own, username="own"))
    assert len(authenticator.credentials()) == 1


def network_log(tab):
    """The page's requests as (method, url), and its WebSockets' URLs, from Chromium's Network domain."""
    requests, sockets = [], []
    cdp = tab.context.new_cdp_session(tab.page)
    cdp.on("Network.requestWillBeSent", lambda event: requests.append(
        (event["request"]["method"], event["request"]["url"])))
    cdp.on("Network.webSocketCreated", lambda event: sockets.append(event["url"]))
    cdp.send("Network.enable")
    return requests, sockets


@pytest.mark.parametrize("engine", ["chromium"], indirect=True)
def test_chromium_preflights_a_bridge_route_once(engine, rp, authenticator):
    """With fetch alone (`bridge.js?channel=fetch`) the bridge's Authorization header makes each
    request CORS-preflighted; the server's Access-Control-Max-Age lets Chromium keep the answer, so
    logins after the first cost one request each (a fetch with cache "no-store" would skip
    Chromium's preflight cache)."""
    context = engine.browser.new_context()
    context.add_init_script(script=authenticator.bridge_script(channel="fetch"))
    tab = ChromiumTab(context)
    try:
        tab.goto(rp.origin + "/")
        requests, sockets = network_log(tab)
        succeeded(register(tab, username="alice"))
        for _ in range(3):
            succeeded(login(tab, username="alice"))
        tab.page.wait_for_timeout(300)
        logins = [method for method, url in requests if url.endswith("/bridge/get")]
        assert logins.count("POST") == 3, requests
        assert logins.count("OPTIONS") <= 1, requests
        assert sockets == []
    finally:
        tab.close()


@pytest.mark.parametrize("engine", ["chromium"], indirect=True)
def test_a_realm_sends_its_ceremonies_over_one_bridge_socket(tab, rp):
    """The bridge's persistent channel: one WebSocket per page realm, opened by its first
    ceremony; each ceremony after it is a message on it, not an HTTP request to the bridge."""
    requests, sockets = network_log(tab)
    succeeded(register(tab, username="alice"))
    for _ in range(3):
        succeeded(login(tab, username="alice"))
    tab.page.wait_for_timeout(300)
    assert [url for url in sockets if url.endswith("/bridge/socket")] == sockets and len(sockets) == 1, sockets
    assert [url for _, url in requests if "/bridge/" in url] == [], requests
