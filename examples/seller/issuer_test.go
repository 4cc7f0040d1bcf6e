package main

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"example.com/seller/internal/jws"

	"github.com/a2aproject/a2a-go/a2a"
	a2a_client "github.com/a2aproject/a2a-go/a2aclient"
	"github.com/a2aproject/a2a-go/a2aclient/agentcard"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// The seller's own OAuth: a buyer discovers the issuer from each
// endpoint's protected-resource metadata (go-sdk's oauthex, which checks
// the resource), reads the issuer's metadata, gets a token with the client
// credentials grant through golang.org/x/oauth2, and calls the seller with
// it through go-sdk's MCP client and a2a-go's client; a token asked for one
// endpoint does not open the other.
func TestOAuthClientCredentials(t *testing.T) {
	base := startAgent(t)
	ctx := t.Context()
	var tokenURL string
	for _, path := range []string{"/mcp", "/a2a"} {
		prm, err := oauthex.GetProtectedResourceMetadata(ctx, base+"/.well-known/oauth-protected-resource"+path, base+path, http.DefaultClient)
		if err != nil || prm == nil || len(prm.AuthorizationServers) != 1 || prm.AuthorizationServers[0] != base {
			t.Fatalf("%s metadata: %+v %v", path, prm, err)
		}
		var as struct {
			Issuer        string   `json:"issuer"`
			TokenEndpoint string   `json:"token_endpoint"`
			JWKSURI       string   `json:"jwks_uri"`
			Grants        []string `json:"grant_types_supported"`
		}
		getJSON(t, prm.AuthorizationServers[0]+"/.well-known/oauth-authorization-server", &as)
		if as.Issuer != base || as.TokenEndpoint != base+"/oauth/token" || len(as.Grants) != 1 || as.Grants[0] != "client_credentials" {
			t.Fatalf("issuer metadata %+v", as)
		}
		var jwks struct {
			Keys []map[string]string `json:"keys"`
		}
		getJSON(t, as.JWKSURI, &jwks)
		if len(jwks.Keys) != 1 || jwks.Keys[0]["alg"] != "ES256" || jwks.Keys[0]["crv"] != "P-256" || jwks.Keys[0]["kid"] == "" {
			t.Fatalf("jwks %+v", jwks)
		}
		tokenURL = as.TokenEndpoint
	}
	token := func(resource string, style oauth2.AuthStyle) string {
		t.Helper()
		cc := clientcredentials.Config{ClientID: testClientID, ClientSecret: testClientSecret, TokenURL: tokenURL, AuthStyle: style}
		if resource != "" {
			cc.EndpointParams = url.Values{"resource": {resource}}
		}
		tok, err := cc.Token(ctx)
		if err != nil {
			t.Fatalf("token for %q: %v", resource, err)
		}
		if tok.TokenType != "Bearer" || time.Until(tok.Expiry) > tokenTTL || time.Until(tok.Expiry) < tokenTTL-time.Minute {
			t.Fatalf("token %+v", tok)
		}
		return tok.AccessToken
	}
	// client_secret_post for one, client_secret_basic for the other.
	forMCP, forBoth := token(base+"/mcp", oauth2.AuthStyleInParams), token("", oauth2.AuthStyleInHeader)

	for _, tok := range []string{forMCP, forBoth} {
		cs := mcpBuyer(t, base, tok)
		if r := call(t, cs, "list_creatives", `{"context":{"k":1}}`); r.Error != nil || !strings.Contains(string(r.Data), `"creatives":[]`) {
			t.Fatalf("list_creatives over MCP with a token: %+v %s", r.Error, r.Data)
		}
		// The token stands for the API key's principal: its idempotency
		// records are the same buyer's.
		if r := call(t, cs, "create_media_buy", buyArgs("7e57ab1e-0000-4000-8000-000000000001", "", "")); r.Error != nil {
			t.Fatalf("create_media_buy with a token: %+v", r.Error)
		}
	}
	if r := call(t, mcpBuyer(t, base, testKey), "create_media_buy", buyArgs("7e57ab1e-0000-4000-8000-000000000001", "", "")); string(wire.Lenient(r.Data).Get("replayed")) != "true" {
		t.Fatalf("the API key's buyer is not the token's: %s", r.Data)
	}

	a2aWith := func(tok string) *a2a_client.Client {
		card, err := agentcard.NewResolver(http.DefaultClient).Resolve(ctx, base)
		if err != nil {
			t.Fatal(err)
		}
		c, err := a2a_client.NewFromCard(ctx, card, a2a_client.WithJSONRPCTransport(client(tok)))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	if tk, r := send(t, a2aWith(forBoth), "list_creatives", `{}`); tk.Status.State != a2a.TaskStateCompleted || r.Error != nil {
		t.Fatalf("list_creatives over A2A with a token: %+v %+v", tk.Status, r.Error)
	}
	msg := a2a.NewMessage(a2a.MessageRoleUser, a2a.DataPart{Data: map[string]any{"skill": "list_creatives", "input": map[string]any{}}})
	if _, err := a2aWith(forMCP).SendMessage(ctx, &a2a.MessageSendParams{Message: msg}); err == nil {
		t.Fatal("a token for /mcp opened /a2a")
	}
}

// TestOAuthRefusals: what the token endpoint refuses (RFC 6749 section
// 5.2, RFC 8707) and what the protected resources refuse, each with its
// error and challenge.
func TestOAuthRefusals(t *testing.T) {
	base, a := startAgentOf(t)
	form := func(kv ...string) string {
		v := url.Values{}
		for i := 0; i < len(kv); i += 2 {
			v.Add(kv[i], kv[i+1])
		}
		return v.Encode()
	}
	good := []string{"grant_type", "client_credentials", "client_id", testClientID, "client_secret", testClientSecret}
	for _, c := range []struct {
		name, body, ctype, basic string
		status                   int
		code                     string
	}{
		{name: "wrong secret", body: form("grant_type", "client_credentials", "client_id", testClientID, "client_secret", "wrong-secret-0123456789"), status: 401, code: "invalid_client"},
		{name: "unknown client", body: form("grant_type", "client_credentials", "client_id", "mallory", "client_secret", testClientSecret), status: 401, code: "invalid_client"},
		{name: "no client", body: form("grant_type", "client_credentials"), status: 401, code: "invalid_client"},
		{name: "basic and post together", body: form(good...), basic: testClientID + ":" + testClientSecret, status: 400, code: "invalid_request"},
		{name: "another grant", body: form("grant_type", "password", "client_id", testClientID, "client_secret", testClientSecret), status: 400, code: "unsupported_grant_type"},
		{name: "no grant", body: form("client_id", testClientID, "client_secret", testClientSecret), status: 400, code: "invalid_request"},
		{name: "a repeated parameter", body: form(append(good, "grant_type", "client_credentials")...), status: 400, code: "invalid_request"},
		{name: "a scope", body: form(append(good, "scope", "admin")...), status: 400, code: "invalid_scope"},
		{name: "an unknown resource", body: form(append(good, "resource", "https://elsewhere.example/mcp")...), status: 400, code: "invalid_target"},
		{name: "JSON body", body: `{"grant_type":"client_credentials"}`, ctype: "application/json", status: 400, code: "invalid_request"},
	} {
		t.Run(c.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodPost, base+"/oauth/token", strings.NewReader(c.body))
			ctype := c.ctype
			if ctype == "" {
				ctype = "application/x-www-form-urlencoded"
			}
			req.Header.Set("Content-Type", ctype)
			if c.basic != "" {
				id, secret, _ := strings.Cut(c.basic, ":")
				req.SetBasicAuth(id, secret)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var body struct {
				Error string `json:"error"`
			}
			_ = json.NewDecoder(resp.Body).Decode(&body)
			if resp.StatusCode != c.status || body.Error != c.code || resp.Header.Get("Cache-Control") != "no-store" {
				t.Fatalf("%d %q, want %d %q", resp.StatusCode, body.Error, c.status, c.code)
			}
			if c.code == "invalid_client" && !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Basic ") {
				t.Errorf("invalid_client without a Basic challenge: %q", resp.Header.Get("WWW-Authenticate"))
			}
		})
	}

	// Tokens the protected resources refuse: 401, error="invalid_token",
	// and the metadata of the resource asked for. Each is the seller's own
	// token but for one thing, or a token of another key.
	other, err := newIssuer(base, []string{"/mcp", "/a2a"}, testClientID, testClientSecret, principal, nil)
	if err != nil {
		t.Fatal(err)
	}
	sign := func(is *issuer, change func(*accessClaims)) string {
		now := time.Now()
		c := accessClaims{Issuer: base, Subject: principal, Audience: audience{base + "/mcp", base + "/a2a"}, ClientID: testClientID,
			IssuedAt: now.Unix(), Expiry: now.Add(tokenTTL).Unix(), ID: "j"}
		if change != nil {
			change(&c)
		}
		tok, err := jws.Sign(is.key, is.kid, "at+jwt", c)
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	own := a.oauth
	if ok := sign(own, nil); !strings.Contains(string(wire.Lenient(call(t, mcpBuyer(t, base, ok), "list_creatives", `{}`).Data)), "creatives") {
		t.Fatal("the unchanged token is refused: the cases below prove nothing")
	}
	parts := strings.Split(sign(own, nil), ".")
	now := time.Now().Unix()
	dup, err := jws.Sign(own.key, own.kid, "at+jwt", json.RawMessage(fmt.Sprintf(`{"iss":%q,"sub":"mallory","sub":%q,"aud":[%q,%q],"iat":%d,"exp":%d}`,
		base, principal, base+"/mcp", base+"/a2a", now, now+600)))
	if err != nil {
		t.Fatal(err)
	}
	for name, tok := range map[string]string{
		"another key":        sign(other, nil),
		"expired":            sign(own, func(c *accessClaims) { c.Expiry = time.Now().Add(-time.Second).Unix() }),
		"no expiry":          sign(own, func(c *accessClaims) { c.Expiry = 0 }),
		"issued in a while":  sign(own, func(c *accessClaims) { c.IssuedAt = time.Now().Add(time.Hour).Unix() }),
		"another issuer":     sign(own, func(c *accessClaims) { c.Issuer = "https://issuer.example" }),
		"another audience":   sign(own, func(c *accessClaims) { c.Audience = audience{"https://seller.example/mcp"} }),
		"no subject":         sign(own, func(c *accessClaims) { c.Subject = "" }),
		"alg none":           base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none","typ":"at+jwt","kid":"`+own.kid+`"}`)) + "." + parts[1] + ".",
		"a random signature": parts[0] + "." + parts[1] + "." + base64.RawURLEncoding.EncodeToString(make([]byte, 64)),
		"a changed payload":  parts[0] + "." + base64.RawURLEncoding.EncodeToString([]byte(`{"sub":"mallory"}`)) + "." + parts[2],
		"not a JWT":          "invalid-0123456789abcdef",
		"a duplicate claim":  dup,
	} {
		for _, path := range []string{"/mcp", "/a2a"} {
			req, _ := http.NewRequest(http.MethodPost, base+path, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_creatives","arguments":{}}}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json")
			req.Header.Set("Authorization", "Bearer "+tok)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			want := `Bearer resource_metadata="` + base + `/.well-known/oauth-protected-resource` + path + `", error="invalid_token"`
			if resp.StatusCode != 401 || resp.Header.Get("WWW-Authenticate") != want {
				t.Errorf("%s at %s: %d %q", name, path, resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
			}
		}
	}
}

func getJSON(t *testing.T, u string, v any) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || json.Unmarshal(body, v) != nil {
		t.Fatalf("GET %s: %d %s", u, resp.StatusCode, body)
	}
}
