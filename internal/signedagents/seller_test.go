package signedagents

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/signing/keys"

	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/signing"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// hookAuth registers a webhook with the legacy authentication block.
const hookAuth = `{"media_buy_id":"mb_1","push_notification_config":{"url":"https://buyer.example/hook","authentication":{"schemes":["HMAC-SHA256"],"credentials":"0123456789abcdef0123456789abcdef"}}}`

// The seller verifies signatures per operation as configured, over MCP and
// A2A alike, on every version, before any handler runs: what it answers,
// whether the handler ran, and who the handler saw.
func TestSellerVerifiesPerOperation(t *testing.T) {
	tamper := func(req *http.Request, body []byte) []byte {
		return bytes.Replace(body, []byte(`"a":1`), []byte(`"a":2`), 1)
	}
	dropSignatureInput := func(req *http.Request, body []byte) []byte {
		req.Header.Del("Signature-Input")
		return body
	}
	cases := []struct {
		name string
		c    call
		// status and code are the answer; ran says the handler ran, as
		// principal with the signer keyid ("" for none).
		status    int
		code      signing.Code
		ran       bool
		principal string
		keyID     string
		since31   bool // the case needs 3.1's protocol method lists
	}{
		{name: "required, signed, no other credential", c: call{tool: "create_media_buy", args: `{"a":1}`, sign: true},
			status: 200, ran: true, principal: buyerAgent, keyID: keyID},
		{name: "required, signed and a bearer", c: call{tool: "create_media_buy", args: `{"a":1}`, sign: true, bearer: buyerKey},
			status: 200, ran: true, principal: "buyer", keyID: keyID},
		{name: "required, unsigned, no credential", c: call{tool: "create_media_buy", args: `{"a":1}`},
			status: 401, code: signing.CodeRequired},
		{name: "required, unsigned, a refused bearer", c: call{tool: "create_media_buy", args: `{"a":1}`, bearer: "not-a-key"},
			status: 401, code: signing.CodeRequired},
		{name: "required, unsigned with a bearer (composition)", c: call{tool: "create_media_buy", args: `{"a":1}`, bearer: buyerKey},
			status: 200, ran: true, principal: "buyer"},
		{name: "required, body changed after signing", c: call{tool: "create_media_buy", args: `{"a":1}`, sign: true, bearer: buyerKey, edit: tamper},
			status: 401, code: signing.CodeDigestMismatch},
		{name: "half a signature", c: call{tool: "create_media_buy", args: `{"a":1}`, sign: true, bearer: buyerKey, edit: dropSignatureInput},
			status: 401, code: signing.CodeHeaderMalformed},
		{name: "shadowed, failing, with a bearer", c: call{tool: "update_media_buy", args: `{"a":1}`, sign: true, bearer: buyerKey, edit: tamper},
			status: 200, ran: true, principal: "buyer"},
		{name: "shadowed, failing, no other credential", c: call{tool: "update_media_buy", args: `{"a":1}`, sign: true, edit: tamper},
			status: 401},
		{name: "shadowed, signed", c: call{tool: "update_media_buy", args: `{"a":1}`, sign: true},
			status: 200, ran: true, principal: buyerAgent, keyID: keyID},
		{name: "supported, failing, with a bearer", c: call{tool: "sync_creatives", args: `{"a":1}`, sign: true, bearer: buyerKey, edit: tamper},
			status: 401, code: signing.CodeDigestMismatch},
		{name: "supported, unsigned with a bearer", c: call{tool: "sync_creatives", args: `{"a":1}`, bearer: buyerKey},
			status: 200, ran: true, principal: "buyer"},
		{name: "listed nowhere, public, unsigned", c: call{tool: "get_products", args: `{"a":1}`},
			status: 200, ran: true},
		{name: "listed nowhere, public, a failing signature", c: call{tool: "get_products", args: `{"a":1}`, sign: true, edit: tamper},
			status: 401, code: signing.CodeDigestMismatch},
		{name: "webhook authentication, unsigned, with a bearer", c: call{tool: "sync_creatives", args: hookAuth, bearer: buyerKey},
			status: 401, code: signing.CodeRequired},
		{name: "webhook authentication, signed", c: call{tool: "sync_creatives", args: hookAuth, sign: true},
			status: 200, ran: true, principal: buyerAgent, keyID: keyID},
		{name: "a Signature-Input over 8 KiB", c: call{tool: "sync_creatives", args: `{"a":1}`, sign: true, bearer: buyerKey, edit: func(req *http.Request, body []byte) []byte {
			req.Header.Set("Signature-Input", req.Header.Get("Signature-Input")+strings.Repeat(";x=1", 2200))
			return body
		}}, status: 401, code: signing.CodeHeaderMalformed},
		{name: "a signed body over 1 MiB", c: call{tool: "sync_creatives", args: `{"a":1,"pad":"` + strings.Repeat("x", 1<<20) + `"}`, sign: true, bearer: buyerKey},
			status: 401, code: signing.CodeDigestMismatch},
		{name: "protocol method required, unsigned", c: call{method: "tasks/cancel"},
			status: 401, code: signing.CodeRequired, since31: true},
	}
	for _, v := range versions {
		t.Run(v.version, func(t *testing.T) {
			r := newRig(t, v.version, v.source, nil)
			for _, transport := range []string{"mcp", "a2a"} {
				for _, tc := range cases {
					if tc.since31 && strings.HasPrefix(v.version, "3.0.") {
						continue
					}
					t.Run(transport+"/"+tc.name, func(t *testing.T) {
						c := tc.c
						c.transport = transport
						a := r.send(c)
						runs := r.handled()
						if a.status != tc.status || a.code != tc.code {
							t.Fatalf("HTTP %d %q, want %d %q: %s", a.status, a.code, tc.status, tc.code, a.body)
						}
						if tc.status == 200 && bytes.Contains(a.body, []byte(`"isError":true`)) {
							t.Fatalf("a tool error: %s", a.body)
						}
						if !tc.ran {
							if len(runs) != 0 {
								t.Fatalf("a refused request ran its handler: %+v", runs)
							}
							return
						}
						if len(runs) != 1 {
							t.Fatalf("%d handler runs: %s", len(runs), a.body)
						}
						got := runs[0]
						wantAgent := ""
						if tc.keyID != "" {
							wantAgent = buyerAgent
						}
						if got.principal != tc.principal || got.keyID != tc.keyID || got.mwKeyID != tc.keyID || got.agent != wantAgent {
							t.Fatalf("handler saw %+v, want principal %q signer %q", got, tc.principal, tc.keyID)
						}
					})
				}
			}
			// A signed tasks/cancel passes the gate to the transport's answer.
			if !strings.HasPrefix(v.version, "3.0.") {
				a := r.send(call{transport: "a2a", method: "tasks/cancel", sign: true})
				if a.status != 200 || a.code != "" || !bytes.Contains(a.body, []byte(`"error"`)) {
					t.Fatalf("signed tasks/cancel: HTTP %d %q %s", a.status, a.code, a.body)
				}
			}
		})
	}
}

// A signed request replayed is refused (request_signature_replayed) and
// runs nothing; a refused request changes nothing: its nonce is not
// burned, so the untampered request with the same signature is accepted
// after it.
func TestSellerReplayAndNothingChanged(t *testing.T) {
	for _, v := range versions {
		t.Run(v.version, func(t *testing.T) {
			r := newRig(t, v.version, v.source, nil)
			for _, transport := range []string{"mcp", "a2a"} {
				first := r.send(call{transport: transport, tool: "create_media_buy", args: `{"a":1}`, sign: true})
				if first.status != 200 {
					t.Fatalf("%s: first: HTTP %d %q", transport, first.status, first.code)
				}
				again := r.resend(first)
				if again.status != 401 || again.code != signing.CodeReplayed {
					t.Fatalf("%s: replay: HTTP %d %q", transport, again.status, again.code)
				}
				if runs := r.handled(); len(runs) != 1 {
					t.Fatalf("%s: %d handler runs", transport, len(runs))
				}
				// A request refused at the digest: its signature not spent.
				var signed answer
				tampered := r.send(call{transport: transport, tool: "create_media_buy", args: `{"a":1}`, sign: true, edit: func(req *http.Request, body []byte) []byte {
					signed = answer{req: req.Clone(req.Context()), sent: append([]byte(nil), body...)}
					return bytes.Replace(body, []byte(`"a":1`), []byte(`"a":2`), 1)
				}})
				if tampered.status != 401 || tampered.code != signing.CodeDigestMismatch {
					t.Fatalf("%s: tampered: HTTP %d %q", transport, tampered.status, tampered.code)
				}
				if ok := r.resend(signed); ok.status != 200 {
					t.Fatalf("%s: the request as signed, after its tampered copy: HTTP %d %q %s", transport, ok.status, ok.code, ok.body)
				}
				if runs := r.handled(); len(runs) != 1 {
					t.Fatalf("%s: %d handler runs", transport, len(runs))
				}
			}
		})
	}
}

// get_adcp_capabilities advertises request_signing as each version's schema
// defines it (protocol methods from 3.1, covers_content_digest "required"
// in 3.2) and identity.brand_json_url where the version admits it (3.0.5
// and later); a seller without SignedRequests advertises neither.
func TestSellerAdvertises(t *testing.T) {
	for _, v := range versions {
		t.Run(v.version, func(t *testing.T) {
			for _, signed := range []bool{true, false} {
				r := newRig(t, v.version, v.source, func(c *seller.Options) {
					if !signed {
						c.SignedRequests, c.BrandJSONURL = nil, ""
					}
				})
				a := r.send(call{transport: "mcp", tool: "get_adcp_capabilities"})
				var resp struct {
					Result struct {
						StructuredContent json.RawMessage `json:"structuredContent"`
					} `json:"result"`
				}
				if err := json.Unmarshal(a.body, &resp); err != nil || a.status != 200 {
					t.Fatalf("HTTP %d %v: %s", a.status, err, a.body)
				}
				caps := resp.Result.StructuredContent
				got, err := signing.ParseCapability(caps)
				if err != nil {
					t.Fatal(err)
				}
				brand, _ := wire.Lenient(caps).Get("identity").Get("brand_json_url").AsString()
				if !signed {
					if got.Supported || brand != "" || wire.Lenient(caps).Get("request_signing").Present() {
						t.Fatalf("advertised without SignedRequests: %s", caps)
					}
					continue
				}
				p := policy(v.version)
				want := "either"
				if strings.HasPrefix(v.version, "3.2") {
					want = "required"
				}
				if !got.Supported || string(got.CoversContentDigest) != want || strings.Join(got.Policy.RequiredFor, ",") != "create_media_buy" ||
					strings.Join(got.Policy.ProtocolMethodsRequiredFor, ",") != strings.Join(p.ProtocolMethodsRequiredFor, ",") {
					t.Fatalf("request_signing %+v in %s", got, caps)
				}
				hasMethods := wire.Lenient(caps).Get("request_signing").Get("protocol_methods_supported_for").Present()
				since31 := !strings.HasPrefix(v.version, "3.0.")
				if hasMethods != since31 || brand == "" {
					t.Fatalf("protocol methods %v, brand_json_url %q: %s", hasMethods, brand, caps)
				}
			}
		})
	}
}

// AllowUnsignedWebhookAuthentication waives the webhook rule for an
// unsigned request on another valid credential, and nothing else: without
// a credential, or signed badly, it is refused as before.
func TestSellerWaivesWebhookRuleInASandbox(t *testing.T) {
	v := versions[1]
	r := newRig(t, v.version, v.source, func(c *seller.Options) { c.SignedRequests.AllowUnsignedWebhookAuthentication = true })
	for _, tc := range []struct {
		c      call
		status int
		code   signing.Code
	}{
		{call{transport: "mcp", tool: "sync_creatives", args: hookAuth, bearer: buyerKey}, 200, ""},
		{call{transport: "a2a", tool: "sync_creatives", args: hookAuth, bearer: buyerKey}, 200, ""},
		{call{transport: "mcp", tool: "create_media_buy", args: hookAuth}, 401, signing.CodeRequired},
		{call{transport: "mcp", tool: "sync_creatives", args: hookAuth, bearer: buyerKey, sign: true, edit: func(req *http.Request, body []byte) []byte {
			return bytes.Replace(body, []byte("mb_1"), []byte("mb_2"), 1)
		}}, 401, signing.CodeDigestMismatch},
	} {
		if a := r.send(tc.c); a.status != tc.status || a.code != tc.code {
			t.Fatalf("%s %s: HTTP %d %q, want %d %q", tc.c.transport, tc.c.tool, a.status, a.code, tc.status, tc.code)
		}
	}
}

// New refuses a configuration it could not serve.
func TestSellerRefusesBadSigningConfig(t *testing.T) {
	v := versions[0]
	for name, edit := range map[string]func(*seller.SignedRequests){
		"no keys":                     func(s *seller.SignedRequests) { s.Keys = nil },
		"required but not supported":  func(s *seller.SignedRequests) { s.Policy.SupportedFor = nil },
		"protocol methods before 3.1": func(s *seller.SignedRequests) { s.Policy.ProtocolMethodsSupportedFor = []string{"tasks/cancel"} },
		"an unknown digest policy":    func(s *seller.SignedRequests) { s.CoversContentDigest = "sometimes" },
	} {
		t.Run(name, func(t *testing.T) {
			sr := &seller.SignedRequests{Policy: policy(v.version), Keys: keys.Static{Set: buyerKeys.jwks}}
			edit(sr)
			if _, err := seller.New(specOf(t, v.version, v.source), seller.Options{SignedRequests: sr}); err == nil {
				t.Fatal("accepted")
			}
		})
	}
	v = versions[3]
	sr := &seller.SignedRequests{Policy: policy(v.version), Keys: keys.Static{Set: buyerKeys.jwks}, CoversContentDigest: signing.DigestEither}
	if _, err := seller.New(specOf(t, v.version, v.source), seller.Options{SignedRequests: sr}); err == nil {
		t.Fatal("a 3.2 seller accepted covers_content_digest either")
	}
}
