package stdjson

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
	"unsafe"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

var texts = []string{
	``, `plain`, `"quoted" \back\slash`, "controls \b\f\n\r\t \x00 \x1f \x7f", `<script>&amp;</script>`,
	"line\u2028para\u2029", "é ü 日本 🎉", "bad \xff utf-8 \xe2\x80", "\xe2\x80\xa8\xe2\x80\xa9\xe2\x80\xaa",
}

func TestAppendStringIsEncodingJSON(t *testing.T) {
	for _, s := range texts {
		checkString(t, s)
	}
	// Escapes that grow the output far past its first estimate.
	checkString(t, strings.Repeat("<\u2028\x01\"", 5000))
	checkString(t, strings.Repeat("abcdefgh", 999)+"\xff")
}

func checkString(t *testing.T, s string) {
	t.Helper()
	want, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if got := AppendString(nil, []byte(s)); string(got) != string(want) {
		t.Errorf("AppendString(%q) = %s, want %s", s, got, want)
	}
	if got := AppendString([]byte("x"), s); string(got) != "x"+string(want) {
		t.Errorf("AppendString(%q) as a string = %s, want x%s", s, got, want)
	}
}

var documents = []string{
	`{}`, `[]`, `0`, `-1.5e+10`, `"s"`, `null`, `true`,
	` { "a" : [ 1 , 2 ] , "b" : { } , "c" : "x y\tz" } `,
	"{\"html\":\"<b>&</b>\",\"esc\":\"\\\"<\\\\\",\"u\":\"\\u003c\u2028\u2029\u202a\"}",
	`{"products":[{"product_id":"p-1","name":"CTV & more","price":1.50}],"context":{"correlation_id": "c-1"}}`,
	`{"z":1,"a":2,"m":{"k":[true,false,null]},"a":3,"\u0041":4,"é":5,"":6}`,
}

func TestAppendRawIsEncodingJSON(t *testing.T) {
	for _, d := range documents {
		checkRaw(t, []byte(d))
	}
	checkRaw(t, []byte(`{"a":"`+strings.Repeat("<&>\u2028", 5000)+`","b":[`+strings.Repeat(`"x", `, 999)+`"y"]}`))
}

func checkRaw(t *testing.T, d []byte) {
	t.Helper()
	want, err := json.Marshal(json.RawMessage(d))
	if err != nil {
		t.Fatalf("%s: %v", d, err)
	}
	if got := AppendRaw(nil, d); string(got) != string(want) {
		t.Errorf("AppendRaw(%s) = %s, want %s", d, got, want)
	}
}

func TestAppendMembersIsEncodingJSON(t *testing.T) {
	for _, d := range documents {
		if v, _ := wire.ParseLenient([]byte(d)); v.IsObject() {
			checkMembers(t, v)
		}
	}
}

func checkMembers(t *testing.T, obj wire.Lenient) {
	t.Helper()
	m := map[string]any{}
	obj.Members(func(k, v wire.Lenient) bool {
		name, _ := k.AsString()
		m[name] = json.RawMessage(v)
		return true
	})
	want, err := json.Marshal(m)
	if err != nil {
		t.Fatalf("%s: %v", obj, err)
	}
	if got := AppendMembers(nil, Members(obj), false); string(got) != string(want) {
		t.Errorf("AppendMembers(%s) = %s, want %s", obj, got, want)
	}
	if c := obj.AppendCompact(nil); utf8.Valid(c) {
		if got := AppendMembers(nil, Members(c), true); string(got) != string(want) {
			t.Errorf("AppendMembers(%s, compact) = %s, want %s", c, got, want)
		}
	}
}

func FuzzIsEncodingJSON(f *testing.F) {
	for _, s := range append(texts, documents...) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		checkString(t, string(b))
		if json.Valid(b) {
			checkRaw(t, b)
		}
		if v, err := wire.ParseLenient(b); err == nil && json.Valid(b) {
			if v.IsObject() {
				checkMembers(t, v)
			}
			if c := v.AppendCompact(nil); utf8.Valid(c) {
				checkCompact(t, c)
			}
		}
	})
}

// On compact JSON in valid UTF-8 (what the seller encodes), the shortcuts
// write what AppendRaw and AppendString write.
func TestCompactShortcuts(t *testing.T) {
	for _, d := range append(documents, `{"a":"plain \"quoted\" \\ back","b":[1,"é日"]}`, `"x"`, `{"k":"`+strings.Repeat(`ab\"c`, 999)+`"}`) {
		v, err := wire.ParseLenient([]byte(d))
		if err != nil {
			t.Fatal(err)
		}
		c := v.AppendCompact(nil)
		checkCompact(t, c)
	}
}

func checkCompact(t *testing.T, c []byte) {
	t.Helper()
	if got, want := AppendCompact([]byte("x"), c), AppendRaw([]byte("x"), c); string(got) != string(want) {
		t.Errorf("AppendCompact(%s) = %s, want %s", c, got, want)
	}
	if got, want := AppendCompactText([]byte("x"), c), AppendString([]byte("x"), c); string(got) != string(want) {
		t.Errorf("AppendCompactText(%s) = %s, want %s", c, got, want)
	}
}

func TestHTMLSafe(t *testing.T) {
	for _, c := range []struct {
		in   string
		want bool
	}{{"", true}, {"plain é", true}, {"a<b", false}, {"a>b", false}, {"a&b", false}, {"\u2028", false}, {"\u2029", false},
		{"\u202a\xe2", true}, {"\xe2\x80", true}} {
		if got := HTMLSafe([]byte(c.in)); got != c.want {
			t.Errorf("HTMLSafe(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestGet(t *testing.T) {
	ms := Members([]byte(`{"b":1,"a":2,"b":3,"\u0063":"x"}`))
	for name, want := range map[string]string{"a": "2", "b": "3", "c": `"x"`, "d": ""} {
		if got := string(Get(ms, name)); got != want {
			t.Errorf("Get(%q) = %s, want %s", name, got, want)
		}
	}
}

// MembersAt, given where the members lie, reads what Members reads.
func TestMembersAt(t *testing.T) {
	for _, d := range append(documents, `{ "a" : 1 , "b":"x" ,"a":[2] }`) {
		v, err := wire.ParseLenient([]byte(d))
		if err != nil || !v.IsObject() {
			continue
		}
		offset := func(b []byte) int { return int(uintptr(unsafe.Pointer(&b[0])) - uintptr(unsafe.Pointer(&v[0]))) }
		var spans []wire.Span
		v.Members(func(k, val wire.Lenient) bool {
			spans = append(spans, wire.Span{Key: offset(k), Start: offset(val), End: offset(val) + len(val)})
			return true
		})
		if got, want := MembersAt(v, spans), Members(v); (len(got) > 0 || len(want) > 0) && !reflect.DeepEqual(got, want) {
			t.Errorf("%s: MembersAt %v, Members %v", d, got, want)
		}
	}
}
