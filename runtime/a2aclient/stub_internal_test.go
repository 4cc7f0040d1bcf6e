package a2aclient

import (
	"testing"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/adcpgen/adcpgen/runtime/rawrpc"
)

// a2a-go is handed a task that says nothing in place of a result the slot
// recorded, with the same id, which it decodes without error; an error
// response reaches it as it came.
func TestStub(t *testing.T) {
	for _, id := range []string{`7`, `"req-1"`, `null`} {
		r, err := rawrpc.Parse([]byte(`{"jsonrpc":"2.0","id":` + id + `,"result":{"kind":"task","id":"t","contextId":"c","status":{"state":"completed"},"artifacts":[{"artifactId":"a","parts":[{"kind":"data","data":{"big":true}}]}]}}`))
		if err != nil {
			t.Fatal(err)
		}
		st := stub(r)
		sr, err := rawrpc.Parse(st)
		if err != nil || string(sr.ID) != id {
			t.Fatalf("stub %s: %v", st, err)
		}
		ev, err := a2a.UnmarshalEventJSON(sr.Result)
		if _, ok := ev.(*a2a.Task); err != nil || !ok {
			t.Errorf("a2a-go reads the stub %s as %T: %v", st, ev, err)
		}
	}
	r, err := rawrpc.Parse([]byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-32029,"message":"m"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if st := stub(r); st != nil {
		t.Errorf("an error response was replaced: %s", st)
	}
}
