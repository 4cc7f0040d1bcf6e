package emit

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/adcpgen/adcpgen/generator/internal/ir"
)

const taskPkg = "github.com/adcpgen/adcpgen/runtime/task"

func taskQ(name string) *jen.Statement { return jen.Qual(taskPkg, name) }

// interimStatuses are the statuses a tool's async payload types stand for,
// in the order of task.Tool's type parameters S, W and I.
var interimStatuses = []string{"submitted", "working", "input-required"}

// emitTools writes the tool descriptors: the ToolSet type with a
// task.Tool field per tool, the Tools value, and one task.Result alias per
// tool. The buyer and the seller take these, so every call is typed by the
// compiler without per-tool code here.
func emitTools(f *jen.File, r *ir.Registry) {
	version := r.Version
	if version == "" {
		version = "this package"
	}
	f.Comment(fmt.Sprintf("// ToolSet has a typed descriptor for each tool of %s. Pass one to", version))
	f.Comment("// runtime/buyer's Call or runtime/seller's Handle; its type parameters are the")
	f.Comment("// tool's request, response and submitted, working and input-required payloads")
	f.Comment("// (task.None where the spec gives the tool no such payload).")
	var fields []jen.Code
	values := jen.Dict{}
	for _, t := range r.Tools {
		params := toolTypeParams(t)
		doc := fmt.Sprintf("%s is the %s tool (%s).", t.GoName, t.Name, toolTraits(t))
		if s := oneLine(t.Summary); s != "" {
			doc += " " + s
		}
		if t.Deprecated {
			doc += "\n\nDeprecated: the spec deprecates this tool."
		}
		for _, l := range commentLines(doc) {
			fields = append(fields, jen.Comment(l))
		}
		fields = append(fields, jen.Id(t.GoName).Add(taskQ("Tool")).Types(params...))
		values[jen.Id(t.GoName)] = taskQ("NewTool").Types(params...).Call(jen.Lit(t.Name), jen.Id("SpecVersion"))
	}
	f.Type().Id("ToolSet").Struct(fields...)
	f.Line()
	f.Comment(fmt.Sprintf("// Tools holds the descriptor of every tool (Tools.%s, ...).", r.Tools[0].GoName))
	f.Var().Id("Tools").Op("=").Id("ToolSet").Values(values)

	for _, t := range r.Tools {
		f.Line()
		f.Comment(fmt.Sprintf("// %s is what a call of %s comes to: its response or an interim payload.", t.ResultName, t.Name))
		f.Type().Id(t.ResultName).Op("=").Add(taskQ("Result")).Types(toolTypeParams(t)[1:]...)
	}
}

// toolTypeParams are a tool's task.Tool type arguments: request, response,
// then one payload type per interim status.
func toolTypeParams(t *ir.Tool) []jen.Code {
	params := []jen.Code{jen.Id(t.Request.Name), jen.Id(t.Response.Name)}
	for _, status := range interimStatuses {
		var typ jen.Code = taskQ("None")
		for _, a := range t.Async {
			if a.Status == status {
				typ = jen.Id(a.Type.Name)
			}
		}
		params = append(params, typ)
	}
	return params
}

func toolTraits(t *ir.Tool) string {
	traits := []string{t.Protocol}
	if t.Mutating {
		traits = append(traits, "mutating")
	} else {
		traits = append(traits, "read-only")
	}
	if t.IdempotencyRequired {
		traits = append(traits, "idempotency_key required")
	}
	return strings.Join(traits, ", ")
}

// oneLine flattens a summary to one line of text for a comment.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
