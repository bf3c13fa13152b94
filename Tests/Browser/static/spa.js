// A single-page app written the way auth0-spa-js works, without it (its requests, not its code):
// loginWithRedirect (PKCE S256, state, nonce, response_mode=query), handleRedirectCallback (the
// code exchanged by fetch from the page's origin, form-encoded with an Auth0-Client header, so
// the browser sends a CORS preflight first), /userinfo by fetch with a Bearer token, silent
// renewal through a hidden iframe with prompt=none&response_mode=web_message (auth0-spa-js's
// runIframe: only a message from the tenant's origin whose type is authorization_response counts),
// and refresh-token rotation by fetch. Each function answers a plain object for the test to read.
// Its configuration (tenant origin, client ID, redirect URI) is /config.json of the app's server.
"use strict";

window.spa = (() => {
  const configured = fetch("/config.json").then((answer) => answer.json());
  const auth0Client = btoa(JSON.stringify({ name: "softpasskey-test-spa", version: "1.0.0" }));
  // Every message this window receives, for the refusal tests: none may carry a response.
  const messages = [];
  window.addEventListener("message", (event) => messages.push({ origin: event.origin, data: event.data }));

  function base64url(bytes) {
    return btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\+/g, "-").replace(/\//g, "_")
      .replace(/=+$/, "");
  }

  function random() {
    return base64url(crypto.getRandomValues(new Uint8Array(32)));
  }

  // An authorization request: its URL, and the verifier, state and redirect URI to check it with.
  async function authorizeRequest(parameters) {
    const config = await configured;
    const verifier = random();
    const challenge = base64url(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
    const query = new URLSearchParams({
      client_id: config.client_id, response_type: "code", redirect_uri: config.redirect_uri,
      scope: "openid profile email offline_access", state: random(), nonce: random(),
      code_challenge: challenge, code_challenge_method: "S256", auth0Client, ...parameters,
    });
    return {
      url: `${config.tenant}/authorize?${query}`, verifier, state: query.get("state"),
      redirectURI: query.get("redirect_uri"),
    };
  }

  // POST /oauth/token from this origin: {status, body} or {blocked} when the browser hides the answer.
  async function token(parameters) {
    const config = await configured;
    return call(`${config.tenant}/oauth/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Auth0-Client": auth0Client },
      body: new URLSearchParams({ client_id: config.client_id, ...parameters }),
    });
  }

  async function call(url, init) {
    try {
      const answer = await fetch(url, init);
      const text = await answer.text();
      let body = text;
      try {
        body = JSON.parse(text);
      } catch (error) {
        // not JSON: keep the text
      }
      return { status: answer.status, body };
    } catch (error) {
      return { blocked: String(error) };
    }
  }

  // loginWithRedirect: keeps the transaction in sessionStorage, then leaves for the tenant.
  async function login(parameters = {}) {
    const request = await authorizeRequest(parameters);
    sessionStorage.setItem("spa.transaction", JSON.stringify(request));
    setTimeout(() => location.assign(request.url), 0); // answer the test first
    return request.url;
  }

  // handleRedirectCallback: the state checked, the code exchanged.
  async function handleRedirectCallback() {
    const query = new URLSearchParams(location.search);
    const transaction = JSON.parse(sessionStorage.getItem("spa.transaction") || "null");
    sessionStorage.removeItem("spa.transaction");
    if (!transaction || query.get("state") !== transaction.state) {
      return { error: "state mismatch" };
    }
    if (query.get("error")) {
      return { error: query.get("error"), description: query.get("error_description") };
    }
    return token({
      grant_type: "authorization_code", code: query.get("code"), code_verifier: transaction.verifier,
      redirect_uri: transaction.redirectURI,
    });
  }

  async function userinfo(accessToken) {
    const config = await configured;
    return call(`${config.tenant}/userinfo`, { headers: { Authorization: `Bearer ${accessToken}` } });
  }

  // auth0-spa-js's runIframe: a hidden iframe, the first authorization_response message from
  // eventOrigin, or {timeout: true}.
  function runIframe(url, eventOrigin, seconds) {
    return new Promise((resolve) => {
      const iframe = document.createElement("iframe");
      iframe.setAttribute("width", "0");
      iframe.setAttribute("height", "0");
      iframe.style.display = "none";
      let timer = null;
      const listener = (event) => {
        if (event.origin !== eventOrigin || !event.data || event.data.type !== "authorization_response") {
          return;
        }
        done({ response: event.data.response });
      };
      function done(value) {
        clearTimeout(timer);
        window.removeEventListener("message", listener);
        iframe.remove();
        resolve(value);
      }
      timer = setTimeout(() => done({ timeout: true }), seconds * 1000);
      window.addEventListener("message", listener);
      document.body.appendChild(iframe);
      iframe.src = url;
    });
  }

  // getTokenSilently without refresh tokens: prompt=none&response_mode=web_message in the iframe,
  // then the code exchanged. `parameters` override the request's (a test's other redirect_uri).
  async function silent(parameters = {}, seconds = 10) {
    const config = await configured;
    const request = await authorizeRequest({ prompt: "none", response_mode: "web_message", ...parameters });
    const answer = await runIframe(request.url, config.tenant, seconds);
    if (!answer.response) {
      return answer;
    }
    if (answer.response.state !== request.state) {
      return { error: "state mismatch" };
    }
    if (answer.response.error) {
      return { error: answer.response.error, description: answer.response.error_description };
    }
    const tokens = await token({
      grant_type: "authorization_code", code: answer.response.code, code_verifier: request.verifier,
      redirect_uri: request.redirectURI,
    });
    return { response: answer.response, tokens };
  }

  function refresh(refreshToken) {
    return token({ grant_type: "refresh_token", refresh_token: refreshToken });
  }

  return { configured, login, handleRedirectCallback, userinfo, silent, refresh, call, messages };
})();
