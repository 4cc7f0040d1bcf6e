package rawrpc

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzParse checks Parse against encoding/json: what Parse accepts is
// valid JSON, an object whose members encoding/json reads to the same id,
// result and error bytes; and an object encoding/json reads without a
// repeated name, holding result or error but not both, Parse accepts.
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
		r, err := Parse(msg)
		var members map[string]json.RawMessage
		stdErr := json.Unmarshal(msg, &members)
		if err != nil {
			if stdErr == nil && json.Valid(msg) && uniqueNames(msg) && (members["result"] == nil) != (members["error"] == nil) && deepEnough(msg) {
				t.Fatalf("%q: refused (%v), but encoding/json reads a response", msg, err)
			}
			return
		}
		if stdErr != nil {
			t.Fatalf("%q: accepted, but encoding/json says %v", msg, stdErr)
		}
		for name, got := range map[string]json.RawMessage{"id": r.ID, "result": r.Result, "error": r.Error} {
			if want := members[name]; !bytes.Equal(got, want) {
				t.Fatalf("%q: %s is %s, encoding/json reads %s", msg, name, got, want)
			}
		}
	})
}

// uniqueNames reports whether the top-level object repeats no member name
// (after unescaping).
func uniqueNames(msg []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(msg))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return false
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		name, _ := tok.(string)
		if seen[name] {
			return false
		}
		seen[name] = true
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return false
		}
	}
	return true
}

// deepEnough excludes nesting beyond the runtime's depth limit, which
// Parse refuses and encoding/json reads.
func deepEnough(msg []byte) bool {
	depth, max := 0, 0
	for _, c := range msg {
		switch c {
		case '{', '[':
			depth++
			max = maxInt(max, depth)
		case '}', ']':
			depth--
		}
	}
	return max <= 512
}

func maxInt(a, b int) int {
	if a > b {
		return a
	}
	return b
}
