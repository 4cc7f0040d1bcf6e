package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/internal/testspec"
)

// diffCmd runs "adcpgen diff args..." in-process with the given
// environment.
func diffCmd(t *testing.T, environ map[string]string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, getenv: func(k string) string { return environ[k] }}
	code = run(e, append([]string{"diff"}, args...))
	return code, out.String(), errOut.String()
}

// writeTree writes a tiny schema tree: a Thing struct and a Color enum,
// shaped by the arguments.
func writeTree(t *testing.T, version, thingProps, required, colors string) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"core/thing.json": `{"$id": "/schemas/` + version + `/core/thing.json", "title": "Thing", "type": "object",
			"properties": {` + thingProps + `}, "required": [` + required + `]}`,
		"enums/color.json": `{"$id": "/schemas/` + version + `/enums/color.json", "title": "Color", "type": "string",
			"enum": [` + colors + `]}`,
	}
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const (
	thingV1 = `"name": {"type": "string"}, "size": {"type": "integer"}, "color": {"$ref": "/schemas/1.0.0/enums/color.json"}`
	thingV2 = `"name": {"type": "string"}, "size": {"type": "integer"}, "color": {"$ref": "/schemas/1.1.0/enums/color.json"}, "note": {"type": "string"}`
	thingV3 = `"name": {"type": "string"}, "color": {"$ref": "/schemas/1.2.0/enums/color.json"}`
)

func TestDiffCommandExitStatus(t *testing.T) {
	v1 := writeTree(t, "1.0.0", thingV1, `"name"`, `"red", "green"`)
	v2 := writeTree(t, "1.1.0", thingV2, `"name"`, `"red", "green", "blue"`) // only additions
	v3 := writeTree(t, "1.2.0", thingV3, `"name", "color"`, `"red", "blue"`) // removals, newly required
	cases := []struct {
		name     string
		from, to string
		code     int
		out      []string
	}{
		{"same tree", v1, v1, exitOK, []string{"No changes."}},
		{"compatible additions", v1, v2, exitOK, []string{
			"COMPATIBLE (2)", "added Note (note) *string", `added "blue" (ColorBlue)`}},
		{"breaking changes", v2, v3, exitFailure, []string{
			"BREAKING (4)", "removed Size (size) (was *int64)", "removed Note (note)",
			"Color (color) became required, *Color → Color", `removed "green" (ColorGreen)`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := diffCmd(t, nil, "--from", tc.from, "--to", tc.to)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr: %s\n%s", code, tc.code, errOut, out)
			}
			for _, w := range tc.out {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			if errOut != "" {
				t.Errorf("stderr: %s", errOut)
			}
		})
	}
}

func TestDiffCommandFormats(t *testing.T) {
	v1 := writeTree(t, "1.0.0", thingV1, `"name"`, `"red", "green"`)
	v3 := writeTree(t, "1.2.0", thingV3, `"name", "color"`, `"red", "blue"`)

	code, md, _ := diffCmd(t, nil, "--from", v1, "--to", v3, "--format", "markdown")
	if code != exitFailure {
		t.Fatalf("markdown: exit %d", code)
	}
	for _, w := range []string{"# Go API changes", "| fields        |        2 |", "## Fields (2 breaking, 0 compatible)",
		"### Breaking", "- `Thing`", "  - removed `Size` (`size`)"} {
		if !strings.Contains(md, w) {
			t.Errorf("markdown lacks %q:\n%s", w, md)
		}
	}

	code, js, _ := diffCmd(t, nil, "--from", v1, "--to", v3, "--format", "json")
	if code != exitFailure {
		t.Fatalf("json: exit %d", code)
	}
	var report struct {
		Breaking int `json:"breaking"`
		Changes  []struct {
			Kind   string `json:"kind"`
			Member string `json:"member"`
		} `json:"changes"`
	}
	if err := json.Unmarshal([]byte(js), &report); err != nil {
		t.Fatalf("json output: %v\n%s", err, js)
	}
	if report.Breaking != 3 || len(report.Changes) != 4 || report.Changes[0].Kind != "field-required" {
		t.Errorf("json: %+v", report)
	}
}

func TestDiffCommandUsage(t *testing.T) {
	v1 := writeTree(t, "1.0.0", thingV1, `"name"`, `"red"`)
	missing := filepath.Join(t.TempDir(), "nowhere")
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"no flags", nil, "missing --from SOURCE"},
		{"no --to", []string{"--from", v1}, "missing --to SOURCE"},
		{"positional", []string{"--from", v1, "--to", v1, "extra"}, `unexpected argument "extra"`},
		{"bad format", []string{"--from", v1, "--to", v1, "--format", "yaml"}, `unknown --format "yaml"`},
		{"unknown flag", []string{"--frm", v1}, "flag provided but not defined"},
		{"unreadable --from", []string{"--from", missing, "--to", v1}, "--from: "},
		{"unreadable --to", []string{"--from", v1, "--to", missing}, "--to: "},
		{"offline version", []string{"--from", "9.9.9", "--to", v1, "--offline", "--cache", t.TempDir()}, "9.9.9"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := diffCmd(t, nil, tc.args...)
			if code != exitUsage {
				t.Fatalf("exit %d, want %d; stderr: %s", code, exitUsage, errOut)
			}
			if !strings.Contains(errOut, tc.want) || strings.Count(errOut, "\n") != 1 {
				t.Errorf("stderr %q, want one line with %q", errOut, tc.want)
			}
			if out != "" {
				t.Errorf("stdout: %s", out)
			}
		})
	}
}

func TestDiffCommandBrokenSchema(t *testing.T) {
	v1 := writeTree(t, "1.0.0", thingV1, `"name"`, `"red"`)
	broken := writeTree(t, "1.0.0", thingV1, `"name"`, `"red"`)
	if err := os.WriteFile(filepath.Join(broken, "core", "thing.json"), []byte(`{"type": "object", "properties": {`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := diffCmd(t, nil, "--from", v1, "--to", broken)
	if code != exitUsage || !strings.Contains(errOut, "thing.json") {
		t.Errorf("exit %d, stderr %q: want 2 and a message naming thing.json", code, errOut)
	}
}

func TestDiffCommandHelp(t *testing.T) {
	code, out, _ := diffCmd(t, nil, "--help")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	for _, w := range []string{"--from", "--to", "--format", "--include", "--mirror", "--cache", "--offline", "Exit status: 0 nothing breaks"} {
		if !strings.Contains(out, w) {
			t.Errorf("help lacks %q", w)
		}
	}
}

// The published versions, resolved the way users name them: 3.0.26 through
// the mirror and a cache, 3.1.19 as a schema tree directory.
func TestDiffCommandPublished(t *testing.T) {
	specDir := testspec.Dir(t)
	environ := map[string]string{"ADCP_MIRROR": specDir, "ADCP_CACHE": t.TempDir()}
	to := filepath.Join(specDir, "schemas", "3.1.19")

	code, md, errOut := diffCmd(t, environ, "--from", "3.0.26", "--to", to, "--format", "markdown")
	if code != exitFailure {
		t.Fatalf("exit %d, want 1 (3.1 breaks 3.0 code); stderr: %s", code, errOut)
	}
	for _, w := range []string{"# Go API changes: AdCP 3.0.26 → 3.1.19", "## Error codes (0 breaking, 48 compatible)",
		"- added error code `AUTH_MISSING` (correctable)", "- added error code `AUTH_INVALID` (terminal)",
		"## Error details (0 breaking, 7 compatible)", "- `CheckGovernanceResponse`"} {
		if !strings.Contains(md, w) {
			t.Errorf("markdown lacks %q", w)
		}
	}
	for i, line := range strings.Split(md, "\n") {
		if strings.ContainsAny(line, "\t\r") {
			t.Errorf("markdown line %d has a tab or CR: %q", i+1, line)
		}
	}

	var runs [2]string
	for i := range runs {
		code, runs[i], errOut = diffCmd(t, environ, "--from", "3.0.26", "--to", to, "--format", "json", "--offline")
		if code != exitFailure {
			t.Fatalf("json run %d: exit %d; stderr: %s", i, code, errOut)
		}
	}
	if runs[0] != runs[1] {
		t.Fatal("two JSON runs differ")
	}
	if !json.Valid([]byte(runs[0])) {
		t.Fatal("JSON output is not valid JSON")
	}

	code, out, errOut := diffCmd(t, environ, "--from", "3.0.26", "--to", "3.0.26", "--offline")
	if code != exitOK || !strings.Contains(out, "No changes.") {
		t.Errorf("a version against itself: exit %d, stderr %s\n%s", code, errOut, out)
	}
}
