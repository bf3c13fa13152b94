"""`passkey serve` as a process: a Unix socket, a token from a file, and a clean exit on SIGINT and SIGTERM."""

import http.client
import json
import select
import signal
import socket
import subprocess

import pytest

from conftest import passkey_binary


class UnixConnection(http.client.HTTPConnection):
    """HTTP over a Unix domain socket."""

    def __init__(self, path):
        super().__init__("localhost")
        self.socket_path = path

    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(self.socket_path)


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_a_socket_server_with_a_token_file_answers_and_exits_cleanly(tmp_path, stop):
    token_file = tmp_path / "token"
    token_file.write_text("a-token-the-operator-chose\n")
    socket_path = str(tmp_path / "passkey.sock")
    server = subprocess.Popen(
        [passkey_binary(), "serve", "--socket", socket_path, "--token-file", str(token_file), "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        start = json.loads(server.stdout.readline())
        assert start == {"socket": socket_path, "token": "a-token-the-operator-chose", "url": "http://localhost"}

        connection = UnixConnection(socket_path)
        connection.request("POST", "/session", headers={"Authorization": "Bearer a-token-the-operator-chose"})
        answer = connection.getresponse()
        assert answer.status == 200
        assert json.loads(answer.read())["value"]["capabilities"]["webauthn:virtualAuthenticators"] is True

        connection = UnixConnection(socket_path)
        connection.request("POST", "/session", headers={"Authorization": "Bearer another"})
        assert connection.getresponse().status == 401
    finally:
        server.send_signal(stop)
        assert server.wait(timeout=10) == 0


def test_an_unreadable_token_file_is_one_line_and_exit_1(tmp_path):
    result = subprocess.run(
        [passkey_binary(), "serve", "--token-file", str(tmp_path / "missing")], capture_output=True, text=True,
        timeout=30,
    )
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.strip().startswith("serve: cannot read a token from")


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_a_waiting_conditional_get_and_an_open_event_stream_do_not_hold_the_server_open(stop):
    server = subprocess.Popen([passkey_binary(), "serve", "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
    try:
        start = json.loads(server.stdout.readline())
        host, port = start["url"].removeprefix("http://").split(":")
        token = {"Authorization": f"Bearer {start['token']}"}

        def call(method, path, body=None, headers=token):
            connection = http.client.HTTPConnection(host, int(port), timeout=10)
            connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
            return connection

        session = json.loads(call("POST", "/session").getresponse().read())["value"]["sessionId"]
        authenticators = f"/session/{session}/webauthn/authenticator"
        authenticator = json.loads(call("POST", authenticators, {"softpasskey:profile": "platform"})
                                   .getresponse().read())["value"]
        script = call("GET", f"{authenticators}/{authenticator}/bridge.js").getresponse().read().decode()
        capability = script.split('"capability":"')[1].split('"')[0]
        events = call("GET", f"/session/{session}/webauthn/events")
        assert events.getresponse().status == 200
        page = {"Authorization": f"Bearer {capability}", "Origin": "http://localhost:5000"}
        conditional = {"options": {"rpId": "localhost", "challenge": "Y2hhbGxlbmdlY2hhbGxlbmdl"}, "requestId": "c1",
                       "mediation": "conditional"}
        # Nothing shows a request waiting without taking it (a pick would), but a second request with its ID is
        # refused at once while it waits: of two alike, the one answered first was refused, so the other is queued.
        twins = [call("POST", "/bridge/get", conditional, headers=page) for _ in range(2)]
        answered, _, _ = select.select([twin.sock for twin in twins], [], [], 10)
        assert len(answered) == 1, "exactly one of two requests with one ID is refused at once"
        refused = next(twin for twin in twins if twin.sock is answered[0])
        waiting = next(twin for twin in twins if twin is not refused)
        duplicate = refused.getresponse()
        assert (duplicate.status, json.loads(duplicate.read())["value"]["error"]) == (400, "invalid argument")
        server.send_signal(stop)
        assert server.wait(timeout=10) == 0
        answer = waiting.getresponse()
        assert (answer.status, json.loads(answer.read())["value"]["error"]) == (400, "AbortError")
    finally:
        if server.poll() is None:
            server.kill()
