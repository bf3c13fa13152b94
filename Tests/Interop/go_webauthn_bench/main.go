// Command go_webauthn_bench is the Go verifier `passkey-bench --compare-verifiers` measures
// beside SoftPasskey's relying party: duo-labs/webauthn as Debian packages it
// (golang-github-duo-labs-webauthn-dev, built with Debian's golang-go in GOPATH mode from
// /usr/share/gocode, no module download).
//
//	go_webauthn_bench check FIXTURE          verifies once: exit 0, or 1 with the reason
//	go_webauthn_bench rate FIXTURE SECONDS   prints the verifications per second
//
// FIXTURE is the JSON file the bench writes: `response` (an AuthenticationResponseJSON),
// `challenge`, `credentialPublicKey` (COSE) and `userHandle` in base64url, `rpId`, `origin` and
// `signCount`. Each operation is what the library's FinishLogin does with a request body:
// protocol.ParseCredentialRequestResponseBody on the response's JSON bytes, then
// WebAuthn.ValidateLogin for the user who owns the credential, which checks the credential and
// user handle, the client data (type, challenge, origin), the RP ID hash, the flags and the
// signature with the COSE key, and updates the counter.
package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/duo-labs/webauthn/protocol"
	"github.com/duo-labs/webauthn/webauthn"
)

type fixture struct {
	Response            json.RawMessage `json:"response"`
	Challenge           string          `json:"challenge"`
	CredentialPublicKey string          `json:"credentialPublicKey"`
	UserHandle          string          `json:"userHandle"`
	RPID                string          `json:"rpId"`
	Origin              string          `json:"origin"`
	SignCount           uint32          `json:"signCount"`
}

// user is the relying party's record of the credential's owner.
type user struct {
	id          []byte
	credentials []webauthn.Credential
}

func (u *user) WebAuthnID() []byte                         { return u.id }
func (u *user) WebAuthnName() string                       { return "bench" }
func (u *user) WebAuthnDisplayName() string                { return "Bench" }
func (u *user) WebAuthnIcon() string                       { return "" }
func (u *user) WebAuthnCredentials() []webauthn.Credential { return u.credentials }

// verifier returns one verification of the fixture's assertion.
func verifier(path string) (func() error, error) {
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var f fixture
	if err := json.Unmarshal(text, &f); err != nil {
		return nil, err
	}
	publicKey, err := base64.RawURLEncoding.DecodeString(f.CredentialPublicKey)
	if err != nil {
		return nil, err
	}
	userID, err := base64.RawURLEncoding.DecodeString(f.UserHandle)
	if err != nil {
		return nil, err
	}
	var response struct {
		RawID string `json:"rawId"`
	}
	if err := json.Unmarshal(f.Response, &response); err != nil {
		return nil, err
	}
	credentialID, err := base64.RawURLEncoding.DecodeString(response.RawID)
	if err != nil {
		return nil, err
	}
	relyingParty, err := webauthn.New(&webauthn.Config{RPDisplayName: "Bench", RPID: f.RPID, RPOrigin: f.Origin})
	if err != nil {
		return nil, err
	}
	owner := &user{id: userID, credentials: []webauthn.Credential{{
		ID: credentialID, PublicKey: publicKey, Authenticator: webauthn.Authenticator{SignCount: f.SignCount},
	}}}
	session := webauthn.SessionData{Challenge: f.Challenge, UserID: userID}
	body := []byte(f.Response)
	return func() error {
		parsed, err := protocol.ParseCredentialRequestResponseBody(bytes.NewReader(body))
		if err != nil {
			return err
		}
		_, err = relyingParty.ValidateLogin(owner, session, parsed)
		return err
	}, nil
}

func main() {
	arguments := os.Args[1:]
	if !(len(arguments) == 2 && arguments[0] == "check") && !(len(arguments) == 3 && arguments[0] == "rate") {
		fmt.Fprintln(os.Stderr, "usage: go_webauthn_bench check FIXTURE | rate FIXTURE SECONDS")
		os.Exit(2)
	}
	verify, err := verifier(arguments[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "fixture:", err)
		os.Exit(2)
	}
	if arguments[0] == "check" {
		if err := verify(); err != nil {
			fmt.Fprintln(os.Stderr, "rejected:", describe(err))
			os.Exit(1)
		}
		fmt.Println("accepted")
		return
	}
	seconds, err := strconv.ParseFloat(arguments[2], 64)
	if err != nil || seconds <= 0 {
		fmt.Fprintln(os.Stderr, "SECONDS must be a positive number")
		os.Exit(2)
	}
	for i := 0; i < 3; i++ {
		if err := verify(); err != nil {
			fmt.Fprintln(os.Stderr, "rejected:", describe(err))
			os.Exit(1)
		}
	}
	budget := time.Duration(seconds * float64(time.Second))
	count := 0
	start := time.Now()
	for count == 0 || time.Since(start) < budget {
		if err := verify(); err != nil {
			fmt.Fprintln(os.Stderr, "rejected:", describe(err))
			os.Exit(1)
		}
		count++
	}
	fmt.Printf("%.1f\n", float64(count)/time.Since(start).Seconds())
}

// describe gives a protocol error's details, which its Error() leaves out.
func describe(err error) string {
	if e, ok := err.(*protocol.Error); ok {
		return e.Error() + ": " + e.Details + " " + e.DevInfo
	}
	return err.Error()
}
