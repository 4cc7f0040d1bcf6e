package main

import (
	"fmt"
	"io/fs"

	"github.com/adcpgen/adcpgen/generated/adcp"
	"github.com/adcpgen/adcpgen/generator"
	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/release"
	"github.com/adcpgen/adcpgen/runtime/spec"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/untrusted"
	"github.com/adcpgen/adcpgen/runtime/validate"
)

// callSpec is the Spec adcpgen call speaks for a tree it has no generated
// package of: the table the generated package would export (tools, schema
// paths, idempotency requirements, codes), without types, so the client's
// untyped core checks payloads strictly as JSON. Codes the tree does not
// classify take the embedded core's class, as adcpgen extract does.
func callSpec(tree *spec.Tree) (*registry.Spec, error) {
	table, _, err := generator.SpecTable(tree)
	if err != nil {
		return nil, err
	}
	codes := table.Codes()
	have := map[string]bool{}
	for _, c := range codes {
		have[c.Code] = c.Recovery != ""
	}
	for _, c := range adcp.Spec().Codes() {
		if !have[c.Code] {
			codes = append(codes, c)
		}
	}
	version := table.Version()
	if version == "" {
		version = tree.Version
	}
	return registry.NewSpec(registry.SpecConfig{Version: version, Tools: table.Tools(), Codes: codes,
		UnknownRecovery: table.UnknownRecovery(), WebhookResults: table.WebhookResults()}), nil
}

// errorSchema is the schema of an adcp_error object.
const errorSchema = "core/error.json"

// payloadCheck validates a tool's payloads against the spec (--validate).
type payloadCheck struct {
	v    *validate.Validator
	tool registry.Tool
	tree *spec.Tree
	// rel is the spec's release ("" for none): an answer echoing another
	// cannot be checked against this tree.
	rel string
}

// newPayloadCheck prepares --validate for tool: the spec must describe it.
func newPayloadCheck(tree *spec.Tree, sp *registry.Spec, tool string) (*payloadCheck, error) {
	t, ok := sp.Tool(tool)
	if !ok {
		return nil, fmt.Errorf("spec %s has no schemas for tool %q", sp.Version(), tool)
	}
	v, err := validate.New(tree, validate.Options{})
	if err != nil {
		return nil, err
	}
	rel, _ := release.Of(sp.Version())
	return &payloadCheck{v: v, tool: t, tree: tree, rel: rel.String()}, nil
}

// callValidation is what --validate adds to the output.
type callValidation struct {
	// Schema is the tree path of the schema checked, nil when the spec
	// has none for the payload.
	Schema *string     `json:"schema"`
	Issues []callIssue `json:"issues"`
}

type callIssue struct {
	Pointer  string `json:"pointer"`
	Keyword  string `json:"keyword"`
	Message  string `json:"message"`
	SchemaID string `json:"schema_id,omitempty"`
}

// outcome validates an answer's payload against the schema its status
// calls for: the response schema for a final status, the async response
// schema of an interim one. note says why nothing was checked.
func (c *payloadCheck) outcome(out *buyer.Reply) (v *callValidation, note string, err error) {
	path := c.tool.ResponseSchema
	switch out.Status {
	case task.Submitted, task.Working, task.InputRequired, task.AuthRequired:
		path = ""
		if a, ok := c.tool.AsyncFor(string(out.Status)); ok {
			path = a.Schema
		}
	}
	switch {
	case out.Release != "" && c.rel != "" && out.Release != c.rel:
		return nil, "", fmt.Errorf("the seller answered in AdCP %s, not --spec's %s: give %s's schemas as --spec to validate it",
			untrusted.SanitizeTruncate(out.Release, 32), c.rel, untrusted.SanitizeTruncate(out.Release, 32))
	case out.Data == nil:
		return unchecked(), "the answer carried no payload; nothing validated", nil
	case path == "":
		return unchecked(), fmt.Sprintf("the spec has no schema for %s's %s payload; nothing validated", c.tool.Name, out.Status), nil
	}
	v, err = c.run(path, out.Data)
	return v, "", err
}

// adcpError validates an adcp_error object against core/error.json when
// the tree has it.
func (c *payloadCheck) adcpError(raw []byte) (v *callValidation, note string, err error) {
	if _, err := fs.Stat(c.tree.FS, errorSchema); err != nil {
		return unchecked(), fmt.Sprintf("the spec has no %s; the error is not validated", errorSchema), nil
	}
	v, err = c.run(errorSchema, raw)
	return v, "", err
}

func unchecked() *callValidation { return &callValidation{Issues: []callIssue{}} }

func (c *payloadCheck) run(path string, data []byte) (*callValidation, error) {
	s, err := c.v.Schema(path)
	if err != nil {
		return nil, err
	}
	issues, err := s.Validate(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	out := &callValidation{Schema: &path, Issues: []callIssue{}}
	for _, is := range issues {
		out.Issues = append(out.Issues, callIssue{Pointer: is.Pointer, Keyword: is.Keyword, Message: is.Message, SchemaID: is.SchemaID})
	}
	return out, nil
}
