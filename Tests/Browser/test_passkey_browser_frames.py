"""`passkey browser --headless` gives the bridge to frames a page adds after load and to the popups it
opens: Chromium's content script runs in all frames (`all_frames`, `match_about_blank`) of every tab,
Firefox's preload script in every window of the session. The page is the suite's embedder page on the
RP's origin; what it opens runs the RP page's auto mode (sign up, then log in), which the RP verifies.

Chromium's popup blocker lets no popup through without a click, so the popup is Firefox's only.
"""

import signal
import subprocess
import time
import urllib.parse

import pytest

from conftest import passkey_binary


@pytest.mark.parametrize("engine", ["chromium", "firefox"])
def test_a_frame_added_after_load_and_a_popup_sign_up(engine, rp, tmp_path):
    # What the embedder page opens (embedder.html's query), and who signs up there.
    users = {"frame": "framed"} | ({"popup": "popped"} if engine == "firefox" else {})
    opened = {key: f"{rp.origin}/?auto=signup-login&username={user}" for key, user in users.items()}
    url = rp.origin + "/static/embedder.html?" + urllib.parse.urlencode(opened)
    process = subprocess.Popen(
        [passkey_binary(), "browser", "--headless", "--consent", "always", "--engine", engine, "--store",
         str(tmp_path / "store"), url],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

    def logged_in():
        return sorted(record["username"] for record in rp.rp.authentications)
    try:
        deadline = time.monotonic() + 60
        while len(logged_in()) < len(users) and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.2)
        assert process.poll() is None, process.stderr.read()
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0, process.stderr.read()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert logged_in() == sorted(users.values()), rp.rp.state()
