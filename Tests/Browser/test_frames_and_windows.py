"""Every page and frame of a tab gets the bridge, and the bridge refuses in a frame what a browser
refuses there, in Chromium, Firefox ESR and WebKitGTK.

Pages and frames: a popup to another origin (`window.open`) signs up, logs in and posts both back to
its opener; a link with `target=_blank` opens a tab that does the same; a frame added after load and
an `about:blank` frame (whose `navigator.credentials` its parent calls) have the bridge. Chromium
and Firefox have it before the pages' scripts (Playwright's context init script; a BiDi preload
script of the tab's user context); WebKitGTK gets it when the driver evaluates it again
(`Bridge.inject()` walks every window and frame), which these tests do while they wait.

Rules of a browser (BridgePolicy): a cross-origin frame without `allow="publickey-credentials-…"`
is refused (WebAuthn L3 §5.9; an `allow` with `*`, the frame's origin or `'src'` delegates, one
naming another origin or `'none'` does not, and a frame whose parent was not delegated is refused
too), and create() in a cross-origin frame without user activation is refused (§5.1.3), each with
Chromium's `NotAllowedError`; `relax=permissions-policy&relax=user-activation` lets both through.
"""

import json
import time

import pytest

EMBEDDER = "/static/embedder.html"
CREATE_REFUSED = "The 'publickey-credentials-create' feature is not enabled in this document."
ACTIVATION_REFUSED = "A user activation is required to create a credential in a cross-origin iframe."


def register(tab, frame=0, **params):
    return tab.run(f"rp.register({json.dumps(params)})", frame)


def login(tab, frame=0, **params):
    return tab.run(f"rp.login({json.dumps(params)})", frame)


def refused(result, name, message):
    assert not result["ok"], result
    assert (result["stage"], result["name"]) == ("ceremony", name), result
    assert message in result["message"], result
    return result


class Relaxed:
    """An authenticator whose bridge scripts relax `rules` (what the drivers' install() asks for)."""

    def __init__(self, authenticator, rules):
        self.authenticator, self.rules = authenticator, rules

    def bridge_script(self, origins=None, relax=(), **options):
        return self.authenticator.bridge_script(origins, relax=tuple(relax) + self.rules, **options)


def inject_again(tab, engine):
    """WebKitGTK: evaluate the bridge in windows and frames that appeared since (a no-op elsewhere,
    where it is preloaded)."""
    if engine.name == "webkit":
        tab.bridge.inject()


def wait_for(tab, engine, condition, seconds=60):
    """Polls `condition()` until it answers something truthy, injecting the bridge meanwhile in WebKitGTK."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        inject_again(tab, engine)
        answer = condition()
        if answer:
            return answer
        time.sleep(0.25)
    raise AssertionError(f"nothing within {seconds} s")


def click(tab, engine, element_id):
    """A person's click on an element of the top document (WebKitGTK: a WebDriver click, since its
    script evaluation has no user activation and MiniBrowser blocks popups without one)."""
    if engine.name == "webkit":
        from selenium.webdriver.common.by import By
        tab.driver.switch_to.default_content()
        tab.driver.find_element(By.ID, element_id).click()
    else:
        tab.run(f"(document.getElementById({json.dumps(element_id)}).click(), true)")


def close_other_windows(tab, engine):
    """WebKitGTK shares one session between tabs: close the windows a test opened."""
    if engine.name != "webkit":
        return
    driver = tab.driver
    first = driver.window_handles[0]
    for handle in driver.window_handles[1:]:
        driver.switch_to.window(handle)
        driver.close()
    driver.switch_to.window(first)


def add_frame(tab, engine, src, allow=None):
    tab.run(f"addFrame({json.dumps(src)}, {json.dumps(allow)})")
    inject_again(tab, engine)


@pytest.fixture
def embedder(rp):
    """The embedding page on the other loopback name (cross-origin to the RP), whose frames the RP accepts."""
    top = f"http://127.0.0.1:{rp.port}"
    rp.rp.allowed_top_origins = [top]
    return top


def test_a_popup_to_another_origin_signs_up_and_posts_back(open_tab, authenticator, rp, engine, embedder):
    tab = open_tab(authenticator, embedder + EMBEDDER)
    try:
        tab.run(f"(window.popupURL = {json.dumps(rp.origin + '/static/popup.html?username=popped')}, true)")
        click(tab, engine, "open-popup")
        (message,) = wait_for(tab, engine, lambda: tab.run("window.received"))
    finally:
        close_other_windows(tab, engine)
    assert message["origin"] == rp.origin
    posted = message["data"]
    assert posted["register"]["ok"] and posted["login"]["ok"], posted
    assert posted["login"]["verified"]["username"] == "popped"
    assert (posted["register"]["verified"]["crossOrigin"], posted["login"]["verified"]["crossOrigin"]) == (False, False)
    assert [c["credentialId"] for c in authenticator.credentials()] == [posted["register"]["verified"]["credentialId"]]


def test_a_link_to_a_new_tab_signs_up_there(open_tab, authenticator, rp, engine, embedder):
    tab = open_tab(authenticator, embedder + EMBEDDER)
    try:
        link = rp.origin + "/?auto=signup-login&username=tabbed"
        tab.run(f"(document.getElementById('open-tab').href = {json.dumps(link)}, true)")
        click(tab, engine, "open-tab")
        wait_for(tab, engine, lambda: rp.rp.auto)
    finally:
        close_other_windows(tab, engine)
    assert rp.rp.auto["ok"] and rp.rp.auto["username"] == "tabbed", rp.rp.auto


def test_a_frame_added_later_with_allow_signs_up_and_logs_in(open_tab, authenticator, rp, engine, embedder):
    tab = open_tab(authenticator, embedder + EMBEDDER)
    add_frame(tab, engine, rp.origin + "/",
              "publickey-credentials-create *; publickey-credentials-get *")
    registered = register(tab, frame=1, username="late")
    assert registered["ok"], registered
    assert (registered["verified"]["crossOrigin"], registered["verified"]["topOrigin"]) == (True, embedder)
    logged_in = login(tab, frame=1, username="late")
    assert logged_in["ok"] and logged_in["verified"]["crossOrigin"], logged_in


def test_an_about_blank_frame_has_the_bridge(open_tab, authenticator, rp, engine):
    tab = open_tab(authenticator, rp.origin + EMBEDDER)
    tab.run("addBlankFrame()")
    inject_again(tab, engine)
    result = tab.run("registerThroughBlankFrame('blank')")
    assert result["bridged"] and result.get("status") == 200, result
    # Same origin as its parent: no topOrigin, crossOrigin false.
    assert result["body"]["verified"]["crossOrigin"] is False, result


# The allow attribute of a cross-origin frame at the RP's origin, and whether it delegates create().
ALLOW = [
    (None, False),
    ("publickey-credentials-get *", False),
    ("publickey-credentials-create 'none'", False),
    ("publickey-credentials-create http://127.0.0.1:9", False),
    ("publickey-credentials-create 'self'", False),
    ("publickey-credentials-create", True),  # an empty allowlist is 'src'
    ("publickey-credentials-create 'src'", True),
    ("publickey-credentials-create {rp}", True),
    ("camera; publickey-credentials-create *", True),
]


def test_the_permissions_policy_of_a_cross_origin_frame(open_tab, authenticator, rp, engine, embedder):
    tab = open_tab(authenticator, embedder + EMBEDDER)
    outcomes = []
    for number, (allow, delegates) in enumerate(ALLOW):
        add_frame(tab, engine, rp.origin + "/", allow if allow is None else allow.replace("{rp}", rp.origin))
        outcomes.append((allow, register(tab, frame=1, username=f"framed{number}")))
    for (allow, delegates), (_, result) in zip(ALLOW, outcomes):
        if delegates:
            assert result["ok"], (allow, result)
        else:
            refused(result, "NotAllowedError", CREATE_REFUSED)
    # Without a delegated get, a login is refused as well.
    add_frame(tab, engine, rp.origin + "/", "publickey-credentials-create *")
    refused(login(tab, frame=1), "NotAllowedError", "The 'publickey-credentials-get' feature is not enabled")


def test_a_frame_whose_parent_was_not_delegated_is_refused(open_tab, authenticator, rp, engine, embedder):
    """Nested frames chain: 127.0.0.1 → the RP's embedder page → the RP page, each with allow on its
    own <iframe>; the inner frame is delegated only when its parent frame was too."""
    tab = open_tab(authenticator, embedder + EMBEDDER)
    delegate = "publickey-credentials-create *"
    inner = f"addFrame({json.dumps(rp.origin + '/')}, {json.dumps(delegate)})"
    for middle_allow, delegated in ((None, False), (delegate, True)):
        add_frame(tab, engine, rp.origin + EMBEDDER, middle_allow)
        tab.run(inner, frame=1)
        inject_again(tab, engine)
        result = run_nested(tab, engine, "rp.register({username: 'nested'})")
        if delegated:
            assert result["ok"], result
            assert (result["verified"]["crossOrigin"], result["verified"]["topOrigin"]) == (True, embedder)
        else:
            refused(result, "NotAllowedError", CREATE_REFUSED)


def run_nested(tab, engine, expression):
    """Runs `expression` in the first frame of the first frame (with user activation) and answers it."""
    code = f"(async () => JSON.stringify(await ({expression})))()"
    if engine.name == "chromium":
        return json.loads(tab.page.main_frame.child_frames[0].child_frames[0].evaluate(code))
    if engine.name == "firefox":
        inner = tab.session.get_tree(tab.context)[0]["children"][0]["children"][0]["context"]
        return json.loads(tab.session.evaluate(inner, code, user_activation=True))
    from softpasskey.selenium import activate
    driver = tab.driver
    driver.switch_to.default_content()
    driver.switch_to.frame(0)
    driver.switch_to.frame(0)
    try:
        activate(driver)
        return json.loads(driver.execute_async_script(
            "const done = arguments[arguments.length - 1];\n"
            f"{code}.then(done, (e) => done(JSON.stringify({{driverError: String(e)}})));"))
    finally:
        driver.switch_to.default_content()


def test_create_without_user_activation_in_a_cross_origin_frame_is_refused(
        open_tab, authenticator, rp, engine, embedder):
    """The RP page's auto mode registers as it loads, with no click in the frame."""
    tab = open_tab(authenticator, embedder + EMBEDDER)
    add_frame(tab, engine, rp.origin + "/?auto=signup-login&username=unactivated",
              "publickey-credentials-create *; publickey-credentials-get *")
    auto = wait_for(tab, engine, lambda: rp.rp.auto)
    assert not auto["ok"]
    refused(auto["register"], "NotAllowedError", ACTIVATION_REFUSED)
    assert authenticator.credentials() == []


def test_the_relax_switch_lets_both_through(open_tab, authenticator, rp, engine, embedder):
    relaxed = Relaxed(authenticator, ("permissions-policy", "user-activation"))
    tab = open_tab(relaxed, embedder + EMBEDDER)
    add_frame(tab, engine, rp.origin + "/?auto=signup-login&username=relaxed")  # no allow, no click
    auto = wait_for(tab, engine, lambda: rp.rp.auto)
    assert auto["ok"], auto
    assert (auto["register"]["verified"]["crossOrigin"], auto["register"]["verified"]["topOrigin"]) == (True, embedder)
