package apidiff

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"testing"

	"github.com/adcpgen/adcpgen/generator/internal/emit"
	"github.com/adcpgen/adcpgen/generator/internal/ir"
	"github.com/adcpgen/adcpgen/generator/internal/load"
	"github.com/adcpgen/adcpgen/generator/internal/lower"
	"github.com/adcpgen/adcpgen/generator/internal/naming"
	"github.com/adcpgen/adcpgen/internal/testspec"
	"github.com/adcpgen/adcpgen/runtime/spec"
)

// TestGoTypesMatchEmittedSource keeps the spellings in gotype.go in step
// with what package emit declares: it emits a published tree, parses the
// Go and compares every field, arm and underlying type.
func TestGoTypesMatchEmittedSource(t *testing.T) {
	tree, err := spec.Open(filepath.Join(testspec.Dir(t), "schemas", "3.1.19"))
	if err != nil {
		t.Fatal(err)
	}
	set, err := load.Load(tree)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := lower.Build(set, lower.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if pkg.Registry, err = lower.BuildRegistry(set, pkg); err != nil {
		t.Fatal(err)
	}
	naming.Assign(pkg, naming.Keep{})
	files, err := emit.Emit(pkg, emit.Options{Package: "adcp"})
	if err != nil {
		t.Fatal(err)
	}

	// Every type declaration of the emitted package, by name.
	decls := map[string]ast.Expr{}
	fset := token.NewFileSet()
	for _, f := range files {
		file, err := parser.ParseFile(fset, f.Name, f.Data, parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		for _, d := range file.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.TYPE {
				for _, s := range g.Specs {
					ts := s.(*ast.TypeSpec)
					decls[ts.Name.Name] = ts.Type
				}
			}
		}
	}

	checked := 0
	for _, typ := range pkg.Types {
		decl, ok := decls[typ.Name]
		if !ok {
			t.Errorf("%s: not declared in the emitted code", typ.Name)
			continue
		}
		var want map[string]string // Go field name → type, or "" → underlying
		switch typ.Kind {
		case ir.KindStruct:
			want = map[string]string{}
			for _, fl := range typ.Fields {
				if !fl.Fixed {
					want[fl.GoName] = fieldGo(fl, plainName)
				}
			}
			for _, p := range typ.Patterns {
				want[p.GoName] = patternGo(p, plainName)
			}
			if g := extraGo(typ, plainName); g != "" {
				want[typ.Extra.GoName] = g
			}
		case ir.KindUnion:
			want = map[string]string{}
			for _, a := range armsOf(typ) {
				want[a.GoName] = armGo(a, plainName)
			}
		default:
			if got := types.ExprString(decl); got != underlyingGo(typ, plainName) {
				t.Errorf("%s: emitted over %s, apidiff spells %s", typ.Name, got, underlyingGo(typ, plainName))
			}
			checked++
			continue
		}
		st, ok := decl.(*ast.StructType)
		if !ok {
			t.Errorf("%s: emitted as %s, not a struct", typ.Name, types.ExprString(decl))
			continue
		}
		got := map[string]string{}
		for _, f := range st.Fields.List {
			for _, n := range f.Names {
				got[n.Name] = types.ExprString(f.Type)
			}
		}
		for name, w := range want {
			if got[name] != w {
				t.Errorf("%s.%s: emitted as %q, apidiff spells %q", typ.Name, name, got[name], w)
			}
			checked++
		}
		if len(got) != len(want) {
			t.Errorf("%s: emitted %d fields, apidiff knows %d", typ.Name, len(got), len(want))
		}
	}
	if checked < 10000 {
		t.Errorf("checked only %d fields and types", checked)
	}
	t.Logf("%d fields, arms and underlying types spelled as emitted", checked)
}
