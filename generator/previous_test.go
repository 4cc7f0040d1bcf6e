package generator

import (
	"bytes"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/adcpgen/adcpgen/generator/internal/naming"
	"github.com/adcpgen/adcpgen/runtime/spec"
)

// upgradeTree is a small tree as a version publishes it: files maps tree
// paths to JSON.
func upgradeTree(t *testing.T, files map[string]string) *spec.Tree {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, body := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(body)}
	}
	tree, err := spec.OpenFS(fsys, "test", spec.KindDir)
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// Version 1 has an inline metric union in core/feedback.json; version 2
// adds the root core/feedback-metric.json titled "Feedback Metric",
// which the policy ranks first for that name.
var (
	feedbackV1 = map[string]string{
		"core/feedback.json": `{"$id": "/schemas/1.0.0/core/feedback.json", "title": "Feedback", "type": "object",
			"properties": {"metric": {"oneOf": [
				{"type": "object", "properties": {"kind": {"const": "standard"}, "value": {"type": "number"}}, "required": ["kind"]},
				{"type": "object", "properties": {"kind": {"const": "vendor"}, "vendor": {"type": "string"}}, "required": ["kind"]}]}}}`,
	}
	feedbackV2 = map[string]string{
		"core/feedback.json":        strings.ReplaceAll(feedbackV1["core/feedback.json"], "1.0.0", "2.0.0"),
		"core/feedback-metric.json": `{"$id": "/schemas/2.0.0/core/feedback-metric.json", "title": "Feedback Metric", "type": "object", "properties": {"name": {"type": "string"}}}`,
	}
)

func generateTree(t *testing.T, tree *spec.Tree, prev *Previous) *Result {
	t.Helper()
	res, err := Generate(Options{Tree: tree, Package: "fb", Source: "test", Previous: prev})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// declared returns the type names of generated files, by schema key.
func declared(files []File) map[string]string {
	return PreviousOf(files).types
}

// A type keeps its name across an upgrade when the package is regenerated
// over its previous generation, even where the policy alone would give the
// name to a new schema; the new schema takes another. A fresh directory
// gets the policy's names.
func TestPreviousKeepsNames(t *testing.T) {
	v1 := generateTree(t, upgradeTree(t, feedbackV1), nil)
	before := declared(v1.Files)
	if got := before["core/feedback.json#/properties/metric"]; got != "FeedbackMetric" {
		t.Fatalf("v1 names the metric union %q", got)
	}
	tree2 := upgradeTree(t, feedbackV2)
	fresh := declared(generateTree(t, tree2, nil).Files)
	if fresh["core/feedback-metric.json#"] != "FeedbackMetric" || fresh["core/feedback.json#/properties/metric"] == "FeedbackMetric" {
		t.Fatalf("fresh v2: the policy gives FeedbackMetric to the new root: %v", fresh)
	}
	// Regenerated into v1's directory.
	dir := t.TempDir()
	if err := WriteDir(dir, v1.Files); err != nil {
		t.Fatal(err)
	}
	prev, err := ReadPrevious(dir)
	if err != nil || prev.Types() != len(before) {
		t.Fatalf("ReadPrevious: %d types, %v; want %d", prev.Types(), err, len(before))
	}
	v2 := generateTree(t, tree2, prev)
	after := declared(v2.Files)
	for key, name := range before {
		if after[key] != name {
			t.Errorf("%s: %s became %s", key, name, after[key])
		}
	}
	if got := after["core/feedback-metric.json#"]; got == "" || got == "FeedbackMetric" {
		t.Errorf("the new root is %q, want a name of its own", got)
	}
	// Regenerating again changes nothing: the output is a fixpoint, the
	// same for the same tree and directory.
	if err := WriteDir(dir, v2.Files); err != nil {
		t.Fatal(err)
	}
	prev2, err := ReadPrevious(dir)
	if err != nil {
		t.Fatal(err)
	}
	again := generateTree(t, tree2, prev2)
	if len(again.Files) != len(v2.Files) {
		t.Fatalf("%d files, then %d", len(v2.Files), len(again.Files))
	}
	for i := range again.Files {
		if again.Files[i].Name != v2.Files[i].Name || !bytes.Equal(again.Files[i].Data, v2.Files[i].Data) {
			t.Errorf("%s differs when regenerated over itself", v2.Files[i].Name)
		}
	}
}

// Helpers the previous generation declared (constants, constructors, union
// kinds) are never taken by a new type: a new schema whose name would be
// FeedbackMetricKind takes another.
func TestPreviousHelpersAreTaken(t *testing.T) {
	v1 := generateTree(t, upgradeTree(t, feedbackV1), nil)
	prev := PreviousOf(v1.Files)
	for _, h := range []string{"FeedbackMetricKind", "NewFeedbackMetricStandard", "FeedbackMetricKindStandard", "Decode"} {
		if !prev.helpers[h] {
			t.Errorf("helper %s not read back", h)
		}
	}
	files := map[string]string{}
	for k, v := range feedbackV1 {
		files[k] = v
	}
	files["core/feedback-metric-kind.json"] = `{"$id": "/schemas/1.0.0/core/feedback-metric-kind.json", "title": "Feedback Metric Kind", "type": "string", "enum": ["a", "b"]}`
	got := declared(generateTree(t, upgradeTree(t, files), prev).Files)["core/feedback-metric-kind.json#"]
	if got == "" || got == "FeedbackMetricKind" {
		t.Errorf("the new enum is %q, want a name the previous generation did not declare", got)
	}
}

// Schema lines are read back as the schema keys the generator gives:
// either $id style, a merged copy's merge, the title and digest after.
func TestSchemaLine(t *testing.T) {
	for line, want := range map[string]string{
		"/schemas/3.1.19/core/error.json#":                                                      "core/error.json#",
		`https://adcontextprotocol.org/schemas/3.2.0-beta.5/core/product.json# ("Product")`:     "core/product.json#",
		"core/a.json#/properties/x":                                                             "core/a.json#/properties/x",
		"/schemas/3.2.0/core/a.json#/anyOf/0 merged into /schemas/3.2.0/core/b.json#/anyOf/1":   "core/a.json#/anyOf/0 in core/b.json#/anyOf/1",
		`/schemas/3.2.0/core/a.json#/anyOf/0 merged into /schemas/3.2.0/core/b.json# ("B Arm")`: "core/a.json#/anyOf/0 in core/b.json#",
		"the title of something":                                                                "",
		"":                                                                                      "",
	} {
		if got, _, _ := schemaLine(line); got != want {
			t.Errorf("schemaLine(%q) = %q, want %q", line, got, want)
		}
	}
	key, digest, text := schemaLine(`core/a.json#/oneOf/3 ("A, b"), digest 0123456789ab`)
	if key != "core/a.json#/oneOf/3" || digest != "0123456789ab" || text != "" {
		t.Errorf("key %q, digest %q, text %q", key, digest, text)
	}
	key, digest, text = schemaLine(`core/a.json#/oneOf/3 ("A, b"), digests 0123456789ab ba9876543210`)
	if key != "core/a.json#/oneOf/3" || digest != "0123456789ab" || text != "ba9876543210" {
		t.Errorf("key %q, digest %q, text %q", key, digest, text)
	}
}

// A directory without a generated package is no previous generation; one
// with files adcpgen did not write is read for the files it did.
func TestReadPreviousEmpty(t *testing.T) {
	dir := t.TempDir()
	if p, err := ReadPrevious(dir); p != nil || err != nil {
		t.Fatalf("empty dir: %v %v", p, err)
	}
	if p, err := ReadPrevious(filepath.Join(dir, "missing")); p != nil || err != nil {
		t.Fatalf("missing dir: %v %v", p, err)
	}
	if err := WriteDir(dir, []File{{Name: "x_gen.go", Data: []byte(headerLine + "\n\npackage x\n\n// X is x.\n//\n// Schema: core/x.json#\ntype X struct{}\n")}}); err != nil {
		t.Fatal(err)
	}
	p, err := ReadPrevious(dir)
	if err != nil || p.types["core/x.json#"] != "X" {
		t.Fatalf("%+v %v", p, err)
	}
}

// An arm keeps its name when an arm inserted before it moves it to another
// index (its schema's digest follows it), and the arm now at its old index
// does not take its name.
func TestPreviousFollowsShiftedArms(t *testing.T) {
	v1 := generateTree(t, assetTree(t, "1.0.0", "image", "webhook"), nil)
	// An earlier generation named the webhook arm differently.
	var files []File
	for _, f := range v1.Files {
		files = append(files, File{Name: f.Name, Data: bytes.ReplaceAll(f.Data, []byte("WebhookAsset"), []byte("HookAsset"))})
	}
	prev := PreviousOf(files)
	if prev.types["core/asset.json#/oneOf/1"] != "HookAsset" {
		t.Fatalf("previous: %v", prev.types)
	}
	after := declared(generateTree(t, assetTree(t, "2.0.0", "image", "url", "webhook"), prev).Files)
	if got := after["core/asset.json#/oneOf/2"]; got != "HookAsset" {
		t.Errorf("the shifted webhook arm is %q, want HookAsset", got)
	}
	if got := after["core/asset.json#/oneOf/1"]; got != "URLAsset" {
		t.Errorf("the inserted url arm is %q, want URLAsset", got)
	}
}

// An arm whose schema changed only in what documents it (description,
// title, examples) keeps its name, and so do the types inside it, though
// the policy alone now names it after its new title.
func TestPreviousKeepsDocumentedArms(t *testing.T) {
	v1 := generateTree(t, assetTree(t, "1.0.0", "image", "webhook"), nil)
	before := declared(v1.Files)
	if before["core/asset.json#/oneOf/1"] != "WebhookAsset" {
		t.Fatalf("v1: %v", before)
	}
	v2 := assetTree(t, "2.0.0", "image", "webhook")
	data, err := fs.ReadFile(v2.FS, "core/asset.json")
	if err != nil {
		t.Fatal(err)
	}
	retitled := strings.Replace(string(data), `"title": "Webhook Asset", "type": "object"`,
		`"title": "Callback Asset", "description": "Called back.", "examples": [{"kind": "webhook", "url": "x"}], "type": "object"`, 1)
	tree2 := upgradeTree(t, map[string]string{"core/asset.json": retitled})
	if got := declared(generateTree(t, tree2, nil).Files)["core/asset.json#/oneOf/1"]; got != "CallbackAsset" {
		t.Fatalf("fresh v2 names the retitled arm %q, want CallbackAsset", got)
	}
	after := declared(generateTree(t, tree2, PreviousOf(v1.Files)).Files)
	for key, name := range before {
		if after[key] != name {
			t.Errorf("%s: %s became %s", key, name, after[key])
		}
	}
}

// A package an earlier adcpgen generated recorded the digest of a schema's
// whole text: its names are kept by that digest too.
func TestPreviousKeepsTextDigests(t *testing.T) {
	v1 := generateTree(t, assetTree(t, "1.0.0", "image", "webhook"), nil)
	pkg, _, err := build(assetTree(t, "1.0.0", "image", "webhook"), nil, naming.Keep{})
	if err != nil {
		t.Fatal(err)
	}
	var files []File
	for _, f := range v1.Files {
		data := bytes.ReplaceAll(f.Data, []byte("WebhookAsset"), []byte("HookAsset"))
		for _, ty := range pkg.Types {
			data = bytes.ReplaceAll(data, []byte("digests "+ty.Digest+" "+ty.TextDigest), []byte("digest "+ty.TextDigest))
		}
		if bytes.Contains(data, []byte("digests ")) {
			t.Fatalf("%s: a Schema line left with two digests", f.Name)
		}
		files = append(files, File{Name: f.Name, Data: data})
	}
	prev := PreviousOf(files)
	// Inserted before it, another arm moves the webhook arm to index 2.
	after := declared(generateTree(t, assetTree(t, "2.0.0", "image", "url", "webhook"), prev).Files)
	if got := after["core/asset.json#/oneOf/2"]; got != "HookAsset" {
		t.Errorf("the shifted webhook arm is %q, want HookAsset", got)
	}
}

// A union keeps the label of every arm whose Go type is still one arm's
// alone, whatever the policy would label it now: here a third arm makes
// "type" tell the arms apart, where "anyOf" over two types gave them the
// labels of their JSON types.
func TestPreviousKeepsArmLabels(t *testing.T) {
	tree := func(version string, arms ...string) *spec.Tree {
		return upgradeTree(t, map[string]string{"core/target.json": `{"$id": "/schemas/` + version +
			`/core/target.json", "title": "Target", "oneOf": [` + strings.Join(arms, ",") + `]}`})
	}
	geo := `{"title": "Geo Target", "type": "object", "properties": {"country": {"type": "string"}}, "required": ["country"]}`
	list := `{"type": "array", "items": {"type": "string"}}`
	audience := `{"title": "Audience Target", "type": "object", "properties": {"segment": {"type": "string"}}, "required": ["segment"]}`
	v1 := generateTree(t, tree("1.0.0", geo, list), nil)
	labels := func(files []File) map[string]string {
		m := map[string]string{}
		for _, a := range PreviousOf(files).arms["core/target.json#"] {
			m[a.Type] = a.Label
		}
		return m
	}
	before := labels(v1.Files)
	if len(before) != 2 {
		t.Fatalf("v1 arms: %v", before)
	}
	// A third arm inserted first; the list moves to index 2 and both old
	// arms' labels must stay.
	v2 := generateTree(t, tree("2.0.0", audience, geo, list), PreviousOf(v1.Files))
	after := labels(v2.Files)
	for typ, label := range before {
		if after[typ] != label {
			t.Errorf("arm of %s: %s became %s (all: %v)", typ, label, after[typ], after)
		}
	}
	if len(after) != 3 {
		t.Errorf("v2 arms: %v", after)
	}
}
