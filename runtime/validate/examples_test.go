package validate

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"sort"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/internal/testspec"
)

var update = flag.Bool("update", false, "rewrite testdata/examples-3.0.26.txt from the current results")

const examplesFile = "testdata/examples-3.0.26.txt"

// example is a payload shipped in the 3.0.26 bundle that names its tool or
// schema.
type example struct {
	id      string // where it is: file, plus #heading/n for Markdown blocks
	schema  string // tree path, or "" when tool names it
	tool    string
	dir     Direction
	payload []byte
}

// bundleExamples finds the JSON examples of the 3.0.26 bundle:
//   - skills/*/SKILL.md: ```json blocks under a "### <tool>" heading, a
//     request unless their label says Response;
//   - compliance/test-vectors/request-signing: request bodies, for the tool
//     the URL's last path segment names;
//   - compliance/test-vectors/webhook-signing: webhook bodies, for
//     core/mcp-webhook-payload.json.
//
// The compliance storyboards (YAML) carry sample_request payloads with
// schema_ref too; reading them needs a YAML parser, which the module does
// not have yet.
func bundleExamples(t *testing.T, v *Validator) []example {
	bundle := v.tree.Bundle
	if bundle == nil {
		t.Fatal("3.0.26 opened without its bundle")
	}
	tools, err := v.Tools()
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, n := range tools {
		known[n] = true
	}
	var out []example
	skills, _ := fs.Glob(bundle, "skills/*/SKILL.md")
	for _, f := range skills {
		data, err := fs.ReadFile(bundle, f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, markdownExamples(f, string(data), known)...)
	}
	for _, kind := range []string{"request-signing", "webhook-signing"} {
		files, _ := fs.Glob(bundle, "compliance/test-vectors/"+kind+"/*/*.json")
		for _, f := range files {
			data, err := fs.ReadFile(bundle, f)
			if err != nil {
				t.Fatal(err)
			}
			var vec struct {
				Request struct {
					URL  string  `json:"url"`
					Body *string `json:"body"`
				} `json:"request"`
			}
			if err := json.Unmarshal(data, &vec); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			if vec.Request.Body == nil {
				continue
			}
			ex := example{id: f, payload: []byte(*vec.Request.Body)}
			if kind == "webhook-signing" {
				ex.schema = "core/mcp-webhook-payload.json"
			} else {
				u, err := url.Parse(vec.Request.URL)
				if err != nil || !known[path.Base(u.Path)] {
					continue // names no tool (e.g. /adcp/resource/...)
				}
				ex.tool, ex.dir = path.Base(u.Path), Request
			}
			out = append(out, ex)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].id < out[j].id })
	return out
}

func markdownExamples(file, text string, known map[string]bool) []example {
	var out []example
	heading, label := "", ""
	count := map[string]int{}
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		line := strings.TrimSpace(lines[i])
		switch {
		case strings.HasPrefix(line, "#"):
			heading = strings.TrimSpace(strings.TrimLeft(line, "#"))
			label = ""
		case line == "```json":
			var body []string
			for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
				body = append(body, lines[i])
			}
			if !known[heading] {
				continue
			}
			count[heading]++
			dir := Request
			if strings.Contains(strings.ToLower(label), "response") && strings.HasPrefix(label, "**Response") {
				dir = Response
			}
			out = append(out, example{
				id:      fmt.Sprintf("%s#%s/%d", file, heading, count[heading]),
				tool:    heading,
				dir:     dir,
				payload: []byte(strings.Join(body, "\n")),
			})
		case line != "":
			label = line
		}
	}
	return out
}

// outcome is what a test records for one example.
func exampleOutcome(v *Validator, ex example) string {
	var is []Issue
	var err error
	if ex.schema != "" {
		is, err = v.Validate(ex.schema, ex.payload)
	} else {
		is, err = v.ValidateTool(ex.tool, ex.dir, ex.payload)
	}
	if err != nil {
		return "unreadable: " + strings.ReplaceAll(err.Error(), "\t", " ")
	}
	if len(is) == 0 {
		return "valid"
	}
	var reasons []string
	for _, i := range is {
		kw, ptr := i.Keyword, i.Pointer
		if ptr == "" {
			ptr = "(root)"
		}
		if kw == "required" || kw == "additionalProperties" {
			if _, rest, ok := strings.Cut(i.Message, `"`); ok {
				name, _, _ := strings.Cut(rest, `"`)
				kw += "(" + name + ")"
			}
		}
		if r := kw + "@" + ptr; len(reasons) == 0 || reasons[len(reasons)-1] != r {
			reasons = append(reasons, r)
		}
	}
	return "invalid: " + strings.Join(reasons, " ")
}

// The JSON examples shipped in the 3.0.26 bundle are validated against the
// schema they name, and each outcome (valid, or invalid with the keywords
// and pointers why) matches the committed expectation list. Run with
// -update to rewrite the list after a deliberate change.
func TestBundleExamples(t *testing.T) {
	v := versionValidator(t, "3.0.26")
	examples := bundleExamples(t, v)
	if len(examples) < 60 {
		t.Fatalf("found %d examples, want at least 60", len(examples))
	}
	got := map[string]string{}
	var ids []string
	valid := 0
	for _, ex := range examples {
		o := exampleOutcome(v, ex)
		if _, dup := got[ex.id]; dup {
			t.Fatalf("duplicate example id %s", ex.id)
		}
		got[ex.id] = o
		ids = append(ids, ex.id)
		if o == "valid" {
			valid++
		}
	}
	if *update {
		var b strings.Builder
		b.WriteString("# JSON examples shipped in the AdCP 3.0.26 bundle, validated against the schema they\n")
		b.WriteString("# name (see examples_test.go). id<TAB>outcome: valid, invalid: keyword[(property)]@pointer...,\n")
		b.WriteString("# or unreadable: why. Regenerate: go test ./runtime/validate -run BundleExamples -update\n")
		for _, id := range ids {
			fmt.Fprintf(&b, "%s\t%s\n", id, got[id])
		}
		if err := os.WriteFile(examplesFile, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s: %d examples, %d valid", examplesFile, len(ids), valid)
		return
	}
	want := readExpectations(t)
	for _, id := range ids {
		w, ok := want[id]
		if !ok {
			t.Errorf("%s: new example (outcome %q); run with -update", id, got[id])
			continue
		}
		if w != got[id] {
			t.Errorf("%s:\n got %s\nwant %s", id, got[id], w)
		}
	}
	for id := range want {
		if _, ok := got[id]; !ok {
			t.Errorf("%s: expected but no longer found", id)
		}
	}
	t.Logf("%d examples, %d valid, %d invalid", len(ids), valid, len(ids)-valid)
}

func readExpectations(t *testing.T) map[string]string {
	f, err := os.Open(examplesFile)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		id, outcome, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("%s: malformed line %q", examplesFile, line)
		}
		out[id] = outcome
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// Examples the spec ships that its own schemas reject: in 2.5.3 the asset
// oneOf arms overlap (a video or VAST asset matches two arms).
var invalidEmbeddedExamples = map[string]string{
	"2.5.3 media-buy/list-creatives-response.json examples/0": "oneOf@/creatives/0/assets/vast",
	"2.5.3 media-buy/sync-creatives-request.json examples/0":  "oneOf@/creatives/0/assets/video",
	"2.5.3 media-buy/sync-creatives-request.json examples/1":  "oneOf@/creatives/0/assets/generation_prompt",
	"2.5.3 media-buy/sync-creatives-request.json examples/2":  "oneOf@/creatives/0/assets/video",
}

// The examples embedded in the schemas themselves ("examples": [{"data":
// ...}]) validate against their schema, in every version: a check that the
// validator is not stricter than the spec's own authors.
func TestSchemaEmbeddedExamples(t *testing.T) {
	for _, tv := range testspec.Versions {
		t.Run(tv.Version, func(t *testing.T) {
			v := versionValidator(t, tv.Version)
			paths, err := v.SchemaPaths()
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, p := range paths {
				data, err := fs.ReadFile(v.tree.FS, p)
				if err != nil {
					t.Fatal(err)
				}
				var doc struct {
					Examples []json.RawMessage `json:"examples"`
				}
				if json.Unmarshal(data, &doc) != nil {
					continue
				}
				for i, raw := range doc.Examples {
					var ex struct {
						Data json.RawMessage `json:"data"`
					}
					if json.Unmarshal(raw, &ex) != nil || ex.Data == nil {
						continue
					}
					n++
					is, err := v.Validate(p, ex.Data)
					if want, ok := invalidEmbeddedExamples[fmt.Sprintf("%s %s examples/%d", tv.Version, p, i)]; ok {
						if err != nil || len(is) == 0 || is[0].Keyword+"@"+is[0].Pointer != want {
							t.Errorf("%s examples/%d: issues %v, err %v; want first issue %s", p, i, is, err, want)
						}
						continue
					}
					if err != nil || len(is) != 0 {
						t.Errorf("%s examples/%d: issues %v, err %v", p, i, is, err)
					}
				}
			}
			t.Logf("%d embedded examples", n)
			if n == 0 && tv.Version != "2.5.3" {
				t.Error("no embedded examples found")
			}
		})
	}
}
