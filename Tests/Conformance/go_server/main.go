// Command go_server is a FIDO2 transport-binding server (FIDO "Server Requirements and Transport Binding Profile"
// §7) around duo-labs/webauthn as Debian packages it (golang-github-duo-labs-webauthn-dev, built with Debian's
// golang-go in GOPATH mode from /usr/share/gocode, no module download), unmodified, for `passkey conformance run`
// to check.
//
//	go_server [-port 0] [-rp-id localhost] [-origin ORIGIN] [-root PEM] [-verbose]
//
// prints {"url": "http://localhost:PORT"} once listening; the expected origin is http://localhost:PORT unless
// -origin says otherwise. Routes: POST /attestation/options, /attestation/result, /assertion/options,
// /assertion/result; every answer is JSON with "status" ("ok" or "failed") and "errorMessage", a refusal or any
// error (a panic included) a 4xx, never a 500.
//
// The verification is the library's (BeginRegistration/CreateCredential, BeginLogin/ValidateLogin and
// BeginDiscoverableLogin/ValidateDiscoverableLogin). What this wrapper adds is what the library leaves to its
// caller: the JSON of the options in base64url (the library's []byte members marshal as standard base64), refusing
// a credential ID already registered, refusing an assertion whose counter set the library's CloneWarning (WebAuthn
// L3 §7.2 step 22), and, with -root, checking an attestation statement's x5c chain against the PEM's certificates
// (this version of the library verifies statements but takes no trust anchors). Like binding.py, the session is a
// cookie an options answer sets (else, for a client without cookies, the latest options call of that kind): a
// result is checked against the user whose options the session asked for, and that user's one pending challenge
// is consumed by the result, whatever the verdict.
package main

import (
	"bytes"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sync"

	"github.com/duo-labs/webauthn/protocol"
	"github.com/duo-labs/webauthn/webauthn"
)

type user struct {
	id          []byte
	name        string
	displayName string
	credentials []webauthn.Credential
}

// ceremony is a registration or assertion in progress: the library's session data and the user (nil: a
// usernameless assertion).
type ceremony struct {
	kind    string
	account *user
	session *webauthn.SessionData
}

func (u *user) WebAuthnID() []byte                         { return u.id }
func (u *user) WebAuthnName() string                       { return u.name }
func (u *user) WebAuthnDisplayName() string                { return u.displayName }
func (u *user) WebAuthnIcon() string                       { return "" }
func (u *user) WebAuthnCredentials() []webauthn.Credential { return u.credentials }

type server struct {
	lock         sync.Mutex
	relyingParty *webauthn.WebAuthn
	roots        *x509.CertPool // nil without -root
	users        map[string]*user
	pending      map[string]ceremony // session cookie -> the ceremony its options began
	latest       map[string]string   // kind -> the cookie of the latest options call, for a client without cookies
}

const cookieName = "conformance-session"

// begin keeps a ceremony under a new session cookie, replacing the user's pending one of that kind (one pending
// challenge per user); it returns the cookie.
func (s *server) begin(kind string, account *user, session *webauthn.SessionData) (string, error) {
	for token, other := range s.pending {
		if other.kind == kind && other.account == account {
			delete(s.pending, token)
		}
	}
	random := make([]byte, 16)
	if _, err := rand.Read(random); err != nil {
		return "", err
	}
	token := b64url(random)
	s.pending[token] = ceremony{kind: kind, account: account, session: session}
	s.latest[kind] = token
	return token, nil
}

// take consumes the ceremony of the request's cookie, else of the latest options call, whatever the verdict.
func (s *server) take(kind, token string) (ceremony, error) {
	if token == "" {
		token = s.latest[kind]
	}
	found, ok := s.pending[token]
	delete(s.pending, token)
	if !ok || found.kind != kind {
		return ceremony{}, refusal("no " + kind + " in progress for this session: ask its options first")
	}
	return found, nil
}

// refusal is an error answered as 400 {"status":"failed","errorMessage":…}.
type refusal string

func (r refusal) Error() string { return string(r) }

func b64url(data []byte) string { return base64.RawURLEncoding.EncodeToString(data) }

// describe gives a protocol error's details, which its Error() leaves out.
func describe(err error) string {
	var e *protocol.Error
	if errors.As(err, &e) {
		return e.Error() + ": " + e.Details + " " + e.DevInfo
	}
	return err.Error()
}

// options is the library's options as binding JSON: every byte member in base64url, "status" and "errorMessage".
func options(value interface{}, challenge []byte, userID []byte, credentials []protocol.CredentialDescriptor, listName string) (map[string]interface{}, error) {
	text, err := json.Marshal(value)
	if err != nil {
		return nil, err
	}
	answer := map[string]interface{}{}
	if err := json.Unmarshal(text, &answer); err != nil {
		return nil, err
	}
	answer["challenge"] = b64url(challenge)
	if userID != nil {
		if entity, ok := answer["user"].(map[string]interface{}); ok {
			entity["id"] = b64url(userID)
		}
	}
	if len(credentials) > 0 {
		list := []map[string]interface{}{}
		for _, credential := range credentials {
			list = append(list, map[string]interface{}{"type": credential.Type, "id": b64url(credential.CredentialID)})
		}
		answer[listName] = list
	}
	answer["status"] = "ok"
	answer["errorMessage"] = ""
	return answer, nil
}

func descriptors(credentials []webauthn.Credential) []protocol.CredentialDescriptor {
	list := []protocol.CredentialDescriptor{}
	for _, credential := range credentials {
		list = append(list, protocol.CredentialDescriptor{Type: protocol.PublicKeyCredentialType, CredentialID: credential.ID})
	}
	return list
}

// call is the session cookie a request carried (token) and the one its answer sets (issued).
type call struct{ token, issued string }

func (s *server) attestationOptions(body []byte, c *call) (map[string]interface{}, error) {
	var request struct {
		Username               string                            `json:"username"`
		DisplayName            string                            `json:"displayName"`
		AuthenticatorSelection protocol.AuthenticatorSelection   `json:"authenticatorSelection"`
		Attestation            protocol.ConveyancePreference     `json:"attestation"`
		Extensions             protocol.AuthenticationExtensions `json:"extensions"`
	}
	if err := json.Unmarshal(body, &request); err != nil {
		return nil, err
	}
	if request.Username == "" {
		return nil, refusal("username is missing")
	}
	if request.Attestation == "" {
		request.Attestation = protocol.PreferNoAttestation
	}
	account, ok := s.users[request.Username]
	if !ok {
		account = &user{id: make([]byte, 16), name: request.Username, displayName: request.DisplayName}
		if account.displayName == "" {
			account.displayName = request.Username
		}
		if _, err := rand.Read(account.id); err != nil {
			return nil, err
		}
		s.users[request.Username] = account
	}
	exclusions := descriptors(account.credentials)
	creation, session, err := s.relyingParty.BeginRegistration(account,
		webauthn.WithAuthenticatorSelection(request.AuthenticatorSelection),
		webauthn.WithConveyancePreference(request.Attestation),
		webauthn.WithExclusions(exclusions),
		webauthn.WithExtensions(request.Extensions),
	)
	if err != nil {
		return nil, err
	}
	if c.issued, err = s.begin("registration", account, session); err != nil {
		return nil, err
	}
	return options(creation.Response, creation.Response.Challenge, account.id, exclusions, "excludeCredentials")
}

func (s *server) attestationResult(body []byte, c *call) (map[string]interface{}, error) {
	pending, err := s.take("registration", c.token)
	if err != nil {
		return nil, err
	}
	account, session := pending.account, *pending.session
	parsed, err := protocol.ParseCredentialCreationResponseBody(bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	credential, err := s.relyingParty.CreateCredential(account, session, parsed)
	if err != nil {
		return nil, err
	}
	if err := s.trusted(parsed.Response.AttestationObject.AttStatement); err != nil {
		return nil, err
	}
	for _, other := range s.users {
		for _, existing := range other.credentials {
			if bytes.Equal(existing.ID, credential.ID) {
				return nil, refusal("a credential with this ID is already registered")
			}
		}
	}
	account.credentials = append(account.credentials, *credential)
	return map[string]interface{}{"status": "ok", "errorMessage": ""}, nil
}

// trusted checks an attestation statement's x5c chain against -root (nothing without -root or x5c).
func (s *server) trusted(statement map[string]interface{}) error {
	chain, ok := statement["x5c"].([]interface{})
	if s.roots == nil || !ok || len(chain) == 0 {
		return nil
	}
	certificates := []*x509.Certificate{}
	for _, item := range chain {
		der, ok := item.([]byte)
		if !ok {
			return refusal("x5c holds something other than a certificate")
		}
		certificate, err := x509.ParseCertificate(der)
		if err != nil {
			return err
		}
		certificates = append(certificates, certificate)
	}
	intermediates := x509.NewCertPool()
	for _, certificate := range certificates[1:] {
		intermediates.AddCert(certificate)
	}
	_, err := certificates[0].Verify(x509.VerifyOptions{
		Roots: s.roots, Intermediates: intermediates, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageAny},
	})
	if err != nil {
		return refusal("attestation chain not trusted: " + err.Error())
	}
	return nil
}

func (s *server) assertionOptions(body []byte, c *call) (map[string]interface{}, error) {
	var request struct {
		Username         string                               `json:"username"`
		UserVerification protocol.UserVerificationRequirement `json:"userVerification"`
		Extensions       protocol.AuthenticationExtensions    `json:"extensions"`
	}
	if err := json.Unmarshal(body, &request); err != nil {
		return nil, err
	}
	settings := []webauthn.LoginOption{webauthn.WithUserVerification(request.UserVerification)}
	if request.Extensions != nil {
		settings = append(settings, webauthn.WithAssertionExtensions(request.Extensions))
	}
	if request.Username == "" {
		assertion, session, err := s.relyingParty.BeginDiscoverableLogin(settings...)
		if err != nil {
			return nil, err
		}
		if c.issued, err = s.begin("assertion", nil, session); err != nil {
			return nil, err
		}
		return options(assertion.Response, assertion.Response.Challenge, nil, nil, "allowCredentials")
	}
	account, ok := s.users[request.Username]
	if !ok {
		return nil, refusal(fmt.Sprintf("unknown user %q", request.Username))
	}
	assertion, session, err := s.relyingParty.BeginLogin(account, settings...)
	if err != nil {
		return nil, err
	}
	if c.issued, err = s.begin("assertion", account, session); err != nil {
		return nil, err
	}
	return options(assertion.Response, assertion.Response.Challenge, nil, descriptors(account.credentials), "allowCredentials")
}

func (s *server) assertionResult(body []byte, c *call) (map[string]interface{}, error) {
	pending, err := s.take("assertion", c.token)
	if err != nil {
		return nil, err
	}
	account, session := pending.account, pending.session
	parsed, err := protocol.ParseCredentialRequestResponseBody(bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	var credential *webauthn.Credential
	if account == nil {
		credential, err = s.relyingParty.ValidateDiscoverableLogin(func(rawID, userHandle []byte) (webauthn.User, error) {
			for _, candidate := range s.users {
				if bytes.Equal(candidate.id, userHandle) {
					account = candidate
					return candidate, nil
				}
			}
			return nil, refusal("no user with this userHandle")
		}, *session, parsed)
	} else {
		credential, err = s.relyingParty.ValidateLogin(account, *session, parsed)
	}
	if err != nil {
		return nil, err
	}
	if credential.Authenticator.CloneWarning {
		return nil, refusal("signature counter did not grow: CloneWarning")
	}
	for index := range account.credentials {
		if bytes.Equal(account.credentials[index].ID, credential.ID) {
			account.credentials[index].Authenticator.SignCount = credential.Authenticator.SignCount
		}
	}
	return map[string]interface{}{"status": "ok", "errorMessage": ""}, nil
}

func (s *server) route(handler func([]byte, *call) (map[string]interface{}, error), verbose bool) http.HandlerFunc {
	return func(writer http.ResponseWriter, request *http.Request) {
		answer := func(status int, payload map[string]interface{}) {
			text, _ := json.Marshal(payload)
			writer.Header().Set("Content-Type", "application/json")
			writer.WriteHeader(status)
			writer.Write(text)
		}
		defer func() {
			if problem := recover(); problem != nil {
				answer(400, map[string]interface{}{"status": "failed", "errorMessage": fmt.Sprintf("panic: %v", problem)})
			}
		}()
		if request.Method != http.MethodPost {
			answer(404, map[string]interface{}{"status": "failed", "errorMessage": "POST only"})
			return
		}
		body, err := io.ReadAll(request.Body)
		if err == nil {
			s.lock.Lock()
			defer s.lock.Unlock() // also when the library panics, or every later request would wait forever
			var result map[string]interface{}
			c := &call{}
			if cookie, err := request.Cookie(cookieName); err == nil {
				c.token = cookie.Value
			}
			result, err = handler(body, c)
			if c.issued != "" {
				http.SetCookie(writer, &http.Cookie{Name: cookieName, Value: c.issued, Path: "/", HttpOnly: true})
			}
			if err == nil {
				answer(200, result)
				return
			}
		}
		if verbose {
			fmt.Fprintln(os.Stderr, request.URL.Path, describe(err))
		}
		answer(400, map[string]interface{}{"status": "failed", "errorMessage": describe(err)})
	}
}

func main() {
	host := flag.String("host", "127.0.0.1", "the address to listen on")
	port := flag.Int("port", 0, "the port (0: any free one)")
	rpID := flag.String("rp-id", "localhost", "the RP ID")
	origin := flag.String("origin", "", "the expected origin (default: http://localhost:PORT)")
	root := flag.String("root", "", "a PEM file of attestation roots to trust")
	verbose := flag.Bool("verbose", false, "log refusals to stderr")
	flag.Parse()

	listener, err := net.Listen("tcp", net.JoinHostPort(*host, fmt.Sprint(*port)))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bound := listener.Addr().(*net.TCPAddr).Port
	if *origin == "" {
		*origin = fmt.Sprintf("http://localhost:%d", bound)
	}
	relyingParty, err := webauthn.New(&webauthn.Config{RPDisplayName: "duo-labs/webauthn conformance peer", RPID: *rpID, RPOrigin: *origin})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	s := &server{relyingParty: relyingParty, users: map[string]*user{}, pending: map[string]ceremony{}, latest: map[string]string{}}
	if *root != "" {
		text, err := os.ReadFile(*root)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		s.roots = x509.NewCertPool()
		if !s.roots.AppendCertsFromPEM(text) {
			fmt.Fprintln(os.Stderr, "no certificate in", *root)
			os.Exit(1)
		}
	}
	mux := http.NewServeMux()
	mux.Handle("/attestation/options", s.route(s.attestationOptions, *verbose))
	mux.Handle("/attestation/result", s.route(s.attestationResult, *verbose))
	mux.Handle("/assertion/options", s.route(s.assertionOptions, *verbose))
	mux.Handle("/assertion/result", s.route(s.assertionResult, *verbose))
	mux.HandleFunc("/", func(writer http.ResponseWriter, request *http.Request) {
		writer.Header().Set("Content-Type", "application/json")
		writer.WriteHeader(404)
		fmt.Fprintf(writer, `{"status":"failed","errorMessage":"no route %s"}`, request.URL.Path)
	})
	fmt.Printf("{\"url\": \"http://localhost:%d\"}\n", bound)
	http.Serve(listener, mux)
}
