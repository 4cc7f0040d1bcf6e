package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/internal/testspec"
)

type validateRun struct {
	code           int
	stdout, stderr string
}

func runValidateCmd(t *testing.T, stdin string, vars map[string]string, args ...string) validateRun {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{
		stdin:  strings.NewReader(stdin),
		stdout: &out,
		stderr: &errb,
		getenv: func(k string) string { return vars[k] },
	}
	code := run(e, append([]string{"validate"}, args...))
	return validateRun{code, out.String(), errb.String()}
}

// validateFiles writes payloads into a temp dir and returns their paths.
func validateFiles(t *testing.T, payloads ...string) []string {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for i, p := range payloads {
		name := filepath.Join(dir, "payload"+string(rune('a'+i))+".json")
		if err := os.WriteFile(name, []byte(p), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, name)
	}
	return paths
}

func TestValidateCommand(t *testing.T) {
	bundle := testspec.Path(t, "protocol", "3.0.26.tgz")
	tree32 := testspec.Path(t, "schemas", "3.2.0-beta.3")
	fixture := filepath.Join(testspec.Dir(t), "..", "bench", "get-products-response-3.0.26.json")
	files := validateFiles(t,
		`{"products":[{"product_id":5}]}`, // a: invalid response
		`{"products":[]}`,                 // b: valid response
		`{"products":[`,                   // c: bad JSON
		`{"buying_mode":"brief","brief":"x","brand":{"domain":"example.com","colour":"red"}}`, // d: invalid request
	)
	invalid, valid, badJSON, badRequest := files[0], files[1], files[2], files[3]
	missing := filepath.Join(t.TempDir(), "missing.json")

	cases := []struct {
		name     string
		env      map[string]string
		stdin    string
		args     []string
		code     int
		stdout   []string // substrings, in order
		stderr   string
		noStdout bool
	}{
		{name: "valid fixture", args: []string{"--spec", bundle, "--tool", "get_products", "--response", fixture}, code: 0, noStdout: true},
		{name: "valid by path", args: []string{"--spec", bundle, "--schema", "media-buy/get-products-response.json", valid}, code: 0, noStdout: true},
		{name: "valid by $id", args: []string{"--spec", bundle, "--schema", "/schemas/3.0.26/media-buy/get-products-response.json", valid}, code: 0, noStdout: true},
		{name: "flags after files", args: []string{valid, "--spec", bundle, "--tool", "get_products", "--response"}, code: 0, noStdout: true},
		{name: "spec from environment", env: map[string]string{"ADCP_SPEC": bundle}, args: []string{"--tool", "get_products", "--response", valid}, code: 0, noStdout: true},
		{name: "invalid", args: []string{"--spec", bundle, "--tool", "get_products", "--response", invalid}, code: 1,
			stdout: []string{`{"file":"` + invalid + `","pointer":"/products/0","keyword":"required","message":"missing required property \"delivery_type\"","schema_id":"/schemas/3.0.26/core/product.json"}`,
				`"pointer":"/products/0/product_id","keyword":"type"`}},
		{name: "invalid, reference validator", args: []string{"--spec", bundle, "--tool", "get_products", "--response", "--reference", invalid}, code: 1,
			stdout: []string{`{"file":"` + invalid + `","pointer":"/products/0","keyword":"required","message":"missing required property \"delivery_type\"","schema_id":"/schemas/3.0.26/core/product.json"}`,
				`"pointer":"/products/0/product_id","keyword":"type"`}},
		{name: "valid fixture, reference validator", args: []string{"--spec", bundle, "--tool", "get_products", "--response", "--reference", fixture}, code: 0, noStdout: true},
		{name: "valid and invalid", args: []string{"--spec", bundle, "--tool", "get_products", "--response", valid, invalid, valid}, code: 1,
			stdout: []string{`"file":"` + invalid + `"`}},
		{name: "request, additionalProperties", args: []string{"--spec", bundle, "--tool", "get_products", "--request", badRequest}, code: 1,
			stdout: []string{`{"file":"` + badRequest + `","pointer":"/brand","keyword":"additionalProperties","message":"property \"colour\" is not allowed","schema_id":"/schemas/3.0.26/core/brand-ref.json"}`}},
		{name: "stdin", stdin: `{"products":"none"}`, args: []string{"--spec", tree32, "--schema", "https://adcontextprotocol.org/schemas/3.2.0-beta.3/media-buy/get-products-response.json", "-"}, code: 1,
			stdout: []string{`"file":"<stdin>","pointer":"/products","keyword":"type"`}},
		{name: "directory source", args: []string{"--spec", tree32, "--tool", "get_products", "--response", invalid}, code: 1,
			stdout: []string{`"schema_id":"https://adcontextprotocol.org/schemas/3.2.0-beta.3/`}},

		{name: "bad JSON", args: []string{"--spec", bundle, "--tool", "get_products", "--response", badJSON}, code: 2, stderr: "invalid JSON"},
		{name: "bad JSON beside an invalid file", args: []string{"--spec", bundle, "--tool", "get_products", "--response", invalid, badJSON}, code: 2, stderr: badJSON,
			stdout: []string{`"file":"` + invalid + `"`}},
		{name: "unreadable file", args: []string{"--spec", bundle, "--tool", "get_products", "--response", missing}, code: 2, stderr: "missing.json"},
		{name: "directory as file", args: []string{"--spec", bundle, "--tool", "get_products", "--response", t.TempDir()}, code: 2, stderr: "is a directory"},
		{name: "unknown tool", args: []string{"--spec", bundle, "--tool", "get_everything", "--response", valid}, code: 2, stderr: "unknown tool"},
		{name: "unknown schema", args: []string{"--spec", bundle, "--schema", "core/nope.json", valid}, code: 2, stderr: "unknown schema"},
		{name: "schema outside the tree", args: []string{"--spec", bundle, "--schema", "https://example.com/x.json", valid}, code: 2, stderr: "https://example.com/x.json"},
		{name: "missing spec", args: []string{"--tool", "get_products", "--response", valid}, code: 2, stderr: "missing --spec"},
		{name: "unreadable spec", args: []string{"--spec", missing, "--tool", "get_products", "--response", valid}, code: 2, stderr: "missing.json"},
		{name: "no schema named", args: []string{"--spec", bundle, valid}, code: 2, stderr: "name the schema"},
		{name: "schema and tool", args: []string{"--spec", bundle, "--schema", "core/error.json", "--tool", "get_products", "--response", valid}, code: 2, stderr: "exclude each other"},
		{name: "tool without direction", args: []string{"--spec", bundle, "--tool", "get_products", valid}, code: 2, stderr: "exactly one of --request and --response"},
		{name: "tool with both directions", args: []string{"--spec", bundle, "--tool", "get_products", "--request", "--response", valid}, code: 2, stderr: "exactly one"},
		{name: "direction without tool", args: []string{"--spec", bundle, "--schema", "core/error.json", "--request", valid}, code: 2, stderr: "go with --tool"},
		{name: "no files", args: []string{"--spec", bundle, "--tool", "get_products", "--response"}, code: 2, stderr: "missing FILE"},
		{name: "stdin twice", args: []string{"--spec", bundle, "--tool", "get_products", "--response", "-", "-"}, code: 2, stderr: "only once"},
		{name: "unknown flag", args: []string{"--spec", bundle, "--bogus", valid}, code: 2, stderr: "bogus"},
		{name: "help", args: []string{"--help"}, code: 0, stdout: []string{"Usage:", "--schema", "--tool", "--reference", "Exit status"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := runValidateCmd(t, tc.stdin, tc.env, tc.args...)
			if r.code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", r.code, tc.code, r.stdout, r.stderr)
			}
			rest := r.stdout
			for _, want := range tc.stdout {
				i := strings.Index(rest, want)
				if i < 0 {
					t.Fatalf("stdout lacks %s (in order)\nstdout: %s", want, r.stdout)
				}
				rest = rest[i+len(want):]
			}
			if tc.noStdout && r.stdout != "" {
				t.Errorf("stdout %q, want nothing", r.stdout)
			}
			if !strings.Contains(r.stderr, tc.stderr) {
				t.Errorf("stderr %q lacks %q", r.stderr, tc.stderr)
			}
			if tc.code == 2 && tc.name != "help" && tc.stdout == nil && strings.Count(strings.TrimSpace(r.stderr), "\n") > 0 {
				t.Errorf("usage errors are one line; stderr %q", r.stderr)
			}
		})
	}
}

// Every issue line is one compact JSON object with the documented keys,
// and the output is the same on every run.
func TestValidateOutputLines(t *testing.T) {
	bundle := testspec.Path(t, "protocol", "3.0.26.tgz")
	files := validateFiles(t, `{"products":[{"product_id":5},{"name":7}]}`)
	first := runValidateCmd(t, "", nil, "--spec", bundle, "--tool", "get_products", "--response", files[0])
	if first.code != 1 {
		t.Fatalf("exit %d: %s", first.code, first.stderr)
	}
	lines := strings.Split(strings.TrimSuffix(first.stdout, "\n"), "\n")
	if len(lines) < 10 {
		t.Fatalf("%d lines, want an issue per line", len(lines))
	}
	for _, line := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		for _, k := range []string{"file", "pointer", "keyword", "message", "schema_id"} {
			if _, ok := m[k]; !ok {
				t.Errorf("line %s lacks %q", line, k)
			}
		}
		if strings.Contains(line, "\n") || strings.HasPrefix(line, " ") {
			t.Errorf("line %q is not compact", line)
		}
	}
	again := runValidateCmd(t, "", nil, "--spec", bundle, "--tool", "get_products", "--response", files[0])
	if !reflect.DeepEqual(first, again) {
		t.Error("output differs between runs")
	}
}
