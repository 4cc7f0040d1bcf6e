package emit

import (
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/adcpgen/adcpgen/generator/internal/ir"
	"github.com/adcpgen/adcpgen/generator/internal/naming"
)

func unionName(t *ir.Type) string { return "union" + t.Name }

// armPointer reports arms held as *T (nil when not chosen).
func armPointer(a *ir.Arm) bool { return byPointer(a.Type) }

func armField(a *ir.Arm) *jen.Statement { return jen.Id("u").Dot(a.GoName) }

func armSet(a *ir.Arm) *jen.Statement {
	if armPointer(a) {
		return armField(a).Op("!=").Nil()
	}
	return presentTest(a.Type, armField(a))
}

var strategyNames = map[ir.Strategy]string{
	ir.ByKind: "its JSON type", ir.ByConst: "discriminator values", ir.ByPresence: "which keys are present", ir.ByTrial: "trying each arm in order",
}

// emitUnion writes a tagged struct with one field per arm, constructors,
// Kind/Variant/IsZero, and a decoder that picks the arm with one look ahead.
func emitUnion(f *jen.File, t *ir.Type) {
	u := t.Union
	rule := "Exactly one field is set. The decoder picks the arm by " + strategyNames[u.Strategy]
	if len(u.DiscProps) > 0 {
		rule += " (" + strings.Join(u.DiscProps, ", ") + ")"
	}
	addDoc(f, docBlock(t.Name, t.Title, t.Description, t.Deprecated, schemaRef(t), rule+"."))
	var fields []jen.Code
	for _, a := range u.Arms {
		fields = append(fields, comments(armDoc(a))...)
		typ := goType(a.Type)
		if armPointer(a) {
			typ = jen.Op("*").Add(typ)
		}
		fields = append(fields, jen.Id(a.GoName).Add(typ))
	}
	f.Type().Id(t.Name).Struct(fields...)

	for _, a := range u.Arms {
		name := naming.ArmConstructor(t, a)
		f.Comment("// " + name + " returns a " + t.Name + " holding the " + a.GoName + " arm.")
		var body []jen.Code
		val := jen.Id("v")
		if armPointer(a) {
			val = jen.Op("&").Id("v")
		} else if a.Type.Kind == ir.RefSlice || a.Type.Kind == ir.RefMap {
			body = append(body, jen.If(jen.Id("v").Op("==").Nil()).Block(jen.Id("v").Op("=").Add(goType(a.Type)).Values()))
		}
		body = append(body, jen.Return(jen.Id(t.Name).Values(jen.Dict{jen.Id(a.GoName): val})))
		f.Func().Id(name).Params(jen.Id("v").Add(goType(a.Type))).Id(t.Name).Block(body...)
	}

	var sets []jen.Code
	for _, a := range u.Arms {
		sets = append(sets, armSet(a))
	}
	emitUnionKind(f, t)

	switch u.Strategy {
	case ir.ByTrial:
		emitTrialDecode(f, t)
	case ir.ByPresence:
		emitUnionTable(f, t)
		emitPresenceDecode(f, t)
	default:
		emitUnionTable(f, t)
		emitPickDecode(f, t)
	}
	emitUnionEncode(f, t, sets)
}

func armDoc(a *ir.Arm) []string {
	var lines []string
	text := strings.TrimSpace(a.Doc)
	if text != "" {
		lines = append(lines, commentLines(a.GoName+": "+text)...)
	}
	return lines
}

var kindLetters = map[ir.JSONKind]string{
	ir.JSONString: "s", ir.JSONNumber: "n", ir.JSONInteger: "i", ir.JSONBool: "b", ir.JSONObject: "o", ir.JSONArray: "a",
}

// emitUnionTable declares the wire.Union that PickArm reads.
func emitUnionTable(f *jen.File, t *ir.Type) {
	u := t.Union
	strategy := map[ir.Strategy]string{ir.ByKind: "ByKind", ir.ByConst: "ByConst", ir.ByPresence: "ByPresence"}[u.Strategy]
	keyIndex := map[string]int{}
	var keys []jen.Code
	for i, k := range u.ProbeKeys {
		keyIndex[k] = i
		keys = append(keys, jen.Lit(k))
	}
	var arms []jen.Code
	for _, a := range u.Arms {
		d := jen.Dict{jen.Id("Name"): jen.Lit(a.GoName)}
		switch u.Strategy {
		case ir.ByKind:
			var letters string
			for _, k := range a.Kinds {
				letters += kindLetters[k]
			}
			d[jen.Id("Kinds")] = jen.Lit(letters)
		case ir.ByConst:
			var per []jen.Code
			for _, vals := range a.Disc {
				if vals == nil {
					per = append(per, jen.Nil())
					continue
				}
				var lits []jen.Code
				for _, v := range vals {
					lits = append(lits, jen.Lit(v.JSON()))
				}
				per = append(per, jen.Values(lits...))
			}
			d[jen.Id("Const")] = jen.Index().Index().String().Values(per...)
		case ir.ByPresence:
			if len(a.Required) > 0 {
				d[jen.Id("Required")] = indexList(a.Required, keyIndex)
			}
			if len(a.Forbidden) > 0 {
				d[jen.Id("Forbidden")] = indexList(a.Forbidden, keyIndex)
			}
			if len(a.Fixed) > 0 {
				d[jen.Id("Fixed")] = keyLits(a.Fixed, keyIndex)
			}
			if len(a.Excluded) > 0 {
				d[jen.Id("Excluded")] = keyLits(a.Excluded, keyIndex)
			}
		}
		arms = append(arms, jen.Values(d))
	}
	fields := jen.Dict{
		jen.Id("Name"):      jen.Lit(t.Name),
		jen.Id("Strategy"):  wireQ(strategy),
		jen.Id("Exclusive"): jen.Lit(u.Exclusive),
		jen.Id("Arms"):      jen.Index().Add(wireQ("UnionArm")).Values(arms...),
	}
	if len(keys) > 0 {
		fields[jen.Id("Keys")] = jen.Index().String().Values(keys...)
	}
	f.Var().Id(unionName(t)).Op("=").Op("&").Add(wireQ("Union")).Values(fields)
}

func indexList(keys []string, index map[string]int) jen.Code {
	var out []jen.Code
	for _, k := range keys {
		out = append(out, jen.Lit(index[k]))
	}
	return jen.Index().Int().Values(out...)
}

func keyLits(pairs []ir.ConstPresent, index map[string]int) jen.Code {
	var out []jen.Code
	for _, p := range pairs {
		out = append(out, jen.Values(jen.Dict{jen.Id("Key"): jen.Lit(index[p.Key]), jen.Id("Lit"): jen.Lit(p.Value.JSON())}))
	}
	return jen.Index().Add(wireQ("KeyLit")).Values(out...)
}

// armRead renders reading the chosen arm into its field.
func armRead(a *ir.Arm) jen.Code {
	if armPointer(a) {
		return wireQ("ReadPtr").Call(jen.Id("d"), jen.Op("&").Add(armField(a)), reader(a.Type))
	}
	return readInto(a.Type, armField(a))
}

func emitPickDecode(f *jen.File, t *ir.Type) {
	var cases []jen.Code
	for i, a := range t.Union.Arms {
		cases = append(cases, jen.Case(jen.Lit(i)).Block(jen.Return(armRead(a))))
	}
	f.Comment("// DecodeWire picks the arm from the payload and reads it strictly.")
	f.Func().Params(jen.Id("u").Op("*").Id(t.Name)).Id("DecodeWire").Params(decoderParam()).Error().Block(
		jen.Op("*").Id("u").Op("=").Id(t.Name).Values(),
		jen.List(jen.Id("arm"), jen.Err()).Op(":=").Id("d").Dot("PickArm").Call(jen.Id(unionName(t))),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.Switch(jen.Id("arm")).Block(cases...),
		jen.Return(jen.Nil()),
	)
}

// emitPresenceDecode picks the arms whose key rules the payload meets and,
// when several do, lets a strict decode of each decide.
func emitPresenceDecode(f *jen.File, t *ir.Type) {
	var cases []jen.Code
	for i, a := range t.Union.Arms {
		cases = append(cases, jen.Case(jen.Lit(i)).Block(jen.Return(armRead(a))))
	}
	f.Comment("// DecodeWire picks the arm by the keys present (and, when several arms allow")
	f.Comment("// them, by which one decodes strictly) and reads it.")
	f.Func().Params(jen.Id("u").Op("*").Id(t.Name)).Id("DecodeWire").Params(decoderParam()).Error().Block(
		jen.List(jen.Id("arms"), jen.Err()).Op(":=").Id("d").Dot("PickArms").Call(jen.Id(unionName(t))),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.Return(jen.Id("d").Dot("DecodeCandidates").Call(jen.Id(unionName(t)), jen.Id("arms"),
			jen.Func().Params(jen.Id("arm").Int()).Error().Block(
				jen.Op("*").Id("u").Op("=").Id(t.Name).Values(),
				jen.Switch(jen.Id("arm")).Block(cases...),
				jen.Return(jen.Nil()),
			))),
	)
}

// emitTrialDecode tries each arm in order and keeps the first that decodes.
func emitTrialDecode(f *jen.File, t *ir.Type) {
	body := []jen.Code{
		jen.Op("*").Id("u").Op("=").Id(t.Name).Values(),
		jen.Id("m").Op(":=").Id("d").Dot("Mark").Call(),
		jen.Var().Id("fails").Index().Add(wireQ("ArmError")),
	}
	for _, a := range t.Union.Arms {
		body = append(body,
			jen.If(jen.Err().Op(":=").Add(armRead(a)), jen.Err().Op("==").Nil()).Block(jen.Return(jen.Nil())).Else().Block(
				jen.Id("fails").Op("=").Append(jen.Id("fails"), wireQ("ArmFailure").Call(jen.Lit(a.GoName), jen.Err())),
			),
			jen.Op("*").Id("u").Op("=").Id(t.Name).Values(),
			jen.Id("d").Dot("Reset").Call(jen.Id("m")),
		)
	}
	body = append(body, jen.Return(jen.Id("d").Dot("NoArm").Call(jen.Lit(t.Name), jen.Id("fails"))))
	f.Comment("// DecodeWire tries each arm in order and keeps the first that decodes.")
	f.Func().Params(jen.Id("u").Op("*").Id(t.Name)).Id("DecodeWire").Params(decoderParam()).Error().Block(body...)
}

func emitUnionEncode(f *jen.File, t *ir.Type, sets []jen.Code) {
	var cases []jen.Code
	for _, a := range t.Union.Arms {
		cases = append(cases, jen.Case(armSet(a)).Block(writeFrom(a.Type, armField(a), armPointer(a))))
	}
	f.Comment("// EncodeWire writes the arm that is set; none or several is an error.")
	f.Func().Params(jen.Id("u").Op("*").Id(t.Name)).Id("EncodeWire").Params(encoderParam()).Block(
		jen.If(jen.Id("n").Op(":=").Add(wireQ("CountSet")).Call(sets...), jen.Id("n").Op("!=").Lit(1)).Block(
			jen.Id("e").Dot("Fail").Call(wireQ("VariantCount").Call(jen.Lit(t.Name), jen.Id("n"))),
			jen.Id("e").Dot("Null").Call(),
			jen.Return(),
		),
		jen.Switch().Block(cases...),
	)
}

// emitUnionKind writes the enum of arms, Kind (a typed constant, so a
// switch over arms is checked by the compiler and exhaustiveness linters),
// and Variant and IsZero on top of it. The zero Kind is "no arm set".
func emitUnionKind(f *jen.File, t *ir.Type) {
	u := t.Union
	f.Comment("// " + u.KindType + " names an arm of " + t.Name + "; the zero value means no arm is set.")
	f.Type().Id(u.KindType).Uint8()
	var consts []jen.Code
	names := []jen.Code{jen.Lit("")}
	for i, a := range u.Arms {
		c := jen.Id(a.KindConst)
		if i == 0 {
			c.Id(u.KindType).Op("=").Iota().Op("+").Lit(1)
		}
		consts = append(consts, c)
		names = append(names, jen.Lit(a.GoName))
	}
	f.Const().Defs(consts...)
	f.Comment("// String is the arm's field name, or \"\" for the zero value.")
	f.Func().Params(jen.Id("k").Id(u.KindType)).Id("String").Params().String().Block(
		jen.If(jen.Int().Parens(jen.Id("k")).Op(">=").Lit(len(names))).Block(jen.Return(jen.Lit(""))),
		jen.Return(jen.Index(jen.Op("...")).String().Values(names...).Index(jen.Id("k"))),
	)
	var cases []jen.Code
	for _, a := range u.Arms {
		cases = append(cases, jen.Case(armSet(a)).Block(jen.Return(jen.Id(a.KindConst))))
	}
	f.Comment("// Kind reports the arm that is set (the first, when several are), or 0 when none is.")
	f.Func().Params(jen.Id("u").Id(t.Name)).Id("Kind").Params().Id(u.KindType).Block(
		jen.Switch().Block(cases...),
		jen.Return(jen.Lit(0)),
	)
	f.Comment("// Variant names the arm that is set, or \"\" when none is.")
	f.Func().Params(jen.Id("u").Id(t.Name)).Id("Variant").Params().String().Block(
		jen.Return(jen.Id("u").Dot("Kind").Call().Dot("String").Call()),
	)
	f.Comment("// IsZero reports a union with no arm set (an absent value).")
	f.Func().Params(jen.Id("u").Id(t.Name)).Id("IsZero").Params().Bool().Block(
		jen.Return(jen.Id("u").Dot("Kind").Call().Op("==").Lit(0)),
	)
}
