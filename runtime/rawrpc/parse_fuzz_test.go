package rawrpc

import (
	"bytes"
	"testing"
)

// FuzzParse checks that the one-pass reading of a valid message and the
// token-by-token reading agree on every input.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":7,"result":{"a":1,"a":2}}`,
		` {"jsonrpc":"2.0", "error" : {"code":-32029,"data":{"\u005f_proto__":1}}, "id":"r1"} `,
		`{"jsonrpc":"2.0","id":1,"result":{},"\u0072esult":{}}`,
		`{"id":1,"result":"a\"}b","x":[1,{"y":"]"}]}`,
		`{"jsonrpc":"2.0","id":1}`, `[]`, `{"a":}`, `{"result":{}} {}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, msg []byte) {
		fast, ferr := Parse(msg)
		slow, serr := parseSlow(msg)
		if (ferr == nil) != (serr == nil) {
			t.Fatalf("%q: one-pass %v, token by token %v", msg, ferr, serr)
		}
		if ferr != nil {
			return
		}
		if !bytes.Equal(fast.ID, slow.ID) || !bytes.Equal(fast.Result, slow.Result) || !bytes.Equal(fast.Error, slow.Error) {
			t.Fatalf("%q: one-pass %s %s %s, token by token %s %s %s", msg, fast.ID, fast.Result, fast.Error, slow.ID, slow.Result, slow.Error)
		}
	})
}
