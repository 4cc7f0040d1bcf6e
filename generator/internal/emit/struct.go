package emit

import (
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/adcpgen/adcpgen/generator/internal/ir"
	"github.com/adcpgen/adcpgen/generator/internal/jsonsrc"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

func appendJSONString(b []byte, s string) []byte { return wire.AppendQuoted(b, s) }

// fieldType is the Go type of a struct field: optional scalars, enums and
// structs are pointers (nil when absent); so are required fields that
// would make a recursive value type.
func fieldType(fl *ir.Field) *jen.Statement {
	if holdsPointer(fl) {
		return jen.Op("*").Add(goType(fl.Type))
	}
	return goType(fl.Type)
}

func holdsPointer(fl *ir.Field) bool {
	return fl.Indirect || (!fl.Required && fl.Const == nil && byPointer(fl.Type)) || (!fl.Required && fl.Const != nil)
}

func emitStruct(f *jen.File, t *ir.Type) {
	doc := docBlock(t.Name, t.Title, t.Description, t.Deprecated, schemaRef(t))
	var fixed []string
	for _, fl := range t.Fields {
		if fl.Fixed {
			fixed = append(fixed, strconv.Quote(fl.JSONName)+" is always "+fl.Const.JSON())
		}
	}
	if len(fixed) > 0 {
		note := "Fixed members (checked when decoding, written when encoding, no field): " + strings.Join(fixed, "; ") + "."
		doc = append(doc[:len(doc):len(doc)], "//")
		doc = append(doc, commentLines(note)...)
	}
	addDoc(f, doc)
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
	switch t.Extra.Mode {
	case ir.ExtraKeep:
		fields = append(fields, jen.Comment("// "+t.Extra.GoName+" keeps members the schema does not declare, as raw JSON."),
			jen.Id(t.Extra.GoName).Map(jen.String()).Qual(jsonPkg, "RawMessage").Tag(map[string]string{"json": "-"}))
	case ir.ExtraTyped:
		fields = append(fields, jen.Comment("// "+t.Extra.GoName+" holds the members beyond the declared ones."),
			jen.Id(t.Extra.GoName).Map(jen.String()).Add(goType(t.Extra.Type)).Tag(map[string]string{"json": "-"}))
	}
	f.Type().Id(t.Name).Struct(fields...)
	emitStructTables(f, t)
	emitStructDecode(f, t)
	emitStructEncode(f, t)
}

func fieldDoc(fl *ir.Field) []string {
	var lines []string
	text := strings.TrimSpace(fl.Doc)
	if text == "" {
		text = strings.TrimSpace(fl.Title)
	}
	if text != "" {
		lines = append(lines, commentLines(fl.GoName+": "+text)...)
	}
	if fl.Const != nil && !fl.Fixed {
		if len(lines) > 0 {
			lines = append(lines, "//")
		}
		lines = append(lines, commentLines("When present it is always "+fl.Const.JSON()+".")...)
	}
	if fl.Deprecated {
		if len(lines) > 0 {
			lines = append(lines, "//")
		}
		lines = append(lines, "// Deprecated: the schema marks this field deprecated.")
	}
	return lines
}

func requiredName(t *ir.Type) string { return "req" + t.Name }
func keysName(t *ir.Type) string     { return "keys" + t.Name }

// emitStructTables declares the required-member table and, for structs
// keeping extra members, the set of declared names.
func emitStructTables(f *jen.File, t *ir.Type) {
	var bits []jen.Code
	var names []jen.Code
	for i, fl := range t.Fields {
		if fl.Required {
			bits = append(bits, jen.Lit(i))
			names = append(names, jen.Lit(fl.JSONName))
		}
	}
	if len(bits) > 0 {
		f.Var().Id(requiredName(t)).Op("=").Add(wireQ("NewRequired")).Call(
			jen.Lit(words(t)), jen.Index().Int().Values(bits...), jen.Index().String().Values(names...))
	}
	if t.Extra.Mode == ir.ExtraKeep || t.Extra.Mode == ir.ExtraTyped {
		var declared []jen.Code
		for _, fl := range t.Fields {
			declared = append(declared, jen.Lit(fl.JSONName))
		}
		f.Var().Id(keysName(t)).Op("=").Add(wireQ("Keys")).Call(declared...)
	}
}

// words is the size of the seen-bitset in 64-bit words.
func words(t *ir.Type) int { return (len(t.Fields) + 63) / 64 }

func emitStructDecode(f *jen.File, t *ir.Type) {
	var cases []jen.Code
	for i, fl := range t.Fields {
		body := []jen.Code{
			jen.If(wireQ("Seen").Call(jen.Id("seen").Index(jen.Empty(), jen.Empty()), jen.Lit(i))).Block(
				jen.Return(jen.Id("d").Dot("Duplicate").Call(jen.Id("key")))),
		}
		body = append(body, fieldRead(fl)...)
		cases = append(cases, jen.Case(jen.Lit(fl.JSONName)).Block(body...))
	}
	var extra jen.Code
	switch t.Extra.Mode {
	case ir.ExtraReject:
		extra = jen.Return(jen.Id("d").Dot("UnknownField").Call(jen.Id("key")))
	case ir.ExtraTyped:
		extra = returnIfErr(wireQ("ReadMapEntry").Call(jen.Id("d"), jen.Id("key"), jen.Op("&").Id("v").Dot(t.Extra.GoName), reader(t.Extra.Type)))
	default:
		extra = returnIfErr(jen.Id("d").Dot("KeepUnknown").Call(jen.Id("key"), jen.Op("&").Id("v").Dot(t.Extra.GoName)))
	}
	cases = append(cases, jen.Default().Block(extra))

	body := []jen.Code{
		jen.Op("*").Id("v").Op("=").Id(t.Name).Values(),
		returnIfErr(jen.Id("d").Dot("ObjectStart").Call()),
	}
	if len(t.Fields) > 0 {
		body = append(body, jen.Var().Id("seen").Index(jen.Lit(words(t))).Uint64())
	}
	body = append(body, jen.For().Block(
		jen.List(jen.Id("key"), jen.Id("ok"), jen.Err()).Op(":=").Id("d").Dot("NextKey").Call(),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.If(jen.Op("!").Id("ok")).Block(jen.Break()),
		jen.Switch(jen.String().Parens(jen.Id("key"))).Block(cases...),
	))
	if hasRequired(t) {
		body = append(body, jen.Return(jen.Id("d").Dot("CheckRequired").Call(jen.Id("seen").Index(jen.Empty(), jen.Empty()), jen.Id(requiredName(t)))))
	} else {
		body = append(body, jen.Return(jen.Nil()))
	}
	f.Comment("// DecodeWire reads v from d strictly (see package wire).")
	f.Func().Params(recv(t)).Id("DecodeWire").Params(decoderParam()).Error().Block(body...)
}

func hasRequired(t *ir.Type) bool {
	for _, fl := range t.Fields {
		if fl.Required {
			return true
		}
	}
	return false
}

// fieldRead renders the statements reading one member's value.
func fieldRead(fl *ir.Field) []jen.Code {
	place := jen.Op("&").Id("v").Dot(fl.GoName)
	if fl.Const != nil {
		check := returnIfErr(jen.Id("d").Dot("ExpectConst").Call(jen.Lit(fl.Const.JSON())))
		if fl.Fixed {
			return []jen.Code{check}
		}
		return []jen.Code{check, jen.Id("v").Dot(fl.GoName).Op("=").Add(wireQ("Ptr")).Types(goType(fl.Type)).Call(constLit(fl))}
	}
	if holdsPointer(fl) {
		return []jen.Code{returnIfErr(wireQ("ReadPtr").Call(jen.Id("d"), place, reader(fl.Type)))}
	}
	return []jen.Code{returnIfErr(readInto(fl.Type, jen.Id("v").Dot(fl.GoName)))}
}

// constLit renders a const value as a Go literal of the field's type.
func constLit(fl *ir.Field) jen.Code {
	n := fl.Const.Node
	switch n.Kind {
	case jsonsrc.String:
		return jen.Lit(n.Str)
	case jsonsrc.Bool:
		return jen.Lit(n.Bool)
	case jsonsrc.Number:
		if fl.Type.Kind == ir.RefBuiltin && fl.Type.Builtin == ir.Int {
			i, _ := strconv.ParseInt(n.Str, 10, 64)
			return jen.Lit(i)
		}
		x, _ := strconv.ParseFloat(n.Str, 64)
		return jen.Lit(x)
	}
	return jen.Nil()
}

func emitStructEncode(f *jen.File, t *ir.Type) {
	e := jen.Id("e")
	body := []jen.Code{e.Clone().Dot("ObjectStart").Call()}
	for _, fl := range t.Fields {
		key := e.Clone().Dot("RawKey").Call(jen.Lit(quotedKey(fl.JSONName)))
		name := fl.GoName
		field := func() *jen.Statement { return jen.Id("v").Dot(name) }
		switch {
		case fl.Fixed:
			body = append(body, key, e.Clone().Dot("Literal").Call(jen.Lit(fl.Const.JSON())))
		case holdsPointer(fl) && fl.Required:
			body = append(body, key, jen.If(field().Op("==").Nil()).Block(
				e.Clone().Dot("Fail").Call(wireQ("MissingOnEncode").Call(jen.Lit(t.Name), jen.Lit(fl.JSONName))),
				e.Clone().Dot("Null").Call(),
			).Else().Block(writeFrom(fl.Type, field(), true)))
		case holdsPointer(fl):
			body = append(body, jen.If(field().Op("!=").Nil()).Block(key, writeFrom(fl.Type, field(), true)))
		case fl.Required:
			body = append(body, key, writeFrom(fl.Type, field(), false))
		default:
			body = append(body, jen.If(presentTest(fl.Type, field())).Block(key, writeFrom(fl.Type, field(), false)))
		}
	}
	switch t.Extra.Mode {
	case ir.ExtraKeep:
		body = append(body, e.Clone().Dot("ExtraMembers").Call(jen.Id("v").Dot(t.Extra.GoName), jen.Id(keysName(t))))
	case ir.ExtraTyped:
		body = append(body, wireQ("WriteMembers").Call(e.Clone(), jen.Id("v").Dot(t.Extra.GoName), jen.Id(keysName(t)), writer(t.Extra.Type)))
	}
	body = append(body, e.Clone().Dot("ObjectEnd").Call())
	f.Comment("// EncodeWire writes v as JSON.")
	f.Func().Params(recv(t)).Id("EncodeWire").Params(encoderParam()).Block(body...)
}
