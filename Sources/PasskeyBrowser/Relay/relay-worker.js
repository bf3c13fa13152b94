// SoftPasskey relay, the extension's service worker in Chromium (`passkey browser`). `passkey`
// writes this file with `const relayConfig = {capability, endpoint, socket};` before it: a relay
// capability of the control server (README "Web apps", trusted to state the origin).
//
// Each request a frame's isolated content script sends over its `chrome.runtime` port is sent to
// the server as `{id, route, body, origin, topOrigin?}` over one WebSocket (`GET /bridge/socket`,
// opened with `{capability}`), or as `POST /bridge/relay` when the socket cannot be opened. The
// origin is the port's `sender.origin`, which Chromium sets for the frame's document (an opaque
// origin is "null", and is refused); for a frame below the top-level one, `topOrigin` is the
// origin of its tab's URL. Nothing the page sends is read as an origin.
"use strict";

const routes = ["create", "get", "abort", "signal"];
const waiting = new Map();
let opening = null;
let nextID = 1;

function refusal(status, error, message) {
  return { status: status, value: { error: error, message: message } };
}

/** The relay socket, opened (and its handshake answered) once, again after it closes. */
function socket() {
  if (opening !== null) {
    return opening;
  }
  opening = new Promise((resolve, reject) => {
    const ws = new WebSocket(relayConfig.socket);
    let ready = false;
    ws.onopen = () => ws.send(JSON.stringify({ capability: relayConfig.capability }));
    ws.onmessage = (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch (error) {
        return;
      }
      if (!ready) {
        if (message && message.ready === true) {
          ready = true;
          resolve(ws);
        } else {
          ws.close();
        }
        return;
      }
      const answer = waiting.get(message.id);
      if (answer) {
        waiting.delete(message.id);
        answer({ status: message.status, value: message.value });
      }
    };
    ws.onclose = () => {
      opening = null;
      if (!ready) {
        reject(new Error("the relay socket did not open"));
      }
      for (const answer of waiting.values()) {
        answer(refusal(503, "NotAllowedError", "The SoftPasskey relay's connection closed."));
      }
      waiting.clear();
    };
  });
  return opening;
}

async function post(message) {
  const response = await fetch(relayConfig.endpoint + "/relay", {
    method: "POST",
    headers: { "authorization": "Bearer " + relayConfig.capability, "content-type": "application/json" },
    body: JSON.stringify({ route: message.route, origin: message.origin, topOrigin: message.topOrigin,
      body: message.body }),
  });
  const answer = await response.json();
  return { status: response.status, value: answer.value };
}

async function send(message) {
  let ws;
  try {
    ws = await socket();
  } catch (error) {
    return post(message);
  }
  return new Promise((resolve) => {
    const id = nextID++;
    waiting.set(id, resolve);
    ws.send(JSON.stringify(Object.assign({ id: id }, message)));
  });
}

function originOf(url) {
  try {
    const origin = new URL(url).origin;
    return origin === "null" ? null : origin;
  } catch (error) {
    return null;
  }
}

async function answer(sender, text) {
  let request;
  try {
    request = JSON.parse(text);
  } catch (error) {
    return null;
  }
  if (request === null || typeof request !== "object" || typeof request.id !== "number") {
    return null;
  }
  const reply = (outcome) => ({ id: request.id, status: outcome.status, value: outcome.value });
  if (!routes.includes(request.route) || request.body === null || typeof request.body !== "object") {
    return reply(refusal(400, "invalid argument", "a relay request is {id, route, body}"));
  }
  const origin = sender.origin;
  if (typeof origin !== "string" || origin === "null" || !/^https?:\/\//.test(origin)) {
    return reply(refusal(403, "SecurityError", "a bridge request comes from a page with an origin"));
  }
  const message = { route: request.route, body: request.body, origin: origin };
  if (sender.frameId !== 0) {
    const top = originOf(sender.tab && sender.tab.url);
    if (top === null) {
      return reply(refusal(403, "NotAllowedError", "this frame's top-level origin is unknown"));
    }
    message.topOrigin = top;
  }
  try {
    return reply(await send(message));
  } catch (error) {
    return reply(refusal(503, "NotAllowedError", "The SoftPasskey relay cannot reach its server."));
  }
}

chrome.runtime.onConnect.addListener((port) => {
  if (port.name !== "softpasskey-relay" || !port.sender) {
    port.disconnect();
    return;
  }
  let open = true;
  port.onDisconnect.addListener(() => {
    open = false;
  });
  port.onMessage.addListener(async (text) => {
    if (typeof text !== "string") {
      return;
    }
    const outcome = await answer(port.sender, text);
    if (outcome !== null && open) {
      port.postMessage(JSON.stringify(outcome));
    }
  });
});
