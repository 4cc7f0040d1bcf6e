package seller_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/internal/sellertest"
	"github.com/adcpgen/adcpgen/runtime/seller"
)

func TestAuthorize(t *testing.T) {
	s := sellertest.NewSeller(t, seller.Options{Authenticator: seller.APIKeys("https://seller.example/mcp", map[string]string{"key-alice": "alice", "key-bob": "bob"})})
	for _, c := range []struct {
		name, header, tool string
		wantID             string
		wantStatus         int
		wantChallenge      string
		wantCode           string
	}{
		{"alice", "Bearer key-alice", "list_creatives", "alice", 0, "", ""},
		{"scheme case", "bearer key-bob", "list_creatives", "bob", 0, "", ""},
		{"anonymous public", "", "get_products", "", 0, "", ""},
		{"anonymous discovery", "", "", "", 0, "", ""},
		{"missing", "", "list_creatives", "", 401, `Bearer realm="https://seller.example/mcp"`, "AUTH_REQUIRED"},
		{"wrong key", "Bearer key-mallory", "list_creatives", "", 401, `Bearer realm="https://seller.example/mcp", error="invalid_token"`, "AUTH_REQUIRED"},
		{"wrong key, public tool", "Bearer key-mallory", "get_products", "", 401, `Bearer realm="https://seller.example/mcp", error="invalid_token"`, "AUTH_REQUIRED"},
		{"another scheme", "Basic a2V5LWFsaWNl", "list_creatives", "", 401, `Bearer realm="https://seller.example/mcp", error="invalid_token"`, "AUTH_REQUIRED"},
		{"empty token", "Bearer ", "list_creatives", "", 401, `Bearer realm="https://seller.example/mcp", error="invalid_token"`, "AUTH_REQUIRED"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, "/mcp", nil)
			if c.header != "" {
				r.Header.Set("Authorization", c.header)
			}
			p, fail := s.Authorize(r, c.tool)
			if c.wantStatus == 0 {
				if fail != nil || p.ID != c.wantID {
					t.Fatalf("got %+v %+v", p, fail)
				}
				return
			}
			if fail == nil || fail.Status != c.wantStatus || fail.Challenge != c.wantChallenge || fail.Error.Code != c.wantCode {
				t.Fatalf("got %+v", fail)
			}
		})
	}
	if _, ok := seller.PrincipalFrom(seller.WithPrincipal(t.Context(), seller.Principal{})); ok {
		t.Error("the anonymous principal reported as authenticated")
	}
}

// headerKey authenticates "X-Key: KEY" (not a bearer token), to combine
// with APIKeys in FirstOf.
type headerKey struct{ key, id string }

func (h headerKey) Authenticate(r *http.Request) (seller.Principal, error) {
	switch v := r.Header.Get("X-Key"); v {
	case "":
		return seller.Principal{}, seller.ErrNoCredentials
	case h.key:
		return seller.Principal{ID: h.id}, nil
	}
	return seller.Principal{}, seller.ErrBadCredentials
}

func (headerKey) Challenge(error) string { return "XKey" }

// TestFirstOf: the first authenticator that accepts wins; a credential
// one of them refused is refused even when another saw none; the
// challenge is the first authenticator's.
func TestFirstOf(t *testing.T) {
	auth := seller.FirstOf(seller.APIKeys("https://seller.example/mcp", map[string]string{"key-alice": "alice"}), headerKey{"xk-bob", "bob"})
	s := sellertest.NewSeller(t, seller.Options{Authenticator: auth})
	for _, c := range []struct {
		name, bearer, xkey, tool string
		wantID                   string
		wantChallenge            string
	}{
		{name: "the first accepts", bearer: "key-alice", tool: "list_creatives", wantID: "alice"},
		{name: "the second accepts", xkey: "xk-bob", tool: "list_creatives", wantID: "bob"},
		{name: "the first wins", bearer: "key-alice", xkey: "xk-bob", tool: "list_creatives", wantID: "alice"},
		{name: "none presented, public tool", tool: "get_products"},
		{name: "none presented", tool: "list_creatives", wantChallenge: `Bearer realm="https://seller.example/mcp"`},
		{name: "refused by the first, none for the second", bearer: "key-mallory", tool: "get_products", wantChallenge: `Bearer realm="https://seller.example/mcp", error="invalid_token"`},
		{name: "refused by the second, none for the first", xkey: "xk-mallory", tool: "get_products", wantChallenge: `Bearer realm="https://seller.example/mcp", error="invalid_token"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, "/mcp", nil)
			if c.bearer != "" {
				r.Header.Set("Authorization", "Bearer "+c.bearer)
			}
			if c.xkey != "" {
				r.Header.Set("X-Key", c.xkey)
			}
			p, fail := s.Authorize(r, c.tool)
			if c.wantChallenge == "" {
				if fail != nil || p.ID != c.wantID {
					t.Fatalf("got %+v %+v", p, fail)
				}
				return
			}
			if fail == nil || fail.Status != http.StatusUnauthorized || fail.Challenge != c.wantChallenge {
				t.Fatalf("got %+v %+v", p, fail)
			}
			if msg := fail.Err.Error(); strings.Contains(msg, "\n") || strings.Count(msg, "credentials refused") > 1 {
				t.Errorf("log reason %q", msg)
			}
		})
	}
}
