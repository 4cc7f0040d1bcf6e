package registry

import "testing"

func TestSchemaKey(t *testing.T) {
	cases := map[string]string{
		"core/error.json":                    "core/error.json#",
		"core/error.json#/definitions/issue": "core/error.json#/definitions/issue",
		"/schemas/3.1.19/core/error.json":    "core/error.json#",
		"/core/error.json":                   "core/error.json#",
		"https://adcontextprotocol.org/schemas/3.2.0-beta.3/core/error.json#/x": "core/error.json#/x",
	}
	for in, want := range cases {
		if got := SchemaKey(in); got != want {
			t.Errorf("SchemaKey(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLookups(t *testing.T) {
	tools := Tools{{Name: "a"}, {Name: "b", Mutating: true}}
	if b, ok := tools.ByName("b"); !ok || !b.Mutating {
		t.Fatal("ByName(b)")
	}
	if _, ok := tools.ByName("c"); ok {
		t.Fatal("ByName(c) found a tool")
	}
	codes := ErrorCodes{{Code: "RATE_LIMITED", Recovery: "transient"}, {Code: "X"}}
	if r, ok := codes.Recovery("RATE_LIMITED"); !ok || r != "transient" {
		t.Fatal("Recovery(RATE_LIMITED)")
	}
	if _, ok := codes.Recovery("X"); ok {
		t.Fatal("a code without a class must report none")
	}
}
