package jsinterop

import (
	"crypto"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/runtime/signing/keys"

	"github.com/adcpgen/adcpgen/runtime/signing"
)

// Interoperability of adcpgen's RFC 9421 signing (runtime/signing) with
// the pinned @adcp/sdk, in both directions, for requests and webhooks,
// Ed25519 and ES256: what one signs, the other verifies; a body changed
// after signing is refused by both (so neither side passes by accepting
// everything).

type jsRequest struct {
	Method  string            `json:"method"`
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers"`
	Body    string            `json:"body"`
}

type jsKey struct {
	KeyID      string          `json:"keyid"`
	Alg        string          `json:"alg"`
	PrivateJWK json.RawMessage `json:"private_jwk"`
}

type jsCase struct {
	Op          string          `json:"op"`
	Request     jsRequest       `json:"request"`
	Key         *jsKey          `json:"key,omitempty"`
	JWKS        json.RawMessage `json:"jwks,omitempty"`
	Now         int64           `json:"now"`
	CoverDigest bool            `json:"cover_digest,omitempty"`
	Capability  map[string]any  `json:"capability,omitempty"`
	Operation   string          `json:"operation,omitempty"`
}

type jsResult struct {
	Headers map[string]string `json:"headers"`
	OK      bool              `json:"ok"`
	KeyID   string            `json:"keyid"`
	Code    string            `json:"code"`
	Error   string            `json:"error"`
}

func runSigning(t *testing.T, cases []jsCase) []jsResult {
	t.Helper()
	job, _ := json.Marshal(map[string]any{"cases": cases})
	out := RunBuyer(t, "signing.mjs", string(job))
	var res struct {
		Results []jsResult `json:"results"`
	}
	if err := json.Unmarshal(out, &res); err != nil || len(res.Results) != len(cases) {
		t.Fatalf("signing.mjs answered %s (%v)", out, err)
	}
	return res.Results
}

type interopKey struct {
	signer crypto.Signer
	pub    *keys.JWK
	priv   json.RawMessage
}

func newInteropKey(t *testing.T, alg keys.Algorithm, kid, use string) interopKey {
	t.Helper()
	k, pub, err := keys.GenerateKey(alg, kid, nil)
	if err != nil {
		t.Fatal(err)
	}
	pub.AdCPUse = use
	priv, err := keys.MarshalPrivateJWK(k, pub)
	if err != nil {
		t.Fatal(err)
	}
	return interopKey{k, pub, priv}
}

func (k interopKey) jwks(t *testing.T) json.RawMessage {
	b, err := (&keys.JWKS{Keys: []*keys.JWK{k.pub}}).MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func toJS(m *signing.Message) jsRequest {
	h := map[string]string{}
	for k := range m.Header {
		h[k] = m.Header.Get(k)
	}
	return jsRequest{Method: m.Method, URL: m.URL, Headers: h, Body: string(m.Body)}
}

func fromJS(r jsRequest, signed map[string]string) *signing.Message {
	h := http.Header{}
	for k, v := range r.Headers {
		h.Set(k, v)
	}
	for k, v := range signed {
		h.Set(k, v)
	}
	return &signing.Message{Method: r.Method, URL: r.URL, Header: h, Body: []byte(r.Body)}
}

const interopNow = int64(1776520800)

// The URL exercises canonicalization both sides must agree on: host case,
// the default port, a dot segment, an encoded unreserved character.
const interopURL = "https://Seller.Example.com:443/adcp/./create_media_buy%7e?b=2&a=1"

func TestSigningInterop(t *testing.T) {
	now := time.Unix(interopNow, 0)
	clock := func() time.Time { return now }
	body := `{"plan_id":"plan_001","packages":[{"package_id":"pkg_1","budget":{"amount":1000,"currency":"USD"}}]}`
	capability := map[string]any{"supported": true, "covers_content_digest": "either", "required_for": []string{"create_media_buy"}}

	var cases []jsCase
	type goSigned struct {
		what     string
		tampered bool
	}
	var expect []goSigned
	requestKeys := map[keys.Algorithm]interopKey{}
	for _, alg := range []keys.Algorithm{keys.Ed25519, keys.ECDSAP256} {
		requestKeys[alg] = newInteropKey(t, alg, "go-"+string(alg), keys.UseRequestSigning)
	}
	webhookKeys := map[keys.Algorithm]interopKey{}
	for _, alg := range []keys.Algorithm{keys.Ed25519, keys.ECDSAP256} {
		// @adcp/sdk 6.11's webhook verifier is 3.0's: it takes only
		// adcp_use "webhook-signing" keys.
		webhookKeys[alg] = newInteropKey(t, alg, "go-wh-"+string(alg), keys.UseWebhookSigning)
	}

	// adcpgen signs, @adcp/sdk verifies.
	for _, alg := range []keys.Algorithm{keys.Ed25519, keys.ECDSAP256} {
		for _, pv := range []struct {
			version string
			digest  bool
		}{{"3.1.19", false}, {"3.1.19", true}, {"3.0.26", true}, {"3.2.0-beta.5", true}} {
			p, _ := signing.RequestProfile(pv.version)
			s, err := signing.NewSigner(signing.SignerOptions{Profile: p, KeyID: requestKeys[alg].pub.KeyID, Key: requestKeys[alg].signer, CoverDigest: pv.digest, Now: clock})
			if err != nil {
				t.Fatal(err)
			}
			for _, tamper := range []bool{false, true} {
				m := &signing.Message{Method: "POST", URL: interopURL, Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(body)}
				if err := s.Sign(m); err != nil {
					t.Fatal(err)
				}
				if tamper {
					m.Body = []byte(strings.Replace(body, "1000", "9000", 1))
					if !pv.digest {
						continue // nothing binds the body
					}
				}
				cases = append(cases, jsCase{Op: "verify-request", Request: toJS(m), JWKS: requestKeys[alg].jwks(t), Now: interopNow, Capability: capability, Operation: "create_media_buy"})
				expect = append(expect, goSigned{what: "request " + pv.version + " " + string(alg), tampered: tamper})
			}
		}
		wp, _ := signing.WebhookProfile("3.2.0-beta.5")
		s, _ := signing.NewSigner(signing.SignerOptions{Profile: wp, KeyID: webhookKeys[alg].pub.KeyID, Key: webhookKeys[alg].signer, Now: clock})
		for _, tamper := range []bool{false, true} {
			m := &signing.Message{Method: "POST", URL: "https://buyer.example.com/adcp/webhook/create_media_buy/op_1", Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(`{"idempotency_key":"whk_1","task_id":"t1","status":"completed"}`)}
			if err := s.Sign(m); err != nil {
				t.Fatal(err)
			}
			if tamper {
				m.Body = []byte(`{"idempotency_key":"whk_1","task_id":"t1","status":"failed"}`)
			}
			cases = append(cases, jsCase{Op: "verify-webhook", Request: toJS(m), JWKS: webhookKeys[alg].jwks(t), Now: interopNow})
			expect = append(expect, goSigned{what: "webhook " + string(alg), tampered: tamper})
		}
	}
	nGo := len(cases)

	// @adcp/sdk signs, adcpgen verifies.
	type jsSigned struct {
		op, what string
		alg      keys.Algorithm
		req      jsRequest
	}
	var signedByJS []jsSigned
	for _, alg := range []keys.Algorithm{keys.Ed25519, keys.ECDSAP256} {
		for _, digest := range []bool{false, true} {
			req := jsRequest{Method: "POST", URL: interopURL, Headers: map[string]string{"Content-Type": "application/json"}, Body: body}
			cases = append(cases, jsCase{Op: "sign-request", Request: req, Key: &jsKey{KeyID: requestKeys[alg].pub.KeyID, Alg: string(alg), PrivateJWK: requestKeys[alg].priv}, Now: interopNow, CoverDigest: digest})
			signedByJS = append(signedByJS, jsSigned{op: "request", what: "digest=" + map[bool]string{false: "no", true: "yes"}[digest], alg: alg, req: req})
		}
		req := jsRequest{Method: "POST", URL: "https://buyer.example.com/adcp/webhook/create_media_buy/op_1", Headers: map[string]string{"Content-Type": "application/json"}, Body: `{"task_id":"t1","status":"completed"}`}
		cases = append(cases, jsCase{Op: "sign-webhook", Request: req, Key: &jsKey{KeyID: webhookKeys[alg].pub.KeyID, Alg: string(alg), PrivateJWK: webhookKeys[alg].priv}, Now: interopNow})
		signedByJS = append(signedByJS, jsSigned{op: "webhook", alg: alg, req: req})
	}

	results := runSigning(t, cases)
	for i, e := range expect {
		r := results[i]
		switch {
		case !e.tampered && !r.OK:
			t.Errorf("@adcp/sdk refused adcpgen's %s: %s %s", e.what, r.Code, r.Error)
		case e.tampered && r.OK:
			t.Errorf("@adcp/sdk accepted adcpgen's %s with its body changed", e.what)
		case e.tampered && !strings.HasSuffix(r.Code, "_digest_mismatch"):
			t.Errorf("@adcp/sdk refused the changed %s with %s, not a digest mismatch", e.what, r.Code)
		}
	}
	for i, js := range signedByJS {
		r := results[nGo+i]
		if r.Headers == nil {
			t.Fatalf("@adcp/sdk did not sign %s %s: %s", js.op, js.what, r.Error)
		}
		m := fromJS(js.req, r.Headers)
		verify := func(p signing.Profile, k interopKey) error {
			v, err := signing.NewVerifier(signing.VerifierOptions{Profile: p, Keys: keys.Static{Set: &keys.JWKS{Keys: []*keys.JWK{k.pub}}}, Now: clock})
			if err != nil {
				t.Fatal(err)
			}
			c := *m
			c.Header = m.Header.Clone()
			_, err = v.Verify(t.Context(), &c)
			return err
		}
		if js.op == "webhook" {
			for _, version := range []string{"3.0.26", "3.1.19", "3.2.0-beta.5"} {
				p, _ := signing.WebhookProfile(version)
				if err := verify(p, webhookKeys[js.alg]); err != nil {
					t.Errorf("adcpgen (%s) refused @adcp/sdk's webhook, %s: %v", version, js.alg, err)
				}
			}
			continue
		}
		for _, version := range []string{"3.0.26", "3.1.19"} {
			p, _ := signing.RequestProfile(version)
			if err := verify(p, requestKeys[js.alg]); err != nil {
				t.Errorf("adcpgen (%s) refused @adcp/sdk's request (%s, %s): %v", version, js.what, js.alg, err)
			}
		}
		// @adcp/sdk 6.11 signs the 3.0/3.1 encoding (unpadded base64url):
		// a 3.2 endpoint refuses it at step 1, never reinterpreting it
		// (a value without "-" or "_" is standard base64 as well).
		p32, _ := signing.RequestProfile("3.2.0-beta.5")
		if strings.ContainsAny(r.Headers["Signature"][len("sig1=:"):], "-_") {
			if err := verify(p32, requestKeys[js.alg]); signing.CodeOf(err) != signing.CodeHeaderMalformed {
				t.Errorf("a 3.2 endpoint on @adcp/sdk's legacy request (%s, %s): %v", js.what, js.alg, err)
			}
		}
	}
	t.Logf("%d adcpgen signatures checked by @adcp/sdk, %d @adcp/sdk signatures checked by adcpgen", len(expect), len(signedByJS))
}
