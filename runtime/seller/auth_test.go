package seller_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/adcpgen/adcpgen/internal/sellertest"
	"github.com/adcpgen/adcpgen/runtime/seller"
)

func TestAuthorize(t *testing.T) {
	s := sellertest.NewSeller(t, seller.Config{Authenticator: seller.APIKeys("https://seller.example/mcp", map[string]string{"key-alice": "alice", "key-bob": "bob"})})
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
