// The local tenant's login page script (served as /u/passkey.js; the page has no other script).
//
// It asks the tenant for a ceremony's options (POST /u/passkey/options), turns their base64url
// members into ArrayBuffers itself (WebAuthn L3 §5.1.10 JSON; parseCreationOptionsFromJSON is not
// relied on), calls navigator.credentials.create() or .get(), posts the credential's toJSON()
// (or the same encoding made by hand where toJSON is missing) to POST /u/passkey/verify, and
// follows the redirect it answers with. Conditional mediation runs on #identifier when the
// browser offers it; a button's modal ceremony aborts it first. #cancel posts to
// /u/passkey/cancel and follows the access_denied redirect it answers with. Errors go to #error.
// When the connection takes passwords, #password-login and #password-signup (and the form's
// submit with a password typed) post the identifier, #password and #captcha to
// /u/passkey/password and follow the redirect it answers with.
// On an authorization response page it does only that page's part: it submits a form_post form,
// or posts a web_message to the opener or parent, targeted at the page's data-origin only.
"use strict";

(() => {
  // An authorization response page (response_mode form_post or web_message): no login form.
  const responseForm = document.getElementById("authorization-response");
  if (responseForm) {
    responseForm.submit();
    return;
  }
  const webMessage = document.getElementById("web-message");
  if (webMessage) {
    const target = window.opener || (window.parent !== window ? window.parent : null);
    if (target) {
      const response = JSON.parse(webMessage.dataset.response);
      target.postMessage({ type: "authorization_response", response }, webMessage.dataset.origin);
    }
    return;
  }
  const form = document.getElementById("passkey-form");
  if (!form) {
    return;
  }
  const transaction = form.dataset.transaction;
  const identifier = document.getElementById("identifier");
  const loginButton = document.getElementById("login");
  const signupButton = document.getElementById("signup");
  const errorLine = document.getElementById("error");
  const passwordField = document.getElementById("password");
  const captchaField = document.getElementById("captcha");
  const passwordButtons = ["password-login", "password-signup"].map((id) => document.getElementById(id))
    .filter((button) => button);
  // The conditional request's AbortController, and its options request: a modal ceremony waits
  // for that request to settle, so the tenant sees the modal's options last (each options call
  // replaces the page's pending challenge).
  let conditional = null;
  let conditionalOptions = null;

  function showError(message) {
    errorLine.textContent = message;
  }

  function toBuffer(text) {
    const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
    const padded = base64 + "=".repeat((4 - (base64.length % 4)) % 4);
    const binary = atob(padded);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i += 1) {
      bytes[i] = binary.charCodeAt(i);
    }
    return bytes.buffer;
  }

  function toBase64URL(buffer) {
    const bytes = buffer instanceof ArrayBuffer ? new Uint8Array(buffer)
      : new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
    let binary = "";
    for (const byte of bytes) {
      binary += String.fromCharCode(byte);
    }
    return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  // Any ArrayBuffer or view inside a value (extension outputs), as base64url.
  function encodeBuffers(value) {
    if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) {
      return toBase64URL(value);
    }
    if (Array.isArray(value)) {
      return value.map(encodeBuffers);
    }
    if (value && typeof value === "object") {
      const result = {};
      for (const [key, member] of Object.entries(value)) {
        result[key] = encodeBuffers(member);
      }
      return result;
    }
    return value;
  }

  function descriptors(list) {
    return (list || []).map((descriptor) => ({ ...descriptor, id: toBuffer(descriptor.id) }));
  }

  function creationOptions(json) {
    const options = { ...json, challenge: toBuffer(json.challenge), user: { ...json.user, id: toBuffer(json.user.id) } };
    if (json.excludeCredentials) {
      options.excludeCredentials = descriptors(json.excludeCredentials);
    }
    return options;
  }

  function requestOptions(json) {
    const options = { ...json, challenge: toBuffer(json.challenge) };
    if (json.allowCredentials) {
      options.allowCredentials = descriptors(json.allowCredentials);
    }
    return options;
  }

  // PublicKeyCredential.toJSON() (WebAuthn L3 §5.1.8), or the same made by hand.
  function credentialJSON(credential) {
    if (typeof credential.toJSON === "function") {
      return credential.toJSON();
    }
    const response = credential.response;
    const json = {
      id: credential.id,
      rawId: toBase64URL(credential.rawId),
      type: credential.type,
      authenticatorAttachment: credential.authenticatorAttachment || undefined,
      clientExtensionResults: encodeBuffers(credential.getClientExtensionResults()),
      response: { clientDataJSON: toBase64URL(response.clientDataJSON) },
    };
    if (response.attestationObject) {
      json.response.attestationObject = toBase64URL(response.attestationObject);
      if (typeof response.getTransports === "function") {
        json.response.transports = response.getTransports();
      }
      if (typeof response.getAuthenticatorData === "function") {
        json.response.authenticatorData = toBase64URL(response.getAuthenticatorData());
      }
      if (typeof response.getPublicKeyAlgorithm === "function") {
        json.response.publicKeyAlgorithm = response.getPublicKeyAlgorithm();
      }
      if (typeof response.getPublicKey === "function") {
        const key = response.getPublicKey();
        if (key) {
          json.response.publicKey = toBase64URL(key);
        }
      }
    } else {
      json.response.authenticatorData = toBase64URL(response.authenticatorData);
      json.response.signature = toBase64URL(response.signature);
      if (response.userHandle) {
        json.response.userHandle = toBase64URL(response.userHandle);
      }
    }
    return json;
  }

  async function post(path, body) {
    const response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      credentials: "same-origin",
      body: JSON.stringify(body),
    });
    let json = {};
    try {
      json = await response.json();
    } catch (error) {
      json = {};
    }
    if (!response.ok) {
      throw new Error(json.error_description || json.error || `The tenant answered ${response.status}.`);
    }
    return json;
  }

  // One ceremony: options, the browser's create/get, verification, then the redirect.
  async function ceremony(mode, signal) {
    const body = { transaction, mode };
    if (mode === "signup") {
      body.identifier = identifier.value.trim();
    }
    const asked = post("/u/passkey/options", body);
    if (signal) {
      conditionalOptions = asked.catch(() => null);
    }
    const answer = await asked;
    if (signal && signal.aborted) {
      return;
    }
    let credential;
    if (answer.mode === "create") {
      credential = await navigator.credentials.create({ publicKey: creationOptions(answer.publicKey) });
    } else if (signal) {
      credential = await navigator.credentials.get({
        publicKey: requestOptions(answer.publicKey),
        mediation: "conditional",
        signal,
      });
    } else {
      credential = await navigator.credentials.get({ publicKey: requestOptions(answer.publicKey) });
    }
    const verified = await post("/u/passkey/verify", { transaction, credential: credentialJSON(credential) });
    location.assign(verified.redirect);
  }

  function describe(error) {
    if (error && error.name === "NotAllowedError") {
      return "The passkey request was cancelled or timed out.";
    }
    if (error && error.name === "InvalidStateError") {
      return "This authenticator already holds a passkey for this site.";
    }
    return (error && error.message) || String(error);
  }

  async function startConditional() {
    if (!window.PublicKeyCredential || typeof PublicKeyCredential.isConditionalMediationAvailable !== "function") {
      return;
    }
    let available = false;
    try {
      available = await PublicKeyCredential.isConditionalMediationAvailable();
    } catch (error) {
      available = false;
    }
    if (!available) {
      return;
    }
    const controller = new AbortController();
    conditional = controller;
    try {
      await ceremony("login", controller.signal);
    } catch (error) {
      if (!controller.signal.aborted && error.name !== "AbortError") {
        showError(describe(error));
      }
    }
  }

  function abortConditional() {
    if (conditional) {
      conditional.abort();
      conditional = null;
    }
  }

  async function modal(mode) {
    abortConditional();
    if (conditionalOptions) {
      await conditionalOptions;
      conditionalOptions = null;
    }
    showError("");
    if (!window.PublicKeyCredential) {
      showError("This browser does not support passkeys.");
      return;
    }
    if (mode === "signup" && !identifier.value.trim()) {
      // The label names what the connection takes: an email, or an email, phone number or username.
      const label = form.querySelector('label[for="identifier"]');
      showError("Enter your " + (label ? label.textContent.toLowerCase() : "email address") + " to sign up.");
      identifier.focus();
      return;
    }
    loginButton.disabled = true;
    signupButton.disabled = true;
    try {
      await ceremony(mode, null);
    } catch (error) {
      showError(describe(error));
      loginButton.disabled = false;
      signupButton.disabled = false;
      startConditional();
    }
  }

  // A password login or signup (POST /u/passkey/password), then the redirect.
  async function passwordCeremony(mode) {
    abortConditional();
    if (conditionalOptions) {
      await conditionalOptions;
      conditionalOptions = null;
    }
    showError("");
    const typed = identifier.value.trim();
    if (!typed || !passwordField.value) {
      showError("Enter your email address and your password.");
      (typed ? passwordField : identifier).focus();
      return;
    }
    const body = { transaction, mode, identifier: typed, password: passwordField.value };
    if (captchaField) {
      body.captcha = captchaField.value;
    }
    passwordButtons.forEach((button) => { button.disabled = true; });
    try {
      const verified = await post("/u/passkey/password", body);
      location.assign(verified.redirect);
    } catch (error) {
      showError(describe(error));
      passwordButtons.forEach((button) => { button.disabled = false; });
      startConditional();
    }
  }

  // Cancel: back to the application with error=access_denied (POST /u/passkey/cancel).
  async function cancel() {
    abortConditional();
    try {
      const answer = await post("/u/passkey/cancel", { transaction });
      location.assign(answer.redirect);
    } catch (error) {
      showError(describe(error));
    }
  }

  document.getElementById("cancel").addEventListener("click", cancel);
  loginButton.addEventListener("click", () => modal("login"));
  signupButton.addEventListener("click", () => modal("signup"));
  if (passwordField) {
    document.getElementById("password-login").addEventListener("click", () => passwordCeremony("login"));
    document.getElementById("password-signup").addEventListener("click", () => passwordCeremony("signup"));
  }
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const mode = form.dataset.screen === "signup" ? "signup" : "login";
    if (passwordField && passwordField.value) {
      passwordCeremony(mode);
    } else {
      modal(mode);
    }
  });
  // ext-passkey-autostart=true: the first screen's ceremony at once, for a browser no one clicks in.
  if (form.dataset.autostart === "true") {
    modal(form.dataset.screen === "signup" ? "signup" : "login");
  } else {
    startConditional();
  }
})();
