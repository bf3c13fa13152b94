// SoftPasskey relay, what the page's realm holds in every engine (README "Web apps"): statements that
// `passkey` puts first in relay-main.js (Chromium) and relay-bidi.js (Firefox), all inside one
// function, so the page's scripts see none of them.
//
// `installRelay(send)` sets the relay the bridge takes (`globalThis[Symbol.for("softpasskey.relay")]`,
// deleted by the bridge so the page never sees it): each request `{route, body}` becomes the JSON
// text `{id, route, body}` handed to `send(text, id)`, and its promise settles when `deliver` gets
// the answer `{id, status, value}` as JSON text (or `refuse` gives up on it). Nothing here states
// an origin: the driver or the extension takes it from the browser.
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
