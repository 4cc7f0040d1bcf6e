package goldentest

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/generator/testdata/golden/foundation"
	"github.com/adcpgen/adcpgen/generator/testdata/golden/maps"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// A const is checked wherever it stands, with the same kind and a pointer
// to the value, in strict and exact mode alike.
func TestConstEverywhere(t *testing.T) {
	p, _ := roundTrip[maps.PostalAreas](t, `{"system":"postal","DE":["plz","plz"],"levels":[5],"flags":{"a":true},"precision":"exact","region":"EU","regions":["EU"]}`)
	if len(p.DE) != 2 || p.DE[1] != "plz" || p.Levels[0] != 5 || !p.Flags["a"] || *p.Precision.String != "exact" || *p.Region != "EU" {
		t.Fatalf("decoded %+v", p)
	}
	for _, tc := range []struct{ in, pointer string }{
		{`{"system":"zip"}`, "/system"},
		{`{"DE":["plz","zip"]}`, "/DE/1"},
		{`{"DE":["\u0070lz","PLZ"]}`, "/DE/1"},
		{`{"levels":[5,6]}`, "/levels/1"},
		{`{"flags":{"a":true,"b":false}}`, "/flags/b"},
		{`{"precision":"rough"}`, "/precision"},
		{`{"region":"US"}`, "/region"},
		{`{"regions":["EU","US"]}`, "/regions/1"},
	} {
		for _, exact := range []bool{false, true} {
			var v maps.PostalAreas
			var err error
			if exact {
				err = wire.UnmarshalExact([]byte(tc.in), &v)
			} else {
				err = json.Unmarshal([]byte(tc.in), &v)
			}
			rejects(t, err, wire.KindConst, tc.pointer, "want the constant")
		}
	}
	var v maps.PostalAreas
	if err := json.Unmarshal([]byte(`{"levels":[5.0,5e0]}`), &v); err != nil {
		t.Fatalf("a const compares as a JSON value: %v", err)
	}
}

// The one documented limit: an unbounded integer is an int64, and a value
// beyond it is refused by name, never rounded.
func TestIntegerBeyondInt64(t *testing.T) {
	var w foundation.Widget
	for _, in := range []string{`9223372036854775808`, `-9223372036854775809`, `123456789012345678901234567890`} {
		err := json.Unmarshal([]byte(strings.Replace(widget, `"count":3`, `"count":`+in, 1)), &w)
		rejects(t, err, wire.KindRange, "/count", "does not fit in int64")
	}
	if err := json.Unmarshal([]byte(strings.Replace(widget, `"count":3`, `"count":9223372036854775807`, 1)), &w); err != nil || *w.Count != 1<<63-1 {
		t.Fatalf("the largest int64 must decode: %v", err)
	}
}
