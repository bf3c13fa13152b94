"""`passkey browser --headless` gives the bridge to frames a page adds after load and to the popups it
opens: Chromium's content script runs in all frames (`all_frames`, `match_about_blank`) of every tab,
Firefox's preload script in every window of the session. The page is the suite's embedder page on the
RP's origin; what it opens runs the RP page's auto mode (sign up, then log in), which the RP verifies.

Chromium's popup blocker lets no popup through without a click, so the popup is Firefox's only.
"""

import urllib.parse

import pytest

from test_passkey_browser import browse, environment  # noqa: F401 (a fixture)


@pytest.mark.parametrize("engine", ["chromium", "firefox"])
def test_a_frame_added_after_load_and_a_popup_sign_up(engine, rp, environment, tmp_path):
    # What the embedder page opens (embedder.html's query), and who signs up there.
    users = {"frame": "framed"} | ({"popup": "popped"} if engine == "firefox" else {})
    # Each logs in naming its user (an allow list): the frame and the popup run at once on one RP
    # and one store, where a discoverable login takes the newest passkey, which may be the other's.
    opened = {key: f"{rp.origin}/?auto=signup-login&residentKey=discouraged&username={user}"
              for key, user in users.items()}
    url = rp.origin + "/static/embedder.html?" + urllib.parse.urlencode(opened)

    def logged_in():
        return sorted(record["username"] for record in rp.rp.authentications)
    browse(engine, url, tmp_path / "store", environment, lambda: len(logged_in()) >= len(users), timeout=60)
    assert logged_in() == sorted(users.values()), rp.rp.state()
