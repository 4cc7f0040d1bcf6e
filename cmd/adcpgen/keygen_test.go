package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/signing/keys"

	"github.com/adcpgen/adcpgen/internal/testseller"
	"github.com/adcpgen/adcpgen/internal/testspec"
	"github.com/adcpgen/adcpgen/runtime/signing"
)

func runCmd(t *testing.T, args ...string) callRun {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: func(string) string { return "" }}
	code := run(e, args)
	return callRun{code, out.String(), errb.String()}
}

// keygen writes a private JWK (mode 0600) that signs, and the JWKS whose
// key verifies it, with the purpose members AdCP requires; it never
// overwrites a key.
func TestKeygen(t *testing.T) {
	for _, tc := range []struct {
		alg, use, kty string
	}{
		{"ed25519", "", "OKP"},
		{"ecdsa-p256-sha256", "webhook-signing", "EC"},
	} {
		t.Run(tc.alg, func(t *testing.T) {
			dir := t.TempDir()
			priv, jwksPath := filepath.Join(dir, "k.jwk"), filepath.Join(dir, "jwks.json")
			args := []string{"keygen", "--kid", "agent-2026", "--alg", tc.alg, "--private", priv, "--jwks", jwksPath}
			if tc.use != "" {
				args = append(args, "--adcp-use", tc.use)
			}
			if r := runCmd(t, args...); r.code != 0 || r.stdout != "" {
				t.Fatalf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
			}
			st, err := os.Stat(priv)
			if err != nil || st.Mode().Perm() != 0o600 {
				t.Fatalf("private JWK %v, mode %v", err, st.Mode())
			}
			data, _ := os.ReadFile(priv)
			key, pub, err := keys.ParsePrivateJWK(data)
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := os.ReadFile(jwksPath)
			set, err := keys.ParseJWKS(raw)
			if err != nil {
				t.Fatal(err)
			}
			k := set.Lookup("agent-2026")
			wantUse := tc.use
			if wantUse == "" {
				wantUse = "request-signing"
			}
			if k == nil || k.KeyType != tc.kty || k.Use != "sig" || strings.Join(k.KeyOps, ",") != "verify" || k.AdCPUse != wantUse || k.X != pub.X || k.Problem() != "" {
				t.Fatalf("published JWK %+v", k)
			}
			if bytes.Contains(raw, []byte(`"d"`)) {
				t.Fatal("the JWKS holds the private part")
			}
			// The pair works: sign a webhook with the private key, verify
			// with the published one.
			wp, _ := signing.WebhookProfile("3.1.19")
			s, err := signing.NewSigner(signing.SignerOptions{Profile: wp, KeyID: "agent-2026", Key: key})
			if err != nil {
				t.Fatal(err)
			}
			m := &signing.Message{Method: "POST", URL: "https://buyer.example/hook", Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(`{}`)}
			if err := s.Sign(m); err != nil {
				t.Fatal(err)
			}
			v, _ := signing.NewVerifier(signing.VerifierOptions{Profile: wp, Keys: keys.Static{Set: set}})
			if _, err := v.Verify(context.Background(), m); err != nil {
				t.Fatal(err)
			}
			if r := runCmd(t, args...); r.code != 2 || !strings.Contains(r.stderr, "never overwrites") {
				t.Fatalf("second run: exit %d, %s", r.code, r.stderr)
			}
		})
	}
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"keygen", "--private", filepath.Join(dir, "a")}, "missing --kid"},
		{[]string{"keygen", "--kid", "k"}, "missing --private"},
		{[]string{"keygen", "--kid", "k", "--private", filepath.Join(dir, "b"), "--alg", "rsa-pss-sha512"}, "--alg"},
		{[]string{"keygen", "--kid", "k", "--private", filepath.Join(dir, "c"), "--adcp-use", "governance-signing"}, "--adcp-use"},
	} {
		if r := runCmd(t, c.args...); r.code != 2 || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%v: exit %d, %s", c.args, r.code, r.stderr)
		}
	}
	// stdout when no --jwks.
	r := runCmd(t, "keygen", "--kid", "k", "--private", filepath.Join(dir, "d"))
	if _, err := keys.ParseJWKS([]byte(r.stdout)); r.code != 0 || err != nil {
		t.Fatalf("exit %d, %v: %s", r.code, err, r.stdout)
	}
}

// adcpgen call --signing-key signs what the seller's request_signing lists,
// with the encoding of the --spec version, and the seller's verifier (in
// front of the test seller) accepts it; calls it does not list go unsigned.
func TestCallSigningKey(t *testing.T) {
	schemas := filepath.Join(testspec.Dir(t), "schemas")
	dir := t.TempDir()
	priv, jwksPath := filepath.Join(dir, "k.jwk"), filepath.Join(dir, "jwks.json")
	if r := runCmd(t, "keygen", "--kid", "buyer-2026", "--private", priv, "--jwks", jwksPath); r.code != 0 {
		t.Fatal(r.stderr)
	}
	raw, _ := os.ReadFile(jwksPath)
	set, err := keys.ParseJWKS(raw)
	if err != nil {
		t.Fatal(err)
	}
	caps := `{"adcp":{"major_versions":[3]},"supported_protocols":["media_buy"],"request_signing":{"supported":true,"covers_content_digest":"required","required_for":["create_media_buy"],"supported_for":["create_media_buy"]}}`
	for _, version := range []string{"3.1.19", "3.2.0-beta.5"} {
		t.Run(version, func(t *testing.T) {
			s := testseller.NewMCPSeller(map[string]testseller.MCPReply{
				"get_adcp_capabilities": {StructuredContent: json.RawMessage(caps), Text: "caps"},
				"get_products":          {StructuredContent: json.RawMessage(`{"products":[]}`), Text: "none"},
				"create_media_buy":      {StructuredContent: json.RawMessage(`{"media_buy_id":"mb_1","packages":[]}`), Text: "done"},
			}, testseller.MCPOptions{})
			t.Cleanup(s.Close)
			p, _ := signing.RequestProfile(version)
			p, _ = p.WithDigest(signing.DigestRequired)
			v, err := signing.NewVerifier(signing.VerifierOptions{Profile: p, Keys: keys.Static{Set: set}, Scheme: "http"})
			if err != nil {
				t.Fatal(err)
			}
			target, _ := url.Parse(s.URL)
			proxy := httputil.NewSingleHostReverseProxy(target)
			var mu sync.Mutex
			verified := map[string]string{} // operation → keyid, or the error
			front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(r.Body)
				r.Body = io.NopCloser(bytes.NewReader(body))
				if op := signing.CallOf(body).Operation; op != "" {
					res := "unsigned"
					if r.Header.Get("Signature-Input") != "" {
						if sg, err := v.Verify(r.Context(), signing.MessageFromRequest(r, body, "http")); err != nil {
							res = err.Error()
						} else {
							res = sg.KeyID
						}
					}
					mu.Lock()
					verified[op] = res
					mu.Unlock()
				}
				proxy.ServeHTTP(w, r)
			}))
			t.Cleanup(front.Close)
			base := []string{"call", "--agent", front.URL, "--transport", "mcp", "--spec", filepath.Join(schemas, version), "--signing-key", priv}
			for _, tool := range []string{"get_products", "create_media_buy"} {
				if r := runCmd(t, append(base, "--tool", tool)...); r.code != 0 {
					t.Fatalf("%s: exit %d: %s %s", tool, r.code, r.stdout, r.stderr)
				}
			}
			want := map[string]string{"get_adcp_capabilities": "unsigned", "get_products": "unsigned", "create_media_buy": "buyer-2026"}
			mu.Lock()
			defer mu.Unlock()
			for op, res := range want {
				if verified[op] != res {
					t.Errorf("%s: %q, want %q", op, verified[op], res)
				}
			}
		})
	}
	t.Run("a spec without a signing profile", func(t *testing.T) {
		r := runCmd(t, "call", "--agent", "http://127.0.0.1:1/mcp", "--spec", callSpecDir, "--tool", "get_things", "--signing-key", priv)
		if r.code != 2 || !strings.Contains(r.stderr, "--signing-key") {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
	})
	t.Run("not a private key", func(t *testing.T) {
		r := runCmd(t, "call", "--agent", "http://127.0.0.1:1/mcp", "--spec", filepath.Join(schemas, "3.1.19"), "--tool", "get_things", "--signing-key", jwksPath)
		if r.code != 2 || !strings.Contains(r.stderr, "--signing-key") {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
	})
}
