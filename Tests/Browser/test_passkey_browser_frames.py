"""`passkey browser --headless` gives the bridge to frames a page adds after load and to the popups it
opens: Chromium's content script runs in all frames (`all_frames`, `match_about_blank`) of every tab,
Firefox's preload script in every window of the session. The page is the suite's embedder page on the
RP's origin; what it opens runs the RP page's auto mode (sign up, then log in), which the RP records.

Chromium's popup blocker lets no popup through without a click, so the popup is Firefox's only.
"""

import signal
import subprocess
import time
import urllib.parse

import pytest

from conftest import passkey_binary


def run_browser(engine, url, rp, tmp_path, seconds=60):
    """`passkey browser --headless` at `url` until the RP records the auto mode's outcome; then SIGTERM."""
    process = subprocess.Popen(
        [passkey_binary(), "browser", "--headless", "--engine", engine, "--store", str(tmp_path / "store"), url],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + seconds
        while rp.rp.auto is None and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.2)
        assert process.poll() is None, process.stderr.read()
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0, process.stderr.read()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    return rp.rp.auto


def embedder(rp, **query):
    return rp.origin + "/static/embedder.html?" + urllib.parse.urlencode(query)


@pytest.mark.parametrize("engine", ["chromium", "firefox"])
def test_a_frame_added_after_load_signs_up(engine, rp, tmp_path):
    url = embedder(rp, frame=f"{rp.origin}/?auto=signup-login&username=late-{engine}")
    auto = run_browser(engine, url, rp, tmp_path)
    assert auto and auto["ok"] and auto["username"] == f"late-{engine}", auto


def test_a_popup_opened_at_load_signs_up_in_firefox(rp, tmp_path):
    url = embedder(rp, popup=f"{rp.origin}/?auto=signup-login&username=popup")
    auto = run_browser("firefox", url, rp, tmp_path)
    assert auto and auto["ok"] and auto["username"] == "popup", auto
