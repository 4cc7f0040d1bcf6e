package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

var fuzzSeeds = []string{
	`{"code":"x"}`, `{"code":"x","a":{"b":[1,2,{"c":null}]}}`, `{"__proto__":1}`, `{"a":1,"a":2}`,
	`{"type":"a","a":"x","b":[true,false,null]}`, `{"type":"\u0061","b":{}}`, ` [ 1 , "s p" , {"k" : -1.5e3} ] `,
	`"\ud83d\ude00"`, `{"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10}`, `[`, `{"a":}`, "{\"a\":\"\xff\"}",
}

// asWireError fails unless err is a *wire.DecodeError that says what and where.
func asWireError(t *testing.T, err error, data []byte) *DecodeError {
	t.Helper()
	var we *DecodeError
	if !errors.As(err, &we) {
		t.Fatalf("non-wire error %T: %v", err, err)
	}
	if we.Kind == 0 || we.Message == "" || we.Offset < 0 || we.Offset > len(data) || (we.Pointer != "" && !strings.HasPrefix(we.Pointer, "/")) {
		t.Fatalf("malformed error %+v for %q", we, data)
	}
	return we
}

// Valid is stricter than json.Valid and never panics; what it accepts
// compacts exactly as json.Compact does, and the compact form is valid
// too.
func FuzzValid(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		err := Valid(data)
		if err != nil {
			asWireError(t, err, data)
			return
		}
		if !json.Valid(data) {
			t.Fatalf("Valid accepts %q, json.Valid does not", data)
		}
		var want bytes.Buffer
		if err := json.Compact(&want, data); err != nil {
			t.Fatal(err)
		}
		got := appendCompact(nil, bytes.TrimSpace(data))
		if !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("compact %q\n got %q\nwant %q", data, got, want.Bytes())
		}
		if err := Valid(got); err != nil {
			t.Fatalf("compact form %q rejected: %v", got, err)
		}
	})
}

// Probe looks without consuming: the position stays and, for a value a
// strict read accepts, every recorded value is one valid JSON value at its
// key and the predicates agree with decoding it. (Probe checks structure
// only: on malformed input it may record garbage, which is harmless
// because the decode that follows a probe reads the same bytes strictly.)
func FuzzProbe(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	keys := []string{"type", "a", "b", "__proto__"}
	f.Fuzz(func(t *testing.T, data []byte) {
		strictErr := NewDecoder(data, DecodeOptions{}).Skip()
		d := NewDecoder(data, DecodeOptions{})
		before := d.Offset()
		p := probe{Keys: keys}
		err := d.probeObject(&p)
		if d.Offset() != before {
			t.Fatalf("Probe moved the decoder from %d to %d", before, d.Offset())
		}
		if err != nil {
			asWireError(t, err, data)
			if strictErr == nil {
				t.Fatalf("Probe rejects %q, which a strict read accepts: %v", data, err)
			}
			return
		}
		if strictErr != nil {
			return
		}
		if p.Kind() != '{' {
			for i := range keys {
				if p.Has(i) {
					t.Fatalf("non-object %q has key %q", data, keys[i])
				}
			}
			return
		}
		for i, k := range keys {
			if !p.Has(i) {
				continue
			}
			raw := p.Raw(i)
			if !json.Valid(raw) {
				t.Fatalf("key %q: recorded %q is not one JSON value", k, raw)
			}
			var v any
			json.Unmarshal(raw, &v)
			if s, ok := v.(string); ok && !p.StringIs(i, s) {
				t.Fatalf("key %q: StringIs(%q) false for %q", k, s, raw)
			}
			if b, ok := v.(bool); ok && (!p.BoolIs(i, b) || p.BoolIs(i, !b)) {
				t.Fatalf("key %q: BoolIs wrong for %q", k, raw)
			}
			if (v == nil) != p.IsNull(i) {
				t.Fatalf("key %q: IsNull %v for %q", k, p.IsNull(i), raw)
			}
			if p.ValueKind(i) != raw[0] {
				t.Fatalf("key %q: ValueKind %q for %q", k, p.ValueKind(i), raw)
			}
		}
		// The decoder still reads the whole value from where it was.
		if err := d.Skip(); err != nil || d.Offset() <= before {
			t.Fatalf("Skip after Probe: %v at %d", err, d.Offset())
		}
	})
}

// Exact mode is strict mode plus rejections: whatever it accepts, strict
// mode accepts and decodes to the same value; whatever strict mode
// rejects, exact mode rejects too.
func FuzzUnmarshalExact(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var strict, exact sample
		errStrict := Unmarshal(data, &strict)
		errExact := UnmarshalExact(data, &exact)
		if errExact != nil {
			asWireError(t, errExact, data)
		}
		if errStrict != nil {
			asWireError(t, errStrict, data)
			if errExact == nil {
				t.Fatalf("exact mode accepts %q, strict mode rejects it: %v", data, errStrict)
			}
			return
		}
		if errExact == nil && !reflect.DeepEqual(strict, exact) {
			t.Fatalf("modes disagree on %q: %+v vs %+v", data, strict, exact)
		}
	})
}
