// SoftPasskey relay over WebDriver BiDi (`passkey browser` in Firefox; Python's softpasskey.bidi_relay
// has the same installer): statements of the preload script, after relay-page.js's and before the
// bridge, in a function whose argument `channel` is the BiDi channel (script.addPreloadScript
// `arguments: [{type: "channel", value: {channel, ownership: "root"}}]`). Calling it sends a
// `script.message` event to the driving process, which learns the realm's origin from the browser
// (script.getRealms), never from the message.
//
// Before the realm's first request the relay sends its `deliver` function, of which the driver
// keeps a handle (the channel's ownership `root`); the driver answers a request `{id, route, body}`
// by calling that function in the realm (script.callFunction, `this` the handle) with
// `{id, status, value}`. Page scripts hold neither the channel nor `deliver`, and no page policy
// applies to either.
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
