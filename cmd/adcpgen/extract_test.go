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

// extractCmd runs "adcpgen extract args..." in-process with stdin and the
// given environment (nothing else leaks in).
func extractCmd(t *testing.T, environ map[string]string, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	e := &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errOut, getenv: func(k string) string { return environ[k] }}
	code = run(e, append([]string{"extract"}, args...))
	return code, out.String(), errOut.String()
}

// extractOut is one output line, with its keys checked.
type extractOut struct {
	Data       json.RawMessage
	Error      json.RawMessage
	Action     *string
	RetryAfter *int
	Problem    *string
}

var extractKeys = []string{"data", "error", "action", "retry_after", "problem"}

// parseExtractLines parses the command's output: one compact object per
// line with exactly the five keys, in order.
func parseExtractLines(t *testing.T, stdout string) []extractOut {
	t.Helper()
	var outs []extractOut
	for _, line := range strings.Split(strings.TrimSuffix(stdout, "\n"), "\n") {
		if line == "" {
			continue
		}
		var buf bytes.Buffer
		if err := json.Compact(&buf, []byte(line)); err != nil || buf.String() != line {
			t.Fatalf("not one compact JSON object: %q (%v)", line, err)
		}
		dec := json.NewDecoder(strings.NewReader(line))
		if tok, _ := dec.Token(); tok != json.Delim('{') {
			t.Fatalf("not an object: %q", line)
		}
		var keys []string
		m := map[string]json.RawMessage{}
		for dec.More() {
			k, _ := dec.Token()
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				t.Fatal(err)
			}
			keys = append(keys, k.(string))
			m[k.(string)] = v
		}
		if !reflect.DeepEqual(keys, extractKeys) {
			t.Fatalf("keys %v, want exactly %v", keys, extractKeys)
		}
		o := extractOut{Data: nullable(m["data"]), Error: nullable(m["error"])}
		for k, dst := range map[string]any{"action": &o.Action, "retry_after": &o.RetryAfter, "problem": &o.Problem} {
			if err := json.Unmarshal(m[k], dst); err != nil {
				t.Fatalf("%s: %v in %q", k, err, line)
			}
		}
		outs = append(outs, o)
	}
	return outs
}

func nullable(v json.RawMessage) json.RawMessage {
	if string(v) == "null" {
		return nil
	}
	return v
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func jsonEqual(t *testing.T, got, want json.RawMessage) bool {
	t.Helper()
	if nullable(want) == nil || got == nil {
		return nullable(want) == nil && got == nil
	}
	var g, w any
	if json.Unmarshal(got, &g) != nil || json.Unmarshal(want, &w) != nil {
		return false
	}
	return reflect.DeepEqual(g, w)
}

// vectorsAsJSONL reads a vector file and returns its vectors and their
// envelopes (field key) as JSON lines.
func vectorsAsJSONL(t *testing.T, name, key string, want int) ([]map[string]json.RawMessage, string) {
	t.Helper()
	data, err := os.ReadFile(testspec.Path(t, "test-vectors", name))
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Vectors []map[string]json.RawMessage `json:"vectors"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Vectors) != want {
		t.Fatalf("%s: %d vectors, want %d", name, len(file.Vectors), want)
	}
	var lines strings.Builder
	for _, v := range file.Vectors {
		var buf bytes.Buffer
		if err := json.Compact(&buf, v[key]); err != nil {
			t.Fatal(err)
		}
		lines.WriteString(buf.String() + "\n\n") // blank lines are skipped
	}
	return file.Vectors, lines.String()
}

func vectorID(v map[string]json.RawMessage) string {
	var id string
	_ = json.Unmarshal(v["id"], &id)
	return id
}

// vectorEnvs are the environments the vectors are replayed in: none (the
// embedded spec alone) and every published manifest.
func vectorEnvs(t *testing.T) map[string]map[string]string {
	return map[string]map[string]string{"embedded": {}, "ADCP_SPEC_DIR": {"ADCP_SPEC_DIR": testspec.Dir(t)}}
}

func TestExtractCommandTransportVectors(t *testing.T) {
	for name, specEnv := range vectorEnvs(t) {
		t.Run(name, func(t *testing.T) { transportVectors(t, specEnv) })
	}
}

func transportVectors(t *testing.T, specEnv map[string]string) {
	vectors, _ := vectorsAsJSONL(t, "transport-error-mapping.json", "response", 32)
	for _, v := range vectors {
		id := vectorID(v)
		var transport, path, wantAction string
		_ = json.Unmarshal(v["transport"], &transport)
		_ = json.Unmarshal(v["path"], &path)
		_ = json.Unmarshal(v["expected_action"], &wantAction)
		if transport == "mcp" && path == "jsonrpc_error" {
			transport = "jsonrpc"
		}
		t.Run(id, func(t *testing.T) {
			code, stdout, stderr := extractCmd(t, specEnv, string(v["response"]), "--transport", transport)
			if code != 0 || stderr != "" {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			outs := parseExtractLines(t, stdout)
			if len(outs) != 1 {
				t.Fatalf("%d lines", len(outs))
			}
			o := outs[0]
			if !jsonEqual(t, o.Error, v["expected_error"]) {
				t.Errorf("error = %s, want %s", o.Error, v["expected_error"])
			}
			if str(o.Action) != wantAction || o.Problem != nil {
				t.Errorf("action %q problem %q, want %q", str(o.Action), str(o.Problem), wantAction)
			}
			var e struct {
				RetryAfter *float64 `json:"retry_after"`
			}
			_ = json.Unmarshal(v["expected_error"], &e)
			switch {
			case wantAction == "retry" && e.RetryAfter != nil:
				want := int(min(3600, max(1, *e.RetryAfter)))
				if o.RetryAfter == nil || *o.RetryAfter != want {
					t.Errorf("retry_after = %v, want %d", o.RetryAfter, want)
				}
			case o.RetryAfter != nil:
				t.Errorf("retry_after = %d, want null", *o.RetryAfter)
			}
			if transport != "a2a" && o.Data != nil {
				t.Errorf("data = %s, want null", o.Data)
			}
		})
	}
}

func TestExtractCommandDataVectors(t *testing.T) {
	for name, specEnv := range vectorEnvs(t) {
		t.Run(name, func(t *testing.T) { dataVectors(t, specEnv) })
	}
}

func dataVectors(t *testing.T, specEnv map[string]string) {
	for _, c := range []struct {
		file, transport, key string
		count                int
	}{
		{"mcp-response-extraction.json", "mcp", "response", 16},
		{"a2a-response-extraction.json", "a2a", "response", 31},
		{"webhook-payload-extraction.json", "webhook", "payload", 12},
	} {
		t.Run(c.transport, func(t *testing.T) {
			vectors, jsonl := vectorsAsJSONL(t, c.file, c.key, c.count)
			code, stdout, stderr := extractCmd(t, specEnv, jsonl, "--jsonl", "--transport", c.transport)
			if code != 0 || stderr != "" {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			outs := parseExtractLines(t, stdout)
			if len(outs) != len(vectors) {
				t.Fatalf("%d lines for %d vectors", len(outs), len(vectors))
			}
			for i, v := range vectors {
				o := outs[i]
				var errType string
				_ = json.Unmarshal(v["expected_error_type"], &errType)
				if !jsonEqual(t, o.Data, v["expected_data"]) {
					t.Errorf("%s: data = %s, want %s", vectorID(v), o.Data, v["expected_data"])
				}
				if str(o.Problem) != errType {
					t.Errorf("%s: problem = %q, want %q", vectorID(v), str(o.Problem), errType)
				}
			}
		})
	}
}

func TestExtractCommandContract(t *testing.T) {
	noEnv := map[string]string{}
	bigText, _ := json.Marshal(`{"a":"` + strings.Repeat("x", 1<<20) + `"}`)
	for _, c := range []struct {
		name, transport, in string
		jsonl               bool
		want                []string // expected lines
	}{
		{"success", "mcp", `{"structuredContent":{"products":[ 1, 2 ]}}`, false,
			[]string{`{"data":{"products":[1,2]},"error":null,"action":null,"retry_after":null,"problem":null}`}},
		{"isError string false", "mcp", `{"isError":"false","structuredContent":{"adcp_error":{"code":"RATE_LIMITED","retry_after":0.5}}}`, false,
			[]string{`{"data":null,"error":{"code":"RATE_LIMITED","retry_after":0.5},"action":"retry","retry_after":1,"problem":null}`}},
		{"adcp_error 0 is absent", "mcp", `{"isError":true,"structuredContent":{"adcp_error":0}}`, false,
			[]string{`{"data":null,"error":null,"action":"generic_error","retry_after":null,"problem":null}`}},
		{"retry_after 1e400", "mcp", `{"isError":true,"structuredContent":{"adcp_error":{"code":"SERVICE_UNAVAILABLE","retry_after":1e400}}}`, false,
			[]string{`{"data":null,"error":{"code":"SERVICE_UNAVAILABLE","retry_after":1e400},"action":"retry","retry_after":null,"problem":null}`}},
		{"too large", "mcp", `{"content":[{"type":"text","text":` + string(bigText) + `}]}`, false,
			[]string{`{"data":null,"error":null,"action":null,"retry_after":null,"problem":"too_large"}`}},
		{"invalid json", "a2a", `{"status":`, false,
			[]string{`{"data":null,"error":null,"action":null,"retry_after":null,"problem":"invalid_json"}`}},
		{"empty input", "mcp", ``, false,
			[]string{`{"data":null,"error":null,"action":null,"retry_after":null,"problem":"invalid_json"}`}},
		{"wrapper", "a2a", `{"task":{"status":{"state":"TASK_STATE_COMPLETED"},"artifacts":[{"parts":[{"data":{"response":{"a":1}}}]}]}}`, false,
			[]string{`{"data":null,"error":null,"action":null,"retry_after":null,"problem":"wrapper_detected"}`}},
		{"nested envelope", "a2a", `{"task":{"statusUpdate":{"status":{"state":"working","message":{"parts":[{"data":{"a":1}}]}}}}}`, false,
			[]string{`{"data":null,"error":null,"action":null,"retry_after":null,"problem":null}`}},
		{"jsonrpc error without adcp_error", "jsonrpc", `{"jsonrpc":"2.0","id":1,"error":{"code":-32029,"message":"x"},"result":{"structuredContent":{"a":1}}}`, false,
			[]string{`{"data":null,"error":null,"action":"generic_error","retry_after":null,"problem":null}`}},
		{"webhook failed", "webhook", `{"task_id":"t","status":"failed"}`, false,
			[]string{`{"data":null,"error":null,"action":"generic_error","retry_after":null,"problem":null}`}},
		{"jsonl with blank lines, CRLF and a bad line", "mcp", "\n{\"structuredContent\":{\"a\":1}}\r\n \t \r\n{bad\n{\"isError\":true}", true,
			[]string{
				`{"data":{"a":1},"error":null,"action":null,"retry_after":null,"problem":null}`,
				`{"data":null,"error":null,"action":null,"retry_after":null,"problem":"invalid_json"}`,
				`{"data":null,"error":null,"action":"generic_error","retry_after":null,"problem":null}`,
			}},
		{"jsonl with nothing", "mcp", "\n\n", true, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := []string{"--transport", c.transport}
			if c.jsonl {
				args = append(args, "--jsonl")
			}
			code, stdout, stderr := extractCmd(t, noEnv, c.in, args...)
			if code != 0 || stderr != "" {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			parseExtractLines(t, stdout)
			got := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
			if stdout == "" {
				got = nil
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("output\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

func TestExtractCommandFilesAndUsage(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "env.json")
	if err := os.WriteFile(file, []byte(`{"structuredContent":{"a":1}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	want := `{"data":{"a":1},"error":null,"action":null,"retry_after":null,"problem":null}` + "\n"
	if code, out, _ := extractCmd(t, nil, "", "--transport", "mcp", file); code != 0 || out != want {
		t.Errorf("FILE: %d %q", code, out)
	}
	if code, out, _ := extractCmd(t, nil, `{"structuredContent":{"a":1}}`, "-", "--transport", "mcp"); code != 0 || out != want {
		t.Errorf("'-' before the flag: %d %q", code, out)
	}
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"missing transport", nil, "missing --transport"},
		{"unknown transport", []string{"--transport", "grpc"}, `unknown transport "grpc"`},
		{"two files", []string{"--transport", "mcp", "a", "b"}, "want at most one FILE"},
		{"unreadable file", []string{"--transport", "mcp", filepath.Join(dir, "missing.json")}, "missing.json"},
		{"unknown flag", []string{"--transport", "mcp", "--strict"}, "strict"},
		{"bad unknown-recovery", []string{"--transport", "mcp", "--unknown-recovery", "later"}, "--unknown-recovery"},
		{"manifest policy without a manifest", []string{"--transport", "mcp", "--unknown-recovery", "manifest"}, "no manifest"},
		{"spec that does not exist", []string{"--transport", "mcp", "--spec", filepath.Join(dir, "nope")}, "nope"},
		{"spec that is not a tree", []string{"--transport", "mcp", "--spec", file}, "env.json"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := extractCmd(t, nil, "{}", c.args...)
			if code != 2 || out != "" || !strings.Contains(errOut, c.want) || strings.Count(errOut, "\n") != 1 {
				t.Errorf("exit %d, stdout %q, stderr %q; want 2 and one line naming %q", code, out, errOut, c.want)
			}
		})
	}
	code, out, _ := extractCmd(t, nil, "", "--help")
	for _, want := range []string{"--transport", "--jsonl", "--spec", "--unknown-recovery", "$ADCP_SPEC_DIR", "$ADCP_SPEC", "retry_after", "wrapper_detected", "too_large", "invalid_json"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("--help (exit %d) does not mention %s", code, want)
		}
	}
}

// writeManifest writes a schema tree holding only a manifest.json with
// the given error codes (and default_unknown_recovery when not "").
func writeManifest(t *testing.T, codes map[string]string, unknown string) string {
	t.Helper()
	dir := t.TempDir()
	m := map[string]any{"adcp_version": "9.9.9", "tools": map[string]any{}, "error_codes": map[string]any{}}
	for c, r := range codes {
		m["error_codes"].(map[string]any)[c] = map[string]string{"recovery": r}
	}
	if unknown != "" {
		m["error_code_policy"] = map[string]string{"default_unknown_recovery": unknown}
	}
	data, _ := json.Marshal(m)
	if err := os.WriteFile(filepath.Join(dir, "manifest.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "core"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "core", "error.json"), []byte(`{"type":"object"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestExtractCommandCodeTables(t *testing.T) {
	dir := testspec.Dir(t)
	future := writeManifest(t, map[string]string{"FUTURE_CODE": "correctable"}, "")
	moved := writeManifest(t, map[string]string{"ACCOUNT_MOVED": "transient"}, "")
	disagree := writeManifest(t, map[string]string{"FUTURE_CODE": "terminal"}, "")
	errOf := func(code string) string {
		return `{"isError":true,"structuredContent":{"adcp_error":{"code":"` + code + `"}}}`
	}
	vendor := errOf("X_ACME_FLOOR_NOT_MET")
	for _, c := range []struct {
		name    string
		environ map[string]string
		in      string
		args    []string
		action  string
		stderr  string
	}{
		{"embedded spec lists 3.2's ACCOUNT_MOVED", nil, errOf("ACCOUNT_MOVED"), nil, "surface_to_caller", ""},
		{"embedded spec lacks a future code", nil, errOf("FUTURE_CODE"), nil, "escalate_to_human", ""},
		{"a manifest adds a code", nil, errOf("FUTURE_CODE"), []string{"--spec", future}, "surface_to_caller", ""},
		{"a manifest's class wins", nil, errOf("ACCOUNT_MOVED"), []string{"--spec", moved}, "retry", ""},
		{"several --spec", nil, errOf("FUTURE_CODE"), []string{"--spec", filepath.Join(dir, "protocol/3.0.26.tgz"), "--spec", future}, "surface_to_caller", ""},
		{"published manifests agree with the embedded spec", map[string]string{"ADCP_SPEC_DIR": dir}, errOf("ACCOUNT_MOVED"), nil, "surface_to_caller", ""},
		{"$ADCP_SPEC", map[string]string{"ADCP_SPEC": future, "ADCP_SPEC_DIR": "/nonexistent"}, errOf("FUTURE_CODE"), nil, "surface_to_caller", ""},
		{"--spec wins over the environment", map[string]string{"ADCP_SPEC": future}, errOf("FUTURE_CODE"), []string{"--spec", filepath.Join(dir, "schemas/3.1.19")}, "escalate_to_human", ""},
		{"a version without a manifest", nil, errOf("FUTURE_CODE"), []string{"--spec", filepath.Join(dir, "protocol/3.0.0.tgz")}, "escalate_to_human", "no manifest.json"},
		{"unknown codes terminal by default", map[string]string{"ADCP_SPEC_DIR": dir}, vendor, nil, "escalate_to_human", ""},
		{"manifest policy for unknown codes", map[string]string{"ADCP_SPEC_DIR": dir}, vendor, []string{"--unknown-recovery", "manifest"}, "retry", ""},
		{"explicit unknown class", nil, vendor, []string{"--unknown-recovery", "correctable"}, "surface_to_caller", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := extractCmd(t, c.environ, c.in, append([]string{"--transport", "mcp"}, c.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if (c.stderr == "") != (stderr == "") || !strings.Contains(stderr, c.stderr) {
				t.Errorf("stderr %q, want %q", stderr, c.stderr)
			}
			if outs := parseExtractLines(t, stdout); len(outs) != 1 || str(outs[0].Action) != c.action {
				t.Errorf("output %s, want action %s", stdout, c.action)
			}
		})
	}
	// Manifests that disagree are refused, naming the code and both sources.
	code, _, stderr := extractCmd(t, nil, "{}", "--transport", "mcp", "--spec", future, "--spec", disagree)
	if code != 2 || !strings.Contains(stderr, "FUTURE_CODE is correctable in "+future+" but terminal in "+disagree) {
		t.Errorf("disagreeing manifests: %d %q", code, stderr)
	}
	// An unusable $ADCP_SPEC_DIR is reported.
	if code, _, stderr := extractCmd(t, map[string]string{"ADCP_SPEC_DIR": t.TempDir()}, "{}", "--transport", "mcp"); code != 2 || !strings.Contains(stderr, "ADCP_SPEC_DIR") {
		t.Errorf("empty ADCP_SPEC_DIR: %d %q", code, stderr)
	}
}
