package mcpserver

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/adcpgen/adcpgen/internal/sellertest"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// FuzzGateNeverWeaker: whatever body a buyer posts, signed or not, with
// the API key, a refused key or none, to a seller whose only credential is
// a signature and to one that also takes API keys, no call runs past a
// check it would meet alone: a handler runs only as the principal a plain
// call of its tool with the same credentials is admitted as (a batch, or a
// member named twice, changes nothing), no JSON-RPC batch runs anything,
// and Admit admits a batch only when it admits each element sent alone, as
// the same principal.
func FuzzGateNeverWeaker(f *testing.F) {
	g := sellertest.NewGated(f)
	const url = "http://seller.example/mcp"
	handlers := make([]http.Handler, len(g.Sellers))
	for i, s := range g.Sellers {
		h, err := NewStreamableHandler(s.Server, Options{Stateless: true, JSONResponse: true})
		if err != nil {
			f.Fatal(err)
		}
		handlers[i] = h
	}
	plain := func(tool string) []byte {
		return []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + tool + `","arguments":{}}}`)
	}
	buy, list, products := string(plain("create_media_buy")), string(plain("list_creatives")), string(plain("get_products"))
	hook := `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"get_products","arguments":{"push_notification_config":{"url":"https://b.example","authentication":{"schemes":["Bearer"],"credentials":"x"}}}}}`
	for _, seed := range []string{
		buy, list, products, hook,
		"[" + buy + "]", "[" + products + "," + buy + "]", "[" + list + "]", "[" + list + "," + products + "]", "[" + hook + "]",
		`[{"jsonrpc":"2.0","id":5,"method":"tasks/cancel","params":{}}]`, `[{"method":"initialize"}]`, `[]`, `[1,"x"]`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_products","name":"create_media_buy","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","Method":"tools/call","params":{"name":"create_media_buy","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_products","Name":"create_media_buy","arguments":{}}}`,
	} {
		for b := range uint8(3) {
			f.Add([]byte(seed), false, b)
			f.Add([]byte(seed), true, b)
		}
	}
	f.Fuzz(func(t *testing.T, body []byte, sign bool, bearer uint8) {
		v, err := wire.ParseLenient(body)
		batch := err == nil && v.IsArray()
		type decision struct {
			admitted  bool
			principal string
		}
		admit := func(i int, b []byte) decision {
			srv := g.Sellers[i].Server
			tool, _ := protectedCall(srv, b)
			adm, fail := srv.Admit(g.Request(t, url, b, sign, bearer), b, tool)
			return decision{fail == nil, adm.Principal.ID}
		}
		for i, s := range g.Sellers {
			g.Runs()
			handlers[i].ServeHTTP(httptest.NewRecorder(), g.Request(t, url, body, sign, bearer))
			runs := g.Runs()
			if batch && len(runs) > 0 {
				t.Fatalf("%s: the batch %q ran %+v", s.Name, body, runs)
			}
			for _, run := range runs {
				if alone := admit(i, plain(run.Tool)); !alone.admitted || alone.principal != run.Principal {
					t.Fatalf("%s (signed %v, bearer %d): %q ran %s as %q; alone it is %+v", s.Name, sign, bearer%3, body, run.Tool, run.Principal, alone)
				}
			}
			if !batch {
				continue
			}
			all := admit(i, body)
			v.Elems(func(e wire.Lenient) bool {
				if alone := admit(i, e.Raw()); all.admitted && (!alone.admitted || alone.principal != all.principal) {
					t.Fatalf("%s (signed %v, bearer %d): the batch %q is admitted as %q, its element %q alone %+v",
						s.Name, sign, bearer%3, body, all.principal, e.Raw(), alone)
				}
				return true
			})
		}
	})
}
