// SoftPasskey relay, the page's side in Chromium (`passkey browser`): a content script of the
// extension in the page's MAIN world, run at document_start just before bridge.js in every frame.
// It sets the relay the bridge takes (`globalThis[Symbol.for("softpasskey.relay")]`, README "Web
// apps"), which sends each bridge request over a private MessagePort to the extension's
// isolated-world content script (relay-content.js), and from there to its service worker, which
// calls the server with the origin Chromium reports for the frame. No page policy (CSP
// `connect-src`, Trusted Types, sandbox flags) applies to that channel.
//
// The handshake: the isolated script posts one message `{softpasskeyRelay: "hello"}` to this
// window with a MessagePort. This script's listener, added before any page script can add one,
// takes the first such message whose `event.source` is this window, stops its propagation (so the
// page never sees the port), and stops listening. A message a page or another frame forges later
// is never read here; and whatever travels over the port, the origin is the browser's word.
(() => {
  "use strict";
  const key = Symbol.for("softpasskey.relay");
  const hasOwn = (object, name) => Object.prototype.hasOwnProperty.call(object, name);
  if (hasOwn(globalThis, key) || hasOwn(globalThis, Symbol.for("softpasskey.bridge"))) {
    return;
  }
  const self = globalThis.window;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const realSetTimeout = globalThis.setTimeout;
  const addListener = EventTarget.prototype.addEventListener;
  const removeListener = EventTarget.prototype.removeEventListener;
  const stopImmediatePropagation = Event.prototype.stopImmediatePropagation;
  const pending = new Map();
  const queued = [];
  let port = null;
  let nextID = 1;

  function refuse(id, message) {
    const resolve = pending.get(id);
    if (resolve) {
      pending.delete(id);
      resolve({ status: 503, value: { error: "NotAllowedError", message: message } });
    }
  }

  function onAnswer(event) {
    let answer;
    try {
      answer = parse(event.data);
    } catch (error) {
      return;
    }
    const resolve = answer && pending.get(answer.id);
    if (resolve) {
      pending.delete(answer.id);
      resolve({ status: answer.status, value: answer.value });
    }
  }

  function onHello(event) {
    const data = event.data;
    if (port !== null || event.source !== self || data === null || typeof data !== "object" ||
        data.softpasskeyRelay !== "hello" || event.ports.length !== 1) {
      return;
    }
    stopImmediatePropagation.call(event);
    removeListener.call(self, "message", onHello, true);
    port = event.ports[0];
    port.onmessage = onAnswer;
    for (const message of queued.splice(0)) {
      port.postMessage(message);
    }
  }
  addListener.call(self, "message", onHello, true);

  function relay(request) {
    return new Promise((resolve) => {
      const id = nextID++;
      pending.set(id, resolve);
      const message = stringify({ id: id, route: String(request.route), body: request.body });
      if (port !== null) {
        port.postMessage(message);
        return;
      }
      queued.push(message);
      // The isolated script says hello in the first task after document_start; without it (an
      // extension that could not run there) the request is refused rather than left pending.
      realSetTimeout(() => {
        if (port === null) {
          refuse(id, "The SoftPasskey relay is not connected in this frame.");
        }
      }, 5000);
    });
  }
  Object.defineProperty(globalThis, key, { value: relay, configurable: true });
})();
