package signing_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/signing/keys"

	"github.com/adcpgen/adcpgen/runtime/signing"
)

// A buyer's CallSigner signs exactly what the seller lists, with the
// digest and encoding the seller's version and policy give, and the
// seller's verifier accepts what it signed.
func TestCallSigner(t *testing.T) {
	key, jwk, err := keys.GenerateKey(keys.Ed25519, "buyer-2026", nil)
	if err != nil {
		t.Fatal(err)
	}
	static := keys.Static{Set: &keys.JWKS{Keys: []*keys.JWK{jwk}}, AgentURL: "https://buyer.example/mcp"}
	var mu sync.Mutex
	var got []*http.Request
	var bodies [][]byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got, bodies = append(got, r), append(bodies, b)
		mu.Unlock()
	}))
	defer srv.Close()
	mcpCall := func(tool, args string) string {
		return `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args + `}}`
	}
	a2aCall := func(skill string) string {
		return `{"jsonrpc":"2.0","id":"1","method":"message/send","params":{"message":{"role":"user","messageId":"m","parts":[{"kind":"text","text":"hi"},{"kind":"data","data":{"skill":"` + skill + `","input":{}}}]}}}`
	}
	policy := signing.OperationPolicy{SupportedFor: []string{"create_media_buy", "update_media_buy"}, RequiredFor: []string{"create_media_buy"},
		ProtocolMethodsSupportedFor: []string{"tasks/cancel"}}
	hook := `{"media_buy_id":"mb_1","push_notification_config":{"url":"https://buyer.example/h","authentication":{"schemes":["HMAC-SHA256"],"credentials":"x"}}}`
	calls := []struct {
		name, body string
		signed     bool
	}{
		{"listed operation", mcpCall("create_media_buy", `{"a":1}`), true},
		{"unlisted operation", mcpCall("get_products", `{}`), false},
		{"webhook authentication on an unlisted operation", mcpCall("sync_creatives", hook), true},
		{"listed A2A skill", a2aCall("update_media_buy"), true},
		{"unlisted A2A skill", a2aCall("get_products"), false},
		{"listed protocol method", `{"jsonrpc":"2.0","id":2,"method":"tasks/cancel","params":{"taskId":"t"}}`, true},
		{"unlisted protocol method", `{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"taskId":"t"}}`, false},
		{"an operation named like a method", mcpCall("tasks/cancel", `{}`), false},
	}
	for _, tc := range []struct {
		version string
		digest  signing.DigestPolicy
		// covered: content-digest is covered; std: the 3.2 encoding.
		covered, std bool
	}{
		{"3.0.26", "", true, false},
		{"3.1.19", signing.DigestEither, true, false},
		{"3.1.19", signing.DigestForbidden, false, false},
		{"3.1.19", signing.DigestRequired, true, false},
		{"3.2.0-beta.5", signing.DigestRequired, true, true},
		{"3.2.0-beta.3", signing.DigestEither, true, true}, // 3.2 has no other posture
	} {
		t.Run(tc.version+"/"+string(tc.digest), func(t *testing.T) {
			cs, err := signing.NewCallSigner(signing.CallSignerOptions{Version: tc.version, KeyID: "buyer-2026", Key: key})
			if err != nil {
				t.Fatal(err)
			}
			hc := &http.Client{Transport: cs.Transport(nil)}
			post := func(body string) {
				t.Helper()
				resp, err := hc.Post(srv.URL+"/mcp", "application/json", strings.NewReader(body))
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
			}
			p := policy
			if tc.version == "3.0.26" {
				p.ProtocolMethodsSupportedFor = nil
			}
			// Before Use, nothing is signed.
			mu.Lock()
			got, bodies = nil, nil
			mu.Unlock()
			post(mcpCall("create_media_buy", `{}`))
			if got[0].Header.Get("Signature") != "" {
				t.Fatal("signed before the seller's capability was known")
			}
			if err := cs.Use(signing.Capability{Supported: true, CoversContentDigest: tc.digest, Policy: p}); err != nil {
				t.Fatal(err)
			}
			rp, _ := signing.RequestProfile(tc.version)
			if tc.digest != "" && rp.Digest() != signing.DigestRequired {
				rp, _ = rp.WithDigest(tc.digest)
			}
			v, err := signing.NewVerifier(signing.VerifierOptions{Profile: rp, Keys: static, Scheme: "http"})
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range calls {
				if c.name == "listed protocol method" && tc.version == "3.0.26" {
					continue
				}
				mu.Lock()
				got, bodies = nil, nil
				mu.Unlock()
				post(c.body)
				r, body := got[0], bodies[0]
				if !bytes.Equal(body, []byte(c.body)) {
					t.Fatalf("%s: the body changed on the way", c.name)
				}
				in := r.Header.Get("Signature-Input")
				if (in != "") != c.signed {
					t.Fatalf("%s: Signature-Input %q, want signed %v", c.name, in, c.signed)
				}
				if !c.signed {
					continue
				}
				if covers := strings.Contains(in, `"content-digest"`); covers != tc.covered {
					t.Fatalf("%s: covers content-digest %v, want %v", c.name, covers, tc.covered)
				}
				sig := r.Header.Get("Signature")
				if std := strings.HasSuffix(sig, "=:"); std != tc.std {
					t.Fatalf("%s: Signature %q: padded standard base64 %v, want %v", c.name, sig, std, tc.std)
				}
				if s, err := v.Verify(context.Background(), signing.MessageFromRequest(r, body, "http")); err != nil || s.KeyID != "buyer-2026" {
					t.Fatalf("%s: the seller's verifier: %v", c.name, err)
				}
			}
		})
	}
}

func TestCallOf(t *testing.T) {
	for body, want := range map[string]signing.Invocation{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_media_buy"}}`:                                                 {Operation: "create_media_buy"},
		`{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"parts":[{"kind":"data","data":{"skill":"sync_creatives"}}]}}}`: {Operation: "sync_creatives"},
		`{"jsonrpc":"2.0","id":1,"method":"message/stream","params":{"message":{"parts":[{"data":{"skill":"get_products"}}]}}}`:               {Operation: "get_products"},
		`{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"parts":[{"kind":"text","text":"hi"}]}}}`:                       {Method: "message/send"},
		`{"jsonrpc":"2.0","id":1,"method":"tasks/cancel"}`:                                                                                    {Method: "tasks/cancel"},
		`[]`:       {},
		`not json`: {},
	} {
		if got := signing.CallOf([]byte(body)); got != want {
			t.Errorf("%s: %+v, want %+v", body, got, want)
		}
	}
}
