package signing

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/runtime/signing/keys"

	"github.com/adcpgen/adcpgen/internal/testspec"
)

// TestBodyIntegrityPolicyVectors replays body-integrity-policy.json, the
// 3.2 reference-evaluator matrix, against the real verifier: each case's
// facts are made into a signed request (signed without content-digest,
// its body swapped, its digest rewritten, its header pair broken, as the
// case says) and Decide must reach the case's action, code and signer.
func TestBodyIntegrityPolicyVectors(t *testing.T) {
	data, err := os.ReadFile(testspec.Path(t, "test-vectors", "request-signing", "body-integrity-policy.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Cases []struct {
			ID                   string  `json:"id"`
			EndpointProfile      string  `json:"endpoint_profile"`
			Mode                 string  `json:"mode"`
			LegacyDigestPolicy   string  `json:"legacy_digest_policy"`
			HasBody              bool    `json:"has_body"`
			SignaturePresent     bool    `json:"signature_present"`
			SignatureHeaderState string  `json:"signature_header_state"`
			CoversContentDigest  bool    `json:"covers_content_digest"`
			DigestMatchesBody    *bool   `json:"digest_matches_body"`
			CryptoValid          *bool   `json:"cryptographic_signature_valid"`
			FallbackAuthValid    bool    `json:"fallback_auth_valid"`
			BodyAdCPVersion      *string `json:"request_body_adcp_version"`
			Expected             struct {
				Action                 string `json:"action"`
				ErrorCode              string `json:"error_code"`
				AuthenticationSource   string `json:"authentication_source"`
				VerifiedSignerIdentity bool   `json:"verified_signer_identity"`
			} `json:"expected"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	pub, priv, _ := ed25519.GenerateKey(nil)
	jwk, _ := keys.PublicJWK(pub, "k1")
	now := time.Unix(1776520800, 0)
	for _, c := range doc.Cases {
		t.Run(c.ID, func(t *testing.T) {
			endpoint, err := RequestProfile(c.EndpointProfile)
			if err != nil {
				t.Fatal(err)
			}
			if c.LegacyDigestPolicy != "" {
				if endpoint, err = endpoint.WithDigest(DigestPolicy(c.LegacyDigestPolicy)); err != nil {
					t.Fatal(err)
				}
			}
			// The signer writes the endpoint's encoding but covers the
			// digest only as the case says.
			signAs := endpoint
			signAs.digest = DigestForbidden
			if c.CoversContentDigest {
				signAs.digest = DigestRequired
			}
			s, err := NewSigner(SignerOptions{Profile: signAs, KeyID: "k1", Key: priv, Now: func() time.Time { return now }})
			if err != nil {
				t.Fatal(err)
			}
			var pol OperationPolicy
			call := Invocation{Operation: "create_media_buy"}
			switch c.Mode {
			case "supported_for":
				pol.SupportedFor = []string{"create_media_buy"}
			case "warn_for":
				pol.SupportedFor, pol.WarnFor = []string{"create_media_buy"}, []string{"create_media_buy"}
			case "required_for":
				pol.SupportedFor, pol.RequiredFor = []string{"create_media_buy"}, []string{"create_media_buy"}
			case "protocol_methods_supported_for":
				pol.ProtocolMethodsSupportedFor = []string{"tasks/cancel"}
			case "protocol_methods_warn_for":
				pol.ProtocolMethodsSupportedFor, pol.ProtocolMethodsWarnFor = []string{"tasks/cancel"}, []string{"tasks/cancel"}
			case "protocol_methods_required_for":
				pol.ProtocolMethodsSupportedFor, pol.ProtocolMethodsRequiredFor = []string{"tasks/cancel"}, []string{"tasks/cancel"}
			default:
				t.Fatalf("mode %q: the harness cannot run it", c.Mode)
			}
			if pol.SupportedFor == nil {
				call = Invocation{Method: "tasks/cancel"}
			}
			if err := pol.Validate(); err != nil {
				t.Fatal(err)
			}

			m := &Message{Method: "POST", URL: "https://seller.example.com/mcp", Header: http.Header{}}
			if c.HasBody {
				body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_media_buy","arguments":{"plan_id":"p1"}}}`
				if c.BodyAdCPVersion != nil {
					body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_media_buy","arguments":{"adcp_version":"` + *c.BodyAdCPVersion + `"}}}`
				}
				m.Body = []byte(body)
				m.Header.Set("Content-Type", "application/json")
			} else {
				m.Method = "GET"
			}
			if c.SignaturePresent {
				if err := s.Sign(m); err != nil {
					t.Fatal(err)
				}
				other := []byte(`{"jsonrpc":"2.0","id":1,"method":"tasks/cancel","params":{"taskId":"t1"}}`)
				valid := c.CryptoValid == nil || *c.CryptoValid
				matches := c.DigestMatchesBody == nil || *c.DigestMatchesBody
				switch {
				case c.SignatureHeaderState == "malformed_pair":
					m.Header.Del("Signature-Input")
				case !valid && matches: // body and digest rewritten together
					m.Body = other
					m.Header.Set("Content-Digest", ContentDigest(other, endpoint.digestEncoding()))
				case !valid: // body rewritten, digest rewritten to something else
					m.Body = other
					m.Header.Set("Content-Digest", ContentDigest([]byte("stale"), endpoint.digestEncoding()))
				case !matches: // body swapped under a valid signature
					m.Body = other
				}
			}
			v, err := NewVerifier(VerifierOptions{Profile: endpoint, Keys: keys.Static{Set: &keys.JWKS{Keys: []*keys.JWK{jwk}}}, Now: func() time.Time { return now }})
			if err != nil {
				t.Fatal(err)
			}
			d := v.Decide(context.Background(), m, pol.Mode(call), c.FallbackAuthValid)
			want := map[string]Verdict{"accept": Accept, "accept_with_warning": AcceptWithWarning, "reject": Reject, "reject_unauthenticated": Unauthenticated}[c.Expected.Action]
			if want == 0 {
				t.Fatalf("expected action %q: the harness cannot check it", c.Expected.Action)
			}
			if d.Verdict != want {
				t.Fatalf("action %s, want %s (%v)", d.Verdict, want, d.Err)
			}
			if c.Expected.ErrorCode != "" && string(CodeOf(d.Err)) != c.Expected.ErrorCode {
				t.Fatalf("code %s, want %s (%v)", CodeOf(d.Err), c.Expected.ErrorCode, d.Err)
			}
			if (d.Signer != nil) != c.Expected.VerifiedSignerIdentity {
				t.Fatalf("signer %+v, want one: %v", d.Signer, c.Expected.VerifiedSignerIdentity)
			}
			if src := c.Expected.AuthenticationSource; src != "" && (src == "signature") != (d.Signer != nil) {
				t.Fatalf("authentication source %s, signer %+v", src, d.Signer)
			}
		})
	}
	t.Logf("%d body-integrity policy cases", len(doc.Cases))
}
