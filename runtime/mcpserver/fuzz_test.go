package mcpserver

import (
	"slices"
	"testing"

	"github.com/adcpgen/adcpgen/generated/adcpt"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// FuzzProtectedCall: reading which tool a JSON-RPC body calls never
// panics, and a batch naming a protected tool is judged by it.
func FuzzProtectedCall(f *testing.F) {
	srv, err := seller.New(adcpt.Spec(), seller.Options{})
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_creatives","arguments":{}}}`,
		`[{"method":"tools/call","params":{"name":"get_products"}},{"method":"tools/call","params":{"name":"list_creatives"}}]`,
		`{"method":"initialize"}`, `[]`, `{`, ``, `{"method":"tools/call","params":{"name":7}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		tool, _ := protectedCall(srv, body)
		// The oracle: every tools/call name in the body, read leniently.
		var names []string
		v, err := wire.ParseLenient(body)
		if err == nil {
			each := func(m wire.Lenient) {
				if m.Get("method").StringIs("tools/call") {
					if n, ok := m.Get("params").Get("name").AsString(); ok {
						names = append(names, n)
					}
				}
			}
			if v.IsArray() {
				v.Elems(func(e wire.Lenient) bool { each(e); return true })
			} else {
				each(v)
			}
		}
		protected := false
		for _, n := range names {
			protected = protected || !srv.Public(n)
		}
		switch {
		case len(names) == 0 && tool != "":
			t.Fatalf("no call in %q, got tool %q", body, tool)
		case len(names) > 0 && !slices.Contains(names, tool):
			t.Fatalf("%q calls %q, got %q", body, names, tool)
		case protected && srv.Public(tool):
			t.Fatalf("%q calls a protected tool, judged by public %q", body, tool)
		}
	})
}
