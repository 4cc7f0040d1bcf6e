package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRelativeRef(t *testing.T) {
	tests := []struct{ ref, dir, want string }{
		{"/schemas/3.0.26/core/error.json", "media-buy", "../core/error.json"},
		{"/schemas/3.0.26/core/error.json#/definitions/x", "core", "./error.json#/definitions/x"},
		{"/schemas/3.0.26/core/assets/a.json", "core", "./assets/a.json"},
		{"/schemas/3.0.26/brand.json", "core/requirements", "../../brand.json"},
		{"#/definitions/local", "core", "#/definitions/local"},
		{"https://example.com/x.json", "core", "https://example.com/x.json"},
	}
	for _, tc := range tests {
		if got := relativeRef(tc.ref, tc.dir); got != tc.want {
			t.Errorf("relativeRef(%q, %q) = %q, want %q", tc.ref, tc.dir, got, tc.want)
		}
	}
}

// Array-valued dependencies become dependentRequired; schema-valued ones
// stay; a property that happens to be named "dependencies" is left alone.
func TestRewriteSchema(t *testing.T) {
	var doc any
	json.Unmarshal([]byte(`{
		"$ref": "/schemas/3.0.26/core/x.json",
		"dependencies": {"a": ["b"], "c": {"required": ["d"]}},
		"properties": {"dependencies": {"type": "object", "properties": {"e": {"$ref": "/schemas/3.0.26/core/y.json"}}}},
		"items": {"dependencies": {"f": ["g"]}}}`), &doc)
	rewriteSchema(doc, "media-buy", false)
	got, _ := json.Marshal(doc)
	for _, want := range []string{
		`"$ref":"../core/x.json"`, `"dependentRequired":{"a":["b"]}`, `"dependencies":{"c":{"required":["d"]}}`,
		`"properties":{"dependencies":{"properties":{"e":{"$ref":"../core/y.json"}},"type":"object"}}`,
		`"items":{"dependentRequired":{"f":["g"]}}`,
	} {
		if !strings.Contains(string(got), want) {
			t.Errorf("rewritten %s\nlacks %s", got, want)
		}
	}
}

// stripPackage keeps types and constants, drops functions, methods and
// variables, and the imports only they used.
func TestStripPackage(t *testing.T) {
	src, dst := t.TempDir(), t.TempDir()
	code := `//go:build adcpgen_bench

// Code generated. DO NOT EDIT.

package adcp

import (
	"encoding/json"
	"strings"
)

// T is kept.
type T struct {
	Raw json.RawMessage
}

const K = "k"

var table = strings.ToUpper("x")

// Decode goes.
func (t *T) Decode() error { return nil }

func helper() string { return strings.TrimSpace(" ") }
`
	if err := os.WriteFile(filepath.Join(src, "a_gen.go"), []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := stripPackage(src, dst, "plain"); err != nil {
		t.Fatal(err)
	}
	out, err := os.ReadFile(filepath.Join(dst, "a_gen.go"))
	if err != nil {
		t.Fatal(err)
	}
	got := string(out)
	for _, want := range []string{"//go:build adcpgen_bench", "package plain", `"encoding/json"`, "type T struct", `const K = "k"`} {
		if !strings.Contains(got, want) {
			t.Errorf("stripped file lacks %q:\n%s", want, got)
		}
	}
	for _, gone := range []string{"strings", "func ", "var table", "Decode goes"} {
		if strings.Contains(got, gone) {
			t.Errorf("stripped file still has %q:\n%s", gone, got)
		}
	}
}
