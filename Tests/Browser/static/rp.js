// The relying party's own JavaScript, as a web app writes it: options from the server, parsed with
// PublicKeyCredential.parseCreationOptionsFromJSON / parseRequestOptionsFromJSON (WebAuthn L3 §5.1.10,
// §5.1.11), navigator.credentials.create/get, and credential.toJSON() (§5.1.8) posted back.
// It reads navigator.credentials when a ceremony starts, never at load, so whatever provides WebAuthn
// may arrive before or after this script.
//
// Every function resolves to a plain object (never throws), for test drivers to read:
//   {ok: true, credential: toJSON(), seen: what the page saw, verified: the RP's record}
//   {ok: false, stage: "options" | "ceremony" | "verify" | "signal", name: DOMException name, message}
"use strict";
(function () {
  const rpId = "localhost";
  const rp = {};

  async function post(path, body) {
    const answer = await fetch(path, {
      method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body),
    });
    const json = await answer.json();
    if (!answer.ok) {
      const error = new Error(json.error || String(answer.status));
      error.name = "RelyingPartyRefused";
      throw error;
    }
    return json;
  }

  function refusal(stage, error) {
    return {
      ok: false, stage, name: error && error.name ? error.name : typeof error,
      message: String(error && error.message !== undefined ? error.message : error),
      isDOMException: typeof DOMException !== "undefined" && error instanceof DOMException,
    };
  }

  // getClientExtensionResults() as data: binary members become {arrayBuffer: length}.
  function describe(value) {
    if (value instanceof ArrayBuffer) return {arrayBuffer: value.byteLength};
    if (ArrayBuffer.isView(value)) return {view: value.byteLength};
    if (value && typeof value === "object") {
      const out = {};
      for (const key of Object.keys(value)) out[key] = describe(value[key]);
      return out;
    }
    return value;
  }

  // What the page sees of a credential besides toJSON(): the interfaces a browser gives.
  function inspect(credential) {
    const response = credential.response;
    const seen = {
      instanceOfPublicKeyCredential: typeof PublicKeyCredential !== "undefined" &&
        credential instanceof PublicKeyCredential,
      type: credential.type, id: credential.id,
      rawIdIsArrayBuffer: credential.rawId instanceof ArrayBuffer,
      authenticatorAttachment: credential.authenticatorAttachment,
      clientDataJSONIsArrayBuffer: response.clientDataJSON instanceof ArrayBuffer,
      clientExtensionResults: describe(credential.getClientExtensionResults()),
    };
    if (typeof response.getTransports === "function") {
      seen.responseInterface = typeof AuthenticatorAttestationResponse !== "undefined" &&
        response instanceof AuthenticatorAttestationResponse ? "AuthenticatorAttestationResponse" : "other";
      seen.transports = response.getTransports();
      seen.publicKeyAlgorithm = response.getPublicKeyAlgorithm();
      const key = response.getPublicKey();
      seen.publicKeyIsArrayBuffer = key === null ? null : key instanceof ArrayBuffer;
      seen.authenticatorDataIsArrayBuffer = response.getAuthenticatorData() instanceof ArrayBuffer;
      seen.attestationObjectIsArrayBuffer = response.attestationObject instanceof ArrayBuffer;
    } else {
      seen.responseInterface = typeof AuthenticatorAssertionResponse !== "undefined" &&
        response instanceof AuthenticatorAssertionResponse ? "AuthenticatorAssertionResponse" : "other";
      seen.signatureIsArrayBuffer = response.signature instanceof ArrayBuffer;
      seen.authenticatorDataIsArrayBuffer = response.authenticatorData instanceof ArrayBuffer;
      seen.userHandleIsArrayBuffer = response.userHandle === null ? null : response.userHandle instanceof ArrayBuffer;
    }
    return seen;
  }

  // The request's mediation and AbortSignal: params.abort "before" aborts first, "later" keeps the
  // controller for rp.abort(). rp.called resolves once navigator.credentials was called.
  let called = () => {};
  function request(publicKey, params, controller) {
    const options = {publicKey};
    if (params.mediation) options.mediation = params.mediation;
    if (controller) {
      if (params.abort === "before") controller.abort();
      options.signal = controller.signal;
    }
    return options;
  }

  async function ceremony(kind, params) {
    const create = kind === "register";
    const controller = params.abort ? new AbortController() : null;
    if (params.abort === "later") rp.controller = controller;
    const optionsBody = Object.assign({}, params);
    delete optionsBody.abort;
    let options;
    try {
      options = await post(create ? "/api/register/options" : "/api/login/options", optionsBody);
    } catch (error) {
      return refusal("options", error);
    }
    let credential;
    try {
      const publicKey = create ? PublicKeyCredential.parseCreationOptionsFromJSON(options)
        : PublicKeyCredential.parseRequestOptionsFromJSON(options);
      const pending = create ? navigator.credentials.create(request(publicKey, params, controller))
        : navigator.credentials.get(request(publicKey, params, controller));
      called();
      credential = await pending;
    } catch (error) {
      return refusal("ceremony", error);
    }
    const json = credential.toJSON();
    const seen = inspect(credential);
    try {
      const answer = await post(create ? "/api/register/verify" : "/api/login/verify", json);
      return {ok: true, credential: json, seen, verified: answer.verified};
    } catch (error) {
      return Object.assign(refusal("verify", error), {credential: json, seen});
    }
  }

  // register({username, algorithms?, attestation?, userVerification?, residentKey?, extensions?,
  //           mediation?, exclude?, abort?})
  rp.register = (params) => ceremony("register", params || {});
  // login({username? (an allow list), userVerification?, extensions?, mediation?, abort?})
  rp.login = (params) => ceremony("login", params || {});

  // A ceremony left running (conditional mediation, abort): start, then finish() resolves to its result.
  // rp.called resolves when the ceremony has called navigator.credentials (so an abort then
  // reaches a pending request).
  rp.start = (kind, params) => {
    rp.called = new Promise((resolve) => { called = () => resolve(true); });
    rp.pending = ceremony(kind, params || {});
    return true;
  };
  rp.finish = () => rp.pending;
  rp.abort = (reason) => {
    if (reason === undefined) rp.controller.abort();
    else rp.controller.abort(reason);
    return true;
  };

  async function signal(run) {
    try {
      await run();
      return {ok: true};
    } catch (error) {
      return refusal("signal", error);
    }
  }
  async function user(username) {
    return (await fetch("/api/users/" + encodeURIComponent(username))).json();
  }
  // The Signal API (WebAuthn L3 §5.1.10.x): what the RP knows, told to the authenticator.
  rp.signalUnknownCredential = (credentialId) =>
    signal(() => PublicKeyCredential.signalUnknownCredential({rpId, credentialId}));
  rp.signalAllAcceptedCredentials = (username) => signal(async () => {
    const known = await user(username);
    await PublicKeyCredential.signalAllAcceptedCredentials(
      {rpId, userId: known.userId, allAcceptedCredentialIds: known.credentialIds});
  });
  rp.signalCurrentUserDetails = (username, name, displayName) => signal(async () => {
    const known = await user(username);
    await PublicKeyCredential.signalCurrentUserDetails({rpId, userId: known.userId, name, displayName});
  });

  // What the client says it can do.
  rp.capabilities = async () => {
    if (typeof PublicKeyCredential === "undefined") return {defined: false};
    return {
      defined: true,
      credentialsDefined: typeof navigator.credentials !== "undefined",
      conditionalMediation: await PublicKeyCredential.isConditionalMediationAvailable(),
      userVerifyingPlatformAuthenticator: await PublicKeyCredential.isUserVerifyingPlatformAuthenticatorAvailable(),
      clientCapabilities: await PublicKeyCredential.getClientCapabilities(),
      parseCreationOptionsFromJSON: typeof PublicKeyCredential.parseCreationOptionsFromJSON,
      parseRequestOptionsFromJSON: typeof PublicKeyCredential.parseRequestOptionsFromJSON,
    };
  };

  function show(text) {
    const status = document.getElementById("status");
    if (status) status.textContent = text;
  }

  // WebAuthn may be provided after this page's scripts ran (a driver that evaluates after load).
  async function webAuthnReady(milliseconds) {
    for (let waited = 0; waited < milliseconds; waited += 50) {
      if (typeof PublicKeyCredential !== "undefined" && navigator.credentials &&
          typeof PublicKeyCredential.parseCreationOptionsFromJSON === "function") return true;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return false;
  }

  // ?auto=signup-login&username=NAME: register NAME, then log in with a discoverable credential;
  // the RP records both (GET /api/state: registrations, authentications, auto), the title becomes
  // "auto: done" or "auto: failed", and rp.autoDone resolves to the outcome. The query may also give
  // userVerification (for both ceremonies) and residentKey; with residentKey=discouraged the login
  // names the user (an allow list), as a key without discoverable credentials needs.
  async function auto(query) {
    const username = query.get("username") || "auto";
    const asked = {};
    if (query.get("userVerification")) asked.userVerification = query.get("userVerification");
    const discoverable = query.get("residentKey") !== "discouraged";
    document.title = "auto: running";
    if (!(await webAuthnReady(20000))) {
      show("no WebAuthn in this page");
      await post("/api/auto", {ok: false, error: "no WebAuthn"});
      document.title = "auto: failed";
      return {ok: false, error: "no WebAuthn"};
    }
    const residentKey = query.get("residentKey") ? {residentKey: query.get("residentKey")} : {};
    const registered = await rp.register(Object.assign({username}, asked, residentKey));
    const loggedIn = registered.ok ? await rp.login(Object.assign(discoverable ? {} : {username}, asked)) : null;
    const ok = registered.ok && loggedIn.ok && loggedIn.verified.username === username;
    const outcome = {ok, username, register: registered, login: loggedIn};
    await post("/api/auto", outcome);
    show(ok ? `signed up and logged in as ${username}` : JSON.stringify({registered, loggedIn}));
    document.title = ok ? "auto: done" : "auto: failed";
    return outcome;
  }

  // The form's buttons, where the page has the form (the strict page has only its status).
  function wire() {
    const name = () => document.getElementById("username").value;
    if (document.getElementById("login")) {
      document.getElementById("signup").onclick = async () =>
        show(JSON.stringify(await rp.register({username: name()}), null, 2));
      document.getElementById("signin").onclick = async () =>
        show(JSON.stringify(await rp.login(name() ? {username: name()} : {}), null, 2));
    }
    const query = new URLSearchParams(location.search);
    if (query.get("auto") === "signup-login") rp.autoDone = auto(query);
  }

  window.rp = rp;
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", wire);
  else wire();
})();
