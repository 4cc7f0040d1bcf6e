package main

import (
	"bytes"
	"context"
	"crypto"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/runtime/signing/keys"

	"example.com/seller/adcp"

	"github.com/adcpgen/adcpgen/runtime/signing"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/webhook"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// get fetches base+path and returns the body.
func get(t *testing.T, url string) []byte {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s: HTTP %d %s", url, resp.StatusCode, b)
	}
	return b
}

// The seller publishes its webhook key (brand.json names the JWKS) and
// says how it signs (webhook_signing) and what it verifies
// (request_signing, in a sandbox); a webhook to a registration without
// authentication arrives signed with RFC 9421 and verifies with the
// published key, by the buyer's receiver.
func TestWebhookSignedWithPublishedKey(t *testing.T) {
	base, _ := startAgentOf(t, func(c *config) { c.Sandbox = true })
	caps := []byte(wire.Lenient(mustJSON(t, mcpBuyer(t, base, testKey), "get_adcp_capabilities", `{}`)).Get("structuredContent"))
	ws := wire.Lenient(caps).Get("webhook_signing")
	if !ws.Get("supported").Truthy() || !ws.Get("profile").StringIs(signing.WebhookTag) || !ws.Get("legacy_hmac_fallback").Truthy() {
		t.Fatalf("webhook_signing: %s", caps)
	}
	rs, err := signing.ParseCapability(caps)
	if err != nil || !rs.Supported || strings.Join(rs.Policy.RequiredFor, ",") != "create_media_buy" {
		t.Fatalf("request_signing %+v %v: %s", rs, err, caps)
	}
	brand := get(t, base+"/.well-known/brand.json")
	jwksURI, _ := wire.Lenient(brand).Get("agents").Index(0).Get("jwks_uri").AsString()
	set, err := keys.ParseJWKS(get(t, jwksURI))
	if err != nil || len(set.Keys) != 1 || set.Keys[0].AdCPUse != keys.UseWebhookSigning {
		t.Fatalf("JWKS at %s: %+v %v", jwksURI, set, err)
	}

	wp, _ := signing.WebhookProfile(adcp.SpecVersion)
	v, err := signing.NewVerifier(signing.VerifierOptions{Profile: wp, Keys: keys.Static{Set: set, AgentURL: base + "/mcp"}, Scheme: "http"})
	if err != nil {
		t.Fatal(err)
	}
	rc := webhook.NewReceiver(adcp.Spec(), webhook.ReceiverOptions{Verifier: v})
	got := make(chan *webhook.Notification, 4)
	rc.HandleOther(func(_ context.Context, n *webhook.Notification) error { got <- n; return nil })
	mux := http.NewServeMux()
	mux.Handle("POST /hooks/{task_type}/{operation_id}", rc)
	hooks := httptest.NewServer(mux)
	defer hooks.Close()

	cs := mcpBuyer(t, base, testKey)
	push := `"push_notification_config":{"url":"` + hooks.URL + `/hooks/create_media_buy/op_9","operation_id":"op_9"}`
	sub := call(t, cs, "create_media_buy", buyArgs("d00dfeed-3333-4333-8444-555566667777", "async-signed", push))
	if member(sub, "status") != "submitted" {
		t.Fatalf("submitted: %s", sub.Data)
	}
	call(t, cs, "tasks/get", `{"task_id":"`+member(sub, "task_id")+`"}`) // completes the task
	for {
		select {
		case n := <-got:
			if n.Signer == nil || n.Signer.KeyID != set.Keys[0].KeyID {
				t.Fatalf("webhook signer %+v", n.Signer)
			}
			if n.Status == task.Completed {
				return
			}
		case <-time.After(20 * time.Second):
			t.Fatal("no signed webhook")
		}
	}
}

// runnerKey is the signed-requests runner's keypair from the bundle's
// test vectors (keys.json carries the private part, test-only).
func runnerKey(t *testing.T, kid string) crypto.Signer {
	t.Helper()
	tree, err := openSchemas()
	if err != nil {
		t.Fatal(err)
	}
	data, err := fs.ReadFile(tree.Bundle, "compliance/test-vectors/request-signing/keys.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Keys []map[string]any `json:"keys"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	for _, k := range doc.Keys {
		if k["kid"] != kid {
			continue
		}
		k["d"] = k["_private_d_for_test_only"]
		delete(k, "_private_d_for_test_only")
		b, _ := json.Marshal(k)
		key, _, err := keys.ParsePrivateJWK(b)
		if err != nil {
			t.Fatal(err)
		}
		return key
	}
	t.Fatalf("no %s in keys.json", kid)
	return nil
}

// In a sandbox, the signed-requests runner's counterparty: its keys are
// trusted on the MCP endpoint and the grading endpoints, test-revoked-2026
// is revoked, a replay is refused, the per-keyid cap is the configured
// one; the grading endpoints hold the webhook-authentication rule the
// storyboards' endpoints waive, and take their content-digest posture
// from their path.
func TestSandboxSignedRequests(t *testing.T) {
	base, _ := startAgentOf(t, func(c *config) { c.Sandbox = true; c.Signing.GradingReplayCap = 5 })
	p, _ := signing.RequestProfile(adcp.SpecVersion)
	signers := map[string]*signing.Signer{}
	for _, kid := range []string{"test-ed25519-2026", "test-es256-2026", "test-revoked-2026"} {
		s, err := signing.NewSigner(signing.SignerOptions{Profile: p, KeyID: kid, Key: runnerKey(t, kid)})
		if err != nil {
			t.Fatal(err)
		}
		signers[kid] = s
	}
	var mu sync.Mutex
	post := func(url, body string, signer *signing.Signer, digest bool, bearer string) (int, signing.Code, []byte) {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if bearer != "" {
			req.Header.Set("Authorization", "Bearer "+bearer)
		}
		if signer != nil {
			s := signer
			if digest {
				mu.Lock()
				s, _ = signing.NewSigner(signing.SignerOptions{Profile: p, KeyID: signerKeyID(signers, signer), Key: runnerKey(t, signerKeyID(signers, signer)), CoverDigest: true})
				mu.Unlock()
			}
			if err := s.SignRequest(req, []byte(body)); err != nil {
				t.Fatal(err)
			}
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		code, _ := signing.ParseChallenge(resp.Header.Get("WWW-Authenticate"))
		return resp.StatusCode, code, out
	}
	ed := signers["test-ed25519-2026"]
	plan := `{"plan_id":"plan_001"}`
	hook := `{"media_buy_id":"mb_001","push_notification_config":{"url":"https://buyer.example.com/webhook","authentication":{"scheme":"HMAC-SHA256","credentials":"shared-secret-placeholder"}}}`
	for _, tc := range []struct {
		name, path, body string
		signer           *signing.Signer
		digest           bool
		bearer           string
		status           int
		code             signing.Code
	}{
		{"signed", "/mcp/adcp/create_media_buy", plan, ed, false, "", 200, ""},
		{"signed ES256 under A2A", "/a2a/adcp/create_media_buy", plan, signers["test-es256-2026"], false, "", 200, ""},
		{"unsigned, required", "/mcp/adcp/create_media_buy", plan, nil, false, "", 401, signing.CodeRequired},
		{"revoked key", "/mcp/adcp/create_media_buy", plan, signers["test-revoked-2026"], false, "", 401, signing.CodeKeyRevoked},
		{"webhook authentication unsigned over a bearer", "/mcp/adcp/update_media_buy", hook, nil, false, "test-bearer-token", 401, signing.CodeRequired},
		{"no digest where required", "/signing/required/adcp/create_media_buy", plan, ed, false, "", 401, signing.CodeComponentsIncomplete},
		{"digest where required", "/signing/required/adcp/create_media_buy", plan, ed, true, "", 200, ""},
		{"digest where forbidden", "/signing/forbidden/adcp/create_media_buy", plan, ed, true, "", 401, signing.CodeComponentsUnexpected},
		{"percent-encoded path", "/mcp/adcp/segment%2Fwith-encoded-slash/create_media_buy", plan, ed, false, "", 200, ""},
	} {
		if status, code, body := post(base+tc.path, tc.body, tc.signer, tc.digest, tc.bearer); status != tc.status || code != tc.code {
			t.Errorf("%s: HTTP %d %q, want %d %q: %s", tc.name, status, code, tc.status, tc.code, body)
		}
	}
	// A replay; then the cap (5 per keyid on the grading endpoints).
	req, _ := http.NewRequest(http.MethodPost, base+"/signing/either/adcp/create_media_buy", strings.NewReader(plan))
	req.Header.Set("Content-Type", "application/json")
	if err := signers["test-es256-2026"].SignRequest(req, []byte(plan)); err != nil {
		t.Fatal(err)
	}
	for i, want := range []signing.Code{"", signing.CodeReplayed} {
		r2 := req.Clone(context.Background())
		r2.Body = io.NopCloser(bytes.NewReader([]byte(plan)))
		resp, err := http.DefaultClient.Do(r2)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if code, _ := signing.ParseChallenge(resp.Header.Get("WWW-Authenticate")); code != want {
			t.Fatalf("copy %d: %q, want %q", i, code, want)
		}
	}
	var last signing.Code
	for range 6 {
		_, last, _ = post(base+"/signing/either/adcp/create_media_buy", plan, signers["test-es256-2026"], false, "")
	}
	if last != signing.CodeRateAbuse {
		t.Fatalf("past the cap: %q", last)
	}

	// The MCP endpoint: the runner's signature admits create_media_buy with
	// no other credential; unsigned, the bearer is enough (composition),
	// and the storyboards' HMAC registration over a bearer is waived here.
	mcpBody := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_media_buy","arguments":` + buyArgs("d00dfeed-4444-4333-8444-555566667777", "", "") + `}}`
	if status, code, body := post(base+"/mcp", mcpBody, ed, false, ""); status != 200 || code != "" || bytes.Contains(body, []byte(`"isError":true`)) {
		t.Fatalf("signed MCP create_media_buy: HTTP %d %q %s", status, code, body)
	}
	if status, code, _ := post(base+"/mcp", mcpBody, nil, false, ""); status != 401 || code != signing.CodeRequired {
		t.Fatalf("unsigned MCP create_media_buy without a key: HTTP %d %q", status, code)
	}
}

func signerKeyID(all map[string]*signing.Signer, s *signing.Signer) string {
	for kid, x := range all {
		if x == s {
			return kid
		}
	}
	return ""
}

// Outside a sandbox the seller verifies the signatures of the buyers
// -buyer-jwks lists, requires none, and knows no runner key or grading
// endpoint.
func TestBuyerJWKS(t *testing.T) {
	key, jwk, err := keys.GenerateKey(keys.ECDSAP256, "buyer-onboarded", nil)
	if err != nil {
		t.Fatal(err)
	}
	file := t.TempDir() + "/buyers.jwks"
	data, _ := (&keys.JWKS{Keys: []*keys.JWK{jwk}}).MarshalJSON()
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	base, _ := startAgentOf(t, func(c *config) { c.Signing.BuyerJWKS = file })
	caps := []byte(wire.Lenient(mustJSON(t, mcpBuyer(t, base, testKey), "get_adcp_capabilities", `{}`)).Get("structuredContent"))
	rs, err := signing.ParseCapability(caps)
	if err != nil || !rs.Supported || len(rs.Policy.RequiredFor) != 0 || len(rs.Policy.SupportedFor) != 3 {
		t.Fatalf("request_signing %+v %v", rs, err)
	}
	p, _ := signing.RequestProfile(adcp.SpecVersion)
	s, _ := signing.NewSigner(signing.SignerOptions{Profile: p, KeyID: jwk.KeyID, Key: key})
	runner, _ := signing.NewSigner(signing.SignerOptions{Profile: p, KeyID: "test-ed25519-2026", Key: runnerKey(t, "test-ed25519-2026")})
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_media_buy","arguments":` + buyArgs("d00dfeed-5555-4333-8444-555566667777", "", "") + `}}`
	for _, tc := range []struct {
		name   string
		signer *signing.Signer
		status int
		code   signing.Code
	}{
		{"the onboarded buyer", s, 200, ""},
		{"the runner's key", runner, 401, signing.CodeKeyUnknown},
	} {
		req, _ := http.NewRequest(http.MethodPost, base+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Authorization", "Bearer "+testKey)
		if err := tc.signer.SignRequest(req, []byte(body)); err != nil {
			t.Fatal(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		code, _ := signing.ParseChallenge(resp.Header.Get("WWW-Authenticate"))
		if resp.StatusCode != tc.status || code != tc.code {
			t.Errorf("%s: HTTP %d %q", tc.name, resp.StatusCode, code)
		}
	}
	resp, err := http.Post(base+"/mcp/adcp/create_media_buy", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode == 200 {
		t.Fatal("a grading endpoint outside a sandbox")
	}
}
