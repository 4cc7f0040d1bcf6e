package signing

import (
	"bytes"
	"crypto"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/adcpgen/adcpgen/runtime/signing/keys"
)

// SignerOptions configure a Signer.
type SignerOptions struct {
	// Profile is the profile of the endpoints signed for (RequestProfile
	// with the version and, for a 3.0/3.1 request endpoint, its
	// covers_content_digest; WebhookProfile).
	Profile Profile
	// KeyID is the kid the key is published under.
	KeyID string
	// Key signs: an ed25519.PrivateKey, an *ecdsa.PrivateKey on P-256, or
	// any crypto.Signer whose public key is one of those (a KMS or HSM
	// handle; an ECDSA signer answering ASN.1 DER is converted to r‖s).
	Key crypto.Signer
	// Window is expires − created; 0 is the maximum, 300 s.
	Window time.Duration
	// CoverDigest also covers content-digest on a 3.0/3.1 endpoint whose
	// policy is "either" (its spend-committing operations should); other
	// profiles decide for themselves.
	CoverDigest bool
	// Now is the clock; nil is time.Now.
	Now func() time.Time
	// Rand makes nonces (and ECDSA signatures); nil is crypto/rand.
	Rand io.Reader
}

// Signer signs requests or webhooks under one key and profile. It is safe
// for concurrent use.
type Signer struct {
	o   SignerOptions
	alg keys.Algorithm
}

// NewSigner checks the options and returns a Signer.
func NewSigner(o SignerOptions) (*Signer, error) {
	if o.Profile.isZero() {
		return nil, errors.New("signing: SignerOptions.Profile is not set (RequestProfile or WebhookProfile)")
	}
	if o.KeyID == "" || o.Key == nil {
		return nil, errors.New("signing: SignerOptions needs KeyID and Key")
	}
	alg, err := keys.AlgorithmOf(o.Key.Public())
	if err != nil {
		return nil, err
	}
	if o.Window <= 0 || o.Window > maxWindow {
		o.Window = maxWindow
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Rand == nil {
		o.Rand = rand.Reader
	}
	return &Signer{o: o, alg: alg}, nil
}

// Algorithm is the alg the signer's key signs with.
func (s *Signer) Algorithm() keys.Algorithm { return s.alg }

// Profile is the profile the signer signs for.
func (s *Signer) Profile() Profile { return s.o.Profile }

// KeyID is the kid the signer's key is published under.
func (s *Signer) KeyID() string { return s.o.KeyID }

// coversDigest says whether a signature over a message with a body covers
// content-digest.
func (s *Signer) coversDigest(body bool) bool {
	p := s.o.Profile
	switch {
	case p.kind == Webhook:
		return true
	case !body || p.digest == DigestForbidden:
		return false
	}
	return p.digest == DigestRequired || s.o.CoverDigest
}

// Sign signs m, setting Signature-Input and Signature (replacing any there
// were: a relay re-signs, it does not append) and, when the profile covers
// it, Content-Digest over m.Body. A message with a body must carry one
// Content-Type.
func (s *Signer) Sign(m *Message) error {
	p := s.o.Profile
	target, authority, err := CanonicalURL(m.URL)
	if err != nil {
		return fmt.Errorf("signing: refusing to sign %s: %w", m.URL, err)
	}
	if m.Header == nil {
		m.Header = http.Header{}
	}
	body := len(m.Body) > 0
	components := []string{compMethod, compTargetURI, compAuthority}
	values := []string{strings.ToUpper(m.Method), target, authority}
	if body || p.kind == Webhook {
		ct := headerValues(m.Header, "Content-Type")
		if len(ct) != 1 || hasTopLevelComma(ct[0]) {
			return errors.New("signing: a signed message with a body needs exactly one Content-Type value")
		}
		components = append(components, compType)
		values = append(values, strings.TrimSpace(ct[0]))
	}
	m.Header.Del("Signature-Input")
	m.Header.Del("Signature")
	if s.coversDigest(body) {
		d := ContentDigest(m.Body, p.digestEncoding())
		m.Header.Set("Content-Digest", d)
		components = append(components, compDigest)
		values = append(values, d)
	}
	var nb [16]byte
	if _, err := io.ReadFull(s.o.Rand, nb[:]); err != nil {
		return fmt.Errorf("signing: nonce: %w", err)
	}
	now := s.o.Now().Unix()
	params := sfItem{kind: sfInnerList, params: []sfParam{
		{"created", sfItem{kind: sfInteger, i: now}},
		{"expires", sfItem{kind: sfInteger, i: now + int64(s.o.Window/time.Second)}},
		{"nonce", sfItem{kind: sfString, text: base64.RawURLEncoding.EncodeToString(nb[:])}},
		{"keyid", sfItem{kind: sfString, text: s.o.KeyID}},
		{"alg", sfItem{kind: sfString, text: string(s.alg)}},
		{"tag", sfItem{kind: sfString, text: p.Tag()}},
	}}
	for _, c := range components {
		params.list = append(params.list, sfItem{kind: sfString, text: c})
	}
	paramsText := appendItem(nil, params)
	base := appendBase(make([]byte, 0, 512), components, values, paramsText)
	sig, err := s.alg.Sign(s.o.Key, s.o.Rand, base)
	if err != nil {
		return fmt.Errorf("signing: %w", err)
	}
	m.Header.Set("Signature-Input", defaultLabel+"="+string(paramsText))
	m.Header.Set("Signature", defaultLabel+"=:"+encodeBinary(sig, p.encoding)+":")
	return nil
}

// SignRequest signs an outgoing request whose body is body (the exact
// bytes it will send): the target URI and authority are those net/http
// writes (URL scheme, Host or URL host, the request URI).
func (s *Signer) SignRequest(r *http.Request, body []byte) error {
	if r.Header == nil {
		r.Header = http.Header{}
	}
	return s.Sign(outgoingMessage(r, body))
}

// Transport signs each request it sends for which sign reports true (nil
// signs every request), then hands it to base (nil is
// http.DefaultTransport). The body is read once into memory and sent as
// the bytes signed.
func (s *Signer) Transport(base http.RoundTripper, sign func(*http.Request) bool) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	return &transport{s: s, base: base, sign: sign}
}

type transport struct {
	s    *Signer
	base http.RoundTripper
	sign func(*http.Request) bool
}

func (t *transport) RoundTrip(r *http.Request) (*http.Response, error) {
	if t.sign != nil && !t.sign(r) {
		return t.base.RoundTrip(r)
	}
	var body []byte
	if r.Body != nil && r.Body != http.NoBody {
		b, err := io.ReadAll(r.Body)
		r.Body.Close()
		if err != nil {
			return nil, fmt.Errorf("signing: reading the body to sign: %w", err)
		}
		body = b
	}
	r2 := r.Clone(r.Context())
	r2.Header = r.Header.Clone()
	if body != nil {
		r2.Body = io.NopCloser(bytes.NewReader(body))
		r2.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
		r2.ContentLength = int64(len(body))
	}
	if err := t.s.SignRequest(r2, body); err != nil {
		return nil, err
	}
	return t.base.RoundTrip(r2)
}
