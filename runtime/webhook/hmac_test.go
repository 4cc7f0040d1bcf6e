package webhook_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/runtime/webhook"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

func TestWebhookHMACWindowAndFormat(t *testing.T) {
	h, err := webhook.NewHMAC([]byte("0123456789abcdef0123456789abcdef-random"))
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
		{"301s late", 1301, "1000", sig, webhook.ErrTimestampSkew},
		{"300s early", 700, "1000", sig, nil},
		{"301s early", 699, "1000", sig, webhook.ErrTimestampSkew},
		{"upper-case hex", 1000, "1000", "sha256=" + strings.ToUpper(sig[7:]), nil},
		{"upper-case prefix", 1000, "1000", "SHA256=" + sig[7:], webhook.ErrSignatureMalformed},
		{"non-hex", 1000, "1000", "sha256=" + strings.Repeat("z", 64), webhook.ErrSignatureMalformed},
		{"plus sign", 1000, "+1000", sig, webhook.ErrTimestampInvalid},
		{"spaces", 1000, " 1000", sig, webhook.ErrTimestampInvalid},
		{"fraction", 1000, "1000.0", sig, webhook.ErrTimestampInvalid},
		{"negative", 1000, "-1000", sig, webhook.ErrTimestampInvalid},
		{"huge", 1000, strings.Repeat("9", 30), sig, webhook.ErrTimestampInvalid},
		{"empty timestamp", 1000, "", sig, webhook.ErrTimestampInvalid},
		{"leading zero signs other bytes", 1000, "01000", sig, webhook.ErrSignatureMismatch},
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
		{strings.Repeat("ab", 16), webhook.ErrSecretWeak},
		{strings.Repeat("abcd", 8), webhook.ErrSecretWeak},
		{strings.Repeat("\x01", 32), webhook.ErrSecretWeak},
		{strings.Repeat("k", 31), webhook.ErrSecretTooShort},
		{"0123456789abcdef0123456789abcdef", nil},
	} {
		_, err := webhook.NewHMAC([]byte(c.secret))
		if !errors.Is(err, c.want) || (c.want == nil && err != nil) {
			t.Errorf("secret %q: %v, want %v", c.secret, err, c.want)
		}
	}
}

func TestDuplicateKeyDetection(t *testing.T) {
	h, _ := webhook.NewHMAC([]byte("0123456789abcdef0123456789abcdef"))
	for _, c := range []struct {
		body, key, ptr string
	}{
		{`{"a":1,"a":2}`, "a", "/a"},
		{`{"a":1,"\u0061":2}`, "a", "/a"},
		{`{"x":{"y":[{"k":1},{"k":1,"k":2}]}}`, "k", "/x/y/1/k"},
		{`{"a/b":{"c~d":{"e":1,"e":1}}}`, "e", "/a~1b/c~0d/e"},
		{`[{"a":1},{"b":1,"b":1}]`, "b", "/1/b"},
	} {
		_, err := h.Sign(1, []byte(c.body))
		var dup *wire.DecodeError
		if !errors.Is(err, webhook.ErrDuplicateKeyInput) || !errors.As(err, &dup) || dup.Kind != wire.KindDuplicate || !strings.Contains(dup.Message, `"`+c.key+`"`) || dup.Pointer != c.ptr {
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

func FuzzHMAC(f *testing.F) {
	f.Add("1700000000", []byte(`{"a":1}`), "sha256=00")
	f.Add("1", []byte(`{"a":1,"a":2}`), "")
	h, _ := webhook.NewHMAC([]byte("0123456789abcdef0123456789abcdef"))
	f.Fuzz(func(t *testing.T, ts string, body []byte, sig string) {
		_ = h.Verify(ts, body, sig)
		if s, err := h.Sign(1, body); err == nil {
			h2 := *h
			h2.Now = nil
			h2.Window = 1 << 62
			if err := h2.Verify("1", body, s); err != nil {
				t.Fatalf("own signature rejected: %v", err)
			}
		}
	})
}
