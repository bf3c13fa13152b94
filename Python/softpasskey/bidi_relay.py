"""The relay over WebDriver BiDi (`softpasskey.bidi.install(..., relay=True)`): the page bridge's
requests go from the preload script over a BiDi channel (`script.message`) to this process, which
calls `passkey serve`'s `POST /bridge/relay` (control.Relay) with the origin the browser gives for the
realm, and answers in the realm (`script.callFunction`). No page policy (CSP `connect-src`, Trusted
Types, sandbox flags) governs that channel, and the page holds neither end of it.
"""

import json
import os
import threading

from softpasskey.bidi import BiDiError
from softpasskey.control import ControlError

# Run before the bridge in every realm, in a function of the channel: the statements of
# Sources/PasskeyBrowser/Relay/relay-page.js and relay-bidi.js, as `passkey browser` installs them in
# Firefox. The relay the bridge takes (Symbol.for("softpasskey.relay")) sends each request
# {id, route, body} as JSON text over the channel, after the realm's `deliver` function, which the
# driver calls with {id, status, value}.
RELAY_INSTALLER = """(() => {
"use strict";

/** Whether this realm still needs the relay: not when it (or the bridge) is already installed. */
function relayInstallable() {
  const hasOwn = (object, name) => Object.prototype.hasOwnProperty.call(object, name);
  return !hasOwn(globalThis, Symbol.for("softpasskey.relay")) && !hasOwn(globalThis, Symbol.for("softpasskey.bridge"));
}

function installRelay(send) {
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const pending = new Map();
  let nextID = 1;

  function settle(id, answer) {
    const resolve = pending.get(id);
    if (resolve) {
      pending.delete(id);
      resolve(answer);
    }
  }

  function deliver(text) {
    let answer;
    try {
      answer = parse(text);
    } catch (error) {
      return;
    }
    if (answer !== null && typeof answer === "object") {
      settle(answer.id, { status: answer.status, value: answer.value });
    }
  }

  function refuse(id, message) {
    settle(id, { status: 503, value: { error: "NotAllowedError", message: message } });
  }

  function relay(request) {
    return new Promise((resolve) => {
      const id = nextID++;
      pending.set(id, resolve);
      send(stringify({ id: id, route: String(request.route), body: request.body }), id);
    });
  }
  Object.defineProperty(globalThis, Symbol.for("softpasskey.relay"), { value: relay, configurable: true });
  return { deliver: deliver, refuse: refuse };
}
if (typeof channel === "function" && relayInstallable()) {
  let greeted = false;
  const relay = installRelay((text) => {
    if (!greeted) {
      greeted = true;
      channel(relay.deliver);
    }
    channel(text);
  });
}
})();"""

RELAY_ROUTES = ("create", "get", "abort", "signal")


class BiDiRelay:
    """The driver's side of the relay over a BiDi session: the `script.message` events of its own
    channel (a new one per relay), from realms of the contexts or user contexts it was installed in
    (or any, when installed everywhere). A realm first sends its `deliver` function (kept by handle, the channel's
    ownership being `root`), then requests; each request is answered in a thread of its own: the
    realm's origin from `script.getRealms`, its top-level context's for a frame, the server's
    answer from `relay.call` (POST /bridge/relay), delivered by `script.callFunction` in the realm.
    A message of another realm, one without `deliver`, or that is not a request is dropped; a
    request naming no bridge route is refused; no origin is ever read from a message."""

    def __init__(self, session, relay, contexts=None, user_contexts=None):
        self.session, self.relay = session, relay
        self.contexts = set(contexts) if contexts else None
        self.user_contexts = set(user_contexts) if user_contexts else None
        self.channel = "softpasskey-relay-" + os.urandom(8).hex()
        self.channel_value = {"type": "channel", "value": {"channel": self.channel, "ownership": "root"}}
        self.deliveries = {}  # realm -> handle of its deliver function
        self.origins = {}  # realm -> (origin, top-level origin or None)
        self.lock = threading.Lock()
        session.on("script.message", self._message)

    def _message(self, params):
        if params.get("channel") != self.channel:
            return
        source, data = params.get("source") or {}, params.get("data") or {}
        realm = source.get("realm")
        if data.get("type") == "function" and data.get("handle"):
            with self.lock:
                self.deliveries.setdefault(realm, data["handle"])
            return
        with self.lock:
            handle = self.deliveries.get(realm)
        if handle is None or data.get("type") != "string":
            return
        try:
            request = json.loads(data.get("value"))
        except (TypeError, ValueError):
            return
        if not isinstance(request, dict) or not isinstance(request.get("id"), int):
            return
        threading.Thread(target=self._answer, args=(request, realm, source.get("context"), handle),
                         daemon=True).start()

    def _answer(self, request, realm, context, handle):
        try:
            status, value = self._outcome(request, realm, context)
        except BiDiError:
            return  # the realm or its context went away
        reply = json.dumps({"id": request["id"], "status": status, "value": value})
        try:
            self.session.send("script.callFunction", {
                "functionDeclaration": "function (text) { this(text); }", "this": {"handle": handle},
                "arguments": [{"type": "string", "value": reply}], "target": {"realm": realm},
                "awaitPromise": False, "resultOwnership": "none"})
        except BiDiError:
            pass  # navigated away before its answer

    def _outcome(self, request, realm, context):
        if request.get("route") not in RELAY_ROUTES or not isinstance(request.get("body"), dict):
            return 400, {"error": "invalid argument", "message": "a relay request is {id, route, body}"}
        with self.lock:
            known = self.origins.get(realm)
        if known is None:
            known, refusal = self._origins(realm, context)
            if refusal is not None:
                return refusal
            with self.lock:
                self.origins[realm] = known
        origin, top_origin = known
        try:
            return self.relay.call(request["route"], origin, request["body"], top_origin=top_origin)
        except ControlError as error:
            return error.status, {"error": error.error, "message": error.message}

    def _origins(self, realm, context):
        """`((origin, top-level origin or None), None)`: the realm's origin and, in a frame, its
        top-level origin, as the browser says (a realm's origin never changes, nor the top-level
        document of its frame: kept per realm); or `(None, refusal)`."""
        top, user_context = self._top(context) if context else (None, None)
        if top is None or not self._installed(top, user_context):
            return None, (403, {"error": "SecurityError", "message": "the relay was not installed in this frame"})
        origin = self._origin(context, realm)
        if origin is None:
            return None, (403, {"error": "SecurityError", "message": "a bridge request comes from a page with an origin"})
        top_origin = None
        if top != context:
            top_origin = self._origin(top)
            if top_origin is None:
                return None, (403, {"error": "NotAllowedError", "message": "this frame's top-level origin is unknown"})
        return (origin, top_origin), None

    def _installed(self, top, user_context):
        """Whether the preload script runs in the top-level context `top` (of `user_context`)."""
        if self.contexts is None and self.user_contexts is None:
            return True
        return (self.contexts is not None and top in self.contexts) or \
            (self.user_contexts is not None and user_context in self.user_contexts)

    def _top(self, context):
        """The top-level browsing context of `context`, and its user context."""
        while True:
            [info] = self.session.send("browsingContext.getTree", {"root": context, "maxDepth": 0})["contexts"]
            if not info.get("parent"):
                return context, info.get("userContext")
            context = info["parent"]

    def _origin(self, context, realm=None):
        """The origin of the window realm `realm` of `context` (its first one when None), when it is
        an http(s) origin (an opaque origin is "null": none)."""
        realms = self.session.send("script.getRealms", {"context": context, "type": "window"})["realms"]
        for info in realms:
            if info.get("sandbox") is None and (realm is None or info["realm"] == realm):
                origin = info.get("origin", "")
                return origin if origin.startswith(("http://", "https://")) else None
        return None
