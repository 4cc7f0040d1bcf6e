package sellergov

import (
	"encoding/json"
	"testing"
)

// FuzzReadDecision: whatever an agent answers, a decision has a known
// verdict or is an error, never a panic.
func FuzzReadDecision(f *testing.F) {
	for _, s := range []string{
		`{"check_id":"c","status":"approved","plan_id":"p","explanation":"ok"}`,
		`{"verdict":"conditions","conditions":[{"field":"x","required_value":{"a":1},"reason":"r"},{"field":5}]}`,
		`{"verdict":"denied","findings":{"not":"an array"}}`,
		`{"verdict":"maybe"}`, `[]`, `"approved"`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := readDecision(json.RawMessage(data))
		if err != nil {
			return
		}
		if d.Verdict != Approved && d.Verdict != Denied && d.Verdict != Conditions {
			t.Fatalf("verdict %q", d.Verdict)
		}
	})
}
