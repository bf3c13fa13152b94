// On the strict page (strict.html) with `?forge=1`: a page that tries to take over or imitate the
// relay of `passkey browser` (test_relay.py), as the page's first script. Once the page's own
// sign-up and login (`?auto=signup-login`) are over, it posts their outcome again to /api/auto with
// what it saw as `forge`:
//   sawPort        a message with a MessagePort reached this page (the isolated script's hello)
//   relayVisible   the relay's symbol is on the global object (the bridge must have taken it)
//   portMessages   messages that arrived on the ports this page offered in forged hellos
//   forged         how many hellos it forged
"use strict";
(function () {
  if (new URLSearchParams(location.search).get("forge") !== "1") return;
  const relayKey = Symbol.for("softpasskey.relay");
  const report = {sawPort: false, relayVisible: false, portMessages: 0, forged: 0};
  window.addEventListener("message", (event) => {
    if (event.ports && event.ports.length > 0 && event.source === window && !(event.data && event.data.forged)) {
      report.sawPort = true;
    }
  }, true);
  report.relayVisible = Object.prototype.hasOwnProperty.call(globalThis, relayKey);

  // Forged hellos: each with a port of this page's own channel, as the isolated script sends its own.
  function forge(data, count) {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => { report.portMessages += 1; };
    const ports = count === 2 ? [channel.port2, new MessageChannel().port1] : [channel.port2];
    window.postMessage(data, "*", count === 0 ? [] : ports);
    report.forged += 1;
  }
  forge({softpasskeyRelay: "hello", forged: true}, 1);
  forge({softpasskeyRelay: "hello", forged: true}, 2);
  forge({softpasskeyRelay: "hello", forged: true}, 0);
  // Garbage of every shape to the window.
  for (const junk of ["hello", 42, null, {id: 1, route: "create", body: {}}, "{\"id\":1}"]) {
    window.postMessage(junk, "*");
  }
  setTimeout(() => forge({softpasskeyRelay: "hello", forged: true}, 1), 0);

  async function finish() {
    for (let waited = 0; !(window.rp && window.rp.autoDone) && waited < 20000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const outcome = window.rp && window.rp.autoDone ? await window.rp.autoDone : {ok: false};
    report.relayVisible = report.relayVisible || Object.prototype.hasOwnProperty.call(globalThis, relayKey);
    await fetch("/api/auto", {method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify(Object.assign({}, outcome, {forge: report}))});
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", finish);
  else finish();
})();
