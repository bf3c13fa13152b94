// SoftPasskey page bridge: the page side of `GET /session/{S}/webauthn/authenticator/{A}/bridge.js`
// (README "Web apps"; the routes it calls are ControlServer+Bridge.swift's). The server sends this
// function applied to its configuration,
// `(function softpasskeyBridge(config) {…})(CONFIG_JSON);`, so this file holds the one function
// declaration and comments only. Plain ES2020: no modules, no dependencies, no eval.
//
// config = {endpoint, socket?, capability, attachment, transports, capabilities}:
//   endpoint      base URL of the bridge routes (`http://127.0.0.1:PORT/bridge`)
//   socket        the bridge socket (`ws://127.0.0.1:PORT/bridge/socket`): one connection per realm
//                 instead of a request per command, where the page may open it
//   capability    bearer capability for one authenticator (ceremonies and signals only)
//   attachment    what PublicKeyCredential.authenticatorAttachment answers when the server omits it
//   transports    what AuthenticatorAttestationResponse.getTransports() answers when the server omits it
//   capabilities  what PublicKeyCredential.getClientCapabilities() answers
//
// What it does, in the order of this file:
//   1. base64url and BufferSource helpers (WebAuthn L3 §5.10 "Base64url encoding");
//   2. the interface objects (Credential, PublicKeyCredential, AuthenticatorResponse,
//      AuthenticatorAttestationResponse, AuthenticatorAssertionResponse, CredentialsContainer):
//      the engine's own where it has them, small stand-ins where it has none (WebKitGTK);
//   3. options → JSON (§5.1.3/§5.1.4 arguments, WebIDL conversion of the required members);
//   4. the server's JSON → PublicKeyCredential (§5.1 attributes, §5.1.8 toJSON, §5.2 responses);
//   5. the bridge's channel (an installer's relay, else the socket, else fetch with CORS), refusals
//      as DOMExceptions, AbortSignal (§5.6);
//   6. topOrigin (§5.8.1 CollectedClientData.topOrigin) from ancestorOrigins or a postMessage
//      handshake with the bridge of the top-level frame;
//   7. navigator.credentials.create/get (§5.1.3, §5.1.4, conditional mediation §5.1.4/§5.4.2,
//      §5.5) and the static methods (§5.1.6, §5.1.7, §5.1.9/§5.1.10 parse…FromJSON, §5.1.11 signals).
function softpasskeyBridge(config) {
  "use strict";

  // Evaluating the script twice in one realm (a preload and an evaluation after load, say) is a
  // no-op: the first evaluation marks the global object with a registered symbol.
  const installed = Symbol.for("softpasskey.bridge");
  if (Object.prototype.hasOwnProperty.call(globalThis, installed)) {
    return;
  }
  Object.defineProperty(globalThis, installed, { value: true });

  // A relay an installer put in this realm just before the bridge (an extension's content-script
  // port, a WebDriver BiDi channel, a Playwright binding), for pages whose policy forbids them to
  // reach the server: taken, and removed from the page's sight. It is called with {route, body} and
  // answers a Promise of {status, value}, as the route would; the relay, not the page, says the origin.
  const relaySymbol = Symbol.for("softpasskey.relay");
  const relay = typeof globalThis[relaySymbol] === "function" ? globalThis[relaySymbol] : null;
  delete globalThis[relaySymbol];

  // What the bridge needs from the page's realm, taken before the page can replace it.
  const realFetch = globalThis.fetch;
  const RealWebSocket = globalThis.WebSocket;
  const RealAbortController = globalThis.AbortController;
  const realSetTimeout = globalThis.setTimeout;
  const realClearTimeout = globalThis.clearTimeout;
  const realBtoa = globalThis.btoa;
  const realAtob = globalThis.atob;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const getRandomValues = crypto.getRandomValues.bind(crypto);
  const hasOwn = (object, key) => Object.prototype.hasOwnProperty.call(object, key);
  const toStringTag = (value) => Object.prototype.toString.call(value);

  const endpoint = String(config.endpoint).replace(/\/+$/, "");
  const capability = String(config.capability);
  const defaultAttachment = config.attachment === undefined ? null : config.attachment;
  const defaultTransports = Array.isArray(config.transports) ? config.transports.slice() : [];
  const capabilities = Object.assign({}, config.capabilities);

  // ---------------------------------------------------------------------------------------------
  // 1. base64url (RFC 4648 §5 without padding, WebAuthn L3 §5.10) and BufferSource
  // ---------------------------------------------------------------------------------------------

  /** The bytes of an ArrayBuffer or ArrayBufferView (a WebIDL BufferSource), else null. */
  function bufferSourceBytes(value) {
    if (toStringTag(value) === "[object ArrayBuffer]") {
      return new Uint8Array(value);
    }
    if (ArrayBuffer.isView(value)) {
      return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    }
    return null;
  }

  function base64urlEncode(bytes) {
    let binary = "";
    for (let start = 0; start < bytes.length; start += 0x8000) {
      binary += String.fromCharCode.apply(null, bytes.subarray(start, start + 0x8000));
    }
    return realBtoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  /** The bytes of base64url text as a new ArrayBuffer, or null when it is not base64url. */
  function base64urlDecode(text) {
    if (typeof text !== "string" || !/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) {
      return null;
    }
    const padded = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
    const binary = realAtob(padded);
    const bytes = new Uint8Array(binary.length);
    for (let index = 0; index < binary.length; index += 1) {
      bytes[index] = binary.charCodeAt(index);
    }
    return bytes.buffer;
  }

  /** The bytes of base64url text as a new ArrayBuffer; what `failure()` makes is thrown when it is not base64url. */
  function base64urlDecodeOrThrow(text, failure) {
    const buffer = base64urlDecode(text);
    if (buffer === null) {
      throw failure();
    }
    return buffer;
  }

  /** A fresh copy of an ArrayBuffer, for members that hand out a new buffer on each call. */
  function copyBuffer(buffer) {
    return buffer === null ? null : buffer.slice(0);
  }

  function randomID() {
    return "r" + base64urlEncode(getRandomValues(new Uint8Array(16)));
  }

  // ---------------------------------------------------------------------------------------------
  // 2. Interface objects (WebAuthn L3 §5.1 PublicKeyCredential, §5.2 AuthenticatorResponse,
  //    Credential Management §2.2 Credential, §2.3 CredentialsContainer)
  // ---------------------------------------------------------------------------------------------
  // Where the engine has an interface (Chromium, Firefox), results are made with
  // Object.create(Interface.prototype) and carry their attributes as own, read-only properties
  // that shadow the engine's accessors, so `instanceof` and Object.prototype.toString answer as
  // for the browser's own objects. Where it has none (WebKitGTK as Debian builds it), the bridge
  // defines a stand-in: a constructor that throws as WebIDL's interfaces without a constructor
  // do, the same inheritance, and prototype members that throw on objects that are not results.

  function illegalInvocation() {
    throw new TypeError("Illegal invocation");
  }

  function defineInterface(name, parent, members) {
    const existing = globalThis[name];
    if (typeof existing === "function") {
      return existing;
    }
    const constructor = {
      [name]: function () {
        throw new TypeError("Illegal constructor");
      },
    }[name];
    if (parent) {
      Object.setPrototypeOf(constructor, parent);
      Object.setPrototypeOf(constructor.prototype, parent.prototype);
    }
    for (const member of members.attributes || []) {
      Object.defineProperty(constructor.prototype, member, {
        get: illegalInvocation, enumerable: true, configurable: true,
      });
    }
    for (const member of members.operations || []) {
      Object.defineProperty(constructor.prototype, member, {
        value: { [member]() { illegalInvocation(); } }[member],
        writable: true, enumerable: true, configurable: true,
      });
    }
    Object.defineProperty(constructor.prototype, Symbol.toStringTag, { value: name, configurable: true });
    Object.defineProperty(constructor, "prototype", { writable: false });
    Object.defineProperty(globalThis, name, { value: constructor, writable: true, configurable: true });
    return constructor;
  }

  // Whether the engine has a navigator.credentials of its own (not WebKitGTK), before defining stand-ins.
  const engineHasContainer = typeof globalThis.CredentialsContainer === "function" &&
    typeof globalThis.CredentialsContainer.prototype.create === "function";

  const Credential = defineInterface("Credential", null, { attributes: ["id", "type"] });
  const PublicKeyCredential = defineInterface("PublicKeyCredential", Credential, {
    attributes: ["rawId", "response", "authenticatorAttachment"],
    operations: ["getClientExtensionResults", "toJSON"],
  });
  const AuthenticatorResponse = defineInterface("AuthenticatorResponse", null, { attributes: ["clientDataJSON"] });
  const AuthenticatorAttestationResponse = defineInterface("AuthenticatorAttestationResponse", AuthenticatorResponse, {
    attributes: ["attestationObject"],
    operations: ["getTransports", "getAuthenticatorData", "getPublicKey", "getPublicKeyAlgorithm"],
  });
  const AuthenticatorAssertionResponse = defineInterface("AuthenticatorAssertionResponse", AuthenticatorResponse, {
    attributes: ["authenticatorData", "signature", "userHandle"],
  });
  const CredentialsContainer = defineInterface("CredentialsContainer", null, {
    operations: ["get", "store", "create", "preventSilentAccess"],
  });

  /** Defines read-only, non-enumerable own properties, as the engine's accessors look from outside. */
  function defineOwn(object, properties) {
    for (const key of Object.keys(properties)) {
      Object.defineProperty(object, key, { value: properties[key], enumerable: false, configurable: true });
    }
    return object;
  }

  // ---------------------------------------------------------------------------------------------
  // 3. Options → JSON (the arguments of §5.1.3 [[Create]] and §5.1.4 [[DiscoverFromExternalSource]],
  //    in the forms of §5.1.9/§5.1.10 PublicKeyCredentialCreationOptionsJSON / …RequestOptionsJSON)
  // ---------------------------------------------------------------------------------------------
  // WebIDL first converts the page's dictionary: a required member that is missing, or a
  // BufferSource member that is not one, is a TypeError before anything else happens. Then every
  // BufferSource (challenge, user.id, credential descriptor ids, and any inside `extensions` such
  // as prf.eval.first/second, prf.evalByCredential values, largeBlob.write, credBlob,
  // hmacGetSecret.salt1/salt2) becomes base64url text; other members are copied as they are.

  function conversionError(where, what) {
    return new TypeError("Failed to read the '" + where + "' member: " + what);
  }

  function requireMember(dictionary, key, where) {
    const value = dictionary[key];
    if (value === undefined) {
      throw conversionError(where, "required member is undefined.");
    }
    return value;
  }

  function requireDictionary(value, where) {
    if (value === null || (typeof value !== "object" && typeof value !== "function")) {
      throw conversionError(where, "the value is not an object.");
    }
    return value;
  }

  function requireBufferSource(value, where) {
    if (bufferSourceBytes(value) === null) {
      throw conversionError(where, "the value is not of type '(ArrayBuffer or ArrayBufferView)'.");
    }
  }

  function requireSequence(value, where) {
    if (value === null || typeof value !== "object" || typeof value[Symbol.iterator] !== "function") {
      throw conversionError(where, "the value is not a sequence.");
    }
    return Array.from(value);
  }

  function checkDescriptors(list, where) {
    if (list === undefined) {
      return;
    }
    requireSequence(list, where).forEach((descriptor, index) => {
      const at = where + "[" + index + "]";
      requireDictionary(descriptor, at);
      requireMember(descriptor, "type", at + ".type");
      requireBufferSource(requireMember(descriptor, "id", at + ".id"), at + ".id");
    });
  }

  /** The JSON form of a value: BufferSources as base64url, recursively through objects and arrays. */
  function jsonForm(value, depth) {
    const bytes = bufferSourceBytes(value);
    if (bytes !== null) {
      return base64urlEncode(bytes);
    }
    if (value === null || typeof value !== "object") {
      return value;
    }
    if (depth > 32) {
      throw new TypeError("The options are nested too deeply.");
    }
    if (Array.isArray(value) || typeof value[Symbol.iterator] === "function") {
      return Array.from(value, (item) => {
        const converted = jsonForm(item, depth + 1);
        return converted === undefined ? null : converted;
      });
    }
    const result = {};
    // for…in: a WebIDL dictionary reads inherited members too.
    for (const key in value) {
      const member = value[key];
      if (member === undefined || typeof member === "function" || typeof member === "symbol") {
        continue;
      }
      result[key] = jsonForm(member, depth + 1);
    }
    return result;
  }

  /** §5.4 PublicKeyCredentialCreationOptions → PublicKeyCredentialCreationOptionsJSON. */
  function creationOptionsJSON(options) {
    const where = "publicKey";
    requireDictionary(options, where);
    const rp = requireDictionary(requireMember(options, "rp", where + ".rp"), where + ".rp");
    requireMember(rp, "name", where + ".rp.name");
    const user = requireDictionary(requireMember(options, "user", where + ".user"), where + ".user");
    requireBufferSource(requireMember(user, "id", where + ".user.id"), where + ".user.id");
    requireMember(user, "name", where + ".user.name");
    requireMember(user, "displayName", where + ".user.displayName");
    requireBufferSource(requireMember(options, "challenge", where + ".challenge"), where + ".challenge");
    const parameters = where + ".pubKeyCredParams";
    requireSequence(requireMember(options, "pubKeyCredParams", parameters), parameters);
    checkDescriptors(options.excludeCredentials, where + ".excludeCredentials");
    return jsonForm(options, 0);
  }

  /** §5.5 PublicKeyCredentialRequestOptions → PublicKeyCredentialRequestOptionsJSON. */
  function requestOptionsJSON(options) {
    const where = "publicKey";
    requireDictionary(options, where);
    requireBufferSource(requireMember(options, "challenge", where + ".challenge"), where + ".challenge");
    checkDescriptors(options.allowCredentials, where + ".allowCredentials");
    return jsonForm(options, 0);
  }

  // ---------------------------------------------------------------------------------------------
  // 4. The server's JSON → PublicKeyCredential (§5.1, §5.2.1, §5.2.2, §5.1.8 toJSON)
  // ---------------------------------------------------------------------------------------------

  function decodeMember(text, what) {
    return base64urlDecodeOrThrow(
      text, () => new DOMException("The SoftPasskey bridge answered a malformed " + what + ".", "NotAllowedError"));
  }

  /** Replaces object[key] (base64url text) by an ArrayBuffer, where present. */
  function decodeInPlace(object, key) {
    if (object && typeof object === "object" && typeof object[key] === "string") {
      object[key] = decodeMember(object[key], key);
    }
  }

  /**
   * §5.1 getClientExtensionResults(): the extension outputs with their binary members as
   * ArrayBuffers: prf.results.first/second (§10.1.4), largeBlob.blob (§10.1.5), getCredBlob and
   * hmacGetSecret.output1/output2 (CTAP 2.1 §12.2, §12.5, as Chromium reports them). A new
   * object on every call.
   */
  function clientExtensionResults(json) {
    const results = parse(stringify(json || {}));
    if (results.prf && results.prf.results) {
      decodeInPlace(results.prf.results, "first");
      decodeInPlace(results.prf.results, "second");
    }
    decodeInPlace(results.largeBlob, "blob");
    decodeInPlace(results, "getCredBlob");
    decodeInPlace(results.hmacGetSecret, "output1");
    decodeInPlace(results.hmacGetSecret, "output2");
    return results;
  }

  /** §5.2.1 AuthenticatorAttestationResponse from AuthenticatorAttestationResponseJSON. */
  function attestationResponse(json) {
    const authenticatorData = decodeMember(json.authenticatorData, "authenticatorData");
    const publicKey = typeof json.publicKey === "string" ? decodeMember(json.publicKey, "publicKey") : null;
    const transports = Array.isArray(json.transports) ? json.transports.slice() : defaultTransports.slice();
    return defineOwn(Object.create(AuthenticatorAttestationResponse.prototype), {
      clientDataJSON: decodeMember(json.clientDataJSON, "clientDataJSON"),
      attestationObject: decodeMember(json.attestationObject, "attestationObject"),
      // §5.2.1 getTransports(): a new sequence on every call.
      getTransports: { getTransports() { return transports.slice(); } }.getTransports,
      // §5.2.1.1 getAuthenticatorData().
      getAuthenticatorData: { getAuthenticatorData() { return copyBuffer(authenticatorData); } }.getAuthenticatorData,
      // §5.2.1.1 getPublicKey(): the SubjectPublicKeyInfo, null for an algorithm the client cannot express.
      getPublicKey: { getPublicKey() { return copyBuffer(publicKey); } }.getPublicKey,
      // §5.2.1.1 getPublicKeyAlgorithm(): the COSEAlgorithmIdentifier.
      getPublicKeyAlgorithm: { getPublicKeyAlgorithm() { return json.publicKeyAlgorithm; } }.getPublicKeyAlgorithm,
    });
  }

  /** §5.2.2 AuthenticatorAssertionResponse from AuthenticatorAssertionResponseJSON. */
  function assertionResponse(json) {
    return defineOwn(Object.create(AuthenticatorAssertionResponse.prototype), {
      clientDataJSON: decodeMember(json.clientDataJSON, "clientDataJSON"),
      authenticatorData: decodeMember(json.authenticatorData, "authenticatorData"),
      signature: decodeMember(json.signature, "signature"),
      userHandle: typeof json.userHandle === "string" ? decodeMember(json.userHandle, "userHandle") : null,
    });
  }

  /**
   * §5.1 PublicKeyCredential from RegistrationResponseJSON or AuthenticationResponseJSON (the
   * server's answer, exactly what §5.1.8 toJSON() returns).
   */
  function publicKeyCredential(json, kind) {
    if (!json || typeof json !== "object" || !json.response || typeof json.id !== "string") {
      throw new DOMException("The SoftPasskey bridge answered no credential.", "NotAllowedError");
    }
    const copy = stringify(json);
    const response = kind === "create" ? attestationResponse(json.response) : assertionResponse(json.response);
    const attachment = json.authenticatorAttachment === undefined ? defaultAttachment : json.authenticatorAttachment;
    return defineOwn(Object.create(PublicKeyCredential.prototype), {
      id: json.id,
      type: json.type || "public-key",
      rawId: decodeMember(json.rawId === undefined ? json.id : json.rawId, "rawId"),
      response: response,
      authenticatorAttachment: attachment,
      getClientExtensionResults: {
        getClientExtensionResults() { return clientExtensionResults(json.clientExtensionResults); },
      }.getClientExtensionResults,
      // §5.1.8 toJSON(): a new RegistrationResponseJSON / AuthenticationResponseJSON on every call.
      toJSON: { toJSON() { return parse(copy); } }.toJSON,
    });
  }

  // ---------------------------------------------------------------------------------------------
  // 5. The bridge's channel (an installer's relay, the socket, or POST {endpoint}/ROUTE), refusals
  //    as the DOMExceptions of §5.1.3/§5.1.4, AbortSignal (§5.6)
  // ---------------------------------------------------------------------------------------------
  // Every command has an answer {status, value}: status as HTTP's, value what the route's
  // {"value": …} holds. The browser sets the Origin of the socket's handshake and of each fetch: the
  // server takes it as the client's origin. A refusal's value is {error: NAME, message: TEXT}; NAME
  // is a DOMException name when the ceremony was refused, anything else is a bridge failure, which
  // the page sees as NotAllowedError with the server's message.

  const domExceptionNames = new Set([
    "NotAllowedError", "InvalidStateError", "SecurityError", "NotSupportedError", "SyntaxError",
    "AbortError", "ConstraintError", "EncodingError", "UnknownError", "TimeoutError", "NotReadableError",
  ]);

  function refusal(name, message) {
    if (name === "TypeError") {
      return new TypeError(message);
    }
    if (domExceptionNames.has(name)) {
      return new DOMException(message, name);
    }
    return new DOMException("The SoftPasskey bridge failed (" + name + "): " + message, "NotAllowedError");
  }

  // The Authorization header makes every request CORS-preflighted (Fetch §4.8); the server's
  // Access-Control-Max-Age lets the browser keep the preflight's answer, so that a ceremony costs
  // one request, not two. No `cache: "no-store"`: Chromium skips its preflight cache for such a
  // request (no HTTP cache reuses the answer to a POST anyway, RFC 9111 §4).
  async function fetchAnswer(route, body, signal, keepalive) {
    const response = await realFetch.call(globalThis, endpoint + "/" + route, {
      method: "POST",
      mode: "cors",
      credentials: "omit",
      keepalive: keepalive === true,
      headers: { authorization: "Bearer " + capability, "content-type": "application/json" },
      body: stringify(body),
      signal: signal,
    });
    let answer = null;
    try {
      answer = parse(await response.text());
    } catch (error) {
      if (signal && signal.aborted) {
        throw error;
      }
    }
    if (answer && typeof answer === "object" && hasOwn(answer, "value")) {
      return { status: response.status, value: answer.value };
    }
    return { status: response.ok ? 502 : response.status, value: answer };
  }

  // The socket (RFC 6455): opened on the first command, `{"capability"}` first, then one message
  // per command, `{id, route, body}`, answered by `{id, status, value}` in any order. When it
  // cannot be opened (a page policy, an old server) the realm uses fetch from then on; when it
  // closes after working, the commands waiting on it fail and the next command opens another.
  let socketOpening = null; // a Promise of the open socket, or of null (fetch from now on)
  let openSocket = null; // the socket once ready
  const socketWaiting = new Map(); // id → {resolve, reject}
  let nextSocketID = 1;

  function connectSocket() {
    if (socketOpening === null) {
      socketOpening = new Promise((resolve) => {
        let socket;
        try {
          socket = new RealWebSocket(String(config.socket));
        } catch (error) {
          resolve(null);
          return;
        }
        let ready = false;
        socket.onopen = () => socket.send(stringify({ capability: capability }));
        socket.onmessage = (event) => {
          let message = null;
          try {
            message = parse(event.data);
          } catch (error) {
            return;
          }
          if (!ready) {
            ready = message !== null && message.ready === true;
            if (ready) {
              openSocket = socket;
            } else {
              socket.close();
            }
            resolve(ready ? socket : null);
            return;
          }
          const waiter = message && socketWaiting.get(message.id);
          if (waiter) {
            socketWaiting.delete(message.id);
            waiter.resolve({ status: message.status, value: message.value });
          }
        };
        // A socket that a page policy blocks fires `error` alone in Chromium (no `close`): either
        // ends it. Before it is ready the realm uses fetch; after, the waiting commands fail.
        let ended = false;
        socket.onerror = socket.onclose = () => {
          if (ended) {
            return;
          }
          ended = true;
          if (!ready) {
            resolve(null);
            return;
          }
          openSocket = null;
          socketOpening = null;
          for (const waiter of Array.from(socketWaiting.values())) {
            waiter.reject(new TypeError("The bridge socket closed."));
          }
          socketWaiting.clear();
        };
      });
    }
    return socketOpening;
  }

  function socketAnswer(socket, route, body) {
    return new Promise((resolve, reject) => {
      const id = nextSocketID;
      nextSocketID += 1;
      socketWaiting.set(id, { resolve: resolve, reject: reject });
      try {
        socket.send(stringify({ id: id, route: route, body: body }));
      } catch (error) {
        socketWaiting.delete(id);
        reject(error);
      }
    });
  }

  /** A relay's answer, checked: anything but {status: number, value} is a failure of the relay. */
  async function relayAnswer(route, body) {
    const answer = await relay({ route: route, body: body });
    if (!answer || typeof answer !== "object" || typeof answer.status !== "number") {
      throw new TypeError("The SoftPasskey relay answered nothing.");
    }
    return { status: answer.status, value: answer.value };
  }

  /** Rejects with the signal's reason when it fires first (DOM §3.3), for channels that cannot be aborted. */
  function abortable(promise, signal) {
    if (!signal) {
      return promise;
    }
    return new Promise((resolve, reject) => {
      const onAbort = () => reject(abortReason(signal));
      if (signal.aborted) {
        onAbort();
        return;
      }
      signal.addEventListener("abort", onAbort);
      promise.then((value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      }, (error) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      });
    });
  }

  /**
   * Sends a command on the realm's channel. An abort sent while the page goes away (`keepalive`)
   * takes the socket only when it is already open, else a keepalive fetch.
   */
  async function answer(route, body, signal, keepalive) {
    if (relay) {
      return abortable(relayAnswer(route, body), signal);
    }
    if (typeof config.socket === "string" && RealWebSocket) {
      const socket = keepalive ? openSocket : await connectSocket();
      if (socket) {
        return abortable(socketAnswer(socket, route, body), signal);
      }
    }
    return fetchAnswer(route, body, signal, keepalive);
  }

  /**
   * Sends a command and answers its `value`; a refusal or failure rejects with a DOMException.
   * When the channel fails (Firefox cancels a page's fetches as soon as it starts to navigate
   * away, before `pagehide`), a ceremony's request ID is sent to `abort`, so that the server does
   * not keep a conditional get pending for a page that is gone.
   */
  async function call(route, body, signal) {
    let reply;
    try {
      reply = await answer(route, body, signal, false);
    } catch (error) {
      if (signal && signal.aborted) {
        throw error;
      }
      if (typeof body.requestId === "string" && route !== "abort") {
        sendAbort(body.requestId);
      }
      // A network failure, or an answer without CORS headers: the server refuses pages of an
      // origin the capability was not handed to (403) without them, so the page reads nothing.
      throw new DOMException(
        "The SoftPasskey bridge at " + endpoint + " did not answer this page (is the server running, is " +
        "this page's origin allowed, does the page's Content-Security-Policy connect-src allow it?): " +
        (error && error.message), "NotAllowedError");
    }
    if (reply.status >= 200 && reply.status < 300) {
      return reply.value;
    }
    const failure = reply.value;
    if (failure && typeof failure === "object" && typeof failure.error === "string") {
      throw refusal(failure.error, String(failure.message || failure.error));
    }
    throw new DOMException("The SoftPasskey bridge answered HTTP " + reply.status + ".", "NotAllowedError");
  }

  // Requests of this realm that are still waiting for the server, by request ID: a pagehide
  // aborts them all (the server forgets a pending conditional get), a modal request aborts a
  // pending conditional get with AbortError (as Firefox does), and a second modal request while
  // one is pending is refused (NotAllowedError, "A request is already pending.", as Chromium says).
  const pending = new Map();

  function sendAbort(requestId) {
    answer("abort", { requestId: requestId }, undefined, true).catch(() => {
      // keepalive with a CORS preflight is refused by some engines: try once without it.
      answer("abort", { requestId: requestId }, undefined, false).catch(() => {});
    });
  }

  /**
   * Runs one ceremony against the bridge with the AbortSignal steps of §5.6 / DOM §3.3: an
   * already aborted signal rejects at once with its reason; one that fires while the request is
   * pending aborts the fetch, tells the server (`/abort`) and rejects with its reason.
   */
  function ceremony(route, body, signal) {
    if (signal && signal.aborted) {
      return Promise.reject(abortReason(signal));
    }
    const conditional = body.mediation === "conditional";
    if (!conditional) {
      for (const entry of pending.values()) {
        if (!entry.conditional) {
          return Promise.reject(new DOMException("A request is already pending.", "NotAllowedError"));
        }
      }
      for (const entry of Array.from(pending.values())) {
        entry.cancel(new DOMException("A modal request replaced the conditional request.", "AbortError"));
      }
    }
    return new Promise((resolve, reject) => {
      const controller = new RealAbortController();
      const requestId = body.requestId;
      let settled = false;
      const finish = () => {
        settled = true;
        pending.delete(requestId);
        if (signal) {
          signal.removeEventListener("abort", onAbort);
        }
      };
      const cancel = (reason) => {
        if (settled) {
          return;
        }
        finish();
        controller.abort();
        sendAbort(requestId);
        // The ceremony and its abort travel on different connections: under load the abort can
        // reach the server before the request it aborts, which would then stay pending. Aborting
        // twice is harmless (the server ignores an ID it does not hold), so say it again later.
        realSetTimeout(() => sendAbort(requestId), 2000);
        reject(reason);
      };
      const onAbort = () => cancel(abortReason(signal));
      pending.set(requestId, { conditional: conditional, cancel: cancel });
      if (signal) {
        signal.addEventListener("abort", onAbort);
      }
      call(route, body, controller.signal).then(
        (value) => {
          if (settled) {
            return;
          }
          finish();
          try {
            resolve(publicKeyCredential(value, route));
          } catch (error) {
            reject(error);
          }
        },
        (error) => {
          if (!settled) {
            finish();
            reject(error);
          }
        });
    });
  }

  function abortReason(signal) {
    return signal.reason !== undefined ? signal.reason : new DOMException("The operation was aborted.", "AbortError");
  }

  // A page that goes away takes its pending requests with it: `/abort` for each on pagehide.
  globalThis.addEventListener("pagehide", () => {
    for (const entry of Array.from(pending.values())) {
      entry.cancel(new DOMException("The page was hidden.", "AbortError"));
    }
  });

  // ---------------------------------------------------------------------------------------------
  // 6. topOrigin (§5.8.1 CollectedClientData: topOrigin when the caller is not same-origin with
  //    its ancestors; the server sets crossOrigin from it) and the embedding frames' permissions
  //    policy (§5.9), both asked of the bridge of another frame over postMessage
  // ---------------------------------------------------------------------------------------------
  // A top-level document, or a frame same-origin with all its ancestors, sends null. Otherwise the
  // top-level origin is the last entry of location.ancestorOrigins where the engine has it
  // (Chromium, WebKit, Firefox 153), the top window's own origin when it is readable, or else
  // (Firefox ESR before ancestorOrigins, or an entry masked as "null" by a referrer policy) the
  // browser-set `origin` of the top frame's answer to a message of a fixed shape: the bridge in the
  // top frame answers it. No answer within a second refuses the ceremony, rather than claiming
  // a same-origin context.
  //
  // The permissions policy of a cross-origin frame is its embedder's decision (the `allow`
  // attribute of its <iframe>), which the frame cannot read. Where the engine does not expose the
  // document's policy (Firefox, WebKit), the frame asks its parent's bridge, which finds the
  // <iframe> whose window sent the question and answers whether the feature is enabled for the
  // asker's browser-set `origin`: enabled in the parent itself (which asks its own parent in turn,
  // so nested frames chain up to the top) and allowed by the container policy. Each question and
  // answer carries a fresh random nonce, and an answer counts only from the window asked.

  const handshakeQuestion = "softpasskey-bridge:topOrigin?";
  const handshakeAnswer = "softpasskey-bridge:topOrigin";
  const policyQuestion = "softpasskey-bridge:policy?";
  const policyAnswer = "softpasskey-bridge:policy";
  const policyFeatures = ["publickey-credentials-create", "publickey-credentials-get"];
  const awaitingAnswers = new Map(); // nonce → {type, from, resolve(value)}
  let knownTopOrigin;

  // One capturing listener, added when the bridge is installed (before the page's own listeners
  // when it is preloaded): the top frame answers topOrigin questions, every frame answers its
  // child frames' policy questions and takes its own answers. The page's listeners never see any.
  globalThis.addEventListener("message", (event) => {
    const data = event.data;
    if (!data || typeof data !== "object" || typeof data.nonce !== "string") {
      return;
    }
    const source = event.source;
    const target = event.origin === "null" ? "*" : event.origin;
    if (data.type === handshakeQuestion && globalThis.top === globalThis && source) {
      event.stopImmediatePropagation();
      source.postMessage({ type: handshakeAnswer, nonce: data.nonce }, target);
    } else if (data.type === policyQuestion && policyFeatures.includes(data.feature) && isChildWindow(source)) {
      event.stopImmediatePropagation();
      const answer = (allowed) =>
        source.postMessage({ type: policyAnswer, nonce: data.nonce, allowed: allowed }, target);
      childAllows(data.feature, source, event.origin).then(answer, () => answer(false));
    } else if (awaitingAnswers.has(data.nonce)) {
      const awaiting = awaitingAnswers.get(data.nonce);
      if (data.type === awaiting.type && source === awaiting.from) {
        event.stopImmediatePropagation();
        awaiting.resolve(data.type === handshakeAnswer ? event.origin : data.allowed === true);
      }
    }
  }, true);

  /** Posts `question` to `frame` and answers what its bridge says, or undefined after a second. */
  function ask(frame, question, answerType) {
    return new Promise((resolve) => {
      const nonce = randomID();
      const done = (value) => {
        realClearTimeout(timer);
        awaitingAnswers.delete(nonce);
        resolve(value);
      };
      const timer = realSetTimeout(() => done(undefined), 1000);
      awaitingAnswers.set(nonce, { type: answerType, from: frame, resolve: done });
      frame.postMessage(Object.assign({ nonce: nonce }, question), "*");
    });
  }

  function askTopFrame() {
    return ask(globalThis.top, { type: handshakeQuestion }, handshakeAnswer);
  }

  /** Whether every ancestor frame is same-origin with this one, from what this realm may read. */
  function sameOriginWithAncestors() {
    const own = ownOrigin(); // the settings' origin: an about:blank or srcdoc frame's is its creator's
    const ancestors = location.ancestorOrigins;
    if (ancestors && typeof ancestors.length === "number" && ancestors.length > 0) {
      return Array.from(ancestors).every((origin) => origin === own);
    }
    for (let frame = globalThis.parent; ; frame = frame.parent) {
      try {
        if (frame.origin !== own) {
          return false;
        }
      } catch (error) {
        return false; // reading a cross-origin frame's origin throws SecurityError
      }
      if (frame === globalThis.top) {
        return true;
      }
    }
  }

  async function topOrigin() {
    if (globalThis.top === globalThis || sameOriginWithAncestors()) {
      return null;
    }
    if (knownTopOrigin) {
      return knownTopOrigin;
    }
    const ancestors = location.ancestorOrigins;
    let origin;
    if (ancestors && ancestors.length > 0 && ancestors[ancestors.length - 1] !== "null") {
      origin = ancestors[ancestors.length - 1];
    } else {
      try {
        origin = globalThis.top.location.origin;
      } catch (error) {
        origin = await askTopFrame();
      }
    }
    if (typeof origin !== "string" || origin === "null") {
      throw new DOMException(
        "The SoftPasskey bridge cannot tell this frame's top-level origin (is the bridge in the top frame?).",
        "NotAllowedError");
    }
    knownTopOrigin = origin;
    return origin;
  }

  // --- Permissions Policy (W3C Permissions Policy §9 "Algorithms") --------------------------------

  const pageDocument = globalThis.document;
  const ownOrigin = () => String(globalThis.origin);

  /** The engine's own policy of this document (Chromium's document.featurePolicy) when it knows `feature`. */
  function enginePolicy(feature) {
    const own = pageDocument && (pageDocument.permissionsPolicy || pageDocument.featurePolicy);
    if (!own || typeof own.allowsFeature !== "function" || typeof own.features !== "function" ||
        !own.features().includes(feature)) {
      return null;
    }
    return own;
  }

  /** Whether `window` is one of this window's child frames (WindowProxy identity, readable cross-origin). */
  function isChildWindow(window) {
    if (!window) {
      return false;
    }
    for (let index = 0; index < globalThis.frames.length; index += 1) {
      if (globalThis.frames[index] === window) {
        return true;
      }
    }
    return false;
  }

  /** The <iframe> (or <frame>, <object>, <embed>) of this document whose window is `window`, else null. */
  function containerOf(window) {
    if (!pageDocument) {
      return null;
    }
    for (const element of pageDocument.querySelectorAll("iframe, frame, object, embed")) {
      if (element.contentWindow === window) {
        return element;
      }
    }
    return null;
  }

  /**
   * The container's declared origin (Permissions Policy §9.6 "declared origin"): opaque ("null")
   * when sandboxed without allow-same-origin, this document's for srcdoc, about: or no src, else
   * the origin of its src.
   */
  function declaredOrigin(container) {
    const sandbox = container.getAttribute("sandbox");
    if (sandbox !== null && !/(^|\s)allow-same-origin(\s|$)/i.test(sandbox)) {
      return "null";
    }
    const src = container.hasAttribute("srcdoc") ? null :
      container.getAttribute("src") || container.getAttribute("data");
    if (src) {
      try {
        const url = new URL(src, pageDocument.baseURI);
        return url.protocol === "about:" ? ownOrigin() : url.origin;
      } catch (error) {
        // an unparsable src: the document's own origin, as for no src
      }
    }
    return ownOrigin();
  }

  /**
   * The allowlist the container's `allow` attribute gives `feature` (Permissions Policy §9.3
   * "Parse policy directive"; the first directive naming a feature wins, an empty list means
   * 'src'), or undefined when it names none.
   */
  function containerAllowlist(container, feature) {
    const text = container.getAttribute("allow");
    if (text === null) {
      return undefined;
    }
    for (const directive of text.split(";")) {
      const tokens = directive.trim().split(/[\t\n\f\r ]+/).filter((token) => token !== "");
      if (tokens[0] === feature) {
        return tokens.length === 1 ? ["'src'"] : tokens.slice(1);
      }
    }
    return undefined;
  }

  /** Whether an allowlist matches `origin` (Permissions Policy §9.2 "matches"): an opaque origin only `*`. */
  function allowlistMatches(allowlist, origin, container) {
    for (const value of allowlist) {
      if (value === "*") {
        return true;
      }
      if (origin === "null") {
        continue;
      }
      if (value === "'self'" || value === "'src'") {
        if (origin === (value === "'self'" ? ownOrigin() : declaredOrigin(container))) {
          return true;
        }
        continue;
      }
      // A serialized origin, or one with a wildcard subdomain (`https://*.example.com`).
      const wildcard = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)\*\.(.+)$/.exec(value);
      try {
        const url = new URL(wildcard ? wildcard[1] + wildcard[2] : value);
        if (url.origin === "null") {
          continue;
        }
        if (!wildcard && url.origin === origin) {
          return true;
        }
        const asked = new URL(origin);
        if (wildcard && asked.protocol === url.protocol && asked.port === url.port &&
            asked.hostname.endsWith("." + url.hostname)) {
          return true;
        }
      } catch (error) {
        // not an origin ('none', a misspelt keyword): matches nothing
      }
    }
    return false;
  }

  /**
   * Permissions Policy §9.8 "Define an inherited policy for feature in container at origin", for a
   * child frame of this document: the feature must be enabled here, and the container policy (its
   * `allow`) must match the child's origin, or, when it does not name the feature, the child must
   * be same-origin with this document (the default allowlist of both features is 'self', §5.9). A
   * script cannot read this document's `Permissions-Policy` header. (A frame of an engine that
   * exposes its policy never asks.)
   */
  async function childAllows(feature, child, origin) {
    if (!(await documentAllows(feature))) {
      return false;
    }
    const container = containerOf(child);
    const allowlist = container ? containerAllowlist(container, feature) : undefined;
    if (allowlist !== undefined) {
      return allowlistMatches(allowlist, origin, container);
    }
    return origin !== "null" && origin === ownOrigin();
  }

  /**
   * Whether `feature` is enabled in this document (§9.9 "Is feature enabled in document for
   * origin" for its own origin): the engine's answer where it has one; enabled in a top-level
   * document; in a frame same-origin with all its ancestors, what each <iframe> up the chain
   * allows; otherwise what the parent's bridge answers (refused when none answers).
   */
  async function documentAllows(feature) {
    const engine = enginePolicy(feature);
    if (engine) {
      return engine.allowsFeature(feature);
    }
    if (globalThis.top === globalThis) {
      return true;
    }
    if (sameOriginWithAncestors()) {
      for (let frame = globalThis; frame !== globalThis.top; frame = frame.parent) {
        const container = frame.frameElement;
        const allowlist = container ? containerAllowlist(container, feature) : undefined;
        if (allowlist !== undefined && !allowlistMatches(allowlist, ownOrigin(), container)) {
          return false;
        }
      }
      return true;
    }
    const allowed = await ask(globalThis.parent, { type: policyQuestion, feature: feature }, policyAnswer);
    if (allowed === undefined) {
      throw new DOMException(
        "The SoftPasskey bridge cannot tell whether the embedding page allows '" + feature +
        "' in this frame (is the bridge in the parent frame?).", "NotAllowedError");
    }
    return allowed;
  }

  // ---------------------------------------------------------------------------------------------
  // 7. navigator.credentials.create/get and the static methods of PublicKeyCredential
  // ---------------------------------------------------------------------------------------------

  const mediations = ["silent", "optional", "conditional", "required"];

  /** The members of Credential Management's CredentialCreationOptions / CredentialRequestOptions. */
  function commonOptions(options) {
    const mediation = options.mediation;
    if (mediation !== undefined && !mediations.includes(String(mediation))) {
      throw new TypeError(
        "The provided value '" + mediation + "' is not a valid enum value of type CredentialMediationRequirement.");
    }
    const signal = options.signal;
    if (signal !== undefined && (signal === null || typeof signal.aborted !== "boolean" ||
        typeof signal.addEventListener !== "function")) {
      throw new TypeError("Failed to read the 'signal' member: the value is not of type 'AbortSignal'.");
    }
    return { mediation: mediation === undefined ? null : String(mediation), signal: signal };
  }

  /**
   * What this bridge enforces of a browser's rules (the server's BridgePolicy, `config.policy`),
   * each enforced unless relaxed: `permissionsPolicy` (WebAuthn L3 §5.9, the frame's permissions
   * policy must enable the feature) and `userActivation` (§5.1.3 step 2, create() in a frame that
   * is not same-origin with its ancestors needs transient activation).
   */
  const policy = Object.assign({ permissionsPolicy: true, userActivation: true }, config.policy);

  /**
   * Permissions Policy (WebAuthn L3 §5.9): `publickey-credentials-create` / `-get` are enabled in
   * the top-level document and same-origin frames by default, in a cross-origin frame only when
   * its embedder delegates them (`<iframe allow="publickey-credentials-get *">`): from the
   * engine's own policy where it exposes one (Chromium's document.featurePolicy), else from the
   * embedding frames' bridges (section 6). The refusal is Chromium's.
   */
  async function checkPermissionsPolicy(feature) {
    if (policy.permissionsPolicy !== false && !(await documentAllows(feature))) {
      throw new DOMException(
        "The '" + feature + "' feature is not enabled in this document. Permissions Policy may be used to " +
        "delegate Web Authentication capabilities to cross-origin child frames.", "NotAllowedError");
    }
  }

  // HTML §6.4.3 transient activation, read through the engine's own getter (taken now, before the
  // page can replace navigator.userActivation or UserActivation.prototype.isActive).
  const userActivation = globalThis.navigator ? navigator.userActivation : undefined;
  const isActiveGetter = typeof globalThis.UserActivation === "function"
    ? (Object.getOwnPropertyDescriptor(UserActivation.prototype, "isActive") || {}).get : undefined;

  /** Whether this window has transient activation; true where the engine cannot tell (no navigator.userActivation). */
  function hasTransientActivation() {
    if (!userActivation || typeof isActiveGetter !== "function") {
      return true;
    }
    return isActiveGetter.call(userActivation) === true;
  }

  /**
   * WebAuthn L3 §5.1.3 [[Create]] step 2, for a frame not same-origin with its ancestors: a
   * conditional create is refused, and so is a create without transient activation (as Chromium
   * does, in its words). The activation is read when create() is called; a script cannot consume
   * it, so a second create() within the activation's lifetime is not refused.
   */
  function checkUserActivation(route, mediation, activated) {
    if (route !== "create" || policy.userActivation === false || globalThis.top === globalThis ||
        sameOriginWithAncestors()) {
      return;
    }
    if (mediation === "conditional") {
      throw new DOMException("Conditional create is not allowed in a cross-origin iframe.", "NotAllowedError");
    }
    if (!activated) {
      throw new DOMException(
        "A user activation is required to create a credential in a cross-origin iframe.", "NotAllowedError");
    }
  }

  // The engine's own methods, for requests without `publicKey` (passwords, federated, …).
  const engineCreate = engineHasContainer ? CredentialsContainer.prototype.create : null;
  const engineGet = engineHasContainer ? CredentialsContainer.prototype.get : null;

  function notSupported() {
    return Promise.reject(new DOMException("The credential type is not supported.", "NotSupportedError"));
  }

  /**
   * The steps create() and get() share for a `publicKey` request: WebIDL converts the whole
   * argument first (TypeError), then Credential Management checks the signal, then §5.1.3/§5.1.4
   * the permissions policy and (create) the user activation, read before anything is awaited; the
   * ceremony then runs on the server.
   */
  async function publicKeyRequest(route, options, optionsJSON, feature) {
    const activated = hasTransientActivation();
    const common = commonOptions(options);
    const publicKey = optionsJSON(options.publicKey);
    if (common.signal && common.signal.aborted) {
      throw abortReason(common.signal);
    }
    await checkPermissionsPolicy(feature);
    checkUserActivation(route, common.mediation, activated);
    const body = {
      options: publicKey, requestId: randomID(), mediation: common.mediation, topOrigin: await topOrigin(),
    };
    return ceremony(route, body, common.signal);
  }

  // `options = {}` as the IDL declares it (`optional CredentialCreationOptions options = {}`),
  // which also gives the methods the engine's length, 0.
  const containerMethods = {
    /** Credential Management's create(), WebAuthn §5.1.3 [[Create]] for `publicKey`. */
    async create(options = {}) {
      if (options === null || options.publicKey === undefined) {
        return engineHasContainer ? engineCreate.call(this, options) : notSupported();
      }
      return publicKeyRequest("create", options, creationOptionsJSON, "publickey-credentials-create");
    },

    /**
     * Credential Management's get(), WebAuthn §5.1.4 [[DiscoverFromExternalSource]] for
     * `publicKey`; with `mediation: "conditional"` (§5.1.4, §5.5) the request stays pending until
     * the test picks a passkey, as a person picks one from autofill, or it is aborted.
     */
    async get(options = {}) {
      if (options === null || options.publicKey === undefined) {
        return engineHasContainer ? engineGet.call(this, options) : notSupported();
      }
      return publicKeyRequest("get", options, requestOptionsJSON, "publickey-credentials-get");
    },
  };

  for (const name of ["create", "get"]) {
    Object.defineProperty(CredentialsContainer.prototype, name, {
      value: containerMethods[name], writable: true, enumerable: true, configurable: true,
    });
  }

  if (!engineHasContainer) {
    // No navigator.credentials (WebKitGTK): a container whose store() and
    // preventSilentAccess() do what a browser without password or federated credentials does.
    Object.defineProperty(CredentialsContainer.prototype, "store", {
      value: { store() { return notSupported(); } }.store, writable: true, enumerable: true, configurable: true,
    });
    Object.defineProperty(CredentialsContainer.prototype, "preventSilentAccess", {
      value: { preventSilentAccess() { return Promise.resolve(undefined); } }.preventSilentAccess,
      writable: true, enumerable: true, configurable: true,
    });
    const container = Object.create(CredentialsContainer.prototype);
    const navigatorPrototype = typeof Navigator === "function" ? Navigator.prototype : Object.getPrototypeOf(navigator);
    Object.defineProperty(navigatorPrototype, "credentials", {
      get: { credentials() { return container; } }.credentials, enumerable: true, configurable: true,
    });
  }

  // --- Static methods of PublicKeyCredential ---------------------------------------------------

  /** §5.1.9 parseCreationOptionsFromJSON and §5.1.10 parseRequestOptionsFromJSON helpers. */
  function decodeOption(value, where) {
    return base64urlDecodeOrThrow(
      value, () => new DOMException("'" + where + "' is not base64url-encoded.", "EncodingError"));
  }

  function decodeDescriptors(list, where) {
    if (list === undefined) {
      return [];
    }
    return requireSequence(list, where).map((descriptor, index) => {
      const at = where + "[" + index + "]";
      requireDictionary(descriptor, at);
      requireMember(descriptor, "type", at + ".type");
      const decoded = Object.assign({}, descriptor);
      decoded.id = decodeOption(requireMember(descriptor, "id", at + ".id"), at + ".id");
      return decoded;
    });
  }

  /**
   * AuthenticationExtensionsClientInputsJSON → AuthenticationExtensionsClientInputs: the
   * base64url members of prf (§10.1.4: eval, evalByCredential), largeBlob.write (§10.1.5),
   * credBlob and hmacGetSecret salts (CTAP 2.1 §12.2, §12.5) become ArrayBuffers.
   */
  function decodeExtensions(extensions) {
    if (extensions === undefined) {
      return undefined;
    }
    const decoded = parse(stringify(requireDictionary(extensions, "extensions")));
    const values = (object, where) => {
      if (object && typeof object === "object") {
        for (const key of ["first", "second"]) {
          if (typeof object[key] === "string") {
            object[key] = decodeOption(object[key], where + "." + key);
          }
        }
      }
    };
    if (decoded.prf && typeof decoded.prf === "object") {
      values(decoded.prf.eval, "extensions.prf.eval");
      const byCredential = decoded.prf.evalByCredential;
      if (byCredential && typeof byCredential === "object") {
        for (const key of Object.keys(byCredential)) {
          values(byCredential[key], "extensions.prf.evalByCredential." + key);
        }
      }
    }
    if (decoded.largeBlob && typeof decoded.largeBlob.write === "string") {
      decoded.largeBlob.write = decodeOption(decoded.largeBlob.write, "extensions.largeBlob.write");
    }
    if (typeof decoded.credBlob === "string") {
      decoded.credBlob = decodeOption(decoded.credBlob, "extensions.credBlob");
    }
    if (decoded.hmacGetSecret && typeof decoded.hmacGetSecret === "object") {
      for (const key of ["salt1", "salt2"]) {
        if (typeof decoded.hmacGetSecret[key] === "string") {
          decoded.hmacGetSecret[key] = decodeOption(decoded.hmacGetSecret[key], "extensions.hmacGetSecret." + key);
        }
      }
    }
    return decoded;
  }

  /** The dictionary's members with WebIDL's defaults where the JSON has none. */
  function withDefaults(dictionary, defaults) {
    for (const key of Object.keys(defaults)) {
      if (dictionary[key] === undefined) {
        dictionary[key] = defaults[key];
      }
    }
    return dictionary;
  }

  const statics = {
    /** §5.1.9 parseCreationOptionsFromJSON(options), with the dictionary defaults of §5.4. */
    parseCreationOptionsFromJSON(options) {
      const where = "options";
      requireDictionary(options, where);
      requireDictionary(requireMember(options, "rp", where + ".rp"), where + ".rp");
      const user = requireDictionary(requireMember(options, "user", where + ".user"), where + ".user");
      const result = parse(stringify(options));
      result.user.id = decodeOption(requireMember(user, "id", where + ".user.id"), where + ".user.id");
      requireMember(user, "name", where + ".user.name");
      requireMember(user, "displayName", where + ".user.displayName");
      result.challenge = decodeOption(requireMember(options, "challenge", where + ".challenge"), where + ".challenge");
      const parameters = where + ".pubKeyCredParams";
      requireSequence(requireMember(options, "pubKeyCredParams", parameters), parameters);
      result.excludeCredentials = decodeDescriptors(options.excludeCredentials, where + ".excludeCredentials");
      if (options.extensions !== undefined) {
        result.extensions = decodeExtensions(options.extensions);
      }
      return withDefaults(result, { attestation: "none", attestationFormats: [], hints: [] });
    },

    /** §5.1.10 parseRequestOptionsFromJSON(options), with the dictionary defaults of §5.5. */
    parseRequestOptionsFromJSON(options) {
      const where = "options";
      requireDictionary(options, where);
      const result = parse(stringify(options));
      result.challenge = decodeOption(requireMember(options, "challenge", where + ".challenge"), where + ".challenge");
      result.allowCredentials = decodeDescriptors(options.allowCredentials, where + ".allowCredentials");
      if (options.extensions !== undefined) {
        result.extensions = decodeExtensions(options.extensions);
      }
      return withDefaults(result, { userVerification: "preferred", hints: [] });
    },

    /** §5.1.7 isUserVerifyingPlatformAuthenticatorAvailable(). */
    isUserVerifyingPlatformAuthenticatorAvailable() {
      return Promise.resolve(capabilities.userVerifyingPlatformAuthenticator === true);
    },

    /** §5.1.6 isConditionalMediationAvailable(): conditional get is always answered by the bridge. */
    isConditionalMediationAvailable() {
      return Promise.resolve(capabilities.conditionalGet !== false);
    },

    /**
     * §5.1.7 getClientCapabilities(): what this client and the authenticator do, a new record on
     * each call, its keys in lexicographic order as the spec's record has them.
     */
    getClientCapabilities() {
      const record = {};
      for (const key of Object.keys(capabilities).sort()) {
        record[key] = capabilities[key] === true;
      }
      return Promise.resolve(record);
    },

    /** §5.1.11 signalUnknownCredential({rpId, credentialId}). */
    async signalUnknownCredential(options) {
      requireDictionary(options, "options");
      const rpId = String(requireMember(options, "rpId", "options.rpId"));
      const credentialId = String(requireMember(options, "credentialId", "options.credentialId"));
      requireBase64url(credentialId, "credentialId");
      return sendSignal("unknownCredential", { rpId: rpId, credentialId: credentialId });
    },

    /** §5.1.11 signalAllAcceptedCredentials({rpId, userId, allAcceptedCredentialIds}). */
    async signalAllAcceptedCredentials(options) {
      requireDictionary(options, "options");
      const rpId = String(requireMember(options, "rpId", "options.rpId"));
      const userId = String(requireMember(options, "userId", "options.userId"));
      const ids = requireSequence(
        requireMember(options, "allAcceptedCredentialIds", "options.allAcceptedCredentialIds"),
        "options.allAcceptedCredentialIds").map(String);
      requireBase64url(userId, "userId");
      ids.forEach((id) => requireBase64url(id, "allAcceptedCredentialIds"));
      return sendSignal("allAcceptedCredentials", { rpId: rpId, userId: userId, allAcceptedCredentialIds: ids });
    },

    /** §5.1.11 signalCurrentUserDetails({rpId, userId, name, displayName}). */
    async signalCurrentUserDetails(options) {
      requireDictionary(options, "options");
      const rpId = String(requireMember(options, "rpId", "options.rpId"));
      const userId = String(requireMember(options, "userId", "options.userId"));
      const name = String(requireMember(options, "name", "options.name"));
      const displayName = String(requireMember(options, "displayName", "options.displayName"));
      requireBase64url(userId, "userId");
      return sendSignal("currentUserDetails", { rpId: rpId, userId: userId, name: name, displayName: displayName });
    },
  };

  /** §5.1.11: "If the result of base64url decoding … is an error, reject with a TypeError." */
  function requireBase64url(text, member) {
    base64urlDecodeOrThrow(text, () => new TypeError("'" + member + "' is not base64url-encoded."));
  }

  /** POST {endpoint}/signal: the server carries the signal out on the authenticator's credentials. */
  async function sendSignal(kind, options) {
    await call("signal", { kind: kind, options: options, topOrigin: await topOrigin() }, undefined);
    return undefined;
  }

  for (const name of Object.keys(statics)) {
    Object.defineProperty(PublicKeyCredential, name, {
      value: statics[name], writable: true, enumerable: true, configurable: true,
    });
  }
}
