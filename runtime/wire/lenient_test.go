package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseLenient(t *testing.T) {
	for _, c := range []struct {
		in   string
		ok   bool
		kind Kind
	}{
		{` {"__proto__":{"a":1},"a":1,"a":2} `, true, 0},
		{`"\ud800"`, true, 0},
		{"\"\xff\xfe\"", true, 0},
		{`[1,2,]`, false, KindSyntax},
		{`{"a":1,}`, false, KindSyntax},
		{"\"a\x01\"", false, KindSyntax},
		{`"\x"`, false, KindSyntax},
		{`{} {}`, false, KindSyntax},
		{"\ufeff{}", false, KindSyntax},
		{``, false, KindSyntax},
		{`-`, false, KindSyntax},
		{strings.Repeat("[", DefaultMaxDepth) + strings.Repeat("]", DefaultMaxDepth), true, 0},
		{strings.Repeat("[", DefaultMaxDepth+1) + strings.Repeat("]", DefaultMaxDepth+1), false, KindDepth},
	} {
		v, err := ParseLenient([]byte(c.in))
		var we *DecodeError
		switch {
		case c.ok && err != nil:
			t.Errorf("%.40q: %v", c.in, err)
		case c.ok && string(v) != strings.TrimSpace(c.in):
			t.Errorf("%.40q: value %q", c.in, v)
		case !c.ok && (!errors.As(err, &we) || we.Kind != c.kind):
			t.Errorf("%.40q: %v, want a %s error", c.in, err, c.kind)
		}
	}
	_, err := ParseLenient([]byte(`{"a":[tru]}`))
	var we *DecodeError
	if !errors.As(err, &we) || we.Offset != 6 || we.Pointer != "/a/0" {
		t.Errorf("error %#v, want offset 6 at /a/0", err)
	}
}

func TestLenientLookups(t *testing.T) {
	v, err := ParseLenient([]byte(`{"isError":true,"\u0069sError":false,"n":-0.0e5,"s":"x\u00e9","e":"","arr":[1,{"k":2}],"o":{}}`))
	if err != nil {
		t.Fatal(err)
	}
	if v.Get("isError").Truthy() || v.Get("n").Truthy() || v.Get("e").Truthy() || !v.Get("o").Truthy() {
		t.Error("truthiness")
	}
	if s, ok := v.Get("s").AsString(); !ok || s != "xé" || !v.Get("s").StringIs("xé") || v.Get("s").TextLen() != 3 {
		t.Errorf("string %q", s)
	}
	if string(v.Get("arr").Index(1).Get("k")) != "2" || v.Get("arr").Index(2) != nil || v.Get("missing").Get("x") != nil {
		t.Error("navigation")
	}
	if !Lenient(`{"a":1,"a":2}`).OnlyKey("a") || Lenient(`{"a":1,"b":2}`).OnlyKey("a") || Lenient(`{}`).OnlyKey("a") {
		t.Error("OnlyKey")
	}
	if f, ok := Lenient(`1e400`).Number(); !ok || f < 1e308 {
		t.Error("1e400 is +Inf")
	}
}

func TestDuplicateKey(t *testing.T) {
	for _, c := range []struct{ body, ptr string }{
		{`{"a":1,"a":2}`, "/a"},
		{`{"a":1,"\u0061":2}`, "/a"},
		{`{"x":{"y":[{"k":1},{"k":1,"k":2}]}}`, "/x/y/1/k"},
		{`{"a/b":{"c~d":{"e":1,"e":1}}}`, "/a~1b/c~0d/e"},
		{`[{"a":1},{"b":1,"b":1}]`, "/1/b"},
		{`{` + strings.Repeat(`"k":1,`, 40) + `"z":1}`, "/k"},
		{`{` + func() string {
			var b strings.Builder
			for i := 0; i < 40; i++ {
				b.WriteString(`"k` + strconv.Itoa(i) + `":1,`)
			}
			return b.String()
		}() + `"k1":1}`, "/k1"},
	} {
		err := DuplicateKey([]byte(c.body))
		var we *DecodeError
		if !errors.As(err, &we) || we.Kind != KindDuplicate || we.Pointer != c.ptr {
			t.Errorf("%.50s: %v, want a duplicate at %q", c.body, err, c.ptr)
		}
	}
	// Data ParseLenient rejects has no keys, even after a repeated one.
	for _, body := range []string{"", "plain", `{"a":1,`, `{"a":1,"a":2,`, `{"a":1,"a":2} trailing`, "{\"a\":\"nul\x00\"}", `{"a":{"b":1},"b":{"a":1}}`,
		strings.Repeat(`{"a":`, 20000) + "1" + strings.Repeat("}", 20000)} {
		if err := DuplicateKey([]byte(body)); err != nil {
			t.Errorf("%.40q: %v", body, err)
		}
	}
}

// FuzzParseLenient checks the lenient reader against encoding/json: the
// same inputs are JSON (within the depth limit), strings decode alike and
// lengths are computed right.
func FuzzParseLenient(f *testing.F) {
	for _, s := range []string{`{"a":1,"a":{"__proto__":[]}}`, `"\ud800"`, `[`, `"\u0000"`, `-0.0e-0`, `{"\u0061dcp_error":0}`, " [1, {\"b\" : \"c\"} ] "} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		v, err := ParseLenient(in)
		var we *DecodeError
		deep := errors.As(err, &we) && we.Kind == KindDepth
		if (err == nil) != json.Valid(in) && !deep {
			t.Fatalf("ParseLenient err=%v but json.Valid=%v", err, json.Valid(in))
		}
		if err != nil {
			return
		}
		if got, want := v.CompactLen(), len(v.AppendCompact(nil)); got != want {
			t.Fatalf("CompactLen %d, compact text %d bytes", got, want)
		}
		var buf bytes.Buffer
		if json.Compact(&buf, v) == nil && buf.Len() != v.CompactLen() {
			t.Fatalf("CompactLen %d, json.Compact %d", v.CompactLen(), buf.Len())
		}
		if v.IsString() {
			got := v.Text(nil)
			if v.TextLen() != len(got) {
				t.Fatalf("TextLen %d, decoded %d bytes", v.TextLen(), len(got))
			}
			var want string
			if utf8.Valid(v) && json.Unmarshal(v, &want) == nil && string(got) != want {
				t.Fatalf("Text %q, encoding/json %q", got, want)
			}
		}
		walkLenient(t, v, 0)
		_ = DuplicateKey(in)
	})
}

// walkLenient visits every value through the navigation methods and checks
// that the fast skip agrees with the checking scanner on where values end.
func walkLenient(t *testing.T, v Lenient, depth int) {
	if depth > 64 {
		return
	}
	if end := skipValue(v, 0); end != len(v) {
		t.Fatalf("skipValue ends %q at %d, want %d", v, end, len(v))
	}
	_ = v.Truthy()
	_, _ = v.AsString()
	_, _ = v.Number()
	v.Members(func(k, val Lenient) bool {
		_, _ = k.AsString()
		_ = v.Get("a")
		walkLenient(t, val, depth+1)
		return true
	})
	v.Elems(func(e Lenient) bool { walkLenient(t, e, depth+1); return true })
}
