package emit

import (
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/adcpgen/adcpgen/generator/internal/ir"
)

// fieldType is the Go type of a struct field: optional scalars, enums and
// structs are pointers (nil when absent); so are required fields that
// would make a recursive value type.
func fieldType(fl *ir.Field) *jen.Statement {
	if fl.Pointer() {
		return jen.Op("*").Add(goType(fl.Type))
	}
	return goType(fl.Type)
}

// structDoc is a struct type's doc comment.
func (s *descSet) structDoc(t *ir.Type) []string {
	var notes []string
	var fixed []string
	for _, fl := range t.Fields {
		if fl.Fixed {
			fixed = append(fixed, strconv.Quote(fl.JSONName)+" is always "+fl.Const.JSON())
		}
	}
	if len(fixed) > 0 {
		notes = append(notes, "Fixed members (checked when decoding, written when encoding, no field): "+strings.Join(fixed, "; ")+".")
	}
	return s.typeDoc(t, notes...)
}

func emitStruct(f *jen.File, s *descSet, t *ir.Type) {
	addDoc(f, s.structDoc(t))
	var fields []jen.Code
	for _, fl := range t.Fields {
		if fl.Fixed {
			continue
		}
		fields = append(fields, comments(fieldDoc(fl))...)
		tag := fl.JSONName
		if !fl.Required {
			tag += ",omitempty"
		}
		fields = append(fields, jen.Id(fl.GoName).Add(fieldType(fl)).Tag(map[string]string{"json": tag}))
	}
	for _, p := range t.Patterns {
		fields = append(fields, jen.Comment("// "+p.GoName+" holds the members whose keys match "+strconv.Quote(p.Pattern)+"."),
			jen.Id(p.GoName).Map(jen.String()).Add(goType(p.Type)).Tag(map[string]string{"json": "-"}))
	}
	switch t.Extra.Mode {
	case ir.ExtraKeep:
		fields = append(fields, jen.Comment("// "+t.Extra.GoName+" keeps members the schema does not declare, as raw JSON."),
			jen.Id(t.Extra.GoName).Map(jen.String()).Qual(jsonPkg, "RawMessage").Tag(map[string]string{"json": "-"}))
	case ir.ExtraTyped:
		fields = append(fields, jen.Comment("// "+t.Extra.GoName+" holds the members beyond the declared ones."),
			jen.Id(t.Extra.GoName).Map(jen.String()).Add(goType(t.Extra.Type)).Tag(map[string]string{"json": "-"}))
	}
	f.Type().Id(t.Name).Struct(fields...)
	emitStructDesc(f, s, t)
}

func fieldDoc(fl *ir.Field) []string {
	var lines []string
	text := strings.TrimSpace(fl.Doc)
	if text == "" {
		text = strings.TrimSpace(fl.Title)
	}
	switch {
	case text != "":
		lines = append(lines, commentLines(summarize(fl.GoName, text))...)
		if fl.Const != nil && !fl.Fixed {
			lines = append(lines, "//")
			lines = append(lines, commentLines("When present it is always "+fl.Const.JSON()+".")...)
		}
	case fl.Const != nil && !fl.Fixed:
		lines = append(lines, commentLines(fl.GoName+" is always "+fl.Const.JSON()+" when present.")...)
	case fl.Deprecated:
		lines = append(lines, "// "+fl.GoName+" is deprecated.")
	}
	if fl.Envelope {
		note := "The protocol envelope's " + fl.JSONName + ": " + envelopeDoc[fl.JSONName]
		if len(lines) > 0 {
			lines = append(lines, "//")
		} else {
			note = fl.GoName + " is the protocol envelope's " + fl.JSONName + ": " + envelopeDoc[fl.JSONName]
		}
		lines = append(lines, commentLines(note)...)
	}
	if fl.Deprecated {
		lines = append(lines, "//", "// Deprecated: the schema marks this field deprecated.")
	}
	return lines
}

// envelopeDoc says who sets each member of the protocol envelope
// (registry.EnvelopeMembers), for the doc comment of a field holding one.
var envelopeDoc = map[string]string{
	"status":     "the seller framework sends the task status (completed for a response); leave it empty, a handler's different value is refused.",
	"task_id":    "the seller framework sends the task's id; leave it empty, a handler's different value is refused.",
	"message":    "the seller framework sends the Result's Message; set that instead, a different value here is refused.",
	"context_id": "the seller framework sends the Result's ContextID, else the MCP request's own; set that instead, a different value here is refused.",
	"replayed":   "the seller framework sends true on an idempotent replay; leave it empty.",
}

func patternName(t *ir.Type, i int) string { return "pat" + t.Name + strconv.Itoa(i) }

// emitStructDesc declares T's Desc (and the regexps of its key patterns)
// and the methods that hand it to the engine.
func emitStructDesc(f *jen.File, s *descSet, t *ir.Type) {
	self := s.named[t]
	var members []jen.Code
	for _, fl := range t.Fields {
		desc := s.ref(self, fl.Type)
		if fl.Const != nil {
			desc = s.constRef(fl.Const, fl.Type)
		}
		var required, fixed jen.Code
		if fl.Required {
			required = jen.True()
		}
		if fl.Fixed {
			fixed = jen.True()
		}
		members = append(members, fields(kv{"Name", jen.Lit(fl.JSONName)}, kv{"Desc", desc}, kv{"Required", required}, kv{"Fixed", fixed}))
	}
	items := []kv{{"Shape", implQ("ShapeStruct")}, {"Name", jen.Lit(t.Name)}, {"Go", goTypeOf(jen.Id(t.Name))}}
	if len(members) > 0 {
		items = append(items, kv{"Members", jen.Index().Add(implQ("Member")).Add(lines(members))})
	}
	var patterns []jen.Code
	for i, p := range t.Patterns {
		f.Var().Id(patternName(t, i)).Op("=").Qual("regexp", "MustCompile").Call(jen.Lit(p.Pattern))
		patterns = append(patterns, fields(kv{"Match", jen.Id(patternName(t, i)).Dot("Match")}, kv{"Map", s.ref(self, ir.MapOf(p.Type))}))
	}
	if len(patterns) > 0 {
		items = append(items, kv{"KeyPatterns", jen.Index().Add(implQ("KeyPattern")).Add(lines(patterns))})
	}
	switch t.Extra.Mode {
	case ir.ExtraReject:
		items = append(items, kv{"Extra", implQ("ExtraReject")})
	case ir.ExtraTyped:
		items = append(items, kv{"Extra", implQ("ExtraTyped")}, kv{"ExtraMap", s.ref(self, ir.MapOf(t.Extra.Type))})
	}
	descVar(f, s, t, items...)
	codecMethods(f, s, t, "v")
}
