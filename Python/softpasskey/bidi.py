"""A minimal WebDriver BiDi client (over `websockets`) for Firefox ESR, and the page bridge in it.

Firefox's remote agent speaks WebDriver BiDi itself: `firefox-esr --headless
--remote-debugging-port=P --profile DIR` answers at `ws://127.0.0.1:P/session`, no geckodriver.

Why the bridge works there: `script.addPreloadScript` (WebDriver BiDi §7.6.3.1) runs a function in
every new realm of a window — the top document and each iframe — before any of the page's
scripts. The bridge replaces `navigator.credentials.create/get` and `PublicKeyCredential`'s static
methods before the page reads them; Firefox has no `location.ancestorOrigins`, so in a
cross-origin iframe the bridge learns its top origin from a postMessage handshake with the bridge
of the top frame (the reply's browser-set `event.origin`). Requests to `passkey serve` are
`fetch` with CORS, and Firefox sets the `Origin` header the server checks.

    with Firefox() as firefox:                         # a headless firefox-esr, its own profile
        session = firefox.session                      # a BiDi session (session.new)
        user_context = session.create_user_context()   # a container: its own cookies and storage
        context = session.create_context(user_context=user_context)
        install(session, authenticator, user_contexts=[user_context])
        session.navigate(context, "http://localhost:5000/")
        session.evaluate(context, "document.title")

A preload script of a user context runs in every window of it: the tab, the popups its pages open
(`window.open`, any origin), new tabs (`target=_blank`), and every frame of each, `about:blank`
frames (at once) and frames added later included. One of `contexts` runs in those tabs and their
frames only, not in a popup or tab they open (a new top-level context).
"""

import itertools
import json
import os
import queue
import shutil
import socket
import subprocess
import tempfile
import threading
import time

from websockets.sync.client import connect

FIREFOX = "firefox-esr"

# A quiet start: no first-run pages, updates, telemetry or background connections.
QUIET_PREFERENCES = {
    "app.normandy.enabled": False,
    "app.update.auto": False,
    "app.update.disabledForTesting": True,
    "browser.aboutwelcome.enabled": False,
    "browser.newtabpage.enabled": False,
    "browser.safebrowsing.malware.enabled": False,
    "browser.safebrowsing.phishing.enabled": False,
    "browser.safebrowsing.downloads.enabled": False,
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.homepage": "about:blank",
    "browser.startup.homepage_override.mstone": "ignore",
    "browser.startup.page": 0,
    "browser.tabs.warnOnClose": False,
    "datareporting.healthreport.uploadEnabled": False,
    "datareporting.policy.dataSubmissionEnabled": False,
    "extensions.update.enabled": False,
    "network.captive-portal-service.enabled": False,
    "network.connectivity-service.enabled": False,
    "remote.prefs.recommended": True,
    "toolkit.telemetry.reportingpolicy.firstRun": False,
    "toolkit.startup.max_resumed_crashes": -1,
}


class BiDiError(Exception):
    """A BiDi error answer (`{"type": "error", "error", "message"}`) or a script exception."""

    def __init__(self, error, message):
        super().__init__(f"{error}: {message}")
        self.error, self.message = error, message


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def deserialize(remote):
    """A BiDi RemoteValue (§7.6.3.x serialization) as Python: primitives, arrays, objects, maps."""
    kind = remote.get("type")
    value = remote.get("value")
    if kind in ("undefined", "null"):
        return None
    if kind == "number":
        return {"NaN": float("nan"), "-0": -0.0, "Infinity": float("inf"), "-Infinity": float("-inf")}.get(
            value, value) if isinstance(value, str) else value
    if kind in ("string", "boolean"):
        return value
    if kind == "bigint":
        return int(value)
    if kind in ("array", "set") and value is not None:
        return [deserialize(item) for item in value]
    if kind in ("object", "map") and value is not None:
        return {(key if isinstance(key, str) else deserialize(key)): deserialize(item) for key, item in value}
    return remote  # a handle or a node: the raw RemoteValue


class BiDiSession:
    """One WebSocket to a BiDi remote end: commands by id, events into a queue."""

    def __init__(self, url):
        self.socket = connect(url, max_size=None, open_timeout=30, legacy=True)  # a connection, not a retry loop
        self.ids = itertools.count(1)
        self.answers, self.waiting = {}, threading.Condition()
        self.event_queue = queue.Queue()
        self.handlers = {}  # event method -> handler(params), called in the reader thread
        self.relays = {}  # preload script id -> its BiDiRelay
        self.closed = None
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        self.capabilities = self.send("session.new", {"capabilities": {"alwaysMatch": {"acceptInsecureCerts": True}}})

    def _read(self):
        try:
            for message in self.socket:
                answer = json.loads(message)
                if "id" in answer and answer.get("type") != "event":
                    with self.waiting:
                        self.answers[answer["id"]] = answer
                        self.waiting.notify_all()
                elif answer.get("method") in self.handlers:
                    self.handlers[answer["method"]](answer.get("params") or {})
                else:
                    self.event_queue.put(answer)
        except Exception as error:  # the connection ended: wake every waiter
            self.closed = error
        finally:
            self.closed = self.closed or EOFError("the BiDi connection closed")
            with self.waiting:
                self.waiting.notify_all()

    def send(self, method, params=None, timeout=60):
        """One command; its `result`, or BiDiError."""
        command_id = next(self.ids)
        self.socket.send(json.dumps({"id": command_id, "method": method, "params": params or {}}))
        deadline = time.monotonic() + timeout
        with self.waiting:
            while command_id not in self.answers:
                left = deadline - time.monotonic()
                if self.closed is not None or left <= 0:
                    raise BiDiError("no answer", f"{method}: {self.closed or 'timed out'}")
                self.waiting.wait(left)
            answer = self.answers.pop(command_id)
        if answer.get("type") == "error":
            raise BiDiError(answer.get("error"), answer.get("message"))
        return answer["result"]

    # browsingContext (§7.3)
    def get_tree(self, root=None):
        return self.send("browsingContext.getTree", {"root": root} if root else {})["contexts"]

    def create_context(self, kind="tab", user_context=None):
        params = {"type": kind}
        if user_context:
            params["userContext"] = user_context
        return self.send("browsingContext.create", params)["context"]

    # browser (§7.2): user contexts
    def create_user_context(self):
        """`browser.createUserContext`: a new user context (its own cookies and storage)."""
        return self.send("browser.createUserContext")["userContext"]

    def remove_user_context(self, user_context):
        """`browser.removeUserContext`: closes every context of it, then forgets it."""
        self.send("browser.removeUserContext", {"userContext": user_context})

    def contexts_of(self, user_context):
        """The top-level contexts of a user context (its tabs and popups)."""
        return [node["context"] for node in self.get_tree() if node.get("userContext") == user_context]

    def close_context(self, context):
        self.send("browsingContext.close", {"context": context})

    def navigate(self, context, url, wait="complete"):
        return self.send("browsingContext.navigate", {"context": context, "url": url, "wait": wait})

    def frames(self, context):
        """The context and every descendant (iframes), depth first."""
        def walk(nodes):
            for node in nodes:
                yield node["context"]
                yield from walk(node.get("children") or [])
        return list(walk(self.get_tree(context)))

    # script (§7.6)
    def _result(self, answer):
        if answer.get("type") == "exception":
            details = answer["exceptionDetails"]
            raise BiDiError("javascript error", details.get("text") or json.dumps(details)[:500])
        return deserialize(answer["result"])

    def evaluate(self, context, expression, await_promise=True, user_activation=False):
        """`script.evaluate` in the context's window realm, as Python; with `user_activation` the
        window has transient activation first, as after a click (WebDriver BiDi `userActivation`)."""
        return self._result(self.send("script.evaluate", {
            "expression": expression, "target": {"context": context}, "awaitPromise": await_promise,
            "resultOwnership": "none", "userActivation": user_activation}))

    def call_function(self, context, declaration, *arguments, await_promise=True):
        """`script.callFunction` with JSON-able arguments (sent as BiDi local values)."""
        return self._result(self.send("script.callFunction", {
            "functionDeclaration": declaration, "target": {"context": context}, "awaitPromise": await_promise,
            "arguments": [local_value(argument) for argument in arguments], "resultOwnership": "none"}))

    def add_preload_script(self, declaration, contexts=None, user_contexts=None, arguments=None):
        """`script.addPreloadScript`: the function runs in every new window realm (of `contexts`'
        top-level traversables and their iframes, of every traversable of `user_contexts`, or of
        all) before the page's scripts, with `arguments` (channels: `{"type": "channel", "value":
        {"channel": ID}}`)."""
        params = {"functionDeclaration": declaration}
        if contexts:
            params["contexts"] = list(contexts)
        if user_contexts:
            params["userContexts"] = list(user_contexts)
        if arguments:
            params["arguments"] = list(arguments)
        return self.send("script.addPreloadScript", params)["script"]

    def on(self, method, handler):
        """Subscribes to the event `method` (`session.subscribe`), each handed to `handler(params)`
        in the reader thread, in order (so it must not wait for a command's answer itself)."""
        if method not in self.handlers:
            self.handlers[method] = handler
            self.send("session.subscribe", {"events": [method]})
        else:
            previous = self.handlers[method]
            self.handlers[method] = lambda params: (previous(params), handler(params))

    def remove_preload_script(self, script):
        self.send("script.removePreloadScript", {"script": script})

    def close(self):
        try:
            self.send("session.end", timeout=5)
        except BiDiError:
            pass
        self.socket.close()


def local_value(value):
    """A JSON value as a BiDi LocalValue (§7.6.3.x)."""
    if value is None:
        return {"type": "null"}
    if isinstance(value, bool):
        return {"type": "boolean", "value": value}
    if isinstance(value, (int, float)):
        return {"type": "number", "value": value}
    if isinstance(value, str):
        return {"type": "string", "value": value}
    if isinstance(value, (list, tuple)):
        return {"type": "array", "value": [local_value(item) for item in value]}
    if isinstance(value, dict):
        return {"type": "object", "value": [[key, local_value(item)] for key, item in value.items()]}
    raise TypeError(f"no BiDi local value for {type(value).__name__}")


class Firefox:
    """A headless `firefox-esr` with a fresh profile (quiet prefs in user.js) and its BiDi session."""

    def __init__(self, binary=FIREFOX, headless=True, port=None, preferences=None, timeout=60):
        self.profile = tempfile.mkdtemp(prefix="softpasskey-firefox-")
        prefs = dict(QUIET_PREFERENCES, **(preferences or {}))
        with open(os.path.join(self.profile, "user.js"), "w") as user_js:
            for name, value in prefs.items():
                user_js.write(f"user_pref({json.dumps(name)}, {json.dumps(value)});\n")
        self.port = port or free_port()
        command = [shutil.which(binary) or binary, "--remote-debugging-port", str(self.port),
                   "--profile", self.profile, "--no-remote"]
        if headless:
            command.insert(1, "--headless")
        environment = dict(os.environ, MOZ_CRASHREPORTER_DISABLE="1")
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                        env=environment)
        self.url = self._listening(timeout)
        self.session = BiDiSession(self.url)

    def _listening(self, timeout):
        """Reads Firefox's stderr until `WebDriver BiDi listening on ws://…`, then drains it."""
        found = queue.Queue()

        def read():
            for line in self.process.stderr:
                if "WebDriver BiDi listening on" in line:
                    found.put(line.split("listening on", 1)[1].strip())
            found.put(None)
        threading.Thread(target=read, daemon=True).start()
        try:
            url = found.get(timeout=timeout)
        except queue.Empty:
            url = None
        if url is None:
            self.stop()
            raise RuntimeError("firefox-esr did not start its WebDriver BiDi agent")
        return url.rstrip("/") + "/session"

    def stop(self):
        if getattr(self, "session", None) is not None:
            try:
                self.session.close()
            except Exception:
                pass
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.stop()


def install(session, authenticator, contexts=None, origins=None, user_contexts=None, relax=(), relay=False):
    """Add `authenticator`'s bridge as a preload script of `user_contexts` (every tab and popup of
    them), of `contexts` (those tabs only), or of every window: it runs in every frame before the
    page's scripts, from the next navigation on. `origins` and `relax` as for
    `Authenticator.bridge_script`. With `relay`, its requests go through this BiDi session
    (softpasskey.bidi_relay) rather than the page's own channel, for pages whose policy forbids it.
    Answers the preload script's id (for `session.remove_preload_script`)."""
    script = authenticator.bridge_script(origins, relax=relax)
    if not relay:
        return session.add_preload_script("() => {\n" + script + "\n}", contexts, user_contexts)
    from softpasskey.bidi_relay import RELAY_INSTALLER, BiDiRelay
    answerer = BiDiRelay(session, authenticator.relay(origins), contexts, user_contexts)
    preload = session.add_preload_script("(channel) => {\n" + RELAY_INSTALLER + "\n" + script + "\n}", contexts,
                                         user_contexts, arguments=[answerer.channel_value])
    session.relays[preload] = answerer
    return preload
