package emit

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dave/jennifer/jen"

	"github.com/adcpgen/adcpgen/generator/internal/ir"
	"github.com/adcpgen/adcpgen/generator/internal/jsonsrc"
	"github.com/adcpgen/adcpgen/generator/internal/schema"
)

func field(name string, r *ir.Ref) *ir.Field { return &ir.Field{JSONName: name, GoName: name, Type: r} }

func structType(name string, fields ...*ir.Field) *ir.Type {
	return &ir.Type{Kind: ir.KindStruct, Name: name, Fields: fields, Extra: ir.Extra{Mode: ir.ExtraReject}}
}

// goSource renders a jen expression as Go source.
func goSource(c jen.Code) string { return fmt.Sprintf("%#v", c) }

func TestDescSetLateOnlyInsideCycles(t *testing.T) {
	node := structType("Node")
	node.Fields = []*ir.Field{field("children", ir.SliceOf(ir.NamedRef(node)))}
	self := structType("Self")
	self.Fields = []*ir.Field{{JSONName: "next", GoName: "Next", Type: ir.NamedRef(self), Indirect: true}}
	user := structType("User", field("node", ir.NamedRef(node)), field("nodes", ir.SliceOf(ir.NamedRef(node))))
	plz := schema.Value{Node: &jsonsrc.Node{Kind: jsonsrc.String, Str: "plz"}}
	codes := structType("Codes", field("codes", ir.SliceOf(&ir.Ref{Kind: ir.RefBuiltin, Builtin: ir.String, Const: &plz})))
	s := newDescSet([]*ir.Type{node, self, user, codes})

	if !s.late[node] || !s.late[self] || s.late[user] || s.late[codes] {
		t.Fatalf("late = %v; want Node (through []Node) and Self (itself) only", s.late)
	}
	tests := []struct {
		from *descNode
		ref  *ir.Ref
		want string
	}{
		{s.named[user], ir.NamedRef(node), "&descNode"},                     // outside Node's cycle: direct
		{s.named[user], ir.SliceOf(ir.NamedRef(node)), "&sliceOfNode"},      // shared with Node's own field
		{s.shared["[]TNode"], ir.NamedRef(node), "&lateNode"},               // the slice is inside the cycle
		{s.named[self], ir.NamedRef(self), "&lateSelf"},                     // a type referring to itself
		{s.named[user], ir.BuiltinRef(ir.DateTime), "&wireimpl.DescString"}, // builtins are wireimpl's
		{s.named[codes], codes.Fields[0].Type, "&sliceOfConstStringPlz"},    // a const item type
		{s.named[codes], codes.Fields[0].Type.Elem, "&constStringPlz"},
	}
	for _, tc := range tests {
		if got := goSource(s.ref(tc.from, tc.ref)); !strings.HasSuffix(got, tc.want) {
			t.Errorf("ref from %s to %s = %s, want %s", tc.from.name, refKey(tc.ref), got, tc.want)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("a type expression not collected before emission did not panic")
		}
	}()
	s.node(ir.MapOf(ir.NamedRef(user)))
}

func TestDescSetNamesConstsApart(t *testing.T) {
	lit := func(s string) *schema.Value {
		return &schema.Value{Node: &jsonsrc.Node{Kind: jsonsrc.String, Str: s}}
	}
	one := structType("One", &ir.Field{JSONName: "a", GoName: "A", Type: ir.BuiltinRef(ir.String), Const: lit("a-b"), Fixed: true, Required: true},
		&ir.Field{JSONName: "b", GoName: "B", Type: ir.BuiltinRef(ir.String), Const: lit("a_b"), Fixed: true, Required: true})
	s := newDescSet([]*ir.Type{one})
	a, b := goSource(s.constRef(one.Fields[0].Const, one.Fields[0].Type)), goSource(s.constRef(one.Fields[1].Const, one.Fields[1].Type))
	if a == b || !strings.HasPrefix(a, "&constStringAB") || !strings.HasPrefix(b, "&constStringAB") {
		t.Fatalf("two consts that sanitise alike: %s and %s", a, b)
	}
}
