// SoftPasskey relay, the isolated world in Chromium (`passkey browser`): a content script of the
// extension in every frame, at document_start. It hands relay-main.js (the page's MAIN world) one
// end of a new MessageChannel in a single `{softpasskeyRelay: "hello"}` message to its own window,
// and forwards what arrives on that port to the extension's service worker over a
// `chrome.runtime` port, whose sender Chromium fills in (the frame's origin and its tab); the
// worker's answers go back the same way. The page's scripts never hold either port.
(() => {
  "use strict";
  const channel = new MessageChannel();
  const page = channel.port1;
  const pending = new Set();
  let worker = null;
  let keepAlive = null;

  // Chromium stops an extension's worker after 30 s without an event; a request may wait longer (a
  // conditional get waits for a pick), so while one is pending the worker hears from here every 20 s.
  function watch() {
    if (pending.size > 0 && keepAlive === null) {
      keepAlive = setInterval(() => worker !== null && worker.postMessage("keep-alive"), 20000);
    } else if (pending.size === 0 && keepAlive !== null) {
      clearInterval(keepAlive);
      keepAlive = null;
    }
  }

  function connect() {
    worker = chrome.runtime.connect({ name: "softpasskey-relay" });
    worker.onMessage.addListener((text) => {
      try {
        pending.delete(JSON.parse(text).id);
      } catch (error) {
        return;
      }
      watch();
      page.postMessage(text);
    });
    worker.onDisconnect.addListener(() => {
      worker = null;
      // The worker went away (stopped, reloaded): what it had not answered is refused.
      for (const id of pending) {
        page.postMessage(JSON.stringify({
          id: id, status: 503,
          value: { error: "NotAllowedError", message: "The SoftPasskey relay's service worker stopped." },
        }));
      }
      pending.clear();
      watch();
    });
  }

  page.onmessage = (event) => {
    const text = event.data;
    if (typeof text !== "string" || text.length > (1 << 22)) {
      return;
    }
    let id;
    try {
      id = JSON.parse(text).id;
    } catch (error) {
      return;
    }
    if (typeof id !== "number") {
      return;
    }
    if (worker === null) {
      connect();
    }
    pending.add(id);
    watch();
    worker.postMessage(text);
  };
  window.postMessage({ softpasskeyRelay: "hello" }, "*", [channel.port2]);
})();
