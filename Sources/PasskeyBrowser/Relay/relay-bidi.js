// SoftPasskey relay over WebDriver BiDi (`passkey browser` in Firefox; Python's softpasskey.bidi
// has the same installer): statements of the preload script, before the bridge, in a function
// whose argument `channel` is the BiDi channel (script.addPreloadScript `arguments: [{type:
// "channel", value: {channel, ownership: "root"}}]`). Calling it sends a `script.message` event to
// the driving process, which learns the realm's origin from the browser (script.getRealms), never
// from the message.
//
// It sets the relay the bridge takes (`globalThis[Symbol.for("softpasskey.relay")]`). Before the
// realm's first request it sends its `deliver` function, of which the driver keeps a handle (the
// channel's ownership `root`); the driver answers a request `{id, route, body}` by calling that
// function in the realm (script.callFunction, `this` the handle) with `{id, status, value}`.
// Page scripts hold neither the channel nor `deliver`, and no page policy applies to either.
(() => {
  "use strict";
  const key = Symbol.for("softpasskey.relay");
  const hasOwn = (object, name) => Object.prototype.hasOwnProperty.call(object, name);
  if (typeof channel !== "function" || hasOwn(globalThis, key) ||
      hasOwn(globalThis, Symbol.for("softpasskey.bridge"))) {
    return;
  }
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const pending = new Map();
  let greeted = false;
  let nextID = 1;

  function deliver(text) {
    let answer;
    try {
      answer = parse(text);
    } catch (error) {
      return;
    }
    const resolve = answer && pending.get(answer.id);
    if (resolve) {
      pending.delete(answer.id);
      resolve({ status: answer.status, value: answer.value });
    }
  }

  function relay(request) {
    return new Promise((resolve) => {
      if (!greeted) {
        greeted = true;
        channel(deliver);
      }
      const id = nextID++;
      pending.set(id, resolve);
      channel(stringify({ id: id, route: String(request.route), body: request.body }));
    });
  }
  Object.defineProperty(globalThis, key, { value: relay, configurable: true });
})();
