// SoftPasskey relay, the page's side in Chromium (`passkey browser`): a content script of the
// extension in the page's MAIN world, run at document_start just before bridge.js in every frame,
// after relay-page.js's statements (`passkey` writes both in one function). Its relay sends each
// bridge request over a private MessagePort to the extension's isolated-world content script
// (relay-content.js), and from there to its service worker, which calls the server with the origin
// Chromium reports for the frame. No page policy (CSP `connect-src`, Trusted Types, sandbox
// flags) applies to that channel.
//
// The handshake: the isolated script posts one message `{softpasskeyRelay: "hello"}` to this
// window with a MessagePort. This script's listener, added before any page script can add one,
// takes the first such message whose `event.source` is this window, stops its propagation (so the
// page never sees the port), and stops listening. A message a page or another frame forges later
// is never read here; and whatever travels over the port, the origin is the browser's word.
if (relayInstallable()) {
  const self = globalThis.window;
  const realSetTimeout = globalThis.setTimeout;
  const addListener = EventTarget.prototype.addEventListener;
  const removeListener = EventTarget.prototype.removeEventListener;
  const stopImmediatePropagation = Event.prototype.stopImmediatePropagation;
  const queued = [];
  let port = null;

  const relay = installRelay((text, id) => {
    if (port !== null) {
      port.postMessage(text);
      return;
    }
    queued.push(text);
    // The isolated script says hello in the first task after document_start; without it (an
    // extension that could not run there) the request is refused rather than left pending.
    realSetTimeout(() => {
      if (port === null) {
        relay.refuse(id, "The SoftPasskey relay is not connected in this frame.");
      }
    }, 5000);
  });

  function onHello(event) {
    const data = event.data;
    if (port !== null || event.source !== self || data === null || typeof data !== "object" ||
        data.softpasskeyRelay !== "hello" || event.ports.length !== 1) {
      return;
    }
    stopImmediatePropagation.call(event);
    removeListener.call(self, "message", onHello, true);
    port = event.ports[0];
    port.onmessage = (answer) => relay.deliver(answer.data);
    for (const text of queued.splice(0)) {
      port.postMessage(text);
    }
  }
  addListener.call(self, "message", onHello, true);
}
