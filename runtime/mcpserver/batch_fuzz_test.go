package mcpserver

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/adcpgen/adcpgen/internal/sellertest"
	"github.com/adcpgen/adcpgen/internal/sellertest/adcpt"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// FuzzBatchNeverWeaker: whatever body a buyer posts, signed or not, with a
// bearer key, a refused one or none, on a seller whose only credential is
// a signature and on one that also takes API keys: the gate lets no
// JSON-RPC batch through, and admits a batch (Admit, on the tool the gate
// picks) only when it admits each of its elements sent alone, as the same
// principal.
func FuzzBatchNeverWeaker(f *testing.F) {
	signed, signer := sellertest.Signed(f)
	signed.ReplayLimit = 1 << 30
	keyed := *signed
	sellers := map[string]*seller.Server{}
	for name, cfg := range map[string]seller.Options{
		"signatures only": {SignedRequests: signed},
		"and API keys":    {SignedRequests: &keyed, Authenticator: seller.APIKeys("x", map[string]string{"key-alice": "alice"})},
	} {
		srv, err := seller.New(adcpt.Spec(), cfg)
		if err != nil {
			f.Fatal(err)
		}
		sellers[name] = srv
	}
	buy := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_media_buy","arguments":{"idempotency_key":"k"}}}`
	list := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_creatives","arguments":{}}}`
	products := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_products","arguments":{}}}`
	hook := `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"get_products","arguments":{"push_notification_config":{"url":"https://b.example","authentication":{"schemes":["Bearer"],"credentials":"x"}}}}}`
	for _, seed := range []string{
		"[" + buy + "]", "[" + products + "," + buy + "]", "[" + list + "]", "[" + list + "," + products + "]",
		"[" + hook + "]", `[{"jsonrpc":"2.0","id":5,"method":"tasks/cancel","params":{}}]`, `[{"method":"initialize"}]`, `[]`, `[1,"x"]`,
		buy, products,
	} {
		for b := range uint8(3) {
			f.Add([]byte(seed), false, b)
			f.Add([]byte(seed), true, b)
		}
	}
	f.Fuzz(func(t *testing.T, body []byte, sign bool, bearer uint8) {
		v, err := wire.ParseLenient(body)
		if err != nil || !v.IsArray() {
			return
		}
		request := func(b []byte) *http.Request {
			r := httptest.NewRequest(http.MethodPost, "http://seller.example/mcp", bytes.NewReader(b))
			r.Header.Set("Content-Type", "application/json")
			r.Header.Set("Accept", "application/json, text/event-stream")
			switch bearer % 3 {
			case 1:
				r.Header.Set("Authorization", "Bearer key-alice")
			case 2:
				r.Header.Set("Authorization", "Bearer key-mallory")
			}
			if sign {
				if err := signer.SignRequest(r, b); err != nil {
					t.Fatal(err)
				}
			}
			return r
		}
		// admitted is Admit's decision on b, as the gate asks for it.
		type decision struct {
			admitted  bool
			principal string
		}
		admit := func(srv *seller.Server, b []byte) decision {
			tool, _ := protectedCall(srv, b)
			adm, fail := srv.Admit(request(b), b, tool)
			return decision{fail == nil, adm.Principal.ID}
		}
		for name, srv := range sellers {
			passed := false
			Gate(srv, http.HandlerFunc(func(http.ResponseWriter, *http.Request) { passed = true })).ServeHTTP(httptest.NewRecorder(), request(body))
			if passed {
				t.Fatalf("%s: the batch %q got past the gate", name, body)
			}
			batch := admit(srv, body)
			v.Elems(func(e wire.Lenient) bool {
				alone := admit(srv, e.Raw())
				if batch.admitted && (!alone.admitted || alone.principal != batch.principal) {
					t.Fatalf("%s (signed %v, bearer %d): the batch %q is admitted as %q, its element %q alone %+v",
						name, sign, bearer%3, body, batch.principal, e.Raw(), alone)
				}
				return true
			})
		}
	})
}
