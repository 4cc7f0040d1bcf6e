package signing

import (
	"strings"
	"testing"
)

func TestParseDictionary(t *testing.T) {
	for _, c := range []struct {
		in, out, err string
	}{
		{in: `a=1, b=(x "y";p=?0);q=:AQ==:, c`, out: `a=1, b=(x "y";p=?0);q=:AQ==:, c`},
		{in: `a="q\"\\"`, out: `a="q\"\\"`},
		{in: `a=-12.5, b=?1;x`, out: `a=-12.5, b;x`},
		{in: `a=1,b=2`, out: `a=1, b=2`},
		{in: ` a=1 `, out: `a=1`},
		{in: `a=1, a=2`, err: "occurs twice"},
		{in: `a=(1);p=1;p=2`, err: "occurs twice"},
		{in: `a=1,`, err: "trailing"},
		{in: `A=1`, err: "want a key"},
		{in: `a="\x"`, err: "escape"},
		{in: "a=\"\x01\"", err: "not allowed"},
		{in: `a=(1 2`, err: "not closed"},
		{in: `a=(1  2)x`, err: "want ','"},
		{in: `a=1234567890123456`, err: "15 digits"},
		{in: `a=1.2345`, err: "out of range"},
		{in: `a=:AB`, err: "not closed"},
		{in: `a=:A!:`, err: "not base64"},
		{in: ``, err: "empty"},
	} {
		ms, err := parseDictionary(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: err %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		b := serializeDict(ms)
		if string(b) != c.out {
			t.Errorf("%q serialized %q, want %q", c.in, b, c.out)
		}
	}
}

// serializeDict writes a dictionary back (RFC 8941 §4.1.2).
func serializeDict(ms []sfMember) string {
	var b []byte
	for i, m := range ms {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = append(b, m.key...)
		if m.val.kind == sfBoolean && m.val.b {
			b = append(b, appendItem(nil, m.val)[2:]...) // the key alone, then its parameters
			continue
		}
		b = append(b, '=')
		b = appendItem(b, m.val)
	}
	return string(b)
}

func TestDecodeBinary(t *testing.T) {
	for _, c := range []struct {
		text string
		enc  Encoding
		ok   bool
	}{
		{"AQID", EncodingLegacy, true},
		{"-_8", EncodingLegacy, true},
		{"+/8=", EncodingLegacy, true},
		{"+_8", EncodingLegacy, false},  // mixed alphabets
		{"-_8=", EncodingLegacy, false}, // padded base64url
		{"+/8=", EncodingStructured, true},
		{"+/8", EncodingStructured, true}, // RFC 8941: padding synthesised
		{"-_8=", EncodingStructured, false},
		{"AQ=", EncodingStructured, false},
	} {
		_, err := decodeBinary(c.text, c.enc)
		if (err == nil) != c.ok {
			t.Errorf("%q as %s: %v", c.text, c.enc, err)
		}
	}
}

func TestSanitizeKeyName(t *testing.T) {
	for in, want := range map[string]string{
		"budget":                               "budget",
		"a\u202eb":                             "<sanitized:1>",
		"\x00x":                                "<sanitized:0>",
		strings.Repeat("ü", 20):                strings.Repeat("ü", 16),
		"abcdefghijklmnopqrstuvwxyz0123456789": "abcdefghijklmnopqrstuvwxyz012345",
	} {
		if got := sanitizeKeyName(in); got != want {
			t.Errorf("%q → %q, want %q", in, got, want)
		}
	}
}
