package a2aserver

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/adcpgen/adcpgen/internal/sellertest"
	"github.com/adcpgen/adcpgen/internal/sellertest/adcpt"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// FuzzBatchNeverWeaker: whatever body a buyer posts, signed or not, with a
// bearer key, a refused one or none, on a seller whose only credential is
// a signature and on one that also takes API keys: no JSON-RPC batch runs
// a skill, and a batch is admitted (Admit, on the skill the handler
// picks) only when each of its elements sent alone is, as the same
// principal.
func FuzzBatchNeverWeaker(f *testing.F) {
	signed, signer := sellertest.Signed(f)
	signed.ReplayLimit = 1 << 30
	keyed := *signed
	var runs atomic.Int64
	type served struct {
		srv *seller.Server
		h   http.Handler
	}
	sellers := map[string]served{}
	for name, cfg := range map[string]seller.Options{
		"signatures only": {SignedRequests: signed},
		"and API keys":    {SignedRequests: &keyed, Authenticator: seller.APIKeys("x", map[string]string{"key-alice": "alice"})},
	} {
		srv, err := seller.New(adcpt.Spec(), cfg)
		if err != nil {
			f.Fatal(err)
		}
		for _, tool := range []string{"create_media_buy", "list_creatives", "get_products"} {
			srv.HandleRaw(seller.RawTool{Name: tool, Public: tool == "get_products", Handler: func(context.Context, *seller.Call) *seller.Answer {
				runs.Add(1)
				return &seller.Answer{Status: task.Completed, Body: json.RawMessage(`{}`)}
			}})
		}
		sellers[name] = served{srv, NewHandler(srv, Options{URL: "http://seller.example/a2a"})}
	}
	message := func(skill, input string) string {
		return `{"jsonrpc":"2.0","id":"1","method":"message/send","params":{"message":{"kind":"message","messageId":"m","role":"user","parts":[{"kind":"data","data":{"skill":"` + skill + `","input":` + input + `}}]}}}`
	}
	buy, list, products := message("create_media_buy", `{"idempotency_key":"k"}`), message("list_creatives", `{}`), message("get_products", `{}`)
	hook := message("get_products", `{"push_notification_config":{"url":"https://b.example","authentication":{"schemes":["Bearer"],"credentials":"x"}}}`)
	for _, seed := range []string{
		"[" + buy + "]", "[" + products + "," + buy + "]", "[" + list + "]", "[" + list + "," + products + "]",
		"[" + hook + "]", `[{"jsonrpc":"2.0","id":5,"method":"tasks/cancel","params":{"id":"t"}}]`, `[{"method":"tasks/get","params":{"id":"t"}}]`, `[]`, `[1,"x"]`,
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
			r := httptest.NewRequest(http.MethodPost, "http://seller.example/a2a", bytes.NewReader(b))
			r.Header.Set("Content-Type", "application/json")
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
		type decision struct {
			admitted  bool
			principal string
		}
		admit := func(srv *seller.Server, b []byte) decision {
			adm, fail := srv.Admit(request(b), b, calledSkill(b))
			return decision{fail == nil, adm.Principal.ID}
		}
		for name, s := range sellers {
			before := runs.Load()
			s.h.ServeHTTP(httptest.NewRecorder(), request(body))
			if runs.Load() != before {
				t.Fatalf("%s: the batch %q ran a skill", name, body)
			}
			batch := admit(s.srv, body)
			v.Elems(func(e wire.Lenient) bool {
				alone := admit(s.srv, e.Raw())
				if batch.admitted && (!alone.admitted || alone.principal != batch.principal) {
					t.Fatalf("%s (signed %v, bearer %d): the batch %q is admitted as %q, its element %q alone %+v",
						name, sign, bearer%3, body, batch.principal, e.Raw(), alone)
				}
				return true
			})
		}
	})
}
