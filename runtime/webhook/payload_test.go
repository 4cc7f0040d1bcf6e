package webhook_test

import (
	"regexp"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/webhook"
)

// The webhook payload schema's idempotency_key pattern.
var eventKeyPattern = regexp.MustCompile(`^[A-Za-z0-9_.:-]{16,255}$`)

func TestNewEventKey(t *testing.T) {
	seen := map[string]bool{}
	for range 100 {
		k := webhook.NewEventKey()
		if !eventKeyPattern.MatchString(k) || len(k) != len("whk_")+26 || seen[k] {
			t.Fatalf("NewEventKey() = %q: outside the pattern, not 26 random characters, or repeated", k)
		}
		seen[k] = true
	}
}
