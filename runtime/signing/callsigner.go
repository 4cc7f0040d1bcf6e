package signing

import (
	"bytes"
	"crypto"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// CallSignerOptions configure a CallSigner.
type CallSignerOptions struct {
	// Version is the AdCP version spoken with the seller (a generated
	// package's Spec().Version()): it gives the profile and its encoding.
	Version string
	// KeyID and Key are the agent's request-signing key, its JWK published
	// at the agent's jwks_uri (keys.GenerateKey; keys.ParsePrivateJWK reads a stored
	// one; any crypto.Signer, a KMS key included).
	KeyID string
	Key   crypto.Signer
	// Now is the clock; nil is time.Now.
	Now func() time.Time
	// Rand makes nonces; nil is crypto/rand.
	Rand io.Reader
}

// CallSigner signs a buyer's calls to one seller as the seller's
// request_signing capability asks (security.mdx "Quickstart: opt into
// request signing", step 4): only the operations and protocol methods it
// lists (supported_for, warn_for, required_for and their protocol_methods_
// twins), and any call registering a webhook authentication block, with
// content-digest as its covers_content_digest says ("either" covers it, as
// the spec recommends for spend-committing calls) and the encoding of the
// version spoken. Until Use gives it the capability it signs nothing.
// Transport is the http.RoundTripper that does it, under any HTTP client:
// runtime/mcpclient's and runtime/a2aclient's (MCP tools/call, A2A
// message/send with the skill's DataPart), or yours. runtime/buyer's
// WithRequestSigning reads the capability and calls Use. Safe for
// concurrent use.
type CallSigner struct {
	o  CallSignerOptions
	mu sync.RWMutex
	c  *Capability
	s  *Signer
}

// NewCallSigner checks the options and returns a CallSigner.
func NewCallSigner(o CallSignerOptions) (*CallSigner, error) {
	p, err := RequestProfile(o.Version)
	if err != nil {
		return nil, err
	}
	if _, err := NewSigner(SignerOptions{Profile: p, KeyID: o.KeyID, Key: o.Key}); err != nil {
		return nil, err
	}
	return &CallSigner{o: o}, nil
}

// Use installs the seller's capability (ParseCapability of its
// get_adcp_capabilities answer). A 3.2 seller advertising another
// covers_content_digest than "required" is signed for with it covered
// all the same: 3.2 has no other posture.
func (cs *CallSigner) Use(c Capability) error {
	p, err := RequestProfile(cs.o.Version)
	if err != nil {
		return err
	}
	if c.CoversContentDigest != "" && p.Digest() != DigestRequired {
		if p, err = p.WithDigest(c.CoversContentDigest); err != nil {
			return err
		}
	}
	s, err := NewSigner(SignerOptions{Profile: p, KeyID: cs.o.KeyID, Key: cs.o.Key, CoverDigest: true, Now: cs.o.Now, Rand: cs.o.Rand})
	if err != nil {
		return err
	}
	cs.mu.Lock()
	defer cs.mu.Unlock()
	cs.c, cs.s = &c, s
	return nil
}

// Ready reports whether Use has given the signer a capability.
func (cs *CallSigner) Ready() bool {
	cs.mu.RLock()
	defer cs.mu.RUnlock()
	return cs.c != nil
}

// signerFor returns the Signer for a request body, nil when the call is
// not one the seller asks to be signed.
func (cs *CallSigner) signerFor(body []byte) *Signer {
	cs.mu.RLock()
	c, s := cs.c, cs.s
	cs.mu.RUnlock()
	if c == nil || !c.Supported {
		return nil
	}
	if c.Lists(CallOf(body)) || CarriesWebhookAuthentication(body) {
		return s
	}
	return nil
}

// CallOf names the call a JSON-RPC request body makes over either AdCP
// transport: an MCP tools/call's params.name and an A2A message/send (or
// message/stream) DataPart's skill are operations; any other method is a
// protocol method (see InvocationFromJSONRPC).
func CallOf(body []byte) Invocation {
	c := InvocationFromJSONRPC(body)
	if c.Method != "message/send" && c.Method != "message/stream" {
		return c
	}
	v, _ := wire.ParseLenient(body)
	skill := ""
	v.Get("params").Get("message").Get("parts").Elems(func(p wire.Lenient) bool {
		d := p.Get("data")
		if (p.Get("kind").StringIs("data") || !p.Get("kind").Present()) && d.IsObject() {
			if s, ok := d.Get("skill").AsString(); ok && s != "" {
				skill = s
				return false
			}
		}
		return true
	})
	if skill == "" {
		return c
	}
	return Invocation{Operation: skill}
}

// Transport signs, under base (nil is http.DefaultTransport), the POSTs
// whose call the seller asks to be signed; every other request passes
// unsigned. The body is read once and sent as the bytes signed.
func (cs *CallSigner) Transport(base http.RoundTripper) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	return &callTransport{cs: cs, base: base}
}

type callTransport struct {
	cs   *CallSigner
	base http.RoundTripper
}

func (t *callTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method != http.MethodPost || r.Body == nil || r.Body == http.NoBody || !t.cs.Ready() {
		return t.base.RoundTrip(r)
	}
	body, err := io.ReadAll(r.Body)
	r.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("signing: reading the body to sign: %w", err)
	}
	r2 := r.Clone(r.Context())
	r2.Header = r.Header.Clone()
	r2.Body = io.NopCloser(bytes.NewReader(body))
	r2.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	r2.ContentLength = int64(len(body))
	if s := t.cs.signerFor(body); s != nil {
		if err := s.SignRequest(r2, body); err != nil {
			return nil, err
		}
	}
	return t.base.RoundTrip(r2)
}
