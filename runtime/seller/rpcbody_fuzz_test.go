package seller

import (
	"bytes"
	"encoding/json"
	"testing"
)

func decodeNumber(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	return v, dec.Decode(&v)
}

// FuzzLeadingID: the id read from a request's first bytes, cut anywhere,
// never panics, is a JSON number or string, and is the id encoding/json
// reads from the whole request when that is one JSON object.
func FuzzLeadingID(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"a":1}}`,
		`{"id":"r\u0031","params":[1,{"x":"}"}]}`, `{"params":{"id":3},"id":4}`, `{"id":null}`, `{"id":1e400}`,
		`{"jsonrpc":"2.0","params":{"a":"xxxx`, `[{"id":1}]`, `{"id":{"a":1}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		id := leadingID(b)
		if id == nil {
			return
		}
		v, err := decodeNumber(id)
		if err != nil {
			t.Fatalf("%q: id %s is not JSON: %v", b, id, err)
		}
		switch v.(type) {
		case json.Number, string:
		default:
			t.Fatalf("%q: id %s is neither a number nor a string", b, id)
		}
		// Compared where the whole request is an object naming its id
		// once, plainly (a duplicate's last value wins in encoding/json).
		var whole map[string]json.RawMessage
		if bytes.Count(b, []byte(`"id"`)) == 1 && !bytes.Contains(b, []byte(`\u`)) && json.Unmarshal(b, &whole) == nil && whole["id"] != nil {
			if want, _ := decodeNumber(whole["id"]); want != v {
				t.Fatalf("%q: read id %s, encoding/json reads %s", b, id, whole["id"])
			}
		}
	})
}
