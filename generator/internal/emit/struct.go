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

// keyLit renders the quoted key and colon as a Go literal, in backquotes
// when it reads better that way.
func keyLit(name string) jen.Code {
	k := quotedKey(name)
	if strings.ContainsAny(k, "`\\") || strings.ContainsFunc(k, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return jen.Lit(k)
	}
	return jen.Op("`" + k + "`")
}

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
	addDoc(f, docBlock(t.Name, t.Title, t.Description, t.Deprecated, schemaRef(t), notes...))
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

func requiredName(t *ir.Type) string       { return "req" + t.Name }
func patternName(t *ir.Type, i int) string { return "pat" + t.Name + strconv.Itoa(i) }
func keysName(t *ir.Type) string           { return "keys" + t.Name }

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
	for i, p := range t.Patterns {
		f.Var().Id(patternName(t, i)).Op("=").Qual("regexp", "MustCompile").Call(jen.Lit(p.Pattern))
	}
	if t.Extra.Mode == ir.ExtraKeep || t.Extra.Mode == ir.ExtraTyped || len(t.Patterns) > 0 {
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
		cases = append(cases, jen.Case(jen.Lit(fl.JSONName)).Block(jen.Err().Op("=").Add(fieldRead(fl, i))))
	}
	var extra jen.Code
	switch t.Extra.Mode {
	case ir.ExtraReject:
		extra = jen.Id("d").Dot("UnknownField").Call(jen.Id("key"))
	case ir.ExtraTyped:
		extra = wireQ("ReadMapEntry").Call(jen.Id("d"), jen.Id("key"), jen.Op("&").Id("v").Dot(t.Extra.GoName), reader(t.Extra.Type))
	default:
		extra = jen.Id("d").Dot("KeepUnknown").Call(jen.Id("key"), jen.Op("&").Id("v").Dot(t.Extra.GoName))
	}
	if len(t.Patterns) > 0 {
		var pcases []jen.Code
		for i, p := range t.Patterns {
			pcases = append(pcases, jen.Case(jen.Id(patternName(t, i)).Dot("Match").Call(jen.Id("key"))).Block(
				jen.Err().Op("=").Add(wireQ("ReadMapEntry").Call(jen.Id("d"), jen.Id("key"), jen.Op("&").Id("v").Dot(p.GoName), reader(p.Type)))))
		}
		pcases = append(pcases, jen.Default().Block(jen.Err().Op("=").Add(extra)))
		cases = append(cases, jen.Default().Block(jen.Switch().Block(pcases...)))
	} else {
		cases = append(cases, jen.Default().Block(jen.Err().Op("=").Add(extra)))
	}

	body := []jen.Code{
		jen.Op("*").Id("v").Op("=").Id(t.Name).Values(),
		returnIfErr(jen.Id("d").Dot("ObjectStart").Call()),
	}
	if len(t.Fields) > 0 {
		body = append(body, jen.Var().Id("seen").Index(jen.Lit(words(t))).Uint64())
	}
	done := jen.Nil()
	if hasRequired(t) {
		done = jen.Id("d").Dot("CheckRequired").Call(jen.Id("seen").Index(jen.Empty(), jen.Empty()), jen.Id(requiredName(t)))
	}
	body = append(body, jen.For().Block(
		jen.List(jen.Id("key"), jen.Id("ok"), jen.Err()).Op(":=").Id("d").Dot("NextKey").Call(),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.If(jen.Op("!").Id("ok")).Block(jen.Return(done)),
		jen.Switch(jen.String().Parens(jen.Id("key"))).Block(cases...),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
	))
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

// fieldRead renders the call that checks and reads one member's value.
func fieldRead(fl *ir.Field, bit int) jen.Code {
	place := jen.Op("&").Id("v").Dot(fl.GoName)
	args := func(rest ...jen.Code) []jen.Code {
		return append([]jen.Code{jen.Id("d"), jen.Id("seen").Index(jen.Empty(), jen.Empty()), jen.Lit(bit), jen.Id("key")}, rest...)
	}
	switch {
	case fl.Fixed:
		return jen.Id("d").Dot("FieldConst").Call(args(jen.Lit(fl.Const.JSON()))[1:]...)
	case fl.Const != nil:
		return wireQ("FieldConstPtr").Call(args(place, jen.Lit(fl.Const.JSON()), constLit(fl))...)
	case holdsPointer(fl):
		return wireQ("FieldPtr").Call(args(place, reader(fl.Type))...)
	case fl.Type.Kind == ir.RefSlice:
		return wireQ("FieldSlice").Call(args(place, reader(fl.Type.Elem))...)
	case fl.Type.Kind == ir.RefMap:
		return wireQ("FieldMap").Call(args(place, reader(fl.Type.Elem))...)
	case fl.Type.Kind == ir.RefNullable:
		return wireQ("FieldNullable").Call(args(place, reader(fl.Type.Elem))...)
	}
	return wireQ("Field").Call(args(place, reader(fl.Type))...)
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
	e := func() *jen.Statement { return jen.Id("e") }
	body := []jen.Code{e().Dot("ObjectStart").Call()}
	for _, fl := range t.Fields {
		body = append(body, fieldWrite(t, fl))
	}
	for _, p := range t.Patterns {
		body = append(body, wireQ("WriteMembers").Call(e(), jen.Id("v").Dot(p.GoName), jen.Id(keysName(t)), writer(p.Type)))
	}
	switch t.Extra.Mode {
	case ir.ExtraKeep:
		body = append(body, e().Dot("ExtraMembers").Call(jen.Id("v").Dot(t.Extra.GoName), jen.Id(keysName(t))))
	case ir.ExtraTyped:
		body = append(body, wireQ("WriteMembers").Call(e(), jen.Id("v").Dot(t.Extra.GoName), jen.Id(keysName(t)), writer(t.Extra.Type)))
	}
	body = append(body, e().Dot("ObjectEnd").Call())
	f.Comment("// EncodeWire writes v as JSON.")
	f.Func().Params(recv(t)).Id("EncodeWire").Params(encoderParam()).Block(body...)
}

// fieldWrite renders writing one member, omitting it when optional and
// absent.
func fieldWrite(t *ir.Type, fl *ir.Field) jen.Code {
	key := keyLit(fl.JSONName)
	e := jen.Id("e")
	field := func() *jen.Statement { return jen.Id("v").Dot(fl.GoName) }
	switch {
	case fl.Fixed:
		return e.Dot("Fixed").Call(key, jen.Lit(fl.Const.JSON()))
	case holdsPointer(fl) && fl.Required:
		return wireQ("PutRequired").Call(e, key, field(), writer(fl.Type), jen.Lit(t.Name), jen.Lit(fl.JSONName))
	case holdsPointer(fl):
		return wireQ("PutPtr").Call(e, key, field(), writer(fl.Type))
	case fl.Required:
		return wireQ("Put").Call(e, key, jen.Op("&").Add(field()), writer(fl.Type))
	case fl.Type.Kind == ir.RefSlice:
		return wireQ("PutSlice").Call(e, key, field(), writer(fl.Type.Elem))
	case fl.Type.Kind == ir.RefMap:
		return wireQ("PutMap").Call(e, key, field(), writer(fl.Type.Elem))
	case fl.Type.Kind == ir.RefNullable:
		return wireQ("PutNullable").Call(e, key, jen.Op("&").Add(field()), writer(fl.Type.Elem))
	case fl.Type.Kind == ir.RefBuiltin: // raw JSON
		return wireQ("PutRaw").Call(e, key, field())
	case fl.Type.Named.Kind == ir.KindUnion:
		return e.Dot("PutOptional").Call(key, jen.Op("&").Add(field()))
	}
	// A named slice, map or raw type: nil is absent.
	return jen.If(field().Op("!=").Nil()).Block(wireQ("Put").Call(jen.Id("e"), key, jen.Op("&").Add(field()), writer(fl.Type)))
}
