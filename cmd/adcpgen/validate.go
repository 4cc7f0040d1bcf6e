package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/adcpgen/adcpgen/runtime/spec"
	"github.com/adcpgen/adcpgen/runtime/validate"
)

const validateSynopsis = "adcpgen validate --spec SOURCE (--schema ID_OR_PATH | --tool NAME --request|--response) [--reference] FILE..."

const validateDescription = `
Validate JSON payloads against one schema of one AdCP spec version, offline.

SOURCE is a schema tree directory or a protocol bundle (.tgz, checked against
its .sha256 sidecar); it defaults to $ADCP_SPEC. Name the schema by its $id
(/schemas/3.1.19/core/error.json or https://adcontextprotocol.org/schemas/...),
by its path in the tree (media-buy/get-products-response.json), or by tool
name and direction (--tool get_products --response). FILE "-" reads stdin.

Each issue is printed on stdout as one JSON object per line:
{"file":...,"pointer":...,"keyword":...,"message":...,"schema_id":...}
with pointer an RFC 6901 pointer into the file's JSON. Valid files print
nothing. Duplicate keys and "__proto__" keys are not schema violations and
are not reported.

Validation reads the bytes directly with compiled schemas; --reference uses
the reference validator (santhosh-tekuri/jsonschema over a decoded tree)
instead, which gives the same issues, tens of times more slowly.

Exit status: 0 every file is valid, 1 some file is invalid (or a schema does
not compile), 2 bad usage or unreadable input (unreadable file, bad JSON,
unknown schema or tool, missing or unreadable --spec).`

// fileIssue is one output line.
type fileIssue struct {
	File     string `json:"file"`
	Pointer  string `json:"pointer"`
	Keyword  string `json:"keyword"`
	Message  string `json:"message"`
	SchemaID string `json:"schema_id,omitempty"`
}

func runValidate(e *env, args []string) int {
	flags := newFlagSet("validate", validateSynopsis, validateDescription)
	specSource := flags.String("spec", e.getenv("ADCP_SPEC"), "schema tree directory or protocol bundle .tgz ($ADCP_SPEC)")
	schemaRef := flags.String("schema", "", "schema $id (either style, optionally #/pointer) or tree path")
	tool := flags.String("tool", "", "tool name, e.g. get_products (with --request or --response)")
	request := flags.Bool("request", false, "validate the tool's request")
	response := flags.Bool("response", false, "validate the tool's response")
	reference := flags.Bool("reference", false, "use the reference validator instead of the fast path")
	files, done, code := parseArgs(e, "validate", flags, args)
	if done {
		return code
	}
	switch {
	case *specSource == "":
		return usageError(e, "validate", "missing --spec SOURCE (or set $ADCP_SPEC)")
	case *schemaRef != "" && *tool != "":
		return usageError(e, "validate", "--schema and --tool exclude each other")
	case *schemaRef == "" && *tool == "":
		return usageError(e, "validate", "name the schema: --schema ID_OR_PATH, or --tool NAME with --request or --response")
	case *tool != "" && *request == *response:
		return usageError(e, "validate", "--tool needs exactly one of --request and --response")
	case *tool == "" && (*request || *response):
		return usageError(e, "validate", "--request and --response go with --tool")
	case len(files) == 0:
		return usageError(e, "validate", "missing FILE (use - for stdin)")
	}
	if n := countStdin(files); n > 1 {
		return usageError(e, "validate", "stdin (-) can be read only once, got it %d times", n)
	}

	tree, err := openSpec(e, *specSource)
	if err != nil {
		return usageError(e, "validate", "%v", err)
	}
	v, err := validate.New(tree, validate.Options{Reference: *reference})
	if err != nil {
		return usageError(e, "validate", "%v", err)
	}
	var schema *validate.Schema
	if *tool != "" {
		dir := validate.Request
		if *response {
			dir = validate.Response
		}
		schema, err = v.Tool(*tool, dir)
	} else {
		schema, err = v.Schema(*schemaRef)
	}
	if err != nil {
		var ce *validate.CompileError
		if errors.As(err, &ce) {
			fmt.Fprintf(e.stderr, "adcpgen validate: %v\n", err)
			return exitFailure
		}
		return usageError(e, "validate", "%v", err)
	}

	out := json.NewEncoder(e.stdout)
	out.SetEscapeHTML(false)
	result := exitOK
	for _, name := range files {
		data, err := readPayload(e, name, validate.DefaultLimits.MaxBytes)
		if err != nil {
			fmt.Fprintf(e.stderr, "adcpgen validate: %v\n", err)
			result = exitUsage
			continue
		}
		issues, err := schema.Validate(data)
		if err != nil {
			fmt.Fprintf(e.stderr, "adcpgen validate: %s: %v\n", displayName(name), err)
			result = exitUsage
			continue
		}
		for _, is := range issues {
			if err := out.Encode(fileIssue{displayName(name), is.Pointer, is.Keyword, is.Message, is.SchemaID}); err != nil {
				fmt.Fprintf(e.stderr, "adcpgen validate: writing output: %v\n", err)
				return exitUsage
			}
		}
		if len(issues) > 0 && result == exitOK {
			result = exitFailure
		}
	}
	return result
}

// openSpec opens the spec tree named on the command line. It is one small
// function so a later change can resolve versions ("3.0.26") through the
// download cache.
func openSpec(e *env, source string) (*spec.Tree, error) {
	_ = e
	return spec.Open(source)
}

func countStdin(files []string) int {
	n := 0
	for _, f := range files {
		if f == "-" {
			n++
		}
	}
	return n
}

func displayName(name string) string {
	if name == "-" {
		return "<stdin>"
	}
	return name
}

// readPayload reads a file or stdin, at most max+1 bytes: enough for the
// validator to report a payload over the limit without reading it all.
func readPayload(e *env, name string, max int) ([]byte, error) {
	var r io.Reader
	if name == "-" {
		r = e.stdin
	} else {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		if info, err := f.Stat(); err == nil && info.IsDir() {
			return nil, fmt.Errorf("%s: is a directory", name)
		}
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, int64(max)+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", displayName(name), err)
	}
	return data, nil
}
