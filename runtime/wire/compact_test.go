package wire

import (
	"encoding/json"
	"reflect"
	"testing"
)

// Raw values are kept compact: whitespace between tokens goes, strings
// (spaces, escaped quotes and backslashes inside them) stay as sent.
func TestRawIsCompact(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"code":"x","ext":{ "a" : [ 1 , 2 ],` + "\n\t" + `"b":"s p\"a c e\\" }}`, `{"a":[1,2],"b":"s p\"a c e\\"}`},
		{`{"code":"x","ext":  "\u0020 kept "  }`, `"\u0020 kept "`},
		{`{"code":"x","ext":[ ]}`, `[]`},
		{`{"code":"x","ext":-1.5e3 }`, `-1.5e3`},
	}
	for _, tc := range tests {
		var v sample
		if err := Unmarshal([]byte(tc.in), &v); err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		if got := string(v.Extra["ext"]); got != tc.want {
			t.Errorf("%s: raw %s, want %s", tc.in, got, tc.want)
		}
		out, err := Marshal(&v)
		if err != nil {
			t.Fatal(err)
		}
		var again sample
		if err := Unmarshal(out, &again); err != nil || !reflect.DeepEqual(v, again) {
			t.Errorf("%s: re-encoded %s decodes to %+v (%v), want %+v", tc.in, out, again, err, v)
		}
	}
}

// The encoder compacts raw values handed to it, after checking them.
func TestEncoderRawCompacts(t *testing.T) {
	e := &Encoder{}
	e.ArrayStart()
	e.Raw(json.RawMessage(" { \"k\" : [ true , null ] } "))
	e.Raw(nil)
	e.ArrayEnd()
	if got, want := string(e.Bytes()), `[{"k":[true,null]},null]`; got != want || e.Err() != nil {
		t.Fatalf("got %s (%v), want %s", got, e.Err(), want)
	}
	e.Raw(json.RawMessage(`{"a":1,"a":2}`))
	if e.Err() == nil {
		t.Fatal("a raw value with a duplicate key was written")
	}
}
