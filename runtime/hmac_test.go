package runtime_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/runtime"
)

func TestWebhookHMACWindowAndFormat(t *testing.T) {
	h, err := runtime.NewWebhookHMAC([]byte("0123456789abcdef0123456789abcdef-random"))
	if err != nil {
		t.Fatal(err)
	}
	body := []byte(`{"task_id":"t","status":"completed"}`)
	sig, err := h.Sign(1000, body)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		now  int64
		ts   string
		sig  string
		want error
	}{
		{"exact", 1000, "1000", sig, nil},
		{"300s late", 1300, "1000", sig, nil},
		{"301s late", 1301, "1000", sig, runtime.ErrTimestampSkew},
		{"300s early", 700, "1000", sig, nil},
		{"301s early", 699, "1000", sig, runtime.ErrTimestampSkew},
		{"upper-case hex", 1000, "1000", "sha256=" + strings.ToUpper(sig[7:]), nil},
		{"upper-case prefix", 1000, "1000", "SHA256=" + sig[7:], runtime.ErrSignatureMalformed},
		{"non-hex", 1000, "1000", "sha256=" + strings.Repeat("z", 64), runtime.ErrSignatureMalformed},
		{"plus sign", 1000, "+1000", sig, runtime.ErrTimestampInvalid},
		{"spaces", 1000, " 1000", sig, runtime.ErrTimestampInvalid},
		{"fraction", 1000, "1000.0", sig, runtime.ErrTimestampInvalid},
		{"negative", 1000, "-1000", sig, runtime.ErrTimestampInvalid},
		{"huge", 1000, strings.Repeat("9", 30), sig, runtime.ErrTimestampInvalid},
		{"empty timestamp", 1000, "", sig, runtime.ErrTimestampInvalid},
		{"leading zero signs other bytes", 1000, "01000", sig, runtime.ErrSignatureMismatch},
	} {
		t.Run(c.name, func(t *testing.T) {
			h.Now = func() time.Time { return time.Unix(c.now, 0) }
			if err := h.Verify(c.ts, body, c.sig); !errors.Is(err, c.want) || (c.want == nil && err != nil) {
				t.Errorf("Verify = %v, want %v", err, c.want)
			}
		})
	}
	h.Window = time.Hour
	h.Now = func() time.Time { return time.Unix(1000+3000, 0) }
	if err := h.Verify("1000", body, sig); err != nil {
		t.Errorf("custom window: %v", err)
	}
}

func TestWebhookSecrets(t *testing.T) {
	for _, c := range []struct {
		secret string
		want   error
	}{
		{strings.Repeat("ab", 16), runtime.ErrSecretWeak},
		{strings.Repeat("abcd", 8), runtime.ErrSecretWeak},
		{strings.Repeat("\x01", 32), runtime.ErrSecretWeak},
		{strings.Repeat("k", 31), runtime.ErrSecretTooShort},
		{"0123456789abcdef0123456789abcdef", nil},
	} {
		_, err := runtime.NewWebhookHMAC([]byte(c.secret))
		if !errors.Is(err, c.want) || (c.want == nil && err != nil) {
			t.Errorf("secret %q: %v, want %v", c.secret, err, c.want)
		}
	}
}

func TestDuplicateKeyDetection(t *testing.T) {
	h, _ := runtime.NewWebhookHMAC([]byte("0123456789abcdef0123456789abcdef"))
	for _, c := range []struct {
		body, key, ptr string
	}{
		{`{"a":1,"a":2}`, "a", ""},
		{`{"a":1,"\u0061":2}`, "a", ""},
		{`{"x":{"y":[{"k":1},{"k":1,"k":2}]}}`, "k", "/x/y/1"},
		{`{"a/b":{"c~d":{"e":1,"e":1}}}`, "e", "/a~1b/c~0d"},
		{`[{"a":1},{"b":1,"b":1}]`, "b", "/1"},
	} {
		_, err := h.Sign(1, []byte(c.body))
		var dup *runtime.DuplicateKeyError
		if !errors.Is(err, runtime.ErrDuplicateKeyInput) || !errors.As(err, &dup) || dup.Key != c.key || dup.Pointer != c.ptr {
			t.Errorf("%s: %v, want key %q at %q", c.body, err, c.key, c.ptr)
		}
	}
	// Bodies that are not JSON have no keys to duplicate: signing them is
	// the caller's business.
	for _, body := range []string{"", "plain text", `{"a":1,`, "{\"a\":\"nul\x00byte\"}", `{"a":"\"}","b":1}`} {
		if _, err := h.Sign(1, []byte(body)); err != nil {
			t.Errorf("%q: %v", body, err)
		}
	}
	// Deep nesting does not exhaust the stack.
	deep := strings.Repeat(`{"a":`, 20000) + "1" + strings.Repeat("}", 20000)
	if _, err := h.Sign(1, []byte(deep)); err != nil {
		t.Errorf("deep body: %v", err)
	}
}
