package generator

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/spec"
)

// specDump is what the corpus module's specdump program prints per
// package: the Spec tables, with constructors reduced to whether they
// return a value.
type specDump struct {
	Version string
	Codes   registry.ErrorCodes
	Unknown registry.Recovery
	Tools   []toolDump
	Results map[string]string
	// Untyped lists constructors that return nil.
	Untyped []string
}

type toolDump struct {
	Name, Protocol, RequestSchema, ResponseSchema string
	Mutating, IdempotencyRequired, Deprecated     bool
	Async                                         []string // status=schema
}

// specDumpSource is a program printing the specDump of each package.
const specDumpSource = `package main

import (
	"encoding/json"
	"os"

	"github.com/adcpgen/adcpgen/runtime/registry"
%s)

type toolDump struct {
	Name, Protocol, RequestSchema, ResponseSchema string
	Mutating, IdempotencyRequired, Deprecated     bool
	Async                                         []string
}

type specDump struct {
	Version string
	Codes   registry.ErrorCodes
	Unknown registry.Recovery
	Tools   []toolDump
	Results map[string]string
	Untyped []string
}

func describe(s *registry.Spec) specDump {
	d := specDump{Version: s.Version(), Codes: s.Codes(), Unknown: s.UnknownRecovery(), Results: map[string]string{}}
	for _, t := range s.Tools() {
		td := toolDump{Name: t.Name, Protocol: t.Protocol, RequestSchema: t.RequestSchema, ResponseSchema: t.ResponseSchema,
			Mutating: t.Mutating, IdempotencyRequired: t.IdempotencyRequired, Deprecated: t.Deprecated}
		if t.NewRequest() == nil || t.NewResponse() == nil {
			d.Untyped = append(d.Untyped, t.Name)
		}
		for _, a := range t.Async {
			td.Async = append(td.Async, a.Status+"="+a.Schema)
			if a.New() == nil {
				d.Untyped = append(d.Untyped, t.Name+" "+a.Status)
			}
		}
		d.Tools = append(d.Tools, td)
	}
	for _, r := range s.WebhookResults() {
		d.Results[r.TaskType] = r.Schema
		if r.New() == nil {
			d.Untyped = append(d.Untyped, "result "+r.TaskType)
		}
	}
	return d
}

func main() {
	out := map[string]specDump{
%s	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		panic(err)
	}
}
`

// loadManifest returns the tree's manifest, nil when it has none.
func loadManifest(t *testing.T, tree *spec.Tree) *registry.Manifest {
	t.Helper()
	m, err := registry.LoadManifest(tree.FS, tree.Source)
	if errors.Is(err, registry.ErrNoManifest) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// withSchemaKeyRequirement returns m with every tool whose request schema
// lists idempotency_key in its required members marked as requiring one,
// as the generated Spec marks it (manifests before 3.2 do not say).
func withSchemaKeyRequirement(t *testing.T, tree *spec.Tree, m *registry.Manifest) *registry.Manifest {
	t.Helper()
	out := *m
	out.Tools = slices.Clone(m.Tools)
	for i, tool := range out.Tools {
		data, err := fs.ReadFile(tree.FS, tool.RequestSchema)
		if err != nil {
			t.Fatalf("%s: %v", tool.Name, err)
		}
		var schema struct {
			Required []string `json:"required"`
		}
		if err := json.Unmarshal(data, &schema); err != nil {
			t.Fatalf("%s: %v", tool.RequestSchema, err)
		}
		if slices.Contains(schema.Required, "idempotency_key") {
			out.Tools[i].IdempotencyRequired = true
		}
	}
	return &out
}

// writeSpecDump writes the specdump program for the packages in pkgs
// (sorted package names) into the corpus module.
func writeSpecDump(t *testing.T, mod string, pkgs []string) {
	t.Helper()
	var imports, entries strings.Builder
	for _, p := range pkgs {
		fmt.Fprintf(&imports, "\t%q\n", "example.com/corpus/"+p)
		fmt.Fprintf(&entries, "\t\t%q: describe(%s.Spec()),\n", p, p)
	}
	dir := filepath.Join(mod, "specdump")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	src := fmt.Sprintf(specDumpSource, imports.String(), entries.String())
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
}

// runSpecDump runs the corpus module's specdump program.
func runSpecDump(t *testing.T, mod string) map[string]specDump {
	t.Helper()
	cmd := exec.Command("go", "run", "./specdump")
	cmd.Dir = mod
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go run ./specdump: %v\n%s", err, stderr.String())
	}
	var dumps map[string]specDump
	if err := json.Unmarshal(out, &dumps); err != nil {
		t.Fatalf("specdump output: %v", err)
	}
	return dumps
}

// checkSpecDumps holds each package's Spec to its manifest, code for code
// and tool for tool.
func checkSpecDumps(t *testing.T, mod string, manifests map[string]*registry.Manifest) {
	t.Helper()
	dumps := runSpecDump(t, mod)
	for pkg, m := range manifests {
		got, ok := dumps[pkg]
		if !ok {
			t.Errorf("%s: not dumped", pkg)
			continue
		}
		if d := diffSpec(got, wantDump(m)); d != "" {
			t.Errorf("%s: Spec() differs from its manifest: %s", pkg, d)
		}
	}
}

// wantDump is what a whole-tree package's Spec must say for its manifest.
func wantDump(m *registry.Manifest) specDump {
	d := specDump{Version: m.Version, Codes: m.CodeTable(), Unknown: m.UnknownRecovery, Results: map[string]string{}}
	for _, t := range m.Tools {
		td := toolDump{Name: t.Name, Protocol: t.Protocol, RequestSchema: t.RequestSchema, ResponseSchema: t.ResponseSchema,
			Mutating: t.Mutating, IdempotencyRequired: t.IdempotencyRequired, Deprecated: t.Deprecated}
		for _, a := range t.AsyncSchemas {
			status := strings.TrimSuffix(path.Base(a), ".json")
			status = status[strings.LastIndex(status, "-async-response-")+len("-async-response-"):]
			td.Async = append(td.Async, status+"="+a)
		}
		d.Tools = append(d.Tools, td)
	}
	for _, r := range m.Results {
		d.Results[r.TaskType] = r.Schema
	}
	return d
}

// diffSpec names the first differences between two dumps, "" when equal.
func diffSpec(got, want specDump) string {
	var diffs []string
	if got.Version != want.Version || got.Unknown != want.Unknown {
		diffs = append(diffs, fmt.Sprintf("version %q unknown %q, want %q %q", got.Version, got.Unknown, want.Version, want.Unknown))
	}
	if len(got.Untyped) > 0 {
		diffs = append(diffs, fmt.Sprintf("constructors returning nil: %v", got.Untyped))
	}
	codes := map[string]registry.ErrorCode{}
	for _, c := range got.Codes {
		codes[c.Code] = c
	}
	for _, c := range want.Codes {
		if g, ok := codes[c.Code]; !ok || g != c {
			diffs = append(diffs, fmt.Sprintf("code %s: got %+v, want %+v", c.Code, g, c))
		}
	}
	if len(got.Codes) != len(want.Codes) {
		diffs = append(diffs, fmt.Sprintf("%d codes, want %d", len(got.Codes), len(want.Codes)))
	}
	tools := map[string]toolDump{}
	for _, tl := range got.Tools {
		tools[tl.Name] = tl
	}
	for _, tl := range want.Tools {
		if g, ok := tools[tl.Name]; !ok || !reflect.DeepEqual(g, tl) {
			diffs = append(diffs, fmt.Sprintf("tool %s: got %+v, want %+v", tl.Name, g, tl))
		}
	}
	if len(got.Tools) != len(want.Tools) {
		diffs = append(diffs, fmt.Sprintf("%d tools, want %d", len(got.Tools), len(want.Tools)))
	}
	if !reflect.DeepEqual(got.Results, want.Results) {
		diffs = append(diffs, fmt.Sprintf("webhook results %v, want %v", got.Results, want.Results))
	}
	if len(diffs) > 5 {
		diffs = append(diffs[:5], fmt.Sprintf("and %d more", len(diffs)-5))
	}
	return strings.Join(diffs, "; ")
}

// TestSpecDump runs the corpus check on the manifest golden tree, and
// checks that it notices a package disagreeing with its manifest.
func TestSpecDump(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module")
	}
	tree, err := spec.Open(filepath.Join("testdata", "schemas", "manifest"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Generate(Options{Tree: tree, Package: "small", Source: "manifest"})
	if err != nil {
		t.Fatal(err)
	}
	mod := t.TempDir()
	writeModule(t, mod)
	if err := WriteDir(filepath.Join(mod, "small"), res.Files); err != nil {
		t.Fatal(err)
	}
	writeSpecDump(t, mod, []string{"small"})
	tidy := exec.Command("go", "mod", "tidy")
	tidy.Dir = mod
	if out, err := tidy.CombinedOutput(); err != nil {
		t.Fatalf("go mod tidy: %v\n%s", err, out)
	}
	got := runSpecDump(t, mod)["small"]
	m := loadManifest(t, tree)
	want := wantDump(m)
	// The golden tree leaves out a tool and a result whose schemas it lacks.
	want.Tools = slices.DeleteFunc(want.Tools, func(td toolDump) bool { return td.Name == "not_generated" })
	delete(want.Results, "not_generated")
	delete(want.Results, "absent_delivery")
	if d := diffSpec(got, want); d != "" {
		t.Fatalf("Spec() differs from its manifest: %s", d)
	}
	m.Codes[0].Recovery = registry.Transient
	m.UnknownRecovery = ""
	if d := diffSpec(got, wantDump(m)); !strings.Contains(d, "code OLD_CODE") || !strings.Contains(d, "tool not_generated") ||
		!strings.Contains(d, `unknown "transient"`) || !strings.Contains(d, "webhook results") {
		t.Errorf("differences not all named: %s", d)
	}
}
