package main

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/adcpgen/adcpgen/internal/synth"
)

// Seeds cover both arms of a union, minimal and maximal, and mutations,
// without duplicates.
func TestSeedsFor(t *testing.T) {
	st, err := synth.Load(fstest.MapFS{"core/x.json": {Data: []byte(`{"$id": "/schemas/9.9.9/core/x.json",
		"oneOf": [{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": false},
		          {"type": "object", "properties": {"b": {"type": "integer"}}, "required": ["b"], "additionalProperties": false}]}`)}})
	if err != nil {
		t.Fatal(err)
	}
	seeds, err := seedsFor(st, "core/x.json")
	if err != nil {
		t.Fatal(err)
	}
	all := map[string]bool{}
	for _, s := range seeds {
		if all[string(s)] {
			t.Errorf("duplicate seed %s", s)
		}
		all[string(s)] = true
	}
	joined := strings.Join(func() []string {
		var out []string
		for s := range all {
			out = append(out, s)
		}
		return out
	}(), "\n")
	for _, want := range []string{`{"a":"synth"}`, `{"b":1}`, `"__proto__"`, `zz_synth_unknown`} {
		if !strings.Contains(joined, want) {
			t.Errorf("seeds lack %s:\n%s", want, joined)
		}
	}
}
