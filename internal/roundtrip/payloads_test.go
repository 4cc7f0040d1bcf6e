package roundtrip

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/internal/synth"
	"github.com/adcpgen/adcpgen/internal/testspec"
	"github.com/adcpgen/adcpgen/runtime/extract"
	"github.com/adcpgen/adcpgen/runtime/spec"
	"github.com/adcpgen/adcpgen/runtime/validate"
)

// payloadVersion's generated types decode the real payloads.
const payloadVersion = "3.0.26"

const payloadsFile = "testdata/payloads-3.0.26.txt"

// payload is one real document and the schema it is decoded with ("" when
// none can be told, with why).
type payload struct {
	id      string
	ref     string
	untyped string
	data    []byte
	// unsynth says why the synthesiser could not make this instance valid
	// (it is then neither decoded nor validated).
	unsynth string
}

// The example requests and responses shipped in the 3.0.26 bundle
// (skills/*/SKILL.md, compliance/test-vectors) and the success payloads the
// runtime extracts from ../shared/adcp/test-vectors decode with the 3.0.26
// types, or are rejected for a reason; testdata/payloads-3.0.26.txt records
// every outcome by id (ok: decoded, and the round trip holds; else
// kind@pointer; untyped: why no type applies), next to the validator's
// verdict. Most bundle examples are stubs (request-signing and
// webhook-signing vectors sign bodies that leave out required members), so
// every response schema the 3.0.26 manifest names also gets synthesised
// instances (internal/synth: minimal and maximal, once per union arm) that
// the validator accepts; those the synthesiser cannot make valid are
// listed with the validator's first issue. Run with -update to rewrite the
// file after a deliberate change.
func TestRealPayloads(t *testing.T) {
	specDir := testspec.Dir(t)
	h, _ := harness(t)
	tree, err := spec.Open(sourceOf(specDir, payloadVersion))
	if err != nil {
		t.Fatal(err)
	}
	val, err := validate.New(tree, validate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st, err := synth.Load(tree.FS)
	if err != nil {
		t.Fatal(err)
	}
	payloads := bundlePayloads(t, tree, val)
	nBundle := len(payloads)
	payloads = append(payloads, vectorPayloads(t, specDir, tree, st)...)
	nVector := len(payloads) - nBundle
	if nBundle < 60 || nVector < 20 {
		t.Fatalf("found %d bundle examples and %d vector payloads; want at least 60 and 20", nBundle, nVector)
	}
	manifest := readManifest(t, tree)
	synthesised, responses := synthPayloads(t, st, val, manifest)
	payloads = append(payloads, synthesised...)
	covered := map[string]bool{}
	for _, p := range synthesised {
		if p.unsynth == "" {
			covered[p.ref] = true
		}
	}
	if len(responses) < 60 || len(covered) < len(responses)*9/10 {
		t.Fatalf("synthesised valid instances of %d of %d response schemas; want at least 90%% of at least 60", len(covered), len(responses))
	}

	var cases []Case
	for _, p := range payloads {
		if p.ref != "" && p.unsynth == "" {
			cases = append(cases, Case{ID: p.id, Version: payloadVersion, Ref: p.ref, Op: OpRoundTrip, Data: p.data})
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	results, err := h.Run(ctx, cases)
	if err != nil {
		t.Fatal(err)
	}

	got := map[string]string{}
	var ids []string
	counts := map[string]int{}
	for _, p := range payloads {
		if _, dup := got[p.id]; dup {
			t.Fatalf("duplicate payload id %s", p.id)
		}
		ids = append(ids, p.id)
		if p.unsynth != "" {
			got[p.id] = p.ref + "\tnot synthesised: " + p.unsynth + "\t-"
			counts["unsynthesised"]++
			continue
		}
		if p.ref == "" {
			got[p.id] = "-\tuntyped: " + p.untyped + "\t-"
			counts["untyped"]++
			continue
		}
		outcome := decodeOutcome(results[p.id])
		verdict := "valid"
		if issues, err := val.Validate(p.ref, p.data); err != nil {
			verdict = "unreadable"
		} else if len(issues) > 0 {
			verdict = "invalid"
		}
		got[p.id] = p.ref + "\t" + outcome + "\t" + verdict
		if verdict != "valid" {
			counts["stubs"]++
		}
		switch {
		case outcome == "ok":
			counts["decoded"]++
		default:
			counts["rejected"]++
			if r := results[p.id]; verdict == "valid" && r.Err != nil {
				t.Logf("%s: the decoder rejects a payload the validator accepts: %s", p.id, r.Err.Message)
			}
		}
	}
	if *update {
		var b strings.Builder
		b.WriteString("# Real payloads decoded with the generated AdCP 3.0.26 types (see payloads_test.go):\n")
		b.WriteString("# the 3.0.26 bundle's examples, the success data the runtime extracts from the test vectors, and\n")
		b.WriteString("# synthesised instances of every response schema of the manifest (synth/<schema> min|max/v<arm>).\n")
		b.WriteString("# id<TAB>schema<TAB>decoder: ok | kind@pointer | untyped: why | not synthesised: first issue<TAB>validator: valid | invalid\n")
		b.WriteString("# Regenerate: go test ./internal/roundtrip -run RealPayloads -update\n")
		for _, id := range ids {
			fmt.Fprintf(&b, "%s\t%s\n", id, got[id])
		}
		if err := os.WriteFile(payloadsFile, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", payloadsFile)
	} else {
		want := readPayloadExpectations(t)
		for _, id := range ids {
			w, ok := want[id]
			switch {
			case !ok:
				t.Errorf("%s: new payload (outcome %q); run with -update", id, got[id])
			case w != got[id]:
				t.Errorf("%s:\n got %s\nwant %s", id, got[id], w)
			}
		}
		for id := range want {
			if _, ok := got[id]; !ok {
				t.Errorf("%s: expected but no longer found", id)
			}
		}
	}
	t.Logf("%d payloads (%d bundle examples, %d from test vectors, %d synthesised for %d of %d response schemas): "+
		"%d decoded and round-tripped, %d rejected, %d untyped, %d invalid by the schema (stubs), %d not synthesised",
		len(payloads), nBundle, nVector, len(synthesised), len(covered), len(responses),
		counts["decoded"], counts["rejected"], counts["untyped"], counts["stubs"], counts["unsynthesised"])
}

// synthPayloads synthesises the minimal and maximal instance of every
// response and async response schema the manifest names, once per union
// arm (up to maxVariants), skipping duplicates. An instance the validator
// rejects is kept with its first issue and not decoded. It also returns the
// schemas, sorted.
func synthPayloads(t *testing.T, st *synth.Tree, val *validate.Validator, manifest map[string]manifestTool) ([]payload, []string) {
	set := map[string]bool{}
	for _, tool := range manifest {
		for _, s := range append([]string{tool.Response}, tool.Async...) {
			if s != "" {
				set[s] = true
			}
		}
	}
	schemas := sortedKeys(set)
	var out []payload
	for _, ref := range schemas {
		first, err := st.Synthesize(ref, synth.Options{})
		if err != nil {
			t.Fatalf("synthesising %s: %v", ref, err)
		}
		seen := map[string]bool{}
		for v := range min(first.Arms, maxVariants) {
			for _, maxMode := range []bool{false, true} {
				inst, err := st.Synthesize(ref, synth.Options{Max: maxMode, Variant: v})
				if err != nil {
					t.Fatalf("synthesising %s: %v", ref, err)
				}
				data := synth.Marshal(inst.Value)
				if seen[string(data)] {
					continue
				}
				seen[string(data)] = true
				name := fmt.Sprintf("min/v%d", v)
				if maxMode {
					name = fmt.Sprintf("max/v%d", v)
				}
				p := payload{id: "synth/" + ref + " " + name, ref: ref, data: data}
				issues, err := val.Validate(ref, data)
				if err != nil {
					t.Fatalf("validating the synthesised %s: %v", p.id, err)
				}
				if len(issues) > 0 {
					p.unsynth = strings.Join(strings.Fields(issues[0].Keyword+"@"+issues[0].Pointer+": "+issues[0].Message), " ")
				}
				out = append(out, p)
			}
		}
	}
	return out, schemas
}

// decodeOutcome is "ok" when the payload decoded and round-tripped, else
// what failed.
func decodeOutcome(r *Result) string {
	switch {
	case r.Panic != "":
		return "panic: " + firstLine(r.Panic)
	case r.NoType:
		return "no generated type"
	case r.Err != nil:
		return r.Err.String()
	case r.EncErr != "":
		return "ok, but encoding fails: " + r.EncErr
	case r.Redecode != nil:
		return "ok, but the re-encoded bytes fail: " + r.Redecode.String()
	case !r.Equal:
		return "ok, but the second decode differs"
	case !r.JSONSame:
		return "ok, but MarshalJSON/UnmarshalJSON disagree"
	}
	return "ok"
}

func readPayloadExpectations(t *testing.T) map[string]string {
	f, err := os.Open(payloadsFile)
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
		id, rest, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("%s: malformed line %q", payloadsFile, line)
		}
		out[id] = rest
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// bundlePayloads finds the JSON examples of the bundle that name their
// tool or schema (the discovery runtime/validate's example test uses):
//   - skills/*/SKILL.md: ```json blocks under a "### <tool>" heading, a
//     request unless the line before says **Response;
//   - compliance/test-vectors/request-signing: request bodies, for the tool
//     the URL's last path segment names;
//   - compliance/test-vectors/webhook-signing: webhook bodies, for
//     core/mcp-webhook-payload.json.
func bundlePayloads(t *testing.T, tree *spec.Tree, val *validate.Validator) []payload {
	if tree.Bundle == nil {
		t.Fatal(payloadVersion + " opened without its bundle")
	}
	tools, err := val.Tools()
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, n := range tools {
		known[n] = true
	}
	schemaOf := func(tool string, dir validate.Direction) string {
		p, err := val.ToolSchemaPath(tool, dir)
		if err != nil {
			t.Fatalf("%s %s: %v", tool, dir, err)
		}
		return p
	}
	var out []payload
	skills, _ := fs.Glob(tree.Bundle, "skills/*/SKILL.md")
	for _, f := range skills {
		data, err := fs.ReadFile(tree.Bundle, f)
		if err != nil {
			t.Fatal(err)
		}
		heading, label := "", ""
		count := map[string]int{}
		lines := strings.Split(string(data), "\n")
		for i := 0; i < len(lines); i++ {
			line := strings.TrimSpace(lines[i])
			switch {
			case strings.HasPrefix(line, "#"):
				heading, label = strings.TrimSpace(strings.TrimLeft(line, "#")), ""
			case line == "```json":
				var body []string
				for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
					body = append(body, lines[i])
				}
				if !known[heading] {
					continue
				}
				count[heading]++
				dir := validate.Request
				if strings.HasPrefix(label, "**Response") {
					dir = validate.Response
				}
				out = append(out, payload{id: fmt.Sprintf("%s#%s/%d", f, heading, count[heading]),
					ref: schemaOf(heading, dir), data: []byte(strings.Join(body, "\n"))})
			case line != "":
				label = line
			}
		}
	}
	for _, kind := range []string{"request-signing", "webhook-signing"} {
		files, _ := fs.Glob(tree.Bundle, "compliance/test-vectors/"+kind+"/*/*.json")
		for _, f := range files {
			data, err := fs.ReadFile(tree.Bundle, f)
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
			p := payload{id: f, data: []byte(*vec.Request.Body)}
			if kind == "webhook-signing" {
				p.ref = "core/mcp-webhook-payload.json"
			} else {
				u, err := url.Parse(vec.Request.URL)
				if err != nil || !known[path.Base(u.Path)] {
					continue // names no tool (e.g. /adcp/resource/...)
				}
				p.ref = schemaOf(path.Base(u.Path), validate.Request)
			}
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].id < out[j].id })
	return out
}

// vectorPayloads extracts the success data of every vector with the
// runtime's extractors and picks the type the envelope implies: the tool
// and status a webhook names; an adcp_error member is an error; otherwise
// the one tool response whose schema declares every member of the data.
func vectorPayloads(t *testing.T, specDir string, tree *spec.Tree, st *synth.Tree) []payload {
	manifest := readManifest(t, tree)
	infer := newInference(t, st, manifest)
	x := extract.New(nil) // data only: no code needs classifying
	var out []payload
	type vector struct {
		ID        string          `json:"id"`
		Status    json.RawMessage `json:"status"`
		Transport string          `json:"transport"`
		Response  json.RawMessage `json:"response"`
		Payload   json.RawMessage `json:"payload"`
	}
	files := []struct {
		name    string
		extract func(v vector) (*extract.Result, string, string) // result, tool, status
	}{
		{"mcp-response-extraction.json", func(v vector) (*extract.Result, string, string) { return x.MCP(v.Response), "", "" }},
		{"a2a-response-extraction.json", func(v vector) (*extract.Result, string, string) {
			var status string
			json.Unmarshal(v.Status, &status)
			return x.A2A(v.Response), "", status
		}},
		{"webhook-payload-extraction.json", func(v vector) (*extract.Result, string, string) {
			var p struct {
				TaskType string `json:"task_type"`
			}
			json.Unmarshal(v.Payload, &p)
			r := x.Webhook(v.Payload)
			return r, p.TaskType, r.State
		}},
		{"transport-error-mapping.json", func(v vector) (*extract.Result, string, string) {
			if v.Transport == "a2a" {
				return x.A2A(v.Response), "", ""
			}
			return x.MCP(v.Response), "", ""
		}},
	}
	for _, f := range files {
		data, err := os.ReadFile(testspec.Path(t, "test-vectors", f.name))
		if err != nil {
			t.Fatal(err)
		}
		var file struct {
			Vectors []vector `json:"vectors"`
		}
		if err := json.Unmarshal(data, &file); err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		for _, v := range file.Vectors {
			r, tool, status := f.extract(v)
			if r.Data == nil {
				continue
			}
			p := payload{id: "test-vectors/" + strings.TrimSuffix(f.name, ".json") + "#" + v.ID, data: r.Data}
			p.ref, p.data, p.untyped = infer.typeOf(r.Data, tool, status)
			out = append(out, p)
		}
	}
	return out
}

type manifestTool struct {
	Response string   `json:"response_schema"`
	Async    []string `json:"async_response_schemas"`
}

func readManifest(t *testing.T, tree *spec.Tree) map[string]manifestTool {
	data, err := fs.ReadFile(tree.FS, "manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Tools map[string]manifestTool `json:"tools"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m.Tools
}

// envelopeKeys are members every task response may carry whatever its
// tool: they say nothing about which tool answered.
var envelopeKeys = map[string]bool{"status": true, "message": true, "context": true, "context_id": true, "task_id": true, "timestamp": true, "ext": true, "adcp_version": true}

// inference picks a response schema for extracted data.
type inference struct {
	schemas  []string            // every response and async response schema
	declared map[string][]string // schema -> property names it declares
	manifest map[string]manifestTool
}

func newInference(t *testing.T, st *synth.Tree, manifest map[string]manifestTool) *inference {
	in := &inference{declared: map[string][]string{}, manifest: manifest}
	for _, name := range sortedKeys(manifest) {
		tool := manifest[name]
		for _, s := range append([]string{tool.Response}, tool.Async...) {
			if _, ok := in.declared[s]; ok || s == "" {
				continue
			}
			decl, _, err := st.Members(s)
			if err != nil {
				t.Fatalf("manifest schema %s: %v", s, err)
			}
			in.declared[s] = decl
			in.schemas = append(in.schemas, s)
		}
	}
	return in
}

// typeOf returns the schema to decode data with (and the bytes to decode),
// or why there is none.
func (in *inference) typeOf(data []byte, tool, status string) (ref string, doc []byte, untyped string) {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(data, &members); err != nil {
		return "", data, "not a JSON object"
	}
	if errDoc, ok := members["adcp_error"]; ok && len(members) == 1 {
		return "core/error.json", errDoc, ""
	}
	if tool != "" {
		t, ok := in.manifest[tool]
		switch {
		case !ok:
			return "", data, "tool " + tool + " is not in the manifest"
		case status == "completed":
			return t.Response, data, ""
		}
		for _, a := range t.Async {
			if strings.HasSuffix(a, "-"+status+".json") {
				return a, data, ""
			}
		}
		return "", data, fmt.Sprintf("%s has no schema for status %q", tool, status)
	}
	// Prototype-polluting keys name no member of any schema; the decoder
	// must reject them wherever they are, so they do not steer the choice.
	var keys []string
	for k := range members {
		if !envelopeKeys[k] && k != "__proto__" && k != "constructor" && k != "prototype" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	if len(keys) == 0 {
		return "", data, "only envelope members (" + strings.Join(sortedKeys(members), ", ") + ")"
	}
	var fits []string
	for _, s := range in.schemas {
		all := true
		for _, k := range keys {
			all = all && slices.Contains(in.declared[s], k)
		}
		if all {
			fits = append(fits, s)
		}
	}
	switch len(fits) {
	case 1:
		return fits[0], data, ""
	case 0:
		return "", data, "no response schema declares " + strings.Join(keys, ", ")
	}
	return "", data, fmt.Sprintf("%s fit %d response schemas (%s)", strings.Join(keys, ", "), len(fits), strings.Join(fits, ", "))
}
