package emit

import (
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/adcpgen/adcpgen/generator/internal/ir"
)

func armField(a *ir.Arm) *jen.Statement { return jen.Id("u").Dot(a.GoName) }

func armSet(a *ir.Arm) *jen.Statement {
	if a.Pointer() {
		return armField(a).Op("!=").Nil()
	}
	return presentTest(a.Type, armField(a))
}

var strategyNames = map[ir.Strategy]string{
	ir.ByKind: "its JSON type", ir.ByConst: "discriminator values", ir.ByPresence: "which keys are present", ir.ByTrial: "trying each arm in order",
}

// emitUnion writes a tagged struct with one field per arm, constructors,
// Kind/Variant/IsZero, and a decoder that picks the arm with one look ahead.
func emitUnion(f *jen.File, s *descSet, t *ir.Type) {
	u := t.Union
	addDoc(f, s.unionDoc(t))
	var fields []jen.Code
	for _, a := range u.Arms {
		fields = append(fields, comments(armDoc(a))...)
		typ := goType(a.Type)
		if a.Pointer() {
			typ = jen.Op("*").Add(typ)
		}
		fields = append(fields, jen.Id(a.GoName).Add(typ))
	}
	f.Type().Id(t.Name).Struct(fields...)

	unionConstructors(f, t)
	emitUnionKind(f, t)
	emitUnionDesc(f, s, t)
}

// unionConstructors writes New<Union><Arm> for every arm.
func unionConstructors(f *jen.File, t *ir.Type) {
	for _, a := range t.Union.Arms {
		name := a.Constructor
		f.Comment("// " + name + " returns a " + t.Name + " holding the " + a.GoName + " arm.")
		var body []jen.Code
		val := jen.Id("v")
		if a.Pointer() {
			val = jen.Op("&").Id("v")
		} else if a.Type.Kind == ir.RefSlice || a.Type.Kind == ir.RefMap {
			body = append(body, jen.If(jen.Id("v").Op("==").Nil()).Block(jen.Id("v").Op("=").Add(goType(a.Type)).Values()))
		}
		body = append(body, jen.Return(jen.Id(t.Name).Values(jen.Dict{jen.Id(a.GoName): val})))
		f.Func().Id(name).Params(jen.Id("v").Add(goType(a.Type))).Id(t.Name).Block(body...)
	}
}

// unionDoc is a union type's doc comment.
func (s *descSet) unionDoc(t *ir.Type) []string {
	u := t.Union
	rule := "Exactly one field is set. The decoder picks the arm by " + strategyNames[u.Strategy]
	if len(u.DiscProps) > 0 {
		rule += " (" + strings.Join(u.DiscProps, ", ") + ")"
	}
	return s.typeDoc(t, rule+".")
}

func armDoc(a *ir.Arm) []string {
	var lines []string
	text := strings.TrimSpace(a.Doc)
	if text != "" {
		lines = append(lines, commentLines(summarize(a.GoName, text))...)
	}
	return lines
}

var kindLetters = map[ir.JSONKind]string{
	ir.JSONString: "s", ir.JSONNumber: "n", ir.JSONInteger: "i", ir.JSONBool: "b", ir.JSONObject: "o", ir.JSONArray: "a",
}

var strategyIDs = map[ir.Strategy]string{ir.ByKind: "ByKind", ir.ByConst: "ByConst", ir.ByPresence: "ByPresence", ir.ByTrial: "ByTrial"}

// emitUnionDesc declares the union's Desc: its arms, each arm's Desc, and
// the rules the engine picks an arm by (see wireimpl.Union).
func emitUnionDesc(f *jen.File, s *descSet, t *ir.Type) {
	u := t.Union
	self := s.named[t]
	keyIndex := map[string]int{}
	var keys []jen.Code
	for i, k := range u.ProbeKeys {
		keyIndex[k] = i
		keys = append(keys, jen.Lit(k))
	}
	var arms []jen.Code
	for _, a := range u.Arms {
		d := []kv{{"Name", jen.Lit(a.GoName)}, {"Desc", s.ref(self, a.Type)}}
		switch u.Strategy {
		case ir.ByKind:
			var letters string
			for _, k := range a.Kinds {
				letters += kindLetters[k]
			}
			d = append(d, kv{"Kinds", jen.Lit(letters)})
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
			d = append(d, kv{"Const", jen.Index().Index().String().Values(per...)})
		case ir.ByPresence:
			if len(a.Required) > 0 {
				d = append(d, kv{"Required", indexList(a.Required, keyIndex)})
			}
			if len(a.Forbidden) > 0 {
				d = append(d, kv{"Forbidden", indexList(a.Forbidden, keyIndex)})
			}
			if len(a.Fixed) > 0 {
				d = append(d, kv{"Fixed", keyLits(a.Fixed, keyIndex)})
			}
			if len(a.Excluded) > 0 {
				d = append(d, kv{"Excluded", keyLits(a.Excluded, keyIndex)})
			}
		}
		arms = append(arms, fields(d...))
	}
	var exclusive, probe jen.Code
	if u.Exclusive {
		exclusive = jen.True()
	}
	if len(keys) > 0 {
		probe = jen.Index().String().Values(keys...)
	}
	rules := fields(kv{"Name", jen.Lit(t.Name)}, kv{"Strategy", implQ(strategyIDs[u.Strategy])}, kv{"Exclusive", exclusive},
		kv{"Keys", probe}, kv{"Arms", jen.Index().Add(implQ("UnionArm")).Add(lines(arms))})
	descVar(f, s, t, kv{"Shape", implQ("ShapeUnion")}, kv{"Name", jen.Lit(t.Name)}, kv{"Go", goTypeOf(jen.Id(t.Name))},
		kv{"Union", jen.Op("&").Add(implQ("Union")).Add(rules)})
	codecMethods(f, s, t, "u")
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
		out = append(out, fields(kv{"Key", jen.Lit(index[p.Key])}, kv{"Lit", jen.Lit(p.Value.JSON())}))
	}
	return jen.Index().Add(implQ("KeyLit")).Values(out...)
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
