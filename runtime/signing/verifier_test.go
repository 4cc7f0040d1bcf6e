package signing_test

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/runtime/signing/keys"
	"github.com/adcpgen/adcpgen/runtime/signing/replay"
	"github.com/adcpgen/adcpgen/runtime/signing/revocation"

	"github.com/adcpgen/adcpgen/runtime/signing"
)

var testNow = time.Unix(1776520800, 0)

func clock() time.Time { return testNow }

// every version whose profiles differ, and the ones issue 20 names.
var profileVersions = []string{"3.0.26", "3.1.19", "3.2.0-beta.3", "3.2.0-beta.5"}

type fixture struct {
	key    crypto.Signer
	jwk    *keys.JWK
	signer *signing.Signer
	v      *signing.Verifier
	keys   *countingKeys
	replay *replay.Local
}

// countingKeys is a keys.Static that counts lookups, to show a refusal came
// before the key was looked at.
type countingKeys struct {
	keys.Static
	n atomic.Int32
}

func (c *countingKeys) LookupKey(ctx context.Context, kid string) (*keys.Key, error) {
	c.n.Add(1)
	return c.Static.LookupKey(ctx, kid)
}

func newFixture(t testing.TB, p signing.Profile, alg keys.Algorithm, vo func(*signing.VerifierOptions)) *fixture {
	t.Helper()
	key, jwk, err := keys.GenerateKey(alg, "kid-1", nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.Kind() == signing.Webhook && p.Version() == "3.0.26" {
		jwk.AdCPUse = keys.UseWebhookSigning
	}
	f := &fixture{key: key, jwk: jwk, replay: replay.NewLocal(0)}
	f.keys = &countingKeys{Static: keys.Static{Set: &keys.JWKS{Keys: []*keys.JWK{jwk}}, AgentURL: "https://buyer.example/mcp"}}
	if f.signer, err = signing.NewSigner(signing.SignerOptions{Profile: p, KeyID: "kid-1", Key: key, Now: clock}); err != nil {
		t.Fatal(err)
	}
	o := signing.VerifierOptions{Profile: p, Keys: f.keys, Replay: f.replay, Now: clock}
	if vo != nil {
		vo(&o)
	}
	if f.v, err = signing.NewVerifier(o); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *fixture) signed(t testing.TB, body string) *signing.Message {
	t.Helper()
	m := &signing.Message{Method: "POST", URL: "https://seller.example.com/mcp", Header: http.Header{}, Body: []byte(body)}
	m.Header.Set("Content-Type", "application/json")
	if err := f.signer.Sign(m); err != nil {
		t.Fatal(err)
	}
	return m
}

func requestProfile(t testing.TB, v string) signing.Profile {
	p, err := signing.RequestProfile(v)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func webhookProfile(t testing.TB, v string) signing.Profile {
	p, err := signing.WebhookProfile(v)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRoundTrip signs and verifies under every version's request and
// webhook profile with both algorithms, and checks each profile's wire
// encoding.
func TestRoundTrip(t *testing.T) {
	for _, v := range profileVersions {
		for _, kind := range []signing.ProfileKind{signing.Request, signing.Webhook} {
			for _, alg := range []keys.Algorithm{keys.Ed25519, keys.ECDSAP256} {
				t.Run(v+"/"+kind.String()+"/"+string(alg), func(t *testing.T) {
					p := requestProfile(t, v)
					if kind == signing.Webhook {
						p = webhookProfile(t, v)
					}
					f := newFixture(t, p, alg, nil)
					m := f.signed(t, `{"plan_id":"p1"}`)
					got, err := f.v.Verify(context.Background(), m)
					if err != nil {
						t.Fatal(err)
					}
					if got.KeyID != "kid-1" || got.AgentURL != "https://buyer.example/mcp" || got.Algorithm != alg || got.Label != "sig1" {
						t.Fatalf("signer %+v", got)
					}
					sig := strings.TrimSuffix(strings.TrimPrefix(m.Header.Get("Signature"), "sig1=:"), ":")
					structured := kind == signing.Request && strings.HasPrefix(v, "3.2")
					if structured && (strings.ContainsAny(sig, "-_") || len(sig)%4 != 0) || !structured && strings.ContainsAny(sig, "+/=") {
						t.Errorf("Signature %q is not in the %s encoding", sig, p.Encoding())
					}
					covers := strings.Contains(m.Header.Get("Signature-Input"), `"content-digest"`)
					if want := kind == signing.Webhook || structured; covers != want {
						t.Errorf("content-digest covered: %v, want %v", covers, want)
					}
				})
			}
		}
	}
}

// derSigner is a KMS-like crypto.Signer: it answers ECDSA in DER, or in
// r‖s when p1363 is set, and never exposes the private key.
type derSigner struct {
	k     *ecdsa.PrivateKey
	p1363 bool
}

func (d derSigner) Public() crypto.PublicKey { return d.k.Public() }
func (d derSigner) Sign(r io.Reader, digest []byte, o crypto.SignerOpts) ([]byte, error) {
	if !d.p1363 {
		return d.k.Sign(r, digest, o)
	}
	r1, s1, err := ecdsa.Sign(r, d.k, digest)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 64)
	r1.FillBytes(out[:32])
	s1.FillBytes(out[32:])
	return out, nil
}

func TestCryptoSignerKeys(t *testing.T) {
	k, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	for _, p1363 := range []bool{false, true} {
		key := derSigner{k: k, p1363: p1363}
		jwk, err := keys.PublicJWK(key.Public(), "kms-1")
		if err != nil {
			t.Fatal(err)
		}
		p := requestProfile(t, "3.2.0-beta.5")
		s, err := signing.NewSigner(signing.SignerOptions{Profile: p, KeyID: "kms-1", Key: key, Now: clock})
		if err != nil {
			t.Fatal(err)
		}
		v, _ := signing.NewVerifier(signing.VerifierOptions{Profile: p, Keys: keys.Static{Set: &keys.JWKS{Keys: []*keys.JWK{jwk}}}, Now: clock})
		m := &signing.Message{Method: "POST", URL: "https://s.example/mcp", Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(`{}`)}
		if err := s.Sign(m); err != nil {
			t.Fatal(err)
		}
		if _, err := v.Verify(context.Background(), m); err != nil {
			t.Fatalf("p1363=%v: %v", p1363, err)
		}
	}
	p384, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	if _, err := signing.NewSigner(signing.SignerOptions{Profile: requestProfile(t, "3.1"), KeyID: "x", Key: p384}); err == nil {
		t.Fatal("a P-384 key was accepted")
	}
}

// TestVerifierRejects covers the checklist paths the published vectors do
// not, each with the exact code, and shows the early refusals touch
// neither the key source nor the replay store.
func TestVerifierRejects(t *testing.T) {
	type tc struct {
		name    string
		kind    signing.ProfileKind
		version string
		vo      func(*signing.VerifierOptions)
		mutate  func(f *fixture, m *signing.Message)
		code    signing.Code
		step    string
		// early: refused before the key lookup (no state read or changed)
		early bool
	}
	big := strings.Repeat(" ", signing.DefaultMaxSignedBodyBytes)
	cases := []tc{
		{name: "Signature-Input over the header cap", mutate: func(f *fixture, m *signing.Message) {
			m.Header.Set("Signature-Input", m.Header.Get("Signature-Input")+strings.Repeat(";x=1", 3000))
		}, code: signing.CodeHeaderMalformed, step: "1", early: true},
		{name: "Signature over the header cap", mutate: func(f *fixture, m *signing.Message) {
			m.Header.Set("Signature", m.Header.Get("Signature")+", b=:"+strings.Repeat("A", 9000)+":")
		}, code: signing.CodeHeaderMalformed, step: "1", early: true},
		{name: "body over 1 MiB refused before digest work", mutate: func(f *fixture, m *signing.Message) {
			m.Body = []byte(`{"a":"` + big + `"}`)
		}, code: signing.CodeDigestMismatch, step: "1", early: true},
		{name: "Signature-Input without Signature", mutate: func(f *fixture, m *signing.Message) { m.Header.Del("Signature") },
			code: signing.CodeHeaderMalformed, step: "1", early: true},
		{name: "two labels, neither sig1", mutate: func(f *fixture, m *signing.Message) {
			in := strings.TrimPrefix(m.Header.Get("Signature-Input"), "sig1=")
			m.Header.Set("Signature-Input", "a="+in+", b="+in)
		}, code: signing.CodeHeaderMalformed, step: "1", early: true},
		{name: "component covered twice", mutate: func(f *fixture, m *signing.Message) {
			m.Header.Set("Signature-Input", strings.Replace(m.Header.Get("Signature-Input"), `("@method"`, `("@method" "@method"`, 1))
		}, code: signing.CodeHeaderMalformed, step: "1", early: true},
		{name: "parameter given twice", mutate: func(f *fixture, m *signing.Message) {
			m.Header.Set("Signature-Input", m.Header.Get("Signature-Input")+`;tag="adcp/request-signing/v1"`)
		}, code: signing.CodeHeaderMalformed, step: "1", early: true},
		{name: "created is a string", mutate: func(f *fixture, m *signing.Message) {
			in := m.Header.Get("Signature-Input")
			i := strings.Index(in, "created=")
			m.Header.Set("Signature-Input", in[:i]+`created="1776520800"`+in[i+len("created=1776520800"):])
		}, code: signing.CodeHeaderMalformed, step: "1", early: true},
		{name: "raw U-label Host", mutate: func(f *fixture, m *signing.Message) { m.Authority = "bücher.example" },
			code: signing.CodeHeaderMalformed, step: "1", early: true},
		{name: "two Content-Type field lines", mutate: func(f *fixture, m *signing.Message) { m.Header.Add("Content-Type", "text/plain") },
			code: signing.CodeHeaderMalformed, step: "1", early: true},
		{name: "Content-Digest value in base64url under 3.2", version: "3.2.0-beta.5", mutate: func(f *fixture, m *signing.Message) {
			m.Header.Set("Content-Digest", signing.ContentDigest(m.Body, signing.EncodingLegacy))
		}, code: signing.CodeHeaderMalformed, step: "1", early: true},
		{name: "nonce shorter than 16 bytes", mutate: func(f *fixture, m *signing.Message) { setNonce(m, "c2hvcnQ") },
			code: signing.CodeHeaderMalformed, step: "2", early: true},
		{name: "padded nonce", mutate: func(f *fixture, m *signing.Message) { setNonce(m, "AAAAAAAAAAAAAAAAAAAAAA==") },
			code: signing.CodeHeaderMalformed, step: "2", early: true},
		{name: "created more than 60 s ahead", vo: func(o *signing.VerifierOptions) { o.Now = func() time.Time { return testNow.Add(-61 * time.Second) } },
			code: signing.CodeWindowInvalid, step: "5", early: true},
		{name: "created 60 s ahead is within skew", vo: func(o *signing.VerifierOptions) { o.Now = func() time.Time { return testNow.Add(-60 * time.Second) } }},
		{name: "expired 61 s ago", vo: func(o *signing.VerifierOptions) { o.Now = func() time.Time { return testNow.Add(361 * time.Second) } },
			code: signing.CodeWindowInvalid, step: "5", early: true},
		{name: "unsupported derived component", mutate: func(f *fixture, m *signing.Message) {
			m.Header.Set("Signature-Input", strings.Replace(m.Header.Get("Signature-Input"), `"@method"`, `"@method" "@path"`, 1))
		}, code: signing.CodeComponentsUnexpected, step: "6", early: true},
		{name: "covered field absent", mutate: func(f *fixture, m *signing.Message) {
			m.Header.Set("Signature-Input", strings.Replace(m.Header.Get("Signature-Input"), `"@method"`, `"@method" "x-absent"`, 1))
		}, code: signing.CodeComponentsIncomplete, step: "6", early: true},
		{name: "Host differs from the target URI's authority", mutate: func(f *fixture, m *signing.Message) { m.Authority = "other.example.com" },
			code: signing.CodeTargetURIMalformed, step: "10"},
		{name: "Host with the default port matches", mutate: func(f *fixture, m *signing.Message) { m.Authority = "Seller.Example.com:443" }},
		{name: "revoked", vo: func(o *signing.VerifierOptions) { o.Revocation = revocation.Fixed{"kid-1": true} },
			code: signing.CodeKeyRevoked, step: "9"},
		{name: "revocation list never fetched is stale", vo: func(o *signing.VerifierOptions) { o.Revocation = &revocation.Feed{} },
			code: signing.CodeRevocationStale, step: "9"},
		{name: "body with a duplicate key", mutate: func(f *fixture, m *signing.Message) {
			m.Body = []byte(`{"budget":1,"budget":1000000}`)
			if err := f.signer.Sign(m); err != nil {
				panic(err)
			}
		}, code: signing.CodeBodyMalformed, step: "14"},
		{name: "webhook: request tag", kind: signing.Webhook, version: "3.2.0-beta.5", mutate: func(f *fixture, m *signing.Message) {
			m.Header.Set("Signature-Input", strings.Replace(m.Header.Get("Signature-Input"), signing.WebhookTag, signing.RequestTag, 1))
		}, code: signing.CodeWebhookTagInvalid, step: "3", early: true},
		{name: "webhook: unknown keyid", kind: signing.Webhook, version: "3.2.0-beta.5", mutate: func(f *fixture, m *signing.Message) {
			m.Header.Set("Signature-Input", strings.Replace(m.Header.Get("Signature-Input"), `"kid-1"`, `"kid-2"`, 1))
		}, code: signing.CodeWebhookKeyUnknown, step: "7"},
		{name: "webhook: Host mismatch", kind: signing.Webhook, version: "3.2.0-beta.5", mutate: func(f *fixture, m *signing.Message) { m.Authority = "evil.example" },
			code: signing.CodeWebhookTargetURIMalformed, step: "10"},
		{name: "webhook: duplicate body key", kind: signing.Webhook, version: "3.1.19", mutate: func(f *fixture, m *signing.Message) {
			m.Body = []byte(`{"status":"completed","status":"failed"}`)
			_ = f.signer.Sign(m)
		}, code: signing.CodeWebhookBodyMalformed, step: "14"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.kind == 0 {
				c.kind = signing.Request
			}
			if c.version == "" {
				c.version = "3.1.19"
			}
			p := requestProfile(t, c.version)
			if c.kind == signing.Webhook {
				p = webhookProfile(t, c.version)
			}
			f := newFixture(t, p, keys.Ed25519, c.vo)
			m := f.signed(t, `{"plan_id":"p1"}`)
			if c.mutate != nil {
				c.mutate(f, m)
			}
			got, err := f.v.Verify(context.Background(), m)
			if c.code == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var e *signing.Rejection
			if !errors.As(err, &e) {
				t.Fatalf("got %+v, %v; want %s", got, err, c.code)
			}
			if e.Code != c.code || e.Step != c.step {
				t.Fatalf("got %s at step %s (%v); want %s at step %s", e.Code, e.Step, err, c.code, c.step)
			}
			if c.early && (f.keys.n.Load() != 0 || f.replay.Len() != 0) {
				t.Fatalf("refused at step %s after %d key lookups and %d replay entries", e.Step, f.keys.n.Load(), f.replay.Len())
			}
			if c.code == signing.CodeBodyMalformed || c.code == signing.CodeWebhookBodyMalformed {
				if !strings.Contains(err.Error(), `"`) || strings.Contains(err.Error(), "1000000") {
					t.Errorf("error %q should name the key and never the body", err)
				}
				// The nonce is burned before step 14: the same frame again is a replay.
				if _, err := f.v.Verify(context.Background(), m); signing.CodeOf(err) != replayedCode(p) {
					t.Fatalf("replaying a body_malformed frame: %v", err)
				}
			}
		})
	}
}

func setNonce(m *signing.Message, nonce string) {
	in := m.Header.Get("Signature-Input")
	i := strings.Index(in, `nonce="`)
	j := strings.Index(in[i+7:], `"`)
	m.Header.Set("Signature-Input", in[:i+7]+nonce+in[i+7+j:])
}

// TestReplayAndCap: a replay is refused after the signature checks, a
// keyid at its cap is refused before them, and neither changes the store.
func TestReplayAndCap(t *testing.T) {
	f := newFixture(t, requestProfile(t, "3.2.0-beta.5"), keys.Ed25519, func(o *signing.VerifierOptions) { o.ReplayLimit = 2 })
	ctx := context.Background()
	m1 := f.signed(t, `{"a":1}`)
	if _, err := f.v.Verify(ctx, m1); err != nil {
		t.Fatal(err)
	}
	if _, err := f.v.Verify(ctx, m1); signing.CodeOf(err) != signing.CodeReplayed {
		t.Fatalf("replay: %v", err)
	}
	if _, err := f.v.Verify(ctx, f.signed(t, `{"a":2}`)); err != nil {
		t.Fatal(err)
	}
	// At the cap, even a forged signature is refused as rate abuse, before
	// any cryptography, and the store does not grow.
	forged := f.signed(t, `{"a":3}`)
	forged.Header.Set("Signature", "sig1=:"+strings.Repeat("A", 86)+"==:")
	if _, err := f.v.Verify(ctx, forged); signing.CodeOf(err) != signing.CodeRateAbuse {
		t.Fatalf("at the cap: %v", err)
	}
	if f.replay.Len() != 2 {
		t.Fatalf("store holds %d", f.replay.Len())
	}
}

// TestConcurrentCopies: 50 concurrent copies of one signed request, one
// accepted, 49 replays (run with -race).
func TestConcurrentCopies(t *testing.T) {
	f := newFixture(t, requestProfile(t, "3.2.0-beta.5"), keys.Ed25519, nil)
	m := f.signed(t, `{"plan_id":"p1"}`)
	var ok, replayed atomic.Int32
	var wg sync.WaitGroup
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := *m
			c.Header = m.Header.Clone()
			_, err := f.v.Verify(context.Background(), &c)
			switch signing.CodeOf(err) {
			case "":
				if err == nil {
					ok.Add(1)
				}
			case signing.CodeReplayed:
				replayed.Add(1)
			}
		}()
	}
	wg.Wait()
	if ok.Load() != 1 || replayed.Load() != 49 {
		t.Fatalf("%d accepted, %d replays", ok.Load(), replayed.Load())
	}
}

// TestCrossProfile: a signature is only good on its own profile.
func TestCrossProfile(t *testing.T) {
	ctx := context.Background()
	legacy := newFixture(t, requestProfile(t, "3.1.19"), keys.Ed25519, nil)
	m := legacy.signed(t, `{"a":1}`)
	// A 3.2 endpoint never reads the legacy encoding (a value without "-"
	// or "_" is standard base64 too, and fails for its missing digest).
	v32, _ := signing.NewVerifier(signing.VerifierOptions{Profile: requestProfile(t, "3.2.0-beta.5"), Keys: legacy.keys, Now: clock})
	want := signing.CodeHeaderMalformed
	if !strings.ContainsAny(m.Header.Get("Signature")[len("sig1=:"):], "-_") {
		want = signing.CodeComponentsIncomplete
	}
	if _, err := v32.Verify(ctx, m); signing.CodeOf(err) != want {
		t.Fatalf("legacy signature on a 3.2 endpoint: %v", err)
	}
	// A webhook receiver refuses a request signature by its tag.
	wh, _ := signing.NewVerifier(signing.VerifierOptions{Profile: webhookProfile(t, "3.1.19"), Keys: legacy.keys, Now: clock})
	if _, err := wh.Verify(ctx, m); signing.CodeOf(err) != signing.CodeWebhookComponentsIncomplete && signing.CodeOf(err) != signing.CodeWebhookTagInvalid {
		t.Fatalf("request signature on a webhook route: %v", err)
	}
	// A 3.0 webhook receiver refuses a request-signing key; 3.1 accepts it.
	for _, c := range []struct {
		version string
		code    signing.Code
	}{{"3.0.26", signing.CodeWebhookKeyPurposeInvalid}, {"3.1.19", ""}} {
		f := newFixture(t, webhookProfile(t, "3.1.19"), keys.Ed25519, nil)
		m := f.signed(t, `{"status":"completed"}`)
		v, _ := signing.NewVerifier(signing.VerifierOptions{Profile: webhookProfile(t, c.version), Keys: f.keys, Now: clock})
		if _, err := v.Verify(ctx, m); signing.CodeOf(err) != c.code {
			t.Fatalf("%s receiver, request-signing key: %v", c.version, err)
		}
	}
}

// TestDecide covers the composition rules beyond body-integrity-policy.json.
func TestDecide(t *testing.T) {
	f := newFixture(t, requestProfile(t, "3.1.19"), keys.Ed25519, nil)
	unsigned := func(body string) *signing.Message {
		return &signing.Message{Method: "POST", URL: "https://s.example/mcp", Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(body)}
	}
	for _, c := range []struct {
		name     string
		m        *signing.Message
		mode     signing.Mode
		fallback bool
		action   signing.Verdict
		code     signing.Code
	}{
		{"unsigned, no list, bearer", unsigned(`{}`), signing.ModeNone, true, signing.Accept, ""},
		{"unsigned, no list, nothing", unsigned(`{}`), signing.ModeNone, false, signing.Unauthenticated, ""},
		{"unsigned required_for with bearer", unsigned(`{}`), signing.ModeRequired, true, signing.Accept, ""},
		{"unsigned required_for bare", unsigned(`{}`), signing.ModeRequired, false, signing.Reject, signing.CodeRequired},
		{"unsigned webhook authentication with bearer", unsigned(`{"push_notification_config":{"url":"https://b.example/w","authentication":{"scheme":"HMAC-SHA256","credentials":"x"}}}`), signing.ModeNone, true, signing.Reject, signing.CodeRequired},
		{"unsigned account notification_configs authentication", unsigned(`{"accounts":[{"notification_configs":[{"url":"https://b.example/w","authentication":{"scheme":"Bearer","credentials":"x"}}]}]}`), signing.ModeNone, true, signing.Reject, signing.CodeRequired},
		{"authentication hidden behind a repeated key", unsigned(`{"push_notification_config":{"url":"u","authentication":{"scheme":"x"}},"push_notification_config":{"url":"u"}}`), signing.ModeNone, true, signing.Reject, signing.CodeRequired},
		{"null authentication", unsigned(`{"push_notification_config":{"url":"u","authentication":null}}`), signing.ModeNone, true, signing.Accept, ""},
		{"not JSON", unsigned(`plan=1`), signing.ModeNone, true, signing.Accept, ""},
		{"signed, verified", f.signed(t, `{"a":1}`), signing.ModeRequired, false, signing.Accept, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := f.v.Decide(context.Background(), c.m, c.mode, c.fallback)
			if d.Verdict != c.action || signing.CodeOf(d.Err) != c.code {
				t.Fatalf("%s %v; want %s %s", d.Verdict, d.Err, c.action, c.code)
			}
		})
	}
	// A replay store that fails is a server error, never a 401 or an accept.
	broken, _ := signing.NewVerifier(signing.VerifierOptions{Profile: requestProfile(t, "3.1.19"), Keys: f.keys, Replay: failingReplay{}, Now: clock})
	if d := broken.Decide(context.Background(), f.signed(t, `{}`), signing.ModeWarn, true); d.Verdict != signing.Fail {
		t.Fatalf("failing store: %s %v", d.Verdict, d.Err)
	}
}

type failingReplay struct{}

func (failingReplay) Check(context.Context, string, string, int, time.Time) (replay.Found, error) {
	return replay.Found{}, errors.New("database is down")
}
func (failingReplay) Insert(context.Context, string, string, time.Time, int, time.Time) (replay.InsertResult, error) {
	return 0, errors.New("database is down")
}

func replayedCode(p signing.Profile) signing.Code {
	if p.Kind() == signing.Webhook {
		return signing.CodeWebhookReplayed
	}
	return signing.CodeReplayed
}
