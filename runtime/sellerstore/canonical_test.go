package sellerstore_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/sellerstore"
)

func TestCanonical(t *testing.T) {
	tests := []struct {
		name, in, want string
		exclude        []string
	}{
		{name: "whitespace removed", in: " { \"a\" : [ 1 , 2 ] ,\n\t\"b\" : { } } ", want: `{"a":[1,2],"b":{}}`},
		{name: "keys sorted at every depth", in: `{"b":1,"a":{"z":true,"y":null}}`, want: `{"a":{"y":null,"z":true},"b":1}`},
		{name: "keys sorted by UTF-16 units", in: `{"\ud83d\ude00":1,"\uffff":2,"a":3}`, want: "{\"a\":3,\"\U0001F600\":1,\"\uffff\":2}"},
		{name: "numbers as written", in: `[1.0,1,1e0,-0,12345678901234567890123,1.50E+2]`, want: `[1.0,1,1e0,-0,12345678901234567890123,1.50E+2]`},
		{name: "escapes minimal", in: `"\u00e9\/\u0041\n\u001F\u007f\""`, want: "\"é/A\\n\\u001f\u007f\\\"\""},
		{name: "surrogate pair unescaped", in: `"\uD83D\uDE00"`, want: "\"\U0001F600\""},
		{name: "escaped key equals plain key", in: `{"\u0061":1}`, want: `{"a":1}`},
		{name: "top-level members excluded", in: `{"idempotency_key":"k","context":{"x":1},"brief":"b"}`, want: `{"brief":"b"}`, exclude: []string{"idempotency_key", "context"}},
		{name: "exclusion only at the top", in: `{"a":{"context":1}}`, want: `{"a":{"context":1}}`, exclude: []string{"context"}},
		{name: "pointers to top-level members", in: `{"idempotency_key":"k","context":{"x":1},"brief":"b"}`, want: `{"brief":"b"}`, exclude: []string{"/idempotency_key", "/context"}},
		{name: "nested member excluded, siblings kept", in: `{"push_notification_config":{"url":"https://b.example/w","authentication":{"schemes":["HMAC-SHA256"],"credentials":"secret-1"}},"a":1}`,
			want: `{"a":1,"push_notification_config":{"authentication":{"schemes":["HMAC-SHA256"]},"url":"https://b.example/w"}}`, exclude: []string{"/push_notification_config/authentication/credentials"}},
		{name: "nested pointer where the parent is absent or not an object", in: `{"push_notification_config":"x","b":{"authentication":1}}`, want: `{"b":{"authentication":1},"push_notification_config":"x"}`, exclude: []string{"/push_notification_config/authentication/credentials"}},
		{name: "parent and child both excluded", in: `{"a":{"b":1},"c":2}`, want: `{"c":2}`, exclude: []string{"/a/b", "/a"}},
		{name: "pointer escapes", in: `{"a/b":1,"m~n":2,"k":3}`, want: `{"k":3}`, exclude: []string{"/a~1b", "/m~0n"}},
		{name: "arrays written whole", in: `{"p":[{"x":1}]}`, want: `{"p":[{"x":1}]}`, exclude: []string{"/p/0/x", "/p/x"}},
		{name: "scalars", in: ` "x" `, want: `"x"`},
		{name: "empty array", in: `[ ]`, want: `[]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := sellerstore.Canonical([]byte(tt.in), tt.exclude...)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Fatalf("Canonical(%s) = %s, want %s", tt.in, got, tt.want)
			}
			again, err := sellerstore.Canonical(got, tt.exclude...)
			if err != nil || string(again) != string(got) {
				t.Fatalf("canonical form is not a fixed point: %s, %v", again, err)
			}
		})
	}
}

func TestCanonicalBadExclusion(t *testing.T) {
	for _, ex := range []string{"", "/a/~2", "/a~"} {
		if _, err := sellerstore.Canonical([]byte(`{"a":1}`), ex); !errors.Is(err, sellerstore.ErrInvalid) {
			t.Errorf("exclusion %q: error %v, want ErrInvalid", ex, err)
		}
	}
}

func TestCanonicalRejects(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"empty", ``, "want a value, got end of input"},
		{"trailing data", `{} {}`, "after the top-level value"},
		{"duplicate key after unescaping", `{"a":1,"\u0061":2}`, `duplicate key "a"`},
		{"invalid UTF-8", "\"\xff\"", "invalid UTF-8 in string"},
		{"lone high surrogate", `"\ud800"`, "lone UTF-16 surrogate escape"},
		{"lone low surrogate", `"\udc00x"`, "lone UTF-16 surrogate escape"},
		{"leading zero", `01`, "unexpected number after the top-level value"},
		{"bare dot", `1.`, "malformed number: want a digit after '.'"},
		{"bare exponent", `1e`, "malformed number: want a digit in the exponent"},
		{"plus sign", `+1`, "want a value, got '+'"},
		{"raw control character", "\"a\tb\"", "control character byte 0x9 in string"},
		{"bad escape", `"\x"`, "invalid escape \\x in string"},
		{"trailing comma", `[1,]`, "trailing ',' before ']'"},
		{"missing colon", `{"a" 1}`, "/a: want ':' after an object key"},
		{"unterminated", `{"a":"b`, "/a: unterminated string"},
		{"prototype key", `{"a":{"__proto__":1}}`, `/a/__proto__: forbidden key "__proto__"`},
		{"too deep", strings.Repeat("[", 513) + strings.Repeat("]", 513), "nesting deeper than 512"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := sellerstore.Canonical([]byte(tt.in))
			if err == nil || !errors.Is(err, sellerstore.ErrInvalid) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Canonical(%q) error = %v, want ErrInvalid mentioning %q", tt.in, err, tt.want)
			}
		})
	}
	deep := strings.Repeat("[", 512) + strings.Repeat("]", 512)
	if _, err := sellerstore.Canonical([]byte(deep)); err != nil {
		t.Fatalf("512 levels: %v", err)
	}
}

func TestFingerprint(t *testing.T) {
	a, _ := sellerstore.Canonical([]byte(`{"b":[1, 2],"a":"x","idempotency_key":"k1"}`), "idempotency_key")
	b, _ := sellerstore.Canonical([]byte(`{"a":"x","b":[1,2],"idempotency_key":"k2"}`), "idempotency_key")
	c, _ := sellerstore.Canonical([]byte(`{"a":"x","b":[1,2.0]}`), "idempotency_key")
	fa, fb, fc := sellerstore.Fingerprint(a), sellerstore.Fingerprint(b), sellerstore.Fingerprint(c)
	if fa != fb {
		t.Errorf("same request, different fingerprints: %s, %s", fa, fb)
	}
	if fa == fc {
		t.Errorf("2 and 2.0 gave one fingerprint %s", fa)
	}
	if !strings.HasPrefix(fa, "sha256:") || len(fa) != len("sha256:")+64 {
		t.Errorf("fingerprint %q is not sha256:<64 hex>", fa)
	}
}
