package a2aserver

import (
	"testing"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// FuzzRequestBody: whatever a buyer posts, reading the skill and its input
// never panics, and an input handed on is strict JSON inside a strict
// DataPart.
func FuzzRequestBody(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"parts":[{"kind":"data","data":{"skill":"get_products","input":{"a":1}}}]}}}`,
		`{"method":"message/send","params":{"message":{"parts":[{"kind":"text","text":"x"},{"kind":"data","data":{"skill":"s","parameters":{}}}]}}}`,
		`{"method":"message/send","params":{"message":{"parts":[{"data":{"skill":"s","input":{"a":1,"a":2}}}]}}}`,
		`{"method":"tasks/get","params":{"id":"t"}}`, `[]`, `{`, ``,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		_ = calledSkill(body)
		skill, input, legacy, err := skillInput(body)
		if err != nil {
			return
		}
		if skill == "" && input == nil {
			t.Fatal("no skill and no input without an error")
		}
		if legacy && !wire.Lenient(input).Present() {
			t.Fatal("legacy dialect without an input")
		}
		if err := wire.Valid(input); err != nil {
			t.Fatalf("input %q handed on: %v", input, err)
		}
	})
}
